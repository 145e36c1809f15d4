"""Report section: Dreeg (marriage odds by enumeration, P(66) by hand strength, phase losers,
decision thresholds)."""

from __future__ import annotations

from analysis.report import Context, Section, esc, estimate_cell, figure_html, n_cell, row_cell, table

ORDER = 40
"""Place on the page: game sections are sorted by ORDER."""

GAMES_PER_DEALS = 50_000
"""Whole games simulated per ``ctx.n`` deals (a game is about 60 hands): 200 at the default size."""
MIN_GAMES = 40
STRENGTH_PER_HAND_DEALS = 200
"""2-player 66 deals per ``ctx.hand_n``: 5,000 at the default size."""
MIN_STRENGTH_DEALS = 200
THRESHOLD_PER_HAND_DEALS = 1_000
"""Deals per decision of the threshold table per ``ctx.hand_n``: 1,000 at the default size."""
MIN_THRESHOLD_DEALS = 200
GAMES_CHUNK, STRENGTH_CHUNK, THRESHOLD_CHUNK = 32, 1024, 512
"""Work units small enough to spread a default-size report over the workers."""


def _fraction_cell(p) -> str:
    return f'<td class="num">{p.numerator}/{p.denominator}</td><td class="num">{float(p):.6f}</td>'


def _marriages() -> str:
    from simcore.games import dreeg_exact as ex

    rows = []
    for n, what in ((3, "Rufen first packet (3 cards)"), (6, "6-card hand (4 players, duel)"),
                    (8, "8-card hand (3 players)")):
        dist = ex.marriage_distribution(n)
        rows.append(f"<th>{what}: at least one marriage</th>" + _fraction_cell(1 - dist[0]))
        rows.append(f"<th>{what}: the marriage of a given suit</th>" + _fraction_cell(ex.suit_marriage(n)))
    for n, players in ((6, 4), (8, 3)):
        for dealer in (True, False):
            who = "the dealer (owns the turned card)" if dealer else "a given other player"
            rows.append(f"<th>phase 1, {players} players, {who}: trump King + Ober</th>"
                        + _fraction_cell(ex.trump_marriage(n, dealer)))
    for sizes, what in (((6, 6, 6, 6), "4 players"), ((8, 8, 8), "3 players")):
        dist = ex.table_marriage_distribution(sizes)
        rows.append(f"<th>{what}: a marriage somewhere at the table</th>" + _fraction_cell(1 - dist[0]))
    return table(["event", "exact", "≈"], rows, "Marriage odds, exact (every hand enumerated, spec §6.3)")


