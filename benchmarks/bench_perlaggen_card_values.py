"""Perlaggen card values (spec §11.3 Q8) per second, next to the plain-Python recount.

    python benchmarks/bench_perlaggen_card_values.py      # prints the measure() dict as JSON

One unit is one deal as played with its 20 swaps: 21 L0 figure readings and 21 G1 play-outs
(`simcore.games.perlaggen_card_values.CardValueJob`, one block of 512 deals, timed warm on one core, wall clock;
``cpu_per_s`` over the process's CPU time). The reference is tests/naive_perlaggen_card_values.py on a few deals.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games.perlaggen_card_values import CardValueJob  # noqa: E402
import naive_perlaggen_card_values  # noqa: E402


def measure(repeat: int = 5, reference_deals: int = 8) -> dict:
    """{"perlaggen.card-values(G1)": {"per_s", "reference_per_s", "ratio", "cpu_per_s"}}: best of ``repeat``."""
    job = CardValueJob(method="greedy")
    job.run_block(3, 0, 16)  # compile or load from the cache
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        job.run_block(3, 0, job.block_size)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    start = time.perf_counter()
    naive_perlaggen_card_values.plain_counts(3, 0, reference_deals, "innsbruck", "greedy")
    reference = reference_deals / (time.perf_counter() - start)
    per_s = job.block_size / best
    return {"perlaggen.card-values(G1)": {"per_s": per_s, "reference_per_s": reference, "ratio": per_s / reference,
                                          "cpu_per_s": job.block_size / best_cpu}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
