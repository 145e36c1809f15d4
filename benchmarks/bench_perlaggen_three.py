"""Whole 3-player Perlaggen games per second (each for himself, §9.4, and Strafperlaggen, §9.5, also
with its finish for places 2 and 3): policy aggressive in one seat against two cautious players.

    python benchmarks/bench_perlaggen_three.py      # prints the measure() dict as JSON

One core, warm (estimate tables loaded, kernels compiled); a game is every deal to the target (18;
Strafperlaggen: from 9 down to 0) with betting windows before every trick, G1 card play and the
showing. The engine is plain Python, so there is no separate reference; the note gives deals per second.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.betting import PRESETS  # noqa: E402
from timing import whole_games  # noqa: E402
from simcore.games.perlaggen_three import STRAF, STRAF_START, Match3Job  # noqa: E402

GAMES = 60


def measure(games: int = GAMES) -> dict:
    """{"perlaggen.three-player-games": {"per_s", "note"}, "perlaggen.straf-games": {...},
    "perlaggen.straf-games-places": {...}} (the last with the finish for places 2 and 3, §9.5; its deals
    count the 3-player game's only)."""
    return {name: whole_games(Match3Job(PRESETS["aggressive"], PRESETS["cautious"], target, style, places), games,
                              f"aggressive vs 2 cautious, {style}, target {target}"
                              + (", with the finish for places 2 and 3" if places else ""))
            for name, style, target, places in (("perlaggen.three-player-games", "innsbruck", 18, False),
                                                ("perlaggen.straf-games", STRAF, STRAF_START, False),
                                                ("perlaggen.straf-games-places", STRAF, STRAF_START, True))}

if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
