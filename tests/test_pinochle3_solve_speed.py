"""The double-dummy solver's faster parts (simcore.games.pinochle3_solve) against their definitions:
the table-driven key digits of a suit against the rank-by-rank definition, and the quick-tricks
bound that draws trumps first (spec shared/rules/pinochle3.md R5.2-R5.6) against plain minimax."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3_solve as naive
from simcore.games import pinochle3_solve as solver
from simcore.games.pinochle3 import DECK

HEARTS = DECK.suits.index("H")


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(1, 15))
def test_table_suit_digits_match_the_rank_by_rank_definition(seed, tricks):
    """`_suit_digits` reads the upper and lower half of a suit from tables: the same digits as the
    rank-by-rank definition `rank_digits` of the whole suit, runs across the halves included."""
    cards = np.random.default_rng(seed).permutation(48)[:3 * tricks].reshape(3, tricks)
    hands = np.array([sum(1 << int(c) for c in row) for row in cards], dtype=np.uint64)
    for s in range(4):
        masks = [int(h) >> (12 * s) & 0xFFF for h in hands]
        assert int(solver._suit_digits(hands, s)) == solver._number(solver.rank_digits(*masks))


def test_one_players_suit_is_one_run_across_the_halves():
    """A K Q of one player alone (no card of another between): one run of 2 counters and 1 loser,
    written as one pair of counters, then one loser, whatever the ranks (10 K J: the same digits)."""
    a_k_q = DECK.mask(DECK.parse_cards("SA SK SQ"))
    ten_k_j = DECK.mask(DECK.parse_cards("S10 SK SJ"))
    hands = np.array([a_k_q, 0, 0], dtype=np.uint64)
    same = np.array([ten_k_j, 0, 0], dtype=np.uint64)
    assert solver._suit_digits(hands, 0) == solver._suit_digits(same, 0) == solver._number(solver.rank_digits(
        int(a_k_q), 0, 0))
    assert len(solver.rank_digits(int(a_k_q), 0, 0)) == 2


def test_quick_points_draw_trumps_before_cashing_a_plain_suit():
    """R5.2: the leader draws the others' single trumps with his two trump aces, then cashes both
    spade aces although one opponent holds one spade only (he has no trump left to ruff with):
    all four tricks, the five counters and the last trick, 60 points, the exact value."""
    groups = DECK.parse_groups({"leader": "HA HA SA SA", "left": "H9 S9 D9 DJ", "right": "HJ SQ SK C9"})
    hands = [set(groups[seat]) for seat in ("leader", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert solver._quick_points(masks, 0, HEARTS) == 60
    assert naive.minimax(hands, HEARTS, 0, 0) == 60
    assert solver.solve(masks, HEARTS, 0, 0)[0] == 60
