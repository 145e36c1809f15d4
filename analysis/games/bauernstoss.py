"""Bauernstoss analysis: odds of a hand's calls, bidding thresholds and auction-policy matches.

Command line::

    cardsim odds bauernstoss --hand "sB hB dB cA cT sK h7 d8" --seat 1 [--play greedy|dd|random|pimc]
        [--samples 3] [--variant BS|AS|DS] [--calls "4,pass"] [--my-call "4 s"] [--json]
    cardsim thresholds bauernstoss [--play greedy|dd|random] [--variant BS|AS|DS] [--n 20000]
        [--equity-hands N] [--policy b0|cautious|aggressive] [--json]
    cardsim match bauernstoss --a b0 --b cautious --games 200 [--json]

Python API (each returns a DataFrame, `match` a dict, `equity` a dict of DataFrames)::

    from analysis.games import bauernstoss
    frame = bauernstoss.odds("sB hB dB cA cT sK h7 d8", seat=1, n=2000, seed=7)
    table = bauernstoss.thresholds(n=20_000, seed=7)
    result = bauernstoss.match("b0", "cautious", games=200, seed=7)
    tables = bauernstoss.equity("BS", hands=20_000, seed=7)   # who wins from here: W(a, b), Q7, Q9

Seats 0-3 clockwise, dealer seat 0, forehand seat 1 leads; team = seat % 2 (spec §0.2, §3, §5.1).
"""

from __future__ import annotations

import argparse
import itertools
import re

import numpy as np
import pandas as pd

from analysis.commands import (LONG_COLUMNS, MAX_COUNT, Command, NotedStore, add_games_alias, add_run_arguments,
                               check_only_with, counts_up_to, digits_value, emit, long_frame, one_of, option_items,
                               register_command, run_options, whole_number)
from analysis import solving
from analysis.games import bauernstoss_equity as equity_dp
from analysis.stats import (Z95, Estimate, estimate_columns, format_cell, histogram_quantile, mean_interval,
                            paired_difference, ratio_mean, ratio_share, student_t95)
from simcore import checks, runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.rng import normalize_seed

GAME = "bauernstoss"
PLAY_HELP = {"dd": "solved double dummy (every seat plays perfectly, seeing all hands)",
             "greedy": "played by the toolkit's greedy policy at every seat",
             "random": "played with uniformly random legal cards at every seat",
             "pimc": "played by PIMC at every seat (each card chosen by solving sampled deals of the unseen cards)"}
DEFAULT_PLAY = "greedy"
"""Default play-out of `odds` and `thresholds`: greedy is about a thousand times faster than the
double-dummy solver (tens of solves a second); pass --play dd for the perfect-information value."""
DS_FIXED_CALLS = ("the hand fixes every call (DS-4: bid your longest suit from 5 trumps; DS-5: the acorn Unter names "
                  "trumps after four passes; no mit or solos, DS-6)")
"""Why auction policies cannot differ in DS: `jobs.policy_call` makes the D0 call (§9.3) for any of them."""
CALL_NAMES = {bs.NUMBER: "number", bs.SMALL_SOLO: "small solo", bs.BIG_SOLO: "big solo"}
VARIANT_NAMES = {"BS": "Bauernstoss", "AS": "Alter Schoofkopp", "DS": "Deutscher Schafkopf"}
PROBABILITIES = ("p42", "p61", "p79", "p89", "p91", "p_le59", "p_solo", "p_solo_dd")
"""Probability columns of the `odds` and `thresholds` frames (JSON keys where not NaN)."""


# --- input ------------------------------------------------------------------------------------
def parse_hand(hand: str) -> list[int]:
    """The 8 cards of ``hand`` (tokens like cB sT h7); CardsimError for a wrong size, duplicates or
    unknown cards."""
    cards = bs.DECK.parse_cards(hand, "--hand")
    if len(cards) != bs.HAND_SIZE:
        raise CardsimError(f"--hand must list {bs.HAND_SIZE} cards (suits c s h d, ranks 7 8 9 B D K T A, "
                           f"e.g. 'sB hB dB cA cT sK h7 d8'), got {len(cards)}")
    return cards


def parse_seat(seat, flag: str = "--seat") -> int:
    """A seat 0-3 (dealer 0, forehand 1) given with ``flag``; CardsimError otherwise."""
    return solving.parse_seat(seat, bs.SEATS, flag, " (dealer 0, forehand 1)")


def parse_play(method: str, allowed: tuple[str, ...] = jobs.METHODS) -> str:
    if method not in allowed:
        raise CardsimError(f"method (--play) must be one of {', '.join(allowed)}, got '{method}'")
    return method


def parse_variant(variant: str) -> str:
    """A `variant` option value (BS, AS, DS, any case); CardsimError listing them otherwise."""
    return bs.rule_options(variant=str(variant).strip().upper())["variant"]


def parse_rules(items, variant: str = "BS") -> tuple:
    """``--option NAME=VALUE`` rule options (`analysis.commands.option_items`) as `checked_rules` pairs (the
    command checks which it reads)."""
    return checked_rules(option_items(items), variant)


AUCTION_RULES = {"BS": {"mit_rule", "partner_tie", "mixed_tie", "min_number_bid"},
                 "AS": {"mit_rule", "min_number_bid", "as_first_hand_solo"}, "DS": {"ds_ten_value", "ds_require_unter"}}
"""The rule options an auction reads, by variant (spec §8 A2-A4, A6, A9, A10, A15): AS ties always go to a
showdown (AS-6), so partner_tie and mixed_tie are BS only; allow_suit_switch (A5) is read by no command, as
the policies name the suit they bid, nor is as_four_jacks_forced (AS-5), as every policy opens when nobody has bid
(the engine's `bs.Auction` reads both)."""
TABLE_RULES = {"BS": {"jack_rule"}, "AS": set(), "DS": {"ds_ten_value", "ds_require_unter"}}
"""The rule options the main table of `thresholds` reads (forehand's best suit played without an auction), by
variant; its auction tables (Q8, Q11, Q5) read the auction's too."""
MODELLED_RULES = {
    "odds": {"BS": AUCTION_RULES["BS"] | {"jack_rule"}, "AS": AUCTION_RULES["AS"], "DS": AUCTION_RULES["DS"]},
    "thresholds": {variant: TABLE_RULES[variant] | AUCTION_RULES[variant] for variant in TABLE_RULES},
    "match": {"BS": AUCTION_RULES["BS"] | {"jack_rule", "partner_return_policy", "throwin_consumes_first_hand",
                                           "first_dealer"},
              "AS": AUCTION_RULES["AS"] | {"first_dealer"},
              "DS": AUCTION_RULES["DS"] | {"ds_schwarz", "ds_tie_chain", "first_dealer"}},
    "equity": {"BS": AUCTION_RULES["BS"] | {"jack_rule", "partner_return_policy"}, "AS": AUCTION_RULES["AS"],
               "DS": AUCTION_RULES["DS"]},
}
"""The rule options each command reads, by variant (the others cannot change its numbers: `odds` plays a given
contract in its table and reads the auction options in its auction part; `thresholds` (part A) plays forehand's
best suit without an auction in its main table (`TABLE_RULES`) and runs auctions for its Q8, Q11 and Q5 tables;
the BS jack rule is no AS or DS rule; DS has no solos, mit or throw-ins, AS no
throw-ins; `equity` (part B of `thresholds`) plays single hands, so no dealer or game options, and its DP takes
the defaults of throw-ins, DS schwarz and DS ties, §8 A7, A8, A13)."""


def checked_rules(chosen, variant: str = "BS", command: str | tuple[str, ...] | None = None) -> tuple:
    """Rule options (a dict, (name, value) pairs or NAME=VALUE strings, `option_items`) as sorted (name, value) pairs,
    checked against `bs.OPTIONS`: not ``variant`` (its own flag), no option of another variant (``jack_rule``: BS
    only, ``ds_*``: DS, ``as_*``: AS), no ``strategy_callback`` value (it needs a Python callback that these
    computations do not take) and, for ``command`` (a key of `MODELLED_RULES`, or several: the parts of one
    command, named by the first), only options it reads under ``variant`` (a value equal to the default is
    taken), as an option is never accepted and ignored."""
    chosen = option_items(chosen)
    for name, value in chosen.items():
        if name == "variant":
            raise CardsimError("give the variant with --variant, not --option variant=...")
        other = "BS" if name == "jack_rule" else {"ds_": "DS", "as_": "AS"}.get(name[:3])
        if other is not None and other != variant:
            raise CardsimError(f"option {name} is a rule of {VARIANT_NAMES[other]} only; add --variant {other} "
                               "or drop it")
        if value == "strategy_callback":
            raise CardsimError(f"{name}=strategy_callback needs a Python callback, which odds, thresholds and "
                               "match do not take; choose another value ('cardsim games bauernstoss')")
    options = bs.rule_options(variant=variant, **chosen)
    if command is not None:
        parts = (command,) if isinstance(command, str) else command
        defaults = bs.rule_options(variant=variant)
        read = set().union(*(MODELLED_RULES[part][variant] for part in parts))
        for name in chosen:
            if name not in read and options[name] != defaults[name]:
                which = ", ".join(sorted(read)) if read else "none"
                where = "bauernstoss.equity" if parts == ("equity",) else f"'cardsim {parts[0]} bauernstoss'"
                raise CardsimError(f"option {name} does not change {where} under "
                                   f"{VARIANT_NAMES[variant]} (the options it reads: {which}); drop it")
    return tuple(sorted(chosen.items()))


def rules_note(rules: tuple) -> str:
    """' (options a=1, b=2)' for a title line, or '' with the default rules."""
    return f" (options {', '.join(f'{k}={v}' for k, v in rules)})" if rules else ""


def call_options(cards: list[int], first_hand: bool = False, variant: str = "BS",
                 rules: tuple = ()) -> list[jobs.Option]:
    """Every call open to the hand (spec §4.3-§4.7, §7): BS, a number bid naming each suit (1-3
    jacks, at least 2 trumps) and, with the club jack outside a game's first hand, a Small Solo (not
    with 4 jacks) and a Big Solo in each suit; AS (AS-5, AS-10), numbers with 1-4 jacks and the Big
    Solo only; DS (DS-3..DS-6), `_ds_suits`, no solos. ``rules``: option pairs (`parse_rules`):
    min_number_bid (§8 A4), as_first_hand_solo (§8 A10), ds_require_unter (§8 A9). [] for a hand
    that must pass (`pass_rule` says why)."""
    mask, variant, rules = _hand_question(cards, variant, rules)
    first_hand = checks.flag(first_hand, "first_hand")
    opts = bs.rule_options(variant=variant, **dict(rules))
    jacks = bs.jack_count(mask)
    club = (mask >> bs.CLUB_JACK) & 1
    if variant == "DS":
        return [jobs.Option(bs.NUMBER, s) for s in _ds_suits(mask, opts["ds_require_unter"])]
    options = []
    if 1 <= jacks <= (4 if variant == "AS" else 3):
        options += [jobs.Option(bs.NUMBER, s) for s in range(4)
                    if bs.trump_length(mask, s) >= opts["min_number_bid"]]
    if club and (not first_hand or variant == "AS" and opts["as_first_hand_solo"]):
        kinds = (bs.BIG_SOLO,) if jacks == 4 or variant == "AS" else (bs.SMALL_SOLO, bs.BIG_SOLO)
        options += [jobs.Option(kind, s) for kind in kinds for s in range(4)]
    return options


def pass_rule(cards: list[int], variant: str = "BS", rules: tuple = (), first_hand: bool = False) -> str:
    """The rule that makes a hand without a call (`call_options` []) pass at its turn, e.g. "no jack (§4.3)":
    BS/AS no jack (§4.3); BS all four jacks in a game's first hand (§4.3: Big Solo or pass; §4.7: no solo
    there); DS no Unter under ds_require_unter (§8 A9), else fewer than 5 trumps and no acorn Unter (DS-3..DS-5).
    CardsimError for a hand that has a call."""
    if call_options(cards, first_hand, variant, rules):
        raise CardsimError("this hand has calls (call_options), so no rule makes it pass; pass_rule names the rule "
                           "of a hand without one")
    mask, variant, rules = _hand_question(cards, variant, rules)
    jacks = bs.jack_count(mask)
    if variant == "DS":
        if dict(rules).get("ds_require_unter") and not jacks:
            return "no Unter while ds_require_unter is set (§8 A9)"
        longest = max(bs.trump_length(mask, s) for s in range(4))
        return (f"at most {longest} trumps in any suit, 5 needed to bid (DS-3), and no acorn Unter (cB) to name "
                "trumps after four passes (DS-5)")
    if jacks == 0:
        return "no jack (§4.3)"
    return "all four jacks in a game's first hand: Big Solo or pass (§4.3), and no solo there (§4.7)"


def _hand_question(cards, variant, rules) -> tuple[int, str, tuple]:
    """(mask of the hand, variant, rule pairs) of `call_options` and `pass_rule`: ``cards`` 8 distinct card numbers
    of the pack, ``variant`` BS/AS/DS and ``rules`` rule options (`checked_rules`); CardsimError otherwise."""
    cards = checks.wholes(cards, "cards (the hand)", bs.HAND_SIZE, 0, bs.DECK.n_cards - 1)
    variant = parse_variant(variant)
    return bs.DECK.mask(cards), variant, checked_rules(rules, variant)


def _ds_suits(mask: int, require_unter: bool = False) -> list[int]:
    """The DS trump suits a hand can end up naming: its longest potential trump suit(s) from 5 trumps (the bid is
    compulsory and is the longest length, DS-4, §8 A9), else every suit if it holds the acorn Unter, which names
    trumps when all four pass (DS-5), else none; none without an Unter under ds_require_unter (§8 A9)."""
    if require_unter and not bs.jack_count(mask):
        return []
    longest = max(bs.trump_length(mask, s) for s in range(4))
    if longest >= jobs.DS_MIN_BID:
        return [s for s in range(4) if bs.trump_length(mask, s) == longest]
    return list(range(4)) if (mask >> bs.CLUB_JACK) & 1 else []


def call_name(kind: str, variant: str, trumps: int) -> str:
    """An `odds` row's call: in DS "bid" (the compulsory bid, DS-4) or "all pass" (under 5 trumps: the acorn-Unter
    holder's free choice of trumps after four passes, DS-5); else "number", "small solo" or "big solo"."""
    if variant == "DS":
        return "bid" if trumps >= jobs.DS_MIN_BID else "all pass"
    return CALL_NAMES[kind]


COLUMNS = {
    "BS": (("p42", "P(>=42) chalk"), ("p79", "P(>=79) no chalk"), ("p91", "P(>=91) schneider")),
    "AS": (("p42", "P(>=42) chalk"), ("p61", "P(>=61) 1st hand"), ("p79", "P(>=79) no chalk"),
           ("p89", "P(>=89) schneider")),
    "DS": (("p61", "P(>=61) makes"), ("p_le59", "P(<=59) opp score"), ("p91", "P(>=91) +2")),
}
"""The probability columns `format_odds` and `format_thresholds` print per variant (§6.2, AS-2..4, DS-9)."""
NOTES = {"BS": "the chalk team needs 42 card points, the other team 79",
         "AS": "the chalk team needs 42, the other 79; in a game's first hand 61; schneider from 89",
         "DS": "the makers score with 61, the opponents when the makers take 59 or less (2 strokes)"}


def odds_columns(variant: str, first_hand: bool) -> tuple:
    """The `COLUMNS` `format_odds` prints: in AS a game's first hand counts only 61 (no chalk yet, AS-2) and later
    hands only the chalk's 42 / 79 (AS-3), both with schneider from 89 (AS-4)."""
    if variant != "AS":
        return COLUMNS[variant]
    keep = ("p61", "p89") if first_hand else ("p42", "p79", "p89")
    return tuple(column for column in COLUMNS["AS"] if column[0] in keep)


def _odds_note(attrs: dict) -> str:
    """The footnote's words on the thresholds of `odds_columns`."""
    if attrs["variant"] != "AS":
        return NOTES[attrs["variant"]]
    return ("a game's first hand has no chalk: the team with 61 scores (AS-2)" if attrs["first_hand"] else
            "the chalk team needs 42, the other 79") + "; schneider from 89"


def level_columns(counts: dict, n: int) -> dict:
    """Wilson estimates p42 ... p91 and p_le59 (makers <= 59) from counts of points >= each of
    `jobs.LEVELS` (keys "p42", ...) out of ``n``."""
    row = {}
    for level in jobs.LEVELS:
        if level != 60:
            row.update(estimate_columns(f"p{level}", counts[f"p{level}"], n))
    row.update(estimate_columns("p_le59", n - counts["p60"], n))
    return row


def _mean_lo_hi(total: int, squares: int, n: int) -> tuple[float, float, float]:
    """Mean and normal 95% interval from a sum and a sum of squares of n values (`analysis.stats.mean_interval`)."""
    m = mean_interval(total, squares, n)
    return m["mean"], m["lo"], m["hi"]


# --- the calls before my seat (spec §9.1 Q5) ---------------------------------------------------
CALL_WORDS = {"pass": bs.PASS, "weg": bs.PASS, "gut": bs.PASS, "mit": bs.MIT}
"""--calls words (§4.2: pass is said "weg" before any bid, "gut" after one) besides the numbers."""
SOLO_WORDS = ("small solo", "big solo", "solo", "gib mir eine", "leg dich")
"""Solo calls (also written small_solo, big-solo): refused, a solo ends the auction before you speak (§4.7)."""
CALLS_EXAMPLE = {2: "4", 3: "4,pass", 0: "4,pass,mit"}
"""An example --calls for the seats that speak after 1, 2 and 3 others."""
CALLS_VOCABULARY = "pass, mit or a number bid"


def _seats_text(seats) -> str:
    """"seat 1", "seats 1 and 2", "seats 1, 2 and 3"."""
    seats = [str(q) for q in seats]
    return f"seat {seats[0]}" if len(seats) == 1 else f"seats {', '.join(seats[:-1])} and {seats[-1]}"


