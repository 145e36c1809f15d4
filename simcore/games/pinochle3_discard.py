"""Three-player Pinochle discard policies as data (spec §9.1 Q7): which 3 of his 18 cards the
bidder buries, and the trump he names with them.

Rules: shared/rules/pinochle3.md R4.7b (any 3 of the 18 cards; A8: no restriction on counters,
trumps, aces or meld cards), R4.7c (buried counters count for the bidder), R3.9a (buried cards never
meld). A policy is a list of features of the 15 cards kept, each maximized in turn; every discard of
3 of the 18 (816 of them, in lexicographic order of the sorted cards) is scored under each trump
(or the trump given) and the first best (discard, trump) wins, so two copies of a card are never
told apart. ``best`` is `pinochle3_bid.best_discard`'s choice (meld + buried counters).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from simcore.errors import CardsimError
from simcore.games.pinochle3 import ACES_MASK, DECK, HAND_SIZE, KITTY_SIZE, N_RANKS, N_SUITS, meld_points
from simcore.games.pinochle3_play import COUNTER_POINTS, COUNTERS, SUITS

HOLDING = HAND_SIZE + KITTY_SIZE
BURIED = 3
COMBOS = np.array(list(combinations(range(HOLDING), BURIED)), dtype=np.int64)
"""(816, 3): every choice of 3 of the 18 sorted cards, in lexicographic order."""
RADIX = 4096
"""Each feature lies in [0, RADIX): meld of 15 cards <= 1900 (+ 30 buried), ranks <= 75."""


@dataclass(frozen=True)
class DiscardPolicy:
    """A discard policy: ``key`` names `features`, most important first, each maximized."""

    name: str
    key: tuple[str, ...]
    help: str


DISCARD_POLICIES = {d.name: d for d in (
    DiscardPolicy("best", ("value", "trumps", "ranks"),
                  "most meld kept + buried counter points (ties: more trumps, higher ranks kept)"),
    DiscardPolicy("meld_first", ("meld", "buried", "trumps", "ranks"),
                  "most meld kept, then most counters buried"),
    DiscardPolicy("bury_counters", ("buried", "meld", "trumps", "ranks"),
                  "most counters buried (up to 30 points), then most meld kept"),
    DiscardPolicy("keep_aces", ("aces", "value", "trumps", "ranks"),
                  "bury no ace if possible, then as best"),
    DiscardPolicy("strength", ("trumps", "aces", "value", "ranks"),
                  "keep the most trumps, then aces (burying meld cards if need be), then as best"),
)}
DEFAULT_POLICY = "best"


def discard_policy(name: str) -> DiscardPolicy:
    """The policy named ``name``; CardsimError for an unknown one."""
    if name not in DISCARD_POLICIES:
        raise CardsimError(f"unknown discard policy '{name}'; choose one of: {', '.join(DISCARD_POLICIES)}")
    return DISCARD_POLICIES[name]


def _cards(holdings: np.ndarray) -> np.ndarray:
    """(n, 18) int64 sorted card indices of 18-card masks (n,) uint64."""
    bits = (holdings[:, None] >> np.arange(DECK.n_cards, dtype=np.uint64)) & np.uint64(1)
    cards = np.nonzero(bits)[1].reshape(len(holdings), -1)
    if cards.shape[1] != HOLDING:
        raise CardsimError(f"the bidder discards from {HOLDING} cards (his {HAND_SIZE} and the kitty's {KITTY_SIZE})")
    return cards


def features(holdings, options: dict | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(buried masks (n, 816) uint64, {feature: (n, 816, 4) int64}) of 18-card masks (n,) uint64,
    per discard (`COMBOS`) and trump: ``meld`` of the 15 kept (R3.9a), ``buried`` counter points
    buried (R4.7c), ``value`` their sum, ``trumps`` and ``aces`` kept, ``ranks`` kept (9 = 0 ... A = 5)."""
    holdings = np.ascontiguousarray(holdings, dtype=np.uint64)
    cards = _cards(holdings)
    buried = np.bitwise_or.reduce(np.uint64(1) << cards[:, COMBOS].astype(np.uint64), axis=2)
    kept = holdings[:, None] & ~buried
    meld = np.stack([meld_points(kept.ravel(), t, options).reshape(kept.shape) for t in range(N_SUITS)], axis=2)
    points = COUNTER_POINTS * np.bitwise_count(buried & COUNTERS).astype(np.int64)
    ranks = cards // 2 % N_RANKS
    per_discard = {"buried": points, "aces": np.bitwise_count(kept & ACES_MASK).astype(np.int64),
                   "ranks": ranks.sum(axis=1)[:, None] - ranks[:, COMBOS].sum(axis=2)}
    out = {k: np.broadcast_to(v[..., None], meld.shape) for k, v in per_discard.items()}
    trumps = np.stack([np.bitwise_count(kept & SUITS[t]) for t in range(N_SUITS)], axis=2).astype(np.int64)
    return buried, {"meld": meld, "value": meld + points[..., None], "trumps": trumps, **out}


def policy_discards(holdings, trump: int | None = None, policy: str = DEFAULT_POLICY, options: dict | None = None
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The discard of many 18-card holdings (n,) uint64 by ``policy`` under ``trump`` (None: the
    policy names trump too) -> ((n,) uint64 discard masks, (n,) int64 trumps, melds of the kept 15,
    buried counter points), as `pinochle3_bid.discards` returns them; options: meld variants."""
    key = discard_policy(policy).key
    buried, f = features(holdings, options)
    score = np.zeros(f["meld"].shape, dtype=np.int64)
    for name in key:
        score = score * RADIX + f[name]
    if trump is not None:
        score = np.where(np.arange(N_SUITS) == trump, score, -1)
    n = len(buried)
    best = score.reshape(n, -1).argmax(axis=1)  # the first best: discards in order, trumps within each
    combo, trumps = np.divmod(best, N_SUITS)
    rows = np.arange(n)
    return (buried[rows, combo], trumps.astype(np.int64), f["meld"][rows, combo, trumps],
            f["buried"][rows, combo, trumps])


def bury(cards, trump: int | None = None, policy: str = DEFAULT_POLICY, options: dict | None = None
         ) -> tuple[tuple[int, ...], int]:
    """(the 3 cards of 18 physical cards ``cards`` that ``policy`` buries, sorted; the trump it names,
    or ``trump`` when given)."""
    cards = sorted(int(c) for c in cards)
    mask, trumps, _, _ = policy_discards(np.array([DECK.mask(cards)], dtype=np.uint64), trump, policy, options)
    return tuple(c for c in cards if int(mask[0]) >> c & 1), int(trumps[0])
