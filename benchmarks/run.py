"""Throughput of every kernel next to its plain-Python reference, in one run.

    python benchmarks/run.py            # table
    python benchmarks/run.py --json     # {"kernel": {"per_s", "reference_per_s", "ratio"}, ...}

Kernels are timed warm (compiled) on one core; the reference is tests/naive.py, the readable twin
the tests compare each kernel with. The runner line times the whole Giltspiel figure-odds job
(deal, Gleich and Hanger of all four hands, team outcomes) on 1 and 2 worker processes (warm
workers) and reports the speed-up.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from analysis.games import giltspiel as giltspiel_odds  # noqa: E402
from simcore import betting, runner  # noqa: E402
from simcore.dealing import deal  # noqa: E402
from simcore.games import giltspiel as g  # noqa: E402
from simcore.games import giltspiel_betting  # noqa: E402
from simcore.rng import BLOCK_DEALS, block_words  # noqa: E402
import naive  # noqa: E402
from timing import best_rate  # noqa: E402
import naive_perlaggen_deal  # noqa: E402
import naive_pinochle3  # noqa: E402
import naive_giltspiel_bets_seen  # noqa: E402
from simcore.games import perlaggen_deal as perl  # noqa: E402
from simcore.games import pinochle3 as pin  # noqa: E402
from simcore.games.pinochle3_discard import MeldStatsJob, most_meld_kept  # noqa: E402


def game_benchmarks() -> list:
    """Every ``benchmarks/bench_*.py`` module; each has ``measure() -> {name: {"per_s", ...}}``, and rows
    with a ``reference_per_s`` and ``ratio`` join the table (others print their own ``note``)."""
    return [importlib.import_module(path.stem) for path in sorted(Path(__file__).parent.glob("bench_*.py"))]


def reference_deal_figures(words: np.ndarray, sizes, fixed) -> list:
    """Plain Python: deal each row and resolve Gleich and Hanger for the four hands."""
    results = []
    for row in words:
        places = naive.deal(row, g.DECK.n_cards, sizes, fixed)
        hands = places[:4]
        results.append((naive.team_result([naive.best_gleich(h) for h in hands]),
                        naive.team_result([naive.best_hanger(h) for h in hands])))
    return results


def reference_perlique(slots: np.ndarray) -> list:
    """Plain Python: Gleich and Hanger of the four hands with the turn-up suit's Perlique wild (brute force)."""
    out = []
    for row in slots:
        trump = naive.cards_of(row[g.TURNUP])[0] // g.N_RANKS
        wild = {trump * g.N_RANKS + r for r in g.PERLIQUE_RANKS}
        codes = [naive.wild_figures(naive.cards_of(m), wild) for m in row[:4]]
        out.append((naive.team_result([c[0] for c in codes]), naive.team_result([c[1] for c in codes])))
    return out


def reference_figures(slots: np.ndarray) -> list:
    return [(naive.team_result([naive.best_gleich(naive.cards_of(m)) for m in row[:4]]),
             naive.team_result([naive.best_hanger(naive.cards_of(m)) for m in row[:4]])) for row in slots]


def perlaggen_rates(ref_deals: int) -> tuple[float, float]:
    """Innsbruck deal as played (cut, turn-up, exchange) plus L0 outcomes of all four hands, per second."""
    words = block_words(3, 0, BLOCK_DEALS, perl.WORDS_PER_DEAL)
    few = [list(map(int, row)) for row in words[:ref_deals]]

    def reference():
        for row in few:
            table = naive_perlaggen_deal.deal(row)
            for seat in range(4):
                naive_perlaggen_deal.l0(table["hands"][seat], "innsbruck", table["trump"])

    kernel = best_rate(lambda: perl.outcomes(perl.deal_block(words)), BLOCK_DEALS)
    return kernel, best_rate(reference, ref_deals, repeat=1)


def pinochle_meld_rates(ref_hands: int) -> tuple[float, float]:
    """Best-trump meld of random 15-card hands: kernel and plain-Python reference, hands per second."""
    spec = MeldStatsJob(0).spec
    hands = deal(spec, block_words(2, 0, BLOCK_DEALS, spec.words_per_deal))[:, 0].copy()
    tokens = [[pin.DECK.token(c) for c in pin.DECK.cards_of(int(m))] for m in hands[:ref_hands]]
    kernel = best_rate(lambda: pin.best_meld(hands), BLOCK_DEALS)
    reference = best_rate(lambda: [max(naive_pinochle3.meld_total(t, s) for s in pin.DECK.suits) for t in tokens],
                          ref_hands, repeat=1)
    return kernel, reference


