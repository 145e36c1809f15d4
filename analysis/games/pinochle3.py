"""Three-player Pinochle meld of a hand, as a DataFrame and as ``cardsim meld pinochle3``.

Python API::

    from analysis.games import pinochle3
    frame = pinochle3.meld("HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 D9")    # every trump
    frame = pinochle3.meld("...", trump="H")                                   # one trump
    tables = pinochle3.stats(n=1_000_000, seed=1)      # meld and kitty-gain distributions
"""

from __future__ import annotations

import argparse
import math
from functools import lru_cache

import numpy as np
import pandas as pd

from analysis.commands import Command, add_run_arguments, emit, register_command, run_options
from analysis.stats import Estimate, table_records
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.rng import normalize_seed

GAME = "pinochle3"
HOLDING_SIZES = (p.HAND_SIZE, p.HAND_SIZE + p.KITTY_SIZE)


def parse_holding(hand: str) -> list[int]:
    """Physical cards of a 15-card hand (or 18 cards: a hand with the kitty)."""
    cards = p.DECK.parse_cards(hand, "--hand")
    if len(cards) not in HOLDING_SIZES:
        raise CardsimError(f"--hand must list {HOLDING_SIZES[0]} cards (or {HOLDING_SIZES[1]} with the kitty), "
                           f"got {len(cards)}")
    return cards


def parse_trump(trump: str) -> int:
    letters = [s.upper() for s in p.DECK.suits]
    if trump.strip().upper() not in letters:
        raise CardsimError(f"--trump must be one of {', '.join(p.DECK.suits)} (spades, hearts, diamonds, clubs), "
                           f"got '{trump}'")
    return letters.index(trump.strip().upper())


def meld(hand: str, trump: str | None = None) -> pd.DataFrame:
    """Meld breakdown: one row per declared meld (trump, meld, cards, points) for ``trump`` or every trump.

    attrs: ``totals`` {trump letter: points}, ``best_trump`` (first of S H D C among the best) and
    ``hand``.
    """
    cards = parse_holding(hand)
    trumps = [parse_trump(trump)] if trump is not None else list(range(p.N_SUITS))
    mask = np.array([p.DECK.mask(cards)], dtype=np.uint64)
    rows, totals = [], {}
    for t in trumps:
        letter = p.DECK.suits[t]
        totals[letter] = int(p.meld_points(mask, t)[0])
        for m in p.meld_breakdown(cards, t):
            rows.append({"trump": letter, "meld": m.name, "cards": p.DECK.format_cards(m.cards), "points": m.points})
    frame = pd.DataFrame(rows, columns=["trump", "meld", "cards", "points"])
    best = max(totals, key=lambda letter: (totals[letter], -p.DECK.suits.index(letter)))
    frame.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), totals=totals, best_trump=best)
    return frame


def meld_json(frame: pd.DataFrame) -> dict:
    """{"trump", "total", "melds": [{"name", "cards", "points"}]} for the given or best trump, plus
    "by_trump" with every trump's total when no trump was given."""
    a = frame.attrs
    trump = a["best_trump"]
    rows = frame[frame.trump == trump]
    out = {"game": GAME, "hand": a["hand"], "trump": trump, "total": a["totals"][trump],
           "melds": [{"name": r.meld, "cards": r.cards, "points": int(r.points)} for r in rows.itertuples()]}
    if len(a["totals"]) > 1:
        out["by_trump"] = a["totals"]
    return out


def format_meld(frame: pd.DataFrame) -> str:
    a = frame.attrs
    lines = [f"Pinochle meld of {a['hand']}"]
    for trump, total in a["totals"].items():
        best = "   <- best" if len(a["totals"]) > 1 and trump == a["best_trump"] else ""
        lines += ["", f"trump {trump} ({p.DECK.suit_names[p.DECK.suits.index(trump)]}): {total} points{best}"]
        for r in frame[frame.trump == trump].itertuples():
            lines.append(f"  {r.meld:<22}{r.points:>6}   {r.cards}")
    return "\n".join(lines)


def _add_meld_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help="your 15 cards (18 with the kitty); two of each card exist")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: every trump and the best)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_meld(args: argparse.Namespace) -> int:
    frame = meld(args.hand, args.trump)
    return emit(args, frame, meld_json, format_meld)


# --- meld statistics of random deals -----------------------------------------------------------
MELD_THRESHOLDS = (50, 100, 150, 200, 250, 300, 350, 400, 500)
GAIN_THRESHOLDS = (10, 20, 50, 100, 150)


@lru_cache(maxsize=None)
def exact_meld_ccdf(hand_size: int) -> np.ndarray:
    """Exact P(best-trump meld >= 10 b) of a random holding of ``hand_size`` cards, b = 0, 1, ..."""
    counts = p.exact_meld_distribution(hand_size)
    ccdf = counts[::-1].cumsum()[::-1] / counts.sum()
    ccdf.setflags(write=False)  # cached: shared by every caller
    return ccdf


