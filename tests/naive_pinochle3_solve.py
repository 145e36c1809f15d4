"""Plain minimax for Pinochle play endings, for tests only: every legal card of every seat is tried,
no pruning, no card equivalences, no move ordering (spec shared/rules/pinochle3.md §5). Values of
positions already seen are remembered (the same full tree, evaluated once per position).

Cards, hands and tricks as in `naive_pinochle3_play`.
"""

from __future__ import annotations

from functools import lru_cache

from naive_pinochle3_play import counters, legal, winner_index


def minimax(hands, trump: int, leader: int, bidder: int, rule: str = "old", trick=()) -> int:
    """The bidder's trick points from here on when he maximizes them and both defenders minimize.

    hands: three sets of cards (the same size once ``trick`` is complete); trick: cards already
    played to the current trick, led by ``leader``. The last trick adds 10 (R1.4).
    """
    value = _value(tuple(frozenset(h) for h in hands), trump, leader, bidder, rule, tuple(trick))
    _value.cache_clear()
    return value


@lru_cache(maxsize=None)
def _value(hands, trump, leader, bidder, rule, trick) -> int:
    seat = (leader + len(trick)) % 3
    if not any(hands) and not trick:
        return 0
    values = []
    for card in legal(hands[seat], list(trick), trump, rule):
        rest = tuple(h - {card} if s == seat else h for s, h in enumerate(hands))
        played = trick + (card,)
        if len(played) < 3:
            values.append(_value(rest, trump, leader, bidder, rule, played))
            continue
        winner = (leader + winner_index(played, trump)) % 3
        points = 10 * counters(played) + (10 if not any(rest) else 0)
        values.append((points if winner == bidder else 0) + _value(rest, trump, winner, bidder, rule, ()))
    return max(values) if seat == bidder else min(values)
