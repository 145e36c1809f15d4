"""Scenario sweeps: ``cardsim sweep SCENARIO.toml [--out DIR]``.

A scenario file names a game, a quantity (a command with a table form, `Command.frame`: odds, stats,
...), the options every cell shares, a grid of options and the sample size::

    game = "giltspiel"
    command = "odds"
    seed = 2026                      # the scenario's seed; cell i gets the i-th SeedSequence child
    n = 100_000                      # deals per cell (or a list: then it is a grid axis)

    [fixed]                          # options of every cell: the command's long options without "--"
    hand = "LA SA H10 E9 E8"

    [grid]                           # one cell per combination (cartesian product, in file order)
    seat = [0, 1, 2, 3]
    turnup = ["L7", "HA"]

Every cell runs with its own seed, derived from the scenario's seed and the cell's index by
``SeedSequence(seed).spawn``, and becomes one Parquet file ``part-<cell>-<key>.parquet`` in the output
folder (default ``sweeps/<scenario name>``), one row per estimate: scenario, game, quantity, cell, the
cell's parameters (a column each), params (all of them as JSON), sample_n, estimate, value, lo, hi, n,
seed, code_version. ``pandas.read_parquet(folder)`` reads the whole dataset. A part file is written to
a hidden temporary file, flushed and renamed, so it is complete or absent; the key hashes the cell's
question (game, quantity, parameters, n, seed, random stream, code), so a re-run skips the finished
cells and a changed question never reuses an old answer.

Cells run one after another, each spreading its chunks over the workers, unless there are at least as
many cells left as workers: then whole cells run in parallel (each on one core), which suits sweeps of
many small cells. Either way the numbers do not depend on the workers.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import itertools
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from analysis.commands import (LONG_COLUMNS, MIN_SAMPLES, add_cluster_arguments, cluster_options, lookup, path_text,
                               positive_int)
from simcore.errors import CardsimError, did_you_mean

DEFAULT_ROOT = "sweeps"
TOP_KEYS = {"game": (str, "a string"), "command": (str, "a string"), "seed": (int, "a whole number"),
            "n": ((int, list), "a whole number or a list of them"), "fixed": (dict, "a table"),
            "grid": (dict, "a table"), "description": (str, "a string")}
"""The keys of a scenario file: their types and how an error names them."""
REQUIRED_KEYS = ("game", "command", "seed", "grid")
SIZE_OPTIONS = ("n", "games")
"""The option that takes a cell's sample size: --n, or --games for commands that count games."""
RUN_OPTIONS = {*SIZE_OPTIONS, "seed", "jobs", "chunk_size", "checkpoint", "no_progress", "json", "csv", "scheduler",
               "dask_workers", "help"}
"""Options a scenario may not set per cell: the sweep sets them (n only as the top-level n or a grid axis) or
writes the results itself (the dataset, not --json or --csv)."""
RESERVED_COLUMNS = {"scenario", "game", "quantity", "cell", "params", "sample_n", "seed", "code_version",
                    *LONG_COLUMNS}
SCALARS = (str, int, float, bool)


@dataclass(frozen=True)
class Cell:
    """One grid point: its index, parameters (option -> value, fixed ones included), n and seed."""

    index: int
    params: dict
    n: int
    seed: int

    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.params.items())


@dataclass(frozen=True)
class Scenario:
    """A parsed scenario file: ``axes`` are the grid's options (n too when it varies)."""

    name: str
    game: str
    command: str
    seed: int
    cells: list[Cell]
    axes: list[str]
    argv: dict  # cell index -> the command's argument list: options, sample size and seed


# --- reading a scenario -----------------------------------------------------------------------
def _fail(path: Path, message: str):
    raise CardsimError(f"scenario {path}: {message}")


def _type_name(value) -> str:
    return {str: "a string", int: "a whole number", float: "a number", bool: "true/false", list: "a list",
            dict: "a table"}.get(type(value), type(value).__name__)


