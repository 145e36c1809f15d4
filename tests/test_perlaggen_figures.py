"""Perlaggen pack, wild cards and figures (spec perlaggen.md).

The kernels are checked against the brute force of tests/naive_perlaggen.py on random hands (plain
random and hypothesis, both styles, every trump, fixed baptisms included), against the worked
figure examples of §12.2 and Example 6 (§12.4), and against the exact counts of §11.1 (T-34),
re-derived by enumerating all C(33,5) hands with the fast kernels.
"""

import random
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import naive_perlaggen as naive
from simcore.errors import CardsimError
from simcore.figures import hand_codes, run_table
from simcore.games import perlaggen as P
from simcore.registry import chosen_options, get_game

COMBOS = [(style, trump) for style in P.STYLES for trump in P.trump_suits(style)]
CLASSIC = [(style, trump) for style, trump in COMBOS if style in ("innsbruck", "eichel")]
"""The styles whose natural-card tables the spec gives (§2.3, §5.4, §9.1)."""
EVERY_HAND = CLASSIC + [("straf", "H"), ("schlanders", "S"), ("schlanders_e8", "L"), ("deutschnofen", "L")]
"""Styles and trumps checked over every hand: all of the spec's tables, one trump of each local style."""


def kernel(text, style="innsbruck", trump="H", six=True):
    """(best Gleich, best Hanger, frontier set) of a hand written as tokens (``X->Y`` fixes X)."""
    mask, fixed = P.parse_hand(text, style, trump)
    codes = P.figure_codes([mask], style, trump, [fixed], six)[0]
    front = P.frontier([mask], style, trump, [fixed], six)[0]
    return int(codes[P.GLEICH]), int(codes[P.HANGER]), set(P.frontier_points(front))


def brute(text, style="innsbruck", trump="H", six=True):
    """The same from the brute force."""
    hand, fixed = [], {}
    for token in text.split():
        card, _, target = token.partition("->")
        hand.append(card)
        if target:
            fixed[card] = target
    return naive.figures(hand, style, trump, fixed, six)


def table_key(style, trump):
    """The spec's table columns: Innsbruck with 7 (H, L) or 6 (S, E) Perlaggen, Eichel."""
    return style if style == "eichel" else "innsbruck " + ("HL" if trump in "HL" else "SE")


def tokens(faces):
    return [P.DECK.face_tokens[f] for f in faces]


# --- pack, wild cards, options ------------------------------------------------------------------
def test_pack_and_registration():
    game = get_game("perlaggen")
    assert game.deck is P.DECK and game.rules_file == "perlaggen.md"
    assert P.DECK.n_cards == 33 and P.WELI == 32 and P.DECK.token(32) == "S6"
    assert P.DECK.parse_face("LT") == P.DECK.parse_face("L10")
    defaults = {o.name: o.default for o in game.options}
    figure_defaults = {"style": "innsbruck", "innsbruck_acorn_trump": True, "unbaptised_identity": "printed",
                       "baptism_targets": "pack", "six_below_bells_seven": True, "hanger_wraps": False,
                       "gestrichen_uses_perlaggen": True, "straf_trump_seven": "after_E7",
                       "deutschnofen_trump_king": "merged", "cutter_stops_at_hand_size": True, "target": 18}
    deal_defaults = {"cutter_packets": "earliest_first", "first_packet": "lho", "exchange": "always",
                     "exchange_gives": "keep_figures", "opponents_exchange": False, "players": 4,
                     "packets_seven": "2-3-T-2", "six_player_cards": 4, "six_player_no_trump": "throw_in",
                     "table_exchangers": "dealer_then_partners"}
    betting_defaults = {"communication": "partner", "straf_places": False}
    expected = figure_defaults | deal_defaults | betting_defaults  # every spec default: tests/test_gilten_options.py
    assert {k: defaults[k] for k in expected} == expected
    assert chosen_options("perlaggen", game.options, defaults) == defaults  # every default is one of its choices


@pytest.mark.parametrize("style, trump", COMBOS)
def test_perlaggen_sets_and_precedence(style, trump):
    """§2.2, §9.1, §9.5, §9.6: the wild cards, highest precedence first; 7/6 in Innsbruck, always 8 in
    Eichel and Schlanders, 9/8 in Strafperlaggen, 10/9 in Deutschnofen (A-33)."""
    faces = P.perlaggen(style, trump)
    assert tuple(tokens(faces)) == naive.PERLAGGEN[(style, trump)]
    expected = {"innsbruck": 7 if trump in "HL" else 6, "eichel": 8, "schlanders": 8, "schlanders_e8": 8,
                "straf": 9 if trump in "HL" else 8, "deutschnofen": 10 if trump in "LE" else 9}[style]
    assert len(faces) == len(set(faces)) == expected
    assert set(P.permanent_perlaggen(style)) <= set(faces)
    assert P.perlagg_mask(style, trump) == P.DECK.mask(faces)


