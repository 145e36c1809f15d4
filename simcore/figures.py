"""Figure kernels on hand bitmasks: sets of equal rank and same-suit runs, and team resolution.

They work on any grid deck without duplicates (suit-major bits, ``card = suit * n_ranks + rank``,
ranks weakest first). Codes grow with strength:

* set code ``n_ranks * (size - 2) + rank`` for the best set of >= 2 equal ranks, -1 for none;
* run code ``n_ranks * (length - 2) + top_rank`` for the best run of >= 2 consecutive ranks of one
  suit (no wrap-around), -1 for none.

Team resolution compares the best code of each team (seats 0, 2 against 1, 3).
"""

from __future__ import annotations

import numpy as np

from simcore.config import njit

TEAM0, TEAM1, STAND, VOID = 0, 1, 2, 3
ABSOLUTE_OUTCOMES = ("team0", "team1", "stand", "void")
RELATIVE_OUTCOMES = ("win", "stand", "lose", "void")


def run_table(n_ranks: int) -> np.ndarray:
    """(2**n_ranks,) int16: best run code of every suit mask (bit r = rank r held)."""
    table = np.full(1 << n_ranks, -1, dtype=np.int16)
    for m in range(1 << n_ranks):
        for length in range(n_ranks, 1, -1):
            tops = m
            for k in range(1, length):
                tops &= m >> k
            if tops:
                table[m] = n_ranks * (length - 2) + tops.bit_length() - 1 + (length - 1)
                break
    return table


@njit
def set_code(mask, n_suits, n_ranks):
    """Best set code of one hand mask (uint64); -1 without a pair."""
    best = -1
    for r in range(n_ranks):
        count = 0
        for s in range(n_suits):
            count += np.int64((mask >> np.uint64(s * n_ranks + r)) & np.uint64(1))
        if count >= 2:
            code = n_ranks * (count - 2) + r
            if code > best:
                best = code
    return best


def top_bit_table(n_bits: int) -> np.ndarray:
    """(2**n_bits,) int8: index of the highest set bit of every value, -1 for 0."""
    return np.array([v.bit_length() - 1 for v in range(1 << n_bits)], dtype=np.int8)


@njit
def set_code_four_suits(mask, n_ranks, top_bit):
    """`set_code` for packs of exactly four suits, by bit-sliced addition of the suit masks.

    top_bit: ``top_bit_table(n_ranks)``. Per rank the count of the four suit bits is summed into
    bit planes (ones, twos, fours), so quads, triples and pairs are whole rank masks at once.
    """
    width = np.uint64(n_ranks)
    suit_bits = np.uint64((1 << n_ranks) - 1)
    a = mask & suit_bits
    b = (mask >> width) & suit_bits
    c = (mask >> (width + width)) & suit_bits
    d = (mask >> (width + width + width)) & suit_bits
    half1, carry1 = a ^ b, a & b
    half2, carry2 = c ^ d, c & d
    ones = half1 ^ half2
    carry = half1 & half2
    twos = carry1 ^ carry2 ^ carry
    fours = (carry1 & carry2) | ((carry1 ^ carry2) & carry)
    if fours:
        return 2 * n_ranks + np.int64(top_bit[np.int64(fours)])
    triples = ones & twos
    if triples:
        return n_ranks + np.int64(top_bit[np.int64(triples)])
    if twos:
        return np.int64(top_bit[np.int64(twos)])
    return -1


@njit
def run_code(mask, n_suits, n_ranks, table):
    """Best run code of one hand mask (uint64) using ``run_table(n_ranks)``; -1 without a run."""
    best = -1
    suit_bits = np.uint64((1 << n_ranks) - 1)
    for s in range(n_suits):
        code = table[np.int64((mask >> np.uint64(s * n_ranks)) & suit_bits)]
        if code > best:
            best = code
    return best


@njit
def wild_set_code(naturals, wilds, n_suits, n_ranks):
    """`set_code` of a hand of the natural cards ``naturals`` (uint64 mask) and ``wilds`` wild cards, each of which
    stands for any card the hand does not hold: a rank with c natural cards makes a set of min(c + wilds, n_suits)
    cards, so with two wild cards or more even a rank the hand lacks makes one; -1 without a pair."""
    best = -1
    for r in range(n_ranks):
        count = wilds
        for s in range(n_suits):
            count += np.int64((naturals >> np.uint64(s * n_ranks + r)) & np.uint64(1))
        size = min(count, n_suits)
        if size >= 2 and n_ranks * (size - 2) + r > best:
            best = n_ranks * (size - 2) + r
    return best


@njit
def wild_run_code(naturals, wilds, n_suits, n_ranks):
    """`run_code` of the same hand: the longest window of consecutive ranks of one suit (no wrap-around) whose
    cards the hand lacks the wild cards can fill, then the highest top; -1 without a run."""
    best = -1
    for s in range(n_suits):
        for low in range(n_ranks):
            held = 0
            for top in range(low, n_ranks):
                held += np.int64((naturals >> np.uint64(s * n_ranks + top)) & np.uint64(1))
                length = top - low + 1
                if length - held > wilds:
                    break
                if length >= 2 and n_ranks * (length - 2) + top > best:
                    best = n_ranks * (length - 2) + top
    return best


@njit
def resolve(code0, code1, code2, code3):
    """Team outcome of one figure from the four seats' codes: TEAM0, TEAM1, STAND or VOID."""
    a = max(code0, code2)
    b = max(code1, code3)
    if a > b:
        return TEAM0
    if b > a:
        return TEAM1
    if a < 0:
        return VOID
    return STAND


@njit
def hand_codes(hands, n_suits, n_ranks, table):
    """Set and run codes of many hands: hands (n, k) uint64 -> (n, k, 2) int16 (set, run)."""
    n, k = hands.shape
    out = np.empty((n, k, 2), dtype=np.int16)
    for i in range(n):
        for j in range(k):
            out[i, j, 0] = set_code(hands[i, j], n_suits, n_ranks)
            out[i, j, 1] = run_code(hands[i, j], n_suits, n_ranks, table)
    return out


@njit
def relative_outcome(outcome, team):
    """Index into RELATIVE_OUTCOMES of an absolute outcome seen from ``team``."""
    if outcome == STAND:
        return 1
    if outcome == VOID:
        return 3
    return 0 if outcome == team else 2
