"""Perfect-information Monte Carlo (PIMC) play for the bidder in three-player Pinochle.

The bidder sees his own hand and his buried discards (spec shared/rules/pinochle3.md §4.7), the
defenders' melds (R3.9f: every melded card is public; ``melds_known``), the cards played so far
and nothing else; the defenders' other cards still out are known only as a set. At each of his turns
he deals that set to the two defenders at random, consistent with what their play has shown
(`exclusions`) and with their melds (each lays down exactly the cards he laid down, R3.9d;
`sample_shown`), ``samples`` times, and plays the card with the highest total value over the
samples. Knowing the melds is worth 2.8 points a hand to him (95% interval 2.3-3.3; 8,000 random whole
deals in two runs, his best trump, 4 worlds, the last 6 tricks solved, the same worlds' stream with and
without: +2.87 and +2.75) and costs 1.5x the time (3.1 s against 2.0 s for 4,000 hands on one core).
A card's value in a sample: the exact double-dummy value (`pinochle3_solve`) when at most ``dd_tricks``
tricks are left including the current one, else the points of a greedy play-out of the sample (every
seat greedy) from there.

The defenders see every card: they play greedily (`pinochle3_play`) in the first
``15 - dd_tricks`` tricks and perfectly in the last ``dd_tricks`` (each of their legal cards is
solved and the one that leaves the bidder least is played), the same defence as the "greedy, last
tricks double-dummy" fallback (`pinochle3_solve.policy_then_solve`), so the two compare directly.

What the defenders' play shows (R5.2, exact under every play rule): a defender who plays card c to
a trick could not have held any card of the cards his legal-move rule would have put before c: the
suit led when c is of another suit, trumps when c is neither led suit nor trump, and the cards
that head the trick among the suit c was chosen from (led suit, trumps or all) when c does not.
Each observation forbids a set of cards, so the worlds consistent with the play are exactly the
splits of the unseen cards that give each defender none of his forbidden cards: forced cards go to
the other defender, the rest are split uniformly (`sample_world`).

Encoding as in `simcore.games.pinochle3_play`: ``card = 2 * face + copy``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simcore.config import njit
from simcore import checks
from simcore.errors import CardsimError
from simcore.games.pinochle3 import SEATS, _face_counts, laid_faces, meld_cards, meld_values
from simcore.games.pinochle3_play import (
    CARDS_PER_SUIT,
    COUNTER_POINTS,
    COUNTERS,
    LAST_TRICK_BONUS,
    SUITS,
    TRICKS,
    _duty,
    _greedy,
    legal_cards,
    play_rule,
    winning_slot,
)
from simcore.games.pinochle3_solve import (BIDDER, N_PARAMS, RULE, STAMP, TRUMP, Table, _deals, _solve,
                                           checked_table, one_copy, table_bits)
from simcore.tricks import lowest_card, popcount

MAX_SAMPLES = 64
"""Most sampled worlds per decision (uniforms are drawn per deal for every one)."""
UNSEEN = 2 * TRICKS
"""Most cards the bidder cannot see (the defenders' 30 at the start): uniforms per sampled world."""
FACES = 48 // 2
"""Faces of the pack (two copies each, ``card = 2 * face + copy``)."""
MAX_TRIES = 1024
"""Most worlds `sample_shown` proposes for one sample before it keeps the last. At a hand's start (4,000 random
deals, the bidder's best trump) a median of 7 proposals are drawn, a mean of 30, about 0.45 us each; 0.22% of
the samples reach the limit (10% would with 64); later in the hand, with cards played, fewer."""
_ONE = np.uint64(1)
_NONE = np.uint64(0)
_ALL = ~np.uint64(0)


@njit
def exclusions(trick, count, trump, rule):
    """Cards a player cannot hold after playing ``trick[count]`` to the first ``count`` cards of
    ``trick`` (uint64 mask; module docstring)."""
    card = trick[count]
    if count == 0:
        return _NONE
    led = SUITS[trick[0] // CARDS_PER_SUIT]
    bit = _ONE << np.uint64(card)
    out = _NONE
    pool = led
    if not bit & led:
        out |= led
        pool = SUITS[trump]
        if not bit & SUITS[trump]:
            out |= SUITS[trump]
            pool = _ALL
    duty = _duty(trick, count, trump, rule, bool(bit & led))
    if not bit & duty:
        out |= duty & pool
    return out


@njit
def sample_world(unseen, sizes, forbidden, u):
    """Split the unseen cards into two defenders' hands: (hand of the first, hand of the second).

    unseen: uint64 mask of the defenders' cards; sizes (2,) their hand sizes; forbidden (2,) uint64
    cards each cannot hold (`exclusions`); u (>= popcount(unseen),) uniforms in [0, 1). Every split
    consistent with the sizes and the forbidden cards is equally likely (a random permutation of
    the free cards, the first ones to the first defender).
    """
    first = unseen & forbidden[1]
    second = unseen & forbidden[0]
    free = unseen & ~first & ~second
    cards = np.empty(UNSEEN, dtype=np.int64)
    n = 0
    while free:
        cards[n] = lowest_card(free)
        free &= free - _ONE
        n += 1
    for i in range(n - 1, 0, -1):  # Fisher-Yates with the given uniforms
        j = np.int64(u[i] * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    need = sizes[0] - popcount(first)
    for i in range(n):
        if i < need:
            first |= _ONE << np.uint64(cards[i])
        else:
            second |= _ONE << np.uint64(cards[i])
    return first, second


class _Melds(NamedTuple):
    """What the bidder knows of the defenders' melds (R3.9f) during one hand: ``on`` (False: nothing, the worlds
    ignore melds), shown (2, 24) int64 the copies of every face each defender laid down, played (2,) uint64 the
    cards each has played since, values the meld table (`pinochle3.meld_values`)."""

    on: bool
    shown: np.ndarray
    played: np.ndarray
    values: np.ndarray


@njit
def _lays(hand, shown, trump, values, counts, laid):
    """True if the dealt holding ``hand`` (uint64) lays down exactly the faces ``shown`` (24,) as meld under
    ``trump`` (`pinochle3.laid_faces`); counts, laid (24,) int64 scratch."""
    _face_counts(hand, counts)
    laid_faces(counts, trump, values, laid)
    for f in range(FACES):
        if laid[f] != shown[f]:
            return False
    return True


@njit
def sample_shown(unseen, sizes, forbidden, shown, played, trump, values, u):
    """`sample_world` consistent also with the melds the defenders laid down (R3.9f): (first hand, second hand,
    the proposals drawn).

    shown (2, 24) int64: the copies of every face each defender laid down (`pinochle3.laid_faces` of his dealt
    hand); played (2,) uint64: the cards each has played since; values: the meld table (`pinochle3.meld_values`);
    u (UNSEEN,) uniforms, which also seed the draws of further proposals. A world is consistent when each
    defender's dealt hand (his cards in it plus those he played) lays down exactly the faces he laid down (R3.9c,
    R3.9d: he declares all his meld, so no more and no other cards). Worlds are proposed with the laid copies still
    unplayed given to their defender and the rest split as `sample_world` does, and accepted by rejection: where
    one copy of a face was laid and its twin is free, a proposal that gives the twin to the same defender is
    accepted with probability 1/2 (it stands for one card-level world against the two of the twin elsewhere), so
    every consistent split is equally likely by faces (the laid copy is always the lower one free; copies play
    alike). After `MAX_TRIES` rejections the last proposal is kept (it holds the laid cards but may lay more)."""
    np.random.seed(np.int64(u[0] * 2147483647.0))
    free = unseen & ~forbidden[0] & ~forbidden[1]
    placed = np.zeros(2, dtype=np.uint64)  # laid copies given to each defender
    twins = _NONE  # free twins of a face laid once, its other copy placed
    for face in range(FACES):
        pair = np.uint64(3) << np.uint64(2 * face)
        open_ = free & pair
        left = open_
        for d in range(2):
            kept = unseen & forbidden[1 - d] & pair  # copies the play already gives him
            need = shown[d, face] - popcount(played[d] & pair) - popcount(kept)
            while need > 0 and left:
                bit = left & (~left + _ONE)
                placed[d] |= bit
                left ^= bit
                need -= 1
        if popcount(open_) == 2 and popcount(left) == 1:
            twins |= left
    bars = np.empty(2, dtype=np.uint64)
    bars[0], bars[1] = forbidden[0] | placed[1], forbidden[1] | placed[0]
    counts = np.empty(FACES, dtype=np.int64)
    laid = np.empty(FACES, dtype=np.int64)
    draws = u.copy()
    first, second = _NONE, _NONE
    for t in range(MAX_TRIES):
        if t:
            for i in range(draws.size):
                draws[i] = np.random.random()
        first, second = sample_world(unseen, sizes, bars, draws)
        accept = True
        m = twins
        while m and accept:
            bit = m & (~m + _ONE)
            m ^= bit
            pair = np.uint64(3) << np.uint64(2 * (lowest_card(bit) // 2))
            same = ((first & bit) != _NONE and (placed[0] & pair) != _NONE) or \
                ((second & bit) != _NONE and (placed[1] & pair) != _NONE)
            accept = not same or np.random.random() < 0.5
        if accept and _lays(first | played[0], shown[0], trump, values, counts, laid) \
                and _lays(second | played[1], shown[1], trump, values, counts, laid):
            return first, second, t + 1
    return first, second, MAX_TRIES


@njit
def _trick_end(trick, leader, trump, bidder, last):
    """(bidder's points from a complete trick, its winner)."""
    winner = (leader + winning_slot(trick, SEATS, trump)) % SEATS
    taken = (_ONE << np.uint64(trick[0])) | (_ONE << np.uint64(trick[1])) | (_ONE << np.uint64(trick[2]))
    points = COUNTER_POINTS * popcount(taken & COUNTERS) + (LAST_TRICK_BONUS if last else 0)
    return (points if winner == bidder else 0), winner


@njit
def _rollout(hands, trick, count, leader, trump, bidder, rule):
    """Bidder's points from the current trick (``count`` cards played) on, every seat greedy;
    hands (3,) uint64 and trick (3,) int64 are left as they are."""
    h = hands.copy()
    t = trick.copy()
    total = 0
    while True:
        for c in range(count, SEATS):
            seat = (leader + c) % SEATS
            card = _greedy(legal_cards(h[seat], t, c, trump, rule), t, c, trump)
            h[seat] &= ~(_ONE << np.uint64(card))
            t[c] = card
        last = not (h[0] | h[1] | h[2])
        points, leader = _trick_end(t, leader, trump, bidder, last)
        total += points
        if last:
            return total
        count = 0


@njit
def _value_after(hands, trick, count, leader, exact, params, keys, data):
    """Bidder's points from the trick in progress on, after ``trick[count - 1]`` was just played
    (``count`` 1-3 cards in the trick; hands already without it): exact (double-dummy) or greedy.
    params: the solver's (trump, rule, bidder, ...); keys, data: its transposition table."""
    trump, rule, bidder = params[TRUMP], params[RULE], params[BIDDER]
    points = 0
    if count == SEATS:
        last = not (hands[0] | hands[1] | hands[2])
        points, leader = _trick_end(trick, leader, trump, bidder, last)
        if last:
            return points
        count = 0
    if not exact:
        return points + _rollout(hands, trick, count, leader, trump, bidder, rule)
    out = np.uint64(0)
    for i in range(count):
        out |= _ONE << np.uint64(trick[i])
    hi = COUNTER_POINTS * popcount((hands[0] | hands[1] | hands[2] | out) & COUNTERS) + LAST_TRICK_BONUS
    return points + _solve(hands.copy(), trick, count, leader, params, keys, data, 0, hi)


@njit
def _pimc_card(hands, trick, count, leader, forbidden, samples, exact, u, params, keys, data, known):
    """The bidder's PIMC choice (module docstring); u (samples, UNSEEN) uniforms; ``known``: the defenders' melds
    as `_Melds` (its ``on`` False: the worlds ignore them)."""
    trump, rule, bidder = params[TRUMP], params[RULE], params[BIDDER]
    legal = legal_cards(hands[bidder], trick, count, trump, rule)
    greedy = _greedy(legal, trick, count, trump)
    cands = one_copy(legal)
    if popcount(cands) == 1:
        return lowest_card(cands)
    d1, d2 = (bidder + 1) % SEATS, (bidder + 2) % SEATS
    unseen = hands[d1] | hands[d2]
    sizes = np.array([popcount(hands[d1]), popcount(hands[d2])], dtype=np.int64)
    world = hands.copy()
    cards = np.empty(16, dtype=np.int64)
    totals = np.zeros(16, dtype=np.int64)
    n = 0
    m = cands
    while m:
        cards[n] = lowest_card(m)
        m &= m - _ONE
        n += 1
    for s in range(samples):
        if known.on:
            world[d1], world[d2], _ = sample_shown(unseen, sizes, forbidden, known.shown, known.played, trump,
                                                   known.values, u[s])
        else:
            world[d1], world[d2] = sample_world(unseen, sizes, forbidden, u[s])
        for i in range(n):
            world[bidder] = hands[bidder] & ~(_ONE << np.uint64(cards[i]))
            trick[count] = cards[i]
            totals[i] += _value_after(world, trick, count + 1, leader, exact, params, keys, data)
    best = 0
    for i in range(n):  # ties: the greedy card, then the lowest
        if cards[i] // 2 == greedy // 2:
            best = i
    for i in range(n):
        if totals[i] > totals[best]:
            best = i
    return cards[best]


@njit
def _defender_card(hands, trick, count, leader, seat, exact, params, keys, data):
    """A defender's card: greedy, or in the solved ending the one leaving the bidder least."""
    trump, rule = params[TRUMP], params[RULE]
    legal = legal_cards(hands[seat], trick, count, trump, rule)
    if not exact:
        return _greedy(legal, trick, count, trump)
    cands = one_copy(legal)
    best, best_value = -1, 1 << 20
    while cands:
        card = lowest_card(cands)
        cands &= cands - _ONE
        hands[seat] &= ~(_ONE << np.uint64(card))
        trick[count] = card
        value = _value_after(hands, trick, count + 1, leader, True, params, keys, data)
        hands[seat] |= _ONE << np.uint64(card)
        if value < best_value:
            best, best_value = card, value
    return best


@njit
def _pimc_hand(hands, leader, forbidden, samples, dd_tricks, u, params, keys, data, known):
    """Bidder's trick points from a trick start to the end of the hand (discards not included): the
    bidder plays by PIMC, the defenders as in the module docstring. hands (3,) uint64 of equal size
    (emptied); forbidden (2,) uint64 cards the defenders are known not to hold (updated); u
    (TRICKS, samples, UNSEEN) uniforms, row k for the k-th trick from the end; params: the
    solver's (trump, rule, bidder, ...); known: the defenders' melds (`_Melds`; its ``played`` is filled)."""
    trump, rule, bidder = params[TRUMP], params[RULE], params[BIDDER]
    trick = np.zeros(SEATS, dtype=np.int64)
    total = 0
    tricks = popcount(hands[0] | hands[1] | hands[2]) // SEATS
    for left in range(tricks, 0, -1):
        exact = left <= dd_tricks
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            if seat == bidder:
                card = _pimc_card(hands, trick, count, leader, forbidden, samples, exact, u[left - 1], params, keys,
                                  data, known)
            else:
                card = _defender_card(hands, trick, count, leader, seat, exact, params, keys, data)
            hands[seat] &= ~(_ONE << np.uint64(card))
            trick[count] = card
            if seat != bidder:
                forbidden[(seat - bidder) % SEATS - 1] |= exclusions(trick, count, trump, rule)
                known.played[(seat - bidder) % SEATS - 1] |= _ONE << np.uint64(card)
        points, leader = _trick_end(trick, leader, trump, bidder, left == 1)
        total += points
    return total


@njit
def _pimc_many(hands, leaders, forbidden, trumps, bidders, rule, samples, dd_tricks, u, keys, data, stamp, out,
               know_melds, shown, values):
    params = np.zeros(N_PARAMS, dtype=np.int64)
    for i in range(hands.shape[0]):
        params[:] = 0
        params[TRUMP], params[RULE], params[BIDDER], params[STAMP] = trumps[i], rule, bidders[i], stamp + i
        known = _Melds(know_melds, shown[i], np.zeros(2, dtype=np.uint64), values)
        out[i] = _pimc_hand(hands[i].copy(), leaders[i], forbidden[i].copy(), samples, dd_tricks, u[i], params, keys,
                            data, known)


def _defender_laid(hands, trumps, bidders, options) -> np.ndarray:
    """(n, 2, 24) int64: the copies of every face the defenders (seats bidder + 1, bidder + 2) lay down as meld
    (`pinochle3.meld_cards` of their hands under options' meld variants); CardsimError unless the hands are whole."""
    if (np.bitwise_count(hands) != TRICKS).any():
        raise CardsimError(f"the defenders' melds are known from whole hands of {TRICKS} cards (before the first "
                           "trick); give whole hands or leave melds_known off")
    rows = np.arange(hands.shape[0])
    laid = np.stack([meld_cards(hands[rows, (bidders + d) % SEATS], trumps, options) for d in (1, 2)], axis=1)
    faces = np.arange(FACES, dtype=np.uint64)
    return (((laid[..., None] >> (2 * faces)) & np.uint64(1)) + ((laid[..., None] >> (2 * faces + 1)) & np.uint64(1))
            ).astype(np.int64)


def pimc_points(hands, trumps, bidders, samples: int, dd_tricks: int, rng: np.random.Generator, rule: str = "old",
                table: Table | None = None, leaders=None, forbidden=None, melds_known: bool = False,
                options: dict | None = None) -> np.ndarray:
    """Bidder's trick points (discards not included) when he plays by PIMC (module docstring).

    hands (n, 3) uint64 of equal size at a trick start (15 cards: a whole hand); trumps, bidders
    (n,) int64; leaders (n,) int64 (default: the bidder, who leads trick 1, R5.1); samples: worlds
    per decision (1-64); dd_tricks: tricks solved exactly at the end (0-15); rng: the stream of the
    sampled worlds (n * 15 * samples * 30 uniforms are drawn); forbidden (n, 2) uint64: cards the
    bidder already knows the defenders (seats bidder + 1, bidder + 2) not to hold (default none); melds_known:
    the bidder saw the cards those defenders laid down as meld (R3.9f; from their hands under ``options``' meld
    variants; his worlds lay down exactly the same, `sample_shown`), only with whole hands (default False: the
    worlds ignore the melds). Returns (n,) int64.
    """
    if not checks.is_whole_number(samples) or not 1 <= samples <= MAX_SAMPLES:
        raise CardsimError(f"PIMC samples must be 1-{MAX_SAMPLES}, got {samples!r}")
    if not checks.is_whole_number(dd_tricks) or dd_tricks not in range(TRICKS + 1):
        raise CardsimError(f"the solved ending has 0-{TRICKS} tricks, got {dd_tricks!r}")
    samples, dd_tricks = int(samples), int(dd_tricks)
    if not isinstance(rng, np.random.Generator):
        raise CardsimError(f"rng must be a numpy Generator (np.random.default_rng(seed)), got {checks.shown(rng)}")
    melds_known = checks.flag(melds_known, "melds_known")
    hands, trumps, leaders_, bidders = _deals(hands, trumps, bidders if leaders is None else leaders, bidders)
    n = hands.shape[0]
    if forbidden is None:
        forbidden = np.zeros((n, 2), dtype=np.uint64)
    else:
        if checks.shape_of(forbidden) not in ((n, 2), (2,) if n == 1 else (n, 2)):
            raise CardsimError(f"forbidden must be ({n}, 2) card masks, one row per deal (the cards seats bidder + 1 "
                               f"and bidder + 2 do not hold), got shape {checks.shape_of(forbidden)}")
        try:  # any uint64 mask, such as the complement of a hand; the bits past the 48 cards are not read
            forbidden = checks.card_masks(forbidden, "forbidden", 64, disjoint=False)
        except CardsimError:
            raise CardsimError(f"forbidden must be non-negative integer card masks (bits 0-47 read), got "
                               f"{checks.shown(forbidden)}") from None
        forbidden = np.ascontiguousarray(np.broadcast_to(forbidden & np.uint64((1 << 48) - 1), (n, 2)))
        rows = np.arange(n)
        held = np.stack([hands[rows, (bidders + d) % SEATS] for d in (1, 2)], axis=1)
        if (forbidden & held).any():
            raise CardsimError("forbidden: a card the bidder is to know a defender does not hold is in that "
                               "defender's hand")
    shown = _defender_laid(hands, trumps, bidders, options) if melds_known else np.zeros((n, 2, FACES), np.int64)
    u = rng.random((n, TRICKS, samples, UNSEEN))
    table = checked_table(table) or Table(table_bits(dd_tricks))
    out = np.empty(n, dtype=np.int64)
    _pimc_many(hands, leaders_, forbidden, trumps, bidders, play_rule(rule), samples, dd_tricks, u, table.keys,
               table.data, table.stamps(n), out, melds_known, shown, meld_values(options))
    return out
