"""Brute-force L1 figure resolution (spec §11.6), written from the spec, not from the kernels.

Every free Perlagg of every hand is given every identity of the pack (B2, A-23), as in
naive_perlaggen: a player's pure strategies are all his baptisms, a team's all pairs of its two
players' baptisms, each worth the point (better Gleich code, better Hanger code) of the pair. Team
D's payoff is ``v_G sgn(G_D - G_O) + v_H sgn(H_D - H_O)`` (§11.6 with ties counted 1/2, as a
zero-sum game); nothing is reduced to a frontier.

`solve` reports the pure maximin and minimax over all those strategies; when they are equal it is
a saddle point and both teams pick, among their optimal pure points, the one with the best Gleich
code, then the best Hanger code. `guarantees` checks mixed strategies against every pure strategy.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

import naive_perlaggen as nf


def player_points(hand, style: str, trump: str, fixed=None) -> set[tuple[int, int]]:
    """Every (Gleich, Hanger) pair some baptism of the hand's free Perlaggen reaches (not reduced)."""
    fixed = fixed or {}
    wild = nf.PERLAGGEN[(style, trump)]
    base = [fixed.get(c, c) if c in wild else c for c in hand if c not in wild or c in fixed]
    free = sum(1 for c in hand if c in wild and c not in fixed)
    return {(nf.gleich_code(base + list(extra)), nf.hanger_code(base + list(extra)))
            for extra in combinations_with_replacement(nf.IDENTITIES, free)}


def team_points(points_a, points_b) -> set[tuple[int, int]]:
    """Points of every pair of the partners' choices: the better partner counts per figure (§5.1)."""
    return {(max(ga, gb), max(ha, hb)) for ga, ha in points_a for gb, hb in points_b}


def sgn(x: int) -> int:
    return int(x > 0) - int(x < 0)


def payoff(a, b, stakes=(1, 1)) -> float:
    """Team D's payoff of its point a against team O's point b."""
    return stakes[0] * sgn(a[0] - b[0]) + stakes[1] * sgn(a[1] - b[1])


def outcome(d: int, o: int) -> int:
    """Absolute outcome of one figure: 0 team D, 1 team O, 2 stands, 3 void (nobody has one)."""
    if d != o:
        return 0 if d > o else 1
    return 3 if d == 0 else 2


def solve(hands, style: str, trump: str, stakes=(1, 1)) -> dict:
    """The team game of four hands (token lists, seats 0..3) over every baptism.

    Returns {"D", "O": team point sets, "lower", "upper": pure maximin and minimax, "saddle": bool,
    and for a saddle point "choice" (D's point, O's point) and "outcome" (Gleich, Hanger)}.
    """
    pts = [player_points(h, style, trump) for h in hands]
    d, o = team_points(pts[0], pts[2]), team_points(pts[1], pts[3])
    row_value = {a: min(payoff(a, b, stakes) for b in o) for a in d}
    col_value = {b: max(payoff(a, b, stakes) for a in d) for b in o}
    lower, upper = max(row_value.values()), min(col_value.values())
    result = {"D": d, "O": o, "lower": lower, "upper": upper, "saddle": lower == upper}
    if lower == upper:
        a = max(p for p in d if row_value[p] == lower)
        b = max(p for p in o if col_value[p] == upper)
        result["choice"] = (a, b)
        result["outcome"] = (outcome(a[0], b[0]), outcome(a[1], b[1]))
    return result


def guarantees(mix_d, mix_o, d, o, stakes=(1, 1)) -> tuple[float, float]:
    """(worst payoff of D's mixed strategy over every pure choice of O, best payoff of any pure choice
    of D against O's mixed strategy); mixes are {point: probability}. Equal values prove both optimal."""
    worst = min(sum(p * payoff(a, b, stakes) for a, p in mix_d.items()) for b in o)
    best = max(sum(q * payoff(a, b, stakes) for b, q in mix_o.items()) for a in d)
    return worst, best
