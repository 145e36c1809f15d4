"""Check the 3-player Perlaggen match equity (`cardsim thresholds perlaggen --players 3 --games N`) against games
played out from scores near the end.

For each score (seat 0, seat 1, seat 2) and each seat to deal next, ``--played`` games of the formula policy in all
three seats are played from there to the end (`simcore.games.perlaggen_three.play_game` with ``scores`` and
``dealer``); every player's share of the wins, with its 95% Wilson interval, is set next to the class model's W and
interval (`analysis.games.betting.equity3`) and to the model of one deal distribution for all scores (the self-play
deals pooled, `simcore.games.perlaggen_three_equity.match_equity` of one row). A seat with W under 0.01 in the
class model is left out (a game in a hundred or fewer is below what these games tell).

    .venv/bin/python scripts/check_three_equity.py [--games 2000] [--class-deals N] [--played 1000] [--jobs 2]

Prints a line per score and dealer, then per model: the cells whose W lies inside the games' interval (for the
class model also those whose interval meets it), the mean |W - share|, the part of it the games' own noise makes,
and the mean of (W - share)² over the two variances, the games' taken at W (about 1 when the differences are noise
alone; the pooled model's interval is not computed, so its variance is the games'). The self-play games run twice,
once inside `equity3` and once for the pooled model's counts (the same games).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from analysis.games.betting import equity3  # noqa: E402
from analysis.stats import wilson  # noqa: E402
from simcore.betting import load_policy  # noqa: E402
from simcore.games import perlaggen_three as T  # noqa: E402
from simcore.games import perlaggen_three_equity as E  # noqa: E402

TARGET = 18
SCORES = ((17, 17, 17), (16, 16, 0), (0, 16, 0), (17, 15, 0), (16, 16, 16), (17, 10, 10), (15, 17, 12), (13, 16, 16),
          (17, 17, 0))
"""The scores (seat 0, seat 1, seat 2) played out, each with every seat to deal next."""


def wins_from(scores, dealer: int, games: int, seed) -> np.ndarray:
    """(3,) games won by each seat of ``games`` played out from ``scores`` with ``dealer`` to deal (formula)."""
    policies = [load_policy("formula")] * 3
    wins = np.zeros(3, dtype=np.int64)
    for game_seed in np.random.SeedSequence(seed).spawn(games):
        deal_rng, bluff_rng = (np.random.default_rng(s) for s in game_seed.spawn(2))
        wins[T.play_game(policies, deal_rng, bluff_rng, TARGET, scores=scores, dealer=dealer).winner] += 1
    return wins


def seen_by(scores, dealer: int, seat: int) -> tuple[str, int, int, int]:
    """(who deals next seen from ``seat``, his score, his left's, his right's): a match_equity row's index."""
    return (E.DEALERS[(dealer - seat) % 3], scores[seat], scores[(seat + 1) % 3], scores[(seat + 2) % 3])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="self-play games behind the model (default 2000)")
    parser.add_argument("--class-deals", type=int, default=None, help="deals per near limit class (default games/10)")
    parser.add_argument("--played", type=int, default=1000, help="games played out per score and dealer")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    if args.games < 2 or args.played < 1 or (args.class_deals is not None and args.class_deals < 2):
        parser.error("--games and --class-deals must be at least 2, --played at least 1")
    tables = equity3("formula", args.games, args.seed, TARGET, class_deals=args.class_deals, jobs=args.jobs,
                     progress=False)
    model = tables["match_equity"].set_index(["dealer", "a", "b", "c"])
    # the pooled model from the same self-play games: W of one distribution for every score
    counts = equity3_counts(args)
    pooled = E.player_views(E.match_equity(counts, TARGET), TARGET)
    cells = [(scores, dealer) for scores in SCORES for dealer in range(3)]
    played = Parallel(n_jobs=args.jobs)(delayed(wins_from)(scores, dealer, args.played, [args.seed, k])
                                        for k, (scores, dealer) in enumerate(cells))
    rows = {"class model": [], "pooled": []}
    for (scores, dealer), wins in zip(cells, played):
        line = [f"{','.join(map(str, scores))} dealer {dealer}:"]
        for seat in range(3):
            at = seen_by(scores, dealer, seat)
            w = model.loc[at]
            if w.W < 0.01:
                continue
            share, (lo, hi) = wins[seat] / args.played, wilson(int(wins[seat]), args.played)
            old = pooled[E.DEALERS.index(at[0]), at[1], at[2], at[3]]
            for name, value, spread, meets in (("class model", w.W, (w.hi - w.lo) / 3.92, w.lo <= hi and lo <= w.hi),
                                               ("pooled", old, 0.0, lo <= old <= hi)):
                games_var = value * (1 - value) / args.played
                rows[name].append((value, lo <= value <= hi, meets, games_var + spread ** 2, share, games_var))
            line.append(f"seat {seat} played {share:.3f} [{lo:.3f}, {hi:.3f}] model {w.W:.3f} [{w.lo:.3f}, "
                        f"{w.hi:.3f}] pooled {old:.3f}")
        print("  ".join(line))
    print(f"target {TARGET}, {args.games:,} self-play games, {tables['match_equity'].attrs['class_deals']:,} deals a "
          f"class, {args.played:,} games played out per score and dealer, seed {args.seed}")
    for name, listed in rows.items():
        w, inside, meets, var, share, games_var = (np.array(column, dtype=float) for column in zip(*listed))
        met = f", its interval meets it in {int(meets.sum())}" if name == "class model" else ""
        print(f"{name}: W inside the games' interval in {int(inside.sum())} of {len(listed)}{met}; mean "
              f"|W - played| {np.mean(np.abs(w - share)):.4f} (the games' noise alone about "
              f"{np.mean(np.sqrt(2 / np.pi * games_var)):.4f}), mean squared difference over variance "
              f"{np.mean((w - share) ** 2 / np.maximum(var, 1e-9)):.2f}")
    return 0


def equity3_counts(args) -> np.ndarray:
    """The self-play deals' outcome counts (`CODES`,) behind `equity3` with the same games and seed."""
    from simcore import runner

    counts = runner.run(E.Equity3Job(load_policy("formula"), TARGET, "innsbruck"), args.games, args.seed,
                        jobs=args.jobs, progress=False)
    return E.Equity3Job.outcomes(counts)[0]


if __name__ == "__main__":
    sys.exit(main())
