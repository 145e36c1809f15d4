"""Exact reference facts an audit found untested, reproduced from the product's own data and functions:

* giltspiel.md §10.3 (lines 662-665): trumps in one hand, in a team's hands and among the 20 dealt
  cards, and the trump Ace in some hand; plus a Monte-Carlo run of the product's dealer covering them;
* giltspiel.md §10.6 (line 777): the bluff break-even concession rate `simcore.betting.bluff_break_even`;
* perlaggen.md §11.1 (lines 937-943, 962-972): hand and deal counts, Perlaggen-per-hand means;
* pinochle3.md §9.2 (lines 528-538): the V4a nines throw-in rate and the "no meld except deece"
  reference, exactly, through the product's exact meld DP (`pinochle3.exact_meld_distribution`).
"""

from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest

from simcore import betting
from simcore.cards import subset_masks
from simcore.dealing import DealSpec, deal
from simcore.games import giltspiel as G
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as PD
from simcore.games import perlaggen_variants as PV
from simcore.games import pinochle3 as p3
from simcore.rng import BLOCK_DEALS, block_words

from exact import is_printed
from test_mc_giltspiel import within
from test_perlaggen_figures import PERLAGGEN_PER_HAND
from test_pinochle3_melds import needs_jit


# --- giltspiel.md §10.3: trump facts ----------------------------------------------------------------
TURNUP_CARDS = int(G.LAYOUT.sizes[G.TURNUP])
UNSEEN = G.DECK.n_cards - TURNUP_CARDS  # 31: the turn-up is out of play
TRUMPS_UNSEEN = G.DECK.n_ranks - TURNUP_CARDS  # 7: the turn-up is a trump
TEAM_CARDS = 2 * G.HAND_SIZE  # two partners' hands
DEALT = G.SEATS * G.HAND_SIZE  # 20
ACE = G.DECK.ranks.index("A")


def trumps_among(cards: int, k: int) -> Fraction:
    """P(exactly k of the unseen trumps among ``cards`` cards dealt from the unseen), hypergeometric."""
    if k > cards:
        return Fraction(0)
    return Fraction(comb(TRUMPS_UNSEEN, k) * comb(UNSEEN - TRUMPS_UNSEEN, cards - k), comb(UNSEEN, cards))


# giltspiel.md line 662: k -> (exact P as printed or None, decimal as printed)
SPEC_TRUMPS_HAND = {0: (Fraction(2024, 8091), ".25015"), 1: (Fraction(3542, 8091), ".43777"), 2: (None, ".25015"),
                    3: (Fraction(460, 8091), ".05685"), 4: (Fraction(40, 8091), ".00494"),
                    5: (Fraction(1, 8091), ".00012")}
# giltspiel.md line 663: trumps held by a team, k = 0..7
SPEC_TRUMPS_TEAM = [".04422", ".20636", ".34823", ".27312", ".10621", ".02012", ".00168", ".00005"]
# giltspiel.md line 664: trumps among all 20 dealt cards
SPEC_DEALT_MEAN, SPEC_DEALT_MODE, SPEC_DEALT_MODE_P, SPEC_ALL_DEALT = Fraction(140, 31), 5, ".32428", ".02948"
# giltspiel.md line 665
SPEC_ACE_DEALT = Fraction(35, 62)


def test_giltspiel_pack_behind_the_trump_facts():
    """giltspiel.md line 662: 7 trumps among the 31 unseen cards (the turn-up is a trump, out of play)."""
    assert (UNSEEN, TRUMPS_UNSEEN, G.HAND_SIZE, TEAM_CARDS, DEALT) == (31, 7, 5, 10, 20)


def test_trumps_in_one_hand_spec_10_3():
    """giltspiel.md §10.3 line 662: P(k trumps in one hand) = C(7,k)·C(24,5-k)/C(31,5)."""
    dist = [trumps_among(G.HAND_SIZE, k) for k in range(TRUMPS_UNSEEN + 1)]
    assert sum(dist) == 1 and dist[G.HAND_SIZE + 1:] == [0, 0]
    for k, (exact, text) in SPEC_TRUMPS_HAND.items():
        if exact is not None:
            assert dist[k] == exact, k
        assert is_printed(dist[k], text), (k, float(dist[k]), text)
    assert dist[2] == dist[0]  # the spec prints 2 with the decimal of 0: they are equal exactly


