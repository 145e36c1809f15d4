"""Giltspiel trick play: policies, play-out to the Spiel, a double-dummy solver and the Spiel job.

Rules: shared/rules/giltspiel.md §2.2 (trick order), §6 (play). Seats 0-3 clockwise with the dealer
at seat 0, so forehand (seat 1, team 1) leads trick 1; team = seat % 2. The trump is the suit of the
turn-up. The Spiel goes to the first team with 3 of the 5 tricks and play stops there (§6.2).

A position is ``hands (4,) uint64`` (cards still held), the current ``trick (4,) int64`` with
``count`` cards played by ``leader`` and the following seats, and ``won (2,)`` tricks per team.

* Policies (`RANDOM`, `GREEDY` of spec §10.5) choose a card from what a player sees: own hand, the
  trick so far, the trump; one uniform number per decision drives the random policy.
* The double-dummy solver answers "does ``team`` take ``need`` tricks" with all hands known by an
  AND/OR alpha-beta search (binary objective): a transposition table at trick boundaries with
  rank-relative keys (the seats holding each suit's remaining cards in rank order),
  equivalent cards searched once (cards of one hand adjacent in rank within a suit once the cards
  played before this trick are removed), moves ordered by the greedy policy's preferences, sure
  tricks (top trumps) cutting the search at trick boundaries and the last two tricks searched by
  a small dedicated routine.
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import njit, njit_inline
from simcore.errors import CardsimError
from simcore.games.giltspiel import HAND_SIZE, N_RANKS, N_SUITS, SEATS, TURNUP, DealJob, Known
from simcore.rng import block_substream
from simcore.search import checked_table, table_rows, table_slot
from simcore.tricks import (
    FOLLOW_OR_TRUMP,
    bit_extract_table,
    card_power,
    legal_mask,
    lowest_card,
    popcount,
    random_card,
    suit_bits,
    trick_winner,
    winning_slot,
)

SUITS = suit_bits(N_SUITS, N_RANKS)
TRICKS = 5
SPIEL = 3
FOREHAND = 1
RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}
METHODS = ("dd",) + tuple(POLICIES)
PLAY_STREAM = 1
"""Sub-stream index (simcore.rng.block_substream) of the policies' random choices."""
DECISIONS = SEATS * TRICKS
"""Uniform numbers a play-out reads per deal (one per card played)."""
TABLE_BITS = 12
_ONE = np.uint64(1)
N_CARDS = N_SUITS * N_RANKS


def checked_hands(hands, rows: bool = False, sizes=range(TRICKS, TRICKS + 1), equal: bool = True) -> np.ndarray:
    """`checks.hand_masks` of the 32 cards, four seats (no deals is an empty batch)."""
    return checks.hand_masks(hands, "hands", N_CARDS, SEATS, sizes, rows, equal, empty=True)


# --- policies ---------------------------------------------------------------------------------
@njit_inline
def _height(card, trump):
    """Greedy's card order: rank, with every trump above every plain card (0..15)."""
    return card % N_RANKS + (N_RANKS if card // N_RANKS == trump else 0)


@njit_inline
def _trick_state(trick, count, trump):
    """(suit led, power of the card holding the trick, partner of the player to move holds it) of a
    trick with ``count`` cards; (-1, -1, False) before the lead."""
    if count == 0:
        return -1, -1, False
    led = trick[0] // N_RANKS
    slot = winning_slot(trick, count, trump, N_RANKS)
    return led, card_power(trick[slot], led, trump, N_RANKS), count >= 2 and slot % 2 == count % 2


@njit_inline
def _greedy_key(card, count, led, best_power, partner, trump):
    """Spec §10.5 greedy preference, higher first: leading, the highest card; following, the
    cheapest card if partner holds the trick, else the cheapest card that wins, else the cheapest."""
    height = _height(card, trump)
    if count == 0:
        return height
    if partner or card_power(card, led, trump, N_RANKS) <= best_power:
        return -height
    return 2 * N_RANKS - height


@njit
def _greedy(legal, trick, count, trump):
    """The greedy policy's card; equal preferences: leading takes the higher card index, following the lower."""
    led, best_power, partner = _trick_state(trick, count, trump)
    best, best_key = -1, 0
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        key = _greedy_key(card, count, led, best_power, partner, trump)
        if best < 0 or key > best_key or (count == 0 and key == best_key):
            best, best_key = card, key
    return best


@njit
def _choose(policy, hand, trick, count, trump, u):
    """Card the ``policy`` plays from ``hand`` to the trick so far."""
    led = trick[0] // N_RANKS if count else -1
    legal = legal_mask(hand, led, trump, SUITS, FOLLOW_OR_TRUMP)
    if policy == GREEDY:
        return _greedy(legal, trick, count, trump)
    return random_card(legal, u)


@njit
def _choose_many(policy, hands, tricks, counts, trumps, u):
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i] = _choose(policy, hands[i], tricks[i], counts[i], trumps[i], u[i])
    return out


