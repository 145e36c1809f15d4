"""The statistical report: ``cardsim report`` writes ``<out>/index.html`` and its PNG charts.

The page is plain HTML and CSS (no JavaScript, nothing fetched from elsewhere). It is built from a list
of section builders, one module per game in `analysis.sections` (``section(ctx)`` and ``ORDER``): each
takes the `Context` (sample sizes, seed, jobs, and a `Context.run` helper that times and records every
simulation for the Methods section) and returns a `Section` (its HTML, its table-of-contents entries
and its charts). A new game adds its part of the report by adding one module there. The fixed sections
"How to read the intervals" and "Methods" follow the game sections.

Every file is written atomically (a temporary file in the same folder, then ``os.replace``), charts
first and ``index.html`` last, so a reader never sees a half-written page.
"""

from __future__ import annotations

import argparse
import html
import importlib
import io
import os
import pkgutil
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

from analysis.commands import (MAX_COUNT, add_cluster_arguments, cluster_options, path_text, positive_int,
                               probe_writable, sample_count, seed_number)
from analysis.stats import wilson
from simcore.errors import CardsimError
from simcore.rng import BLOCK_DEALS, normalize_seed
from simcore.runner import DEFAULT_CHUNK_DEALS

DEFAULT_OUT = "reports"
DEFAULT_N = 10_000_000
"""Deals for the table statistics; about 5 s on 2 cores (the spec's §10.4 baselines use the same size)."""
DEFAULT_HAND_N = 1_000_000
"""Deals per example hand."""
MIN_HAND_N = 100
"""Fewest deals per example hand: an example conditioned on a bet keeps only the deals that meet it."""
FULL_FACTOR = 10
DEFAULT_SEED = 20261129
DEFAULT_JOBS = 2


