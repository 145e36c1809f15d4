"""Three-player Pinochle discard policies as data (spec §9.1 Q7): which 3 of his 18 cards the
bidder buries, and the trump he names with them.

Rules: shared/rules/pinochle3.md R4.7b (any 3 of the 18 cards; A8: no restriction on counters,
trumps, aces or meld cards), R4.7c (buried counters count for the bidder), R3.9a (buried cards never
meld). A policy is a list of features of the 15 cards kept, each maximized in turn; every discard of
3 of the 18 (816 of them, in lexicographic order of the sorted cards) is scored under each trump
(or the trump given) and the first best (discard, trump) wins, so two copies of a card are never
told apart. ``best`` and ``meld_first`` are searched by the compiled kernel `discards` (the discard of
`pinochle3_bid.best_discard`, `KERNEL_POLICIES`), the others by `feature_discards`. `kitty_gains`
runs `kept_meld` (the most meld kept) over every kitty a hand can find (the exact kitty gain of spec Q2).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from simcore import checks
from simcore.config import njit
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError, unknown_name
from simcore.games.pinochle3 import (ACES_MASK, DECK, HAND_SIZE, KITTY_SIZE, LAYOUT, MELD_BINS, N_RANKS, N_SUITS,
                                     NINES_RULES, SEATS, _base_and_gains, _face_counts, best_meld, meld_is_monotone,
                                     meld_points, meld_values, options_key, throw_in_deals)
from simcore.games.pinochle3_play import COUNTER_POINTS, COUNTERS, SUITS
from simcore.rng import block_words
from simcore.tricks import lowest_card, popcount

HOLDING = HAND_SIZE + KITTY_SIZE
BURIED = 3
COMBOS = np.array(list(combinations(range(HOLDING), BURIED)), dtype=np.int64)
"""(816, 3): every choice of 3 of the 18 sorted cards, in lexicographic order."""
RADIX = 4096
"""Each feature lies in [0, RADIX): meld of 15 cards <= 1900 (+ 30 buried), ranks <= 75."""
_ONE = np.uint64(1)


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
KERNEL_POLICIES = {"best": False, "meld_first": True}
"""The policies `discards` searches (value: its ``meld_first``), the same choice as `feature_discards` by their keys."""


def discard_policy(name: str) -> DiscardPolicy:
    """The policy named ``name``; CardsimError for an unknown one."""
    if name not in DISCARD_POLICIES:
        raise unknown_name("discard policy", name, DISCARD_POLICIES)
    return DISCARD_POLICIES[name]


def _holdings(holdings) -> np.ndarray:
    """holdings as a contiguous (n,) uint64 array of 18-card masks; CardsimError for anything else (not masks of
    the 48 cards, not one mask per holding, another size)."""
    masks = checks.card_masks(holdings, "holdings", DECK.n_cards, disjoint=False)
    if masks.ndim != 1:
        raise CardsimError(f"holdings must be a sequence of card masks, one per holding of {HOLDING} cards; got shape "
                           f"{masks.shape}")
    sizes = np.bitwise_count(masks)
    if (sizes != HOLDING).any():
        wrong = int(np.argmax(sizes != HOLDING))
        raise CardsimError(f"the bidder discards from {HOLDING} cards (his {HAND_SIZE} and the kitty's {KITTY_SIZE}); "
                           f"holding {wrong} has {int(sizes[wrong])}")
    return np.ascontiguousarray(masks)


# --- the compiled search of `KERNEL_POLICIES` ---------------------------------------------------------
@njit
def _best_discard(holding, trump, values, meld_first, counts, gains):
    """(discard mask, trump, meld of the 15 kept, buried points) of an 18-card holding mask.

    trump: a suit, or -1 for the best of the four. Every discard of 3 of the 18 cards is tried, once
    per choice of faces (the two copies of a face are alike); its value is meld + buried points, or
    with ``meld_first`` the meld, then the buried counters (at most 3, so 4 values per meld point);
    of equally valued ones the one keeping more trumps, then higher ranks, wins. counts (24,), gains
    (4,) int64: scratch.
    """
    cards = np.empty(HOLDING, dtype=np.int64)
    m, n = holding, 0
    while m:
        cards[n] = lowest_card(m)
        m &= m - _ONE
        n += 1
    faces = cards[:n] // 2
    ranks = faces % N_RANKS
    total_ranks = ranks.sum()
    _face_counts(holding, counts)
    best_key, best = -1, (_ONE, 0, 0, 0)
    for a in range(n):
        if a and faces[a] == faces[a - 1]:
            continue
        for b in range(a + 1, n):
            if b > a + 1 and faces[b] == faces[b - 1]:
                continue
            for c in range(b + 1, n):
                if c > b + 1 and faces[c] == faces[c - 1]:
                    continue
                buried = (_ONE << np.uint64(cards[a])) | (_ONE << np.uint64(cards[b])) | (_ONE << np.uint64(cards[c]))
                kept = holding & ~buried
                counts[faces[a]] -= 1
                counts[faces[b]] -= 1
                counts[faces[c]] -= 1
                base = _base_and_gains(counts, values, gains)
                counts[faces[a]] += 1
                counts[faces[b]] += 1
                counts[faces[c]] += 1
                points = COUNTER_POINTS * popcount(buried & COUNTERS)
                kept_ranks = total_ranks - ranks[a] - ranks[b] - ranks[c]
                for t in range(N_SUITS):
                    if trump >= 0 and t != trump:
                        continue
                    meld = base + gains[t]
                    value = meld * 4 + points // COUNTER_POINTS if meld_first else meld + points
                    key = (value * 16 + popcount(kept & SUITS[t])) * 128 + kept_ranks
                    if key > best_key:
                        best_key, best = key, (buried, t, meld, points)
    return best


@njit
def _discard_many(holdings, trump, values, meld_first, discards, trumps, melds, buried):
    counts = np.empty(24, dtype=np.int64)
    gains = np.empty(4, dtype=np.int64)
    for i in range(holdings.shape[0]):
        discards[i], trumps[i], melds[i], buried[i] = _best_discard(holdings[i], trump, values, meld_first, counts,
                                                                    gains)


def discards(holdings, trump: int | None = None, options: dict | None = None, meld_first: bool = False
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Best discard of many 18-card holdings: holdings (n,) uint64 -> ((n,) uint64 discard masks,
    (n,) int64 trumps, (n,) int64 melds of the kept 15, (n,) int64 buried points); options: meld
    variants (`pinochle3.meld_values`); meld_first: the most meld kept, not meld + buried counters."""
    holdings = _holdings(holdings)
    n = holdings.shape[0]
    out = np.empty(n, dtype=np.uint64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64)
    _discard_many(holdings, -1 if trump is None else int(trump), meld_values(options), bool(meld_first), *out)
    return out


