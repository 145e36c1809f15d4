"""Exact Dreeg deal facts (spec §6.3) by enumeration, as fractions.

A hand's marriages and trumps depend only on its *suit profile*: for each suit, whether it holds the
King, whether it holds the Ober, and how many of the other four cards of the suit it holds. Every
hand of ``n`` cards is enumerated once through its profile, weighted by the number of hands sharing
it (a product of binomials), so the figures are full enumerations of all C(24, n) hands, grouped.
Table-wide marriages enumerate where each of the 8 Kings and Obers lies (as the spec's Appendix A),
weighted by the ways to fill the other places.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import product
from math import comb, factorial

from simcore import checks
from simcore.errors import CardsimError

N_SUITS, SUIT_SIZE, OTHERS = 4, 6, 4
DECK_SIZE = N_SUITS * SUIT_SIZE


@lru_cache(maxsize=None)
def profiles(n: int) -> tuple[tuple[tuple[tuple[int, int, int], ...], int], ...]:
    """Every suit profile of an ``n``-card hand with its number of hands: ((per suit (king, ober,
    others)), weight); the weights add up to C(24, n)."""
    per_suit = [(k, o, x) for k in (0, 1) for o in (0, 1) for x in range(OTHERS + 1)]
    out = []
    for prof in product(per_suit, repeat=N_SUITS):
        if sum(k + o + x for k, o, x in prof) == n:
            weight = 1
            for _, _, x in prof:
                weight *= comb(OTHERS, x)
            out.append((prof, weight))
    return tuple(out)


def _length(part) -> int:
    return part[0] + part[1] + part[2]


def _cards(n, low: int = 0, high: int = DECK_SIZE) -> int:
    """``n`` as an int when it is a whole number of cards from ``low`` to ``high``; CardsimError otherwise."""
    return checks.whole(n, "n (the cards in the hand)", low, high)


def marriage_distribution(n: int) -> dict[int, Fraction]:
    """P(exactly k marriages) in a random ``n``-card hand (0-24 cards)."""
    n = _cards(n)
    dist: dict[int, int] = {}
    for prof, w in profiles(n):
        k = sum(1 for part in prof if part[0] and part[1])
        dist[k] = dist.get(k, 0) + w
    return {k: Fraction(v, comb(24, n)) for k, v in sorted(dist.items())}


def suit_marriage(n: int) -> Fraction:
    """P(a random ``n``-card hand holds the marriage of one given suit) (0-24 cards)."""
    n = _cards(n)
    return Fraction(sum(w for prof, w in profiles(n) if prof[0][0] and prof[0][1]), comb(24, n))


def _turned(n: int, dealer: bool, key) -> dict:
    """Distribution of key(part of the trump suit) when the trump is the suit of the turned card:
    the dealer's turned card is one of his ``n`` cards (1-24), anyone else's one of the 24 - n he lacks (n 0-23)."""
    n = _cards(n, low=1) if checks.flag(dealer, "dealer") else _cards(n, high=DECK_SIZE - 1)
    dist: dict = {}
    for prof, w in profiles(n):
        for part in prof:
            length = _length(part)
            share = Fraction(length, n) if dealer else Fraction(SUIT_SIZE - length, 24 - n)
            if share:
                k = key(part)
                dist[k] = dist.get(k, 0) + w * share
    return {k: v / comb(24, n) for k, v in sorted(dist.items())}


def trump_marriage(n: int, dealer: bool) -> Fraction:
    """P(holding trump King + Ober) when the turned card sets the trump (phase 1, §6.3)."""
    return _turned(n, dealer, lambda part: bool(part[0] and part[1])).get(True, Fraction(0))


def trump_count_distribution(n: int, dealer: bool) -> dict[int, Fraction]:
    """P(exactly t trumps) in phase 1 for the dealer (owner of the turned card) or another player."""
    return _turned(n, dealer, _length)


def _multinomial(n: int, parts) -> int:
    out = factorial(n)
    for p in parts:
        out //= factorial(p)
    return out


def table_marriage_distribution(sizes: tuple[int, ...], counted: int | None = None) -> dict[int, Fraction]:
    """P(exactly k marriages in single hands) when 24 cards go to places of ``sizes``; only the first
    ``counted`` places are hands (default all; e.g. (6, 6, 12) with counted 2: the talon excluded)."""
    listed = isinstance(sizes, (list, tuple))
    sizes = tuple(checks.whole(size, "sizes", 0, DECK_SIZE) for size in sizes) if listed else ()
    if sum(sizes) != DECK_SIZE:
        raise CardsimError(f"sizes must be the numbers of cards of the places the {DECK_SIZE} cards go to, adding up "
                           f"to {DECK_SIZE}, e.g. (6, 6, 6, 6), got {sizes!r}")
    counted = len(sizes) if counted is None else checks.whole(counted, "counted", 0, len(sizes))
    total = _multinomial(24, sizes)
    dist: dict[int, int] = {}
    for where in product(range(len(sizes)), repeat=2 * N_SUITS):
        room = list(sizes)
        for place in where:
            room[place] -= 1
        if min(room) < 0:
            continue
        k = sum(1 for s in range(N_SUITS) if where[2 * s] == where[2 * s + 1] < counted)
        dist[k] = dist.get(k, 0) + _multinomial(24 - 2 * N_SUITS, room)
    return {k: Fraction(v, total) for k, v in sorted(dist.items())}


def deal_counts() -> dict[str, int]:
    """The deal counts of §6.3."""
    return {
        "6-card hands": comb(24, 6),
        "8-card hands": comb(24, 8),
        "Rufen first packets": comb(24, 3),
        "4-player deals": _multinomial(24, (6, 6, 6, 6)),
        "3-player deals": _multinomial(24, (8, 8, 8)),
        "2-player deals, talon unordered": comb(24, 6) * comb(18, 6),
        "2-player deals, talon ordered": factorial(24) // (factorial(6) ** 2),
    }
