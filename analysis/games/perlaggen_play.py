"""Perlaggen trick play: the double-dummy ``solve`` command and Spiel odds as DataFrames.

Command line::

    cardsim solve perlaggen --deal "HK L9 E8 SA S9 / ... / ... / ..." --trump L [--style eichel] [--json]
    cardsim odds perlaggen --hand "S6 LA LK L8 E10" --turnup L10 --spiel dd

Python API::

    from analysis.games.perlaggen_play import spiel_odds
    frame = spiel_odds("S6 LA LK L8 E10", seat=1, turnup="L10", method="greedy", n=20_000, seed=7)

The four hands are seats 0-3 with the dealer at seat 0, so seat 1 (team 1 = team O) leads trick 1.
A Perlagg in a line is written ``S7->LA``: the Perlagg S7 baptised as the trump Ace when played.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping

import pandas as pd

from analysis.commands import Command, decimal_number, emit, none_fit, one_of, register_command
from analysis.games.giltspiel_play import add_pimc_arguments, solve_lines
from analysis.games.giltspiel_play import pimc_options as giltspiel_pimc_options
from analysis.solving import parse_deal, parse_trump
from analysis.stats import estimate_frame, format_cell
from simcore import checks, runner
from simcore.errors import CardsimError, did_you_mean, unknown_name
from simcore.figures import RELATIVE_OUTCOMES
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_pimc as pimc
from simcore.games import perlaggen_play as play
from simcore.rng import normalize_seed

GAME = "perlaggen"
OUTCOMES = ("win", "lose")
SPIEL_METHODS = {"dd": "solved double dummy (all four seats play perfectly, seeing every hand)",
                 "greedy": "played out by the greedy policy G1 of spec §11.7 at every seat",
                 "random": "played out by the random policy R0 of spec §11.7 at every seat",
                 "g2": "played out by policy G2 of spec §11.7 (G1 keeping its Perlaggen for the figures) "
                       "at every seat"}


def play_token(card: int, identity: int) -> str:
    """'LA' for a natural card, 'S7->LA' for a Perlagg baptised as another card."""
    token = P.DECK.token(card)
    return token if identity == card else f"{token}->{P.DECK.token(identity)}"


# --- solve ------------------------------------------------------------------------------------
def solve(deal: str, trump: str, style: str = "innsbruck") -> dict:
    """Double-dummy result of one deal: {"style", "trump", "perlaggen", "hands", "spiel_team",
    "tricks": [team 0, team 1] (each forcible out of 5 if all were played), "line": [(seat, card,
    identity tokens), ...] to the Spiel, "winners": the seat winning each trick of the line}."""
    hands = parse_deal(deal, P.DECK, D.HAND_SIZE, D.SEATS)
    suit = parse_trump(trump, P.DECK)
    D.DealRules(style)  # CardsimError for a style that is not a four-player game
    if not P.has_weli(style) and any((int(h) >> P.WELI) & 1 for h in hands):
        raise CardsimError(f"--deal: the {style} style plays without the Weli (S6); leave it out")
    P.perlaggen(style, P.DECK.suits[suit])  # CardsimError for a trump the style does not allow
    line = play.optimal_line(hands, suit, style)
    return {
        "style": style,
        "trump": P.DECK.suits[suit],
        "perlaggen": P.DECK.format_cards(P.perlaggen(style, P.DECK.suits[suit])),
        "hands": [P.DECK.format_cards(P.DECK.cards_of(h)) for h in hands],
        "spiel_team": int(play.spiel_teams(hands[None, :], [suit], style)[0]),
        "tricks": list(play.forced_tricks(hands, suit, style)),
        "line": [(seat, P.DECK.token(card), P.DECK.token(identity)) for seat, card, identity in line],
        "winners": play.trick_winners_of(line, suit, style),
    }


def solve_json(result: dict) -> dict:
    return {"game": GAME, "style": result["style"], "trump": result["trump"], "spiel_team": result["spiel_team"],
            "tricks": result["tricks"], "line": [list(play_) for play_ in result["line"]],
            "winners": result["winners"]}


def format_solve(result: dict) -> str:
    name = P.DECK.suit_names[P.DECK.suits.index(result["trump"])]
    lines = [f"Perlaggen ({result['style']}) double dummy: trump {result['trump']} ({name}), dealer seat 0, "
             "seat 1 leads",
             f"Perlaggen, highest precedence first: {result['perlaggen']}"]
    plays = [(seat, card if card == identity else f"{card}->{identity}") for seat, card, identity in result["line"]]
    return "\n".join(lines + solve_lines(result, plays, "optimal line (X->Y: Perlagg X baptised as Y):"))


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='four hands for seats 0-3 separated by "/", dealer at seat 0 so seat 1 leads, '
                             'e.g. "HK L9 E8 SA S9 / S6 LA EK H9 H8 / LU E10 SK S8 H10 / E7 L8 EA HA S10"')
    parser.add_argument("--trump", required=True, help="trump suit: E, L, H or S")
    parser.add_argument("--style", default="innsbruck", type=one_of(D.FOUR_PLAYER_STYLES),
                        help="which cards are Perlaggen (four-player styles; default Innsbruck)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    return emit(args, solve(args.deal, args.trump, args.style), solve_json, format_solve)


# --- Spiel odds -------------------------------------------------------------------------------
def spiel_frames(known: D.Known, rules: D.DealRules, method: str, n: int, seed, pimc_options=None,
                 conditions=D.NO_CONDITIONS, **run_kw) -> tuple:
    """(outcome frame, by-feature frame) of the Spiel for the team of ``known.seat`` on ``n`` deals
    sampled under the public facts and ``conditions`` (D._meets; not with PIMC); seed already normalised.
    method "pimc" plays
    ``pimc_options["n"]`` deals (default `PIMC_DEALS`) instead, with its "samples" and
    "communication", and has no by-feature rows; method "g2" reads ``pimc_options["concede"]``
    (G2's concession threshold, default 0: never), see `pimc_options`.

    outcome rows: figure "spiel", outcome win/lose, p, lo, hi (95% Wilson), successes, n.
    by-feature rows: feature (team's Perlaggen, natural trumps, Perlaggen above all of the
    opponents'), value, p = P(win | value), lo, hi, successes, n (deals with that value).
    """
    pimc.check_method(method)
    if not isinstance(known, D.Known) or not isinstance(rules, D.DealRules):
        raise CardsimError(f"known and rules must be a perlaggen_deal.Known and DealRules (analysis.games.perlaggen."
                           f"parse_known gives the first), got {type(known).__name__} and {type(rules).__name__}")
    pimc_options = _checked_spiel_options(method, pimc_options)
    seed = normalize_seed(seed)
    if method == PIMC:
        for named, flag in ((len(conditions), "--given"), (known.held, "--known")):
            if named:
                raise CardsimError(f"{flag} does not condition the PIMC Spiel (its players sample their own deals); "
                                   f"use --spiel dd, greedy, g2 or random with {flag}")
        options = pimc_settings(pimc_options or {})
        job = pimc.PimcSpielJob(known, rules, options["samples"], options["communication"])
        n = options["n"]
    else:
        job = play.SpielJob(known, rules, method, concede=(pimc_options or {}).get("concede", 0.0),
                            conditions=conditions)
    counts = runner.run(job, n, seed, **run_kw)
    deals, wins = int(counts[0]), int(counts[1])
    if deals == 0:
        raise none_fit(n, "fits these public facts")
    outcome = estimate_frame(OUTCOMES, [wins, deals - wins], deals, figure="spiel").rename(columns={"label": "outcome"})
    rows = []
    for f, feature in enumerate(play.FEATURES if method != PIMC else ()):
        base = 2 + 2 * play.BINS * f
        dealt, won = counts[base:base + play.BINS], counts[base + play.BINS:base + 2 * play.BINS]
        for value in range(play.BINS):
            if dealt[value]:
                est = estimate_frame(["win"], [won[value]], int(dealt[value])).iloc[0]
                rows.append({"feature": feature, "value": value, "p": est["p"], "lo": est["lo"], "hi": est["hi"],
                             "successes": int(won[value]), "n": int(dealt[value])})
    return outcome[["figure", "outcome", "p", "lo", "hi", "successes", "n"]], pd.DataFrame(rows)


PIMC = "pimc"
PIMC_DEALS = 1_000
"""Deals of a Perlaggen PIMC Spiel estimate unless told (half-width at most 0.031): its solves are slow."""


def pimc_settings(options: dict) -> dict:
    """{"n", "samples", "communication"} of a PIMC Spiel estimate, defaults filled in and checked."""
    out = {"n": options.get("n", PIMC_DEALS), "samples": options.get("samples", pimc.DEFAULT_SAMPLES),
           "communication": options.get("communication", "none")}
    pimc.check_samples(out["samples"])
    pimc.communication_code(out["communication"])
    return out


def pimc_options(args: argparse.Namespace) -> dict:
    """Options of the Spiel method from the command line: the PIMC settings for --spiel pimc,
    {"concede": threshold} for --spiel g2 with --concede-below, else None (CardsimError for an option
    the method does not use)."""
    play.check_concede(args.concede_below, args.spiel or "none")
    settings = giltspiel_pimc_options(args)
    if args.spiel == PIMC:
        return settings
    return {"concede": args.concede_below} if args.concede_below else None


def add_spiel_arguments(parser: argparse.ArgumentParser) -> None:
    """--spiel, the PIMC options and G2's --concede-below of ``cardsim odds perlaggen``."""
    parser.add_argument("--spiel", default=None, type=one_of(play.METHODS + (PIMC,)),
                        help="also the Spiel: solved double dummy (dd; about 4,000 deals/s on one core: 20,000 deals "
                             "take about 5 s), played by a policy: greedy (G1), g2 (G2) or random (R0), or by "
                             "PIMC players with imperfect information (pimc; see --pimc-deals)")
    add_pimc_arguments(parser, pimc.DEFAULT_SAMPLES, PIMC_DEALS)
    parser.add_argument("--concede-below", type=decimal_number, default=0.0, metavar="P",
                        help="with --spiel g2: a team gives the Spiel up (and loses it) when one of its players, "
                             "at a trick boundary, estimates its P(win) below P from what it sees (default 0: "
                             "never)")


RUN_KEYWORDS = ("jobs", "chunk_deals", "checkpoint", "progress")
KNOWN_KEYWORDS = ("cutter_took", "exchanges", "acorns", "exchange", "stopper")
"""`spiel_odds`'s further keywords: the runner's and analysis.games.perlaggen.parse_known's."""


def spiel_odds(hand: str, seat: int = 1, turnup: str | None = None, trump: str | None = None,
               method: str = "dd", n: int = 2_000, seed=None, style: str = "innsbruck", concede: float = 0.0,
               **known_kw) -> pd.DataFrame:
    """P(the team of ``seat`` wins / loses the Spiel) holding ``hand``, over deals of the hidden cards
    consistent with the public facts (analysis.games.perlaggen.parse_known's keywords: cutter_took,
    exchanges, acorns, exchange, stopper; run keywords such as jobs, checkpoint, progress go to the
    runner). method: "dd", "greedy" (G1), "g2" (G2) or "random" (R0), see SPIEL_METHODS; concede: G2's
    concession threshold (see simcore.games.perlaggen_play.play_out). The attrs hold the by-feature
    table as ``by_feature`` records."""
    from analysis.games.perlaggen import parse_known

    if method not in play.METHODS:  # PIMC goes through `add_spiel` (cardsim odds perlaggen --spiel pimc)
        raise unknown_name("Spiel method", method, play.METHODS, or_else="add_spiel(frame, 'pimc') for PIMC")
    run_kw = {k: known_kw.pop(k) for k in list(known_kw) if k in RUN_KEYWORDS}
    for name in known_kw:
        checks.one_of(name, "spiel_odds keyword", KNOWN_KEYWORDS + RUN_KEYWORDS)
    known = parse_known(hand, seat, turnup, trump, style=style, **known_kw)
    rules = D.DealRules(style, known_kw.get("exchange", "always"))
    seed = normalize_seed(seed)
    play.check_concede(concede, method)
    frame, features = spiel_frames(known, rules, method, n, seed, {"concede": concede} if method == "g2" else None,
                                   **run_kw)
    frame.attrs.update(game=GAME, method=method, concede=concede, n=int(frame.n.iloc[0]), attempted=n, seed=seed,
                       seat=known.seat, team=known.seat % 2, style=style, hand=P.DECK.format_cards(known.hand),
                       trump=P.DECK.suits[known.trump], by_feature=features.to_dict("records"))
    return frame


def add_spiel(frame: pd.DataFrame, method: str, pimc_options=None, **run_kw) -> pd.DataFrame:
    """The figure odds ``frame`` of analysis.games.perlaggen.odds with the Spiel rows appended
    (figure "spiel", outcomes win/lose), computed under the same public facts, rules, n and seed;
    attrs gain "spiel" (the method) and "spiel_by_feature" (records, see `spiel_frames`)."""
    from analysis.games.perlaggen import parse_given, parse_known

    if not isinstance(frame, pd.DataFrame) or "hand" not in frame.attrs or "attempted" not in frame.attrs:
        raise CardsimError(f"frame must be the figure odds DataFrame of analysis.games.perlaggen.odds, got "
                           f"{checks.shown(frame)}")
    pimc.check_method(method)
    pimc_options = _checked_spiel_options(method, pimc_options)
    a = frame.attrs
    known = parse_known(a["hand"], a["seat"], a["turnup"], a["trump"], a["cutter_took"] or None,
                        tuple(a["exchanges"]), a["acorns"] or None, a["style"], a["exchange"], a["stopper"],
                        held=a.get("known"))
    rules = D.DealRules(a["style"], a["exchange"], a["exchange_gives"])
    outcome, features = spiel_frames(known, rules, method, a["attempted"], a["seed"], pimc_options,
                                     parse_given(a.get("given", ()), a["seat"]), **run_kw)
    attrs = dict(a)
    out = pd.concat([frame, outcome], ignore_index=True)
    out.attrs.update(attrs, spiel=method, spiel_by_feature=features.to_dict("records"),
                     concede=(pimc_options or {}).get("concede", 0.0))
    if method == PIMC:
        settings = pimc_settings(pimc_options or {})
        out.attrs.update(pimc=dict(settings, n=int(outcome.n.iloc[0]), attempted=settings["n"]))
    return out


SPIEL_OPTION_KEYS = {PIMC: ("n", "samples", "communication"), "g2": ("concede",)}
"""The keys of `add_spiel`'s ``pimc_options`` each Spiel method reads (the others read none)."""


def _checked_spiel_options(method: str, options) -> dict | None:
    """``options`` of the Spiel ``method`` (None, or a dict of the keys `SPIEL_OPTION_KEYS` gives it); CardsimError for
    another type or a key the method does not read, which would be ignored (the CLI refuses those flags too)."""
    if options is None:
        return None
    allowed = SPIEL_OPTION_KEYS.get(method, ())
    if not isinstance(options, Mapping):
        raise CardsimError(f"pimc_options must be a dict such as {{'samples': 4, 'n': 1000}} (pimc) or "
                           f"{{'concede': 0.2}} (g2), got {checks.shown(options)}")
    for key in options:
        if key not in allowed:
            reads = f"reads only {', '.join(allowed)}" if allowed else "reads none"
            raise CardsimError(f"pimc_options {key!r}: the Spiel method {method!r} {reads}"
                               f"{did_you_mean(key, allowed) if isinstance(key, str) else ''}")
    if "concede" in options:
        play.check_concede(options["concede"], method)
    return dict(options)


def spiel_lines(frame: pd.DataFrame) -> list[str]:
    """Text lines of the Spiel row of an odds frame (columns win, stand, lose, void) and its note."""
    rows = frame[frame.figure == "spiel"].set_index("outcome")
    cells = "".join(f"{format_cell(rows.loc[o]) if o in rows.index else '-':>26}" for o in RELATIVE_OUTCOMES)
    how = SPIEL_METHODS[frame.attrs["spiel"]] if frame.attrs["spiel"] != PIMC else pimc_note(frame.attrs["pimc"])
    if frame.attrs.get("concede"):
        how += (f"; a team gives the Spiel up (and loses it) when a player's estimate of its P(win), at a trick "
                f"boundary, is below {frame.attrs['concede']:g}")
    return [f"{'Spiel':<8}{cells}",
            f"(Spiel: n = {int(rows.n.iloc[0]):,} deals, every one {how}; seat 1 leads; "
            "the Spiel has no stand or void)"]


def pimc_note(settings: dict) -> str:
    """How the PIMC Spiel row was played, for the note under the odds table."""
    sees = "own and partner's hand" if settings["communication"] == "partner" else "own hand"
    return (f"played out by PIMC at every seat (a sample of its own, --pimc-deals {settings['attempted']:,} "
            f"tried): {settings['samples']} sampled deals per decision, each solved double dummy for every "
            f"candidate play; a player sees its {sees}, the public facts and the play")


register_command("solve", GAME, Command("double-dummy Spiel of a Perlaggen deal with all hands known",
                                        _add_solve_arguments, _run_solve))
