"""Slow, literal references for Pinochle trick play (spec shared/rules/pinochle3.md §1, §5, §8 A1-A2),
for tests only, written from the spec's pseudo-code.

A card is an integer ``2 * (6 * suit + rank) + copy`` (suits S H D C, ranks 9 J Q K 10 A weakest
first); a hand is a set of cards; a trick is a list of cards in play order.
"""

from __future__ import annotations

COUNTER_RANKS = {3, 4, 5}  # K, 10, A (R1.3)


def suit(card: int) -> int:
    return card // 12


def strength(card: int) -> int:
    return (card // 2) % 6


def beats(x: int, w: int, trump: int) -> bool:
    """R5.2 ``beats``: does x beat the current winner w? An identical card does not (strict >)."""
    return (suit(x) == trump and suit(w) != trump) or (suit(x) == suit(w) and strength(x) > strength(w))


def winner_index(cards, trump: int) -> int:
    """R5.4 ``trick_winner``: index of the card holding the trick, cards in play order."""
    win = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[win], trump):
            win = i
    return win


def legal(hand, trick, trump: int, rule: str = "old") -> set:
    """R5.2 ``legal`` for rule old and new1945, plus §8: old_strict (A2: following suit, beat the
    highest card of the suit led; void, overtrump if possible) and new1945_alt (A1 (ii): beat the
    highest card only when following suit, never forced to overtrump)."""
    hand = set(hand)
    if not trick:
        return hand
    led = suit(trick[0])
    follow = {x for x in hand if suit(x) == led}
    trumps = {x for x in hand if suit(x) == trump}
    cand = follow or trumps or hand
    w = trick[winner_index(trick, trump)]
    if rule == "old":
        win = {x for x in cand if beats(x, w, trump)}
    elif rule == "old_strict":
        if follow:
            top = trick[winner_index([c for c in trick if suit(c) == led], trump)]
            win = {x for x in cand if strength(x) > strength(top)}
        else:
            win = {x for x in cand if beats(x, w, trump)}
    elif rule == "new1945":
        win = {x for x in cand if beats(x, w, trump)} if led == trump else set()
    elif rule == "new1945_alt":
        win = {x for x in cand if beats(x, w, trump)} if follow else set()
    else:
        raise ValueError(rule)
    return win or cand


def counters(cards) -> int:
    """Number of counters (A, 10, K) among cards."""
    return sum(1 for c in cards if strength(c) in COUNTER_RANKS)


def replay(line, trump: int, rule: str, hands) -> tuple[list[int], list[int]]:
    """Check a (seat, card) line of a whole hand against `legal` and score it (R5.1, R5.6).

    hands: the three starting hands (sets). Asserts every card is legal, held by its player and
    played in turn. Returns (trick points per seat with the last-trick bonus, counters per seat).
    """
    hands = [set(h) for h in hands]
    points, taken = [0, 0, 0], [0, 0, 0]
    leader = line[0][0]
    for start in range(0, len(line), 3):
        trick = []
        for i, (seat, card) in enumerate(line[start:start + 3]):
            assert seat == (leader + i) % 3, "played out of turn"
            assert card in legal(hands[seat], trick, trump, rule), f"illegal card {card} by seat {seat}"
            hands[seat].remove(card)
            trick.append(card)
        leader = (leader + winner_index(trick, trump)) % 3
        taken[leader] += counters(trick)
        points[leader] += 10 * counters(trick)
    points[leader] += 10
    return points, taken
