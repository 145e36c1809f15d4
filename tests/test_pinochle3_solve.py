"""Double-dummy solver for Pinochle play (spec shared/rules/pinochle3.md §5, R1.4, R5.2-R5.6) against
plain minimax (tests/naive_pinochle3_solve.py) on random endings of the last 4-6 tricks, every play
rule; the null-window query, the optimal line and the partially solved fallback."""

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import naive_pinochle3_play as naive_play
import naive_pinochle3_solve as naive
from simcore.errors import CardsimError
from simcore.games import pinochle3_play as play
from simcore.games import pinochle3_solve as solver
from simcore.games.pinochle3 import DECK

RULES = list(play.PLAY_RULES)
TABLE = solver.Table(16)


def ending(seed: int, tricks: int):
    """Three random hands of ``tricks`` cards each (sets and (3,) uint64 masks) from the 48-card pack."""
    cards = np.random.default_rng(seed).permutation(48)[:3 * tricks]
    hands = [set(int(c) for c in cards[s * tricks:(s + 1) * tricks]) for s in range(3)]
    return hands, np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)


def played_ending(seed: int, tricks: int, trump: int, rule: str):
    """The hands left after random play of the first 15 - ``tricks`` tricks of a random deal, and the
    seat to lead: endings as they arise in play (voids, trumps drawn)."""
    rng = np.random.default_rng(seed)
    cards = rng.permutation(48)
    masks = np.array([sum(1 << int(c) for c in cards[15 * s:15 * (s + 1)]) for s in range(3)], dtype=np.uint64)
    line = play.play_line("random", masks, trump, 0, rule, rng.random(play.DECISIONS))
    leader = 0
    for start in range(0, 3 * (15 - tricks), 3):
        trick = [card for _, card in line[start:start + 3]]
        for seat, card in line[start:start + 3]:
            masks[seat] &= ~np.uint64(1 << card)
        leader = (leader + naive_play.winner_index(trick, trump)) % 3
    return [{c for c in range(48) if int(m) >> c & 1} for m in masks], masks, leader


@settings(max_examples=200)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from(RULES))
def test_solver_matches_minimax_on_random_endings_of_4_tricks(seed, trump, leader, bidder, rule):
    hands, masks = ending(seed, 4)
    assert (solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
            == naive.minimax(hands, trump, leader, bidder, rule))


@settings(max_examples=100)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES))
def test_solver_matches_minimax_on_played_endings_of_4_tricks(seed, trump, bidder, rule):
    hands, masks, leader = played_ending(seed, 4, trump, rule)
    assert (solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
            == naive.minimax(hands, trump, leader, bidder, rule))


