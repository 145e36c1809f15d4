"""Report section: Perlaggen at levels L0 and L1 in both styles, from deals as played."""

from __future__ import annotations

import pandas as pd

from analysis.report import Context, Section, esc, figure_html, n_cell, row_cell, table

ORDER = 20
"""Place on the page: game sections are sorted by ORDER."""


PERLAGGEN_STYLES = ("innsbruck", "eichel")
L1_SHARE = 20
"""The L1 runs use ctx.n // L1_SHARE deals (L1 solves a small game per deal, about 8x slower than L0),
at least L1_MIN."""
L1_MIN = 100_000


def _estimate_rows(frame: pd.DataFrame, label_columns: list[str]) -> list[str]:
    return ["".join(f"<th>{esc(r[c])}</th>" for c in label_columns) + row_cell(r) + n_cell(r["n"])
            for _, r in frame.iterrows()]


def _conflict_rows(l1_tables) -> list[str]:
    """Rows figure x outcome: p at L0 and at L1 on the same deals (the cost of the Gleich/Hanger conflict)."""
    l0 = l1_tables["outcome_l0"]
    l1 = l1_tables["outcome"]
    rows = []
    for (_, a), (_, b) in zip(l0.iterrows(), l1.iterrows()):
        if a["label"] == "void" and max(a["p"], b["p"]) < 0.0005:
            continue
        rows.append(f"<th>{esc(a['figure'])}</th><th>{esc(a['label'])}</th>" + row_cell(a) + row_cell(b)
                    + f'<td class="num">{b["p"] - a["p"]:+.4f}</td>' + n_cell(a["n"]))
    return rows


def _perlagg_value_rows(l1_tables) -> list[str]:
    """Rows per team and number j of Perlaggen in its two hands: P(the team wins Gleich), P(Hanger) at L1."""
    wins = l1_tables["team_perlaggen"].query("label == 'win'")
    rows = []
    for (team, j), pair in wins.groupby(["team", "perlaggen"], sort=False):
        if pair["n"].iloc[0] < 1000:
            continue
        cells = "".join(row_cell(r) for _, r in pair.iterrows())
        rows.append(f"<th>{'D (dealer, partner)' if team == 'D' else 'O (leader, cutter)'}</th>"
                    f'<td class="num">{j}</td>{cells}{n_cell(pair["n"].iloc[0])}')
    return rows


def _l1_style(style: str, l1_tables, section: Section) -> str:
    """The L0/L1 comparison and the value of the Perlaggen, one style."""
    from analysis import charts

    n_l1 = l1_tables["outcome"].attrs["n"]
    wins = l1_tables["team_perlaggen"].query("label == 'win' and team == 'D' and n >= 1000")
    filename = f"perlaggen-{style}-perlagg-value.png"
    section.charts[filename] = charts.distribution_chart(
        wins.assign(label=[f"{j} Perlaggen · {f}" for j, f in zip(wins["perlaggen"], wins["figure"])]),
        f"Perlaggen ({style}): P(team D wins the figure) by its Perlaggen, L1", category="team D holds · figure",
        note=f"n = {n_l1:,} deals as played, level L1, 95% Wilson intervals")
    return "\n".join([
        table(["figure", "outcome", "L0 p [95% interval]", "L1 p [95% interval]", "L1 − L0", "n (deals)"],
              _conflict_rows(l1_tables),
              "The cost of the Gleich/Hanger conflict (§6.5, Q6): at L0 every hand uses all its Perlaggen for "
              "each figure; at L1 a Perlagg has one identity and the teams' choices of frontier points are solved "
              "as a matrix game (stakes 1:1, ties ½, §11.6). Same deals for both columns."),
        table(["team", "Perlaggen", "P(wins Gleich)", "P(wins Hanger)", "n (deals)"], _perlagg_value_rows(l1_tables),
              "Value of the Perlaggen at L1: chance that a team wins each figure, by the number of Perlaggen in its "
              "two hands after the exchanges (groups of at least 1,000 deals)"),
        figure_html(filename, f"Perlagg value, {style}", "Team D's chance to win Gleich and Hanger at L1 by the "
                    "number of Perlaggen its two hands hold."),
    ])