# --- the most meld kept, and the meld statistics of random deals (spec §9.2-§9.3) --------------------------
@njit
def _most_meld_kept(holding, values, monotone, counts, gains):
    """(meld, meld of all 18) of an 18-card holding mask: the most meld (best trump) of the 15 cards kept after
    burying 3, and the best meld of the whole holding.

    Where a card added never lowers meld (``monotone``: `pinochle3.meld_is_monotone(values)`) the meld of all 18
    bounds the kept meld: copies are taken away face by face, each one kept out while the meld stays at the bound,
    and three taken away show the bound reached. Otherwise (0.028% of random holdings under the main game, where the
    best meld needs 16 or more of the cards), and always where meld is not monotone, every discard is searched
    (`_best_discard`, most meld first). counts (24,), gains (4,) int64: scratch.
    """
    _face_counts(holding, counts)
    bound = _base_and_gains(counts, values, gains) + gains.max()
    buried = 0
    if monotone:
        for face in range(counts.shape[0]):
            while counts[face] > 0 and buried < BURIED:
                counts[face] -= 1
                if _base_and_gains(counts, values, gains) + gains.max() < bound:
                    counts[face] += 1
                    break
                buried += 1
    if buried == BURIED:
        return bound, bound
    return _best_discard(holding, -1, values, True, counts, gains)[2], bound


@njit
def _most_meld_kept_many(holdings, values, monotone, melds):
    counts = np.empty(24, dtype=np.int64)
    gains = np.empty(4, dtype=np.int64)
    for i in range(holdings.shape[0]):
        melds[i] = _most_meld_kept(holdings[i], values, monotone, counts, gains)[0]