def test_possible_trumps():
    assert P.trump_suits("innsbruck") == ("E", "L", "H", "S")
    for style in ("eichel", "straf", "schlanders", "schlanders_e8"):
        assert P.trump_suits(style) == ("L", "H", "S")
        with pytest.raises(CardsimError, match="not possible"):
            P.perlaggen(style, "E")
    assert P.trump_suits("deutschnofen") == ("E", "L", "H", "S")
    with pytest.raises(CardsimError, match="unknown Perlaggen style"):
        P.perlaggen("tarrenz", "H")


def test_schlanders_has_no_weli():
    """§9.6: Schlanders plays 32 cards; a hand with the Weli is refused with one line."""
    assert not P.has_weli("schlanders") and all(P.has_weli(s) for s in P.STYLES if s not in P.SCHLANDERS)
    assert P.WELI not in P.perlaggen("schlanders", "S") and P.DECK.parse_face("S8") in P.perlaggen("schlanders", "H")
    assert not P.has_weli("schlanders_e8") and P.DECK.parse_face("S8") not in P.perlaggen("schlanders_e8", "H")
    assert P.perlaggen("schlanders_e8", "S")[1] == P.DECK.parse_face("E8")  # A-04: S1's reading, second-highest
    with pytest.raises(CardsimError, match="without it"):
        P.parse_hand("S6 S9 E9", "schlanders", "H")
    with pytest.raises(CardsimError, match="without it"):
        P.figure_codes([P.DECK.mask(P.DECK.parse_cards("S6 E9"))], "schlanders", "H")


@pytest.mark.parametrize("style, trump", CLASSIC)
def test_natural_cards(style, trump):
    """§5.4 natural cards per rank (A K O U 10 9 8 7) and the natural counts of §2.3 / §9.1."""
    per_rank = {"innsbruck HL": (4, 3, 3, 3, 4, 4, 4, 1), "innsbruck SE": (4, 3, 3, 3, 4, 4, 4, 2),
                "eichel": (4, 3, 2, 2, 4, 4, 4, 2)}
    naturals = [c for c in range(33) if c not in P.perlaggen(style, trump)]
    counts = tuple(sum(1 for c in naturals if P.DECK.rank_of_face(c) == r) for r in range(7, -1, -1))
    assert counts == per_rank[table_key(style, trump)]
    assert len(naturals) == 33 - len(P.perlaggen(style, trump))
    natural_trumps = {"H": "A 10 9 8", "L": "A K 10 9 8", "S": "A K 10 9 8", "E": "A K 10 9 8"}[trump]
    assert [c for c in naturals if P.DECK.suit_of_face(c) == "ELHS".index(trump)] == \
        sorted(P.DECK.parse_cards(" ".join(trump + r for r in natural_trumps.split())))


def test_bad_input_is_refused():
    mask, fixed = P.parse_hand("HK S9", "innsbruck", "H")
    fixed[0] = P.DECK.parse_face("HA")
    with pytest.raises(CardsimError, match="not in the hand"):
        P.figure_codes([P.DECK.mask(P.DECK.parse_cards("S9 E9"))], "innsbruck", "H", [fixed])
    with pytest.raises(CardsimError, match="only Perlaggen"):
        P.parse_hand("S9->SA", "innsbruck", "H")
    with pytest.raises(CardsimError, match="bits"):
        P.figure_codes([1 << 40])


# --- worked examples (§12.2, §6.5, Example 6) ---------------------------------------------------
def test_t06_gleich_order():
    assert kernel("EA LA E9 L8 S10")[0] == 40
    assert kernel("EK LK E9 L8 S10")[0] == 39
    assert kernel("L7 H7 S7->E7 EA LA", trump="S")[0] == 49  # three 7s beat the pair of Aces
    assert kernel("EA LA HA SA S7")[0] == 88 >= 81
    assert kernel("EA LA HA SA L9")[0] == 72
    assert kernel("L7 S7 E7 H7 HK")[0] == 81  # four Perlaggen join the natural 7: five 7s