@pytest.mark.parametrize("seed", range(24))
def test_solver_matches_minimax_on_endings_of_5_tricks(seed):
    trump, bidder, rule = seed % 4, seed % 3, RULES[(seed // 4) % 4]
    hands, masks, leader = played_ending(seed, 5, trump, rule)
    assert (solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
            == naive.minimax(hands, trump, leader, bidder, rule))


@pytest.mark.parametrize("seed", range(2))
def test_solver_matches_minimax_on_endings_of_6_tricks(seed):
    trump, bidder = seed, (seed + 1) % 3
    hands, masks, leader = played_ending(100 + seed, 6, trump, "old")
    assert solver.solve(masks, trump, leader, bidder, "old", TABLE)[0] == naive.minimax(hands, trump, leader, bidder)


def assert_bounds_hold(hands, masks, trump, leader, bidder, rule):
    """The search's bounds at a trick start bracket the plain minimax value."""
    value = naive.minimax(hands, trump, leader, bidder, rule)
    lo, hi = solver._sure_bounds(masks, trump, bidder, leader)
    quick = solver._quick_points(masks[leader], masks[(leader + 1) % 3], masks[(leader + 2) % 3], trump)
    if leader == bidder:
        lo = max(lo, quick)
    else:
        hi = min(hi, 10 * naive_play.counters(set().union(*hands)) + 10 - quick)
    assert lo <= value <= hi



@pytest.mark.parametrize("rule", RULES)
def test_last_trick_needs_one_trump_more_when_another_player_leads(rule):
    """`_wins_last_trick`: the bidder (spades trumps) holds the only trump, S9, and H9. On lead he
    plays H9 first and wins the last trick with S9 (20 points: the trick with HK and the last
    trick); when seat 1 leads D9 he cannot follow and must trump, so H9 is his last card and loses
    (10 points). Only the first case adds the last trick to his sure points."""
    groups = DECK.parse_groups({"bidder": "S9 H9", "left": "D9 DJ", "right": "HA HK"})
    hands = [set(groups[name]) for name in ("bidder", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert naive.minimax(hands, 0, 0, 0, rule) == 20 and solver._sure_bounds(masks, 0, 0, 0)[0] == 20
    assert naive.minimax(hands, 0, 1, 0, rule) == 10 and solver._sure_bounds(masks, 0, 0, 1)[0] == 10

@settings(max_examples=400)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES),
       st.booleans())
def test_trick_start_bounds_hold(seed, tricks, trump, bidder, rule, played):
    """R5.2-R5.6: the search's bounds bracket the plain minimax value under every play rule: the
    trumps of each side that win whatever the play and the cards they bring, and what the side on
    lead cashes while the others must follow or discard."""
    if played:
        hands, masks, leader = played_ending(seed, tricks, trump, rule)
    else:
        (hands, masks), leader = ending(seed, tricks), seed % 3
    assert_bounds_hold(hands, masks, trump, leader, bidder, rule)


@pytest.mark.parametrize("masks, trump, leader, bidder", [
    ((17592202822153, 35201619103744, 8830452776978), 3, 1, 1),
    ((34362888192, 70373039407232, 8797166764100), 2, 0, 0)])
def test_one_trump_can_beat_both_defenders(masks, trump, leader, bidder):
    """One trump of the bidder beats both defenders' trumps in one trick (his C10 their other C10
    and CK; his DA their D10 and DK) and he takes every counter: the defenders' trumps that surely
    win count per defender, not as a side (a bound that counted them together was unsound here)."""
    masks = np.array(masks, dtype=np.uint64)
    hands = [{c for c in range(48) if int(m) >> c & 1} for m in masks]
    assert_bounds_hold(hands, masks, trump, leader, bidder, "old")


def run_moves(hands, same_points: bool = True):
    """(seat, card, new card): moves of one card of a hand to another face of its suit (and point
    class, with ``same_points``; one copy of which is out of play) with no card of another player
    ranked from the one face to the other (both included): the layouts `_relative_key` puts in one
    class (of equal counters per suit with ``same_points``)."""
    held = set().union(*hands)
    moves = []
    for seat, hand in enumerate(hands):
        others = held - hand
        for card in sorted(hand):
            for new in range(card // 12 * 12, card // 12 * 12 + 12):
                low, high = sorted((card // 2, new // 2))
                if new in held or (same_points and naive_play.counters([card]) != naive_play.counters([new])) \
                        or any(low <= c // 2 <= high for c in others if c // 12 == card // 12):
                    continue
                moves.append((seat, card, new))
    return moves


@settings(max_examples=100)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from(RULES),
       st.integers(0, 2**16))
def test_equivalent_layouts_share_a_key_and_a_value(seed, trump, leader, bidder, rule, pick):
    """The table's class of layouts (`_relative_key` docstring): moving a card within a run of faces
    held by one player (same suit and point class, R1.4) keeps the key and the minimax value."""
    hands, masks = ending(seed, 4)
    moves = run_moves(hands)
    assume(moves)
    seat, card, new = moves[pick % len(moves)]
    moved = [set(h) for h in hands]
    moved[seat] = (moved[seat] - {card}) | {new}
    other = np.array([sum(1 << c for c in h) for h in moved], dtype=np.uint64)
    assert solver._relative_key(*masks, trump)[:2] == solver._relative_key(*other, trump)[:2]
    assert naive.minimax(moved, trump, leader, bidder, rule) == naive.minimax(hands, trump, leader, bidder, rule)


@settings(max_examples=100)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from(RULES),
       st.integers(0, 2**16))
def test_layouts_of_one_power_structure_share_a_key_and_widened_bounds(seed, trump, leader, bidder, rule, pick):
    """Payoff-similarity transposition (`_relative_key`, `_widened`): moving a card within a run of faces
    held by one player to a face of the other point class (R1.4) keeps the key, and the value lies in the
    other layout's value widened by the counters more or fewer per suit."""
    hands, masks = ending(seed, 4)
    moves = [m for m in run_moves(hands, same_points=False)
             if naive_play.counters([m[1]]) != naive_play.counters([m[2]])]
    assume(moves)
    seat, card, new = moves[pick % len(moves)]
    moved = [set(h) for h in hands]
    moved[seat] = (moved[seat] - {card}) | {new}
    other = np.array([sum(1 << c for c in h) for h in moved], dtype=np.uint64)
    key, key_moved = solver._relative_key(*masks, trump), solver._relative_key(*other, trump)
    assert key[:2] == key_moved[:2]
    counts = solver._suit_counters(masks[0] | masks[1] | masks[2], key[2])
    counts_moved = solver._suit_counters(other[0] | other[1] | other[2], key_moved[2])
    assert counts != counts_moved
    value, value_moved = (naive.minimax(h, trump, leader, bidder, rule) for h in (hands, moved))
    lo, hi = solver._widened(value, value, counts, counts_moved)
    assert lo <= value_moved <= hi and hi - lo <= 10


def entry(lo, hi, counts, cards, move=0):
    """A table row's word of fields (`_entry_word` of an exact value when lo == hi)."""
    return lo | hi << 12 | move << 24 | counts << 32 | cards << 48


counters_per_suit = st.lists(st.integers(0, 6), min_size=4, max_size=4).map(
    lambda c: sum(n << 3 * i for i, n in enumerate(c)))
bounds = st.tuples(st.integers(0, 25), st.integers(0, 25)).map(lambda b: (10 * min(b), 10 * max(b)))


@settings(max_examples=200)
@given(bounds, bounds, counters_per_suit, counters_per_suit, counters_per_suit, st.booleans(), st.booleans(),
       st.booleans(), st.integers(3, 45))
def test_a_bucket_reads_both_entries_of_a_key_and_keeps_the_other_counters(b0, b1, c0, c1, counts, hit0, hit1,
                                                                           stale, other_cards):
    """`_probe` takes the bounds of every row of the bucket made for the position's key, each widened to its
    counters (`_widened`), and `_store_slot` narrows the row made for its counters, else writes the other row
    (a row of the key for other counters is kept unless the other row holds a deeper position; of two such
    rows the one whose widened bounds say less is replaced), else `_replaced_row`."""
    tag, key, cards = 9, (np.uint64(5), np.uint64(7)), 30
    other_key = (np.uint64(6), np.uint64(7))
    rows = [(tag if hit or not stale else 1, key if hit else other_key,
             entry(*b, c, cards if hit else other_cards, move))
            for hit, b, c, move in ((hit0, b0, c0, 3), (hit1, b1, c1, 4))]
    flat = [x for t, (k0, k1), w in rows for x in (t, k0, k1, w)]
    found, lo, hi, move = solver._probe(tag, *key, counts, *flat)
    hits = [(b, c) for hit, b, c in ((hit0, b0, c0), (hit1, b1, c1)) if hit]
    widened = [solver._widened(*b, c, counts) for b, c in hits]
    assert found == bool(hits)
    assert (lo, hi) == (max([0] + [w[0] for w in widened]), min([solver.FIELD_MAX] + [w[1] for w in widened]))
    moves = [m for hit, c, m in ((hit0, c0, 3), (hit1, c1, 4)) if hit]
    exact_moves = [m for hit, c, m in ((hit0, c0, 3), (hit1, c1, 4)) if hit and c == counts]
    assert move == (exact_moves + moves + [0])[0]
    slot, lo_s, hi_s = solver._store_slot(100, tag, *key, counts, *flat)
    exact = [i for i, (hit, c) in enumerate(((hit0, c0), (hit1, c1))) if hit and c == counts]
    if exact:
        assert slot == 100 + exact[0] and (lo_s, hi_s) == (b0, b1)[exact[0]]
        return
    assert (lo_s, hi_s) == (lo, hi)
    if hit0 != hit1:
        mine, other = (0, 1) if hit0 else (1, 0)
        keeps = stale or other_cards <= cards
        assert slot == 100 + (other if keeps else mine)
    elif not hits:
        assert slot == solver._replaced_row(100, tag, flat[0], flat[3], flat[4], flat[7])
    else:  # both rows of its key, for other counters: the one that says less is replaced
        widths = [w[1] - w[0] for w in widened]
        assert slot == 100 + (widths[0] < widths[1])


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2), st.integers(0, 2), st.sampled_from(RULES),
       st.permutations(range(3)))
def test_renamed_plain_suits_share_a_key_and_a_value(seed, trump, leader, bidder, rule, perm):
    """Play names only the suit led and trump (R5.2-R5.4): renaming the plain suits keeps the
    table key and the minimax value."""
    hands, masks = ending(seed, 4)
    plain = [s for s in range(4) if s != trump]
    rename = {s: s for s in range(4)} | {s: plain[i] for s, i in zip(plain, perm)}
    renamed = [{rename[c // 12] * 12 + c % 12 for c in h} for h in hands]
    other = np.array([sum(1 << c for c in h) for h in renamed], dtype=np.uint64)
    assert solver._relative_key(*masks, trump)[:2] == solver._relative_key(*other, trump)[:2]
    assert naive.minimax(renamed, trump, leader, bidder, rule) == naive.minimax(hands, trump, leader, bidder, rule)


@settings(max_examples=40)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 2))
def test_reaches_is_the_value_threshold(seed, trump, bidder):
    """One null-window search answers "value >= target" for every target (R1.5 range 0-250)."""
    _, masks = ending(seed, 6)
    value = int(solver.solve(masks, trump, bidder, bidder, table=TABLE)[0])
    targets = np.array([0, value - 10, value, value + 10, 250])
    got = solver.reaches(np.repeat(masks[None], targets.size, axis=0), trump, bidder, bidder, targets, table=TABLE)
    assert got.tolist() == (targets <= value).tolist()


@pytest.mark.parametrize("seed", range(6))
def test_optimal_line_is_legal_and_scores_the_value(seed):
    hands, masks = ending(seed, 6)
    trump, bidder = seed % 4, seed % 3
    value, line = solver.optimal_line(masks, trump, 0, bidder, table=TABLE)
    points, _ = naive_play.replay(line, trump, "old", hands)
    assert points[bidder] == value == naive.minimax(hands, trump, 0, bidder)


@pytest.mark.parametrize("seed", range(4))
def test_optimal_line_plays_the_first_card_in_card_order_that_keeps_the_value(seed):
    """The null-window tests of `optimal_line` choose as solving every legal card exactly would."""
    hands, masks = ending(seed, 4)
    trump, bidder = seed % 4, (seed + 1) % 3
    _, line = solver.optimal_line(masks, trump, 0, bidder, table=TABLE)
    held, leader, trick = [set(h) for h in hands], 0, ()

    def after(card, seat):  # (the bidder's points from the trick on when ``seat`` plays ``card``, next leader)
        rest = [h - {card} if s == seat else h for s, h in enumerate(held)]
        played = trick + (card,)
        if len(played) < 3:
            return naive.minimax(rest, trump, leader, bidder, trick=played), leader
        winner = (leader + naive_play.winner_index(played, trump)) % 3
        points = 10 * naive_play.counters(played) + (10 if not any(rest) else 0)
        return (points if winner == bidder else 0) + naive.minimax(rest, trump, winner, bidder), winner

    for seat, card in line:
        best = naive.minimax(held, trump, leader, bidder, trick=trick)
        keeping = [c for c in sorted(naive_play.legal(held[seat], list(trick), trump)) if after(c, seat)[0] == best]
        assert card == keeping[0]
        nxt = after(card, seat)[1]
        held[seat].discard(card)
        trick = trick + (card,) if len(trick) < 2 else ()
        leader = nxt


def test_solve_many_deals_and_node_counts():
    """A batch gives the same values as one by one; the last trick alone is worth its counters + 10."""
    masks = np.array([ending(s, 5)[1] for s in range(4)])
    values, nodes = solver.solve(masks, 1, 0, 0, table=TABLE, with_nodes=True)
    assert values.tolist() == [int(solver.solve(m, 1, 0, 0, table=TABLE)[0]) for m in masks]
    assert (nodes > 0).all()
    last = np.array([1 << 10, 1 << 22, 1 << 34], dtype=np.uint64)  # AS, AH, AD: trump S, seat 0 leads
    assert solver.solve(last, 0, 0, 0)[0] == 40 and solver.solve(last, 0, 0, 1)[0] == 0


def test_policy_then_solve_bounds():
    """Perfect play of the whole hand never scores the bidder less than greedy first tricks with a
    solved ending, nor does greedy play of all 15 tricks (the bidder leads trick 1, R5.1)."""
    _, masks = ending(7, 15)
    greedy = play.play_out("greedy", masks[None], [2], [1])[0][0, 1]
    assert solver.policy_then_solve(masks, 2, 1, 0) == greedy
    partial = solver.policy_then_solve(masks, 2, 1, 6, table=TABLE)
    assert 0 <= partial <= 250 and partial % 10 == 0


@pytest.mark.parametrize("rule", RULES)
def test_greedy_points_are_the_greedy_play_out(rule):
    """The first guess of `_solve` is the bidder's points of the greedy play-out, whoever leads."""
    for seed in range(6):
        _, masks = ending(seed, 15)
        trump, leader, bidder = seed % 4, seed % 3, (seed // 3) % 3
        points = play.play_out("greedy", masks[None], [trump], [leader], rule)[0][0]
        assert solver._greedy_points(masks, trump, leader, bidder, play.play_rule(rule)) == points[bidder]


@pytest.mark.parametrize("args, message", [
    ((np.array([1, 2], dtype=np.uint64), 0, 0, 0), r"hands must be 3 card masks, one per seat 0-2; got shape \(2,\)"),
    ((np.array([[1, 2]], dtype=np.uint64), 0, 0, 0), r"hands must be an \(n, 3\) array .* got shape \(1, 2\)"),
    ((np.zeros((0, 3), dtype=np.uint64), 0, 0, 0), r"n >= 1; got shape \(0, 3\)"),
    ((np.array([1, 6, 8], dtype=np.uint64), 0, 0, 0), r"every seat must hold 0 to 15 cards, all as many, got \[1, 2, 1\]"),
    ((np.array([1, 1, 8], dtype=np.uint64), 0, 0, 0), "a card is held by two hands"),
    ((np.array([1, 2, 4], dtype=np.uint64), 4, 0, 0), r"trump \(a suit index 0-3, S H D C\) must be 0-3, got 4"),
    ((np.array([1, 2, 4], dtype=np.uint64), 1.7, 0, 0), "trump .* must be a whole number or 1 of them, got"),
    ((np.array([1, 2, 4], dtype=np.uint64), 0, 3, 0), r"the leader \(a seat 0-2\) must be 0-2, got 3"),
    ((np.array([1, 2, 4], dtype=np.uint64), 0, 0, 2.9), "the bidder .* must be a whole number"),
    ((np.array([1.0, 2.0, 4.0]), 0, 0, 0), "hands must be integer masks of the 48 cards"),
    (([-1, 2, 4], 0, 0, 0), "hands must be integer masks of the 48 cards"),
])
def test_bad_positions(args, message):
    """Before, trump=1.7 was read as 1, bidder=2.9 as 2, and 0 positions raised numpy's error."""
    with pytest.raises(CardsimError, match=message):
        solver.solve(*args)


def test_bad_rule_ending_and_draws():
    """Before, u=1.0 (not 45 draws) made the random policy play card 0 and a short u was read past its end."""
    masks = ending(1, 15)[1]
    with pytest.raises(CardsimError, match="play_rule"):
        solver.solve(np.array([1, 2, 4], dtype=np.uint64), 0, 0, 0, rule="modern")
    with pytest.raises(CardsimError, match="the solved ending .* must be from 0 to 15, got 16"):
        solver.policy_then_solve(masks, 0, 0, 16)
    for u, message in [(None, "the random policy reads u"),
                       (1.0, r"u must hold 45 random numbers .* shape \(45,\); got shape \(\)"),
                       (np.full(44, 0.5), r"got shape \(44,\)"),
                       (np.full(45, 1.0), r"u must hold numbers in \[0, 1\)")]:
        with pytest.raises(CardsimError, match=message):
            solver.policy_then_solve(masks, 0, 0, 4, policy="random", u=u)
    with pytest.raises(CardsimError, match="hands must be the 3 hands of one position"):
        solver.optimal_line(masks[None], 0, 0, 0)
    with pytest.raises(CardsimError, match="trump .* must be a whole number"):
        solver.optimal_line(ending(1, 3)[1], 1.5, 0, 0)
    assert solver.policy_then_solve(masks, 2.0, 1, 4.0) == solver.policy_then_solve(masks, 2, 1, 4)
    with pytest.raises(CardsimError, match="targets .* must be a whole number or 1 of them, got array"):
        solver.reaches(ending(1, 3)[1], 0, 0, 0, 30.5)


def test_trusted_twins_give_the_checked_answers_and_keep_the_hands():
    """`trusted_policy_then_solve` and `trusted_play_line` are the public functions without the checks."""
    rng = np.random.default_rng(5)
    for seed in range(6):
        masks = ending(seed, 15)[1]
        kept = masks.copy()
        u = rng.random(play.DECISIONS)
        for policy, draws in (("greedy", None), ("random", u)):
            codes = play.policy_codes(policy)
            trusted_u = np.zeros(play.DECISIONS) if draws is None else draws
            assert solver.trusted_policy_then_solve(masks, seed % 4, 1, 5, codes, 0, trusted_u) == \
                solver.policy_then_solve(masks, seed % 4, 1, 5, policy, u=draws)
            assert play.trusted_play_line(codes, masks, seed % 4, 1, 0, trusted_u) == \
                play.play_line(policy, masks, seed % 4, 1, u=draws)
        assert (masks == kept).all()
    assert solver.reaches(ending(1, 3)[1], 0, 0, 0, 30.0).dtype == bool


def test_quick_points_cash_a_promoted_card():
    """Hearts trumps, nobody holds one; the leader holds sA sK, seat 1 only s10 of the spades: sA wins and
    draws the s10 (he must follow), then sK is the highest spade left and wins too. Both tricks, every
    counter (sA, s10, sK) and the last trick: 40, the exact value."""
    cards = ([10, 6], [8, 24], [36, 38])  # sA sK | s10 d9 | c9 cJ (card = 2 * (6 * suit + rank) + copy)
    masks = np.array([sum(1 << c for c in hand) for hand in cards], dtype=np.uint64)
    quick = solver._quick_points(masks[0], masks[1], masks[2], 1)
    assert quick == 40 == naive.minimax([set(hand) for hand in cards], 1, 0, 0)


def test_quick_points_count_forced_discards():
    """Clubs trumps, nobody holds one; the leader cashes sA sA, which nobody else can follow: seat 1
    (hK dK h10, no loser) must throw two counters on them, seat 2 (h9 dJ dA) his two losers. The
    leader's two aces and seat 1's two counters: 40 at least, as the plain minimax confirms."""
    cards = ([10, 11, 24], [18, 30, 20], [12, 26, 34])  # sA sA d9 | hK dK h10 | h9 dJ dA
    masks = np.array([sum(1 << c for c in hand) for hand in cards], dtype=np.uint64)
    quick = solver._quick_points(masks[0], masks[1], masks[2], 3)
    assert quick == 40 <= naive.minimax([set(hand) for hand in cards], 3, 0, 0)


def test_quick_points_keep_a_trump_for_the_last_trick():
    """Spades trumps. The leader holds SA S10 H9, seat 1 SK HA HK, seat 2 D9 DJ DQ: SA draws SK (seat 1
    must follow trumps), then nobody else holds a trump, and the leader leads H9 and keeps S10, which
    wins the last trick whoever leads it. Quick points: SA S10, two counters of seat 1 (he has no loser
    to throw on the two trump tricks) and the last trick, 50, the exact value (40 without the kept
    trump)."""
    groups = DECK.parse_groups({"lead": "SA S10 H9", "left": "SK HA HK", "right": "D9 DJ DQ"})
    hands = [set(groups[name]) for name in ("lead", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    quick = solver._quick_points(masks[0], masks[1], masks[2], 0)
    assert quick == 50 == naive.minimax(hands, 0, 0, 0)


def test_quick_points_add_the_trumps_that_win_whatever_the_play():
    """Spades trumps, the bidder leads HA SK SK S9 against SA H9 HJ HQ (seat 1) and DA D10 DK D9 (seat 2):
    HA cashes (seat 1 follows), no trump round does (SA is out), but SA beats one of his trumps at most,
    so two of them win besides, a king among them: three tricks, HA and a king, and seat 2 (one loser)
    gives two counters in them: 40 (10 before the trumps that win whatever the play, 20 the sure bounds);
    60 is the exact value."""
    groups = DECK.parse_groups({"bidder": "HA SK SK S9", "left": "SA H9 HJ HQ", "right": "DA D10 DK D9"})
    hands = [set(groups[name]) for name in ("bidder", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert solver._quick_points(masks[0], masks[1], masks[2], 0) == 40
    assert solver._sure_bounds(masks, 0, 0, 0)[0] == 20
    assert all(naive.minimax(hands, 0, 0, 0, rule) == 60 for rule in RULES)


def test_trumpless_defence_takes_every_sure_card_and_the_last_trick():
    """Hearts trumps, seat 2 (a defender) leads. The bidder holds HK, the only trump, and the highest
    card the others hold in each plain suit (S10 over SK, D10 over DK DQ DJ, C10 over CK CK CJ, the aces
    played): he takes a trick with each, seat 1 (two losers) and seat 2 (two losers) give two counters
    each, and with no card that is not sure he keeps HK to the end: 90, every point, the exact value.
    The sure bounds without the trumpless defence: 10 (HK)."""
    groups = DECK.parse_groups({"bidder": "S10 HK D10 C10", "left": "SK DK DQ DJ", "right": "D9 CK CK CJ"})
    hands = [set(groups[name]) for name in ("bidder", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert solver._trumpless_defence(masks[0], masks[1], masks[2], 1) == 90 == naive.minimax(hands, 1, 2, 0)
    assert solver._sure_bounds(masks, 1, 0, 2)[0] == 90


def test_trumps_below_a_higher_trump_of_the_defence_still_win():
    """Spades trumps: the bidder holds SK SK S9, seat 1 SA HA H10, seat 2 DA D10 DK. SA beats one of his
    trumps at most, so two of them win (at least one of them a king), and in those two tricks each
    defender, holding no loser, gives two counters: 50 at least (`_trump_winners`; the sure bounds
    counted only trumps above SA before: 0), and 70 is the exact value, whoever leads."""
    groups = DECK.parse_groups({"bidder": "SK SK S9", "left": "SA HA H10", "right": "DA D10 DK"})
    hands = [set(groups[name]) for name in ("bidder", "left", "right")]
    masks = np.array([DECK.mask(h) for h in hands], dtype=np.uint64)
    assert solver._trump_winners(masks[0] & play.SUITS[0], (masks[1] | masks[2]) & play.SUITS[0], 0) == (2, 1)
    for leader in range(3):
        assert solver._sure_bounds(masks, 0, 0, leader)[0] == 50
        assert all(naive.minimax(hands, 0, leader, 0, rule) == 70 for rule in RULES)


def trumps_to_the_bidder(masks, trump: int, bidder: int, rng, keep_highest: bool) -> np.ndarray:
    """The hands with each defender's trumps (but his highest if ``keep_highest``) swapped for random non-trumps of
    the bidder (while he has any): endings where the bidder's trumps lie below a higher trump of the defence, or
    where the defenders hold no trumps, as after trumps are drawn."""
    m = [int(x) for x in masks]
    trumps = int(play.SUITS[trump])
    for d in ((bidder + 1) % 3, (bidder + 2) % 3):
        theirs = [c for c in range(48) if m[d] >> c & 1 and trumps >> c & 1]
        for card in theirs[:-1] if keep_highest else theirs:
            others = [c for c in range(48) if m[bidder] >> c & 1 and not trumps >> c & 1]
            if not others:
                break
            swap = (1 << card) | (1 << others[int(rng.integers(len(others)))])
            m[d] ^= swap
            m[bidder] ^= swap
    return np.array(m, dtype=np.uint64)


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES),
       st.booleans(), st.integers(0, 2))
def test_trump_winners_never_exceed_the_exact_value(seed, tricks, trump, bidder, rule, played, leader):
    """The sure lower bound with `_trump_winners` (the bidder's trumps no matching to higher trumps of
    the defence can beat, his counters among them, the counters the defenders must give in those
    tricks) is at most the exact value (`solve`) on random and played endings of 4-8 tricks where the
    bidder holds the defenders' lower trumps."""
    if played:
        _, masks, _ = played_ending(seed, tricks, trump, rule)
    else:
        _, masks = ending(seed, tricks)
    masks = trumps_to_the_bidder(masks, trump, bidder, np.random.default_rng(seed), keep_highest=True)
    assert solver._sure_bounds(masks, trump, bidder, leader)[0] <= solver.solve(masks, trump, leader, bidder, rule,
                                                                                TABLE)[0]


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES),
       st.booleans(), st.integers(1, 2))
def test_trumpless_defence_never_exceeds_the_exact_value(seed, tricks, trump, bidder, rule, played, lead):
    """`_trumpless_defence` (a defender leads, the defenders hold no trumps, the bidder does: his sure
    cards, the counters the defenders must give on them, the last trick) is sound on random and played
    endings of 4-8 tricks with the defenders' trumps moved to the bidder: at most the exact value
    (`solve`), and so is the sure lower bound that takes it in."""
    if played:
        _, masks, _ = played_ending(seed, tricks, trump, rule)
    else:
        _, masks = ending(seed, tricks)
    masks = trumps_to_the_bidder(masks, trump, bidder, np.random.default_rng(seed), keep_highest=False)
    own, left, right = masks[bidder], masks[(bidder + 1) % 3], masks[(bidder + 2) % 3]
    assume(own & play.SUITS[trump] and not (left | right) & play.SUITS[trump])
    leader = (bidder + lead) % 3
    value = solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
    assert solver._trumpless_defence(own, left, right, trump) <= value
    assert solver._sure_bounds(masks, trump, bidder, leader)[0] <= value


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES),
       st.booleans())
def test_quick_points_and_last_trick_never_exceed_the_exact_value(seed, tricks, trump, bidder, rule, played):
    """The leader's quick points (trumps drawn, a trump kept for the last trick) and the sure last
    trick of a player with enough top trumps (`_wins_last_trick`, other trumps allowed) are sound on
    random endings of 4-8 tricks: the bidder's lower bound at most, the defenders' at least the
    exact value (`solve`, itself checked against the plain minimax above)."""
    if played:
        _, masks, leader = played_ending(seed, tricks, trump, rule)
    else:
        (_, masks), leader = ending(seed, tricks), seed % 3
    value = solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
    lo, hi = solver._sure_bounds(masks, trump, bidder, leader)
    quick = solver._quick_points(masks[leader], masks[(leader + 1) % 3], masks[(leader + 2) % 3], trump)
    total = 10 * int(np.bitwise_count(np.bitwise_or.reduce(masks) & play.COUNTERS)) + 10
    if leader == bidder:
        lo = max(lo, quick)
    else:
        hi = min(hi, total - quick)
    assert lo <= value <= hi


@settings(max_examples=300)
@given(st.integers(0, 2**32 - 1), st.integers(4, 8), st.integers(0, 3), st.integers(0, 2), st.sampled_from(RULES),
       st.booleans(), st.integers(0, 2))
def test_quick_points_with_trump_winners_never_cross_the_exact_value(seed, tricks, trump, bidder, rule, played, lead):
    """The quick points with the leader's trumps that win whatever the play (`_trump_winners`, beyond his
    trump rounds) are sound for either side on lead, on random and played endings of 4-8 tricks where the
    bidder holds the defenders' lower trumps: at most the exact value (`solve`) when the bidder leads,
    at most the points the defenders keep when one of them does."""
    if played:
        _, masks, _ = played_ending(seed, tricks, trump, rule)
    else:
        _, masks = ending(seed, tricks)
    masks = trumps_to_the_bidder(masks, trump, bidder, np.random.default_rng(seed), keep_highest=True)
    leader = (bidder + lead) % 3
    value = solver.solve(masks, trump, leader, bidder, rule, TABLE)[0]
    quick = solver._quick_points(masks[leader], masks[(leader + 1) % 3], masks[(leader + 2) % 3], trump)
    total = 10 * int(np.bitwise_count(np.bitwise_or.reduce(masks) & play.COUNTERS)) + 10
    assert quick <= (value if leader == bidder else total - value)
