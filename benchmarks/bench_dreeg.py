"""Dreeg throughput: whole games under greedy play, and double-dummy solves per sub-game.

    python benchmarks/bench_dreeg.py      # prints the measure() dict as JSON

* ``dreeg.games-greedy``: complete 4-player games (8 phases) per second, every seat greedy, one core
  (plain Python engine; no reference, a note instead).
* ``dreeg.games-variants``: the same with the three §3.5 sub-games as extra phases 9-11, the §5 A24
  counting-error model on and one seat `sly` (hides a 2-player Rot Assen heart ace).
* ``dreeg.dd-<sub-game>``: full-deal solves per second of `simcore.games.dreeg_dd.solve`, warm, on
  uniform deals: 66 with 4 players (trump, teams 0+2 vs 1+3 as a stand-in side), Rot Assen with 3
  (the soloist against two), Kamerun with 4 (one player against the rest, lead restriction).
* ``dreeg.dd-ending``: 3-trick 4-player endings, next to tests/naive_dreeg.py's plain minimax; the solver through
  `dreeg_dd.trusted_solve`, as the engine calls it (the checked `solve` adds about 20 us of argument checks, more
  than the 12 us such an ending takes).
* ``dreeg.pimc-hand``: 4-player 66 hands per second with one PIMC player (6 worlds) and three greedy.
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

from simcore.games import dreeg_dd as dd  # noqa: E402
from simcore.games import dreeg_rules as r  # noqa: E402
from simcore.games.dreeg import rule_options  # noqa: E402
from simcore.games.dreeg_game import play_game  # noqa: E402
from simcore.games.dreeg_play import play_hand  # noqa: E402
from simcore.games.dreeg_policies import GreedyPolicy, PimcPolicy, SlyPolicy  # noqa: E402
import naive_dreeg  # noqa: E402

SUBGAMES = {"66-4p": (4, 2, {0, 2}, -2), "rot-assen-3p": (3, 2, {0}, -2), "kamerun-4p": (4, -1, {0}, -1)}
"""name: (players, trump, max side, last_led) of the solved positions."""


def _rate(func, items, seconds: float) -> float:
    """Items per second of ``func(item)`` over ``items``, stopping after ``seconds``."""
    start, done = time.perf_counter(), 0
    for item in items:
        func(item)
        done += 1
        if time.perf_counter() - start > seconds:
            break
    return done / (time.perf_counter() - start)


def measure(seconds: float = 7.0) -> dict:
    rng = np.random.default_rng(1)
    opts = rule_options()
    out = {}
    play_game([GreedyPolicy()] * 4, opts, rng)  # warm up
    games = _rate(lambda _: play_game([GreedyPolicy()] * 4, opts, rng), range(10**6), seconds)
    out["dreeg.games-greedy"] = {"per_s": games, "note": "whole 4-player games, plain Python engine"}
    extra = rule_options(kamerun_bei_nacht="extra", schweige_mass="extra", wegloescher="extra",
                         information="counting_errors")
    lineup = [SlyPolicy()] + [GreedyPolicy()] * 3
    games = _rate(lambda _: play_game(lineup, extra, rng), range(10**6), seconds)
    out["dreeg.games-variants"] = {"per_s": games, "note": "whole 4-player games of 11 phases (§3.5 sub-games, "
                                                           "counting errors, one sly seat)"}
    for name, (n, trump, side, last_led) in SUBGAMES.items():
        deals = [r.deal_hands(rng.permutation(24), n)[0] for _ in range(400)]
        dd.solve(deals[0], 0, trump, side, last_led=last_led)
        rate = _rate(lambda h: dd.solve(h, 0, trump, side, last_led=last_led), deals, seconds)
        out[f"dreeg.dd-{name}"] = {"per_s": rate, "note": f"full {n}-player deals"}
    endings = [[set(p[i * 3:(i + 1) * 3]) for i in range(4)] for p in (rng.permutation(24)[:12] for _ in range(200))]
    masks = [[r.DECK.mask(h) for h in e] for e in endings]
    fast = _rate(lambda h: dd.trusted_solve(h, 0, 2, {0, 2}), masks, seconds / 2)
    slow = _rate(lambda e: naive_dreeg.minimax(e, 0, 2, {0, 2}), endings, seconds / 2)
    out["dreeg.dd-ending"] = {"per_s": fast, "reference_per_s": slow, "ratio": fast / slow}
    pimc = [PimcPolicy(rng)] + [GreedyPolicy()] * 3
    rate = _rate(lambda _: play_hand("66", 1, rng.permutation(24), pimc, opts), range(10**6), seconds)
    out["dreeg.pimc-hand"] = {"per_s": rate, "note": "4-player 66 hands, one PIMC player"}
    return out


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
