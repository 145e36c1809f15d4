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
from simcore.errors import CardsimError, unknown_name

BATCH = 3
"""Draws taken from one 32-bit word (batched ranged integers: the product of three bounds <= 64*63*62
stays far below 2**32, so a batch is rejected with probability < 6e-5)."""
SPARE_WORDS = 3
"""Extra random words per deal for the rare rejected batches."""


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


def _frozen(array: np.ndarray) -> np.ndarray:
    """``array`` made read-only: a spec's cached arrays are shared by every block it deals."""
    array.setflags(write=False)
    return array


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
                raise unknown_name("place", name, self.layout.names)
            size = self.layout.places[self.layout.index(name)][1]
            if len(cards) > size:
                raise CardsimError(f"{name} holds {size} cards but {len(cards)} were given")
            for c in cards:
                self.layout.deck.token(c)  # CardsimError for a card outside the pack
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
        return _frozen(masks)

    @cached_property
    def room(self) -> np.ndarray:
        """(n_slots,) int64: cards still to deal into every place."""
        room = self.layout.sizes.copy()
        for name, cards in self.fixed.items():
            room[self.layout.index(name)] -= len(cards)
        return _frozen(room)

    @cached_property
    def free_cards(self) -> np.ndarray:
        """Cards not fixed anywhere, ascending: (k,) int64."""
        taken = int(np.bitwise_or.reduce(self.fixed_masks)) if len(self.fixed_masks) else 0
        return _frozen(np.array([c for c in range(self.layout.deck.n_cards) if not (taken >> c) & 1], dtype=np.int64))

    @cached_property
    def draws(self) -> int:
        """Random draws per deal: every free card but those left over for the last place."""
        return int(self.room[:-1].sum())

    @cached_property
    def place_of_draw(self) -> np.ndarray:
        """(draws,) int64: the place the card of every draw goes to."""
        return _frozen(np.repeat(np.arange(len(self.room) - 1), self.room[:-1]).astype(np.int64))

    @cached_property
    def words_per_deal(self) -> int:
        return -(-self.draws // BATCH) + SPARE_WORDS


@njit
def batch_tables(bounds):
    """Per batch of three draws: the bounds padded with 1 (a draw of bound 1 is 0 and leaves the
    low part as it is), their products and rejection thresholds (2**32 - product) % product."""
    draws = bounds.shape[0]
    batches = (draws + BATCH - 1) // BATCH
    padded = np.ones(BATCH * batches, dtype=np.uint64)
    padded[:draws] = bounds
    products = np.ones(batches, dtype=np.uint64)
    for i in range(draws):
        products[i // BATCH] *= padded[i]
    return padded, products, (np.uint64(1 << 32) - products) % products


@njit
def draw_batches(w, padded, thresholds, js):
    """Decode one deal's words ``w`` into draws ``js[i]`` uniform in [0, padded[i]), exactly.

    Batched ranged integers (Brackett-Rozinsky and Lemire): word b serves draws 3b..3b+2; multiply
    it by each bound in turn, keeping the high 32 bits as the draw and the low 32 bits for the next.
    The batch is rejected, and the next spare word tried, when the final low part is below its
    threshold. In the ~1e-17 case that a deal runs out of spare words the last candidate is kept.
    """
    low_bits = np.uint64(0xFFFFFFFF)
    high = np.uint64(32)
    batches = thresholds.shape[0]
    spare = batches
    for b in range(batches):
        x = np.uint64(w[b])
        b0, b1, b2 = padded[3 * b], padded[3 * b + 1], padded[3 * b + 2]
        while True:
            m0 = x * b0
            m1 = (m0 & low_bits) * b1
            m2 = (m1 & low_bits) * b2
            if (m2 & low_bits) >= thresholds[b] or spare >= w.shape[0]:
                break
            x = np.uint64(w[spare])
            spare += 1
        js[3 * b] = np.int64(m0 >> high)
        js[3 * b + 1] = np.int64(m1 >> high)
        js[3 * b + 2] = np.int64(m2 >> high)


@njit
def _deal_block(words, free_cards, place_of_draw, fixed_masks, out):
    """Deal every row of ``words`` (n, w) uint32 into ``out`` (n, n_slots) uint64.

    Partial Fisher-Yates over the k ``free_cards``: draw i takes j uniform in [i, k) and swaps; its
    card goes to ``place_of_draw[i]``; the last place takes the cards left. The draws of a batch
    are decoded as in `draw_batches` (same words, same draws), fused with the swaps.
    """
    k = free_cards.shape[0]
    draws = place_of_draw.shape[0]
    n_slots = fixed_masks.shape[0]
    padded, _, thresholds = batch_tables(np.uint64(k) - np.arange(draws).astype(np.uint64))
    batches = thresholds.shape[0]
    owner = np.full(BATCH * batches, n_slots - 1, dtype=np.int64)
    owner[:draws] = place_of_draw
    pool = np.empty(k, dtype=np.int8)
    masks = np.empty(n_slots, dtype=np.uint64)
    low_bits = np.uint64(0xFFFFFFFF)
    high = np.uint64(32)
    one = np.uint64(1)
    n_words = words.shape[1]
    for d in range(words.shape[0]):
        for i in range(k):
            pool[i] = free_cards[i]
        for s in range(n_slots):
            masks[s] = fixed_masks[s]
        spare = batches
        for b in range(batches):
            x = np.uint64(words[d, b])
            b0, b1, b2 = padded[3 * b], padded[3 * b + 1], padded[3 * b + 2]
            while True:
                m0 = x * b0
                m1 = (m0 & low_bits) * b1
                m2 = (m1 & low_bits) * b2
                if (m2 & low_bits) >= thresholds[b] or spare >= n_words:
                    break
                x = np.uint64(words[d, spare])
                spare += 1
            i = 3 * b
            for t, m in ((0, m0), (1, m1), (2, m2)):
                if i + t < draws:
                    j = i + t + np.int64(m >> high)
                    c = pool[j]
                    pool[j] = pool[i + t]
                    pool[i + t] = c
                    masks[owner[i + t]] |= one << np.uint64(c)
        for i in range(draws, k):
            masks[n_slots - 1] |= one << np.uint64(pool[i])
        for s in range(n_slots):
            out[d, s] = masks[s]
    return out


def deal(spec: DealSpec, words: np.ndarray) -> np.ndarray:
    """Deal one deal per row of ``words`` ((n, spec.words_per_deal) uint32): (n, n_slots) uint64; CardsimError for
    another spec, shape or dtype (signed or float words would have dealt cards outside the pack, or crashed)."""
    if not isinstance(spec, DealSpec):
        raise CardsimError(f"spec must be a DealSpec (e.g. Known(...).deal_spec()), got {type(spec).__name__}")
    if not isinstance(words, np.ndarray) or words.dtype != np.uint32 or words.ndim != 2 \
            or words.shape[1] != spec.words_per_deal:
        got = f"{words.dtype} array of shape {words.shape}" if isinstance(words, np.ndarray) else type(words).__name__
        raise CardsimError(f"words must be an (n, {spec.words_per_deal}) uint32 array (simcore.rng.block_words), "
                           f"got {got}")
    out = np.empty((words.shape[0], len(spec.layout.places)), dtype=np.uint64)
    return _deal_block(words, spec.free_cards, spec.place_of_draw, spec.fixed_masks, out)


def accepted(spec: DealSpec, slots: np.ndarray) -> np.ndarray:
    """(n,) bool: the deals that pass every accept predicate of ``spec``."""
    keep = np.ones(slots.shape[0], dtype=bool)
    for predicate in spec.accept:
        keep &= np.asarray(predicate(slots), dtype=bool)
    return keep
