"""Report section: Perlaggen at levels L0 and L1 in both styles, from deals as played."""

from __future__ import annotations

import pandas as pd

from analysis.report import Context, Section, esc, estimate_cell, figure_html, n_cell, row_cell, table
from analysis.stats import Estimate

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
    if wins.empty:
        chart = (f"<p>No number of Perlaggen was held by team D in 1,000 or more of the {n_l1:,} L1 deals, so the "
                 "chart of the Perlagg value is left out; a larger <code>--n</code> draws it.</p>")
    else:
        section.charts[filename] = charts.distribution_chart(
            wins.assign(label=[f"{j} Perlaggen · {f}" for j, f in zip(wins["perlaggen"], wins["figure"])]),
            f"Perlaggen ({style}): P(team D wins the figure) by its Perlaggen, L1", category="team D holds · figure",
            note=f"n = {n_l1:,} deals as played, level L1, 95% Wilson intervals")
        chart = figure_html(filename, f"Perlagg value, {style}", "Team D's chance to win Gleich and Hanger at L1 by "
                            "the number of Perlaggen its two hands hold.")
    return "\n".join([
        table(["figure", "outcome", "L0 p [95% interval]", "L1 p [95% interval]", "L1 − L0", "n (deals)"],
              _conflict_rows(l1_tables),
              "The cost of the Gleich/Hanger conflict (§6.5, Q6): at L0 every hand uses all its Perlaggen for "
              "each figure; at L1 a Perlagg has one identity and the teams' choices of frontier points are solved "
              "as a matrix game (stakes 1:1, ties ½, §11.6). Same deals for both columns."),
        table(["team", "Perlaggen", "P(wins Gleich)", "P(wins Hanger)", "n (deals)"], _perlagg_value_rows(l1_tables),
              "Value of the Perlaggen at L1: chance that a team wins each figure, by the number of Perlaggen in its "
              "two hands after the exchanges (groups of at least 1,000 deals)"),
        chart,
    ])


def _perlaggen_style(ctx: Context, style: str, tables, sid: str, section: Section) -> str:
    from analysis import charts

    seats = tables["perlaggen_by_seat"]
    seat_rows = [f"<th>{esc(r['name'])} (seat {r['seat']})</th>"
                 + f'<td class="num">{r["mean"]:.4f} [{r["mean_lo"]:.4f}, {r["mean_hi"]:.4f}]</td>'
                 + row_cell(r) + n_cell(r["n"]) for _, r in seats.iterrows()]
    best = tables["seat_best"]
    strict = best[best.label == "strictly best"].assign(
        label=lambda t: [f"{n} · {f}" for n, f in zip(t["name"], t["figure"])])
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
        table(["figure", "outcome", "p [95% interval]", "n (deals)"],
              _estimate_rows(tables["outcome"], ["figure", "label"]),
              "Who wins each figure: team D (dealer and partner) or team O (leader and cutter)"),
        table(["figure", "cards", "p [95% interval]", "n (deals)"],
              _estimate_rows(tables["best_size"], ["figure", "label"]),
              "Size of the best figure at the table"),
    ])


