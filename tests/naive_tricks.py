"""Slow, readable references for trick play, written from the Giltspiel spec (§2.2, §6.1, §6.2).

Cards are integers ``card = 8 * suit + rank`` (rank 0 = 7 ... 7 = Ace); a hand is a set of cards;
seats 0-3 clockwise, team = seat % 2. The solver test compares the numba search with
`spiel_minimax`, a plain minimax over every legal card without pruning.
"""

from __future__ import annotations

N_RANKS = 8
SPIEL = 3
TRICKS = 5


def suit(card: int, n_ranks: int = N_RANKS) -> int:
    return card // n_ranks


def legal_cards(hand, led_suit, trump, n_ranks: int = N_RANKS) -> set:
    """§6.1 table: leading any card; plain suit led: that suit or trumps, else anything;
    trump led: trumps, else anything."""
    hand = set(hand)
    if led_suit is None:
        return hand
    of_led = {c for c in hand if suit(c, n_ranks) == led_suit}
    trumps = {c for c in hand if suit(c, n_ranks) == trump}
    if led_suit == trump:
        return trumps or hand
    return (of_led | trumps) if of_led else hand


def legal_cards_must_follow(hand, led_suit, n_ranks: int = N_RANKS) -> set:
    """Must follow suit if possible, otherwise anything."""
    hand = set(hand)
    if led_suit is None:
        return hand
    return {c for c in hand if suit(c, n_ranks) == led_suit} or hand


def power(card: int, led_suit: int, trump: int, n_ranks: int = N_RANKS) -> int:
    """§2.2: 16 + rank for a trump, 8 + rank for the suit led, -1 otherwise (for 8 ranks)."""
    if suit(card, n_ranks) == trump:
        return 2 * n_ranks + card % n_ranks
    if suit(card, n_ranks) == led_suit:
        return n_ranks + card % n_ranks
    return -1


def trick_winner(cards, leader: int, trump: int, n_ranks: int = N_RANKS) -> int:
    """Seat winning the trick ``cards`` (in play order, the first by ``leader``)."""
    led = suit(cards[0], n_ranks)
    best = max(range(len(cards)), key=lambda i: power(cards[i], led, trump, n_ranks))
    return (leader + best) % len(cards)


def spiel_minimax(hands, trump: int, leader: int, won=(0, 0), trick=(), memo=None) -> int:
    """Team that wins the Spiel under perfect play; plain minimax, no pruning.

    hands: four sets of cards still held; trick: cards already played to the current trick by
    ``leader`` and the next seats; won: tricks already taken by teams 0 and 1. Play stops when a
    team has 3 tricks (§6.2); every legal card of every player is searched. ``memo`` remembers the
    value of positions at trick boundaries already searched (it prunes nothing).
    """
    if trick:
        return _spiel_trick([set(h) for h in hands], trump, leader, tuple(won), list(trick), {})
    for team in (0, 1):
        if won[team] >= SPIEL:
            return team
    memo = {} if memo is None else memo
    key = (tuple(frozenset(h) for h in hands), leader, tuple(won))
    if key not in memo:
        memo[key] = _spiel_trick([set(h) for h in hands], trump, leader, tuple(won), [], memo)
    return memo[key]


def _spiel_trick(hands, trump, leader, won, trick, memo) -> int:
    if len(trick) == 4:
        winner = trick_winner(trick, leader, trump)
        after = list(won)
        after[winner % 2] += 1
        return spiel_minimax(hands, trump, winner, after, memo=memo)
    seat = (leader + len(trick)) % 4
    led = suit(trick[0]) if trick else None
    results = []
    for card in sorted(legal_cards(hands[seat], led, trump)):
        hands[seat].remove(card)
        results.append(_spiel_trick(hands, trump, leader, won, trick + [card], memo))
        hands[seat].add(card)
    mine = seat % 2
    return mine if mine in results else 1 - mine


def forced_tricks(hands, trump: int, leader: int) -> int:
    """Tricks the leader's team takes out of all of them under perfect play (no Spiel stop)."""
    return _tricks_trick([set(h) for h in hands], trump, leader, leader % 2, [])


def _tricks_trick(hands, trump, leader, team, trick) -> int:
    if not hands[leader] and not trick:
        return 0
    if len(trick) == 4:
        winner = trick_winner(trick, leader, trump)
        return (winner % 2 == team) + _tricks_trick(hands, trump, winner, team, [])
    seat = (leader + len(trick)) % 4
    led = suit(trick[0]) if trick else None
    values = []
    for card in sorted(legal_cards(hands[seat], led, trump)):
        hands[seat].remove(card)
        values.append(_tricks_trick(hands, trump, leader, team, trick + [card]))
        hands[seat].add(card)
    return max(values) if seat % 2 == team else min(values)


def height(card: int, trump: int) -> int:
    """§10.5 "highest"/"cheapest": by rank, every trump counted above every plain card."""
    return card % N_RANKS + (N_RANKS if suit(card) == trump else 0)


def greedy_card(hand, trick, trump: int) -> int:
    """§10.5 greedy: lead the highest card; following, if partner is winning play the cheapest legal
    card, otherwise the cheapest card that wins, otherwise the cheapest card. Ties: leading, the
    higher card number; following, the lower. ``trick``: cards played so far, in order."""
    led = suit(trick[0]) if trick else None
    legal = sorted(legal_cards(hand, led, trump))
    if not trick:
        return max(legal, key=lambda c: (height(c, trump), c))
    cheapest = min(legal, key=lambda c: (height(c, trump), c))
    leader_slot = max(range(len(trick)), key=lambda i: power(trick[i], led, trump))
    if len(trick) >= 2 and leader_slot == len(trick) - 2:
        return cheapest
    best = power(trick[leader_slot], led, trump)
    winners = [c for c in legal if power(c, led, trump) > best]
    return min(winners, key=lambda c: (height(c, trump), c)) if winners else cheapest
