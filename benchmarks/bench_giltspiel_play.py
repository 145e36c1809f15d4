"""Double-dummy Spiel solves per second for full Giltspiel deals, next to the plain minimax, and the same for the
§8 variant with the trump's 7, Unter and Ober wild in play (the Perlique).

    python benchmarks/bench_giltspiel_play.py      # prints the measure() dict as JSON

The solvers are timed warm (compiled) on one core over `DEALS` (`PERLIQUE_DEALS`) uniform deals (seat 1 leads,
trump from the turn-up); the references are tests/naive_tricks.py's minimax without pruning and
tests/naive_giltspiel_perlique.py's minimax over every wild and identity, on a few deals.
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
from simcore.games import giltspiel_perlique as perlique  # noqa: E402
from simcore.games import giltspiel_play as play  # noqa: E402
from simcore.rng import block_words  # noqa: E402
import naive_giltspiel_perlique  # noqa: E402
import naive_tricks  # noqa: E402
from timing import best_seconds  # noqa: E402

DEALS = 20_000
PERLIQUE_DEALS = 2_000


def uniform_deals(n: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n, 4) uint64, turn-up cards (n,) int64) of n uniform deals."""
    spec = g.Known().deal_spec()
    slots = deal(spec, block_words(seed, 0, n, spec.words_per_deal))
    return np.ascontiguousarray(slots[:, :g.SEATS]), play._turnup_cards(np.ascontiguousarray(slots[:, g.TURNUP]))


def measure(deals: int = DEALS, reference_deals: int = 2, repeat: int = 3) -> dict:
    """{"giltspiel.dd-solve": {"per_s", "reference_per_s", "ratio", "nodes_per_solve"}}: best of ``repeat``
    timings."""
    hands, turnups = uniform_deals(deals)
    trumps = turnups // g.N_RANKS
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
                                  "nodes_per_solve": nodes},
            "giltspiel.perlique-dd-solve": perlique_rates(hands[:PERLIQUE_DEALS], turnups[:PERLIQUE_DEALS], repeat)}


def perlique_rates(hands: np.ndarray, turnups: np.ndarray, repeat: int) -> dict:
    """{"per_s", "reference_per_s", "ratio"} of the Perlique solver on these deals, the reference on the first."""
    trumps = turnups // g.N_RANKS
    perlique.trusted_spiel_teams(hands[:10], trumps[:10], turnups[:10])  # compile or load from the cache
    per_s = len(hands) / best_seconds(lambda: perlique.trusted_spiel_teams(hands, trumps, turnups), repeat)
    start = time.perf_counter()
    naive_giltspiel_perlique.spiel_minimax([g.DECK.cards_of(h) for h in hands[0]], int(turnups[0]), play.FOREHAND % 2)
    reference = 1 / (time.perf_counter() - start)
    return {"per_s": per_s, "reference_per_s": reference, "ratio": per_s / reference}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
