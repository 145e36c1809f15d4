"""Report section: Bauernstoss (jacks and trump length, P(make) by hand shape, the chalk in a hand and at game
level, thresholds, auction policies)."""

from __future__ import annotations

import pandas as pd

from analysis.report import Context, Section, esc, figure_html, n_cell, row_cell, table

ORDER = 30
"""Place on the page: game sections are sorted by ORDER."""

HANDS = 20_000
"""Whole hands (B0 auction, greedy play) behind tables B and C: the auction is plain Python, about
2,000 hands a second, so the section uses this fixed size rather than ctx.n."""
EQUITY_HANDS = HANDS
"""Self-play hands behind the game-level equity W(a, b) (`bauernstoss.equity`; about 4 s on one core)."""
THRESHOLD_DEALS = 40_000
MATCH_GAMES = 40
MATCHES = (("b0", "cautious"), ("b0", "aggressive"), ("aggressive", "cautious"))
MIN_CELL = 200
"""Hand shapes with fewer hands are left out of the tables."""


def _scale(ctx: Context, size: int) -> int:
    return size * (10 if ctx.full else 1)


def exact_jacks() -> pd.DataFrame:
    """P(an 8-card hand holds k jacks), k = 0-4, with a label per row for the chart: hypergeometric, 4 jacks in 32
    cards (spec §9.2; `bauernstoss_stats.exact_jacks`)."""
    from analysis.games.bauernstoss_stats import exact_jacks as exact

    frame = exact()
    return frame.assign(label=[f"{k} jack{'s' if k != 1 else ''}" for k in frame.jacks])


def _exact_rows(frame: pd.DataFrame) -> list[str]:
    """Rows per jack count of `exact_jacks`: P(J = k) and P(longest potential trump suit = L | J = k), exact over
    all C(32, 8) hands."""
    rows = []
    for row in frame.to_dict("records"):
        cells = "".join(f'<td class="num">{row[f"L{length}"]:.4f}</td>' if row[f"L{length}"] else "<td>—</td>"
                        for length in range(2, 9))
        rows.append(f"<th>{row['jacks']}</th>" + f'<td class="num">{row["p"]:.6f}</td>' + cells + n_cell(row["n"]))
    return rows


def _shape_frame(parts: dict) -> pd.DataFrame:
    """Per chooser shape (jacks, trumps) with at least MIN_CELL hands: P(team points >= 42 / 61 / 79)."""
    from analysis.games.bauernstoss import shape_cells
    from analysis.stats import Estimate

    rows = []
    for j, length, hist, n in shape_cells(parts["points"], MIN_CELL):
        for level in (42, 61, 79):
            est = Estimate(int(hist[level:].sum()), n)
            rows.append({"jacks": j, "trumps": length, "level": level, "label": f"{j} J · {length} trumps",
                         "p": est.p, "lo": est.lo, "hi": est.hi, "n": n})
    return pd.DataFrame(rows)


def _chalk_rows(parts: dict) -> list[str]:
    """The chooser's team and the defenders, each with and without the chalk (42 or 79 needed;
    `bauernstoss_stats.chalk_frame`)."""
    from analysis.games.bauernstoss_stats import chalk_frame

    words = {"with": "holds the chalk", "without": "without the chalk"}
    return [f"<th>{row['team']} team</th><th>{words[row['chalk']]} (needs {row['need']})</th>" + row_cell(row)
            + n_cell(row["n"]) for row in chalk_frame(parts).to_dict("records")]


def _equity_sentence(tables: dict) -> str:
    """W of a game's first hand (0-0) for the club jack's team, and the chalk's game-level worth at an even score
    that later hands start from (Q9, Q10)."""
    def shown(row) -> str:
        value = row["W"] if "W" in row else row["value"]
        return f"{value:.3f} [{row.lo:.3f}, {row.hi:.3f}]"

    half = tables["equity"].attrs["target"] // 2
    first = tables["first_hand"].set_index(["club", "deals"]).loc[("us", "either")]
    chalk = tables["chalk"].set_index(["a", "b", "deals"]).loc[(half, half, "either")]
    return (f"<p>A game's first hand starts at 0-0 with the chalk at the club jack's team (§6.4), which wins the game "
            f"(20 strokes) with probability W = {shown(first)}. Every later hand scores and the scoring team takes the "
            f"chalk, so the chalk is always with a team that has strokes; at {half}-{half} it is worth {shown(chalk)} "
            "of a game (W with the chalk minus W without, the next dealer averaged; spec §9.1 Q9, Q10). The heat map "
            "gives W(a, b) with the chalk at us for every score a later hand starts from (not a = 0); "
            "<code>cardsim thresholds bauernstoss</code> (part B) prints it with the chalk at either team.</p>")


