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

from analysis.commands import (Command, add_games_alias, add_run_arguments, emit, long_frame, option_items, positive_int,
                               register_command, run_options)
from analysis import solving
from analysis.stats import Estimate, ratio_share, table_records
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_play as play
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
    """A trump suit given as S H D C or its name (any case); CardsimError otherwise."""
    return solving.parse_trump(trump, p.DECK)


MELD_OPTIONS = ("double_bonus", "double_royal_marriage", "roundhouse_meld", "roundhouse_with_rope", "scale")
"""The options of `meld` and `stats`: the meld variants (V5-V7) and the ÷10 scale (V12)."""
SELF_PLAY_CANNOT = {
    "unanimous_throw_in": "no bidding policy agrees to throw a hand in",
    "trump_requires_marriage": "the bidder names the best trump for his discard, marriage or not",
    "allow_partial_meld": "every player declares his full meld",
    "renege_defender_bidder_award": "nobody reneges in self-play",
    "misdeal_redeal": "nobody misdeals in self-play",
}
"""Options `match` does not model, with the reason."""
GREEDY_ALIKE_RULES = ("new1945", "new1945_alt")
"""Play rules under which greedy play picks the same cards as under old: it heads every trick it can."""


def check_greedy_rule(rule: str, what: str, mend: str) -> None:
    """CardsimError if play rule ``rule`` cannot change ``what``, which only greedy play decides."""
    if rule in GREEDY_ALIKE_RULES:
        raise CardsimError(f"play rule {rule} changes nothing in {what}: greedy play heads every trick it can, "
                           f"so it plays as under old (only old_strict differs); {mend}")


def checked_options(options: dict | None, command: str) -> dict:
    """``options`` if each one set away from its default changes ``cardsim <command> pinochle3``
    (meld, stats: `MELD_OPTIONS`; match: all but `SELF_PLAY_CANNOT`), else CardsimError: an option is
    never accepted and ignored."""
    options = dict(options or {})
    chosen = p.rule_options(options)
    defaults = {o.name: o.default for o in p.OPTIONS}
    for name, value in options.items():
        if value == defaults[name]:
            continue
        if command != "match" and name not in MELD_OPTIONS:
            where = "" if name in SELF_PLAY_CANNOT else " (it is a rule of 'cardsim match pinochle3')"
            raise CardsimError(f"option {name} does not change 'cardsim {command} pinochle3', whose options are "
                               f"{', '.join(MELD_OPTIONS)}; drop it{where}")
        if command == "match" and name in SELF_PLAY_CANNOT:
            raise CardsimError(f"option {name}={value} is not modelled by 'cardsim match pinochle3' (its self-play: "
                               f"{SELF_PLAY_CANNOT[name]}); drop it")
    if command == "match":
        check_greedy_rule(chosen["play_rule"], "'cardsim match pinochle3'", "use play_rule=old or old_strict")
    if chosen["roundhouse_meld"] != (chosen["roundhouse_with_rope"] == 390):
        raise CardsimError("options roundhouse_meld=True and roundhouse_with_rope=390 (V7) change points only "
                           "together: the roundhouse alone scores 240 like its parts and 350 with a rope as in "
                           "the main game; give both or neither")
    return options


def meld(hand: str, trump: str | None = None, options: dict | None = None) -> pd.DataFrame:
    """Meld breakdown: one row per declared meld (trump, meld, cards, points) for ``trump`` or every trump.

    options: the meld options (`MELD_OPTIONS`: the variants V5-V7 change the values, scale 0.1 divides
    them by 10). attrs: ``totals`` {trump letter: points}, ``best_trump`` (first of S H D C among the
    best), ``hand`` and ``options``.
    """
    options = checked_options(options, "meld")
    divisor = p.point_divisor(options)
    cards = parse_holding(hand)
    trumps = [parse_trump(trump)] if trump is not None else list(range(p.N_SUITS))
    mask = np.array([p.DECK.mask(cards)], dtype=np.uint64)
    rows, totals = [], {}
    for t in trumps:
        letter = p.DECK.suits[t]
        totals[letter] = int(p.meld_points(mask, t, options)[0]) // divisor
        for m in p.meld_breakdown(cards, t, options):
            rows.append({"trump": letter, "meld": m.name, "cards": p.DECK.format_cards(m.cards),
                         "points": m.points // divisor})
    frame = pd.DataFrame(rows, columns=["trump", "meld", "cards", "points"])
    best = max(totals, key=lambda letter: (totals[letter], -p.DECK.suits.index(letter)))
    frame.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), totals=totals, best_trump=best,
                       options=options)
    return frame


def meld_json(frame: pd.DataFrame) -> dict:
    """{"trump", "total", "melds": [{"name", "cards", "points"}]} for the given or best trump, plus
    "by_trump" with every trump's total when no trump was given."""
    a = frame.attrs
    trump = a["best_trump"]
    rows = frame[frame.trump == trump]
    out = {"game": GAME, "hand": a["hand"], "trump": trump, "total": a["totals"][trump],
           "melds": [{"name": r.meld, "cards": r.cards, "points": int(r.points)} for r in rows.itertuples()],
           "options": a["options"]}
    if len(a["totals"]) > 1:
        out["by_trump"] = a["totals"]
    return out


