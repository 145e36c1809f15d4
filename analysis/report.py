"""The statistical report: ``cardsim report`` writes ``<out>/index.html`` and its PNG charts.

The page is plain HTML and CSS (no JavaScript, nothing fetched from elsewhere). It is built from a list
of section builders, `GAME_SECTIONS`: each takes the `Context` (sample sizes, seed, jobs, and a
`Context.run` helper that times and records every simulation for the Methods section) and returns a
`Section` (its HTML, its table-of-contents entries and its charts). A later game adds its part of the
report by appending one function to that list. The fixed sections "How to read the intervals" and
"Methods" follow the game sections.

Every file is written atomically (a temporary file in the same folder, then ``os.replace``), charts
first and ``index.html`` last, so a reader never sees a half-written page.
"""

from __future__ import annotations

import argparse
import html
import io
import os
import platform
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

import pandas as pd

from analysis.commands import positive_int
from analysis.stats import Estimate, wilson
from simcore.errors import CardsimError
from simcore.rng import BLOCK_DEALS, normalize_seed
from simcore.runner import DEFAULT_CHUNK_DEALS

DEFAULT_OUT = "reports"
DEFAULT_N = 10_000_000
"""Deals for the table statistics; about 5 s on 2 cores (the spec's §10.4 baselines use the same size)."""
DEFAULT_HAND_N = 1_000_000
"""Deals per example hand."""
FULL_FACTOR = 10
DEFAULT_SEED = 20261129
DEFAULT_JOBS = 2


# --- arguments --------------------------------------------------------------------------------
def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """--out, --n, --hand-n, --full, --seed, --jobs, --no-progress."""
    parser.add_argument("--out", default=DEFAULT_OUT, help=f"folder for index.html and the charts (default '{DEFAULT_OUT}')")
    parser.add_argument("--n", type=positive_int, default=DEFAULT_N,
                        help=f"uniform deals for the table statistics (default {DEFAULT_N:,})")
    parser.add_argument("--hand-n", type=positive_int, default=DEFAULT_HAND_N,
                        help=f"deals per example hand (default {DEFAULT_HAND_N:,})")
    parser.add_argument("--full", action="store_true",
                        help=f"{FULL_FACTOR}x larger samples (multiplies --n and --hand-n)")
    parser.add_argument("--seed", default=DEFAULT_SEED,
                        help=f"random seed of every simulation (default {DEFAULT_SEED}, so the report is reproducible)")
    parser.add_argument("--jobs", type=positive_int, default=DEFAULT_JOBS,
                        help=f"worker processes (default {DEFAULT_JOBS}); the numbers do not depend on it")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")


# --- the pieces of a report -------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One simulation behind the report, as the Methods section lists it."""

    what: str
    n: int
    seed: int
    seconds: float
    command: str


@dataclass
class Section:
    """A top-level section: ``toc`` lists its (anchor id, heading) subsections; charts map file -> Figure."""

    id: str
    title: str
    body: str
    toc: list[tuple[str, str]] = field(default_factory=list)
    charts: dict = field(default_factory=dict)


@dataclass
class Context:
    """What a section builder may use: the settings, and `run` to time and record a simulation."""

    n: int
    hand_n: int
    seed: int
    jobs: int
    progress: bool | None
    full: bool
    runs: list[Run] = field(default_factory=list)

    @property
    def run_kw(self) -> dict:
        """Runner keywords; no checkpoints: even a --full report takes only a minute or two."""
        return {"jobs": self.jobs, "progress": self.progress, "checkpoint": False}

    def run(self, what: str, command: str, deals: int, func: Callable, /, *args, **kwargs):
        """``func(*args, **kwargs)`` of ``deals`` deals, timed and recorded as a `Run` (command: the
        equivalent command line)."""
        start = time.perf_counter()
        result = func(*args, **kwargs)
        self.runs.append(Run(what, deals, self.seed, time.perf_counter() - start, command))
        return result


