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


def _limit_sentence(limit: pd.Series) -> str:
    """How often keeping only 15 of the 18 cards cost meld, with its interval and the deals counted."""
    return (f"the 15-card limit costs meld in {limit['p']:.3%} [{limit['lo']:.3%}, {limit['hi']:.3%}] of the deals "
            f"({int(limit['successes']):,} of {int(limit['n']):,}): those where the best meld of all 18 needs 16 cards "
            "or more.")


def _gain_by_meld(by_meld: pd.DataFrame) -> str:
    """The mean kitty gain by the class of the hand's best meld (spec §9.3)."""
    title = "Mean kitty gain by the best meld of the 15-card hand"
    body = [f"<th>{esc(r.meld)}</th>" + _mean_cell(r.mean, r.lo, r.hi, ".2f") + n_cell(r.n)
            for r in by_meld.itertuples()]
    return table(["best meld of the hand", "mean gain [95% interval]", "n (deals)"], body, title)


def section(ctx: Context) -> Section:
    """Three-player Pinochle: meld of a random hand, with the kitty, and the kitty gain (spec §9.2-§9.3)."""
    from analysis.games import pinochle3

    section = Section("pinochle3", "Three-player Pinochle", "")
    sub = [("pinochle3-a", "A. Meld of a random hand"), ("pinochle3-b", "B. What the kitty adds"),
           ("pinochle3-c", "C. Meld breakdown of an example hand"), ("pinochle3-d", "D. Making the bid"),
           ("pinochle3-e", "E. Bidding policies in self-play")]
    section.toc = sub
    tables = ctx.run("Pinochle meld and kitty statistics", f"cardsim stats pinochle3 --n {ctx.n} --seed {ctx.seed}",
                     ctx.n, pinochle3.stats, n=ctx.n, seed=ctx.seed, **ctx.run_kw)
    means = tables["means"].set_index("quantity")
    mean_rows = [f"<th>{esc(pinochle3.MEAN_NAMES[q])}</th>" + _mean_cell(r["mean"], r["lo"], r["hi"], ".2f")
                 + (f'<td class="num">{r["exact"]:.3f}</td>' if r["exact"] == r["exact"] and r["exact"] is not None
                    else "<td>—</td>")
                 + _mean_cell(r["median"], r["median_lo"], r["median_hi"], "g") + n_cell(r["n"])
                 for q, r in means.iterrows()]
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
        table(["quantity", "mean points [95% interval]", "exact", "median [95% interval]", "n (deals)"], mean_rows,
              "Best meld of the hand, of hand + kitty, of the 15 kept after the discard, and the kitty gain"),
        _pinochle_tails(ctx, tables["tails"], "hand", "Best meld of a 15-card hand", section, "pinochle3-meld.png"),
        f'<h3 id="{sub[1][0]}">{sub[1][1]}</h3>',
        "<p>The bidder takes the kitty and buries 3 of his 18 cards; buried cards never meld. The gain is the meld "
        "of the 15 he keeps, burying the 3 that keep the most meld, minus the best meld of his hand: meld only, "
        "without the counters he buries (they count for him in play, R4.7c). The best meld of all 18 cards bounds "
        "the meld he keeps, and " + _limit_sentence(tables["limit"].iloc[0]) + "</p>",
        _pinochle_tails(ctx, tables["tails"], "hand+kitty", "Best meld of hand + kitty (18 cards)", section,
                        "pinochle3-meld-kitty.png"),
        _pinochle_tails(ctx, tables["tails"], "gain", "Kitty gain (15 kept after the discard)", section,
                        "pinochle3-gain.png"),
        _gain_by_meld(tables["gain_by_meld"]),
        f'<h3 id="{sub[2][0]}">{sub[2][1]}</h3>',
        f"<p>Hand <code>{esc(example.attrs['hand'])}</code>: meld by trump {esc(totals)}; best trump {esc(best)} "
        f"(<code>cardsim meld pinochle3 --hand \"{esc(PINOCHLE_EXAMPLE)}\"</code>).</p>",
        table(["meld", "cards", "points"], breakdown, f"Melds under trump {esc(best)}"),
        f'<h3 id="{sub[3][0]}">{sub[3][1]}</h3>',
        _bidding(ctx, section),
        f'<h3 id="{sub[4][0]}">{sub[4][1]}</h3>',
        _match(ctx),
    ])
    return section


