"""Pinochle double-dummy solver speed (simcore.games.pinochle3_solve).

``measure()`` (discovered by benchmarks/run.py, under a minute): solves per second of random
5-trick endings next to the plain minimax of tests/naive_pinochle3_solve.py, and the median and 95th
percentile time of solving the last 8, 10 and 12 tricks of random deals. Full 15-trick solves take from
ten seconds to several minutes each (hundreds of millions of nodes), far too long for that budget:

    python benchmarks/bench_pinochle3.py --full 5      # median / p95 of full solves (can take an hour)

Deals are random (seed fixed), trump the bidder's best meld suit, the bidder leads (R5.1).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import naive_pinochle3_solve  # noqa: E402
from simcore.games import pinochle3 as pin  # noqa: E402
from simcore.games import pinochle3_solve as solver  # noqa: E402


def positions(n: int, tricks: int, seed: int = 11) -> tuple[np.ndarray, np.ndarray]:
    """n random positions of ``tricks`` cards per hand: ((n, 3) uint64 hands, (n,) trump = the best
    meld suit of seat 0, the bidder)."""
    rng = np.random.default_rng(seed)
    hands = np.zeros((n, 3), dtype=np.uint64)
    for i in range(n):
        cards = rng.permutation(48)[:3 * tricks].reshape(3, tricks)
        hands[i] = [sum(1 << int(c) for c in row) for row in cards]
    return hands, pin.best_meld(hands[:, 0])[1]


def solve_times(hands: np.ndarray, trumps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Seconds per solve (one core, compiled, table reused) and nodes searched per solve (the
    machine-independent measure of the search's size)."""
    table = solver.Table()
    solver.solve(hands[:1], trumps[:1], 0, 0, table=table)
    times, nodes = [], []
    for h, t in zip(hands, trumps):
        start = time.perf_counter()
        _, n = solver.solve(h, t, 0, 0, table=table, with_nodes=True)
        times.append(time.perf_counter() - start)
        nodes.append(int(n[0]))
    return np.array(times), np.array(nodes)


def timing_row(times: np.ndarray, nodes: np.ndarray) -> dict:
    return {"per_s": float(1 / np.mean(times)), "median_ms": float(np.median(times) * 1e3),
            "p95_ms": float(np.percentile(times, 95) * 1e3), "deals": int(times.size),
            "median_nodes": int(np.median(nodes)), "total_nodes": int(nodes.sum())}


def measure() -> dict:
    hands, trumps = positions(30, 5)
    sets = [[{c for c in range(48) if int(m) >> c & 1} for m in row] for row in hands[:8]]
    start = time.perf_counter()
    for row, t in zip(sets, trumps):
        naive_pinochle3_solve.minimax(row, int(t), 0, 0)
    reference = len(sets) / (time.perf_counter() - start)
    rate = timing_row(*solve_times(hands, trumps))["per_s"]
    out = {"pinochle3.dd_solve_5_tricks": {"per_s": rate, "reference_per_s": reference, "ratio": rate / reference}}
    for tricks, n in ((8, 40), (10, 20), (12, 10)):
        row = timing_row(*solve_times(*positions(n, tricks)))
        out[f"pinochle3.dd_solve_{tricks}_tricks"] = {
            **row, "note": f"median {row['median_ms']:.1f} ms, p95 {row['p95_ms']:.1f} ms over {n} endings "
                           f"({row['total_nodes']:,} nodes)"}
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", type=int, default=0, help="also time this many full 15-trick solves")
    args = parser.parse_args()
    out = measure()
    if args.full:
        out["pinochle3.dd_solve_15_tricks"] = timing_row(*solve_times(*positions(args.full, 15)))
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
