"""Whole 3-player Perlaggen games per second (each for himself, §9.4, and Strafperlaggen, §9.5, also
with its finish for places 2 and 3): policy aggressive in one seat against two cautious players.

    python benchmarks/bench_perlaggen_three.py      # prints the measure() dict as JSON

One core, warm (estimate tables loaded, kernels compiled); a game is every deal to the target (18;
Strafperlaggen: from 9 down to 0) with betting windows before every trick, G1 card play and the
showing. The engine is plain Python, so there is no separate reference; the note gives deals per second.

The match-equity kernel (`perlaggen_three_equity.match_equity`) is timed on the deal outcomes of `EQUITY_GAMES`
self-play games (formula) and `CLASS_DEALS` deals per near limit class: the full table at the default target 18
(solves per second, with its sweeps, one distribution per limit class), and, on the pooled outcomes, next to
tests/naive_perlaggen_three_equity.py's plain value iteration at target `SMALL_TARGET` as a ratio.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

from simcore.betting import PRESETS  # noqa: E402
from timing import best_seconds, whole_games  # noqa: E402
from simcore.games import perlaggen_three_equity as E  # noqa: E402
from simcore.games.perlaggen_three import STRAF, STRAF_START, Match3Job  # noqa: E402
import naive_perlaggen_three_equity as naive  # noqa: E402

GAMES = 60
EQUITY_GAMES = 150
CLASS_DEALS = 20
SMALL_TARGET = 4


def equity_rates(games: int = EQUITY_GAMES) -> dict:
    """{"perlaggen.three-equity(target 18)": {"per_s", "note"}, "perlaggen.three-equity(target 4)": {"per_s",
    "reference_per_s", "ratio"}}: tables solved per second from the outcomes of ``games`` self-play games."""
    counts = E.Equity3Job(PRESETS["formula"], 18, "innsbruck").run_block(1, 0, games)
    hist, far = E.Equity3Job.outcomes(counts)
    classes = E.Class3Job(PRESETS["formula"], 18, "innsbruck").run_block(1, 0, CLASS_DEALS)
    probs, _ = E.class_probs(hist, far, classes, 18, 1.0)
    E.match_equity(hist, SMALL_TARGET)  # compile or load from the cache
    full = 1 / best_seconds(lambda: E.match_equity(probs, 18), 3)
    small = 1 / best_seconds(lambda: E.match_equity(hist, SMALL_TARGET), 5)
    outcomes = [(hist[c] / hist.sum(), *E.decode(int(c))) for c in np.flatnonzero(hist)]
    reference = 1 / best_seconds(lambda: naive.equity(outcomes, SMALL_TARGET, E.FLOOR, tolerance=E.TOLERANCE), 1)
    groups = E.transitions(hist)[0].size
    return {"perlaggen.three-equity(target 18)": {
                "per_s": full, "note": f"match-equity tables of {int(counts[1]):,} deals' outcomes "
                                       f"({np.count_nonzero(hist)} codes in {groups} groups) and {CLASS_DEALS} deals "
                                       f"in each of the {E.CLASSES - 1} near limit classes, floor {E.FLOOR}"},
            "perlaggen.three-equity(target 4)": {"per_s": small, "reference_per_s": reference,
                                                 "ratio": small / reference}}


def measure(games: int = GAMES) -> dict:
    """{"perlaggen.three-player-games": {"per_s", "note"}, "perlaggen.straf-games": {...},
    "perlaggen.straf-games-places": {...}} (the last with the finish for places 2 and 3, §9.5; its deals
    count the 3-player game's only), then the match-equity rows of `equity_rates`."""
    games_rows = {name: whole_games(Match3Job(PRESETS["aggressive"], PRESETS["cautious"], target, style, places),
                                    games, f"aggressive vs 2 cautious, {style}, target {target}"
                                    + (", with the finish for places 2 and 3" if places else ""))
                  for name, style, target, places in (("perlaggen.three-player-games", "innsbruck", 18, False),
                                                      ("perlaggen.straf-games", STRAF, STRAF_START, False),
                                                      ("perlaggen.straf-games-places", STRAF, STRAF_START, True))}
    return {**games_rows, **equity_rates()}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
