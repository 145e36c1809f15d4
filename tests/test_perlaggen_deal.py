"""The Perlaggen deal as played (spec §3, §9.1): kernel against the plain-Python reference of
tests/naive_perlaggen_deal.py on the same random words, the deal examples T-11..T-13 of §12.3 on
arranged packs, and the exact probabilities of §11.1 (cutter's Perlaggen, trump suit, turned Perlagg).
"""

from fractions import Fraction
from math import sqrt

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import naive_perlaggen_deal as naive
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.rng import block_words

RULES = [D.DealRules("innsbruck"), D.DealRules("eichel"), D.DealRules("innsbruck", exchange_gives="lowest"),
         D.DealRules("eichel", exchange_gives="lowest"), D.DealRules("eichel", exchange="never"),
         D.DealRules("schlanders"), D.DealRules("schlanders_e8"), D.DealRules("deutschnofen")]


def tokens(mask) -> set[str]:
    return {P.DECK.token(c) for c in P.DECK.cards_of(int(mask))}


def as_reference(row) -> dict:
    """A kernel row in the reference's terms (hands as sets)."""
    return {"hands": {s: tokens(row[s]) for s in range(4)}, "taken": tokens(row[D.TAKEN]),
            "stopper": P.DECK.token(int(row[D.STOPPER])), "stock": tokens(row[D.STOCK]),
            "exposed": tokens(row[D.EXPOSED]), "turned": P.DECK.token(int(row[D.TURNED])),
            "trump": P.DECK.suits[int(row[D.TRUMP])], "table": tokens(row[D.TABLE]),
            "gave": {0: tokens(row[D.GAVE0]), 2: tokens(row[D.GAVE2])},
            "took": {0: tokens(row[D.TOOK0]), 2: tokens(row[D.TOOK2])}}


def reference(words, rules: D.DealRules) -> dict:
    ref = naive.deal(words, rules.style, rules.exchange == "always", rules.exchange_gives == "keep_figures")
    ref["hands"] = {s: set(h) for s, h in ref["hands"].items()}
    ref["taken"], ref["exposed"] = set(ref["taken"]), set(ref["exposed"])
    return ref


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key())
def test_kernel_equals_reference(rules):
    words = block_words(3, 1, 1500, D.WORDS_PER_DEAL)
    rows = D.deal_block(words, rules)
    for w, row in zip(words, rows):
        assert as_reference(row) == reference(w, rules)


@given(st.lists(st.integers(0, 2**32 - 1), min_size=D.WORDS_PER_DEAL, max_size=D.WORDS_PER_DEAL),
       st.sampled_from(RULES[:2] + RULES[5:]))
def test_kernel_equals_reference_any_words(words, rules):
    words = np.array([words], dtype=np.uint32)
    assert as_reference(D.deal_block(words, rules)[0]) == reference(words[0], rules)


@pytest.mark.parametrize("rules", RULES[:2] + RULES[5:], ids=lambda r: r.style)
def test_every_deal_is_a_partition(rules):
    """Hands, stock and table hold every card of the style's pack once (Schlanders: 32, no Weli)."""
    rows = D.deal_block(block_words(5, 0, 20000, D.WORDS_PER_DEAL), rules)
    places = rows[:, [D.SEAT0, D.SEAT1, D.SEAT2, D.SEAT3, D.STOCK, D.TABLE]]
    pack = P.DECK.full_mask & ~(0 if P.has_weli(rules.style) else 1 << P.WELI)
    assert (np.bitwise_or.reduce(places, axis=1) == pack).all()
    assert (np.bitwise_count(places).sum(axis=1) == bin(pack).count("1")).all()
    assert (np.bitwise_count(places[:, :4]) == 5).all()
    assert ((rows[:, D.TAKEN] & ~rows[:, D.SEAT3]) == 0).all()
    assert all(5 <= c <= 28 for c in rows[:, D.CUT])


