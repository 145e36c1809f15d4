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


def meld_worlds(unseen, sizes, banned, shown, played, trump: int, options=None) -> list[tuple[frozenset, frozenset]]:
    """The `worlds` in which each defender's dealt hand (his cards plus ``played[i]``) lays down as meld exactly the
    faces of the cards ``shown[i]`` under ``trump`` (R3.9c, R3.9d, R3.9f), by brute force with
    `pinochle3.meld_breakdown` (the cards of its melds, each once)."""
    from collections import Counter

    from simcore.games.pinochle3 import meld_breakdown

    def fits(hand, i):
        laid = {c for m in meld_breakdown(sorted(set(hand) | set(played[i])), trump, options) for c in m.cards}
        return Counter(c // 2 for c in laid) == Counter(c // 2 for c in shown[i])

    return [w for w in worlds(unseen, sizes, banned) if fits(w[0], 0) and fits(w[1], 1)]


def faces(world) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A world as its two hands' faces (``card // 2``, sorted): the two copies of a card play alike."""
    return tuple(tuple(sorted(c // 2 for c in hand)) for hand in world)
