"""Bauernstoss: double-dummy solves per second (full deals) with the plain-minimax ratio on endings,
and whole hands per second under greedy play.

    python benchmarks/bench_bauernstoss.py      # prints the measure() dict as JSON

The solver is timed warm on one core over `RATE_DEALS` uniform full deals (trump clubs, forehand seat 1
leads, team 1 counted) in blocks of `RATE_BLOCK`: the rate is deals over their summed time, with a 95%
bootstrap interval over the blocks (deals differ a lot: the rate over a sample is the rate of its hard
deals), and, as a second figure comparable with earlier runs, the rate over the first `DEALS` (100) of
them, the sample of the benchmark's figures until 2026-12-03 (an easier sample: about 50,200 nodes a deal
against about 61,000 over the 1,000). For the ratio it is timed over `KERNEL_ENDINGS` random 4-trick
endings next to tests/naive_bauernstoss.py's plain minimax on the first `ENDINGS` of them (full deals are
out of the minimax's reach; a dozen endings take the solver under a millisecond, too short to time).
Threshold tests (`reaches_points`: "does the team reach 61?", "does it reach 42?" (the chalk team's
question), and 42/79/91 together) run on the first `DEALS` and are reported apart from the exact solves;
``nodes_per_deal`` is the solver's search-node count, steadier than the time on a shared machine. Greedy
hands are whole 8-trick play-outs of uniform deals. Solo verdicts (`solo_solves`, Python set-up included)
are Big Solos of uniform deals, club-jack holder's best suit.
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

from simcore.games import bauernstoss as bs  # noqa: E402
from simcore.games import bauernstoss_play as play  # noqa: E402
from simcore.games import bauernstoss_solve as sv  # noqa: E402
from simcore.games.bauernstoss_jobs import deal_hands  # noqa: E402
import naive_bauernstoss as naive  # noqa: E402

DEALS = 100
RATE_DEALS = 1000
RATE_BLOCK = 10
BOOTSTRAP = 2000
"""Resamples of the blocks behind the exact-solve rate's interval."""
SOLO_DEALS = 4000
ENDINGS = 12
KERNEL_ENDINGS = 2000
GREEDY_HANDS = 65_536
LEVELS = (42, 79, 91)
"""The point levels `odds` asks about in BS: the chalk team's 42, the other team's 79, schneider."""


def _timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def block_seconds(hands: np.ndarray, table, block: int = RATE_BLOCK) -> np.ndarray:
    """Seconds of `solve_points` (exact points, trump clubs, seat 1 leads, team 1) on each block of ``block``
    consecutive deals of ``hands`` (a multiple of ``block`` rows), in order."""
    seconds = []
    for start in range(0, len(hands), block):
        part = hands[start:start + block]
        seconds.append(_timed(lambda: sv.solve_points(part, 0, 1, 1, table=table)))
    return np.array(seconds)


