"""Perlaggen card values (spec §11.3 Q8) per second, next to the plain-Python recount.

    python benchmarks/bench_perlaggen_card_values.py      # prints the measure() dict as JSON

card-values: one unit is one deal as played with its 20 swaps: 21 L0 figure readings and 21 G1 play-outs
(`simcore.games.perlaggen_card_values.CardValueJob`). card-pairs: one unit is one deal as played, compared for the
Martl, the Weli and the trump Ace of leaves two by two (`CardPairJob`, about one swap a deal, each judged on both
deals). One block of 512 deals, timed warm on one core, wall clock; ``cpu_per_s`` over the process's CPU time. The
reference is tests/naive_perlaggen_card_values.py on a few deals.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games import perlaggen as P  # noqa: E402
from simcore.games import perlaggen_deal as D  # noqa: E402
from simcore.games.perlaggen_card_values import CardPairJob, CardValueJob  # noqa: E402
import naive_perlaggen_card_values  # noqa: E402

PAIR_CARDS = [P.DECK.parse_face(t) for t in ("HK", "S6", "LA")]


def _rates(job, reference, repeat: int, reference_deals: int) -> dict:
    """{"per_s", "reference_per_s", "ratio", "cpu_per_s"} of a job's block (best of ``repeat``) and
    ``reference(deals)``, the plain recount."""
    job.run_block(3, 0, 16)  # compile or load from the cache
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        start, cpu = time.perf_counter(), time.process_time()
        job.run_block(3, 0, job.block_size)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - cpu)
    start = time.perf_counter()
    reference(reference_deals)
    reference_per_s = reference_deals / (time.perf_counter() - start)
    per_s = job.block_size / best
    return {"per_s": per_s, "reference_per_s": reference_per_s, "ratio": per_s / reference_per_s,
            "cpu_per_s": job.block_size / best_cpu}


def measure(repeat: int = 5, reference_deals: int = 8) -> dict:
    """{"perlaggen.card-values(G1)": rates, "perlaggen.card-pairs(G1, 3 cards)": rates} (`_rates`)."""
    return {
        "perlaggen.card-values(G1)": _rates(
            CardValueJob(method="greedy"),
            lambda n: naive_perlaggen_card_values.plain_counts(3, 0, n, "innsbruck", "greedy"),
            repeat, reference_deals),
        "perlaggen.card-pairs(G1, 3 cards)": _rates(
            CardPairJob(D.DealRules(), "greedy", PAIR_CARDS),
            lambda n: naive_perlaggen_card_values.plain_pair_counts(3, 0, n, "innsbruck", "greedy", PAIR_CARDS),
            repeat, 20 * reference_deals),
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
