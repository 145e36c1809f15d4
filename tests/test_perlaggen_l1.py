"""Level L1 (spec §11.6): the team game of frontier points against the brute-force reference."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_perlaggen_l1 as nl
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_l1 as L
from simcore.rng import block_words

COMBOS = [(style, trump) for style in D.FOUR_PLAYER_STYLES for trump in P.trump_suits(style)]
MAX_FREE = 3
"""The brute force tries 33^w / w! baptisms per hand; deals with more free Perlaggen in a hand are
left to the dedicated cases below."""


def masks(texts) -> np.ndarray:
    return np.array([[P.DECK.mask(P.DECK.parse_cards(t)) for t in texts]], dtype=np.uint64)


def tokens(mask) -> list[str]:
    return [P.DECK.token(c) for c in P.DECK.cards_of(int(mask))]


def kernel_game(hands, style, trump, stakes=(1, 1)):
    """The kernel's team points and solution for one table (n = 1)."""
    fr = P.frontier(hands.reshape(-1), style, trump)
    pts = [P.frontier_points(row) for row in fr]
    a, b = L.team_points(pts[0], pts[2]), L.team_points(pts[1], pts[3])
    return a, b, L.solve_game(a, b, stakes)


def agree(hands, style, trump, stakes=(1, 1)):
    """Assert that kernel and brute force agree on one table (hands (1, 4) uint64)."""
    ref = nl.solve([tokens(h) for h in hands[0]], style, trump, stakes)
    got = L.resolve(hands, style, trump, stakes=stakes)
    a, b, (value, p, q, i, j) = kernel_game(hands, style, trump, stakes)
    assert {tuple(x) for x in a} <= ref["D"] and {tuple(x) for x in b} <= ref["O"]
    assert got["value"][0] == pytest.approx(value)
    assert bool(got["mixed"][0]) == (not ref["saddle"])
    if ref["saddle"]:
        assert value == ref["lower"]
        assert (tuple(a[i]), tuple(b[j])) == ref["choice"]
        assert tuple(got["outcome"][0]) == ref["outcome"]
    else:
        # the mixed value lies between the pure maximin and minimax; it may equal one of them when only
        # one team needs to mix (test_mixed_value_may_equal_a_pure_bound)
        assert ref["lower"] <= value <= ref["upper"]
        worst, best = nl.guarantees({tuple(x): pr for x, pr in zip(a, p)}, {tuple(x): pr for x, pr in zip(b, q)},
                                    ref["D"], ref["O"], stakes)
        assert worst == pytest.approx(value, abs=1e-9) and best == pytest.approx(value, abs=1e-9)
    return ref


def random_tables(style, trump, n, seed=11):
    """Up to n dealt tables (deals as played) with trump ``trump`` and at most MAX_FREE Perlaggen a hand."""
    rows = D.deal_block(block_words(seed, 0, 40 * n, D.WORDS_PER_DEAL), D.DealRules(style))
    rows = rows[rows[:, D.TRUMP] == P.DECK.suits.index(trump)]
    pmask = np.uint64(P.perlagg_mask(style, trump))
    free = np.bitwise_count(rows[:, :4] & pmask).max(axis=1)
    return np.ascontiguousarray(rows[free <= MAX_FREE][:n, :4])


# --- worked cases ----------------------------------------------------------------------------------
def test_t10_frontier_conflict_costs_a_figure():
    """§6.5/T-10 in a table: at L0 team D wins both figures with {S9 E9 L9 L10 E7}, but one identity
    for E7 gives four 9s or U-10-9, and against three Aces + K-O one of the two is lost (§11.6 Q6)."""
    hands = masks(["S9 E9 L9 L10 E7", "HA SA LA SK E9", "EA LK H8 S10 EU", "E8 L8 H9 S8 E10"])
    row = np.zeros((1, D.N_FIELDS), dtype=np.uint64)
    row[0, :4], row[0, D.TRUMP] = hands[0], P.DECK.suits.index("H")
    assert D.outcomes(row).tolist() == [[0, 0]]
    got = L.resolve(hands, "innsbruck", "H")
    assert got["outcome"].tolist() == [[0, 1]] and got["value"][0] == 0 and not got["mixed"][0]
    ref = agree(hands, "innsbruck", "H")
    assert ref["choice"] == ((67, 36), (56, 40))


