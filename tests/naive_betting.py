"""Plain references for the betting engine (simcore.betting): the §7.10 scoring order and the B6 limit,
written from the spec text without the engine's data structures."""

CATEGORY_NAMES = ("penalty", "conceded", "bet and held", "unbet")


def can_bet_b6(score: int, secured: int, value: int, target: int) -> bool:
    """B6 / perlaggen §8.6: the opponents must be able to concede without losing the game."""
    return score + secured + min(value, 7) < target


def scoring_order(figures: list[dict], penalties: list[int]) -> list[tuple]:
    """Awards in the §7.10 order.

    figures: per figure index 0 (G), 1 (H), 2 (Sp) a dict with winner (team or None), points,
    conceded_at (time or None), first_bet_at (time or None). penalties: penalised teams.
    Returns [(category, figure, team, points)] with category 0 = penalty, 1 = conceded by time,
    2 = bet and held by time of the first bet, 3 = unbet in the order G, H, Sp.
    """
    out = [(0, None, team, -2) for team in penalties]
    conceded = [i for i, f in enumerate(figures) if f["conceded_at"] is not None]
    conceded.sort(key=lambda i: figures[i]["conceded_at"])
    held = [i for i, f in enumerate(figures) if f["conceded_at"] is None and f["first_bet_at"] is not None]
    held.sort(key=lambda i: figures[i]["first_bet_at"])
    unbet = [i for i, f in enumerate(figures) if f["conceded_at"] is None and f["first_bet_at"] is None]
    for category, group in ((1, conceded), (2, held), (3, unbet)):
        for i in group:
            if figures[i]["winner"] in (0, 1):
                out.append((category, i, figures[i]["winner"], figures[i]["points"]))
    return out


def first_to_target(start: list[int], awards: list[tuple], target: int, game_deciding=()):
    """The team that first reaches ``target`` adding the awards in order, or None; an award of a figure in
    ``game_deciding`` (held Spiel aus scored at its place, Giltspiel A-14 category_2) wins the game for its team
    when it comes."""
    totals = list(start)
    for _, figure, team, points in awards:
        totals[team] += points
        if totals[team] >= target or figure in game_deciding:
            return team
    return None


def figure_counts(codes, communication: str, bins: int | None = None) -> list:
    """counts[figure][known code + 1][outcome] by plain loops: outcome 0 win, 1 stand, 2 lose, 3 void of
    the team; known code = the team's best (``partner``) or each seat's own (``none``, one row per seat);
    ``auer_channel``: each seat's own, in the second half of 2 * bins rows when a partner has the figure.
    codes: list of deals, each 4 seats x (G code, H code), -1 = none; codes range -1..bins-2."""
    bins = bins or 2 + max([0] + [c for deal in codes for seat in deal for c in seat])
    auer = communication == "auer_channel"
    counts = [[[0] * 4 for _ in range(2 * bins if auer else bins)] for _ in range(2)]
    for deal in codes:
        for figure in (0, 1):
            for team in (0, 1):
                ours = max(seat[figure] for seat in deal[team::2])
                theirs = max(seat[figure] for seat in deal[1 - team::2])
                if ours > theirs:
                    outcome = 0
                elif ours == theirs:
                    outcome = 1 if ours >= 0 else 3
                else:
                    outcome = 2
                mine = [seat[figure] for seat in deal[team::2]]
                if communication == "partner":
                    keys = [ours + 1]
                elif auer:
                    keys = [code + 1 + (bins if any(c >= 0 for j, c in enumerate(mine) if j != k) else 0)
                            for k, code in enumerate(mine)]
                else:
                    keys = [code + 1 for code in mine]
                for key in keys:
                    counts[figure][key][outcome] += 1
    return counts


