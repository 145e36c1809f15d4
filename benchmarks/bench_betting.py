"""Whole Giltspiel games per second between two threshold betting policies (aggressive vs cautious),
with full partner information, with none (each player knows only his own hand) and with Auer's
signals (auer_channel, giltspiel.md §7.14).

    python benchmarks/bench_betting.py      # prints the measure() dict as JSON

One core, warm (estimate tables loaded, kernels compiled), target 11; a game is every deal to the
target with betting windows before every card, greedy card play and the showing. The engine is plain
Python, so there is no separate reference; the note gives the deals per second as well.

The team match equity (`simcore.betting.class_match_equity`, table B of the thresholds) is timed on a deal model of
`EQUITY_GAMES` self-play games and `EQUITY_CLASS_DEALS` deals per near pair of limit classes (formula): solves per
second at targets 11 and 18, and at target `SMALL_TARGET` next to tests/naive_betting.py's plain value iteration
(`REFERENCE_SWEEPS` sweeps) as a ratio.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "tests"))

from analysis.games.betting import class_model, match, mirrored  # noqa: E402
from simcore import runner  # noqa: E402
from simcore.betting import LIMIT_REACH, MIN_DEAL_POINTS, PRESETS, class_match_equity  # noqa: E402
from timing import best_seconds, whole_games  # noqa: E402
from simcore.games.giltspiel_betting import class_job, match_job, rules_from_options  # noqa: E402
import naive_betting  # noqa: E402

GAMES = 400
EQUITY_GAMES = 100
EQUITY_CLASS_DEALS = 10
SMALL_TARGET = 2
REFERENCE_SWEEPS = 100


def equity_rates() -> dict:
    """{"giltspiel.match-equity(target T)": {"per_s", "note"} for T = 11 and 18, and for `SMALL_TARGET` with
    "reference_per_s" and "ratio"}: match-equity tables (both dealers) solved per second."""
    frame = match("giltspiel", "formula", "formula", EQUITY_GAMES, 1, 18, progress=False)
    counts = runner.run(class_job(PRESETS["formula"], rules_from_options(target=18)), EQUITY_CLASS_DEALS, 1,
                        progress=False)
    p, first, deals, _ = class_model(frame.attrs, counts, 18)
    p_b, first_b = mirrored(p.swapaxes(0, 1), first.swapaxes(0, 1))
    dists, firsts = np.stack([p, p_b]), np.stack([first, first_b])
    note = f"{int(deals.sum()):,} deals in {LIMIT_REACH ** 2} limit classes, points from {MIN_DEAL_POINTS}"
    rows = {f"giltspiel.match-equity(target {target})": {
                "per_s": 1 / best_seconds(lambda: class_match_equity(dists, target, firsts, MIN_DEAL_POINTS), 3),
                "note": note} for target in (11, 18)}
    small = 1 / best_seconds(lambda: class_match_equity(dists, SMALL_TARGET, firsts, MIN_DEAL_POINTS), 5)
    reference = 1 / best_seconds(lambda: naive_betting.race_equity(dists.tolist(), firsts.tolist(), SMALL_TARGET,
                                                                   REFERENCE_SWEEPS, LIMIT_REACH, MIN_DEAL_POINTS), 1)
    rows[f"giltspiel.match-equity(target {SMALL_TARGET})"] = {"per_s": small, "reference_per_s": reference,
                                                              "ratio": small / reference, "note": note}
    return rows


def measure(games: int = GAMES) -> dict:
    """{"giltspiel.betting-games": {"per_s", "note"}, "giltspiel.betting-games-none": {...},
    "giltspiel.betting-games-auer": {...}}: whole games per second with full partner information, with
    none (each player knows his own hand only) and with Auer's signals (§7.14)."""
    return {name: whole_games(match_job(PRESETS["aggressive"], PRESETS["cautious"], rules_from_options(),
                                        communication),
                              games, f"aggressive vs cautious, communication {communication}, target 11")
            for name, communication in (("giltspiel.betting-games", "partner"),
                                        ("giltspiel.betting-games-none", "none"),
                                        ("giltspiel.betting-games-auer", "auer_channel"))} | equity_rates()

if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