def _calls_mend(seat: int) -> str:
    """How to write --calls for ``seat``."""
    seats = jobs.speakers_before(seat)
    if not seats:
        return "seat 1 is forehand and speaks first, so no call precedes it: drop --calls"
    if len(seats) == 1:
        return f"give the call of seat {seats[0]} ({CALLS_VOCABULARY}), e.g. --calls \"{CALLS_EXAMPLE[seat]}\""
    return (f"give the calls of {_seats_text(seats)} in speaking order, comma-separated ({CALLS_VOCABULARY}), e.g. "
            f"--calls \"{CALLS_EXAMPLE[seat]}\"")


def _call_token(token: str, seat: int, q: int, cards: list[int], variant: str, first_hand: bool) -> tuple[str, int]:
    """One --calls word of seat ``q`` as (kind, n); CardsimError for a word that is no call, or a solo (it ends
    the auction before ``seat`` speaks, §4.7)."""
    word = " ".join(token.strip().lower().split())
    if re.fullmatch(r"[0-9]+", word):
        return bs.NUMBER, digits_value(word, f"--calls: a number call is the caller's trump count, e.g. "
                                                 f"--calls \"{CALLS_EXAMPLE[seat]}\"")
    if word in CALL_WORDS:
        return CALL_WORDS[word], 0
    if " ".join(word.replace("-", " ").replace("_", " ").split()) in SOLO_WORDS:
        mask = bs.DECK.mask(cards)
        if (mask >> bs.CLUB_JACK) & 1:
            why = "you hold the club jack, and only its holder may call a solo (§4.7)"
        elif first_hand and variant != "AS":
            why = "no solo is called in a game's first hand (§4.7)"
        elif variant == "DS":
            why = "Deutscher Schafkopf has no solos (DS-6)"
        else:
            why = (f"a solo ends the auction at once, so you would not speak (§4.7), and the other seats' policy "
                   f"{jobs.DEFAULT_POLICY} never calls one")
        raise CardsimError(f"--calls: seat {q} cannot have called '{token.strip()}' before you: {why}; "
                           f"{_calls_mend(seat)}")
    raise CardsimError(f"--calls: '{token.strip()}' is not a call; {_calls_mend(seat)}")


def parse_calls(calls, seat: int, cards: list[int], variant: str = "BS", rules: tuple = (),
                first_hand: bool = False) -> tuple[tuple[str, int], ...]:
    """The calls of the seats before ``seat`` (`jobs.speakers_before`) as (kind, n) pairs for `jobs.CallsCondition`,
    from a string like "4,pass" or a list of words. CardsimError (one line: what is wrong, how to mend it) for a
    wrong number of calls, a word that is no call, a solo (§4.7: it ends the auction before ``seat`` speaks), a
    call §4 forbids after the earlier ones (a number not above the highest bid, §4.5; mit with no number bid
    before it, §4.5; in DS any mit, a number under 5 or below the highest bid, DS-3..DS-6), a number
    `jobs.DEFAULT_POLICY` never bids (2: a seat with a jack always holds 3 trumps and bids its longest, §4.5) and
    calls the jacks left by ``cards`` cannot explain (`_check_jacks`). Rarer impossibilities are found by dealing
    (`calls_pilot`)."""
    if not isinstance(calls, (str, list, tuple)):
        raise CardsimError(f"--calls must be the calls before yours as a text such as '4,pass' or a list of call "
                           f"words, got {checks.shown(calls)}")
    words = [w for w in calls.split(",")] if isinstance(calls, str) else [str(w) for w in calls]
    if len(words) == 1 and not words[0].strip():
        words = []
    seats = jobs.speakers_before(seat)
    if words and not seats:
        raise CardsimError(f"--calls: {_calls_mend(seat)}")
    empty = [i + 1 for i, w in enumerate(words) if not w.strip()]
    if empty:
        raise CardsimError(f"--calls: call {empty[0]} of {len(words)} is empty (a comma too many); "
                           f"{_calls_mend(seat)}")
    if len(words) != len(seats):
        order = {0: "first", 1: "second", 2: "third", 3: "fourth"}[len(seats)]
        raise CardsimError(f"--calls gives {len(words)} call{'s' if len(words) != 1 else ''} but seat {seat} speaks "
                           f"{order}: {_calls_mend(seat)}")
    out, cur = [], 0
    low, high = (jobs.DS_MIN_BID, bs.HAND_SIZE) if variant == "DS" else (3, bs.HAND_SIZE)
    for q, word in zip(seats, words):
        kind, n = _call_token(word, seat, q, cards, variant, first_hand)
        said = f"--calls: seat {q}'s {word.strip()!r}"
        if kind == bs.MIT and variant == "DS":
            raise CardsimError(f"{said}: Deutscher Schafkopf has no mit; an equal length is bid as its number "
                               f"(DS-6), e.g. {cur or 5}")
        if kind == bs.MIT and cur == 0:
            raise CardsimError(f"{said}: mit equals an earlier number bid and none precedes it (§4.5); make it a "
                               "number or pass")
        if kind == bs.NUMBER and variant == "DS" and not low <= n <= high:
            raise CardsimError(f"{said}: a Deutscher Schafkopf bid is the longest suit, 5-8 trumps (DS-3, DS-4); "
                               "under 5 the seat passes")
        if kind == bs.NUMBER and variant == "DS" and n < cur:
            raise CardsimError(f"{said}: an earlier seat bid {cur}, so a shorter suit passes (DS-4); make it pass "
                               f"or a number from {cur}")
        if kind == bs.NUMBER and variant != "DS" and not 2 <= n <= high:
            raise CardsimError(f"{said}: a number bid is the trumps the bidder would hold, 2-8 (§4.5)")
        if kind == bs.NUMBER and variant != "DS" and n <= cur:
            raise CardsimError(f"{said}: a new number must exceed the highest bid {cur} before it (§4.5); say mit to "
                               f"equal it, or bid {cur + 1}-8")
        if kind == bs.NUMBER and n < low:
            raise CardsimError(f"{said}: policy {jobs.DEFAULT_POLICY} of the other seats never bids {n}: a seat with "
                               f"a jack always holds a suit of 3 or more trumps and bids its longest (§4.5, §9.3); "
                               "make it 3-8")
        cur = max(cur, n)
        out.append((kind, n))
    _check_jacks(tuple(out), seat, bs.jack_count(bs.DECK.mask(cards)), variant, rules)
    return tuple(out)


def _check_jacks(calls: tuple, seat: int, mine: int, variant: str, rules: tuple) -> None:
    """CardsimError when no split of the 4 - ``mine`` jacks over the other seats fits the calls (§4.3, §4.4): a
    bidder (number or mit) holds 1-3 jacks (AS 1-4); a seat passing before any bid holds none (BS: or all four,
    Big Solo or pass); DS only needs a jack to bid under ds_require_unter (§8 A9)."""
    if variant == "DS" and not dict(rules).get("ds_require_unter"):
        return
    top = 4 if variant == "AS" else 3
    allowed, bidders, passers, cur = {}, [], [], 0
    for q, (kind, n) in zip(jobs.speakers_before(seat), calls):
        if kind != bs.PASS:
            allowed[q] = range(1, top + 1)
            bidders.append(q)
        elif cur == 0 and variant != "DS":
            allowed[q] = (0, 4) if variant == "BS" else (0,)
            passers.append(q)
        cur = max(cur, n)
    others = [q for q in range(bs.SEATS) if q != seat]
    if any(sum(split) == 4 - mine for split in itertools.product(*(allowed.get(q, range(5)) for q in others))):
        return
    needs = []
    if bidders:
        needs.append(f"{_seats_text(bidders)} bid, which needs a jack{' each' if len(bidders) > 1 else ''} (§4.3)")
    if passers:
        needs.append(f"{_seats_text(passers)} passed before any bid, which means no jack"
                     + (" (or all four)" if variant == "BS" else "") + " (§4.4 forced opening)")
    raise CardsimError(f"--calls: you hold {mine} jack{'s' if mine != 1 else ''}, leaving {4 - mine} for the other "
                       f"seats, but {' and '.join(needs)}: no deal gives these calls; change them")


def calls_pilot(spec, seed: int) -> tuple[int, int]:
    """(accepted, tried) of block 0's first candidates (`jobs.conditioned_hands`, the deals the run starts with):
    CardsimError when the calls of ``spec``'s `jobs.CallsCondition` are too rare to reach n in reasonable time
    (under about `jobs.MIN_ACCEPTANCE` of the deals)."""
    found, tried = jobs.conditioned_hands(seed, 0, jobs.PILOT_ACCEPTED, spec, jobs.PILOT_STREAMS, partial=True)
    if len(found) < jobs.PILOT_ACCEPTED:
        condition = spec.accept[0]
        calls = ",".join(str(n) if k == bs.NUMBER else k for k, n in condition.calls)
        what = "none" if not len(found) else f"only {len(found)}"
        policy = "D0" if condition.variant == "DS" else condition.policy
        raise CardsimError(f"--calls {calls}: {what} of {tried:,} deals of the other cards give these calls under "
                           f"policy {policy}, under 1 in {round(1 / jobs.MIN_ACCEPTANCE):,}, too rare to "
                           "reach --n in reasonable time; check the calls against your hand (§4) or drop --calls")
    return len(found), tried


def calls_words(calls: tuple, seat: int) -> list[str]:
    """The calls before ``seat`` in words: "seat 1 bid 4", "seat 2 passed", "seat 3 said mit"."""
    said = {bs.PASS: "passed", bs.MIT: "said mit"}
    return [f"seat {q} " + (f"bid {n}" if kind == bs.NUMBER else said[kind])
            for q, (kind, n) in zip(jobs.speakers_before(seat), calls)]


# --- the call I pick (spec §9.1 Q5: "if I bid 4 naming spades instead of 5 in clubs") ----------------
MY_CALL_FORMS = ("a number and the suit in mind ('4 s'), 'mit s', 'pass', 'small solo s' or 'big solo s' "
                 "(suits c s h d)")
SUIT_WORDS = {**{w: i for i, w in enumerate(bs.DECK.suits)}, **{w: i for i, w in enumerate(bs.DECK.suit_names)}}
"""--my-call suits: a letter c s h d or the name."""
MY_CALL_WORDS = {"pass": bs.PASS, "weg": bs.PASS, "gut": bs.PASS, "mit": bs.MIT, "small solo": bs.SMALL_SOLO,
                 "gib mir eine": bs.SMALL_SOLO, "big solo": bs.BIG_SOLO, "leg dich": bs.BIG_SOLO}
"""--my-call words besides the numbers (the --calls words, §4.2, and the solo calls of §4.7)."""


def parse_my_call(text: str, cards: list[int]) -> bs.Call:
    """--my-call as a `bs.Call` (its legality is `check_my_call`'s): a number and the suit in mind ("4 s"; the suit
    may be left out when one suit gives that many trumps), "mit s", "pass" (weg, gut), "small solo s" / "big solo s"
    (gib mir eine, leg dich); suits c s h d or their names. CardsimError (one line) for anything else."""
    word = " ".join(re.sub(r"(?<=[a-z])[-_](?=[a-z])", " ", str(text).strip().lower()).split())
    said = f"--my-call {str(text).strip()!r}"
    glued = re.fullmatch(r"([0-9]+)([cshd])", word)
    head, _, last = word.rpartition(" ")
    body, suit = (glued[1], SUIT_WORDS[glued[2]]) if glued else (head, SUIT_WORDS[last]) if last in SUIT_WORDS \
        else (word, None)
    kind = bs.NUMBER if re.fullmatch(r"[0-9]+", body) else MY_CALL_WORDS.get(body)
    if kind is None:
        raise CardsimError(f"{said} is not a call: write {MY_CALL_FORMS}")
    if kind == bs.PASS:
        if suit is not None:
            raise CardsimError(f"{said}: a pass names no suit; write 'pass'")
        return bs.Call(bs.PASS)
    if kind != bs.NUMBER:
        if suit is None:
            raise CardsimError(f"{said}: name the suit after the call, e.g. '{body} s' (suits c s h d)")
        return bs.Call(kind, 0, suit)
    n, mask = digits_value(body, "--my-call: a number call is your trump count, e.g. '4 s'"), bs.DECK.mask(cards)
    lengths = [bs.trump_length(mask, s) for s in range(4)]
    fits = [bs.DECK.suits[s] for s in range(4) if lengths[s] == n]
    if suit is None and len(fits) != 1:
        why = f"{n} trumps come with {' or '.join(fits)}" if fits else \
            "you hold " + ", ".join(f"{k} with {bs.DECK.suits[s]}" for s, k in enumerate(lengths))
        best = bs.best_suit(mask)
        example = f"{n} {fits[0]}" if fits else f"{lengths[best]} {bs.DECK.suits[best]}"
        raise CardsimError(f"{said}: a number bid is the trumps of the suit in mind (§4.5) and {why}; write the "
                           f"number and the suit, e.g. '{example}'")
    return bs.Call(bs.NUMBER, n, SUIT_WORDS[fits[0]] if suit is None else suit)


def call_token(call: bs.Call) -> str:
    """A call as --my-call writes it: "4 s", "mit s", "pass", "big solo c"."""
    if call.kind == bs.PASS:
        return "pass"
    head = str(call.n) if call.kind == bs.NUMBER else call.kind.replace("_", " ")
    return f"{head} {bs.DECK.suits[call.suit]}"


def check_my_call(auction: bs.Auction, call: bs.Call, text: str) -> None:
    """CardsimError (one line: the §4 / §7 rule it breaks and the calls open instead) when ``call`` is illegal for
    the seat to speak in ``auction`` (`auction_after`; §4.3-§4.7, mit_rule §8 A2, AS-5, AS-6, AS-10, DS-3..DS-6)."""
    reason = auction.illegal(call)
    if reason is None:
        return
    if reason.startswith("§4.6"):
        reason += " (option mit_rule=advisory drops this test, §8 A2)"
    where = "after --calls" if auction.calls else "as forehand"
    order = (bs.NUMBER, bs.MIT, bs.SMALL_SOLO, bs.BIG_SOLO, bs.PASS)
    legal = ", ".join(dict.fromkeys(call_token(c) for c in sorted(auction.legal_calls(),
                                                                   key=lambda c: order.index(c.kind))))
    raise CardsimError(f"--my-call {str(text).strip()!r}: {reason}; calls open to you {where}: {legal}")


def my_call_words(call: bs.Call, auction: bs.Auction) -> str:
    """A call of the seat to speak in ``auction`` in words: "4 in spades (lowest card king)", "mit (5 in hearts,
    lowest card 8; the showdown of §4.9 decides)" (`mit_tie_words`), "pass", "Big Solo in clubs (5 trumps)"."""
    if call.kind == bs.PASS:
        return "pass"
    hand, suit = auction.hands[auction.to_speak], bs.DECK.suit_names[call.suit]
    if call.kind in bs.SOLOS:
        title = "Small Solo" if call.kind == bs.SMALL_SOLO else "Big Solo"
        return f"{title} in {suit} ({bs.trump_length(hand, call.suit)} trumps)"
    tie = f"suit value {bs.ds_suit_value(hand, call.suit, auction.opts['ds_ten_value'])}" \
        if auction.variant == "DS" else f"lowest card {bs.SCALE_NAMES[bs.lowest_trump(hand, call.suit)]}"
    if call.kind == bs.MIT:
        return f"mit ({auction.cur} in {suit}, {tie}; {mit_tie_words(auction)})"
    return f"{call.n} in {suit} ({tie})"


def mit_tie_words(auction: bs.Auction) -> str:
    """Who decides a tie that a mit by the seat to speak in ``auction`` makes: the suits' values in DS (DS-7), else
    the lowest card (§4.9) when an opponent bid cur or in AS (AS-6), else the partners agree (§4.8) unless an
    opponent ties too."""
    seat = auction.to_speak
    if auction.variant == "DS":
        return "the suits' values decide (DS-7)"
    if auction.variant == "AS" or any(q % 2 != seat % 2 for q in auction.at_cur):
        return "the showdown of §4.9 decides"
    return "your partner and you agree, §4.8, unless an opponent says mit too, §4.9"


def my_call_attrs(call: bs.Call, auction: bs.Auction, policy: str) -> dict:
    """``attrs["my_call"]`` of `odds`: {"call" (`call_token`), "kind", "n" (the number bid or equalled; 0 for a pass
    or solo), "suit" (letter; None for a pass),
    "words", "policy", "policy_call", "policy_words", "same_as_policy"}; the policy is D0 in DS."""
    theirs = jobs.policy_call(jobs.auction_policy(policy), auction)
    same = (call.kind, call.n, call.suit) == (theirs.kind, theirs.n, theirs.suit)
    return {"call": call_token(call), "kind": call.kind, "n": auction.cur if call.kind == bs.MIT else call.n,
            "suit": bs.DECK.suits[call.suit] if call.kind != bs.PASS else None, "words": my_call_words(call, auction),
            "policy": "D0" if auction.variant == "DS" else policy, "policy_call": call_token(theirs),
            "policy_words": my_call_words(theirs, auction), "same_as_policy": same}


def my_call_line(mine: dict) -> str:
    """The "your call" line of the auction part under --my-call, saying whether the policy calls the same."""
    other = f"the call policy {mine['policy']} makes here" if mine["same_as_policy"] else \
        f"NOT policy {mine['policy']}'s call, which is {mine['policy_words']}"
    return f"your call (--my-call {mine['call']}): {mine['words']}; {other}"


