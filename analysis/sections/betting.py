"""Report section: Giltspiel betting (thresholds per figure and value, match equity, a policy tournament), Perlaggen
for three (accept thresholds, match equity) and Perlaggen's blind bets."""

from __future__ import annotations

import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from analysis.report import Context, Section, esc, estimate_cell, figure_html, table
from simcore.betting import Policy
from simcore.games.perlaggen_three_equity import near_classes

ORDER = 15
"""Place on the page: game sections are sorted by ORDER."""

GAME = "giltspiel"
TARGET = 11
POLICIES = ("formula", "cautious", "aggressive", "never")
READER = Policy("reader", reads="formula")
"""The formula reading a formula bet (`Policy.reads`), played against the formula beside the round robin."""
READER_FILE = "scenarios/reader-policy.json"
"""The same policy as a file, for the equivalent command."""
GAMES = 200
"""Games per tournament pairing and for the self-play behind the match equity (x10 with --full)."""
CLASS_DEALS = 50
"""Deals per near pair of limit classes behind the match equity (x10 with --full)."""
FACING_DEALS = 1_000_000
"""Deals behind the weakest hold facing a formula bet (table F of the thresholds; x10 with --full)."""
THREE_GAMES = 150
"""3-player Perlaggen self-play games behind its match equity (x10 with --full)."""
THREE_CLASS_DEALS = 50
"""Deals per near limit class behind the 3-player match equity (x10 with --full)."""
THREE_NEAR_CLASSES = len(near_classes(18))
"""The near limit classes of the 3-player match equity at target 18."""
THREE_SCORES = (0, 6, 12, 16)
"""The scores of the 3-player match-equity table shown (target 18)."""
BLIND_DEALS = 250
"""Deals per score and dealer of the blind-bet table (x10 with --full)."""
BLIND_SCORES = ((11, 17), (14, 17))
"""The blind-bet table's scores (target 18, the other team gestrichen; S1's example of §8.14)."""


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def threshold_chart(first: pd.DataFrame, level: pd.DataFrame, target: int) -> Figure:
    """Hold thresholds P(win)* by value v: first order without and with stands per figure, and the
    game-level threshold at a few scores (match equity)."""
    fig = _figure(7.5, 3.6)
    ax = fig.add_subplot()
    for key, style in (("gleich", "o-"), ("hanger", "s-")):
        rows = first[first.figure == key]
        ax.plot(rows.value, rows.hold_p_stands, style, label=f"{key}, first order with stands", alpha=0.8)
    plain = first[first.figure == "gleich"]
    ax.plot(plain.value, plain.hold_p, "k--", label="first order, no stands: 1/(2(v+1))")
    for a, b in ((0, target - 2), (target - 2, 0), (target - 3, target - 3)):
        rows = level[(level.a == a) & (level.b == b) & (level.dealer == "a")]
        ax.plot(rows.value, rows.hold_p, ":", marker=".", label=f"game level at {a}:{b} (own deal)")
    ax.set_xlabel("value v before the bet (a bet proposes v+1)")
    ax.set_ylabel("hold if P(win the figure) >")
    ax.set_title("When to hold a bet instead of saying gut", loc="left", fontsize=11)
    ax.legend(fontsize=7, ncol=2)
    ax.set_ylim(0, 1)
    return fig


def equity_chart(equity: pd.DataFrame, target: int, note: str) -> Figure:
    """Heat map of W(a, b) = P(the team on a wins the game against the team on b), the team on a to deal."""
    grid = equity[equity.deals == "a"].pivot(index="a", columns="b", values="W").to_numpy()
    fig = _figure(5.6, 4.8)
    ax = fig.add_subplot()
    image = ax.imshow(grid, origin="lower", cmap="RdBu", vmin=0, vmax=1)
    for a in range(target):
        for b in range(target):
            ax.text(b, a, f"{grid[a, b]:.2f}", ha="center", va="center", fontsize=6)
    ax.set_xlabel("opponents' score b")
    ax.set_ylabel("own score a")
    ax.set_title(f"Match equity W(a, b), target {target}", loc="left", fontsize=11, pad=16)
    ax.annotate(note, xy=(0, 1), xycoords="axes fraction", xytext=(0, 4), textcoords="offset points", fontsize=7,
                color="#555555")
    fig.colorbar(image, ax=ax, shrink=0.8, label="P(win the game)")
    return fig


