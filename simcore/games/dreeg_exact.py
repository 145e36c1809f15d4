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

import numpy as np

from simcore import checks, counting
from simcore.cards import subset_masks
from simcore.errors import CardsimError
from simcore.games import dreeg_rules as rules

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


def table_marriage_distribution(sizes: tuple[int, ...], counted: int | None = None) -> dict[int, Fraction]:
    """P(exactly k marriages in single hands) when 24 cards go to places of ``sizes``; only the first
    ``counted`` places are hands (default all; e.g. (6, 6, 12) with counted 2: the talon excluded)."""
    listed = isinstance(sizes, (list, tuple))
    sizes = tuple(checks.whole(size, "sizes", 0, DECK_SIZE) for size in sizes) if listed else ()
    if sum(sizes) != DECK_SIZE:
        raise CardsimError(f"sizes must be the numbers of cards of the places the {DECK_SIZE} cards go to, adding up "
                           f"to {DECK_SIZE}, e.g. (6, 6, 6, 6), got {sizes!r}")
    counted = len(sizes) if counted is None else checks.whole(counted, "counted", 0, len(sizes))
    total = counting.multinomial(24, sizes)
    dist: dict[int, int] = {}
    for where in product(range(len(sizes)), repeat=2 * N_SUITS):
        room = list(sizes)
        for place in where:
            room[place] -= 1
        if min(room) < 0:
            continue
        k = sum(1 for s in range(N_SUITS) if where[2 * s] == where[2 * s + 1] < counted)
        dist[k] = dist.get(k, 0) + counting.multinomial(24 - 2 * N_SUITS, room)
    return {k: Fraction(v, total) for k, v in sorted(dist.items())}


def deal_counts() -> dict[str, int]:
    """The deal counts of §6.3."""
    return {
        "6-card hands": comb(24, 6),
        "8-card hands": comb(24, 8),
        "Rufen first packets": comb(24, 3),
        "4-player deals": counting.multinomial(24, (6, 6, 6, 6)),
        "3-player deals": counting.multinomial(24, (8, 8, 8)),
        "2-player deals, talon unordered": comb(24, 6) * comb(18, 6),
        "2-player deals, talon ordered": factorial(24) // (factorial(6) ** 2),
    }


def same_hand(sizes: tuple[int, ...]) -> Fraction:
    """P(two given cards lie in the same hand) when the 24 cards go to hands of ``sizes`` (adding up to 24)."""
    if not isinstance(sizes, (list, tuple)):
        raise CardsimError(f"sizes must be the hands' numbers of cards, adding up to {DECK_SIZE}, e.g. (6, 6, 6, 6), "
                           f"got {checks.shown(sizes)}")
    sizes = tuple(_cards(size) for size in sizes)
    if sum(sizes) != DECK_SIZE:
        raise CardsimError(f"sizes must add up to {DECK_SIZE}, got {sizes!r}")
    return Fraction(sum(n * (n - 1) for n in sizes), DECK_SIZE * (DECK_SIZE - 1))


# --- card points and hand shapes, by enumeration of every hand --------------------------------------------
def _held(n, fixed, most: int) -> tuple[int, int]:
    """(n, fixed) checked: a hand of 0-``most`` cards that holds the cards of the 24-bit mask ``fixed``."""
    n, fixed = _cards(n, high=most), checks.whole(fixed, "fixed (a card mask)", 0, rules.ALL)
    if fixed.bit_count() > n:
        raise CardsimError(f"a hand of {n} cards cannot hold the {fixed.bit_count()} fixed cards")
    return n, fixed


def card_point_counts(n: int, fixed: int = 0) -> tuple[int, ...]:
    """Hands of ``n`` cards holding the cards of mask ``fixed`` (24 bits), per card points 0..120: a subset-sum
    count over the other cards (`simcore.counting.point_counts`; every hand counted once)."""
    return counting.point_counts(rules.POINTS, *_held(n, fixed, DECK_SIZE))


def every_hand(n: int, fixed: int = 0) -> np.ndarray:
    """(k,) int64: every hand of ``n`` cards (0-8; 24-bit masks) that holds the cards of ``fixed``, each once
    (read-only)."""
    return _every_hand(*_held(n, fixed, 8))


@lru_cache(maxsize=None)
def _every_hand(n: int, fixed: int) -> np.ndarray:
    free = [c for c in range(DECK_SIZE) if not fixed >> c & 1]
    masks = (subset_masks(free, n - fixed.bit_count()) | np.uint64(fixed)).astype(np.int64)
    masks.setflags(write=False)
    return masks


def suit_lengths(masks: np.ndarray) -> np.ndarray:
    """(k, 4) int64: the cards of every suit in each hand mask of ``masks`` (k,)."""
    return np.stack([np.bitwise_count(masks & m) for m in rules.SUIT_MASKS], axis=1).astype(np.int64)


def _top_sequences_only(masks: np.ndarray) -> np.ndarray:
    """(k,) bool: does each hand hold, in every suit, the top cards of that suit only (A, A-10, A-10-K, ...)?"""
    ok = np.ones(masks.size, dtype=bool)
    for s, length in enumerate(suit_lengths(masks).T):
        cards = masks >> (rules.N_RANKS * s) & ((1 << rules.N_RANKS) - 1)
        ok &= cards == (1 << rules.N_RANKS) - (1 << (rules.N_RANKS - length))
    return ok


