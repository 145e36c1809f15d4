"""Exact Giltspiel facts: the enumeration helpers reproduce spec §10.2, §4.2 and §5.2, and independent
computations (closed forms, a plain-Python enumeration, an exact DP) agree with the spec."""

from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb, perm

import numpy as np
import pytest

from simcore.games.giltspiel import (
    GLEICH_BINS,
    HANGER_BINS,
    all_hands,
    single_hand_classes,
    single_hand_facts,
)

import naive

HANDS = comb(32, 5)

# spec §10.2: event -> (key of single_hand_facts, hands, exact P, decimal as printed)
SPEC_10_2 = {
    "no Gleich (no pair)": ("no Gleich", 57_344, Fraction(256, 899), "0.284761"),
    ">= a pair": ("has a Gleich", 144_032, Fraction(643, 899), "0.715239"),
    "exactly one pair": ("exactly one pair", 107_520, Fraction(480, 899), "0.533927"),
    "two pairs": ("two pairs", 24_192, Fraction(108, 899), "0.120133"),
    "three of a kind (no pair)": ("three of a kind (no pair)", 10_752, Fraction(48, 899), "0.053393"),
    "full house (3+2)": ("full house (3+2)", 1_344, Fraction(6, 899), "0.006674"),
    "four of a kind": ("four of a kind", 224, Fraction(1, 899), "0.001112"),
    "Gleich >= 3 cards": ("Gleich of 3+ cards", 12_320, Fraction(55, 899), "0.061179"),
    "no Hanger": ("no Hanger", 106_224, Fraction(6639, 12586), "0.527491"),
    "Hanger >= 2": ("has a Hanger", 95_152, Fraction(5947, 12586), "0.472509"),
    "Hanger exactly 2": ("Hanger of exactly 2", 85_968, Fraction(5373, 12586), "0.426903"),
    "Hanger exactly 3": ("Hanger of exactly 3", 8_640, Fraction(270, 6293), "0.042905"),
    "Hanger >= 3": ("Hanger of 3+", 9_184, Fraction(41, 899), "0.045606"),
    "Hanger exactly 4": ("Hanger of exactly 4", 528, Fraction(33, 12586), "0.002622"),
    "Hanger >= 4": ("Hanger of 4+", 544, Fraction(17, 6293), "0.002701"),
    "Hanger of 5": ("Hanger of 5", 16, Fraction(1, 12586), "0.0000795"),
    "both a Gleich and a Hanger": ("both a Gleich and a Hanger", 66_368, Fraction(2074, 6293), "0.329573"),
    "Gleich only": ("Gleich only", 77_664, Fraction(2427, 6293), "0.385667"),
    "Hanger only": ("Hanger only", 28_784, Fraction(257, 1798), "0.142937"),
    "neither figure": ("neither figure", 28_560, Fraction(255, 1798), "0.141824"),
    "some figure of >= 3 cards": ("some figure of 3+ cards", 21_288, Fraction(2661, 25172), "0.105713"),
}

# spec §4.2: best Gleich class -> hands (pairs by rank 7..A; each triple 1,512; each quad 28)
SPEC_4_2_PAIRS = [13_440, 14_304, 15_168, 16_032, 16_896, 17_760, 18_624, 19_488]
SPEC_4_2_NONE, SPEC_4_2_TRIPLE, SPEC_4_2_QUAD = 57_344, 1_512, 28
SPEC_4_2_TOTALS = {"pairs": 131_712, "triples": 12_096, "quads": 224}

# spec §5.2: best Hanger code -> hands
SPEC_5_2 = {
    31: 4, 30: 4, 29: 4, 28: 4,
    23: 108, 22: 104, 21: 104, 20: 104, 19: 108,
    15: 1_512, 14: 1_404, 13: 1_404, 12: 1_404, 11: 1_404, 10: 1_512,
    7: 14_376, 6: 12_580, 5: 12_296, 4: 11_908, 3: 11_520, 2: 11_132, 1: 12_156,
    -1: 106_224,
}


@pytest.fixture(scope="module")
def facts():
    return single_hand_facts()


@pytest.fixture(scope="module")
def classes():
    return single_hand_classes()


@pytest.fixture(scope="module")
def naive_enumeration():
    """Plain-Python pass over all C(32,5) hands with the naive references.

    Returns Counters of best Gleich code, best Hanger code, and a Counter of named events.
    """
    gleich, hanger, events = Counter(), Counter(), Counter()
    for hand in combinations(range(32), 5):
        g, h = naive.best_gleich(hand), naive.best_hanger(hand)
        gleich[g] += 1
        hanger[h] += 1
        shape = tuple(sorted((n for n in Counter(c % 8 for c in hand).values() if n >= 2), reverse=True))
        run = h // 8 + 2 if h >= 0 else 0
        events["shape", shape] += 1
        events["run", run] += 1
        events["both", g >= 0, h >= 0] += 1
        events["some 3+"] += g >= 8 or run >= 3
    return gleich, hanger, events


