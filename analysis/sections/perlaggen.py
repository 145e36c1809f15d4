"""Report section: Perlaggen at level L0 in both styles, from deals as played."""

from __future__ import annotations

import pandas as pd

from analysis.report import Context, Section, esc, figure_html, n_cell, row_cell, table

ORDER = 20
"""Place on the page: game sections are sorted by ORDER."""


PERLAGGEN_STYLES = ("innsbruck", "eichel")


def _estimate_rows(frame: pd.DataFrame, label_columns: list[str]) -> list[str]:
    return ["".join(f"<th>{esc(r[c])}</th>" for c in label_columns) + row_cell(r) + n_cell(r["n"])
            for _, r in frame.iterrows()]


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


def section(ctx: Context) -> Section:
    """Perlaggen at level L0 in both styles, from deals as played (cut, turn-up, exchange)."""
    from analysis.games import perlaggen

    section = Section("perlaggen", "Perlaggen", "")
    section.toc = [(f"perlaggen-{style}", f"{style.capitalize()} style") for style in PERLAGGEN_STYLES]
    parts = [
        "<p>Perlaggen is dealt as at the table, not by a uniform shuffle: the cutter keeps the permanent "
        "Perlaggen he finds at the cut, the turn-up makes trump, and the dealer's team exchanges a turned-up "
        "Perlagg (rules: <code>perlaggen.md</code> §3, §9.1). Seats: dealer 0, leader 1, partner 2, cutter 3; "
        "team D is the dealer and partner, team O the leader and cutter. Figures are at level L0: every hand "
        "uses all its free Perlaggen for its best Gleich and, separately, its best Hanger (a Perlagg can carry "
        f"only one identity when played, which the L1 level will model). {ctx.n:,} deals per style, seed "
        f"{ctx.seed}.</p>"]
    for (sid, _), style in zip(section.toc, PERLAGGEN_STYLES):
        tables = ctx.run(f"Perlaggen table statistics ({style})",
                         f"cardsim stats perlaggen --style {style} --n {ctx.n} --seed {ctx.seed}",
                         ctx.n, perlaggen.stats, style=style, n=ctx.n, seed=ctx.seed, **ctx.run_kw)
        parts.append(_perlaggen_style(ctx, style, tables, sid, section))
    section.body = "\n".join(parts)
    return section