def choose(policy: str, hands, tricks, counts, trumps, u=None) -> np.ndarray:
    """Cards chosen by ``policy`` ("random" or "greedy") for the players to move in many deals.

    hands (n,) uint64: the mover's hand; tricks (n, 4) int64: the cards of the trick so far in play
    order; counts (n,) int64: how many; trumps (n,) int64; u (n,) float64 in [0, 1) for "random".
    Returns (n,) int64 cards. CardsimError for arguments that are no such positions (`trusted_choose` plays
    without these checks).
    """
    checks.one_of(policy, "Giltspiel policy", POLICIES)
    hands, tricks, counts = checks.trick_positions(hands, tricks, counts, N_CARDS, SEATS, TRICKS)
    n = hands.size
    trumps = checks.suit_indices(trumps, "trumps", n, range(N_SUITS))
    checks.draws_given(u, policy == "random", "one random number in [0, 1) per position")
    u = None if u is None else checks.uniforms(u, "u", n)
    return trusted_choose(policy, hands, tricks, counts, trumps, u)


def trusted_choose(policy: str, hands, tricks, counts, trumps, u=None) -> np.ndarray:
    """`choose` without its argument checks, for the engines that call it once per card."""
    hands = np.asarray(hands, dtype=np.uint64)
    u = np.zeros(hands.shape[0]) if u is None else np.asarray(u, dtype=np.float64)
    return _choose_many(POLICIES[policy], hands, np.asarray(tricks, dtype=np.int64),
                        np.asarray(counts, dtype=np.int64), np.asarray(trumps, dtype=np.int64), u)


# --- play-out ---------------------------------------------------------------------------------
@njit
def _play_deal(policy, hands, trump, leader, u, line):
    """Play one deal out to the Spiel with ``policy`` for all four seats.

    hands (4,) uint64 (modified); u (DECISIONS,) uniforms; line (DECISIONS,) int64 receives the
    cards in play order. Returns (winning team, tricks played, cards played).
    """
    trick = np.empty(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    played = 0
    while won[0] < SPIEL and won[1] < SPIEL:
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            card = _choose(policy, hands[seat], trick, count, trump, u[played])
            hands[seat] &= ~(_ONE << np.uint64(card))
            trick[count] = card
            line[played] = card
            played += 1
        leader = trick_winner(trick, leader, trump, N_RANKS)
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), won[0] + won[1], played


@njit
def _play_out(policy, hands, trumps, leader, u, teams, lengths):
    line = np.empty(DECISIONS, dtype=np.int64)
    for i in range(hands.shape[0]):
        teams[i], lengths[i], _ = _play_deal(policy, hands[i].copy(), trumps[i], leader, u[i], line)


def play_out(policy: str, hands, trumps, u=None, leader: int = FOREHAND) -> tuple[np.ndarray, np.ndarray]:
    """Play many deals out to the Spiel with one policy for every seat.

    hands (n, 4) uint64: the seats' five cards; trumps (n,) int64; u (n, DECISIONS) float64 uniforms
    (needed by "random"). Returns (winning team (n,) int64, tricks played 3..5 (n,) int64). CardsimError for
    arguments that are no such deals (`trusted_play_out` plays without these checks).
    """
    checks.one_of(policy, "Giltspiel policy", POLICIES)
    hands = checked_hands(hands, rows=True)
    trumps = checks.suit_indices(trumps, "trumps", len(hands), range(N_SUITS))
    checks.draws_given(u, policy == "random", f"{DECISIONS} random numbers in [0, 1) per deal")
    u = None if u is None else checks.uniform_rows(u, "u", len(hands), DECISIONS)
    return trusted_play_out(policy, hands, trumps, u, checks.whole(leader, "leader", 0, SEATS - 1))


