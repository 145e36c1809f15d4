"""Perlaggen figure resolution at level L1 (spec §11.6): the small game of the frontier points.

Rules: shared/rules/perlaggen.md. At level L0 every hand's best Gleich and best Hanger each use all
its free Perlaggen. At level L1 a Perlagg carries one identity for both figures (B3, B9): each
player picks one point (Gleich code, Hanger code) of his Pareto frontier (§6.5), the two partners
of a team choose together, and both teams choose simultaneously.

What is optimised (§11.6, ties counted 1/2): team D's payoff is

    v_G * sgn(G_D - G_O) + v_H * sgn(H_D - H_O)

where G_X, H_X are the better partner's codes of team X (§5.1, §6.1) and v_G, v_H the stakes (the
figures' values, 1 each while unbet, §8.7); team O's payoff is its negative. Counting a won figure
as v, a standing one as v/2 and a lost one as 0 gives the same game (it is constant-sum), so this is
"maximise v_G 1[win G] + v_H 1[win H], ties 1/2" of §11.6 as a zero-sum matrix game. It is solved
exactly:

1. A team's pure strategies are the Pareto-best of the points (max of the partners' Gleich codes,
   max of their Hanger codes) over all pairs of frontier points; a dominated point never pays more
   against any choice of the opponents, so the game value is unchanged.
2. If the pure maximin equals the pure minimax the game has a saddle point and the outcome is
   deterministic: each team plays, among its optimal pure points, the one with the best Gleich code
   (then the best Hanger code) — Gleich counts first among unbet figures (§8.12).
3. Otherwise the value and an optimal mixed strategy of each team are found by the simplex method
   (Bland's rule, so the choice is deterministic), and each team draws its point from its strategy
   with one uniform number per team and deal.

Outcomes are absolute, as in simcore.figures: TEAM0 (team D = seats 0, 2), TEAM1, STAND, VOID.
"""

from __future__ import annotations

import numpy as np

from simcore.config import njit
from simcore.errors import CardsimError
from simcore.figures import STAND, TEAM0, TEAM1, VOID
from simcore.games import perlaggen as P

LEVELS = ("L0", "L1")
TEAM_POINTS_MAX = P.FRONTIER_MAX * P.FRONTIER_MAX
"""Room for the team points of two frontiers before the Pareto filter."""
_EPS = 1e-9


@njit
def _figure_outcome(d, o):
    """Absolute outcome of one figure from the two teams' codes (0 = no figure)."""
    if d > o:
        return TEAM0
    if o > d:
        return TEAM1
    return VOID if d == 0 else STAND


@njit
def _sgn(x):
    return (x > 0) - (x < 0)


@njit
def _team_points(fa, na, fb, nb, cand, out):
    """Pareto-best team points of two partners' frontiers fa (na points), fb (nb): into out (k, 2),
    sorted by Gleich code descending (Hanger ascending); returns k. cand (>= na*nb, 2) is scratch."""
    n = 0
    for i in range(na):
        for j in range(nb):
            cand[n, 0] = max(fa[i, 0], fb[j, 0])
            cand[n, 1] = max(fa[i, 1], fb[j, 1])
            n += 1
    k = 0
    for i in range(n):
        keep = True
        for j in range(n):
            if cand[j, 0] >= cand[i, 0] and cand[j, 1] >= cand[i, 1] and \
                    (cand[j, 0] > cand[i, 0] or cand[j, 1] > cand[i, 1] or j < i):
                keep = False
                break
        if keep:
            pos = k
            while pos > 0 and out[pos - 1, 0] < cand[i, 0]:
                out[pos, 0], out[pos, 1] = out[pos - 1, 0], out[pos - 1, 1]
                pos -= 1
            out[pos, 0], out[pos, 1] = cand[i, 0], cand[i, 1]
            k += 1
    return k


@njit
def _payoffs(a, na, b, nb, vg, vh, m):
    """m (na, nb): team D's payoff of each pair of team points (module doc)."""
    for i in range(na):
        for j in range(nb):
            m[i, j] = vg * _sgn(a[i, 0] - b[j, 0]) + vh * _sgn(a[i, 1] - b[j, 1])