def format_meld(frame: pd.DataFrame) -> str:
    a = frame.attrs
    lines = [f"Pinochle meld of {a['hand']}" + _options_note(a["options"])]
    for trump, total in a["totals"].items():
        best = "   <- best" if len(a["totals"]) > 1 and trump == a["best_trump"] else ""
        lines += ["", f"trump {trump} ({p.DECK.suit_names[p.DECK.suits.index(trump)]}): {total} points{best}"]
        for r in frame[frame.trump == trump].itertuples():
            lines.append(f"  {r.meld:<22}{r.points:>6}   {r.cards}")
    return "\n".join(lines)


def _add_meld_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help="your 15 cards (18 with the kitty); two of each card exist")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: every trump and the best)")
    _add_option_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a meld option: double_bonus=False, double_royal_marriage=240, roundhouse_meld=True "
                             "with roundhouse_with_rope=390, or scale=0.1 (repeatable; 'cardsim games pinochle3')")


def _options_note(options: dict) -> str:
    """' (options a=1, b=2)' for a title line, or '' with the main game's rules."""
    return f" (options {', '.join(f'{k}={v}' for k, v in options.items())})" if options else ""


def _run_meld(args: argparse.Namespace) -> int:
    frame = meld(args.hand, args.trump, parse_options(args.option))
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