# --- odds -------------------------------------------------------------------------------------
def odds(hand: str, seat=1, method: str = DEFAULT_PLAY, n: int = 2000, seed=None, first_hand: bool = False,
         variant: str = "BS", samples: int | None = None, rules: tuple = (), policy: str = jobs.DEFAULT_POLICY,
         chalk: str | None = None, calls=None, my_call=None, **run_kw) -> pd.DataFrame:
    """For each call of ``hand`` at ``seat`` and each trump suit, the team's chances over uniform
    deals of the other 24 cards (rules of ``variant`` BS/AS/DS, dealer seat 0, forehand leads a
    normal game).

    Rows: call ("number", "small solo", "big solo"), trump (c s h d), trumps (the hand's trumps
    with that suit), p42 / p61 / p79 / p89 / p91 (team card points >= 42: makes it with the chalk;
    >= 61: AS first hand, DS makers; >= 79: without the chalk; >= 89 / 91: schneider), p_le59 (DS:
    the opponents score), p_solo (solos: all 8 tricks), mean points, each with a 95% interval
    (Wilson; normal for the mean), n. Deals are played by ``method`` (dd, greedy, random, or pimc:
    every seat by PIMC over ``samples`` worlds a decision, None: `jobs.PIMC_SAMPLES`, refused with the other methods;
    solos by greedy play, or with dd solved
    double dummy with the best Small Solo exchange; no points for solos, §8 A21). ``rules``: rule
    option pairs (`parse_rules`; the jack rule of play, the options `call_options` reads and, in the auction
    part, those of `AUCTION_RULES`).

    ``attrs["auction"]``: the auction part (spec §9.1 Q5, Q6, `auction_frame`) on the same deals, every seat
    calling by `jobs.DEFAULT_POLICY`, ``seat`` by ``policy``, the hand scored with the chalk at ``chalk`` ("us",
    the default, or "them"; in a first hand the §6.4 / AS-2 rule, DS none).

    A hand with no call (`call_options` []: no jack, four jacks in a game's first hand, a DS hand that must pass)
    has no rows; ``attrs["must_pass"]`` (None otherwise) names the rule (`pass_rule`), and the auction part gives
    how often the partner or an opponent chooses and whether the team scores (spec §9.1 Q3, Q5).

    ``calls`` (spec §9.1 Q5 "calls so far"): the calls of the seats that speak before ``seat``, in speaking order
    (forehand first), e.g. "4,pass" for seat 3 (`parse_calls`: pass, mit or a number). Every deal, of the rows and
    of the auction part, is then dealt from the unseen cards conditioned on those seats making exactly these calls
    by `jobs.DEFAULT_POLICY` (rejection sampling, `jobs.CallsCondition`; n counts the accepted deals).
    ``attrs["calls"]``: None without calls, else {"calls": the words, "said": `calls_words`, "seats", "policy",
    "accepted", "tried"} (the acceptance rate is accepted / tried). Calls too rare to reach n: CardsimError
    (`calls_pilot`).

    ``my_call`` (spec §9.1 Q5 for the call you pick, `parse_my_call`: "4 s", "mit s", "pass", "big solo c"): your
    seat makes this call in the auction part instead of ``policy``'s (the later seats still call by
    `jobs.DEFAULT_POLICY`); it needs ``calls`` unless ``seat`` is forehand, and must be legal there (`check_my_call`,
    CardsimError otherwise). ``attrs["my_call"]`` (`my_call_attrs`; None without it) says whether the policy
    calls the same. The call table does not depend on it.
    """
    cards = parse_hand(hand)
    seat = parse_seat(seat)
    method = parse_play(method, jobs.ODDS_METHODS)
    variant = parse_variant(variant)
    rules = checked_rules(rules, variant, "odds")
    first_hand = checks.flag(first_hand, "first_hand")
    if dict(rules).get("as_first_hand_solo") and not first_hand:
        raise CardsimError("option as_first_hand_solo changes only a game's first hand: add --first-hand or drop it")
    options = call_options(cards, first_hand, variant, rules)
    seed = normalize_seed(seed)
    if samples is not None and method != "pimc":
        raise CardsimError(f"samples applies only with method 'pimc' (the worlds of a PIMC decision), not with "
                           f"{method!r}; drop it or play pimc")
    samples = jobs.PIMC_SAMPLES if samples is None else checks.whole(samples, "--samples", 1, jobs.MAX_PIMC_SAMPLES)
    chalk_team = _chalk_team(chalk, seat, first_hand, variant)
    jobs.auction_policy(policy)
    if variant == "DS" and policy != jobs.DEFAULT_POLICY:
        raise CardsimError(f"in Deutscher Schafkopf {DS_FIXED_CALLS}, so --policy {policy} plays as D0: drop --policy")
    said = () if calls is None else parse_calls(calls, seat, cards, variant, rules, first_hand)
    mine = None if my_call is None else parse_my_call(my_call, cards)
    before = jobs.speakers_before(seat)
    if mine is not None and before and not said:
        raise CardsimError(f"--my-call fixes your call at your turn, and what is legal there depends on the calls "
                           f"before it (§4.4-§4.6): add --calls with the calls of {_seats_text(before)}, e.g. "
                           f"--calls \"{CALLS_EXAMPLE[seat]}\"")
    mask = bs.DECK.mask(cards)
    part = jobs.AuctionOddsJob(tuple(cards), seat, policy, chalk_team, method, variant, samples, rules, first_hand,
                               said, mine)
    if said:
        calls_pilot(part.spec, seed)
    auction = auction_after(part, seed) if said or mine is not None else None
    if mine is not None:
        check_my_call(auction, mine, my_call)
    frame = _call_table(jobs.OddsJob(tuple(cards), seat, tuple(options), method, variant, samples, rules, first_hand,
                                     said), mask, n, seed, run_kw) if options else pd.DataFrame()
    stats, by_cur = part.unpack(runner.run(part, n, seed, **run_kw))
    frame.attrs.update(game=GAME, hand=bs.DECK.format_cards(sorted(cards)), seat=seat, team=seat % 2,
                       method=method, n=stats["n"], seed=seed, first_hand=first_hand, variant=variant,
                       samples=samples, rules=rules,
                       must_pass=None if options else pass_rule(cards, variant, rules, first_hand))
    frame.attrs.update(auction=auction_frame(stats, by_cur), policy=policy,
                       chalk=_chalk_words(chalk_team, seat, first_hand, variant),
                       proposal=proposal(mask, part.opts) if options else None,
                       plan=policy_plan(jobs.AUCTION_POLICIES[policy], mask, part.opts, first_hand))
    if said:
        frame.attrs["plan"] = call_after(auction, policy)
        if options:
            frame["open"] = [open_after(auction, option) for option in options]
    frame.attrs["my_call"] = None if mine is None else my_call_attrs(mine, auction, policy)
    if mine is not None:
        frame.attrs["plan"] = my_call_line(frame.attrs["my_call"])
    frame.attrs["calls"] = {"calls": [str(k) if kind == bs.NUMBER else kind for kind, k in said],
                            "said": calls_words(said, seat), "seats": list(jobs.speakers_before(seat)),
                            "policy": jobs.DEFAULT_POLICY, "accepted": stats["n"], "tried": stats["tried"]} \
        if said else None
    return frame


def _call_table(job: jobs.OddsJob, mask: int, n: int, seed: int, run_kw: dict) -> pd.DataFrame:
    """The rows of `odds`, one per option of ``job`` (the hand's ``mask``), from ``n`` deals; attrs
    "stroke_histograms" {(call, trump): (2, STROKE_BINS)}."""
    parts = job.unpack(runner.run(job, n, seed, **run_kw))
    variant = job.opts["variant"]
    with_strokes = job.method in jobs.STROKE_METHODS and variant != "DS"
    reference = _reference_option(job, mask)
    rows = []
    for index, (option, row, hists) in enumerate(zip(job.options, parts.stats, parts.strokes)):
        stat = dict(zip(jobs.ODDS_STATS, (int(v) for v in row)))
        solo = option.kind != bs.NUMBER
        mean, lo, hi = _mean_lo_hi(stat["sum"], stat["sum_sq"], stat["n"])
        if solo:  # §8 A21: solo card points are ignored
            mean = lo = hi = np.nan
        trumps = bs.trump_length(mask, option.trump)
        record = {"call": call_name(option.kind, variant, trumps), "trump": bs.DECK.suits[option.trump],
                  "trumps": trumps}
        levels = level_columns(stat, stat["n"])
        record.update({key: (np.nan if solo else value) for key, value in levels.items()})
        record.update(estimate_columns("p_solo", stat["all_tricks"], stat["n"]) if solo else
                      {"p_solo": np.nan, "p_solo_lo": np.nan, "p_solo_hi": np.nan})
        record.update(points=mean, points_lo=lo, points_hi=hi, n=stat["n"])
        for key, hist in zip(STROKE_KEYS, hists):
            record.update(_stroke_columns(key, option.kind, hist, record, variant) if with_strokes else
                          {key: np.nan, f"{key}_lo": np.nan, f"{key}_hi": np.nan})
        if not solo:
            record.update(_points_columns(parts.points[index], stat, job.method))
            record.update(_chalk_columns(stat, job))
            if reference is not None and index != reference:
                record.update(_suit_delta_columns(parts.discordant, index, reference, stat["n"]))
        rows.append(record)
    frame = pd.DataFrame(rows)
    frame.attrs["stroke_histograms"] = {(r["call"], r["trump"]): h for r, h in zip(rows, parts.strokes)}
    frame.attrs["reference"] = None if reference is None else bs.DECK.suits[job.options[reference].trump]
    return frame


QUANTILES = (10, 25, 50, 75, 90)
"""Percent quantiles of the team's card points `odds` gives for each normal game (spec §9.1 Q3)."""
POINT_KEYS = ("p30", "p_all") + tuple(f"points_q{q}" for q in QUANTILES)
"""`odds` columns of the normal game's card points beyond the levels (Q3): P(>= 30), P(all 8 tricks) (play methods
of `jobs.STROKE_METHODS`) and the quantiles, each with a 95% interval."""
CHALK_KEYS = ("chalk_gain", "chalk_strokes")
"""`odds` columns of the chalk's worth on the same deals (Q9): P(score with it) - P(score without), and E[strokes]
with it minus without; BS and AS after a game's first hand only."""
SUIT_DELTA_LEVELS = {"d_p42": 42, "d_p61": 61, "d_p79": 79, "d_p89": 89, "d_p91": 91, "d_p_le59": 60}
"""`odds` columns d_p42 ...: P(score) with the row's suit minus with the suit policy B0 proposes, on the same deals
(Q4, Tango's interval), and the level of `jobs.LEVELS` each reads (d_p_le59: not reaching 60)."""
SUIT_DELTA_KEYS = tuple(SUIT_DELTA_LEVELS)


def _reference_option(job: jobs.OddsJob, mask: int) -> int | None:
    """Index of the normal game in the suit policy B0/D0 proposes (`bs.best_suit`: most trumps first) among
    ``job``'s options, the baseline of the paired differences (Q4); None when it is not one of them."""
    suit = bs.best_suit(mask, job.opts["variant"], job.opts["ds_ten_value"])
    return next((k for k, o in enumerate(job.options) if o.kind == bs.NUMBER and o.trump == suit), None)


def _points_columns(hist: np.ndarray, stat: dict, method: str) -> dict:
    """Q3 columns of a normal game from its points histogram (0..120): `POINT_KEYS`."""
    n = stat["n"]
    row = estimate_columns("p30", int(hist[30:].sum()), n)
    row.update(estimate_columns("p_all", stat["all_tricks"], n) if method in jobs.STROKE_METHODS else
               {"p_all": np.nan, "p_all_lo": np.nan, "p_all_hi": np.nan})
    for q in QUANTILES:
        value, lo, hi = histogram_quantile(hist, np.arange(hist.size), q / 100)
        row.update({f"points_q{q}": value, f"points_q{q}_lo": lo, f"points_q{q}_hi": hi})
    return row


def _chalk_columns(stat: dict, job: jobs.OddsJob) -> dict:
    """Q9 columns (`CHALK_KEYS`) of a normal game; NaN where the hand has no chalk to weigh (DS, a first hand).

    The chalk changes a deal's result only when the team takes 42 to 78 card points (§6.2, AS-3): with it the team
    scores 1 stroke, without it the other team scores 1 (schneider needs 89 or 91, schwarz every trick, so neither
    happens there), and outside that range both give the same strokes. So the share is P(42 <= points < 79) (Wilson)
    and the stroke gain exactly twice it, bounds included."""
    row = {f"{key}{end}": np.nan for key in CHALK_KEYS for end in ("", "_lo", "_hi")}
    if job.opts["variant"] == "DS" or job.first_hand:
        return row
    row.update(estimate_columns("chalk_gain", stat["p42"] - stat["p79"], stat["n"]))
    row.update({f"chalk_strokes{end}": 2 * row[f"chalk_gain{end}"] for end in ("", "_lo", "_hi")})
    return row


def _suit_delta_columns(discordant: np.ndarray, index: int, reference: int, n: int) -> dict:
    """Q4 columns (`SUIT_DELTA_KEYS`): P(score) with option ``index`` minus with option ``reference`` on the same
    ``n`` deals, from the discordant counts (o, o, LEVELS) of `jobs.OddsCounts` (p_le59: not reaching 60)."""
    row = {}
    for key, level in SUIT_DELTA_LEVELS.items():
        k = jobs.LEVELS.index(level)
        first, second = discordant[index, reference, k], discordant[reference, index, k]
        if level == 60:
            first, second = second, first
        d, lo, hi = paired_difference(int(first), int(second), n)
        row.update({key: d, f"{key}_lo": lo, f"{key}_hi": hi})
    return row


def proposal(mask: int, opts: dict) -> dict:
    """The suit a hand proposes (policy B0/D0, `bs.best_suit`, §9.3): {"suit", "trumps", and "lowest" (the §4.9
    tie-break) or in DS "value" (DS-7)}."""
    suit = bs.best_suit(mask, opts["variant"], opts["ds_ten_value"])
    out = {"suit": bs.DECK.suit_names[suit], "trumps": bs.trump_length(mask, suit)}
    if opts["variant"] == "DS":
        return {**out, "value": bs.ds_suit_value(mask, suit, opts["ds_ten_value"])}
    return {**out, "lowest": bs.SCALE_NAMES[bs.lowest_trump(mask, suit)]}


def policy_plan(policy: jobs.AuctionPolicy, mask: int, opts: dict, first_hand: bool) -> str:
    """In words, the call ``policy`` (`jobs.policy_call`) makes with the hand when it speaks: a solo from its
    thresholds (club jack, not in a game's first hand, §4.7; no Small Solo with 4 jacks or in AS), a pass with
    all four jacks in BS (§4.3: Big Solo or pass; nobody else can bid, so the hand is thrown in, §4.11), else
    its `proposal`; a pass without a jack (§4.3); DS: `_ds_plan`."""
    if opts["variant"] == "DS":
        return _ds_plan(mask, opts)
    jacks = bs.jack_count(mask)
    if not jacks:
        return "pass: no jack (§4.3)"
    plan = proposal(mask, opts)
    suit, trumps = plan["suit"], plan["trumps"]
    solo_ok = (mask >> bs.CLUB_JACK) & 1 and (not first_hand or opts["variant"] == "AS" and opts["as_first_hand_solo"])
    if solo_ok and trumps >= policy.big_solo_min:
        return f"Big Solo in {suit}, {trumps} trumps"
    if solo_ok and trumps >= policy.small_solo_min and jacks < 4 and opts["variant"] == "BS":
        return f"Small Solo in {suit}, {trumps} trumps"
    if jacks == 4 and opts["variant"] == "BS":
        why = "solos are banned in a game's first hand (§4.7)" if first_hand else \
            f"{policy.name} calls no Big Solo with {trumps} trumps"
        return (f"pass: all four jacks allow only Big Solo or pass (§4.3) and {why}; nobody else can bid, so the "
                "hand is thrown in (§4.11)")
    return f"{suit}, {trumps} trumps, lowest card {plan['lowest']}"


def auction_after(part: jobs.AuctionOddsJob, seed: int) -> bs.Auction:
    """The auction at ``part``'s seat after the calls before it (``part.spec``'s `jobs.CallsCondition`; none for
    forehand), replayed on the first deal `jobs.conditioned_hands` keeps for ``seed``: what is open to the seat
    depends only on its hand and the calls said, not on the deal."""
    condition = part.spec.accept[0] if part.spec.accept else None
    hands, _ = jobs.conditioned_hands(seed, 0, 1, part.spec)
    auction = bs.Auction(hands[0], jobs.DEALER, part.first_hand, part.opts)
    for _ in condition.calls if condition else ():
        auction.call(jobs.policy_call(jobs.auction_policy(condition.policy), auction))
    return auction


def open_after(auction: bs.Auction, option: jobs.Option) -> bool:
    """Whether the seat to speak may still make ``option`` (`call_options`): a solo as called, a number bid as the
    number of its trumps or, when that equals the highest bid, as mit (§4.5, §4.6, §4.7)."""
    if option.kind != bs.NUMBER:
        return auction.illegal(bs.Call(option.kind, 0, option.trump)) is None
    trumps = bs.trump_length(auction.hands[auction.to_speak], option.trump)
    return any(auction.illegal(c) is None for c in (bs.Call(bs.NUMBER, trumps, option.trump),
                                                   bs.Call(bs.MIT, 0, option.trump)))


def call_after(auction: bs.Auction, policy: str) -> str:
    """In words, the call ``policy`` makes in ``auction`` (`auction_after`), and why where it passes holding a jack
    (the §4 rule that forbids its number or mit)."""
    call = jobs.policy_call(jobs.auction_policy(policy), auction)
    suit = bs.DECK.suit_names[call.suit] if call.kind != bs.PASS else ""
    if call.kind == bs.NUMBER:
        return f"after these calls, {call.n} ({suit})"
    if call.kind == bs.MIT:
        return f"after these calls, mit ({auction.cur} in {suit}, {mit_tie_words(auction)})"
    if call.kind != bs.PASS:
        return f"after these calls, {call.kind.replace('_', ' ')} in {suit}"
    hand = auction.hands[auction.to_speak]
    best = bs.best_suit(hand, auction.variant, auction.opts["ds_ten_value"])
    tries = (bs.Call(bs.NUMBER, bs.trump_length(hand, best), best), bs.Call(bs.MIT, 0, best))
    reasons = [auction.illegal(c) for c in tries if auction.variant != "DS" or c.kind == bs.NUMBER]
    why = next((r for r in reasons if r and not r.startswith("§4.5: a new number")), None) or \
        next((r for r in reasons if r), None)
    return "after these calls, pass" + (f" ({why})" if why else "")


