"""Exact facts of a random Pinochle holding (spec §9.2): single melds, counters, suit lengths and nines throw-ins.

Every holding of ``size`` of the 48 cards is counted once, in whole numbers. A holding takes 0, 1 or 2 copies of
each of the 24 faces, in C(2, c) = 1, 2, 1 ways, so the holdings with at least ``m_f`` copies of every face f are
the coefficient of x**size in the product over the faces of sum_{c >= m_f} C(2, c) x**c; a group of faces whose
copies together must lie in [lo, hi] (the nines, a suit, the counters) multiplies its faces first and keeps the
powers lo..hi of that product (`holdings`). "Some of several melds" and "none of them" follow by inclusion-exclusion
(`holdings_with_any`, `holdings_without`). The meld distributions themselves are `pinochle3.exact_meld_distribution`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np

from simcore import checks
from simcore.errors import CardsimError
from simcore.games.pinochle3 import (ACE, CLUBS, DECK, DIAMONDS, FACE_POINTS, HAND_SIZE, HEARTS, JACK, KING, NINE,
                                     NINES_RULES, QUEEN, SEATS, SPADES, TEN)

FACES = DECK.n_faces
COPIES = DECK.copies
WAYS = np.array([comb(COPIES, c) for c in range(COPIES + 1)], dtype=np.int64)
"""Ways to hold c copies of one face, c = 0..2."""


def faces_of(suits, ranks) -> tuple[int, ...]:
    """The faces (6 * suit + rank) of every suit in ``suits`` and rank in ``ranks``."""
    return tuple(DECK.n_ranks * s + r for s in suits for r in ranks)


SUITS = tuple(range(DECK.n_suits))
NINE_FACES = faces_of(SUITS, (NINE,))
COUNTER_FACES = tuple(f for f in range(FACES) if FACE_POINTS[f] > 0)


@dataclass(frozen=True)
class Group:
    """Faces whose copies together number lo..hi in a holding."""

    faces: tuple[int, ...]
    lo: int = 0
    hi: int = DECK.n_cards


def holdings(size: int, minimum: dict[int, int] | None = None, groups: tuple[Group, ...] = ()) -> int:
    """The holdings of ``size`` cards (0-48) with at least ``minimum[f]`` copies (0-2) of every face f (0-23) named
    and, for each of ``groups`` (disjoint), lo..hi cards of its faces (0 <= lo <= hi). CardsimError otherwise."""
    size = checks.whole(size, "size", 0, DECK.n_cards)
    minimum = _checked_minimum(minimum or {})
    total = np.ones(1, dtype=np.int64)
    grouped: set[int] = set()
    for group in groups:
        faces, lo, hi = _checked_group(group, grouped)
        product = np.ones(1, dtype=np.int64)
        for f in faces:
            product = np.convolve(product, _face_factor(minimum.get(f, 0)))
        product[:lo] = 0
        product[hi + 1:] = 0
        total = np.convolve(total, product)
        grouped.update(faces)
    for f in range(FACES):
        if f not in grouped:
            total = np.convolve(total, _face_factor(minimum.get(f, 0)))
    return int(total[size]) if size < total.size else 0


def _checked_minimum(minimum: dict) -> dict[int, int]:
    """``minimum`` as {face 0-23: copies 0-2}; CardsimError otherwise."""
    if not isinstance(minimum, dict):
        raise CardsimError(f"minimum must map faces 0-{FACES - 1} to copies 0-{COPIES}, got {checks.shown(minimum)}")
    return {checks.whole(f, "a face", 0, FACES - 1): checks.whole(c, "a face's minimum copies", 0, COPIES)
            for f, c in minimum.items()}


def _checked_group(group: Group, taken: set[int]) -> tuple[tuple[int, ...], int, int]:
    """(faces, lo, hi) of a `Group` whose faces (0-23) are distinct and not in ``taken``, 0 <= lo <= hi."""
    if not isinstance(group, Group):
        raise CardsimError(f"groups must be Group(faces, lo, hi) values, got {checks.shown(group)}")
    faces = tuple(checks.whole(f, "a group's face", 0, FACES - 1) for f in group.faces)
    if len(set(faces)) != len(faces) or taken.intersection(faces):
        raise CardsimError(f"the groups' faces must be distinct (each face in one group at most), got {faces}")
    lo = checks.whole(group.lo, "a group's least cards", 0)
    return faces, lo, checks.whole(group.hi, "a group's most cards", lo)


def _face_factor(least: int) -> np.ndarray:
    """(3,) int64: the ways to hold 0, 1, 2 copies of a face held at least ``least`` times."""
    factor = WAYS.copy()
    factor[:least] = 0
    return factor


def _joint_minimum(melds, copies: int) -> dict[int, int]:
    """Every face of every meld in ``melds`` (tuples of faces) held at least ``copies`` times."""
    return {f: copies for meld in melds for f in meld}


def holdings_with_any(size: int, melds, copies: int = 1, groups: tuple[Group, ...] = ()) -> int:
    """Holdings (with ``groups``) holding at least one of ``melds`` (tuples of faces) ``copies`` times:
    inclusion-exclusion over the sets of melds all held."""
    melds = tuple(melds)
    return sum((-1) ** (k + 1) * holdings(size, _joint_minimum(chosen, copies), groups)
               for k in range(1, len(melds) + 1) for chosen in combinations(melds, k))


def holdings_without(size: int, melds, groups: tuple[Group, ...] = ()) -> int:
    """Holdings (with ``groups``) holding none of ``melds`` (tuples of faces) even once."""
    return holdings(size, groups=groups) - holdings_with_any(size, melds, 1, groups)


# --- single melds (spec §9.2) ------------------------------------------------------------------------------
def rope(suit: int) -> tuple[int, ...]:
    return faces_of((suit,), (ACE, TEN, KING, QUEEN, JACK))


def marriage(suit: int) -> tuple[int, ...]:
    return faces_of((suit,), (KING, QUEEN))


def around(rank: int) -> tuple[int, ...]:
    return faces_of(SUITS, (rank,))


PINOCHLE = faces_of((SPADES,), (QUEEN,)) + faces_of((DIAMONDS,), (JACK,))
AROUND_RANKS = (ACE, KING, QUEEN, JACK)
MELDS_BUT_DEECE = (*(marriage(s) for s in SUITS), PINOCHLE, *(around(r) for r in AROUND_RANKS))
"""Every meld but the deece needs one of these held once: a marriage (a rope or royal marriage holds one), the
pinochle or an around; a double meld holds its single."""


@dataclass(frozen=True)
class MeldEvent:
    """A meld held: one of ``melds`` (tuples of faces) with ``copies`` copies of each of its faces."""

    name: str
    melds: tuple[tuple[int, ...], ...]
    copies: int = 1


MELD_EVENTS = (
    MeldEvent("rope cards in a given suit", (rope(HEARTS),)),
    MeldEvent("rope cards in some suit", tuple(rope(s) for s in SUITS)),
    MeldEvent("double rope in a given suit", (rope(HEARTS),), 2),
    MeldEvent("double rope in some suit", tuple(rope(s) for s in SUITS), 2),
    MeldEvent("aces around (each rank alike)", (around(ACE),)),
    MeldEvent("some single around", tuple(around(r) for r in AROUND_RANKS)),
    MeldEvent("double around of a given rank", (around(KING),), 2),
    MeldEvent("pinochle", (PINOCHLE,)),
    MeldEvent("double pinochle", (PINOCHLE,), 2),
    MeldEvent("marriage in a given suit", (marriage(CLUBS),)),
    MeldEvent("double marriage in a given suit", (marriage(CLUBS),), 2),
    MeldEvent("some marriage", tuple(marriage(s) for s in SUITS)),
    MeldEvent("roundhouse (K and Q of every suit)", (sum((marriage(s) for s in SUITS), ()),)),
    MeldEvent("a nine of a given suit", (faces_of((DIAMONDS,), (NINE,)),)),
    MeldEvent("both nines of a given suit", (faces_of((DIAMONDS,), (NINE,)),), 2),
)
"""The single-meld rows of spec §9.2, in its order. A "given" suit or rank is any one of them: every face has two
copies, so the share does not depend on which (hearts, kings, clubs and diamonds are the examples)."""


def meld_event_holdings(size: int = HAND_SIZE) -> list[tuple[str, int]]:
    """(name, holdings of ``size`` cards holding it) for every `MELD_EVENTS` row."""
    size = checks.whole(size, "size", 0, DECK.n_cards)
    return [(e.name, holdings_with_any(size, e.melds, e.copies)) for e in MELD_EVENTS]


# --- counters and suit lengths -----------------------------------------------------------------------------
def counter_holdings(size: int) -> list[int]:
    """Holdings of ``size`` cards with k = 0..size counters (A 10 K)."""
    size = checks.whole(size, "size", 0, DECK.n_cards)
    return [holdings(size, groups=(Group(COUNTER_FACES, k, k),)) for k in range(size + 1)]


def suit_length_holdings(size: int = HAND_SIZE) -> list[int]:
    """Holdings of ``size`` cards with k = 0..12 cards of one given suit."""
    size = checks.whole(size, "size", 0, DECK.n_cards)
    suit = faces_of((0,), range(DECK.n_ranks))
    return [holdings(size, groups=(Group(suit, k, k),)) for k in range(len(suit) * COPIES + 1)]


def longest_suit_holdings(size: int = HAND_SIZE) -> list[int]:
    """Holdings of ``size`` cards whose longest suit has k = 0..12 cards."""
    size = checks.whole(size, "size", 0, DECK.n_cards)

    def at_most(m: int) -> int:
        return holdings(size, groups=tuple(Group(faces_of((s,), range(DECK.n_ranks)), 0, m) for s in SUITS))

    longest = DECK.n_ranks * COPIES
    below = [0] + [at_most(m) for m in range(longest + 1)]  # below[m + 1]: every suit at most m long
    return [below[m + 1] - below[m] for m in range(longest + 1)]


# --- nines throw-ins (V4, spec Q11) --------------------------------------------------------------------------
NINES_REFERENCES = {"5_any": (5, 8, False), "no_meld_any_nines": (0, 8, True)}
"""Two reference rows of spec §9.2 beside `NINES_RULES`: at least 5 nines with any meld; no meld but deece with
any number of nines (rule -> nines at least, aces at most, no meld but deece)."""


def throw_in_holdings(nines: int, aces: int, no_meld: bool, size: int = HAND_SIZE) -> int:
    """Holdings of ``size`` cards (15: a hand) with at least ``nines`` nines, at most ``aces`` aces (each 0-8) and,
    if ``no_meld``, no meld but the deece (`MELDS_BUT_DEECE`; aces around needs four aces, so a limit of 3 or fewer
    excludes it already)."""
    top = len(NINE_FACES) * COPIES
    groups = (Group(NINE_FACES, checks.whole(nines, "nines", 0, top)),
              Group(around(ACE), 0, checks.whole(aces, "aces", 0, top)))
    if checks.flag(no_meld, "no_meld"):
        return holdings_without(size, MELDS_BUT_DEECE, groups)
    return holdings(size, groups=groups)


def no_two_qualify(nines: int) -> bool:
    """Can no two hands both hold at least ``nines`` of the 8 nines (so a deal's rate is the seats' sum)?"""
    return 2 * nines > len(NINE_FACES) * COPIES


def throw_in_shares() -> list[dict]:
    """Per nines rule (`NINES_RULES`, then `NINES_REFERENCES`): the 15-card holdings that qualify, P(a given
    player qualifies) as a float and an exact fraction and, where two players cannot both qualify (each needs more
    than half the nines: `no_two_qualify`), P(some player qualifies in a deal) = `SEATS` times it (else None)."""
    total = comb(DECK.n_cards, HAND_SIZE)
    rows = []
    for rule, (nines, aces, no_meld) in {**NINES_RULES, **NINES_REFERENCES}.items():
        count = throw_in_holdings(nines, aces, no_meld)
        rows.append({"rule": rule, "nines": nines, "aces": aces, "no_meld": no_meld, "holdings": count,
                     "player": count / total, "fraction": str(Fraction(count, total)),
                     "deal": SEATS * count / total if no_two_qualify(nines) else None})
    return rows

