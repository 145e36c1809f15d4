"""Plain references for the PIMC bidder (simcore/games/pinochle3_pimc.py), for tests only.

Cards, hands and tricks as in `naive_pinochle3_play`.
"""

from __future__ import annotations

from itertools import combinations

from naive_pinochle3_play import legal


def forbidden(card: int, trick, trump: int, rule: str = "old") -> set:
    """Cards y a player cannot still hold after playing ``card`` to ``trick`` (the cards before it):
    with y in hand, ``card`` would not have been legal (R5.2 by brute force)."""
    seen = set(trick) | {card}
    return {y for y in range(48) if y not in seen and card not in legal({card, y}, list(trick), trump, rule)}


def worlds(unseen, sizes, banned) -> list[tuple[frozenset, frozenset]]:
    """Every split of the unseen cards into two hands of the given sizes in which hand i holds none
    of banned[i]."""
    unseen = sorted(unseen)
    out = []
    for first in combinations(unseen, sizes[0]):
        second = set(unseen) - set(first)
        if not set(first) & set(banned[0]) and not second & set(banned[1]):
            out.append((frozenset(first), frozenset(second)))
    return out