HAND_FEATURES = {
    "voids": lambda m: (suit_lengths(m) == 0).sum(axis=1),
    "longest suit": lambda m: suit_lengths(m).max(axis=1),
    "hearts": lambda m: suit_lengths(m)[:, rules.HEART],
    "aces": lambda m: sum(m >> (rules.N_RANKS * s + rules.ACE) & 1 for s in range(N_SUITS)),
    "marriages": lambda m: sum((m >> (rules.N_RANKS * s + rules.OBER) & 3) == 3 for s in range(N_SUITS)),
    "top sequences only": lambda m: _top_sequences_only(m).astype(np.int64),
}
"""Per-hand features of `feature_distribution`: (k,) masks -> (k,) int64."""


def feature_distribution(feature: str, n: int, fixed: int = 0) -> dict[int, Fraction]:
    """P(``feature`` = v) over every ``n``-card hand (0-8 cards) holding the cards of ``fixed``: `HAND_FEATURES`."""
    if not isinstance(feature, str) or feature not in HAND_FEATURES:
        raise CardsimError(f"unknown hand feature {feature!r}; choose one of {', '.join(HAND_FEATURES)}")
    masks = every_hand(n, fixed)
    values, counts = np.unique(HAND_FEATURES[feature](masks), return_counts=True)
    return {int(v): Fraction(int(c), masks.size) for v, c in zip(values, counts)}


# --- Rufen: the first packet and the call ------------------------------------------------------------------
def packet_suits() -> dict[int, Fraction]:
    """P(k distinct suits) among the forehand's first 3 cards (all C(24, 3) packets)."""
    return {k: p for k, p in feature_distribution("voids", 3).items() for k in [N_SUITS - k]}


def called_ranks(call) -> dict[int, Fraction]:
    """P(the called card has rank r) over every first packet, ``call``: packet mask -> card (a policy's call)."""
    packets = every_hand(3)
    ranks = [_called(int(m), call(int(m))) % rules.N_RANKS for m in packets]
    values, counts = np.unique(ranks, return_counts=True)
    return {int(v): Fraction(int(c), packets.size) for v, c in zip(values, counts)}


def _called(packet: int, card) -> int:
    """``card`` when it is a card (0-23) outside ``packet``, as a call must be; CardsimError otherwise."""
    card = checks.whole(card, "the called card", 0, DECK_SIZE - 1)
    if packet >> card & 1:
        raise CardsimError(f"a call names a card outside the caller's first 3 cards, got card {card} of them")
    return card


def accidental_solo(hand_size: int) -> Fraction:
    """P(the forehand holds the card he called among the rest of his ``hand_size`` cards): the called card is one
    of the 21 cards outside his first packet, and he holds ``hand_size`` - 3 of them."""
    return Fraction(_cards(hand_size, low=3) - 3, DECK_SIZE - 3)


# --- the 2-player deal: where one card lies ----------------------------------------------------------------
TALON = DECK_SIZE - 2 * rules.HAND_SIZES[2]
"""Cards of the 2-player talon (12); in 66 its bottom card is the face-up indicator, which sets the trump."""
EARLY_DRAWS = 3 * 2
"""Talon cards drawn in tricks 1-3 of a 2-player hand: one per player after each trick."""


def duel_facts() -> dict[str, Fraction]:
    """Where the trump 9 and the trump A 10 K O lie in a 2-player 66 deal (trump = the indicator's suit: every
    (indicator, deal) counted), and where the heart ace lies in 2-player Rot Assen (no indicator; the first 6 talon
    cards are drawn in tricks 1-3)."""
    hand, above = rules.HAND_SIZES[2], TALON - 1
    others = DECK_SIZE - 1
    nine_is_indicator = Fraction(N_SUITS, DECK_SIZE)
    honours = (rules.ACE, rules.TEN, rules.KING, rules.OBER)
    indicator_free = Fraction(rules.N_RANKS - len(honours), rules.N_RANKS)  # the indicator is none of the four
    return {
        "66: the indicator is the trump 9": nine_is_indicator,
        "66: a given player is dealt the trump 9": (1 - nine_is_indicator) * Fraction(hand, others),
        "66: the trump 9 lies in the talon above the indicator": (1 - nine_is_indicator) * Fraction(above, others),
        "66: forehand's first 6 hold trump A 10 K O": indicator_free * Fraction(comb(others - len(honours), hand - 4),
                                                                                comb(others, hand)),
        "Rot Assen: a given player is dealt the heart ace": Fraction(hand, DECK_SIZE),
        "Rot Assen: the heart ace lies in the talon": Fraction(TALON, DECK_SIZE),
        "Rot Assen: it is drawn after tricks 1-3": Fraction(EARLY_DRAWS, DECK_SIZE),
        f"Rot Assen: it is among the last {TALON - EARLY_DRAWS} talon cards (the bottom card one of them)":
            Fraction(TALON - EARLY_DRAWS, DECK_SIZE),
        "Rot Assen: it is the bottom card": Fraction(1, DECK_SIZE),
    }