def _tail_rows(hist: np.ndarray, n: int, thresholds, exact: np.ndarray | None, what: str,
               divisor: int = 1) -> list[dict]:
    """P(points >= x) for the main-game thresholds x, reported as x / divisor (`pinochle3.point_divisor`)."""
    rows = []
    for x in thresholds:
        est = Estimate(int(hist[x // 10:].sum()), n)
        row = {"quantity": what, "threshold": x // divisor, "p": est.p, "lo": est.lo, "hi": est.hi,
               "successes": est.successes, "n": n}
        if exact is not None:
            row["exact"] = float(exact[x // 10]) if x // 10 < exact.size else 0.0
        rows.append(row)
    return rows


def _mean_interval(total: float, squares: float, n: int) -> dict:
    """Mean of n values from their sum and sum of squares, its standard error and normal 95% interval."""
    mean = total / n if n else float("nan")
    se = math.sqrt(max(squares / n - mean ** 2, 0.0) / n) if n else float("nan")
    return {"mean": mean, "se": se, "lo": mean - 1.959963984540054 * se, "hi": mean + 1.959963984540054 * se}


def _mean_row(hist: np.ndarray, n: int, what: str, exact: float | None, divisor: int = 1) -> dict:
    """Mean of a histogram in bins of 10 main-game points, in points / divisor (exact likewise)."""
    points = np.arange(hist.size) * 10.0 / divisor
    return {"quantity": what, **_mean_interval(float((hist * points).sum()), float((hist * points ** 2).sum()), n),
            "n": n, "exact": None if exact is None else exact / divisor}


def stats(n: int = 1_000_000, seed=None, seat: int = 0, options: dict | None = None,
          **run_kw) -> dict[str, pd.DataFrame]:
    """Best-trump meld of a random hand, of hand + kitty, and the kitty gain (spec §9.2-§9.3).

    tails: P(meld >= threshold) with Wilson intervals and the exact value where it is known;
    means: mean points with a normal 95% interval (se = sd / sqrt(n)) and the exact mean.
    The gain is the best 18-card meld minus the best 15-card meld: an upper bound on the gain after
    the discard of 3 (spec §9.3: the 15-card limit costs meld in about 0.04% of deals).
    options: the meld options (`MELD_OPTIONS`); the meld variants (V5-V7) change the values, and then
    the exact columns (main game's values) are left out; scale 0.1 divides points and thresholds by 10.
    """
    options = checked_options(options, "stats")
    divisor = p.point_divisor(options)
    seed = normalize_seed(seed)
    job = p.MeldStatsJob(seat, options)
    counts = runner.run(job, n, seed, **run_kw)
    deals = int(counts[0])
    hand, full, gain = counts[1:].reshape(3, p.MELD_BINS)
    main_values = np.array_equal(job.values, p.MELD_VALUES)
    exact15, exact18 = (exact_meld_ccdf(p.HAND_SIZE), exact_meld_ccdf(p.HAND_SIZE + p.KITTY_SIZE)) if main_values \
        else (None, None)
    tails = pd.DataFrame(_tail_rows(hand, deals, MELD_THRESHOLDS, exact15, "hand", divisor)
                         + _tail_rows(full, deals, MELD_THRESHOLDS, exact18, "hand+kitty", divisor)
                         + _tail_rows(gain, deals, GAIN_THRESHOLDS, None, "gain", divisor))
    exact = [float(ccdf[1:].sum() * 10) if main_values else None for ccdf in (exact15, exact18)]
    means = pd.DataFrame([_mean_row(hand, deals, "hand", exact[0], divisor),
                          _mean_row(full, deals, "hand+kitty", exact[1], divisor),
                          _mean_row(gain, deals, "gain", None, divisor)])
    tables = {"tails": tails, "means": means}
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, seed=seed, seat=seat, options=options, exact=main_values)
    return tables


def stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["tails"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "seat": a["seat"], "options": a["options"],
            "tables": table_records(tables)}


def format_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["tails"].attrs
    lines = [f"Pinochle meld statistics: n = {a['n']:,} deals, seed {a['seed']}, seat {a['seat']}, 95% intervals"
             + _options_note(a["options"]),
             "", "mean points          estimate [95% interval]" + ("        exact" if a["exact"] else "")]
    for r in tables["means"].itertuples():
        exact = "" if r.exact is None or (isinstance(r.exact, float) and math.isnan(r.exact)) else f"{r.exact:.3f}"
        lines.append(f"  {r.quantity:<12}{r.mean:>10.2f} [{r.lo:.2f}, {r.hi:.2f}]{exact:>16}".rstrip())
    names = {"hand": "best meld of the 15-card hand", "hand+kitty": "best meld of hand + kitty (18 cards)",
             "gain": "kitty gain (upper bound)"}
    for what, rows in tables["tails"].groupby("quantity", sort=False):
        exact_column = what != "gain" and a["exact"]
        lines += ["", f"P({names[what]} >= x)" + ("          exact" if exact_column else "")]
        for r in rows.itertuples():
            exact = f"   {r.exact:.6f}" if exact_column else ""
            lines.append(f"  x = {r.threshold:<5}{r.p:.4f} [{r.lo:.4f},{r.hi:.4f}]{exact}")
    return "\n".join(lines)


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seat", type=int, default=0, help="the seat whose hand is measured, 0-2 (default 0)")
    _add_option_argument(parser)
    add_run_arguments(parser, default_n=1_000_000)


def _run_stats(args: argparse.Namespace) -> int:
    tables = stats(args.n, args.seed, args.seat, parse_options(args.option), **run_options(args))
    return emit(args, tables, stats_json, format_stats)


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The stats as estimates (for sweeps): mean.<quantity> and ge.<quantity>.<points>, P(meld >= points)."""
    tables = stats(args.n, args.seed, args.seat, parse_options(args.option), **run_options(args))
    return pd.concat([long_frame(tables["means"], ["quantity"], "mean", value="mean"),
                      long_frame(tables["tails"], ["quantity", "threshold"], "ge")], ignore_index=True)


register_command("stats", GAME, Command("meld and kitty-gain distributions of random deals",
                                        _add_stats_arguments, _run_stats, _stats_frame))
register_command("meld", GAME, Command("meld breakdown of a hand", _add_meld_arguments, _run_meld))


# --- odds of a hand: kitty, discard and P(make bid) (spec §9.1 Q2-Q3) ----------------------------
DEFAULT_BIDS = tuple(range(250, 510, 10))
GAIN_STEPS = (0, 10, 20, 50, 100, 150)
DD_TRICKS = 8
"""Tricks played perfectly at the end of each hand for the "DD" column (greedy play before them):
about 10 ms per deal on one core (6: 2 ms, 9: 25 ms, 10: 85 ms; a full 15-trick solve: seconds to
many minutes, `simcore.games.pinochle3_solve`)."""
PIMC_DD_TRICKS = 6
"""The default solved ending with ``--play pimc``: every card of the PIMC bidder is solved in each
sampled world, about 12 ms per deal with 4 worlds (8 tricks: about 100 ms)."""
PIMC_SAMPLES = 4
"""Sampled worlds per card of the PIMC bidder (``--play pimc``)."""
PLAYS = ("greedy", "pimc")


def _bid_grid(bids, opts: dict) -> tuple[int, ...]:
    """Validated bids: multiples of the step, at least the minimum bid (R4.2a-b), at most what meld +
    trick points can reach (`pinochle3_bid.MAX_TOTAL`); checked one by one, so a huge range stops at
    its first bid out of reach."""
    step, lowest = opts["bid_step"], opts["min_bid"] or opts["bid_step"]
    out = []
    for b in bids:
        b = int(b)
        if b < lowest:
            raise CardsimError(f"bid {b} is below the minimum bid {lowest} (R4.2a)")
        if b % step:
            raise CardsimError(f"bid {b} is not a multiple of {step} (R4.2b)")
        if b > bid.MAX_TOTAL:
            raise CardsimError(f"bid {b} can never be made: meld + trick points reach at most {bid.MAX_TOTAL} "
                               f"(meld {p.MAX_MELD} + {p.TRICK_POINTS_TOTAL} in tricks); give bids of "
                               f"{lowest}-{bid.MAX_TOTAL}")
        out.append(b)
    if not out:
        raise CardsimError("give at least one bid")
    return tuple(out)


def parse_bids(text: str) -> range | tuple[int, ...]:
    """'250:400:10' (start:stop:step, stop included) or '250,300,350' -> bids."""
    try:
        if ":" in text:
            start, stop, step = (int(x) for x in text.split(":"))
        else:
            return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--bids must look like 250:400:10 or 250,300,350, got '{text}'") from None
    if step <= 0:
        raise argparse.ArgumentTypeError(f"--bids step must be positive, got {step} in '{text}'; write "
                                         f"start:stop:step with start <= stop, e.g. "
                                         f"{min(start, stop)}:{max(start, stop)}:{abs(step) or 10}")
    if start > stop:
        raise argparse.ArgumentTypeError(f"--bids range '{text}' is empty: start {start} is above stop {stop}; "
                                         f"write start:stop:step with start <= stop, e.g. {stop}:{start}:{step}")
    return range(start, stop + 1, step)


def _tail_estimates(hist: np.ndarray, n: int, xs) -> list[Estimate]:
    """P(value >= x) of a histogram in bins of 10 points, for every x."""
    return [Estimate(int(hist[x // 10:].sum()), n) for x in xs]


def odds(hand: str, trump: str | None = None, kitty: str | None = None, bids=DEFAULT_BIDS, n: int = 1000,
         seed=None, dd_tricks: int = DD_TRICKS, rule: str = "old", pimc_samples: int = 0,
         **run_kw) -> dict[str, pd.DataFrame]:
    """What a 15-card hand is worth as the bidder (spec §9.1 Q2-Q3), over deals consistent with it.

    The other 33 cards are dealt at random to the kitty (or ``kitty`` is known) and the two
    defenders; the bidder takes the kitty, buries the 3 cards that maximize meld + buried counters
    (`pinochle3_bid.best_discard`, trump ``trump`` or the best) and leads. Tables:
    ``by_trump`` meld of the hand per trump; ``gain`` P(kitty gain >= x) and its mean (meld after
    the discard minus the best meld before); ``trump`` how often each trump is named; ``make``
    P(meld + trick points >= bid) per bid with Wilson intervals, greedy play by all ("greedy") and
    greedy play with the last ``dd_tricks`` tricks solved double-dummy ("dd"; 15 = a full solve,
    seconds to minutes per deal) and with ``pimc_samples`` > 0 "pimc": the bidder sees only his own
    cards and plays by PIMC with that many sampled worlds per card, the defenders as in "dd"
    (`simcore.games.pinochle3_pimc`); ``discard`` the best discard when the kitty is known.
    """
    opts = play.rule_options({"play_rule": rule})
    if not (dd_tricks or pimc_samples):
        check_greedy_rule(rule, "the greedy column", "solve the ending with --dd-tricks 1-15 or use --rule old")
    bids = _bid_grid(bids, opts)
    groups = p.DECK.parse_groups({"--hand": hand, **({"--kitty": kitty} if kitty is not None else {})})
    cards, kitty_cards = groups["--hand"], groups.get("--kitty")
    if len(cards) != p.HAND_SIZE:
        raise CardsimError(f"--hand must list the {p.HAND_SIZE} cards dealt to you, got {len(cards)}")
    if kitty_cards is not None and len(kitty_cards) != p.KITTY_SIZE:
        raise CardsimError(f"--kitty must list {p.KITTY_SIZE} cards, got {len(kitty_cards)}")
    t = parse_trump(trump) if trump is not None else None
    seed = normalize_seed(seed)
    job = bid.BidderJob(cards, rule, dd_tricks, t, kitty_cards, pimc_samples)
    counts = runner.run(job, n, seed, **run_kw)
    deals = int(counts[0])
    chosen = counts[1:1 + p.N_SUITS]
    gain = counts[1 + p.N_SUITS:1 + p.N_SUITS + p.MELD_BINS]
    greedy, dd, pimc = counts[1 + p.N_SUITS + p.MELD_BINS:].reshape(3, bid.TOTAL_BINS)
    meld_frame = meld(hand)
    tables = {
        "by_trump": pd.DataFrame({"trump": list(meld_frame.attrs["totals"]),
                                  "meld": list(meld_frame.attrs["totals"].values())}),
        "gain": pd.DataFrame([{"gain_at_least": x, **e.as_dict(), "n": deals}
                              for x, e in zip(GAIN_STEPS, _tail_estimates(gain, deals, GAIN_STEPS))]),
        "trump": pd.DataFrame([{"trump": p.DECK.suits[s], **Estimate(int(c), deals).as_dict(), "n": deals}
                               for s, c in enumerate(chosen)]),
        "make": pd.DataFrame([{"bid": b, "greedy_p": g.p, "greedy_lo": g.lo, "greedy_hi": g.hi,
                               **({"dd_p": d.p, "dd_lo": d.lo, "dd_hi": d.hi} if dd_tricks else {}),
                               **({"pimc_p": m.p, "pimc_lo": m.lo, "pimc_hi": m.hi} if pimc_samples else {}),
                               "n": deals}
                              for b, g, d, m in zip(bids, _tail_estimates(greedy, deals, bids),
                                                    _tail_estimates(dd, deals, bids),
                                                    _tail_estimates(pimc, deals, bids))]),
    }
    if kitty_cards is not None:
        d = bid.best_discard(cards + kitty_cards, t)
        tables["discard"] = pd.DataFrame([{"discards": p.DECK.format_cards(d.discards), "trump": p.DECK.suits[d.trump],
                                           "meld": d.meld, "buried": d.buried}])
    mean_gain = float((gain * np.arange(gain.size) * 10).sum() / deals)
    for table in tables.values():
        table.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), n=deals, seed=seed, rule=rule,
                           dd_tricks=dd_tricks, pimc_samples=pimc_samples, mean_gain=mean_gain, trump=trump,
                           kitty=p.DECK.format_cards(sorted(kitty_cards)) if kitty_cards else None)
    return tables


def odds_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["make"].attrs
    out = {"game": GAME, "hand": a["hand"], "kitty": a["kitty"], "trump": a["trump"], "n": a["n"], "seed": a["seed"],
           "rule": a["rule"], "dd_tricks": a["dd_tricks"], "pimc_samples": a["pimc_samples"],
           "meld_by_trump": dict(zip(tables["by_trump"].trump, tables["by_trump"].meld.astype(int).tolist())),
           "kitty_gain": {"mean": a["mean_gain"], "at_least": table_records({"g": tables["gain"]})["g"]},
           "trump_named": table_records({"t": tables["trump"]})["t"],
           "make": table_records({"m": tables["make"]})["m"]}
    if "discard" in tables:
        out["best_discard"] = table_records({"d": tables["discard"]})["d"][0]
    return out


def format_odds(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["make"].attrs
    melds = ", ".join(f"{r.trump} {r.meld}" for r in tables["by_trump"].itertuples())
    lines = [f"Pinochle odds of {a['hand']} as the bidder: n = {a['n']:,} deals, seed {a['seed']}, rule {a['rule']}, "
             "95% intervals", f"meld by trump: {melds}",
             f"kitty gain (meld after the best discard - best meld now): mean {a['mean_gain']:.1f}"]
    lines += [f"  P(gain >= {r.gain_at_least:<3}) {r.p:.3f} [{r.lo:.3f},{r.hi:.3f}]"
              for r in tables["gain"].itertuples()]
    lines.append("trump named: " + ", ".join(f"{r.trump} {r.p:.3f}" for r in tables["trump"].itertuples()))
    if "discard" in tables:
        d = tables["discard"].iloc[0]
        lines.append(f"best discard with kitty {a['kitty']}: bury {d.discards}, trump {d.trump}, meld {d.meld}, "
                     f"buried {d.buried}")
    columns = [("greedy", "greedy play")]
    if "dd_p" in tables["make"]:
        columns.append(("dd", f"greedy, last {a['dd_tricks']} tricks double-dummy"))
    if "pimc_p" in tables["make"]:
        columns.append(("pimc", f"bidder PIMC ({a['pimc_samples']} worlds), defence as dd"))
    lines += ["", "P(meld + trick points >= bid)   " + " | ".join(title for _, title in columns)]
    for r in tables["make"].itertuples():
        cells = [f"{getattr(r, k + '_p'):.3f} [{getattr(r, k + '_lo'):.3f},{getattr(r, k + '_hi'):.3f}]"
                 for k, _ in columns]
        lines.append(f"  bid {r.bid:<5}" + "   ".join(cells))  # bids have at most 4 digits
    return "\n".join(lines)


def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help="your 15 cards")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: the best for each kitty)")
    parser.add_argument("--kitty", default=None, help="the 3 kitty cards, if known (default: random)")
    parser.add_argument("--bids", type=parse_bids, default=DEFAULT_BIDS,
                        help=f"bids to evaluate: start:stop:step or a comma list, multiples of 10 from 250 to "
                             f"{bid.MAX_TOTAL} (default 250:500:10)")
    parser.add_argument("--dd-tricks", type=int, default=None,
                        help=f"tricks solved double-dummy at the end of each hand, 0-15 (default {DD_TRICKS}, "
                             f"{PIMC_DD_TRICKS} with --play pimc; 0 skips; 15 is a full solve, seconds to minutes "
                             "per deal)")
    parser.add_argument("--rule", default="old", help="play rule: old, old_strict, new1945, new1945_alt")
    parser.add_argument("--play", choices=PLAYS, default="greedy",
                        help="pimc adds a column where the bidder, seeing only his own cards, plays by PIMC "
                             "(sampled defenders' hands; default greedy: greedy and dd columns only)")
    parser.add_argument("--samples", type=positive_int, default=PIMC_SAMPLES,
                        help=f"sampled worlds per card of the PIMC bidder, 1-64 (default {PIMC_SAMPLES})")
    add_run_arguments(parser, default_n=1000)


def _odds_of(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    pimc = args.play == "pimc"
    dd_tricks = args.dd_tricks if args.dd_tricks is not None else (PIMC_DD_TRICKS if pimc else DD_TRICKS)
    return odds(args.hand, args.trump, args.kitty, args.bids, args.n, args.seed, dd_tricks, args.rule,
                args.samples if pimc else 0, **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    return emit(args, _odds_of(args), odds_json, format_odds)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``make.<bid>.<play>`` (play greedy, dd, pimc: the columns the run has),
    ``gain.<x>`` (P(kitty gain >= x)) and ``trump.<suit>`` (how often each trump is named)."""
    tables = _odds_of(args)
    make = tables["make"]
    parts = []
    for play_method in ("greedy", "dd", "pimc"):
        if f"{play_method}_p" in make:
            part = long_frame(make, ["bid"], "make", value=f"{play_method}_p", lo=f"{play_method}_lo",
                              hi=f"{play_method}_hi")
            part["estimate"] += f".{play_method}"
            parts.append(part)
    parts += [long_frame(tables["gain"], ["gain_at_least"], "gain"), long_frame(tables["trump"], ["trump"], "trump")]
    return pd.concat(parts, ignore_index=True)


register_command("odds", GAME, Command("kitty gain, best discard and P(make bid) of a hand", _add_odds_arguments,
                                       _run_odds, _odds_frame))


# --- bid thresholds (spec §9.1 Q4) ---------------------------------------------------------------
MIN_DEALS_PER_CLASS = 30
"""Classes with fewer deals get no threshold (too little data)."""


def _threshold_row(hist: np.ndarray, lowest: int) -> dict:
    """Bid thresholds of one class of hands from its histogram of meld + trick points T (bins of 10),
    bids from ``lowest`` up in steps of 10:

    * bid50: the highest bid with P(T >= bid) >= 1/2 (Wilson interval of that P);
    * bid_ev: the highest bid whose expected score change EV(B) = E[T 1{T >= B} - B 1{T < B}]
      (R6.1: made scores T, set loses B) is still >= 0, with EV's normal 95% interval. EV falls as
      the bid rises (the made score does not depend on the bid), so the EV-maximizing bid is always
      the lowest one; the break-even bid is the informative "most I should bid" (spec Q4 with the
      pass worth 0, the defenders' own score left out).
    """
    n = int(hist.sum())
    points = np.arange(hist.size) * 10
    bids = np.arange(lowest, hist.size * 10, 10)
    made = np.array([hist[b // 10:].sum() for b in bids])
    row = {"n": n, "bid50": None, "p50": None, "lo50": None, "hi50": None,
           "bid_ev": None, "ev": None, "ev_lo": None, "ev_hi": None}
    ok = np.nonzero(made * 2 >= n)[0]
    if ok.size:
        e = Estimate(int(made[ok[-1]]), n)
        row.update(bid50=int(bids[ok[-1]]), p50=e.p, lo50=e.lo, hi50=e.hi)
    for b in bids[::-1]:
        y = np.where(points >= b, points, -b)
        mean = float((hist * y).sum() / n)
        if mean >= 0:
            se = math.sqrt(max(float((hist * y * y).sum() / n) - mean ** 2, 0.0) / n)
            row.update(bid_ev=int(b), ev=mean, ev_lo=mean - 1.959963984540054 * se, ev_hi=mean + 1.959963984540054 * se)
            break
    return row


CURVE_CLASSES = ((0, 100), (100, 140), (140, 180), (180, 240), (240, None))
"""Best-meld classes (points, upper bound excluded) of the P(make) curves."""


def _make_curves(by_meld: np.ndarray, bids) -> pd.DataFrame:
    """P(meld + trick points >= bid) per bid for every `CURVE_CLASSES` class; by_meld: (meld bins of
    20 points, TOTAL_BINS) histogram of `ThresholdJob`."""
    rows = []
    for lo, hi in CURVE_CLASSES:
        hist = by_meld[lo // 20:None if hi is None else hi // 20].sum(axis=0)
        label = f"{lo}+" if hi is None else f"{lo}-{hi - 10}"
        for b, e in zip(bids, _tail_estimates(hist, int(hist.sum()), bids)):
            rows.append({"meld": label, "bid": b, **e.as_dict(), "n": e.n})
    return pd.DataFrame(rows)


def thresholds(n: int = 100_000, seed=None, rule: str = "old", **run_kw) -> dict[str, pd.DataFrame]:
    """Bid thresholds of random hands as the bidder (spec §9.1 Q4): by best meld before the kitty
    (classes of 20 points) and by length of the trump he names (cards among his 15), the highest
    bid with P(make) >= 50% and the highest bid whose expected score change (made: + meld + trick
    points, set: - bid) is still >= 0 (`_threshold_row`). The bidder takes a random kitty, discards
    by `pinochle3_bid.best_discard`, and everyone plays greedily. Tables ``by_meld``,
    ``by_trump_length``, ``grid`` (both) and ``curves`` (P(make) per bid by meld class)."""
    opts = play.rule_options({"play_rule": rule})
    check_greedy_rule(rule, "'cardsim thresholds pinochle3'", "use --rule old or old_strict")
    seed = normalize_seed(seed)
    job = bid.ThresholdJob(rule)
    counts = runner.run(job, n, seed, **run_kw).reshape(job.shape)
    lowest = opts["min_bid"] or opts["bid_step"]
    lengths = range(bid.TRUMP_LENGTHS[0], bid.TRUMP_LENGTHS[1] + 1)

    def meld_label(i):
        return f"{20 * i}+" if i == bid.THRESHOLD_MELD_BINS - 1 else f"{20 * i}-{20 * i + 19}"

    def length_label(t):
        return f"<={t}" if t == lengths[0] else (f">={t}" if t == lengths[-1] else str(t))

    def rows(hists, **keys):
        return [{**{k: v[i] for k, v in keys.items()}, **_threshold_row(h, lowest)}
                for i, h in enumerate(hists) if h.sum() >= MIN_DEALS_PER_CLASS]

    labels_m = [meld_label(i) for i in range(bid.THRESHOLD_MELD_BINS)]
    by_meld = counts.sum(axis=1)
    labels_t = [length_label(t) for t in lengths]
    grid_keys = [(m, t) for m in labels_m for t in labels_t]
    tables = {
        "by_meld": pd.DataFrame(rows(by_meld, meld=labels_m)),
        "by_trump_length": pd.DataFrame(rows(counts.sum(axis=0), trump_length=labels_t)),
        "grid": pd.DataFrame(rows(counts.reshape(-1, bid.TOTAL_BINS), meld=[m for m, _ in grid_keys],
                                  trump_length=[t for _, t in grid_keys])),
        "curves": _make_curves(by_meld, [b for b in DEFAULT_BIDS if b >= lowest]),
    }
    for table in tables.values():
        table.attrs.update(game=GAME, n=int(counts.sum()), seed=seed, rule=rule)
    return tables


def thresholds_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["by_meld"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "rule": a["rule"], "tables": table_records(tables)}


def format_thresholds(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["by_meld"].attrs
    lines = [f"Pinochle bid thresholds: n = {a['n']:,} random hands as the bidder, seed {a['seed']}, rule {a['rule']}, "
             "greedy play, 95% intervals",
             "bid50: highest bid made at least half the time; bid_ev: highest bid with expected score change >= 0"]
    for name, key in (("by_meld", "meld"), ("by_trump_length", "trump_length")):
        lines += ["", f"{key:<14}{'n':>8}  bid50  P(make) [95%]          bid_ev  EV [95%]"]
        for r in tables[name].itertuples():
            b50 = "  -  " if r.bid50 is None or r.bid50 != r.bid50 else f"{int(r.bid50):>5}"
            p50 = "" if r.p50 is None or r.p50 != r.p50 else f"{r.p50:.3f} [{r.lo50:.3f},{r.hi50:.3f}]"
            ev = "    -" if r.bid_ev is None or r.bid_ev != r.bid_ev else \
                f"{int(r.bid_ev):>5}  {r.ev:6.1f} [{r.ev_lo:.1f},{r.ev_hi:.1f}]"
            lines.append(f"{getattr(r, key):<14}{r.n:>8}  {b50}  {p50:<22} {ev}")
    return "\n".join(lines)


def _add_thresholds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rule", default="old", help="play rule: old, old_strict, new1945, new1945_alt")
    add_run_arguments(parser, default_n=100_000)


def _run_thresholds(args: argparse.Namespace) -> int:
    return emit(args, thresholds(args.n, args.seed, args.rule, **run_options(args)), thresholds_json,
                format_thresholds)


def _thresholds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``make.<meld class>.<bid>``: P(meld + trick points >= bid) by best meld before the
    kitty (the P(make) curves the bid thresholds are read from)."""
    return long_frame(thresholds(args.n, args.seed, args.rule, **run_options(args))["curves"], ["meld", "bid"], "make")


register_command("thresholds", GAME, Command("bid thresholds by meld and trump length", _add_thresholds_arguments,
                                             _run_thresholds, _thresholds_frame))


# --- bidding-policy match (spec §9.1 Q8, Q10) ------------------------------------------------------
def parse_options(items) -> dict:
    """``["name=value", ...]`` -> {name: value} (`option_items`), checked against the game's options
    (`pinochle3.rule_options`)."""
    out = option_items(items)
    p.rule_options(out)
    return out


def match(a: str, b: str, games: int = 200, seed=None, options: dict | None = None, **run_kw) -> pd.DataFrame:
    """Self-play games to 1500 between bidding policies a and b (`pinochle3_bid.BID_POLICIES`; each
    sits in half the seats, greedy play by all). One row per policy: win rate per seat in the finished games (a fair
    share is 1/3; Wilson interval at the effective number of seat-games, since one seat's win is
    the others' loss: `analysis.stats.ratio_share` over games) and mean score change per
    seat per hand (normal interval). options: rule options of the games (target, minimum bid, nines
    rule, meld variants, scoring, scale 0.1 dividing points and target by 10; `checked_options`).
    Raises CardsimError when no game finished: the win rates are then undefined."""
    options = checked_options(options, "match")
    divisor = p.point_divisor(options)
    seed = normalize_seed(seed)
    c = runner.run(bid.GameJob(a, b, options), games, seed, **run_kw)
    if c[3] == c[0]:
        raise CardsimError(f"no game finished: all {int(c[0])} were abandoned after {bid.MAX_HANDS} hands without "
                           "a winner, so the win rates are undefined; choose policies that bid more")
    rows = []
    for side, name in enumerate((a, b)):
        e = _seat_win_share(c, side)
        points = _mean_interval(c[8 + side] / divisor, c[10 + side] / divisor ** 2, int(c[6 + side]))
        rows.append({"side": "ab"[side], "policy": name, "wins": int(c[1 + side]), "seat_games": int(c[4 + side]),
                     "win_p": e["p"], "win_lo": e["lo"], "win_hi": e["hi"],
                     **{f"points_{k}": v for k, v in points.items()}, "seat_hands": int(c[6 + side])})
    frame = pd.DataFrame(rows)
    frame.attrs.update(game=GAME, games=int(c[0]), abandoned=int(c[3]), seed=seed, options=options,
                       target=p.rule_options(options)["target"] // divisor)
    return frame


def _seat_win_share(c: np.ndarray, side: int) -> dict:
    """Win rate per seat-game of side 0 (a) or 1 (b) from `bid.GameJob` counts c: the finished games
    are clusters of the side's seats, of which at most one wins."""
    wins, seats, seats_sq, cross = (int(c[k]) for k in (1 + side, 4 + side, 12 + side, 14 + side))
    return ratio_share(wins, seats, wins, seats_sq, cross, int(c[0] - c[3]))


def match_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    out = {"game": GAME, "games": a["games"], "abandoned": a["abandoned"], "seed": a["seed"], "options": a["options"]}
    for r in frame.itertuples():
        out[r.side] = {"policy": r.policy, "win_rate": {"p": r.win_p, "lo": r.win_lo, "hi": r.win_hi},
                       "points_per_deal": {"mean": r.points_mean, "lo": r.points_lo, "hi": r.points_hi},
                       "wins": r.wins, "seat_games": r.seat_games}
    return out


def format_match(frame: pd.DataFrame) -> str:
    a = frame.attrs
    lines = [f"Pinochle bidding match: {a['games']:,} games to {a['target']}, seed {a['seed']}, "
             f"abandoned {a['abandoned']}; "
             "win rate per seat (fair share 0.333), points per seat per hand, 95% intervals"]
    for r in frame.itertuples():
        lines.append(f"  {r.side} {r.policy:<10} wins {r.win_p:.3f} [{r.win_lo:.3f},{r.win_hi:.3f}]   "
                     f"points/hand {r.points_mean:6.1f} [{r.points_lo:.1f},{r.points_hi:.1f}]")
    return "\n".join(lines)


def _add_match_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(f"{n} ({p.help})" for n, p in bid.BID_POLICIES.items())
    parser.add_argument("--a", required=True, help=f"bidding policy: {names}")
    parser.add_argument("--b", required=True, help="the other bidding policy")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option of the games, e.g. target=1000 or nines_rule=6_any (repeatable; "
                             "'cardsim games pinochle3' lists them)")
    add_run_arguments(parser, default_n=200, unit="games")
    add_games_alias(parser)


def _match_of(args: argparse.Namespace) -> pd.DataFrame:
    return match(args.a, args.b, args.n, args.seed, parse_options(args.option), **run_options(args))


def _run_match(args: argparse.Namespace) -> int:
    return emit(args, _match_of(args), match_json, format_match)


def _match_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``<side>.win_rate`` (n: seat-games) and ``<side>.points_per_deal`` (n: seat-hands)."""
    frame = _match_of(args).assign(quantity_win="win_rate", quantity_points="points_per_deal")
    wins = long_frame(frame.assign(n=frame.seat_games), ["side", "quantity_win"], value="win_p", lo="win_lo",
                      hi="win_hi")
    points = long_frame(frame.assign(n=frame.seat_hands), ["side", "quantity_points"], value="points_mean",
                        lo="points_lo", hi="points_hi")
    return pd.concat([wins, points], ignore_index=True)


register_command("match", GAME, Command("self-play games between two bidding policies", _add_match_arguments,
                                        _run_match, _match_frame))