def _l1_n(ctx: Context) -> int:
    """Deals of the L1 runs (L1_SHARE, L1_MIN)."""
    return min(ctx.n, max(L1_MIN, ctx.n // L1_SHARE))


SPIEL_METHODS = (("random", "R0 random"), ("greedy", "G1 greedy"), ("g2", "G2 figures"), ("dd", "double dummy"))
"""Play methods of the Spiel table: simcore.games.perlaggen_play.SpielJob methods and column names."""
SPIEL_POLICY_SHARE = 20
"""The policy columns of the Spiel table play ctx.hand_n // SPIEL_POLICY_SHARE deals each (about
20,000 per second per core)."""
SPIEL_DD_SHARE = 1000
"""The double-dummy column solves ctx.hand_n // SPIEL_DD_SHARE deals (about 50-200 per second per core)."""
SPIEL_STYLE = "innsbruck"
SPIEL_ROWS = (("perlaggen", "Perlaggen the team holds"), ("top_perlaggen", "its Perlaggen above all of the opponents'"))


def _spiel_counts(ctx: Context) -> dict:
    """{method: SpielJob counts} for the leading team (seats 1 and 3) on deals as played."""
    from simcore import runner
    from simcore.games import perlaggen_deal as D
    from simcore.games import perlaggen_play as play

    counts = {}
    for method, _ in SPIEL_METHODS:
        n = max(ctx.hand_n // (SPIEL_DD_SHARE if method == "dd" else SPIEL_POLICY_SHARE), 1)
        job = play.SpielJob(None, D.DealRules(SPIEL_STYLE), method, team=1)
        counts[method] = ctx.run(f"Perlaggen Spiel, {method}",
                                 f"(Python API) SpielJob(None, DealRules('{SPIEL_STYLE}'), '{method}', team=1), n={n}",
                                 n, runner.run, job, n, ctx.seed, **ctx.run_kw)
    return counts


def _spiel_rows(counts: dict, feature: int) -> list[str]:
    """Rows value 0..8 of one team feature: P(win) per method, n per method; groups of >= 30 deals."""
    from simcore.games import perlaggen_play as play

    base = 2 + 2 * play.BINS * feature
    rows = []
    for value in range(play.BINS):
        held = [int(counts[m][base + value]) for m, _ in SPIEL_METHODS]
        if min(held) < 30:
            continue
        cells = "".join(estimate_cell(e.p, e.lo, e.hi) for e in
                        (Estimate(int(counts[m][base + play.BINS + value]), h)
                         for (m, _), h in zip(SPIEL_METHODS, held)))
        rows.append(f"<th>{value}</th>{cells}{n_cell(held[0])}{n_cell(held[-1])}")
    return rows


def _perlaggen_spiel(ctx: Context, sid: str) -> str:
    """P(the leading team wins the Spiel) by its Perlaggen and top Perlaggen, per play method."""
    from simcore.games import perlaggen_play as play

    counts = _spiel_counts(ctx)
    names = [name for _, name in SPIEL_METHODS]
    overall = "".join(estimate_cell(e.p, e.lo, e.hi) for e in
                      (Estimate(int(counts[m][1]), int(counts[m][0])) for m, _ in SPIEL_METHODS))
    parts = [f'<h3 id="{sid}">The Spiel by Perlaggen held</h3>',
             f"<p>P(the leading team, seats 1 and 3, takes 3 of the 5 tricks) over deals as played ({SPIEL_STYLE} "
             "style: cut, turn-up, exchanges), with all four seats playing policy R0 (random legal plays), G1 "
             "(greedy trick play), G2 (G1 keeping its Perlaggen for the figures: it plays a Perlagg only with no "
             "natural card left; spec §11.7) or perfectly with every hand visible (double dummy, the "
             "perfect-information value of the deal, not a bound on real play). "
             f"{int(counts['random'][0]):,} deals per policy and {int(counts['dd'][0]):,} double-dummy deals, "
             f"seed {ctx.seed}; rows with fewer than 30 deals in a column are left out.</p>"]
    for feature, label in SPIEL_ROWS:
        rows = _spiel_rows(counts, play.FEATURES.index(feature))
        if feature == SPIEL_ROWS[0][0]:
            rows.append(f"<th>all deals</th>{overall}{n_cell(counts['random'][0])}{n_cell(counts['dd'][0])}")
        parts.append(table([label] + names + ["n (policies)", "n (double dummy)"], rows,
                           f"P(leading team wins the Spiel) by {label}, p [95% interval]"))
    lead = ", ".join(f"{name} {2 * counts[m][1] / counts[m][0] - 1:+.3f}" for m, name in SPIEL_METHODS)
    parts.append(f"<p>Value of the lead: P(leading team wins) minus P(the other team wins), per method: {lead}.</p>")
    return "\n".join(parts)


CARD_VALUE_TRUMP = "L"
"""The trump of the report's card-value table (the README's example has the same)."""


def _card_values(ctx: Context, sid: str) -> str:
    """Spec Q8: each card's worth to its holder's team, swapped for a random card of the face-down stock on the same
    deals."""
    from analysis.games.perlaggen_card_values import card_values, difference_text

    n = max(ctx.hand_n // SPIEL_POLICY_SHARE, 1)
    frame = ctx.run("Perlaggen card values", f"cardsim stats perlaggen --card-values --trump {CARD_VALUE_TRUMP} "
                    f"--n {n} --seed {ctx.seed}", n, card_values, SPIEL_STYLE, "greedy", n, ctx.seed,
                    trump=CARD_VALUE_TRUMP, **ctx.run_kw)
    rows = []
    for _, r in frame.iterrows():
        cells = "".join(estimate_cell(r[f"{fig}_with"], r[f"{fig}_with_lo"], r[f"{fig}_with_hi"])
                        + f'<td class="num">{difference_text(r, fig)}</td>' for fig in ("gleich", "hanger", "spiel"))
        rows.append(f"<th>{esc(r['card'])}</th><td>{esc(r['role'])}</td>{cells}{n_cell(r['held'])}")
    deals = frame.attrs["trump_deals"][CARD_VALUE_TRUMP]
    return "\n".join([
        f'<h3 id="{sid}">What a card is worth (Q8)</h3>',
        f"<p>On {frame.attrs['n']:,} deals as played ({SPIEL_STYLE} style, exchange always, keep_figures; {deals:,} "
        f"of them with {CARD_VALUE_TRUMP} trump, shown here), each card in a hand after the exchanges is swapped for "
        "a random card of the face-down stock, and its holder's team is judged on both deals: Gleich and Hanger at "
        "L0, the Spiel played out by G1 at every seat. <em>with</em> is P(the team wins the figure) holding the "
        "card (Wilson 95%); Δ is that minus the same deals with the card swapped out (paired, Tango's 95% "
        "interval). Other trumps: the command in the "
        "list of runs without <code>--trump</code>.</p>",
        table(["card", "role", "Gleich with", "Gleich Δ", "Hanger with", "Hanger Δ", "Spiel with", "Spiel Δ",
               "n (held)"], rows, f"Card values with {CARD_VALUE_TRUMP} trump"),
    ])


VERSUS_CARDS = "HK,S6,LA"
"""The cards the report compares with each other (the README's example has the same)."""
VERSUS_SHARE = 4
"""The card comparison plays ctx.hand_n // VERSUS_SHARE deals: it judges about one swap a deal for three cards, the
card values 20."""


def _card_pairs(ctx: Context) -> str:
    """Spec Q8, card against card: the Martl, the Weli and the trump Ace two by two on the same deals."""
    from analysis.games.perlaggen_card_values import card_pairs, difference_text

    n = max(ctx.hand_n // VERSUS_SHARE, 1)
    frame = ctx.run("Perlaggen card against card", f"cardsim stats perlaggen --card-values --versus {VERSUS_CARDS} "
                    f"--trump {CARD_VALUE_TRUMP} --n {n} --seed {ctx.seed}", n, card_pairs, VERSUS_CARDS,
                    SPIEL_STYLE, "greedy", n, ctx.seed, trump=CARD_VALUE_TRUMP, **ctx.run_kw)
    rows = []
    for _, r in frame.iterrows():
        cells = "".join(estimate_cell(r[f"{fig}_first"], r[f"{fig}_first_lo"], r[f"{fig}_first_hi"])
                        + estimate_cell(r[f"{fig}_second"], r[f"{fig}_second_lo"], r[f"{fig}_second_hi"])
                        + f'<td class="num">{difference_text(r, fig)}</td>' for fig in ("gleich", "hanger", "spiel"))
        rows.append(f"<th>{esc(r['first'])} against {esc(r['second'])}</th>{cells}{n_cell(r['pairs'])}")
    return "\n".join([
        f"<p>Card against card, on {frame.attrs['n']:,} deals as played (the same style, trump and play): where a "
        "hand holds one of two cards and the other lies in the face-down stock, the hand is judged with either card "
        "(first, second: P(the team wins), Wilson 95%; Δ = first − second, paired, Tango 95%). The Martl and the "
        "Weli compare equal: with the other out of play, either is the highest Perlagg in play.</p>",
        table(["cards", "Gleich first", "second", "Δ", "Hanger first", "second", "Δ", "Spiel first", "second", "Δ",
               "n (pairs)"], rows, f"Card against card with {CARD_VALUE_TRUMP} trump"),
    ])


def section(ctx: Context) -> Section:
    """Perlaggen at levels L0 and L1 in both styles, from deals as played (cut, turn-up, exchange)."""
    from analysis.games import perlaggen

    section = Section("perlaggen", "Perlaggen", "")
    section.toc = [(f"perlaggen-{style}", f"{style.capitalize()} style") for style in PERLAGGEN_STYLES]
    section.toc.append(("perlaggen-spiel", "The Spiel by Perlaggen held"))
    section.toc.append(("perlaggen-card-values", "What a card is worth"))
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
    parts.append(_perlaggen_spiel(ctx, section.toc[-2][0]))
    parts.append(_card_values(ctx, section.toc[-1][0]))
    parts.append(_card_pairs(ctx))
    section.body = "\n".join(parts)
    return section
