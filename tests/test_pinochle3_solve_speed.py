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
        assert int(solver._suit_digits(*hands, s)) == solver._number(solver.rank_digits(*masks))


def test_one_players_suit_is_one_run_across_the_halves():
    """A K Q of one player alone (no card of another between): one run of 2 counters and 1 loser,
    written as one pair of counters, then one loser, whatever the ranks (10 K J: the same digits)."""
    a_k_q = DECK.mask(DECK.parse_cards("SA SK SQ"))
    ten_k_j = DECK.mask(DECK.parse_cards("S10 SK SJ"))
    hands = np.array([a_k_q, 0, 0], dtype=np.uint64)
    same = np.array([ten_k_j, 0, 0], dtype=np.uint64)
    assert solver._suit_digits(*hands, 0) == solver._suit_digits(*same, 0) == solver._number(solver.rank_digits(
        int(a_k_q), 0, 0))
    assert len(solver.rank_digits(int(a_k_q), 0, 0)) == 2


def test_quick_points_draw_trumps_before_cashing_a_plain_suit():
    """R5.2: the leader draws the others' single trumps with his two trump aces, then cashes both
    spade aces although one opponent holds one spade only (he has no trump left to ruff with):
    all four tricks, the five counters and the last trick, 60 points, the exact value."""
    groups = DECK.parse_groups({"leader": "HA HA SA SA", "left": "H9 S9 D9 DJ", "right": "HJ SQ SK C9"})
    hands = [set(groups[seat]) for seat in ("leader", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert solver._quick_points(*masks, HEARTS) == 60
    assert naive.minimax(hands, HEARTS, 0, 0) == 60
    assert solver.solve(masks, HEARTS, 0, 0)[0] == 60


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["old", "old_strict", "new1945", "new1945_alt"]))
def test_search_loop_restores_the_hands_and_fails_soft_on_the_right_side(seed, rule):
    """R5.2-R5.6: one null-window `_search` (its steps written out in one loop) on a 4-trick ending
    leaves the hands as they were, and its result lies on the same side of the window as the plain
    minimax value (>= target exactly when the value is)."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(48)[:12]
    hands = [set(int(c) for c in cards[4 * s:4 * (s + 1)]) for s in range(3)]
    masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
    trump, leader, bidder = (int(x) for x in rng.integers(0, [4, 3, 3]))
    value = naive.minimax(hands, trump, leader, bidder, rule)
    table, leads = solver.Table(12), solver._shape_table(4)
    for target in (value, value + 10):
        params = np.zeros(solver.N_PARAMS, dtype=np.int64)
        params[[solver.TRUMP, solver.RULE, solver.BIDDER, solver.STAMP]] = (
            trump, solver.play_rule(rule), bidder, table.stamps(1))
        h = masks.copy()
        found = solver._search(h, np.zeros((solver.TRICKS, solver.SEATS), dtype=np.int64),
                               np.zeros((solver.DEPTH, solver.MAX_MOVES), dtype=np.int64),
                               np.zeros((solver.DEPTH, solver.PLY_FIELDS + solver.MAX_MOVES), dtype=np.int64),
                               table.keys, table.data, leads, params, solver.TRICKS - 4, 0, leader, target - 1,
                               target)
        assert (h == masks).all()
        assert (found >= target) == (value >= target)


@settings(max_examples=200)
@given(st.integers(0, 2**32 - 1), st.integers(1, 15))
def test_shape_lead_names_the_same_suit_class_and_place_in_any_hand_of_the_shape(seed, tricks):
    """The shape-lead table's word (`_shape_entry`) gives back the face it was written for, nothing
    for another shape, and in another hand with the same suit lengths a face of the same suit and
    point class (counters A 10 K, losers Q J 9) at the same place from the top, or the lowest one."""
    rng = np.random.default_rng(seed)
    hands = np.array([sum(1 << int(c) for c in row) for row in rng.permutation(48)[:3 * tricks].reshape(3, tricks)],
                     dtype=np.uint64)
    leader = int(rng.integers(3))
    hand = int(hands[leader])
    card = int(rng.choice([c for c in range(48) if hand >> c & 1]))
    face, shape = card // 2, np.uint64(solver._shape(hands, leader))
    entry = np.uint64(solver._shape_entry(shape, face, np.uint64(hand)))
    assert solver._shape_lead(entry, shape, np.uint64(hand)) == face
    assert solver._shape_lead(entry, np.uint64(solver._shape(hands, (leader + 1) % 3)), np.uint64(hand)) == -1

    def class_faces(h, s, counter):
        return [r for r in range(5, -1, -1) if (r >= 3) == counter and h >> (2 * (6 * s + r)) & 3]

    s, counter = face // 6, face % 6 >= 3
    place = class_faces(hand, s, counter).index(face % 6)
    other = int(rng.choice([c for c in range(48) if not (hand >> c & 1)] + [card]))
    for h in (hand, hand ^ (1 << card) | (1 << other) if other // 12 == s else hand):
        ranks = class_faces(h, s, counter)
        expected = 6 * s + ranks[min(place, len(ranks) - 1)] if ranks else -1
        assert solver._shape_lead(entry, shape, np.uint64(h)) == expected