def pinochle_kept_rates(ref_holdings: int) -> tuple[float, float]:
    """The most meld kept from random 18-card holdings (hand and kitty, 3 buried): kernel and plain-Python
    reference (every discard under every trump), holdings per second."""
    spec = MeldStatsJob(0).spec
    slots = deal(spec, block_words(2, 0, BLOCK_DEALS, spec.words_per_deal))
    holdings = slots[:, 0] | slots[:, pin.LAYOUT.index("kitty")]
    tokens = [[pin.DECK.token(c) for c in pin.DECK.cards_of(int(m))] for m in holdings[:ref_holdings]]
    kernel = best_rate(lambda: most_meld_kept(holdings), BLOCK_DEALS)
    reference = best_rate(lambda: [naive_pinochle3.most_meld_kept(t) for t in tokens], ref_holdings, repeat=1)
    return kernel, reference


def bets_seen_rates(slots, keep, tallies, ref_deals: int) -> tuple[float, float]:
    """The figures tallied by the opponents' bet categories (`giltspiel.OddsJob` with bets seen, policy aggressive,
    partner information) against the plain-Python weighting of tests/naive_giltspiel_bets_seen.py."""
    policy = betting.PRESETS["aggressive"]
    table = giltspiel_betting.figure_table("partner")
    categories = betting.bet_categories(table, policy)
    d = table[:, :, 0] - table[:, :, 2]
    seen = {"gleich": "bet"}
    kernel = best_rate(lambda: g._odds_counts(slots, keep, 1, -1, g.RUN_TABLE, g.TOP_BIT, None, categories, *tallies),
                       BLOCK_DEALS)
    reference = best_rate(lambda: naive_giltspiel_bets_seen.weighted_odds(slots[:ref_deals], keep[:ref_deals], 1, seen,
                                                                           policy, "partner", d), ref_deals, repeat=1)
    return kernel, reference


def facing_rates(slots, keep, ref_deals: int) -> tuple[float, float]:
    """Table F's tallies (`giltspiel.FacingJob`'s kernel: six bets seen, policy aggressive, partner information) by
    class against the plain-Python weighting of tests/naive_giltspiel_bets_seen.py (`facing_by_class`)."""
    policy = betting.PRESETS["aggressive"]
    table = giltspiel_betting.figure_table("partner")
    categories = giltspiel_betting.facing_categories(policy, "partner")
    counts = np.zeros((len(categories), 2, len(g.FACING_VIEWS), 2 * g.HANGER_BINS, 3, 4), dtype=np.int64)
    d = table[:, :, 0] - table[:, :, 2]
    kernel = best_rate(lambda: g._facing_counts(slots, keep, 1, g.RUN_TABLE, g.TOP_BIT, None, categories, counts),
                       BLOCK_DEALS)
    reference = best_rate(lambda: naive_giltspiel_bets_seen.facing_by_class(slots[:ref_deals], keep[:ref_deals], 1,
                                                                            policy, "partner", d, "team",
                                                                            giltspiel_odds.FACING_VALUES),
                          ref_deals, repeat=1)
    return kernel, reference