def _tail_rows(hist: np.ndarray, n: int, thresholds, exact: np.ndarray | None, what: str) -> list[dict]:
    rows = []
    for x in thresholds:
        est = Estimate(int(hist[x // 10:].sum()), n)
        row = {"quantity": what, "threshold": x, "p": est.p, "lo": est.lo, "hi": est.hi,
               "successes": est.successes, "n": n}
        if exact is not None:
            row["exact"] = float(exact[x // 10]) if x // 10 < exact.size else 0.0
        rows.append(row)
    return rows


def _mean_row(hist: np.ndarray, n: int, what: str, exact: float | None) -> dict:
    points = np.arange(hist.size) * 10.0
    mean = float((hist * points).sum() / n)
    sd = math.sqrt(max(float((hist * points ** 2).sum() / n) - mean ** 2, 0.0))
    se = sd / math.sqrt(n)
    return {"quantity": what, "mean": mean, "se": se, "lo": mean - 1.959963984540054 * se,
            "hi": mean + 1.959963984540054 * se, "n": n, "exact": exact}


def stats(n: int = 1_000_000, seed=None, seat: int = 0, **run_kw) -> dict[str, pd.DataFrame]:
    """Best-trump meld of a random hand, of hand + kitty, and the kitty gain (spec §9.2-§9.3).

    tails: P(meld >= threshold) with Wilson intervals and the exact value where it is known;
    means: mean points with a normal 95% interval (se = sd / sqrt(n)) and the exact mean.
    The gain is the best 18-card meld minus the best 15-card meld: an upper bound on the gain after
    the discard of 3 (spec §9.3: the 15-card limit costs meld in about 0.04% of deals).
    """
    seed = normalize_seed(seed)
    counts = runner.run(p.MeldStatsJob(seat), n, seed, **run_kw)
    deals = int(counts[0])
    hand, full, gain = counts[1:].reshape(3, p.MELD_BINS)
    exact15, exact18 = exact_meld_ccdf(p.HAND_SIZE), exact_meld_ccdf(p.HAND_SIZE + p.KITTY_SIZE)
    tails = pd.DataFrame(_tail_rows(hand, deals, MELD_THRESHOLDS, exact15, "hand")
                         + _tail_rows(full, deals, MELD_THRESHOLDS, exact18, "hand+kitty")
                         + _tail_rows(gain, deals, GAIN_THRESHOLDS, None, "gain"))
    means = pd.DataFrame([_mean_row(hand, deals, "hand", float(exact15[1:].sum() * 10)),
                          _mean_row(full, deals, "hand+kitty", float(exact18[1:].sum() * 10)),
                          _mean_row(gain, deals, "gain", None)])
    tables = {"tails": tails, "means": means}
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, seed=seed, seat=seat)
    return tables


def stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["tails"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "seat": a["seat"],
            "tables": table_records(tables)}


def format_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["tails"].attrs
    lines = [f"Pinochle meld statistics: n = {a['n']:,} deals, seed {a['seed']}, seat {a['seat']}, 95% intervals",
             "", "mean points          estimate [95% interval]        exact"]
    for r in tables["means"].itertuples():
        exact = "" if r.exact is None or (isinstance(r.exact, float) and math.isnan(r.exact)) else f"{r.exact:.3f}"
        lines.append(f"  {r.quantity:<12}{r.mean:>10.2f} [{r.lo:.2f}, {r.hi:.2f}]{exact:>16}")
    names = {"hand": "best meld of the 15-card hand", "hand+kitty": "best meld of hand + kitty (18 cards)",
             "gain": "kitty gain (upper bound)"}
    for what, rows in tables["tails"].groupby("quantity", sort=False):
        lines += ["", f"P({names[what]} >= x)" + ("          exact" if what != "gain" else "")]
        for r in rows.itertuples():
            exact = f"   {r.exact:.6f}" if what != "gain" else ""
            lines.append(f"  x = {r.threshold:<5}{r.p:.4f} [{r.lo:.4f},{r.hi:.4f}]{exact}")
    return "\n".join(lines)


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seat", type=int, default=0, help="the seat whose hand is measured, 0-2 (default 0)")
    add_run_arguments(parser, default_n=1_000_000)


def _run_stats(args: argparse.Namespace) -> int:
    tables = stats(args.n, args.seed, args.seat, **run_options(args))
    return emit(args, tables, stats_json, format_stats)


register_command("stats", GAME, Command("meld and kitty-gain distributions of random deals",
                                        _add_stats_arguments, _run_stats))
register_command("meld", GAME, Command("meld breakdown of a hand", _add_meld_arguments, _run_meld))
