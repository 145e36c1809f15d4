"""Exact facts of a Bauernstoss deal (spec §9.2), every deal counted once, as fractions.

The jacks: the 4 jacks among the 32 cards are hypergeometric in one hand, a team (16 cards) or the 24 cards a
player does not see; their split over the four hands follows from the jack count of every seat, each count
vector weighted by the ways to place the jacks and to fill the hands with the 28 other cards (`jack_counts`).
The longest potential trump suit comes from `bauernstoss.longest_trump_table` (every hand listed); card points
held from a subset-sum count (`simcore.counting.point_counts`).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

from simcore import checks, counting
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs

CARDS = bs.DECK.n_cards
JACKS = bs.JACKS.bit_count()
HAND = bs.HAND_SIZE
TRUMPS = int(bs.EFF_MASKS[0, bs.TRUMP]).bit_count()
"""Trumps when a suit is named: the four jacks and the suit's 7 other cards."""
POINTS = tuple(int(bs.FACE_POINTS[c]) for c in range(CARDS))


def jacks_in(cards: int = HAND) -> dict[int, Fraction]:
    """P(k jacks) among ``cards`` random cards of the pack (8: a hand, 16: a team)."""
    return counting.hypergeometric(JACKS, CARDS, checks.whole(cards, "cards", 0, CARDS))


def jack_counts() -> dict[tuple[int, ...], Fraction]:
    """P(the seats hold these numbers of jacks), per vector of the four seats' jack counts (in seat order)."""
    deals = counting.multinomial(CARDS, (HAND,) * bs.SEATS)
    out = {}
    for counts in product(range(JACKS + 1), repeat=bs.SEATS):
        if sum(counts) == JACKS:
            ways = counting.multinomial(JACKS, counts) * counting.multinomial(CARDS - JACKS, [HAND - k for k in counts])
            out[counts] = Fraction(ways, deals)
    return out


def jack_patterns() -> dict[str, Fraction]:
    """P(the 4 jacks split over the hands as '4-0-0-0', '3-1-0-0', ...), most concentrated first."""
    out: dict[str, Fraction] = {}
    for counts, p in jack_counts().items():
        key = "-".join(str(k) for k in sorted(counts, reverse=True))
        out[key] = out.get(key, Fraction(0)) + p
    return dict(sorted(out.items(), reverse=True))


def forced_opener(bids=range(1, JACKS)) -> dict[int, Fraction]:
    """P(the first seat in speaking order (0 = forehand ... 3 = dealer) whose jack count is in ``bids`` (jack counts
    0-4) is at place i), and key -1 when no seat's is (spec §9.2: in BS a player with 1-3 jacks must open; in AS
    one with 4 as well, AS-5)."""
    if isinstance(bids, (str, bytes)) or not hasattr(bids, "__iter__"):
        raise CardsimError(f"bids must list jack counts 0-{JACKS}, got {checks.shown(bids)}")
    bids = frozenset(checks.whole(k, "a jack count of bids", 0, JACKS) for k in bids)
    out = {place: Fraction(0) for place in (*range(bs.SEATS), -1)}
    for counts, p in jack_counts().items():  # seats in speaking order: the deal is the same from any seat
        out[next((i for i, k in enumerate(counts) if k in bids), -1)] += p
    return out


def club_jack_holder(cards: int = HAND) -> dict[int, Fraction]:
    """P(k jacks) among the ``cards`` cards of the hand (8) or team (16) that holds the club jack."""
    cards = checks.whole(cards, "cards", 1, CARDS)
    return {k + 1: p for k, p in counting.hypergeometric(JACKS - 1, CARDS - 1, cards - 1).items()}


def partner_jacks(mine: int) -> dict[int, Fraction]:
    """P(my partner holds k jacks) given my ``mine`` (0-4): his 8 cards among the 24 I do not see."""
    mine = checks.whole(mine, "my jacks", 0, JACKS)
    return counting.hypergeometric(JACKS - mine, CARDS - HAND, HAND)


def top_jacks(k: int) -> Fraction:
    """P(a hand holds the ``k`` highest jacks): club, then spade, heart, diamond."""
    k = checks.whole(k, "k", 0, JACKS)
    return Fraction(comb(CARDS - k, HAND - k), comb(CARDS, HAND))


def trumps_for_a_suit() -> dict[int, Fraction]:
    """P(k trumps in a hand) when a suit is named trumps before the deal (11 trumps among the 32 cards)."""
    return counting.hypergeometric(TRUMPS, CARDS, HAND)


def card_point_counts(cards: int = HAND) -> tuple[int, ...]:
    """Hands of ``cards`` random cards per card points held 0..120 (every hand counted once)."""
    return counting.point_counts(POINTS, cards)
