"""Pinochle double-dummy solver speed (simcore.games.pinochle3_solve).

``measure()`` (discovered by benchmarks/run.py, under a minute): solves per second of random
5-trick endings next to the plain minimax of tests/naive_pinochle3_solve.py, and the median and 95th
percentile time of solving the last 8, 10 and 12 tricks of random deals, each next to the time of one
null-window test "does the bidder take at least the exact value?" (`reaches`: what a P(make bid)
question needs). Each median comes with its distribution-free interval (`median_ci_ms`: order
statistics, coverage at least 95%; `analysis.stats.median_interval`), as a few positions are a small
sample of a spread that runs over two orders of magnitude. Full 15-trick solves take from a millisecond
to several seconds each (up to about a hundred million nodes; the benchmark's first 30 deals: 0.9 ms to
9 s of CPU time on 2026-12-05), too long for that budget:

    python benchmarks/bench_pinochle3.py --full 30     # median / p95 of full solves (about a minute)

Deals are random (seed fixed), trump the bidder's best meld suit, the bidder leads (R5.1). Each depth
solves in one table sized for its tricks (`table_for`).

Also the PIMC bidder's knowledge of the defenders' melds (R3.9f): the cards a hand lays down
(`pinochle3.meld_cards`, kernel `laid_faces`) next to the union of `meld_breakdown`'s melds, and worlds per
second of `pinochle3_pimc.sample_shown` at a hand's start (proposals included; its reference, an enumeration of
every split, is out of reach at 30 unseen cards).
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
from analysis.stats import median_interval  # noqa: E402
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


def solve_times(hands: np.ndarray, trumps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Seconds per solve (one core, compiled, table reused), nodes searched per solve (the
    machine-independent measure of the search's size) and the values."""
    table = solver.table_for(hands)
    solver.solve(hands[:1], trumps[:1], 0, 0, table=table)
    times, nodes, values = [], [], []
    for h, t in zip(hands, trumps):
        start = time.perf_counter()
        v, n = solver.solve(h, t, 0, 0, table=table, with_nodes=True)
        times.append(time.perf_counter() - start)
        nodes.append(int(n[0]))
        values.append(int(v[0]))
    return np.array(times), np.array(nodes), np.array(values)