@njit
def _simplex(m, na, nb, p, q):
    """Optimal mixed strategies p (na,), q (nb,) of the zero-sum game m[:na, :nb] (row player
    maximises); returns the value. LP: max sum(y) s.t. M' y <= 1, y >= 0 with M' = m - min + 1 > 0;
    the value of M' is 1 / sum(y), q = y * value and p the duals of the rows. Bland's rule."""
    low = m[0, 0]
    for i in range(na):
        for j in range(nb):
            low = min(low, m[i, j])
    shift = 1.0 - low
    cols = nb + na
    tab = np.zeros((na + 1, cols + 1))
    basis = np.empty(na, dtype=np.int64)
    for i in range(na):
        for j in range(nb):
            tab[i, j] = m[i, j] + shift
        tab[i, nb + i] = 1.0
        tab[i, cols] = 1.0
        basis[i] = nb + i
    for j in range(nb):
        tab[na, j] = -1.0
    while True:
        enter = -1
        for j in range(cols):
            if tab[na, j] < -_EPS:
                enter = j
                break
        if enter < 0:
            break
        leave, best = -1, 0.0
        for i in range(na):
            if tab[i, enter] > _EPS:
                ratio = tab[i, cols] / tab[i, enter]
                if leave < 0 or ratio < best - _EPS or (abs(ratio - best) <= _EPS and basis[i] < basis[leave]):
                    leave, best = i, ratio
        piv = tab[leave, enter]
        for j in range(cols + 1):
            tab[leave, j] /= piv
        for i in range(na + 1):
            if i != leave and tab[i, enter] != 0.0:
                f = tab[i, enter]
                for j in range(cols + 1):
                    tab[i, j] -= f * tab[leave, j]
        basis[leave] = enter
    total = tab[na, cols]
    value = 1.0 / total
    q[:nb] = 0.0
    for i in range(na):
        if basis[i] < nb:
            q[basis[i]] = tab[i, cols] * value
    for i in range(na):
        p[i] = tab[na, nb + i] * value
    return value - shift


@njit
def _pick(probs, n, u):
    """Index drawn from probs[:n] with one uniform u in [0, 1)."""
    acc = 0.0
    for i in range(n - 1):
        acc += probs[i]
        if u < acc:
            return i
    return n - 1


@njit
def _solve(a, na, b, nb, vg, vh, m, p, q):
    """Solve the team game of points a (na) against b (nb): returns (value, i, j, mixed) with i, j the
    saddle-point choices (module doc, step 2) or -1, -1 with p, q filled when it is mixed."""
    _payoffs(a, na, b, nb, vg, vh, m)
    lower, row = -1e18, 0
    for i in range(na):
        worst = m[i, 0]
        for j in range(1, nb):
            worst = min(worst, m[i, j])
        if worst > lower:
            lower, row = worst, i
    upper, col = 1e18, 0
    for j in range(nb):
        best = m[0, j]
        for i in range(1, na):
            best = max(best, m[i, j])
        if best < upper:
            upper, col = best, j
    if lower == upper:
        return lower, row, col, False
    return _simplex(m, na, nb, p, q), -1, -1, True


class Scratch:
    """Work arrays of the L1 kernels, allocated once per block (numba takes them as a tuple)."""

    @staticmethod
    def arrays() -> tuple:
        f = P.FRONTIER_MAX
        return (np.zeros((4, f, 2), dtype=np.int64), np.zeros(4, dtype=np.int64),
                np.zeros((TEAM_POINTS_MAX, 2), dtype=np.int64), np.zeros((2, TEAM_POINTS_MAX, 2), dtype=np.int64),
                np.zeros((TEAM_POINTS_MAX, TEAM_POINTS_MAX)), np.zeros(TEAM_POINTS_MAX), np.zeros(TEAM_POINTS_MAX),
                np.zeros(9, dtype=np.int64), np.zeros(4, dtype=np.int64), np.zeros(P.DECK.n_cards + 1, dtype=np.int64),
                np.zeros(16 * (P.W_MAX + 1), dtype=np.int64))


@njit
def _l1_table(hands, pmask, pcards, fixed, tables, kinds, vg, vh, u0, u1, scratch):
    """L1 outcomes of four hands (4,) uint64 (fixed (4, P) int8 baptisms, -1 free): returns
    (Gleich outcome, Hanger outcome, value for team D, mixed)."""
    fr, npts, cand, team, m, p, q, counts, ladders, trial, best_g = scratch
    for s in range(4):
        npts[s] = P._hand_frontier(hands[s], pmask, pcards, fixed[s], tables, kinds, counts, ladders, trial, best_g,
                                   fr[s])
    na = _team_points(fr[0], npts[0], fr[2], npts[2], cand, team[0])
    nb = _team_points(fr[1], npts[1], fr[3], npts[3], cand, team[1])
    value, i, j, mixed = _solve(team[0], na, team[1], nb, vg, vh, m, p, q)
    if mixed:
        i = _pick(p, na, u0)
        j = _pick(q, nb, u1)
    a, b = team[0], team[1]
    return _figure_outcome(a[i, 0], b[j, 0]), _figure_outcome(a[i, 1], b[j, 1]), value, mixed


