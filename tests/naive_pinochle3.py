"""Slow, literal reference for Pinochle meld (spec shared/rules/pinochle3.md §3), for tests only.

Written from the rules, not from the closed form of R3.5: a holding's meld is the largest total of
any legal declaration. A declaration picks, for every meld of the table, how many times (0, 1, 2)
it is declared; within one type a physical card may serve one meld only (R3.4b), so the copies a
type uses of every card may not exceed the copies held, while different types share cards freely
(R3.4a). A meld declared twice scores its double value (R3.1), which replaces the single one.

Cards are given as tokens ("SQ", "H10"); trump is a suit letter S H D C.
"""

from itertools import combinations, product

SUITS = "SHDC"
VALUES = {  # meld name -> (single, double)
    "rope": (150, 1500),
    "royal marriage": (40, 80),
    "marriage": (20, 40),
    "deece": (10, 20),
    "pinochle": (40, 300),
    "aces around": (100, 1000),
    "kings around": (80, 800),
    "queens around": (60, 600),
    "jacks around": (40, 400),
}


def card_counts(tokens) -> dict[str, int]:
    """Copies held of every card, keyed 'S10', 'HQ'... ('T' and 'N' read as 10 and 9)."""
    counts: dict[str, int] = {}
    for tok in tokens:
        t = tok.upper()
        t = t[0] + {"T": "10", "N": "9"}.get(t[1:], t[1:])
        counts[t] = counts.get(t, 0) + 1
    return counts


def melds_by_type(trump: str) -> dict[int, list[tuple[str, list[str]]]]:
    """The melds that exist under ``trump``, by type: (name, cards) with one card of each listed."""
    type1 = []
    for s in SUITS:
        if s == trump:
            type1.append(("rope", [s + r for r in ("A", "10", "K", "Q", "J")]))
            type1.append(("royal marriage", [s + "K", s + "Q"]))
            type1.append(("deece", [s + "9"]))
        else:
            type1.append(("marriage", [s + "K", s + "Q"]))
    type3 = [(name, [s + r for s in SUITS]) for name, r in
             (("aces around", "A"), ("kings around", "K"), ("queens around", "Q"), ("jacks around", "J"))]
    return {1: type1, 2: [("pinochle", ["SQ", "DJ"])], 3: type3}


def best_of_type(melds, counts) -> int:
    """Largest value of declaring each meld 0-2 times with no card used more often than held."""
    best = 0
    at_most = [min(counts.get(c, 0) for c in cards) for _, cards in melds]  # copies of its scarcest card
    for times in product(*(range(n + 1) for n in at_most)):
        used: dict[str, int] = {}
        for (_, cards), n in zip(melds, times):
            for c in cards:
                used[c] = used.get(c, 0) + n
        if any(n > counts.get(c, 0) for c, n in used.items()):
            continue
        value = sum(VALUES[name][n - 1] for (name, _), n in zip(melds, times) if n)
        best = max(best, value)
    return best


def meld_total(tokens, trump: str) -> int:
    """Meld of a holding (card tokens) under trump suit letter ``trump``."""
    counts = card_counts(tokens)
    return sum(best_of_type(melds, counts) for melds in melds_by_type(trump.upper()).values())


def most_meld_kept(tokens, buried: int = 3) -> int:
    """Most meld, under the best trump, of a holding (card tokens) less ``buried`` of its cards: every choice of
    the cards to bury under every trump (R3.9a: buried cards never meld)."""
    return max(meld_total([t for i, t in enumerate(tokens) if i not in out], trump)
               for out in combinations(range(len(tokens)), buried) for trump in SUITS)
