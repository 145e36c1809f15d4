"""Dealing millions of deals straight into bitmask arrays, with fixed cards and accept predicates.

A `Layout` names the places cards go to (the seats' hands, a turn-up, a stock or kitty) and their
sizes. A `DealSpec` adds cards known to be in given places (your own hand, a known turn-up, cards
seen elsewhere); the remaining cards are dealt uniformly into the remaining room, which is exact
conditional sampling without rejection. Further conditions are vectorized predicates in the spirit
of redeal's ``accept``: ``accept(slots) -> bool mask`` over a block of deals.

A dealt block is ``slots: (n, n_slots) uint64``, one card mask per place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

import numpy as np

from simcore.cards import Deck
from simcore.config import njit
from simcore.errors import CardsimError

SPARE_WORDS = 4
"""Extra random words per deal for the rare rejections of exact bounded sampling."""


@dataclass(frozen=True)
class Layout:
    """Where the cards of one deal go: (name, size) per place; sizes add up to the pack."""

    deck: Deck
    places: tuple[tuple[str, int], ...]

    def __post_init__(self):
        total = sum(size for _, size in self.places)
        if total != self.deck.n_cards:
            raise ValueError(f"layout places {total} cards, the {self.deck.name} pack has {self.deck.n_cards}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.places)

    @property
    def sizes(self) -> np.ndarray:
        return np.array([size for _, size in self.places], dtype=np.int64)

    def index(self, name: str) -> int:
        return self.names.index(name)


Accept = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class DealSpec:
    """A layout plus known cards per place and optional accept predicates.

    fixed: place name -> physical cards known to be there.
    accept: predicates on a dealt block ``(n, n_slots) uint64 -> (n,) bool``; all must hold.
    """

    layout: Layout
    fixed: dict[str, tuple[int, ...]] = field(default_factory=dict)
    accept: tuple[Accept, ...] = ()

    def __post_init__(self):
        seen: dict[int, str] = {}
        for name, cards in self.fixed.items():
            if name not in self.layout.names:
                raise CardsimError(f"unknown place '{name}'; places are {', '.join(self.layout.names)}")
            size = self.layout.places[self.layout.index(name)][1]
            if len(cards) > size:
                raise CardsimError(f"{name} holds {size} cards but {len(cards)} were given")
            for c in cards:
                if c in seen:
                    raise CardsimError(
                        f"{self.layout.deck.token(c)} is placed twice ({seen[c]} and {name}); "
                        "each card can be in one place only"
                    )
                seen[c] = name

    @cached_property
    def fixed_masks(self) -> np.ndarray:
        """(n_slots,) uint64: the known cards of every place."""
        masks = np.zeros(len(self.layout.places), dtype=np.uint64)
        for name, cards in self.fixed.items():
            masks[self.layout.index(name)] = np.uint64(self.layout.deck.mask(cards))
        return masks

    @cached_property
    def room(self) -> np.ndarray:
        """(n_slots,) int64: cards still to deal into every place."""
        room = self.layout.sizes.copy()
        for name, cards in self.fixed.items():
            room[self.layout.index(name)] -= len(cards)
        return room

    @cached_property
    def free_cards(self) -> np.ndarray:
        """Cards not fixed anywhere, ascending: (k,) int64."""
        taken = int(np.bitwise_or.reduce(self.fixed_masks)) if len(self.fixed_masks) else 0
        return np.array([c for c in range(self.layout.deck.n_cards) if not (taken >> c) & 1], dtype=np.int64)

    @cached_property
    def draws(self) -> int:
        """Random draws per deal: every free card but those left over for the last place."""
        return int(self.room[:-1].sum())

    @cached_property
    def words_per_deal(self) -> int:
        return self.draws + SPARE_WORDS


@njit
def _bounded(words, pos, spare_end, bound):
    """Exact uniform integer in [0, bound) from 32-bit words (Lemire's method with rejection).

    Reads words[pos]; rejected draws take the next spare word. Returns (value, next spare position).
    In the ~1e-30 case that a deal runs out of spare words the last candidate is kept.
    """
    x = np.uint64(words[pos])
    b = np.uint64(bound)
    m = x * b
    low = m & np.uint64(0xFFFFFFFF)
    if low < b:
        threshold = (np.uint64(1 << 32) - b) % b
        while low < threshold and spare_end < words.shape[0]:
            x = np.uint64(words[spare_end])
            spare_end += 1
            m = x * b
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32)), spare_end


@njit
def _deal_block(words, free_cards, room, fixed_masks, out):
    """Deal every row of ``words`` (n, w) uint32 into ``out`` (n, n_slots) uint64.

    Partial Fisher-Yates over ``free_cards``: draw j uniform in [i, k) and swap, filling places in
    order; the last place takes what is left.
    """
    n = words.shape[0]
    k = free_cards.shape[0]
    n_slots = room.shape[0]
    draws = 0
    for s in range(n_slots - 1):
        draws += room[s]
    pool = np.empty(k, dtype=np.int64)
    for d in range(n):
        w = words[d]
        for i in range(k):
            pool[i] = free_cards[i]
        spare = draws
        i = 0
        for s in range(n_slots):
            mask = fixed_masks[s]
            if s == n_slots - 1:
                for j in range(i, k):
                    mask |= np.uint64(1) << np.uint64(pool[j])
            else:
                for _ in range(room[s]):
                    j, spare = _bounded(w, i, spare, k - i)
                    j += i
                    c = pool[j]
                    pool[j] = pool[i]
                    pool[i] = c
                    mask |= np.uint64(1) << np.uint64(c)
                    i += 1
            out[d, s] = mask
    return out


def deal(spec: DealSpec, words: np.ndarray) -> np.ndarray:
    """Deal one deal per row of ``words`` ((n, spec.words_per_deal) uint32): (n, n_slots) uint64."""
    if words.ndim != 2 or words.shape[1] != spec.words_per_deal:
        raise ValueError(f"words must be (n, {spec.words_per_deal}), got {words.shape}")
    out = np.empty((words.shape[0], len(spec.layout.places)), dtype=np.uint64)
    return _deal_block(words, spec.free_cards, spec.room, spec.fixed_masks, out)


def accepted(spec: DealSpec, slots: np.ndarray) -> np.ndarray:
    """(n,) bool: the deals that pass every accept predicate of ``spec``."""
    keep = np.ones(slots.shape[0], dtype=bool)
    for predicate in spec.accept:
        keep &= np.asarray(predicate(slots), dtype=bool)
    return keep