def _ds_plan(mask: int, opts: dict) -> str:
    """The D0 call of a DS hand in words (§9.3): the compulsory bid of its longest suit, 5 trumps or more, unless
    an earlier bid is higher (DS-4), with the suit's value for equal bids (DS-7); else a pass, and the acorn-Unter
    holder's choice of trumps should all four pass (DS-5)."""
    plan = proposal(mask, opts)
    suit, trumps, value = plan["suit"], plan["trumps"], plan["value"]
    if trumps >= jobs.DS_MIN_BID and (bs.jack_count(mask) or not opts["ds_require_unter"]):
        return (f"bid {trumps} ({suit}) unless an earlier bid is higher (DS-4); suit value {value} against equal bids "
                "(DS-7)")
    why = "no Unter (ds_require_unter, §8 A9)" if trumps >= jobs.DS_MIN_BID else \
        f"at most {trumps} trumps, 5 needed: DS-3"
    if (mask >> bs.CLUB_JACK) & 1:
        return f"pass ({why}); if all four pass, the acorn Unter names {suit} ({trumps} trumps, DS-5)"
    return f"pass ({why})"


CHALKS = ("us", "them")
"""`--chalk` of `odds`' auction part: the hand's team holds the chalk, or the other team does."""


def _chalk_team(chalk: str | None, seat: int, first_hand: bool, variant: str) -> int | None:
    """The team holding the chalk in the auction part of `odds` (None: a first hand's rule, or DS); CardsimError
    for a ``chalk`` outside `CHALKS` or one the hand cannot have (a game's first hand, DS)."""
    if chalk is not None:
        if chalk not in CHALKS:
            raise CardsimError(f"--chalk must be us or them, got '{chalk}'")
        if first_hand:
            rule = "none yet: 61 wins (AS-2)" if variant == "AS" else "the club jack's team (§6.4)"
            raise CardsimError(f"--chalk does not apply with --first-hand: the chalk of a game's first hand is "
                               f"{rule}; drop --chalk")
        if variant == "DS":
            raise CardsimError("Deutscher Schafkopf has no chalk (DS-13): drop --chalk")
    if first_hand or variant == "DS":
        return None
    return seat % 2 if chalk in (None, "us") else 1 - seat % 2


def _chalk_words(team: int | None, seat: int, first_hand: bool, variant: str) -> str:
    if variant == "DS":
        return "no chalk (DS: the makers need 61)"
    if first_hand:
        return "a game's first hand: " + ("no chalk, 61 wins (AS-2)" if variant == "AS" else
                                          "the chalk at the club jack's team (§6.4)")
    return f"the chalk at {'your team' if team == seat % 2 else 'the other team'} (team {team})"


def _share_row(name: str, successes: int, n: int) -> dict:
    """A row of `auction_frame`: a Wilson estimate, NaN when ``n`` is 0."""
    est = Estimate(int(successes), int(n))
    return {"estimate": name, "p": est.p, "lo": est.lo if n else np.nan, "hi": est.hi if n else np.nan, "n": int(n)}


def auction_frame(stats: dict, by_cur: np.ndarray) -> pd.DataFrame:
    """The auction part of `odds` from `jobs.AuctionOddsJob.unpack`: rows estimate, p, lo, hi (Wilson; Tango's score
    interval for the paired difference, `paired_difference`), n. Estimates: i_choose, partner_chooses,
    opponent_chooses, throw_in, solo, showdown, my_showdown (I am tied in it), win_showdown (of those),
    win_showdown.cur<v> (at winning bid v), score.<who chose> (my team scores: reaches 42 with the chalk, 79
    without; AS first hand 61; DS makers 61, opponents when the makers take 59 or less), score.all (my team scores,
    over every deal: a throw-in scores nothing), paired.mine /
    paired.partner (my team scores with my suit / my partner's on the deals where both of us bid and my team
    chose) and paired.diff (mine - partner's, the same deals)."""
    n = stats["n"]
    rows = [_share_row(name, stats[key], n) for name, key in (
        ("i_choose", "me"), ("partner_chooses", "partner"), ("opponent_chooses", "opponent"),
        ("throw_in", "throw_in"), ("solo", "solo"), ("showdown", "showdown"), ("my_showdown", "my_showdown"))]
    rows.append(_share_row("win_showdown", stats["my_showdown_won"], stats["my_showdown"]))
    rows += [_share_row(f"win_showdown.cur{cur}", by_cur[1, cur], by_cur[0, cur]) for cur in np.flatnonzero(by_cur[0])]
    rows += [_share_row(f"score.{name}", stats[f"score_{key}"], stats[key])
             for name, key in (("i_choose", "me"), ("partner_chooses", "partner"), ("opponent_chooses", "opponent"))]
    rows.append(_share_row("score.all", sum(stats[f"score_{key}"] for key in jobs.CHOOSERS), n))
    pairs = stats["pairs"]
    rows += [_share_row("paired.mine", stats["pair_me"], pairs),
             _share_row("paired.partner", stats["pair_partner"], pairs)]
    better, worse = stats["pair_me_only"], stats["pair_partner_only"]
    diff = paired_difference(better, worse, pairs) if pairs else (np.nan,) * 3
    rows.append({"estimate": "paired.diff", **dict(zip(("p", "lo", "hi"), diff)), "n": pairs})
    frame = pd.DataFrame(rows)
    frame.attrs.update(better=better, worse=worse)
    return frame


STROKE_KEYS = ("strokes_chalk", "strokes_no_chalk")
"""`odds` columns of the expected stroke differential (spec §9.1 Q2): the hand's team holding the chalk,
the other team holding it (in a first hand both: the deal's chalk)."""


def _stroke_columns(key: str, kind: str, hist: np.ndarray, record: dict, variant: str) -> dict:
    """E[strokes the team scores, minus the other team's] with a 95% interval: of a normal game from its
    histogram (-4..+4); of a solo S(2p - 1) for its win rate p and stake S (8 Small, 12 Big, §6.3; the
    Wilson bounds of p give the interval), none for an AS Big Solo, which decides the game (AS-10)."""
    if kind == bs.NUMBER:
        values = np.arange(-jobs.STROKE_SPAN, jobs.STROKE_SPAN + 1)
        mean, lo, hi = _mean_lo_hi(int((hist * values).sum()), int((hist * values ** 2).sum()), int(hist.sum()))
    elif variant == "AS":
        mean = lo = hi = np.nan
    else:
        stake = bs.SOLO_STROKES[kind]
        mean, lo, hi = (stake * (2 * record[k] - 1) for k in ("p_solo", "p_solo_lo", "p_solo_hi"))
    return {key: mean, f"{key}_lo": lo, f"{key}_hi": hi}


def estimates_long(frame: pd.DataFrame, labels: list[str]) -> pd.DataFrame:
    """An `odds` or `thresholds` frame as the long table `cardsim sweep` stores: one row per frame row
    and defined estimate, named by the ``labels`` columns and the estimate (e.g. ``number.h.p42``,
    ``2.5.points``); the Big Solo of `thresholds` counts its own tries (``solo_n``)."""
    parts = []
    for key in PROBABILITIES + ("points",) + STROKE_KEYS + POINT_KEYS + SUIT_DELTA_KEYS + CHALK_KEYS:
        if key not in frame:
            continue
        rows = frame[frame[key].notna()].assign(estimate_key=key)
        if key.startswith("p_solo") and "solo_n" in rows:
            rows = rows.assign(n=rows["solo_n"])
        if len(rows):
            parts.append(long_frame(rows, labels + ["estimate_key"], value=key, lo=f"{key}_lo", hi=f"{key}_hi"))
    return pd.concat(parts, ignore_index=True)


def _odds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates named ``<call>.<trump>.<estimate>``, e.g. ``number.h.p42``, ``big_solo.c.p_solo``, and the
    auction part's ``auction.<estimate>`` (`auction_frame`), e.g. ``auction.i_choose`` (only these for a hand that
    must pass); with --calls also ``calls.acceptance`` (accepted deals out of those dealt, Wilson, n: dealt)."""
    frame = _odds_of(args)
    part = frame.attrs["auction"].rename(columns={"p": "value"})
    auction = long_frame(part[part["value"].notna()], ["estimate"], "auction", "value")
    if frame.attrs["calls"]:
        c = frame.attrs["calls"]
        rate = Estimate(c["accepted"], c["tried"])
        auction = pd.concat([auction, pd.DataFrame([("calls.acceptance", rate.p, rate.lo, rate.hi, c["tried"])],
                                                   columns=LONG_COLUMNS)], ignore_index=True)
    if frame.empty:  # a hand that must pass: the auction part only
        return auction
    return pd.concat([estimates_long(frame.assign(call=frame["call"].str.replace(" ", "_")), ["call", "trump"]),
                      auction], ignore_index=True)


def _triple(row, key: str) -> dict | None:
    """{"p", "lo", "hi"} of estimate ``key`` of a frame row; None when the frame has no such estimate
    (NaN or no column)."""
    value = row.get(key, np.nan)
    return None if value != value else {"p": value, "lo": row[f"{key}_lo"], "hi": row[f"{key}_hi"]}


def odds_json(frame: pd.DataFrame) -> dict:
    """An `odds` frame as JSON: "calls" a row each ([] for a hand that must pass, "must_pass" then naming the rule,
    else null) and "auction" (`auction_json`)."""
    a = frame.attrs
    calls = []
    for _, r in frame.iterrows():
        entry = {"call": r["call"], "trump": r["trump"], "trumps": int(r["trumps"]), "n": int(r["n"])}
        if r["points"] == r["points"]:
            entry["points"] = {"mean": r["points"], "lo": r["points_lo"], "hi": r["points_hi"]}
        for key in PROBABILITIES:
            if _triple(r, key) is not None:
                entry[key] = _triple(r, key)
        strokes = _strokes_json(r, a)
        if strokes:
            entry["strokes"] = strokes
        entry.update({key: _triple(r, key) for key in ("p30", "p_all", "chalk_gain") if _triple(r, key) is not None})
        if r.get("chalk_strokes", np.nan) == r.get("chalk_strokes", np.nan):
            entry["chalk_strokes"] = {"mean": r["chalk_strokes"], "lo": r["chalk_strokes_lo"],
                                      "hi": r["chalk_strokes_hi"]}
        if r.get("points_q50", np.nan) == r.get("points_q50", np.nan):
            entry["points_quantiles"] = {str(q): {"value": r[f"points_q{q}"], "lo": r[f"points_q{q}_lo"],
                                                  "hi": r[f"points_q{q}_hi"]} for q in QUANTILES}
        deltas = {key.removeprefix("d_"): _triple(r, key) for key in SUIT_DELTA_KEYS if _triple(r, key) is not None}
        if deltas:
            entry["vs_proposed_suit"] = deltas
        if "open" in r:
            entry["open"] = bool(r["open"])
        calls.append(entry)
    out = {"game": GAME, "variant": a["variant"], "hand": a["hand"], "seat": a["seat"], "team": a["team"],
           "play": a["method"], "n": a["n"], "seed": a["seed"], "options": dict(a.get("rules", ())), "calls": calls,
           "must_pass": a["must_pass"], "proposed_suit": a.get("reference")}
    if a["method"] == "pimc":
        out["samples"] = a["samples"]
    if a.get("calls"):
        out["calls_before"] = calls_json(a["calls"])
    if "auction" in a:
        out["auction"] = auction_json(frame)
    return out


def calls_json(calls: dict) -> dict:
    """`odds`' ``attrs["calls"]`` as JSON: {"calls", "said", "seats", "policy", "accepted", "tried", "acceptance"}."""
    return {**calls, "acceptance": calls["accepted"] / calls["tried"]}


def calls_line(calls: dict, variant: str = "BS") -> str:
    """The text line of the calls `odds` conditioned on and their acceptance rate."""
    policy = "D0" if variant == "DS" else calls["policy"]
    return (f"Calls before you: {', '.join(calls['said'])}; every deal below is one where the other seats, calling by "
            f"policy {policy}, make exactly these calls: {calls['accepted']:,} accepted of "
            f"{calls['tried']:,} dealt (acceptance rate {100 * calls['accepted'] / calls['tried']:.3g}%)")


def auction_json(frame: pd.DataFrame) -> dict:
    """{"policy", "others", "chalk", "n", "proposal": `proposal` (null for a hand that must pass), "call":
    `policy_plan` (or the --my-call line), "my_call": `my_call_attrs` (null without --my-call), "estimates": {name:
    {"p", "lo", "hi", "n"}}, "paired_discordant": {"mine_only", "partner_only"}} of an `odds` frame's auction part."""
    a, part = frame.attrs, frame.attrs["auction"]
    return {"policy": a["policy"], "others": jobs.DEFAULT_POLICY, "chalk": a["chalk"], "n": a["n"],
            "proposal": a["proposal"], "call": a["plan"], "my_call": a.get("my_call"),
            "estimates": {r.estimate: {"p": r.p, "lo": r.lo, "hi": r.hi, "n": int(r.n)} for r in part.itertuples()},
            "paired_discordant": {"mine_only": part.attrs["better"], "partner_only": part.attrs["worse"]}}


def _stroke_settings(attrs: dict) -> tuple:
    """(key of `STROKE_KEYS`, JSON name, column title) of the stroke columns `odds` shows: the chalk at
    either team, or in a first hand the deal's chalk only."""
    if attrs["first_hand"]:
        return (("strokes_chalk", "first_hand", "E[strokes]"),)
    return (("strokes_chalk", "chalk", "E[strokes] chalk"), ("strokes_no_chalk", "no_chalk", "E[strokes] no chalk"))


def _strokes_json(row, attrs: dict) -> dict:
    """{setting: {"mean", "lo", "hi", "dist" (normal games: {strokes: share})}} of an `odds` row."""
    out = {}
    hists = attrs.get("stroke_histograms", {}).get((row["call"], row["trump"]))
    for index, (key, name, _) in enumerate(_stroke_settings(attrs)):
        if row.get(key, np.nan) != row.get(key, np.nan):
            continue
        out[name] = {"mean": row[key], "lo": row[f"{key}_lo"], "hi": row[f"{key}_hi"]}
        if row["call"] == CALL_NAMES[bs.NUMBER] and hists is not None and hists[index].sum():
            hist = hists[index]
            out[name]["dist"] = {str(v - jobs.STROKE_SPAN): float(c / hist.sum()) for v, c in enumerate(hist) if c}
    return out


def _stroke_distribution_lines(frame: pd.DataFrame) -> list[str]:
    """The strokes of each normal game (spec Q2): P(the team's strokes minus the other team's = s), Wilson 95%,
    per trump suit and chalk setting; [] without stroke histograms (DS, double-dummy play)."""
    a = frame.attrs
    histograms = a.get("stroke_histograms", {})
    lines = []
    for _, r in frame[frame["call"] == CALL_NAMES[bs.NUMBER]].iterrows():
        hists = histograms.get((r["call"], r["trump"]))
        for index, (_, _, title) in enumerate(_stroke_settings(a) if hists is not None else ()):
            hist, n = hists[index], int(hists[index].sum())
            if n:
                cells = [f"{v - jobs.STROKE_SPAN:+d}: {format_cell(Estimate(int(c), n).as_dict())}"
                         for v, c in enumerate(hist) if c]
                lines.append(f"  {r['trump']:<3}{title.replace('E[strokes]', 'strokes'):<18}" + "  ".join(cells))
    return ["", "Strokes of the normal game (Q2): P(strokes = s), s = your team's strokes minus the other team's",
            *lines] if lines else []


