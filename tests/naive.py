"""Slow, readable reference implementations, written from the rules spec, not from the kernels.

Cards are integers ``card = 8 * suit + rank`` (rank 0 = 7 ... 7 = Ace); a hand is a list of cards.
These are the "second implementation" every fast kernel is compared with.
"""

from __future__ import annotations

N_SUITS = 4
N_RANKS = 8
MASK32 = (1 << 32) - 1


# --- figures --------------------------------------------------------------------------------
def best_gleich(cards, n_suits: int = N_SUITS, n_ranks: int = N_RANKS) -> int:
    """Best set code ``n_ranks*(size-2) + rank`` of a hand, -1 without a pair (spec §4.2)."""
    best = -1
    for rank in range(n_ranks):
        size = sum(1 for c in cards if c % n_ranks == rank)
        if size >= 2:
            best = max(best, n_ranks * (size - 2) + rank)
    return best


def best_hanger(cards, n_suits: int = N_SUITS, n_ranks: int = N_RANKS) -> int:
    """Best run code ``n_ranks*(length-2) + top`` of a hand, -1 without a run; no wrap (spec §5.2)."""
    held = set(cards)
    best = -1
    for suit in range(n_suits):
        for top in range(n_ranks):
            length = 0
            # walk down from `top` while the cards are held in this suit
            while top - length >= 0 and suit * n_ranks + top - length in held:
                length += 1
            if length >= 2:
                best = max(best, n_ranks * (length - 2) + top)
    return best


def wild_figures(cards, wild_cards, n_suits: int = N_SUITS, n_ranks: int = N_RANKS) -> tuple[int, int]:
    """(best Gleich, best Hanger) of a hand whose cards in ``wild_cards`` are wild, each standing for any card the
    hand does not hold (giltspiel.md §8, the Perlique): every choice of distinct cards for them, outside the hand's
    natural cards, tried; the best of each figure taken on its own."""
    from itertools import combinations

    naturals = [c for c in cards if c not in wild_cards]
    free = [c for c in range(n_suits * n_ranks) if c not in naturals]
    gleich = hanger = -1
    for chosen in combinations(free, len(cards) - len(naturals)):
        hand = naturals + list(chosen)
        gleich = max(gleich, best_gleich(hand, n_suits, n_ranks))
        hanger = max(hanger, best_hanger(hand, n_suits, n_ranks))
    return gleich, hanger


def team_result(codes):
    """Outcome of one figure from four seats' codes, literally as spec §4.3 describes it.

    Returns 0 or 1 (the winning team), 'stand' or 'void'.
    """
    holders = [seat for seat in range(4) if codes[seat] >= 0]
    if not holders:
        return "void"
    top = max(codes)
    teams_with_top = {seat % 2 for seat in range(4) if codes[seat] == top}
    if len(teams_with_top) == 2:
        return "stand"
    return teams_with_top.pop()


# --- dealing --------------------------------------------------------------------------------
BATCH = 3


def batch(words, pos: int, spare: int, first_bound: int, size: int, bits: int = 32):
    """``size`` uniform integers in [0, first_bound), [0, first_bound - 1), ... from one 32-bit word.

    Batched ranged integers: multiply the word by each bound, keep the high 32 bits as the draw
    and the low 32 bits for the next bound. Reject (take the next spare word) when the final low
    part is below (2**32 - product) % product. When no spare is left the last candidate is kept.
    ``bits`` is the word width (32 in the kernels; smaller widths let a test enumerate every word).
    Returns (draws, next spare index).
    """
    low_mask = (1 << bits) - 1
    bounds = [first_bound - t for t in range(size)]
    product = 1
    for b in bounds:
        product *= b
    threshold = ((1 << bits) - product) % product
    word = int(words[pos])
    while True:
        draws, low = [], word
        for b in bounds:
            draws.append((low * b) >> bits)
            low = (low * b) & low_mask
        if low >= threshold or spare >= len(words):
            return draws, spare
        word = int(words[spare])
        spare += 1


def deal(words, n_cards: int, sizes, fixed):
    """One deal from one row of random words, as lists of cards per place.

    sizes: cards per place (they add up to ``n_cards``); fixed: list (per place) of cards known to be
    there. The free cards (ascending) are shuffled by a partial Fisher-Yates: for position i draw j
    uniform in [i, k), swap, and the card at i goes to the place being filled; places are filled in
    order and the last place takes the rest. Draws come three to a word (`batch`); the words after
    the batches are spares.
    """
    taken = {c for cards in fixed for c in cards}
    pool = [c for c in range(n_cards) if c not in taken]
    room = [size - len(cards) for size, cards in zip(sizes, fixed)]
    owner = [place for place in range(len(sizes) - 1) for _ in range(room[place])]
    places = [list(cards) for cards in fixed]
    n_batches = -(-len(owner) // BATCH)
    spare = n_batches
    for b in range(n_batches):
        first = b * BATCH
        size = min(BATCH, len(owner) - first)
        draws, spare = batch(words, b, spare, len(pool) - first, size)
        for t, j in enumerate(draws):
            i = first + t
            j += i
            pool[i], pool[j] = pool[j], pool[i]
            places[owner[i]].append(pool[i])
    places[-1].extend(pool[len(owner):])
    return places


def mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def cards_of(m: int) -> list[int]:
    return [c for c in range(64) if (int(m) >> c) & 1]


# --- statistics -----------------------------------------------------------------------------
def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for a chi-square variable with ``df`` degrees of freedom (regularized upper gamma)."""
    import math

    a, z = df / 2.0, x / 2.0
    if z <= 0:
        return 1.0
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:  # series for the lower tail
        term = total = 1.0 / a
        n = a
        while term > total * 1e-15:
            n += 1
            term *= z / n
            total += term
        return max(0.0, 1.0 - math.exp(log_front) * total)
    # continued fraction for the upper tail (modified Lentz)
    tiny = 1e-300
    b = z + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def chi2_test(observed, expected_p) -> float:
    """p-value of Pearson's goodness-of-fit test; cells with zero expected probability must be empty."""
    total = sum(observed)
    stat = 0.0
    cells = 0
    for o, p in zip(observed, expected_p):
        if p == 0:
            if o:
                return 0.0
            continue
        e = total * p
        stat += (o - e) ** 2 / e
        cells += 1
    return chi2_sf(stat, cells - 1)