def trusted_play_out(policy: str, hands, trumps, u=None, leader: int = FOREHAND) -> tuple[np.ndarray, np.ndarray]:
    """`play_out` without its argument checks, for the jobs that play their own deals."""
    hands = np.asarray(hands, dtype=np.uint64)
    n = hands.shape[0]
    u = np.zeros((n, DECISIONS)) if u is None else np.asarray(u, dtype=np.float64)
    teams = np.empty(n, dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    _play_out(POLICIES[policy], hands, np.asarray(trumps, dtype=np.int64), leader, u, teams, lengths)
    return teams, lengths


def play_line(policy: str, hands, trump: int, u=None, leader: int = FOREHAND) -> list[tuple[int, int]]:
    """The (seat, card) sequence one deal's play-out takes; hands (4,) uint64. CardsimError for arguments that are
    no such deal (`trusted_play_line` plays without these checks)."""
    checks.one_of(policy, "Giltspiel policy", POLICIES)
    checks.draws_given(u, policy == "random", f"{DECISIONS} random numbers in [0, 1)")
    return trusted_play_line(policy, checked_hands(hands), checks.whole(trump, "trump", 0, N_SUITS - 1),
                             None if u is None else checks.uniforms(u, "u", DECISIONS),
                             checks.whole(leader, "leader", 0, SEATS - 1))


def trusted_play_line(policy: str, hands, trump: int, u=None, leader: int = FOREHAND) -> list[tuple[int, int]]:
    """`play_line` without its argument checks, for the engines that play their own deals."""
    u = np.zeros(DECISIONS) if u is None else np.asarray(u, dtype=np.float64)
    line = np.empty(DECISIONS, dtype=np.int64)
    _, _, played = _play_deal(POLICIES[policy], np.array(hands, dtype=np.uint64), trump, leader, u, line)
    return _seated(line[:played], trump, leader)


def _seated(cards, trump: int, leader: int) -> list[tuple[int, int]]:
    """(seat, card) pairs of cards given in play order from the first trick on."""
    out = []
    for start in range(0, len(cards), SEATS):
        trick = np.array(cards[start:start + SEATS], dtype=np.int64)
        out += [((leader + i) % SEATS, int(c)) for i, c in enumerate(trick)]
        if len(trick) == SEATS:
            leader = trick_winner(trick, leader, trump, N_RANKS)
    return out


def trick_winners_of(line, trump: int) -> list[int]:
    """Seats winning the complete tricks of a (seat, card) line that starts at a trick's lead."""
    winners = []
    for start in range(0, len(line) - SEATS + 1, SEATS):
        trick = np.array([card for _, card in line[start:start + SEATS]], dtype=np.int64)
        winners.append(int(trick_winner(trick, line[start][0], trump, N_RANKS)))
    return winners


# --- double-dummy solver ----------------------------------------------------------------------
def new_table(bits: int = TABLE_BITS) -> tuple:
    """An empty transposition table of 2**bits entries: (keys (size, 2) uint64, tags (size,) int64,
    values (size,) bool, counters (2,) int64: solves and search nodes). A tag holds the solve number,
    leader and the target team's tricks, so entries of earlier solves are never read."""
    size = table_rows(bits)
    return (np.zeros((size, 2), dtype=np.uint64), np.full(size, -1, dtype=np.int64),
            np.zeros(size, dtype=np.bool_), np.zeros(2, dtype=np.int64))


FIELD_BITS = 6
MOVE_BITS = 2 * FIELD_BITS
"""Bits per card of a packed candidate list (`_candidates`): the card in the low 6, its greedy key
(offset by `KEY_OFFSET` to be positive) in the next 6; a hand's five cards fit in one int64."""
KEY_OFFSET = 2 * N_RANKS
"""`_greedy_key` lies in -(2 * N_RANKS - 1)..2 * N_RANKS (heights 0..2 * N_RANKS - 1), so key + KEY_OFFSET is 1..32."""
_FIELD_MASK = (1 << FIELD_BITS) - 1
assert HAND_SIZE * MOVE_BITS < 63 and 4 * N_RANKS <= _FIELD_MASK + 1 and 2 * KEY_OFFSET <= _FIELD_MASK


@njit_inline
def _move(moves, i):
    """Card ``i`` (0 = best) of a packed candidate list."""
    return (moves >> (MOVE_BITS * i)) & _FIELD_MASK


@njit_inline
def _candidates(hand, present, count, led, best_power, partner, trump):
    """Cards worth searching in ``hand`` (uint64 mask of the player to move), best first by the greedy
    order: (how many, the list packed into one int64, read with `_move`). Of cards equivalent to
    each other (one hand, one suit, no card of another hand or of this trick between them) only the
    highest is kept. present: the cards held when this trick began (uint64); count, led,
    best_power, partner: the trick so far as `_trick_state` gives it.

    Scalars in, scalars out: numba pays an atomic reference-count pair per array argument on every
    call of an inline helper with loops, and the search calls this one on almost every node."""
    n, moves = 0, 0
    m = highest_of_runs(legal_mask(hand, led, trump, SUITS, FOLLOW_OR_TRUMP), hand, present)
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        key = _greedy_key(card, count, led, best_power, partner, trump) + KEY_OFFSET
        j = n  # insert after the cards of higher or equal key
        while j > 0 and (moves >> (MOVE_BITS * j - FIELD_BITS)) & _FIELD_MASK < key:
            j -= 1
        low = moves & ((1 << (MOVE_BITS * j)) - 1)
        high = (moves >> (MOVE_BITS * j)) << (MOVE_BITS * (j + 1))
        moves = low | (((key << FIELD_BITS) | card) << (MOVE_BITS * j)) | high
        n += 1
    return n, moves


@njit_inline
def highest_of_runs(cards, hand, present):
    """``cards`` (uint64, of ``hand``) without those whose next higher card of their suit among ``present`` (the
    cards still in play) is the hand's own: such neighbours play alike, so the highest one stands for them."""
    out = cards
    m = cards
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        above = present & SUITS[card // N_RANKS] & ~((_ONE << np.uint64(card + 1)) - _ONE)
        if above and (hand >> np.uint64(lowest_card(above))) & _ONE:
            out &= ~(_ONE << np.uint64(card))
    return out


def _above_table() -> np.ndarray:
    """(2**N_RANKS,) uint64: for a suit's rank mask, the ranks above its highest rank (all for 0)."""
    full = (1 << N_RANKS) - 1
    return np.array([full & ~((1 << m.bit_length()) - 1) for m in range(1 << N_RANKS)], dtype=np.uint64)


_ABOVE = _above_table()


@njit_inline
def _sure_tricks(hands, leader, trump, team):
    """Tricks ``team`` wins whatever happens, from a trick boundary: the most trumps one of its
    players holds above every trump of the opponents (each wins the trick it is played to; one
    player's cards fall to different tricks); at least 1 if ``team`` leads a card that must win
    (the opponents hold no trump and no higher card of its suit)."""
    opponents = hands[1 - team] | hands[3 - team]
    rank_bits = np.uint64((1 << N_RANKS) - 1)
    shift = np.uint64(trump * N_RANKS)
    top = _ABOVE[np.int64((opponents >> shift) & rank_bits)] << shift
    sure = max(popcount(hands[team] & top), popcount(hands[team + 2] & top))
    if sure == 0 and leader % 2 == team and not opponents & SUITS[trump]:
        for suit in range(N_SUITS):
            shift = np.uint64(suit * N_RANKS)
            if hands[leader] & (_ABOVE[np.int64((opponents >> shift) & rank_bits)] << shift):
                return 1
    return sure


@njit_inline
def _last_trick_winner(hands, gone, leader, trump):
    """Seat that wins the last trick when every hand holds one card besides the cards ``gone``."""
    led = lowest_card(hands[leader] & ~gone) // N_RANKS
    best, best_power = leader, -1
    for i in range(SEATS):
        seat = (leader + i) % SEATS
        power = card_power(lowest_card(hands[seat] & ~gone), led, trump, N_RANKS)
        if power > best_power:
            best, best_power = seat, power
    return best


@njit_inline
def _last_two_leaf(hands, leader, a, b, c, d, ours_won, theirs_won, trump, team, need):
    """Value for ``team`` after cards a, b, c, d (in play order from ``leader``) of the fourth
    trick; ours_won, theirs_won: tricks of ``team`` and of the opponents before it."""
    led = a // N_RANKS
    slot, best = 0, card_power(a, led, trump, N_RANKS)
    for i, card in ((1, b), (2, c), (3, d)):
        power = card_power(card, led, trump, N_RANKS)
        if power > best:
            slot, best = i, power
    ours = (leader + slot) % 2 == team
    if ours and ours_won + 1 >= need:
        return True
    if not ours and theirs_won + 1 > TRICKS - need:
        return False
    gone = (_ONE << np.uint64(a)) | (_ONE << np.uint64(b)) | (_ONE << np.uint64(c)) | (_ONE << np.uint64(d))
    return _last_trick_winner(hands, gone, (leader + slot) % SEATS, trump) % 2 == team


@njit_inline
def _last_two(hands, leader, won, trump, team, need):
    """True if ``team`` reaches ``need`` from a trick boundary where every hand holds two cards:
    the fourth trick searched card by card (AND/OR), the fifth played out."""
    s1, s2, s3 = (leader + 1) % SEATS, (leader + 2) % SEATS, (leader + 3) % SEATS
    ours0, ours1, ours2, ours3 = leader % 2 == team, s1 % 2 == team, s2 % 2 == team, s3 % 2 == team
    value0 = not ours0
    m0 = hands[leader]
    while m0 and value0 != ours0:
        a = lowest_card(m0)
        m0 &= m0 - _ONE
        led = a // N_RANKS
        value1 = not ours1
        m1 = legal_mask(hands[s1], led, trump, SUITS, FOLLOW_OR_TRUMP)
        while m1 and value1 != ours1:
            b = lowest_card(m1)
            m1 &= m1 - _ONE
            value2 = not ours2
            m2 = legal_mask(hands[s2], led, trump, SUITS, FOLLOW_OR_TRUMP)
            while m2 and value2 != ours2:
                c = lowest_card(m2)
                m2 &= m2 - _ONE
                value3 = not ours3
                m3 = legal_mask(hands[s3], led, trump, SUITS, FOLLOW_OR_TRUMP)
                while m3 and value3 != ours3:
                    d = lowest_card(m3)
                    m3 &= m3 - _ONE
                    value3 = _last_two_leaf(hands, leader, a, b, c, d, won[team], won[1 - team], trump, team, need)
                value2 = value3
            value1 = value2
        value0 = value1
    return value0


@njit_inline
def _boundary_value(hands, leader, won, trump, team, need):
    """At a trick boundary: 1 if ``team`` surely takes ``need`` tricks, 0 if it surely cannot,
    -1 if only a search can tell. hands (4,) uint64 and won (2,): value tuples in the search (see
    `_search`; this helper and the ones it calls take arrays as well)."""
    if won[team] >= need or won[team] + _sure_tricks(hands, leader, trump, team) >= need:
        return 1
    if won[1 - team] > TRICKS - need or won[1 - team] + _sure_tricks(hands, leader, trump, 1 - team) > TRICKS - need:
        return 0
    if won[0] + won[1] == TRICKS - 2:
        return 1 if _last_two(hands, leader, won, trump, team, need) else 0
    if won[0] + won[1] == TRICKS - 1:
        return 1 if _last_trick_winner(hands, np.uint64(0), leader, trump) % 2 == team else 0
    return -1


_COMPRESS = bit_extract_table(N_RANKS)
"""(2**N_RANKS, 2**N_RANKS) uint64: [m, v] the bits of v at the set bits of m, packed low."""
_RANK_BITS = np.uint64((1 << N_RANKS) - 1)


@njit_inline
def _suit_code(present, x, y, suit):
    """Holders of the cards of ``suit`` still held, in rank order: with k such cards, bit i of the
    low k bits and of the next k is the seat's bit in x and in y; a 1 above marks k."""
    shift = np.uint64(suit * N_RANKS)
    m = (present >> shift) & _RANK_BITS
    k = np.uint64(popcount(m))
    return ((_ONE << (k + k)) | _COMPRESS[m, (x >> shift) & _RANK_BITS]
            | (_COMPRESS[m, (y >> shift) & _RANK_BITS] << k))


@njit_inline
def _position_key(hands, leader, won, team, trump, solve):
    """(k1, k2, tag) of a trick-boundary position in the table. The key is rank-relative: per suit the
    seats holding its remaining cards in rank order, the trump suit first and the three plain suits
    sorted. Positions with equal keys play alike card for card (legality depends on suits only, the
    trick winner on the rank order within a suit, and the plain suits are interchangeable), so they
    have equal values. The tag holds the solve number, the leader and the target team's tricks."""
    present = hands[0] | hands[1] | hands[2] | hands[3]
    x = hands[1] | hands[3]
    y = hands[2] | hands[3]
    a = _suit_code(present, x, y, (trump + 1) % N_SUITS)
    b = _suit_code(present, x, y, (trump + 2) % N_SUITS)
    c = _suit_code(present, x, y, (trump + 3) % N_SUITS)
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    k1 = _suit_code(present, x, y, trump) | (a << np.uint64(32))
    k2 = b | (c << np.uint64(32))
    return k1, k2, _tag(leader, won, team, solve)


@njit_inline
def _tag(leader, won, team, solve):
    """Table tag of a trick-boundary position: the solve number, the leader and ``team``'s tricks."""
    return (solve * SEATS + leader) * (TRICKS + 1) + won[team]


LEADER, COUNT, SIZE, TRIED, WINNER, LED, POWER, BEST, RESULT, SLOT, MOVES, PRESENT = range(12)
"""Columns of the search stack (`_moves`): per ply its leader, plays in the trick, candidates, how
many were tried, the trick's winner (-1 inside a trick), the trick so far (suit led, power and slot
of the card holding it, as `_trick_state`; -1 before the lead), the node's value so far (0/1), its
table slot (-1: none), its candidates (packed, `_candidates`) and the cards held when the trick
began (a uint64 mask)."""


@njit
def _search(hands, trick, count, leader, won, trump, team, need, table, scratch):
    """True if ``team`` takes ``need`` tricks from this position under perfect play.

    Depth-first AND/OR search without recursion: ply p holds the node after p cards; at a node of
    ``team`` one winning card settles it, at an opponent's node one losing card. hands and won are
    modified (and restored); trick (4,) holds the ``count`` cards of the current trick and is only
    read. scratch: `_moves` (the stack, see LEADER...; buffers of the position).

    The trick so far is kept on the stack as it grows (LED, POWER, BEST, PRESENT) instead of being
    recomputed from the cards at every node, and the helpers called on every node receive value
    tuples or scalars, not arrays: numba pays an atomic reference-count pair (NRT_incref/
    NRT_decref) per array argument on every call of an inline helper with branches or loops.
    Together with the packed candidate lists this made the search about 1.3-1.35 times faster with
    the same nodes.
    """
    keys, tags, values, solve = table
    stack, node_keys = scratch[0], scratch[4]
    p = 0
    stack[0, LEADER], stack[0, COUNT] = leader, count
    if count:  # the trick so far, as the descents below keep it
        stack[0, LED] = trick[0] // N_RANKS
        stack[0, BEST] = winning_slot(trick, count, trump, N_RANKS)
        stack[0, POWER] = card_power(trick[stack[0, BEST]], stack[0, LED], trump, N_RANKS)
        present = hands[0] | hands[1] | hands[2] | hands[3]
        for i in range(count):
            present |= _ONE << np.uint64(trick[i])
        stack[0, PRESENT] = present
    entering, child = True, False
    while True:
        leader, count = stack[p, LEADER], stack[p, COUNT]
        seat = (leader + count) % SEATS
        mine = seat % 2 == team
        if entering:
            solve[1] += 1
            value = -1
            stack[p, SLOT] = -1
            if count == 0:
                held, tally = (hands[0], hands[1], hands[2], hands[3]), (won[0], won[1])
                value = _boundary_value(held, leader, tally, trump, team, need)
                if value < 0:
                    k1, k2, tag = _position_key(held, leader, tally, team, trump, solve[0])
                    slot = table_slot(k1, k2, tag, tags.shape[0])
                    if tags[slot] == tag and keys[slot, 0] == k1 and keys[slot, 1] == k2:
                        value = 1 if values[slot] else 0
                    else:
                        stack[p, SLOT] = slot
                        node_keys[p, 0], node_keys[p, 1] = k1, k2
            if value < 0:
                if count == 0:
                    stack[p, PRESENT] = hands[0] | hands[1] | hands[2] | hands[3]
                    stack[p, LED], stack[p, POWER] = -1, -1
                partner = count >= 2 and stack[p, BEST] % 2 == count % 2
                stack[p, SIZE], stack[p, MOVES] = _candidates(hands[seat], np.uint64(stack[p, PRESENT]), count,
                                                              stack[p, LED], stack[p, POWER], partner, trump)
                stack[p, TRIED] = 0
                stack[p, RESULT] = not mine
        else:
            # back from the child of ply p: take its card back
            card = _move(stack[p, MOVES], stack[p, TRIED] - 1)
            hands[seat] ^= _ONE << np.uint64(card)
            winner = stack[p, WINNER]
            if winner >= 0:
                won[winner % 2] -= 1
            if child == mine:
                stack[p, RESULT] = mine
                stack[p, TRIED] = stack[p, SIZE]
            value = -1
        if value < 0 and stack[p, TRIED] < stack[p, SIZE]:
            card = _move(stack[p, MOVES], stack[p, TRIED])
            stack[p, TRIED] += 1
            hands[seat] ^= _ONE << np.uint64(card)
            stack[p, WINNER] = -1
            if count == 0:
                led, best = card // N_RANKS, 0
                power = card_power(card, led, trump, N_RANKS)
            else:
                led, power, best = stack[p, LED], stack[p, POWER], stack[p, BEST]
                strength = card_power(card, led, trump, N_RANKS)
                if strength > power:
                    power, best = strength, count
            if count == SEATS - 1:
                winner = (leader + best) % SEATS
                stack[p, WINNER] = winner
                won[winner % 2] += 1
                stack[p + 1, LEADER], stack[p + 1, COUNT] = winner, 0
            else:
                stack[p + 1, LEADER], stack[p + 1, COUNT] = leader, count + 1
                stack[p + 1, LED], stack[p + 1, POWER], stack[p + 1, BEST] = led, power, best
                stack[p + 1, PRESENT] = stack[p, PRESENT]
            p += 1
            entering = True
            continue
        if value < 0:
            value = stack[p, RESULT]
            slot = stack[p, SLOT]
            if slot >= 0:
                keys[slot, 0], keys[slot, 1] = node_keys[p, 0], node_keys[p, 1]
                tags[slot] = _tag(leader, (won[0], won[1]), team, solve[0])
                values[slot] = value == 1
        if p == 0:
            return value == 1
        child = value == 1
        p -= 1
        entering = False


@njit
def _solve(hands, trick, count, leader, won, trump, team, need, table, scratch):
    """`_search` on copies of the position (in the buffers of ``scratch``, a `_moves` tuple), as a
    new solve of ``table``. The scalars are cast to int64 so that callers passing constants share
    one compiled `_search`."""
    table[3][0] += 1
    h, t, w = scratch[1], scratch[2], scratch[3]
    h[:] = hands
    t[:] = trick
    w[:] = won
    return _search(h, t, np.int64(count), np.int64(leader), w, np.int64(trump), np.int64(team), np.int64(need),
                   table, scratch)


@njit
def _team_tricks(hands, trump, leader, team, table, scratch):
    """Tricks ``team`` can force out of the cards in hand (all played, no Spiel stop), at a trick
    boundary with ``leader`` to lead: the largest x such that ``team`` takes x of the remaining k."""
    trick = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    k = popcount(hands[leader])
    won[1 - team] = TRICKS - k  # the opponents' head start turns "x of k" into "x of TRICKS"
    low, high = 0, k  # team can force `low`; it cannot force more than `high`
    while low < high:
        mid = (low + high + 1) // 2
        if _solve(hands, trick, 0, leader, won, trump, team, mid, table, scratch):
            low = mid
        else:
            high = mid - 1
    return low


@njit
def _spiel_teams(hands, trumps, leader, table, scratch, out):
    """Spiel winner of every deal: hands (n, 4) uint64, trumps (n,) -> out (n,) int64 teams."""
    trick = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    team = leader % 2
    for i in range(hands.shape[0]):
        wins = _solve(hands[i], trick, 0, leader, won, trumps[i], team, SPIEL, table, scratch)
        out[i] = team if wins else 1 - team


def _moves() -> tuple:
    """Scratch of the solver, made once and reused by every solve: (stack (plies, 12) int64 (columns
    LEADER...), hands (4,) uint64, trick (4,) int64, won (2,) int64, table keys of the nodes to store
    (plies, 2) uint64)."""
    plies = TRICKS * SEATS + 1
    return (np.empty((plies, PRESENT + 1), dtype=np.int64), np.empty(SEATS, dtype=np.uint64),
            np.empty(SEATS, dtype=np.int64), np.empty(2, dtype=np.int64), np.empty((plies, 2), dtype=np.uint64))


def spiel_teams(hands, trumps, leader: int = FOREHAND, table=None) -> np.ndarray:
    """Double-dummy Spiel winner of many deals: hands (n, 4) uint64 five cards per seat, trumps (n,)
    -> (n,) int64 team (0 or 1) that takes 3 tricks under perfect play of both teams. CardsimError for arguments
    that are no such deals (`trusted_spiel_teams` solves without these checks)."""
    hands = checked_hands(hands, rows=True)
    return trusted_spiel_teams(hands, checks.suit_indices(trumps, "trumps", len(hands), range(N_SUITS)),
                               checks.whole(leader, "leader", 0, SEATS - 1), checked_table(table, new_table))


def trusted_spiel_teams(hands, trumps, leader: int = FOREHAND, table=None) -> np.ndarray:
    """`spiel_teams` without its argument checks, for the jobs that solve their own deals."""
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.empty(hands.shape[0], dtype=np.int64)
    _spiel_teams(hands, np.asarray(trumps, dtype=np.int64), leader, new_table() if table is None else table,
                 _moves(), out)
    return out


def position_wins(hands, trump: int, team: int, leader: int, won=(0, 0), trick=(), need: int = SPIEL,
                  table=None) -> bool:
    """True if ``team`` takes ``need`` tricks from a position under perfect play.

    hands (4,) uint64: cards still held; trick: cards of the current trick so far, led by
    ``leader``; won: tricks teams 0 and 1 have taken.
    """
    hands = checked_hands(hands, sizes=range(TRICKS + 1), equal=False)
    trump, team = checks.whole(trump, "trump", 0, N_SUITS - 1), checks.whole(team, "team", 0, 1)
    leader, need = checks.whole(leader, "leader", 0, SEATS - 1), checks.whole(need, "need", 1, TRICKS)
    won = checks.wholes(won, "won", 2, 0, TRICKS)
    trick = checks.wholes(trick, "trick", len(trick), 0, N_CARDS - 1) if isinstance(trick, (list, tuple)) else None
    if trick is None or len(trick) >= SEATS or len(set(trick)) < len(trick) \
            or any((int(np.bitwise_or.reduce(hands)) >> c) & 1 for c in trick):
        raise CardsimError(f"trick must be up to {SEATS - 1} cards played before this one, none still in a hand")
    checks.position_sizes(hands, leader, len(trick), won, TRICKS)
    table = checked_table(table, new_table)
    cards = np.zeros(SEATS, dtype=np.int64)
    cards[:len(trick)] = trick
    return bool(_solve(np.asarray(hands, dtype=np.uint64), cards, len(trick), leader,
                       np.array(won, dtype=np.int64), trump, team, need, new_table() if table is None else table,
                       _moves()))


def forced_tricks(hands, trump: int, leader: int = FOREHAND) -> tuple[int, int]:
    """Tricks teams 0 and 1 can each force if every card in hand were played, from a trick boundary
    with ``leader`` to lead; hands (4,) uint64 of equal sizes k; the two add up to k."""
    hands = checked_hands(hands, sizes=range(1, TRICKS + 1))
    trump, leader = checks.whole(trump, "trump", 0, N_SUITS - 1), checks.whole(leader, "leader", 0, SEATS - 1)
    t1 = _team_tricks(hands, trump, leader, 1, new_table(), _moves())
    return int(popcount(hands[leader])) - t1, t1


def optimal_line(hands, trump: int, leader: int = FOREHAND) -> list[tuple[int, int]]:
    """A line of perfect play to the Spiel as (seat, card) pairs: at every turn the first card in
    the solver's order that keeps the Spiel with the team that wins it. hands (4,) uint64, five cards each."""
    hands = checked_hands(hands)
    trump, leader = checks.whole(trump, "trump", 0, N_SUITS - 1), checks.whole(leader, "leader", 0, SEATS - 1)
    table, scratch = new_table(), _moves()
    team = leader % 2
    trick = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    count = 0
    winner = team if _solve(hands, trick, 0, leader, won, trump, team, SPIEL, table, scratch) else 1 - team
    line = []
    while won[0] < SPIEL and won[1] < SPIEL:
        seat = (leader + count) % SEATS
        led, best_power, partner = _trick_state(trick, count, trump)
        present = np.bitwise_or.reduce(np.concatenate((hands, _ONE << trick[:count].astype(np.uint64))))
        size, moves = _candidates(hands[seat], present, count, led, best_power, partner, trump)
        options = [_move(moves, i) for i in range(size)]
        for card in options:
            hands[seat] ^= _ONE << np.uint64(card)
            trick[count] = card
            after_leader, after_count, after_won = leader, count + 1, won.copy()
            if after_count == SEATS:
                after_leader = trick_winner(trick, leader, trump, N_RANKS)
                after_won[after_leader % 2] += 1
                after_count = 0
            if _solve(hands, trick, after_count, after_leader, after_won, trump, winner, SPIEL, table, scratch):
                break
            hands[seat] ^= _ONE << np.uint64(card)
        line.append((seat, int(card)))
        leader, count, won = after_leader, after_count, after_won
    return line


# --- counting job -----------------------------------------------------------------------------
@njit
def _turnup_cards(turnups):
    """The turn-up card of every deal from its mask: (n,) uint64 -> (n,) int64."""
    out = np.empty(turnups.shape[0], dtype=np.int64)
    for i in range(turnups.shape[0]):
        out[i] = lowest_card(turnups[i])
    return out


class SpielJob(DealJob):
    """Counts: [accepted deals, deals whose Spiel ``team`` wins, then by the number k = 0..8 of trumps
    ``team`` holds: deals (9), wins (9)] under ``method``.

    method: "dd" (double dummy: both teams play perfectly seeing all hands), "greedy" or "random"
    (every seat plays that policy). Forehand leads.
    """

    n_counts = 2 + 2 * (N_RANKS + 1)

    def __init__(self, known: Known, team: int, method: str = "dd", accept=()):
        if method not in METHODS:
            raise ValueError(f"method must be one of {METHODS}, got {method!r}")
        super().__init__(known, accept)
        self.team = team
        self.method = method

    def extra_key(self) -> str:
        return f"team={self.team}|method={self.method}"

    def spiel_teams(self, hands: np.ndarray, trumps: np.ndarray, turnups: np.ndarray,
                    u: np.ndarray | None) -> np.ndarray:
        """The Spiel's winning team (n,) of deals ``hands`` (n, 4) with trump suits ``trumps`` and turn-up cards
        ``turnups`` (n,), u (n, DECISIONS) the policies' uniforms (None for "dd")."""
        if self.method == "dd":
            return trusted_spiel_teams(hands, trumps)
        return trusted_play_out(self.method, hands, trumps, u)[0]

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots, keep = self.deal_block(seed, block, n_deals)
        hands = np.ascontiguousarray(slots[keep, :SEATS])
        turnups = _turnup_cards(np.ascontiguousarray(slots[keep, TURNUP]))
        trumps = turnups // N_RANKS
        u = None
        if self.method != "dd":
            u = block_substream(seed, block, PLAY_STREAM).random((n_deals, DECISIONS))[keep]
        teams = self.spiel_teams(hands, trumps, turnups, u)
        wins = teams == self.team
        held = _team_trumps(hands, trumps, self.team)
        by_trumps = np.bincount(held, minlength=N_RANKS + 1), np.bincount(held[wins], minlength=N_RANKS + 1)
        return np.concatenate(([keep.sum(), wins.sum()], *by_trumps)).astype(np.int64)


@njit
def _team_trumps(hands, trumps, team):
    """Trumps held by ``team`` (seats team, team + 2) in every deal: (n,) int64."""
    out = np.empty(hands.shape[0], dtype=np.int64)
    for i in range(hands.shape[0]):
        suit = (hands[i, team] | hands[i, team + 2]) >> np.uint64(N_RANKS * trumps[i])
        out[i] = popcount(suit & np.uint64((1 << N_RANKS) - 1))
    return out
