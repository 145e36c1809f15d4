"""Bauernstoss ``stats`` command: the jacks and the longest potential trump suit of one hand (exact), and whole
hands of random deals (the B0 auction, then card play by a policy) by the chooser's hand shape and by the chalk.

Command line::

    cardsim stats bauernstoss [--policy greedy|random] [--variant BS|AS|DS] [--min-n 200] [--n 20000] [--seed S]
        [--json]

Python API::

    from analysis.games.bauernstoss_stats import stats
    tables = stats(n=20_000, seed=1)      # {"jacks", "shapes", "chalk"}: DataFrames
"""

from __future__ import annotations

import argparse
from math import comb

import numpy as np
import pandas as pd

from analysis.commands import (Command, NotedStore, add_run_arguments, check_exact_alone, emit, long_frame, no_exact,
                               one_of, positive_int, register_command, run_options)
from analysis.games.bauernstoss import (VARIANT_NAMES, level_columns, odds_columns, parse_variant, points_cell,
                                        shape_cells, wide_cell)
from analysis.stats import Estimate, estimate_columns, format_cell, mean_interval, table_records
from simcore import checks, runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_exact as bs_exact
from simcore.games import bauernstoss_jobs as jobs
from simcore.rng import normalize_seed

GAME = "bauernstoss"
POLICIES = ("greedy", "random")
THROW_IN_RATE = bs_exact.jack_patterns()["4-0-0-0"]
"""P(one player holds all four jacks), spec §9.2 (7/899): the throw-in rate of BS when that player always passes,
as B0 does (AS forces him to bid, AS-5; DS has no throw-in)."""
MIN_N = 200
"""Hand shapes with fewer hands get no row of the shapes table (`stats`' ``min_n``)."""


def exact_jacks() -> pd.DataFrame:
    """Exact facts of one 8-card hand over all C(32, 8) = 10,518,300 hands (spec §9.2): per jack count J 0-4, P(J)
    (hypergeometric) and P(longest potential trump suit = L | J) for L = 2-8 (columns ``L2`` ... ``L8``; a suit's
    potential trumps are its cards and the four jacks), with the hands holding J jacks (``n``)."""
    counts = bs.longest_trump_table().sum(axis=0)  # (jacks, longest)
    total = comb(32, 8)
    rows = []
    for j in range(5):
        held = int(counts[j].sum())
        row = {"jacks": j, "p": comb(4, j) * comb(28, 8 - j) / total, "n": held}
        row.update({f"L{length}": counts[j, length] / held for length in range(2, bs.HAND_SIZE + 1)})
        rows.append(row)
    frame = pd.DataFrame(rows)
    return frame.assign(lo=frame.p, hi=frame.p)


def shapes_frame(parts: dict, variant: str, min_n: int) -> pd.DataFrame:
    """Per chooser's shape (jacks, trumps in the suit named) with at least ``min_n`` hands: the choosing team's
    P(card points >= each level of ``variant``) (`level_columns`), its mean card points and P(all 8 tricks), each
    with a 95% interval."""
    rows = []
    values = np.arange(jobs.POINT_BINS)
    for j, length, hist, count in shape_cells(parts["points"], min_n, 0):
        row = {"jacks": j, "trumps": length, "n": count}
        row.update(level_columns({f"p{level}": int(hist[level:].sum()) for level in jobs.LEVELS}, count))
        mean = mean_interval(float((hist * values).sum()), float((hist * values ** 2).sum()), count)
        row.update(points=mean["mean"], points_lo=mean["lo"], points_hi=mean["hi"])
        row.update(estimate_columns("p_schwarz", int(parts["schwarz"][j, length]), count))
        rows.append(row)
    estimates = [key for key, _ in odds_columns(variant, False)] + ["points", "p_schwarz"]
    columns = ["jacks", "trumps", "n"] + [f"{key}{end}" for key in estimates for end in ("", "_lo", "_hi")]
    return pd.DataFrame(rows, columns=columns)


CHALK_CASES = (("choosing", "with", 42), ("choosing", "without", 79), ("defending", "with", 42),
               ("defending", "without", 79))