def most_meld_kept(holdings, options: dict | None = None) -> np.ndarray:
    """(n,) int64: the most meld (best trump) of the 15 cards kept from each 18-card holding (n,) uint64 after
    burying 3 (R3.9a: buried cards never meld), the meld of `discards` with ``meld_first``, found faster;
    options: meld variants (`pinochle3.meld_values`)."""
    holdings = _holdings(holdings)
    values = meld_values(options)
    melds = np.empty(holdings.shape[0], dtype=np.int64)
    _most_meld_kept_many(holdings, values, meld_is_monotone(values), melds)
    return melds


def kept_meld(holdings, trump: int | None = None, options: dict | None = None) -> np.ndarray:
    """(n,) int64: the most meld 15 of each 18-card holding (n,) uint64 keep under ``trump`` (None: the best trump,
    `most_meld_kept`), the kept meld of spec Q2's kitty gain; options: meld variants."""
    if trump is None:
        return most_meld_kept(holdings, options)
    return discards(holdings, trump, options, meld_first=True)[2]


TALLIES = ("hand", "hand+kitty", "kept", "gain", "gain_sum", "gain_squares")
"""The per-bin tallies of `MeldStatsJob`, in its order (`_meld_tallies`)."""
LIMIT = ("cost_deals", "cost_points", "raised_deals")
"""The 15-card limit's counts of `MeldStatsJob` (`_meld_tallies`)."""