def _perlaggen_style(ctx: Context, style: str, tables, sid: str, section: Section) -> str:
    from analysis import charts

    seats = tables["perlaggen_by_seat"]
    seat_rows = [f"<th>{esc(r['name'])} (seat {r['seat']})</th>"
                 + f'<td class="num">{r["mean"]:.4f} [{r["mean_lo"]:.4f}, {r["mean_hi"]:.4f}]</td>'
                 + row_cell(r) + n_cell(r["n"]) for _, r in seats.iterrows()]
    best = tables["seat_best"]
    strict = best[best.label == "strictly best"].assign(label=lambda t: [f"{n} · {f}" for n, f in zip(t["name"], t["figure"])])
    filename = f"perlaggen-{style}-seat-best.png"
    section.charts[filename] = charts.distribution_chart(
        strict, f"Perlaggen ({style}): P(the seat holds the strictly best figure)", category="seat · figure",
        note=f"n = {ctx.n:,} deals as played, level L0, 95% Wilson intervals")
    return "\n".join([
        f'<h3 id="{sid}">{esc(style.capitalize())} style</h3>',
        table(["event", "p [95% interval]", "n (deals)"], _estimate_rows(tables["deal"], ["label"]),
              "The turn-up and the exchanges, per deal"),
        table(["seat", "mean Perlaggen [95% interval]", "P(no Perlagg)", "n (deals)"], seat_rows,
              "Perlaggen per hand after the exchanges: the dealer's exchange edge and the cutter's bonus"),
        figure_html(filename, f"seat strength, {style}", "Chance that each seat's hand holds the strictly best "
                    "Gleich or Hanger at the table, with its free Perlaggen (L0)."),
        table(["figure", "outcome", "p [95% interval]", "n (deals)"], _estimate_rows(tables["outcome"], ["figure", "label"]),
              "Who wins each figure: team D (dealer and partner) or team O (leader and cutter)"),
        table(["figure", "cards", "p [95% interval]", "n (deals)"], _estimate_rows(tables["best_size"], ["figure", "label"]),
              "Size of the best figure at the table"),
    ])


def _l1_n(ctx: Context) -> int:
    """Deals of the L1 runs (L1_SHARE, L1_MIN)."""
    return min(ctx.n, max(L1_MIN, ctx.n // L1_SHARE))


def section(ctx: Context) -> Section:
    """Perlaggen at levels L0 and L1 in both styles, from deals as played (cut, turn-up, exchange)."""
    from analysis.games import perlaggen

    section = Section("perlaggen", "Perlaggen", "")
    section.toc = [(f"perlaggen-{style}", f"{style.capitalize()} style") for style in PERLAGGEN_STYLES]
    parts = [
        "<p>Perlaggen is dealt as at the table, not by a uniform shuffle: the cutter keeps the permanent "
        "Perlaggen he finds at the cut, the turn-up makes trump, and the dealer's team exchanges a turned-up "
        "Perlagg (rules: <code>perlaggen.md</code> §3, §9.1). Seats: dealer 0, leader 1, partner 2, cutter 3; "
        "team D is the dealer and partner, team O the leader and cutter. Figures are at level L0 unless marked "
        "L1: at L0 every hand uses all its free Perlaggen for its best Gleich and, separately, its best Hanger; "
        "at L1 (§11.6) a Perlagg has one identity for both figures, each player picks a point of his "
        "Gleich/Hanger frontier and the two teams' choices are solved exactly as a small matrix game (payoff "
        "v<sub>G</sub>·sgn(ΔG) + v<sub>H</sub>·sgn(ΔH), stakes 1:1). "
        f"{ctx.n:,} deals per style at L0, {_l1_n(ctx):,} at L1, seed {ctx.seed}.</p>"]
    for (sid, _), style in zip(section.toc, PERLAGGEN_STYLES):
        tables = ctx.run(f"Perlaggen table statistics ({style})",
                         f"cardsim stats perlaggen --style {style} --n {ctx.n} --seed {ctx.seed}",
                         ctx.n, perlaggen.stats, style=style, n=ctx.n, seed=ctx.seed, **ctx.run_kw)
        parts.append(_perlaggen_style(ctx, style, tables, sid, section))
        n_l1 = _l1_n(ctx)
        l1_tables = ctx.run(f"Perlaggen L1 statistics ({style})",
                            f"cardsim stats perlaggen --style {style} --level L1 --n {n_l1} --seed {ctx.seed}",
                            n_l1, perlaggen.stats, style=style, n=n_l1, seed=ctx.seed, level="L1", **ctx.run_kw)
        parts.append(_l1_style(style, l1_tables, section))
    section.body = "\n".join(parts)
    return section