@njit
def _l1_block(hands, pmask, pcards, fixed, tables, kinds, vg, vh, uniforms, scratch, out, values):
    """out (n, 3): Gleich outcome, Hanger outcome, mixed; values (n,) team D's game value."""
    for d in range(hands.shape[0]):
        g, h, v, mixed = _l1_table(hands[d], pmask, pcards, fixed[d], tables, kinds, vg, vh,
                                   uniforms[d, 0], uniforms[d, 1], scratch)
        out[d, 0], out[d, 1], out[d, 2] = g, h, mixed
        values[d] = v


# --- public API ---------------------------------------------------------------------------------
def check_stakes(stakes) -> tuple[float, float]:
    """(v_G, v_H) as floats; CardsimError unless both are 1..7 (a figure's value, §8.7; fractions weigh the two
    figures between whole values), as numbers or as the text of --stakes' two parts; a bool is no value."""
    try:
        stakes = tuple(stakes)
        if any(isinstance(v, (bool, np.bool_)) for v in stakes):
            raise TypeError("a bool is no stake")
        vg, vh = (float(v) for v in stakes)
    except (TypeError, ValueError):
        raise CardsimError(f"stakes must be two figure values G:H such as 1:1, got {stakes!r}") from None
    if not (1 <= vg <= 7 and 1 <= vh <= 7):
        raise CardsimError(f"stakes are figure values from 1 to 7 (§8.7), got {vg:g}:{vh:g}")
    return vg, vh


def resolve(hands, style: str = "innsbruck", trump: str = "H", baptised=None, stakes=(1, 1), uniforms=None,
            six_below_bells_seven: bool = True) -> dict[str, np.ndarray]:
    """L1 outcomes of tables of four hands (module doc).

    hands: (n, 4) uint64 card masks, seats 0..3 (team D = seats 0, 2); baptised: None or (n, 4, P)
    int8 fixed identities (see simcore.games.perlaggen); uniforms: (n, 2) floats in [0, 1) for the
    mixed draws (default 0.5, the draws matter only for mixed games).
    Returns {"outcome": (n, 2) int8 absolute Gleich and Hanger outcomes, "value": (n,) float64 team
    D's game value, "mixed": (n,) bool}.
    """
    hands = np.ascontiguousarray(hands, dtype=np.uint64).reshape(-1, 4)
    n = hands.shape[0]
    flat = None if baptised is None else np.asarray(baptised).reshape(n * 4, -1)
    args = P._kernel_args(hands.reshape(-1), style, trump, flat, six_below_bells_seven)
    fixed = args[3].reshape(n, 4, -1)
    vg, vh = check_stakes(stakes)
    uniforms = np.full((n, 2), 0.5) if uniforms is None else np.ascontiguousarray(uniforms, dtype=np.float64)
    out = np.zeros((n, 3), dtype=np.int8)
    values = np.zeros(n)
    _l1_block(hands, args[1], args[2], fixed, args[4], args[5], vg, vh, uniforms, Scratch.arrays(),
              out, values)
    return {"outcome": out[:, :2], "value": values, "mixed": out[:, 2].astype(bool)}


def solve_game(a, b, stakes=(1, 1)) -> tuple[float, np.ndarray, np.ndarray, int, int]:
    """Solve the team game of team points a (na, 2) against b (nb, 2) as the kernel does (for tests).

    Returns (value, p (na,), q (nb,), i, j): a saddle point gives i, j >= 0 and p, q the pure
    strategies; a mixed game gives i = j = -1.
    """
    a = np.asarray(a, dtype=np.int64).reshape(-1, 2)
    b = np.asarray(b, dtype=np.int64).reshape(-1, 2)
    vg, vh = check_stakes(stakes)
    m = np.zeros((a.shape[0], b.shape[0]))
    p, q = np.zeros(a.shape[0]), np.zeros(b.shape[0])
    value, i, j, mixed = _solve(a, a.shape[0], b, b.shape[0], vg, vh, m, p, q)
    if not mixed:
        p[:], q[:] = 0, 0
        p[i], q[j] = 1, 1
    return float(value), p, q, int(i), int(j)


def team_points(fa, fb) -> np.ndarray:
    """Pareto-best team points (k, 2) of two partners' frontier points (lists of (G, H)), Gleich descending."""
    fa = np.asarray(fa, dtype=np.int64).reshape(-1, 2)
    fb = np.asarray(fb, dtype=np.int64).reshape(-1, 2)
    cand = np.zeros((fa.shape[0] * fb.shape[0], 2), dtype=np.int64)
    out = np.zeros_like(cand)
    k = _team_points(fa, fa.shape[0], fb, fb.shape[0], cand, out)
    return out[:k]
