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
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pandas as pd

from analysis.commands import (Command, NotedStore, add_games_alias, add_run_arguments, check_exact_alone,
                               check_only_with, counts_up_to, emit, flags_text, given_flags, long_frame, no_exact,
                               one_of, option_items, options_note, register_command, run_options, whole_number,
                               whole_value)
from analysis import solving
from analysis.stats import (Z95, Estimate, estimate_columns, format_cell, format_p, histogram_median,
                            mean_interval, paired_difference,
                            ratio_mean, ratio_share, table_records)
from simcore import checks, runner
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_defend as defend_sim
from simcore.games import pinochle3_exact as exact_facts
from simcore.games.pinochle3_discard import DISCARD_POLICIES, MeldStatsJob, kept_meld, kitty_gains
from simcore.games.pinochle3_play import play_rule
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
DEFENDER_OPTIONS = ("defender_needs_counter", "defender_counter_rule_on_set",
                    "defender_keeps_last_trick_without_counter")
"""The defenders' scoring flags (R6.3, A3, A4): they change the pass's value, EV_pass."""
BIDDER_OPTIONS = MELD_OPTIONS + ("min_bid", "nines_rule", "play_rule") + DEFENDER_OPTIONS
"""The options of `odds` and `thresholds`: the meld options, the minimum bid (the lowest bid valued,
V1, and the bid of the seat that takes the bid when the hand passes), the nines throw-in (V4: deals a
defender throws in never reach the auction and are left out, `pinochle3_bid.reaching_auction`), the
play rule (the same as --rule) and the defenders' scoring flags (the hand's score as a defender when
it passes, `pinochle3_bid.defender_outcomes`). The others cannot change these numbers (forced bids:
the bid is given; target: no game is played)."""
STATS_OPTIONS = MELD_OPTIONS + ("nines_rule",)
"""The options of `stats`: the meld options and the nines rule (the row it marks in the throw-in table)."""
CONTRACT_OPTIONS = ("min_bid",) + tuple(o for o in MELD_OPTIONS if o != "scale")
"""The options that change only the contract `solve` scores with --bid: the minimum bid and the meld variants."""
SOLVE_OPTIONS = ("play_rule", "scale") + CONTRACT_OPTIONS
"""The options of `solve`: the play rule (as --rule), the ÷10 scale (V12) and `CONTRACT_OPTIONS`."""
COMMAND_OPTIONS = {"meld": MELD_OPTIONS, "stats": STATS_OPTIONS, "odds": BIDDER_OPTIONS, "thresholds": BIDDER_OPTIONS,
                   "solve": SOLVE_OPTIONS}
"""The options each command models; `match` models every option but `SELF_PLAY_CANNOT`."""
SELF_PLAY_CANNOT = {
    "trump_requires_marriage": "the bidder names the best trump for his discard, marriage or not",
    "allow_partial_meld": "every player declares his full meld",
    "renege_defender_bidder_award": "nobody reneges in self-play",
    "misdeal_redeal": "nobody misdeals in self-play",
}
"""Options `match` does not model, with the reason."""
BIDDER_CANNOT = {
    "trump_requires_marriage": "the bidder names the best trump for his discard, marriage or not",
    "bidder_needs_counter": "the play seeks trick points, not a counter that saves the bidder's meld",
}
"""Options that would change `odds` and `thresholds` but are not modelled there, with the reason."""
NOT_MODELLED = {"match": SELF_PLAY_CANNOT, "odds": BIDDER_CANNOT, "thresholds": BIDDER_CANNOT}
GREEDY_ALIKE_RULES = ("new1945", "new1945_alt")
"""Play rules under which greedy play picks the same cards as under old: it heads every trick it can."""


def check_greedy_rule(rule: str, what: str, mend: str) -> None:
    """CardsimError if play rule ``rule`` cannot change ``what``, which only greedy play decides."""
    if rule in GREEDY_ALIKE_RULES:
        raise CardsimError(f"play rule {rule} changes nothing in {what}: greedy play heads every trick it can, "
                           f"so it plays as under old (only old_strict differs); {mend}")


def options_text(settings: list[str]) -> str:
    """["min_bid=300"] -> "option min_bid=300"; two or more -> "options a=1, b=2 and c=3"."""
    return f"option{'s' if len(settings) > 1 else ''} {flags_text(settings)}"


def checked_options(options: dict | None, command: str) -> dict:
    """``options`` (each value as its option's choice: 300.0 as 300) if each one set away from its default
    changes ``cardsim <command> pinochle3`` (`COMMAND_OPTIONS`; match: all) and is modelled there
    (`NOT_MODELLED`), else CardsimError: an option is never accepted and ignored."""
    options = option_items(options)
    chosen = p.rule_options(options)
    options = {name: chosen[name] for name in options}
    defaults = p.rule_options()
    modelled, cannot = COMMAND_OPTIONS.get(command), NOT_MODELLED.get(command, {})
    for name, value in options.items():
        if value == defaults[name]:
            continue
        if name in cannot:
            what = "its self-play: " if command == "match" else ""
            raise CardsimError(f"option {name}={value} is not modelled by 'cardsim {command} pinochle3' ({what}"
                               f"{cannot[name]}); drop it")
        if modelled is not None and name not in modelled:
            where = "" if name in SELF_PLAY_CANNOT else " (it is a rule of 'cardsim match pinochle3')"
            raise CardsimError(f"option {name} does not change 'cardsim {command} pinochle3', whose options are "
                               f"{', '.join(modelled)}; drop it{where}")
    if command == "match":
        check_greedy_rule(chosen["play_rule"], "'cardsim match pinochle3'", "use play_rule=old or old_strict")
        _check_game_end(options, chosen)
        units = [f"{name}={value}" for name, value in options.items() if name in bid.SET_UNITS
                 and value != defaults[name]]
        if units and _stakes(chosen) is None:
            raise CardsimError(f"{options_text(units)} {'counts' if len(units) == 1 else 'count'} money set units "
                               "(R6.6), which only money play reads: add game_stake or set_stake, or drop "
                               f"{'it' if len(units) == 1 else 'them'}")
        if chosen["unanimous_throw_in"] and not (chosen["forced_open"] or chosen["dealer_stuck"]):
            raise CardsimError("option unanimous_throw_in=True (V4f) changes nothing without forced_open=True or "
                               "dealer_stuck=True: a seat agrees to throw a hand in when he would not bid it, and "
                               "a hand nobody bids is thrown in anyway (R4.5); add one of them or drop it")
    if chosen["roundhouse_meld"] != (chosen["roundhouse_with_rope"] == 390):
        raise CardsimError("options roundhouse_meld=True and roundhouse_with_rope=390 (V7) change points only "
                           "together: the roundhouse alone scores 240 like its parts and 350 with a rope as in "
                           "the main game; give both or neither")
    return options


def _check_game_end(options: dict, chosen: dict) -> None:
    """CardsimError when a game of ``n_hands`` hands (V11, which ends by the hands played) is also given an end by
    score, ``target`` (R6.5) or ``neg_limit`` (V10), in ``options`` (as given; ``chosen``: all of them)."""
    ends = [f"{name}={options[name]}" for name in ("target", "neg_limit") if name in options]
    if chosen["n_hands"] is not None and ends:
        raise CardsimError(f"option n_hands={chosen['n_hands']} (V11) ends the game by the hands played, so "
                           f"{' and '.join(ends)} would never be read; drop {'them' if len(ends) > 1 else 'it'} or "
                           "n_hands")


def merged_rule(rule: str | None, options: dict) -> str:
    """The play rule given as --rule (``rule``) or as option play_rule (``options``), default old;
    CardsimError for an unknown --rule (the empty one too) or when both are given and differ."""
    given = options.get("play_rule")
    if rule is not None and given is not None and rule != given:
        raise CardsimError(f"--rule {rule} and --option play_rule={given} disagree; give the play rule once")
    if rule is not None:
        play_rule(rule)
        return rule
    return "old" if given is None else given


def meld_options(options: dict) -> dict:
    """The options of ``options`` that `meld` takes (`MELD_OPTIONS`)."""
    return {k: v for k, v in options.items() if k in MELD_OPTIONS}


def kept_cards(cards: list[int], trump: int, options: dict) -> tuple[list[int], str | None]:
    """(the cards that meld, the discard as text or None): a 15-card hand as it is; of 18 cards (hand
    and kitty) the 15 the bidder keeps to meld the most under ``trump`` (R3.9a: discards never meld),
    burying any 3 (R4.7b; `pinochle3_bid.best_discard` with meld_first: ties bury more counters)."""
    if len(cards) == p.HAND_SIZE:
        return cards, None
    d = bid.best_discard(cards, trump, options, meld_first=True)
    return list(d.kept), p.DECK.format_cards(d.discards)


def meld(hand: str, trump: str | None = None, options: dict | None = None) -> pd.DataFrame:
    """Meld breakdown: one row per declared meld (trump, meld, cards, points) for ``trump`` or every trump.

    hand: 15 cards, or 18 (hand and kitty): then the meld of the best 15 kept after a discard of 3
    (`kept_cards`). options: the meld options (`MELD_OPTIONS`: the variants V5-V7 change the values,
    scale 0.1 divides them by 10). attrs: ``totals`` {trump letter: points}, ``best_trump`` (first of
    S H D C among the best), ``hand``, ``options`` and ``discards`` ({trump letter: the 3 cards
    buried} with 18 cards, else None).
    """
    options = checked_options(options, "meld")
    divisor = p.point_divisor(options)
    cards = parse_holding(hand)
    trumps = [parse_trump(trump)] if trump is not None else list(range(p.N_SUITS))
    rows, totals, discards = [], {}, {}
    for t in trumps:
        letter = p.DECK.suits[t]
        kept, discards[letter] = kept_cards(cards, t, options)
        totals[letter] = int(p.meld_points(np.array([p.DECK.mask(kept)], dtype=np.uint64), t, options)[0]) // divisor
        for m in p.meld_breakdown(kept, t, options):
            rows.append({"trump": letter, "meld": m.name, "cards": p.DECK.format_cards(m.cards),
                         "points": m.points // divisor})
    frame = pd.DataFrame(rows, columns=["trump", "meld", "cards", "points"])
    best = max(totals, key=lambda letter: (totals[letter], -p.DECK.suits.index(letter)))
    frame.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), totals=totals, best_trump=best,
                       options=options, discards=discards if len(cards) > p.HAND_SIZE else None,
                       compared=_compared(cards, list(totals), options, divisor))
    return frame


def _compared(cards: list[int], letters: list[str], options: dict, divisor: int) -> dict[str, tuple[int, float]] | None:
    """Spec Q1, how a meld compares with a typical hand: {trump letter: (the holding's meld under that trump, the
    exact share of all holdings of as many cards that meld at least as much, their mean and median meld)} for the
    trumps ``letters``, and
    "best" under each holding's best trump (when every trump is shown); None when meld options change the values
    (the exact count, `exact_meld_ccdf`, knows the main game's). Of 18 cards the meld compared is of all 18 (spec
    §9.2 counts it so), which exceeds the meld of the 15 kept when the best meld needs more than 15 cards."""
    if not np.array_equal(p.meld_values(options), p.MELD_VALUES):
        return None
    mask = np.array([p.DECK.mask(cards)], dtype=np.uint64)

    def compared(trump: int | None) -> tuple[int, float, float, int]:
        points = int(p.best_meld(mask)[0][0] if trump is None else p.meld_points(mask, trump)[0])
        ccdf = exact_meld_ccdf(len(cards), trump)
        share = float(ccdf[points // 10]) if points // 10 < ccdf.size else 0.0
        mean, median = typical_meld(ccdf)
        return points // divisor, share, mean / divisor, median // divisor

    shares = {letter: compared(p.DECK.suits.index(letter)) for letter in letters}
    if len(letters) == p.N_SUITS:
        shares["best"] = compared(None)
    return shares


def meld_json(frame: pd.DataFrame) -> dict:
    """{"trump", "total", "melds": [{"name", "cards", "points"}]} for the given or best trump, plus
    "by_trump" with every trump's total when no trump was given, and with 18 cards "discard" (the 3
    cards buried for that trump's meld)."""
    a = frame.attrs
    trump = a["best_trump"]
    rows = frame[frame.trump == trump]
    out = {"game": GAME, "hand": a["hand"], "trump": trump, "total": a["totals"][trump],
           "melds": [{"name": r.meld, "cards": r.cards, "points": int(r.points)} for r in rows.itertuples()],
           "options": a["options"]}
    if a.get("discards"):
        out["discard"] = a["discards"][trump]
    if len(a["totals"]) > 1:
        out["by_trump"] = a["totals"]
    if a.get("compared"):
        out["share_at_least"] = {key: share for key, (_, share, _, _) in a["compared"].items()}
        out["random_meld"] = {key: {"mean": mean, "median": median} for key, (_, _, mean, median) in
                              a["compared"].items()}
        if len(a["hand"].split()) > p.HAND_SIZE:
            out["meld_of_all_cards"] = {key: points for key, (points, _, _, _) in a["compared"].items()}
    return out


def format_meld(frame: pd.DataFrame) -> str:
    a = frame.attrs
    discards = a.get("discards")
    kept = ": hand and kitty, meld of the best 15 kept after burying 3 (R3.9a)" if discards else ""
    lines = [f"Pinochle meld of {a['hand']}{kept}" + _options_note(a["options"])]
    for trump, total in a["totals"].items():
        best = "   <- best" if len(a["totals"]) > 1 and trump == a["best_trump"] else ""
        bury = f", burying {discards[trump]}" if discards else ""
        lines += ["", f"trump {trump} ({p.DECK.suit_names[p.DECK.suits.index(trump)]}): {total} points{bury}{best}"]
        for r in frame[frame.trump == trump].itertuples():
            lines.append(f"  {r.meld:<22}{r.points:>6}   {r.cards}")
    return "\n".join(lines + _compared_lines(a))


def _compared_lines(a: dict) -> list[str]:
    """The Q1 lines of `format_meld`: the share of random holdings that meld as much (`_compared`)."""
    shares = a.get("compared")
    if shares is None:
        return ["", "(no comparison with random hands: the exact count knows the main game's meld values only)"]
    size = len(a["hand"].split())
    which = f"{size}-card hands" if size == p.HAND_SIZE else f"{size}-card holdings"
    every = "" if size == p.HAND_SIZE else f", meld of all {size}"
    lines = ["", f"Against all C(48,{size}) random {which} (exact{every}): the share that melds as much or more,",
             "and their mean and median meld:",
             f"  {'':<22}{'yours':>6}   {'share':<13}{'mean':>6}{'median':>8}"]
    names = {"best": "with their best trump", **{t: f"under trump {t}" for t in a["totals"]}}
    for key in ["best"] * ("best" in shares) + list(a["totals"]):
        points, share, mean, median = shares[key]
        lines.append(f"  {names[key]:<22}{points:>6}   {_share(share):<13}{mean:>6.1f}{median:>8}")
    return lines


def _share(q: float) -> str:
    """A share of hands: a percentage with three significant digits ('1.07%', '40.0%', '100%'), below 0.1% as
    odds ('1 in 5,430', '1 in 4.56e10')."""
    if q >= 0.001:
        return f"{100 * q:#.3g}".rstrip(".") + "%"
    odds = 1 / q
    return f"1 in {odds:,.0f}" if odds < 1e7 else "1 in " + f"{odds:.2e}".replace("e+", "e")


def _add_meld_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True,
                        help="your 15 cards, or 18 with the kitty: then the meld of the best 15 you keep after "
                             "burying 3; two of each card exist")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: every trump and the best)")
    _add_option_argument(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")


MELD_VARIANTS_HELP = "double_bonus=False, double_royal_marriage=240, roundhouse_meld=True with roundhouse_with_rope=390"
MELD_OPTIONS_HELP = f"{MELD_VARIANTS_HELP}, or scale=0.1"


def _add_option_argument(parser: argparse.ArgumentParser, bidder: bool = False, stats: bool = False) -> None:
    """--option NAME=VALUE (repeatable): the meld options, with ``bidder`` those of `BIDDER_OPTIONS`, with
    ``stats`` those of `STATS_OPTIONS`."""
    what = (f"a rule option: a meld option ({MELD_OPTIONS_HELP}), min_bid=300 (the lowest bid), nines_rule=6_any "
            "(deals a defender throws in are left out), play_rule (as --rule) or a defenders' scoring flag "
            "(defender_needs_counter, defender_counter_rule_on_set, defender_keeps_last_trick_without_counter: "
            "the hand's score when it passes)") if bidder else \
        f"a meld option: {MELD_OPTIONS_HELP}" + (", or nines_rule=6_any (marks that rule's row of the nines "
                                                  "throw-in table)" if stats else "")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"{what} (repeatable; 'cardsim games pinochle3')")


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
def exact_meld_ccdf(hand_size: int, trump: int | None = None) -> np.ndarray:
    """Exact P(meld >= 10 b) of a random holding of ``hand_size`` cards, b = 0, 1, ..., under the best
    trump of each holding (``trump`` None) or under the suit ``trump``, main game's meld values."""
    counts = p.exact_meld_distribution(hand_size, trump)
    ccdf = counts[::-1].cumsum()[::-1] / counts.sum()
    ccdf.setflags(write=False)  # cached: shared by every caller
    return ccdf


def typical_meld(ccdf: np.ndarray) -> tuple[float, int]:
    """(mean, median) meld in points of the distribution whose ``ccdf`` (`exact_meld_ccdf`) is given: the median
    the highest x with P(meld >= x) >= 1/2."""
    return 10 * float(ccdf[1:].sum()), 10 * int(np.flatnonzero(ccdf >= 0.5).max())


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


def _mean_row(hist: np.ndarray, n: int, what: str, exact: float | None, divisor: int = 1) -> dict:
    """Mean of a histogram in bins of 10 main-game points, in points / divisor (exact likewise), with its median
    (`histogram_median`: median, median_lo, median_hi)."""
    points = np.arange(hist.size) * 10.0 / divisor
    median = dict(zip(("median", "median_lo", "median_hi"), histogram_median(hist, points)))
    return {"quantity": what, **mean_interval(float((hist * points).sum()), float((hist * points ** 2).sum()), n),
            "n": n, "exact": None if exact is None else exact / divisor, **median}


GAIN_BY_MELD = (0, 50, 100, 150, 200)
"""The classes of the hand's best meld before the kitty (main-game points, each to the next) of the gain table."""