def test_stakes_change_the_choice():
    """With the Hanger worth 3 and the Gleich 1 the same team D plays U-10-9 instead (§11.6: v_G, v_H)."""
    hands = masks(["S9 E9 L9 L10 E7", "HA SA LA SK E9", "EA LK H8 S10 EU", "E8 L8 H9 S8 E10"])
    got = L.resolve(hands, "innsbruck", "H", stakes=(1, 3))
    assert got["outcome"].tolist() == [[1, 0]] and got["value"][0] == 2
    agree(hands, "innsbruck", "H", stakes=(1, 3))


def test_mixed_game_value_and_strategies():
    """M = [[-2, -1], [0, -2]] (points from a dealt table): value -4/3, p = (2/3, 1/3), q = (1/3, 2/3)."""
    value, p, q, i, j = L.solve_game([(40, 40), (39, 54)], [(55, 53), (40, 56)])
    assert (i, j) == (-1, -1)
    assert Fraction(value).limit_denominator(100) == Fraction(-4, 3)
    assert p == pytest.approx([2 / 3, 1 / 3]) and q == pytest.approx([1 / 3, 2 / 3])


def test_mixed_draws_follow_the_strategies():
    """In a mixed game each team's point is drawn with its uniform: P(point i) = p_i exactly on a grid."""
    hands = masks(["EO L7 HU S8 SK", "LA S9 S10 SU SA", "E7 E10 EU EA LK", "E9 EK LO H7 HK"])
    a, b, (value, p, q, _, _) = kernel_game(hands, "innsbruck", "H")
    grid = (np.arange(300) + 0.5) / 300
    u = np.stack(np.meshgrid(grid, grid), axis=-1).reshape(-1, 2)
    got = L.resolve(np.repeat(hands, len(u), axis=0), "innsbruck", "H", uniforms=u)
    assert got["mixed"].all()
    expected = {}
    for x, px in zip(a, p):
        for y, qy in zip(b, q):
            key = (nl.outcome(x[0], y[0]), nl.outcome(x[1], y[1]))
            expected[key] = expected.get(key, 0) + px * qy
    seen = {k: float(np.mean((got["outcome"] == k).all(axis=1))) for k in expected}
    assert seen == pytest.approx(expected, abs=0.01)
    agree(hands, "innsbruck", "H")


def test_natural_hands_resolve_like_l0():
    """Without Perlaggen every frontier is one point (no conflict): L1 equals L0 (dealt tables with
    the Perlaggen taken out of the hands)."""
    rows = D.deal_block(block_words(5, 0, 2000, D.WORDS_PER_DEAL))
    for t in range(4):
        trump = P.DECK.suits[t]
        sel = rows[rows[:, D.TRUMP] == t].copy()
        sel[:, :4] &= ~np.uint64(P.perlagg_mask("innsbruck", trump))
        got = L.resolve(np.ascontiguousarray(sel[:, :4]), "innsbruck", trump)
        assert not got["mixed"].any()
        assert (got["outcome"] == D.outcomes(sel)).all()


def test_baptised_perlaggen_stay_fixed():
    """Cards baptised in tricks keep their identity at every level (§11.6): E7 already played as LU
    leaves team D only the Hanger U-10-9."""
    hands = masks(["S9 E9 L9 L10 E7", "HA SA LA SK E9", "EA LK H8 S10 EU", "E8 L8 H9 S8 E10"])
    n_p = len(P.perlaggen("innsbruck", "H"))
    baptised = np.full((1, 4, n_p), -1, dtype=np.int8)
    baptised[0, 0, P.perlaggen("innsbruck", "H").index(P.DECK.parse_face("E7"))] = P.DECK.parse_face("LU")
    got = L.resolve(hands, "innsbruck", "H", baptised=baptised)
    assert got["outcome"].tolist() == [[1, 0]]


