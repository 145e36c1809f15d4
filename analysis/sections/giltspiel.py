"""Report section: Giltspiel (spec tables §10.4, example hands, exact facts, the Spiel)."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from analysis.report import Context, Section, esc, estimate_cell, figure_html, n_cell, row_cell, table
from analysis.stats import Estimate
from simcore.figures import RELATIVE_OUTCOMES

ORDER = 10
"""Place on the page: game sections are sorted by ORDER."""


@dataclass(frozen=True)
class ExampleHand:
    hand: str
    why: str
    turnup: str | None = None
    known: tuple[tuple[int, str], ...] = ()
    given: tuple[str, ...] = ()
    """Conditions on other hands, as a bet reveals them (``cardsim odds --given``)."""
    opponents_bet: tuple[str, ...] = ()
    """Figures the opponents bet, weighing the deals by the chance of it (``cardsim odds --opponents-bet``, spec Q7)."""
    opponents_policy: str | None = None


GILTSPIEL_SEAT = 1
GILTSPIEL_EXAMPLES = (
    ExampleHand("LA SA H10 E9 E8", "pair of Aces and a 9-8 run"),
    ExampleHand("LA SA H10 E9 E8", "the same hand after seeing seat 2 (an opponent) play EA", known=((2, "EA"),)),
    ExampleHand("LA SA H10 E9 E8", "the same hand when the opponents show (bet) a pair of Obers or better",
                given=("opponents gleich >= pair of Obers",)),
    ExampleHand("LA SA H10 E9 E8", "the same hand when the opponents bet the Gleich, if they play the aggressive "
                "preset (a pair of Kings or better, or a bluff 15% of the time)", opponents_bet=("gleich",),
                opponents_policy="aggressive"),
    ExampleHand("EK LK H9 S7 LU", "a pair of Kings when the opponents bet the Gleich from 3 to 4 (after their bet "
                "from 1 and their hold of a bet from 2), if they play the aggressive preset: a team bluffs once at "
                "most, so this bet is never a bluff", opponents_bet=("gleich:3",), opponents_policy="aggressive"),
    ExampleHand("EU E10 H9 H8 SK", "no pair, two 2-card runs; the turn-up LA is known", turnup="LA"),
    ExampleHand("EK LK HK S9 E7", "three of a kind (Kings)"),
    ExampleHand("HA HK HO S7 L8", "the top 3-card run A-K-O"),
    ExampleHand("EA L10 H8 SO E9", "nothing: no pair, no run"),
)


def _giltspiel_intro(ctx: Context) -> str:
    return (
        "<p>Giltspiel is played by four players in two partnerships (seats 0 and 2 against seats 1 and 3), "
        "five cards each from a 32-card pack; the figures Gleich (cards of equal rank) and Hanger (a run "
        "in one suit) are judged on the whole original hand, and the turn-up counts for no hand "
        "(rules: <code>giltspiel.md</code>, tables follow §10.4). A team <em>wins</em> a figure when one "
        "of its two hands holds the best one at the table (partners tying count as a win), the figure "
        "<em>stands</em> when the best hands of the two teams tie, and it is <em>void</em> when nobody "
        "holds one.</p>"
        f"<p>Tables A to D come from {ctx.n:,} uniform deals (seed {ctx.seed}); C and D are seen from seat "
        f"{GILTSPIEL_SEAT} (forehand, team {GILTSPIEL_SEAT % 2}). The example hands use {ctx.hand_n:,} deals "
        "each, dealt consistently with the hand and whatever else is known.</p>"
    )


def _outcome_rows(frame: pd.DataFrame, group: str, outcomes: list[str], label=str) -> list[str]:
    """One table row per ``group`` value: its label, p [lo, hi] of each outcome, and n."""
    rows = []
    for key, part in frame.groupby(group, sort=False):
        part = part.set_index("outcome")
        rows.append(f"<th>{esc(label(key))}</th>" + "".join(row_cell(part.loc[o]) for o in outcomes)
                    + n_cell(part["n"].iloc[0]))
    return rows


def _giltspiel_outcome(tables, sid: str) -> str:
    t = tables["outcome"]
    names = {"team0": "team 0 wins", "team1": "team 1 wins", "stand": "stands (tie)", "void": "void (nobody)"}
    order = list(dict.fromkeys(t["outcome"]))
    rows = _outcome_rows(t, "figure", order, str.capitalize)
    return (f'<h3 id="{sid}">A. Figure outcome per deal</h3>'
            + table(["figure"] + [esc(names.get(o, o)) for o in order] + ["n (deals)"], rows,
                    "P(outcome) over uniform deals, p [95% interval]"))


def _giltspiel_best(ctx: Context, tables, sid: str, section: Section) -> str:
    from analysis import charts

    parts = [f'<h3 id="{sid}">B. Best figure at the table</h3>',
             "<p>The class of the best Gleich and the best Hanger held by any of the four hands (the strongest "
             "class first). The cumulative column, P(best ≥ class), is the chance that somebody at the table "
             "holds this class or better.</p>"]
    note = f"n = {ctx.n:,} deals, 95% Wilson intervals"
    for fig in ("gleich", "hanger"):
        frame = tables[f"best_{fig}"]
        name = fig.capitalize()
        filename = f"giltspiel-best-{fig}.png"
        section.charts[filename] = charts.distribution_chart(
            frame, f"Best {name} at the table", category=f"best {name} class", note=note)
        parts.append(figure_html(filename, f"bar chart of the best {name} at the table",
                                 f"Best {name} at the table: P(exactly this class), bars with 95% intervals."))
        rows = [f"<th>{esc(r['label'])}</th>" + row_cell(r) + estimate_cell(r["cum"], r["cum_lo"], r["cum_hi"])
                + n_cell(r["n"]) for _, r in frame.iterrows()]
        parts.append(table([f"best {name}", "P(exactly this class)", "P(this class or better)", "n (deals)"],
                           rows, f"Best {name} at the table, p [95% interval]"))
    return "\n".join(parts)


def _giltspiel_by_class(ctx: Context, tables, fig: str, letter: str, sid: str, section: Section) -> str:
    from analysis import charts

    name = fig.capitalize()
    frame = tables[f"{fig}_by_class"]
    filename = f"giltspiel-{fig}-by-class.png"
    section.charts[filename] = charts.conditional_chart(
        frame, f"{name}: my team's outcome by my own best {name}", category=f"my own best {name}",
        note=f"seat {GILTSPIEL_SEAT}, n = {ctx.n:,} deals, 95% Wilson intervals")
    outcomes = list(dict.fromkeys(frame["outcome"]))
    rows = _outcome_rows(frame, "own_class", outcomes)
    return "\n".join([
        f'<h3 id="{sid}">{letter}. P(win / stand / lose on the {name} | my own best {name})</h3>',
        f"<p>Seat {GILTSPIEL_SEAT}'s team on the {name}, given only the class of seat {GILTSPIEL_SEAT}'s own best "
        f"{name}; n is the number of deals in which the seat held that class, so rare classes have wide "
        "intervals. P(void) is drawn only in the table: it is zero unless the seat holds no " + name + ".</p>",
        figure_html(filename, f"chart of win, stand and lose probabilities by own {name} class",
                    f"{name}: P(win), P(stand), P(lose) of seat {GILTSPIEL_SEAT}'s team by the seat's own best "
                    f"{name}, with 95% intervals."),
        table([f"my best {name}"] + [f"P({esc(o)})" for o in outcomes] + ["n (deals)"], rows,
              f"{name} outcome of seat {GILTSPIEL_SEAT}'s team by its own class, p [95% interval]"),
    ])


def _giltspiel_examples(ctx: Context, sid: str) -> str:
    from analysis.games import giltspiel

    rows = []
    for ex in GILTSPIEL_EXAMPLES:
        known = dict(ex.known)
        command = f'cardsim odds giltspiel --hand "{ex.hand}" --seat {GILTSPIEL_SEAT}'
        command += f" --turnup {ex.turnup}" if ex.turnup else ""
        command += "".join(f' --known "{s}:{c}"' for s, c in ex.known)
        command += "".join(f' --given "{c}"' for c in ex.given)
        command += "".join(f" --opponents-bet {f}" for f in ex.opponents_bet)
        command += f" --opponents-policy {ex.opponents_policy}" if ex.opponents_policy else ""
        command += f" --n {ctx.hand_n} --seed {ctx.seed}"
        extra = {"given": ex.given} if ex.given else {}
        if ex.opponents_bet:
            extra.update(opponents_bet=ex.opponents_bet, opponents_policy=ex.opponents_policy)
        frame = ctx.run(f"Giltspiel odds of {ex.hand}" + (f", turn-up {ex.turnup}" if ex.turnup else "")
                        + "".join(f", seat {s} holds {c}" for s, c in ex.known)
                        + "".join(f", given {c}" for c in ex.given)
                        + "".join(f", the opponents bet the {f.replace(':', ' from ')}" for f in ex.opponents_bet),
                        command, ctx.hand_n, giltspiel.odds, ex.hand, seat=GILTSPIEL_SEAT, turnup=ex.turnup,
                        known=known, n=ctx.hand_n, seed=ctx.seed, **extra, **ctx.run_kw)
        a = frame.attrs
        facts = []
        if a["turnup"]:
            facts.append(f"turn-up {esc(a['turnup'])}")
        facts += [f"seat {s} holds {esc(c)}" for s, c in a["known"].items()]
        facts += [f"given {esc(c)} ({a['n']:,} of {a.get('attempted', a['n']):,} deals met it)"
                  for c in a.get("given", ())]
        if "bets" in a:
            b = a["bets"]
            facts.append(f"the opponents {giltspiel.seen_text(b['seen'], b['values'])} (policy {esc(b['policy'])}, "
                         f"bluff {b['bluff']:g}; {a['n']:,} deals weighted, effective size {a['n_eff']:,.0f})")
        outcomes = RELATIVE_OUTCOMES + ("opponent_better",)
        for i, (figure, part) in enumerate(frame.groupby("figure", sort=False)):
            part = part.set_index("outcome")
            own = a["own_gleich"] if figure == "gleich" else a["own_hanger"]
            lead = ""
            if i == 0:
                lead = (f'<th rowspan="2" class="hand"><span class="cards">{esc(a["hand"])}</span><br>'
                        f'<small>{esc(ex.why)}</small></th>'
                        f'<td rowspan="2">{"; ".join(facts) or "nothing else"}</td>')
            rows.append(lead + f"<td>{esc(figure.capitalize())}: {esc(own)}</td>"
                        + "".join(row_cell(part.loc[o]) for o in outcomes) + n_cell(part["n"].iloc[0]))
    return "\n".join([
        f'<h3 id="{sid}">E. Odds of example hands</h3>',
        f"<p>P(win / stand / lose / void) of seat {GILTSPIEL_SEAT}'s team holding the hand, over deals of the "
        "other 27 cards consistent with what is known (the turn-up, cards seen in other hands, what a "
        "bet reveals about other hands; deals that contradict it are discarded, so n counts the deals kept). "
        "A bet seen can instead weigh every deal by the chance that the opponents, holding its hands, would have made "
        "it under a betting policy with bluffs (spec Q7); n is then the effective sample size (Kish's). "
        "The last probability is the spec's Q4: an opponent holds a better figure than the hand's own best (any "
        "figure when it holds none), whatever the partner holds. "
        "Reproduce a row with <code>cardsim odds giltspiel</code> (the commands are listed under Methods).</p>",
        table([f"hand (seat {GILTSPIEL_SEAT})", "also known", "figure: own best", "P(win)", "P(stand)", "P(lose)",
               "P(void)", "P(an opponent's is better)", "n (deals)"], rows,
              "Conditional figure odds, p [95% interval]", cls="examples"),
    ])


def _giltspiel_exact(sid: str) -> str:
    from analysis.games import giltspiel

    facts = giltspiel.exact()["facts"]
    wild = giltspiel.exact(perlique=True)["facts"].set_index("event")
    rows = [f"<th>{esc(r['event'])}</th>" + n_cell(r["hands"]) + f'<td class="num">{esc(r["fraction"])}</td>'
            + f'<td class="num">{r["p"]:.6f}</td>'
            + (f'<td class="num">{wild.loc[r["event"], "p"]:.6f}</td>' if r["event"] in wild.index
               else '<td class="num">-</td>') for _, r in facts.iterrows()]
    total, pairs = facts.attrs["hands"], wild.attrs["hands"]
    return "\n".join([
        f'<h3 id="{sid}">F. Exact single-hand facts</h3>',
        f"<p>Counted over all {total:,} possible five-card hands (no sampling, so no interval): the chance "
        "that one given hand has the property. The last column is the same chance in the variant \"Giltspiel mit 3 "
        "Perlique\" (§8, <code>--option perlique=true</code>: the trump's 7, Unter and Ober wild, each standing for "
        f"any card its hand lacks), exact over all {pairs:,} pairs of a turn-up and a hand of one trump suit; "
        "events that count ranks mean nothing with wild cards (-).</p>",
        table(["event", "hands", "exact P", "P", "P with 3 Perlique"], rows,
              f"Single-hand facts, exact over {total:,} hands"),
    ])


SPIEL_METHODS = (("random", "random legal play"), ("greedy", "greedy play (§10.5)"), ("dd", "double dummy"))


def _giltspiel_spiel(ctx: Context, sid: str) -> str:
    """P(forehand's team wins the Spiel) by the trumps the team holds, under each play method."""
    from simcore import runner
    from simcore.games import giltspiel as g
    from simcore.games import giltspiel_play as play

    n = max(ctx.hand_n // 5, 1)
    counts = {}
    for method, _ in SPIEL_METHODS:
        job = play.SpielJob(g.Known(), 1, method)
        counts[method] = ctx.run(f"Giltspiel Spiel, {method}", f"(Python API) SpielJob(Known(), 1, '{method}'), n={n}",
                                 n, runner.run, job, n, ctx.seed, **ctx.run_kw)
    bins = g.N_RANKS + 1
    rows = []
    for k in range(bins):
        held = [int(counts[m][2 + k]) for m, _ in SPIEL_METHODS]
        if held[0] == 0:
            continue
        cells = "".join(estimate_cell(est.p, est.lo, est.hi) for est in
                        (Estimate(int(counts[m][2 + bins + k]), int(counts[m][2 + k])) for m, _ in SPIEL_METHODS))
        rows.append(f"<th>{k}</th>" + cells + n_cell(held[0]))
    overall = "".join(estimate_cell(e.p, e.lo, e.hi) for e in
                      (Estimate(int(counts[m][1]), int(counts[m][0])) for m, _ in SPIEL_METHODS))
    rows.append("<th>all deals</th>" + overall + n_cell(counts["dd"][0]))
    other = "".join(estimate_cell(e.p, e.lo, e.hi) for e in
                    (Estimate(int(counts[m][0] - counts[m][1]), int(counts[m][0])) for m, _ in SPIEL_METHODS))
    rows.append("<th>all deals: dealer's team (seats 0 and 2)</th>" + other + n_cell(counts["dd"][0]))
    lead = ", ".join(f"{name} {2 * counts[m][1] / counts[m][0] - 1:+.3f}" for m, name in SPIEL_METHODS)
    return "\n".join([
        f'<h3 id="{sid}">G. The Spiel by trumps held</h3>',
        f"<p>P(forehand's team, seats 1 and 3, takes 3 of the 5 tricks) by the number of trumps the team holds, "
        f"over {n:,} uniform deals per method: all four seats play random legal cards, the greedy policy of "
        "spec §10.5, or perfectly with every hand visible (double dummy). Double dummy is the "
        "perfect-information value of the deal, not a bound on real play. The random and greedy columns "
        "reproduce the spec's baselines (§10.5).</p>",
        table(["team trumps"] + [name for _, name in SPIEL_METHODS] + ["n (deals)"], rows,
              "P(forehand's team wins the Spiel), p [95% interval]"),
        f"<p>Value of the lead: P(leading team wins) minus P(the other team wins), per method: {lead}. "
        "A positive value means the lead helps; a negative one that showing the first card of each trick (the "
        "others choose follow-or-trump after seeing it) costs more than choosing the suit gains. The "
        "double-dummy column against the policy columns shows how far perfect (all-hands-visible) play is "
        "from the simple policies.</p>",
    ])


def section(ctx: Context) -> Section:
    """Giltspiel: tables A-D of spec §10.4, example-hand odds and the exact single-hand facts."""
    from analysis.games import giltspiel

    section = Section("giltspiel", "Giltspiel", "")
    sub = [("giltspiel-a", "A. Figure outcome per deal"), ("giltspiel-b", "B. Best figure at the table"),
           ("giltspiel-c", "C. Gleich by my own best Gleich"), ("giltspiel-d", "D. Hanger by my own best Hanger"),
           ("giltspiel-e", "E. Odds of example hands"), ("giltspiel-f", "F. Exact single-hand facts"),
           ("giltspiel-g", "G. The Spiel by trumps held")]
    section.toc = sub
    tables = ctx.run("Giltspiel table statistics (tables A-D)",
                     f"cardsim stats giltspiel --seat {GILTSPIEL_SEAT} --n {ctx.n} --seed {ctx.seed}",
                     ctx.n, giltspiel.stats, n=ctx.n, seed=ctx.seed, seat=GILTSPIEL_SEAT, **ctx.run_kw)
    section.body = "\n".join([
        _giltspiel_intro(ctx),
        _giltspiel_outcome(tables, sub[0][0]),
        _giltspiel_best(ctx, tables, sub[1][0], section),
        _giltspiel_by_class(ctx, tables, "gleich", "C", sub[2][0], section),
        _giltspiel_by_class(ctx, tables, "hanger", "D", sub[3][0], section),
        _giltspiel_examples(ctx, sub[4][0]),
        _giltspiel_exact(sub[5][0]),
        _giltspiel_spiel(ctx, sub[6][0]),
    ])
    return section
