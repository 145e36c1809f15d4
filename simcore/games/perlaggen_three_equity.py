"""Match equity of 3-player Perlaggen (perlaggen.md §9.4, each for himself): who wins the game from three scores.

A deal's outcome, seen from its dealer, is its *award sequence* and its penalised players (`deal_code`): the
points of the decided figures in the §8.12 order, at most one award a figure (1, 2 or 3 points to one player,
`perlaggen_betting.ThreeFigure.plain_points`), and the players who failed the example duty (they score nothing
in the deal and lose `perlaggen_three.PENALTY`). The first player whose running score reaches the target along
the sequence wins the game (penalties do not count in that race, as `perlaggen_three.Deal3._finish`); otherwise
the scores move on and the deal passes to the dealer's left.

`Equity3Job` counts the codes of self-play deals (one policy in all three seats, whole games), pooled over the
dealers: with one policy everywhere a deal dealt by any seat is the same deal seen from that seat. Near the
target the §8.6 limit (A-38: a player may not bet or raise so that conceding would put him on the target) changes
what a deal can pay, so the deal model is kept per *limit class* (`limit_class`: each player's distance to the
target, 1 to 3 or `LIMIT_REACH` and more, seen from the dealer): the far class (all three at least `LIMIT_REACH`
short) from the self-play deals that began there, each of the 63 near classes from `Class3Job`'s deals dealt at
its scores. From the per-class distributions `match_equity` solves W[a, b, c, x] = P(seat x wins | seat 0 deals
next, scores a, b, c of seats 0, 1, 2; seat 1 is seat 0's left) by Gauss-Seidel sweeps over the scores from the
highest total down (penalties and deals nobody scores in make the states a graph with cycles, not a DAG), each
score reading the distribution of its class. Scores below `FLOOR` (several failed examples) are held at `FLOOR`.
Points a player secures earlier in a deal can still close a later bet from farther away, which the class does
not see.

The Strafperlaggen count-down (§9.5) is not modelled here: there a figure changes several players' counts at
once (every answerer who accepted pays his level), which this award code does not hold.
"""

from __future__ import annotations

import numpy as np

from simcore import betting
from simcore.betting import Policy, bet_allowed
from simcore.config import njit
from simcore.errors import CardsimError
from simcore.games import perlaggen_three as T
from simcore.rng import block_substream

SEATS = T.PLAYERS
MAX_POINTS = 3
"""The most one figure pays in the plain 3-player game (an accepted raise)."""
SLOT_KINDS = 1 + SEATS * MAX_POINTS
"""One award slot: 0 none, else 1 + 3 * (points - 1) + the seat after the dealer (0 = the dealer)."""
SLOTS = 3
"""Awards a deal holds at most: one per figure (Gleich, Hanger, Spiel)."""
CODES = SLOT_KINDS ** SLOTS * (1 << SEATS)
"""Deal codes: the award slots in order, then the penalised seats as a 3-bit mask (`deal_code`)."""
FLOOR = -4
"""The lowest score the table holds; a score falling below it (a third failed example from 0) is held there."""
TOLERANCE = 1e-12
"""The largest change of a sweep at which `match_equity` stops (probabilities)."""
PENALTY = T.PENALTY
MAX_SWEEPS = 2000
LIMIT_REACH = 4
"""A player's *limit class* is his distance to the target (target - score) capped here (`limit_class`). A bet or
raise from value v needs v < distance less the points he secured earlier in the deal (§8.6, A-38,
`simcore.betting.bet_allowed`), the highest being the raise from 2 to 3: from 3 every bet is open at a deal's start,
but one point secured closes that raise. Measured on the same cards with all three players equally short (formula):
at 3 points 17% of the deals end otherwise than far from the target, at 4 2%, at 5-7 none."""
CLASSES = LIMIT_REACH ** SEATS
"""Limit classes of a deal: (dealer's, left's, right's) class, index `class_index`; the last is the far class."""
FAR_CLASS = CLASSES - 1
CLASS_STREAMS = 1 << 20
"""`Class3Job` draws the deal of class c in unit j of a block from the block's streams CLASS_STREAMS + 2 (j C + c)
+ 1 (cards) and + 2 (bluffs), C the number of near classes: apart from `Equity3Job`'s."""
SETTLED = 1e-6
"""The most the three players' W of a score may miss 1 (every game won by someone) once the sweeps settled."""


