"""PIMC for Perlaggen: whole deals played to the Spiel with PIMC at all four seats, per second.

    python benchmarks/bench_perlaggen_pimc.py      # prints the measure() dict as JSON

Timed warm on one core: `DEALS` deals as played (Innsbruck), `SAMPLES` samples per decision,
communication none. The cost is mostly the Perlaggen double-dummy solver's
(simcore.games.perlaggen_play), one solve per candidate play and sample. The reference is
tests/naive_perlaggen_pimc.py, the same play as a Python driver around the same solver (it makes
the same plays; a plain minimax instead of the solver would need minutes for one full deal).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games import perlaggen_deal as D  # noqa: E402
from simcore.games import perlaggen_pimc as pimc  # noqa: E402
from simcore.rng import block_words  # noqa: E402
import naive_perlaggen_pimc as ref  # noqa: E402

DEALS = 60
SAMPLES = pimc.DEFAULT_SAMPLES


def _play(play_deal, rows, samples: int) -> tuple[int, float]:
    """(plays made, seconds) of playing every deal of ``rows`` with ``play_deal``."""
    plays = 0
    start = time.perf_counter()
    for i, row in enumerate(rows):
        public, gone, stopper = pimc.public_facts(row)
        _, line = play_deal(row[:4], int(row[D.TRUMP]), samples, "none", i, "innsbruck", public, gone, stopper)
        plays += len(line)
    return plays, time.perf_counter() - start


def measure(deals: int = DEALS, samples: int = SAMPLES) -> dict:
    """{"perlaggen.pimc-deal": {"per_s" (deals), "decisions_per_s", "reference_per_s", "ratio", "samples",
    "note"}}."""
    rows = D.deal_block(block_words(1, 0, deals + 2, D.WORDS_PER_DEAL))
    _play(pimc.play_deal, rows[deals:], samples)  # compile or load from the cache
    _play(ref.play_deal, rows[deals:], samples)
    plays, seconds = _play(pimc.play_deal, rows[:deals], samples)
    _, reference = _play(ref.play_deal, rows[:deals], samples)
    return {"perlaggen.pimc-deal": {"per_s": deals / seconds, "decisions_per_s": plays / seconds,
                                    "reference_per_s": deals / reference, "ratio": reference / seconds,
                                    "samples": samples, "note": "all four seats PIMC, deals as played to the Spiel; "
                                    "reference: the Python driver"}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