@njit
def _meld_tallies(hands, kitty, values, monotone, tallies, limit):
    """Tally the best meld of every 15-card hand, of hand + kitty (all 18), of the best 15 kept after the discard
    (`_most_meld_kept`) and the kitty gain (kept - hand) in bins of 10 points (tallies[0:4]), and by the hand's
    bin the sum of the gains and of their squares (tallies[4:6]). tallies (6, MELD_BINS) int64, points of the last
    bin and beyond in the last; limit (3,) int64 += (deals where the kept meld is below that of all 18, the points
    it is below, deals where it is above: only where meld is not ``monotone``). hands, kitty: (n,) uint64 masks."""
    counts = np.empty(24, dtype=np.int64)
    gains = np.empty(4, dtype=np.int64)
    last = tallies.shape[1] - 1
    for i in range(hands.shape[0]):
        _face_counts(hands[i], counts)
        before = _base_and_gains(counts, values, gains) + gains.max()
        kept, bound = _most_meld_kept(hands[i] | kitty[i], values, monotone, counts, gains)
        gain = kept - before
        row = min(before // 10, last)
        tallies[0, row] += 1
        tallies[1, min(bound // 10, last)] += 1
        tallies[2, min(kept // 10, last)] += 1
        tallies[3, min(gain // 10, last)] += 1
        tallies[4, row] += gain
        tallies[5, row] += gain * gain
        if kept < bound:
            limit[0] += 1
            limit[1] += bound - kept
        elif kept > bound:
            limit[2] += 1


class MeldStatsJob:
    """Counts for the runner: [deals, `TALLIES` (6 x MELD_BINS, `_meld_tallies`: histograms of the best meld of
    ``seat``'s 15 cards, of the 18 with the kitty, of the best 15 kept after the discard and of the kitty gain, in
    bins of 10 points, and the sum of the gains and of their squares by the hand's bin), `LIMIT` (deals where the
    kept meld is below that of all 18 and the points it is below, deals where it is above), deals some player may
    throw in per nines rule (`throw_in_deals`)]; options: meld variants (`meld_values`)."""

    n_counts = 1 + len(TALLIES) * MELD_BINS + len(LIMIT) + len(NINES_RULES)

    def __init__(self, seat: int = 0, options: dict | None = None):
        self.seat = checks.whole(seat, "--seat", 0, SEATS - 1)
        self.values = meld_values(options)
        self.monotone = meld_is_monotone(self.values)
        self.spec = DealSpec(LAYOUT)

    def key(self) -> str:
        return f"pinochle3|MeldStatsJob|seat={self.seat}{options_key(self.values)}|throw_ins|kept"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        tallies = np.zeros((len(TALLIES), MELD_BINS), dtype=np.int64)
        limit = np.zeros(len(LIMIT), dtype=np.int64)
        _meld_tallies(slots[:, self.seat], slots[:, LAYOUT.index("kitty")], self.values, self.monotone, tallies,
                      limit)
        return np.concatenate(([n_deals], tallies.ravel(), limit, throw_in_deals(slots)))

    @staticmethod
    def unpack(counts: np.ndarray) -> tuple[int, dict[str, np.ndarray], dict[str, int], np.ndarray]:
        """(deals, {tally: (MELD_BINS,) int64}, {limit count: int}, throw-in deals per nines rule) of summed
        counts."""
        end = 1 + len(TALLIES) * MELD_BINS
        tallies = counts[1:end].reshape(len(TALLIES), MELD_BINS)
        limit = {name: int(k) for name, k in zip(LIMIT, counts[end:end + len(LIMIT)])}
        return int(counts[0]), dict(zip(TALLIES, tallies)), limit, counts[end + len(LIMIT):]


# --- any policy, by its features -------------------------------------------------------------------
def _cards(holdings: np.ndarray) -> np.ndarray:
    """(n, 18) int64 sorted card indices of 18-card masks (n,) uint64."""
    bits = (holdings[:, None] >> np.arange(DECK.n_cards, dtype=np.uint64)) & np.uint64(1)
    return np.nonzero(bits)[1].reshape(len(holdings), HOLDING)


def features(holdings, options: dict | None = None) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """(buried masks (n, 816) uint64, {feature: (n, 816, 4) int64}) of 18-card masks (n,) uint64,
    per discard (`COMBOS`) and trump: ``meld`` of the 15 kept (R3.9a), ``buried`` counter points
    buried (R4.7c), ``value`` their sum, ``trumps`` and ``aces`` kept, ``ranks`` kept (9 = 0 ... A = 5)."""
    holdings = _holdings(holdings)
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
    buried counter points), as `discards` returns them (and computes them for `KERNEL_POLICIES`);
    options: meld variants."""
    chosen = discard_policy(policy)
    if chosen.name in KERNEL_POLICIES:
        return discards(holdings, trump, options, KERNEL_POLICIES[chosen.name])
    return feature_discards(holdings, trump, chosen.key, options)


def feature_discards(holdings, trump: int | None, key: tuple[str, ...], options: dict | None = None
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`policy_discards` by the `features` named in ``key``, most important first, each maximized: the
    first best discard (in `COMBOS` order) and trump."""
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


# --- every kitty of a hand (spec §9.1 Q2) ------------------------------------------------------------
def kitties(hand) -> tuple[np.ndarray, np.ndarray]:
    """Every kitty of 3 of the 33 cards a 15-card hand mask does not hold, once per choice of faces (the
    two copies of a face are alike): ((k,) uint64 kitty masks, (k,) int64 weights: the physical kitties
    of each choice, summing to C(33, 3) = 5,456)."""
    hand = int(hand)
    unseen = np.array([c for c in range(DECK.n_cards) if not hand >> c & 1], dtype=np.int64)
    if unseen.size != DECK.n_cards - HAND_SIZE:
        raise CardsimError(f"a kitty is dealt from the cards a {HAND_SIZE}-card hand does not hold")
    triples = unseen[np.array(list(combinations(range(unseen.size), KITTY_SIZE)))]  # faces ascending per row
    _, first, weights = np.unique(triples // 2, axis=0, return_index=True, return_counts=True)
    masks = np.bitwise_or.reduce(np.uint64(1) << triples[first].astype(np.uint64), axis=1)
    return masks, weights.astype(np.int64)


def kitty_gains(hand, trump: int | None = None, options: dict | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The kitty gain of a 15-card hand mask for every kitty (`kitties`): ((k,) int64 gains, (k,) int64
    weights). A gain is the most meld 15 of the 18 cards can keep (spec Q2: the discard of 3 that keeps the most,
    `kept_meld`, under ``trump`` or the best) minus the best meld of the hand; options: meld
    variants. The weighted mean over the weights' sum is the exact expected gain. (The best discard of play,
    meld + buried counters, keeps 10 less in a few hands.)"""
    masks, weights = kitties(hand)
    melds = kept_meld(masks | np.uint64(int(hand)), trump, options)
    before = int(best_meld(np.array([int(hand)], dtype=np.uint64), options)[0][0])
    return melds - before, weights
