"""Slow, readable references for the Giltspiel PIMC policy (simcore.games.giltspiel_pimc).

Cards are integers ``8 * suit + rank``; hands are sets; seats 0-3, team = seat % 2.
"""

from __future__ import annotations

from itertools import combinations

import naive_tricks as naive


def card_wins(hands, seat, card, trump, leader, won, trick) -> bool:
    """True if the team of ``seat`` wins the Spiel after ``seat`` plays ``card`` (plain minimax)."""
    after = [set(h) for h in hands]
    after[seat].remove(card)
    trick = list(trick) + [card]
    if len(trick) < 4:
        return naive.spiel_minimax(after, trump, leader, won, trick) == seat % 2
    winner = naive.trick_winner(trick, leader, trump)
    tricks = list(won)
    tricks[winner % 2] += 1
    return naive.spiel_minimax(after, trump, winner, tuple(tricks)) == seat % 2


def votes(deals, seat, trump, leader, won=(0, 0), trick=()) -> dict:
    """card -> number of ``deals`` (lists of four sets) in which playing it wins the Spiel, for every
    legal card of ``seat`` (its hand is the same in every deal)."""
    led = naive.suit(trick[0]) if trick else None
    legal = naive.legal_cards(deals[0][seat], led, trump)
    return {card: sum(card_wins(d, seat, card, trump, leader, won, trick) for d in deals) for card in legal}


def greedy_preference(card, trick, trump) -> int:
    """§10.5 greedy's liking for ``card`` (higher first): leading, the higher card; following, the
    cheapest card that wins unless partner holds the trick, then the cheapest card."""
    if not trick:
        return naive.height(card, trump)
    led = naive.suit(trick[0])
    best_slot = max(range(len(trick)), key=lambda i: naive.power(trick[i], led, trump))
    partner = len(trick) >= 2 and best_slot == len(trick) - 2
    if partner or naive.power(card, led, trump) <= naive.power(trick[best_slot], led, trump):
        return -naive.height(card, trump)
    return 16 - naive.height(card, trump)


def pick(counts: dict, trick, trump) -> int:
    """The card with most votes; ties: the greedy policy's preference, then the lowest card."""
    return min(counts, key=lambda c: (-counts[c], -greedy_preference(c, trick, trump), c))


def allowed(card, voids) -> bool:
    """A seat with void suit bits ``voids`` may hold ``card``."""
    return not (voids >> naive.suit(card)) & 1


def consistent_deals(known, need, pool, voids) -> list[tuple[frozenset, ...]]:
    """Every way to give seat s its ``known[s]`` cards plus ``need[s]`` cards of ``pool`` it may hold
    (the rest of the pool stays out): a list of four frozensets per deal."""
    out = []

    def fill(seat, rest, hands):
        if seat == 4:
            out.append(tuple(hands))
            return
        options = sorted(c for c in rest if allowed(c, voids[seat]))
        for chosen in combinations(options, need[seat]):
            fill(seat + 1, rest - set(chosen), hands + [frozenset(known[seat]) | frozenset(chosen)])

    fill(0, set(pool), [])
    return out


def public_representatives(cards, gone) -> set:
    """Of ``cards`` (one hand's) those with no card of ``cards`` next above them in their suit once
    the cards ``gone`` are skipped: equivalent runs counted once."""
    out = set()
    for card in cards:
        above = [c for c in range(card + 1, (card // 8 + 1) * 8) if c not in gone]
        if not above or above[0] not in cards:
            out.add(card)
    return out


def sequential_pick(legal, outcomes, trick, trump, gone=frozenset()) -> tuple[int, int]:
    """(card, samples used) of the PIMC vote over the sample outcomes (a list of K sets: the cards
    that win in each sample), stopping as `giltspiel_pimc._next_live`: a card stops being counted
    once it cannot reach the most wins; sampling stops when the counted cards are one up to
    equivalence, or after half the samples when some card won them all or none won any."""
    k = len(outcomes)
    wins = {c: 0 for c in legal}
    live, done = set(legal), 0
    while done < k:
        top = max(wins[c] for c in live)
        live = {c for c in live if wins[c] + k - done >= top}
        top = max(wins[c] for c in live)
        if len(public_representatives(live, gone)) <= 1 or 2 * done >= k and top in (0, done):
            break
        for card in live:
            wins[card] += card in outcomes[done]
        done += 1
    return pick(wins, trick, trump), done