# --- arranged packs ---------------------------------------------------------------------------------
def arrange(hands: dict, turned: str, taken=(), exposed=(), style="innsbruck") -> list[str]:
    """A pack order that, cut at 33, deals ``hands`` (seat -> tokens; filled up), ``turned`` after the
    laid-aside ``exposed`` acorns, and the cutter's ``taken`` Perlaggen at the bottom. A style without the Weli
    (Schlanders) gets it in the stock, where the deal drops it."""
    k = len(taken)
    weli = [] if P.has_weli(style) else ["S6"]
    used = set(taken) | set(exposed) | {turned} | {c for h in hands.values() for c in h} | set(weli)
    rest = [c for c in naive.CARDS if c not in used and c not in naive.PERMANENT[style] and c[0] != "E"]
    rest += [c for c in naive.CARDS if c not in used and c not in rest]
    full = {}
    for seat in range(4):
        cards = list(hands.get(seat, []))
        while len(cards) < 5 - (k if seat == 3 else 0):
            cards.append(rest.pop(0))
        full[seat] = cards
    order = []
    for rnd in range(2):
        for seat in (1, 2, 3, 0):
            m = (2, 3)[rnd] if seat != 3 else (max(0, 2 - k), 3 - max(0, k - 2))[rnd]
            order += full[seat][:m]
            full[seat] = full[seat][m:]
    stopper = rest.pop(0)
    return order + list(exposed) + [turned] + weli + rest + [stopper] + list(reversed(taken))


def played(hands, turned, taken=(), exposed=(), style="innsbruck", **rules):
    """The deal of `arrange`'s pack order under a completed cut (the whole pack: 32 cards without the Weli)."""
    whole = 33 if P.has_weli(style) else 32
    return as_reference(D.deal_from_order(arrange(hands, turned, taken, exposed, style), whole,
                                          D.DealRules(style, **rules)))


@pytest.mark.parametrize("k", range(5))
def test_t11_cutter_packets(k):
    """T-11: the cutter gets (2,3), (1,3), (0,3), (0,2), (0,1) cards; 20 - k cards leave before the turn."""
    perm = naive.PERMANENT["innsbruck"]
    taken = perm[:k]
    deck = list(perm[k:]) + [c for c in naive.CARDS if c not in perm] + list(reversed(taken))
    rounds = {0: (2, 3), 1: (1, 3), 2: (0, 3), 3: (0, 2), 4: (0, 1)}[k]
    first = 6 + rounds[0]
    expect = set(taken) | set(deck[4:4 + rounds[0]]) | set(deck[first + 6:first + 6 + rounds[1]])
    deal = as_reference(D.deal_from_order(deck, 33, D.DealRules(exchange="never")))
    assert deal["taken"] == set(taken) and deal["hands"][3] == expect
    assert deal["turned"] == deck[20 - k]
    assert all(len(h) == 5 for h in deal["hands"].values())
    dealt = [c for c in deck if c in expect - set(taken)]
    assert naive.play(deck, 33, exchange=False)["hands"][3] == list(taken) + dealt


def test_cut_takes_the_bottom_of_the_packet():
    """§3.2: the packet's bottom cards are looked at upwards until a non-permanent card (the stopper)."""
    deck = list(naive.CARDS)
    deck.remove("HK"), deck.remove("S6")
    deck[9:9] = ["S6", "HK"]  # positions 9 (S6) and 10 (HK): a packet of 11 ends with HK, then S6
    deal = as_reference(D.deal_from_order(deck, 11))
    assert deal["taken"] == {"HK", "S6"} and deal["stopper"] == deck[8]
    assert as_reference(D.deal_from_order(deck, 10))["taken"] == {"S6"}
    assert as_reference(D.deal_from_order(deck, 12))["taken"] == set()