def test_t07_hanger_order():
    assert kernel("EA EK L9 H8 S10")[1] == 40
    assert kernel("EK EO L9 H8 S10")[1] == 39
    assert kernel("L9 L8 L7 EA HK->SK")[1] == 51


def test_t08_ties_stand():
    x = kernel("LK SK S7->HK", trump="L")
    y = kernel("EK HK->SK E7->LK", trump="L")
    assert x[0] == y[0] == 55
    assert kernel("H10 H9 H8", trump="E")[1] == kernel("E10 E9 E8", trump="E")[1] == 52


def test_t09_one_card_in_both_figures():
    assert kernel("S9 E9 L9 L10 H8") == (51, 36, {(51, 36)})


def test_t10_frontier():
    """§6.5 / T-10: E7 as any 9 (four 9s + 10-9) or as LU (three 9s + U-10-9); L0 gives 67 and 53."""
    assert kernel("S9 E9 L9 L10 E7") == (67, 53, {(67, 36), (51, 53)})


@pytest.mark.parametrize("text, gleich, hanger", [
    ("E10 S10 S6 L8 H9", 52, 37),   # N
    ("L10 H10 L9 L7 H7", 52, 53),   # E
    ("EO EU EK S9 H8", 0, 55),      # S
    ("HO HU HK E7 E9", 54, 72),     # W
])
def test_example6_hands(text, gleich, hanger):
    """T-16 (leaves trump): each player's best Gleich and best Hanger on their own."""
    assert kernel(text, trump="L")[:2] == (gleich, hanger)


def test_example6_baptisms_made_in_the_showing():
    assert kernel("L10 H10 L9 L7->L10 H7", trump="L")[:2] == (52, 36)
    assert kernel("HO HU HK->LO E7->LO E9", trump="L")[:2] == (54, 38)
    assert kernel("HO HU HK->HA E7->HK E9", trump="L")[:2] == (0, 72)
    assert kernel("E10 S10 S6->L10 L8 H9", trump="L")[:2] == (52, 0)


def test_five_free_perlaggen():
    """Five wild cards: five Aces or A-K-O-U-10, and every split between the two in between."""
    assert kernel("HK S6 S7 E7 HU") == (88, 88, {(88, 0), (72, 40), (56, 56), (40, 72), (0, 88)})


def test_bells_six_and_a_24():
    """A Weli played without baptism is the 6 of bells: 8-7-6 of bells, and a pair of 6s."""
    assert kernel("S8 S7 S6->S6 EA L9", "eichel", "H")[:2] == (0, 50)
    assert kernel("S8 S7 S6->S6 EA L9", "eichel", "H", six=False)[:2] == (0, 34)
    assert kernel("S6->S6 HK->S6 EA LK H9")[:2] == (32, 0)
    assert kernel("S8 S7 HK EA L9", "eichel", "H")[1] == kernel("S8 S7 HK EA L9", "eichel", "H", six=False)[1] == 51


# --- kernels against the brute force ------------------------------------------------------------
def pack(style) -> list[str]:
    """The cards of the style's pack (Schlanders: no Weli, §9.6)."""
    return [c for c in naive.IDENTITIES if c != "S6" or P.has_weli(style)]


def random_hand(rng, style, trump, size, max_free):
    """Token text of a random hand; each Perlagg is fixed with probability 1/3, at most max_free free."""
    wild = naive.PERLAGGEN[(style, trump)]
    while True:
        cards = rng.sample(pack(style), size)
        text = [c + ("->" + rng.choice(naive.IDENTITIES) if c in wild and rng.random() < 1 / 3 else "")
                for c in cards]
        if sum(1 for t in text if t in wild) <= max_free:
            return " ".join(text)


@pytest.mark.parametrize("style, trump", COMBOS)
def test_random_hands_agree_with_brute_force(style, trump):
    rng = random.Random(f"{style}{trump}")
    for size, n in ((5, 60), (7, 12)):
        for _ in range(n):
            text = random_hand(rng, style, trump, size, max_free=3)
            six = rng.random() < 0.8
            assert kernel(text, style, trump, six) == brute(text, style, trump, six), text


@pytest.mark.parametrize("text, style, trump", [
    ("HK S6 S7 E7 L9", "innsbruck", "E"),
    ("HK S6 EU EO SA", "eichel", "S"),
])
def test_four_free_perlaggen_agree_with_brute_force(text, style, trump):
    assert kernel(text, style, trump) == brute(text, style, trump)