CURVE_BIDS = (250, 300, 350, 400, 450)
DD_TRICKS = 8
"""Tricks solved double-dummy at the end of each hand for the thresholds' bid50_dd column and the curves."""
PLAYS = {"": "greedy", "dd_": f"greedy, last {DD_TRICKS} tricks DD"}
"""The curves' column prefix of each play -> its label in the chart and the table."""


def _plays(curves: pd.DataFrame) -> pd.DataFrame:
    """The thresholds' ``curves`` (a row per meld class and bid, P(make) greedy in p/lo/hi and with the solved ending
    in dd_p/dd_lo/dd_hi) as two rows per class and bid, one per play (column ``play``, `PLAYS`' labels), p/lo/hi
    each; classes in the curves' order, greedy first."""
    parts = [curves[["meld", "bid", "n"]].assign(play=label, p=curves[f"{prefix}p"], lo=curves[f"{prefix}lo"],
                                                  hi=curves[f"{prefix}hi"])
             for prefix, label in PLAYS.items()]
    both = pd.concat(parts, ignore_index=True)  # a stable sort by class keeps each class's greedy rows first
    return both.sort_values("meld", key=lambda m: m.map(list(dict.fromkeys(curves.meld)).index), kind="stable")


MATCH = ("bold", "cautious")