def test_t12_exchanges_innsbruck():
    # (a) HO turned, dealer holds H9: the dealer swaps, H9 is the trump marker
    a = played({0: ["H9", "E8", "L9", "S9", "EA"]}, "HO")
    assert a["trump"] == "H" and "HO" in a["hands"][0] and a["table"] == {"H9"} and a["gave"][0] == {"H9"}
    # (b) Martl turned, dealer has no natural heart, partner holds H10: the partner swaps
    b = played({0: ["E8", "L9", "S9", "EA", "LA"], 2: ["H10", "E9", "L8", "S8", "EK"]}, "HK")
    assert b["gave"] == {0: set(), 2: {"H10"}} and b["took"][2] == {"HK"} and b["table"] == {"H10"}
    # (c) H7 turned, dealer holds HO (a Perlagg) and no natural heart, partner none: H7 is dead
    c = played({0: ["HO", "E8", "L9", "S9", "EA"], 2: ["E9", "L8", "S8", "EK", "LK"]}, "H7")
    assert c["gave"] == {0: set(), 2: set()} and c["table"] == {"H7"} and "HO" in c["hands"][0]
    # (d) LU turned, only an opponent holds a natural leaf: no swap
    d = played({0: ["E8", "H9", "S9", "EA", "HA"], 1: ["LA"], 2: ["E9", "H8", "S8", "EK", "SK"]}, "LU")
    assert d["trump"] == "L" and d["table"] == {"LU"} and d["gave"] == {0: set(), 2: set()}
    # (e) L9 turned: not a Perlagg, nothing to exchange
    e = played({0: ["LA", "E8", "H9", "S9", "EA"]}, "L9")
    assert e["table"] == {"L9"} and e["gave"][0] == set()
    # (f) S7 turned: bells trump; the dealer holds SA and S9 and gives S9
    f = played({0: ["SA", "S9", "E8", "L10", "HA"]}, "S7")
    assert f["trump"] == "S" and f["gave"][0] == {"S9"} and "S7" in f["hands"][0]


def test_a07_give_keeps_the_figures():
    """A-07: the lowest natural trump not needed for the best figure (here the H8 of the pair of 8s)."""
    hand = ["H8", "H9", "E8", "L10", "SA"]
    assert played({0: hand}, "HO")["gave"][0] == {"H9"}
    assert played({0: hand}, "HO", exchange_gives="lowest")["gave"][0] == {"H8"}
    assert naive.give(hand, ["H8", "H9"], "HO", "innsbruck", "H") == "H9"


def test_t13_eichel_trump_and_exchanges():
    """T-13: EA, EU laid aside, LO turned (T = L); the dealer swaps L9 for LO, then E10 for EU."""
    deal = played({0: ["L9", "E10", "H8", "S8", "HA"]}, "LO", exposed=["EA", "EU"], style="eichel")
    assert deal["trump"] == "L" and deal["exposed"] == {"EA", "EU"}
    assert deal["gave"][0] == {"L9", "E10"} and deal["took"][0] == {"LO", "EU"}
    assert deal["table"] == {"EA", "L9", "E10"} and deal["hands"][0] == {"LO", "EU", "H8", "S8", "HA"}
    # variant: no natural leaf in team D; the dealer upgrades E7 -> LO, then the partner swaps EK for E7
    var = played({0: ["E7", "H8", "S8", "HA", "H9"], 2: ["EK", "H10", "S9", "SA", "SK"]}, "LO",
                 exposed=["EA", "EU"], style="eichel")
    assert var["gave"] == {0: {"E7"}, 2: {"EK"}} and var["took"] == {0: {"LO"}, 2: {"E7"}}
    assert var["table"] == {"EA", "EU", "EK"}  # nobody has a natural acorn left for the EU


def test_schlanders_eight_of_acorns_is_swapped_back():
    """A-04 (D-9): as the seed reads Schlanders, the E8 is a permanent acorn Perlagg, so a laid-aside E8 is taken
    back by an acorn swap (§9.1 step 3) as the E7, EO and EU are; with the club's S8 it is a plain acorn."""
    hand = ["L9", "E10", "H8", "S9", "HA"]
    e8 = played({0: hand}, "LO", exposed=["EA", "E8"], style="schlanders_e8")
    assert e8["gave"][0] == {"L9", "E10"} and e8["took"][0] == {"LO", "E8"} and e8["table"] == {"EA", "L9", "E10"}
    s8 = played({0: hand}, "LO", exposed=["EA", "E8"], style="schlanders")
    assert s8["gave"][0] == {"L9"} and s8["took"][0] == {"LO"} and s8["table"] == {"EA", "E8", "L9"}


def test_deal_from_order_refuses_bad_packs():
    with pytest.raises(CardsimError, match="each of the 33 cards"):
        D.deal_from_order(list(naive.CARDS[:-1]) + ["HK"], 10)
    with pytest.raises(CardsimError, match="cut depth"):
        D.deal_from_order(list(naive.CARDS), 0)
    with pytest.raises(CardsimError, match="exchange policy"):
        D.DealRules(exchange="sometimes")


