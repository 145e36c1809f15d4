"""Pinochle meld (spec shared/rules/pinochle3.md §3, §9.2, §10): worked examples, kernel against the
literal reference, and the spec's exact single-hand facts (exact counting plus Monte Carlo)."""

from decimal import Decimal
from fractions import Fraction
from itertools import combinations, product
from math import comb

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.stats import wilson
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.rng import BLOCK_DEALS, block_words
import naive_pinochle3 as naive

DECK = p3.DECK
SUITS = "SHDC"


def mask(text: str) -> np.ndarray:
    """(1,) uint64 mask of a token list."""
    return np.array([DECK.mask(DECK.parse_cards(text))], dtype=np.uint64)


def kernel(text: str, trump: str) -> int:
    return int(p3.meld_points(mask(text), SUITS.index(trump))[0])


def breakdown_total(text: str, trump: str) -> int:
    return sum(m.points for m in p3.meld_breakdown(DECK.parse_cards(text), SUITS.index(trump)))


def all_three(text: str, trump: str) -> tuple[int, int, int]:
    """(kernel, reference, breakdown) meld of one holding."""
    return kernel(text, trump), naive.meld_total(text.split(), trump), breakdown_total(text, trump)


# --- §10.1 worked examples --------------------------------------------------------------------
M20 = "HA H10 HK HK HQ HQ HJ H9 SQ DJ SK DK CK SA DA"
M21 = "S9 S9 H9 D9 C9 SA S10 SJ H10 HJ DA D10 CJ C10 CA"
EXAMPLES = [
    ("M1", "SQ HQ DQ CQ DJ", "H", 100),
    ("M2", "HA H10 HK HQ HJ SA DA CA", "H", 250),
    ("M3", "HK HK HQ", "S", 20),
    ("M4", "HK HQ HQ", "S", 20),
    ("M5", "HA H10 HK HQ HJ", "H", 150),
    ("M6", "HA H10 HK HK HQ HQ HJ", "H", 190),
    ("M7", "SK SQ HK HQ DK DQ CK CQ", "S", 240),
    ("M8", "SA S10 SK SQ SJ HK HQ DK DQ CK CQ", "S", 350),
    ("M9", "SA S10 SK SK SQ SQ SJ HK HQ DK DQ CK CQ", "S", 390),
    ("M10", "HA HA H10 H10 HK HK HQ HQ HJ HJ", "H", 1500),
    ("M11", "SQ SQ DJ DJ", "H", 300),
    ("M13", "SK SK HK HK DK DK CK CK", "H", 800),
    ("M14 deece", "H9", "H", 10),
    ("M14 double deece", "H9 H9", "H", 20),
    ("M15", "SA S10 SK SQ SJ", "H", 20),
    ("M17", "SK SQ DJ", "S", 80),
    ("M18", "SQ SQ HQ HQ DQ DQ CQ CQ DJ DJ", "H", 900),
    ("M19", "DA DA D10 D10 DK DK DQ DQ DJ DJ SQ SQ SA HA CA", "D", 1900),
    ("M20 H", M20, "H", 340),
    ("M20 S", M20, "S", 200),
    ("M20 D", M20, "D", 180),
    ("M20 C", M20, "C", 180),
    ("M21 S", M21, "S", 20),
    ("R3.7 1820 in hearts", "HA HA H10 H10 HK HK HQ HQ HJ HJ SQ SQ DJ DJ SK", "H", 1820),
    ("R3.2 tens around", "S10 H10 D10 C10", "S", 0),
]
EVERY_TRUMP = [
    ("M12", "SA SA HA HA DA DA CA CA", 1000),
    ("M16", "S10 H10 D10 C10", 0),
    ("M7 any", "SK SQ HK HQ DK DQ CK CQ", 240),
]