def _load_toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10
        import tomli as tomllib
    try:
        with open(path, "rb") as handle:
            return tomllib.load(handle)
    except OSError as exc:
        raise CardsimError(f"cannot read scenario file '{path}' ({exc.strerror or exc})") from None
    except tomllib.TOMLDecodeError as exc:
        _fail(path, f"not valid TOML ({exc})")
    except UnicodeDecodeError as exc:
        _fail(path, f"not UTF-8 text, as TOML must be (byte {exc.start}: {exc.reason}); save it as UTF-8")
    except ValueError:  # a number tomllib reads but Python refuses (over 4,300 digits)
        _fail(path, "holds a number of over 4,300 digits, too large to read; give a smaller one")


def _check_top(path: Path, data: dict) -> None:
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        _fail(path, f"unknown key '{unknown[0]}'{did_you_mean(unknown[0], TOP_KEYS)}; "
                    f"a scenario has: {', '.join(TOP_KEYS)}")
    missing = [k for k in REQUIRED_KEYS if k not in data]
    if missing:
        _fail(path, f"missing key '{missing[0]}' (a scenario needs {', '.join(REQUIRED_KEYS)} and n)")
    for key, (kind, name) in TOP_KEYS.items():
        if key in data and (not isinstance(data[key], kind) or isinstance(data[key], bool)):
            _fail(path, f"'{key}' must be {name}, got {_type_name(data[key])}")
    if data["seed"] < 0:
        _fail(path, f"'seed' must be a non-negative whole number, got {data['seed']}")


def _sizes(path: Path, data: dict) -> list[int]:
    """The sample sizes: the top-level n (a number or a list) or the grid's n."""
    if ("n" in data) == ("n" in data["grid"]):
        _fail(path, "give the deals per cell once: n = 100000 at the top (or a list there or in [grid])")
    sizes = data["n"] if "n" in data else data["grid"]["n"]
    sizes = sizes if isinstance(sizes, list) else [sizes]
    for n in sizes:
        if isinstance(n, bool) or not isinstance(n, int) or not MIN_SAMPLES <= n <= 10**12:
            _fail(path, f"'n' must be whole numbers from {MIN_SAMPLES} to 1e12 (an interval needs two samples), "
                        f"got {n!r}")
    if not sizes:
        _fail(path, "'n' is an empty list")
    _no_repeats(path, "'n'", sizes)
    return sizes


def _no_repeats(path: Path, what: str, values: list) -> None:
    """Refuse a list that gives one value twice: it would run the same cell twice and write its rows twice."""
    seen = set()
    for value in values:
        key = json.dumps(value, sort_keys=True)  # 1, 1.0 and true stay apart, as they do on the command line
        if key in seen:
            _fail(path, f"{what} lists {key} twice, which would run the same cells twice; give each value once")
        seen.add(key)


def _check_grid(path: Path, grid: dict, fixed: dict, sizes: list[int]) -> None:
    """``grid`` without n: lists of option values; with one n it must name at least one option."""
    if not grid and len(sizes) == 1:
        _fail(path, "the [grid] is empty; give at least one option with a list of values, e.g. seat = [0, 1]")
    for key, values in grid.items():
        if not isinstance(values, list):
            _fail(path, f"grid '{key}' must be a list of values, got {_type_name(values)}")
        if not values:
            _fail(path, f"grid '{key}' is an empty list, so the grid has no cells")
        for value in values:
            if not isinstance(value, SCALARS + (list,)):
                _fail(path, f"grid '{key}' values must be strings, numbers, true/false or lists, "
                            f"got {_type_name(value)}")
        _no_repeats(path, f"grid '{key}'", values)
    both = sorted(set(grid) & set(fixed))
    if both:
        _fail(path, f"'{both[0]}' is both in [fixed] and in [grid]; keep one")
    spelt: dict[str, str] = {}
    for key in [*fixed, *grid]:
        other = spelt.setdefault(key.replace("-", "_"), key)
        if other != key:
            _fail(path, f"'{other}' and '{key}' name one option; keep one")


