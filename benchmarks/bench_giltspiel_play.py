"""Double-dummy Spiel solves per second for full Giltspiel deals, next to the plain minimax.

    python benchmarks/bench_giltspiel_play.py      # prints the measure() dict as JSON

The solver is timed warm (compiled) on one core over `DEALS` uniform deals (seat 1 leads, trump
from the turn-up); the reference is tests/naive_tricks.py's minimax without pruning, on a few deals.
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

from simcore.dealing import deal  # noqa: E402
from simcore.games import giltspiel as g  # noqa: E402
from simcore.games import giltspiel_play as play  # noqa: E402
from simcore.rng import block_words  # noqa: E402
import naive_tricks  # noqa: E402
from timing import best_seconds  # noqa: E402

DEALS = 20_000


def uniform_deals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n, 4) uint64, trumps (n,) int64) of n uniform deals."""
    spec = g.Known().deal_spec()
    slots = deal(spec, block_words(seed, 0, n, spec.words_per_deal))
    return np.ascontiguousarray(slots[:, :g.SEATS]), play._trumps(np.ascontiguousarray(slots[:, g.TURNUP]))


def measure(deals: int = DEALS, reference_deals: int = 2, repeat: int = 3) -> dict:
    """{"giltspiel.dd-solve": {"per_s", "reference_per_s", "ratio", "nodes_per_solve"}}: best of ``repeat``
    timings."""
    hands, trumps = uniform_deals(deals)
    table = play.new_table()
    play.spiel_teams(hands[:10], trumps[:10], table=table)  # compile or load from the cache
    best = best_seconds(lambda: play.spiel_teams(hands, trumps, table=table), repeat)
    table[3][1] = 0
    play.spiel_teams(hands, trumps, table=table)
    nodes = table[3][1] / deals
    start = time.perf_counter()
    for i in range(reference_deals):
        sets = [set(g.DECK.cards_of(h)) for h in hands[i]]
        naive_tricks.spiel_minimax(sets, int(trumps[i]), play.FOREHAND)
    reference = reference_deals / (time.perf_counter() - start)
    per_s = deals / best
    return {"giltspiel.dd-solve": {"per_s": per_s, "reference_per_s": reference, "ratio": per_s / reference,
                                  "nodes_per_solve": nodes}}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