@pytest.mark.parametrize("label, text, trump, expected", EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_worked_example(label, text, trump, expected):
    assert all_three(text, trump) == (expected,) * 3


@pytest.mark.parametrize("label, text, expected", EVERY_TRUMP, ids=[e[0] for e in EVERY_TRUMP])
@pytest.mark.parametrize("trump", SUITS)
def test_worked_example_any_trump(label, text, expected, trump):
    assert all_three(text, trump) == (expected,) * 3


def test_m21_best_trump_and_nines_throw_in():
    points, trumps = p3.best_meld(mask(M21))
    assert (points[0], SUITS[trumps[0]]) == (20, "S")
    assert all(kernel(M21, t) == 10 * M21.split().count(t + "9") for t in SUITS)  # only deece (V4a)
    swapped = M21.replace("H10 HJ", "HK HQ")  # X7: a heart marriage stops the throw-in
    assert kernel(swapped, "S") > 10 * swapped.split().count("S9")


def names(text: str, trump: str) -> list[str]:
    return sorted(m.name for m in p3.meld_breakdown(DECK.parse_cards(text), SUITS.index(trump)))


def test_breakdown_names_roundhouse_and_rope():
    roundhouse = ["kings around", "marriage in C", "marriage in D", "marriage in H", "queens around"]
    assert names("SK SQ HK HQ DK DQ CK CQ", "S") == sorted(roundhouse + ["royal marriage in S"])
    assert names("SA S10 SK SQ SJ HK HQ DK DQ CK CQ", "S") == sorted(roundhouse + ["rope in S"])
    assert names("SA S10 SK SK SQ SQ SJ HK HQ DK DQ CK CQ", "S") == sorted(
        roundhouse + ["rope in S", "royal marriage in S"])
    assert names("HK HK HQ", "S") == ["marriage in H"]
    assert names("SQ SQ HQ HQ DQ DQ CQ CQ DJ DJ", "H") == ["double pinochle", "double queens around"]
    assert names("HA HA H10 H10 HK HK HQ HQ HJ HJ H9 H9", "H") == ["double deece in H", "double rope in H"]


def test_m9_rope_and_royal_marriage_use_different_copies():
    melds = {m.name: set(m.cards) for m in p3.meld_breakdown(DECK.parse_cards(
        "SA S10 SK SK SQ SQ SJ"), SUITS.index("S"))}
    assert melds["rope in S"].isdisjoint(melds["royal marriage in S"])


def test_bad_input_is_refused():
    with pytest.raises(CardsimError):
        p3.meld_points(mask("SA"), 4)
    with pytest.raises(ValueError):
        p3.meld_points(np.array([1 << 48], dtype=np.uint64), 0)
    with pytest.raises(ValueError):
        p3.best_meld(np.zeros((2, 2), dtype=np.uint64))
    with pytest.raises(CardsimError):
        p3.meld_breakdown([5, 5], 0)
    with pytest.raises(CardsimError):
        p3.meld_breakdown([48], 0)


def test_empty_input():
    assert p3.meld_points(np.zeros(0, dtype=np.uint64), 0).shape == (0,)
    assert p3.best_meld(np.zeros(0, dtype=np.uint64))[0].shape == (0,)


# --- kernel against the literal reference -------------------------------------------------------
def check_against_reference(cards: list[int]):
    text = DECK.format_cards(cards)
    hand = mask(text)
    per_trump = [int(p3.meld_points(hand, t)[0]) for t in range(4)]
    assert per_trump == [naive.meld_total(text.split(), t) for t in SUITS]
    points, trumps = p3.best_meld(hand)
    assert points[0] == max(per_trump) and trumps[0] == per_trump.index(max(per_trump))
    for t in range(4):
        melds = p3.meld_breakdown(cards, t)
        assert sum(m.points for m in melds) == per_trump[t]
        for kind_type in (1, 2, 3):  # R3.4b: within one type a physical card serves one meld only
            used = [c for m in melds if meld_type(m.name) == kind_type for c in m.cards]
            assert len(used) == len(set(used)) and set(used) <= set(cards)


def meld_type(name: str) -> int:
    base = name.removeprefix("double ").split(" in ")[0]
    return next(k.type for k in p3.MELD_KINDS if k.name == base)


RICH = [c for c in range(DECK.n_cards) if DECK.ranks[DECK.face_of(c) % 6] != "9"] + [0, 1, 12, 13]
"""Cards of the meld-rich ranks (A 10 K Q J) plus the spade and heart nines: dense holdings."""


def holdings(size: int):
    uniform = st.lists(st.integers(0, DECK.n_cards - 1), min_size=size, max_size=size, unique=True)
    rich = st.lists(st.sampled_from(sorted(set(RICH))), min_size=size, max_size=size, unique=True)
    return st.one_of(uniform, rich)


@settings(max_examples=300, deadline=None)
@given(holdings(15))
def test_kernel_matches_reference_15(cards):
    check_against_reference(cards)


@settings(max_examples=200, deadline=None)
@given(holdings(18))
def test_kernel_matches_reference_18(cards):
    check_against_reference(cards)


@settings(max_examples=100, deadline=None)
@given(holdings(15))
def test_hearts_and_clubs_are_symmetric(cards):
    """§9.4: swapping the hearts and clubs of a holding and of the trump leaves its meld unchanged."""
    swap = {1: 3, 3: 1}
    faces = [DECK.face_of(c) for c in cards]
    swapped = [2 * (6 * swap.get(f // 6, f // 6) + f % 6) + (c & 1) for f, c in zip(faces, cards)]
    hand, mirror = np.array([DECK.mask(cards), DECK.mask(swapped)], dtype=np.uint64)
    for t in range(4):
        assert p3.meld_points(np.array([hand]), t)[0] == p3.meld_points(np.array([mirror]), swap.get(t, t))[0]


@pytest.mark.parametrize("suit", ["H", "D"])
def test_every_trump_suit_pattern(suit):
    """All 3**6 count patterns of the trump suit, with the pinochle and around partners held."""
    extra = "SQ DJ SA DA CA SK DK CK" if suit == "H" else "SQ SA HA CA SK HK CK"
    ranks = ("A", "10", "K", "Q", "J", "9")
    for pattern in product(range(3), repeat=6):
        own = " ".join(suit + r for r, n in zip(ranks, pattern) for _ in range(n))
        text = (own + " " + extra).strip()
        assert kernel(text, suit) == naive.meld_total(text.split(), suit), text


# --- §9.2 exact facts, counted independently ------------------------------------------------------
FACES = [s + r for s in SUITS for r in ("9", "J", "Q", "K", "10", "A")]


def count_hands(size: int, allowed: dict[str, range] | None = None) -> int:
    """Holdings of ``size`` cards from the 48 whose copies of every named face lie in its range."""
    poly = [1]
    for face in FACES:
        counts = (allowed or {}).get(face, range(3))
        factor = [comb(2, c) if c in counts else 0 for c in range(3)]
        poly = [sum(poly[i] * factor[k - i] for i in range(len(poly)) if 0 <= k - i < 3)
                for k in range(len(poly) + 2)]
    return poly[size] if size < len(poly) else 0


def prob_all(size: int, groups, at_least: int = 1) -> Fraction:
    """P(every face of every group held >= at_least times); groups use disjoint faces."""
    need = {f: range(at_least, 3) for group in groups for f in group}
    return Fraction(count_hands(size, need), comb(48, size))


def prob_any(size: int, groups, at_least: int = 1) -> Fraction:
    """P(some group has all its faces held >= at_least times), by inclusion-exclusion."""
    total = Fraction(0)
    for k in range(1, len(groups) + 1):
        for chosen in combinations(groups, k):
            total += (-1) ** (k + 1) * prob_all(size, chosen, at_least)
    return total


def rope(s):
    return [s + r for r in ("A", "10", "K", "Q", "J")]


def around(r):
    return [s + r for s in SUITS]


def marriage(s):
    return [s + "K", s + "Q"]


EXACT_15 = [
    ("rope cards in a given suit", prob_all(15, [rope("H")]), Fraction(56853, 1905803)),
    ("rope cards in some suit", prob_any(15, [rope(s) for s in SUITS]), Fraction(8059885364, 68328754959)),
    ("double rope in a given suit", prob_all(15, [rope("H")], 2), Fraction(7, 15246424)),
    ("double rope in some suit", prob_any(15, [rope(s) for s in SUITS], 2), Fraction(7, 3811606)),
    ("aces around", prob_all(15, [around("A")]), Fraction(372931, 5717409)),
    ("jacks around", prob_all(15, [around("J")]), Fraction(372931, 5717409)),
    ("some single around", prob_any(15, [around(r) for r in "AKQJ"]), Fraction(5666345978, 22776251653)),
    ("double kings around", prob_all(15, [around("K")], 2), Fraction(65, 3811606)),
    ("pinochle", prob_all(15, [["SQ", "DJ"]]), Fraction(889, 3243)),
    ("double pinochle", prob_all(15, [["SQ", "DJ"]], 2), Fraction(91, 12972)),
    ("marriage in a given suit", prob_all(15, [marriage("C")]), Fraction(889, 3243)),
    ("double marriage in a given suit", prob_all(15, [marriage("C")], 2), Fraction(91, 12972)),
    ("some marriage", prob_any(15, [marriage(s) for s in SUITS]), Fraction(464745543, 615574369)),
    ("roundhouse", prob_all(15, [marriage(s) for s in SUITS]), Fraction(7304891, 3596250261)),
    ("a nine of a given suit", prob_all(15, [["D9"]]), Fraction(25, 47)),
    ("both nines of a given suit", prob_all(15, [["D9"]], 2), Fraction(35, 376)),
]


@pytest.mark.parametrize("label, got, expected", EXACT_15, ids=[e[0] for e in EXACT_15])
def test_single_meld_probabilities_exact(label, got, expected):
    assert got == expected


def hypergeom(n_pop: int, n_good: int, n_draw: int, k: int) -> float:
    return comb(n_good, k) * comb(n_pop - n_good, n_draw - k) / comb(n_pop, n_draw)


def test_pack_and_hand_counts():
    assert count_hands(15) == comb(48, 15) == 1_093_260_079_344
    assert comb(48, 18) == 7_309_837_001_104
    assert sum(p3.FACE_POINTS) * DECK.copies + p3.LAST_TRICK_BONUS == p3.TRICK_POINTS_TOTAL == 250


def test_counter_and_suit_length_distributions():
    counters = [0.02426, 0.07625, 0.16097, 0.23284, 0.23284, 0.16097, 0.07625, 0.02426]
    assert [round(hypergeom(48, 24, 15, k), 5) for k in range(4, 12)] == counters
    kitty = [0.117021, 0.382979, 0.382979, 0.117021]
    assert [round(hypergeom(48, 24, 3, k), 6) for k in range(4)] == kitty
    lengths = [0.005093, 0.041669, 0.139502, 0.251879, 0.272029, 0.184143, 0.079568, 0.021922, 0.003780]
    assert [round(hypergeom(48, 12, 15, k), 6) for k in range(9)] == lengths
    assert round(1 - sum(hypergeom(48, 24, 18, k) for k in range(3)), 8) == 0.99997108


def test_longest_suit_distribution():
    def at_most(m):  # 15-card holdings with every suit at most m long
        poly = [comb(12, k) if k <= m else 0 for k in range(13)]
        total = [1]
        for _ in range(4):
            total = [sum(total[i] * poly[k - i] for i in range(len(total)) if 0 <= k - i < 13)
                     for k in range(len(total) + 12)]
        return total[15]

    longest = {m: (at_most(m) - at_most(m - 1)) / comb(48, 15) for m in range(4, 11)}
    expected = {4: 0.097628, 5: 0.491544, 6: 0.306448, 7: 0.087600, 8: 0.015118, 9: 0.001568}
    assert {m: round(v, 6) for m, v in longest.items() if m < 10} == expected
    assert round(longest[10], 7) == 9.1e-5
    assert round(sum(m * v for m, v in longest.items()), 3) == 5.436


def test_nines_throw_in_exact_rates():
    def nines(at_least, aces=range(9)):
        return sum(comb(8, k) * comb(8, a) * comb(32, 15 - k - a) for k in range(at_least, 9) for a in aces
                   if 15 - k - a >= 0) / comb(48, 15)

    assert round(nines(5), 7) == 0.0510026
    assert round(nines(6), 7) == 0.0075830
    assert round(nines(7), 8) == 0.00057981
    assert round(nines(5, range(1)), 7) == 0.0041029
    assert round(nines(6, range(2)), 7) == 0.0031572


def test_eighteen_card_exact_facts():
    assert round(float(prob_any(18, [rope(s) for s in SUITS])), 6) == 0.264693
    assert round(float(prob_all(18, [around("A")])), 6) == 0.124462


# --- §9.2 meld distribution: exact dynamic program, enumeration and Monte Carlo --------------------
CCDF = {  # threshold: P(meld >= threshold) with (best trump, fixed H or C, fixed S, fixed D), as printed
    20: ("0.918402", "0.870019", "0.870019", "0.870019"),
    40: ("0.849767", "0.681568", "0.654359", "0.681568"),
    60: ("0.617199", "0.502755", "0.477482", "0.500675"),
    80: ("0.491739", "0.349599", "0.361494", "0.344816"),
    100: ("0.370951", "0.261982", "0.277202", "0.258618"),
    120: ("0.293082", "0.184157", "0.189251", "0.183124"),
    150: ("0.215326", "0.103152", "0.100633", "0.101817"),
    180: ("0.107857", "0.045243", "0.053804", "0.047689"),
    200: ("0.069477", "0.027924", "0.034111", "0.031466"),
    220: ("0.046456", "0.019427", "0.021829", "0.021171"),
    250: ("0.030824", "0.013937", "0.014487", "0.014753"),
    300: ("0.010659", "0.007772", "0.008188", "0.008465"),
    350: ("0.004857", "0.002670", "0.003465", "0.002745"),
    400: ("0.001587", "0.000857", "0.001125", "0.000979"),
    500: ("1.584e-4", "7.18e-5", "9.88e-5", "9.62e-5"),
    800: ("3.652e-5", "3.51e-5", "3.51e-5", "3.51e-5"),
    1000: ("1.898e-5", "1.755e-5", "1.755e-5", "1.756e-5"),
    1500: ("1.836e-6", "4.59e-7", "4.59e-7", "4.59e-7"),
}
COLUMNS = (None, "H", "S", "D")
BEST_18 = {150: "0.46397", 200: "0.23982", 250: "0.13353", 300: "0.05305", 350: "0.02362", 400: "0.00972"}
"""P(best meld of hand + kitty, 18 cards, >= threshold)."""
SUMMARY = {  # column: (mean, SD, quantiles 10/25/50/75/90/95/99 %, maximum)
    None: (90.975, 66.375, (20, 50, 70, 130, 180, 210, 300), 1900),
    "H": (68.742, 57.322, (10, 30, 60, 100, 150, 170, 270), 1820),
    "C": (68.742, 57.322, (10, 30, 60, 100, 150, 170, 270), 1820),
    "S": (68.742, 59.159, (10, 30, 50, 100, 150, 180, 280), 1900),
    "D": (68.742, 57.968, (10, 30, 60, 100, 150, 170, 280), 1900),
}


def as_printed(x: float, text: str) -> bool:
    """Does x round to the decimal ``text`` at the precision it is printed with?"""
    return abs(Decimal(float(x)) - Decimal(text)) <= Decimal(5).scaleb(Decimal(text).as_tuple().exponent - 1)


needs_jit = pytest.mark.skipif(numba.config.DISABLE_JIT,
                               reason="the exact DP over all holdings needs compiled kernels")


def test_trump_gains_take_fifteen_values():
    """R3.6: the extra meld of the trump suit over its plain marriage takes one of 15 values."""
    gains = p3.suit_patterns()[1]
    assert gains.tolist() == [0, 10, 20, 30, 40, 50, 60, 130, 140, 150, 160, 170, 1460, 1470, 1480]


@pytest.fixture(scope="module")
def exact15():
    """Exact counts per meld // 10 of all C(48,15) holdings: column (None = best trump) -> (k,) int64."""
    return {col: p3.exact_meld_distribution(15, None if col is None else SUITS.index(col))
            for col in (None, "H", "C", "S", "D")}


def stats(counts: np.ndarray):
    values = 10 * np.arange(counts.size)
    prob = counts / counts.sum()
    mean = float((prob * values).sum())
    sd = float(np.sqrt((prob * values ** 2).sum() - mean ** 2))
    cdf = np.cumsum(counts) / counts.sum()
    quantiles = tuple(int(values[np.searchsorted(cdf, q - 1e-12)]) for q in (0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99))
    return mean, sd, quantiles, int(values[np.flatnonzero(counts).max()])


@needs_jit
def test_exact_distribution_totals_and_counts(exact15):
    assert all(int(c.sum()) == comb(48, 15) for c in exact15.values())
    best = exact15[None]
    assert int(best[25:].sum()) == 33_698_363_438
    assert int(best[30:].sum()) == 11_653_164_764
    assert int(best[0]) == 2_018_188_176
    assert best[3] == 0  # with the best trump a meld of 30 is impossible
    assert as_printed(best[5] / best.sum(), "0.1362") and best.argmax() == 5
    for col in ("H", "S", "D"):
        assert as_printed(exact15[col][0] / comb(48, 15), "0.057335")


@needs_jit
@pytest.mark.parametrize("col", list(SUMMARY), ids=lambda c: c or "best")
def test_exact_distribution_summary(exact15, col):
    mean, sd, quantiles, top = stats(exact15[col])
    e_mean, e_sd, e_quantiles, e_top = SUMMARY[col]
    assert (round(mean, 3), round(sd, 3), quantiles, top) == (e_mean, e_sd, e_quantiles, e_top)


@needs_jit
@pytest.mark.parametrize("threshold", list(CCDF))
def test_exact_distribution_ccdf(exact15, threshold):
    for col, text in zip(COLUMNS, CCDF[threshold]):
        counts = exact15[col]
        assert as_printed(counts[threshold // 10:].sum() / counts.sum(), text), (col, threshold)
    assert as_printed(exact15["C"][threshold // 10:].sum() / comb(48, 15), CCDF[threshold][1])


@needs_jit
def test_exact_distribution_18_cards():
    counts = p3.exact_meld_distribution(18)
    assert int(counts.sum()) == comb(48, 18)
    assert round(stats(counts)[0], 3) == 142.149
    for t, text in BEST_18.items():
        assert as_printed(counts[t // 10:].sum() / counts.sum(), text), t


def test_exact_distribution_equals_enumeration_of_small_holdings():
    """All C(48,4) holdings (C(48,2) without JIT) through the kernel give the DP's counts, every trump."""
    size = 2 if numba.config.DISABLE_JIT else 4
    combos = np.array(list(combinations(range(48), size)), dtype=np.uint64)
    hands = np.bitwise_or.reduce(np.left_shift(np.uint64(1), combos), axis=1)
    for trump in (None, 0, 1, 2, 3):
        points = p3.best_meld(hands)[0] if trump is None else p3.meld_points(hands, trump)
        expected = p3.exact_meld_distribution(size, trump)
        assert np.array_equal(np.bincount(points // 10, minlength=expected.size), expected)


Z = 4.5
"""Half-width of the Monte-Carlo intervals in standard errors (fixed seed; ~70 checks)."""
N_DEALS = 4 * BLOCK_DEALS
"""Deals of the Monte-Carlo checks at CARDSIM_TEST_SCALE 1."""


@pytest.fixture(scope="module")
def sample(scale):
    """Seat 0's 15 cards and those plus the kitty (18 cards) of the sampled deals: (n,) uint64 each."""
    spec = DealSpec(p3.LAYOUT)
    n = max(1000, int(N_DEALS * scale))
    blocks = [deal(spec, block_words(20260529, b, min(BLOCK_DEALS, n - b * BLOCK_DEALS), spec.words_per_deal))
              for b in range(-(-n // BLOCK_DEALS))]
    slots = np.concatenate(blocks)
    return slots[:, 0], slots[:, 0] | slots[:, p3.LAYOUT.index("kitty")]


def within(hits, expected: float):
    lo, hi = wilson(int(np.count_nonzero(hits)), hits.size, Z)
    assert lo <= expected <= hi, (np.count_nonzero(hits) / hits.size, expected)


def mean_within(values, expected: float):
    se = values.std() / np.sqrt(values.size)
    assert abs(values.mean() - expected) <= Z * se, (values.mean(), expected)


def test_monte_carlo_meld_distribution_15(sample):
    hands = sample[0]
    best = p3.best_meld(hands)[0]
    fixed = {s: p3.meld_points(hands, SUITS.index(s)) for s in SUITS}
    assert np.array_equal(best, np.max(np.stack(list(fixed.values())), axis=0))
    for t, row in CCDF.items():
        for values, text in ((best, row[0]), (fixed["H"], row[1]), (fixed["C"], row[1]),
                             (fixed["S"], row[2]), (fixed["D"], row[3])):
            within(values >= t, float(text))
    within(best == 0, 0.001846)
    mean_within(best, 90.975)
    for s in SUITS:
        mean_within(fixed[s], 68.742)


def test_monte_carlo_meld_distribution_18(sample):
    best = p3.best_meld(sample[1])[0]
    mean_within(best, 142.149)
    for t, text in BEST_18.items():
        within(best >= t, float(text))


def test_monte_carlo_nines_throw_in_rates(sample):
    hands = sample[0]
    nines = np.bitwise_count(hands & np.uint64(sum(3 << (2 * (6 * s + p3.NINE)) for s in range(4))))
    spade_nines = np.bitwise_count(hands & np.uint64(3 << (2 * p3.NINE)))
    only_deece = p3.meld_points(hands, p3.SPADES) == 10 * spade_nines.astype(np.int64)  # no other meld
    within(only_deece, 0.1502328)
    within(only_deece & (nines >= 5), 0.0163659)
