"""Brute-force Perlaggen figures, written from the rules spec (perlaggen.md), not from the kernels.

Cards and identities are tokens (``HK``, ``S6``, ``L10``). Every free Perlagg of a hand is given
every identity of the pack (B2, A-23: the 33 faces); the best Gleich, the best Hanger and the
Pareto frontier are read off all those baptisms. Perlaggen are interchangeable for figures (B8:
precedence plays no part), so the baptisms are enumerated as multisets of identities.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

SUITS = ("E", "L", "H", "S")
LADDER = ("7", "8", "9", "10", "U", "O", "K", "A")  # strength 1..8 (§1.1); the bells 6 is 0
IDENTITIES = tuple(s + r for s in SUITS for r in LADDER) + ("S6",)

# §2.2 and §9.1, written out per trump, highest precedence first.
PERLAGGEN = {
    ("innsbruck", "H"): ("HK", "S6", "S7", "E7", "H7", "HU", "HO"),
    ("innsbruck", "L"): ("HK", "S6", "S7", "E7", "L7", "LU", "LO"),
    ("innsbruck", "S"): ("HK", "S6", "S7", "E7", "SU", "SO"),
    ("innsbruck", "E"): ("HK", "S6", "S7", "E7", "EU", "EO"),
    ("eichel", "H"): ("HK", "S6", "H7", "HU", "HO", "E7", "EU", "EO"),
    ("eichel", "L"): ("HK", "S6", "L7", "LU", "LO", "E7", "EU", "EO"),
    ("eichel", "S"): ("HK", "S6", "S7", "SU", "SO", "E7", "EU", "EO"),
    ("straf", "H"): ("HK", "S6", "S7", "E7", "H7", "HU", "HO", "EU", "EO"),  # §9.5 table, A-03
    ("straf", "L"): ("HK", "S6", "S7", "E7", "L7", "LU", "LO", "EU", "EO"),
    ("straf", "S"): ("HK", "S6", "S7", "E7", "SU", "SO", "EU", "EO"),
    ("schlanders", "H"): ("HK", "S8", "H7", "HO", "HU", "E7", "EO", "EU"),  # §9.6 (S4), A-04
    ("schlanders", "L"): ("HK", "S8", "L7", "LO", "LU", "E7", "EO", "EU"),
    ("schlanders", "S"): ("HK", "S8", "S7", "SO", "SU", "E7", "EO", "EU"),
    ("schlanders_e8", "H"): ("HK", "E8", "H7", "HO", "HU", "E7", "EO", "EU"),  # §9.6 as S1 reads it
    ("schlanders_e8", "L"): ("HK", "E8", "L7", "LO", "LU", "E7", "EO", "EU"),
    ("schlanders_e8", "S"): ("HK", "E8", "S7", "SO", "SU", "E7", "EO", "EU"),
    ("deutschnofen", "H"): ("S6", "HK", "SK", "H7", "S7", "L7", "E7", "HO", "HU"),  # §9.6, A-33
    ("deutschnofen", "L"): ("S6", "HK", "SK", "H7", "S7", "L7", "E7", "LK", "LO", "LU"),
    ("deutschnofen", "S"): ("S6", "HK", "SK", "H7", "S7", "L7", "E7", "SO", "SU"),
    ("deutschnofen", "E"): ("S6", "HK", "SK", "H7", "S7", "L7", "E7", "EK", "EO", "EU"),
}


def strength(identity: str) -> int:
    """Strength of an identity: A 8 ... 7 1, the bells 6 0."""
    return 0 if identity == "S6" else LADDER.index(identity[1:]) + 1


STRENGTH = {i: strength(i) for i in IDENTITIES}


def gleich_code(identities) -> int:
    """16 * size + strength of the best set of >= 2 equal ranks (§5.2); 0 = none."""
    sizes = Counter(STRENGTH[i] for i in identities)
    return max((16 * size + st for st, size in sizes.items() if size >= 2), default=0)


def hanger_code(identities, six_below_bells_seven: bool = True) -> int:
    """16 * length + top strength of the best run of one suit (§6.2, A-24); 0 = none."""
    held = {suit: set() for suit in SUITS}
    for i in identities:
        if i != "S6" or six_below_bells_seven:
            held[i[0]].add(STRENGTH[i])
    best = 0
    for ladder in held.values():
        for top in ladder:
            length = 1
            while top - length in ladder:
                length += 1
            if length >= 2:
                best = max(best, 16 * length + top)
    return best


def pareto(points) -> set[tuple[int, int]]:
    """The (Gleich, Hanger) points no other point matches or beats in both codes."""
    pts = set(points)
    return {p for p in pts if not any(q != p and q[0] >= p[0] and q[1] >= p[1] for q in pts)}


def figures(hand, style: str, trump: str, fixed=None, six_below_bells_seven: bool = True):
    """(best Gleich, best Hanger, frontier) of a hand by trying every baptism of its free Perlaggen.

    hand: card tokens; fixed: {Perlagg token: identity token} for Perlaggen already baptised.
    Best Gleich and best Hanger are each maximised on their own (L0); the frontier is the set of
    Pareto-best (Gleich, Hanger) pairs of single baptisms (§6.5).
    """
    fixed = fixed or {}
    wild = PERLAGGEN[(style, trump)]
    base = [fixed.get(c, c) if c in wild else c for c in hand if c not in wild or c in fixed]
    free = sum(1 for c in hand if c in wild and c not in fixed)
    points = set()
    for extra in combinations_with_replacement(IDENTITIES, free):
        ids = base + list(extra)
        points.add((gleich_code(ids), hanger_code(ids, six_below_bells_seven)))
    return max(g for g, _ in points), max(h for _, h in points), pareto(points)