def _bidding(ctx: Context, section: Section) -> str:
    """P(make) curves by meld class and the bid thresholds by meld and by trump length (spec §9.1 Q3-Q4)."""
    from analysis import charts
    from analysis.games import pinochle3

    n = max(4096, ctx.hand_n // 50)
    tables = ctx.run("Pinochle bid thresholds",
                     f"cardsim thresholds pinochle3 --n {n} --seed {ctx.seed} --dd-tricks {DD_TRICKS}", n,
                     pinochle3.thresholds, n=n, seed=ctx.seed, dd_tricks=DD_TRICKS, **ctx.run_kw)
    curves = tables["curves"]
    plays = _plays(curves)
    section.charts["pinochle3-make.png"] = charts.conditional_chart(
        plays[plays.bid == 300], "P(make a bid of 300) by best meld before the kitty", class_column="meld",
        outcome_column="play", outcomes=tuple(PLAYS.values()), category="best meld before the kitty",
        legend="P(make), {}",
        note=f"n = {n:,} random hands as the bidder, the same hands under both plays, 95% Wilson intervals")
    curve_rows = [f"<th>{esc(m)}</th><td>{esc(play)}</td>"
                  + "".join(row_cell(r) for _, r in rows[rows.bid.isin(CURVE_BIDS)].iterrows())
                  + n_cell(int(rows.n.iloc[0])) for (m, play), rows in plays.groupby(["meld", "play"], sort=False)]

    def bid50_cells(r: pd.Series, suffix: str = "") -> str:
        """The bid50 (``suffix`` "" greedy, "_dd" with the solved ending) and its P(make) as two cells."""
        value = r[f"bid50{suffix}"]
        if value is None or value != value:
            return "<td>—</td><td>—</td>"
        mark = "" if r[f"bid50{suffix}_settled"] else "~"
        return f'<td class="num">{int(value)}{mark}</td>' + row_cell(
            {"p": r[f"p50{suffix}"], "lo": r[f"lo50{suffix}"], "hi": r[f"hi50{suffix}"]})

    def threshold_rows(frame: pd.DataFrame, key: str) -> list[str]:
        out = []
        for _, r in frame.iterrows():
            bev = "—" if r["bid_ev"] is None or r["bid_ev"] != r["bid_ev"] else \
                f"{int(r['bid_ev'])}" + ("" if r["ev_settled"] else "~")
            passing = f'<td class="num">{r["ev_pass"]:.1f} [{r["ev_pass_lo"]:.1f}, {r["ev_pass_hi"]:.1f}]</td>'
            ev = "<td>—</td>" if bev == "—" else \
                f'<td class="num">{r["ev_vs_pass"]:.1f} [{r["ev_vs_pass_lo"]:.1f}, {r["ev_vs_pass_hi"]:.1f}]</td>'
            out.append(f"<th>{esc(str(r[key]))}</th>{bid50_cells(r)}{passing}<td class=\"num\">{bev}</td>{ev}"
                       + bid50_cells(r, "_dd") + n_cell(int(r["n"])))
        return out

    headers = ["bid50", "P(make bid50)", "EV_pass", "bid_ev", "EV_bid − EV_pass at bid_ev",
               f"bid50, last {DD_TRICKS} tricks DD", "P(make)", "n (hands)"]
    return "\n".join([
        f"<p>Seat 0 wins the auction with a random hand ({n:,} deals, seed {ctx.seed}), takes a random kitty, buries "
        "the 3 cards that maximise meld plus buried counters, names that trump and leads; all three play greedily "
        "(take the trick as cheaply as possible, else throw the cheapest card). The bidder makes a bid B when "
        "meld + trick points (buried counters included) ≥ B. <b>bid50</b> is the highest bid made at least half "
        "the time. <b>EV_pass</b> is what the hand scores as a defender when it passes: in the same deals the next "
        "seat takes the bid instead (minimum bid, best discard, greedy play), and the hand keeps its trick points and, "
        "with a counter taken, its meld under that seat's trump (R6.1). <b>bid_ev</b> is the spec's most one should "
        "bid (Q4): the highest bid B whose expected score change EV_bid(B) (made: + meld + trick points, set: − B) "
        "is still ≥ EV_pass; — means passing is worth more than any bid. A ~ after a bid marks one whose 95% "
        "interval holds 1/2 (bid50) or 0 (bid_ev): at this n it cannot be told apart from a coin flip, or from "
        "passing. Greedy defenders play each trick for themselves (they neither "
        f"smear counters onto each other's tricks nor hold back), so greedy thresholds are optimistic: the two "
        f"columns before n play the same hands again, greedily for the first {15 - DD_TRICKS} tricks and with the "
        f"last {DD_TRICKS} solved double-dummy (perfect play by the bidder against two cooperating defenders), which "
        "typically gives a bid50 10-20 points lower. For one hand, "
        "<code>cardsim odds pinochle3 --hand \"…\"</code> gives the same two kinds of play.</p>",
        figure_html("pinochle3-make.png", "P(make 300) by meld", "P(make a bid of 300) by best meld, greedy play and "
                    f"with the last {DD_TRICKS} tricks solved double-dummy, with 95% intervals."),
        table(["best meld before the kitty", "play"] + [f"P(make {b})" for b in CURVE_BIDS] + ["n (hands)"],
              curve_rows, "P(make) curves by best meld before the kitty"),
        table(["best meld before the kitty"] + headers, threshold_rows(tables["by_meld"], "meld"),
              "Bid thresholds by meld"),
        table(["cards of the trump named (of 15)"] + headers, threshold_rows(tables["by_trump_length"], "trump_length"),
              "Bid thresholds by trump length"),
        _rules_of_thumb(tables["rules_of_thumb"]),
    ])


def _rules_of_thumb(rules: pd.DataFrame) -> str:
    """The rules of thumb (spec Q4) of the thresholds' hands: a row per play and model, each term with its 95%
    interval (`analysis.games.pinochle3._rules_of_thumb`)."""
    from analysis.games.pinochle3 import policy_rule
    from simcore.games.pinochle3_bid import BID_POLICIES

    if rules.empty:
        return ""
    labels = {"greedy": "greedy", "dd": f"greedy, last {DD_TRICKS} tricks DD"}

    def cell(fit: pd.DataFrame, term: str, digits: int = 1) -> str:
        if term not in fit.index:
            return '<td class="num">1 (face value)</td>'
        r = fit.loc[term]
        return _mean_cell(r.coef, r.lo, r.hi, f".{digits}f")

    rows = []
    for (play, model), fit in rules.groupby(["play", "model"], sort=False):
        fit = fit.set_index("term")
        rows.append(f"<td>{esc(labels[play])}</td><td>{'spec form' if model == 'spec' else 'free fit'}</td>"
                    + cell(fit, "meld", 3) + "".join(cell(fit, t) for t in ("intercept", "counters", "trump_length"))
                    + f'<td class="num">{fit.residual_sd.iloc[0]:.1f}</td><td class="num">{fit.r2.iloc[0]:.3f}</td>'
                    + n_cell(int(fit.n.iloc[0])))
    return "\n".join([
        "<p>A rule of thumb for the bid (the spec's Q4 asks for one): what a hand makes on average as the bidder "
        "(meld after the kitty plus trick points, the total a bid must reach) ≈ m·meld + a + b per counter (A, 10, "
        "K) + c per card of the intended trump (the best-meld suit, the longest of equal ones), all of the 15 dealt, "
        "fitted by least squares to the same hands. The spec's form counts the meld at face value (m = 1), as the "
        "bidding policies of the match below set their limits (standard: "
        f"{esc(policy_rule(BID_POLICIES['standard']))}); the free fit weighs it too. a holds what the kitty adds "
        "and the counters buried on average. The residual SD is how far one hand strays from the rule; the "
        "intervals are ordinary least squares ones, which take that spread as equal for every hand. An average is "
        "not a threshold: bid50 above is the bid a hand makes at least half the time.</p>",
        table(["play", "model", "m (meld)", "a", "b per counter", "c per trump", "residual SD", "R²", "n (hands)"],
              rows, "Rule of thumb: m·meld + a + b·counters + c·trumps, 95% intervals")])


def _match(ctx: Context) -> str:
    """A small self-play match between two bidding policies (games to 1500)."""
    from analysis.games import pinochle3
    from simcore.games.pinochle3_bid import BID_POLICIES, MAX_HANDS

    games = max(12, ctx.hand_n // 20_000)
    a, b = MATCH
    stakes = {"game_stake": 2, "set_stake": 2}  # the spec's example stakes (R6.6); they change no game
    flags = "".join(f" --option {name}={value}" for name, value in stakes.items())
    frame = ctx.run("Pinochle bidding match", f"cardsim match pinochle3 --a {a} --b {b} --games {games} "
                    f"--seed {ctx.seed}{flags}", games, pinochle3.match, a, b, games=games, seed=ctx.seed,
                    options=stakes, **ctx.run_kw)
    rows = [f"<th>{esc(r['policy'])}</th><td>{esc(BID_POLICIES[r['policy']].help)}</td>"
            + row_cell({"p": r["win_p"], "lo": r["win_lo"], "hi": r["win_hi"]})
            + _mean_cell(r["points_mean"], r["points_lo"], r["points_hi"], ".1f")
            + _mean_cell(r["money_mean"], r["money_lo"], r["money_hi"], "+.2f")
            + n_cell(int(r["seat_games"])) for _, r in frame.iterrows()]
    positions = [f"<th>{esc(r['position'])}</th>" + _mean_cell(r["points_mean"], r["points_lo"], r["points_hi"], ".1f")
                 + row_cell({"p": r["contract_p"], "lo": r["contract_lo"], "hi": r["contract_hi"]})
                 + n_cell(r["hands"]) for r in frame.attrs["positions"]]
    return "\n".join([
        f"<p>{frame.attrs['games']:,} games to 1500 (seed {ctx.seed}; {frame.attrs['abandoned']} abandoned without "
        f"a winner after {MAX_HANDS} hands, which count in the points but not in the wins); "
        "each policy sits in half the "
        "seats (one seat in some games, two in others), all play greedily and discard as above. A fair share of wins "
        "is 1/3 per seat; one seat's win is the others' loss, so the win intervals take each game as a cluster of "
        "the policy's seats (Wilson at the effective number of seat-games).</p>",
        table(["policy", "most it bids", "wins per seat [95%]", "points per seat per hand [95%]",
               "money per seat per game at $2 / $2 [95%]", "seat-games"], rows, "Bidding-policy match"),
        "<p>Money play (R6.6) at the spec's stakes, $2 a game and $2 a set unit: each loser pays the winner $2 plus "
        "$2 per set unit he took (a concession 1, a set 2). By place in the auction (spec Q8; every hand dealt, both "
        "policies; the dealer's left speaks first, the dealer last):</p>",
        table(["auction position", "points per hand [95%]", "won the contract [95%]", "hands"], positions,
              "Score by auction position"),
    ])


def _mean_cell(mean: float, lo: float, hi: float, spec: str) -> str:
    """A table cell 'mean [lo, hi]' in the number format ``spec``."""
    return f'<td class="num">{mean:{spec}} [{lo:{spec}}, {hi:{spec}}]</td>'
