"""Exact counts of hands dealt from a pack of distinct cards: card points by subset sums, and the hypergeometric law.

Every hand is counted once, in whole numbers; the games' exact-fact modules (spec tables "exact combinatorial
facts") build on these.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

from simcore import checks
from simcore.errors import CardsimError


def point_counts(points, n: int, fixed: int = 0) -> tuple[int, ...]:
    """Hands of ``n`` cards of a pack whose card c is worth ``points[c]`` (whole numbers >= 0) that hold every card
    of the mask ``fixed``: the number of such hands per card points 0..sum(points)."""
    if not isinstance(points, (list, tuple)):
        raise CardsimError(f"points must list every card's points, got {checks.shown(points)}")
    points = tuple(checks.whole(p, "a card's points", 0) for p in points)
    n = checks.whole(n, "n (the cards in the hand)", 0, len(points))
    fixed = checks.whole(fixed, "fixed (a card mask)", 0, (1 << len(points)) - 1)
    if fixed.bit_count() > n:
        raise CardsimError(f"a hand of {n} cards cannot hold the {fixed.bit_count()} fixed cards")
    return _point_counts(points, n, fixed)


@lru_cache(maxsize=None)
def _point_counts(points: tuple[int, ...], n: int, fixed: int) -> tuple[int, ...]:
    total = sum(points)
    free = [p for c, p in enumerate(points) if not fixed >> c & 1]
    counts = [[0] * (total + 1) for _ in range(len(free) + 1)]  # counts[k][s]: k free cards worth s
    counts[0][0] = 1
    for value in free:
        for k in range(len(free) - 1, -1, -1):
            for s in range(total - value, -1, -1):
                if counts[k][s]:
                    counts[k + 1][s + value] += counts[k][s]
    shift = sum(p for c, p in enumerate(points) if fixed >> c & 1)
    return tuple([0] * shift + counts[n - fixed.bit_count()][:total + 1 - shift])


def multinomial(n: int, parts) -> int:
    """Ways to split ``n`` distinct cards into places of the sizes ``parts`` (adding up to ``n``), places told apart:
    n! / (parts[0]! parts[1]! ...)."""
    out = factorial(n)
    for part in parts:
        out //= factorial(part)
    return out


def hypergeometric(special: int, population: int, drawn: int) -> dict[int, Fraction]:
    """P(k of ``special`` cards among ``drawn`` cards dealt at random from ``population``), k = 0..min."""
    population = checks.whole(population, "population", 0)
    special = checks.whole(special, "special cards", 0, population)
    drawn = checks.whole(drawn, "cards drawn", 0, population)
    return {k: Fraction(comb(special, k) * comb(population - special, drawn - k), comb(population, drawn))
            for k in range(max(0, drawn - population + special), min(special, drawn) + 1)}
