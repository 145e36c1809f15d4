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
def bounded(words, pos: int, spare: int, bound: int):
    """Lemire's exact bounded integer in [0, bound) from 32-bit words.

    Uses ``words[pos]``; a rejected candidate is replaced by the next spare word ``words[spare]``,
    ``words[spare + 1]`` ... Returns (value, next spare index). When no spare is left the last
    candidate is kept (the documented ~1e-30 case).
    """
    product = int(words[pos]) * bound
    threshold = ((1 << 32) - bound) % bound
    while (product & MASK32) < threshold and spare < len(words):
        product = int(words[spare]) * bound
        spare += 1
    return product >> 32, spare


def deal(words, n_cards: int, sizes, fixed):
    """One deal from one row of random words, as lists of cards per place.

    sizes: cards per place (they add up to ``n_cards``); fixed: list (per place) of cards known to be
    there. The free cards (ascending) are shuffled by a partial Fisher-Yates: for position i draw j
    uniform in [i, k), swap, and the card at i goes to the place being filled; places are filled in
    order and the last place takes the rest.
    """
    taken = {c for cards in fixed for c in cards}
    pool = [c for c in range(n_cards) if c not in taken]
    room = [size - len(cards) for size, cards in zip(sizes, fixed)]
    draws = sum(room[:-1])
    spare = draws
    places = [list(cards) for cards in fixed]
    i = 0
    for place in range(len(sizes) - 1):
        for _ in range(room[place]):
            j, spare = bounded(words, i, spare, len(pool) - i)
            j += i
            pool[i], pool[j] = pool[j], pool[i]
            places[place].append(pool[i])
            i += 1
    places[-1].extend(pool[i:])
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