"""The chalk table's rows: (team, with or without the chalk, the card points that team then needs)."""


def chalk_frame(parts: dict) -> pd.DataFrame:
    """Over every hand played: P(team reaches what it needs) for the choosing and the defending team, each as if it
    held the chalk (42) and as if it did not (79), from the choosing team's points (the defenders take the rest)."""
    hist = parts["points"].sum(axis=(0, 1))
    n = int(hist.sum())
    rows = []
    for team, chalk, need in CHALK_CASES:
        made = int(hist[need:].sum()) if team == "choosing" else int(hist[:bs.CARD_POINTS - need + 1].sum())
        est = Estimate(made, n)
        rows.append({"team": team, "chalk": chalk, "need": need, "p": est.p, "lo": est.lo, "hi": est.hi, "n": n})
    return pd.DataFrame(rows)


def stats(n: int = 20_000, seed=None, policy: str = "greedy", variant: str = "BS", min_n: int = MIN_N,
          **run_kw) -> dict:
    """Tables of Bauernstoss hands: "jacks" (`exact_jacks`, exact), "shapes" (`shapes_frame`: ``n`` uniform deals,
    the B0 auction (D0 in DS; no solo, a game's first hand excluded) and card play by ``policy`` at every seat)
    and, but in DS (no chalk), "chalk" (`chalk_frame`). attrs: game, n (deals), seed, policy, variant, throw_ins
    (deals thrown in: one player held all four jacks and passed, §4.11), min_n."""
    policy = policy.strip().lower() if isinstance(policy, str) else policy
    if policy not in POLICIES:
        raise CardsimError(f"policy (--policy) must be one of {', '.join(POLICIES)}, got {policy!r}")
    variant = parse_variant(variant)
    min_n = checks.whole(min_n, "min_n (--min-n, the fewest hands a shape needs for a row)", 1)
    seed = normalize_seed(seed)
    parts = jobs.HandJob.unpack(runner.run(jobs.HandJob(policy, variant), n, seed, **run_kw))
    tables = {"jacks": exact_jacks(), "shapes": shapes_frame(parts, variant, min_n)}
    if variant != "DS":
        tables["chalk"] = chalk_frame(parts)
    for table in tables.values():
        table.attrs.update(game=GAME, n=parts["deals"], seed=seed, policy=policy, variant=variant,
                           throw_ins=parts["throw_ins"], min_n=min_n)
    return tables


def stats_json(tables: dict) -> dict:
    a = tables["jacks"].attrs
    return {"game": GAME, **{k: a[k] for k in ("n", "seed", "policy", "variant", "throw_ins", "min_n")},
            "tables": table_records(tables)}


def _shape_lines(frame: pd.DataFrame, variant: str) -> list[str]:
    columns = odds_columns(variant, False)
    header = f"  {'jacks':>5} {'trumps':>6} {'hands':>7}" + "".join(f"  {label:<24}" for _, label in columns) + \
        f"  {'card points':<20}  P(all 8 tricks)"
    lines = [header]
    for row in frame.to_dict("records"):
        cells = "".join(f"  {wide_cell(row, key):<24}" for key, _ in columns)
        lines.append(f"  {row['jacks']:>5} {row['trumps']:>6} {row['n']:>7,}{cells}  {points_cell(row):<20}  "
                     f"{wide_cell(row, 'p_schwarz')}")
    return lines