def _normal_rows(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of normal games (a number bid, DS's bid): those with the card points' columns (`_points_columns`)."""
    return frame[frame["p30"].notna()] if "p30" in frame else frame.iloc[:0]


def _points_lines(frame: pd.DataFrame) -> list[str]:
    """The card points of each normal game (Q3): quantiles with their distribution-free 95% intervals, P(>=30),
    P(>=61) where the call table does not show it, P(all 8 tricks) where the play gives tricks."""
    rows = _normal_rows(frame)
    if rows.empty:
        return []
    a = frame.attrs
    shares = [("p30", "P(>=30)")] + ([] if "p61" in dict(odds_columns(a["variant"], a["first_hand"]))
                                     else [("p61", "P(>=61)")])
    shares += [("p_all", "P(all 8 tricks)")] if a["method"] in jobs.STROKE_METHODS else []
    names = [("median" if q == 50 else f"{q}%") for q in QUANTILES]
    lines = ["", "Card points of the normal game (Q3): your team's, quantiles and shares with 95% intervals",
             f"  {'trump':<7}" + "".join(f"{name:<15}" for name in names) + "".join(f"{t:<22}" for _, t in shares)]
    for _, r in rows.iterrows():
        cells = [f"{r[f'points_q{q}']:.0f} [{r[f'points_q{q}_lo']:.0f},{r[f'points_q{q}_hi']:.0f}]" for q in QUANTILES]
        lines.append(f"  {r['trump']:<7}" + "".join(f"{c:<15}" for c in cells)
                     + "".join(f"{wide_cell(r, key):<22}" for key, _ in shares))
    return lines


def _suit_delta_lines(frame: pd.DataFrame) -> list[str]:
    """Q4: each other suit's P(score) minus that of the suit policy B0 (DS: D0) proposes, on the same deals (Tango
    95%)."""
    a = frame.attrs
    rows = _normal_rows(frame)
    if a.get("reference") is None or len(rows) < 2:
        return []
    suit = a["reference"]
    trumps = int(rows[rows["trump"] == suit].iloc[0]["trumps"])
    columns = odds_columns(a["variant"], a["first_hand"])
    policy = "D0" if a["variant"] == "DS" else "B0"
    lines = ["", f"Your suit against the suit policy {policy} proposes (Q4: {suit}, {trumps} trumps), the same deals: "
                 f"each column's P with the suit - with {suit}"
                 + (" (P(<=59): the opponents score, lower is better)" if "p_le59" in dict(columns) else ""),
             f"  {'trump':<7}{'L':>2}  " + "".join(f"{title:<26}" for _, title in columns)]
    for _, r in rows[rows["trump"] != suit].iterrows():
        lines.append(f"  {r['trump']:<7}{int(r['trumps']):>2}  "
                     + "".join(f"{_signed_cell(r, 'd_' + key, 3):<26}" for key, _ in columns))
    return lines


def _chalk_lines(frame: pd.DataFrame) -> list[str]:
    """Q9: the chalk's worth on the same deals, per suit of a normal game; [] where the hand has no chalk to weigh
    (DS, a game's first hand)."""
    rows = _normal_rows(frame)
    if rows.empty or rows["chalk_gain"].isna().all():
        return []
    lines = ["", "The chalk's worth (Q9), the same deals: P(score with the chalk) - P(score without), and E[strokes] "
                 "with it minus without (twice the first: the chalk turns the other team's stroke into yours)"]
    for _, r in rows.iterrows():
        lines.append(f"  {r['trump']:<7}{_signed_cell(r, 'chalk_gain', 3):<26}{_signed_cell(r, 'chalk_strokes', 2)}")
    return lines


def _signed_cell(row, key: str, digits: int) -> str:
    """"+d [+lo,+hi]" of the estimate ``key`` of a wide row; "—" where it is NaN."""
    value = row[key]
    if value != value:
        return "—"
    return f"{value:+.{digits}f} [{row[key + '_lo']:+.{digits}f},{row[key + '_hi']:+.{digits}f}]"


def wide_cell(row, key: str) -> str:
    """"p [lo,hi]" of the estimate ``key`` of a wide table row (columns key, key_lo, key_hi); "—" where it is NaN."""
    value = row[key]
    return "—" if value != value else f"{value:.3f} [{row[key + '_lo']:.3f},{row[key + '_hi']:.3f}]"


def points_cell(row) -> str:
    """"mean [lo,hi]" of a row's card points (columns points, points_lo, points_hi); "—" where NaN."""
    return "—" if row["points"] != row["points"] else \
        f"{row['points']:.1f} [{row['points_lo']:.1f},{row['points_hi']:.1f}]"


def format_odds(frame: pd.DataFrame) -> str:
    a = frame.attrs
    has_solos = not frame.empty and bool(frame["p_solo"].notna().any())  # solo column and words if it may call one
    solos = "solved double dummy (best Small Solo exchange)" if a["method"] == "dd" else "played greedily"
    lines = [f"{VARIANT_NAMES[a['variant']]} odds for seat {a['seat']} (team {a['team']}) holding {a['hand']}"
             + rules_note(a.get("rules", ())),
             f"{a['n']:,} deals of the other cards (seed {a['seed']}); normal games {PLAY_HELP[a['method']]}"
             + (f" with {a['samples']} sampled deals a decision" if a["method"] == "pimc" else "")
             + ", forehand (seat 1) leads" + (f"; solos {solos}" if has_solos else "")]
    if a.get("calls"):
        lines.append(calls_line(a["calls"], a["variant"]))
    lines.append("")
    if a["must_pass"]:
        lines.append(f"No call to evaluate: the hand must pass, {a['must_pass']}; the auction part below gives how "
                     "often your partner or an opponent chooses and whether your team scores.")
    else:
        lines += _call_lines(frame, has_solos)
    if "auction" in a:
        lines += ["", *format_auction(frame)]
    return "\n".join(line.rstrip() for line in lines)


def _call_lines(frame: pd.DataFrame, has_solos: bool) -> list[str]:
    """The call table of `format_odds` (a row per call and trump suit) and its footnote."""
    a = frame.attrs
    columns = odds_columns(a["variant"], a["first_hand"]) + ((("p_solo", "P(solo won)"),) if has_solos else ())
    strokes = _stroke_settings(a) if a["method"] in jobs.STROKE_METHODS and a["variant"] != "DS" else ()
    lines = [f"{'call':<11}{'trump':<6}{'L':>2}  " + "".join(f"{title:<22}" for _, title in columns)
             + f"{'E[points]':<20}" + "".join(f"{title:<24}" for _, _, title in strokes)]
    closed = "open" in frame and not frame["open"].all()
    for _, r in frame.iterrows():
        call = r["call"] + ("*" if closed and not r["open"] else "")
        lines.append(f"{call:<11}{r['trump']:<6}{int(r['trumps']):>2}  "
                     + "".join(f"{wide_cell(r, key):<22}" for key, _ in columns) + f"{points_cell(r):<20}"
                     + "".join(f"{_signed_cell(r, key, 2):<24}" for key, _, _ in strokes))
    lines.append(f"\n({_odds_note(a)}; {_stroke_note(a)}95% intervals)")
    points, paired = _points_lines(frame), _suit_delta_lines(frame) + _chalk_lines(frame)
    lines += _stroke_distribution_lines(frame) + points + paired
    if points:
        lines.append("\n(quantiles: the team's card points in that share of deals or fewer, with a distribution-free "
                     "interval from order statistics, or the sample's end where too few deals reach 95%"
                     + ("; the differences compare the same deals, Tango's score interval for the suits, Wilson's "
                        "for the chalk)" if paired else ")"))
    if closed:
        lines.append("(* not open to you after the calls before you (§4.5-§4.7): your team plays it only if your "
                     "partner names that suit)")
    return lines


AUCTION_LINES = (
    ("i_choose", "I choose trumps"), ("partner_chooses", "my partner chooses"),
    ("opponent_chooses", "an opponent chooses"), ("throw_in", "throw-in (§4.11)"), ("solo", "a solo is called"),
    ("showdown", "showdown (§4.9)"), ("my_showdown", "  with me in it"), ("win_showdown", "  I win it"))
"""Rows of the auction part's text: estimate and label (the solo row only when some deal had a solo, the throw-in
row only in BS: an AS 4-jack holder bids, AS-5, and DS hands go to the acorn Unter after four passes, DS-5)."""
AUCTION_LABELS = {("DS", "showdown"): "equal bids: suit values (DS-7)"}
"""Labels of `AUCTION_LINES` rows that differ by variant."""


def format_auction(frame: pd.DataFrame) -> list[str]:
    """The text of `odds`' auction part (spec §9.1 Q5, Q6)."""
    a = frame.attrs
    part = a["auction"].rename(columns={"lo": "p_lo", "hi": "p_hi"}).set_index("estimate")  # as `_cell` reads
    policy, mine = jobs.AUCTION_POLICIES[a["policy"]], a.get("my_call")
    if a["variant"] == "DS":
        name, callers = "D0", "every seat calling by policy D0 (spec §9.3: the compulsory bids of DS-4, DS-5)"
    else:
        name = policy.name
        callers = f"every seat calling by policy {jobs.DEFAULT_POLICY}, your seat by {name} ({policy.help})"
    if mine:
        callers = f"your seat making --my-call {mine['call']}, every other seat calling by policy " + \
            ("D0 (spec §9.3: the compulsory bids of DS-4, DS-5)" if a["variant"] == "DS" else jobs.DEFAULT_POLICY)
    lines = [f"Auction (Q5, Q6): the same {a['n']:,} deals, {callers}; {a['chalk']}",
             a["plan"] if mine else f"your call by {name}: {a['plan']}", "", f"{'':<36}{'P':<22}{'n':>7}"]

    def line(label: str, key: str) -> str:
        r = part.loc[key]
        return f"{label:<36}{wide_cell(r, 'p'):<22}{int(r['n']):>7,}"

    shown = [(k, AUCTION_LABELS.get((a["variant"], k), t)) for k, t in AUCTION_LINES
             if (k != "solo" or part.loc["solo", "p"] > 0) and (k != "throw_in" or a["variant"] == "BS")]
    lines += [line(label, key) for key, label in shown]
    lines += [line(f"    at cur {key.removeprefix('win_showdown.cur')}", key)
              for key in part.index if key.startswith("win_showdown.cur")]
    solo = "; a solo: the soloist's side if it takes all 8 tricks, else the other" if part.loc["solo", "p"] > 0 else ""
    lines += [f"my team scores ({_score_words(a)}{solo}) when",
              *(line(f"  {label}", f"score.{key}") for key, label in AUCTION_LINES[:3]),
              line("  whoever chooses (every deal)", "score.all")]
    lines.append("Q6 paired: deals where my partner and I both bid and my team chose, played with each suit"
                 + (f" (mine: the suit of --my-call {mine['call']})" if mine and mine["suit"] else ""))
    if part.loc["paired.diff", "n"]:
        d = part.loc["paired.diff"]
        lines += [line("  my team scores with my suit", "paired.mine"),
                  line("  with my partner's suit", "paired.partner"),
                  f"{'  difference (mine - partner)':<36}{d['p']:+.3f} [{d['p_lo']:+.3f},{d['p_hi']:+.3f}]"
                  f"{int(d['n']):>9,}   ({part.attrs['better']} deals better with mine, {part.attrs['worse']} with "
                  "my partner's)"]
    else:
        lines.append("  none of these deals had both of us bidding: no paired difference (see the rates above)")
    lines.append("\n(n: the deals behind each rate, Wilson 95% intervals; the paired difference has Tango's score "
                 "95% interval, honest when few deals differ. One auction gives one chooser a deal, so 'I choose' and "
                 "'my partner chooses' above are rates over different deals; the paired rows play my suit and my "
                 "partner's on the same deals)")
    return lines


def _score_words(attrs: dict) -> str:
    if attrs["variant"] == "DS":
        return "makers 61, opponents when the makers take 59 or less"
    if attrs["first_hand"] and attrs["variant"] == "AS":
        return "61 in a game's first hand"
    return "42 with the chalk, 79 without"


NO_STROKES = "strokes need the tricks of a play-out: --play greedy or random"
"""Why a table has no E[strokes] columns with --play dd (and PIMC in `odds`): they count card points only."""


def _stroke_note(attrs: dict) -> str:
    """The footnote's words on the stroke columns (spec §9.1 Q2, Q7)."""
    if attrs["variant"] == "DS":
        return ""
    if attrs["method"] not in jobs.STROKE_METHODS:
        return f"{NO_STROKES}; "
    if attrs["first_hand"]:
        chalk = "the club jack's team holding the chalk" if attrs["variant"] == "BS" else "no chalk, 61 winning"
    else:
        chalk = "the chalk at the team or at the other team"
    solo = "an AS Big Solo decides the game" if attrs["variant"] == "AS" else "a solo pays 8 (Small) or 12 (Big)"
    return (f"E[strokes]: strokes the team scores minus the other team's, the normal game with {chalk}; {solo}, "
            "so a solo is worth calling where its E[strokes] beats the normal game's; ")


def _add_odds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--hand", required=True, help='your 8 cards, e.g. "sB hB dB cA cT sK h7 d8" '
                        "(suits c s h d, ranks 7 8 9 B D K T A; 10/J/Q also accepted)")
    parser.add_argument("--seat", default="1", help="your seat 0-3: dealer 0, forehand 1 (default 1)")
    parser.add_argument("--play", default=DEFAULT_PLAY, help="how deals are played: dd, greedy, random or pimc "
                        f"(default {DEFAULT_PLAY}; dd solves each deal, tens per second; pimc about a second a deal)")
    parser.add_argument("--samples", type=counts_up_to(jobs.MAX_PIMC_SAMPLES), default=None,
                        help=f"with --play pimc: sampled deals per card decision, 1-{jobs.MAX_PIMC_SAMPLES} (default "
                             f"{jobs.PIMC_SAMPLES})")
    parser.add_argument("--first-hand", action="store_true", help="the first hand of a game: no solos (§4.7)")
    parser.add_argument("--policy", type=one_of(tuple(jobs.AUCTION_POLICIES)), default=jobs.DEFAULT_POLICY,
                        help="auction policy of your seat in the auction part: " + ", ".join(jobs.AUCTION_POLICIES)
                        + f" (default {jobs.DEFAULT_POLICY}, the other seats' policy)")
    parser.add_argument("--calls", default=None, metavar="CALLS",
                        help="the calls of the seats that spoke before yours, in speaking order (forehand first), "
                             "e.g. \"4,pass\" for seat 3: pass, mit or a number; the deals are then conditioned on "
                             f"those seats making exactly these calls by policy {jobs.DEFAULT_POLICY} (rejection "
                             "sampling; the acceptance rate is shown)")
    parser.add_argument("--my-call", default=None, metavar="CALL",
                        help="your own call in the auction part instead of --policy's: a number and the suit in mind "
                             "('4 s'), 'mit s', 'pass', 'small solo s' or 'big solo s'; it must be legal after "
                             "--calls (needed unless you are forehand); the later seats still call by policy "
                             f"{jobs.DEFAULT_POLICY}")
    parser.add_argument("--chalk", type=one_of(CHALKS), default=None,
                        help="who holds the chalk in the auction part: us (default) or them; not with --first-hand "
                             "(the club jack's team, §6.4) or DS (no chalk)")
    _add_variant_argument(parser)
    add_run_arguments(parser, 2000)


def _add_variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", default="BS", help="rules: BS (Bauernstoss, default), AS (Alter Schoofkopp) "
                        "or DS (Deutscher Schafkopf), spec §7")
    _add_option_argument(parser)


def _add_option_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option, e.g. jack_rule=off or mit_rule=advisory (repeatable; the options and "
                             "their choices: 'cardsim games bauernstoss')")


def _odds_of(args: argparse.Namespace) -> pd.DataFrame:
    check_only_with(["--samples"] if args.samples is not None else [], "--play pimc", args.play == "pimc")
    variant = parse_variant(args.variant)
    if args.first_hand and variant == "DS":
        raise CardsimError("--first-hand bans solos (§4.7) and Deutscher Schafkopf has none (DS-6): drop --first-hand")
    return odds(args.hand, args.seat, args.play, args.n, args.seed, args.first_hand, variant, args.samples,
                parse_rules(args.option, variant), args.policy, args.chalk, args.calls, getattr(args, "my_call", None),
                **run_options(args))


def _run_odds(args: argparse.Namespace) -> int:
    return emit(args, _odds_of(args), odds_json, format_odds)


# --- thresholds -------------------------------------------------------------------------------
def advice(row, variant: str = "BS", solo_p: float = 0.5) -> str:
    """The call the row's probabilities suggest: Big Solo when it wins at least ``solo_p`` of the time double
    dummy (club jack held; the defenders' best defence, the cautious figure; ``solo_p``: `solo_break_even`),
    raise or mit when the team makes 79 without the chalk at least half the time, else bid only when forced
    (§4.4). In BS a player with all four jacks may only call Big Solo or pass (§4.3: the hand is then thrown
    in). DS: bid when the makers take 61 at least half the time (the bid is compulsory from 5 trumps, DS-4, so
    this only tells how good the bid is)."""
    if variant == "DS":
        return "good bid" if row["p61"] >= 0.5 else "weak bid"
    solo = row.get("p_solo_dd", np.nan)
    if solo == solo and solo >= solo_p:
        return "big solo"
    if variant == "BS" and row["jacks"] == 4:
        return "pass (4 jacks: big solo or pass, §4.3)"
    if row["p79"] >= 0.5:
        return "raise / mit"
    if row["p42"] >= 0.5:
        return "bid when forced; mit with the chalk"
    return "pass when allowed"


def shape_cells(points: np.ndarray, min_n: int, min_jacks: int = 1):
    """(jacks ``min_jacks``-4, trumps, points histogram (121,), hands) of every cell of a (5, 9, 121)
    histogram holding at least ``min_n`` hands."""
    for j in range(min_jacks, 5):
        for length in range(9):
            count = int(points[j, length].sum())
            if count >= min_n:
                yield j, length, points[j, length], count


def thresholds(method: str = DEFAULT_PLAY, n: int = 20_000, seed=None, min_n: int = 20, variant: str = "BS",
               rules: tuple = (), solo_p: float | None = None, policy: str = jobs.DEFAULT_POLICY,
               **run_kw) -> pd.DataFrame:
    """P(make) by the forehand's jacks and trumps in its best suit, the forehand's team naming that
    suit and forehand leading (rules of ``variant``, deals played by ``method``; BS/AS hands with
    1-4 jacks, DS hands with 5+ trumps, any jacks).

    Rows with at least ``min_n`` deals: jacks, trumps, n, p42 / p61 / p79 / p89 / p91 / p_le59 with
    Wilson intervals (`level_columns`), mean points, solo_n, p_solo (Big Solo won under ``method``, hands
    with the club jack; not DS) and p_solo_dd (the same solos double dummy), strokes_chalk / strokes_no_chalk
    (greedy or random play: E[strokes] of the normal game), solo_break_even (`solo_break_even`; AS: ``solo_p``,
    pass `as_solo_break_even` of `equity`, the game-level break-even) and advice (`advice`). ``rules``: rule option
    pairs (`parse_rules`): the main table reads those of play and DS's best suit (`TABLE_RULES`), the auction tables
    below the auction's as well (`AUCTION_RULES`).

    ``attrs["jack_value"]``: spec §9.1 Q8 on the same deals (`jobs.JackValueJob`, `jack_value_frame`): by forehand's
    jacks, and for 1-2 jacks by which, P(forehand chooses), P(its partner chooses), P(its team scores) and (greedy
    or random play, BS/AS: `q8_strokes_note`) E[strokes].

    ``attrs["seat_effects"]`` (spec §9.1 Q11, `seat_effects_frame`), ``attrs["jack_seats"]`` (Q8 for every seat
    and pooled over the seats, `jack_seats_frame`) and ``attrs["showdown_low"]`` (Q5, P(win a showdown) by cur and
    the lowest card, `showdown_low_frame`): the same deals with every seat calling by auction ``policy``
    (`jobs.SeatJob`); with b0 its forehand counts give ``attrs["jack_value"]``, which is always b0's.
    """
    jobs.auction_policy(policy)
    checks.whole(min_n, "min_n (the fewest deals a row needs)", 1)
    solo_p = None if solo_p is None else checks.probability(solo_p, "solo_p (the Big Solo break-even)")
    method = parse_play(method)
    variant = parse_variant(variant)
    rules = checked_rules(rules, variant, "thresholds")
    seed = normalize_seed(seed)
    table_rules = tuple((name, value) for name, value in rules if name in TABLE_RULES[variant])
    parts = jobs.ThresholdJob.unpack(runner.run(jobs.ThresholdJob(method, variant, table_rules), n, seed, **run_kw))
    rows = []
    for j, length, hist, count in shape_cells(parts["points"], min_n, 0 if variant == "DS" else 1):
        values = np.arange(jobs.POINT_BINS)
        mean, lo, hi = _mean_lo_hi(int((hist * values).sum()), int((hist * values ** 2).sum()), count)
        row = {"jacks": j, "trumps": length, "n": count}
        row.update(level_columns({f"p{level}": int(hist[level:].sum()) for level in jobs.LEVELS}, count))
        row.update(points=mean, points_lo=lo, points_hi=hi)
        tries = int(parts["solo_tries"][j, length])
        row["solo_n"] = tries
        for key, wins in (("p_solo", "solo_wins"), ("p_solo_dd", "solo_dd_wins")):
            row.update(estimate_columns(key, int(parts[wins][j, length]), tries) if tries else
                       {key: np.nan, f"{key}_lo": np.nan, f"{key}_hi": np.nan})
        for key, hist in zip(STROKE_KEYS, parts["strokes"][:, j, length]):
            row.update(_stroke_columns(key, bs.NUMBER, hist, row, variant) if hist.sum() else
                       {key: np.nan, f"{key}_lo": np.nan, f"{key}_hi": np.nan})
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame["solo_break_even"] = solo_break_even(frame, variant, solo_p)
    frame["advice"] = [advice(r, variant, r["solo_break_even"]) for _, r in frame.iterrows()]
    frame.attrs.update(game=GAME, method=method, n=parts["deals"], seed=seed, variant=variant, rules=rules,
                       solo_p=solo_p, min_n=min_n)
    frame.attrs["policy"] = policy
    seats = jobs.SeatJob.unpack(runner.run(jobs.SeatJob(method, variant, rules, policy), n, seed, **run_kw))
    if policy == jobs.DEFAULT_POLICY:  # the same deals, auctions and play as JackValueJob's: its counts
        counts = seats["jacks"][jobs.FOREHAND][:, [jobs.SEAT_JACK_STATS.index(k) for k in jobs.JACK_STATS]]
    else:
        value = jobs.JackValueJob(method, variant, rules)
        counts = value.unpack(runner.run(value, n, seed, **run_kw))
    frame.attrs["jack_value"] = jack_value_frame(counts, min_n, q8_strokes_note(method, variant) is None)
    frame.attrs["seat_effects"] = seat_effects_frame(seats)
    frame.attrs["jack_seats"] = jack_seats_frame(seats, min_n, q8_strokes_note(method, variant, seats["solos"]) is None)
    frame.attrs["showdown_low"] = showdown_low_frame(seats, min_n, variant)
    return frame