def test_trumps_in_one_hand_by_enumeration_spec_10_3():
    """giltspiel.md §10.3 line 662, by enumeration: for every turn-up, the product's 201,376 hands
    (`giltspiel.all_hands`) that avoid it, tallied by trumps held, are C(31,5) hands split as the spec says."""
    hands = G.all_hands()
    expected = np.array([trumps_among(G.HAND_SIZE, k) * comb(UNSEEN, G.HAND_SIZE) for k in range(G.HAND_SIZE + 1)],
                        dtype=np.int64)
    for turnup in range(G.DECK.n_cards):
        suit = G.DECK.suit_of_face(G.DECK.face_of(turnup))
        trumps = np.uint64(G.DECK.mask([c for c in range(G.DECK.n_cards)
                                        if G.DECK.suit_of_face(G.DECK.face_of(c)) == suit]))
        unseen = hands[(hands >> np.uint64(turnup)) & np.uint64(1) == 0]
        assert unseen.size == comb(UNSEEN, G.HAND_SIZE)
        counts = np.bincount(np.bitwise_count(unseen & trumps), minlength=G.HAND_SIZE + 1)
        assert np.array_equal(counts, expected), turnup
    assert expected[0] * Fraction(1, comb(UNSEEN, G.HAND_SIZE)) == Fraction(2024, 8091)


def test_trumps_held_by_a_team_spec_10_3():
    """giltspiel.md §10.3 line 663: trumps among the team's 10 of the 31 unseen cards."""
    dist = [trumps_among(TEAM_CARDS, k) for k in range(TRUMPS_UNSEEN + 1)]
    assert sum(dist) == 1
    for k, text in enumerate(SPEC_TRUMPS_TEAM):
        assert is_printed(dist[k], text), (k, float(dist[k]), text)


def test_trumps_among_the_dealt_cards_spec_10_3():
    """giltspiel.md §10.3 line 664: trumps among all 20 dealt cards: mean 140/31 = 4.516, mode 5 (.32428),
    P(all 7 dealt) = .02948."""
    dist = [trumps_among(DEALT, k) for k in range(TRUMPS_UNSEEN + 1)]
    assert sum(dist) == 1
    mean = sum(k * p for k, p in enumerate(dist))
    assert mean == SPEC_DEALT_MEAN == Fraction(DEALT * TRUMPS_UNSEEN, UNSEEN)
    assert is_printed(mean, "4.516")
    assert max(range(len(dist)), key=dist.__getitem__) == SPEC_DEALT_MODE
    assert is_printed(dist[SPEC_DEALT_MODE], SPEC_DEALT_MODE_P)
    assert is_printed(dist[TRUMPS_UNSEEN], SPEC_ALL_DEALT)


def test_trump_ace_in_some_hand_spec_10_3():
    """giltspiel.md §10.3 line 665: the trump Ace is in some hand with P = (7/8)·(20/31) = 35/62 = 0.5645:
    the turn-up is not the Ace, and the Ace is among the 20 dealt of the 31 unseen."""
    not_turned = Fraction(G.DECK.n_ranks - TURNUP_CARDS, G.DECK.n_ranks)
    dealt = Fraction(comb(UNSEEN - 1, DEALT - 1), comb(UNSEEN, DEALT))
    p = not_turned * dealt
    assert p == SPEC_ACE_DEALT
    assert is_printed(p, "0.5645")


def test_product_dealer_covers_the_trump_facts_spec_10_3():
    """giltspiel.md §10.3 lines 662-665: one block of deals of the product's Giltspiel layout
    (`DealSpec(giltspiel.LAYOUT)`) covers every exact value in a 99.9 % interval."""
    spec = DealSpec(G.LAYOUT)
    slots = deal(spec, block_words(20260603, 0, BLOCK_DEALS, spec.words_per_deal))
    n = slots.shape[0]
    turnup = slots[:, G.TURNUP]
    card = np.bitwise_count(turnup - np.uint64(1)).astype(np.int64)  # index of the turn-up's one bit
    suit = card // G.DECK.n_ranks
    trumps = (np.uint64(0xFF) << (G.DECK.n_ranks * suit).astype(np.uint64)).astype(np.uint64)
    hand = np.bitwise_count(slots[:, 0] & trumps)
    team = np.bitwise_count((slots[:, 0] | slots[:, 2]) & trumps)
    dealt_mask = slots[:, 0] | slots[:, 1] | slots[:, 2] | slots[:, 3]
    dealt = np.bitwise_count(dealt_mask & trumps)
    for k in range(TRUMPS_UNSEEN + 1):
        assert within(np.sum(hand == k), n, trumps_among(G.HAND_SIZE, k)), ("hand", k)
        assert within(np.sum(team == k), n, trumps_among(TEAM_CARDS, k)), ("team", k)
        assert within(np.sum(dealt == k), n, trumps_among(DEALT, k)), ("dealt", k)
    ace = (dealt_mask >> (G.DECK.n_ranks * suit + ACE).astype(np.uint64)) & np.uint64(1)
    assert within(int(ace.sum()), n, SPEC_ACE_DEALT)
    se = dealt.std() / np.sqrt(n)
    assert abs(dealt.mean() - float(SPEC_DEALT_MEAN)) < 4.5 * se


