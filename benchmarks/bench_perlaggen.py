"""Perlaggen deals per second at figure level L1 (spec §11.6), next to the brute-force reference.

    python benchmarks/bench_perlaggen.py      # prints the measure() dict as JSON

The kernel plays the whole deal procedure (cut, packets, turn-up, exchanges) and resolves Gleich
and Hanger of the four hands at L1 (every hand's frontier, the team points, the matrix game),
timed warm on one core over one block of deals (wall clock; ``cpu_per_s`` is the same over the
process's CPU time, which a busy machine does not deflate). The reference is the plain-Python deal of
tests/naive_perlaggen_deal.py followed by tests/naive_perlaggen_l1.py, which tries every baptism
of every Perlagg, on a few deals. (The L0 line, "perlaggen.deal-as-played+L0", is in run.py.)
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games import perlaggen_deal as D  # noqa: E402
from simcore.rng import BLOCK_DEALS, block_words  # noqa: E402
import naive_perlaggen_deal  # noqa: E402
import naive_perlaggen_l1  # noqa: E402

L1 = D.Evaluation("L1")


def measure(repeat: int = 5, reference_deals: int = 20) -> dict:
    """{"perlaggen.deal-as-played+L1": {"per_s", "reference_per_s", "ratio", "cpu_per_s"}}: best of ``repeat``."""
    words = block_words(3, 0, BLOCK_DEALS, D.WORDS_PER_DEAL)
    uniforms = np.random.default_rng(3).random((BLOCK_DEALS, 2))
    run = lambda: D.outcomes(D.deal_block(words), evaluation=L1, uniforms=uniforms)  # noqa: E731
    run()  # compile or load from the cache
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        run()
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    start = time.perf_counter()
    for row in words[:reference_deals]:
        table = naive_perlaggen_deal.deal(row)
        naive_perlaggen_l1.solve([table["hands"][s] for s in range(4)], "innsbruck", table["trump"])
    reference = reference_deals / (time.perf_counter() - start)
    per_s = BLOCK_DEALS / best
    return {"perlaggen.deal-as-played+L1": {"per_s": per_s, "reference_per_s": reference, "ratio": per_s / reference,
                                            "cpu_per_s": BLOCK_DEALS / best_cpu}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
