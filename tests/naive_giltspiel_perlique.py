"""Slow, readable references for the play of "Giltspiel mit 3 Perlique" (giltspiel.md §6 and §8, with the readings
of simcore/games/giltspiel_perlique.py's docstring), written with sets and tuples.

Cards and identities are ``8 * suit + rank`` (suits E L H S, rank 0 = 7 ... 7 = Ace); the wild cards are the trump
suit's 7, Unter and Ober. A play is ``(card, identity)``. Seats 0-3 clockwise, team = seat % 2.
"""

from __future__ import annotations

N_CARDS, N_RANKS, SEATS, TRICKS, SPIEL = 32, 8, 4, 5, 3
WILD_RANKS = (0, 4, 5)  # 7, Unter, Ober


def wild_cards(trump: int) -> set[int]:
    return {trump * N_RANKS + r for r in WILD_RANKS}


def suit(card: int) -> int:
    return card // N_RANKS


def options(hand: set[int], trump: int, led: int, visible: set[int]) -> set[tuple[int, int]]:
    """Every (card, identity) play the rules allow: the natural cards by §6.1 over the natural cards alone; every
    wild with every identity not visible and not one of the hand's natural cards, of the suit led or trumps when
    the hand holds a natural card of the suit led."""
    natural = hand - wild_cards(trump)
    holds_led = any(suit(c) == led for c in natural)
    if led < 0 or not holds_led and led != trump:
        cards = natural
    elif led == trump:
        cards = {c for c in natural if suit(c) == trump} or natural
    else:
        cards = {c for c in natural if suit(c) in (led, trump)}
    suits = {led, trump} if led >= 0 and holds_led else set(range(4))
    identities = {i for i in range(N_CARDS) if suit(i) in suits and i not in visible and i not in natural}
    return {(c, c) for c in cards} | {(w, i) for w in hand & wild_cards(trump) for i in identities}


def winner(plays: list[tuple[int, int]], trump: int, tie: str) -> int:
    """Slot of the play holding the trick: the highest trump identity, else the highest of the suit led; a wild and
    the natural card of its identity: the one ``tie`` ("wild" or "natural") names."""
    led = suit(plays[0][1])

    def strength(play):
        card, ident = play
        tier = 2 if suit(ident) == trump else 1 if suit(ident) == led else 0
        return tier, ident % N_RANKS if tier else -1, (card in wild_cards(trump)) == (tie == "wild")

    return max(range(len(plays)), key=lambda i: strength(plays[i]))


def spiel_minimax(hands, turnup: int, team: int, leader: int = 1, won=(0, 0), visible=(), need: int = SPIEL,
                  tie: str = "wild") -> bool:
    """True if ``team`` takes ``need`` tricks from a trick start under perfect play of both teams: plain minimax
    over every legal play (every wild, every identity), stopping a node at its first deciding child."""
    trump = suit(turnup)

    def value(hands, leader, trick, won, visible):
        if not trick and won[team] >= need:
            return True
        if not trick and won[1 - team] > TRICKS - need:
            return False
        seat = (leader + len(trick)) % SEATS
        led = suit(trick[0][1]) if trick else -1
        mine = seat % 2 == team
        for card, ident in sorted(options(hands[seat], trump, led, visible)):
            after = [h - {card} if s == seat else h for s, h in enumerate(hands)]
            plays = trick + [(card, ident)]
            if len(plays) == SEATS:
                taker = (leader + winner(plays, trump, tie)) % SEATS
                tally = list(won)
                tally[taker % 2] += 1
                result = value(after, taker, [], tally, visible | {ident})
            else:
                result = value(after, leader, plays, won, visible | {ident})
            if result == mine:
                return mine
        return not mine

    return value([set(h) for h in hands], leader, [], list(won), {turnup, *visible})


def height(card: int, trump: int) -> int:
    """Greedy's order: rank, every trump above every plain card."""
    return card % N_RANKS + (N_RANKS if suit(card) == trump else 0)


def choose(policy: str, hand: set[int], trick: list[tuple[int, int]], trump: int, visible: set[int], u: float,
           tie: str = "wild") -> tuple[int, int]:
    """The play of ``policy`` ("random" or "greedy") from ``hand`` to the trick so far (``(card, identity)`` plays).

    random: the legal cards in card order (a hand's wilds count as its lowest wild, when any may be played), the
    one at floor(u * count); a wild then takes the identity at floor(fraction * count) of the allowed ones, the
    fraction being what u * count has beyond its whole part.
    greedy: §10.5 greedy among the natural cards when it leads, when the partner holds the trick or when a natural
    card takes the trick (the cheapest that does); else a wild with the lowest identity that takes the trick; else
    the cheapest natural card; else (only wilds) a wild leading as the highest identity, following as the lowest
    (equal heights: the higher identity)."""
    led = suit(trick[0][1]) if trick else -1
    legal = options(hand, trump, led, visible)
    naturals = sorted(c for c, i in legal if c == i and c not in wild_cards(trump))
    wilds = sorted(hand & wild_cards(trump))
    identities = sorted(i for c, i in legal if c in wild_cards(trump))
    wild = wilds[0] if identities else None
    if policy == "random":
        cards = sorted(naturals + ([wild] if wild is not None else []))
        k = int(u * len(cards))
        card = cards[k]
        if card != wild:
            return card, card
        return card, identities[int((u * len(cards) - k) * len(identities))]
    if not trick:
        if naturals:
            card = max(naturals, key=lambda c: (height(c, trump), c))
            return card, card
        ident = max(identities, key=lambda i: (height(i, trump), i))
        return wild, ident
    taking = [c for c in naturals if winner(trick + [(c, c)], trump, tie) == len(trick)]
    slot = winner(trick, trump, tie)
    partner = len(trick) >= 2 and slot % 2 == len(trick) % 2
    cheapest = min(naturals, key=lambda c: (height(c, trump), c)) if naturals else None
    if partner and naturals:
        return cheapest, cheapest
    if taking and not partner:
        card = min(taking, key=lambda c: (height(c, trump), c))
        return card, card
    if wild is not None and not partner:
        wins = [i for i in identities if winner(trick + [(wild, i)], trump, tie) == len(trick)]
        if wins:
            return wild, min(wins, key=lambda i: (height(i, trump), i))
    if naturals:
        return cheapest, cheapest
    return wild, min(identities, key=lambda i: (height(i, trump), -i))