def _tournament_rows(frame: pd.DataFrame) -> list[str]:
    rows = []
    for _, r in frame.iterrows():
        ppd = f'<td class="est">{r["ppd_mean"]:.3f} <span class="ci">[{r["ppd_lo"]:.3f}, {r["ppd_hi"]:.3f}]</span></td>'
        rows.append(f"<th>{esc(r['policy'])}</th><td>{esc(r['opponent'])}</td>"
                    + estimate_cell(r["win_p"], r["win_lo"], r["win_hi"]) + ppd
                    + f'<td class="num">{int(r["games"]):,}</td>')
    return rows


def _first_order_rows(first: pd.DataFrame, weakest: pd.DataFrame) -> list[str]:
    """Table A's rows with the weakest hold facing the opponents' bet (table F: its class, d and interval)."""
    facing = {(r.figure, r.value): r for _, r in weakest.iterrows()}
    rows = []
    for _, r in first.iterrows():
        f = facing[r["figure"], r["value"]]
        held = (f"{esc(f['class'])} <span class=\"ci\">d {f['d']:+.3f} [{f['lo']:+.3f}, {f['hi']:+.3f}]</span>"
                if f["code"] >= 0 else esc(f["class"]))
        rows.append(f"<th>{esc(r['figure'])}</th><td class=\"num\">{r['value']}</td>"
                    f"<td class=\"num\">{r['hold_d']:.3f}</td><td class=\"num\">{r['hold_p']:.3f}</td>"
                    f"<td class=\"num\">{r['hold_p_stands']:.3f}</td><td class=\"num\">{r['bluff_c']:.3f}</td>"
                    f"<td>{esc(r['weakest_hold'])}</td><td>{'' if f['settled'] else '~'}{held}</td>")
    return rows


def _three_rows(tables: list[pd.DataFrame]) -> list[str]:
    from analysis.games import betting

    rows = []
    for frame in tables:
        game = betting.style_title(frame.attrs["style"])
        rows += [f"<th>{esc(game)}</th><td>{esc(r['figure'])}</td><td class=\"num\">{r['value']}</td>"
                 f"<td class=\"num\">{r['accept_d']:.3f}</td><td class=\"num\">{r['accept_p']:.3f}</td>"
                 f"<td class=\"num\">{r['stand']:.3f}</td><td class=\"num\">{r['accept_p_stands']:.3f}</td>"
                 f"<td>{esc(r['weakest_accept'])}</td>" for _, r in frame.iterrows()]
    return rows


def _three_equity_rows(tables: dict[str, pd.DataFrame]) -> list[str]:
    """W(a; b, b) with him to deal next, at `THREE_SCORES` (rows a, columns b)."""
    equity = tables["match_equity"]
    him = equity[(equity.dealer == "him") & (equity.b == equity.c)].set_index(["a", "b"])
    return [f"<th>{a}</th>" + "".join(estimate_cell(him.W[a, b], him.lo[a, b], him.hi[a, b]) for b in THREE_SCORES)
            for a in THREE_SCORES]


def _three_accept_rows(tables: dict[str, pd.DataFrame]) -> list[str]:
    """Game-level accept thresholds, the answerer having dealt, v = 1 and 2 per score (a, b, c); '-' for a bet §8.6
    forbids."""
    from analysis.games import betting

    level = tables["game_level"]
    rows = []
    for (a, b, c), group in level[level.dealt == "him"].groupby(["a", "b", "c"]):
        shown = {r.value: estimate_cell(r.accept_p, r.lo, r.hi) for r in group.itertuples()}
        cells = "".join(shown.get(v, "<td>- (§8.6)</td>") for v in betting.THREE_VALUES)
        rows.append(f'<td class="num">{a}</td><td class="num">{b}</td><td class="num">{c}</td>{cells}')
    return rows


def _blind_rows(blind: pd.DataFrame) -> list[str]:
    """W without a blind bet and the change by each blind bet (`betting.paired_tables`), per score and dealer."""
    from analysis.games import betting

    rows = []
    for (a, b, dealt), arms in blind.groupby(["a", "b", "dealt"], sort=False):
        arm = arms.set_index("arm")
        none = arm.loc["none"]
        cells = [estimate_cell(none.W, none.lo, none.hi)]
        cells += [f'<td class="num">{arm.loc[name, "d"]:+.3f} [{arm.loc[name, "d_lo"]:+.3f}, '
                  f'{arm.loc[name, "d_hi"]:+.3f}]</td>' for name in list(betting.BLIND_ARMS)[1:]]
        rows.append(f"<td>{a}:{b}</td><td>{'A' if dealt == 'a' else 'B'}</td>" + "".join(cells))
    return rows


