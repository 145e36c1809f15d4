"""Perlaggen trick play: legal plays with baptism, the trick winner, policies, play-out to the Spiel,
a double-dummy solver and the Spiel job.

Rules: shared/rules/perlaggen.md §2.2 (Perlaggen, precedence), §2.4-2.5 (effective card, trick
winner), §4 (baptism: B3 fixed, B5 following constraint, B6 leading, B7 tricks, B10 never
compulsory), §7.1-7.2 (play, Spiel at the third trick), §11.7 (policies). Seats 0-3 clockwise with
the dealer at seat 0, so seat 1 (team 1) leads trick 1; team = seat % 2 (team D = team 0).

Cards and identities are ``8 * suit + rank`` (simcore.games.perlaggen; the Weli is 32). A *play* is
a card and the identity it stands for: a natural card stands for itself; a Perlagg is baptised when
played (B1) and always is here, as A-06 has the simulator's policies do (a Perlagg may be named as itself,
B2, and keeps its precedence). The unnamed play of A-06 (its printed card with precedence 0) is not
modelled: it differs from the Perlagg named as itself when another Perlagg in the trick is baptised as
the same card (with hearts trump, L9, H7 unnamed, HO as H7, L8: seat 2 wins, named seat 1).
A play's trick key is ``tier * 256 + strength * 16 + prec`` (spec §11.8): tier 2 trump, 1 the led
suit (the suit of the first identity, B6), 0 other suits (never wins); the highest key wins (§2.5).

A position is ``hands (4,) uint64`` (cards still held), the current trick as ``tcards, tids (4,)
int64`` (cards and identities of the ``count`` plays made by ``leader`` and the next seats), and
``won (2,)`` tricks per team. Per deal the rules are ``pmask`` (uint64 mask of the Perlaggen) and
``prec (33,) int64`` (precedence per card, 0 for naturals), from `PlayRules` and the trump.

* Policies (`RANDOM` = R0, `GREEDY` = G1, `FIGURES` = G2 of §11.7, trick play only) choose a play
  from what a player sees: own hand, the trick so far, the trump; one uniform number per decision
  drives R0. G2 may also concede the Spiel at a trick boundary, from a table of win estimates by
  what the player sees (`win_odds`, `play_out(..., concede=)`).
* The double-dummy solver answers "does ``team`` take ``need`` tricks" with all hands known by an
  AND/OR alpha-beta search: plays tried in a static order (`_order`) with a killer play per ply
  first (`_search`; when that play is a natural card it is found and tried before the list is
  built, `_first_natural`), a transposition table at trick boundaries (from the second trick on
  under a relative-rank key, `_canon_key`) and after two plays of the first three tricks, sure tricks
  (`_sure_tricks`: top Perlaggen as trump Aces, net of the opponents' higher ones, and top natural
  trumps) at every trick boundary and for every last play of a trick, the last trick decided
  directly, the last two plays of the fourth trick valued without a move list (`_fourth_last_play`,
  `_fourth_third_play`), equivalent natural cards searched
  once when no other hand holds a Perlagg, Perlaggen
  of one hand with adjacent precedence searched once (`_distinct_perlaggen`), and a Perlagg's
  identities reduced to one per class that compares alike with everything the rest of the trick
  can bring (`_moves`).
"""

from __future__ import annotations

import functools
import itertools
import numbers
import threading
from dataclasses import dataclass

import numpy as np

from simcore import checks
from simcore.config import njit, njit_inline
from simcore.dealing import deal
from simcore.errors import CardsimError, is_whole_int, unknown_name
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.rng import BLOCK_DEALS, block_substream, block_words
from simcore.search import aligned_zeros, checked_table, table_rows, table_slot, unowned
from simcore.tricks import bit_extract_table, lowest_card, popcount

SEATS = 4
TRICKS = 5
SPIEL = 3
FOREHAND = 1
N_IDS = 33
WELI = 32
RANDOM, GREEDY, FIGURES = 0, 1, 2
POLICIES = {"random": RANDOM, "greedy": GREEDY, "g2": FIGURES}
POLICY_NAMES = {"random": "R0", "greedy": "G1", "g2": "G2"}
METHODS = ("dd",) + tuple(POLICIES)
PLAY_STREAM = 1
"""Sub-stream index (simcore.rng.block_substream) of the policies' random choices."""
DECISIONS = SEATS * TRICKS
"""Uniform numbers a play-out reads per deal (one per card played)."""
TABLE_BITS = 14
"""Transposition table entries per table: 2**TABLE_BITS (`new_table`)."""
MAX_MOVES = 5 + 5 * (N_IDS + 1)
"""Plays of one hand of at most 5 cards: every card, every identity of every Perlagg."""
_ONE = np.uint64(1)


def _suit_masks() -> np.ndarray:
    """(4,) uint64: the cards of each suit; bells include the Weli."""
    masks = np.array([0xFF << (8 * s) for s in range(4)], dtype=np.uint64)
    masks[3] |= np.uint64(1 << WELI)
    return masks


SUIT_MASKS = _suit_masks()


@functools.lru_cache(maxsize=None)
def _style_arrays(style: str) -> tuple[np.ndarray, np.ndarray]:
    """(pmasks (4,) uint64, precs (4, 33) int64) of a style; see `PlayRules`."""
    pmasks = np.zeros(4, dtype=np.uint64)
    precs = np.zeros((4, N_IDS), dtype=np.int64)
    for letter in P.trump_suits(style):
        t = P.DECK.suits.index(letter)
        faces = P.perlaggen(style, letter)
        pmasks[t] = np.uint64(P.DECK.mask(faces))
        for i, card in enumerate(faces):
            precs[t, card] = len(faces) - i
    return pmasks, precs


@dataclass(frozen=True)
class PlayRules:
    """The Perlaggen of each possible trump for one style, as kernel arrays.

    pmasks (4,) uint64: Perlagg mask per trump suit index (0 where that trump is impossible);
    precs (4, 33) int64: precedence per trump and card (0 for natural cards).
    """

    style: str = "innsbruck"

    def arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """Fresh copies of the style's (pmasks, precs), built once per style."""
        pmasks, precs = _style_arrays(self.style)
        return pmasks.copy(), precs.copy()

    def check_trump(self, trump: int) -> None:
        """CardsimError unless suit index ``trump`` can be trump in the style."""
        if P.DECK.suits[trump] not in P.trump_suits(self.style):
            raise CardsimError(f"trump {P.DECK.suits[trump]} is not possible in the {self.style} style; choose one "
                               f"of: {', '.join(P.trump_suits(self.style))}")


def checked_trump(trump, style: str) -> int:
    """``trump`` as a suit index 0-3 that ``style`` allows; CardsimError otherwise."""
    trump = checks.whole(trump, "trump", 0, 3)
    PlayRules(style).check_trump(trump)
    return trump


def _perlagg_mask(style: str, trump: int) -> int:
    """The Perlaggen of suit index ``trump`` in ``style`` as a card mask (what `check_trick` reads)."""
    return int(_style_arrays(style)[0][trump])


def _checked_trumps(trumps, n: int, style: str) -> np.ndarray:
    """``trumps`` as (n,) int64 suit indices that ``style`` allows; CardsimError otherwise."""
    allowed = np.flatnonzero(_style_arrays(style)[0])
    return checks.suit_indices(trumps, "trumps", n, allowed, f" (the trumps of the {style} style)")


def checked_hands(hands, rows: bool = False, sizes=range(TRICKS, TRICKS + 1), equal: bool = True) -> np.ndarray:
    """`checks.hand_masks` of the 33 cards, four seats (no deals is an empty batch)."""
    return checks.hand_masks(hands, "hands", N_IDS, SEATS, sizes, rows, equal, empty=True)


# --- identities, keys, legal plays ----------------------------------------------------------------
@njit_inline
def id_suit(identity):
    """Suit of an identity; the Weli (32) is a bell."""
    return 3 if identity == WELI else identity // 8


@njit_inline
def id_strength(identity):
    """Strength of an identity (§1.1): A 8 ... 7 1, the 6 0."""
    return 0 if identity == WELI else identity % 8 + 1


@njit_inline
def play_key(identity, prec, led, trump):
    """Trick key ``tier * 256 + strength * 16 + prec`` (§2.5, §11.8); led: suit led (-1: none)."""
    s = id_suit(identity)
    tier = 2 if s == trump else (1 if s == led else 0)
    return tier * 256 + id_strength(identity) * 16 + prec


@njit_inline
def legal_naturals(hand, pmask, led, trump):
    """(legal natural cards (uint64 mask), suits a Perlagg may be baptised in (4-bit mask)) of
    ``hand`` when ``led`` was led (-1: leading), spec §7.2; only *natural* cards of the led suit or
    trump create the obligations (A-05), and a Perlagg is never compulsory (B10)."""
    nat = hand & ~pmask
    if led < 0:
        return nat, 15
    nat_led = nat & SUIT_MASKS[led]
    nat_trump = nat & SUIT_MASKS[trump]
    if led != trump and nat_led:
        return nat_led | nat_trump, (1 << led) | (1 << trump)
    if led == trump and nat_trump:
        return nat_trump, 1 << trump
    return nat, 15


@njit
def _legal_plays(hand, pmask, led, trump, out):
    """All legal (card, identity) plays into out (MAX_MOVES, 2); returns how many."""
    naturals, ok = legal_naturals(hand, pmask, led, trump)
    n = 0
    m = naturals
    while m:
        c = lowest_card(m)
        m &= m - _ONE
        out[n, 0], out[n, 1] = c, c
        n += 1
    m = hand & pmask
    while m:
        c = lowest_card(m)
        m &= m - _ONE
        for b in range(N_IDS):
            if (ok >> id_suit(b)) & 1:
                out[n, 0], out[n, 1] = c, b
                n += 1
    return n


def legal_plays(hand: int, trick, trump: int, style: str = "innsbruck") -> set[tuple[int, int]]:
    """Legal (card, identity) plays of ``hand`` (uint64 mask of at most five cards) after the plays ``trick`` (list
    of (card, identity), in order): spec §7.2 with baptism at play (B5). CardsimError for arguments that are no such
    position (`trusted_legal_plays` plays without these checks)."""
    trump = checked_trump(trump, style)
    hand = int(checks.card_masks(hand, "hand", N_IDS))
    if popcount(np.uint64(hand)) > TRICKS:
        raise CardsimError(f"hand must hold at most {TRICKS} cards here (perlaggen_betting.legal_plays_long takes "
                           f"longer hands), got {popcount(np.uint64(hand))}")
    check_trick(trick, hand, _perlagg_mask(style, trump))
    return trusted_legal_plays(hand, trick, trump, style)


def trusted_legal_plays(hand: int, trick, trump: int, style: str = "innsbruck") -> set[tuple[int, int]]:
    """`legal_plays` without its argument checks, for the engines that call it once per card."""
    pmasks, _ = PlayRules(style).arrays()
    led = id_suit(trick[0][1]) if len(trick) else -1
    out = np.empty((MAX_MOVES, 2), dtype=np.int64)
    n = _legal_plays(np.uint64(hand), pmasks[trump], led, trump, out)
    return {(int(c), int(b)) for c, b in out[:n]}


@njit_inline
def _best_slot(tids, tcards, count, prec, trump):
    """(slot, key) of the play holding the trick after ``count`` >= 1 plays."""
    led = id_suit(tids[0])
    best, best_key = 0, play_key(tids[0], prec[tcards[0]], led, trump)
    for i in range(1, count):
        k = play_key(tids[i], prec[tcards[i]], led, trump)
        if k > best_key:
            best, best_key = i, k
    return best, best_key


@njit
def trick_winner(tcards, tids, leader, prec, trump):
    """Seat winning a complete trick (4 plays in order from ``leader``), spec §2.5."""
    return (leader + _best_slot(tids, tcards, SEATS, prec, trump)[0]) % SEATS


def trick_winner_of(plays, leader: int, trump: int, style: str = "innsbruck") -> int:
    """Seat winning the four (card, identity) ``plays`` led by ``leader``; CardsimError for arguments that are no
    such trick (`trusted_trick_winner_of` decides without these checks)."""
    trump = checked_trump(trump, style)
    leader = checks.whole(leader, "leader", 0, SEATS - 1)
    if not isinstance(plays, (list, tuple)) or len(plays) != SEATS:
        raise CardsimError(f"plays must be the {SEATS} (card, identity) plays of a trick, got {plays!r}")
    check_trick(plays, 0, _perlagg_mask(style, trump), "plays", SEATS)
    return trusted_trick_winner_of(plays, leader, trump, style)


