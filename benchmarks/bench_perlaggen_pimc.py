"""PIMC for Perlaggen: whole deals played to the Spiel with PIMC at all four seats, per second.

    python benchmarks/bench_perlaggen_pimc.py      # prints the measure() dict as JSON

Timed warm on one core: `DEALS` deals as played (Innsbruck), `SAMPLES` samples per decision,
communication none. The cost is the Perlaggen double-dummy solver's (simcore.games.perlaggen_play),
one solve per candidate play and sample; no plain-Python reference is timed (its minimax needs
minutes for one full deal).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simcore.games import perlaggen_deal as D  # noqa: E402
from simcore.games import perlaggen_pimc as pimc  # noqa: E402
from simcore.rng import block_words  # noqa: E402

DEALS = 60
SAMPLES = pimc.DEFAULT_SAMPLES


def _play(rows, samples: int) -> int:
    """Play every deal of ``rows``; returns the plays made."""
    plays = 0
    for i, row in enumerate(rows):
        public, gone, stopper = pimc.public_facts(row)
        _, line = pimc.play_deal(row[:4], int(row[D.TRUMP]), samples, "none", i, "innsbruck", public, gone, stopper)
        plays += len(line)
    return plays


def measure(deals: int = DEALS, samples: int = SAMPLES) -> dict:
    """{"perlaggen.pimc-deal": {"per_s" (deals), "decisions_per_s", "samples", "note"}}."""
    rows = D.deal_block(block_words(1, 0, deals + 2, D.WORDS_PER_DEAL))
    _play(rows[deals:], samples)  # compile or load from the cache
    start = time.perf_counter()
    plays = _play(rows[:deals], samples)
    seconds = time.perf_counter() - start
    return {"perlaggen.pimc-deal": {"per_s": deals / seconds, "decisions_per_s": plays / seconds, "samples": samples,
                                    "note": "all four seats PIMC, deals as played to the Spiel"}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