def race_equity(dists, firsts, target: int, sweeps: int = 3000, reach: int | None = None, low: int = 0) -> list:
    """W[d][a][b] = P(A wins from a, b with team d dealing next) by plain value iteration.

    dists[d][x][y]: per-deal points of a deal dealt by team d (x + low and y + low points); firsts[d][na][nb]:
    P(both reach na, nb and A first) or None for 1/2 of P(both reach); the deal passes to the other team after
    every deal. With ``reach``: dists[d][i][j][x][y] and firsts[d][i][j][na][nb] per pair of limit classes,
    i = min(target - a, reach, target) - 1 and j likewise for b. Scores below 2 low count as 2 low."""
    floor = 2 * low
    size = len(dists[0]) if reach is None else len(dists[0][0][0])

    def tables(d, a, b):
        if reach is None:
            return dists[d], None if firsts is None else firsts[d]
        top = min(reach, target)  # a score below 0 in a game to less than reach: the class of 0
        i, j = min(target - a, top) - 1, min(target - b, top) - 1
        return dists[d][i][j], None if firsts is None else firsts[d][i][j]

    def value(w, d, a, b):
        deal, first = tables(d, a, b)
        total = both = 0.0
        for x in range(size):
            for y in range(size):
                p = deal[x][y]
                if not p:
                    continue
                na, nb = max(a + x + low, floor), max(b + y + low, floor)
                if na >= target and nb >= target:
                    both += p
                elif na >= target:
                    total += p
                elif nb < target:
                    total += p * w[1 - d][na - floor][nb - floor]
        need_a, need_b = target - a, target - b
        if first is None:
            total += both / 2
        elif need_a < len(first) and need_b < len(first):
            total += first[need_a][need_b]
        return total

    scores = range(floor, target)
    w = [[[0.0] * len(scores) for _ in scores] for _ in range(2)]
    for _ in range(sweeps):
        w = [[[value(w, d, a, b) for b in scores] for a in scores] for d in (0, 1)]
    return [[row[-floor:] for row in table[-floor:]] for table in w]


def three_answer_outcomes(value: int, straf: bool, spiel: bool) -> dict:
    """The points (me, bettor, third) of each outcome when I answer a bet from ``value`` to value + 1 in
    the 3-player game and the third player has conceded (§9.4 / §9.5 read literally): "gut" (the bettor
    takes the old value), and after an accept "win", "lose" (the bettor wins), "none" (it stands, or
    nobody takes the Spiel). Straf: count changes (subtracting is winning), both committed at value + 1;
    at value 2 I am the original bettor answering the raise, so conceding it adds my level 2."""
    v, up = value, value + 1
    if not straf:
        return {"gut": (0, v, 0), "win": (up, 0, 0), "lose": (0, up, 0), "none": (0, 0, 0)}
    return {"gut": (v if v > 1 else 0, -v, 0), "win": (-up, up, 0), "lose": (up, -up, 0),
            "none": (up, up, 0) if spiel else (0, 0, 0)}


def relative_gain(points: tuple, straf: bool) -> float:
    """My points minus the mean of the other two (Straf: counted off, so the sign flips)."""
    me, *others = points
    gain = me - sum(others) / len(others)
    return -gain if straf else gain


def accept_beats_gut(value: int, p: float, q: float, straf: bool, spiel: bool) -> float:
    """EV(accept) - EV(gut) of the relative gain; p, q = P(I win), P(the bettor wins), the rest 'none'."""
    out = three_answer_outcomes(value, straf, spiel)
    accept = (p * relative_gain(out["win"], straf) + q * relative_gain(out["lose"], straf)
              + (1 - p - q) * relative_gain(out["none"], straf))
    return accept - relative_gain(out["gut"], straf)


def fold_signals(counts):
    """Auer figure counts (2, 2 * bins, 4) summed over the partners' has-figure signal: (2, bins, 4), what
    ``none`` counts (each seat by its own code)."""
    return counts.reshape(2, 2, counts.shape[1] // 2, 4).sum(axis=1)