def _context(args: argparse.Namespace) -> Context:
    factor = FULL_FACTOR if getattr(args, "full", False) else 1
    jobs = int(getattr(args, "jobs", DEFAULT_JOBS))
    if jobs < 1:
        raise CardsimError(f"--jobs must be at least 1, got {jobs}")
    return Context(
        n=int(getattr(args, "n", DEFAULT_N)) * factor,
        hand_n=int(getattr(args, "hand_n", DEFAULT_HAND_N)) * factor,
        seed=normalize_seed(getattr(args, "seed", DEFAULT_SEED)),
        jobs=jobs,
        progress=False if getattr(args, "no_progress", False) else None,
        full=factor > 1,
    )


# --- HTML helpers -----------------------------------------------------------------------------
def esc(value) -> str:
    return html.escape(str(value))


def _digits(hi: float) -> int:
    """Decimals that show a small probability's interval: 4 down to 0.01, then more."""
    return 4 if hi >= 0.01 else 5 if hi >= 0.001 else 6


def fmt_p(x: float, digits: int = 4) -> str:
    return f"{max(float(x), 0.0):.{digits}f}"


def estimate_cell(p: float, lo: float, hi: float) -> str:
    """``<td>`` with p and its [lo, hi] interval."""
    d = _digits(hi)
    return (f'<td class="est"><span class="p">{fmt_p(p, d)}</span> '
            f'<span class="ci">[{fmt_p(lo, d)}, {fmt_p(hi, d)}]</span></td>')


def row_cell(row) -> str:
    return estimate_cell(row["p"], row["lo"], row["hi"])


def n_cell(n) -> str:
    return f'<td class="num">{int(n):,}</td>'


def table(headers: list[str], rows: list[str], caption: str | None = None, cls: str = "") -> str:
    """rows: the inner HTML of each ``<tr>``."""
    head = "".join(f"<th>{h}</th>" for h in headers)
    cap = f"<caption>{caption}</caption>" if caption else ""
    body = "\n".join(f"<tr>{r}</tr>" for r in rows)
    return f'<table class="{cls}">{cap}\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table>'


def figure_html(filename: str, alt: str, caption: str) -> str:
    return (f'<figure><img src="{esc(filename)}" alt="{esc(alt)}">'
            f"<figcaption>{caption}</figcaption></figure>")


# --- Giltspiel --------------------------------------------------------------------------------
@dataclass(frozen=True)
class ExampleHand:
    hand: str
    why: str
    turnup: str | None = None
    known: tuple[tuple[int, str], ...] = ()
    given: tuple[str, ...] = ()
    """Conditions on other hands, as a bet reveals them (``cardsim odds --given``)."""


GILTSPIEL_SEAT = 1
GILTSPIEL_EXAMPLES = (
    ExampleHand("LA SA H10 E9 E8", "pair of Aces and a 9-8 run"),
    ExampleHand("LA SA H10 E9 E8", "the same hand after seeing seat 2 (an opponent) play EA", known=((2, "EA"),)),
    ExampleHand("LA SA H10 E9 E8", "the same hand when the opponents show (bet) a pair of Obers or better",
                given=("opponents gleich >= pair of Obers",)),
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


def _giltspiel_outcome(tables, sid: str) -> str:
    t = tables["outcome"]
    names = {"team0": "team 0 wins", "team1": "team 1 wins", "stand": "stands (tie)", "void": "void (nobody)"}
    order = list(dict.fromkeys(t["outcome"]))
    rows = []
    for figure, part in t.groupby("figure", sort=False):
        part = part.set_index("outcome")
        rows.append(f"<th>{esc(figure.capitalize())}</th>" + "".join(row_cell(part.loc[o]) for o in order)
                    + n_cell(part["n"].iloc[0]))
    return (f'<h3 id="{sid}">A. Figure outcome per deal</h3>'
            + table(["figure"] + [esc(names.get(o, o)) for o in order] + ["n (deals)"], rows,
                    "P(outcome) over uniform deals, p [95% interval]"))


def _cumulative(frame: pd.DataFrame) -> list[tuple[float, float, float]]:
    """P(best >= this class) with its Wilson interval, rows strongest first."""
    out, total = [], 0
    for s, n in zip(frame["successes"], frame["n"]):
        total += int(s)
        lo, hi = wilson(total, int(n))
        out.append((total / int(n), lo, hi))
    return out


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
        rows = [f"<th>{esc(r['label'])}</th>" + row_cell(r) + estimate_cell(*cum) + n_cell(r["n"])
                for (_, r), cum in zip(frame.iterrows(), _cumulative(frame))]
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
    rows = []
    for label, part in frame.groupby("own_class", sort=False):
        part = part.set_index("outcome")
        rows.append(f"<th>{esc(label)}</th>" + "".join(row_cell(part.loc[o]) for o in outcomes)
                    + n_cell(part["n"].iloc[0]))
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
        command += f" --n {ctx.hand_n} --seed {ctx.seed}"
        extra = {"given": ex.given} if ex.given else {}
        frame = ctx.run(f"Giltspiel odds of {ex.hand}" + (f", turn-up {ex.turnup}" if ex.turnup else "")
                        + "".join(f", seat {s} holds {c}" for s, c in ex.known)
                        + "".join(f", given {c}" for c in ex.given),
                        command, ctx.hand_n, giltspiel.odds, ex.hand, seat=GILTSPIEL_SEAT, turnup=ex.turnup,
                        known=known, n=ctx.hand_n, seed=ctx.seed, **extra, **ctx.run_kw)
        a = frame.attrs
        facts = []
        if a["turnup"]:
            facts.append(f"turn-up {esc(a['turnup'])}")
        facts += [f"seat {s} holds {esc(c)}" for s, c in a["known"].items()]
        facts += [f"given {esc(c)} ({a['n']:,} of {a.get('attempted', a['n']):,} deals met it)"
                  for c in a.get("given", ())]
        outcomes = list(dict.fromkeys(frame["outcome"]))
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
        "Reproduce a row with <code>cardsim odds giltspiel</code> (the commands are listed under Methods).</p>",
        table([f"hand (seat {GILTSPIEL_SEAT})", "also known", "figure: own best", "P(win)", "P(stand)", "P(lose)", "P(void)",
               "n (deals)"], rows, "Conditional figure odds, p [95% interval]", cls="examples"),
    ])


