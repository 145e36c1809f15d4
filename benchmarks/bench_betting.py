"""Whole Giltspiel games per second between two threshold betting policies (aggressive vs cautious),
with full partner information, with none (each player knows only his own hand) and with Auer's
signals (auer_channel, giltspiel.md §7.14).

    python benchmarks/bench_betting.py      # prints the measure() dict as JSON

One core, warm (estimate tables loaded, kernels compiled), target 11; a game is every deal to the
target with betting windows before every card, greedy card play and the showing. The engine is plain
Python, so there is no separate reference; the note gives the deals per second as well.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.betting import PRESETS  # noqa: E402
from timing import whole_games  # noqa: E402
from simcore.games.giltspiel_betting import match_job, rules_from_options  # noqa: E402

GAMES = 400


def measure(games: int = GAMES) -> dict:
    """{"giltspiel.betting-games": {"per_s", "note"}, "giltspiel.betting-games-none": {...},
    "giltspiel.betting-games-auer": {...}}: whole games per second with full partner information, with
    none (each player knows his own hand only) and with Auer's signals (§7.14)."""
    return {name: whole_games(match_job(PRESETS["aggressive"], PRESETS["cautious"], rules_from_options(),
                                        communication),
                              games, f"aggressive vs cautious, communication {communication}, target 11")
            for name, communication in (("giltspiel.betting-games", "partner"),
                                        ("giltspiel.betting-games-none", "none"),
                                        ("giltspiel.betting-games-auer", "auer_channel"))}

if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