def trusted_trick_winner_of(plays, leader: int, trump: int, style: str = "innsbruck") -> int:
    """`trick_winner_of` without its argument checks, for the engines that call it once per trick."""
    _, precs = PlayRules(style).arrays()
    cards = np.array([c for c, _ in plays], dtype=np.int64)
    ids = np.array([b for _, b in plays], dtype=np.int64)
    return int(trick_winner(cards, ids, leader, precs[trump], trump))


# --- policies (§11.7) -------------------------------------------------------------------------------
@njit_inline
def _height(card, trump):
    """Cheapness of a natural card: strength, with every trump above every plain card."""
    return id_strength(card) + (9 if id_suit(card) == trump else 0)


@njit_inline
def _lowest_identity(card, ok, prec, led, trump):
    """The identity in suits ``ok`` with the smallest key for Perlagg ``card`` (ties: smallest)."""
    best, best_key = -1, 0
    for b in range(N_IDS):
        if (ok >> id_suit(b)) & 1:
            k = play_key(b, prec[card], led, trump)
            if best < 0 or k < best_key:
                best, best_key = b, k
    return best


@njit_inline
def _winning_identity(card, ok, prec, led, trump, best_key):
    """The identity in suits ``ok`` with the smallest key above ``best_key``, or -1."""
    best, low = -1, 0
    for b in range(N_IDS):
        if (ok >> id_suit(b)) & 1:
            k = play_key(b, prec[card], led, trump)
            if k > best_key and (best < 0 or k < low):
                best, low = b, k
    return best


@njit_inline
def _by_prec(cards, prec, highest):
    """The Perlagg of mask ``cards`` with the highest (or lowest) precedence."""
    best = -1
    m = cards
    while m:
        c = lowest_card(m)
        m &= m - _ONE
        if best < 0 or (prec[c] > prec[best]) == highest:
            best = c
    return best


@njit
def _greedy_lead(hand, pmask, prec, trump):
    """G1 lead: >= 2 natural trumps -> the highest; else the lowest natural of the longest side suit
    (ties: lower suit); else the natural trump; else the top Perlagg as the trump Ace."""
    nat = hand & ~pmask
    nat_trump = nat & SUIT_MASKS[trump]
    side = nat & ~nat_trump
    if popcount(nat_trump) >= 2:
        c = lowest_card(nat_trump)
        m = nat_trump & (nat_trump - _ONE)
        while m:  # the last card of one suit is its highest
            c = lowest_card(m)
            m &= m - _ONE
        return c, c
    if side:
        longest, size = -1, 0
        for s in range(4):
            k = popcount(side & SUIT_MASKS[s])
            if k > size:
                longest, size = s, k
        c = lowest_card(side & SUIT_MASKS[longest])
        return c, c
    if nat_trump:
        c = lowest_card(nat_trump)
        return c, c
    return _by_prec(hand & pmask, prec, True), 8 * trump + 7


@njit
def _greedy_follow(hand, tcards, tids, count, pmask, prec, trump):
    """G1 following: see `naive_perlaggen_play.greedy_play`."""
    led = id_suit(tids[0])
    slot, best_key = _best_slot(tids, tcards, count, prec, trump)
    partner = count >= 2 and slot == count - 2
    naturals, ok = legal_naturals(hand, pmask, led, trump)
    per = hand & pmask
    cheap, cheap_id = -1, -1
    win, win_height = -1, 0
    m = naturals
    while m:
        c = lowest_card(m)
        m &= m - _ONE
        h = _height(c, trump)
        if cheap < 0 or h < _height(cheap, trump):
            cheap, cheap_id = c, c
        if play_key(c, 0, led, trump) > best_key and (win < 0 or h < win_height):
            win, win_height = c, h
    if cheap < 0:
        cheap = _by_prec(per, prec, False)
        cheap_id = _lowest_identity(cheap, ok, prec, led, trump)
    if partner:
        return cheap, cheap_id
    if win >= 0:
        return win, win
    for _ in range(popcount(per)):
        c = _by_prec(per, prec, False)
        per &= ~(_ONE << np.uint64(c))
        b = _winning_identity(c, ok, prec, led, trump, best_key)
        if b >= 0:
            return c, b
    return cheap, cheap_id


@njit
def _random_play(hand, tcards, tids, count, pmask, prec, trump, u):
    """R0: see `naive_perlaggen_play.random_play`."""
    led = id_suit(tids[0]) if count else -1
    naturals, ok = legal_naturals(hand, pmask, led, trump)
    legal = naturals | (hand & pmask)
    n = popcount(legal)
    k = np.int64(u * n)
    m = legal
    for _ in range(k):
        m &= m - _ONE
    card = lowest_card(m)
    if not (pmask >> np.uint64(card)) & _ONE:
        return card, card
    useful = np.empty(3, dtype=np.int64)
    useful[0] = 8 * trump + 7
    size = 1
    if count:
        b = _winning_identity(card, ok, prec, led, trump, _best_slot(tids, tcards, count, prec, trump)[1])
        if b >= 0 and b != useful[0]:
            useful[size] = b
            size += 1
    low = _lowest_identity(card, ok, prec, led, trump)
    if low != useful[0] and (size == 1 or low != useful[1]):
        useful[size] = low
        size += 1
    v = u * n - k
    return card, useful[np.int64(v * size)]


@njit
def _figure_identity(ok, prec, card, led, trump):
    """G2: the identity of a Perlagg played with no natural card left in hand, for the figures: an
    Ace (the rank a hand of only Perlaggen makes its Gleich of), of the allowed suits ``ok`` the one
    with the lowest trick key (ties: the lower suit)."""
    best, best_key = -1, 0
    for suit in range(4):
        if (ok >> suit) & 1:
            k = play_key(8 * suit + 7, prec[card], led, trump)
            if best < 0 or k < best_key:
                best, best_key = 8 * suit + 7, k
    return best


@njit
def _figures_follow(hand, tcards, tids, count, pmask, prec, trump):
    """G2 following (§11.7 "G1 plus figures"): G1 among the natural cards while the hand holds one
    (B10: the Perlaggen are kept for the figures); with only Perlaggen left, G1's card, baptised as
    G1 does when that wins the trick for the team, else as `_figure_identity`."""
    naturals = hand & ~pmask
    if naturals:
        return _greedy_follow(naturals, tcards, tids, count, pmask, prec, trump)
    card, identity = _greedy_follow(hand, tcards, tids, count, pmask, prec, trump)
    led = id_suit(tids[0])
    slot, best_key = _best_slot(tids, tcards, count, prec, trump)
    if not (count >= 2 and slot == count - 2) and play_key(identity, prec[card], led, trump) > best_key:
        return card, identity
    return card, _figure_identity(legal_naturals(hand, pmask, led, trump)[1], prec, card, led, trump)


@njit
def _choose(policy, hand, tcards, tids, count, pmask, prec, trump, u):
    """(card, identity) the ``policy`` plays from ``hand`` to the trick so far (G2 leads as G1)."""
    if policy == GREEDY or policy == FIGURES:
        if count == 0:
            return _greedy_lead(hand, pmask, prec, trump)
        if policy == FIGURES:
            return _figures_follow(hand, tcards, tids, count, pmask, prec, trump)
        return _greedy_follow(hand, tcards, tids, count, pmask, prec, trump)
    return _random_play(hand, tcards, tids, count, pmask, prec, trump, u)


def choose(policy: str, hand: int, trick, trump: int, u: float = 0.0, style: str = "innsbruck") -> tuple[int, int]:
    """(card, identity) ``policy`` ("random" = R0, "greedy" = G1, "g2" = G2) plays from ``hand`` (uint64 mask)
    after the (card, identity) plays ``trick``; u in [0, 1) drives R0. CardsimError for arguments that are no
    such position (`trusted_choose` plays without these checks)."""
    checks.one_of(policy, "Perlaggen policy", POLICIES)
    u = checks.probability(u, "u", below_one=True)
    trump = checked_trump(trump, style)
    hand = int(checks.card_masks(hand, "hand", N_IDS))
    if not hand:
        raise CardsimError("hand must hold at least one card (a mask of the cards held), got 0")
    check_trick(trick, hand, _perlagg_mask(style, trump))
    return trusted_choose(policy, hand, trick, trump, u, style)


def check_trick(trick, hand: int, pmask: int, what: str = "trick", most: int = SEATS - 1) -> None:
    """CardsimError naming ``what`` unless ``trick`` is at most ``most`` (card, identity) plays of cards 0-32 not in
    ``hand`` nor twice, each natural card (not in ``pmask``) standing for itself."""
    how = f"{what} must be up to {most} (card, identity) plays of cards 0-{N_IDS - 1}"
    if not isinstance(trick, (list, tuple)) or len(trick) > most:
        raise CardsimError(f"{how}, got {trick!r}")
    seen = hand
    for play in trick:
        if not (isinstance(play, (list, tuple)) and len(play) == 2
                and all(is_whole_int(x) and 0 <= x < N_IDS for x in play)):
            raise CardsimError(f"{how}, got the play {play!r}")
        card, identity = (int(x) for x in play)
        if (seen >> card) & 1:
            raise CardsimError(f"{what}: card {card} is played twice or still in the hand; each card is in one place")
        if identity != card and not (pmask >> card) & 1:
            raise CardsimError(f"{what}: card {card} is no Perlagg of this trump, so it stands for itself, "
                               f"not for {identity}")
        seen |= 1 << card


def trusted_choose(policy: str, hand: int, trick, trump: int, u: float = 0.0,
                   style: str = "innsbruck") -> tuple[int, int]:
    """`choose` without its argument checks, for the engines that call it once per card on positions they built."""
    pmasks, precs = PlayRules(style).arrays()
    tcards, tids = _trick_arrays(trick)
    c, b = _choose(POLICIES[policy], np.uint64(hand), tcards, tids, len(trick), pmasks[trump], precs[trump],
                   np.int64(trump), float(u))
    return int(c), int(b)


def _trick_arrays(trick) -> tuple[np.ndarray, np.ndarray]:
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    for i, (c, b) in enumerate(trick):
        tcards[i], tids[i] = c, b
    return tcards, tids


# --- play-out ---------------------------------------------------------------------------------
@njit
def _play_deal(policy, hands, trump, pmask, prec, leader, u, line, odds, concede, cells):
    """Play one deal out to the Spiel with ``policy`` for all four seats.

    hands (4,) uint64 (modified); u (DECISIONS,) uniforms; line (DECISIONS, 2) int64 receives the
    (card, identity) plays in order. Concession (G2, §11.7): at every trick boundary the seats, from
    the leader on, look up their estimate odds[`_view_cell`] of P(own team wins the Spiel); the
    first below ``concede`` gives the Spiel up for its team (§8.3; concede <= 0: never). cells
    (TRICKS, SEATS) int64, if it has rows, receives each seat's cell at each boundary (-1 after the
    end). Returns (winning team, tricks played, plays made).
    """
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    gone = np.uint64(0)
    played = 0
    cells[:] = -1
    while won[0] < SPIEL and won[1] < SPIEL:
        if concede > 0 or cells.shape[0]:
            for count in range(SEATS):
                seat = (leader + count) % SEATS
                cell = _view_cell(hands[seat], gone, won, seat, leader, pmask, prec, trump)
                if cells.shape[0]:
                    cells[won[0] + won[1], seat] = cell
                if odds[cell] < concede:
                    return 1 - seat % 2, won[0] + won[1], played
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            card, identity = _choose(policy, hands[seat], tcards, tids, count, pmask, prec, trump, u[played])
            hands[seat] &= ~(_ONE << np.uint64(card))
            gone |= _ONE << np.uint64(card)
            tcards[count], tids[count] = card, identity
            line[played, 0], line[played, 1] = card, identity
            played += 1
        leader = trick_winner(tcards, tids, leader, prec, trump)
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), won[0] + won[1], played