def measure(ref_deals: int, runner_deals: int) -> dict:
    job = g.OddsJob(g.Known(), team=1)
    spec = job.spec
    sizes = list(spec.layout.sizes)
    fixed = [[] for _ in sizes]
    words = block_words(1, 0, BLOCK_DEALS, spec.words_per_deal)
    slots = deal(spec, words)
    few_words, few_slots = words[:ref_deals], slots[:ref_deals]
    results = {}

    kernel = best_rate(lambda: job.run_block(1, 0, BLOCK_DEALS), BLOCK_DEALS)
    reference = best_rate(lambda: reference_deal_figures(few_words, sizes, fixed), ref_deals, repeat=1)
    results["giltspiel.deal+gleich+hanger"] = (kernel, reference)

    kernel = best_rate(lambda: deal(spec, words), BLOCK_DEALS)
    reference = best_rate(lambda: [naive.deal(r, g.DECK.n_cards, sizes, fixed) for r in few_words], ref_deals, repeat=1)
    results["deal"] = (kernel, reference)

    keep = np.ones(BLOCK_DEALS, dtype=bool)
    tallies = (np.zeros(g.BET_CELLS, dtype=np.int64), np.zeros((g.BET_CELLS, 2, 4), dtype=np.int64),
               np.zeros((g.BET_CELLS, 2, len(g.OPPONENT_STATS)), dtype=np.int64))
    no_bets = np.zeros((2, 1, 1), dtype=np.int8)
    kernel = best_rate(lambda: g._odds_counts(slots, keep, 1, -1, g.RUN_TABLE, g.TOP_BIT, None, no_bets, *tallies),
                       BLOCK_DEALS)
    reference = best_rate(lambda: reference_figures(few_slots), ref_deals, repeat=1)
    results["giltspiel.figures(4 hands)"] = (kernel, reference)

    kernel = best_rate(lambda: g._odds_counts(slots, keep, 1, -1, g.RUN_TABLE, g.TOP_BIT, g.PERLIQUE, no_bets,
                                              *tallies), BLOCK_DEALS)
    reference = best_rate(lambda: reference_perlique(few_slots[:ref_deals // 10]), ref_deals // 10, repeat=1)
    results["giltspiel.figures(4 hands, Perlique)"] = (kernel, reference)
    results["giltspiel.figures(4 hands, bets seen)"] = bets_seen_rates(slots, keep, tallies, ref_deals)
    results["giltspiel.facing(by class, 6 values)"] = facing_rates(slots, keep, ref_deals)

    results["perlaggen.deal-as-played+L0"] = perlaggen_rates(ref_deals)
    results["pinochle3.meld(best trump)"] = pinochle_meld_rates(ref_deals)
    results["pinochle3.most_meld_kept(18 cards)"] = pinochle_kept_rates(max(2, ref_deals // 500))

    out = {name: {"per_s": k, "reference_per_s": r, "ratio": k / r} for name, (k, r) in results.items()}
    for module in game_benchmarks():
        out.update(module.measure())

    def timed_run(jobs: int) -> float:
        runner.run(job, 4 * jobs * runner.DEFAULT_CHUNK_DEALS, 1, jobs=jobs, checkpoint=False,
                   progress=False)  # warm workers
        start = time.perf_counter()
        runner.run(job, runner_deals, 1, jobs=jobs, checkpoint=False, progress=False)
        return runner_deals / (time.perf_counter() - start)

    one, two = timed_run(1), timed_run(2)
    out["runner.giltspiel-odds"] = {"per_s": one, "jobs2_per_s": two, "speedup_2_jobs": two / one}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--reference-deals", type=int, default=3000)
    parser.add_argument("--runner-deals", type=int, default=40_000_000)
    args = parser.parse_args()
    results = measure(args.reference_deals, args.runner_deals)
    if args.json:
        print(json.dumps(results, indent=1))
        return 0
    print(f"{'kernel (per second on one core)':<36}{'per s':>14}{'reference per s':>18}{'ratio':>10}")
    for name, r in results.items():
        if "reference_per_s" in r:
            ref = f"{r['reference_per_s']:,.0f}" if r["reference_per_s"] >= 100 else f"{r['reference_per_s']:.2f}"
            ratio = f"{r['ratio']:,.0f}" if r["ratio"] >= 10 else f"{r['ratio']:.2f}"
            print(f"{name:<36}{r['per_s']:>14,.0f}{ref:>18}{ratio:>10}")
    print()
    for name, r in results.items():
        if "note" in r and "reference_per_s" not in r:
            rate = f"{r['per_s']:,.0f}" if r["per_s"] >= 100 else f"{r['per_s']:.2f}"
            print(f"{name}: {rate} per s ({r['note']})")
    for name, r in results.items():
        if "note" in r and "reference_per_s" in r:
            print(f"{name}: {r['note']}")
    r = results["runner.giltspiel-odds"]
    print(f"\nrunner, Giltspiel figure-odds job: 1 job {r['per_s']:,.0f} deals/s, "
          f"2 jobs {r['jobs2_per_s']:,.0f} deals/s, speed-up {r['speedup_2_jobs']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