def _gain_by_meld(tallies: dict[str, np.ndarray], divisor: int) -> pd.DataFrame:
    """Mean kitty gain (points / divisor, normal 95% interval) by the class of the hand's best meld (`GAIN_BY_MELD`),
    from `MeldStatsJob`'s tallies."""
    edges = [x // 10 for x in GAIN_BY_MELD] + [p.MELD_BINS]
    rows = []
    for low, high in zip(edges, edges[1:]):
        n = int(tallies["hand"][low:high].sum())
        start, stop = 10 * low // divisor, 10 * high // divisor
        label = f"[{start}, {stop})" if high < p.MELD_BINS else f">= {start}"
        total, squares = (float(tallies[k][low:high].sum()) for k in ("gain_sum", "gain_squares"))
        rows.append({"meld": label, **mean_interval(total / divisor, squares / divisor ** 2, n), "n": n})
    return pd.DataFrame(rows)


def _limit_row(limit: dict[str, int], n: int, divisor: int) -> pd.DataFrame:
    """How often the 15-card limit costs meld (Wilson), by how many points on average when it does, and in how many
    deals burying raised the meld above that of all 18 (``raised``: only under meld tables where a card added can
    lower meld, `pinochle3.meld_is_monotone`)."""
    deals = limit["cost_deals"]
    return pd.DataFrame([{**Estimate(deals, n).as_dict(), "successes": deals, "n": n,
                          "mean_cost": limit["cost_points"] / deals / divisor if deals else float("nan"),
                          "raised": limit["raised_deals"]}])


@lru_cache(maxsize=None)
def _throw_in_shares() -> dict[str, dict]:
    """`pinochle3_exact.throw_in_shares` by rule (exact, computed once)."""
    return {row["rule"]: row for row in exact_facts.throw_in_shares()}


def _throw_in_table(deals_with: np.ndarray, n: int, chosen: str | None) -> pd.DataFrame:
    """Spec Q11 per nines rule (V4): P(some player may throw the deal in) over n deals, Wilson (deals_with:
    `pinochle3.throw_in_deals` counts), its exact value (`pinochle3_exact.throw_in_shares`) and whether it is the
    ``chosen`` rule."""
    return pd.DataFrame([{"rule": rule, **Estimate(int(k), n).as_dict(), "successes": int(k), "n": n,
                          "exact": _throw_in_shares()[rule]["deal"], "chosen": rule == chosen}
                         for rule, k in zip(p.NINES_RULES, deals_with)])


def stats(n: int = 1_000_000, seed=None, seat: int = 0, options: dict | None = None,
          **run_kw) -> dict[str, pd.DataFrame]:
    """Best-trump meld of a random hand, of hand + kitty, of the best 15 the bidder keeps after burying 3, and the
    kitty gain (spec §9.2-§9.3), and how often a nines rule throws a deal in (spec Q11).

    tails: P(meld >= threshold) with Wilson intervals and the exact value where it is known;
    means: mean points with a normal 95% interval (se = sd / sqrt(n)) and the exact mean, the median with a
    distribution-free 95% interval (`histogram_median`);
    gain_by_meld: the mean gain by the class of the hand's best meld (`GAIN_BY_MELD`);
    limit: how often the 15-card limit costs meld (the best meld of all 18 cards needs 16 or more of them), and
    the mean points it costs then;
    throw_ins: per nines rule P(some player qualifies) with Wilson intervals and the spec's exact value
    (`_throw_in_table`).
    The gain is the meld of the 15 cards kept after the discard that keeps the most meld (`most_meld_kept`) minus
    the best meld of the hand; hand+kitty, the best meld of all 18, bounds the kept meld.
    options: the meld options (`MELD_OPTIONS`); the meld variants (V5-V7) change the values, and then
    the exact columns (main game's values) are left out; scale 0.1 divides points and thresholds by 10;
    nines_rule marks its row of throw_ins (the meld tables count every deal).
    """
    options = checked_options(options, "stats")
    divisor = p.point_divisor(options)
    seed = normalize_seed(seed)
    job = MeldStatsJob(seat, options)
    deals, tallies, limit, throw_ins = job.unpack(runner.run(job, n, seed, **run_kw))
    main_values = np.array_equal(job.values, p.MELD_VALUES)
    exact15, exact18 = (exact_meld_ccdf(p.HAND_SIZE), exact_meld_ccdf(p.HAND_SIZE + p.KITTY_SIZE)) if main_values \
        else (None, None)
    tails = pd.DataFrame(_tail_rows(tallies["hand"], deals, MELD_THRESHOLDS, exact15, "hand", divisor)
                         + _tail_rows(tallies["hand+kitty"], deals, MELD_THRESHOLDS, exact18, "hand+kitty", divisor)
                         + _tail_rows(tallies["gain"], deals, GAIN_THRESHOLDS, None, "gain", divisor))
    exact = [float(ccdf[1:].sum() * 10) if main_values else None for ccdf in (exact15, exact18)]
    means = pd.DataFrame([_mean_row(tallies["hand"], deals, "hand", exact[0], divisor),
                          _mean_row(tallies["hand+kitty"], deals, "hand+kitty", exact[1], divisor),
                          _mean_row(tallies["kept"], deals, "kept", None, divisor),
                          _mean_row(tallies["gain"], deals, "gain", None, divisor)])
    tables = {"tails": tails, "means": means, "gain_by_meld": _gain_by_meld(tallies, divisor),
              "limit": _limit_row(limit, deals, divisor),
              "throw_ins": _throw_in_table(throw_ins, deals, p.rule_options(options)["nines_rule"])}
    for table in tables.values():
        table.attrs.update(game=GAME, n=deals, seed=seed, seat=seat, options=options, exact=main_values)
    return tables


def stats_json(tables: dict[str, pd.DataFrame]) -> dict:
    a = tables["tails"].attrs
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "seat": a["seat"], "options": a["options"],
            "tables": table_records(tables)}


MEAN_NAMES = {"hand": "hand", "hand+kitty": "hand+kitty", "kept": "kept 15", "gain": "gain"}
"""The means table's rows as `format_stats` names them."""