JACK_VALUE_ESTIMATES = (("p_choose", "me", "P(I choose)"), ("p_partner", "partner", "P(partner chooses)"),
                        ("p_score_chalk", "score_chalk", "P(score) chalk"),
                        ("p_score_no_chalk", "score_no_chalk", "P(score) no chalk"))
"""Columns of `jack_value_frame`: estimate, count of `jobs.JACK_STATS` and title."""
Q8_STROKE_COLUMNS = (("strokes_chalk", "E[strokes] chalk"), ("strokes_no_chalk", "E[strokes] no chalk"))
"""E[strokes] columns of the Q8 tables (spec §9.1 Q8; `STROKE_KEYS`, the sums `jobs.STROKE_STATS`) and titles."""


def q8_strokes_note(method: str, variant: str, solos: int = 0) -> str | None:
    """None when the Q8 tables give E[strokes] (play by a method of `jobs.STROKE_METHODS`, BS or AS), else the
    footnote's words on why not, as part A and `odds` word it: "" in DS (no strokes of §6.2), `NO_STROKES` with
    --play dd, and for an AS table whose deals had ``solos`` (a Big Solo decides the game, AS-10)."""
    if variant == "DS":
        return ""
    if method not in jobs.STROKE_METHODS:
        return NO_STROKES
    if variant == "AS" and solos:
        return "no E[strokes]: an AS Big Solo decides the game (AS-10)"
    return None


def _mean_columns(key: str, total: int, squares: int, n: int) -> dict:
    """{key, key_lo, key_hi}: the mean of n values from their sum and sum of squares, with its normal 95% interval."""
    return dict(zip((key, f"{key}_lo", f"{key}_hi"), _mean_lo_hi(total, squares, n)))


def jack_value_groups() -> list[tuple[int, str, list[int]]]:
    """The rows of `jack_value_frame`: (jacks 0-4, which: "any" or the jacks held, e.g. "cB sB", the forehand
    `jobs.jack_mask` values counted), each jack count in all and, for 1 and 2 jacks, each set of jacks."""
    groups = []
    for jacks in range(5):
        held = list(itertools.combinations(range(4), jacks))  # highest jacks first: cB sB, cB hB, ...
        groups.append((jacks, "any", [sum(1 << s for s in suits) for suits in held]))
        if jacks in (1, 2):
            groups += [(jacks, " ".join(f"{bs.DECK.suits[s]}B" for s in suits), [sum(1 << s for s in suits)])
                       for suits in held]
    return groups


def jack_value_frame(counts: np.ndarray, min_n: int = 20, strokes: bool = False) -> pd.DataFrame:
    """Spec §9.1 Q8 from `jobs.JackValueJob` counts (JACK_MASKS, JACK_STATS): per `jack_value_groups` row with at
    least ``min_n`` deals, jacks, which, n and Wilson estimates of `JACK_VALUE_ESTIMATES` (p, _lo, _hi); with
    ``strokes`` also `Q8_STROKE_COLUMNS`: E[strokes per deal] with a normal 95% interval (a throw-in counts 0)."""
    stats = dict(zip(jobs.JACK_STATS, counts.T))
    rows = []
    for jacks, which, masks in jack_value_groups():
        n = int(stats["deals"][masks].sum())
        if n >= max(min_n, 1):
            row = {"jacks": jacks, "which": which, "n": n}
            for key, count, _ in JACK_VALUE_ESTIMATES:
                row.update(estimate_columns(key, int(stats[count][masks].sum()), n))
            for key, _ in Q8_STROKE_COLUMNS if strokes else ():
                row.update(_mean_columns(key, int(stats[key][masks].sum()), int(stats[f"{key}_sq"][masks].sum()), n))
            rows.append(row)
    return pd.DataFrame(rows)


def solo_break_even(frame: pd.DataFrame, variant: str, game_level: float | None = None) -> pd.Series:
    """Per `thresholds` row the P(Big Solo won) from which `advice` calls one. BS: spec Q7's stroke-EV break-even
    p* = 1/2 + D/24 (Big Solo ±12), D = the normal game's E[strokes], with the chalk at the team or at the other
    team, whichever is larger (the cautious p*); 1/2 where the play gives no strokes (dd). AS: ``game_level``
    (`as_solo_break_even`; the solo decides the game, AS-10), else 1/2. DS: NaN (no solos)."""
    if variant == "DS" or frame.empty:
        return pd.Series(np.nan, index=frame.index, dtype=float)
    if variant == "AS":
        return pd.Series(0.5 if game_level is None else game_level, index=frame.index)
    normal = frame[list(STROKE_KEYS)].max(axis=1)  # NaN with dd, which counts no strokes
    return (0.5 + normal / (2 * bs.SOLO_STROKES[bs.BIG_SOLO])).fillna(0.5)


def thresholds_json(frame: pd.DataFrame) -> dict:
    a = frame.attrs
    rows = []
    for _, r in frame.iterrows():
        entry = {"jacks": int(r["jacks"]), "trumps": int(r["trumps"]), "n": int(r["n"]),
                 "points": {"mean": r["points"], "lo": r["points_lo"], "hi": r["points_hi"]},
                 "solo_n": int(r["solo_n"]), "advice": r["advice"]}
        if r["solo_break_even"] == r["solo_break_even"]:
            entry["solo_break_even"] = r["solo_break_even"]
        for key in PROBABILITIES:
            if _triple(r, key) is not None:
                entry[key] = _triple(r, key)
        strokes = {name: {"mean": r[key], "lo": r[f"{key}_lo"], "hi": r[f"{key}_hi"]}
                   for key, name in zip(STROKE_KEYS, ("chalk", "no_chalk")) if r.get(key, np.nan) == r.get(key, np.nan)}
        if strokes:
            entry["strokes"] = strokes
        rows.append(entry)
    return {"game": GAME, "variant": a["variant"], "play": a["method"], "n": a["n"], "seed": a["seed"],
            "options": dict(a.get("rules", ())), "rows": rows, "jack_value": jack_value_json(a["jack_value"]),
            "seat_effects": seat_effects_json(a["seat_effects"], a["policy"]),
            "jack_seats": jack_seats_json(a["jack_seats"]), "showdown_low": showdown_low_json(a["showdown_low"])}


def jack_value_json(table: pd.DataFrame) -> list[dict]:
    """The Q8 rows of `thresholds` (`jack_value_frame`) as [{"jacks", "which", "n", estimate: {"p", "lo", "hi"},
    "strokes_chalk"?, "strokes_no_chalk"?: {"mean", "lo", "hi"}}] (`q8_strokes_json`)."""
    return [{"jacks": int(r["jacks"]), "which": r["which"], "n": int(r["n"]),
             **{key: _triple(r, key) for key, _, _ in JACK_VALUE_ESTIMATES}, **q8_strokes_json(r)}
            for _, r in table.iterrows()]


def q8_strokes_json(row) -> dict:
    """{"strokes_chalk", "strokes_no_chalk": {"mean", "lo", "hi"}} of a Q8 table row; {} for a table without them
    (`q8_strokes_note`)."""
    return {key: {"mean": row[key], "lo": row[f"{key}_lo"], "hi": row[f"{key}_hi"]}
            for key, _ in Q8_STROKE_COLUMNS if key in row}


def format_thresholds(frame: pd.DataFrame) -> str:
    a = frame.attrs
    ds, dd = a["variant"] == "DS", a["method"] == "dd"
    solo_columns = (("p_solo", "P(big solo)"),) if dd else \
        (("p_solo", "P(big solo) greedy"), ("p_solo_dd", "P(big solo) dd"))
    columns = COLUMNS[a["variant"]] + (() if ds else solo_columns)
    solos = "solved double dummy" if dd else \
        "played greedily and solved double dummy (dd: the defenders see every card)"
    strokes = not ds and a["method"] in jobs.STROKE_METHODS
    lines = [f"{VARIANT_NAMES[a['variant']]} bidding thresholds{rules_note(a.get('rules', ()))}: forehand names its "
             f"best suit, {a['n']:,} deals (seed {a['seed']}),",
             f"normal games {PLAY_HELP[a['method']]}" + ("; hands with 5+ trumps (DS-3)" if ds else
                                                          f"; Big Solo {solos}, hands with the club jack"), "",
             f"{'J':>2}{'L':>3}{'n':>8}" + ("" if ds else f"{'solo n':>8}") + "  "
             + "".join(f"{title:<22}" for _, title in columns) + (f"{'E[strokes] chalk / no':<26}" if strokes else "")
             + ("" if ds else f"{'p* solo':<9}") + "advice"]
    for _, r in frame.iterrows():
        solo_n = "" if ds else f"{int(r['solo_n']):>8}"
        lines.append(f"{int(r['jacks']):>2}{int(r['trumps']):>3}{int(r['n']):>8}{solo_n}  "
                     + "".join(f"{wide_cell(r, key):<22}" for key, _ in columns)
                     + (f"{_strokes_pair(r):<26}" if strokes else "") + ("" if ds else f"{r['solo_break_even']:<9.3f}")
                     + r["advice"])
    note = "" if ds else ("; big solo when P(big solo) double dummy >= p* solo, the cautious figure, as greedy "
                          "defenders defend weakly, and real ones see less than double dummy; "
                          + _solo_rule(a["variant"], a["solo_p"], strokes))
    if strokes:
        note += ("; E[strokes]: the normal game's strokes for forehand's team minus the other team's, with the chalk "
                 "at the team / at the other team, ± the half-width of the 95% interval")
    lines.append(f"\n(J = forehand's jacks, L = trumps in its best suit; {NOTES[a['variant']]}{note})")
    return "\n".join(line.rstrip() for line in lines + ["", *format_jack_value(frame), "", *format_jack_seats(frame),
                                                         "", *format_seat_effects(frame),
                                                         "", *format_showdown_low(frame)])


def format_jack_value(frame: pd.DataFrame) -> list[str]:
    """The text of `thresholds`' Q8 table (`jack_value_frame`), DS with one score column (no chalk, DS-13)."""
    a, table = frame.attrs, frame.attrs["jack_value"]
    ds = a["variant"] == "DS"
    columns = [(key, "P(team scores)" if ds and key == "p_score_chalk" else title)
               for key, _, title in JACK_VALUE_ESTIMATES if not (ds and key == "p_score_no_chalk")]
    policy = "D0 (§9.3, the compulsory bids of DS-4, DS-5)" if ds else "b0 (§9.3)"
    strokes = _q8_strokes_shown(table)
    lines = [f"Q8 what are forehand's jacks worth? The same {a['n']:,} deals, every seat calling by policy {policy}, "
             "the contract played as above", "", f"{'J':>2}  {'jacks':<8}{'n':>8}  " + _q8_head(columns, strokes)]
    lines += [f"{int(r['jacks']):>2}  {r['which']:<8}{int(r['n']):>8}  " + _q8_cells(r, columns, strokes)
              for _, r in table.iterrows()]
    scoring = "the makers 61, the opponents when the makers take 59 or less (DS-9)" if ds else \
        "42 with the chalk, 79 without: P(score) with the chalk at forehand's team / at the other team"
    throw_in = "" if a["variant"] != "BS" else "; four jacks must pass (b0 calls no Big Solo): a throw-in, no score"
    lines.append(f"\n(J = forehand's jacks, jacks = which it holds; my team scores: {scoring}{throw_in}; "
                 f"Wilson 95% intervals{_q8_strokes_words(a, 'forehand', q8_strokes_note(a['method'], a['variant']))}; "
                 f"rows with fewer than {a['min_n']} deals left out)")
    return lines


def _q8_strokes_shown(table: pd.DataFrame) -> tuple:
    """The `Q8_STROKE_COLUMNS` a Q8 table (`jack_value_frame`, `jack_seats_frame`) has."""
    return tuple(column for column in Q8_STROKE_COLUMNS if column[0] in table)


def _q8_head(columns: list, strokes: tuple) -> str:
    """The title cells of a Q8 table: the shares' (``columns``: key, title), then the E[strokes] columns'."""
    return "".join(f"{title:<22}" for _, title in columns) + "".join(f"{title:<21}" for _, title in strokes)


def _q8_cells(row, columns: list, strokes: tuple) -> str:
    """A Q8 table row's estimate cells under `_q8_head`: 'p [lo,hi]' shares, then '+0.41±0.05' strokes."""
    return "".join(f"{wide_cell(row, key):<22}" for key, _ in columns) + \
        "".join(f"{_plus_minus_cell(row, key):<21}" for key, _ in strokes)


def _q8_strokes_words(attrs: dict, team: str, missing: str | None, solos: int = 0) -> str:
    """The Q8 footnotes' words on E[strokes] (`q8_strokes_note` ``missing``: the words on why there are none), with
    ``team`` whose team's strokes they are; ``solos``: deals with a solo, whose stakes then count."""
    if missing is not None:
        return f"; {missing}" if missing else ""
    zero = "; a throw-in counts 0" if attrs["variant"] == "BS" else ""
    solo = "; a solo ±8 (Small) or ±12 (Big), §6.3" if solos else ""
    schneider, schwarz = ("89", "4 schwarz, AS-4") if attrs["variant"] == "AS" else ("91", "3 schwarz")
    return (f"; E[strokes]: strokes {team}'s team scores minus the other team's (§6.2: 1, 2 from {schneider}, "
            f"{schwarz}{zero}{solo}), with the chalk at the team / at the other team, ± the half-width of the 95% "
            "interval")


def _solo_rule(variant: str, game_level: float | None, strokes: bool) -> str:
    """The footnote's words on p* solo (`solo_break_even`)."""
    if variant == "AS":
        return ("p* = 1/2, AS's game-level break-even needs part B" if game_level is None else
                f"p* = {game_level:.3f} = W({AS_SOLO_SCORE[0]}, {AS_SOLO_SCORE[1]}) of part B with the chalk at "
                "forehand's team and the other team dealing, an early score of a level game (AS-10: the solo "
                "decides the game, so p* is the game's value)")
    if not strokes:
        return "p* = 1/2: --play dd counts card points, not the strokes that spec Q7's p* = 1/2 + D/24 needs"
    return ("p* = 1/2 + D/24, spec Q7's stroke-EV break-even of a Big Solo (±12), D = the row's E[strokes] of the "
            "normal game with the chalk where it is larger (the cautious p*)")


def _strokes_pair(row) -> str:
    """"+0.43±0.07 / -0.79±0.06": E[strokes] with the chalk at the team and at the other team."""
    return " / ".join(_plus_minus_cell(row, key) for key in STROKE_KEYS)


def _plus_minus_cell(row, key: str) -> str:
    """"+0.43±0.07": estimate ``key`` of a frame row, signed, and the half-width of its 95% interval (_lo, _hi); "—"
    for NaN, the estimate alone without an interval (one hand)."""
    value, half = row[key], (row[key + "_hi"] - row[key + "_lo"]) / 2
    return "—" if value != value else f"{value:+.2f}" + ("" if half != half else f"±{half:.2f}")


def _hand_count(text: str) -> int:
    """argparse type of --equity-hands: a whole number from 0 (0 skips part B) to MAX_COUNT."""
    value = whole_number(text)
    if not 0 <= value <= MAX_COUNT:
        raise argparse.ArgumentTypeError(f"expected a whole number from 0 (0 skips part B) to {MAX_COUNT:.0e}, "
                                         f"got '{text}'")
    return value


