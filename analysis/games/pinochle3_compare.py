"""Three-player Pinochle: play rules or discard policies compared on the same deals (spec §9.1 Q7,
Q9), as ``cardsim odds pinochle3 --compare rules|discards``.

Python API::

    from analysis.games.pinochle3_compare import compare
    tables = compare("HA H10 HK ...", "rules", bids="250:400:30", n=1024, seed=1)

Every alternative plays the very deals of ``cardsim odds`` with the same seed (common random numbers),
so an alternative's figures are those of ``odds`` run with it, and each is paired deal by deal with the
default (rule old, discard best): P(make)'s difference has Tango's score interval from the deals only one
of the two made (`analysis.stats.paired_difference`, honest when few or none differ), the differences of
means (E[P_b], meld) mean ± 1.96·sd/√n of the per-deal differences, and none when no deal differed.
"""

from __future__ import annotations

import math

import pandas as pd

from analysis.commands import long_frame
from analysis.games.pinochle3 import (DD_TRICKS, GAME, _check_played, _holding_of, _options_note,
                                      _thrown_in_note, check_greedy_rule, checked_bids, checked_options, merged_rule,
                                      parse_trump)
from analysis.stats import Estimate, mean_interval, paired_difference
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_bid as bid
from simcore.games.pinochle3_discard import DISCARD_POLICIES
from simcore.rng import normalize_seed

RULE_NOTES = {
    "old": "R5.2: head the trick whenever you can (default)",
    "old_strict": "A2: after a trumped lead, still beat the highest card of the suit led",
    "new1945": "V8, A1 (i): head the trick only when trumps are led",
    "new1945_alt": "A1 (ii): head the trick only when following suit, never forced to overtrump",
}
NOTES = {"rules": RULE_NOTES, "discards": {name: d.help for name, d in DISCARD_POLICIES.items()}}
"""One line on each alternative of `pinochle3_bid.COMPARISONS`."""
PAIRED_MODEL = ("diff: alternative - default on the same deals; P(make): Tango's score interval from the deals only "
                "one made; means: mean ± 1.96·sd/√n of the per-deal differences")
"""How the paired intervals are made, in one line."""
NO_DIFFERENCE = {"diff": 0.0, "diff_lo": math.nan, "diff_hi": math.nan}
"""The paired columns when no deal differed (and of the default itself): no interval."""
PLAY_TITLES = {"greedy": "greedy play", "dd": "greedy, last {} tricks double-dummy"}


def _paired(diff_sum: float, diff_squares: float, n: int) -> dict:
    """{diff, diff_lo, diff_hi}: the mean of n per-deal differences from the default, from their sum
    and sum of squares, with its normal 95% interval; `NO_DIFFERENCE` when every difference is 0."""
    if not diff_squares:
        return NO_DIFFERENCE
    d = mean_interval(diff_sum, diff_squares, n)
    return {"diff": d["mean"], "diff_lo": d["lo"], "diff_hi": d["hi"]}


def _paired_make(gained: int, lost: int, n: int) -> dict:
    """{diff, diff_lo, diff_hi}: P(make) less the default's on the same n deals, ``gained`` made by the
    alternative only and ``lost`` by the default only, with Tango's score 95% interval."""
    diff, lo, hi = paired_difference(gained, lost, n)
    return {"diff": diff, "diff_lo": lo, "diff_hi": hi}


def _means(sums, default_sum: int, n: int, divisor: int) -> dict:
    """{mean, lo, hi, diff, diff_lo, diff_hi} of points from `CompareJob` sums (sum, squares, squared
    differences from the default), in points / divisor."""
    total, squares, diff_squares = (int(x) for x in sums)
    m = mean_interval(total / divisor, squares / divisor ** 2, n)
    return {"mean": m["mean"], "lo": m["lo"], "hi": m["hi"],
            **_paired((total - default_sum) / divisor, diff_squares / divisor ** 2, n)}