def rate_interval(seconds: np.ndarray, block: int, resamples: int = BOOTSTRAP, seed: int = 5) -> tuple:
    """(rate, low, high): deals per second over blocks of ``block`` deals that took ``seconds`` each, and the
    95% percentile-bootstrap interval of that rate (blocks resampled with replacement)."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, seconds.size, size=(resamples, seconds.size))
    rates = block * seconds.size / seconds[picks].sum(axis=1)
    low, high = np.percentile(rates, [2.5, 97.5])
    return block * seconds.size / seconds.sum(), float(low), float(high)


def endings(n: int, tricks: int = 4, seed: int = 3) -> np.ndarray:
    """(n, 4) uint64: hands of ``tricks`` cards each from uniform deals."""
    rng = np.random.default_rng(seed)
    out = np.zeros((n, 4), dtype=np.uint64)
    for i in range(n):
        perm = rng.permutation(32)
        for s in range(4):
            out[i, s] = sum(1 << int(c) for c in perm[tricks * s:tricks * (s + 1)])
    return out


def solo_solves(n: int) -> np.ndarray:
    """Double-dummy Big Solo verdicts of ``n`` uniform deals: the club-jack holder names its best suit."""
    hands = deal_hands(4, 0, n)
    soloists = np.array([next(s for s in range(4) if (int(h[s]) >> 4) & 1) for h in hands])
    trumps = np.array([bs.best_suit(int(h[s])) for h, s in zip(hands, soloists)])
    leaders = np.array([play.solo_leader(0, s) for s in soloists])
    return sv.solo_wins(hands, trumps, soloists, leaders)


def measure(deals: int = DEALS, n_endings: int = ENDINGS, solo_deals: int = SOLO_DEALS,
            rate_deals: int = RATE_DEALS) -> dict:
    solo_solves(10)  # compile or load from the cache
    many = deal_hands(1, 0, max(rate_deals, deals))
    full = many[:deals]
    table = sv.new_table()
    sv.solve_points(full[:2], 0, 1, 1, table=table)  # compile or load from the cache
    sv.reaches_points(full[:2], 0, 1, 1, LEVELS, table=table)
    nodes = table[1][1]
    seconds = block_seconds(many[:rate_deals], table)
    many_nodes = (table[1][1] - nodes) / rate_deals
    exact_rate, low, high = rate_interval(seconds, RATE_BLOCK)
    nodes = table[1][1]
    full_rate = deals / _timed(lambda: sv.solve_points(full, 0, 1, 1, table=table))
    full_nodes = (table[1][1] - nodes) / deals
    probes = {}
    for levels in ((61,), (42,), LEVELS):
        nodes = table[1][1]
        rate = deals / _timed(lambda: sv.reaches_points(full, 0, 1, 1, levels, table=table))
        probes[levels] = rate, (table[1][1] - nodes) / deals
    ends = endings(max(n_endings, KERNEL_ENDINGS))
    kernel_end = len(ends) / _timed(lambda: sv.solve_points(ends, 0, 1, 1, table=table))
    ends = ends[:n_endings]
    lists = [[[c for c in range(32) if (int(h) >> c) & 1] for h in row] for row in ends]
    naive_end = n_endings / _timed(lambda: [naive.minimax_points(h, 0, 1, 1) for h in lists])
    hands = deal_hands(2, 0, GREEDY_HANDS)
    trumps, leaders = np.zeros(GREEDY_HANDS, dtype=np.int64), np.ones(GREEDY_HANDS, dtype=np.int64)
    play.play_out("greedy", hands[:10], trumps[:10], leaders[:10])
    greedy = GREEDY_HANDS / _timed(lambda: play.play_out("greedy", hands, trumps, leaders))
    solo_rate = solo_deals / _timed(lambda: solo_solves(solo_deals))
    return {
        "bauernstoss.dd-solo(full deal)": {"per_s": solo_rate, "note": "Big Solo of the club-jack holder, won or not"},
        "bauernstoss.dd-solve(full deal)": {
            "per_s": exact_rate, "per_s_ci": [low, high], "deals": rate_deals, "nodes_per_deal": many_nodes,
            "note": f"exact card points of {rate_deals:,} uniform full 8-trick deals (95% interval "
                    f"{low:,.0f}-{high:,.0f}); target 1,000/s"},
        "bauernstoss.dd-solve(first 100 deals)": {
            "per_s": full_rate, "nodes_per_deal": full_nodes,
            "note": f"the same on the first {deals} of them, the sample of the figures before 2026-12-03"},
        "bauernstoss.dd-threshold(full deal, 61)": {
            "per_s": probes[(61,)][0], "nodes_per_deal": probes[(61,)][1],
            "note": "one yes/no question a deal: does the team reach 61? (reaches_points), not the exact points"},
        "bauernstoss.dd-threshold(full deal, 42)": {
            "per_s": probes[(42,)][0], "nodes_per_deal": probes[(42,)][1],
            "note": "does the team reach 42 (the chalk team's threshold)? one yes/no question a deal"},
        "bauernstoss.dd-threshold(full deal, 42/79/91)": {
            "per_s": probes[LEVELS][0], "nodes_per_deal": probes[LEVELS][1],
            "note": "the three BS questions of odds (chalk, no chalk, schneider) per deal, not the exact points"},
        "bauernstoss.dd-solve(4-trick ending)": {"per_s": kernel_end, "reference_per_s": naive_end,
                                                 "ratio": kernel_end / naive_end},
        "bauernstoss.greedy-hand": {"per_s": greedy, "note": "whole hands under greedy play"},
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
