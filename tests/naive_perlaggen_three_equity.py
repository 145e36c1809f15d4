"""A slow, readable reference of the 3-player Perlaggen match equity (perlaggen.md §9.4), written from the rules,
not from the kernel: plain value iteration over every score triple and every deal outcome, one at a time.

A deal outcome is ([(seat after the dealer, points), ...] in the §8.12 order, [penalised seats after the dealer])
with a probability; the first player whose running score reaches the target wins; otherwise every penalised player
loses 2 (a score is held at ``floor``) and the player on the dealer's left deals next.
"""

from __future__ import annotations

import itertools


def deal_step(scores, dealer: int, awards, penalised, target: int, floor: int) -> tuple:
    """(the seat that wins the game in this deal or None, the scores after it) of one deal outcome."""
    running = list(scores)
    for after_dealer, points in awards:
        seat = (dealer + after_dealer) % 3
        running[seat] += points
        if running[seat] >= target:
            return seat, running
    for after_dealer in penalised:
        seat = (dealer + after_dealer) % 3
        running[seat] = max(running[seat] - 2, floor)
    return None, running


def equity(outcomes, target: int, floor: int, sweeps: int = 5000, tolerance: float = 1e-13) -> dict:
    """{(dealer, s0, s1, s2): [P(seat 0 wins), P(seat 1 wins), P(seat 2 wins)]} for every dealer 0-2 and score
    floor..target-1; ``outcomes`` [(probability, awards, penalised)], or a function of the scores (dealer's, his
    left's, his right's) at a deal's start giving that deal's list."""
    outcomes_at = outcomes if callable(outcomes) else (lambda scores: outcomes)
    states = [(d, *s) for d in range(3) for s in itertools.product(range(floor, target), repeat=3)]
    w = {state: [0.0, 0.0, 0.0] for state in states}
    for _ in range(sweeps):
        new = {}
        for dealer, *scores in states:
            value = [0.0, 0.0, 0.0]
            seen = [scores[(dealer + k) % 3] for k in range(3)]
            for p, awards, penalised in outcomes_at(seen):
                winner, running = deal_step(scores, dealer, awards, penalised, target, floor)
                if winner is not None:
                    value[winner] += p
                    continue
                nxt = w[((dealer + 1) % 3, *running)]
                for seat in range(3):
                    value[seat] += p * nxt[seat]
            new[(dealer, *scores)] = value
        change = max(abs(a - b) for state in states for a, b in zip(new[state], w[state]))
        w = new
        if change < tolerance:
            break
    return w
