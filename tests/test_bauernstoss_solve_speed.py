"""The Bauernstoss solver's speed-ups against the plain minimax of tests/naive_bauernstoss.py (spec §5):
the two-trick endgame kernel and its window, the two-trick memo, the three- to five-trick loop
kernels, the sure-trump bounds, the packed transposition table and the bisection driver."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as sv
from simcore.search import table_slot

import naive_bauernstoss as naive

RULES = {play.BS_OVERTAKE: "BS", play.BS_JACK_ALWAYS: "BS:always_overrides_follow", play.BS_NO_JACK: "BS:off",
         play.AS_BEAT_TRUMP: "AS", play.DS_FOLLOW: "DS"}
DEAL = (st.permutations(range(32)), st.integers(0, 3), st.integers(0, 3), st.integers(0, 1),
        st.sampled_from(sorted(RULES)))


def _hands(pack, k: int) -> list[list[int]]:
    return [sorted(pack[i * k:(i + 1) * k]) for i in range(4)]


def _full_deal(rng) -> np.ndarray:
    """(1, 4) uint64 card masks of a uniform full deal."""
    perm = rng.permutation(32)
    return np.array([[sum(1 << int(c) for c in perm[8 * s:8 * s + 8]) for s in range(4)]], dtype=np.uint64)


def _bits(hands, trump: int) -> np.ndarray:
    """(4,) uint64 strength-bit masks of four card lists."""
    return np.array([sv.to_bits(np.uint64(sum(1 << c for c in h)), trump) for h in hands], dtype=np.uint64)


def _in_play_order(bits, leader: int) -> tuple:
    """The four strength-bit hands in play order from ``leader`` (the kernels' arguments)."""
    return tuple(bits[(leader + place) % 4] for place in range(4))


@settings(max_examples=150)
@given(*DEAL, st.integers(-1, 60), st.integers(1, 60))
def test_two_trick_kernel_is_fail_soft_minimax(pack, trump, leader, team, rule, alpha, width):
    """`_two_tricks` within any window (alpha, beta): the exact minimax value inside the window, a
    bound on the correct side of it outside."""
    hands = _hands(pack, 2)
    exact = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    bits = _bits(hands, trump)
    beta = alpha + width
    got = sv._two_tricks(*_in_play_order(bits, leader), leader % 2 == team, rule, alpha, beta)
    if alpha < exact < beta:
        assert got == exact
    elif exact <= alpha:
        assert exact <= got <= alpha
    else:
        assert beta <= got <= exact



@settings(max_examples=100)
@given(*DEAL, st.permutations(range(32)), st.integers(0, 3), st.integers(0, 1))
def test_two_trick_memo_gives_minimax_on_hits_and_replacements(pack, trump, leader, team, rule, other, leader2,
                                                                team2):
    """`_two_trick_points` through one memo, asked for an ending, another one, then the first again
    (a hit, or a replacement when both fall into one slot): every answer is the minimax value."""
    memo = np.zeros(1 << sv.TWO_TRICK_BITS, dtype=np.uint64)
    first, second = _hands(pack, 2), _hands(other, 2)
    for hands, lead, side in ((first, leader, team), (second, leader2, team2), (first, leader, team)):
        exact = naive.minimax_points(hands, trump, lead, side, (), RULES[rule])
        assert sv._two_trick_points(*_in_play_order(_bits(hands, trump), lead), lead % 2 == side, rule, memo) == exact


@settings(max_examples=200)
@given(st.permutations(range(32)), st.permutations(range(32)), st.integers(0, 3), st.integers(0, 3),
       st.booleans(), st.booleans(), st.integers(0, 3))
def test_two_trick_keys_tell_endings_apart(pack, other, leader, leader2, up, up2, shared):
    """Two two-card endings get one memo key exactly when every hand in play order from the leader
    holds the same two strength bits and the same side is counted (``shared`` hands of the second
    are the first's, to make equal keys likely)."""
    first, second = _hands(pack, 2), _hands(other, 2)
    for place in range(shared):
        second[(leader2 + place) % 4] = first[(leader + place) % 4]
    bits, bits2 = _bits(first, 0), _bits(second, 0)
    same = up == up2 and all(bits[(leader + p) % 4] == bits2[(leader2 + p) % 4] for p in range(4))
    key = sv._two_trick_key(*_in_play_order(bits, leader), up)
    assert (key == sv._two_trick_key(*_in_play_order(bits2, leader2), up2)) == same

@settings(max_examples=60)
@given(*DEAL, st.integers(2, 3))
def test_sure_trump_bounds_hold(pack, trump, leader, team, rule, k):
    """The sure trumps of each team bound the minimax value of 2- and 3-trick endings from both sides."""
    hands = _hands(pack, k)
    exact = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    bits = _bits(hands, trump)
    own, other = bits[team] | bits[team + 2], bits[1 - team] | bits[3 - team]
    lower = sv.bit_points(sv._sure_trumps(own, other))
    upper = sv.bit_points(own | other) - sv.bit_points(sv._sure_trumps(other, own))
    assert lower <= exact <= upper


@settings(max_examples=25, deadline=None)
@given(*DEAL, st.integers(0, 2))
def test_four_trick_endings_match_minimax(pack, trump, leader, team, rule, played):
    """4-trick endings, also in the middle of the first trick, one shared table for both teams:
    the bisection driver, the bounds and the packed table give the minimax value."""
    hands = _hands(pack, 4)
    trick = []
    for i in range(played):
        seat = (leader + i) % 4
        card = max(naive.legal(hands[seat], trick, trump, RULES[rule]))
        hands[seat].remove(card)
        trick.append(card)
    table = sv.new_table(12)
    masks = [sum(1 << c for c in h) for h in hands]
    for side in (team, 1 - team):
        expected = naive.minimax_points(hands, trump, leader, side, trick, RULES[rule])
        assert sv.position_points(masks, trump, leader, side, trick, rule, table) == expected


def test_table_words_round_trip():
    """Every bound pair 0-120, best lead -1..31 and set of cards in play survives `_pack` / `_unpack` and
    `_similar` for the same cards."""
    for lower in range(0, 121, 7):
        for upper in range(lower, 121, 11):
            for lead in (-1, 0, 17, 31):
                for present in (0, 1 << 31, 0xFFFFFFFF):
                    word = np.uint64(sv._pack(lower, upper, lead, np.uint64(present)))
                    assert sv._unpack(word) == (lower, upper, lead)
                    assert sv._similar(word, np.uint64(present)) == (lower, upper, lead)
                    assert int(word) >> 32 == present


def test_full_deals_share_a_table_across_rules():
    """One table across full deals, trumps, leaders and all five rules: the two teams' values add up
    to 120 each time (entries of earlier solves are never read)."""
    rng = np.random.default_rng(5)
    table = sv.new_table(16)
    for rule in sorted(RULES):
        hands = _full_deal(rng)
        trump, leader = int(rng.integers(4)), int(rng.integers(4))
        both = [int(sv.solve_points(hands, trump, leader, team, rule, table)[0]) for team in (0, 1)]
        assert sum(both) == bs.CARD_POINTS


@settings(max_examples=60, deadline=None)
@given(*DEAL, st.integers(1, 4), st.lists(st.integers(-5, 125), min_size=1, max_size=4))
def test_threshold_tests_match_minimax(pack, trump, leader, team, rule, k, levels):
    """`reaches_points` (null-window probes at the asked levels only) on 1-4-trick endings: each
    level is reached exactly when the plain minimax value is at least that level; levels in any
    order, repeated or outside 1-120."""
    hands = _hands(pack, k)
    exact = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    masks = np.array([[sum(1 << c for c in h) for h in hands]], dtype=np.uint64)
    got = sv.reaches_points(masks, trump, leader, team, levels, rule, sv.new_table(12))
    assert got.shape == (1, len(levels))
    assert list(got[0]) == [exact >= level for level in levels]


def test_threshold_tests_match_exact_points_on_full_deals():
    """Full deals under all five rules, one table shared with exact solves: "does the team reach
    42 / 79 / 91 (and 60, 61, 89)?" agrees with the exact card points."""
    rng = np.random.default_rng(9)
    table = sv.new_table(16)
    levels = (91, 42, 79, 60, 61, 89)
    for rule in sorted(RULES):
        hands = _full_deal(rng)
        trump, leader, team = int(rng.integers(4)), int(rng.integers(4)), int(rng.integers(2))
        exact = int(sv.solve_points(hands, trump, leader, team, rule, table)[0])
        got = sv.reaches_points(hands, trump, leader, team, levels, rule, table)[0]
        assert list(got) == [exact >= level for level in levels]


KERNELS = {3: sv._three_tricks, 4: sv._four_tricks, 5: sv._five_tricks}


@pytest.mark.parametrize("cards", sorted(KERNELS))
@settings(max_examples=50, deadline=None)
@given(*DEAL, st.integers(-1, 70), st.integers(1, 70), st.integers(-1, 31), st.integers(-1, 31))
def test_loop_kernels_are_fail_soft_minimax(cards, pack, trump, leader, team, rule, alpha, width, first, killer):
    """The loop kernels `_three_tricks`, `_four_tricks`, `_five_tricks` within any window (alpha, beta),
    with any first and killer lead (a strength bit, held or not, or -1) and a table shared by two calls
    (the second, in the full window, reads what the first stored at the next trick starts): the exact
    minimax value inside the window, a bound on the correct side of it outside; the best lead it reports
    is one of the leader's cards and, when the value is exact, the minimax value after that lead; at
    least one card a seat is counted. `_five_tricks` hands a position of fewer cards on, the same value."""
    hands = _hands(pack, cards)
    exact = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    bits = _bits(hands, trump)
    beta = alpha + width
    entries, counters = sv.new_table(12)
    memo = np.zeros(1 << sv.TWO_TRICK_BITS, dtype=np.uint64)
    killers = np.full((sv.PLIES, 4), -1, dtype=np.int64)
    leads = np.zeros(1 << sv.SHAPE_BITS, dtype=np.uint64)
    fresh = np.uint64(sv._tag(1, 0, 0))  # the solver's type: numba returns a Python int, another compile
    got, lead, nodes = KERNELS[cards](*_in_play_order(bits, leader), leader, leader % 2 == team, rule, alpha, beta,
                                      first, killer, entries, 1, fresh, killers, 0, memo, leads)
    assert nodes >= 4
    if alpha < exact < beta:
        assert got == exact
        card = int(sv.TO_CARD[trump, lead])
        rest = [list(h) for h in hands]
        rest[leader].remove(card)
        assert naive.minimax_points(rest, trump, leader, team, [card], RULES[rule]) == exact
    elif exact <= alpha:
        assert exact <= got <= alpha
    else:
        assert beta <= got <= exact
    again, _, _ = sv._five_tricks(*_in_play_order(bits, leader), leader, leader % 2 == team, rule, -1,
                                  sv.CARD_POINTS + 1, -1, -1, entries, 1, fresh, killers, 0, memo, leads)
    assert again == exact


def test_table_slots_spread_every_key_bit():
    """Keys differing only in the top bits of both key words (the trumps of the hands in the high
    halves, which the old slot function never saw) fall into nearly as many buckets as there are
    keys: 2,048 keys in 2**17 buckets of four, a handful of shared buckets expected."""
    tag = sv._tag(1, 2, 5)
    buckets = {table_slot(np.uint64(x << 53), np.uint64(x * 7 % 2048 << 53), tag, 1 << 19) >> 2 for x in range(2048)}
    assert len(buckets) > 2000


def test_bucket_keeps_found_entries_and_replaces_the_cheapest():
    """`_probe` finds a stored position in its bucket of four; on a miss it replaces an entry of an
    earlier solve first, else the entry with the fewest cards per hand (the last of equals)."""
    entries, _ = sv.new_table(4)
    fresh = sv._tag(3, 0, 0)
    k2 = np.uint64(77)
    held = (6, 4, 5, 4, 5)  # cards per hand of five positions of bucket 1 (slots 4-7)
    keys = []
    for cards in held:
        k1 = next(k for k in range(1, 1 << 20) if table_slot(np.uint64(k), k2, sv._tag(3, 1, cards), 16) >> 2 == 1
                  and np.uint64(k) not in keys)
        keys.append(np.uint64(k1))
    for key, cards in zip(keys[:4], held):
        slot, found = sv._probe(entries, key, k2, sv._tag(3, 1, cards), fresh)
        assert not found
        entries[slot, 0], entries[slot, 1], entries[slot, 2] = key, k2, sv._tag(3, 1, cards)
    for key, cards in zip(keys[:4], held):
        slot, found = sv._probe(entries, key, k2, sv._tag(3, 1, cards), fresh)
        assert found and entries[slot, 0] == key and 4 <= slot < 8
    slot, found = sv._probe(entries, keys[4], k2, sv._tag(3, 1, 5), fresh)
    assert not found and entries[slot, 0] == keys[3]  # 4 cards per hand, the later of the two
    entries[4, 2] = sv._tag(2, 3, 7)  # an entry of an earlier solve goes first
    slot, found = sv._probe(entries, keys[4], k2, sv._tag(3, 1, 5), fresh)
    assert not found and slot == 4


@settings(max_examples=20, deadline=None)
@given(*DEAL, st.integers(3, 4))
def test_tiny_table_with_constant_replacement_matches_minimax(pack, trump, leader, team, rule, k):
    """A table of one bucket (four entries), so entries are replaced in the middle of the search
    of their own subtree: 3-4-trick endings still get the minimax value."""
    hands = _hands(pack, k)
    masks = [sum(1 << c for c in h) for h in hands]
    expected = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    assert sv.position_points(masks, trump, leader, team, (), rule, sv.new_table(2)) == expected


def test_small_table_full_deals_match_a_large_one():
    """Full deals under all five rules: a 256-entry table (many replacements) gives the values of a
    2**16-entry one."""
    rng = np.random.default_rng(11)
    for rule in sorted(RULES):
        hands = _full_deal(rng)
        trump, leader, team = int(rng.integers(4)), int(rng.integers(4)), int(rng.integers(2))
        small = sv.solve_points(hands, trump, leader, team, rule, sv.new_table(8))
        large = sv.solve_points(hands, trump, leader, team, rule, sv.new_table(16))
        assert small[0] == large[0]


def _search_order(bits, seat, trick, rule, first=-1, killer=-1) -> list[int]:
    """The cards `_search` tries for ``seat`` after the strength bits ``trick`` (played from the
    seat ``len(trick)`` places before it), in order: `_candidate_mask`, then `_next_candidate` until
    none is left."""
    count = len(trick)
    present = np.uint64(int(np.bitwise_or.reduce(bits)) | sum(1 << c for c in trick))
    led, top, top_place = (int(sv.RUN_OF[trick[0]]), trick[0], 0) if trick else (-1, 0, 0)
    for place, card in enumerate(trick[1:], 1):
        if sv._beats(card, top):
            top, top_place = card, place
    leader = (seat - count) % 4
    partner_holds = count >= 1 and (top_place - count) % 2 == 0
    if partner_holds and count == 2:
        partner_holds = not sv._can_beat(bits[(leader + 3) % 4], top, led)
    cands = int(sv._candidate_mask(bits[seat], present, led, top, rule))
    order = []
    while cands:
        card = int(sv._next_candidate(np.uint64(cands), bits[seat], present, count, top, partner_holds, first, killer))
        order.append(card)
        cands ^= 1 << card
    return order


def _reference_order(bits, seat, trick, rule) -> list[int]:
    """The same order card by card (the solver's former candidate list): the legal cards but of two
    cards of one hand adjacent in a run among the cards in play, with equal points, only the higher,
    sorted by the points heuristic: leading, a card nobody else can beat in its run (more points,
    then the higher), then the others (fewer points, then the lower); following, for the partner's
    trick (nobody after beats it) more points then the lower card, else a card taking the trick (more
    points, then the lower), then the cheapest (the lower of equals)."""
    count = len(trick)
    hand = int(bits[seat])
    present = int(np.bitwise_or.reduce(bits)) | sum(1 << c for c in trick)
    led, top, top_place = (int(sv.RUN_OF[trick[0]]), trick[0], 0) if trick else (-1, 0, 0)
    for place, card in enumerate(trick[1:], 1):
        if sv._beats(card, top):
            top, top_place = card, place
    leader = (seat - count) % 4
    partner_holds = count >= 1 and (top_place - count) % 2 == 0
    if partner_holds and count == 2:
        partner_holds = not sv._can_beat(bits[(leader + 3) % 4], top, led)
    legal = int(sv._legal(np.uint64(hand), led, top, rule))
    keys = {}
    for card in (c for c in range(32) if legal >> c & 1):
        run = int(sv.RUN_OF[card])
        higher = [c for c in range(card + 1, 32) if present >> c & 1 and sv.RUN_OF[c] == run]
        if higher and hand >> higher[0] & 1 and sv.BIT_POINTS[higher[0]] == sv.BIT_POINTS[card]:
            continue
        points = int(sv.BIT_POINTS[card])
        if count == 0:
            beaten = any(not hand >> c & 1 for c in higher)
            keys[card] = 100 - 32 * points - card if beaten else 1000 + 32 * points + card
        elif not partner_holds and sv._beats(card, top):
            keys[card] = 1000 + 32 * points - card
        elif partner_holds:
            keys[card] = 500 + 32 * points - card
        else:
            keys[card] = 100 - 32 * points - card
    return sorted(keys, key=lambda c: -keys[c])


@settings(max_examples=300)
@given(st.permutations(range(32)), st.integers(1, 8), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
       st.sampled_from(sorted(RULES)))
def test_candidates_come_in_the_order_of_the_card_by_card_rule(pack, k, trump, leader, count, rule):
    """`_candidate_mask` (equivalent cards dropped per group of equal points) and `_next_candidate`
    (the next card by whole masks) give the cards and the order of the card-by-card rule, leading and
    following, under every play rule: ``count`` cards of the trick are played, each the highest legal
    card of its seat."""
    hands = _hands(list(pack), k)
    bits = _bits(hands, trump)
    trick, top = [], 0
    for place in range(min(count, 3)):
        seat = (leader + place) % 4
        legal = int(sv._legal(bits[seat], int(sv.RUN_OF[trick[0]]) if trick else -1, top, rule))
        card = max(c for c in range(32) if legal >> c & 1)
        if not trick or sv._beats(card, top):
            top = card
        trick.append(card)
        bits[seat] = np.uint64(int(bits[seat]) ^ (1 << card))
    seat = (leader + len(trick)) % 4
    if not bits[seat]:
        return
    assert _search_order(bits, seat, trick, rule) == _reference_order(bits, seat, trick, rule)


def test_leads_try_the_table_lead_then_the_killer_then_the_heuristic_order():
    """`_next_candidate` at a lead: the table's best lead first, the killer second, the other candidates
    in their heuristic order; a killer that is not a candidate changes nothing."""
    rng = np.random.default_rng(7)
    for _ in range(20):
        bits = _bits(_hands(list(rng.permutation(32)), 8), int(rng.integers(4)))
        plain = _search_order(bits, 0, [], play.BS_OVERTAKE)
        first, killer = (int(c) for c in rng.choice(plain, 2, replace=False))
        assert _search_order(bits, 0, [], play.BS_OVERTAKE, first, killer) == \
            [first, killer] + [c for c in plain if c not in (first, killer)]
        absent = next(b for b in range(32) if not (int(bits[0]) >> b) & 1)
        assert _search_order(bits, 0, [], play.BS_OVERTAKE, -1, absent) == plain


@settings(max_examples=200)
@given(st.permutations(range(32)), st.integers(1, 8), st.integers(0, 3), st.integers(0, 3))
def test_shape_lead_names_the_same_run_and_place_in_any_hand_of_the_shape(pack, k, trump, leader):
    """The shape-lead table's word (`_shape_entry`) gives back the card it was written for, nothing for
    another shape, and in another hand the card of the same run at the same place from the top (the
    lowest of the run when the hand holds fewer cards above it)."""
    bits = _bits(_hands(list(pack), k), trump)
    hand = int(bits[leader])
    cards = [b for b in range(32) if hand >> b & 1]
    card = cards[len(pack) % len(cards)]
    shape = np.uint64(sv._shape(*bits, leader))
    entry = np.uint64(sv._shape_entry(shape, card, np.uint64(hand)))
    assert sv._shape_lead(entry, shape, np.uint64(hand)) == card
    assert sv._shape_lead(entry, np.uint64(sv._shape(*bits, (leader + 1) % 4)), np.uint64(hand)) == -1
    run = [b for b in range(32) if sv.RUN_OF[b] == sv.RUN_OF[card]]
    place = sum(1 for b in cards if b in run and b > card)
    for other in (int(bits[(leader + 1) % 4]), int(bits[(leader + 2) % 4])):
        held = sorted((b for b in run if other >> b & 1), reverse=True)
        expected = held[min(place, len(held) - 1)] if held else -1
        assert sv._shape_lead(entry, shape, np.uint64(other)) == expected


def _guess_values(bits, leader: int, team: int, rule: int) -> dict:
    """Every lead's value of `_lead_guess`'s one-trick lookahead by plain minimax in Python: each seat
    tries its `_candidate_mask`, `_guess_leaf` at the end of the trick."""
    hands = _in_play_order(bits, leader)
    up = leader % 2 == team
    present = np.uint64(int(np.bitwise_or.reduce(bits)))

    def follow(trick, rest, top, top_place):
        place = len(trick)
        if place == 4:
            ours = (top_place % 2 == 0) == up
            gain = sum(int(sv.BIT_POINTS[c]) for c in trick) if ours else 0
            return int(sv._guess_leaf(*rest, top_place, ours, gain))
        led = int(sv.RUN_OF[trick[0]])
        cands = int(sv._candidate_mask(hands[place], present, led, top, rule))
        values = []
        for card in (c for c in range(32) if cands >> c & 1):
            wins = sv._beats(card, top)
            values.append(follow(trick + [card], rest[:place] + (np.uint64(int(hands[place]) ^ (1 << card)),)
                                 + rest[place + 1:], card if wins else top, place if wins else top_place))
        return max(values) if (place % 2 == 0) == up else min(values)

    cands = int(sv._candidate_mask(hands[0], present, -1, 0, rule))
    return {a: follow([a], (np.uint64(int(hands[0]) ^ (1 << a)),) + hands[1:], a, 0)
            for a in range(32) if cands >> a & 1}


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(32)), st.integers(2, 5), *DEAL[1:])
def test_lead_guess_takes_a_lead_of_the_best_one_trick_guess(pack, k, trump, leader, team, rule):
    """`_lead_guess`: its lead has the best value of the one-trick lookahead (searched with a window or
    every lead exactly), its second lead (``every``) the best value of the other leads."""
    bits = _bits(_hands(list(pack), k), trump)
    values = _guess_values(bits, leader, team, rule)
    up = leader % 2 == team
    pick = max if up else min
    for every in (False, True):
        lead, second = sv._lead_guess(*_in_play_order(bits, leader), up, rule, every)
        assert values[lead] == pick(values.values())
        if every and len(values) > 1:
            assert second != lead and values[second] == pick(v for c, v in values.items() if c != lead)