def _add_thresholds_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--play", default=DEFAULT_PLAY, help=f"dd, greedy or random (default {DEFAULT_PLAY})")
    _add_variant_argument(parser)
    parser.add_argument("--equity-hands", type=_hand_count, default=None, metavar="N",
                        help="self-play hands behind part B, who wins from here (default: as many as --n; 0 skips "
                             "part B)")
    parser.add_argument("--policy", type=one_of(tuple(jobs.AUCTION_POLICIES)), action=NotedStore, default=None,
                        help="auction policy at every seat of the Q8-by-seat and Q11 seat-effects tables and of "
                             "part B's self-play: " + ", ".join(jobs.AUCTION_POLICIES) + " (default b0)")
    add_run_arguments(parser, 20_000)


def _thresholds_parts(args: argparse.Namespace) -> tuple[pd.DataFrame, dict | None, tuple]:
    """(part A `thresholds`, part B `equity` or None with --equity-hands 0, the --option pairs), under one seed.
    Every argument is checked before either part runs; the options against what the two parts read
    (`MODELLED_RULES`), each part given those it reads. AS's Big Solo advice uses part B (`as_solo_break_even`)."""
    variant = parse_variant(args.variant)
    method = parse_play(args.play)
    hands = args.n if args.equity_hands is None else args.equity_hands
    if variant == "DS" and args.policy not in (None, jobs.DEFAULT_POLICY):
        raise CardsimError(f"in Deutscher Schafkopf {DS_FIXED_CALLS}, so --policy {args.policy} plays as D0: "
                           "drop --policy")
    rules = checked_rules(option_items(args.option), variant, ("thresholds", "equity") if hands else "thresholds")
    seed = normalize_seed(args.seed)
    tables = equity(variant, hands, seed, args.policy or "b0", _rules_read(rules, "equity", variant),
                    **run_options(args)) if hands else None
    frame = thresholds(method, args.n, seed, variant=variant, rules=_rules_read(rules, "thresholds", variant),
                       solo_p=as_solo_break_even(tables) if tables and variant == "AS" else None,
                       policy=args.policy or jobs.DEFAULT_POLICY, **run_options(args))
    return frame, tables, rules


def _rules_read(rules: tuple, command: str, variant: str) -> tuple:
    """The option pairs of ``rules`` that ``command`` reads under ``variant`` (`MODELLED_RULES`)."""
    return tuple((name, value) for name, value in rules if name in MODELLED_RULES[command][variant])


def _run_thresholds(args: argparse.Namespace) -> int:
    return emit(args, _thresholds_parts(args), _thresholds_json, _thresholds_text)


def _thresholds_text(parts: tuple) -> str:
    frame, tables, _ = parts
    text = format_thresholds(frame)
    return text if tables is None else \
        f"{text}\n\n{equity_dp.format_equity(tables, rules_note(tables['equity'].attrs['rules']))}"


def _thresholds_json(parts: tuple) -> dict:
    """`thresholds_json` of part A with every option given and "equity" (`bauernstoss_equity.equity_json`; null
    when skipped)."""
    frame, tables, rules = parts
    return {**thresholds_json(frame), "options": dict(rules),
            "equity": None if tables is None else equity_dp.equity_json(tables)}


def equity(variant: str = "BS", hands: int = 20_000, seed=None, policy: str = "b0", rules: tuple = (),
           replicates: int = equity_dp.REPLICATES, **run_kw) -> dict[str, pd.DataFrame]:
    """Who wins from here (spec §9.1 Q10, and Q7, Q9 at game level): ``hands`` self-play hands of ``variant``
    (auction ``policy`` of `jobs.AUCTION_POLICIES` at every seat, greedy play, `jobs.EquityJob`) give the
    per-hand stroke outcomes, and `bauernstoss_equity.equity_tables` the DataFrames "equity" (W(a, b) by chalk
    and next dealer), "first_hand", "chalk" and "solo", each value with a 95% bootstrap interval
    (``replicates`` redraws). ``rules``: rule option pairs of the self-play (`MODELLED_RULES`["equity"])."""
    jobs.auction_policy(policy)
    variant = parse_variant(variant)
    rules = checked_rules(rules, variant, "equity")
    hands = checks.whole(hands, "hands (self-play hands)")
    replicates = checks.whole(replicates, "replicates (bootstrap redraws)", 1)
    if hands < 2:
        raise CardsimError(f"part B needs at least 2 self-play hands (one later hand, one first hand); got {hands} "
                           "(--equity-hands 0 skips it)")
    seed = normalize_seed(seed)
    counts = jobs.EquityJob.unpack(runner.run(jobs.EquityJob(policy, variant, rules), hands, seed, **run_kw))
    tables = equity_dp.equity_tables(counts, variant, seed, policy, replicates)
    for table in tables.values():
        table.attrs["rules"] = rules
    return tables


AS_SOLO_SCORE = (1, 1)
"""The score of `as_solo_break_even`: early and level, and a later hand (where a solo may be called, §4.7)
starts there with the chalk at either team, as it never does at 0-0 (`bauernstoss_equity.reachable`)."""


def as_solo_break_even(tables: dict[str, pd.DataFrame]) -> float:
    """AS's game-level Big Solo break-even for `thresholds`' forehand (seat 1, seat 0 dealing) from `equity` tables:
    p* = W(1, 1) (AS-10: the solo decides the game), the chalk at forehand's team and the other team dealing."""
    solo = tables["solo"].set_index(["solo", "a", "b", "chalk", "deals"]).p
    return float(solo[("big", *AS_SOLO_SCORE, "us", "them")])


def _thresholds_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Part A's estimates named ``<jacks>.<trumps>.<estimate>``, e.g. ``2.5.p42``, its Q8 table's (`jack_value_long`),
    its Q11 and Q8-by-seat tables' (`seat_effects_long`), its Q5 table's (`showdown_low_long`), and unless
    --equity-hands 0 part B's ``equity.*`` (`bauernstoss_equity.equity_long`), e.g. ``equity.W.10.10.us``."""
    frame, tables, _ = _thresholds_parts(args)
    long = pd.concat([estimates_long(frame, ["jacks", "trumps"]), jack_value_long(frame.attrs["jack_value"]),
                      seat_effects_long(frame), showdown_low_long(frame.attrs["showdown_low"])], ignore_index=True)
    return long if tables is None else pd.concat([long, equity_dp.equity_long(tables)], ignore_index=True)


def jack_value_long(table: pd.DataFrame) -> pd.DataFrame:
    """The Q8 table (`jack_value_frame`) as sweep estimates ``q8.<jacks>.<which>.<estimate>``, e.g.
    ``q8.1.any.p_choose``, ``q8.2.cB_sB.p_score_chalk``, ``q8.3.any.strokes_chalk`` (the mean, where the table has
    E[strokes])."""
    named = table.assign(which=table["which"].str.replace(" ", "_"))
    keys = [key for key, _, _ in JACK_VALUE_ESTIMATES] + [key for key, _ in _q8_strokes_shown(table)]
    return pd.concat([long_frame(named, ["jacks", "which"], "q8", value=key, lo=f"{key}_lo", hi=f"{key}_hi")
                      .assign(estimate=lambda f, k=key: f["estimate"] + "." + k) for key in keys], ignore_index=True)


# --- seat effects (spec §9.1 Q11) and every seat's jacks (Q8) ------------------------------------
SPEAKING_ORDER = (1, 2, 3, 0)
"""Seats as they speak (§4.2): forehand first, the dealer last."""
SEAT_ROLES = {1: "forehand", 2: "speaks 2nd", 3: "speaks 3rd", 0: "dealer"}
SEAT_ESTIMATES = (("p_choose", "P(chooses trumps)", "choose", None),
                  ("p_score_if_choose_chalk", "P(score | chooses) chalk", "score_choose_chalk", "choose"),
                  ("p_score_if_choose_no_chalk", "P(score | chooses) no chalk", "score_choose_no_chalk", "choose"),
                  ("p_score_chalk", "P(team scores) chalk", "score_chalk", None),
                  ("p_score_no_chalk", "P(team scores) no chalk", "score_no_chalk", None),
                  ("p_showdown", "P(in a showdown)", "showdown", None),
                  ("p_showdown_won", "P(wins a showdown)", "showdown_won", None),
                  ("p_won_if_showdown", "P(wins | in a showdown)", "showdown_won", "showdown"))
"""Columns of `seat_effects_frame`: estimate, title, count of `jobs.SEAT_STATS` and its denominator (None: every
deal). The estimates over every deal are paired with forehand's on the same deals (``d_`` columns)."""
PAIRED_KEYS = {stat: key for key, _, stat, base in SEAT_ESTIMATES if base is None}
"""`jobs.PAIRED_STATS` -> the `SEAT_ESTIMATES` key of that estimate."""
JACK_SEAT_ESTIMATES = (("p_choose", "me", "P(I choose)"), ("p_partner", "partner", "P(partner chooses)"),
                       ("p_team", "team", "P(team chooses)"), ("p_score_chalk", "score_chalk", "P(score) chalk"),
                       ("p_score_no_chalk", "score_no_chalk", "P(score) no chalk"))
"""Columns of `jack_seats_frame`: estimate, count of `jobs.SEAT_JACK_STATS` and title."""


def seat_effects_frame(parts: dict) -> pd.DataFrame:
    """Spec §9.1 Q11 from `jobs.SeatJob` counts (`jobs.SeatJob.unpack`): one row per seat in speaking order with
    seat, role, n (deals) and per `SEAT_ESTIMATES` key the estimate, its Wilson interval (_lo, _hi) and its n (_n:
    the deals, or those where the seat chose / was in a showdown); for the estimates over every deal d_<key>,
    d_<key>_lo, d_<key>_hi: the seat's minus forehand's on the same deals with Tango's paired interval
    (`paired_difference`; NaN for forehand). attrs: deals, throw_in and showdown (any seat) {"p", "lo", "hi"},
    solos."""
    n = parts["deals"]
    stats = {name: parts["seats"][:, k] for k, name in enumerate(jobs.SEAT_STATS)}
    rows = []
    for seat in SPEAKING_ORDER:
        row = {"seat": seat, "role": SEAT_ROLES[seat], "n": n}
        for key, _, stat, base in SEAT_ESTIMATES:
            trials = n if base is None else int(stats[base][seat])
            row.update(estimate_columns(key, int(stats[stat][seat]), trials) if trials else
                       {key: np.nan, f"{key}_lo": np.nan, f"{key}_hi": np.nan})
            row[f"{key}_n"] = trials
        for k, stat in enumerate(jobs.PAIRED_STATS):
            key = PAIRED_KEYS[stat]
            d = (np.nan,) * 3 if seat == jobs.FOREHAND else paired_difference(*map(int, parts["paired"][seat, k]), n)
            row.update({f"d_{key}": d[0], f"d_{key}_lo": d[1], f"d_{key}_hi": d[2]})
        rows.append(row)
    frame = pd.DataFrame(rows)
    frame.attrs.update(deals=n, solos=parts["solos"], throw_in=Estimate(parts["throw_ins"], n).as_dict(),
                       showdown=Estimate(parts["showdowns"], n).as_dict())
    return frame


def jack_seats_frame(parts: dict, min_n: int = 20, strokes: bool = False) -> pd.DataFrame:
    """Spec §9.1 Q8 for every seat from `jobs.SeatJob` counts: per seat ("all": the four seats' hands of each deal
    pooled, the seat average the spec's §9.3 figures give; then 1, 2, 3, 0) and `jack_value_groups` row with at
    least ``min_n`` hands: seat, jacks, which, n (hands) and per `JACK_SEAT_ESTIMATES` key the estimate and its 95%
    interval, Wilson for one seat and, pooled, Wilson at the effective size with the deals as clusters
    (`ratio_share`: the four hands of a deal are not independent); with ``strokes`` also `Q8_STROKE_COLUMNS`,
    E[strokes per hand] (a throw-in counts 0) with a normal 95% interval for one seat and, pooled, the deal-clustered
    ratio estimator's (`ratio_mean`)."""
    counts = parts["jacks"]
    column = {name: k for k, name in enumerate(jobs.SEAT_JACK_STATS)}
    rows = []
    for seat in ("all",) + SPEAKING_ORDER:
        for jacks, which, masks in jack_value_groups():
            cells = counts[:, masks].sum(axis=(0, 1)) if seat == "all" else counts[seat, masks].sum(axis=0)
            n = int(cells[column["deals"]])
            if n < max(min_n, 1):
                continue
            row = {"seat": seat, "jacks": jacks, "which": which, "n": n}
            pooled = _pooled_sums(parts, jacks if which == "any" else 5 + masks[0])
            for key, stat, _ in JACK_SEAT_ESTIMATES:
                hits = int(cells[column[stat]])
                row.update(estimate_columns(key, hits, n) if seat != "all" else
                           _columns(key, ratio_share(hits, n, *pooled[stat], parts["deals"]), "p"))
            for key, _ in Q8_STROKE_COLUMNS if strokes else ():
                total = int(cells[column[key]])
                row.update(_mean_columns(key, total, int(cells[column[f"{key}_sq"]]), n) if seat != "all" else
                           _columns(key, ratio_mean(total, n, *pooled[key], parts["deals"]), "mean"))
            rows.append(row)
    return pd.DataFrame(rows)


def _pooled_sums(parts: dict, group: int) -> dict[str, tuple[int, int, int]]:
    """{stat of `jobs.POOLED_STATS`: (Σ s², Σ t², Σ s·t)} over the deals of pooled group ``group``
    (`jobs.SeatJob`): the sums `ratio_share` and `ratio_mean` take after the total and the hands."""
    sums = [int(v) for v in parts["pooled"][group]]
    return {stat: (sums[1 + 2 * k], sums[0], sums[2 + 2 * k]) for k, stat in enumerate(jobs.POOLED_STATS)}


def _columns(key: str, estimate: dict, value: str) -> dict:
    """{key, key_lo, key_hi} of an estimate dict whose ``value`` entry is the estimate and "lo", "hi" its interval."""
    return {key: estimate[value], f"{key}_lo": estimate["lo"], f"{key}_hi": estimate["hi"]}


def seat_effects_json(frame: pd.DataFrame, policy: str) -> dict:
    """`seat_effects_frame` as {"policy", "n", "throw_in", "showdown", "solos", "seats": [{"seat", "role", "n",
    estimate: {"p", "lo", "hi", "n"}, "vs_forehand": {estimate: {"d", "lo", "hi"}} (not forehand's)}]}."""
    a = frame.attrs
    seats = []
    for _, r in frame.iterrows():
        entry = {"seat": int(r["seat"]), "role": r["role"], "n": int(r["n"])}
        for key, _, _, _ in SEAT_ESTIMATES:
            entry[key] = {"p": r[key], "lo": r[f"{key}_lo"], "hi": r[f"{key}_hi"], "n": int(r[f"{key}_n"])}
        if r["seat"] != jobs.FOREHAND:
            entry["vs_forehand"] = {key: {"d": r[f"d_{key}"], "lo": r[f"d_{key}_lo"], "hi": r[f"d_{key}_hi"]}
                                    for key in PAIRED_KEYS.values()}
        seats.append(entry)
    return {"policy": policy, "n": a["deals"], "throw_in": a["throw_in"], "showdown": a["showdown"],
            "solos": a["solos"], "seats": seats}


def jack_seats_json(table: pd.DataFrame) -> list[dict]:
    """`jack_seats_frame` rows as [{"seat": "all" or 0-3, "jacks", "which", "n", estimate: {"p", "lo", "hi"},
    "strokes_chalk"?, "strokes_no_chalk"?: {"mean", "lo", "hi"}}] (`q8_strokes_json`)."""
    return [{"seat": r["seat"] if r["seat"] == "all" else int(r["seat"]), "jacks": int(r["jacks"]),
             "which": r["which"], "n": int(r["n"]), **{key: _triple(r, key) for key, _, _ in JACK_SEAT_ESTIMATES},
             **q8_strokes_json(r)} for _, r in table.iterrows()]


def _policy_words(policy: str, variant: str) -> str:
    return "D0 (§9.3, the compulsory bids of DS-4, DS-5)" if variant == "DS" else \
        f"{policy} ({jobs.AUCTION_POLICIES[policy].help})"


SHOWDOWN_WORDS = {"BS": "tied top bids of both teams decided by the lowest card, the earlier speaker winning equal "
                         "ones (§4.9; partners alone agree, no showdown)",
                  "AS": "tied top bids decided by the lowest card, the earlier speaker winning equal ones (§4.9), "
                        "partners too (AS-6)",
                  "DS": "equal top bids decided by the suits' total values, the earlier speaker winning equal ones "
                        "(DS-7), partners too"}
"""What the Q11 table's showdowns are, by variant."""


def format_seat_effects(frame: pd.DataFrame) -> list[str]:
    """The text of `thresholds`' Q11 table (`seat_effects_frame`): the estimates by seat in speaking order, then
    each seat's difference to forehand on the same deals."""
    a, table = frame.attrs, frame.attrs["seat_effects"]
    ds = a["variant"] == "DS"
    keys = [(key, title) for key, title, _, _ in SEAT_ESTIMATES if not (ds and "no_chalk" in key)]
    if ds:
        keys = [(key, title.replace(" chalk", "")) for key, title in keys]
    width = 29
    head = f"{'':<{width}}" + "".join(f"{f'seat {s} {SEAT_ROLES[s]}':<24}" for s in table["seat"])
    lines = [f"Q11 seat effects: the same {a['n']:,} deals, every seat calling by policy "
             f"{_policy_words(a['policy'], a['variant'])}, the contract played as above; every deal gives every "
             "seat's outcome", "", head]
    for key, title in keys:
        lines.append(f"{title:<{width}}" + "".join(f"{wide_cell(r, key):<24}" for _, r in table.iterrows()))
    lines.append(f"{'n (deals where it chose)':<{width}}"
                 + "".join(f"{int(r['p_score_if_choose_chalk_n']):<24,}" for _, r in table.iterrows()))
    lines += ["", f"{'minus forehand (same deals)':<{width}}" + "".join(
        f"{f'seat {s} {SEAT_ROLES[s]}':<24}" for s in table["seat"] if s != jobs.FOREHAND)]
    for key, title in keys:
        if key not in PAIRED_KEYS.values():
            continue
        lines.append(f"{title:<{width}}" + "".join(
            ("same team" if key.startswith("p_score") and r["seat"] % 2 == jobs.FOREHAND % 2 else
             f"{r[f'd_{key}']:+.3f} [{r[f'd_{key}_lo']:+.3f},{r[f'd_{key}_hi']:+.3f}]").ljust(24)
            for _, r in table.iterrows() if r["seat"] != jobs.FOREHAND))
    scoring = "the makers 61, the opponents when they take 59 or less (DS-9)" if ds else \
        "42 with the chalk, 79 without: with the chalk at the seat's team / at the other team"
    throw, show = table.attrs["throw_in"], table.attrs["showdown"]
    solos = f"; solos called in {table.attrs['solos']:,} deals" if table.attrs["solos"] else ""
    showdown = SHOWDOWN_WORDS.get(a["variant"], SHOWDOWN_WORDS["BS"])
    lines.append(f"\n(its team scores: {scoring}; seats 1 and 3, 0 and 2 are partners, so their team rows agree; "
                 f"a showdown: {showdown}; throw-ins "
                 f"{format_cell(throw)}, deals with a showdown {format_cell(show)}{solos}; Wilson 95% intervals, "
                 "differences with Tango's paired 95% interval)")
    return lines


