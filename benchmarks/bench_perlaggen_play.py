"""Double-dummy Spiel solves per second for Perlaggen, next to the plain minimax.

    python benchmarks/bench_perlaggen_play.py      # prints the measure() dict as JSON

The solver is timed warm (compiled) on one core over `DEALS` deals as played (Innsbruck, §3: the
cutter's Perlaggen, the exchange; seat 1 leads). The plain minimax of tests/naive_perlaggen_play.py
searches every identity of every Perlagg and cannot finish a full deal in a benchmark's time, so the
ratio is measured on three-card endings (two tricks played), solver and minimax on the same ones; the solver
through `trusted_position_wins` (the checked `position_wins` adds about 30 us of argument checks to the 4 us of
such an ending).
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games import perlaggen_deal as D  # noqa: E402
from simcore.games import perlaggen_play as play  # noqa: E402
from simcore.rng import block_words  # noqa: E402
import naive_perlaggen_play as naive  # noqa: E402
from timing import best_seconds  # noqa: E402

DEALS = 300
ENDINGS = 4


def played_deals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n, 4) uint64, trumps (n,) int64) of n Innsbruck deals as played."""
    rows = D.deal_block(block_words(seed, 0, n, D.WORDS_PER_DEAL))
    return np.ascontiguousarray(rows[:, :play.SEATS]), rows[:, D.TRUMP].astype(np.int64)


def endings(n: int, seed: int = 2) -> list[tuple]:
    """n three-card endings (hands as sets, trump, leader, won) of random cards, Innsbruck."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        pack = rng.sample(range(33), 12)
        out.append(([set(pack[3 * i:3 * i + 3]) for i in range(4)], rng.randrange(4), rng.randrange(4), (1, 1)))
    return out


def measure(deals: int = DEALS, n_endings: int = ENDINGS, repeat: int = 7) -> dict:
    """{"perlaggen.dd-solve": full deals per second and search nodes per deal, "perlaggen.dd-ending3":
    three-card endings per second with the minimax's rate and the ratio}; best of ``repeat`` timings."""
    hands, trumps = played_deals(deals)
    table = play.new_table()
    play.spiel_teams(hands[:5], trumps[:5], table=table)  # compile or load from the cache
    best = best_seconds(lambda: play.spiel_teams(hands, trumps, table=table), repeat)
    table[1][1] = 0
    play.spiel_teams(hands, trumps, table=table)
    nodes = table[1][1] / deals
    cases = endings(n_endings)
    masks = [np.array([sum(1 << c for c in h) for h in hs], dtype=np.uint64) for hs, *_ in cases]
    for m, (_, trump, leader, won) in zip(masks, cases):  # warm: position_wins loads its own compiled entry
        play.trusted_position_wins(m, trump, leader % 2, leader, won, table=table)
    start = time.perf_counter()
    for _ in range(20):
        for m, (_, trump, leader, won) in zip(masks, cases):
            play.trusted_position_wins(m, trump, leader % 2, leader, won, table=table)
    solver = 20 * len(cases) / (time.perf_counter() - start)
    start = time.perf_counter()
    for hs, trump, leader, won in cases:
        naive.spiel_minimax(hs, trump, naive.perlaggen("innsbruck", trump), leader, won)
    reference = len(cases) / (time.perf_counter() - start)
    return {"perlaggen.dd-solve": {"per_s": deals / best, "nodes_per_solve": nodes,
                                   "note": "full 5-card deals as played; target 5,000/s (issue 4)"},
            "perlaggen.dd-ending3": {"per_s": solver, "reference_per_s": reference, "ratio": solver / reference}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