CELLS = 3 * 3 * 2 * 6 * 6 * 2
"""Cells of the G2 concession estimate (`_view_cell`)."""
ODDS_BLOCKS = 2
ODDS_SEED = 2024
"""The G2 estimate table is tallied from the deals as played of ODDS_BLOCKS whole blocks
(simcore.rng.BLOCK_DEALS deals each) of this fixed seed."""


@njit_inline
def _view_cell(hand, gone, won, seat, leader, pmask, prec, trump):
    """What ``seat`` knows at a trick boundary, as a cell index < CELLS: tricks of its team and of
    the other (0..2 each), whether its team leads, its Perlaggen (0..5), its natural trumps (0..5),
    and whether its top Perlagg is above every Perlagg it cannot see played (not in hand, not
    ``gone``: those may be in another hand)."""
    team = seat % 2
    hidden = pmask & ~hand & ~gone
    top = 0
    if hand & pmask:
        top = 1
        mine = prec[_by_prec(hand & pmask, prec, True)]
        m = hidden
        while m:
            c = lowest_card(m)
            m &= m - _ONE
            if prec[c] > mine:
                top = 0
    cell = (won[team] * 3 + won[1 - team]) * 2 + (1 if leader % 2 == team else 0)
    cell = cell * 6 + popcount(hand & pmask)
    cell = cell * 6 + popcount(hand & ~pmask & SUIT_MASKS[trump])
    return cell * 2 + top


@njit
def _play_out(policy, hands, trumps, pmasks, precs, leader, u, odds, concede, teams, lengths):
    line = np.empty((DECISIONS, 2), dtype=np.int64)
    cells = np.empty((0, SEATS), dtype=np.int64)
    for i in range(hands.shape[0]):
        t = trumps[i]
        teams[i], lengths[i], _ = _play_deal(policy, hands[i].copy(), t, pmasks[t], precs[t], leader, u[i], line,
                                             odds, concede, cells)


@njit
def _tally_cells(hands, trumps, pmasks, precs, leader, counts):
    """counts (CELLS, 2) += (times a seat was in the cell, times its team then won the Spiel) over
    G2 play-outs (no concession) of the deals hands (n, 4), trumps (n,)."""
    line = np.empty((DECISIONS, 2), dtype=np.int64)
    cells = np.empty((TRICKS, SEATS), dtype=np.int64)
    odds = np.ones(CELLS)
    u = np.zeros(DECISIONS)
    for i in range(hands.shape[0]):
        t = trumps[i]
        winner, _, _ = _play_deal(FIGURES, hands[i].copy(), t, pmasks[t], precs[t], leader, u, line, odds, 0.0,
                                  cells)
        for k in range(TRICKS):
            for seat in range(SEATS):
                if cells[k, seat] >= 0:
                    counts[cells[k, seat], 0] += 1
                    counts[cells[k, seat], 1] += seat % 2 == winner


def win_counts(style: str = "innsbruck") -> np.ndarray:
    """(CELLS, 2) int64, read-only: per cell of `_view_cell`, how often a seat was in it at a trick
    boundary and how often its team then won the Spiel, over G2 play-outs (no concession) of the
    deals as played of ODDS_BLOCKS blocks of seed ODDS_SEED. Built once per style (about 1 s)."""
    return _win_counts(checks.one_of(style, "Perlaggen style", P.STYLES))


@functools.lru_cache(maxsize=None)
def _win_counts(style: str) -> np.ndarray:
    rules = D.DealRules(style)
    counts = np.zeros((CELLS, 2), dtype=np.int64)
    for block in range(ODDS_BLOCKS):
        rows = D.deal_block(block_words(ODDS_SEED, block, BLOCK_DEALS, D.WORDS_PER_DEAL), rules)
        _tally_cells(np.ascontiguousarray(rows[:, :SEATS]), rows[:, D.TRUMP].astype(np.int64),
                     *PlayRules(style).arrays(), FOREHAND, counts)
    counts.flags.writeable = False
    return counts


def win_odds(style: str = "innsbruck") -> np.ndarray:
    """(CELLS,) float64, read-only: a G2 player's estimate of P(its team wins the Spiel) from what it
    sees at a trick boundary, (wins + 1) / (n + 2) of `win_counts`, so a cell seldom seen stays near
    1/2 (and a team never concedes there at a threshold below 1/2)."""
    return _win_odds(checks.one_of(style, "Perlaggen style", P.STYLES))


@functools.lru_cache(maxsize=None)
def _win_odds(style: str) -> np.ndarray:
    counts = _win_counts(style)
    odds = (counts[:, 1] + 1) / (counts[:, 0] + 2)
    odds.flags.writeable = False
    return odds


def check_concede(concede: float, policy: str) -> float:
    """The G2 concession threshold, checked: a number 0 <= concede < 1, and only with policy "g2"."""
    if not isinstance(concede, numbers.Real) or isinstance(concede, (bool, np.bool_)):
        raise CardsimError(f"concede (--concede-below) must be a number in [0, 1) such as 0.2, got "
                           f"{checks.shown(concede)}")
    if not 0 <= concede < 1:
        raise CardsimError(f"concede (--concede-below) {concede} is not a probability; give a value in [0, 1), "
                           "e.g. 0.2")
    if concede > 0 and policy != "g2":
        raise CardsimError(f"--concede-below applies to --spiel g2 only, not to '{policy}'; leave it out")
    return float(concede)


def _concession_odds(style: str, concede: float) -> np.ndarray:
    """(CELLS,) float64 win estimates the play-out kernels read for G2's concession (`win_odds`; ones when no
    team concedes), as a new writable array like `_tally_cells`' (a read-only one is another compiled version)."""
    return np.array(win_odds(style)) if concede > 0 else np.ones(CELLS)


