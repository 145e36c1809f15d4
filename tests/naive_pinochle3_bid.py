"""Plain reference for the Pinochle discard (spec shared/rules/pinochle3.md R4.7), for tests only:
try every 3 of the 18 cards and every trump, score meld of the 15 kept (the literal meld reference)
plus 10 per buried counter; ties broken as the kernel documents (more trumps kept, higher ranks)."""

from __future__ import annotations

from itertools import combinations

import naive_pinochle3
from naive_pinochle3_play import counters, strength, suit

TOKENS = [s + r for s in "SHDC" for r in ("9", "J", "Q", "K", "10", "A")]


def token(card: int) -> str:
    return TOKENS[card // 2]


def best_discard(cards, trumps=range(4)) -> tuple[tuple, int, int, int]:
    """(key, trump, meld, buried) of the best discard of 18 card indices; key = (value, trumps kept,
    rank sum kept) with value = meld + buried."""
    best = None
    for dropped in combinations(sorted(cards), 3):
        kept = [c for c in cards if c not in dropped]
        buried = 10 * counters(dropped)
        for t in trumps:
            meld = naive_pinochle3.meld_total([token(c) for c in kept], "SHDC"[t])
            key = (meld + buried, sum(1 for c in kept if suit(c) == t), sum(strength(c) for c in kept))
            if best is None or key > best[0]:
                best = (key, t, meld, buried)
    return best


def intended_trump(cards) -> tuple[int, int, int]:
    """(meld, trump, trump cards) of the trump a bidder plans with 15 card indices: the most meld, then the most cards
    of the suit, then the first suit in S H D C order."""
    keys = [(naive_pinochle3.meld_total([token(c) for c in cards], "SHDC"[t]), sum(1 for c in cards if suit(c) == t), -t)
            for t in range(4)]
    meld, length, trump = max(keys)
    return meld, -trump, length


def most_meld(cards) -> int:
    """The most meld 15 of 18 card indices can keep, under any trump (spec Q2's kept meld)."""
    return max(naive_pinochle3.meld_total([token(c) for c in cards if c not in dropped], "SHDC"[t])
               for dropped in combinations(sorted(cards), 3) for t in range(4))