def test_bad_stakes_are_refused():
    hands = masks(["S9 E9 L9 L10 E7", "HA SA LA SK E9", "EA LK H8 S10 EU", "E8 L8 H9 S8 E10"])
    for stakes in ((0, 1), (1, 8), ("x", 1), (1,)):
        with pytest.raises(CardsimError, match="stakes"):
            L.resolve(hands, stakes=stakes)


# --- kernel against brute force ---------------------------------------------------------------------
@pytest.mark.parametrize("style, trump", COMBOS)
def test_random_tables_agree_with_brute_force(style, trump, scale):
    """Every baptism of every Perlagg (brute force) against the frontier game, on dealt tables."""
    tables = random_tables(style, trump, max(8, int(20 * scale)))
    assert len(tables) >= 8
    mixed = 0
    for row in tables:
        mixed += not agree(row[None, :], style, trump)["saddle"]
    assert mixed < len(tables)


def test_mixed_value_may_equal_a_pure_bound():
    """A degenerate game hypothesis found: no saddle point (pure maximin -2, minimax -1), yet the mixed
    value is -1, the minimax, since only one team needs to mix; the mixed strategies still guarantee it."""
    hands = masks(["EO LU H8 HA S8", "EU EK EA LA SU", "E8 L8 LO H9 H10", "L9 L10 HU HO HK"])
    ref = agree(hands, "schlanders", "S")
    assert not ref["saddle"] and (ref["lower"], ref["upper"]) == (-2, -1)
    assert kernel_game(hands, "schlanders", "S")[2][0] == pytest.approx(-1)


@settings(max_examples=60)
@given(st.sampled_from(COMBOS), st.lists(st.integers(0, 2**32 - 1), min_size=D.WORDS_PER_DEAL,
                                          max_size=D.WORDS_PER_DEAL), st.sampled_from([(1, 1), (2, 1), (1, 3)]))
def test_hypothesis_tables_agree_with_brute_force(combo, words, stakes):
    style, _ = combo
    row = D.deal_block(np.array([words], dtype=np.uint32), D.DealRules(style))[0]
    trump = P.DECK.suits[int(row[D.TRUMP])]
    if max(bin(int(h) & P.perlagg_mask(style, trump)).count("1") for h in row[:4]) <= MAX_FREE:
        agree(np.ascontiguousarray(row[None, :4]), style, trump, stakes)


@pytest.mark.slow
def test_four_free_perlaggen_agree_with_brute_force():
    """A hand with four Perlaggen (the brute force tries 58,905 baptisms)."""
    agree(masks(["HK S6 S7 E7 L9", "HA SA LA SK E9", "EA LK H8 S10 EU", "E8 L8 H9 S8 E10"]), "innsbruck", "S")


def test_t08_gleich_stands_at_l1():
    """§12.2 T-08 at the table: T = L, X holds LK SK S7->HK, Y holds EK HK->SK E7->LK (baptised in
    tricks, so fixed at every level, §11.6); nobody has three Aces or four of a kind: the Gleich stands."""
    texts = ["LK SK S7->HK E8 H10", "EK HK->SK E7->LK L9 S9", "EA H9 S10 L8 E10", "HA SA H8 S8 EO"]
    parsed = [P.parse_hand(t, "innsbruck", "L") for t in texts]
    hands = np.array([[m for m, _ in parsed]], dtype=np.uint64)
    baptised = np.array([[f for _, f in parsed]], dtype=np.int8)
    got = L.resolve(hands, "innsbruck", "L", baptised=baptised)
    assert got["outcome"][0, 0] == 2 and got["value"][0] == 0  # STAND; the Hanger is void