def compare(hand: str, what: str, trump: str | None = None, kitty: str | None = None, bids=None, n: int = 1000,
            seed=None, dd_tricks: int = DD_TRICKS, rule: str | None = None, options: dict | None = None,
            **run_kw) -> dict[str, pd.DataFrame]:
    """The bidder's hand played by every alternative of ``what`` on the same deals (spec Q7, Q9):
    "rules", every play rule (discard best), or "discards", every discard policy of
    `simcore.games.pinochle3_discard` (play rule ``rule``). Arguments as `pinochle3.odds` (greedy
    play, and with ``dd_tricks`` > 0 the last tricks solved double-dummy).

    Tables, each alternative paired with the default (the first: old, best), ``diff`` columns its
    difference on the same deals with a 95% interval (`PAIRED_MODEL`; NaN, as for the default
    itself, when a mean's per-deal differences are all 0): ``meld`` the meld kept
    (mean, lo, hi, diff...) per alternative; ``points`` E[P_b], the bidder's trick points with the
    buried counters (mean, lo, hi, diff...) per alternative and play; ``make`` P(meld + trick
    points >= bid) (p, lo, hi: Wilson; diff...) per alternative, play and bid.
    """
    if not isinstance(what, str) or what not in bid.COMPARISONS:
        raise CardsimError(f"cannot compare '{what}'; choose one of: {', '.join(bid.COMPARISONS)}")
    options = checked_options(options, "odds")
    if what == "rules" and (rule is not None or "play_rule" in options):
        raise CardsimError(f"--compare rules plays every rule ({', '.join(bid.COMPARISONS['rules'])}); drop --rule "
                           "and option play_rule")
    rule = merged_rule(rule, options)
    if what == "discards" and not dd_tricks:
        check_greedy_rule(rule, "the greedy column", "solve the ending with --dd-tricks 1-15 or use --rule old")
    opts = p.rule_options({**options, "play_rule": rule})
    divisor = p.point_divisor(options)
    bids = checked_bids(bids, opts, divisor)
    cards, kitty_cards = _holding_of(hand, kitty)
    seed = normalize_seed(seed)
    job = bid.CompareJob(cards, what, [b * divisor for b in bids], rule, dd_tricks,
                         parse_trump(trump) if trump is not None else None, kitty_cards, options)
    c = job.unpack(runner.run(job, n, seed, **run_kw))
    deals = c["deals"]
    _check_played(deals, c["thrown_in"], opts)
    meld_rows, point_rows, make_rows = [], [], []
    for a, name in enumerate(job.alternatives):
        meld_rows.append({"alternative": name, **_means(c["meld"][a], c["meld"][0][0], deals, divisor), "n": deals})
        for k, play in enumerate(job.plays):
            point_rows.append({"alternative": name, "play": play,
                               **_means(c["points"][a, k], c["points"][0, k, 0], deals, divisor), "n": deals})
            for j, b in enumerate(bids):
                paired = _paired_make(int(c["gained"][a, k, j]), int(c["lost"][a, k, j]), deals) if a \
                    else NO_DIFFERENCE
                make_rows.append({"alternative": name, "play": play, "bid": b,
                                  **Estimate(int(c["made"][a, k, j]), deals).as_dict(), **paired, "n": deals})
    tables = {"meld": pd.DataFrame(meld_rows), "points": pd.DataFrame(point_rows), "make": pd.DataFrame(make_rows)}
    for table in tables.values():
        table.attrs.update(game=GAME, hand=p.DECK.format_cards(sorted(cards)), n=deals, seed=seed, compare=what,
                           alternatives=job.alternatives, plays=job.plays, rule=None if what == "rules" else rule,
                           dd_tricks=dd_tricks, trump=trump, options=options, thrown_in=c["thrown_in"],
                           nines_rule=opts["nines_rule"], paired_model=PAIRED_MODEL,
                           kitty=p.DECK.format_cards(sorted(kitty_cards)) if kitty_cards else None)
    return tables


def _stat(row, value: str = "mean") -> dict:
    return {value: row[value], "lo": row["lo"], "hi": row["hi"], "diff": row["diff"], "diff_lo": row["diff_lo"],
            "diff_hi": row["diff_hi"]}