# --- giltspiel.md §10.6: bluff break-even ---------------------------------------------------------------
def bet_ev(c, v, d):
    """giltspiel.md line 777: EV of betting when the opponents concede with probability c."""
    return c * v + (1 - c) * (v + 1) * d


def test_bluff_break_even_spec_example_10_6():
    """giltspiel.md §10.6 line 777: v = 1, d = -1 -> c* = 1/3."""
    assert betting.bluff_break_even(1, Fraction(-1)) == Fraction(1, 3)
    assert betting.bluff_break_even(1, -1.0) == 1 / 3


@pytest.mark.parametrize("v", range(1, 8))
def test_bluff_break_even_formula_10_6(v):
    """giltspiel.md §10.6 line 777: c* = |d| / (v + (v+1)|d|) is where betting, c·v + (1-c)(v+1)·d, equals
    not betting, v·d; "bet iff c·(v - (v+1)d) > -d" holds just above c* and fails just below it."""
    for d in [Fraction(-q, 12) for q in range(1, 13)]:
        c = betting.bluff_break_even(v, d)
        assert c == abs(d) / (v + (v + 1) * abs(d)), (v, d)
        assert 0 < c < 1
        assert bet_ev(c, v, d) == v * d, (v, d)
        for eps in (Fraction(1, 1000), Fraction(-1, 1000)):
            bets = (c + eps) * (v - (v + 1) * d) > -d
            assert bets == (eps > 0) == (bet_ev(c + eps, v, d) > v * d), (v, d, eps)
        assert betting.bluff_break_even(v, float(d)) == pytest.approx(float(c), rel=1e-12)
    assert betting.bluff_break_even(v, Fraction(-1)) == Fraction(1, 2 * v + 1)  # d = -1: always lose a held bet


# --- perlaggen.md §11.1: counts and Perlaggen per hand ------------------------------------------------------
N_PACK = P.DECK.n_cards
UNDEALT_4 = N_PACK - PD.SEATS * PD.HAND_SIZE


def deals(players: int, hand: int) -> int:
    """Deals of ``players`` labelled hands of ``hand`` cards, the rest of the pack unordered (multinomial)."""
    return factorial(N_PACK) // (factorial(hand) ** players * factorial(N_PACK - players * hand))


def test_perlaggen_hand_counts_spec_11_1():
    """perlaggen.md §11.1 lines 937-940: C(33,5), C(32,5) (not the turned card), C(33,4) for the 6-player
    game's 4-card hands, C(33,7) for the 2- and 3-player games' 7-card hands; hand sizes are the product's."""
    assert N_PACK == 33 and PD.PLAYER_COUNTS == (2, 3, 4, 6)
    assert comb(N_PACK, PD.HAND_SIZE) == 237_336
    assert comb(N_PACK - 1, PD.HAND_SIZE) == 201_376
    assert comb(N_PACK, PV.TableRules(players=6).hand_size) == 40_920
    for players in (2, 3):
        assert comb(N_PACK, PV.TableRules(players=players).hand_size) == 4_272_048, players


def test_perlaggen_deal_counts_spec_11_1():
    """perlaggen.md §11.1 lines 941-943: 4-player deals 33!/(5!^4·13!) (x 13 for the turned card), 3-player
    33!/(7!^3·12!), 2-player 33!/(7!^2·19!), from the product's seats and hand sizes."""
    four = deals(PD.SEATS, PD.HAND_SIZE)
    assert four == 6_724_815_696_833_794_560 and UNDEALT_4 == 13
    # x 13: the turned card as a labelled place of its own among the 13 undealt
    with_turned = factorial(N_PACK) // (factorial(PD.HAND_SIZE) ** PD.SEATS * factorial(UNDEALT_4 - 1))
    assert with_turned == 13 * four
    assert deals(3, PV.TableRules(players=3).hand_size) == 141_597_998_151_667_200
    assert deals(2, PV.TableRules(players=2).hand_size) == 2_810_153_174_400


@pytest.fixture(scope="module")
def perlaggen_hands():
    """All C(33,5) five-card hands of the product's pack as masks."""
    return subset_masks(range(N_PACK), PD.HAND_SIZE)


# perlaggen.md line 972: (style, trumps, Perlaggen m, mean as printed)
PERLAGG_MEANS = [("innsbruck", ("S", "E"), 6, "0.909"), ("innsbruck", ("H", "L"), 7, "1.061"),
                 ("eichel", P.trump_suits("eichel"), 8, "1.212")]