def format_jack_seats(frame: pd.DataFrame) -> list[str]:
    """The text of `thresholds`' Q8-by-seat table (`jack_seats_frame`): every row pooled over the seats ("all"),
    and the rows by jack count for each seat (the JSON holds every seat's rows by which jacks)."""
    a, table = frame.attrs, frame.attrs["jack_seats"]
    ds = a["variant"] == "DS"
    columns = [(key, "P(team scores)" if ds and key == "p_score_chalk" else title)
               for key, _, title in JACK_SEAT_ESTIMATES if not (ds and key == "p_score_no_chalk")]
    strokes = _q8_strokes_shown(table)
    lines = [f"Q8 by seat: every seat's hand on the same {a['n']:,} deals, policy "
             f"{_policy_words(a['policy'], a['variant'])}; seat all = the four seats pooled (the seat average)", "",
             f"{'J':>2}  {'jacks':<8}{'seat':<6}{'n':>8}  " + _q8_head(columns, strokes)]
    shown = table[(table["seat"] == "all") | (table["which"] == "any")] if not table.empty else table
    order = {seat: k for k, seat in enumerate(("all",) + SPEAKING_ORDER)}
    shown = shown.assign(_order=[order[s] for s in shown["seat"]]).sort_values(["jacks", "_order"], kind="stable") \
        if not shown.empty else shown
    last = None
    for _, r in shown.iterrows():
        if last is not None and r["jacks"] != last:
            lines.append("")
        last = r["jacks"]
        lines.append(f"{int(r['jacks']):>2}  {r['which']:<8}{str(r['seat']):<6}{int(r['n']):>8}  "
                     + _q8_cells(r, columns, strokes))
    solos = a["seat_effects"].attrs["solos"]
    words = _q8_strokes_words(a, "the hand", q8_strokes_note(a["method"], a["variant"], solos), solos)
    lines.append(f"\n(seat all: n counts hands, four a deal, and the intervals treat the deals as clusters{words}; "
                 f"rows by which jacks per seat in --json; rows with fewer than {a['min_n']} hands left out)")
    return lines


def seat_effects_long(frame: pd.DataFrame) -> pd.DataFrame:
    """The Q11 and Q8-by-seat tables as sweep estimates: ``q11.<seat>.<estimate>``, ``q11.<seat>.d_<estimate>``
    (minus forehand), ``q11.throw_in``, ``q11.showdown`` and ``q8s.<seat>.<jacks>.<which>.<estimate>``, e.g.
    ``q11.0.p_choose``, ``q8s.all.1.any.p_choose``, ``q8s.all.2.any.strokes_chalk`` (where the table has E[strokes])."""
    table, a = frame.attrs["seat_effects"], frame.attrs["seat_effects"].attrs
    rows = [(f"q11.{name}", a[name]["p"], a[name]["lo"], a[name]["hi"], a["deals"])
            for name in ("throw_in", "showdown")]
    for _, r in table.iterrows():
        seat = int(r["seat"])
        for key, _, _, _ in SEAT_ESTIMATES:
            if r[f"{key}_n"]:
                rows.append((f"q11.{seat}.{key}", r[key], r[f"{key}_lo"], r[f"{key}_hi"], int(r[f"{key}_n"])))
        if seat != jobs.FOREHAND:
            rows += [(f"q11.{seat}.d_{key}", r[f"d_{key}"], r[f"d_{key}_lo"], r[f"d_{key}_hi"], int(r["n"]))
                     for key in PAIRED_KEYS.values()]
    keys = [key for key, _, _ in JACK_SEAT_ESTIMATES] + [key for key, _ in _q8_strokes_shown(frame.attrs["jack_seats"])]
    for _, r in frame.attrs["jack_seats"].iterrows():
        name = f"q8s.{r['seat']}.{int(r['jacks'])}.{r['which'].replace(' ', '_')}"
        rows += [(f"{name}.{key}", r[key], r[f"{key}_lo"], r[f"{key}_hi"], int(r["n"])) for key in keys]
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


# --- showdowns by the lowest card (spec §9.1 Q5) -------------------------------------------------
SHOWDOWN_LOW_ESTIMATES = (("p_win", "n", None, "P(wins showdown)"), ("p_bid", "n_bid", 0, "P(wins | bid cur)"),
                          ("p_mit", "n_mit", 1, "P(wins | said mit)"))
"""Columns of `showdown_low_frame`: estimate, its count column, whose showdowns (None: all; 0: the first bidder of
cur, who announces first; 1: the later ones, who said mit) and title."""
SHOWDOWN_LOW_COLUMNS = ["cur", "low", "low_name"] + [c for key, n, _, _ in SHOWDOWN_LOW_ESTIMATES
                                                     for c in (n, key, f"{key}_lo", f"{key}_hi")]
SHOWDOWN_LOW_NOTES = {"DS": "Q5 showdowns by the lowest card: none in DS, where DS-7 settles equal bids by the suits' "
                            "total values"}
"""The one-line note that stands for the Q5 table in a variant without lowest-card showdowns."""


def showdown_low_frame(parts: dict, min_n: int = 20, variant: str = "BS") -> pd.DataFrame:
    """Spec §9.1 Q5 from `jobs.SeatJob` counts: every player in a showdown (BS: tied at cur with an opponent, §4.8;
    AS-6: any tie), one row per (cur, low) holding one, low his lowest trump of the suit in mind (§1.2 scale, 0 = a
    7); per `SHOWDOWN_LOW_ESTIMATES` the count and the share who named trumps with its Wilson interval (NaN below
    ``min_n``). No rows in DS (`SHOWDOWN_LOW_NOTES`). attrs: min_n, players (all cells' n), won, note."""
    counts = parts["showdown_low"]
    shown = variant not in SHOWDOWN_LOW_NOTES
    rows = []
    for cur, low in zip(*np.nonzero(counts[..., 0].sum(axis=2))) if shown else ():
        row = {"cur": int(cur), "low": int(low), "low_name": bs.SCALE_NAMES[low]}
        for key, count, who, _ in SHOWDOWN_LOW_ESTIMATES:
            n, won = (int(x) for x in (counts[cur, low].sum(axis=0) if who is None else counts[cur, low, who]))
            row[count] = n
            row.update(estimate_columns(key, won, n) if n >= max(min_n, 1) else
                       {key: np.nan, f"{key}_lo": np.nan, f"{key}_hi": np.nan})
        rows.append(row)
    frame = pd.DataFrame(rows, columns=SHOWDOWN_LOW_COLUMNS)
    frame.attrs.update(min_n=min_n, players=int(counts[..., 0].sum()) if shown else 0,
                       won=int(counts[..., 1].sum()) if shown else 0, note=SHOWDOWN_LOW_NOTES.get(variant, ""))
    return frame


def showdown_low_json(table: pd.DataFrame) -> dict:
    """`showdown_low_frame` as {"players", "won", "min_n", "note", "rows": [{"cur", "low", "low_name", "n", "n_bid",
    "n_mit", estimate: {"p", "lo", "hi"} or null (too few)}]}."""
    rows = [{"cur": int(r["cur"]), "low": int(r["low"]), "low_name": r["low_name"],
             **{count: int(r[count]) for _, count, _, _ in SHOWDOWN_LOW_ESTIMATES},
             **{key: _triple(r, key) for key, _, _, _ in SHOWDOWN_LOW_ESTIMATES}} for _, r in table.iterrows()]
    return {**{k: table.attrs[k] for k in ("players", "won", "min_n", "note")}, "rows": rows}


def format_showdown_low(frame: pd.DataFrame) -> list[str]:
    """The text of `thresholds`' Q5 table (`showdown_low_frame`), or its one-line note."""
    a, table = frame.attrs, frame.attrs["showdown_low"]
    if table.attrs["note"]:
        return [f"{table.attrs['note']}."]
    tie = "tied at cur, partners too (AS-6)" if a["variant"] == "AS" else "tied at cur with an opponent (§4.8)"
    lines = [f"Q5 will my bid win the trump choice? Every player in a showdown on the same {a['n']:,} deals, policy "
             f"{_policy_words(a['policy'], a['variant'])}, by the winning bid cur and low, his lowest trump of the "
             "suit in mind (§1.2)", "",
             f"{'cur':>3}  {'low':<6}" + "".join(f"{'n' if count == 'n' else count.replace('_', ' '):>7}  {title:<22}"
                                                 for _, count, _, title in SHOWDOWN_LOW_ESTIMATES)]
    last = None
    for _, r in table.iterrows():
        if last is not None and r["cur"] != last:
            lines.append("")
        last = r["cur"]
        lines.append(f"{int(r['cur']):>3}  {r['low_name']:<6}" + "".join(
            f"{int(r[count]):>7}  "
            f"{wide_cell(r, key) if r[count] >= a['min_n'] else 'too few' if r[count] else '—':<22}"
            for key, count, _, _ in SHOWDOWN_LOW_ESTIMATES))
    lines.append(f"\n(a showdown: {tie}; the highest lowest card names trumps, the earlier speaker on equal ones "
                 f"(§4.9); bid cur: the first to bid it, who announces first; said mit: joined it later; "
                 f"{table.attrs['players']:,} players in showdowns, {table.attrs['won']:,} won (the Q11 rows' sums); "
                 f"Wilson 95% intervals; too few: under {a['min_n']} players)")
    return lines


def showdown_low_long(table: pd.DataFrame) -> pd.DataFrame:
    """The Q5 table as sweep estimates ``q5.<cur>.<low>.<estimate>``, e.g. ``q5.4.2.p_win`` (cells with too few
    players left out)."""
    rows = [(f"q5.{int(r['cur'])}.{int(r['low'])}.{key}", r[key], r[f"{key}_lo"], r[f"{key}_hi"], int(r[count]))
            for _, r in table.iterrows() for key, count, _, _ in SHOWDOWN_LOW_ESTIMATES if r[key] == r[key]]
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


# --- match ------------------------------------------------------------------------------------
def _strokes_per_deal(s: dict, side: str) -> dict:
    """Strokes ``side`` ("a" or "b") scored per deal: total strokes over total deals, with the duplicate pairs as
    clusters (a game's deals share its score, a pair's two games their deals; `ratio_mean`) and a Student-t 95%
    interval on pairs - 1 degrees of freedom, as a few pairs estimate the spread poorly (the normal interval at
    2 pairs covered about 60%). One pair gives no interval (NaN)."""
    pairs = s["pairs"]
    z = student_t95(pairs - 1) if pairs > 1 else Z95
    r = ratio_mean(s[f"{side}_strokes"], s["deals"], s[f"{side}_sq"], s["deals_sq"], s[f"{side}_deals"], pairs, z)
    return {"mean": r["mean"], "lo": r["lo"], "hi": r["hi"]}


def _check_ds_policies(a: str, b: str, variant: str) -> None:
    """CardsimError for two different auction policies in DS, where they cannot differ (`DS_FIXED_CALLS`)."""
    if variant == "DS" and a != b:
        raise CardsimError(f"in Deutscher Schafkopf {DS_FIXED_CALLS}, so {a} and {b} both play D0 and a match cannot "
                           "tell them apart; compare them with --variant BS or AS, or give one policy twice")


def match(a: str, b: str, games: int = 200, seed=None, rules: tuple = (), variant: str = "BS", **run_kw) -> dict:
    """Auction policies ``a`` and ``b`` (names of `jobs.AUCTION_POLICIES`) in duplicate pairs of games of
    ``variant`` (BS to 20 strokes, AS to 15, DS to 9) with greedy card play: ``games`` rounded up to pairs, each
    deal sequence played twice with the teams swapped. DS refuses two different policies (`_check_ds_policies`).
    Returns {"games", "pairs", "deals", "games_won" (games won in all: more than "games" when a DS schwarz
    earns a game on top, DS-10), "seed", "a"/"b": {"policy", "win_rate": {"p", "lo", "hi"} (the side's share of
    the games won, Wilson at the effective number of games the duplicate pairs give, `ratio_share`),
    "points_per_deal": strokes scored per deal {"mean", "lo", "hi"} (`_strokes_per_deal`)}, "options": {name:
    value} of ``rules`` (`parse_rules`)}."""
    jobs.auction_policy(a), jobs.auction_policy(b)
    variant = parse_variant(variant)
    _check_ds_policies(a, b, variant)
    rules = checked_rules(rules, variant, "match")
    games = checks.whole(games, "the number of games", 1)
    pairs = -(-games // 2)
    seed = normalize_seed(seed)
    job = jobs.MatchJob(a, b, rules, variant)
    s = dict(zip(jobs.MATCH_STATS, (int(v) for v in runner.run(job, pairs, seed, **run_kw))))
    s["pairs"] = pairs
    return {"game": GAME, "variant": variant, "games": 2 * pairs, "pairs": pairs, "deals": s["deals"],
            "games_won": s["a_wins"] + s["b_wins"], "seed": seed,
            "a": {"policy": a, "win_rate": _win_share(s, "a", "b"), "points_per_deal": _strokes_per_deal(s, "a")},
            "b": {"policy": b, "win_rate": _win_share(s, "b", "a"), "points_per_deal": _strokes_per_deal(s, "b")},
            "options": dict(rules)}


def _win_share(s: dict, side: str, other: str) -> dict:
    """``side``'s share of the games won, the pairs as clusters, with a Wilson interval at the effective size
    (`ratio_share`; a pair has two games won unless a DS schwarz earned more)."""
    wins, sq, cross = s[f"{side}_wins"], s[f"{side}_wins_sq"], s["ab_wins"]
    share = ratio_share(wins, wins + s[f"{other}_wins"], sq, sq + 2 * cross + s[f"{other}_wins_sq"], sq + cross,
                        s["pairs"])
    return {"p": share["p"], "lo": share["lo"], "hi": share["hi"]}


def _interval_text(estimate: dict, mean: str) -> str:
    """"0.679 [0.652,0.706]", or "0.679 (one pair: no interval)"."""
    if estimate["lo"] != estimate["lo"]:
        return f"{estimate[mean]:.3f} (one pair: no interval)"
    return f"{estimate[mean]:.3f} [{estimate['lo']:.3f},{estimate['hi']:.3f}]"


def format_match(result: dict) -> str:
    variant = result.get("variant", "BS")
    lines = [f"{VARIANT_NAMES[variant]} match: {result['games']} games to {bs.TARGETS[variant]} strokes "
             f"({result['pairs']} duplicate pairs, "
             f"{result['deals']:,} deals, seed {result['seed']}), greedy card play"
             + rules_note(tuple(result.get("options", {}).items())), ""]
    for side in ("a", "b"):
        r = result[side]
        lines.append(f"{side}: {r['policy']:<11} wins {_interval_text(r['win_rate'], 'p')}   strokes per deal "
                     + _interval_text(r["points_per_deal"], "mean"))
    if result["games_won"] != result["games"]:
        lines.append(f"\n(wins: shares of the {result['games_won']} games won, each schwarz earning a game on top of "
                     "the game played, DS-10)")
    lines.append("\npolicies: " + "; ".join(f"{p.name}: {p.help}" for p in jobs.AUCTION_POLICIES.values()))
    return "\n".join(lines)


def _add_match_arguments(parser: argparse.ArgumentParser) -> None:
    names = ", ".join(jobs.AUCTION_POLICIES)
    parser.add_argument("--a", required=True, help=f"auction policy of side a: {names}")
    parser.add_argument("--b", required=True, help=f"auction policy of side b: {names}")
    _add_variant_argument(parser)
    add_run_arguments(parser, 200, "games")
    add_games_alias(parser, "; rounded up to duplicate pairs")


def _match_of(args: argparse.Namespace) -> dict:
    variant = parse_variant(args.variant)
    return match(args.a, args.b, args.n, args.seed, parse_rules(args.option, variant), variant, **run_options(args))


def _run_match(args: argparse.Namespace) -> int:
    return emit(args, _match_of(args), lambda r: r, format_match)


def _match_frame(args: argparse.Namespace) -> pd.DataFrame:
    """Estimates ``a.win_rate``, ``a.strokes_per_deal`` and the same for b (n: games, and deals for strokes)."""
    result = _match_of(args)
    rows = []
    for side in ("a", "b"):
        w, p = result[side]["win_rate"], result[side]["points_per_deal"]
        rows += [(f"{side}.win_rate", w["p"], w["lo"], w["hi"], result["games"]),
                 (f"{side}.strokes_per_deal", p["mean"], p["lo"], p["hi"], result["deals"])]
    return pd.DataFrame(rows, columns=LONG_COLUMNS)


register_command("odds", GAME, Command("chances of each call and trump suit of a hand", _add_odds_arguments, _run_odds,
                                       _odds_frame))
register_command("thresholds", GAME, Command("P(make) by jacks and trump length: when to bid, mit or solo",
                                             _add_thresholds_arguments, _run_thresholds, _thresholds_frame))
register_command("match", GAME, Command("auction policies against each other in duplicate games",
                                        _add_match_arguments, _run_match, _match_frame))
