"""Three-player Pinochle from the auction to the score: legal moves, trick winner and counters
(numba kernels on hand masks), random and greedy play-out of many deals, the auction state machine,
kitty, discard and trump, the score of a hand, the end of the game and its money settlement.

Rules: shared/rules/pinochle3.md §4 (auction, kitty, trump), §5 (play, R5.1-R5.6), §6 (scoring,
R6.1-R6.7), §8 A1-A9, A15, A21. Points are in the main game's units (a counter is 10); the
÷10 variant (V12) scales results outside this module.

Encoding as in `simcore.games.pinochle3`: ``card = 2 * face + copy``, ``face = 6 * suit + rank``
(ranks 9 J Q K 10 A weakest first), so suit ``s`` owns the 12 bits ``12 * s .. 12 * s + 11`` of a
``uint64`` hand mask and a card's rank is ``(card // 2) % 6``. A trick is a (3,) int64 array of
cards in play order, the first ``count`` of them played; seats 0-2 clockwise.

Legal moves (R5.2): follow suit, else trump, else anything; then the duty to head the trick picks,
among those candidates, the cards that beat the card holding the trick, when there are any. The
play rules (option ``play_rule``) differ only in when that duty applies and what it asks:

* `OLD` (default): always; "beat" means become the trick's winner (R5.3).
* `OLD_STRICT` (A2): following suit, beat the highest card of the suit led even when the trick
  has been trumped; void, overtrump if you can.
* `NEW1945` (V8, A1 (i)): only when trumps are led.
* `NEW1945_ALT` (A1 (ii)): only when following suit; void, any trump (never forced to overtrump).

Beating is strict, so of two identical cards the first played holds the trick (R5.4).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.config import njit, njit_inline
from simcore import checks
from simcore.errors import CardsimError, did_you_mean
from simcore.games.pinochle3 import (
    DECK,
    FACE_POINTS,
    HAND_SIZE,
    KING,
    KITTY_SIZE,
    LAST_TRICK_BONUS,
    N_RANKS,
    N_SUITS,
    QUEEN,
    SEATS,
    rule_options,
)
from simcore.tricks import lowest_card, popcount, suit_bits

CARDS_PER_SUIT = N_RANKS * DECK.copies
SUITS = suit_bits(N_SUITS, CARDS_PER_SUIT)
"""(4,) uint64: the 12 cards of every suit."""
COUNTER_POINTS = 10
"""Trick points of every counter, A 10 K (R1.3)."""
COUNTERS = np.uint64(sum(1 << c for c in range(DECK.n_cards) if FACE_POINTS[DECK.face_of(c)]))
"""Mask of the 24 counters."""
TRICKS = HAND_SIZE
DECISIONS = SEATS * TRICKS
"""Cards played (and uniform numbers read by the random policy) in one hand."""

OLD, OLD_STRICT, NEW1945, NEW1945_ALT = range(4)
PLAY_RULES = {"old": OLD, "old_strict": OLD_STRICT, "new1945": NEW1945, "new1945_alt": NEW1945_ALT}
RANDOM, GREEDY = 0, 1
POLICIES = {"random": RANDOM, "greedy": GREEDY}
_ONE = np.uint64(1)
_NONE = np.uint64(0)


# --- legal moves and the trick winner (R5.2-R5.4) ----------------------------------------------
@njit_inline
def _above(card):
    """Mask of the cards of ``card``'s suit of strictly higher rank (both copies)."""
    return SUITS[card // CARDS_PER_SUIT] & ~((_ONE << np.uint64(2 * (card // 2 + 1))) - _ONE)


@njit_inline
def _beaters(card, trump):
    """Mask of the cards that beat ``card`` holding a trick: higher cards of its suit, and every
    trump when it is not a trump (the spec's ``beats``; an identical card does not beat it)."""
    if card // CARDS_PER_SUIT == trump:
        return _above(card)
    return _above(card) | SUITS[trump]


@njit_inline
def winning_slot(trick, count, trump):
    """Slot (0 = leader) of the card holding the first ``count`` >= 1 cards of ``trick`` (R5.3, R5.4)."""
    win = 0
    for i in range(1, count):
        if (_beaters(trick[win], trump) >> np.uint64(trick[i])) & _ONE:
            win = i
    return win


@njit_inline
def _top_of_led_suit(trick, count):
    """The highest card of the suit led among the first ``count`` cards (the first of two identical)."""
    top = trick[0]
    for i in range(1, count):
        if (_above(top) >> np.uint64(trick[i])) & _ONE:
            top = trick[i]
    return top


@njit_inline
def _duty(trick, count, trump, rule, following):
    """Cards the duty to head the trick asks for under ``rule`` (mask; empty when there is none)."""
    winner = trick[winning_slot(trick, count, trump)]
    if rule == OLD:
        return _beaters(winner, trump)
    if rule == OLD_STRICT:
        return _above(_top_of_led_suit(trick, count)) if following else _beaters(winner, trump)
    if rule == NEW1945:
        return _beaters(winner, trump) if trick[0] // CARDS_PER_SUIT == trump else _NONE
    return _beaters(winner, trump) if following else _NONE


@njit_inline
def legal_cards(hand, trick, count, trump, rule):
    """Legal cards (uint64 mask) of ``hand`` to a trick holding ``count`` cards (0: leading)."""
    if count == 0:
        return hand
    follow = hand & SUITS[trick[0] // CARDS_PER_SUIT]
    trumps = hand & SUITS[trump]
    cand = follow if follow else (trumps if trumps else hand)
    win = cand & _duty(trick, count, trump, rule, follow != _NONE)
    return win if win else cand


@njit
def _legal_many(hands, tricks, counts, trumps, rule, out):
    for i in range(hands.shape[0]):
        out[i] = legal_cards(hands[i], tricks[i], counts[i], trumps[i], rule)
    return out


def play_rule(name: str) -> int:
    """Kernel code of a ``play_rule`` option value; CardsimError for an unknown one."""
    if not isinstance(name, str) or name not in PLAY_RULES:
        raise CardsimError(f"unknown play rule '{name}' (--rule, option play_rule){did_you_mean(name, PLAY_RULES)}; "
                           f"choose one of: {', '.join(PLAY_RULES)}")
    return PLAY_RULES[name]


def legal_masks(hands, tricks, counts, trumps, rule: str = "old") -> np.ndarray:
    """Legal cards of many positions: hands (n,) uint64, tricks (n, 3) int64 cards in play order,
    counts (n,) int64 cards played so far (0-2), trumps (n,) int64 -> (n,) uint64 masks."""
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.empty(hands.shape[0], dtype=np.uint64)
    return _legal_many(hands, np.asarray(tricks, dtype=np.int64), np.asarray(counts, dtype=np.int64),
                       np.asarray(trumps, dtype=np.int64), play_rule(rule), out)


@njit
def _winners_many(tricks, trumps, out):
    for i in range(tricks.shape[0]):
        out[i] = winning_slot(tricks[i], SEATS, trumps[i])
    return out


def trick_winners(tricks, trumps) -> np.ndarray:
    """Winning slot (0 = leader) of many complete tricks: tricks (n, 3) int64, trumps (n,) -> (n,) int64."""
    tricks = np.asarray(tricks, dtype=np.int64)
    return _winners_many(tricks, np.asarray(trumps, dtype=np.int64), np.empty(tricks.shape[0], dtype=np.int64))


def card_points(cards_mask) -> int:
    """Trick points of the counters in a card mask (R1.3): 10 per A, 10 and K, e.g. of the discards."""
    return COUNTER_POINTS * bin(int(cards_mask) & int(COUNTERS)).count("1")


# --- policies -----------------------------------------------------------------------------------
@njit
def _greedy_key(card, trump, mode):
    """Greedy's order, lowest chosen first. mode 0 (leading): the highest rank, a trump before a
    plain card of that rank; 1 (a card can take the trick): the lowest such card, plain ranks below
    trumps; 2 (no card can): the cheapest card, losers before counters, then as in mode 1."""
    rank = (card // 2) % N_RANKS
    is_trump = card // CARDS_PER_SUIT == trump
    if mode == 0:
        return -(2 * rank + is_trump)
    height = rank + N_RANKS * is_trump
    if mode == 1:
        return height
    return height + 2 * N_RANKS * ((COUNTERS >> np.uint64(card)) & _ONE != _NONE)


@njit
def _greedy(legal, trick, count, trump):
    """The greedy policy's card: the first legal card of lowest `_greedy_key` (ties: lowest index).

    Greedy plays every trick for itself and looks only at its hand and the trick: it leads its
    highest card, takes the trick as cheaply as it can, and otherwise throws its cheapest card.
    As it heads the trick whenever it can, it plays alike under every rule but ``old_strict``.
    """
    mode = 0
    if count:
        winning = legal & _beaters(trick[winning_slot(trick, count, trump)], trump)
        mode = 1 if winning else 2
        legal = winning if winning else legal
    best, best_key = -1, 0
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        key = _greedy_key(card, trump, mode)
        if best < 0 or key < best_key:
            best, best_key = card, key
    return best


@njit
def _nth_card(legal, u):
    """The legal card of index floor(u * number of legal cards) in card order; u in [0, 1)."""
    for _ in range(np.int64(u * popcount(legal))):
        legal &= legal - _ONE
    return lowest_card(legal)


@njit
def _choose(policy, hand, trick, count, trump, rule, u):
    """Card ``policy`` plays from ``hand``; the random policy is uniform over the legal physical cards."""
    legal = legal_cards(hand, trick, count, trump, rule)
    if policy == GREEDY:
        return _greedy(legal, trick, count, trump)
    return _nth_card(legal, u)


@njit
def _choose_many(policy, hands, tricks, counts, trumps, rule, u, out):
    for i in range(hands.shape[0]):
        out[i] = _choose(policy, hands[i], tricks[i], counts[i], trumps[i], rule, u[i])
    return out


def choose(policy: str, hands, tricks, counts, trumps, rule: str = "old", u=None) -> np.ndarray:
    """Cards ``policy`` ("random" or "greedy") plays in many positions: hands (n,) uint64 non-empty masks, tricks
    (n, 3) int64 in play order, counts (n,) int64 cards played so far (0-2), trumps (n,) int64, u (n,) uniforms in
    [0, 1) for "random". Returns (n,) int64 cards. The arguments are checked (CardsimError)."""
    code = policy_codes(policy)[0]
    hands, tricks, counts = checks.trick_positions(hands, tricks, counts, DECK.n_cards, SEATS, HAND_SIZE)
    n = hands.size
    trumps = checks.column(trumps, n, "trumps (suit indices 0-3, S H D C)", N_SUITS)
    checks.draws_given(u, code == RANDOM, "one random number in [0, 1) per position")
    u = np.zeros(n) if u is None else checks.uniforms(u, "u", n)[:n]
    return _choose_many(code, hands, tricks, counts, trumps, play_rule(rule), u,
                        np.empty(n, dtype=np.int64))


# --- play-out -----------------------------------------------------------------------------------
@njit
def _play_hand(policies, hands, trump, leader, rule, u, points, counters, line):
    """Play the 15 tricks of one hand (R5.1, R5.6), seat s following ``policies[s]``.

    hands (3,) uint64 (emptied); u (DECISIONS,) uniforms; points (3,) int64 receives trick points
    with the last-trick bonus (discards not included), counters (3,) int64 the counters taken in
    tricks, line (DECISIONS,) int64 the cards in play order. Returns the winner of the last trick.
    """
    trick = np.empty(SEATS, dtype=np.int64)
    points[:] = 0
    counters[:] = 0
    k = 0
    for _ in range(TRICKS):
        taken = _NONE
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            card = _choose(policies[seat], hands[seat], trick, count, trump, rule, u[k])
            hands[seat] &= ~(_ONE << np.uint64(card))
            taken |= _ONE << np.uint64(card)
            trick[count] = line[k] = card
            k += 1
        leader = (leader + winning_slot(trick, SEATS, trump)) % SEATS
        n = popcount(taken & COUNTERS)
        counters[leader] += n
        points[leader] += COUNTER_POINTS * n
    points[leader] += LAST_TRICK_BONUS
    return leader


@njit
def _play_many(policies, hands, trumps, leaders, rule, u, points, counters):
    line = np.empty(DECISIONS, dtype=np.int64)
    for i in range(hands.shape[0]):
        _play_hand(policies, hands[i].copy(), trumps[i], leaders[i], rule, u[i], points[i], counters[i], line)


def policy_codes(policy) -> np.ndarray:
    """(3,) int64 policy codes of one policy name for every seat or three names, seat by seat."""
    names = (policy,) * SEATS if isinstance(policy, str) else tuple(policy)
    unknown = [p for p in names if p not in POLICIES]
    if len(names) != SEATS or unknown:
        raise CardsimError(f"policy must be one of {', '.join(POLICIES)} or three of them, got {policy!r}")
    return np.array([POLICIES[p] for p in names], dtype=np.int64)


def checked_deals(policy, hands, trumps, leaders, u, one_deal: bool = False):
    """Checked arrays of a batch of deals to play (CardsimError otherwise): (3,) policy codes (`policy_codes`);
    hands (n, 3) uint64 of 15 cards each, no card held twice; trumps, leaders (n,) int64 suits 0-3 and seats 0-2;
    u (n, DECISIONS) uniforms in [0, 1), which the random policy needs. With ``one_deal`` the arguments are one
    deal's (hands (3,), u (DECISIONS,)), returned as a batch of one."""
    codes = policy_codes(policy)
    shape = checks.shape_of(hands)
    draws = (DECISIONS,) if one_deal else (shape[0] if shape else 0, DECISIONS)
    checks.draws_given(u, RANDOM in codes, f"{DECISIONS} random numbers in [0, 1) per deal")
    if u is not None and checks.shape_of(u) != draws:
        raise CardsimError(f"u must hold {DECISIONS} random numbers in [0, 1) per deal, shape {draws}; got shape "
                           f"{checks.shape_of(u)}")
    if one_deal:
        hands, trumps, leaders, u = np.asarray(hands)[None], [trumps], [leaders], None if u is None else [u]
    hands = checks.hand_masks(hands, "hands", DECK.n_cards, SEATS, (HAND_SIZE,), rows=True, empty=not one_deal)
    n = hands.shape[0]
    trumps = checks.column(trumps, n, "trump (a suit index 0-3, S H D C)", N_SUITS)
    leaders = checks.column(leaders, n, "the leader (a seat 0-2)", SEATS)
    u = np.zeros((n, DECISIONS)) if u is None else checks.uniform_rows(u, "u", n, DECISIONS)
    return codes, hands, trumps, leaders, u


def play_out(policy, hands, trumps, leaders, rule: str = "old", u=None) -> tuple[np.ndarray, np.ndarray]:
    """Play many hands out: ((n, 3) int64 trick points per seat with the last-trick bonus, discards
    not included; (n, 3) int64 counters taken in tricks).

    policy: "random", "greedy" or three names by seat; hands (n, 3) uint64 of 15 cards; trumps,
    leaders (n,) int64 (the bidder leads trick 1, R5.1); u (n, DECISIONS) float64 uniforms in
    [0, 1) read by the random policy, one per card played. The arguments are checked (CardsimError);
    `trusted_play_out` skips that.
    """
    codes, hands, trumps, leaders, u = checked_deals(policy, hands, trumps, leaders, u)
    return trusted_play_out(codes, hands, trumps, leaders, play_rule(rule), u)


def trusted_play_out(codes, hands, trumps, leaders, rule: int, u) -> tuple[np.ndarray, np.ndarray]:
    """`play_out` without its checks, for the engine's own deals: codes (3,) int64 (`policy_codes`), hands (n, 3)
    uint64 (not changed), trumps and leaders (n,) int64, rule a `play_rule` code, u (n, DECISIONS) float64."""
    points = np.empty(hands.shape, dtype=np.int64)
    counters = np.empty(hands.shape, dtype=np.int64)
    _play_many(codes, hands, trumps, leaders, rule, u, points, counters)
    return points, counters


def play_line(policy, hands, trump: int, leader: int, rule: str = "old", u=None) -> list[tuple[int, int]]:
    """The (seat, card) sequence of one hand's play-out; hands (3,) uint64 of 15 cards; u (DECISIONS,) uniforms
    in [0, 1) for the random policy. The arguments are checked (CardsimError); `trusted_play_line` skips that."""
    codes, hands, trumps, leaders, u = checked_deals(policy, hands, trump, leader, u, one_deal=True)
    return trusted_play_line(codes, hands[0], int(trumps[0]), int(leaders[0]), play_rule(rule), u[0])


def trusted_play_line(codes, hands, trump: int, leader: int, rule: int, u) -> list[tuple[int, int]]:
    """`play_line` without its checks, for the engine's own deals: codes (3,) int64 policy codes (`policy_codes`),
    hands (3,) uint64 (not changed), rule a `play_rule` code, u (DECISIONS,) float64."""
    line = np.empty(DECISIONS, dtype=np.int64)
    points, counters = np.empty(SEATS, dtype=np.int64), np.empty(SEATS, dtype=np.int64)
    _play_hand(codes, hands.copy(), trump, leader, rule, u, points, counters, line)
    out, trick = [], np.empty(SEATS, dtype=np.int64)
    for start in range(0, DECISIONS, SEATS):
        trick[:] = line[start:start + SEATS]
        out += [((leader + i) % SEATS, int(c)) for i, c in enumerate(trick)]
        leader = (leader + int(winning_slot(trick, SEATS, trump))) % SEATS
    return out


# --- auction, kitty, discard and trump (R4.2-R4.8) -----------------------------------------------------
@dataclass(frozen=True)
class Auction:
    """An auction (R4.2): the dealer, the calls so far as (seat, bid, or None for a pass), the
    standing bid and its bidder, the seats that passed, and the seat to speak (None when over)."""

    dealer: int
    calls: tuple[tuple[int, int | None], ...] = ()
    high: int | None = None
    high_bidder: int | None = None
    passed: frozenset = frozenset()
    to_speak: int | None = None

    @property
    def thrown_in(self) -> bool:
        """All three passed: no score, the deal passes left (R4.5)."""
        return len(self.passed) == SEATS


def start_auction(dealer: int) -> Auction:
    """A new auction; the dealer's left (the next seat clockwise) speaks first (R4.2a)."""
    if dealer not in range(SEATS):
        raise CardsimError(f"the dealer is seat 0, 1 or 2, got {dealer}")
    return Auction(dealer, to_speak=(dealer + 1) % SEATS)


def lowest_bid(opts: dict) -> int:
    """The smallest opening bid: ``min_bid``, or one step without a minimum (V1)."""
    return opts["min_bid"] or opts["bid_step"]


def _forced_bid(auction: Auction, seat: int, opts: dict) -> int | None:
    """The bid ``seat`` must make now under V2 (``forced_open``) or V3 (``dealer_stuck``), if any (A21)."""
    opening = opts["forced_open"] and not auction.calls
    stuck = opts["dealer_stuck"] and seat == auction.dealer and auction.high is None and len(auction.passed) == 2
    return lowest_bid(opts) if opening or stuck else None


def _check_call(auction: Auction, seat: int, bid: int | None, opts: dict) -> None:
    """Raise CardsimError unless ``seat`` may make the call ``bid`` (None: pass) now."""
    if auction.to_speak is None:
        raise CardsimError("the auction is over; no more calls")
    if seat != auction.to_speak:
        why = "has passed and is out of the auction (R4.2d)" if seat in auction.passed else "is out of turn"
        raise CardsimError(f"seat {seat} {why}; seat {auction.to_speak} speaks now")
    forced = _forced_bid(auction, seat, opts)
    if forced is not None and bid != forced:
        raise CardsimError(f"seat {seat} must bid exactly {forced} now (forced_open V2 / dealer_stuck V3, A21)")
    if bid is None:
        return
    if not isinstance(bid, (int, np.integer)) or isinstance(bid, bool):
        raise CardsimError(f"a bid is a whole number of points or None for a pass, got {bid!r}")
    step, lowest = opts["bid_step"], lowest_bid(opts)
    if bid % step:
        raise CardsimError(f"bid {bid} is not a multiple of {step} (R4.2b)")
    if auction.high is None and bid < lowest:
        raise CardsimError(f"bid {bid} is below the minimum bid {lowest} (R4.2a)")
    if auction.high is not None and bid <= auction.high:
        raise CardsimError(f"bid {bid} does not exceed the standing bid {auction.high} (R4.2c)")


def call(auction: Auction, seat: int, bid: int | None, options: dict | None = None) -> Auction:
    """The auction after ``seat`` passes (bid None) or bids ``bid`` (R4.2 state machine).

    Options: ``min_bid`` (None: any multiple of the step), ``bid_step``, ``forced_open``,
    ``dealer_stuck``. An illegal call raises CardsimError with a one-line reason. The auction is
    over (``to_speak`` None) when all three passed or two passed and a bid stands.
    """
    _check_call(auction, seat, bid, rule_options(options))
    passed = auction.passed | {seat} if bid is None else auction.passed
    high, high_bidder = (auction.high, auction.high_bidder) if bid is None else (bid, seat)
    over = len(passed) == SEATS or (high is not None and len(passed) == SEATS - 1)
    nxt = (seat + 1) % SEATS
    while nxt in passed and not over:
        nxt = (nxt + 1) % SEATS
    return Auction(auction.dealer, auction.calls + ((seat, bid),), high, high_bidder, frozenset(passed),
                   None if over else nxt)


def run_auction(dealer: int, bids, options: dict | None = None) -> Auction:
    """The auction after the calls ``bids`` (bid or None per turn, in turn order from the dealer's left)."""
    auction = start_auction(dealer)
    for bid in bids:
        auction = call(auction, auction.to_speak, bid, options)
    return auction


def exchange(hand, kitty, discards) -> tuple[int, int]:
    """The bidder takes the kitty (shown to all, R4.7a) and buries 3 of his 18 cards (R4.7b).

    hand: 15-card mask, kitty: 3-card mask, discards: 3 physical cards from the 18.
    Returns (the 15 kept cards' mask, trick points of the discards credited to the bidder, R4.7c).
    """
    hand, kitty = int(hand), int(kitty)
    if bin(hand).count("1") != HAND_SIZE or bin(kitty).count("1") != KITTY_SIZE or hand & kitty:
        raise CardsimError(f"the bidder holds {HAND_SIZE} cards and the kitty {KITTY_SIZE} others")
    cards = [int(c) for c in discards]
    held = [0 <= c < DECK.n_cards and (hand | kitty) >> c & 1 for c in cards]
    if len(cards) != KITTY_SIZE or len(set(cards)) != KITTY_SIZE or not all(held):
        raise CardsimError("the bidder discards exactly 3 different cards of his 18 (R4.7b)")
    buried = DECK.mask(cards)
    return (hand | kitty) & ~buried, card_points(buried)


def name_trump(kept, trump: int, options: dict | None = None) -> int:
    """Check the bidder's trump (R4.8): any suit 0-3 (S H D C); with ``trump_requires_marriage``
    (A9) a suit in which his 15 kept cards hold a K and a Q."""
    if trump not in range(N_SUITS):
        raise CardsimError(f"trump must be a suit index 0-3 ({'/'.join(DECK.suits)}), got {trump}")
    if rule_options(options)["trump_requires_marriage"]:
        king, queen = (2 * (6 * trump + rank) for rank in (KING, QUEEN))
        if not (int(kept) >> king & 3 and int(kept) >> queen & 3):
            raise CardsimError(f"trump {DECK.suits[trump]} needs a marriage in the bidder's hand (A9)")
    return int(trump)


# --- scoring of a hand (R6.1-R6.3, R6.7) -------------------------------------------------------------
@dataclass(frozen=True)
class HandScore:
    """One hand's result: score change of seats 0-2 (points), money set units incurred by each seat
    (R6.6), whether the bidder made his contract (None when all three passed) and whether he conceded
    it (R4.10)."""

    delta: tuple[int, int, int]
    set_units: tuple[int, int, int]
    made: bool | None
    conceded: bool = False


ALL_PASS = HandScore((0, 0, 0), (0, 0, 0), None)
"""All three passed: the cards are thrown in, nobody scores (R4.5)."""


def _seats(seat: int, *per_seat) -> None:
    """Raise CardsimError unless ``seat`` is 0-2 and every list in ``per_seat`` has 3 values."""
    if seat not in range(SEATS) or any(len(v) != SEATS for v in per_seat):
        raise CardsimError(f"seats are 0, 1 or 2 and every per-seat list has {SEATS} values")


def _with(seat: int, value: int, others) -> tuple[int, int, int]:
    """``others`` (3 values) with ``value`` at ``seat``."""
    return tuple(value if s == seat else int(v) for s, v in enumerate(others))


def score_played(bid: int, bidder: int, melds, points, counters, options: dict | None = None) -> HandScore:
    """Score of a hand played out (R6.1-R6.3).

    melds (3,): declared meld per seat; points (3,): trick points P_i, the last trick and the
    bidder's discards included (R5.6); counters (3,): counters n_i taken in tricks (discards
    excluded). The bidder makes his bid with M_b + P_b >= bid and then scores both, otherwise loses
    the bid. A defender scores his trick points, and his meld only with a counter taken
    (``defender_needs_counter``; when the bidder is set too with ``defender_counter_rule_on_set``);
    without one he keeps a last-trick 10 only with ``defender_keeps_last_trick_without_counter``.
    ``bidder_needs_counter`` applies the same counter test to the bidder's meld.
    """
    _seats(bidder, melds, points, counters)
    opts = rule_options(options)
    meld_b = melds[bidder] if counters[bidder] or not opts["bidder_needs_counter"] else 0
    made = meld_b + points[bidder] >= bid
    counter_rule = opts["defender_needs_counter"] and (made or opts["defender_counter_rule_on_set"])
    delta = []
    for seat in range(SEATS):
        saved = counters[seat] > 0 or not counter_rule
        kept = points[seat] if saved or opts["defender_keeps_last_trick_without_counter"] else 0
        delta.append(kept + (melds[seat] if saved else 0))
    delta = _with(bidder, meld_b + points[bidder] if made else -bid, delta)
    return HandScore(delta, _with(bidder, 0 if made else opts["set_units"], (0,) * SEATS), made)


def score_conceded(bid: int, bidder: int, melds, options: dict | None = None) -> HandScore:
    """Bidder concedes before play (R4.10): he loses the bid, each defender scores his meld with no
    counter test; ``concede_units`` set units (R6.6, default 1)."""
    _seats(bidder, melds)
    units = rule_options(options)["concede_units"]
    return HandScore(_with(bidder, -bid, melds), _with(bidder, units, (0,) * SEATS), False, conceded=True)


def score_renege(bid: int, bidder: int, melds, offender: int, options: dict | None = None) -> HandScore:
    """A renege stops the hand (R6.7, A6, A7).

    The bidder reneges: he loses the bid (2 set units, R6.6), the defenders score their meld. A defender
    reneges: the bidder scores per ``renege_defender_bidder_award`` (bid + meld by default), the offender
    scores 0 and takes 1 set unit, the other defender scores his meld.
    """
    _seats(bidder, melds)
    if offender not in range(SEATS):
        raise CardsimError(f"the offender is seat 0, 1 or 2, got {offender}")
    if offender == bidder:
        return HandScore(_with(bidder, -bid, melds), _with(bidder, 2, (0,) * SEATS), False)
    award = {"bid_plus_meld": bid + melds[bidder], "bid": bid,
             "max_bid_meld": max(bid, melds[bidder])}[rule_options(options)["renege_defender_bidder_award"]]
    return HandScore(_with(bidder, award, _with(offender, 0, melds)), _with(offender, 1, (0,) * SEATS), True)


# --- end of the game (R6.5, V10) ----------------------------------------------------------------------
def game_winner(scores, bidder: int | None, made: bool, options: dict | None = None,
                hands: int | None = None, limit_broken: bool = False) -> int | None:
    """Winner (seat) after a completed hand (R2.5; ``bidder`` None when it was thrown in), or None to play another.

    R6.5: of the players at or above ``target``, the bidder wins if he made his contract, else the
    single highest (a tie plays on, A15). V10 (``neg_limit``, checked when nobody reached the
    target): a score strictly below the limit ends the game if some score is positive; the single
    highest score wins. With all scores negative play goes on until someone is positive, which then ends the
    game (``limit_broken``: a score fell below the limit in an earlier hand, even if it has climbed back
    since). A thrown-in hand changes no score, so neither rule ends a game there. V11
    (``n_hands``): the game ends once ``hands`` (completed hands so far, thrown-in deals included)
    reaches ``n_hands``, won by the single highest score; a tie plays on a hand at a time (A17).
    """
    opts = rule_options(options)
    if opts["n_hands"] is not None:
        if hands is None:
            raise CardsimError("game_winner: option n_hands (V11) ends the game by the hands played; give hands")
        return _single_top(scores, range(SEATS)) if hands >= opts["n_hands"] else None
    reached = [s for s in range(SEATS) if scores[s] >= opts["target"]]
    if reached:
        return bidder if bidder in reached and made else _single_top(scores, reached)
    if opts["neg_limit"] is not None and (limit_broken or min(scores) < opts["neg_limit"]) and max(scores) > 0:
        return _single_top(scores, range(SEATS))
    return None


def _single_top(scores, seats) -> int | None:
    """The one seat of ``seats`` with the highest score, or None on a tie."""
    top = max(scores[s] for s in seats)
    leaders = [s for s in seats if scores[s] == top]
    return leaders[0] if len(leaders) == 1 else None


def settle(winner: int, set_units, game_stake: float, set_stake: float) -> tuple[float, float, float]:
    """Money of a finished game, direct settlement (R6.6): each loser pays the winner the game stake
    plus the set stake per set unit he incurred. set_units (3,): units per seat over the game.
    Returns the net money per seat (the pot method nets out the same)."""
    _seats(winner, set_units)
    pays = [0 if s == winner else game_stake + set_stake * set_units[s] for s in range(SEATS)]
    return tuple(sum(pays) if s == winner else -pays[s] for s in range(SEATS))