def equity_chart(equity: pd.DataFrame, note: str):
    """Heat map of W(a, b) (rows of one chalk and dealer setting of `bauernstoss.equity`'s "equity" frame; states
    no later hand starts from left blank), with the W = 1/2 contour; every cell labelled would crowd a 20 x 20
    grid."""
    import numpy as np

    from analysis.charts import _new_figure, _titles

    reachable = equity.pivot(index="a", columns="b", values="reachable").to_numpy(dtype=bool)
    grid = np.ma.masked_where(~reachable, equity.pivot(index="a", columns="b", values="W").to_numpy())
    fig = _new_figure(6.0, 5.2)
    ax = fig.add_subplot()
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1)
    ax.contour(grid, levels=[0.5], colors="black", linewidths=0.8)
    ticks = range(0, grid.shape[0], 5)
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_xlabel("their strokes b")
    ax.set_ylabel("our strokes a")
    _titles(ax, "W(a, b): P(we win the game), the chalk at us", note)
    fig.colorbar(image, ax=ax, shrink=0.8, label="P(win the game to 20)")
    return fig


def _threshold_rows(frame: pd.DataFrame) -> list[str]:
    def cell(r, key):
        if r[key] != r[key]:
            return "<td>—</td>"
        return row_cell({"p": r[key], "lo": r[key + "_lo"], "hi": r[key + "_hi"]})

    return [f'<td class="num">{int(r.jacks)}</td><td class="num">{int(r.trumps)}</td>' + cell(r, "p42")
            + cell(r, "p79") + cell(r, "p91") + cell(r, "p_solo") + cell(r, "p_solo_dd") + f"<td>{esc(r.advice)}</td>"
            + n_cell(r.n)
            for _, r in frame.iterrows()]


def _seat_rows(seats: pd.DataFrame) -> list[str]:
    """Spec Q11 by seat in speaking order (`bauernstoss.seat_effects_frame`): P(chooses), P(its team scores | it
    chooses) with and without the chalk, P(wins | in a showdown), and its P(chooses) minus forehand's on the same
    deals (Tango's paired interval)."""
    def cell(r, key):
        if r[key] != r[key]:
            return "<td>—</td>"
        return row_cell({"p": r[key], "lo": r[key + "_lo"], "hi": r[key + "_hi"]})

    rows = []
    for _, r in seats.iterrows():
        diff = "<td>—</td>" if r["d_p_choose"] != r["d_p_choose"] else \
            f'<td class="num">{r["d_p_choose"]:+.3f} [{r["d_p_choose_lo"]:+.3f}, {r["d_p_choose_hi"]:+.3f}]</td>'
        rows.append(f'<td class="num">{int(r.seat)}</td><td>{esc(r.role)}</td>' + cell(r, "p_choose") + diff
                    + cell(r, "p_score_if_choose_chalk") + cell(r, "p_score_if_choose_no_chalk")
                    + cell(r, "p_won_if_showdown") + n_cell(r.n))
    return rows


def _match_rows(results: list[dict]) -> list[str]:
    rows = []
    for r in results:
        cells = ""
        for side in ("a", "b"):
            w, p = r[side]["win_rate"], r[side]["points_per_deal"]
            cells += (f"<th>{esc(r[side]['policy'])}</th>" + row_cell(w)
                      + f'<td class="num">{p["mean"]:.3f} [{p["lo"]:.3f}, {p["hi"]:.3f}]</td>')
        rows.append(cells + n_cell(r["games"]))
    return rows