@st.composite
def hands(draw):
    """(text, style, trump, six): up to 5 Perlaggen in 5 cards, at most 2 of them free."""
    style, trump = draw(st.sampled_from(COMBOS))
    wild = naive.PERLAGGEN[(style, trump)]
    cards = draw(st.lists(st.sampled_from(pack(style)), min_size=5, max_size=5, unique=True))
    text = []
    for card in cards:
        free = sum(1 for t in text if t in wild)
        if card in wild and (free == 2 or draw(st.booleans())):
            card += "->" + draw(st.sampled_from(naive.IDENTITIES))
        text.append(card)
    return " ".join(text), style, trump, draw(st.booleans())


@given(hands())
def test_hypothesis_hands_agree_with_brute_force(case):
    assert kernel(*case) == brute(*case)


@pytest.mark.slow
def test_five_free_perlaggen_brute_force():
    assert kernel("HK S6 S7 E7 HU") == brute("HK S6 S7 E7 HU")


@pytest.mark.slow
def test_more_random_hands_agree_with_brute_force(scale):
    """Larger random set with up to 4 free Perlaggen; size set by CARDSIM_TEST_SCALE."""
    rng = random.Random("more")
    for _ in range(max(1, int(20 * scale))):
        style, trump = rng.choice(COMBOS)
        text = random_hand(rng, style, trump, rng.choice((4, 5, 6)), max_free=4)
        assert kernel(text, style, trump) == brute(text, style, trump), text


# --- §11.1 exact counts (§12.7 T-34) --------------------------------------------------------------
@pytest.fixture(scope="module")
def every_hand():
    """All C(33,5) = 237,336 five-card hands as masks."""
    combos = np.array(list(combinations(range(33), 5)), dtype=np.uint64)
    return np.bitwise_or.reduce(np.left_shift(np.uint64(1), combos), axis=1)


GLEICH_COUNTS = {  # size none, 2, 3, 4, 5: with Perlaggen, natural
    "innsbruck HL": ((17392, 93986, 94755, 28690, 2513), (117450, 111969, 7801, 116, 0)),
    "innsbruck SE": ((22976, 105238, 86755, 20967, 1400), (113874, 115545, 7801, 116, 0)),
    "eichel": ((14592, 84207, 98583, 35960, 3994), (126894, 103395, 6931, 116, 0)),
}
HANGER_COUNTS = {  # length none, 2, 3, 4, 5: with Perlaggen, natural
    ("innsbruck", "H"): ((31250, 76442, 87781, 36918, 4945), (155269, 75049, 6651, 357, 10)),
    ("innsbruck", "L"): ((32463, 77973, 86514, 35709, 4677), (158477, 72653, 5895, 303, 8)),
    ("innsbruck", "S"): ((40761, 85383, 80496, 27676, 3020), (154908, 75816, 6273, 330, 9)),
    ("innsbruck", "E"): ((40761, 85383, 80496, 27676, 3020), (154908, 75816, 6273, 330, 9)),
    ("eichel", "H"): ((25592, 71626, 90578, 42694, 6846), (162074, 69462, 5518, 274, 8)),
    ("eichel", "L"): ((26647, 73375, 89494, 41340, 6480), (165333, 67015, 4762, 220, 6)),
    ("eichel", "S"): ((26647, 73375, 89494, 41340, 6480), (165333, 67015, 4762, 220, 6)),
}
PERLAGGEN_PER_HAND = {6: (80730, 105300, 43875, 7020, 405, 6), 7: (65780, 104650, 54600, 11375, 910, 21),
                      8: (53130, 101200, 64400, 16800, 1750, 56)}


