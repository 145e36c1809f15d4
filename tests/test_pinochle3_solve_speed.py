"""The double-dummy solver's faster parts (simcore.games.pinochle3_solve) against their definitions:
the table-driven key digits of a suit against the rank-by-rank definition, the quick-tricks bound
that draws trumps first (spec shared/rules/pinochle3.md R5.2-R5.6) against plain minimax, the legal
cards from the trick state the search keeps against `legal_cards`, the table-driven equivalent-card
reduction against its rank-by-rank definition, and the candidates picked from a mask against a sort
by the heuristic keys."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3_solve as naive
from simcore.games import pinochle3_solve as solver
from simcore.games.pinochle3 import DECK
from simcore.games.pinochle3_play import _beaters, legal_cards, play_rule, winning_slot

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
    """A K Q of one player alone (no card of another between): one run of 3 cards, written as one
    pair, then one card, whatever the ranks (10 K J: the same digits)."""
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
                               np.zeros((solver.DEPTH, solver.PLY_FIELDS), dtype=np.int64),
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


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(1, 2), st.sampled_from(["old", "old_strict", "new1945", "new1945_alt"]))
def test_legal_from_the_kept_trick_state_matches_legal_cards(seed, count, rule):
    """R5.2: the legal cards from the trick state the search keeps card by card (the card holding the
    trick, the highest card of the suit led: `_legal`) are `legal_cards` of the trick itself."""
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(48)]
    trick = np.array(cards[:3], dtype=np.int64)
    hand = np.uint64(sum(1 << c for c in cards[3:3 + int(rng.integers(1, 16))]))
    trump, code = int(rng.integers(4)), play_rule(rule)
    win, top = 0, int(trick[0])
    for i in range(1, count):
        if int(_beaters(int(trick[win]), trump)) >> int(trick[i]) & 1:
            win = i
        if trick[i] // 12 == top // 12 and trick[i] // 2 > top // 2:
            top = int(trick[i])
    assert win == winning_slot(trick, count, trump)
    assert solver._legal(hand, top, int(trick[win]), trump, code) == legal_cards(hand, trick, count, trump, code)


def _representatives_by_rank(legal, outside):
    """The definition of `_representatives`, rank by rank: one copy per face, and of two faces of a
    suit and a point class (counters A 10 K, losers Q J 9) with no card outside the hand from the
    lower to the higher, only the higher."""
    legal = int(solver.one_copy(np.uint64(legal)))
    for s in range(4):
        kept = -1
        for r in range(5, -1, -1):
            bits = legal & (3 << 2 * (6 * s + r))
            if not bits:
                continue
            span = ((1 << 2 * (6 * s + kept + 1)) - (1 << 2 * (6 * s + r))) if kept >= 0 else 0
            if kept >= 0 and (r >= 3) == (kept >= 3) and not outside & span:
                legal &= ~bits
            else:
                kept = r
    return legal


@settings(max_examples=500)
@given(st.integers(0, 2**32 - 1))
def test_table_representatives_match_the_rank_by_rank_definition(seed):
    """The candidates dropped by the per-suit tables (`_drop_tables`) are those of the definition."""
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(48)]
    n, m = int(rng.integers(1, 16)), int(rng.integers(0, 33))
    hand, outside = sum(1 << c for c in cards[:n]), sum(1 << c for c in cards[n:n + m])
    legal = hand & int(solver.SUITS[int(rng.integers(4))]) or hand if rng.random() < 0.5 else hand
    found = int(solver._representatives(np.uint64(legal), np.uint64(outside)))
    assert found == _representatives_by_rank(legal, outside)


def _order_key(card, beaters, count, trump, own_side_wins):
    """The move-ordering key `_next_move` follows (higher first, of equals the lower card)."""
    counter = int(solver.COUNTERS) >> card & 1
    power = (card // 2) % 6 + 6 * (card // 12 == trump)
    if count == 0:
        return -4 * power - counter if own_side_wins else 4 * power + counter
    if own_side_wins and count == 2:
        return 100 + 20 * counter - power
    if beaters >> card & 1:
        return 200 - power
    return 50 - 20 * counter - power


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2), st.booleans())
def test_next_move_picks_in_the_order_of_the_heuristic_keys(seed, count, own_side_wins):
    """`_next_move` picks the candidates (one copy per face) in the order of a sort by the heuristic
    key, the table's best lead and the killer lead first."""
    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.permutation(48)]
    cands = int(solver.one_copy(np.uint64(sum(1 << c for c in cards[:int(rng.integers(1, 16))]))))
    trump, led = int(rng.integers(4)), int(rng.integers(48))
    beaters = int(_beaters(led, trump)) if count else 0
    faces = [c // 2 for c in range(48) if cands >> c & 1]
    first = int(rng.choice(faces + [-1])) if count == 0 else -1
    killer = int(rng.choice(faces + [-1])) if count == 0 else -1

    def key(c):
        return 1 << 20 if c // 2 == first else 1 << 19 if c // 2 == killer else _order_key(c, beaters, count, trump,
                                                                                          own_side_wins)
    expected = sorted((c for c in range(48) if cands >> c & 1), key=lambda c: (-key(c), c))
    picked, left = [], cands
    while left:
        card = solver._next_move(np.uint64(left), first, killer, count, trump, own_side_wins, np.uint64(beaters))
        picked.append(int(card))
        left &= ~(1 << int(card))
    assert picked == expected