def section(ctx: Context) -> Section:
    """Bauernstoss: exact jack facts, whole hands by shape, the chalk, thresholds and a policy match."""
    from analysis import charts
    from analysis.games import bauernstoss as api
    from simcore import runner
    from simcore.games import bauernstoss_jobs as jobs

    section = Section("bauernstoss", "Bauernstoss", "")
    sub = [("bauernstoss-a", "A. Jacks and trump length (exact)"), ("bauernstoss-b", "B. P(make) by hand shape"),
           ("bauernstoss-c", "C. The value of the chalk"), ("bauernstoss-d", "D. Bidding thresholds"),
           ("bauernstoss-e", "E. Auction policies")]
    section.toc = sub
    hands_n, thr_n, games = _scale(ctx, HANDS), _scale(ctx, THRESHOLD_DEALS), _scale(ctx, MATCH_GAMES)
    parts = ctx.run("Bauernstoss hands (B0 auction, greedy play)", f"(Python API) HandJob('greedy'), n={hands_n}",
                    hands_n, lambda: jobs.HandJob.unpack(runner.run(jobs.HandJob("greedy"), hands_n, ctx.seed,
                                                                    **ctx.run_kw)))
    thr = ctx.run("Bauernstoss thresholds", f"cardsim thresholds bauernstoss --n {thr_n} --seed {ctx.seed}", thr_n,
                  api.thresholds, "greedy", thr_n, ctx.seed, **ctx.run_kw)
    eq_n = _scale(ctx, EQUITY_HANDS)
    tables = ctx.run("Bauernstoss game equity W(a, b)", f"(Python API) bauernstoss.equity('BS', hands={eq_n}, "
                     f"seed={ctx.seed})", eq_n, api.equity, "BS", eq_n, ctx.seed, **ctx.run_kw)
    results = [ctx.run(f"Bauernstoss match {a} v {b}",
                       f"cardsim match bauernstoss --a {a} --b {b} --games {games} --seed {ctx.seed}", games,
                       api.match, a, b, games, ctx.seed, **ctx.run_kw) for a, b in MATCHES]

    jacks = exact_jacks()
    section.charts["bauernstoss-jacks.png"] = charts.distribution_chart(
        jacks, "Jacks in one 8-card hand (exact)", category="jacks held", xlabel="probability",
        note="hypergeometric: 4 jacks among 32 cards (spec §9.2)")
    equity = tables["equity"]
    section.charts["bauernstoss-equity.png"] = equity_chart(equity[(equity.chalk == "us") & (equity.deals == "either")],
                                                            f"{eq_n:,} self-play hands, b0 auction, greedy play")
    shapes = _shape_frame(parts)
    make79 = shapes[shapes.level == 79]
    section.charts["bauernstoss-make79.png"] = charts.distribution_chart(
        make79, "Chooser's team reaches 79 card points, by the chooser's hand", category="chooser's jacks · trumps",
        xlabel="P(team card points ≥ 79)",
        note=f"n = {hands_n:,} hands, B0 auction, greedy play, 95% Wilson intervals")
    shape_rows = []
    for (j, length), group in shapes.groupby(["jacks", "trumps"], sort=True):
        shape_rows.append(f'<td class="num">{j}</td><td class="num">{length}</td>'
                          + "".join(row_cell(r) for _, r in group.iterrows()) + n_cell(group.n.iloc[0]))
    solo = thr.dropna(subset=["p_solo_dd"])
    solo = solo[solo.solo_n >= 20].assign(label=lambda t: [f"{j} J · {x} trumps" for j, x in zip(t.jacks, t.trumps)],
                                          p=lambda t: t.p_solo_dd, lo=lambda t: t.p_solo_dd_lo,
                                          hi=lambda t: t.p_solo_dd_hi)
    if not solo.empty:
        section.charts["bauernstoss-solo.png"] = charts.distribution_chart(
            solo, "Big Solo won (all 8 tricks), forehand with the club jack", category="jacks · trumps",
            xlabel="P(soloist takes all 8 tricks)",
            note=f"double dummy (the defenders see every card), {thr_n:,} deals, 95% Wilson intervals")
    section.body = "\n".join([
        "<p>Four players in fixed pairs, 32 cards, 8 each; the four jacks are always the top trumps; a team needs 42 "
        "card points when it holds the chalk and 79 otherwise (rules: <code>bauernstoss.md</code>). Dealer is seat 0 "
        f"and forehand (seat 1) leads. Sizes, fixed rather than taken from --n: {hands_n:,} whole hands "
        f"(the spec's B0 auction, greedy card play at every seat), {eq_n:,} self-play hands for the game equity, "
        f"{thr_n:,} deals for the thresholds and {games} games per match (the auction is plain Python, so these "
        "units cost milliseconds).</p>",
        f'<h3 id="{sub[0][0]}">{sub[0][1]}</h3>',
        figure_html("bauernstoss-jacks.png", "Jacks in one hand", "Exact distribution of the jacks in one hand."),
        table(["jacks J", "P(J)", "L = 2", "3", "4", "5", "6", "7", "8", "hands"], _exact_rows(jacks),
              "P(J) and the longest potential trump suit max_s L(p, s) given J, by enumeration of all 10,518,300 "
              "hands (spec §9.2)"),
        f'<h3 id="{sub[1][0]}">{sub[1][1]}</h3>',
        figure_html("bauernstoss-make79.png", "P(79) by shape", "P(chooser's team ≥ 79) by the chooser's hand."),
        table(["chooser's jacks", "trumps", "P(≥ 42)", "P(≥ 61)", "P(≥ 79)", "hands"], shape_rows,
              f"Card points of the team that chose trumps, by the chooser's jacks and trumps (shapes with at least "
              f"{MIN_CELL} hands); B0 auction, greedy play"),
        f'<h3 id="{sub[2][0]}">{sub[2][1]}</h3>',
        "<p>The chalk lowers a team's target from 79 to 42 card points. On the same hands, the rows compare each "
        "team's chance to score with and without it: the difference is the chalk's worth in one hand.</p>",
        table(["team", "chalk", "P(scores)", "hands"], _chalk_rows(parts),
              "The value of the chalk (B0 auction, greedy play)"),
        figure_html("bauernstoss-equity.png", "game equity heat map",
                    "W(a, b) = P(our team wins the game | we have a strokes, they have b), the chalk at us."),
        _equity_sentence(tables),
        f'<h3 id="{sub[3][0]}">{sub[3][1]}</h3>',
        "<p>Forehand names its best suit (most trumps, then the highest lowest card) and leads; the table gives its "
        "team's chances by jacks and trumps, and for hands with the club jack the chance that a Big Solo takes "
        "all 8 tricks, with greedy defenders and double dummy (the defenders see every card; greedy defenders "
        "defend weakly, real ones see less than double dummy, so the truth lies between). Advice: Big Solo when "
        "the double-dummy chance is at least p* = ½ + D/24, spec Q7's stroke-EV break-even, D the normal game's "
        "E[strokes] with the chalk where it is larger (with four jacks only Big Solo or pass, §4.3), raise or say "
        "mit when the team makes 79 without the chalk at least half the time, otherwise bid only when forced "
        "(§4.4).</p>",
        figure_html("bauernstoss-solo.png", "Big Solo", "P(Big Solo won) double dummy by jacks and trumps.")
        if not solo.empty
        else "",
        table(["jacks", "trumps", "P(≥ 42)", "P(≥ 79)", "P(≥ 91)", "P(Big Solo) greedy", "P(Big Solo) dd",
               "advice", "n (deals)"],
              _threshold_rows(thr), f"Bidding thresholds ({thr_n:,} deals, greedy play; "
              f"<code>cardsim thresholds bauernstoss</code>)"),
        "<p>Seat effects (spec Q11): on the same deals every seat calls by B0; forehand speaks first, so it opens "
        "(the forced opening, §4.4) and wins equal lowest cards in a showdown, while later seats say mit only with a "
        "lowest card that could win the tie (§4.6). The differences to forehand are paired on the deal.</p>",
        table(["seat", "role", "P(chooses trumps)", "minus forehand", "P(score | chooses), chalk",
               "P(score | chooses), no chalk", "P(wins | in a showdown)", "n (deals)"],
              _seat_rows(thr.attrs["seat_effects"]),
              f"Seat effects ({thr_n:,} deals, B0 auction, greedy play; <code>cardsim thresholds bauernstoss</code>, "
              "table Q11)"),
        f'<h3 id="{sub[4][0]}">{sub[4][1]}</h3>',
        "<p>Policies: " + "; ".join(f"<b>{esc(p.name)}</b>: {esc(p.help)}" for p in jobs.AUCTION_POLICIES.values())
        + ". Games to 20 strokes in duplicate pairs (each deal sequence played again with the teams swapped), greedy "
        "card play. Strokes per deal: strokes the side scored divided by deals played.</p>",
        table(["a", "a wins", "a strokes/deal", "b", "b wins", "b strokes/deal", "games"], _match_rows(results),
              "Auction-policy matches (<code>cardsim match bauernstoss</code>)"),
    ])
    return section

