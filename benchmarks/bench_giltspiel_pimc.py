"""PIMC decisions per second for Giltspiel (all four seats PIMC, whole deals played to the Spiel).

    python benchmarks/bench_giltspiel_pimc.py      # prints the measure() dict as JSON

Timed warm on one core: `DEALS` uniform deals played out with `SAMPLES` samples per decision
(communication none). A decision is a card a PIMC player chooses, counting those with one
sensible card (no samples needed); the reference is the plain-Python PIMC vote
(tests/naive_giltspiel_pimc.py: minimax without pruning) on first-trick decisions, few of them.
``giltspiel.perlique-pimc-deal``: the first `PERLIQUE_DEALS` of those deals played with the Perlique wild
(simcore.games.giltspiel_perlique_pimc), against its reference tests/naive_giltspiel_perlique_pimc.py, the same
plays by a Python driver around the same solver.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from simcore.games import giltspiel as g  # noqa: E402
from simcore.games import giltspiel_perlique_pimc as perlique_pimc  # noqa: E402
from simcore.games import giltspiel_pimc as pimc  # noqa: E402
import naive_giltspiel_perlique_pimc  # noqa: E402
import naive_giltspiel_pimc  # noqa: E402
from test_giltspiel_pimc import uniform_deals  # noqa: E402

DEALS = 400
SAMPLES = pimc.DEFAULT_SAMPLES
PERLIQUE_DEALS = 100


def _first_leads_per_s(hands, trumps, turnups, samples: int) -> float:
    """Kernel PIMC decisions of seat 1 leading trick 1 (the costliest decision) per second."""
    start = time.perf_counter()
    for i in range(len(hands)):
        known = [0, hands[i][1], 0, 0]
        pimc.choose(hands[i], 1, int(trumps[i]), known, samples, seed=i, gone=int(turnups[i]))
    return len(hands) / (time.perf_counter() - start)


def _reference_first_leads_per_s(hands, trumps, decisions: int, samples: int) -> float:
    """The same decisions in plain Python (one random sample of the hidden cards, every legal card
    solved by the minimax; the time of one sample times ``samples``, since votes add up per sample)."""
    rng = random.Random(1)
    start = time.perf_counter()
    for i in range(decisions):
        sets = [set(g.DECK.cards_of(h)) for h in hands[i]]
        cards = rng.sample(sorted(set(range(32)) - sets[1]), 15)
        deal = [set(cards[0:5]), sets[1], set(cards[5:10]), set(cards[10:15])]
        naive_giltspiel_pimc.votes([deal], 1, int(trumps[i]), 1)
    return decisions / ((time.perf_counter() - start) * samples)


def _perlique_deals_per_s(play_deal, hands, turnups, samples: int) -> float:
    """Deals played to the Spiel with the Perlique wild per second by ``play_deal`` (hands, turnup, samples)."""
    start = time.perf_counter()
    for i in range(len(hands)):
        play_deal([int(h) for h in hands[i]], g.DECK.cards_of(turnups[i])[0], samples)
    return len(hands) / (time.perf_counter() - start)


def perlique_rates(hands, turnups, samples: int) -> dict:
    """{"per_s", "reference_per_s", "ratio", "samples", "note"} of Perlique PIMC whole deals."""
    _perlique_deals_per_s(perlique_pimc.play_line, hands[:2], turnups[:2], samples)  # compile or load from the cache
    per_s = _perlique_deals_per_s(perlique_pimc.play_line, hands, turnups, samples)
    reference = _perlique_deals_per_s(naive_giltspiel_perlique_pimc.play_deal, hands, turnups, samples)
    return {"per_s": per_s, "reference_per_s": reference, "ratio": per_s / reference, "samples": samples,
            "note": "Perlique wild, all four seats PIMC; reference: the Python driver"}


def measure(deals: int = DEALS, samples: int = SAMPLES, reference_decisions: int = 2, repeat: int = 2) -> dict:
    """{"giltspiel.pimc-decision": {"per_s" (decisions of whole play-outs), "deals_per_s", "samples"},
    "giltspiel.pimc-first-lead": {"per_s", "reference_per_s", "ratio"}, "giltspiel.perlique-pimc-deal": {"per_s"
    (deals), "reference_per_s", "ratio", "samples", "note"}}."""
    hands, trumps, turnups = uniform_deals(deals, 1)
    pimc.play_out(hands[:2], trumps[:2], turnups[:2], samples)  # compile or load from the cache
    lines = [pimc.play_line(hands[i], int(trumps[i]), g.DECK.cards_of(turnups[i])[0], samples, seed=i)
             for i in range(deals)]
    decisions = sum(len(line) for line in lines)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        pimc.play_out(hands, trumps, turnups, samples)
        best = min(best, time.perf_counter() - start)
    leads = _first_leads_per_s(hands, trumps, turnups, samples)
    reference = _reference_first_leads_per_s(hands, trumps, reference_decisions, samples)
    return {"giltspiel.pimc-decision": {"per_s": decisions / best, "deals_per_s": deals / best, "samples": samples,
                                        "note": "all four seats PIMC, whole deals to the Spiel"},
            "giltspiel.pimc-first-lead": {"per_s": leads, "reference_per_s": reference, "ratio": leads / reference},
            "giltspiel.perlique-pimc-deal": perlique_rates(hands[:PERLIQUE_DEALS], turnups[:PERLIQUE_DEALS], samples)}


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