@pytest.mark.parametrize("style, trumps, m, text", PERLAGG_MEANS, ids=["inn-SE", "inn-HL", "eichel"])
def test_perlaggen_per_hand_mean_spec_11_1(perlaggen_hands, style, trumps, m, text):
    """perlaggen.md §11.1 lines 962-972: mean Perlaggen in one 5-card hand = 5m/33 (0.909 / 1.061 / 1.212),
    by enumerating all hands against the product's Perlaggen of each trump."""
    for trump in trumps:
        assert len(P.perlaggen(style, trump)) == m, trump
        held = np.bitwise_count(perlaggen_hands & np.uint64(P.perlagg_mask(style, trump))).astype(np.int64)
        counts = np.bincount(held, minlength=PD.HAND_SIZE + 1)
        assert tuple(counts) == PERLAGGEN_PER_HAND[m], trump
        mean = Fraction(int(held.sum()), int(held.size))
        assert mean == Fraction(PD.HAND_SIZE * m, N_PACK) == Fraction(
            sum(j * c for j, c in enumerate(PERLAGGEN_PER_HAND[m])), comb(N_PACK, PD.HAND_SIZE))
        assert is_printed(mean, text), (trump, float(mean))


# --- pinochle3.md §9.2: V4a and the no-meld reference, exactly --------------------------------------------
NINES_IN_PACK = int(np.bitwise_count(p3.NINES))
NON_NINES = [c for c in range(p3.DECK.n_cards) if p3.DECK.rank_of_face(p3.DECK.face_of(c)) != p3.NINE]


@pytest.fixture(scope="module")
def meld_free():
    """m -> holdings of m cards with best meld 0 (`exact_meld_distribution(m)[0]`), for m = 0..4 and the
    15-card hand's non-nine parts (7..15 cards). Best meld 0 means no nine (each is a deece under its own
    trump) and no marriage, pinochle or around: exactly the meld-free holdings of the 40 non-nine cards."""
    sizes = sorted(set(range(5)) | set(range(p3.HAND_SIZE - NINES_IN_PACK, p3.HAND_SIZE + 1)))
    return {m: int(p3.exact_meld_distribution(m)[0]) for m in sizes}


def only_deece_holdings(meld_free, nines) -> int:
    """15-card holdings with ``nines`` nines and no meld except deece: the nines, then a meld-free rest."""
    return sum(comb(NINES_IN_PACK, k) * meld_free[p3.HAND_SIZE - k] for k in nines)


@needs_jit
def test_only_deece_decomposition_on_small_holdings(meld_free):
    """The decomposition behind the exact rates, checked with the product's own predicates: every 4-card
    holding has no meld but deece (the `nines_throw_in` test: meld under spades = 10 x spade nines) as
    often as C(8,k)·meld_free(4-k); and `nines_throw_in(..., "5_no_meld")` on five nines plus every
    4-card non-nine holding accepts meld_free(4) of them."""
    hands = subset_masks(range(p3.DECK.n_cards), 4)
    nines = np.bitwise_count(hands & p3.NINES)
    spade_nines = np.bitwise_count(hands & np.uint64(3 << (2 * p3.NINE))).astype(np.int64)
    only_deece = p3.meld_points(hands, p3.SPADES) == 10 * spade_nines
    for k in range(5):
        assert int(np.sum(only_deece & (nines == k))) == comb(NINES_IN_PACK, k) * meld_free[4 - k], k
    five_nines = np.uint64(p3.DECK.mask(p3.DECK.parse_cards("S9 S9 H9 D9 C9")))
    rests = subset_masks(NON_NINES, 4)
    assert int(p3.nines_throw_in(rests | five_nines, "5_no_meld").sum()) == meld_free[4]


@needs_jit
def test_v4a_rate_exact_spec_9_2(meld_free):
    """pinochle3.md §9.2 line 533: >= 5 nines and no meld except deece (V4a) per player 0.0163659 (1 in 61.1),
    per deal (x 3, line 528: two players never both hold >= 5 of the 8 nines) 0.049098."""
    at_least, _, no_meld = p3.NINES_RULES["5_no_meld"]
    assert no_meld and at_least == 5 and NINES_IN_PACK == 8 and 2 * at_least > NINES_IN_PACK
    p = Fraction(only_deece_holdings(meld_free, range(at_least, NINES_IN_PACK + 1)),
                 comb(p3.DECK.n_cards, p3.HAND_SIZE))
    assert is_printed(p, "0.0163659"), float(p)
    assert is_printed(1 / p, "61.1")
    assert is_printed(p3.SEATS * p, "0.049098")


@needs_jit
def test_no_meld_except_deece_reference_exact_spec_9_2(meld_free):
    """pinochle3.md §9.2 line 538: no meld except deece, any number of nines: 0.1502328."""
    assert meld_free[p3.HAND_SIZE] == 2_018_188_176  # line 506: best meld = 0
    p = Fraction(only_deece_holdings(meld_free, range(NINES_IN_PACK + 1)), comb(p3.DECK.n_cards, p3.HAND_SIZE))
    assert is_printed(p, "0.1502328"), float(p)