# --- the enumeration helpers against the spec ---------------------------------------------------
def test_spec_10_2_rows_are_self_consistent():
    # every exact P of the table is hands / C(32,5) and rounds to the printed decimal
    for event, (_, hands, p, printed) in SPEC_10_2.items():
        assert Fraction(hands, HANDS) == p, event
        digits = len(printed.split(".")[1])
        assert f"{float(p):.{digits}f}" == printed or abs(float(p) - float(printed)) < 10 ** -digits, event


@pytest.mark.parametrize("event", list(SPEC_10_2))
def test_single_hand_facts_reproduce_spec_10_2(facts, event):
    key, hands, p, _ = SPEC_10_2[event]
    assert facts[key] == hands
    assert Fraction(facts[key], facts["hands"]) == p


def test_single_hand_facts_total(facts):
    assert facts["hands"] == HANDS == 201_376
    assert set(facts) == {"hands"} | {key for key, *_ in SPEC_10_2.values()}


def test_single_hand_gleich_classes_reproduce_spec_4_2(classes):
    gleich, _ = classes
    assert gleich.shape == (GLEICH_BINS,) and gleich.sum() == HANDS
    assert gleich[0] == SPEC_4_2_NONE
    assert list(gleich[1:9]) == SPEC_4_2_PAIRS
    assert list(gleich[9:17]) == [SPEC_4_2_TRIPLE] * 8
    assert list(gleich[17:25]) == [SPEC_4_2_QUAD] * 8
    assert gleich[1:9].sum() == SPEC_4_2_TOTALS["pairs"]
    assert gleich[9:17].sum() == SPEC_4_2_TOTALS["triples"]
    assert gleich[17:25].sum() == SPEC_4_2_TOTALS["quads"]
    # printed probabilities of §4.2
    for count, printed in ((57_344, 0.284761), (13_440, 0.066741), (19_488, 0.096774), (1_512, 0.007508),
                           (28, 0.000139), (131_712, 0.654060), (12_096, 0.060067), (224, 0.001112)):
        assert round(count / HANDS, 6) == printed


def test_single_hand_hanger_classes_reproduce_spec_5_2(classes):
    _, hanger = classes
    assert hanger.shape == (HANGER_BINS,) and hanger.sum() == HANDS
    expected = np.zeros(HANGER_BINS, dtype=np.int64)
    for code, hands in SPEC_5_2.items():
        expected[code + 1] = hands
    assert list(hanger) == list(expected)
    assert sum(SPEC_5_2.values()) == HANDS
    assert len([c for c in SPEC_5_2 if c >= 0]) == 22


def test_all_hands_are_the_distinct_five_card_masks():
    masks = all_hands()
    assert masks.shape == (HANDS,) and masks.dtype == np.uint64
    assert len(np.unique(masks)) == HANDS
    popcount = np.zeros(HANDS, dtype=np.int64)
    for bit in range(32):
        popcount += ((masks >> np.uint64(bit)) & np.uint64(1)).astype(np.int64)
    assert (popcount == 5).all()
    assert (masks >> np.uint64(32) == 0).all()


# --- independent checks ---------------------------------------------------------------------------
def test_naive_enumeration_agrees_with_the_spec_tables(naive_enumeration):
    gleich, hanger, events = naive_enumeration
    assert gleich[-1] == SPEC_4_2_NONE
    assert [gleich[r] for r in range(8)] == SPEC_4_2_PAIRS
    assert [gleich[8 + r] for r in range(8)] == [SPEC_4_2_TRIPLE] * 8
    assert [gleich[16 + r] for r in range(8)] == [SPEC_4_2_QUAD] * 8
    assert dict(hanger) == SPEC_5_2
    spec = {event: hands for event, (_, hands, _, _) in SPEC_10_2.items()}
    assert events["shape", ()] == spec["no Gleich (no pair)"]
    assert events["shape", (2,)] == spec["exactly one pair"]
    assert events["shape", (2, 2)] == spec["two pairs"]
    assert events["shape", (3,)] == spec["three of a kind (no pair)"]
    assert events["shape", (3, 2)] == spec["full house (3+2)"]
    assert events["shape", (4,)] == spec["four of a kind"]
    assert events["run", 0] == spec["no Hanger"]
    assert [events["run", n] for n in (2, 3, 4, 5)] == [
        spec["Hanger exactly 2"], spec["Hanger exactly 3"], spec["Hanger exactly 4"], spec["Hanger of 5"]]
    assert events["both", True, True] == spec["both a Gleich and a Hanger"]
    assert events["both", True, False] == spec["Gleich only"]
    assert events["both", False, True] == spec["Hanger only"]
    assert events["both", False, False] == spec["neither figure"]
    assert events["some 3+"] == spec["some figure of >= 3 cards"]


