"""Whole Giltspiel games per second between two threshold betting policies (aggressive vs cautious).

    python benchmarks/bench_betting.py      # prints the measure() dict as JSON

One core, warm (estimate tables loaded, kernels compiled), target 11; a game is every deal to the
target with betting windows before every card, greedy card play and the showing. The engine is plain
Python, so there is no separate reference; the note gives the deals per second as well.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.betting import PRESETS  # noqa: E402
from simcore.games.giltspiel_betting import match_job, rules_from_options  # noqa: E402

GAMES = 400


def measure(games: int = GAMES) -> dict:
    """{"giltspiel.betting-games": {"per_s", "note"}}."""
    job = match_job(PRESETS["aggressive"], PRESETS["cautious"], rules_from_options())
    job.run_block(1, 0, 2)  # load the tables, compile the kernels
    start = time.perf_counter()
    counts = job.run_block(1, 1, games)
    seconds = time.perf_counter() - start
    deals = int(counts[2])
    return {"giltspiel.betting-games": {
        "per_s": games / seconds,
        "note": f"aggressive vs cautious, target 11, {games} games = {deals} deals ({deals / seconds:,.0f} deals/s); "
                f"a 20,000-game match needs about {20000 / (games / seconds) / 60:.1f} min on one core"}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