def sizes(codes):
    """Counts of figure size none, 2, 3, 4, 5 from codes (size = code // 16)."""
    return tuple(np.bincount(codes // 16, minlength=6)[[0, 2, 3, 4, 5]])


def pack_hands(every_hand, style):
    """The hands of the style's pack: without the Weli in Schlanders (32 cards)."""
    return every_hand if P.has_weli(style) else every_hand[(every_hand >> np.uint64(P.WELI)) & np.uint64(1) == 0]


@pytest.mark.parametrize("style, trump", CLASSIC)
def test_single_hand_tables(every_hand, style, trump):
    assert every_hand.size == comb(33, 5) == 237336
    pmask = np.uint64(P.perlagg_mask(style, trump))
    wild = P.figure_codes(every_hand, style, trump)
    natural = P.figure_codes(every_hand & ~pmask, style, trump)
    assert (sizes(wild[:, 0]), sizes(natural[:, 0])) == GLEICH_COUNTS[table_key(style, trump)]
    assert (sizes(wild[:, 1]), sizes(natural[:, 1])) == HANGER_COUNTS[(style, trump)]
    m = len(P.perlaggen(style, trump))
    n_wild = sum((every_hand >> np.uint64(c)) & np.uint64(1) for c in P.perlaggen(style, trump)).astype(np.int64)
    assert tuple(np.bincount(n_wild, minlength=6)) == PERLAGGEN_PER_HAND[m]
    assert PERLAGGEN_PER_HAND[m] == tuple(comb(m, j) * comb(33 - m, 5 - j) for j in range(6))
    if (style, trump) == ("innsbruck", "L"):
        assert (wild[:, 0] == 88).sum() == 462  # five Aces


@pytest.mark.parametrize("style, trump", EVERY_HAND)
def test_frontier_over_every_hand(every_hand, style, trump):
    """Frontier ends are the L0 codes; points strictly trade Hanger for Gleich; width <= 7."""
    every_hand = pack_hands(every_hand, style)
    wild = P.figure_codes(every_hand, style, trump)
    front = P.frontier(every_hand, style, trump)
    width = (front[:, :, 0] >= 0).sum(axis=1)
    assert width.min() == 1 and width.max() <= 7
    rows = np.arange(every_hand.size)
    assert (front[:, 0, 1] == wild[:, 1]).all()
    assert (front[rows, width - 1, 0] == wild[:, 0]).all()
    inner = np.arange(P.FRONTIER_MAX - 1)[None, :] < (width - 1)[:, None]
    assert ((front[:, 1:, 0] > front[:, :-1, 0]) | ~inner).all()
    assert ((front[:, 1:, 1] < front[:, :-1, 1]) | ~inner).all()


@pytest.mark.parametrize("style, trump", EVERY_HAND)
def test_natural_figures_match_the_core_kernels(every_hand, style, trump):
    """Perlaggen masked out, every hand's codes equal simcore.figures' set/run codes (other encoding)."""
    every_hand = pack_hands(every_hand, style)
    natural = every_hand & ~np.uint64(P.perlagg_mask(style, trump))
    mine = P.figure_codes(natural, style, trump).astype(np.int64)
    core = hand_codes(natural.reshape(-1, 1), 4, 8, run_table(8))[:, 0, :].astype(np.int64)
    assert (np.where(mine > 0, 8 * (mine // 16 - 2) + mine % 16 - 1, -1) == core).all()


def leading_run(n, m):
    """P(the first k cards of a shuffled n-card pack are specials and the next is not), k = 0..m.

    From P(k >= j) = C(n-j, m-j) / C(n, m), independent of the spec's falling-factorial formula.
    """
    at_least = [Fraction(comb(n - j, m - j), comb(n, m)) for j in range(m + 1)] + [Fraction(0)]
    return [at_least[j] - at_least[j + 1] for j in range(m + 1)]


def test_cutter_and_trump_card_counts():
    """§11.1: cutter's Perlaggen k, the trump card, Eichel acorns turned before the trump card."""
    inn = leading_run(33, len(P.permanent_perlaggen("innsbruck")))
    assert inn == [Fraction(29, 33), Fraction(29, 264), Fraction(29, 2728), Fraction(29, 40920), Fraction(1, 40920)]
    eich = leading_run(33, len(P.permanent_perlaggen("eichel")))
    assert eich == [Fraction(28, 33), Fraction(35, 264), Fraction(35, 2046), Fraction(7, 4092),
                    Fraction(7, 59334), Fraction(1, 237336)]
    assert sum(k * p for k, p in enumerate(inn)) == Fraction(2, 15)
    assert sum(k * p for k, p in enumerate(eich)) == Fraction(5, 29)

    def suit(face):
        return "S" if face == P.WELI else P.DECK.suits[P.DECK.suit_of_face(face)]

    assert sum(1 for f in range(33) if suit(f) == "S") == 9
    turned_wild = [f for f in range(33) if f in P.perlaggen("innsbruck", suit(f))]
    assert len(turned_wild) == 14  # P = 14/33
    not_acorn = [f for f in range(33) if suit(f) != "E"]
    assert len(not_acorn) == 25 and sum(1 for f in not_acorn if f in P.perlaggen("eichel", suit(f))) == 11
    acorns = leading_run(33, 8)
    assert acorns[:4] == [Fraction(25, 33), Fraction(25, 132), Fraction(175, 4092), Fraction(35, 4092)]
    assert round(float(acorns[4]), 4) == 0.0015 and round(float(sum(acorns[5:])), 4) == 0.0002