def test_closed_forms_of_spec_10_2():
    # the closed-form column of §10.2, evaluated independently of any enumeration
    assert comb(8, 5) * 4 ** 5 == 57_344
    assert 8 * comb(4, 2) * comb(7, 3) * 4 ** 3 == 107_520
    assert comb(8, 2) * 6 ** 2 * 6 * 4 == 24_192
    assert 8 * 4 * comb(7, 2) * 4 ** 2 == 10_752
    assert 8 * 4 * 7 * 6 == 1_344
    assert 8 * 28 == 224
    assert 4 * (2 * comb(28, 2) + 4 * comb(27, 2)) == 8_640
    assert 4 * (2 * 27 + 3 * 26) == 528
    assert 4 * 4 == 16
    # the shapes partition every hand
    assert 57_344 + 107_520 + 24_192 + 10_752 + 1_344 + 224 == HANDS


def test_best_gleich_class_counts_in_closed_form():
    # best = pair of rank r: exactly one pair of r (no triple), or two pairs whose higher pair is r
    for r in range(8):
        one_pair = comb(4, 2) * comb(7, 3) * 4 ** 3
        two_pairs_topped_by_r = comb(4, 2) * r * comb(4, 2) * (8 - 2) * 4
        assert one_pair + two_pairs_topped_by_r == SPEC_4_2_PAIRS[r]
    # best = three of rank r: three of r plus two cards of other ranks (a pair among them or not)
    assert comb(4, 3) * comb(28, 2) == SPEC_4_2_TRIPLE
    # best = four of rank r: any fifth card
    assert 28 == SPEC_4_2_QUAD


def test_hanger_run_counts_in_closed_form():
    # Best run = exactly the run of length L >= 3 topped by t in one of 4 suits: the same-suit
    # neighbours just above and below are absent, and the other 5 - L cards are any of the rest.
    # Each such hand is counted once: 5 - L <= 2 further cards cannot make a second run of length L.
    for code, expected in SPEC_5_2.items():
        length, top = code // 8 + 2, code % 8
        if code < 0 or length < 3:
            continue
        blocked = (top < 7) + (top - length + 1 > 0)
        assert 4 * comb(32 - length - blocked, 5 - length) == expected, code


def pair_free_tuples(n_hands: int, hand: int = 5, ranks: int = 8, suits: int = 4) -> int:
    """Ordered tuples of ``n_hands`` disjoint pair-free hands (spec §10.3 DP).

    A pair-free hand is ``hand`` distinct ranks with one suit each. Go rank by rank, keeping how many
    ranks every hand still needs; a rank used by k hands gives them k different suits: 4!/(4-k)! ways.
    """
    states = {(hand,) * n_hands: 1}
    for _ in range(ranks):
        new: dict[tuple, int] = {}
        for need, ways in states.items():
            for subset in range(1 << n_hands):
                users = [i for i in range(n_hands) if subset >> i & 1]
                if any(need[i] == 0 for i in users) or len(users) > suits:
                    continue
                nxt = tuple(need[i] - (subset >> i & 1) for i in range(n_hands))
                new[nxt] = new.get(nxt, 0) + ways * perm(suits, len(users))
        states = new
    return states.get((0,) * n_hands, 0)


def test_dp_reproduces_single_hand_count():
    assert pair_free_tuples(1) == comb(8, 5) * 4 ** 5 == 57_344


def test_no_gleich_at_the_table_exact_spec_10_3():
    p = Fraction(pair_free_tuples(4), comb(32, 5) * comb(27, 5) * comb(22, 5) * comb(17, 5))
    assert p == Fraction(25_537_490_432, 3_041_834_100_305)
    assert round(float(p), 7) == 0.0083954


def test_no_gleich_in_a_team_exact_spec_10_3():
    p = Fraction(pair_free_tuples(2), comb(32, 5) * comb(27, 5))
    assert p == Fraction(338_816, 4_032_015)
    assert round(float(p), 7) == 0.0840314


def test_dp_on_a_tiny_pack_against_brute_force():
    # 2 suits x 4 ranks, two hands of 2 cards: count ordered pairs of disjoint pair-free hands directly
    cards = [(s, r) for s in range(2) for r in range(4)]
    pair_free = [h for h in combinations(cards, 2) if h[0][1] != h[1][1]]
    brute = sum(1 for a in pair_free for b in pair_free if not set(a) & set(b))
    assert pair_free_tuples(2, hand=2, ranks=4, suits=2) == brute