def compare_json(tables: dict[str, pd.DataFrame]) -> dict:
    """The comparison as one JSON object: "alternatives" [{"name", "note", "meld" {mean, lo, hi, diff,
    diff_lo, diff_hi}, "plays" {play: {"points" (likewise), "make" [{bid, p, lo, hi, diff, diff_lo,
    diff_hi}]}}}], the first the "default"; "paired_interval" says how diff's interval is made (diff_lo
    and diff_hi null for the default and where no deal differed in a mean)."""
    a = tables["make"].attrs
    out = {"game": GAME, "hand": a["hand"], "kitty": a["kitty"], "trump": a["trump"], "n": a["n"], "seed": a["seed"],
           "compare": a["compare"], "default": a["alternatives"][0], "rule": a["rule"], "dd_tricks": a["dd_tricks"],
           "options": a["options"], "thrown_in": a["thrown_in"], "paired_interval": a["paired_model"],
           "alternatives": []}
    for name in a["alternatives"]:
        meld = tables["meld"].set_index("alternative").loc[name]
        plays = {}
        for play in a["plays"]:
            points = tables["points"][(tables["points"].alternative == name) & (tables["points"].play == play)]
            make = tables["make"][(tables["make"].alternative == name) & (tables["make"].play == play)]
            plays[play] = {"points": _stat(points.iloc[0]),
                           "make": [{"bid": int(r["bid"]), **_stat(r, "p")} for _, r in make.iterrows()]}
        out["alternatives"].append({"name": name, "note": NOTES[a["compare"]][name], "meld": _stat(meld),
                                    "plays": plays})
    return out


def _cell(r, value: str, default: bool, digits: int) -> str:
    """'mean [lo,hi]', and for an alternative other than the default '  diff +d [lo,hi]' (or '  no deal
    differed': `NO_DIFFERENCE`)."""
    text = f"{getattr(r, value):{digits + 3}.{digits}f} [{r.lo:.{digits}f},{r.hi:.{digits}f}]"
    if default:
        return text
    if r.diff == 0 and math.isnan(r.diff_lo):
        return f"{text}  no deal differed"
    return f"{text}  diff {r.diff:+.{digits}f} [{r.diff_lo:+.{digits}f},{r.diff_hi:+.{digits}f}]"


def _block(frame: pd.DataFrame, names, width: int, value: str, digits: int) -> list[str]:
    """One line per alternative of ``frame`` (its rows in play order), the plays' cells in aligned columns."""
    cells = [[_cell(r, value, name == names[0], digits) for r in frame[frame.alternative == name].itertuples()]
             for name in names]
    widths = [max(len(row[k]) for row in cells) for k in range(len(cells[0]))]
    return [f"  {name:<{width}}" + " | ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()
            for name, row in zip(names, cells)]


def format_compare(tables: dict[str, pd.DataFrame]) -> str:
    a = tables["make"].attrs
    names = a["alternatives"]
    what = "play rule" if a["compare"] == "rules" else f"discard policy (rule {a['rule']})"
    width = max(len(x) for x in names) + 2
    titles = " | ".join(PLAY_TITLES[k].format(a["dd_tricks"]) for k in a["plays"])
    lines = [f"Pinochle odds of {a['hand']} as the bidder by {what}: the same n = {a['n']:,} deals"
             f"{_thrown_in_note(a)}, seed {a['seed']}, 95% intervals" + _options_note(a["options"]),
             f"default {names[0]}; {a['paired_model']}"]
    lines += [f"  {name:<{width}}{NOTES[a['compare']][name]}" for name in names]
    if a["compare"] == "rules":
        lines.append("greedy play heads every trick it can, so new1945 and new1945_alt play as old in the greedy "
                     "column")
    else:
        lines += ["", "meld kept"] + _block(tables["meld"], names, width, "mean", 1)
    lines += ["", f"E[P_b], the bidder's trick points with the buried counters: {titles}"]
    lines += _block(tables["points"], names, width, "mean", 1)
    lines += ["", f"P(meld + trick points >= bid): {titles}"]
    make = tables["make"]
    for b in make.bid.unique():
        lines += [f"  bid {b}"] + _block(make[make.bid == b], names, width, "p", 3)
    return "\n".join(lines)


def compare_frame(tables: dict[str, pd.DataFrame]) -> pd.DataFrame:
    """Estimates (for sweeps) ``compare.<alternative>.meld`` and ``.meld_diff``, ``.points.<play>``
    and ``.points_diff.<play>``, ``.make.<bid>.<play>`` and ``.make_diff.<bid>.<play>``."""
    parts = []
    for key, keys, value in (("meld", ["alternative"], "mean"), ("points", ["alternative", "play"], "mean"),
                             ("make", ["alternative", "bid", "play"], "p")):
        frame = tables[key]
        for name, column, lo, hi in ((key, value, "lo", "hi"), (f"{key}_diff", "diff", "diff_lo", "diff_hi")):
            part = long_frame(frame.assign(what=name), [keys[0], "what", *keys[1:]], "compare", value=column, lo=lo,
                              hi=hi)
            parts.append(part)
    return pd.concat(parts, ignore_index=True)