def threshold_times(hands: np.ndarray, trumps: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Seconds per null-window test "bidder's points >= target" (`solver.reaches`; with the target
    equal to the exact value the test succeeds and is about the costliest one)."""
    table = solver.table_for(hands)
    solver.reaches(hands[:1], trumps[:1], 0, 0, 0, table=table)
    times = []
    for h, t, target in zip(hands, trumps, targets):
        start = time.perf_counter()
        solver.reaches(h, t, 0, 0, target, table=table)
        times.append(time.perf_counter() - start)
    return np.array(times)


def timing_row(times: np.ndarray, nodes: np.ndarray | None = None) -> dict:
    """Rate, median (with its 95% interval) and 95th percentile of per-position seconds (and node
    counts when given)."""
    lo, hi, _ = median_interval(times * 1e3)
    row = {"per_s": float(1 / np.mean(times)), "median_ms": float(np.median(times) * 1e3),
           "median_ci_ms": [lo, hi], "p95_ms": float(np.percentile(times, 95) * 1e3), "deals": int(times.size)}
    if nodes is not None:
        row |= {"median_nodes": int(np.median(nodes)), "total_nodes": int(nodes.sum())}
    return row


def depth_rows(tricks: int, n: int) -> dict:
    """The exact-solve row and the threshold-test row (target = exact value) of n endings."""
    hands, trumps = positions(n, tricks)
    times, nodes, values = solve_times(hands, trumps)
    exact, test = timing_row(times, nodes), timing_row(threshold_times(hands, trumps, values))
    return {f"pinochle3.dd_solve_{tricks}_tricks": {
                **exact, "note": f"median {exact['median_ms']:.1f} ms ({_interval(exact)}), p95 "
                                 f"{exact['p95_ms']:.1f} ms over {n} {_positions(tricks)} "
                                 f"({exact['total_nodes']:,} nodes)"},
            f"pinochle3.dd_threshold_{tricks}_tricks": {
                **test, "note": f"points >= exact value (one null-window test): median {test['median_ms']:.1f} "
                                f"ms ({_interval(test)}), p95 {test['p95_ms']:.1f} ms"}}


def _interval(row: dict) -> str:
    lo, hi = row["median_ci_ms"]
    return f"95% interval {lo:.1f}-{hi:.1f}"


def _positions(tricks: int) -> str:
    return "full deals" if tricks == solver.TRICKS else "endings"


def measure() -> dict:
    hands, trumps = positions(30, 5)
    sets = [[{c for c in range(48) if int(m) >> c & 1} for m in row] for row in hands[:8]]
    start = time.perf_counter()
    for row, t in zip(sets, trumps):
        naive_pinochle3_solve.minimax(row, int(t), 0, 0)
    reference = len(sets) / (time.perf_counter() - start)
    rate = timing_row(*solve_times(hands, trumps)[:2])["per_s"]
    out = {"pinochle3.dd_solve_5_tricks": {"per_s": rate, "reference_per_s": reference, "ratio": rate / reference}}
    for tricks, n in ((8, 40), (10, 20), (12, 10)):
        out |= depth_rows(tricks, n)
    return out | meld_knowledge_rows()


def meld_knowledge_rows(n: int = 20_000, n_reference: int = 2_000, n_worlds: int = 4_000) -> dict:
    """Laid-down cards of random 15-card hands (kernel and reference, hands/s) and melds-consistent PIMC worlds
    at a hand's start (worlds/s)."""
    from simcore.games import pinochle3_pimc as pimc

    rng = np.random.default_rng(4)
    packs = [rng.permutation(48) for _ in range(n)]
    hands = np.array([[pin.DECK.mask(p[15 * s:15 * s + 15]) for s in range(3)] for p in packs], dtype=np.uint64)
    trumps = pin.best_meld(hands[:, 0])[1]
    pin.meld_cards(hands[:2, 1], trumps[:2])
    start = time.perf_counter()
    pin.meld_cards(hands[:, 1], trumps)
    kernel = n / (time.perf_counter() - start)
    start = time.perf_counter()
    for hand, trump in zip(hands[:n_reference, 1], trumps[:n_reference]):
        {c for m in pin.meld_breakdown(pin.DECK.cards_of(int(hand)), int(trump)) for c in m.cards}
    reference = n_reference / (time.perf_counter() - start)
    shown = pimc._defender_laid(hands[:n_worlds], trumps[:n_worlds], np.zeros(n_worlds, dtype=np.int64), None)
    values, sizes, none = pin.meld_values(), np.array([15, 15]), np.zeros(2, dtype=np.uint64)
    u = rng.random((n_worlds, pimc.UNSEEN))
    pimc.sample_shown(hands[0, 1] | hands[0, 2], sizes, none, shown[0], none, int(trumps[0]), values, u[0])
    start = time.perf_counter()
    for i in range(n_worlds):
        pimc.sample_shown(hands[i, 1] | hands[i, 2], sizes, none, shown[i], none, int(trumps[i]), values, u[i])
    worlds = n_worlds / (time.perf_counter() - start)
    return {"pinochle3.meld_cards": {"per_s": kernel, "reference_per_s": reference, "ratio": kernel / reference,
                                     "note": "the cards a 15-card hand lays down as meld (R3.9c)"},
            "pinochle3.pimc_world(melds known)": {
                "per_s": worlds, "note": "a PIMC world at a hand's start consistent with the defenders' laid-down "
                                         "melds (rejection, proposals included; Python call per world)"}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--full", type=int, default=0, help="also time this many full 15-trick solves")
    args = parser.parse_args()
    out = measure()
    if args.full:
        out |= depth_rows(15, args.full)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
