"""Trick kernels on hand bitmasks: legal moves and the trick winner, for any suit-major grid pack.

Encoding as in `simcore.cards`: ``card = suit * n_ranks + rank`` with rank 0 the weakest; a hand is a
``uint64`` mask (bit ``card``). A trick is an array with one slot per player holding the cards in the
order played, the first by the leader; the player of slot ``i`` is seat ``(leader + i) % n_players``.
A suit of -1 means "none": no card led yet, or no trump.

Rule families for `legal_mask` (``rule``):

* `FOLLOW_OR_TRUMP`: a plain suit led, follow it or trump at will; trump led, play trump if you can;
  without the suit led, anything (Giltspiel §6.1, Perlaggen).
* `MUST_FOLLOW`: follow the suit led if you can, otherwise anything.

The trick goes to the highest trump, or without trumps to the highest card of the suit led
(`card_power`).
"""

from __future__ import annotations

import numba
import numpy as np

from simcore.config import njit

FOLLOW_OR_TRUMP = 0
MUST_FOLLOW = 1

_ONE = np.uint64(1)
_DEBRUIJN = 0x03F79D71B4CB0A89


def _bit_index_table() -> np.ndarray:
    """(64,) int64: bit b of a single-bit mask, indexed by the top six bits of mask * `_DEBRUIJN`
    (a de Bruijn sequence: those six bits differ for every b)."""
    table = np.zeros(64, dtype=np.int64)
    for b in range(64):
        table[((_DEBRUIJN << b) & (2**64 - 1)) >> 58] = b
    return table


_BIT_INDEX = _bit_index_table()


def bit_extract_table(width: int) -> np.ndarray:
    """(2**width, 2**width) uint64: at [m, x] the bits of x at the set bits of m, packed low (a bit
    extraction, PEXT, of ``width``-bit words by lookup)."""
    m, x = np.divmod(np.arange(1 << 2 * width, dtype=np.uint64), np.uint64(1 << width))
    out, place = np.zeros_like(m), np.zeros_like(m)
    for b in range(width):
        chosen = (m >> np.uint64(b)) & _ONE
        out |= ((x >> np.uint64(b)) & chosen) << place
        place += chosen
    return out.reshape(1 << width, 1 << width)


def suit_bits(n_suits: int, n_ranks: int) -> np.ndarray:
    """(n_suits,) uint64: the mask of every card of each suit."""
    return np.array([((1 << n_ranks) - 1) << (s * n_ranks) for s in range(n_suits)], dtype=np.uint64)


@njit
def lowest_card(mask):
    """Index of the lowest set bit of a non-empty uint64 mask."""
    return _BIT_INDEX[np.int64(((mask & (~mask + _ONE)) * np.uint64(_DEBRUIJN)) >> np.uint64(58))]


if numba.config.DISABLE_JIT:  # numba's bit-count intrinsics have no Python form: the same counts in Python
    def trailing_zeros(mask):
        """Zero bits below the lowest set bit of a non-empty uint64 mask (tzcnt under the JIT)."""
        m = int(mask)
        return (m & -m).bit_length() - 1

    def leading_zeros(mask):
        """Zero bits above the highest set bit of a uint64 mask (lzcnt under the JIT)."""
        return 64 - int(mask).bit_length()
else:  # one instruction each
    from numba.cpython.unsafe import numbers as _intrinsics
    leading_zeros, trailing_zeros = _intrinsics.leading_zeros, _intrinsics.trailing_zeros


@njit
def popcount(mask):
    """Number of set bits of a uint64 mask (int64)."""
    m = mask - ((mask >> _ONE) & np.uint64(0x5555555555555555))
    m = (m & np.uint64(0x3333333333333333)) + ((m >> np.uint64(2)) & np.uint64(0x3333333333333333))
    m = (m + (m >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((m * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit
def random_card(legal, u):
    """The legal card of index floor(u * number of legal cards) in card order; u in [0, 1)."""
    k = np.int64(u * popcount(legal))
    for _ in range(k):
        legal &= legal - _ONE
    return lowest_card(legal)


@njit
def legal_mask(hand, led_suit, trump, suits, rule):
    """Legal cards (uint64 mask) of ``hand`` when ``led_suit`` was led (-1: leading).

    suits: `suit_bits` of the pack; trump: trump suit or -1; rule: FOLLOW_OR_TRUMP or MUST_FOLLOW.
    """
    if led_suit < 0:
        return hand
    follow = hand & suits[led_suit]
    if rule == FOLLOW_OR_TRUMP and trump >= 0:
        if led_suit == trump:
            return follow if follow else hand
        return (follow | (hand & suits[trump])) if follow else hand
    return follow if follow else hand


@njit
def legal_masks(hands, led_suits, trumps, suits, rule):
    """`legal_mask` of many hands: hands, led_suits, trumps (n,) -> (n,) uint64."""
    out = np.empty(hands.shape[0], dtype=np.uint64)
    for i in range(hands.shape[0]):
        out[i] = legal_mask(hands[i], led_suits[i], trumps[i], suits, rule)
    return out


@njit
def card_power(card, led_suit, trump, n_ranks):
    """Trick strength of ``card``: 2*n_ranks + rank for a trump, n_ranks + rank for the suit led, -1 else."""
    suit = card // n_ranks
    if suit == trump:
        return 2 * n_ranks + card % n_ranks
    if suit == led_suit:
        return n_ranks + card % n_ranks
    return -1


@njit
def winning_slot(trick, count, trump, n_ranks):
    """Slot (0 = leader) of the card that wins, so far, the first ``count`` >= 1 cards of ``trick``."""
    led = trick[0] // n_ranks
    best, best_power = 0, card_power(trick[0], led, trump, n_ranks)
    for i in range(1, count):
        power = card_power(trick[i], led, trump, n_ranks)
        if power > best_power:
            best, best_power = i, power
    return best


@njit
def trick_winner(trick, leader, trump, n_ranks):
    """Seat that wins a complete ``trick`` (one card per player, in order) led by ``leader``."""
    players = trick.shape[0]
    return (leader + winning_slot(trick, players, trump, n_ranks)) % players


@njit
def trick_winners(tricks, leaders, trumps, n_ranks):
    """`trick_winner` of many tricks: tricks (n, n_players), leaders, trumps (n,) -> (n,) int64 seats."""
    out = np.empty(tricks.shape[0], dtype=np.int64)
    for i in range(tricks.shape[0]):
        out[i] = trick_winner(tricks[i], leaders[i], trumps[i], n_ranks)
    return out