def format_stats(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["tails"].attrs
    lines = [f"Pinochle meld statistics: n = {a['n']:,} deals, seed {a['seed']}, seat {a['seat']}, 95% intervals"
             + _options_note(a["options"]),
             "", f"{'points':<14}{'mean [95% interval]':<26}{'exact' if a['exact'] else '':<11}median [95%]"]
    for r in tables["means"].itertuples():
        exact = "" if r.exact is None or (isinstance(r.exact, float) and math.isnan(r.exact)) else f"{r.exact:.3f}"
        mean = f"{r.mean:.2f} [{r.lo:.2f}, {r.hi:.2f}]"
        median = f"{r.median:g} [{r.median_lo:g}, {r.median_hi:g}]"
        lines.append(f"  {MEAN_NAMES[r.quantity]:<12}{mean:<26}{exact:<11}{median}")
    lines += ["  (hand+kitty: the best meld of all 18 cards; kept 15: of the 15 kept after burying the 3 that keep",
              "  the most meld; gain = kept 15 - hand)"]
    names = {"hand": "best meld of the 15-card hand", "hand+kitty": "best meld of hand + kitty (18 cards)",
             "gain": "kitty gain (kept 15 - hand)"}
    for what, rows in tables["tails"].groupby("quantity", sort=False):
        exact_column = what != "gain" and a["exact"]
        lines += ["", f"P({names[what]} >= x)",
                  (f"  {'x':<7}{'estimate [95%]':<25}" + ("exact" if exact_column else "")).rstrip()]
        for r in rows.itertuples():
            exact = _exact_share(r.exact) if exact_column else ""
            lines.append(f"  {r.threshold:<7}{format_cell(r._asdict()):<25}{exact}".rstrip())
    lines += ["", "Mean kitty gain by the best meld of the 15-card hand (spec §9.3)",
              f"  {'meld':<12}{'gain [95% interval]':<26}deals"]
    lines += [f"  {r.meld:<12}{f'{r.mean:.2f} [{r.lo:.2f}, {r.hi:.2f}]' if r.n > 1 else '-':<26}{r.n:,}"
              for r in tables["gain_by_meld"].itertuples()]
    limit = tables["limit"].iloc[0].to_dict()
    deals, n, raised = int(limit["successes"]), int(limit["n"]), int(limit["raised"])
    lines += ["", f"The 15-card limit cost meld in {format_cell(limit)} of the deals ({deals:,} of {n:,})"
              + (f", by {limit['mean_cost']:.1f} points on average:" if deals else "")]
    if deals:
        lines.append("there the best meld of all 18 cards needs 16 or more of them")
    if raised:
        lines += [f"In {raised:,} deals burying raised the meld above that of all 18:",
                  "under these options a double rope scores less than a rope with St. Joseph's (A13)"]
    return "\n".join(lines + _throw_in_lines(tables["throw_ins"]))


def _small_exact(x: float) -> str:
    """An exact probability below 0.001 in the form of the estimates beside it, to four digits ('1.584e-4')."""
    mantissa, exponent = f"{x:.3e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def _throw_in_lines(table: pd.DataFrame) -> list[str]:
    """The nines throw-in table of `format_stats` (spec Q11)."""
    lines = ["", "P(some player may have the deal thrown in) by nines rule (V4, spec Q11)",
             f"  {'rule':<11}{'estimate [95%]':<26}exact"]
    for r in table.itertuples():
        estimate = format_cell(r._asdict())
        lines.append(f"  {r.rule:<11}{estimate:<26}{r.exact:.6f}" + ("   <- nines_rule" if r.chosen else ""))
    return lines


# --- exact facts (spec §9.2): meld distributions, single melds, counters, suit lengths, throw-ins -------------
EXACT_QUANTILES = (10, 25, 50, 75, 90, 95, 99)
"""The quantiles (percent) of `exact`'s summary, as spec §9.2 lists them."""
EXACT_THRESHOLDS = (20, 40, 60, 80, 100, 120, 150, 180, 200, 220, 250, 300, 350, 400, 500, 800, 1000, 1500)
"""The meld points t of `exact`'s P(meld >= t) rows (main-game points), as spec §9.2 lists them."""
EXACT_VIEWS = ("best", *p.DECK.suits)
"""The trumps of `exact`: each holding's best, then each suit imposed (S H D C)."""


def _exact_summary(counts: np.ndarray, divisor: int) -> dict:
    """Mean, SD, P(0), the `EXACT_QUANTILES`, maximum and most likely value of a meld distribution given as exact
    counts per 10 main-game points (`pinochle3.exact_meld_distribution`), in points / divisor; computed in whole
    numbers and fractions, rounded only at the end."""
    counts = [int(c) for c in counts]
    total = sum(counts)
    mean = Fraction(sum(10 * i * c for i, c in enumerate(counts)), total)
    square = Fraction(sum((10 * i) ** 2 * c for i, c in enumerate(counts)), total)
    cumulative = np.cumsum(np.array(counts, dtype=object))
    quantiles = {f"q{q}": 10 * next(i for i, k in enumerate(cumulative) if 100 * k >= q * total) / divisor
                 for q in EXACT_QUANTILES}  # the smallest value with P(meld <= value) >= q%
    mode = max(range(len(counts)), key=lambda i: (counts[i], -i))
    return {"holdings": total, "mean": float(mean) / divisor, "sd": math.sqrt(square - mean * mean) / divisor,
            "p0": counts[0] / total, **quantiles, "max": 10 * max(i for i, c in enumerate(counts) if c) / divisor,
            "mode": 10 * mode / divisor, "mode_p": counts[mode] / total}


def exact(options: dict | None = None) -> dict[str, pd.DataFrame]:
    """The exact facts of spec §9.2, every holding counted once: meld distributions of a random 15-card hand and of
    the 18 cards with the kitty (all 18 melded), with each holding's best trump and with each trump imposed
    (`pinochle3.exact_meld_distribution`), and the single melds, counters, suit lengths and nines throw-ins
    (`pinochle3_exact`). Tables ``summary`` (a row per cards and trump: `_exact_summary`), ``ccdf`` (a row per cards,
    trump and `EXACT_THRESHOLDS` t: the holdings with meld >= t and their share p), ``melds``, ``counters``,
    ``suits`` and ``throw_ins`` (`_exact_fact_tables`). options: as `stats`; the counts know the main game's meld
    values only, so the meld variants (V5-V7) are refused; scale 0.1 divides points; ``nines_rule`` marks its row of
    ``throw_ins``."""
    options = checked_options(options, "stats")
    if not np.array_equal(p.meld_values(options), p.MELD_VALUES):
        raise CardsimError("--exact counts the main game's meld values only; drop the meld variant options "
                           "(double_bonus, double_royal_marriage, roundhouse_meld, roundhouse_with_rope) or drop "
                           "--exact")
    divisor = p.point_divisor(options)
    summary, ccdf = [], []
    for cards in EXACT_SIZES:
        for view in EXACT_VIEWS:
            counts = p.exact_meld_distribution(cards, None if view == "best" else p.DECK.suits.index(view))
            summary.append({"cards": cards, "trump": view, **_exact_summary(counts, divisor)})
            total = int(counts.sum())
            for t in EXACT_THRESHOLDS:
                at_least = int(counts[t // 10:].sum())
                ccdf.append({"cards": cards, "trump": view, "threshold": t // divisor, "holdings": at_least,
                             "p": at_least / total})
    tables = {"summary": pd.DataFrame(summary), "ccdf": pd.DataFrame(ccdf),
              **_exact_fact_tables(p.rule_options(options)["nines_rule"])}
    for table in tables.values():
        table.attrs.update(game=GAME, options=options, exact=True)
    return tables


EXACT_SIZES = (p.HAND_SIZE, p.HAND_SIZE + p.KITTY_SIZE)
"""The holdings of `exact`: a hand, and a hand with the kitty."""


def _share_row(count: int, cards: int) -> dict:
    """A count of holdings of ``cards`` cards with its exact share: holdings, p, the fraction in lowest terms."""
    share = Fraction(count, math.comb(p.DECK.n_cards, cards))
    return {"holdings": count, "p": float(share), "fraction": f"{share.numerator}/{share.denominator}"}


def _exact_fact_tables(nines_rule: str | None) -> dict[str, pd.DataFrame]:
    """The single-meld, counter, suit-length and throw-in tables of `exact` (`pinochle3_exact`): ``melds`` (a row
    per event and cards), ``counters`` (per holding, hand, kitty or both, and k counters), ``suits`` (per k: a given
    suit k long, the longest suit k long; 15 cards), ``throw_ins`` (per nines rule: a player's holdings, P(a given
    player may throw in), P(some player may) in a deal, whether it is ``nines_rule``)."""
    melds = [{"event": name, "cards": cards, **_share_row(count, cards)}
             for cards in EXACT_SIZES for name, count in exact_facts.meld_event_holdings(cards)]
    counters = [{"holding": what, "cards": cards, "counters": k, **_share_row(count, cards)}
                for what, cards in (("hand", p.HAND_SIZE), ("kitty", p.KITTY_SIZE), ("both", EXACT_SIZES[1]))
                for k, count in enumerate(exact_facts.counter_holdings(cards))]
    suits = [{"length": k, **{f"{key}_{column}": value for key, count in (("given", given), ("longest", longest))
                              for column, value in _share_row(count, p.HAND_SIZE).items()}}
             for k, (given, longest) in enumerate(zip(exact_facts.suit_length_holdings(),
                                                      exact_facts.longest_suit_holdings()))]
    throw_ins = [{**row, "chosen": row["rule"] == nines_rule} for row in _throw_in_shares().values()]
    return {"melds": pd.DataFrame(melds), "counters": pd.DataFrame(counters), "suits": pd.DataFrame(suits),
            "throw_ins": pd.DataFrame(throw_ins)}


def exact_json(tables: dict[str, pd.DataFrame]) -> dict:
    return {"game": GAME, "exact": True, "options": tables["summary"].attrs["options"],
            "tables": table_records(tables)}


EXACT_ROWS = {"mean": "mean", "sd": "SD", "p0": "P(meld = 0)", **{f"q{q}": f"{q}% quantile" for q in EXACT_QUANTILES},
              "max": "maximum", "mode": "most likely (p)"}
"""The summary rows of `format_exact`, in order."""


def _exact_cell(row: pd.Series, key: str) -> str:
    """One value of `format_exact`'s summary, 12 characters."""
    if key in ("mean", "sd"):
        return f"{row[key]:>12.3f}"
    if key == "p0":
        return f"{row[key]:>12.6f}"
    if key == "mode":
        return f"{f'{row[key]:g} ({row.mode_p:.4f})':>12}"
    return f"{row[key]:>12g}"


def format_exact(tables: dict[str, pd.DataFrame]) -> str:
    summary, ccdf = tables["summary"], tables["ccdf"]
    lines = ["Pinochle exact facts: every holding counted once (spec §9.2; meld distributions by a dynamic program "
             "over the four suits)" + _options_note(summary.attrs["options"])]
    what = {p.HAND_SIZE: "a hand", p.HAND_SIZE + p.KITTY_SIZE: "hand and kitty all melded (bounds the meld kept)"}
    header = f"  {'':<16}" + "".join(f"{'best trump' if v == 'best' else f'trump {v}':>12}" for v in EXACT_VIEWS)
    for cards, rows in summary.groupby("cards", sort=False):
        rows = rows.set_index("trump")
        lines += ["", f"{cards} cards, {what[cards]}: C(48,{cards}) = {int(rows.holdings.iloc[0]):,} holdings",
                  header]
        lines += [f"  {label:<16}" + "".join(_exact_cell(rows.loc[v], key) for v in EXACT_VIEWS)
                  for key, label in EXACT_ROWS.items()]
        lines.append("  P(meld >= t)")
        tails = ccdf[ccdf.cards == cards]
        for t, at in tails.groupby("threshold", sort=False):
            shares = at.set_index("trump").p
            lines.append(f"    {t:<14g}" + "".join(f"{_exact_share(shares[v]):>12}" for v in EXACT_VIEWS))
    return "\n".join(lines + _meld_event_lines(tables["melds"]) + _counter_lines(tables["counters"])
                     + _suit_lines(tables["suits"]) + _exact_throw_in_lines(tables["throw_ins"]))


def _one_in(x: float) -> str:
    """'1 in' of a probability x: two decimals below 10, one below 1,000, whole from there (as spec §9.2)."""
    if x <= 0:
        return "never"
    one_in = 1 / x
    return f"{one_in:,.0f}" if one_in >= 1000 else f"{one_in:.1f}" if one_in >= 10 else f"{one_in:.2f}"


def _meld_event_lines(melds: pd.DataFrame) -> list[str]:
    """`format_exact`'s single-meld table: P and 1 in for 15 and 18 cards, the 15-card fraction."""
    lines = ["", "Single melds held (spec §9.2; 'given' is one named suit or rank)",
             f"  {'':<36}{'15 cards':>11}{'1 in':>12}{'18 cards':>11}{'1 in':>12}   exact, 15 cards"]
    hand, both = (melds[melds.cards == cards].set_index("event") for cards in EXACT_SIZES)
    for event, row in hand.iterrows():
        other = both.loc[event]
        lines.append(f"  {event:<36}{_exact_share(row.p):>11}{_one_in(row.p):>12}{_exact_share(other.p):>11}"
                     f"{_one_in(other.p):>12}   {row.fraction}")
    return lines


def _counter_lines(counters: pd.DataFrame) -> list[str]:
    """`format_exact`'s counter table: P(k counters) in the hand, the kitty and both, their means and P(>= 3) of
    the 18."""
    columns = [(what, rows.set_index("counters").p) for what, rows in counters.groupby("holding", sort=False)]
    lines = ["", "Counters (A, 10, K: 24 of the 48 cards): P(k counters)",
             f"  {'k':<6}" + "".join(f"{f'{what} ({int(shares.index.max())})':>14}" for what, shares in columns)]
    for k in range(max(len(shares) for _, shares in columns)):
        lines.append((f"  {k:<6}" + "".join(f"{_exact_share(shares[k]) if k in shares.index else '':>14}"
                                            for _, shares in columns)).rstrip())
    lines.append(f"  {'mean':<6}" + "".join(f"{(shares.index * shares).sum():>14.3f}" for _, shares in columns))
    eighteen = columns[-1][1]
    lines.append(f"  P(hand and kitty hold 3 counters or more, so the bidder can bury three) = "
                 f"{eighteen[3:].sum():.8f}")
    return lines


def _suit_lines(suits: pd.DataFrame) -> list[str]:
    """`format_exact`'s suit-length table of a 15-card hand."""
    lines = ["", "Suit lengths, 15 cards: P(k cards)", f"  {'k':<6}{'a given suit':>16}{'the longest suit':>20}"]
    lines += [f"  {r.length:<6}{_exact_share(r.given_p):>16}{_exact_share(r.longest_p) if r.longest_p else '':>20}"
              .rstrip() for r in suits.itertuples() if r.given_p > 0]
    lines.append(f"  {'mean':<6}" + "".join(f"{(suits.length * suits[column]).sum():>{width}.3f}"
                                            for column, width in (("given_p", 16), ("longest_p", 20))))
    return lines


NINES_REFERENCE_LABELS = {"5_any": "(5+ nines, any meld)", "no_meld_any_nines": "(no meld but deece)"}
"""`format_exact`'s labels of the reference rows of the throw-in table (`pinochle3_exact.NINES_REFERENCES`)."""


def _exact_throw_in_lines(throw_ins: pd.DataFrame) -> list[str]:
    """`format_exact`'s nines throw-in table (V4, spec Q11)."""
    lines = ["", "Nines throw-ins (V4, spec Q11): P(a given player may throw the deal in), P(some player may)",
             f"  {'rule':<22}{'player':>12}{'1 in':>9}{'deal':>12}"]
    for r in throw_ins.itertuples():
        label = NINES_REFERENCE_LABELS.get(r.rule, r.rule)
        deal = "" if r.deal is None or pd.isna(r.deal) else f"{r.deal:.7f}"
        lines.append((f"  {label:<22}{r.player:>#12.6g}{_one_in(r.player):>9}{deal:>12}"
                      + ("   <- nines_rule" if r.chosen else "")).rstrip())
    lines += ["  (in brackets: references, not rules; 'deal' is 3 x 'player' where a hand needs 5 or more of the",
              "  8 nines, so that no two players both qualify)"]
    return lines


def _exact_share(x: float) -> str:
    """An exact share: six decimals, or four significant digits below 0.001 (`_small_exact`)."""
    return f"{x:.6f}" if x >= 0.001 or x == 0 else _small_exact(x)


def _add_stats_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--exact", action="store_true",
                        help="exact facts, every holding counted (spec §9.2; no sampling): meld distributions of 15 "
                             "and 18 cards, best and each fixed trump; single melds, counters, suit lengths and "
                             "nines throw-ins")
    parser.add_argument("--seat", type=whole_number, action=NotedStore, default=0,
                        help="the seat whose hand is measured, 0-2 (default 0)")
    _add_option_argument(parser, stats=True)
    add_run_arguments(parser, default_n=1_000_000)


def _run_stats(args: argparse.Namespace) -> int:
    check_exact_alone(args, "seat")  # every holding is counted, whatever the seat
    if args.exact:
        return emit(args, exact(parse_options(args.option)), exact_json, format_exact)
    tables = stats(args.n, args.seed, args.seat, parse_options(args.option), **run_options(args))
    return emit(args, tables, stats_json, format_stats)


def _stats_frame(args: argparse.Namespace) -> pd.DataFrame:
    """The stats as estimates (for sweeps): mean.<quantity>, ge.<quantity>.<points>, P(meld >= points), and
    throw_in.<nines rule>, P(some player may throw the deal in)."""
    no_exact(args)
    tables = stats(args.n, args.seed, args.seat, parse_options(args.option), **run_options(args))
    return pd.concat([long_frame(tables["means"], ["quantity"], "mean", value="mean"),
                      long_frame(tables["tails"], ["quantity", "threshold"], "ge"),
                      long_frame(tables["throw_ins"], ["rule"], "throw_in")], ignore_index=True)


register_command("stats", GAME, Command("meld and kitty-gain distributions of random deals",
                                        _add_stats_arguments, _run_stats, _stats_frame))
register_command("meld", GAME, Command("meld breakdown of a hand", _add_meld_arguments, _run_meld))


# --- odds of a hand: kitty, discard and P(make bid) (spec §9.1 Q2-Q3) ----------------------------
HIGHEST_DEFAULT_BID = 500
"""The highest bid valued by default (main-game points; `default_bids`)."""
GAIN_STEPS = (10, 20, 50, 100, 150)
"""Kitty gains x of the P(gain >= x) rows (main-game points)."""
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


def default_bids(opts: dict) -> tuple[int, ...]:
    """The bids valued by default (main-game points): every multiple of the step from the minimum bid
    (`bid.lowest_bid`: 250 in the main game, 10 with min_bid None) to `HIGHEST_DEFAULT_BID`."""
    _check_rule_options(opts)
    return tuple(range(bid.lowest_bid(opts), HIGHEST_DEFAULT_BID + 1, opts["bid_step"]))


def _check_rule_options(opts) -> None:
    """CardsimError unless ``opts`` holds every rule option by name, as `pinochle3.rule_options` gives them."""
    if not isinstance(opts, dict) or set(p.rule_options()) - set(opts):
        raise CardsimError(f"opts must be every rule option by name, as pinochle3.rule_options(...) gives them, got "
                           f"{checks.shown(opts)}")


def _whole_bid(value) -> int:
    """A bid as a whole number; CardsimError for anything else (3.5, 'x', True)."""
    try:
        bid_value = int(value)
    except (TypeError, ValueError, OverflowError):
        bid_value = None
    if bid_value is None or isinstance(value, bool) or (isinstance(value, float) and bid_value != value):
        raise CardsimError(f"bids are whole numbers such as 300, got {value!r}")
    return bid_value


def _bid_values(bids, opts: dict, divisor: int, flag: str = "--bids"):
    """The bids of `odds` as numbers: None gives `default_bids` (from the minimum bid up), a string is
    read as --bids reads it (`parse_bids`: '300,350,400' or '250:400:10'), one number is one bid;
    else an iterable of numbers. In reported points (main-game points / divisor)."""
    if bids is None:
        return tuple(b // divisor for b in default_bids(opts))
    if isinstance(bids, (bytes, bytearray)):
        raise CardsimError(f"bids are text such as '300,350' or numbers, got {bids!r}")
    if isinstance(bids, str):
        try:
            return parse_bids(bids, flag)
        except argparse.ArgumentTypeError as error:
            raise CardsimError(str(error)) from None
    return (bids,) if isinstance(bids, (int, float, np.integer, np.floating)) else bids


def checked_bids(bids, opts: dict, divisor: int = 1, flag: str = "--bids") -> tuple[int, ...]:
    """Validated bids (`_bid_values`) in reported points (main-game points / divisor): multiples of
    the step, at least the minimum bid (R4.2a-b), at most what meld + trick points can reach
    (`pinochle3_bid.MAX_TOTAL`); checked one by one, so a huge range stops at its first bid out of reach.
    Repeated bids are dropped (first order kept)."""
    _check_rule_options(opts)
    divisor = checks.whole(divisor, "divisor (main-game points per reported point)", 1)
    step, lowest, highest = opts["bid_step"] // divisor, bid.lowest_bid(opts) // divisor, bid.MAX_TOTAL // divisor
    out = []
    for b in _bid_values(bids, opts, divisor, flag):
        b = _whole_bid(b)
        if b < lowest:
            raise CardsimError(f"bid {b} is below the minimum bid {lowest} (R4.2a)")
        if b % step:
            raise CardsimError(f"bid {b} is not a multiple of {step} (R4.2b)")
        if b > highest:
            raise CardsimError(f"bid {b} can never be made: meld + trick points reach at most {highest} "
                               f"(meld {p.MAX_MELD // divisor} + {p.TRICK_POINTS_TOTAL // divisor} in tricks); give "
                               f"bids of {lowest}-{highest}")
        out.append(b)
    if not out:
        raise CardsimError("give at least one bid")
    return tuple(dict.fromkeys(out))  # a bid given twice is valued once, in the order first given


def parse_bids(text: str, flag: str = "--bids") -> range | tuple[int, ...]:
    """'250:400:10' (start:stop:step, stop included) or '250,300,350' -> bids, each number read as every whole
    number of the command line (`whole_value`: 300.0 and 1_000 too); errors name ``flag``."""
    if not isinstance(text, str):
        raise argparse.ArgumentTypeError(f"{flag} must look like 250:400:10 or 250,300,350, got {checks.shown(text)}")
    numbers = [whole_value(x) for x in text.split(":" if ":" in text else ",")]
    if None in numbers or (":" in text and len(numbers) != 3):
        raise argparse.ArgumentTypeError(f"{flag} must look like 250:400:10 or 250,300,350, got '{text}'")
    if ":" not in text:
        return tuple(numbers)
    start, stop, step = numbers
    if step <= 0:
        raise argparse.ArgumentTypeError(f"{flag} step must be positive, got {step} in '{text}'; write "
                                         f"start:stop:step with start <= stop, e.g. "
                                         f"{min(start, stop)}:{max(start, stop)}:{abs(step) or 10}")
    if start > stop:
        raise argparse.ArgumentTypeError(f"{flag} range '{text}' is empty: start {start} is above stop {stop}; "
                                         f"write start:stop:step with start <= stop, e.g. {stop}:{start}:{step}")
    return range(start, stop + 1, step)


def _tail_estimates(hist: np.ndarray, n: int, xs) -> list[Estimate]:
    """P(value >= x) of a histogram in bins of 10 points, for every x."""
    return [Estimate(int(hist[x // 10:].sum()), n) for x in xs]


def _holding_of(hand: str, kitty: str | None) -> tuple[list[int], list[int] | None]:
    """(the 15 cards of --hand, the 3 of --kitty or None), no card given twice; CardsimError otherwise."""
    groups = p.DECK.parse_groups({"--hand": hand, **({"--kitty": kitty} if kitty is not None else {})})
    cards, kitty_cards = groups["--hand"], groups.get("--kitty")
    if len(cards) != p.HAND_SIZE:
        raise CardsimError(f"--hand must list the {p.HAND_SIZE} cards dealt to you, got {len(cards)}")
    if kitty_cards is not None and len(kitty_cards) != p.KITTY_SIZE:
        raise CardsimError(f"--kitty must list {p.KITTY_SIZE} cards, got {len(kitty_cards)}")
    return cards, kitty_cards


def _check_played(played: int, thrown_in: int, opts: dict) -> None:
    """CardsimError when every deal was thrown in (nines_rule), so nothing was played."""
    if not played:
        raise CardsimError(f"all {thrown_in:,} deals were thrown in by a defender under nines_rule "
                           f"{opts['nines_rule']}, so no hand was played; raise --n")


def _known_gain(cards: list[int], kitty_cards: list[int], t: int | None, options: dict,
                divisor: int) -> tuple[pd.DataFrame, int]:
    """(the `discard` table, the kitty gain) with a known kitty, where both are fixed: the bidder's
    best discard (`pinochle3_bid.best_discard` under trump t or the best: meld + buried counters), and the most
    meld a discard keeps (spec Q2, `kept_meld`) minus the best meld of the 15 cards, in reported points
    (main-game points / divisor)."""
    d = bid.best_discard(cards + kitty_cards, t, options)
    most = int(kept_meld(np.array([p.DECK.mask(cards + kitty_cards)], dtype=np.uint64), t, options)[0])
    before = int(p.best_meld(np.array([p.DECK.mask(cards)], dtype=np.uint64), options)[0][0])
    table = pd.DataFrame([{"discards": p.DECK.format_cards(d.discards), "trump": p.DECK.suits[d.trump],
                           "meld": d.meld // divisor, "buried": d.buried // divisor}])
    return table, (most - before) // divisor


def _exact_gain(cards: list[int], t: int | None, options: dict, divisor: int) -> tuple[pd.DataFrame, float, int]:
    """(the ``gain`` table, the mean gain, the kitties) over every kitty of 3 of the 33 unseen cards, each
    equally likely (spec Q2, `pinochle3_discard.kitty_gains`), exact: rows gain_at_least, p with lo = hi
    = p, n = the kitties (5,456); in reported points (main-game points / divisor)."""
    gains, weights = kitty_gains(p.DECK.mask(cards), t, options)
    total = int(weights.sum())
    rows = [{"gain_at_least": x // divisor, **dict.fromkeys(("p", "lo", "hi"), int(weights[gains >= x].sum()) / total),
             "n": total} for x in GAIN_STEPS]
    return pd.DataFrame(rows), int(gains @ weights) / total / divisor, total


# --- concede or play (spec §9.1 Q5-Q6, R4.10) -----------------------------------------------------
RACE_MODEL = ("race = your score - the mean of the defenders' scores (R6.1); conceding (R4.10): you score -bid, "
              "each defender his meld (no counter test)")
"""One line defining the race difference of the concession table, for the commands' output."""
BREAK_EVEN_MODEL = ("x: the P(make) where play - concede is 0, the outcomes given made and given set held at these "
                    "deals' means (-: none set or none made)")
"""One line defining the break-even column of the concession table."""


def _break_even(made: dict, lost: dict) -> dict:
    """{mean, lo, hi} of the break-even P(make) x = H / (G + H) of the race gain p G - (1 - p) H of playing
    over conceding, G = E[gain | made] and H = E[-gain | set] (`analysis.stats.mean_interval` dicts over the made and
    the set deals, independent samples); delta-method normal 95% interval, all clipped to [0, 1]. NaN
    without made or set deals or when G + H <= 0 (no single threshold)."""
    g, h = made["mean"], lost["mean"]
    if not g + h > 0:
        return {"mean": math.nan, "lo": math.nan, "hi": math.nan}
    x = h / (g + h)
    se = math.sqrt(g * g * lost["se"] ** 2 + h * h * made["se"] ** 2) / (g + h) ** 2
    return {k: min(max(v, 0.0), 1.0) for k, v in (("mean", x), ("lo", x - Z95 * se), ("hi", x + Z95 * se))}


def _concession_row(hist: np.ndarray, parts: np.ndarray, meld_sum: int, meld_squares: int, b: int,
                    divisor: int = 1) -> dict:
    """Concede or play at bid b (main-game points) over the n = hist.sum() deals, greedy play (spec Q6).

    hist (bins,): deals per bin of 10 points of the bidder's meld + trick points T; parts (2, 6, bins):
    `pinochle3_bid.CONCEDE_PARTS` sums per bin of T when he makes b (row 0) and when he is set (row 1);
    meld_sum, meld_squares: sums of the defenders' melds M and M². Per deal, playing scores him
    S = T if T >= b else -b and the defenders D (in parts); conceding -b and M. Returns {bid, n} and
    {mean, lo, hi} (normal 95% intervals; points / divisor) as columns ``defenders_points`` (their trick
    points kept, what conceding denies them), ``race_play`` (S - D/2), ``race_concede`` (-b - M/2),
    ``play_minus_concede`` (the paired difference) and ``concede_below`` (`_break_even`)."""
    n, made = int(hist.sum()), np.arange(hist.size) >= b // 10
    score, score2, extra, extra2, kept, kept2 = np.where(made, parts[0], parts[1]).astype(float)  # extra: D - M
    total = np.arange(hist.size) * 10.0
    own = np.where(made, total, -b)  # the bidder's score when he plays
    swing = np.where(made, total + b, 0.0)  # his own score, playing less conceding

    def mean(total_sum, squares, count=n):
        return mean_interval(total_sum / divisor, squares / divisor ** 2, count)

    def paired_gain(cells):
        """The race gain of playing, swing - (D - M)/2, over the deals of the bins ``cells``."""
        return mean(swing[cells] @ hist[cells] - extra[cells].sum() / 2,
                    swing[cells] ** 2 @ hist[cells] - swing[cells] @ extra[cells] + extra2[cells].sum() / 4,
                    int(hist[cells].sum()))

    lost = mean(extra[~made].sum() / 2, extra2[~made].sum() / 4, int(hist[~made].sum()))  # -gain when set
    columns = {
        "defenders_points": mean(kept.sum(), kept2.sum()),
        "race_play": mean(own @ hist - score.sum() / 2, own ** 2 @ hist - own @ score + score2.sum() / 4),
        "race_concede": mean(-b * n - meld_sum / 2, b * b * n + b * meld_sum + meld_squares / 4),
        "play_minus_concede": paired_gain(slice(None)),
        "concede_below": _break_even(paired_gain(made), lost),
    }
    return {"bid": b // divisor, **{f"{k}{suffix}": v[part] for k, v in columns.items()
                                    for suffix, part in (("", "mean"), ("_lo", "lo"), ("_hi", "hi"))}, "n": n}


def _saves_table(saved: np.ndarray, n: int) -> pd.DataFrame:
    """P(a defender takes at least one counter, which saves his meld, R6.3; spec Q5): rows ``each`` (the
    2n defender hands, the deal a cluster of two, `analysis.stats.ratio_share`), ``left`` and ``right``
    (n each, Wilson). saved (3,): deals where the left, the right, both defenders took a counter."""
    left, right, both = (int(x) for x in saved)
    each = ratio_share(left + right, 2 * n, left + right + 2 * both, 4 * n, 2 * (left + right), n)
    rows = [{"defender": "each", "p": each["p"], "lo": each["lo"], "hi": each["hi"], "n": 2 * n}]
    rows += [{"defender": side, **Estimate(k, n).as_dict(), "n": n} for side, k in (("left", left), ("right", right))]
    return pd.DataFrame(rows)


def odds(hand: str, trump: str | None = None, kitty: str | None = None, bids=None, n: int = 1000,
         seed=None, dd_tricks: int = DD_TRICKS, rule: str | None = None, pimc_samples: int = 0,
         options: dict | None = None, **run_kw) -> dict[str, pd.DataFrame]:
    """What a 15-card hand is worth as the bidder (spec §9.1 Q2-Q3), over deals consistent with it.

    The other 33 cards are dealt at random to the kitty (or ``kitty`` is known) and the two
    defenders; the bidder takes the kitty, buries the 3 cards that maximize meld + buried counters
    (`pinochle3_bid.best_discard`, trump ``trump`` or the best) and leads. bids: None (`default_bids`:
    every multiple of 10 from the minimum bid to 500), a string as --bids takes it ('300,350,400' or '250:400:10'),
    or numbers. rule: the play rule (default: option play_rule, else old). options: rule options
    (`BIDDER_OPTIONS`: meld variants, min_bid, nines_rule (deals a defender throws in are left
    out), play_rule, scale 0.1 dividing every point value and bid by 10). Tables:
    ``by_trump`` meld of the hand per trump; ``gain`` P(kitty gain >= x) (spec Q2: the most meld a discard
    keeps minus the best meld before); ``trump`` how often each trump is named; ``make``
    P(meld + trick points >= bid) per bid with Wilson intervals, greedy play by all ("greedy") and
    greedy play with the last ``dd_tricks`` tricks solved double-dummy ("dd"; 15 = a full solve,
    seconds to minutes per deal) and with ``pimc_samples`` > 0 "pimc": the bidder sees only his own
    cards and plays by PIMC with that many sampled worlds per card, the defenders as in "dd"
    (`simcore.games.pinochle3_pimc`), and ``ev_vs_pass`` (lo, hi): EV_bid(B) - EV_pass of spec Q4
    with greedy play, the paired normal 95% interval (`_ev_vs_pass`); ``concede`` per bid conceding
    against playing, greedy play, the same deals (spec Q6, R4.10, `_concession_row`: the defenders'
    trick points, the race if you play, if you concede, their difference, the break-even P(make));
    ``saves`` P(a defender takes a counter and so saves his meld) (spec Q5, `_saves_table`);
    ``discard`` the best discard when the kitty is known. With a random kitty ``gain`` is exact, over
    every kitty (`_exact_gain`; deals a defender throws in under nines_rule are not left out there).
    attrs: ``gain_exact`` the exact mean gain (with a known kitty the gain itself, a whole number),
    ``kitties`` the kitties it is taken over (None with a known kitty), ``gain_mean`` {mean, se, lo, hi}
    the mean gain of the simulated deals (normal 95% interval);
    ``race_model`` (the concession table's race in one line); ``ev_pass`` {mean, se, lo, hi}: EV_pass,
    the hand's score as a defender when the next seat takes the bid in the same deal instead
    (`pinochle3_bid.defender_outcomes`; ``pass_model`` says so in one line); ``thrown_in`` the deals
    left out under nines_rule; ``hand_may_throw_in`` whether the hand itself qualifies for a nines
    throw-in (its holder may have the deal thrown in before the auction; the odds are those of playing it).
    """
    options = checked_options(options, "odds")
    rule = merged_rule(rule, options)
    opts = p.rule_options({**options, "play_rule": rule})
    divisor = p.point_divisor(options)
    pimc_samples = checks.whole(pimc_samples, f"pimc_samples (--samples; 0: no PIMC column, else "
                                              f"1-{bid.MAX_SAMPLES})", 0, bid.MAX_SAMPLES)
    bid.check_dd_tricks(dd_tricks)
    if dd_tricks < 2 and not pimc_samples:  # one trick left plays itself
        check_greedy_rule(rule, "the greedy column", "solve the ending with --dd-tricks 2-15 or use --rule old")
    bids = checked_bids(bids, opts, divisor)
    cards, kitty_cards = _holding_of(hand, kitty)
    t = parse_trump(trump) if trump is not None else None
    seed = normalize_seed(seed)
    job = bid.BidderJob(cards, rule, dd_tricks, t, kitty_cards, pimc_samples, options)
    c = job.unpack(runner.run(job, n, seed, **run_kw))
    deals = c["deals"]
    _check_played(deals, c["thrown_in"], opts)
    totals = meld(hand, options=meld_options(options)).attrs["totals"]
    make = {k: _tail_estimates(c[k], deals, [b * divisor for b in bids]) for k in ("greedy", "dd", "pimc")}
    _, vs_pass = _ev_vs_pass(c["greedy"], c["pass_by_greedy"], c["pass_squares"], [b * divisor for b in bids],
                             divisor)
    tables = {
        "by_trump": pd.DataFrame({"trump": list(totals), "meld": list(totals.values())}),
        "gain": pd.DataFrame([{"gain_at_least": x // divisor, **e.as_dict(), "n": deals}
                              for x, e in zip(GAIN_STEPS, _tail_estimates(c["gain"], deals, GAIN_STEPS))]),
        "trump": pd.DataFrame([{"trump": p.DECK.suits[s], **Estimate(int(k), deals).as_dict(), "n": deals}
                               for s, k in enumerate(c["trump"])]),
        "make": pd.DataFrame([{"bid": b, "greedy_p": g.p, "greedy_lo": g.lo, "greedy_hi": g.hi,
                               **({"dd_p": d.p, "dd_lo": d.lo, "dd_hi": d.hi} if dd_tricks else {}),
                               **({"pimc_p": m.p, "pimc_lo": m.lo, "pimc_hi": m.hi} if pimc_samples else {}),
                               "ev_vs_pass": v["mean"], "ev_vs_pass_lo": v["lo"], "ev_vs_pass_hi": v["hi"], "n": deals}
                              for b, g, d, m, v in zip(bids, make["greedy"], make["dd"], make["pimc"], vs_pass)]),
        "concede": pd.DataFrame([_concession_row(c["greedy"], c["concede"], c["meld_sum"], c["meld_squares"],
                                                 b * divisor, divisor) for b in bids]),
        "saves": _saves_table(c["saved"], deals),
    }
    if kitty_cards is None:
        tables["gain"], gain_exact, kitties = _exact_gain(cards, t, options, divisor)
    else:
        tables["discard"], gain_exact = _known_gain(cards, kitty_cards, t, options, divisor)
        kitties = None
    gain_mean = mean_interval(c["gain_sum"] / divisor, c["gain_squares"] / divisor ** 2, deals)
    ev_pass = mean_interval(c["pass_sum"] / divisor, c["pass_squares"] / divisor ** 2, deals)
    for table in tables.values():
        table.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), n=deals, seed=seed, rule=rule,
                           dd_tricks=dd_tricks, pimc_samples=pimc_samples, gain_mean=gain_mean, gain_exact=gain_exact,
                           kitties=kitties, ev_pass=ev_pass, pass_model=bid.PASS_MODEL,
                           race_model=RACE_MODEL,
                           trump=trump, kitty=p.DECK.format_cards(sorted(kitty_cards)) if kitty_cards else None,
                           options=options, thrown_in=c["thrown_in"], nines_rule=opts["nines_rule"],
                           hand_may_throw_in=_may_throw_in(cards, opts["nines_rule"]))
    return tables


def _may_throw_in(cards: list[int], nines_rule: str | None) -> bool:
    """Whether the 15 cards themselves qualify for a nines throw-in under ``nines_rule`` (V4; spec §10 X7)."""
    return bool(p.nines_throw_in(np.array([p.DECK.mask(cards)], dtype=np.uint64), nines_rule)[0])


def odds_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The odds as one JSON object; "kitty_gain" as `_gain_json`; "ev_pass" {"mean", "se", "lo", "hi"} (spec Q4's
    EV_pass, modelled as "pass_model" says); "make" rows add ev_vs_pass, ev_vs_pass_lo, ev_vs_pass_hi
    (EV_bid(bid) - EV_pass, greedy play); "concede" rows per bid (`_concession_row`: defenders_points,
    race_play, race_concede, play_minus_concede, concede_below, each with _lo and _hi) under "race_model",
    "defender_saves_meld" rows (`_saves_table`); "hand_may_throw_in": the hand itself qualifies for a nines
    throw-in under the nines_rule given (false without one)."""
    a = tables["make"].attrs
    out = {"game": GAME, "hand": a["hand"], "kitty": a["kitty"], "trump": a["trump"], "n": a["n"], "seed": a["seed"],
           "rule": a["rule"], "dd_tricks": a["dd_tricks"], "pimc_samples": a["pimc_samples"], "options": a["options"],
           "thrown_in": a["thrown_in"], "hand_may_throw_in": a["hand_may_throw_in"],
           "meld_by_trump": dict(zip(tables["by_trump"].trump, tables["by_trump"].meld.astype(int).tolist())),
           "kitty_gain": _gain_json(tables), "ev_pass": a["ev_pass"], "pass_model": a["pass_model"],
           "trump_named": table_records({"t": tables["trump"]})["t"],
           "make": table_records({"m": tables["make"]})["m"], "race_model": a["race_model"],
           "concede": table_records({"c": tables["concede"]})["c"],
           "defender_saves_meld": table_records({"s": tables["saves"]})["s"]}
    if "discard" in tables:
        out["best_discard"] = table_records({"d": tables["discard"]})["d"][0]
    return out


def _gain_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The kitty gain as JSON: {"exact"} with a known kitty; else exact over every kitty: {"mean", "se" (0),
    "lo", "hi" (both the mean), "exact" (the mean), "kitties", "at_least": [P(gain >= x) rows, lo = hi = p],
    "sampled": {"mean", "se", "lo", "hi"} of the simulated deals}."""
    a = tables["make"].attrs
    if a["kitties"] is None:
        return {"exact": a["gain_exact"]}
    m = a["gain_exact"]
    return {"mean": m, "se": 0.0, "lo": m, "hi": m, "exact": m, "kitties": a["kitties"],
            "at_least": table_records({"g": tables["gain"]})["g"], "sampled": a["gain_mean"]}


def _thrown_in_note(a: dict) -> str:
    """' (N more deals thrown in by a defender under nines_rule R, left out)' or ''."""
    return f" ({a['thrown_in']:,} more deals thrown in by a defender under nines_rule {a['nines_rule']}, left out)" \
        if a["thrown_in"] else ""


def _gain_lines(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The kitty gain: one exact value with a known kitty, else its exact mean and P(gain >= x) over every
    kitty, then the simulated deals' mean with its normal 95% interval."""
    a = tables["make"].attrs
    title = "kitty gain (the most meld a discard keeps - best meld now, spec Q2)"
    if a["kitties"] is None:
        return [f"{title}: {a['gain_exact']} exactly (the kitty is known)"]
    m = a["gain_mean"]
    return [f"{title}, exact over all {a['kitties']:,} kitties: mean {a['gain_exact']:.3f}"] + \
        [f"  P(gain >= {r.gain_at_least:<3}) {format_p(r.p)}" for r in tables["gain"].itertuples()] + \
        [f"  (mean of the {a['n']:,} deals below: {m['mean']:.1f} [{m['lo']:.1f}, {m['hi']:.1f}])"]


def format_odds(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["make"].attrs
    melds = ", ".join(f"{r.trump} {r.meld}" for r in tables["by_trump"].itertuples())
    lines = [f"Pinochle odds of {a['hand']} as the bidder: n = {a['n']:,} deals{_thrown_in_note(a)}, seed {a['seed']}, "
             f"rule {a['rule']}, 95% intervals" + _options_note(a["options"]), f"meld by trump: {melds}"]
    if a["hand_may_throw_in"]:
        lines.append(f"note: this hand itself qualifies for a nines throw-in under nines_rule {a['nines_rule']} (V4): "
                     "you may have the deal thrown in before the auction; the odds below are those of playing it")
    lines += _gain_lines(tables)
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
    e = a["ev_pass"]
    lines += ["", f"EV_pass (score as a defender if you pass): {e['mean']:.1f} [{e['lo']:.1f}, {e['hi']:.1f}]",
              a["pass_model"]]
    lines += ["", "P(meld + trick points >= bid)   " + " | ".join(title for _, title in columns)
              + " || EV_bid - EV_pass, greedy"]
    for r in tables["make"].itertuples():
        cells = [f"{getattr(r, k + '_p'):.3f} [{getattr(r, k + '_lo'):.3f},{getattr(r, k + '_hi'):.3f}]"
                 for k, _ in columns]
        ev = f"{r.ev_vs_pass:6.1f} [{r.ev_vs_pass_lo:.1f},{r.ev_vs_pass_hi:.1f}]"
        lines.append(f"  bid {r.bid:<5}" + "   ".join(cells) + "   " + ev)  # bids have at most 4 digits
    return "\n".join(lines + _concession_lines(tables))


def _concession_lines(tables: dict[str, pd.DataFrame]) -> list[str]:
    """The concession table (spec Q6) and the defenders' saved melds (Q5) of `format_odds`."""
    a = tables["make"].attrs

    def cell(r, k, width=6, digits=1):
        value, lo, hi = (getattr(r, k + suffix) for suffix in ("", "_lo", "_hi"))
        if _missing(value):
            return "-"
        interval = "[too few deals]" if _missing(lo) else f"[{lo:.{digits}f},{hi:.{digits}f}]"
        return f"{value:{width}.{digits}f} {interval}"

    header = "defenders' trick points"
    lines = ["", "Concede or play after the melds (R4.10, spec Q6), greedy play, the same deals:", a["race_model"],
             BREAK_EVEN_MODEL,
             f"{'':11}{header:<25}{'race if you play':<24}"
             f"{'race if you concede':<24}{'play - concede':<24}concede if P(make) < x"]
    for r in tables["concede"].itertuples():
        lines.append(f"  bid {r.bid:<5}{cell(r, 'defenders_points', 5):<25}{cell(r, 'race_play'):<24}"
                     f"{cell(r, 'race_concede'):<24}{cell(r, 'play_minus_concede'):<24}"
                     f"{cell(r, 'concede_below', 5, 3)}")
    each, left, right = tables["saves"].itertuples()
    return lines + ["", "defenders' counters (spec Q5, R6.3), greedy play: P(a defender takes >= 1 counter, saving "
                        "his meld)",
                    f"  each {each.p:.3f} [{each.lo:.3f},{each.hi:.3f}] of {each.n:,} defender hands; left "
                    f"{left.p:.3f} [{left.lo:.3f},{left.hi:.3f}], right {right.p:.3f} [{right.lo:.3f},{right.hi:.3f}] "
                    f"of {left.n:,}"]


RULE_HELP = "play rule: old, old_strict, new1945, new1945_alt (default old, or option play_rule)"


def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help="your 15 cards")
    parser.add_argument("--trump", default=None, help="trump suit S, H, D or C (default: the best for each kitty)")
    parser.add_argument("--kitty", default=None, help="the 3 kitty cards, if known (default: random)")
    parser.add_argument("--bids", type=parse_bids, default=None,
                        help=f"bids to evaluate: start:stop:step or a comma list, multiples of 10 from the minimum bid "
                             f"(250; 10 with min_bid=None) to {bid.MAX_TOTAL}, all divided by 10 with scale=0.1 "
                             f"(default: every multiple of 10 from the minimum bid to {HIGHEST_DEFAULT_BID}, "
                             "250:500:10 in the main game)")
    parser.add_argument("--dd-tricks", type=whole_number, default=None,
                        help=f"tricks solved double-dummy at the end of each hand, 0-15 (default {DD_TRICKS}, "
                             f"{PIMC_DD_TRICKS} with --play pimc; 0 skips; 15 is a full solve, seconds to minutes "
                             "per deal)")
    parser.add_argument("--rule", default=None, help=RULE_HELP)
    parser.add_argument("--compare", type=one_of(tuple(bid.COMPARISONS)), default=None,
                        help="play the same deals by every play rule (rules; default old) or every discard policy "
                             "(discards; default best, the others: " + ", ".join(list(DISCARD_POLICIES)[1:]) +
                             "), each paired with the default: P(make) per bid and E[bidder trick points] with "
                             "their differences (greedy and dd columns; spec Q7, Q9)")
    parser.add_argument("--play", type=one_of(PLAYS), default="greedy",
                        help="pimc adds a column where the bidder, seeing only his own cards, plays by PIMC "
                             "(sampled defenders' hands; default greedy: greedy and dd columns only)")
    parser.add_argument("--samples", type=counts_up_to(bid.MAX_SAMPLES), action=NotedStore, default=PIMC_SAMPLES,
                        help=f"sampled worlds per card of the PIMC bidder, 1-64, only with --play pimc "
                             f"(default {PIMC_SAMPLES})")
    parser.add_argument("--defend", type=one_of(DEFEND_SEATS), default=None,
                        help="a defender's odds instead (spec Q5): --hand is yours, you sit on the bidder's left "
                             "(you play second to his lead) or right; give --trump, --bid and --bidder-meld (and "
                             "--kitty if you noted it); greedy play: P(you take a counter, saving your meld), the "
                             "defenders' trick points, P(the bidder makes it)")
    parser.add_argument("--bid", default=None, help="with --defend: the bidder's bid (e.g. 300)")
    parser.add_argument("--bidder-meld", default=None,
                        help="with --defend: the cards the bidder laid down as meld, e.g. 'HA H10 HK HQ HJ' "
                             "('none': he melded nothing); they are in his kept 15")
    parser.add_argument("--partner-meld", default=None,
                        help="with --defend, if you noted it: the cards your partner laid down as meld ('none': he "
                             "melded nothing); deals are then kept only where he melds exactly that")
    _add_option_argument(parser, bidder=True)
    add_run_arguments(parser, default_n=1000)


def _defend_of(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    """`defend` of the arguments of 'cardsim odds pinochle3 --defend'."""
    unused = [flag for flag, value in (("--bids", args.bids), ("--dd-tricks", args.dd_tricks),
                                       ("--compare", args.compare)) if value is not None]
    unused += ["--play pimc"] * (args.play == "pimc") + given_flags(args, "samples")
    if unused:
        one = len(unused) == 1
        hint = " (give the bid as --bid)" if args.bids is not None else ""
        raise CardsimError(f"--defend plays greedily at one bid, so {', '.join(unused)} {'does' if one else 'do'} not "
                           f"apply; drop {'it' if one else 'them'}{hint}")
    missing = [flag for flag, value in (("--trump", args.trump), ("--bid", args.bid),
                                        ("--bidder-meld", args.bidder_meld)) if value is None]
    if missing:
        raise CardsimError(f"--defend needs {', '.join(missing)}: what you saw before play, e.g. --trump H --bid 300 "
                           "--bidder-meld 'HA H10 HK HQ HJ' ('none' if he melded nothing)")
    return defend(args.hand, args.defend, args.trump, args.bid, args.bidder_meld, args.kitty, args.n, args.seed,
                  args.rule, parse_options(args.option), partner_meld=args.partner_meld, **run_options(args))


def _odds_of(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    if args.defend is not None:
        return _defend_of(args)
    check_only_with([flag for flag, value in (("--bid", args.bid), ("--bidder-meld", args.bidder_meld),
                                              ("--partner-meld", args.partner_meld)) if value is not None],
                    "--defend", False)
    pimc = args.play == "pimc"
    check_only_with(given_flags(args, "samples"), "--play pimc", pimc)
    dd_tricks = args.dd_tricks if args.dd_tricks is not None else (PIMC_DD_TRICKS if pimc else DD_TRICKS)
    if args.compare:
        from analysis.games.pinochle3_compare import compare

        if pimc:
            raise CardsimError("--compare plays greedy and dd columns only; drop --play pimc")
        return compare(args.hand, args.compare, args.trump, args.kitty, args.bids, args.n, args.seed, dd_tricks,
                       args.rule, parse_options(args.option), **run_options(args))
    return odds(args.hand, args.trump, args.kitty, args.bids, args.n, args.seed, dd_tricks, args.rule,
                args.samples if pimc else 0, parse_options(args.option), **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    if args.defend is not None:
        return emit(args, _odds_of(args), defend_json, format_defend)
    if args.compare:
        from analysis.games.pinochle3_compare import compare_json, format_compare

        return emit(args, _odds_of(args), compare_json, format_compare)
    return emit(args, _odds_of(args), odds_json, format_odds)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``make.<bid>.<play>`` (play greedy, dd, pimc: the columns the run has),
    ``gain.<x>`` (P(kitty gain >= x)), ``gain.mean`` (exact over every kitty: lo = hi, n the kitties;
    with a known kitty the deals' mean, the gain itself), ``trump.<suit>``
    (how often each trump is named), ``ev_pass.mean`` (EV_pass), ``ev_vs_pass.<bid>``
    (EV_bid(bid) - EV_pass, greedy play), ``concede.<bid>.<column>`` (`_concession_row`'s columns;
    concede_below only where it has an interval: at least two deals made and two set) and
    ``saves_meld.<defender>`` (each, left, right: P(a defender takes a counter)); with --compare
    those of `pinochle3_compare.compare_frame`; with --defend those of `defend_frame`."""
    tables = _odds_of(args)
    if args.defend is not None:
        return defend_frame(tables)
    if args.compare:
        from analysis.games.pinochle3_compare import compare_frame

        return compare_frame(tables)
    make = tables["make"]
    parts = []
    for play_method in ("greedy", "dd", "pimc"):
        if f"{play_method}_p" in make:
            part = long_frame(make, ["bid"], "make", value=f"{play_method}_p", lo=f"{play_method}_lo",
                              hi=f"{play_method}_hi")
            part["estimate"] += f".{play_method}"
            parts.append(part)
    a = make.attrs
    mean = pd.DataFrame([{"what": "mean", **dict.fromkeys(("mean", "lo", "hi"), a["gain_exact"]), "n": a["kitties"]}
                         if a["kitties"] else {"what": "mean", **a["gain_mean"], "n": a["n"]}])
    passing = pd.DataFrame([{"what": "mean", **make.attrs["ev_pass"], "n": make.attrs["n"]}])
    parts += [long_frame(tables["gain"], ["gain_at_least"], "gain"), long_frame(mean, ["what"], "gain", value="mean"),
              long_frame(tables["trump"], ["trump"], "trump"), long_frame(passing, ["what"], "ev_pass", value="mean"),
              long_frame(make, ["bid"], "ev_vs_pass", value="ev_vs_pass", lo="ev_vs_pass_lo", hi="ev_vs_pass_hi"),
              long_frame(tables["saves"], ["defender"], "saves_meld")]
    concede = tables["concede"]
    for column in ("defenders_points", "race_play", "race_concede", "play_minus_concede", "concede_below"):
        part = long_frame(concede, ["bid"], "concede", value=column, lo=f"{column}_lo", hi=f"{column}_hi")
        part["estimate"] += f".{column}"
        parts.append(part.dropna(subset=["value", "lo", "hi"]))
    return pd.concat(parts, ignore_index=True)


register_command("odds", GAME, Command("kitty gain, best discard and P(make bid) of a hand; --defend: a "
                                       "defender's odds of saving his meld", _add_odds_arguments,
                                       _run_odds, _odds_frame))


# --- a defender's view: will I save my meld? (spec §9.1 Q5) ---------------------------------------
DEFEND_SEATS = tuple(defend_sim.SEAT_NAMES)
"""--defend: your seat, on the bidder's left (you play second to his lead) or on his right (third)."""
DEFEND_MINE_AT_LEAST = (10, 30, 50, 80, 100)
"""x of the P(your trick points >= x) rows (main-game points)."""
DEFEND_SIDE_AT_LEAST = (50, 100, 150, 200)
"""x of the P(the defenders' trick points >= x) rows (main-game points)."""
DEFEND_CANNOT = {"nines_rule": "the deal you defend reached play; who might have thrown it in is not conditioned on"}
"""Options `odds` models that --defend does not, with the reason."""
DEFEND_MODEL = ("model: the unseen cards dealt at random, the bidder's 18 (kitty + 15) holding the shown cards; he "
                "buries 3 by the best discard under the trump named and keeps exactly the shown meld (other deals "
                "rejected); he plays (no concession), leads, and every seat plays greedily")
"""How the defender's view is modelled, in one line (`simcore.games.pinochle3_defend`)."""


def parse_shown(text: str, flag: str = "--bidder-meld") -> list[int]:
    """The shown meld cards of --bidder-meld or --partner-meld ('none' or '-': no meld). An empty text is refused:
    a blank shell variable should not pass for "no meld"."""
    if not isinstance(text, str) or not text.strip():
        raise CardsimError(f"{flag} must be the shown meld cards as one text such as 'SQ DJ', or 'none', got "
                           f"{checks.shown(text)}")
    return [] if text.strip().lower() in ("none", "-") else p.DECK.parse_cards(text, flag)


def defend(hand: str, seat: str, trump: str, bid_value, bidder_meld: str, kitty: str | None = None, n: int = 1000,
           seed=None, rule: str | None = None, options: dict | None = None, partner_meld: str | None = None,
           **run_kw) -> dict[str, pd.DataFrame]:
    """A defender's odds (spec §9.1 Q5): will he save his meld (take a counter in tricks, R6.3), how many trick
    points will the defenders take, will the bidder make his bid; over the deals consistent with what he has seen
    (`simcore.games.pinochle3_defend`: his 15 cards ``hand``, ``seat`` 'left' or 'right' of the bidder, the
    ``trump`` named, the bid ``bid_value``, the bidder's meld cards ``bidder_meld`` ('none': no meld), the
    ``kitty`` and the partner's meld cards ``partner_meld`` if noted), greedy play. options: as `odds`
    (`BIDDER_OPTIONS`) but nines_rule; the defenders' scoring flags decide when his meld scores. Tables (rows
    with p, lo, hi Wilson 95%, n): ``p`` what you_counter, partner_counter, either_counter (takes >= 1 counter in
    tricks), meld_scores (your meld counts: R6.3 under the flags, A3), made (the bidder's shown meld + trick
    points + buried counters >= bid), and with ``partner_meld`` partner_meld_scores; ``at_least`` who (you,
    defenders), points x: P(trick points >= x); ``means`` what (your_points, defenders_points, your_score = your
    trick points + your meld when it scores) with mean, se, lo, hi (normal). attrs: the inputs, ``shown_meld``,
    ``my_meld``, ``partner_shown_meld`` (None: not noted), ``acceptance`` {p, lo, hi, n} (of n uniform
    deals with the shown cards where they were shown, the share kept: the bidder keeps exactly the shown meld and
    the partner melds his), ``model``."""
    options = checked_options(options, "odds")
    for name, why in DEFEND_CANNOT.items():
        if name in options and options[name] != p.rule_options()[name]:
            raise CardsimError(f"option {name}={options[name]} is not modelled by 'cardsim odds pinochle3 --defend' "
                               f"({why}); drop it")
    rule = merged_rule(rule, options)
    check_greedy_rule(rule, "the defender's view", "use --rule old or old_strict")
    opts = p.rule_options({**options, "play_rule": rule})
    divisor = p.point_divisor(options)
    if seat not in DEFEND_SEATS:
        raise CardsimError(f"seat (--defend) is your seat: left (the bidder's left, you play second) or right, "
                           f"got {seat!r}")
    (b,) = checked_bids((_whole_bid(bid_value),), opts, divisor)
    cards, kitty_cards = _holding_of(hand, kitty)
    t = parse_trump(trump)
    shown = parse_shown(bidder_meld)
    partner = None if partner_meld is None else parse_shown(partner_meld, "--partner-meld")
    s = defend_sim.setup(cards, defend_sim.SEAT_NAMES[seat], t, b * divisor, shown, kitty_cards, options, partner)
    seed = normalize_seed(seed)
    job = defend_sim.DefendJob(s, rule, options)
    c = job.unpack(runner.run(job, n, seed, **run_kw))
    deals = c["deals"]
    probs = [("you_counter", c["me_counter"]), ("partner_counter", c["partner_counter"]),
             ("either_counter", c["side_counter"]), ("meld_scores", c["saved"]), ("made", c["made"])]
    probs += [("partner_meld_scores", c["partner_saved"])] * (partner is not None)
    at_least = [{"who": who, "points": x // divisor, **e.as_dict(), "n": deals}
                for who, hist, xs in (("you", c["me_hist"], DEFEND_MINE_AT_LEAST),
                                      ("defenders", c["side_hist"], DEFEND_SIDE_AT_LEAST))
                for x, e in zip(xs, _tail_estimates(hist, deals, xs))]
    means = [{"what": what, **mean_interval(c[f"{k}_sum"] / divisor, c[f"{k}_squares"] / divisor ** 2, deals),
              "n": deals} for what, k in (("your_points", "me"), ("defenders_points", "side"), ("your_score", "score"))]
    points = [{"who": who, "points": 10 * i // divisor, **Estimate(int(k), deals).as_dict(), "successes": int(k),
               "n": deals}
              for who, hist in (("you", c["me_hist"]), ("defenders", c["side_hist"])) for i, k in enumerate(hist) if k]
    tables = {"p": pd.DataFrame([{"what": w, **Estimate(k, deals).as_dict(), "n": deals} for w, k in probs]),
              "at_least": pd.DataFrame(at_least), "means": pd.DataFrame(means), "points": pd.DataFrame(points)}
    accepted = Estimate(c["passed"], c["drawn"])
    for table in tables.values():
        table.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), seat=seat, trump=p.DECK.suits[t],
                           bid=b, bidder_meld=p.DECK.format_cards(sorted(shown)) or "none",
                           partner_meld=None if partner is None else p.DECK.format_cards(sorted(partner)) or "none",
                           partner_shown_meld=None if partner is None else s.partner_meld // divisor,
                           shown_meld=s.shown_meld // divisor, my_meld=s.my_meld // divisor,
                           kitty=p.DECK.format_cards(sorted(kitty_cards)) if kitty_cards else None, n=deals, seed=seed,
                           rule=rule, options=options, model=DEFEND_MODEL,
                           acceptance={**accepted.as_dict(), "n": c["drawn"]})
    return tables


def defend_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The defender's odds as one JSON object: the inputs, "shown_meld", "my_meld", "acceptance", "model", and
    "p" {what: {p, lo, hi}}, "at_least" rows, "means" {what: {mean, se, lo, hi}} (`defend`)."""
    a = tables["p"].attrs
    out = {k: a[k] for k in ("game", "hand", "seat", "trump", "bid", "bidder_meld", "kitty", "shown_meld", "my_meld",
                             "partner_meld", "partner_shown_meld", "n", "seed", "rule", "options", "acceptance",
                             "model")}
    out["p"] = {r["what"]: {k: r[k] for k in ("p", "lo", "hi")} for r in table_records({"p": tables["p"]})["p"]}
    out["at_least"] = table_records({"a": tables["at_least"]})["a"]
    out["means"] = {r["what"]: {k: r[k] for k in ("mean", "se", "lo", "hi")}
                    for r in table_records({"m": tables["means"]})["m"]}
    out["points"] = table_records({"d": tables["points"]})["d"]
    return out


def format_defend(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["p"].attrs
    pr = {r.what: r for r in tables["p"].itertuples()}
    mean = {r.what: r for r in tables["means"].itertuples()}
    acc = a["acceptance"]

    def share(r) -> str:
        return f"{r.p:.3f} [{r.lo:.3f},{r.hi:.3f}]"

    def avg(r) -> str:
        return f"mean {r.mean:.1f} [{r.lo:.1f},{r.hi:.1f}]"

    def tails(who: str) -> str:
        rows = tables["at_least"][tables["at_least"].who == who]
        return ", ".join(f"P(>= {r.points}) {r.p:.3f} [{r.lo:.3f},{r.hi:.3f}]" for r in rows.itertuples())

    order = "second" if a["seat"] == "left" else "third"
    partner = f"; your partner shows {a['partner_meld']} (meld {a['partner_shown_meld']})" \
        if a.get("partner_meld") is not None else ""
    kitty = f", kitty {a['kitty']}" if a["kitty"] else ""
    lines = [f"Pinochle defence of {a['hand']} on the bidder's {a['seat']} (you play {order} to his lead): trump "
             f"{a['trump']}, bid {a['bid']}{kitty}; n = {a['n']:,} deals, seed {a['seed']}, rule {a['rule']}, 95% "
             "intervals" + _options_note(a["options"]),
             f"the bidder shows {a['bidder_meld']} (meld {a['shown_meld']}); your meld {a['my_meld']}" + partner,
             a["model"] + (", your partner holding his shown meld cards and melding exactly that" if partner else ""),
             f"deals kept: {acc['p']:.2%} [{acc['lo']:.2%},{acc['hi']:.2%}] of {acc['n']:,} deals with the shown cards "
             f"in place (the bidder keeps exactly the shown meld{', the partner melds his' if partner else ''})", "",
             f"you take >= 1 counter in tricks (R6.3): {share(pr['you_counter'])}",
             f"your meld {a['my_meld']} scores (R6.3 under the options' flags, A3): {share(pr['meld_scores'])}",
             f"your partner takes >= 1 counter:     {share(pr['partner_counter'])}",
             f"either of you takes >= 1 counter:    {share(pr['either_counter'])}"]
    if partner:
        meld = a["partner_shown_meld"]
        lines.append(f"your partner's meld {meld} scores (R6.3):  {share(pr['partner_meld_scores'])}")
    lines += [f"the bidder makes {a['bid']} (meld {a['shown_meld']} + his trick points and buried counters): "
              f"{share(pr['made'])}", "",
              f"your trick points: {avg(mean['your_points'])}; {tails('you')}",
              f"the defenders' trick points (yours + partner's): {avg(mean['defenders_points'])}; {tails('defenders')}",
              f"your score (trick points + meld when it scores, R6.1): {avg(mean['your_score'])}"]
    return "\n".join(lines + _defend_distribution_lines(tables["points"]))


DEFEND_CELLS_PER_LINE = 4


def _defend_distribution_lines(points: pd.DataFrame) -> list[str]:
    """P(trick points = x) of you and of the defenders (spec Q5's distribution of P_d), a few cells a line."""
    lines = []
    for who, title in (("you", "your trick points"), ("defenders", "the defenders' trick points")):
        cells = [f"{r.points:>3}: {r.p:.3f} [{r.lo:.3f},{r.hi:.3f}]" for r in points[points.who == who].itertuples()]
        lines += ["", f"{title}, P(= x):"] + ["  " + "   ".join(cells[i:i + DEFEND_CELLS_PER_LINE])
                                             for i in range(0, len(cells), DEFEND_CELLS_PER_LINE)]
    return lines


def defend_frame(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """`defend` as estimates ``defend.<what>`` (the p table), ``defend.<who>.at_least.<x>``,
    ``defend.mean.<what>``."""
    at_least = tables["at_least"].assign(key=lambda f: f.who + ".at_least." + f.points.astype(str))
    return pd.concat([long_frame(tables["p"], ["what"], "defend"), long_frame(at_least, ["key"], "defend"),
                      long_frame(tables["means"], ["what"], "defend.mean", value="mean")], ignore_index=True)


# --- bid thresholds (spec §9.1 Q4) ---------------------------------------------------------------
MIN_DEALS_PER_CLASS = 30
"""Classes with fewer deals get no threshold (too little data): they are left out and counted."""
THRESHOLD_COLUMNS = ["n", "bid50", "p50", "lo50", "hi50", "bid50_settled", "ev_pass", "ev_pass_lo", "ev_pass_hi",
                     "bid_ev", "ev_vs_pass", "ev_vs_pass_lo", "ev_vs_pass_hi", "ev_settled"]
DD_COLUMNS = ["bid50_dd", "p50_dd", "lo50_dd", "hi50_dd", "bid50_dd_settled"]
"""The bid50 columns of the hands played with their last tricks solved double-dummy (``--dd-tricks``)."""
UNSETTLED = "~"
"""The mark of a threshold whose 95% interval cannot tell it from a coin flip (bid50) or from passing (bid_ev)."""
UNSETTLED_LEGEND = (f"{UNSETTLED}: the 95% interval holds 1/2 (bid50) or 0 (bid_ev): not told apart from a coin flip "
                    "or from passing at this n")


def _bid_scores(bids, bins: int) -> np.ndarray:
    """(len(bids), bins) int64: the bidder's score change v_B(x) for bid B (rows, main-game points)
    and meld + trick points x = 10 * bin (columns): + x when made (x >= B), - B when set (R6.1)."""
    points = np.arange(bins, dtype=np.int64) * 10
    bids = np.asarray(bids, dtype=np.int64)[:, None]
    return np.where(points >= bids, points, -bids)


def _ev_vs_pass(hist: np.ndarray, pass_by_bin: np.ndarray, pass_squares: int, bids,
                divisor: int = 1) -> tuple[np.ndarray, list[dict]]:
    """EV_bid(B) - EV_pass for every bid B (main-game points), spec Q4, over the n = hist.sum() deals,
    each deal paired with itself: y = v_B(T) - D (`_bid_scores`), T the bidder's meld + trick points
    (hist (bins,): deals per bin of 10 points), D the hand's score as a defender in the same deal
    (pass_by_bin (bins,): sum of D per bin of T; pass_squares: sum of D²).

    Returns ((k,) int64 sums of y in main-game points, exact: EV_bid(B) >= EV_pass iff the sum is
    >= 0; k `_mean_interval` dicts of y / divisor, normal 95% intervals from the paired variance).
    """
    v = _bid_scores(bids, hist.size)
    n = int(hist.sum())
    sums = v @ hist - int(pass_by_bin.sum())
    squares = (v * v) @ hist - 2 * (v @ pass_by_bin) + int(pass_squares)
    return sums, [mean_interval(t / divisor, q / divisor ** 2, n) for t, q in zip(sums, squares)]


def _bid50(hist: np.ndarray, bids: np.ndarray, divisor: int, suffix: str = "") -> dict:
    """bid50 (the highest of ``bids`` with P(T >= bid) >= 1/2, T binned by 10 in ``hist``), its Wilson
    interval and whether that lies above 1/2, as columns named with ``suffix``; {} when no bid qualifies."""
    n = int(hist.sum())
    made = np.array([hist[b // 10:].sum() for b in bids])
    ok = np.nonzero(made * 2 >= n)[0]
    if not ok.size:
        return {}
    e = Estimate(int(made[ok[-1]]), n)
    return {f"bid50{suffix}": int(bids[ok[-1]]) // divisor, f"p50{suffix}": e.p, f"lo50{suffix}": e.lo,
            f"hi50{suffix}": e.hi, f"bid50{suffix}_settled": bool(e.lo > 0.5)}


def _threshold_row(hist: np.ndarray, pass_by_bin: np.ndarray, pass_squares: int, lowest: int,
                   divisor: int = 1, hist_dd: np.ndarray | None = None) -> dict:
    """Bid thresholds of one class of hands, bids from ``lowest`` (main-game points) up in steps of 10.

    hist (bins,): deals per bin of 10 main-game points of the bidder's meld + trick points T;
    pass_by_bin (bins,), pass_squares: the sum of the hand's defender score D per bin of T, and of D²
    (`pinochle3_bid.ThresholdJob`).

    * bid50: the highest bid with P(T >= bid) >= 1/2 (Wilson interval of that P); bid50_settled: the
      interval lies above 1/2;
    * ev_pass: EV_pass = E[D], the pass's value (normal 95% interval);
    * bid_ev: spec Q4's B* = max{B : EV_bid(B) >= EV_pass}, EV_bid(B) = E[T 1{T >= B} - B 1{T < B}]
      (R6.1), decided exactly on the counts; ev_vs_pass: EV_bid(bid_ev) - EV_pass with the normal
      95% interval of the paired difference (`_ev_vs_pass`); ev_settled: the interval lies above 0 (else
      bidding bid_ev cannot be told from passing). None when even the lowest bid is worth less than passing.

    * with hist_dd (the same deals, their last tricks solved double-dummy): bid50_dd and its columns
      (`DD_COLUMNS`), as bid50.

    Bids and points are reported in main-game points / divisor (`pinochle3.point_divisor`).
    """
    n = int(hist.sum())
    bids = np.arange(lowest, hist.size * 10, 10)
    passing = mean_interval(int(pass_by_bin.sum()) / divisor, int(pass_squares) / divisor ** 2, n)
    columns = THRESHOLD_COLUMNS + (DD_COLUMNS if hist_dd is not None else [])
    row = dict.fromkeys(columns, None) | {"n": n, "ev_pass": passing["mean"], "ev_pass_lo": passing["lo"],
                                          "ev_pass_hi": passing["hi"]}
    row.update(_bid50(hist, bids, divisor))
    if hist_dd is not None:
        row.update(_bid50(hist_dd, bids, divisor, "_dd"))
    sums, evs = _ev_vs_pass(hist, pass_by_bin, pass_squares, bids, divisor)
    ok = np.nonzero(sums >= 0)[0]
    if ok.size:
        ev = evs[ok[-1]]
        row.update(bid_ev=int(bids[ok[-1]]) // divisor, ev_vs_pass=ev["mean"], ev_vs_pass_lo=ev["lo"],
                   ev_vs_pass_hi=ev["hi"], ev_settled=bool(ev["lo"] > 0))
    return row


def _class_table(hists: np.ndarray, pass_sums: np.ndarray, pass_squares: np.ndarray, hists_dd: np.ndarray | None,
                 lowest: int, divisor: int, **labels) -> pd.DataFrame:
    """One `_threshold_row` per class of ``hists`` (k, TOTAL_BINS) holding at least
    `MIN_DEALS_PER_CLASS` hands, keyed by the columns ``labels`` (column -> k labels); pass_sums (k,
    TOTAL_BINS) and pass_squares (k,): the pass's sums per class, hists_dd (k, TOTAL_BINS) or None: the
    same hands with their last tricks solved (`_threshold_row`). attrs ``left_out``: the hands of the
    smaller classes, which get no row."""
    sizes = hists.sum(axis=1)
    kept = sizes >= MIN_DEALS_PER_CLASS
    rows = [{**{k: v[i] for k, v in labels.items()},
             **_threshold_row(hists[i], pass_sums[i], pass_squares[i], lowest, divisor,
                              None if hists_dd is None else hists_dd[i])}
            for i in np.nonzero(kept)[0]]
    dd_columns = DD_COLUMNS if hists_dd is not None else []
    frame = pd.DataFrame(rows, columns=[*labels, *THRESHOLD_COLUMNS, *dd_columns])
    frame.attrs["left_out"] = int(sizes[~kept].sum())
    return frame


CURVE_CLASSES = ((0, 100), (100, 140), (140, 180), (180, 240), (240, None))
"""Best-meld classes (main-game points, upper bound excluded) of the P(make) curves."""


def _make_curves(by_meld: np.ndarray, pass_sum: np.ndarray, pass_squares: np.ndarray, by_meld_dd: np.ndarray | None,
                 bids, divisor: int = 1) -> pd.DataFrame:
    """Per bid (main-game points) and `CURVE_CLASSES` class: P(meld + trick points >= bid) (p, lo,
    hi: Wilson), the class's EV_pass and EV_bid(bid) - EV_pass (normal 95% intervals, paired per deal:
    `_ev_vs_pass`), greedy play. by_meld, pass_sum (meld bins of 20 points, TOTAL_BINS) and
    pass_squares (meld bins,): `ThresholdJob`'s histogram and pass sums by meld class; by_meld_dd: its
    histogram with the last tricks solved (columns dd_p, dd_lo, dd_hi) or None. Classes, bids and points
    are reported in main-game points / divisor."""
    rows = []
    for lo, hi in CURVE_CLASSES:
        cells = slice(lo // 20, None if hi is None else hi // 20)
        hist, passing, squares = by_meld[cells].sum(axis=0), pass_sum[cells].sum(axis=0), int(pass_squares[cells].sum())
        n = int(hist.sum())
        ev_pass = mean_interval(int(passing.sum()) / divisor, squares / divisor ** 2, n)
        _, vs_pass = _ev_vs_pass(hist, passing, squares, bids, divisor)
        label = f"{lo // divisor}+" if hi is None else f"{lo // divisor}-{(hi - 10) // divisor}"
        dd = [None] * len(bids) if by_meld_dd is None else _tail_estimates(by_meld_dd[cells].sum(axis=0), n, bids)
        for b, e, v, d in zip(bids, _tail_estimates(hist, n, bids), vs_pass, dd):
            rows.append({"meld": label, "bid": b // divisor, **e.as_dict(), "ev_pass": ev_pass["mean"],
                         "ev_pass_lo": ev_pass["lo"], "ev_pass_hi": ev_pass["hi"], "ev_vs_pass": v["mean"],
                         "ev_vs_pass_lo": v["lo"], "ev_vs_pass_hi": v["hi"], "n": e.n,
                         **({} if d is None else {"dd_p": d.p, "dd_lo": d.lo, "dd_hi": d.hi})})
    return pd.DataFrame(rows)


def _meld_labels(divisor: int) -> list[str]:
    """The labels of the `pinochle3_bid.THRESHOLD_MELD_BINS` meld classes of 20 main-game points,
    in points / divisor: '0-19', ..., '240+' (÷10: '0-1', ..., '24+')."""
    last = bid.THRESHOLD_MELD_BINS - 1
    return [f"{20 * i // divisor}+" if i == last else f"{20 * i // divisor}-{(20 * i + 19) // divisor}"
            for i in range(bid.THRESHOLD_MELD_BINS)]


def _length_labels() -> list[str]:
    """The labels of the trump-length classes: '<=4', '5', ..., '>=9'."""
    first, last = bid.TRUMP_LENGTHS
    return [f"<={t}" if t == first else (f">={t}" if t == last else str(t)) for t in range(first, last + 1)]


FIT_MODELS = ("free", "spec")
"""The rules of thumb `_rules_of_thumb` fits: every term free (m x meld + a + b per counter + c per trump), and the
spec's Q4 form with the meld at face value (meld + a + b per counter + c per trump, as the match policies bid)."""


def _least_squares(xtx: np.ndarray, xty: np.ndarray, yty: float, n: int) -> dict | None:
    """Ordinary least squares from its sums: {"coef", "se" (from the residual variance), "residual_sd", "rss"
    (residual sum of squares)}; None for fewer than `MIN_DEALS_PER_CLASS` hands or terms that do not determine the
    fit (a term that never varies)."""
    k = len(xty)
    if n < MIN_DEALS_PER_CLASS or np.linalg.matrix_rank(xtx) < k:
        return None
    inverse = np.linalg.inv(xtx)
    coef = inverse @ xty
    rss = max(yty - coef @ xty, 0.0)
    variance = rss / (n - k)
    return {"coef": coef, "se": np.sqrt(np.maximum(np.diag(inverse), 0.0) * variance),
            "residual_sd": math.sqrt(variance), "rss": rss}


def _rules_of_thumb(fit: dict, n: int, plays, divisor: int) -> pd.DataFrame:
    """Spec Q4's rule of thumb: the expected meld + trick points of a hand as the bidder fitted by least squares on
    `pinochle3_bid.FIT_TERMS` (`FIT_MODELS`), a row per play, model and term: coef, se, lo, hi (normal 95%), and
    the fit's residual_sd and r2 (of meld + trick points in both models); points / divisor (the meld's coefficient
    is a ratio)."""
    terms = list(bid.FIT_TERMS)
    xtx = fit["xtx"].astype(float)
    meld = terms.index("meld")
    rest = [i for i in range(len(terms)) if i != meld]
    rows = []
    for column, play in enumerate(bid.FIT_PLAYS):
        if play not in plays:
            continue
        xty, yty = fit["xty"][:, column].astype(float), float(fit["yty"][column])
        models = {"free": (terms, _least_squares(xtx, xty, yty, n)),
                  "spec": ([terms[i] for i in rest],  # y - meld on the other terms
                           _least_squares(xtx[np.ix_(rest, rest)], xty[rest] - xtx[rest, meld],
                                          yty - 2 * xty[meld] + xtx[meld, meld], n))}
        spread = yty - xty[0] ** 2 / n  # the sum of squares about the mean (xty[0]: the sum of the totals)
        for model in FIT_MODELS:
            names, result = models[model]
            if result is None:
                continue
            r2 = 1 - result["rss"] / spread if spread > 0 else float("nan")
            for name, coef, se in zip(names, result["coef"], result["se"]):
                scale = 1 if name == "meld" else divisor
                rows.append({"play": play, "model": model, "term": name, "coef": coef / scale, "se": se / scale,
                             "lo": (coef - Z95 * se) / scale, "hi": (coef + Z95 * se) / scale,
                             "residual_sd": result["residual_sd"] / divisor, "r2": r2, "n": n})
    return pd.DataFrame(rows, columns=["play", "model", "term", "coef", "se", "lo", "hi", "residual_sd", "r2", "n"])


def thresholds(n: int = 100_000, seed=None, rule: str | None = None, options: dict | None = None,
               dd_tricks: int = 0, **run_kw) -> dict[str, pd.DataFrame]:
    """Bid thresholds of random hands as the bidder (spec §9.1 Q4): by best meld before the kitty
    (classes of 20 points) and by length of the trump he names (cards among his 15), the highest
    bid with P(make) >= 50%, the value of passing EV_pass (the hand's score as a defender in the same
    deal, the next seat taking the bid: `pinochle3_bid.defender_outcomes`) and the highest bid B
    with EV_bid(B) >= EV_pass, EV_bid(B) the expected score change of bidding B (made: + meld + trick
    points, set: - bid) (`_threshold_row`). The bidder takes a random kitty, discards by
    `pinochle3_bid.best_discard`, and everyone plays greedily. Tables ``by_meld``,
    ``by_trump_length``, ``grid`` (both), ``curves`` (per bid of `default_bids` by meld class: P(make),
    EV_pass and EV_bid - EV_pass, `_make_curves`) and ``rules_of_thumb`` (spec Q4's fitted rule, `_rules_of_thumb`;
    the solved ending's rows with dd_tricks >= 2); classes with
    fewer than `MIN_DEALS_PER_CLASS` hands get no row, and each table's attrs ``left_out`` counts
    their hands. rule: the play rule, old or old_strict (default: option play_rule, else old).
    options: as `odds` (`BIDDER_OPTIONS`; the minimum bid is the lowest bid valued; deals a
    defender throws in under nines_rule are left out, counted in attrs ``thrown_in``). dd_tricks (0-15):
    the same hands also played with their last ``dd_tricks`` tricks solved double-dummy (greedy play
    before them): the columns bid50_dd, p50_dd, lo50_dd, hi50_dd, bid50_dd_settled (`DD_COLUMNS`) and the
    curves' dd_p, dd_lo, dd_hi; EV_pass and bid_ev stay under greedy play.
    """
    options = checked_options(options, "thresholds")
    rule = merged_rule(rule, options)
    opts = p.rule_options({**options, "play_rule": rule})
    bid.check_dd_tricks(dd_tricks)
    if dd_tricks < 2:  # one trick left plays itself
        check_greedy_rule(rule, "'cardsim thresholds pinochle3'",
                          "use --rule old or old_strict, or solve the ending with --dd-tricks 2-15")
    divisor = p.point_divisor(options)
    seed = normalize_seed(seed)
    job = bid.ThresholdJob(rule, options, dd_tricks)
    c = job.unpack(runner.run(job, n, seed, **run_kw))
    lowest = bid.lowest_bid(opts)
    labels_m, labels_t = _meld_labels(divisor), _length_labels()
    parts = (c["hist"], c["pass_sum"], c["pass_squares"], c["hist_dd"])
    by_meld = [None if x is None else x.sum(axis=1) for x in parts]
    by_length = [None if x is None else x.sum(axis=0) for x in parts]
    cells = [None if x is None else x.reshape(-1, *x.shape[2:]) for x in parts]
    tables = {
        "by_meld": _class_table(*by_meld, lowest, divisor, meld=labels_m),
        "by_trump_length": _class_table(*by_length, lowest, divisor, trump_length=labels_t),
        "grid": _class_table(*cells, lowest, divisor,
                             meld=[m for m in labels_m for _ in labels_t], trump_length=labels_t * len(labels_m)),
        "curves": _make_curves(*by_meld, default_bids(opts), divisor),
        "rules_of_thumb": _rules_of_thumb(c["fit"], int(c["hist"].sum()), ("greedy", "dd") if dd_tricks >= 2
                                          else ("greedy",), divisor),
    }
    for table in tables.values():
        table.attrs.update(game=GAME, n=int(c["hist"].sum()), seed=seed, rule=rule, options=options,
                           dd_tricks=dd_tricks, thrown_in=c["thrown_in"], nines_rule=opts["nines_rule"],
                           min_deals=MIN_DEALS_PER_CLASS, pass_model=bid.PASS_MODEL)
    return tables


def thresholds_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The thresholds as one JSON object; "left_out" gives, per class table, the hands of the classes
    below "min_deals_per_class" (no row), "thrown_in" the deals left out under nines_rule,
    "pass_model" how the pass (ev_pass, bid_ev's yardstick) is modelled. Rows: n, bid50 p50 lo50
    hi50 bid50_settled (the interval above 1/2), ev_pass ev_pass_lo ev_pass_hi, bid_ev (max B with EV_bid(B) >=
    EV_pass) and ev_vs_pass ev_vs_pass_lo ev_vs_pass_hi (EV_bid(bid_ev) - EV_pass) ev_settled (the interval
    above 0: bidding bid_ev beats passing); with "dd_tricks" > 0 also bid50_dd p50_dd lo50_dd hi50_dd
    bid50_dd_settled (the last dd_tricks tricks solved double-dummy); null where no bid qualifies. Table
    "rules_of_thumb": a row per play, model and term (`_rules_of_thumb`)."""
    a = tables["by_meld"].attrs
    left_out = {name: tables[name].attrs["left_out"] for name in ("by_meld", "by_trump_length", "grid")}
    return {"game": GAME, "n": a["n"], "seed": a["seed"], "rule": a["rule"], "options": a["options"],
            "dd_tricks": a["dd_tricks"],
            "thrown_in": a["thrown_in"], "min_deals_per_class": a["min_deals"], "left_out": left_out,
            "pass_model": a["pass_model"], "tables": table_records(tables)}


def _left_out_note(table: pd.DataFrame) -> list[str]:
    """The line under a class table that says which hands it leaves out, or none."""
    a = table.attrs
    if table.empty:
        return [f"  no group has {a['min_deals']} hands or more, so all {a['n']:,} hands are left out; raise --n"]
    if a["left_out"]:
        return [f"  {a['left_out']:,} hands in groups of fewer than {a['min_deals']} hands are left out"]
    return []


def _missing(value) -> bool:
    """None or NaN: a table cell with no value (pandas stores a missing number as NaN)."""
    return value is None or value != value


def _threshold_cell(bid_value, settled) -> str:
    """A threshold bid in 6 characters: right-aligned in 5, then `UNSETTLED` unless ``settled``."""
    return f"{int(bid_value):>5}{' ' if settled else UNSETTLED}"


DD_PLACE = 115
"""The column where the text table's bid50_dd cells begin."""


def _bid50_cells(bid50, settled, p50, lo50, hi50) -> str:
    """A bid50 and its P(make) with the interval, 29 characters ('-' when no bid qualifies)."""
    if _missing(bid50):
        return f"{'  -':<29}"
    return f"{_threshold_cell(bid50, settled)} {f'{p50:.3f} [{lo50:.3f},{hi50:.3f}]':<22}"


def format_thresholds(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["by_meld"].attrs
    dd = a["dd_tricks"]
    alike = " (plays as old)" if a["rule"] in GREEDY_ALIKE_RULES else ""
    ending = "the last trick" if dd == 1 else f"the last {dd} tricks"
    play = f"greedy play{alike}" + (f"; bid50_dd: {ending} double-dummy" if dd else "")
    lines = [f"Pinochle bid thresholds: n = {a['n']:,} random hands as the bidder{_thrown_in_note(a)}, seed "
             f"{a['seed']}, rule {a['rule']}, {play}, 95% intervals" + _options_note(a["options"]),
             "bid50: highest bid made at least half the time; bid_ev: highest bid B with EV_bid(B) >= EV_pass "
             "(spec Q4; - : pass)", UNSETTLED_LEGEND, a["pass_model"]]
    for name, key in (("by_meld", "meld"), ("by_trump_length", "trump_length")):
        head = f"{key:<14}{'n':>8}  bid50  P(make) [95%]          EV_pass [95%]        bid_ev  EV_bid-EV_pass [95%]"
        lines += ["", f"{head:<{DD_PLACE - 2}}bid50_dd P(make) [95%]" if dd else head]
        for r in tables[name].itertuples():
            passing = f"{r.ev_pass:5.1f} [{r.ev_pass_lo:.1f},{r.ev_pass_hi:.1f}]"
            ev = "    -" if _missing(r.bid_ev) else (f"{_threshold_cell(r.bid_ev, r.ev_settled)} {r.ev_vs_pass:6.1f} "
                                                 f"[{r.ev_vs_pass_lo:.1f},{r.ev_vs_pass_hi:.1f}]")
            line = (f"{getattr(r, key):<14}{r.n:>8}  {_bid50_cells(r.bid50, r.bid50_settled, r.p50, r.lo50, r.hi50)} "
                    f"{passing:<20} {ev}")
            if dd:
                dd_cells = _bid50_cells(r.bid50_dd, r.bid50_dd_settled, r.p50_dd, r.lo50_dd, r.hi50_dd)
                line = f"{line:<{DD_PLACE}}{dd_cells}"
            lines.append(line.rstrip())
        lines += _left_out_note(tables[name])
    return "\n".join(lines + _rule_of_thumb_lines(tables["rules_of_thumb"], ending, p.point_divisor(a["options"])))


PLAY_NAMES = {"greedy": "greedy play", "dd": "greedy play then double-dummy"}
"""How `_rule_of_thumb_lines` names the plays of the rules of thumb (dd: the ending solved added)."""


def _signed(value: float, digits: int = 1) -> str:
    """'+ 68.3' or '- 12.0': a term added to a rule."""
    return f"{'-' if value < 0 else '+'} {abs(value):.{digits}f}"


def policy_rule(policy: bid.BidPolicy, divisor: int = 1) -> str:
    """A bidding policy's limit as a rule of the rule-of-thumb's form, in points / divisor."""
    terms = [f"meld {_signed(policy.base / divisor, 0 if divisor == 1 else 1)}"]
    terms += [f"{_signed(value / divisor, 0 if divisor == 1 else 1)} per {what}"
              for value, what in ((policy.per_counter, "counter"), (policy.per_trump, "trump")) if value]
    return " ".join(terms)


def _rule_of_thumb_lines(rules: pd.DataFrame, ending: str, divisor: int) -> list[str]:
    """The rules of thumb (`_rules_of_thumb`) as text: per play, the free fit and the spec's form, each term with
    its 95% interval, then the bidding policies' rules beside them."""
    if rules.empty:
        return ["", f"Rule of thumb (spec Q4): none fitted: it needs {MIN_DEALS_PER_CLASS} hands or more (raise --n) "
                    "and terms that vary"]
    lines = ["", "Rule of thumb (spec Q4): what a hand makes as the bidder on average (meld after the kitty + trick "
                 "points,", f"the total a bid must reach), least squares over the {int(rules.n.iloc[0]):,} hands; "
                 "meld, counters (A 10 K) and trumps (cards of", "the best-meld suit, the longest of equal ones) of "
                 "the 15 dealt; 95% intervals"]
    for (play, model), fit in rules.groupby(["play", "model"], sort=False):
        fit = fit.set_index("term")
        how = PLAY_NAMES[play] + (f" ({ending})" if play == "dd" else "")
        meld = "meld" if model == "spec" else _fitted_term(fit.loc["meld"], "meld")
        lines += [f"  {how}, {'spec form' if model == 'spec' else 'free fit'}:",
                  f"    {meld} {_fitted_term(fit.loc['intercept'])} {_fitted_term(fit.loc['counters'])} per counter "
                  f"{_fitted_term(fit.loc['trump_length'])} per trump",
                  f"    residual SD {fit.residual_sd.iloc[0]:.1f}, R² {fit.r2.iloc[0]:.3f}"]
    lines.append("  the bidding policies of 'cardsim match' bid up to:")
    return lines + [f"    {policy.name}: {policy_rule(policy, divisor)}" for policy in bid.BID_POLICIES.values()
                    if policy.name != "never"]


def _fitted_term(row: pd.Series, factor: str = "") -> str:
    """A fitted coefficient with its interval: '0.887 [0.873, 0.901] x meld' for a factor, else '+ 55.6 [49.3,
    61.9]'."""
    if factor:
        return f"{row.coef:.3f} [{row.lo:.3f}, {row.hi:.3f}] x {factor}"
    return f"{_signed(row.coef)} [{row.lo:.1f}, {row.hi:.1f}]"


def _add_thresholds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rule", default=None,
                        help="play rule: old or old_strict (default old, or option play_rule; new1945 and "
                             "new1945_alt are refused: greedy play heads every trick it can, so they play as old)")
    parser.add_argument("--dd-tricks", type=whole_number, default=0,
                        help="also play the same hands with their last tricks solved double-dummy, 1-15 (perfect "
                             "play by the bidder against two cooperating defenders; columns bid50_dd; a hand costs "
                             "about 1 ms with 8, a few ms with 10, tens of ms with 12, seconds with 15; default 0: "
                             "greedy play only)")
    _add_option_argument(parser, bidder=True)
    add_run_arguments(parser, default_n=100_000)


def _thresholds_of(args: argparse.Namespace) -> dict[str, pd.DataFrame]:
    return thresholds(args.n, args.seed, args.rule, parse_options(args.option), args.dd_tricks, **run_options(args))


def _run_thresholds(args: argparse.Namespace) -> int:
    return emit(args, _thresholds_of(args), thresholds_json, format_thresholds)


def _thresholds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates by best meld before the kitty (the curves the bid thresholds are read from):
    ``make.<meld class>.<bid>`` P(meld + trick points >= bid), ``ev_pass.<meld class>`` EV_pass and
    ``ev_vs_pass.<meld class>.<bid>`` EV_bid(bid) - EV_pass (paired interval); with --dd-tricks also
    ``make_dd.<meld class>.<bid>`` (the last tricks solved double-dummy)."""
    curves = _thresholds_of(args)["curves"]
    passing = curves.drop_duplicates("meld")
    dd = [long_frame(curves, ["meld", "bid"], "make_dd", value="dd_p", lo="dd_lo", hi="dd_hi")] \
        if "dd_p" in curves else []
    return pd.concat([long_frame(curves, ["meld", "bid"], "make"),
                      long_frame(passing, ["meld"], "ev_pass", value="ev_pass", lo="ev_pass_lo", hi="ev_pass_hi"),
                      long_frame(curves, ["meld", "bid"], "ev_vs_pass", value="ev_vs_pass", lo="ev_vs_pass_lo",
                                 hi="ev_vs_pass_hi"), *dd], ignore_index=True)


register_command("thresholds", GAME, Command("bid thresholds by meld and trump length", _add_thresholds_arguments,
                                             _run_thresholds, _thresholds_frame))


# --- bidding-policy match (spec §9.1 Q8, Q10) ------------------------------------------------------
def parse_options(items) -> dict:
    """``["name=value", ...]`` -> {name: value} (`option_items`), checked against the game's options
    (`pinochle3.rule_options`)."""
    out = option_items(items)
    p.rule_options(out)
    return out


def match(a: str, b: str, games: int = 200, seed=None, options: dict | None = None, a_concede: int | None = None,
          b_concede: int | None = None, **run_kw) -> pd.DataFrame:
    """Self-play games to 1500 (or of ``n_hands`` hands, V11) between bidding policies a and b
    (`pinochle3_bid.BID_POLICIES`, names in any case; each sits in half the seats, greedy play by all). One row
    per policy: win rate per seat in the finished games (a fair share is 1/3; Wilson interval at the effective number of
    seat-games, since one seat's win is the others' loss: `analysis.stats.ratio_share` over games)
    and mean score change per seat per hand (normal interval). attrs ``hands_per_game`` {mean, se,
    lo, hi, n}: hands dealt per finished game (thrown-in deals included, R2.5; normal 95% interval
    over the n finished games; spec Q12 expects 10-12 to 1500). a_concede, b_concede: the concession margin of
    each policy (R4.10, `pinochle3_bid.BidPolicy`: having won the bid, concede when meld + buried
    counters + 10 per counter kept < bid - margin; a whole number >= 0 in reported points, so ÷10 with
    scale 0.1; None, the default: never concede); each row's ``concede_p`` (lo, hi) is the share of its
    contracts conceded, Wilson at the effective number of contracts, the games clusters
    (`analysis.stats.ratio_share`; NaN when it won none).
    options: rule options of the games (target or n_hands, minimum bid, nines rule, meld variants, scoring, scale
    0.1 dividing points and target by 10; money play with game_stake / set_stake, R6.6: columns
    money_mean, money_se, money_lo, money_hi per seat per finished game, `_money_per_game`;
    `checked_options`). Raises CardsimError when no game finished: the win rates are then undefined."""
    options = checked_options(options, "match")
    divisor = p.point_divisor(options)
    seed = normalize_seed(seed)
    # checked as given (a whole number >= 0 or None), then in main-game points
    margins = [m if m is None else m * divisor for m in map(bid.checked_margin, (a_concede, b_concede))]
    if margins == [None, None] and options.get("concede_units", 1) != 1:
        raise CardsimError(f"option concede_units={options['concede_units']} prices concessions, but without "
                           "--a-concede or --b-concede nobody concedes (and nobody reneges in self-play): add a "
                           "margin or drop it")
    job = bid.GameJob(a, b, options, *margins)
    c = job.unpack(runner.run(job, games, seed, **run_kw))
    finished = c["games"] - c["abandoned"]
    if not finished:
        raise CardsimError(f"no game finished: all {c['games']} were abandoned after {bid.MAX_HANDS} hands without "
                           "a winner, so the win rates are undefined; choose policies that bid more")
    rows = []
    for side, policy in enumerate((job.a, job.b)):
        e = _seat_win_share(c, side)
        points = mean_interval(c["points"][side] / divisor, c["points_squares"][side] / divisor ** 2,
                                c["seat_hands"][side])
        rows.append({"side": "ab"[side], "policy": policy.name, "wins": c["wins"][side],
                     "seat_games": c["seat_games"][side], "win_p": e["p"], "win_lo": e["lo"], "win_hi": e["hi"],
                     **{f"points_{k}": v for k, v in points.items()}, "seat_hands": c["seat_hands"][side],
                     **_concession_rate(c, side),
                     "concede_margin": None if policy.concede_margin is None else policy.concede_margin // divisor})
    frame = pd.DataFrame(rows)
    stakes = _stakes(options)
    if stakes is not None:
        for side in range(2):
            for key, value in _money_per_game(c, side, *stakes).items():
                frame.loc[side, f"money_{key}"] = value
    hands = mean_interval(c["hands_sum"], c["hands_squares"], finished) | {"n": finished}
    chosen = p.rule_options(options)
    frame.attrs.update(game=GAME, games=c["games"], abandoned=c["abandoned"], seed=seed, options=options,
                       target=chosen["target"] // divisor, n_hands=chosen["n_hands"], hands_per_game=hands,
                       stakes=stakes, positions=_position_rows(c, divisor))
    return frame


POSITIONS = ("dealer's left", "second", "dealer")
"""The auction positions in speaking order (R4.2a: the dealer's left speaks first; R4.4: the dealer last)."""


def _position_rows(c: dict, divisor: int) -> list[dict]:
    """Spec Q8 from `bid.GameJob.unpack` counts c: per auction position (`POSITIONS`), over every hand dealt, the
    mean score change per hand (normal 95% interval; points / divisor) and the share of hands it won the
    contract (Wilson), both policies together."""
    hands = sum(c["seat_hands"]) // p.SEATS
    rows = []
    for k, name in enumerate(POSITIONS):
        points = mean_interval(c["position_points"][k] / divisor, c["position_squares"][k] / divisor ** 2, hands)
        won = Estimate(c["position_contracts"][k], hands)
        rows.append({"position": name, "points_mean": points["mean"], "points_lo": points["lo"],
                     "points_hi": points["hi"], "contract_p": won.p, "contract_lo": won.lo, "contract_hi": won.hi,
                     "hands": hands})
    return rows


def _stakes(options: dict) -> tuple[float, float] | None:
    """(game stake G, set stake S) of money play (R6.6) from the options, an unset one 0; None without either."""
    chosen = p.rule_options(options)
    if chosen["game_stake"] is None and chosen["set_stake"] is None:
        return None
    return chosen["game_stake"] or 0, chosen["set_stake"] or 0


def _money_per_game(c: dict, side: int, game_stake: float, set_stake: float) -> dict:
    """Money per seat per finished game of side 0 (a) or 1 (b) at stakes G, S (R6.6, direct settlement: each
    loser pays the winner G + S x his set units) from `bid.GameJob.unpack` counts c: {mean, se, lo, hi}, the
    games clusters of the side's seats (`analysis.stats.ratio_mean`)."""
    g, s = game_stake, set_stake
    total = g * c["money_games"][side] + s * c["money_sets"][side]
    squares = (g * g * c["money_games_sq"][side] + 2 * g * s * c["money_cross"][side]
               + s * s * c["money_sets_sq"][side])
    cross = g * c["money_games_k"][side] + s * c["money_sets_k"][side]
    return ratio_mean(total, c["seat_games"][side], squares, c["seats_squares"][side], cross,
                      c["games"] - c["abandoned"])


def _concession_rate(c: dict, side: int) -> dict:
    """Share of side 0 (a) or 1 (b)'s contracts it conceded (R4.10) from `bid.GameJob.unpack` counts c,
    every game a cluster of contracts: {contracts, conceded, concede_p, concede_lo, concede_hi}; NaN
    rate and interval when the side won no contract."""
    e = ratio_share(c["conceded"][side], c["contracts"][side], c["conceded_squares"][side],
                    c["contracts_squares"][side], c["conceded_cross"][side], c["games"])
    if not c["contracts"][side]:
        e = dict.fromkeys(("p", "lo", "hi"), math.nan)
    return {"contracts": c["contracts"][side], "conceded": c["conceded"][side], "concede_p": e["p"],
            "concede_lo": e["lo"], "concede_hi": e["hi"]}


def _seat_win_share(c: dict, side: int) -> dict:
    """Win rate per seat-game of side 0 (a) or 1 (b) from `bid.GameJob.unpack` counts c: the finished
    games are clusters of the side's seats, of which at most one wins."""
    wins = c["wins"][side]
    return ratio_share(wins, c["seat_games"][side], wins, c["seats_squares"][side], c["seats_of_winner"][side],
                       c["games"] - c["abandoned"])


def match_json(frame: pd.DataFrame) -> dict:
    """The match as one JSON object: per side (a, b) the policy, win rate, points per hand and
    "concessions" {margin (null: never concedes), p, lo, hi (null without contracts), conceded,
    contracts}; "hands_per_game" {mean, se, lo, hi, n} over the finished games; "positions" (spec Q8: per
    auction position, `_position_rows`); in money play (R6.6)
    "stakes" {game, set} and per side "money_per_game" {mean, se, lo, hi}."""
    a = frame.attrs
    out = {"game": GAME, "games": a["games"], "abandoned": a["abandoned"], "seed": a["seed"], "options": a["options"],
           "hands_per_game": a["hands_per_game"]}
    for r in frame.itertuples():
        out[r.side] = {"policy": r.policy, "win_rate": {"p": r.win_p, "lo": r.win_lo, "hi": r.win_hi},
                       "points_per_deal": {"mean": r.points_mean, "lo": r.points_lo, "hi": r.points_hi},
                       "wins": r.wins, "seat_games": r.seat_games,
                       "concessions": {"margin": _margin(r.concede_margin), "p": r.concede_p, "lo": r.concede_lo,
                                       "hi": r.concede_hi, "conceded": r.conceded, "contracts": r.contracts}}
        if a["stakes"] is not None:
            out[r.side]["money_per_game"] = {"mean": r.money_mean, "se": r.money_se, "lo": r.money_lo,
                                             "hi": r.money_hi}
    if a["stakes"] is not None:
        out["stakes"] = {"game": a["stakes"][0], "set": a["stakes"][1]}
    out["positions"] = a["positions"]
    return out


def _margin(value) -> int | None:
    """A concession margin from a table cell: None (never concedes) or a whole number."""
    return None if _missing(value) else int(value)


def format_match(frame: pd.DataFrame) -> str:
    a = frame.attrs
    h = a["hands_per_game"]
    n_hands = a["n_hands"]
    length = (f"to {a['target']}" if n_hands is None
              else f"of {n_hands} hand{'s' * (n_hands != 1)} (V11; a tie plays on)")
    shown = ("target", "n_hands", "game_stake", "set_stake", "concede_units", "set_units")  # named in other lines
    rules = {k: v for k, v in sorted(a["options"].items()) if k not in shown}
    lines = [f"Pinochle bidding match: {a['games']:,} games {length}, seed {a['seed']}{options_note(rules)}, "
             f"abandoned {a['abandoned']}; "
             "win rate per seat (fair share 0.333), points per seat per hand, 95% intervals"]
    for r in frame.itertuples():
        margin = _margin(r.concede_margin)
        rate = f"{r.concede_p:.3f} [{r.concede_lo:.3f},{r.concede_hi:.3f}] of {r.contracts:,}" if r.contracts \
            else "- of no"
        concedes = "never concedes" if margin is None else f"concedes {rate} contracts (margin {margin})"
        lines.append(f"  {r.side} {r.policy:<10} wins {r.win_p:.3f} [{r.win_lo:.3f},{r.win_hi:.3f}]   "
                     f"points/hand {r.points_mean:6.1f} [{r.points_lo:.1f},{r.points_hi:.1f}]   {concedes}")
    if a["stakes"] is not None:
        game_stake, set_stake = a["stakes"]
        units = p.rule_options(a["options"])
        lines.append(f"  money per seat per game at game stake {game_stake:g}, set stake {set_stake:g} (R6.6: each "
                     "loser pays the winner the game stake + the set stake per set unit he took; a concession is "
                     f"{units['concede_units']} unit{'s' * (units['concede_units'] != 1)}, a set "
                     f"{units['set_units']}):")
        lines += [f"    {r.side} {r.policy:<10} {r.money_mean:+.3f} "
                  + (f"[{r.money_lo:+.3f},{r.money_hi:+.3f}]" if r.money_lo == r.money_lo else
                     "(no interval from one game)") for r in frame.itertuples()]
    lines.append("  by auction position in speaking order (spec Q8, R4.2a; every hand dealt, both policies): points "
                 "per hand, share of hands it won the contract")
    lines += [f"    {r['position']:<14} points/hand {r['points_mean']:6.1f} [{r['points_lo']:.1f},{r['points_hi']:.1f}]"
              f"   contract {r['contract_p']:.3f} [{r['contract_lo']:.3f},{r['contract_hi']:.3f}]"
              for r in a["positions"]]
    spread = f"[{h['lo']:.1f},{h['hi']:.1f}]" if h["n"] > 1 else "(no interval from one game)"
    lines.append(f"  hands per game {h['mean']:.1f} {spread} over {h['n']:,} finished games "
                 f"(thrown-in deals included{_q12_note(a['options'])})")
    lines.append(f"  {CONCEDE_RULE}" if frame.concede_margin.notna().any() else
                 "  bidders never concede (R4.10); --a-concede / --b-concede MARGIN: " + CONCEDE_RULE)
    return "\n".join(lines)


def _q12_note(options: dict) -> str:
    """'; spec Q12: 10-12 to 1500' under the main game's target and scale, the only game spec Q12 gives a
    figure for, else ''."""
    chosen = p.rule_options(options)
    main_game = chosen["target"] == 1500 and chosen["n_hands"] is None and p.point_divisor(options) == 1
    return "; spec Q12: 10-12 to 1500" if main_game else ""


CONCEDE_RULE = ("a bidder with a margin concedes after the melds (R4.10) when his meld + buried counters + 10 per "
                "counter kept < bid - margin")
"""The self-play concession rule (`pinochle3_bid.BidPolicy`) in one line."""


DEALERS = {"you": 0, "left": 1, "right": 2}
"""--dealer of the sacrifice question: the seats as you see them (you are seat 0, your left speaks after you)."""


def sacrifice(you: str, others: str, scores, sacrifices, dealer: str = "you", games: int = 2_000, seed=None,
              options: dict | None = None, **run_kw) -> pd.DataFrame:
    """Spec Q10 ("near 1500: should I sacrifice-bid?", a sacrifice bid against a pass): games played on from
    ``scores`` (you, your left, your right; reported points below the target, multiples of the bid step), you
    bidding by policy ``you``, the others by ``others``, greedy play, no concessions. Each game is played with you
    passing this hand, with you bidding by your policy, and per bid S of ``sacrifices`` with you bidding up to at
    least S, all on the same cards (`pinochle3_bid.SacrificeJob`). One row per choice ("policy", then each S):
    P(you win the game) (Wilson), its paired difference from the pass and (a sacrifice) from your policy's bid
    (vs_policy; Tango's interval for paired proportions), P(you hold this hand's contract) and P(you hold it and
    are set) (Wilson), abandoned games. attrs: the question, ``pass`` {p, lo, hi}: P(you win) after the pass,
    ``opponent_out`` {p, lo, hi}: P(an opponent wins in this hand after the pass)."""
    options = checked_options(options, "match")
    stakes = [name for name in bid.STAKES if options.get(name) is not None]
    if stakes:
        raise CardsimError(f"option {', '.join(stakes)} is not used with --scores: the sacrifice question compares "
                           "P(win the game), not money; drop it")
    if options.get("n_hands") is not None:
        raise CardsimError("option n_hands is not used with --scores: the sacrifice question plays on to the "
                           "target from the scores given (R6.5); drop it")
    opts, divisor = p.rule_options(options), p.point_divisor(options)
    scores, target = _checked_scores(scores, opts, divisor), opts["target"] // divisor
    if str(dealer).strip().lower() not in DEALERS:
        raise CardsimError(f"--dealer must be one of {', '.join(DEALERS)}, got '{dealer}'")
    seat = DEALERS[str(dealer).strip().lower()]
    bids = checked_bids(sacrifices, opts, divisor, "--sacrifice")
    seed = normalize_seed(seed)
    job = bid.SacrificeJob([x * divisor for x in scores], seat, you, others, [b * divisor for b in bids], options)
    c = [int(x) for x in runner.run(job, games, seed, **run_kw)]
    n = c[0]
    rows = []
    for k, choice in enumerate(("policy", *bids)):
        at = 4 + job.per_choice * k
        won, only_this, only_pass, held, was_set, abandoned, over, under = c[at:at + job.per_choice]
        diff, lo, hi = paired_difference(only_this, only_pass, n)
        versus = paired_difference(over, under, n) if choice != "policy" else (math.nan,) * 3
        rows.append({"choice": str(choice), "bid": None if choice == "policy" else choice,
                     **estimate_columns("win", won, n),
                     "diff": diff, "diff_lo": lo, "diff_hi": hi, **dict(zip(("vs_policy", "vs_policy_lo",
                                                                             "vs_policy_hi"), versus)),
                     **estimate_columns("held", held, n), **estimate_columns("set", was_set, n),
                     "abandoned": abandoned, "n": n})
    frame = pd.DataFrame(rows)
    frame.attrs.update(game=GAME, games=n, seed=seed, options=options, scores=scores, target=target,
                       dealer=DEALERS_NAMES[seat], you=job.policies[0].name, others=job.policies[1].name,
                       abandoned=c[2], **{"pass": Estimate(c[1], n).as_dict()},
                       opponent_out=Estimate(c[3], n).as_dict())
    return frame


DEALERS_NAMES = {seat: name for name, seat in DEALERS.items()}
SPEAKING = {"you": "you deal and speak last", "left": "your left deals, you speak second",
            "right": "your right deals, you speak first"}
"""The auction order each --dealer gives (R4.2a: the dealer's left speaks first)."""


SCORE_FLOOR_TARGETS = 100
"""`_checked_scores` takes scores down to -100 times the target: far below any game's, and the sums of a game's
hands stay within 64-bit integers."""


def _checked_scores(scores, opts: dict, divisor: int) -> tuple[int, int, int]:
    """Three whole-number scores (text 'a,b,c' or numbers) a game can stand at: below the target, multiples of
    the bid step, none below -`SCORE_FLOOR_TARGETS` times the target, none below the V10 limit while another is
    positive (the game would be over, R6.5);
    CardsimError otherwise. In reported points (main-game points / divisor)."""
    values = [t.strip() for t in scores.split(",")] if isinstance(scores, str) else list(scores)
    numbers = [whole_value(v) if isinstance(v, str) else v for v in values]
    shown = scores if isinstance(scores, str) else ",".join(map(str, values))
    if len(numbers) != p.SEATS or any(not isinstance(x, int) or isinstance(x, bool) for x in numbers):
        raise CardsimError(f"--scores needs three whole numbers, yours then your left's and your right's, e.g. "
                           f"1200,1450,1300 (a negative first one as --scores=-100,1450,1300); got '{shown}'")
    target, step = opts["target"] // divisor, opts["bid_step"] // divisor
    if max(numbers) >= target:
        raise CardsimError(f"--scores {shown}: a score of {target} or more has already won (target {target}, R6.5); "
                           "give scores below it")
    if any(x % step for x in numbers):
        raise CardsimError(f"--scores {shown}: scores move in steps of {step} (bids and counters, R4.2b); give "
                           f"multiples of {step}")
    if min(numbers) < -SCORE_FLOOR_TARGETS * target:
        raise CardsimError(f"--scores {shown}: a score below -{SCORE_FLOOR_TARGETS * target} ({SCORE_FLOOR_TARGETS} "
                           f"times the target) is out of this model's range; give scores from that up")
    limit = opts["neg_limit"]
    if limit is not None and min(numbers) < limit // divisor and max(numbers) > 0:
        raise CardsimError(f"--scores {shown}: a score below {limit // divisor} has already ended the game "
                           "(neg_limit, V10); give scores at or above it")
    return tuple(numbers)


def sacrifice_json(frame: pd.DataFrame) -> dict:
    """The sacrifice question as one JSON object: scores, target, dealer, policies, "pass" (P(you win) when you
    pass this hand) and "opponent_out" {p, lo, hi}, and per choice {choice ("policy" or the bid), bid, win,
    win_lo, win_hi, diff, diff_lo, diff_hi (against the pass), vs_policy.. (a sacrifice against your policy's bid;
    null for the policy), held.., set.., abandoned, n}."""
    a = frame.attrs
    return {"game": GAME, "question": "sacrifice", "games": a["games"], "seed": a["seed"], "options": a["options"],
            "scores": dict(zip(("you", "left", "right"), a["scores"])), "target": a["target"], "dealer": a["dealer"],
            "you_policy": a["you"], "others_policy": a["others"], "pass": a["pass"],
            "opponent_out": a["opponent_out"], "abandoned": a["abandoned"], "rows": frame.to_dict("records")}


def format_sacrifice(frame: pd.DataFrame) -> str:
    a = frame.attrs
    you, left, right = a["scores"]
    lines = [f"Pinochle sacrifice bids near the target (spec Q10): {a['games']:,} games from scores you {you}, your "
             f"left {left}, your right {right} (target {a['target']}), {SPEAKING[a['dealer']]}, seed {a['seed']}; "
             f"you bid by {a['you']}, the others by {a['others']}; greedy play; 95% intervals"
             + _options_note(a["options"]),
             f"if you pass this hand: you win {format_cell(a['pass'])}; an opponent goes out in this hand "
             f"{format_cell(a['opponent_out'])}; abandoned {a['abandoned']}",
             f"  {'this hand you':<18}{'you win':<24}{'minus the pass':<27}{'minus your policy':<27}"
             f"{'you hold the contract':<24}and are set"]
    for r in frame.itertuples():
        policy = r.bid is None or r.bid != r.bid
        what = f"bid by {a['you']}" if policy else f"bid up to {int(r.bid)}"
        versus = "-" if policy else f"{r.vs_policy:+.4f} [{r.vs_policy_lo:+.4f},{r.vs_policy_hi:+.4f}]"
        lines.append(f"  {what:<18}{r.win:.4f} [{r.win_lo:.4f},{r.win_hi:.4f}]  {r.diff:+.4f} [{r.diff_lo:+.4f},"
                     f"{r.diff_hi:+.4f}]  {versus:<25}  {r.held:.4f} [{r.held_lo:.4f},{r.held_hi:.4f}]  {r.set:.4f} "
                     f"[{r.set_lo:.4f},{r.set_hi:.4f}]" + (f"  (abandoned {r.abandoned})" if r.abandoned else ""))
    lines.append("Every choice is played on the same cards as the pass; from the next hand on everyone bids by the "
                 "policies. A sacrifice bids up to the bid (your policy's limit if higher). Differences: Tango's "
                 "score interval for paired proportions.")
    return "\n".join(lines)


def _add_match_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(f"{n} ({p.help})" for n, p in bid.BID_POLICIES.items())
    parser.add_argument("--a", required=True, help=f"bidding policy (any case): {names}")
    parser.add_argument("--b", required=True, help="the other bidding policy")
    for side in "ab":
        parser.add_argument(f"--{side}-concede", type=whole_number, default=None, metavar="MARGIN",
                            help=f"policy {side} concedes after the melds (R4.10) when its meld + buried counters + "
                                 "10 per counter kept < bid - MARGIN (points >= 0, divided by 10 with scale=0.1; "
                                 "default: never)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option of the games, e.g. target=1000 or nines_rule=6_any (repeatable; "
                             "'cardsim games pinochle3' lists them)")
    parser.add_argument("--scores", default=None, metavar="YOU,LEFT,RIGHT",
                        help="spec Q10, should you sacrifice-bid near the target? play on from these scores, you "
                             "bidding by --a and the others by --b, with you passing, bidding by --a or bidding up to "
                             "each --sacrifice bid this hand (needs --sacrifice; a negative first score: "
                             "--scores=-100,1450,1300)")
    parser.add_argument("--sacrifice", default=None, metavar="BIDS",
                        help="with --scores: the sacrifice bids, e.g. 300,350,400 or 300:400:50; in this hand you bid "
                             "up to each")
    parser.add_argument("--dealer", type=one_of(tuple(DEALERS)), default=None,
                        help="with --scores: who deals this hand, you (default: you speak last), left or right")
    add_run_arguments(parser, default_n=200, unit="games")
    add_games_alias(parser)


def _match_of(args: argparse.Namespace) -> pd.DataFrame:
    check_only_with([flag for flag, value in (("--sacrifice", args.sacrifice), ("--dealer", args.dealer))
                     if value is not None], "--scores", args.scores is not None)
    check_only_with(["--scores"] if args.scores is not None else [], "--sacrifice", args.sacrifice is not None)
    if args.scores is not None:
        for flag, value in (("--a-concede", args.a_concede), ("--b-concede", args.b_concede)):
            if value is not None:
                raise CardsimError(f"{flag} is not used with --scores: the sacrifice games are played without "
                                   "concessions; drop it")
        return sacrifice(args.a, args.b, args.scores, args.sacrifice, args.dealer or "you", args.n, args.seed,
                         parse_options(args.option), **run_options(args))
    return match(args.a, args.b, args.n, args.seed, parse_options(args.option), args.a_concede, args.b_concede,
                 **run_options(args))


def _run_match(args: argparse.Namespace) -> int:
    frame = _match_of(args)
    if args.scores is not None:
        return emit(args, frame, sacrifice_json, format_sacrifice)
    return emit(args, frame, match_json, format_match)


def _match_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``<side>.win_rate`` (n: seat-games), ``<side>.points_per_deal`` (n: seat-hands),
    ``<side>.concede_rate`` (n: contracts; only of a side given a concession margin),
    ``hands_per_game`` (n: finished games) and in money play ``<side>.money_per_game`` (n: seat-games); with
    --scores (spec Q10) ``pass.win`` and per sacrifice bid ``sacrifice.<bid>.win`` and ``.diff`` (A - B), n:
    games."""
    if args.scores is not None:
        return _sacrifice_frame(_match_of(args))
    frame = _match_of(args).assign(quantity_win="win_rate", quantity_points="points_per_deal",
                                   quantity_concede="concede_rate")
    wins = long_frame(frame.assign(n=frame.seat_games), ["side", "quantity_win"], value="win_p", lo="win_lo",
                      hi="win_hi")
    points = long_frame(frame.assign(n=frame.seat_hands), ["side", "quantity_points"], value="points_mean",
                        lo="points_lo", hi="points_hi")
    conceding = frame[frame.concede_margin.notna()]
    concede = long_frame(conceding.assign(n=conceding.contracts), ["side", "quantity_concede"], value="concede_p",
                         lo="concede_lo", hi="concede_hi")
    hands = long_frame(pd.DataFrame([frame.attrs["hands_per_game"]]), [], "hands_per_game", value="mean")
    money = [] if frame.attrs["stakes"] is None else [
        long_frame(frame.assign(n=frame.seat_games, quantity_money="money_per_game"), ["side", "quantity_money"],
                   value="money_mean", lo="money_lo", hi="money_hi")]
    return pd.concat([wins, points, concede, hands, *money], ignore_index=True)


def _sacrifice_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """`sacrifice` as estimates pass.win (P(you win) when you pass this hand) and <choice>.win / .diff (choice:
    policy or sacrifice.<bid>; diff: minus the pass)."""
    n = frame.attrs["games"]
    passing = long_frame(pd.DataFrame([{**frame.attrs["pass"], "n": n}]), [], "pass.win")
    named = frame.assign(name=["policy" if b is None or b != b else f"sacrifice.{int(b)}" for b in frame.bid])
    parts = [long_frame(named, ["name"], None, value=v, lo=f"{v}_lo", hi=f"{v}_hi") for v in ("win", "diff")]
    for part, quantity in zip(parts, ("win", "diff")):
        part["estimate"] += f".{quantity}"
    return pd.concat([passing, *parts], ignore_index=True)


register_command("match", GAME, Command("self-play games between two bidding policies", _add_match_arguments,
                                        _run_match, _match_frame))