# --- arguments --------------------------------------------------------------------------------
def add_report_arguments(parser: argparse.ArgumentParser) -> None:
    """--out, --n, --hand-n, --full, --seed, --jobs, --no-progress, --scheduler, --dask-workers."""
    parser.add_argument("--out", type=path_text, default=DEFAULT_OUT,
                        help=f"folder for index.html and the charts (default '{DEFAULT_OUT}')")
    parser.add_argument("--n", type=sample_count, default=DEFAULT_N,
                        help=f"uniform deals for the table statistics (default {DEFAULT_N:,})")
    parser.add_argument("--hand-n", type=positive_int, default=DEFAULT_HAND_N,
                        help=f"deals per example hand (default {DEFAULT_HAND_N:,}, at least {MIN_HAND_N})")
    parser.add_argument("--full", action="store_true",
                        help=f"{FULL_FACTOR}x larger samples (multiplies --n and --hand-n)")
    parser.add_argument("--seed", type=seed_number, default=DEFAULT_SEED,
                        help=f"random seed of every simulation (default {DEFAULT_SEED}, so the report is reproducible)")
    parser.add_argument("--jobs", type=positive_int, default=DEFAULT_JOBS,
                        help=f"worker processes (default {DEFAULT_JOBS}); the numbers do not depend on it")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    add_cluster_arguments(parser)


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
    cluster: dict = field(default_factory=dict)
    """Runner keywords scheduler / dask_workers when the simulations run on a Dask cluster."""

    @property
    def run_kw(self) -> dict:
        """Runner keywords; no checkpoints: even a --full report takes only a minute or two."""
        return {"jobs": self.jobs, "progress": self.progress, "checkpoint": False, **self.cluster}

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
    hand_n = int(getattr(args, "hand_n", DEFAULT_HAND_N))
    for flag, value in (("--n", int(getattr(args, "n", DEFAULT_N))), ("--hand-n", hand_n)):
        if value * factor > MAX_COUNT:
            raise CardsimError(f"{flag} {value:,} with --full is {factor} x {value:,} deals, more than the "
                               f"{MAX_COUNT:.0e} a run may hold; give at most {MAX_COUNT // factor:,} or drop --full")
    if hand_n * factor < MIN_HAND_N:
        least = f"{-(-MIN_HAND_N // factor)}{' with --full' if factor > 1 else ''}"
        raise CardsimError(f"--hand-n must be at least {least}, got {hand_n}: the example hands conditioned on a bet "
                           "need enough deals to keep some; pass a larger --hand-n")
    return Context(
        n=int(getattr(args, "n", DEFAULT_N)) * factor,
        hand_n=hand_n * factor,
        seed=normalize_seed(getattr(args, "seed", DEFAULT_SEED)),
        jobs=jobs,
        progress=False if getattr(args, "no_progress", False) else None,
        full=factor > 1,
        cluster=cluster_options(args),
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
    return f'<td class="num">{round(n):,}</td>'


def table(headers: list[str], rows: list[str], caption: str | None = None, cls: str = "") -> str:
    """rows: the inner HTML of each ``<tr>``."""
    head = "".join(f"<th>{h}</th>" for h in headers)
    cap = f"<caption>{caption}</caption>" if caption else ""
    body = "\n".join(f"<tr>{r}</tr>" for r in rows)
    return f'<table class="{cls}">{cap}\n<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody></table>'


def figure_html(filename: str, alt: str, caption: str) -> str:
    return (f'<figure><img src="{esc(filename)}" alt="{esc(alt)}">'
            f"<figcaption>{caption}</figcaption></figure>")



# --- game sections ----------------------------------------------------------------------------
def game_sections() -> list[Callable[[Context], Section]]:
    """The ``section(ctx)`` builder of every module in `analysis.sections`, sorted by its ``ORDER``."""
    import analysis.sections as package

    modules = [importlib.import_module(f"{package.__name__}.{m.name}") for m in pkgutil.iter_modules(package.__path__)]
    return [m.section for m in sorted(modules, key=lambda m: (m.ORDER, m.__name__))]


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
        caption = (f"{esc(game.title)} (<code>{esc(name)}</code>, {game.deck.n_cards}-card pack, "
                   f"rules {esc(game.rules_file)})")
        if rows:
            parts.append(table(["option", "default", "choices", "meaning"], rows, caption, cls="options"))
        else:
            parts.append(f"<p>{caption}: no rule options.</p>")
    return "\n".join(parts)


def _backend(ctx: Context) -> str:
    if "scheduler" in ctx.cluster:
        return f"Dask cluster at {ctx.cluster['scheduler']} (--scheduler)"
    if "dask_workers" in ctx.cluster:
        return f"local Dask cluster of {ctx.cluster['dask_workers']} worker processes (--dask-workers)"
    return f"{ctx.jobs} local worker process{'es' if ctx.jobs > 1 else ''} (--jobs)"


def methods_section(ctx: Context, started: float) -> Section:
    settings = [("uniform deals for the table statistics", f"{ctx.n:,}"),
                ("deals per example hand", f"{ctx.hand_n:,}"),
                ("larger samples (--full)", "yes" if ctx.full else "no"),
                ("seed (every simulation)", str(ctx.seed)),
                ("where the simulations ran", _backend(ctx)),
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
table { display: block; max-width: 100%; overflow-x: auto; }  /* a wide table scrolls, not the page */
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


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that ``path`` is either absent, old or complete: a hidden temporary
    file in the same folder, flushed to disk, then renamed over ``path``."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def prepare_folder(out: Path, what: str = "the report") -> None:
    """Create ``out`` and check it is writable, before any simulation runs (``what`` names the
    output in the error)."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe_writable(out)
    except OSError as exc:
        raise CardsimError(f"cannot write {what} to '{out}' ({exc.strerror or exc}); "
                           "pass a writable folder with --out") from None


def build_report(args: argparse.Namespace) -> Path:
    """Run the simulations, write ``<out>/index.html`` and its charts, return the page's path."""
    started = time.perf_counter()
    ctx = _context(args)
    out = Path(getattr(args, "out", DEFAULT_OUT)).expanduser()
    prepare_folder(out)
    if ctx.cluster:  # an unreachable scheduler fails now, not after the first sections
        from simcore.runner import dask_client

        dask_client(ctx.cluster.get("scheduler"), ctx.cluster.get("dask_workers"))
    sections = [builder(ctx) for builder in game_sections()]
    sections.append(intervals_section(ctx))
    charts = {name: fig for s in sections for name, fig in s.charts.items()}
    try:
        for name, fig in charts.items():
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=110)
            write_atomic(out / name, buffer.getvalue())
        sections.append(methods_section(ctx, started))
        page = out / "index.html"
        write_atomic(page, _page(sections, ctx).encode("utf-8"))
    except OSError as exc:
        raise CardsimError(f"cannot write the report to '{out}' ({exc.strerror or exc}); "
                           "pass a writable folder with --out") from None
    return page


if __name__ == "__main__":  # pragma: no cover
    from analysis.cli import main

    sys.exit(main(["report", *sys.argv[1:]]))