def play_out(policy: str, hands, trumps, u=None, style: str = "innsbruck",
             leader: int = FOREHAND, concede: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Play many deals out to the Spiel with one policy for every seat.

    hands (n, 4) uint64: five cards per seat; trumps (n,) int64 suit indices; u (n, DECISIONS)
    float64 uniforms (read by "random"); concede: with "g2", a team gives the Spiel up when a
    player's estimate (`win_odds`) at a trick boundary is below it (0: never). Returns (winning
    team (n,) int64, tricks played (n,): 3..5, fewer after a concession). CardsimError for arguments
    that are no such deals (`trusted_play_out` plays without these checks).
    """
    checks.one_of(policy, "Perlaggen policy", POLICIES)
    hands = checked_hands(hands, rows=True)
    trumps = _checked_trumps(trumps, len(hands), style)
    checks.draws_given(u, policy == "random", f"{DECISIONS} random numbers in [0, 1) per deal")
    u = None if u is None else checks.uniform_rows(u, "u", len(hands), DECISIONS)
    return trusted_play_out(policy, hands, trumps, u, style, checks.whole(leader, "leader", 0, SEATS - 1), concede)


def trusted_play_out(policy: str, hands, trumps, u=None, style: str = "innsbruck",
                     leader: int = FOREHAND, concede: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """`play_out` without its argument checks (but concede's), for the jobs that play their own deals."""
    concede = check_concede(concede, policy)
    hands = np.asarray(hands, dtype=np.uint64)
    n = hands.shape[0]
    u = np.zeros((n, DECISIONS)) if u is None else np.asarray(u, dtype=np.float64)
    teams = np.empty(n, dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    odds = _concession_odds(style, concede)
    _play_out(POLICIES[policy], hands, np.asarray(trumps, dtype=np.int64), *PlayRules(style).arrays(), leader, u,
              odds, concede, teams, lengths)
    return teams, lengths


def play_line(policy: str, hands, trump: int, u=None, style: str = "innsbruck",
              leader: int = FOREHAND, concede: float = 0.0) -> list[tuple[int, int, int]]:
    """The (seat, card, identity) sequence of one deal's play-out; hands (4,) uint64; concede as
    in `play_out` (the line stops where a team gives the Spiel up)."""
    checks.one_of(policy, "Perlaggen policy", POLICIES)
    hands, trump = checked_hands(hands), checked_trump(trump, style)
    leader = checks.whole(leader, "leader", 0, SEATS - 1)
    concede = check_concede(concede, policy)
    checks.draws_given(u, policy == "random", f"{DECISIONS} random numbers in [0, 1)")
    u = np.zeros(DECISIONS) if u is None else checks.uniforms(u, "u", DECISIONS)
    line = np.empty((DECISIONS, 2), dtype=np.int64)
    pmasks, precs = PlayRules(style).arrays()
    odds = _concession_odds(style, concede)
    _, _, played = _play_deal(POLICIES[policy], np.array(hands, dtype=np.uint64), np.int64(trump), pmasks[trump],
                              precs[trump], leader, u, line, odds, concede, np.empty((0, SEATS), dtype=np.int64))
    return seated(line[:played], trump, style, leader)


def seated(plays, trump: int, style: str = "innsbruck", leader: int = FOREHAND) -> list[tuple[int, int, int]]:
    """(seat, card, identity) triples of (card, identity) plays given in order from a trick's lead."""
    out = []
    for start in range(0, len(plays), SEATS):
        trick = [(int(c), int(b)) for c, b in plays[start:start + SEATS]]
        out += [((leader + i) % SEATS, c, b) for i, (c, b) in enumerate(trick)]
        if len(trick) == SEATS:
            leader = trusted_trick_winner_of(trick, leader, trump, style)
    return out


def trick_winners_of(line, trump: int, style: str = "innsbruck") -> list[int]:
    """Seats winning the complete tricks of a (seat, card, identity) line that starts at a lead."""
    return [trusted_trick_winner_of([(c, b) for _, c, b in line[s:s + SEATS]], line[s][0], trump, style)
            for s in range(0, len(line) - SEATS + 1, SEATS)]


# --- double-dummy solver ----------------------------------------------------------------------
def new_table(bits: int = TABLE_BITS) -> tuple:
    """An empty transposition table of 2**bits entries in buckets of two: (entries (size, 4) uint64:
    key k1, key k2, tag, value per entry, 32 bytes, so a bucket is one cache line; counters (2,)
    int64: solves started, nodes searched). Entries are positions at trick boundaries and after two
    plays of a trick; a tag (`_tag`) holds the solve number, so entries of earlier solves are never
    read (a fresh entry's tag, 2**64 - 1, is none that `_search` writes). A bucket keeps its two
    newest entries. The default 2**14 entries (512 KB) stay in the cache."""
    entries = aligned_zeros(table_rows(bits, 2), 4)
    entries[:, 2] = np.uint64(2**64 - 1)
    return entries, np.zeros(2, dtype=np.int64)


def new_moves() -> np.ndarray:
    """Scratch of the search: (plies, 4, MAX_MOVES) int64 (card, identity, key, order per move)."""
    return np.empty((TRICKS * SEATS + 1, 4, MAX_MOVES), dtype=np.int64)


@njit_inline
def _push(moves, p, n, card, identity, key, order):
    """Insert a move into ply p's list of n moves, kept sorted by ``order`` descending."""
    j = n
    while j > 0 and moves[p, 3, j - 1] < order:
        for f in range(4):
            moves[p, f, j] = moves[p, f, j - 1]
        j -= 1
    moves[p, 0, j], moves[p, 1, j], moves[p, 2, j], moves[p, 3, j] = card, identity, key, order
    return n + 1


@njit_inline
def _order(key, count, best_key, partner, perlagg):
    """Static search order of a play, higher first (`_search` tries a ply's killer before it): leading,
    high keys (naturals first); following, the cheapest natural winner, then the highest Perlagg
    winner, then low losing cards."""
    if count == 0:
        return key - (1024 if perlagg else 0)
    if key > best_key and not partner:
        return 4096 + key if perlagg else 8192 - key
    return -key - (1024 if perlagg else 0)


_FAR = 1 << 20
"""A key above every trick key."""


@njit_inline
def _identity(suit, strength):
    """Identity of a suit and a strength (strength 0: the Weli)."""
    return WELI if strength == 0 else 8 * suit + strength - 1


@njit_inline
def _lowest_play(q, ok, led, trump):
    """(identity, key) of the lowest play of a Perlagg of precedence q baptised in suits ``ok``
    when ``led`` >= 0 was led: another suit (tier 0) if allowed, else the led suit, else trump;
    within it the lowest strength (the Weli's 0 in bells, else the 7)."""
    rest = ok & ~(1 << led) & ~(1 << trump)
    if rest:
        if (rest >> 3) & 1:
            return WELI, q
        s = 0
        while not (rest >> s) & 1:
            s += 1
        return 8 * s, 16 + q
    s = led if led != trump and (ok >> led) & 1 else trump
    strength = 0 if s == 3 else 1
    return _identity(s, strength), (512 if s == trump else 256) + 16 * strength + q


@njit_inline
def _later_facts(hands, seat, later, pmask, prec, led, trump, facts):
    """What the seats playing after ``seat`` in this trick can do, for the led suit ``led``.

    For the i-th later seat (i < later): facts[i, :facts[NKEYS, i]] the keys that split its options (its
    legal natural cards, and per Perlagg its lowest allowed key and its trump Ace key); facts[PRECS + i,
    :facts[NPER, i]] the precedences of its Perlaggen and facts[OKS, i] the suits they may take (B5).
    """
    for i in range(later):
        hand = hands[(seat + 1 + i) % SEATS]
        naturals, ok = legal_naturals(hand, pmask, led, trump)
        n = 0
        m = naturals
        while m:
            c = lowest_card(m)
            m &= m - _ONE
            facts[i, n] = play_key(c, 0, led, trump)
            n += 1
        k = 0
        m = hand & pmask
        while m:
            c = lowest_card(m)
            m &= m - _ONE
            facts[i, n] = _lowest_play(prec[c], ok, led, trump)[1]
            facts[i, n + 1] = play_key(8 * trump + 7, prec[c], led, trump)
            n += 2
            facts[PRECS + i, k] = prec[c]
            k += 1
        facts[NKEYS, i], facts[NPER, i], facts[OKS, i] = n, k, ok


NKEYS, OKS, NPER, PRECS = SEATS - 1, SEATS, SEATS + 1, SEATS + 2
OVER = PRECS + SEATS - 1
SIG = OVER + 2 * TRICKS
WORK_ROWS = SIG + 2
"""Rows of the `_new_work` array (WORK_ROWS, N_IDS) int64: per later seat i (< SEATS - 1) its splitting keys
in row i, their count in row NKEYS, the suits its Perlaggen may take in row OKS, how many Perlaggen in row
NPER and their precedences in row PRECS + i (`_later_facts`); two rows per Perlagg of a hand (at most
TRICKS) from OVER (`_overtakes`); the signature at SIG and the last one at SIG + 1 (`_signature`)."""


@njit_inline
def _below(key, facts, first, last):
    """Number of splitting keys of later seats first..last (`_later_facts`) below ``key``."""
    n = 0
    for i in range(first, last + 1):
        for j in range(facts[NKEYS, i]):
            n += facts[i, j] < key
    return n


@njit_inline
def _next_above(key, facts, first, last):
    """Smallest splitting key of later seats first..last (`_later_facts`) above ``key`` (`_FAR` if none)."""
    best = _FAR
    for i in range(first, last + 1):
        for j in range(facts[NKEYS, i]):
            if key < facts[i, j] < best:
                best = facts[i, j]
    return best


@njit_inline
def _next_below(key, facts, first, last):
    """Largest splitting key of later seats first..last (`_later_facts`) below ``key`` (-1 if none)."""
    best = -1
    for i in range(first, last + 1):
        for j in range(facts[NKEYS, i]):
            if best < facts[i, j] < key:
                best = facts[i, j]
    return best


@njit_inline
def _strength_room(base, smin, low, high):
    """True if some strength s in smin..8 puts ``base + 16 * s`` strictly between low and high."""
    s_lo = max(smin, (low - base) // 16 + 1)
    s_hi = min(8, (high - base - 1) // 16)
    return s_lo <= s_hi


@njit_inline
def _has_key(q, ok, led, trump, low, high):
    """True if a Perlagg of precedence q that may take the suits ``ok`` has an identity with key in (low, high):
    per tier, the strengths of its suits (0..8 with the bells' 6, else 1..8) are one range."""
    if _strength_room(512 + q, 0 if trump == 3 else 1, low, high):
        return True
    if led != trump and (ok >> led) & 1 and _strength_room(256 + q, 0 if led == 3 else 1, low, high):
        return True
    rest = ok & ~(1 << trump) & ~(1 << led)
    return rest != 0 and _strength_room(q, 0 if (rest >> 3) & 1 else 1, low, high)


@njit_inline
def _room(key, row, facts, led, trump):
    """Bit i set if the i-th Perlagg of later seat ``row`` can overtake ``key`` and stay below the
    next splitting key of the seat after it: it can then win without changing what that seat may do."""
    high = _next_above(key, facts, row + 1, row + 1)
    bits = 0
    for i in range(facts[NPER, row]):
        if _has_key(facts[PRECS + row, i], facts[OKS, row], led, trump, key, high):
            bits |= 1 << i
    return bits


@njit_inline
def _signature(key, later, facts, led, trump):
    """Fill facts[SIG, :8] with the class of a play of trick key ``key`` followed by ``later`` seats.

    Two keys with the same signature leave the later seats the same options with the same effects
    (spec §2.5 only compares keys): the number of splitting keys below (`_later_facts`), and how the
    later Perlaggen can overtake within the key's own class — the next seat's (``later`` = 2) or, for
    the leader, the second seat's at ``key`` and, per Perlagg of the next seat, the set of such
    patterns its overtaking keys within the class leave the second seat (``over``: `_overtakes`).
    """
    for f in range(8):
        facts[SIG, f] = 0
    facts[SIG, 0] = _below(key, facts, 0, later - 1)
    if later == 2:
        facts[SIG, 1] = _room(key, 0, facts, led, trump)
    elif later == 3:
        facts[SIG, 1] = _room(key, 1, facts, led, trump)
        high = _next_above(key, facts, 1, 2)
        for i in range(facts[NPER, 0]):
            seen = 0
            for j in range(N_IDS):
                k = facts[OVER + 2 * i, j]
                if k >= high:
                    break
                if k > key:
                    seen |= facts[OVER + 2 * i + 1, j]
            facts[SIG, 2 + i] = seen


@njit_inline
def _overtakes(facts, led, trump):
    """Fill rows OVER + 2 i (keys) and OVER + 2 i + 1 (bits) of ``facts`` (`_new_work`), per Perlagg i of
    the next seat: its distinct keys in the led suit and in trump (the only ones that can beat a lead),
    ascending and ended by `_FAR`, each with the bit 1 << `_room` of that key for the seat after it
    (`_signature` of the leader); needs `_later_facts` first."""
    for i in range(facts[NPER, 0]):
        q = facts[PRECS, i]
        j = 0
        for tier in range(1, 3):
            s = led if tier == 1 else trump
            if tier == 1 and (led == trump or not (facts[OKS, 0] >> led) & 1):
                continue
            for strength in range(0 if s == 3 else 1, 9):
                k = tier * 256 + strength * 16 + q
                facts[OVER + 2 * i, j] = k
                facts[OVER + 2 * i + 1, j] = 1 << _room(k, 1, facts, led, trump)
                j += 1
        facts[OVER + 2 * i, j] = _FAR


@njit
def _new_work():
    """Work space of `_moves`, one (WORK_ROWS, N_IDS) int64 array (one array argument costs the
    inlined search less reference counting than several): rows 0..8 `_later_facts`, rows OVER..
    `_overtakes` (row OVER + 2 i + f is its ``over[i, f]``), row SIG a `_signature` and row SIG + 1
    the last one."""
    return np.empty((WORK_ROWS, N_IDS), dtype=np.int64)


@njit_inline
def _next_held(card, hand, present):
    """The next natural card above natural ``card`` in its suit among ``present`` (a mask) if ``hand``
    holds it, else -1: of two such cards `_moves` lists only the higher (`_covered`)."""
    above = present & SUIT_MASKS[id_suit(card)] & ~((_ONE << np.uint64(card + 1)) - _ONE)
    if above:
        nxt = lowest_card(above)
        if (hand >> np.uint64(nxt)) & _ONE:
            return nxt
    return -1


@njit_inline
def _covered(card, key, hand, present, others, pmask, lead, trump, best_key):
    """True if natural ``card`` (trick key ``key`` when ``lead`` is the suit led) need not be searched:
    its hand holds the next natural card above it among ``present`` (`_next_held`), no other hand holds
    a Perlagg (one could be baptised between them), and the trick's best key ``best_key`` (-1: leading)
    is not between the two. The two then win or lose the trick alike (the later seats hold nothing
    between them, and the trick's other keys decide nothing) and leave equivalent hands."""
    if others & pmask:
        return False
    nxt = _next_held(card, hand, present)
    return nxt >= 0 and not key < best_key < play_key(nxt, 0, lead, trump)


@njit
def _moves(hands, seat, tcards, tids, count, slot, best_key, pmask, prec, trump, moves, p, facts):
    """Plays worth searching for ``seat`` into moves[p] (see `new_moves`), best first; returns how many.
    slot, best_key: `_best_slot` of the trick (unused when ``count`` is 0).
    facts: the `_new_work` array for the Perlaggen's identity classes.

    Natural cards: of cards of one suit adjacent among the naturals still held, only the highest
    (`_covered`). Perlaggen: one identity per `_signature` class, the highest; leading,
    per suit led (the strengths walked down, a class's keys being consecutive); following, see
    `_follow_classes`.
    """
    hand = hands[seat]
    led = id_suit(tids[0]) if count else -1
    if not count:
        best_key = -1
    partner = count >= 2 and slot == count - 2
    naturals, ok = legal_naturals(hand, pmask, led, trump)
    others = np.uint64(0)
    for i in range(1, SEATS):
        others |= hands[(seat + i) % SEATS]
    n = 0
    present = (others | hand) & ~pmask
    m = naturals
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        lead = led if count else id_suit(card)
        key = play_key(card, 0, lead, trump)
        if _covered(card, key, hand, present, others, pmask, lead, trump, best_key):
            continue
        n = _push(moves, p, n, card, card, key, _order(key, count, best_key, partner, False))
    if not hand & pmask:
        return n
    per = _distinct_perlaggen(hand & pmask, others & pmask, tcards, count, prec)
    later = SEATS - 1 - count
    if count:
        _later_facts(hands, seat, later, pmask, prec, led, trump, facts)
        while per:
            card = lowest_card(per)
            per &= per - _ONE
            n = _follow_classes(card, prec, ok, led, trump, best_key, partner, count, facts, moves, p, n)
        return n
    for lead in range(4):
        _later_facts(hands, seat, later, pmask, prec, lead, trump, facts)
        plain = facts[NPER, 0] + facts[NPER, 1] == 0
        if not plain:
            _overtakes(facts, lead, trump)
        m = per
        while m:
            card = lowest_card(m)
            m &= m - _ONE
            facts[SIG + 1, 0] = -1
            for strength in range(8, -1 if lead == 3 else 0, -1):
                key = play_key(_identity(lead, strength), prec[card], lead, trump)
                if plain:  # the signature is the count below alone
                    facts[SIG, 0] = _below(key, facts, 0, later - 1)
                    if facts[SIG, 0] == facts[SIG + 1, 0]:
                        continue
                    facts[SIG + 1, 0] = facts[SIG, 0]
                    n = _push(moves, p, n, card, _identity(lead, strength), key, _order(key, 0, -1, False, True))
                    continue
                _signature(key, later, facts, lead, trump)
                same = True
                for f in range(8):
                    same &= facts[SIG + 1, f] == facts[SIG, f]
                if same:
                    continue
                for f in range(8):
                    facts[SIG + 1, f] = facts[SIG, f]
                n = _push(moves, p, n, card, _identity(lead, strength), key, _order(key, 0, -1, False, True))
    return n


@njit_inline
def _distinct_perlaggen(mine, theirs, tcards, count, prec):
    """The Perlaggen of ``mine`` (a hand's, a mask) worth searching: of Perlaggen whose precedences
    are adjacent among those still in play (``theirs``: the other hands'; and the ``count`` cards of
    the trick), only the highest. Such Perlaggen compare alike with every other play (a key differs
    from another in precedence only when tier and strength are equal), so either can stand for the
    other now and later."""
    present = _prec_bits(theirs, prec)
    for i in range(count):
        present |= 1 << prec[tcards[i]]
    own = _prec_bits(mine, prec)
    keep = np.uint64(0)
    m = mine
    while m:
        c = lowest_card(m)
        m &= m - _ONE
        higher = (own | present) >> (prec[c] + 1)
        if higher == 0 or not (own >> (prec[c] + 1 + _trailing_zeros(higher))) & 1:
            keep |= _ONE << np.uint64(c)
    return keep


@njit_inline
def _trailing_zeros(x):
    """Number of trailing zero bits of the int x > 0."""
    n = 0
    while not (x >> n) & 1:
        n += 1
    return n


@njit_inline
def _follow_classes(card, prec, ok, led, trump, best_key, partner, count, facts, moves, p, n):
    """Push the plays of Perlagg ``card`` after ``count`` >= 1 plays into ply p's list of n moves;
    returns the new length. Its keys below the trick's best key all lose alike (the lowest is
    kept); of the keys above, one per class of `_signature` (the highest), found by walking the
    keys down: a class's keys are consecutive, since every part of the signature is monotone in
    the key between two splitting keys. Where the class is the count of splitting keys below alone
    (at most one seat left to play, or no Perlagg in the next hand), the walk jumps below the next
    splitting key."""
    q = prec[card]
    later = SEATS - 1 - count
    lose_id, lose_key = _lowest_play(q, ok, led, trump)
    last_below, last_room = -1, -1
    roomy = later == 2 and facts[NPER, 0] > 0  # else the class is the count below alone
    for tier in range(2, 0, -1):
        s = trump if tier == 2 else led
        if tier == 1 and (led == trump or not (ok >> led) & 1):
            continue
        strength, weakest = 8, 0 if s == 3 else 1
        while strength >= weakest:
            key = tier * 256 + strength * 16 + q
            if key < best_key:
                break
            below = _below(key, facts, 0, later - 1)
            room = _room(key, 0, facts, led, trump) if roomy else 0
            if below != last_below or room != last_room:
                last_below, last_room = below, room
                n = _push(moves, p, n, card, _identity(s, strength), key, _order(key, count, best_key, partner, True))
                if later == 0:  # the last play: every winning key is one class
                    break
            if roomy:
                strength -= 1
            else:  # the keys down to the next splitting key below are this class: skip them
                strength = min(strength - 1, (_next_below(key, facts, 0, later - 1) - tier * 256 - q) // 16)
        if later == 0 and last_below >= 0:
            break
    if lose_key < best_key:
        n = _push(moves, p, n, card, lose_id, lose_key, _order(lose_key, count, best_key, partner, True))
    return n


@njit_inline
def _top_natural_trumps(hand, opponents, pmask, trump):
    """Natural trumps of ``hand`` above every natural trump of ``opponents`` (masks): above the
    opponents' highest card index, the bits at and below it smeared down without a loop."""
    theirs = opponents & ~pmask & SUIT_MASKS[trump]
    for shift in (1, 2, 4, 8, 16, 32):
        theirs |= theirs >> np.uint64(shift)
    return popcount(hand & ~pmask & SUIT_MASKS[trump] & ~theirs)


@njit_inline
def _prec_bits(cards, prec):
    """Bit mask of the precedences of the Perlaggen ``cards`` (a mask)."""
    bits = 0
    while cards:
        c = lowest_card(cards)
        cards &= cards - _ONE
        bits |= 1 << prec[c]
    return bits


@njit_inline
def _sure_tricks(hands, pmask, prec, trump, team, left):
    """Tricks ``team`` wins whatever happens, at a trick boundary with ``left`` tricks to play.

    The team's candidates: its i highest Perlaggen, each played as the trump Ace (always legal,
    §7.2), and the natural trumps of one player above every natural trump of the opponents (a
    natural trump is always legal). It can play them in min(i + naturals, left) different tricks (a
    player who holds any natural card has a legal natural one, so partners need not spend two in
    one trick), and each Perlagg of the opponents beats at most one of them: one above the i-th
    Perlagg any, one below it only a natural trump. The best i counts (i = 0: naturals only).
    The search calls the array-free `_sure_of` for both teams at once (`_boundary_value`); this form
    is the one the tests check against the plain reference.
    """
    opponents = hands[1 - team] | hands[3 - team]
    return _sure_of(hands[team], hands[team + 2], opponents, _prec_bits((hands[team] | hands[team + 2]) & pmask, prec),
                    _prec_bits(opponents & pmask, prec), pmask, trump, left)


@njit_inline
def _sure_of(mine, partners, opponents, ours, theirs, pmask, trump, left):
    """`_sure_tricks` of a team holding the hands ``mine`` and ``partners`` against ``opponents``
    (masks), with the precedence bits (`_prec_bits`) of its Perlaggen ``ours`` and of theirs; takes
    no array, so that inlined into the search it costs no reference counting."""
    naturals = max(_top_natural_trumps(mine, opponents, pmask, trump),
                   _top_natural_trumps(partners, opponents, pmask, trump))
    total = popcount(np.uint64(theirs))
    sure = min(naturals, left) - min(total, naturals)
    m = ours
    while m:  # each Perlagg q of the team: i of its Perlaggen at or above q, ``above`` of theirs above q
        q = m & -m
        m ^= q
        i = popcount(np.uint64(ours & -q))
        above = popcount(np.uint64(theirs & ~(2 * q - 1)))
        sure = max(sure, min(i + naturals, left) - above - min(total - above, naturals))
    return sure


@njit_inline
def _last_trick_team(hands, leader, pmask, prec, trump):
    """Team that wins the last trick when every hand (``hands``: 4 masks) holds one card: the holder
    of the highest Perlagg left (as the trump Ace it loses only to a higher one, and a Perlagg may
    always be baptised a trump, §7.2), else the natural cards decide (the leader's card sets the
    suit)."""
    per = (hands[0] | hands[1] | hands[2] | hands[3]) & pmask
    if per:
        top = _by_prec(per, prec, True)
        for s in range(SEATS):
            if (hands[s] >> np.uint64(top)) & _ONE:
                return s % 2
    led = id_suit(lowest_card(hands[leader]))
    best, best_key = leader, -1
    for s in range(SEATS):
        k = play_key(lowest_card(hands[s]), 0, led, trump)
        if k > best_key:
            best, best_key = s, k
    return best % 2


@njit
def _boundary_value(hands, leader, won0, won1, pmask, prec, trump, team, need):
    """At a trick boundary with ``hands`` (a tuple of 4 masks, no array: see `_search`) where teams 0
    and 1 have taken ``won0`` and ``won1`` tricks: 1 if ``team`` surely takes ``need`` tricks, 0 if it
    surely cannot, -1 if only a search can tell. The last trick is decided here."""
    return _bounded_value(hands, leader, won0, won1, _prec_bits((hands[team] | hands[team + 2]) & pmask, prec),
                          _prec_bits((hands[1 - team] | hands[3 - team]) & pmask, prec), pmask, prec, trump, team, need)


@njit_inline
def _bounded_value(hands, leader, won0, won1, pa, pb, pmask, prec, trump, team, need):
    """`_boundary_value` given the precedence bits (`_prec_bits`) of the Perlaggen of ``team``, pa, and
    of the other team, pb."""
    left = TRICKS - won0 - won1
    ours, theirs = (won0, won1) if team == 0 else (won1, won0)
    if ours >= need:
        return 1
    if theirs > TRICKS - need:
        return 0
    if left == 1:
        return 1 if ours + 1 >= need and _last_trick_team(hands, leader, pmask, prec, trump) == team else 0
    a0, a1, b0, b1 = hands[team], hands[team + 2], hands[1 - team], hands[3 - team]
    if ours + _sure_of(a0, a1, b0 | b1, pa, pb, pmask, trump, left) >= need:
        return 1
    if theirs + _sure_of(b0, b1, a0 | a1, pb, pa, pmask, trump, left) > TRICKS - need:
        return 0
    return -1


@njit_inline
def _tag(hands, count, leader, ours, slot, best_key, led, solve):
    """What a table entry of a position within a trick (``count`` >= 1 plays made) holds besides the
    hands' low 32 cards: the solve number, the Weli's holder, the leader, the target team's tricks
    ``ours``, the plays made, the seat holding the trick, its key and the suit led (all the rest of
    the trick depends on); slot and best_key: `_best_slot` of the trick, led: the suit led. Trick
    boundaries have their own key (`_canon_key`)."""
    weli = SEATS
    for s in range(SEATS):
        if (hands[s] >> np.uint64(WELI)) & _ONE:
            weli = s
    tag = ((solve * (SEATS + 1) + weli) * SEATS + leader) * (TRICKS + 1) + ours
    holder = (leader + slot) % SEATS
    return (((tag * SEATS + count) * SEATS + holder) * 4 + led) * 1024 + best_key


def _gap_ids() -> np.ndarray:
    """(5, 2, 256) int64: for a cap K (0-4), bells or not, and the 8-bit mask of a suit's natural cards
    left (bit r: the card of rank r, strength r + 1), a number that is the same exactly for masks with
    the same gaps each capped at K: per gap (below the lowest card, between two, above the highest) the
    strengths a Perlagg identity can take there (from the lower card's own, which a Perlagg of that
    strength beats, up to below the higher card; the bells' lowest gap counts the Weli's strength 0).
    Numbers from 0 to 255 per (K, bells)."""
    ids = np.zeros((5, 2, 256), dtype=np.int64)
    for cap in range(5):
        for bells in range(2):
            seen: dict[tuple, int] = {}
            for mask in range(256):
                gaps, strength = [], 0 if bells else 1
                for r in range(8):
                    if mask >> r & 1:
                        gaps.append(min(r + 1 - strength, cap))
                        strength = r + 1
                gaps.append(min(9 - strength, cap))
                ids[cap, bells, mask] = seen.setdefault(tuple(gaps), len(seen))
    return ids


GAP_IDS = _gap_ids()
PEXT8 = bit_extract_table(8).reshape(-1)
"""(65536,) uint64: PEXT8[256 * m + x], the bits of x at the set bits of m, packed low."""


@njit_inline
def _canon_key(hands, pmask, prec):
    """Table key (k1, k2) of a trick-boundary position with at most 16 cards left that is the same
    for positions differing only in which cards are gone, where that cannot matter.

    Only these matter: per suit the order of the natural cards left and their holders, and per gap
    (below the lowest, between two, above the highest) how many strengths a Perlagg identity can
    take there, up to K = the Perlaggen left, at most 4 (the K Perlaggen one trick can bring to a
    gap can then be ordered in every way, by strength and precedence, as with the full width); and
    the holders of the Perlaggen in order of precedence. Written as: k2 = per suit the id of its
    capped gaps (`GAP_IDS`, 8 bits), then the number of Perlaggen (4 bits) and their holders (2 bits
    each, lowest precedence first); k1 = per suit the holders' low bits, then their high bits, of its
    natural cards in rank order (`PEXT8`; each part's length is the suit's card count).
    """
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
    everyone = h0 | h1 | h2 | h3
    per = everyone & pmask
    npers = popcount(per)
    cap = min(npers, SEATS)
    low_bits, high_bits = (h1 | h3) & ~pmask, (h2 | h3) & ~pmask
    k1, k2, pos = np.uint64(0), np.uint64(0), np.uint64(0)
    for suit in range(4):
        shift = np.uint64(8 * suit)
        m = np.int64((everyone & ~pmask) >> shift) & 255
        k2 |= np.uint64(GAP_IDS[cap, 1 if suit == 3 else 0, m]) << shift
        row = 256 * m
        k1 |= PEXT8[row + (np.int64(low_bits >> shift) & 255)] << pos
        pos += np.uint64(popcount(np.uint64(m)))
        k1 |= PEXT8[row + (np.int64(high_bits >> shift) & 255)] << pos
        pos += np.uint64(popcount(np.uint64(m)))
    word, present = np.uint64(0), 0
    while per:  # holder per precedence, then packed in order of precedence
        c = lowest_card(per)
        per &= per - _ONE
        bit = _ONE << np.uint64(c)
        holder = (1 if (h1 | h3) & bit else 0) | (2 if (h2 | h3) & bit else 0)
        word |= np.uint64(holder) << np.uint64(2 * prec[c])
        present |= 1 << prec[c]
    k2 |= np.uint64(npers) << np.uint64(32)
    pos = np.uint64(36)
    while present:
        q = present & -present
        present ^= q
        k2 |= ((word >> np.uint64(2 * _trailing_zeros(q))) & np.uint64(3)) << pos
        pos += np.uint64(2)
    return k1, k2


@njit_inline
def _last_winner(seat, key, leader, slot, best_key):
    """Seat winning a trick whose last play, by ``seat``, has trick key ``key``, when the first three
    plays (led by ``leader``) are held by the one at ``slot`` with key ``best_key``."""
    return seat if key > best_key else (leader + slot) % SEATS


@njit_inline
def _played(hands, seat, bit):
    """The 4 masks of the tuple ``hands`` after ``seat`` played the card ``bit`` (a tuple: no array)."""
    return (hands[0] ^ bit if seat == 0 else hands[0], hands[1] ^ bit if seat == 1 else hands[1],
            hands[2] ^ bit if seat == 2 else hands[2], hands[3] ^ bit if seat == 3 else hands[3])


@njit
def _settle_last(hands, seat, slot, best_key, leader, won0, won1, pmask, prec, trump, team, need, moves, p, n):
    """The last play of a trick, moves[p, :, :n] of ``seat``, with ``won0`` and ``won1`` tricks taken
    by teams 0 and 1, the trick held by its play ``slot`` with key ``best_key``: value each play's
    position after the trick by `_boundary_value`. Returns (0, value) when that settles the node (a
    play wins for the mover's team, or every play loses), else (k, -1) with the k undecided plays
    kept in order."""
    mine = seat % 2 == team
    kept = 0
    h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
    pa = _prec_bits((hands[team] | hands[team + 2]) & pmask, prec)  # the teams' Perlaggen before the play
    pb = _prec_bits((hands[1 - team] | hands[3 - team]) & pmask, prec)
    for i in range(n):
        card = moves[p, 0, i]
        bit = _ONE << np.uint64(card)
        gone = (1 << prec[card]) if (pmask >> np.uint64(card)) & _ONE else 0
        winner = _last_winner(seat, moves[p, 2, i], leader, slot, best_key)
        after = _played((h0, h1, h2, h3), seat, bit)
        value = _bounded_value(after, winner, won0 + (winner % 2 == 0), won1 + (winner % 2 == 1),
                               pa & ~gone if mine else pa, pb if mine else pb & ~gone, pmask, prec, trump, team, need)
        if value == (1 if mine else 0):
            return 0, value
        if value < 0:
            for f in range(4):
                moves[p, f, kept] = moves[p, f, i]
            kept += 1
    if kept == 0:
        return 0, 0 if mine else 1
    return kept, -1


@njit_inline
def _key_range(card, naturals, ok, pmask, prec, led, trump):
    """(lowest, highest) trick key of the plays of ``card`` when ``led`` was led: a Perlagg's lowest play
    (`_lowest_play`) and its trump Ace (always allowed, §7.2), a legal natural card's own key twice,
    (`_FAR`, `_FAR`) for an illegal one; naturals, ok: `legal_naturals` of its hand."""
    if (pmask >> np.uint64(card)) & _ONE:
        return _lowest_play(prec[card], ok, led, trump)[1], play_key(8 * trump + 7, prec[card], led, trump)
    if (naturals >> np.uint64(card)) & _ONE:
        key = play_key(card, 0, led, trump)
        return key, key
    return _FAR, _FAR


@njit
def _fourth_last_play(hands, seat, led, slot, best_key, leader, won0, won1, pmask, prec, trump, team, need):
    """Value (1: ``team`` takes ``need`` tricks) at the last play of the fourth trick, by ``seat``, with
    ``won0`` and ``won1`` tricks taken, the suit ``led``, the trick held by its play ``slot`` with key
    ``best_key``.

    The seat plays one of its two cards and keeps the other for the last trick, so each play decides
    the deal (`_last_trick_team`): a natural card wins or loses the trick by its key; a Perlagg can win
    it when its highest play (the trump Ace, always allowed, §7.2) beats the trick and lose it when
    its lowest play (`_lowest_play`) does not. The same value as listing the plays (`_moves`) and
    settling them (`_settle_last`), without the list; scalars only (hands: a tuple of 4 masks)."""
    wanted = 1 if seat % 2 == team else 0
    hand = hands[seat]
    naturals, ok = legal_naturals(hand, pmask, led, trump)
    holder = (leader + slot) % SEATS
    m = naturals | (hand & pmask)
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        bit = _ONE << np.uint64(card)
        after = _played(hands, seat, bit)
        lowest, highest = _key_range(card, naturals, ok, pmask, prec, led, trump)
        wins, loses = highest > best_key, lowest < best_key
        for option in range(2):
            if (wins if option == 0 else loses):
                winner = seat if option == 0 else holder
                ours = (won0 if team == 0 else won1) + (winner % 2 == team)
                last = _last_trick_team(after, winner, pmask, prec, trump)
                if (1 if ours + (last == team) >= need else 0) == wanted:
                    return wanted
    return 1 - wanted


@njit
def _fourth_third_play(hands, seat, led, slot, best_key, leader, won0, won1, pmask, prec, trump, team, need):
    """`_fourth_last_play` one play earlier: the third play of the fourth trick by ``seat``, each play
    valued by the last seat's best answer. A natural card is one play; a Perlagg either loses the trick
    (its lowest play, when that is below ``best_key``: every losing play leaves the last seat the same
    trick) or wins it, one key above ``best_key`` per class of the number of the last seat's splitting
    keys below it (the ends of its cards' `_key_range`: keys of one class leave it the same options),
    highest first."""
    wanted = 1 if seat % 2 == team else 0
    last = (seat + 1) % SEATS
    naturals, ok = legal_naturals(hands[seat], pmask, led, trump)
    m = naturals | (hands[seat] & pmask)
    a1 = a2 = b1 = b2 = _FAR  # the splitting keys of the last seat's (at most two) cards, for a Perlagg's classes
    if hands[seat] & pmask:
        theirs = hands[last]
        their_naturals, their_ok = legal_naturals(theirs, pmask, led, trump)
        a1, a2 = _key_range(lowest_card(theirs), their_naturals, their_ok, pmask, prec, led, trump)
        rest = theirs & (theirs - _ONE)
        if rest:
            b1, b2 = _key_range(lowest_card(rest), their_naturals, their_ok, pmask, prec, led, trump)
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        after = _played(hands, seat, _ONE << np.uint64(card))
        natural = not (pmask >> np.uint64(card)) & _ONE
        q = prec[card]
        last_class = -1
        for step in range(1 if natural else 19):  # a Perlagg: trump strengths 8..0, led 8..0, its lowest play
            if natural:
                key = play_key(card, 0, led, trump)
            elif step == 18:
                key = _lowest_play(q, ok, led, trump)[1]
                if key > best_key:
                    continue
            else:
                s = trump if step < 9 else led
                strength = 8 - step % 9
                if (step >= 9 and (led == trump or not (ok >> led) & 1)) or (strength == 0 and s != 3):
                    continue
                key = (512 if step < 9 else 256) + 16 * strength + q
                if key < best_key:
                    continue
                below = (a1 < key) + (a2 < key) + (b1 < key) + (b2 < key)
                if below == last_class:
                    continue
                last_class = below
            if _fourth_last_play(after, last, led, 2 if key > best_key else slot, max(key, best_key), leader, won0,
                                 won1, pmask, prec, trump, team, need) == wanted:
                return wanted
    return 1 - wanted


@njit_inline
def _probe(entries, k1, k2, tag):
    """(bucket index, stored value 0/1 or -1 if absent) of the position key (k1, k2, tag) in the
    table entries of `new_table`."""
    slot = table_slot(k1, k2, tag, entries.shape[0]) & ~1
    for i in range(2):
        if entries[slot + i, 2] == np.uint64(tag) and entries[slot + i, 0] == k1 and entries[slot + i, 1] == k2:
            return slot, np.int64(entries[slot + i, 3])
    return slot, np.int64(-1)


@njit_inline
def _nth(t, first):
    """Index in a ply's moves of the t-th play tried (from 0) when the play at index ``first`` is tried
    first and the others keep their order (``first`` 0: the list's own order)."""
    return first if t == 0 else (t - 1 if t <= first else t)


@njit_inline
def _first_natural(hand, others, pmask, count, led, trump, best_key, partner, killer):
    """The play `_search` tries first at a node ``count`` <= 2 plays into a trick, when it is a natural
    card, found without `_moves` (scalars only): the ply's killer (card * 64 + identity, -1: none or not
    held) if `_moves` lists it, else the first play of the static order (`_order`). -1 when a Perlagg
    may come first: the killer is one, or following with no natural winner the hand holds one.
    others: the other hands' cards; led: the suit led (-1: leading); best_key, partner: the trick's
    best key (-1: leading) and whether the partner holds it."""
    if killer >= 0 and (pmask >> np.uint64(killer >> 6)) & _ONE:
        return -1
    present = (others | hand) & ~pmask
    best, best_order = -1, 0
    m = legal_naturals(hand, pmask, led, trump)[0]
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        lead = led if count else id_suit(card)
        key = play_key(card, 0, lead, trump)
        if _covered(card, key, hand, present, others, pmask, lead, trump, best_key):
            continue
        if card * 65 == killer:
            return card
        order = _order(key, count, best_key, partner, False)
        if best < 0 or order > best_order:
            best, best_order = card, order
    if count and not partner and best_order < 4096 and hand & pmask:
        return -1
    return best


@njit
def _search(hands, tcards, tids, count, leader, won, pmask, prec, trump, team, need, table, moves):
    """True if ``team`` takes ``need`` tricks from this position under perfect play.

    Depth-first AND/OR search without recursion: ply p holds the node after p plays; at a node of
    ``team`` one winning play settles it, at an opponent's node one losing play. hands, tcards,
    tids and won are modified. moves: `new_moves` scratch, one `_moves` list per ply, tried in its
    order (`_order`) except for the ply's *killer*, tried first when the list holds it: the last
    play (card and identity) that settled a node at this ply after the first play tried had not
    (16% fewer nodes on deals as played; keeping the killer when the first play settles matters,
    and history tables or a second killer per ply did not pay). The list is built lazily: when the
    first play to try is a natural card, `_first_natural` finds it from the hand alone and it is tried
    before `_moves` runs, which then runs only if that play did not settle the node (the play is then
    located in the list and not tried again), so the plays and their order are those of the full
    list; most cut nodes never build it (1.02-1.11x in same-process A/Bs; node counts unchanged). The last
    play of a trick is settled by `_settle_last` where the sure tricks decide (so a trick boundary
    below the root, reached only through an undecided play, skips them), the fourth trick's last
    play by `_fourth_last_play` and its third by `_fourth_third_play` (14% fewer nodes, none of the
    last ply); table[1][1] counts the nodes. Its small helpers are inlined
    (`njit_inline`) and take few arrays: every array argument of an inlined call costs two atomic
    reference-count updates that numba cannot prune here, once a third of the search's time
    (`_new_work`, `_sure_of`). For the same reason the trick's holding slot and key are kept per ply
    (``bslots``, ``bkeys``) and passed as scalars, and `_boundary_value` takes the hands as a tuple
    and the tricks won as two scalars. The five large helpers (`_moves`, `_settle_last`,
    `_boundary_value`, `_fourth_third_play`, `_fourth_last_play`) are called, not inlined, with views
    of the argument arrays that numba does not count (`simcore.search.unowned`; ``work``, made here,
    is passed itself: numba frees a local array after its last use, which a view does not extend):
    numba inlines by copying the callee's IR, with every helper inlined in it, at each call site, and
    the copies of these five took most of the 266-293 s of CPU that compiling `_search` took; called,
    48 s. Same nodes and values (the benchmark's 300 deals, the Perlaggen tests); 1.20x deals/s
    (median of six interleaved rounds' ratios on one core, 600 deals; best rounds 1.19x): a smaller
    search loop runs faster.
    """
    entries, solve = table
    plies = moves.shape[0]
    leaders = np.empty(plies, dtype=np.int64)
    counts = np.empty(plies, dtype=np.int64)
    sizes = np.empty(plies, dtype=np.int64)
    tried = np.empty(plies, dtype=np.int64)
    winners = np.empty(plies, dtype=np.int64)
    saved = np.empty((plies, 2, SEATS - 1), dtype=np.int64)
    results = np.empty(plies, dtype=np.bool_)
    slots = np.full(plies, -1, dtype=np.int64)
    tag_of = np.empty(plies, dtype=np.int64)
    key_of = np.empty((plies, 2), dtype=np.uint64)
    bslots = np.zeros(plies, dtype=np.int64)  # `_best_slot` of the trick at each ply, kept as plays are made
    bkeys = np.zeros(plies, dtype=np.int64)
    work = _new_work()
    # views of the arguments for the called helpers (the caller holds the arrays); not of ``work``, which numba
    # would free after its last use, the view
    hands_v, tcards_v, tids_v, prec_v, moves_v = unowned(hands), unowned(tcards), unowned(tids), unowned(prec), \
        unowned(moves)
    killers = np.full(plies, -1, dtype=np.int64)  # per ply: its killer play, card * 64 + identity (-1: none)
    firsts = np.zeros(plies, dtype=np.int64)  # per ply: index in its moves of the play tried first (the killer's
    # or the lazily tried play's; 0: the list's own first)
    lazy = np.zeros(plies, dtype=np.bool_)  # per ply: only its first play is listed (`_first_natural`)
    low32 = np.uint64(0xFFFFFFFF)
    p = 0
    leaders[0], counts[0] = leader, count
    if count:
        bslots[0], bkeys[0] = _best_slot(tids, tcards, count, prec, trump)
    entering, child, build, card = True, False, False, -1
    while True:
        leader, count = leaders[p], counts[p]
        seat = (leader + count) % SEATS
        mine = seat % 2 == team
        if entering:
            value = -1
            slots[p] = -1
            solve[1] += 1
            if count == 0 and p == 0:  # below the root, `_settle_last` found this boundary undecided already
                value = _boundary_value((hands[0], hands[1], hands[2], hands[3]), leader, won[0], won[1], pmask,
                                        prec_v, trump, team, need)
            # no entry for the root (p = 0): it could serve only this solve, which never comes back to it
            # trick boundaries below the root follow a trick of this solve, so some cards are gone and the
            # relative-rank key `_canon_key` can join positions
            keyed = value < 0 and p > 0 and (count == 0 or (count == 2 and won[0] + won[1] < TRICKS - 2))
            if keyed and count == 0:
                k1, k2 = _canon_key(hands, pmask, prec)
                tag = -2 - ((solve[0] * SEATS + leader) * (TRICKS + 1) + won[team])
            elif keyed:
                k1 = (hands[0] & low32) | ((hands[1] & low32) << np.uint64(32))
                k2 = (hands[2] & low32) | ((hands[3] & low32) << np.uint64(32))
                tag = _tag(hands, count, leader, won[team], bslots[p], bkeys[p], id_suit(tids[0]), solve[0])
            if keyed:
                slot, value = _probe(entries, k1, k2, tag)
                if value < 0:
                    slots[p], tag_of[p], key_of[p, 0], key_of[p, 1] = slot, tag, k1, k2
            if value < 0 and count == SEATS - 2 and won[0] + won[1] == TRICKS - 2:
                value = _fourth_third_play((hands[0], hands[1], hands[2], hands[3]), seat, id_suit(tids[0]), bslots[p],
                                           bkeys[p], leader, won[0], won[1], pmask, prec_v, trump, team, need)
            if value < 0 and count == SEATS - 1 and won[0] + won[1] == TRICKS - 2:
                value = _fourth_last_play((hands[0], hands[1], hands[2], hands[3]), seat, id_suit(tids[0]), bslots[p],
                                          bkeys[p], leader, won[0], won[1], pmask, prec_v, trump, team, need)
            if value < 0:
                tried[p] = 0
                results[p] = not mine
                firsts[p] = 0
                first = -1
                led = id_suit(tids[0]) if count else -1
                if count < SEATS - 1:
                    killer = (killers[p] if killers[p] >= 0 and (hands[seat] >> np.uint64(killers[p] >> 6)) & _ONE
                              else -1)
                    first = _first_natural(hands[seat], (hands[0] | hands[1] | hands[2] | hands[3]) ^ hands[seat],
                                           pmask, count, led, trump, bkeys[p] if count else -1,
                                           count >= 2 and bslots[p] == count - 2, killer)
                lazy[p] = first >= 0
                if first >= 0:
                    moves[p, 0, 0], moves[p, 1, 0] = first, first
                    moves[p, 2, 0] = play_key(first, 0, led if count else id_suit(first), trump)
                    sizes[p] = 1
                else:
                    build = True
        else:
            # back from the child of ply p: take its play back
            j = _nth(tried[p] - 1, firsts[p])
            card = moves[p, 0, j]
            hands[seat] ^= _ONE << np.uint64(card)
            if winners[p] >= 0:
                won[winners[p] % 2] -= 1
                for i in range(SEATS - 1):
                    tcards[i], tids[i] = saved[p, 0, i], saved[p, 1, i]
            if child == mine:
                if tried[p] > 1:  # a play that settles the node after the first one failed: the new killer
                    killers[p] = card << 6 | moves[p, 1, j]
                results[p] = mine
                tried[p] = sizes[p]
            elif lazy[p]:
                build = True
            value = -1
        if build:  # list the plays: at entering, or after a lazy first play did not settle the node
            build = False
            sizes[p] = _moves(hands_v, seat, tcards_v, tids_v, count, bslots[p], bkeys[p], pmask, prec_v, trump,
                              moves_v, p, work)
            if count == SEATS - 1:
                sizes[p], value = _settle_last(hands_v, seat, bslots[p], bkeys[p], leader, won[0], won[1], pmask,
                                               prec_v, trump, team, need, moves_v, p, sizes[p])
            if lazy[p]:  # its first play is tried: find it in the list (if absent, which `_first_natural` rules
                lazy[p] = False  # out, try the whole list: an extra legal play cannot change the value)
                tried[p] = 0
                for j in range(sizes[p]):
                    if moves[p, 0, j] == card and moves[p, 1, j] == card:
                        firsts[p], tried[p] = j, 1
                        break
            elif value < 0 and killers[p] >= 0 and (hands[seat] >> np.uint64(killers[p] >> 6)) & _ONE:  # held
                for j in range(1, sizes[p]):
                    if moves[p, 0, j] == killers[p] >> 6 and moves[p, 1, j] == killers[p] & 63:
                        firsts[p] = j
                        break
        if value < 0 and tried[p] < sizes[p]:
            j = _nth(tried[p], firsts[p])
            card = moves[p, 0, j]
            tried[p] += 1
            hands[seat] ^= _ONE << np.uint64(card)
            tcards[count], tids[count] = card, moves[p, 1, j]
            winners[p] = -1
            key = moves[p, 2, j]
            if count == SEATS - 1:
                winner = _last_winner(seat, key, leader, bslots[p], bkeys[p])
                winners[p] = winner
                for i in range(SEATS - 1):
                    saved[p, 0, i], saved[p, 1, i] = tcards[i], tids[i]
                won[winner % 2] += 1
                leaders[p + 1], counts[p + 1] = winner, 0
            else:
                leaders[p + 1], counts[p + 1] = leader, count + 1
                if count == 0 or key > bkeys[p]:
                    bslots[p + 1], bkeys[p + 1] = count, key
                else:
                    bslots[p + 1], bkeys[p + 1] = bslots[p], bkeys[p]
            p += 1
            entering = True
            continue
        if value < 0:
            value = 1 if results[p] else 0
            if slots[p] >= 0:
                slot = slots[p]
                for f in range(4):  # the bucket keeps the two newest entries
                    entries[slot + 1, f] = entries[slot, f]
                entries[slot, 0], entries[slot, 1] = key_of[p, 0], key_of[p, 1]
                entries[slot, 2], entries[slot, 3] = np.uint64(tag_of[p]), np.uint64(value)
        if p == 0:
            return value == 1
        child = value == 1
        p -= 1
        entering = False


@njit
def _solve(hands, tcards, tids, count, leader, won, pmask, prec, trump, team, need, table, moves):
    """`_search` on copies of the position, as a new solve of ``table``; scalars cast to int64 so
    that every caller shares one compiled `_search`."""
    table[1][0] += 1
    return _search(hands.copy(), tcards.copy(), tids.copy(), np.int64(count), np.int64(leader), won.copy(),
                   pmask, prec, np.int64(trump), np.int64(team), np.int64(need), table, moves)


@njit
def _spiel_teams(hands, trumps, pmasks, precs, leader, table, moves, out):
    """Spiel winner of every deal: hands (n, 4) uint64, trumps (n,) -> out (n,) int64 teams."""
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    team = leader % 2
    for i in range(hands.shape[0]):
        t = trumps[i]
        wins = _solve(hands[i], tcards, tids, 0, leader, won, pmasks[t], precs[t], t, team, SPIEL, table, moves)
        out[i] = team if wins else 1 - team


def spiel_teams(hands, trumps, style: str = "innsbruck", leader: int = FOREHAND, table=None) -> np.ndarray:
    """Double-dummy Spiel winner of many deals: hands (n, 4) uint64 five cards per seat, trumps (n,)
    suit indices -> (n,) int64 team (0 or 1) that takes 3 tricks under perfect play of both teams.
    CardsimError for arguments that are no such deals (`trusted_spiel_teams` solves without these checks)."""
    hands = checked_hands(hands, rows=True)
    return trusted_spiel_teams(hands, _checked_trumps(trumps, len(hands), style), style,
                               checks.whole(leader, "leader", 0, SEATS - 1), checked_table(table, new_table, 2))


def trusted_spiel_teams(hands, trumps, style: str = "innsbruck", leader: int = FOREHAND, table=None) -> np.ndarray:
    """`spiel_teams` without its argument checks, for the jobs that solve their own deals."""
    hands = np.asarray(hands, dtype=np.uint64)
    out = np.empty(hands.shape[0], dtype=np.int64)
    pmasks, precs = PlayRules(style).arrays()
    _spiel_teams(hands, np.asarray(trumps, dtype=np.int64), pmasks, precs, leader,
                 new_table() if table is None else table, new_moves(), out)
    return out


def position_wins(hands, trump: int, team: int, leader: int, won=(0, 0), trick=(), need: int = SPIEL,
                  style: str = "innsbruck", table=None) -> bool:
    """True if ``team`` takes ``need`` tricks from a position under perfect play.

    hands (4,) uint64: cards still held; trick: (card, identity) plays of the current trick so far,
    led by ``leader``; won: tricks teams 0 and 1 have taken.
    """
    hands, trump = checked_hands(hands, sizes=range(TRICKS + 1), equal=False), checked_trump(trump, style)
    team, leader = checks.whole(team, "team", 0, 1), checks.whole(leader, "leader", 0, SEATS - 1)
    won, need = checks.wholes(won, "won", 2, 0, TRICKS), checks.whole(need, "need", 1, TRICKS)
    check_trick(trick, int(np.bitwise_or.reduce(hands)), _perlagg_mask(style, trump))
    checks.position_sizes(hands, leader, len(trick), won, TRICKS)
    table = checked_table(table, new_table, 2)
    return trusted_position_wins(hands, trump, team, leader, won, trick, need, style, table)


def trusted_position_wins(hands, trump: int, team: int, leader: int, won=(0, 0), trick=(), need: int = SPIEL,
                          style: str = "innsbruck", table=None) -> bool:
    """`position_wins` without its argument checks (about 30 us, several times the solve of a short ending), for
    positions the caller built itself."""
    pmasks, precs = _style_arrays(style)
    tcards, tids = _trick_arrays(trick)
    return bool(_solve(np.asarray(hands, dtype=np.uint64), tcards, tids, len(trick), leader,
                       np.array(won, dtype=np.int64), pmasks[trump], precs[trump], trump, team, need,
                       _scratch("table", new_table) if table is None else table, _scratch("moves", new_moves)))


_SCRATCH = threading.local()


def _scratch(name: str, make):
    """This thread's reused solver buffer ``name`` (made by ``make()`` on first use): a table can
    serve any number of solves (`_tag`), and the moves scratch is overwritten by each."""
    buffer = getattr(_SCRATCH, name, None)
    if buffer is None:
        buffer = make()
        setattr(_SCRATCH, name, buffer)
    return buffer


@njit
def _team_tricks(hands, pmask, prec, trump, leader, team, table, moves):
    """Tricks ``team`` can force out of the cards in hand (all played, no Spiel stop), from a trick
    boundary with ``leader`` to lead: the largest x such that ``team`` takes x of the remaining k."""
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    k = popcount(hands[leader])
    won[1 - team] = TRICKS - k  # the opponents' head start turns "x of k" into "x of TRICKS"
    low, high = 0, k
    while low < high:
        mid = (low + high + 1) // 2
        if _solve(hands, tcards, tids, 0, leader, won, pmask, prec, trump, team, mid, table, moves):
            low = mid
        else:
            high = mid - 1
    return low


def forced_tricks(hands, trump: int, style: str = "innsbruck", leader: int = FOREHAND) -> tuple[int, int]:
    """Tricks teams 0 and 1 can each force if every card in hand were played, from a trick boundary
    with ``leader`` to lead; hands (4,) uint64 of equal sizes k; the two add up to k."""
    hands, trump = checked_hands(hands, sizes=range(1, TRICKS + 1)), checked_trump(trump, style)
    leader = checks.whole(leader, "leader", 0, SEATS - 1)
    pmasks, precs = PlayRules(style).arrays()
    t1 = _team_tricks(hands, pmasks[trump], precs[trump], np.int64(trump), np.int64(leader), np.int64(1),
                      new_table(), new_moves())
    return int(popcount(hands[leader])) - t1, t1


def optimal_line(hands, trump: int, style: str = "innsbruck", leader: int = FOREHAND) -> list[tuple[int, int, int]]:
    """A line of perfect play to the Spiel as (seat, card, identity): at every turn the first play in
    the solver's order that keeps the Spiel with the team that wins it. hands (4,) uint64, five cards each."""
    hands, trump = checked_hands(hands), checked_trump(trump, style)
    leader = checks.whole(leader, "leader", 0, SEATS - 1)
    pmasks, precs = PlayRules(style).arrays()
    pmask, prec = pmasks[trump], precs[trump]
    table, moves = new_table(), new_moves()
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    team = leader % 2
    count = 0
    if not _solve(hands, tcards, tids, 0, leader, won, pmask, prec, trump, team, SPIEL, table, moves):
        team = 1 - team
    line = []
    while won[0] < SPIEL and won[1] < SPIEL:
        seat = (leader + count) % SEATS
        slot, best_key = _best_slot(tids, tcards, count, prec, np.int64(trump)) if count else (0, -1)
        n = _moves(hands, seat, tcards, tids, count, slot, best_key, pmask, prec, np.int64(trump), moves, 0,
                   _new_work())
        options = moves[0, :2, :n].T.copy()
        for card, identity in options:
            hands[seat] ^= _ONE << np.uint64(card)
            tcards[count], tids[count] = card, identity
            after_leader, after_count, after_won = leader, count + 1, won.copy()
            if after_count == SEATS:
                after_leader = int(trick_winner(tcards, tids, leader, prec, trump))
                after_won[after_leader % 2] += 1
                after_count = 0
            if _solve(hands, tcards, tids, after_count, after_leader, after_won, pmask, prec, trump, team, SPIEL,
                      table, moves):
                break
            hands[seat] ^= _ONE << np.uint64(card)
        line.append((seat, int(card), int(identity)))
        leader, count, won = after_leader, after_count, after_won
    return line


# --- Spiel counting job -------------------------------------------------------------------------
BINS = 9
"""Histogram bins per team feature (0..8 Perlaggen or natural trumps; top Perlaggen use 0..5)."""
FEATURES = ("perlaggen", "natural_trumps", "top_perlaggen")


@njit
def _played_rows(slots, seat, record, record_known, own_gives, trump, masks, pcards, flags, tables, kinds, conds,
                 rows, keep):
    """Replay team D's exchanges on sampled pre-exchange deals (perlaggen_deal.Known's spec) into
    rows (n, N_FIELDS); keep (n,) marks the deals consistent with the public facts and the conditions
    ``conds`` (perlaggen_deal._meets), exactly as perlaggen_deal's odds tally accepts them."""
    g = np.zeros(SEATS, dtype=np.int64)
    h = np.zeros(SEATS, dtype=np.int64)
    for d in range(slots.shape[0]):
        keep[d] = False
        if not D._replay(slots, d, trump, masks, pcards, flags, tables, kinds, seat, own_gives, rows[d]):
            continue
        if (rows[d, seat] & record[0]) != record[0]:
            continue
        if record_known and (rows[d, D.GAVE0] != record[1] or rows[d, D.TOOK0] != record[2]
                             or rows[d, D.GAVE2] != record[3] or rows[d, D.TOOK2] != record[4]):
            continue
        D._table_codes(rows[d], masks, pcards, tables, kinds, g, h)
        keep[d] = D._meets(g, h, conds)


@njit
def _team_features(hands, trumps, pmasks, precs, team, out):
    """out (n, 3): per deal the team's Perlaggen, natural trumps, and Perlaggen above every Perlagg
    of the opponents (its sure tricks, `_sure_tricks` without natural trumps)."""
    for i in range(hands.shape[0]):
        t = trumps[i]
        ours = hands[i, team] | hands[i, team + 2]
        out[i, 0] = popcount(ours & pmasks[t])
        out[i, 1] = popcount(ours & ~pmasks[t] & SUIT_MASKS[t])
        theirs = (hands[i, 1 - team] | hands[i, 3 - team]) & pmasks[t]
        top = 0
        while theirs:
            c = lowest_card(theirs)
            theirs &= theirs - _ONE
            top = max(top, precs[t, c])
        m = ours & pmasks[t]
        n = 0
        while m:
            c = lowest_card(m)
            m &= m - _ONE
            n += precs[t, c] > top
        out[i, 2] = n


def spiel_winners(method: str, hands, trumps, u=None, style: str = "innsbruck", concede: float = 0.0) -> np.ndarray:
    """Team (0 or 1) that wins the Spiel of each deal played by ``method`` of METHODS at every seat, seat 1 leading:
    hands (n, 4) uint64, trumps (n,) int64; u (n, DECISIONS) the policies' uniforms (unused by "dd"); concede as in
    `play_out`. No argument checks (for the jobs that deal their own hands)."""
    if method == "dd":
        return trusted_spiel_teams(hands, trumps, style)
    return trusted_play_out(method, hands, trumps, u, style, concede=concede)[0]


class SpielJob:
    """Counts for the runner: [accepted deals, deals whose Spiel ``team`` wins, then per FEATURES x
    BINS: deals, wins], played by ``method``: "dd" (double dummy: both teams play perfectly seeing
    all hands), "greedy" (G1), "g2" (G2) or "random" (R0) at every seat; seat 1 leads. concede:
    G2's concession threshold (`play_out`; 0: G2 never concedes).

    known: the public facts and one hand (perlaggen_deal.Known, spec §3.6/§11.4): deals are sampled
    under them and ``team`` is that seat's; None: deals as played (§3) and ``team`` as given.
    conditions: (k, 4) int64 of perlaggen_deal._meets, met by every deal kept (with ``known`` only).
    """

    n_counts = 2 + 2 * len(FEATURES) * BINS
    block_size = 512

    def __init__(self, known: D.Known | None, rules: D.DealRules = D.DealRules(), method: str = "dd",
                 team: int = FOREHAND % 2, concede: float = 0.0, conditions: np.ndarray = D.NO_CONDITIONS):
        if method not in METHODS:
            raise unknown_name("--spiel", method, METHODS)
        self.concede = check_concede(concede, method)
        self.known, self.rules, self.method = known, rules, method
        self.team = team if known is None else known.seat % 2
        self.spec = None if known is None else known.deal_spec(P.has_weli(rules.style))
        self.conditions = np.asarray(conditions, dtype=np.int64).reshape(-1, 4)

    def key(self) -> str:
        facts = "as-played" if self.known is None else self.known.key()
        conceding = f"|concede={self.concede!r}" if self.concede else ""
        given = f"|given={self.conditions.tolist()}" if len(self.conditions) else ""
        return f"perlaggen|spiel|{self.rules.key()}|{facts}|team={self.team}|method={self.method}{conceding}{given}"

    def _rows(self, seed: int, block: int, n_deals: int) -> tuple[np.ndarray, np.ndarray]:
        """(played deal rows (n, N_FIELDS), keep (n,) bool) of one block."""
        if self.known is None:
            rows = D.deal_block(block_words(seed, block, n_deals, D.WORDS_PER_DEAL), self.rules)
            return rows, np.ones(n_deals, dtype=np.bool_)
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        rows = np.zeros((n_deals, D.N_FIELDS), dtype=np.uint64)
        keep = np.zeros(n_deals, dtype=np.bool_)
        known = self.known
        _played_rows(slots, known.seat, known.record(), known.exchanges is not None, known.own_gives(), known.trump,
                     *self.rules.kernel_args(), self.conditions, rows, keep)
        keep &= known.holds_held(rows)
        return rows, keep

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        rows, keep = self._rows(seed, block, n_deals)
        hands = np.ascontiguousarray(rows[keep, :SEATS])
        trumps = rows[keep, D.TRUMP].astype(np.int64)
        u = None if self.method == "dd" else block_substream(seed, block, PLAY_STREAM).random((n_deals, DECISIONS))
        teams = spiel_winners(self.method, hands, trumps, None if u is None else u[keep], self.rules.style,
                              self.concede)
        wins = teams == self.team
        pmasks, precs = PlayRules(self.rules.style).arrays()
        features = np.empty((hands.shape[0], len(FEATURES)), dtype=np.int64)
        _team_features(hands, trumps, pmasks, precs, self.team, features)
        parts = [[keep.sum(), wins.sum()]]
        for f in range(len(FEATURES)):
            parts += [np.bincount(features[:, f], minlength=BINS)[:BINS],
                      np.bincount(features[wins, f], minlength=BINS)[:BINS]]
        return np.concatenate(parts).astype(np.int64)


# --- the fifth trick with one card each (spec §10 Q12) ----------------------------------------------
def strongest_play(card: int, trump: int, style: str = "innsbruck") -> tuple[int, int]:
    """The (card, identity) play of a last ``card`` that ranks highest in any fifth trick: a natural card as itself
    (it is the only card, so it is legal, §7.2), a Perlagg baptised as the trump Ace (with no natural card left it may
    take any identity, A-05, B10; the trump Ace's key is the largest, §2.5, and the Perlagg's precedence breaks a tie
    with another). A player wants his team to take the last trick, and no later card can do worse against this play
    than against a weaker one."""
    if (_perlagg_mask(style, trump) >> card) & 1:
        return card, trump * 8 + 7
    return card, card


def last_trick_counts(card: int, trick, trump: int, pool, style: str = "innsbruck",
                      identity: int | None = None, barred=()) -> tuple[int, int, int]:
    """Exact counts of the fifth trick with one card each (spec §10 Q12): ``card`` is yours (already played to the
    trick as ``identity`` when given: §8.5, A-34, you may bet after playing it), ``trick`` the (card, identity) plays
    before yours, and the players after you hold an ordered draw without replacement of distinct cards of ``pool``
    (the cards you have not seen); every card not yet played goes as `strongest_play`. Returns (draws in which no
    opponent's card beats yours, draws in which your team takes the trick, all draws); your team is every second
    seat from yours. The first count leaves your partner out: his Perlagg, played as the trump Ace, would overtake
    your card without costing the team anything. ``barred``: per later player in order, the cards he cannot hold
    (e.g. the natural cards of a suit he showed void in); draws that give him one are left out."""
    _, precs = _style_arrays(style)
    trick = [(int(c), int(b)) for c, b in trick]
    mine = strongest_play(card, trump, style) if identity is None else (card, identity)
    position = len(trick)
    card_wins = team_wins = draws = 0
    barred = [set(cards) for cards in barred]
    for later in itertools.permutations(pool, SEATS - 1 - position):
        if any(other in cards for other, cards in zip(later, barred)):
            continue
        plays = trick + [mine] + [strongest_play(other, trump, style) for other in later]
        led = id_suit(plays[0][1])
        keys = [play_key(b, precs[trump, c], led, trump) for c, b in plays]
        best = keys.index(max(keys))
        card_wins += all(keys[position] > keys[slot] for slot in range(SEATS) if (slot - position) % 2)
        team_wins += (best - position) % 2 == 0
        draws += 1
    return card_wins, team_wins, draws
