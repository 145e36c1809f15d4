"""Double-dummy solver for Dreeg trick play: alpha-beta over the legal cards once every hand is known.

The value of a position is what one side (``maxside``, a set of seats) takes in the remaining tricks
(card points, or tricks with ``count_tricks``) when it maximises and everybody else minimises (or, with
``counted``, what the seats of ``counted`` take while ``maxside`` maximises it: Kamerun's aim, where a
player takes as few points as he can and the others play to give him more, is ``counted={p}`` with
``maxside`` the others),
every seat following the STRICT rules of §3.0.2 (or FOLLOW, phase-5 variant), with the Kamerun lead
restriction of §3.4.2 when ``last_led`` >= 0. It covers the play of every sub-game once the talon is
closed or exhausted and trump and sides are fixed: 66 with 3-4 players, Rot Assen, Rufen after
trick 1, Kamerun, and 2-player endings. Marriages and going out are not part of the value (a DD
value is the card play alone). Seats are positions 0 .. n-1 in play order; ``leader`` leads the
trick in play, which may already hold some cards (PIMC asks from the middle of a trick).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from simcore import checks
from simcore.config import njit
from simcore.errors import CardsimError, is_whole_int
from simcore.games.dreeg_rules import DECK, POINTS, STRICT, legal_cards, legal_mask
from simcore.tricks import lowest_card, popcount, winning_slot

_POINTS = np.array(POINTS, dtype=np.int64)
_N_RANKS = 6
DECK_BITS = len(POINTS)


@njit
def _legal(hands, seat, cards, first, count, trump, mode, flags, last_led, exempt):
    """Legal cards of ``seat``: the trick holds ``cards[first:first + count]``; leading, the Kamerun
    restriction applies when ``last_led`` >= 0 and the seat is not ``exempt``."""
    hand = hands[seat]
    if count == 0:
        if last_led >= 0 and seat != exempt:
            other = hand & ~(63 << (6 * last_led))
            if other:
                return other
        return hand
    led = cards[first] // _N_RANKS
    led_top, trump_top = -1, -1
    for i in range(first, first + count):
        s, rk = cards[i] // _N_RANKS, cards[i] % _N_RANKS
        if s == led and rk > led_top:
            led_top = rk
        if s == trump and rk > trump_top:
            trump_top = rk
    return legal_mask(hand, led, led_top, trump_top, trump, mode, flags)


@njit
def _probe(keys, key):
    """Slot of ``key`` in the transposition table (its own, or the one it would take); keys.size is
    a power of two."""
    return ((key * 0x5851F42D4C957F2D) >> 24) & (keys.size - 1)


@njit
def _search(hands, n, leader, trick, trump, mode, flags, maxmask, countmask, last_led, exempt, count_tricks, keys,
            bounds):
    """Alpha-beta over the card plays (one ply per card on an explicit stack: numba's cache cannot
    hold recursive functions), with a transposition table at trick starts (keys: played cards,
    leader and restricted suit; bounds: lower and upper bound of the rest's value). Values are
    absolute: what the seats of ``countmask`` have taken at the end, the seats of ``maxmask`` maximising it.
    trick: the cards already played to the current trick, led by ``leader`` (the search's root is the next
    card)."""
    root = trick.size
    plies = root
    for i in range(n):
        plies += popcount(np.uint64(hands[i]))
    cards = np.zeros(plies, dtype=np.int64)
    rem = np.zeros(plies, dtype=np.uint64)
    best = np.zeros(plies, dtype=np.int64)
    alpha = np.zeros(plies, dtype=np.int64)
    beta = np.zeros(plies, dtype=np.int64)
    window = np.zeros((plies, 2), dtype=np.int64)
    acc = np.zeros(plies, dtype=np.int64)
    leaders = np.zeros(plies, dtype=np.int64)
    node_key = np.zeros(plies, dtype=np.int64)
    top = 1 << 30
    gone = 0
    for i in range(root):
        cards[i], leaders[i] = trick[i], leader
        gone |= 1 << trick[i]
    d = root
    first_seat = (leader + root) % n
    leaders[d], alpha[d], beta[d], node_key[d] = leader, -1, top, -1
    rem[d] = np.uint64(_legal(hands, first_seat, cards, 0, root, trump, mode, flags, last_led if root == 0 else -1,
                              exempt))
    best[d] = -1 if (maxmask >> first_seat) & 1 else top
    while True:
        count = d % n
        seat = (leaders[d] + count) % n
        if rem[d] == 0 or alpha[d] >= beta[d]:
            value = best[d]
            if node_key[d] >= 0:
                slot = _probe(keys, node_key[d])
                future = value - acc[d]
                keys[slot] = node_key[d]
                bounds[slot, 0] = future if value > window[d, 0] else 0
                bounds[slot, 1] = future if value < window[d, 1] else top
            if d == root:
                return value
            d -= 1
            seat = (leaders[d] + d % n) % n
            hands[seat] |= 1 << cards[d]
            gone &= ~(1 << cards[d])
        else:
            card = lowest_card(rem[d])
            rem[d] &= rem[d] - np.uint64(1)
            cards[d] = card
            hands[seat] &= ~(1 << card)
            gone |= 1 << card
            if count < n - 1:
                d += 1
                leaders[d], acc[d], alpha[d], beta[d] = leaders[d - 1], acc[d - 1], alpha[d - 1], beta[d - 1]
                node_key[d] = -1
                nxt = (leaders[d] + count + 1) % n
                rem[d] = np.uint64(_legal(hands, nxt, cards, d - count - 1, count + 1, trump, mode, flags, -1, exempt))
                best[d] = -1 if (maxmask >> nxt) & 1 else top
                continue
            first = d - count
            winner = (leaders[d] + winning_slot(cards[first:first + n], n, trump, _N_RANKS)) % n
            gain = 0
            if (countmask >> winner) & 1:
                if count_tricks:
                    gain = 1
                else:
                    for i in range(first, first + n):
                        gain += _POINTS[cards[i]]
            value = acc[d] + gain
            if hands[winner] != 0:
                restrict = cards[first] // _N_RANKS if last_led != -2 else -2
                key = gone | (winner << 24) | ((restrict + 2) << 27)
                slot = _probe(keys, key)
                lo, hi = alpha[d], beta[d]
                if keys[slot] == key:
                    lo, hi = max(lo, value + bounds[slot, 0]), min(hi, value + bounds[slot, 1])
                if keys[slot] == key and (lo >= hi or value + bounds[slot, 0] >= beta[d]
                                          or value + bounds[slot, 1] <= alpha[d]):
                    value = value + (bounds[slot, 0] if value + bounds[slot, 0] >= beta[d] or
                                     bounds[slot, 0] == bounds[slot, 1] else bounds[slot, 1])
                else:
                    d += 1
                    leaders[d], acc[d], alpha[d], beta[d], node_key[d] = winner, value, lo, hi, key
                    window[d, 0], window[d, 1] = lo, hi
                    rem[d] = np.uint64(_legal(hands, winner, cards, d, 0, trump, mode, flags, restrict, exempt))
                    best[d] = -1 if (maxmask >> winner) & 1 else top
                    continue
            hands[seat] |= 1 << card
            gone &= ~(1 << card)
        if (maxmask >> seat) & 1:
            if value > best[d]:
                best[d] = value
            if best[d] > alpha[d]:
                alpha[d] = best[d]
        else:
            if value < best[d]:
                best[d] = value
            if best[d] < beta[d]:
                beta[d] = best[d]


TABLE_BITS = 18
"""Transposition-table slots per solve at most: 2**18 (6 MB) for full deals, fewer for endings."""


def solve(hands, leader: int, trump: int, maxside, mode: int = STRICT, flags: int = 0, last_led: int = -2,
          exempt: int = -1, count_tricks: bool = False, trick=(), counted=None) -> int:
    """Card points (or tricks) side ``maxside`` takes from here under perfect play by everybody
    (``counted``: a set of seats whose points count instead, ``maxside`` maximising and every other seat
    minimising them; None: ``maxside``).

    hands: masks per seat (2-4 seats, equal sizes once the current trick is complete); trick: cards
    already played to the current trick by ``leader``, ``leader + 1``, ... (default none: ``leader``
    leads); trump: suit or -1; mode: FREE, STRICT or FOLLOW; flags: NO_UNDERTRUMP | HEAD_TRUMPED_LEAD;
    last_led: -2 for no Kamerun lead restriction, else the suit led to the previous trick (-1 before
    trick 1) with the restriction applied from the next trick on; exempt: a Durchmarsch declarer it
    does not bind (-1: none). The arguments are checked (CardsimError); `trusted_solve` skips that.
    """
    masks = checks.card_masks(hands, "hands", DECK_BITS)
    n = masks.size
    if masks.ndim != 1 or not 2 <= n <= 4:
        raise CardsimError(f"hands must be a list of 2-4 card masks, one per seat, got {checks.shown(hands)}")
    trick = tuple(trick)
    if len(set(trick)) != len(trick) or not all(is_whole_int(c) and 0 <= c < DECK_BITS for c in trick):
        raise CardsimError(f"trick must list distinct cards 0-{DECK_BITS - 1}, got {trick}")
    if sum(1 << int(c) for c in trick) & int(np.bitwise_or.reduce(masks)):
        raise CardsimError(f"trick {trick}: a card on the table is still in a hand; take it out of the hand")
    leader = checks.whole(leader, "leader", 0, n - 1)
    played = [(leader + i) % n for i in range(len(trick))]
    sizes = {int(h).bit_count() + (s in played) for s, h in enumerate(masks)}
    if len(sizes) != 1 or 0 in sizes or len(trick) >= n:
        raise CardsimError("a double-dummy position needs 2-4 hands of equal size once the trick in play is "
                           "complete, and fewer cards on the table than players")
    side = _seats(maxside, n, "maxside")
    counted = side if counted is None else _seats(counted, n, "counted")
    trump = checks.whole(trump, "trump (a suit, -1: none)", -1, 3)
    mode = checks.whole(mode, "mode (FREE 0, STRICT 1, FOLLOW 2)", 0, 2)
    flags = checks.whole(flags, "flags (NO_UNDERTRUMP 1 | HEAD_TRUMPED_LEAD 2)", 0, 3)
    _check_followed(masks, leader, trick, trump, mode, flags)
    return trusted_solve(masks, leader, trump, side, mode, flags,
                         checks.whole(last_led, "last_led (-2: no Kamerun restriction, -1: before trick 1, else the "
                                                "suit led last)", -2, 3),
                         checks.whole(exempt, "exempt (a seat, -1: none)", -1, n - 1),
                         checks.flag(count_tricks, "count_tricks"), trick, counted)


def _seats(seats, n: int, name: str) -> set:
    """``seats`` as a set of one or more seats 0 to n - 1; CardsimError otherwise."""
    chosen = set(seats) if isinstance(seats, Iterable) and not isinstance(seats, str) else set()
    if not chosen or not all(is_whole_int(s) and 0 <= s < n for s in chosen):
        raise CardsimError(f"{name} must be a set of one or more seats 0-{n - 1}, got {seats!r}")
    return chosen


def _check_followed(masks: np.ndarray, leader: int, trick: tuple, trump: int, mode: int, flags: int) -> None:
    """CardsimError unless every card of ``trick`` after the lead was legal for its seat (the cards it held then:
    its hand in ``masks`` and that card) under ``mode`` and ``flags``: a trick no play could reach has no value."""
    cards = [int(c) for c in trick]
    for i in range(1, len(cards)):
        seat = (leader + i) % masks.size
        legal = legal_cards(int(masks[seat]) | 1 << cards[i], cards[:i], trump, mode, flags)
        if not (legal >> cards[i]) & 1:
            allowed = DECK.format_cards([c for c in range(DECK_BITS) if (legal >> c) & 1])
            raise CardsimError(f"trick {DECK.format_cards(cards)}: seat {seat} may not play "
                               f"{DECK.format_cards([cards[i]])} there (mode {mode}, flags {flags}); it had to play "
                               f"one of {allowed}")


def trusted_solve(hands, leader: int, trump: int, maxside, mode: int = STRICT, flags: int = 0, last_led: int = -2,
                  exempt: int = -1, count_tricks: bool = False, trick=(), counted=None) -> int:
    """`solve` without its checks, for callers whose positions come from the engine itself (PIMC): the checks cost
    more than solving a short ending."""
    hands = np.array([int(h) for h in hands], dtype=np.int64)
    slots = 1 << min(TABLE_BITS, 6 + 2 * max(int(h).bit_count() for h in hands))
    keys = np.full(slots, -1, dtype=np.int64)
    bounds = np.zeros((slots, 2), dtype=np.int64)
    counted = maxside if counted is None else counted
    return int(_search(hands, hands.size, leader, np.array(trick, dtype=np.int64), trump, mode, flags,
                       sum(1 << s for s in set(maxside)), sum(1 << s for s in set(counted)), last_led, exempt,
                       count_tricks, keys, bounds))