def section(ctx: Context) -> Section:
    """Giltspiel betting: §10.6 thresholds, the match-equity table from self-play, a policy round robin."""
    from analysis.games import betting

    games = GAMES * (10 if ctx.full else 1)
    run_kw = ctx.run_kw if ctx.full else {**ctx.run_kw, "jobs": 1}  # small runs: worker start-up would dominate
    section = Section("betting", "Giltspiel betting: thresholds and policies (and Perlaggen: three players, blind "
                                 "bets)", "")
    sub = [("betting-a", "A. Hold and bet thresholds"), ("betting-b", "B. Match equity"),
           ("betting-c", "C. Policy tournament"), ("betting-d", "D. Three players: accept thresholds"),
           ("betting-e", "E. Perlaggen: blind bets")]
    section.toc = sub
    class_deals, facing = (size * (10 if ctx.full else 1) for size in (CLASS_DEALS, FACING_DEALS))
    tables = ctx.run("Giltspiel thresholds, match equity and facing a bet (self-play games, deals near the end)",
                     f"cardsim thresholds giltspiel --target {TARGET} --games {games} --class-deals {class_deals} "
                     f"--facing {facing} --seed {ctx.seed}", games, betting.thresholds, GAME, TARGET, games, ctx.seed,
                     class_deals=class_deals, facing=facing, **run_kw)
    first, equity, level = tables["first_order"], tables["match_equity"], tables["game_level"]
    facing_at = tables["facing"].attrs
    tourney = ctx.run("Giltspiel betting round robin", f"cardsim tournament giltspiel --policies {','.join(POLICIES)} "
                      f"--games {games} --seed {ctx.seed}", games * 3, betting.tournament, GAME, list(POLICIES),
                      games, ctx.seed, TARGET, **run_kw)
    reader = ctx.run("Giltspiel: the formula reading the bet against the formula",
                     f"cardsim match giltspiel --a {READER_FILE} --b formula --games {games} --target {TARGET} "
                     f"--seed {ctx.seed}", games, betting.match, GAME, READER, "formula", games, ctx.seed, TARGET,
                     **run_kw)
    three = [ctx.run(f"Perlaggen 3-player thresholds ({style}, cached tables)",
                     f"cardsim thresholds perlaggen --players 3{' --straf' if style == 'straf' else ''}", 0,
                     betting.thresholds3, style) for style in ("innsbruck", "straf")]
    three_games, three_deals = (size * (10 if ctx.full else 1) for size in (THREE_GAMES, THREE_CLASS_DEALS))
    three_equity = ctx.run("Perlaggen 3-player match equity (self-play games and deals by limit class)",
                           f"cardsim thresholds perlaggen --players 3 --games {three_games} --class-deals "
                           f"{three_deals} --seed {ctx.seed}", three_games + THREE_NEAR_CLASSES * three_deals,
                           betting.equity3, "formula", three_games, ctx.seed, class_deals=three_deals,
                           threads=ctx.run_kw.get("jobs", 1), **run_kw)  # threads start at no cost
    three_at = three_equity["match_equity"].attrs
    blind_deals = BLIND_DEALS * (10 if ctx.full else 1)
    scores = ",".join(f"{a}:{b}" for a, b in BLIND_SCORES)
    blind = ctx.run("Perlaggen blind bets (each deal five times, each game played out)",
                    f"cardsim thresholds perlaggen --seed {ctx.seed} --blind {scores} --paired-deals {blind_deals}",
                    blind_deals * len(BLIND_SCORES) * 10, betting.paired_tables, "perlaggen", "formula", ctx.seed,
                    blind=list(BLIND_SCORES), paired_deals=blind_deals, **ctx.run_kw)["blind"]
    section.charts["betting-thresholds.png"] = threshold_chart(first, level, TARGET)
    at = first.attrs
    note = (f"formula policy: {at['far_deals']:,} far deals of {at['games']:,} self-play games, {at['class_deals']:,} "
            f"deals a near class, seed {ctx.seed}")
    section.charts["betting-equity.png"] = equity_chart(equity, TARGET, note)
    start = equity[(equity.a == 0) & (equity.b == 0) & (equity.deals == "a")].iloc[0]
    section.body = "\n".join([
        "<p>Every figure starts at 1 point and each held bet adds 1 (rules: <code>giltspiel.md</code> §7). The "
        "engine (<code>simcore.betting</code>) plays whole deals: bets, holds, raises and <em>gut</em> in a window "
        "before every card, the fifth-trick Spiel bet, the showing with its freeze rule, verification and the "
        "§7.10 scoring order, to the target. Cards are played by the greedy policy of §10.5; a betting policy "
        "compares d = P(win) - P(lose) of a figure, estimated from its team's two hands (partners signal openly), "
        "with thresholds.</p>",
        f'<h3 id="{sub[0][0]}">{sub[0][1]}</h3>',
        "<p>First order (§10.6, the points of one figure): facing a bet from v to v+1, holding gives (v+1)·d and "
        "<em>gut</em> gives -v, so hold iff d &gt; -v/(v+1). Stands lower the P(win) needed. The weakest class is "
        "the weakest best figure of the team's two hands whose d clears the threshold. That class ignores what the "
        "bet tells: the last column weighs each deal by the chance that opponents with its hands made the bet "
        f"(the bets on the figure alternating from value 1; {facing_at['policy']} opponents, partners signalling, "
        f"{facing_at['n']:,} deals; <code>cardsim thresholds giltspiel --facing</code>, table F), with d and its "
        "95% interval; '~': an interval of it or of a weaker class crosses the line. The game-level curves "
        "replace points by the chance to win the game (section B) at the scores shown.</p>",
        table(["figure", "v", "hold if d &gt;", "hold if P(win) &gt;", "with stands", "bluff c* (d = -1)",
               "weakest class that holds", "facing their bet"], _first_order_rows(first, tables["facing_weakest"]),
              "First-order thresholds per figure and value"),
        figure_html("betting-thresholds.png", "hold thresholds by value",
                    "Hold thresholds: first order (with the figure's mean stand rate) and by match equity."),
        f'<h3 id="{sub[1][0]}">{sub[1][1]}</h3>',
        f"<p>W(a, b) for the team on a dealing next (the deal passes on after every deal; the other team dealing: "
        "1 - W(b, a)), solved over a model of single deals with one per-deal points distribution for every pair "
        "of limit classes (each team's distance to the target, 1 to 7 or 8 and more), since the limits of §7.11 "
        f"near the end (gestrichen at {TARGET - 1}) change what a deal can score: the far pair from the deals of "
        "self-play games that began 8 or more points short for both teams, every other pair from deals dealt at "
        f"its scores ({note}). A failed example duty moves a team back (-2); when both teams reach the target in "
        "one deal, the §7.10 scoring order decides. "
        f"W(0, 0) = {start.W:.3f} [{start.lo:.3f}, {start.hi:.3f}] (95% parametric bootstrap, class by class).</p>",
        figure_html("betting-equity.png", "match equity heat map", f"Match equity, target {TARGET}."),
        f'<h3 id="{sub[2][0]}">{sub[2][1]}</h3>',
        f"<p>Round robin, {games:,} games per pairing with duplicate deals (each deal sequence played twice with the "
        f"seats swapped), target {TARGET}, seed {ctx.seed}. Game-win rates with 95% Wilson intervals; points per "
        "deal with 95% intervals (games as clusters). Presets: <em>formula</em> = the §10.6 thresholds, "
        "<em>cautious</em> bets only strong figures up to 4 and concedes a hopeless Spiel, <em>aggressive</em> bets "
        "on d &gt; -0.05, holds loosely and bluffs 15% of figures, <em>never</em> never bets.</p>",
        table(["policy", "opponent", "game-win rate", "points per deal", "games"], _tournament_rows(tourney),
              "Betting policies, round robin"),
        "<p>Reading the bet: <em>reader</em> is the formula, except that it answers a bet on the Gleich or the "
        "Hanger (before the showing) with the d of its class given that formula opponents made that bet, after a "
        "hold or as a raise (the quantity of table F, <code>cardsim thresholds giltspiel --facing</code>, which "
        "pools the two), instead of d over all deals, and bets on by that d. Against the formula on the same "
        "duplicate deals "
        f"({games:,} games):</p>",
        table(["policy", "opponent", "game-win rate", "points per deal", "games"],
              _tournament_rows(pd.DataFrame(betting.match_rows(reader))), "Reading the bet against the formula"),
        f'<h3 id="{sub[3][0]}">{sub[3][1]}</h3>',
        "<p>Perlaggen for three, each for himself (<code>perlaggen.md</code> §9.4), and Strafperlaggen (§9.5, "
        "counting down from 9, a failed commitment adds its level). One player answers a bet from v to v+1 "
        "(at most 3), the figure then between the bettor and him; the payoff is his points minus the mean of the "
        "other two players' (conceding gives the bettor v). Plain: accept iff d &gt; -(2v/(v+1) + 1 - s)/3, "
        "with no stands P(win) &gt; 1/(3(v+1)); Straf: d &gt; -(2c+v)/(3(v+1)) (Spiel: + s/3), c = 0 for a bet "
        "and 2 for the bettor answering the raise, whom conceding costs his level. The stand rate s is "
        "P(two players' best examples are equal), for the Spiel P(nobody takes 4 of 7 tricks) in G1 play. The "
        "weakest class is the weakest own best figure whose d against one other player clears the threshold "
        "(a lower bound: a bettor is stronger than a random player).</p>",
        table(["game", "figure", "v", "accept if d &gt;", "P(win) &gt;", "stand s", "with stands", "weakest class"],
              _three_rows(three), "First-order accept thresholds for one player against the bettor (3 players)"),
        "<p>At game level (plain game, target 18): W(a; b, c) = P(the player on a wins the game | his left on b, "
        "his right on c), by value iteration over the deals' outcomes as the dealer sees them (awards in the §8.12 "
        "order, failed examples) with the formula policy in all three seats, one distribution per limit class (each "
        "player 1 to 3, or 4 and more points from the target: §8.6 closes bets near it): the far class from "
        f"self-play ({three_at['games']:,} games, {three_at['far_deals']:,} of their {three_at['deals']:,} deals), "
        f"each of the {THREE_NEAR_CLASSES} others from {three_at['class_deals']:,} deals dealt at its scores (seed "
        f"{ctx.seed}; 95% parametric bootstrap, wide near the end at this size). The "
        "accept threshold compares W after winning the figure, after losing it and after conceding it, the bettor "
        "on the answerer's left, the third player having said gut, the answerer's own deal; '-' marks a bet §8.6 "
        "forbids (conceding it would put the bettor on the target).</p>",
        table(["a \\ b"] + [str(b) for b in THREE_SCORES], _three_equity_rows(three_equity),
              "3 players: W(a; b, b), both others on b, he deals next"),
        table(["a (answerer)", "b (bettor)", "c (third)", "v = 1 (a bet of 2)", "v = 2 (a raise to 3)"],
              _three_accept_rows(three_equity), "3 players: game-level accept threshold P(win the figure)*"),
        f'<h3 id="{sub[4][0]}">{sub[4][1]}</h3>',
        "<p>Four-player Perlaggen (<code>perlaggen.md</code> §8.14, spec Q13): is a blind bet worth it for a team "
        "far behind when the other team is gestrichen? Before the cut the first player of team A after the dealer "
        "bets blind, at 2, on one figure or on all three (&ldquo;Höll auf!&rdquo;); the others answer after seeing "
        "their hands, then both teams bet by the formula policy and the game is played out to its end (target 18). "
        "Each deal is played five times with the same cards and bluff draws. The first column is W = P(A wins the "
        "game) without a blind bet (95% Wilson interval); the others are the change in W the blind bet makes, on "
        f"the same deals ({blind_deals:,} per row, seed {ctx.seed}; Tango's 95% interval for paired shares). The "
        "gain comes mostly from the accepting team's example duty (§8.9) and its Perlaggen tied to the examples, so "
        "it holds for answerers who accept like this policy (see the README).</p>",
        table(["score a:b", "dealt", "W, no blind bet", "Δ Gleich", "Δ Hanger", "Δ Spiel", "Δ Höll auf!"],
              _blind_rows(blind), "Perlaggen: the change in P(A wins the game) by a blind bet"),
    ])
    return section