def _giltspiel_exact(sid: str) -> str:
    from analysis.games import giltspiel

    tables = giltspiel.exact()
    facts = tables["facts"]
    rows = [f"<th>{esc(r['event'])}</th>" + n_cell(r["hands"]) + f'<td class="num">{esc(r["fraction"])}</td>'
            + f'<td class="num">{r["p"]:.6f}</td>' for _, r in facts.iterrows()]
    total = facts.attrs["hands"]
    return "\n".join([
        f'<h3 id="{sid}">F. Exact single-hand facts</h3>',
        f"<p>Counted over all {total:,} possible five-card hands (no sampling, so no interval): the chance "
        "that one given hand has the property.</p>",
        table(["event", "hands", "exact P", "P"], rows, f"Single-hand facts, exact over {total:,} hands"),
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
    return "\n".join([
        f'<h3 id="{sid}">G. The Spiel by trumps held</h3>',
        f"<p>P(forehand's team, seats 1 and 3, takes 3 of the 5 tricks) by the number of trumps the team holds, "
        f"over {n:,} uniform deals per method: all four seats play random legal cards, the greedy policy of "
        "spec §10.5, or perfectly with every hand visible (double dummy). Double dummy is the "
        "perfect-information value of the deal, not a bound on real play. The random and greedy columns "
        "reproduce the spec's baselines (§10.5).</p>",
        table(["team trumps"] + [name for _, name in SPIEL_METHODS] + ["n (deals)"], rows,
              "P(forehand's team wins the Spiel), p [95% interval]"),
    ])


def giltspiel_section(ctx: Context) -> Section:
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


# --- Three-player Pinochle ----------------------------------------------------------------------
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


def pinochle3_section(ctx: Context) -> Section:
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


# --- Perlaggen ---------------------------------------------------------------------------------
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


def perlaggen_section(ctx: Context) -> Section:
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


GAME_SECTIONS: list[Callable[[Context], Section]] = [giltspiel_section, perlaggen_section, pinochle3_section]
"""One builder per game section, in page order; a new game appends its builder here."""


# --- fixed sections ---------------------------------------------------------------------------
def intervals_section(ctx: Context) -> Section:
    lo, hi = wilson(ctx.n // 2, ctx.n)
    body = (
        "<p>Every simulated probability is shown as <span class=\"p\">p</span> "
        "<span class=\"ci\">[lo, hi]</span>: p is the fraction of the n simulated deals in which the event "
        "happened, and [lo, hi] is its 95% Wilson score interval. Read it as the range of true probabilities "
        "that agree with what was observed: if the whole report were run again with fresh seeds, about 95 in "
        "100 such intervals would contain the true value. The interval narrows as 1/√n: with the "
        f"{ctx.n:,} deals of tables A and B a probability near 0.5 is known to about ±{(hi - lo) / 2:.2g}, "
        "while a conditional row resting on a few hundred "
        "deals (a rare class in tables C and D) is far less certain. Unlike p ± 2 standard errors, the Wilson "
        "interval stays inside [0, 1] and is honest near 0 and 1: an event never seen in n deals still gets "
        "an upper bound of about 3.8/n.</p>"
        "<p>n is the number of deals behind that estimate: all simulated deals for tables A and B, only the "
        "deals in which the seat held that class for tables C and D, and the deals consistent with the known "
        "cards for the example hands. Intervals of different rows of one table come from the same deals and "
        "are not independent.</p>"
        f"<p>The numbers are reproducible: deals are drawn in fixed blocks of {BLOCK_DEALS:,} from streams "
        "spawned from the seed, and counts are summed over blocks, so the same seed and the same n give the "
        "same numbers whatever <code>--jobs</code> and however the work is split, on the same numpy build.</p>"
    )
    return Section("intervals", "How to read the intervals", body)


def _git(*args: str) -> str | None:
    try:
        done = subprocess.run(["git", *args], cwd=Path(__file__).resolve().parent, capture_output=True,
                              text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def code_version() -> dict[str, str]:
    import simcore

    commit = _git("rev-parse", "--short", "HEAD") or "unknown"
    if commit != "unknown" and _git("status", "--porcelain", "--untracked-files=no"):
        commit += " (with uncommitted changes)"
    return {"cardsim": simcore.__version__, "git commit": commit}


def library_versions() -> dict[str, str]:
    import matplotlib
    import numba
    import numpy

    return {"Python": platform.python_version(), "numpy": numpy.__version__, "numba": numba.__version__,
            "pandas": pd.__version__, "matplotlib": matplotlib.__version__,
            "platform": f"{platform.system()} {platform.machine()}"}


def _option_value(value) -> str:
    return f"<code>{esc(repr(value))}</code>"


def rule_options_html() -> str:
    from simcore.registry import games

    parts = []
    for name, game in sorted(games().items()):
        rows = [f"<th><code>{esc(o.name)}</code></th><td>{_option_value(o.default)}</td>"
                f"<td>{', '.join(_option_value(c) for c in o.choices) or '—'}</td><td>{esc(o.help)}</td>"
                for o in game.options]
        caption = f"{esc(game.title)} (<code>{esc(name)}</code>, {game.deck.n_cards}-card pack, rules {esc(game.rules_file)})"
        if rows:
            parts.append(table(["option", "default", "choices", "meaning"], rows, caption, cls="options"))
        else:
            parts.append(f"<p>{caption}: no rule options.</p>")
    return "\n".join(parts)


def methods_section(ctx: Context, started: float) -> Section:
    settings = [("uniform deals for the table statistics", f"{ctx.n:,}"),
                ("deals per example hand", f"{ctx.hand_n:,}"),
                ("larger samples (--full)", "yes" if ctx.full else "no"),
                ("seed (every simulation)", str(ctx.seed)),
                ("worker processes (--jobs)", str(ctx.jobs)),
                ("deals per random stream (block)", f"{BLOCK_DEALS:,}"),
                ("deals per work unit (chunk)", f"{DEFAULT_CHUNK_DEALS:,}"),
                ("interval", "95% Wilson score")]
    settings += list(code_version().items()) + list(library_versions().items())
    settings.append(("written", datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")))
    settings.append(("simulation time", f"{sum(r.seconds for r in ctx.runs):.1f} s "
                                        f"(report total {time.perf_counter() - started:.1f} s)"))
    runs = [f"<td>{esc(r.what)}</td>{n_cell(r.n)}<td class=\"num\">{r.seed}</td>"
            f"<td class=\"num\">{r.seconds:.1f}</td><td><code>{esc(r.command)}</code></td>" for r in ctx.runs]
    body = "\n".join([
        "<p>Deals are uniform random permutations of the pack (the example hands: uniform over the deals "
        "that agree with the known cards), sampled in parallel blocks and counted exactly; the probabilities "
        "are counts divided by n. The exact table is a full enumeration.</p>",
        table(["setting", "value"], [f"<th>{esc(k)}</th><td>{esc(v)}</td>" for k, v in settings],
              "Sample sizes, seed and software", cls="settings"),
        table(["simulation", "n (deals)", "seed", "seconds", "the same numbers from the command line"], runs,
              "Simulations behind the report", cls="runs"),
        "<h3 id=\"methods-options\">Rule options of the registered games</h3>",
        "<p>Every game the code knows, with the rule options and their defaults; the report uses the "
        "defaults.</p>",
        rule_options_html(),
    ])
    return Section("methods", "Methods", body, toc=[("methods-options", "Rule options of the registered games")])


# --- assembling and writing -------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 64rem;
       margin: 2rem auto; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { border-bottom: 2px solid #1565c0; padding-bottom: .3rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
h3 { margin-top: 2rem; }
nav.toc { background: #f5f7fa; border: 1px solid #dde3ea; padding: .5rem 1.5rem; }
nav.toc ul ul { margin: .1rem 0 .3rem; }
table { border-collapse: collapse; margin: 1rem 0; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { border: 1px solid #d6d6d6; padding: .2rem .5rem; vertical-align: top; }
thead th { background: #eef2f7; }
tbody th { text-align: left; font-weight: 500; background: #fafafa; }
td.est, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.ci { color: #666; font-size: .85em; }
.cards { font-family: ui-monospace, monospace; white-space: nowrap; }
figure { margin: 1rem 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .85rem; color: #555; }
code { font-size: .85em; }
table.options td:last-child, table.runs td:last-child { font-size: .85em; }
"""


def _page(sections: list[Section], ctx: Context) -> str:
    toc = []
    for s in sections:
        inner = "".join(f'<li><a href="#{esc(i)}">{esc(t)}</a></li>' for i, t in s.toc)
        toc.append(f'<li><a href="#{esc(s.id)}">{esc(s.title)}</a>' + (f"<ul>{inner}</ul>" if inner else "") + "</li>")
    body = "\n".join(f'<section id="{esc(s.id)}">\n<h2>{esc(s.title)}</h2>\n{s.body}\n</section>' for s in sections)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cardsim statistical report</title>
<style>{CSS}</style>
</head>
<body>
<h1>cardsim statistical report</h1>
<p>Monte-Carlo estimates for traditional trick-taking card games, each with its 95% interval and sample
size. {ctx.n:,} deals for the table statistics, seed {ctx.seed}.</p>
<nav class="toc"><h2 id="contents">Contents</h2>
<ul>{"".join(toc)}</ul>
</nav>
{body}
</body>
</html>
"""


def _write_atomic(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _prepare_folder(out: Path) -> None:
    """Create ``out`` and check it is writable, before any simulation runs."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".probe.", suffix=".tmp")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise CardsimError(f"cannot write the report to '{out}' ({exc.strerror or exc}); "
                           "pass a writable folder with --out") from None


def build_report(args: argparse.Namespace) -> Path:
    """Run the simulations, write ``<out>/index.html`` and its charts, return the page's path."""
    started = time.perf_counter()
    ctx = _context(args)
    out = Path(getattr(args, "out", DEFAULT_OUT)).expanduser()
    _prepare_folder(out)
    sections = [builder(ctx) for builder in GAME_SECTIONS]
    sections.append(intervals_section(ctx))
    charts = {name: fig for s in sections for name, fig in s.charts.items()}
    try:
        for name, fig in charts.items():
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=110)
            _write_atomic(out / name, buffer.getvalue())
        sections.append(methods_section(ctx, started))
        page = out / "index.html"
        _write_atomic(page, _page(sections, ctx).encode("utf-8"))
    except OSError as exc:
        raise CardsimError(f"cannot write the report to '{out}' ({exc.strerror or exc}); "
                           "pass a writable folder with --out") from None
    return page


if __name__ == "__main__":  # pragma: no cover
    from analysis.cli import main

    sys.exit(main(["report", *sys.argv[1:]]))