def deal_code(result: T.Result3, dealer: int) -> int:
    """The code of a plain 3-player deal's outcome seen from its ``dealer``: award slots (`SLOT_KINDS`) in the
    §8.12 order, least significant first, then the mask of penalised seats (bit k: k seats after the dealer)."""
    if len(result.awards) > SLOTS:
        raise CardsimError(f"a 3-player deal paid {len(result.awards)} awards; the plain game pays at most {SLOTS}")
    code, scale = 0, 1
    for player, points, _ in result.awards:
        if not 1 <= points <= MAX_POINTS:
            raise CardsimError(f"an award of {points} points is not one of the plain 3-player game (1-{MAX_POINTS})")
        code += scale * (1 + SEATS * (points - 1) + (player - dealer) % SEATS)
        scale *= SLOT_KINDS
    penalised = sum(1 << ((p - dealer) % SEATS) for p in result.penalised)
    return code + SLOT_KINDS ** SLOTS * penalised


def decode(code: int) -> tuple[list[tuple[int, int]], list[int]]:
    """([(seat after the dealer, points)] in order, [penalised seats after the dealer]) of a `deal_code`."""
    awards, rest = [], code % SLOT_KINDS ** SLOTS
    for _ in range(SLOTS):
        slot = rest % SLOT_KINDS
        rest //= SLOT_KINDS
        if slot:
            awards.append(((slot - 1) % SEATS, (slot - 1) // SEATS + 1))
    mask = code // SLOT_KINDS ** SLOTS
    return awards, [s for s in range(SEATS) if (mask >> s) & 1]


def limit_class(distance: int, target: int) -> int:
    """A player's limit class (1..`LIMIT_REACH`) at ``distance`` = target - score >= 1 points from the target; a
    score below 0 takes the class of 0 (so that a game to less than `LIMIT_REACH` needs no class it cannot start in)."""
    return min(distance, target, LIMIT_REACH)


def class_index(classes) -> int:
    """The index (0..`CLASSES` - 1) of the limit classes (dealer's, left's, right's), each 1..`LIMIT_REACH`."""
    return sum((c - 1) * LIMIT_REACH ** k for k, c in enumerate(classes))


def score_class(scores, target: int) -> int:
    """`class_index` of a deal begun at ``scores`` (dealer's, left's, right's), every score below the target."""
    return class_index([limit_class(target - s, target) for s in scores])


def near_classes(target: int) -> tuple[tuple[int, int, int], ...]:
    """The limit classes (dealer's, left's, right's) of `Class3Job` in a game to ``target``: every triple from 1 to
    `LIMIT_REACH` and at most the target but the far one, whose deals self-play supplies."""
    top = min(target, LIMIT_REACH)
    return tuple((i, j, k) for k in range(1, top + 1) for j in range(1, top + 1) for i in range(1, top + 1)
                 if (i, j, k) != (LIMIT_REACH,) * SEATS)


def _check_setting(target: int, style: str) -> None:
    """CardsimError unless ``style`` is a plain 3-player style and ``target`` a game target."""
    if style not in T.STYLES:
        raise CardsimError(f"the 3-player match equity is built for the plain game ({', '.join(T.STYLES)}), not "
                           f"{style!r}; Strafperlaggen's count-down changes several counts a figure")
    betting.check_target(target)


class Equity3Job:
    """Runner job: whole plain 3-player games to ``target`` (``style``'s wild cards) with ``policy`` in every seat.
    Unit = one game. Counts: [games, deals, the number of deals of each `deal_code`, then the same of the far deals
    (every player at least `LIMIT_REACH` from the target at the deal's start)]."""

    block_size = 15
    n_counts = 2 + 2 * CODES

    def __init__(self, policy: Policy, target: int, style: str):
        _check_setting(target, style)
        self.policy, self.target, self.style = policy, target, style

    @staticmethod
    def outcomes(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(every deal's, the far deals') `deal_code` counts (CODES,) of the job's ``counts``."""
        return counts[2:2 + CODES], counts[2 + CODES:]

    def key(self) -> str:
        return f"perlaggen3|equity|far {LIMIT_REACH}|{self.policy!r}|{self.target}|{self.style}"

    def run_block(self, seed: int, block: int, n_games: int) -> np.ndarray:
        counts = np.zeros(self.n_counts, dtype=np.int64)
        policies = [self.policy] * SEATS
        for j in range(n_games):
            game = T.play_game(policies, block_substream(seed, block, 2 * j + 1),
                               block_substream(seed, block, 2 * j + 2), self.target, self.style)
            counts[0] += 1
            counts[1] += len(game.deals)
            scores = [0] * SEATS
            for result, dealer in zip(game.deals, game.dealers):
                code = deal_code(result, dealer)
                counts[2 + code] += 1
                if score_class(scores, self.target) == FAR_CLASS:
                    counts[2 + CODES + code] += 1
                scores = [s + d for s, d in zip(scores, result.points)]
        return counts


class Class3Job:
    """Runner job: single plain 3-player deals near the end of the game, one per near limit class (`near_classes`),
    for the per-class deal model of `match_equity`. Unit = one deal per class: seat 0 deals on target - i, his left
    on target - j, his right on target - k; ``policy`` in every seat, each class its own cards and bluff draws
    (`CLASS_STREAMS`). Counts (classes, `CODES`) flattened: per class the deals of each `deal_code`."""

    block_size = 4

    def __init__(self, policy: Policy, target: int, style: str):
        _check_setting(target, style)
        self.policy, self.target, self.style = policy, target, style
        self.classes = near_classes(target)
        self.n_counts = len(self.classes) * CODES

    def key(self) -> str:
        return f"perlaggen3|limit-classes|{LIMIT_REACH}|{self.policy!r}|{self.target}|{self.style}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        counts = np.zeros((len(self.classes), CODES), dtype=np.int64)
        tables = T.three_tables(self.style)
        for j in range(n_deals):
            for c, distances in enumerate(self.classes):
                unit = CLASS_STREAMS + 2 * (j * len(self.classes) + c)
                result = T.deal_from([self.policy] * SEATS, tables, block_substream(seed, block, unit + 1),
                                     block_substream(seed, block, unit + 2), 0,
                                     [self.target - d for d in distances], self.target, self.style)
                counts[c, deal_code(result, 0)] += 1
        return counts.ravel()


def class_probs(all_codes: np.ndarray, far_codes: np.ndarray, class_counts: np.ndarray, target: int,
                prior_deals: float) -> tuple[np.ndarray, np.ndarray]:
    """(probs (`CLASSES`, `CODES`), deals (`CLASSES`,)): the far class from self-play's far deals (``far_codes``),
    each near class from its `Class3Job` counts (``class_counts`` (near classes, CODES)), each with all self-play
    deals' outcomes (``all_codes``) weighted as ``prior_deals`` deals, so that a class whose few deals never score
    cannot stall the game; rows of classes the target never reaches stay 0."""
    probs = np.zeros((CLASSES, CODES))
    deals = np.zeros(CLASSES, dtype=np.int64)
    prior = np.asarray(all_codes, dtype=float) / np.sum(all_codes)
    near = np.asarray(class_counts, dtype=float).reshape(-1, CODES)
    listed = [(FAR_CLASS, np.asarray(far_codes, dtype=float))] if target >= LIMIT_REACH else []
    for c, counts in listed + [(class_index(classes), row) for classes, row in zip(near_classes(target), near)]:
        probs[c] = (counts + prior_deals * prior) / (counts.sum() + prior_deals)
        deals[c] = counts.sum()
    return probs, deals


def transitions(probs: np.ndarray) -> tuple[np.ndarray, ...]:
    """The codes of positive probability as arrays for `match_equity`'s kernel, grouped by their effect (the
    points each seat gains, the penalised seats): a group's codes differ only in the order of their awards,
    which matters only where two seats reach the target in the deal. Returns (group p (g,), group gains (g, 3),
    group penalised (g, 3) 0/1, group starts (g + 1,) into the codes, code p (m,), code award seats (m, 3),
    code award points (m, 3), code awards (m,)), the codes of group i at starts[i]:starts[i + 1]."""
    return _grouped(probs)[0]


def _grouped(probs: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """(`transitions`, the codes (m,) int64 in the order of its code arrays)."""
    probs = np.asarray(probs, dtype=np.float64)
    codes = np.flatnonzero(probs > 0)
    groups: dict[tuple, list] = {}
    for code in codes:
        listed, pens = decode(int(code))
        gains = [0] * SEATS
        for seat, pts in listed:
            gains[seat] += pts
        groups.setdefault((tuple(gains), tuple(int(s in pens) for s in range(SEATS))), []).append((code, listed))
    total = probs[codes].sum()
    g, m = len(groups), codes.size
    group_p, gains, penalised, starts = np.zeros(g), np.zeros((g, SEATS), np.int64), np.zeros((g, SEATS), np.int64), \
        np.zeros(g + 1, np.int64)
    code_p, seats, points, awards = np.zeros(m), np.zeros((m, SLOTS), np.int64), np.zeros((m, SLOTS), np.int64), \
        np.zeros(m, np.int64)
    k = 0
    for i, ((gain, pens), members) in enumerate(groups.items()):
        gains[i], penalised[i] = gain, pens
        for code, listed in members:
            code_p[k] = probs[code] / total
            awards[k] = len(listed)
            for slot, (seat, pts) in enumerate(listed):
                seats[k, slot], points[k, slot] = seat, pts
            k += 1
        starts[i + 1] = k
        group_p[i] = code_p[starts[i]:k].sum()
    order = np.array([code for members in groups.values() for code, _ in members], dtype=np.int64)
    return (group_p, gains, penalised, starts, code_p, seats, points, awards), order


def class_transitions(probs: np.ndarray) -> tuple[np.ndarray, ...]:
    """`transitions` of every row of ``probs`` (C, `CODES`) concatenated, with (C + 1,) starts of each class's groups
    first (a row of zeros has none)."""
    return class_grouping(probs)[0]


def class_grouping(probs: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """(`class_transitions` of ``probs`` (C, `CODES`), the class (m,) and the code (m,) of each of its codes): the
    grouping that `reweighted` weighs again with other weights on the same codes (a bootstrap redraw's)."""
    probs = np.asarray(probs, dtype=np.float64)
    parts = [_grouped(row) for row in probs]
    group_starts = np.cumsum([0] + [part[0][0].size for part in parts])
    code_base = np.cumsum([0] + [part[0][4].size for part in parts])
    columns = [np.concatenate(column) for column in zip(*(part[0] for part in parts))]
    columns[3] = np.append(np.concatenate([part[0][3][:-1] + base for part, base in zip(parts, code_base)]),
                           code_base[-1])  # the groups' starts into the codes, closed
    code_class = np.repeat(np.arange(len(parts)), [part[1].size for part in parts])
    return (group_starts, *columns), code_class, np.concatenate([part[1] for part in parts])


def reweighted(grouping: tuple, probs: np.ndarray) -> tuple[np.ndarray, ...]:
    """`class_transitions` of ``probs`` (C, `CODES`, rows any scale) from the `class_grouping` of weights with the
    same or a larger support: only the group and code probabilities are computed again (a code of weight 0 counts
    nothing). CardsimError if ``probs`` puts weight on a code the grouping lacks."""
    (group_starts, _, gains, penalised, starts, _, seats, points, awards), code_class, codes = grouping
    probs = np.asarray(probs, dtype=np.float64)
    weights = probs[code_class, codes]
    totals = np.bincount(code_class, weights, minlength=probs.shape[0])
    if not np.allclose(totals, probs.sum(axis=1), rtol=1e-12, atol=0.0):
        raise CardsimError("these deal outcomes weigh codes that the grouping they were weighed with lacks")
    code_p = weights / np.where(totals > 0, totals, 1.0)[code_class]
    group_p = np.add.reduceat(code_p, starts[:-1]) if code_p.size else np.zeros(0)
    return group_starts, group_p, gains, penalised, starts, code_p, seats, points, awards


@njit
def _race(i, j, k, seats, points, awards, c, target):
    """The seat (0-2) of code ``c`` whose running score, from i, j, k, reaches the target first (-1: none)."""
    for m in range(awards[c]):
        s = seats[c, m]
        if s == 0:
            i += points[c, m]
            if i >= target:
                return 0
        elif s == 1:
            j += points[c, m]
            if j >= target:
                return 1
        else:
            k += points[c, m]
            if k >= target:
                return 2
    return -1


@njit
def _sweeps(group_starts, group_p, gains, penalised, starts, code_p, seats, points, awards, levels, level, target,
            floor, w, tolerance, max_sweeps):
    """Gauss-Seidel sweeps of W (n, n, n, 3), n = target - floor, in place until the largest change of a sweep is
    below ``tolerance``; states from the highest total score down. A state (i, j, k) reads the groups
    group_starts[c]:group_starts[c + 1] of its class c = level[i] + levels level[j] + levels² level[k] (``level``
    (n,): a score's class less 1, `class_transitions`). Returns the sweeps made."""
    n = target - floor
    acc = np.zeros(3)
    score = np.zeros(3, dtype=np.int64)
    after = np.zeros(3, dtype=np.int64)
    for sweep in range(max_sweeps):
        change = 0.0
        for total in range(3 * (n - 1), -1, -1):
            for i in range(max(0, total - 2 * (n - 1)), min(n - 1, total) + 1):
                for j in range(max(0, total - i - (n - 1)), min(n - 1, total - i) + 1):
                    k = total - i - j
                    score[0], score[1], score[2] = i + floor, j + floor, k + floor
                    acc[:] = 0.0
                    cls = level[i] + levels * (level[j] + levels * level[k])
                    for g in range(group_starts[cls], group_starts[cls + 1]):
                        reached, winner = 0, -1
                        for s in range(3):
                            after[s] = score[s] + gains[g, s]
                            if after[s] >= target:
                                reached += 1
                                winner = s
                        if reached == 1:
                            acc[winner] += group_p[g]
                        elif reached > 1:  # the order of the awards decides who got there first
                            for c in range(starts[g], starts[g + 1]):
                                acc[_race(score[0], score[1], score[2], seats, points, awards, c, target)] += code_p[c]
                        else:
                            for s in range(3):
                                after[s] = max(after[s] - PENALTY * penalised[g, s], floor) - floor
                            # seat 1 deals next: in its frame the seats are (1, 2, 0)
                            for s in range(3):
                                acc[s] += group_p[g] * w[after[1], after[2], after[0], (s + 2) % 3]
                    for s in range(3):
                        change = max(change, abs(acc[s] - w[i, j, k, s]))
                        w[i, j, k, s] = acc[s]
        if change < tolerance:
            return sweep + 1
    return max_sweeps


def match_equity(probs, target: int, floor: int = FLOOR, tolerance: float = TOLERANCE,
                 start: np.ndarray | None = None, grouping: tuple | None = None) -> np.ndarray:
    """W (n, n, n, 3), n = target - floor: W[a - floor, b - floor, c - floor, x] = P(seat x wins | seat 0 deals
    next, seats 0, 1, 2 on a, b, c), from the per-deal code distribution ``probs``, rows any scale: (CODES,) one
    for every score, or (`CLASSES`, CODES) one per limit class (`class_probs`; a score reads the row of its
    `score_class`); ``start``: a W to begin the sweeps from (a nearby table settles in fewer); ``grouping``: the
    `class_grouping` of (CLASSES, CODES) weights whose codes include those of ``probs`` (a bootstrap redraw skips
    grouping its codes again: `reweighted`). CardsimError if it has not settled in `MAX_SWEEPS` sweeps or leaves
    games unwon (deals that may never end a game)."""
    if target < 1 or floor > 0:
        raise CardsimError(f"match equity needs a target of 1 or more and a floor of 0 or less, got {target}, {floor}")
    probs = np.asarray(probs, dtype=np.float64)
    n = target - floor
    scores = np.arange(floor, target)
    if probs.shape == (CODES,):
        probs, levels, level = probs[None], 1, np.zeros(n, np.int64)
    elif probs.shape != (CLASSES, CODES):
        raise CardsimError(f"the deal outcomes must be ({CODES},) or ({CLASSES}, {CODES}) weights, one row per limit "
                           f"class, got shape {probs.shape}")
    else:
        levels = LIMIT_REACH
        level = np.array([limit_class(target - s, target) - 1 for s in scores], dtype=np.int64)
    w = np.zeros((n, n, n, SEATS)) if start is None else np.array(start, dtype=np.float64)
    columns = class_transitions(probs) if grouping is None else reweighted(grouping, probs)
    sweeps = _sweeps(*columns, levels, level, target, floor, w, tolerance, MAX_SWEEPS)
    if sweeps >= MAX_SWEEPS or np.abs(w.sum(axis=-1) - 1.0).max() > SETTLED:  # someone wins every game
        raise CardsimError(f"the 3-player match equity did not settle in {MAX_SWEEPS:,} sweeps: in these deals "
                           "the game rarely ends; use more games or another policy")
    return w


DEALERS = ("him", "left", "right")
"""Who deals next, seen from one player: he himself, the player on his left, on his right."""


def player_views(w: np.ndarray, target: int, floor: int = FLOOR) -> np.ndarray:
    """(3, target, target, target): [dealer, a, b, c] = P(the player on a wins | his left on b, his right on c,
    `DEALERS`[dealer] to deal next), scores 0..target-1, from `match_equity`'s W."""
    z = -floor
    own = w[z:, z:, z:]
    # he is seat 0 when he deals; seat 2 when his left (seat 0) deals; seat 1 when his right (seat 0) deals
    return np.stack([own[..., 0], own[..., 2].transpose(2, 0, 1), own[..., 1].transpose(1, 2, 0)])


def view(w: np.ndarray, target: int, dealer: str, a: int, b: int, c: int, floor: int = FLOOR) -> float:
    """P(the player on ``a`` wins | his left on ``b``, his right on ``c``, ``dealer`` (`DEALERS`) to deal next)
    from `match_equity`'s W; a score at or above the target has won (``a`` first), below ``floor`` is floor."""
    if a >= target:
        return 1.0
    if b >= target or c >= target:
        return 0.0
    a, b, c = (max(x, floor) - floor for x in (a, b, c))
    seat = DEALERS.index(dealer)  # he is seat 0, 2 or 1 (`player_views`)
    return float((w[a, b, c, 0], w[b, c, a, 2], w[c, a, b, 1])[seat])


NEXT_DEALER = {"him": "left", "left": "right", "right": "him"}
"""The next deal's dealer (seen from the same player) when ``key`` dealt this one: the deal passes left."""


def accept_threshold(w: np.ndarray, target: int, a: int, bettor: int, third: int, value: int, dealt: str,
                     bettor_side: str, floor: int = FLOOR) -> float:
    """P(win the figure) above which the player on ``a`` should accept a bet from ``value`` to ``value + 1`` (the
    third player out of it) rather than concede it, at game level: concede gives the bettor ``value``; accepted,
    the winner of the figure scores ``value + 1`` (stands and the rest of the deal ignored, as the two-team
    `simcore.betting.game_hold_threshold`). ``dealt`` (`DEALERS`): who dealt this deal; ``bettor_side``: "left"
    or "right" of the answerer. 1.0 when winning the figure is worth no more than losing it. CardsimError for a bet
    §8.6 forbids (``bettor + value`` reaches the target: his concession would end the game; nothing secured in the
    deal is assumed), `simcore.betting.bet_allowed`."""
    if not bet_allowed(bettor, value, target):
        raise CardsimError(f"§8.6: a player on {bettor} may not bet from {value} to {value + 1} with the target "
                           f"{target} (conceding it would end the game)")
    nxt = NEXT_DEALER[dealt]

    def at(mine: int, bet: int) -> float:
        left, right = (bet, third) if bettor_side == "left" else (third, bet)
        return view(w, target, nxt, mine, left, right, floor)

    concede, win, lose = at(a, bettor + value), at(a + value + 1, bettor), at(a, bettor + value + 1)
    return float(min(1.0, max(0.0, (concede - lose) / (win - lose)))) if win > lose else 1.0