def _lookahead_score(hands, place, trick, bidder, trump, code):
    """The one-trick lookahead of `_lead_guess` written plainly: minimax over every seat's candidates
    (`legal_cards`, one of each run of equivalent cards) with `_guess_leaf` at the end of the trick."""
    if place == 3:
        win = int(winning_slot(np.array(trick), 3, trump))
        gained = 10 * sum(int(solver.COUNTERS) >> c & 1 for c in trick) if win == bidder else 0
        return int(solver._guess_leaf(*hands, win, bidder, gained, trump, bidder == 0))
    outside = np.uint64(int(hands[(place + 1) % 3] | hands[(place + 2) % 3]) | sum(1 << c for c in trick))
    legal = legal_cards(hands[place], np.array(trick + [0] * (3 - len(trick))), place, trump, code)
    cands = int(solver._representatives(np.uint64(legal), outside))
    scores = []
    for card in (c for c in range(48) if cands >> c & 1):
        rest = list(hands)
        rest[place] = np.uint64(int(hands[place]) & ~(1 << card))
        scores.append(_lookahead_score(rest, place + 1, trick + [card], bidder, trump, code))
    return max(scores) if place == bidder else min(scores)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 15), st.integers(0, 2), st.sampled_from(["old", "old_strict",
                                                                                          "new1945", "new1945_alt"]))
def test_lead_guess_is_a_best_lead_of_the_one_trick_lookahead(seed, tricks, bidder, rule):
    """`_lead_guess` (move ordering only: any face is safe to try first) names a face of the leader
    whose lead scores as well as the best one under the plain minimax of its one-trick lookahead."""
    rng = np.random.default_rng(seed)
    hands = [np.uint64(sum(1 << int(c) for c in row)) for row in rng.permutation(48)[:3 * tricks].reshape(3, tricks)]
    trump, code = int(rng.integers(4)), play_rule(rule)
    face = int(solver._lead_guess(*hands, bidder, trump, code))
    cands = int(solver._representatives(hands[0], hands[1] | hands[2]))
    score = {}
    for card in (c for c in range(48) if cands >> c & 1):
        rest = [np.uint64(int(hands[0]) & ~(1 << card)), hands[1], hands[2]]
        score[card // 2] = _lookahead_score(rest, 1, [card], bidder, trump, code)
    assert score[face] == (max(score.values()) if bidder == 0 else min(score.values()))