def _strength(ctx: Context, section: Section) -> str:
    from analysis import charts
    from analysis.games import dreeg

    deals = max(MIN_STRENGTH_DEALS, ctx.hand_n // STRENGTH_PER_HAND_DEALS)
    frame = ctx.run("Dreeg 2-player 66 by hand strength", f"(python) analysis.games.dreeg.strength(n={deals})", deals,
                    dreeg.strength, phase=1, players=2, n=deals, seed=ctx.seed, chunk_deals=STRENGTH_CHUNK,
                    **ctx.run_kw)
    reach = frame[frame.outcome == "reach66"]
    chart = reach.rename(columns={"position": "seat"})
    section.charts["dreeg-strength.png"] = charts.conditional_chart(
        chart, "2-player 66: P(reach 66) by hand strength", class_column="class", outcome_column="seat",
        outcomes=("forehand", "dealer"), category="card points + marriages dealt",
        note=f"greedy play, n = {deals:,} deals, 95% Wilson intervals")
    rows = []
    for (label, position), part in frame.groupby(["class", "position"], sort=False):
        part = part.set_index("outcome")
        rows.append(f"<th>{esc(label)}</th><td>{esc(position)}</td>" + row_cell(part.loc["reach66"])
                    + row_cell(part.loc["win"]) + n_cell(part.loc["win", "n"]))
    return (f"<p>{deals:,} uniform 2-player deals of phase 1 (classic 66 with talon, closing and the trump-9 "
            "exchange), both players greedy. A hand's strength is the card points of its first six cards plus "
            "the marriages among them (40 in trump). <em>Win</em> means the hand's side erases strokes (it won "
            "the hand).</p>"
            + figure_html("dreeg-strength.png", "P(reach 66) by hand strength", "P(reach 66) by strength and seat.")
            + table(["strength", "seat", "P(reach 66)", "P(win the hand)", "n (deals)"], rows,
                    "2-player 66: the dealt hand's strength and the outcome"))


def _losers(ctx: Context) -> str:
    from analysis.games import dreeg

    games = max(MIN_GAMES, ctx.n // GAMES_PER_DEALS)
    tables = ctx.run("Dreeg whole games, 4 players, greedy", f"cardsim stats dreeg --n {games} --seed {ctx.seed}",
                     games, dreeg.stats, players=4, policy="greedy", n=games, seed=ctx.seed, chunk_deals=GAMES_CHUNK,
                     **ctx.run_kw)
    lengths = tables["lengths"].set_index("phase")
    rows = []
    for phase, part in tables["losers"].groupby("phase", sort=False):
        ln = lengths.loc[phase]
        rows.append(f"<th>{esc(phase)}</th>" + "".join(row_cell(r) for _, r in part.iterrows())
                    + f'<td class="num">{ln["mean"]:.2f} [{ln["lo"]:.2f}, {ln["hi"]:.2f}]</td>')
    events = [f"<th>{esc(r['subgame'])}</th><td>{esc(r['event'])}</td>" + row_cell(r) + n_cell(r["n"])
              for _, r in tables["events"].iterrows()]
    return (f"<p>{games:,} whole 4-player games (seed {ctx.seed}), every seat greedy, seat 0 dealing the first "
            "hand; later phases start with the player on the previous loser's right dealing (§2.3). Each "
            "phase has one loser (Kamerun may have several), so a seat's row of a phase sums to about 1/4.</p>"
            + table(["phase"] + [f"P(seat {s} loses)" for s in range(4)] + ["hands per phase (mean)"], rows,
                    "Who loses each phase")
            + table(["sub-game", "event", "share of hands", "n (hands)"], events, "What happens in the hands")
            + table(["phase", "k players", "P(plays hands with k players)", "hands with k players (mean per game)",
                     "n (games)"], _stage_rows(tables["stages"]),
                    "Stages of the elimination phases (§6.2): when two or more players drop out in one hand the "
                    "phase skips a stage (three at once skip both); hands counted 0 in the games that skip it")
            + table(["phase", "P(skips both stages)", "n (games)"],
                    [f"<th>{esc(r['phase'])}</th>" + row_cell(r) + n_cell(r["n"])
                     for _, r in tables["stage_skips"].iterrows()],
                    "Elimination phases that go from four players to the loser in one hand"))


def _stage_rows(stages) -> list[str]:
    """Table rows of `analysis.games.dreeg.stats`'s "stages" frame."""
    return [f"<th>{esc(r['phase'])}</th>" + n_cell(r["players"]) + row_cell(r)
            + f'<td class="num">{r["hands"]:.2f} [{r["hands_lo"]:.2f}, {r["hands_hi"]:.2f}]</td>' + n_cell(r["n"])
            for _, r in stages.iterrows()]


def _thresholds(ctx: Context) -> str:
    from analysis.games import dreeg
    from simcore.games.dreeg_odds import DECISIONS

    deals = max(MIN_THRESHOLD_DEALS, ctx.hand_n // THRESHOLD_PER_HAND_DEALS)
    parts = []
    for decision in DECISIONS:
        frame = ctx.run(f"Dreeg decision: {decision}", f"cardsim thresholds dreeg --decision {decision} --n {deals} "
                        f"--seed {ctx.seed}", deals, dreeg.thresholds, decision, n=deals, seed=ctx.seed,
                        chunk_deals=THRESHOLD_CHUNK, **ctx.run_kw)
        if decision == "moment":
            parts.append(_moment_table(frame, DECISIONS[decision]))
            continue
        rows = [f"<th>{esc(r['class'])}</th>" + n_cell(r["n"])
                + estimate_cell(r["p_a"], r["lo_a"], r["hi_a"]) + estimate_cell(r["p_b"], r["lo_b"], r["hi_b"])
                + f'<td class="num">{r["diff"]:+.2f} [{r["diff_lo"]:+.2f}, {r["diff_hi"]:+.2f}]</td>'
                for _, r in frame.iterrows()]
        parts.append(table(["class", "n (deals)", "P(win) with A", "P(win) with B", "net strokes A − B"], rows,
                           esc(f"{decision}: {DECISIONS[decision]}")))
    return (f"<p>Each decision is played both ways on the same {deals:,} deals, every other choice greedy; the "
            "decider's net strokes (his side's erase minus the most the other side erases; in Kamerun minus his "
            "own erase) are compared pairwise. Where the interval of A − B excludes 0 one option is better "
            "for that class; the threshold lies where the sign changes. The <em>moment</em> table asks the "
            "closing question at every moment of a 2-player 66 hand: one closing opportunity per deal is drawn "
            "at random and played both ways.</p>" + "\n".join(parts))


VALUE_PHASES = (1, 2, 3, 4)
"""The phases of the phase-value table: one of each sub-game (5-8 replay 4-1)."""


def _phase_values(ctx: Context) -> str:
    """P(lose the phase) from the start by seat relative to the first dealer, one phase per sub-game (spec §6.2:
    the loser's dealer choice), `analysis.games.dreeg_phase.phase_value`."""
    from analysis.games import dreeg_phase
    from simcore.games.dreeg_rules import SUBGAME, SUBGAME_NAMES

    hands = max(MIN_THRESHOLD_DEALS, ctx.hand_n // THRESHOLD_PER_HAND_DEALS)
    rows = []
    for phase in VALUE_PHASES:
        tables = ctx.run(f"Dreeg phase value: phase {phase}", f"cardsim thresholds dreeg --decision value --phase "
                         f"{phase} --n {hands} --seed {ctx.seed}", hands, dreeg_phase.phase_value, phase, n=hands,
                         seed=ctx.seed, **ctx.run_kw)
        start = tables["start"]
        rows.append(f"<th>{phase} ({esc(SUBGAME_NAMES[SUBGAME[phase]])})</th>"
                    + "".join(f'<td class="num">{r.V:.3f} [{r.lo:.3f}, {r.hi:.3f}]</td>' for r in start.itertuples()))
    heads = [str(seat) for seat in start.seat]
    return (f"<p>The chance to lose a phase from its start (7 strokes each, 4 players), by seat relative to the first "
            f"dealer: exact dynamic programming over stroke vectors from the erase vectors of {hands:,} greedy "
            "self-play hands per number of active players, 95% parametric-bootstrap intervals. The loser of a phase "
            "chooses the next first dealer (§2.3): this is what each choice is worth. Phases 5-8 replay phases "
            "4-1.</p>" + table(["phase (sub-game)"] + heads, rows, "P(lose the phase) from the start"))


def _moment_table(frame, meaning: str) -> str:
    """The "moment" decision as a grid: a row per (tricks played, trumps held), a column per own-points
    class, each cell the paired difference A − B (close now minus not now) with its interval and n;
    bold where the interval excludes 0."""
    from simcore.games.dreeg_odds import MOMENT_POINTS, MOMENT_TRUMPS, moment_label

    points = [moment_label(p * MOMENT_TRUMPS)[1] for p in range(len(MOMENT_POINTS) + 1)]
    rows = []
    for (tricks, trumps), part in frame.groupby(["tricks", "trumps"], sort=True):
        cells = part.set_index("points")
        row = f"<th>after trick {tricks}</th><td>{esc(trumps)}</td>"
        for label in points:
            if label not in cells.index:
                row += "<td></td>"
                continue
            r = cells.loc[label]
            text = f"{r['diff']:+.2f} [{r['diff_lo']:+.2f}, {r['diff_hi']:+.2f}]"
            if r["diff_lo"] > 0 or r["diff_hi"] < 0:
                text = f"<strong>{text}</strong>"
            row += f'<td class="num">{text}<br><small>n {int(r["n"]):,}</small></td>'
        rows.append(row)
    return table(["moment", "trumps held"] + [f"own points {p}" for p in points], rows,
                 esc(f"moment: {meaning}; each cell: net strokes A − B (close now minus not now), 95% interval"))


def section(ctx: Context) -> Section:
    """Dreeg: exact marriage odds (§6.3), 2-player P(66) by hand strength, per-phase losers, and
    the closing / calling / Durchmarsch decisions."""
    section = Section("dreeg", "Dreeg (Nürnberger Dreck)", "")
    sub = [("dreeg-a", "A. Marriage odds"), ("dreeg-b", "B. Reaching 66 by hand strength"),
           ("dreeg-c", "C. Phase losers in whole games"), ("dreeg-d", "D. Decision thresholds"),
           ("dreeg-e", "E. The phase value")]
    section.toc = sub
    section.body = "\n".join([
        "<p>Dreeg is eight phases of Sechsundsechzig-based games for 3 or 4 players with a 24-card German pack "
        "(A 11, 10 10, K 4, O 3, U 2, 9 0; rules: <code>dreeg.md</code>). Each phase starts everyone with 7 "
        "chalk strokes; the last player still holding strokes (in Kamerun: the first to run out) loses the "
        "phase. The play here uses the toolkit's greedy baseline policy, not expert play.</p>",
        f'<h3 id="{sub[0][0]}">{sub[0][1]}</h3>', _marriages(),
        f'<h3 id="{sub[1][0]}">{sub[1][1]}</h3>', _strength(ctx, section),
        f'<h3 id="{sub[2][0]}">{sub[2][1]}</h3>', _losers(ctx),
        f'<h3 id="{sub[3][0]}">{sub[3][1]}</h3>', _thresholds(ctx),
        f'<h3 id="{sub[4][0]}">{sub[4][1]}</h3>', _phase_values(ctx),
    ])
    return section