def format_stats(tables: dict) -> str:
    a = tables["jacks"].attrs
    lines = [f"Bauernstoss hands: {VARIANT_NAMES[a['variant']]}, n = {a['n']:,} deals, seed {a['seed']}, "
             f"{'D0' if a['variant'] == 'DS' else 'B0'} auction, {a['policy']} play at every seat; 95% intervals",
             "", "A. Jacks and the longest potential trump suit of one hand (exact, all 10,518,300 hands)",
             f"  {'jacks':>5}  {'P(jacks)':<9}" + "".join(f"  L={length:<4}" for length in range(2, 9))
             + "      hands"]
    for row in tables["jacks"].itertuples():
        cells = "".join(f"  {getattr(row, f'L{length}'):.4f}" if getattr(row, f"L{length}") else "  -     "
                        for length in range(2, 9))
        lines.append(f"  {row.jacks:>5}  {row.p:.6f} {cells}  {row.n:>10,}")
    lines += ["  L: the most cards one suit and the jacks give (the trumps the hand would hold), given its jacks",
              "", f"B. The choosing team's card points by the chooser's jacks and trumps (shapes with at least "
                  f"{a['min_n']:,} hands)"]
    lines += _shape_lines(tables["shapes"], a["variant"]) if len(tables["shapes"]) else \
        [f"  (no shape has {a['min_n']:,} hands at this n: raise --n or lower --min-n)"]
    played = int(tables["chalk"].n.iloc[0]) if "chalk" in tables else None
    if played == 0:
        lines += ["", "C. The chalk: no hand was played (every deal was thrown in)"]
    elif played is not None:
        lines += ["", f"C. The chalk: P(a team reaches what it needs), over all {played:,} hands played"]
        for row in tables["chalk"].itertuples():
            lines.append(f"  {row.team + ' team':<16} {row.chalk + ' the chalk':<18} needs {row.need:>2}   "
                         f"{format_cell(row._asdict())}")
    if a["variant"] == "BS":  # AS makes the holder of all four jacks bid (AS-5), DS the club Unter's holder (DS-5)
        thrown = Estimate(a["throw_ins"], a["n"])
        lines += ["", f"Throw-ins (one player held all four jacks and passed, §4.11): {a['throw_ins']:,} of "
                      f"{a['n']:,} deals, {format_cell({'p': thrown.p, 'lo': thrown.lo, 'hi': thrown.hi})}; exact "
                      f"{float(THROW_IN_RATE):.4f} ({THROW_IN_RATE})"]
    return "\n".join(lines)


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exact", action="store_true",
                        help="exact deal facts, every deal counted (spec §9.2; no sampling): the jacks by hand, team "
                             "and seat, the forced opener, the longest potential trump suit, card points held")
    parser.add_argument("--policy", type=one_of(POLICIES), action=NotedStore, default="greedy",
                        help="card play at every seat: greedy (default) or random")
    parser.add_argument("--variant", action=NotedStore, default="BS",
                        help="BS (default), AS (Alter Schoofkopp) or DS (Deutscher Schafkopf), spec §7")
    parser.add_argument("--min-n", type=positive_int, action=NotedStore, default=MIN_N,
                        help=f"fewest hands a shape needs for a row (default {MIN_N})")
    add_run_arguments(parser, default_n=20_000)


def _stats(args: argparse.Namespace) -> dict:
    return stats(args.n, args.seed, args.policy, args.variant, args.min_n, **run_options(args))


def _run_stats(args: argparse.Namespace) -> int:
    check_exact_alone(args, "policy", "variant", "min_n")  # the deal is the same in every variant
    if args.exact:
        from analysis.games import bauernstoss_exact

        return emit(args, bauernstoss_exact.exact(), bauernstoss_exact.exact_json, bauernstoss_exact.format_exact)
    return emit(args, _stats(args), stats_json, format_stats)


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The shapes table's estimates named ``shapes.<jacks>.<trumps>.<estimate>`` (e.g. ``shapes.2.5.p42``) and the
    chalk table's ``chalk.<team>.<with|without>``; the exact table is not an estimate."""
    no_exact(args)
    tables = _stats(args)
    shapes = tables["shapes"]
    keys = [key for key, _ in odds_columns(tables["jacks"].attrs["variant"], False)] + ["p_schwarz"]
    parts = [long_frame(shapes.assign(estimate=key), ["jacks", "trumps", "estimate"], prefix="shapes", value=key,
                        lo=f"{key}_lo", hi=f"{key}_hi") for key in keys]
    if "chalk" in tables:
        parts.append(long_frame(tables["chalk"], ["team", "chalk"], prefix="chalk"))
    return pd.concat(parts, ignore_index=True)


register_command("stats", GAME, Command("jacks and trump length (exact), P(make) by hand shape and the chalk",
                                        _add_stats_arguments, _run_stats, _stats_frame))