def _option_table(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    """The command's options by destination name (``cutter_took`` for --cutter-took)."""
    return {a.dest: a for a in parser._actions if a.option_strings and a.dest not in RUN_OPTIONS}


def _argv(path: Path, params: dict, options: dict[str, argparse.Action]) -> list[str]:
    """The command-line words of one cell's parameters (already checked against ``options``)."""
    words: list[str] = []
    for key, value in params.items():
        action = options[key]
        flag = action.option_strings[-1]
        if action.nargs == 0:  # a switch such as --exact
            if not isinstance(value, bool):
                _fail(path, f"'{key}' is a switch: give true or false, got {_type_name(value)}")
            words += [flag] if value else []
            continue
        values = value if isinstance(value, list) else [value]
        if isinstance(value, list) and not isinstance(action, argparse._AppendAction):
            _fail(path, f"'{key}' takes one value, got a list (only repeatable options take lists)")
        for item in values:
            if isinstance(item, (bool, dict, list)):
                _fail(path, f"'{key}' must be a string or a number, got {_type_name(item)}")
            words += [flag, str(item)]
    return words


def cell_seeds(seed: int, cells: int) -> list[int]:
    """A seed per cell: the i-th child of ``SeedSequence(seed)`` as a 63-bit whole number."""
    children = np.random.SeedSequence(seed).spawn(cells)
    return [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]


def _command(path: Path, command: str, game: str, keys: list[str]):
    """The swept command, its parser, its options (`_option_table`) and its sample-size flag; checks that
    the command has a table form and takes every option the scenario names."""
    from analysis.cli import command_parser

    try:
        spec = lookup(command, game)
    except CardsimError as exc:
        _fail(path, str(exc))
    if spec.frame is None:
        _fail(path, f"'cardsim {command} {game}' has no table form yet, so it cannot be swept")
    parser = command_parser(command, game, spec)
    options = _option_table(parser)
    dests = {a.dest for a in parser._actions}
    size = next((f"--{d}" for d in SIZE_OPTIONS if d in dests), None)
    if size is None:
        _fail(path, f"'cardsim {command} {game}' takes no sample size (--n), so it cannot be swept")
    for key in keys:
        dest = key.replace("-", "_")
        if dest not in options:
            where = ("the sweep writes the results itself (a Parquet dataset)" if dest in ("json", "csv")
                     else "the sweep sets it" if dest in RUN_OPTIONS else "unknown option")
            _fail(path, f"'{key}': {where}; 'cardsim {command} {game}' takes: {', '.join(sorted(options))}")
        if dest in RESERVED_COLUMNS:
            _fail(path, f"'{key}' clashes with a result column; it cannot be swept")
    return spec, parser, options, size


def _dry_run(spec, args: argparse.Namespace) -> None:
    """The cell's command up to its first simulation (`simcore.runner.dry_run`): its own checks of the
    values (cards, seats, bids, ...) fail here, before any cell runs."""
    from simcore import runner

    with runner.dry_run():
        try:
            spec.frame(args)
        except runner.DryRun:
            pass


def read_scenario(path: str | Path) -> Scenario:
    """Parse and check a scenario file; every cell's options are parsed by the command's own parser and
    checked by the command itself up to its first simulation (`_dry_run`), so a bad value fails here, before
    anything runs."""
    from simcore.registry import get_game

    path = Path(path)
    data = _load_toml(path)
    _check_top(path, data)
    fixed, grid = data.get("fixed", {}), dict(data["grid"])
    sizes = _sizes(path, data)
    grid.pop("n", None)
    _check_grid(path, grid, fixed, sizes)
    spec, parser, options, size = _command(path, data["command"], data["game"], [*fixed, *grid])
    combos = list(itertools.product(*grid.values(), sizes))
    seeds = cell_seeds(data["seed"], len(combos))
    cells, argv = [], {}
    for i, (*values, n) in enumerate(combos):
        params = {**fixed, **dict(zip(grid, values))}
        words = _argv(path, {k.replace("-", "_"): v for k, v in params.items()}, options)
        words += [size, str(n), "--seed", str(seeds[i])]
        try:
            _dry_run(spec, parser.parse_args(words))
        except CardsimError as exc:
            _fail(path, f"cell {i} ({' '.join(f'{k}={v}' for k, v in params.items())}): {exc}")
        cells.append(Cell(i, params, n, seeds[i]))
        argv[i] = words
    axes = list(grid) + (["n"] if len(sizes) > 1 else [])
    return Scenario(path.stem, get_game(data["game"]).name, data["command"], data["seed"], cells, axes, argv)


# --- running cells ----------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def code_version() -> str:
    """cardsim's version and a hash of the simulation code (`simcore.runner.code_fingerprint`) as this
    process loaded it."""
    import simcore
    from simcore.runner import code_fingerprint

    return f"{simcore.__version__}+{code_fingerprint()}"


def cell_key(scenario: Scenario, cell: Cell, version: str) -> str:
    """Hash of everything that decides a cell's numbers."""
    from simcore.rng import STREAM_VERSION

    question = json.dumps({"game": scenario.game, "quantity": scenario.command, "params": cell.params,
                           "n": cell.n, "seed": cell.seed, "stream": STREAM_VERSION, "code": version},
                          sort_keys=True, default=str)
    return hashlib.sha256(question.encode()).hexdigest()[:16]


def part_path(out: Path, scenario: Scenario, cell: Cell, version: str) -> Path:
    return out / f"part-{cell.index:06d}-{cell_key(scenario, cell, version)}.parquet"


def run_cell(game: str, command: str, index: int, words: list[str], run: dict):
    """One cell's estimates (`LONG_COLUMNS`) and seconds: the command's parser reads ``words`` (with
    the sample size and seed) and ``run`` holds the runner options (jobs, chunk_size, checkpoint,
    no_progress, cluster)."""
    from analysis.cli import command_parser

    spec = lookup(command, game)
    args = command_parser(command, game, spec).parse_args(words)
    vars(args).update(run)
    start = time.perf_counter()
    try:
        frame = spec.frame(args)
    except CardsimError as exc:
        raise CardsimError(f"cell {index} ({' '.join(words)}): {exc}") from None
    return index, frame, time.perf_counter() - start


def _column_types(scenario: Scenario) -> dict[str, type]:
    """Per parameter its Python type when every cell agrees, else str (one schema for all parts)."""
    types: dict[str, set] = {}
    for cell in scenario.cells:
        for key, value in cell.params.items():
            types.setdefault(key, set()).add(type(value))
    return {k: (t.pop() if len(t) == 1 and not (t & {list}) else str) for k, t in types.items()}


def cell_table(scenario: Scenario, cell: Cell, frame: pd.DataFrame, version: str):
    """A pyarrow Table: the cell's estimates with the scenario, parameters, seed and code version."""
    import pyarrow as pa

    rows = frame[LONG_COLUMNS].reset_index(drop=True)
    head = {"scenario": scenario.name, "game": scenario.game, "quantity": scenario.command, "cell": cell.index}
    for key, kind in _column_types(scenario).items():
        value = cell.params[key]
        head[key.replace("-", "_")] = json.dumps(value) if isinstance(value, list) else kind(value)
    head["params"] = json.dumps(cell.params, sort_keys=True)
    head["sample_n"] = cell.n
    tail = {"seed": cell.seed, "code_version": version}
    table = pd.concat([pd.DataFrame({k: [v] * len(rows) for k, v in head.items()}), rows,
                       pd.DataFrame({k: [v] * len(rows) for k, v in tail.items()})], axis=1)
    table["seed"] = table["seed"].astype("uint64")
    return pa.Table.from_pandas(table, preserve_index=False)


def write_part(path: Path, table) -> None:
    """Write one part file atomically (see `analysis.report.write_atomic`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from analysis.report import write_atomic

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    write_atomic(path, sink.getvalue().to_pybytes())


def _log(message: str) -> None:
    print(f"cardsim: {message}", file=sys.stderr, flush=True)


def _workers(jobs: int, client) -> int:
    if client is not None:
        return max(1, sum(client.nthreads().values()))
    import os

    return max(1, min(jobs, os.cpu_count() or 1))


@dataclass
class SweepResult:
    out: Path
    cells: int
    ran: int
    skipped: int
    rows: int
    seconds: float


def sweep(path: str | Path, out: str | Path | None = None, jobs: int = 1, chunk_deals: int | None = None,
          progress: bool | None = None, scheduler: str | None = None, dask_workers: int | None = None) -> SweepResult:
    """Run every unfinished cell of the scenario at ``path`` and write its part file to ``out``."""
    from analysis.report import prepare_folder
    from simcore.runner import dask_client, parallel_map

    started = time.perf_counter()
    scenario = read_scenario(path)
    out = Path(out if out is not None else Path(DEFAULT_ROOT) / scenario.name).expanduser()
    prepare_folder(out, "the sweep results")
    version = code_version()
    todo = [c for c in scenario.cells if not part_path(out, scenario, c, version).exists()]
    skipped = len(scenario.cells) - len(todo)
    if skipped:
        _log(f"{skipped} of {len(scenario.cells)} cells already done in {out}, skipped")
    client = dask_client(scheduler, dask_workers) if scheduler is not None or dask_workers is not None else None
    per_cell = len(todo) >= _workers(jobs, client) > 1
    if per_cell:  # whole cells in parallel, each on one core
        run = {"jobs": 1, "chunk_size": chunk_deals, "checkpoint": False, "no_progress": True}
    else:  # one cell at a time, its chunks in parallel
        run = {"jobs": jobs, "chunk_size": chunk_deals, "checkpoint": None, "no_progress": progress is False,
               "scheduler": scheduler, "dask_workers": dask_workers}
    calls = [(scenario.game, scenario.command, c.index, scenario.argv[c.index], run) for c in todo]
    rows, done = 0, 0
    try:
        for index, frame, seconds in parallel_map(run_cell, calls, jobs if per_cell else 1,
                                                  client if per_cell else None):
            cell = scenario.cells[index]
            target = part_path(out, scenario, cell, version)
            write_part(target, cell_table(scenario, cell, frame, version))
            rows, done = rows + len(frame), done + 1
            _log(f"cell {index} of {len(scenario.cells)} [{cell.label()}] n={cell.n:,}: {len(frame)} estimates in "
                 f"{seconds:.1f} s ({done}/{len(todo)} this run) -> {target.name}")
    except OSError as exc:
        raise CardsimError(f"cannot write the sweep results to '{out}' ({exc.strerror or exc}); "
                           "pass a writable folder with --out") from None
    except KeyboardInterrupt:
        raise KeyboardInterrupt(f"interrupted; {skipped + done} of {len(scenario.cells)} cells are finished in {out}; "
                                "run the same command again to do the rest") from None
    return SweepResult(out, len(scenario.cells), done, skipped, rows, time.perf_counter() - started)


# --- command line -----------------------------------------------------------------------------
def add_sweep_arguments(parser: argparse.ArgumentParser) -> None:
    """SCENARIO, --out, --jobs, --chunk-size, --no-progress, --scheduler, --dask-workers."""
    parser.add_argument("scenario", help="the scenario file (TOML), e.g. scenarios/giltspiel-seats.toml")
    parser.add_argument("--out", type=path_text, default=None,
                        help=f"folder of the Parquet dataset (default {DEFAULT_ROOT}/<scenario file name>)")
    parser.add_argument("--jobs", type=positive_int, default=1,
                        help="worker processes (default 1); results do not depend on it")
    parser.add_argument("--chunk-size", type=positive_int, default=None,
                        help="deals per work unit within a cell; results do not depend on it")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar within a cell")
    add_cluster_arguments(parser)


def run_sweep(args: argparse.Namespace) -> int:
    result = sweep(args.scenario, args.out, args.jobs, args.chunk_size, False if args.no_progress else None,
                   **cluster_options(args))
    rate = result.ran / result.seconds if result.seconds > 0 else math.inf
    print(f"sweep {Path(args.scenario).stem}: {result.cells} cells ({result.ran} run, {result.skipped} already done), "
          f"{result.rows} rows written to {result.out} in {result.seconds:.1f} s ({rate:.2f} cells/s); "
          f"read them with pandas.read_parquet('{result.out}')")
    return 0
