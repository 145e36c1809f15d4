"""Report section: Three-player Pinochle (meld of a random hand, the kitty, an example)."""

from __future__ import annotations

import pandas as pd

from analysis.report import Context, Section, esc, figure_html, n_cell, row_cell, table

ORDER = 50
"""Place on the page: game sections are sorted by ORDER."""


PINOCHLE_EXAMPLE = "HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 D9"


def _pinochle_tails(ctx: Context, tails: pd.DataFrame, what: str, title: str, section: Section, filename: str) -> str:
    from analysis import charts

    rows = tails[tails.quantity == what].assign(label=lambda t: [f"≥ {x}" for x in t.threshold])
    section.charts[filename] = charts.distribution_chart(
        rows, title, category="meld points", xlabel="probability", note=f"n = {ctx.n:,} deals, 95% Wilson intervals")
    has_exact = "exact" in rows and rows["exact"].notna().all()
    body = [f"<th>≥ {int(r['threshold'])}</th>" + row_cell(r)
            + (f'<td class="num">{r["exact"]:.6f}</td>' if has_exact else "") + n_cell(r["n"])
            for _, r in rows.iterrows()]
    headers = ["meld points", "P(meld ≥ x), simulated"] + (["exact"] if has_exact else []) + ["n (deals)"]
    return figure_html(filename, title, f"{title}: bars with 95% intervals.") + table(headers, body, title)


def section(ctx: Context) -> Section:
    """Three-player Pinochle: meld of a random hand, with the kitty, and the kitty gain (spec §9.2-§9.3)."""
    from analysis.games import pinochle3

    section = Section("pinochle3", "Three-player Pinochle", "")
    sub = [("pinochle3-a", "A. Meld of a random hand"), ("pinochle3-b", "B. What the kitty adds"),
           ("pinochle3-c", "C. Meld breakdown of an example hand")]
    section.toc = sub
    tables = ctx.run("Pinochle meld and kitty statistics", f"cardsim stats pinochle3 --n {ctx.n} --seed {ctx.seed}",
                     ctx.n, pinochle3.stats, n=ctx.n, seed=ctx.seed, **ctx.run_kw)
    means = tables["means"].set_index("quantity")
    mean_rows = [f"<th>{esc(q)}</th><td class=\"num\">{r['mean']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}]</td>"
                 + (f'<td class="num">{r["exact"]:.3f}</td>' if r["exact"] == r["exact"] and r["exact"] is not None
                    else "<td>—</td>") + n_cell(r["n"]) for q, r in means.iterrows()]
    example = pinochle3.meld(PINOCHLE_EXAMPLE)
    best = example.attrs["best_trump"]
    breakdown = [f"<th>{esc(r.meld)}</th><td>{esc(r.cards)}</td>" + f'<td class="num">{r.points}</td>'
                 for r in example[example.trump == best].itertuples()]
    totals = ", ".join(f"{t}: {v}" for t, v in example.attrs["totals"].items())
    section.body = "\n".join([
        "<p>Three players, 48 cards (two of each of A 10 K Q J 9 in four suits), 15 cards each and a kitty "
        "of 3 (rules: <code>pinochle3.md</code>). Meld is counted with the trump that maximises it, as a "
        f"bidder sees his hand before the auction. {ctx.n:,} random deals (seed {ctx.seed}); the exact column "
        "is the enumeration of every possible holding (spec §9.2), so the simulated intervals should cover it "
        "about 95% of the time.</p>",
        f'<h3 id="{sub[0][0]}">{sub[0][1]}</h3>',
        table(["quantity", "mean points [95% interval]", "exact", "n (deals)"], mean_rows,
              "Mean best meld of the hand, of hand + kitty, and the kitty gain"),
        _pinochle_tails(ctx, tables["tails"], "hand", "Best meld of a 15-card hand", section, "pinochle3-meld.png"),
        f'<h3 id="{sub[1][0]}">{sub[1][1]}</h3>',
        "<p>The gain is the best meld of all 18 cards (hand and kitty) minus the best meld of the hand: an upper "
        "bound on what the kitty adds once 3 cards are discarded (the spec's full discard search finds the "
        "15-card limit costing meld in about 0.04% of deals).</p>",
        _pinochle_tails(ctx, tables["tails"], "hand+kitty", "Best meld of hand + kitty (18 cards)", section,
                        "pinochle3-meld-kitty.png"),
        _pinochle_tails(ctx, tables["tails"], "gain", "Kitty gain (upper bound)", section, "pinochle3-gain.png"),
        f'<h3 id="{sub[2][0]}">{sub[2][1]}</h3>',
        f"<p>Hand <code>{esc(example.attrs['hand'])}</code>: meld by trump {esc(totals)}; best trump {esc(best)} "
        f"(<code>cardsim meld pinochle3 --hand \"{esc(PINOCHLE_EXAMPLE)}\"</code>).</p>",
        table(["meld", "cards", "points"], breakdown, f"Melds under trump {esc(best)}"),
    ])
    return section