# --- exact facts of §11.1 -------------------------------------------------------------------------
SPEC_CUTTER_K = {  # §11.1, as printed
    "innsbruck": [Fraction(29, 33), Fraction(29, 264), Fraction(29, 2728), Fraction(29, 40920), Fraction(1, 40920)],
    "eichel": [Fraction(28, 33), Fraction(35, 264), Fraction(35, 2046), Fraction(7, 4092), Fraction(7, 59334),
               Fraction(1, 237336)],
}


def within(count: int, n: int, p: float, z: float = 4.5) -> bool:
    return abs(count / n - p) <= z * sqrt(p * (1 - p) / n) + 1e-12


@pytest.mark.parametrize("style, m", [("innsbruck", 4), ("eichel", 5)])
def test_cutter_trump_and_turned_perlagg(style, m, scale):
    n_blocks = max(1, int(4 * scale))
    rows = np.concatenate([D.deal_block(block_words(11, b, 65536, D.WORDS_PER_DEAL), D.DealRules(style))
                           for b in range(n_blocks)])
    n = len(rows)
    exact = D.cutter_k_exact(style)
    assert exact == SPEC_CUTTER_K[style] and sum(exact) == 1 and len(exact) == m + 1
    k = np.bitwise_count(rows[:, D.TAKEN])
    for j in range(m + 1):
        assert within(int((k == j).sum()), n, float(exact[j]))
    trump = np.bincount(rows[:, D.TRUMP].astype(np.int64), minlength=4)
    expected = {"innsbruck": (8 / 33, 8 / 33, 8 / 33, 9 / 33), "eichel": (0, 8 / 25, 8 / 25, 9 / 25)}[style]
    for t in range(4):
        assert within(int(trump[t]), n, expected[t])
    pmask = D.DealRules(style).kernel_args()[0][rows[:, D.TRUMP].astype(np.int64)]
    is_perlagg = (pmask >> rows[:, D.TURNED]) & np.uint64(1)
    assert within(int(is_perlagg.sum()), n, {"innsbruck": 14 / 33, "eichel": 11 / 25}[style])


def test_straf_is_not_dealt_for_four():
    with pytest.raises(CardsimError, match="not a four-player game"):
        D.DealRules("straf")


def test_deutschnofen_cutter_stops_with_a_full_hand():
    """Seven permanent Perlaggen (§9.6): a packet whose bottom six cards are all permanent gives the
    cutter five of them, and he is dealt nothing (k = 5 row of §3.3)."""
    order = ["EA", "EK", "S6", "HK", "SK", "H7", "S7", "L7"] + \
        [c for c in naive.CARDS if c not in ("EA", "EK", "S6", "HK", "SK", "H7", "S7", "L7")]
    row = D.deal_from_order(order, 8, D.DealRules("deutschnofen"))
    assert tokens(row[D.TAKEN]) == tokens(row[D.SEAT3]) == {"HK", "SK", "H7", "S7", "L7"}
    assert P.DECK.token(int(row[D.STOPPER])) == "S6"
    assert D.cutter_k_exact("deutschnofen")[5] == Fraction(7 * 6 * 5 * 4 * 3, 33 * 32 * 31 * 30 * 29)
    assert sum(D.cutter_k_exact("deutschnofen")) == sum(D.cutter_k_exact("schlanders")) == 1


@pytest.mark.parametrize("style", D.FOUR_PLAYER_STYLES)
def test_l0_of_free_hands_equals_figure_codes(style):
    """The deal's bit-sliced L0 equals simcore.games.perlaggen.figure_codes on random 5-card hands."""
    rng = np.random.default_rng(8)
    hands = np.array([P.DECK.mask(rng.choice(33 if P.has_weli(style) else 32, 5, replace=False)) for _ in range(3000)],
                     dtype=np.uint64)
    masks, _, _, tables, kinds = D.DealRules(style).kernel_args()
    for trump in P.trump_suits(style):
        t = P.DECK.suits.index(trump)
        expected = P.figure_codes(hands, style, trump)
        got = [D._l0(h, masks[t], tables, kinds) for h in hands]
        assert (np.array(got) == expected).all()
