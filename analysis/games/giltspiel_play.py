"""Giltspiel trick play: the double-dummy ``solve`` command and Spiel odds as a DataFrame.

Command line::

    cardsim solve giltspiel --deal "HA HK HO E7 E8 / LA ... / ... / ..." --trump H [--json]
    cardsim solve giltspiel --deal "..." --turnup H8 --option perlique=true    # §8: the trump's 7, U, O wild

Python API::

    from analysis.games.giltspiel_play import spiel_odds
    frame = spiel_odds("HA HK LA SA E9", seat=1, turnup="H7", method="dd", n=20_000, seed=7)

The four hands are seats 0-3 with the dealer at seat 0, so seat 1 (team 1) leads trick 1.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
import pandas as pd

from analysis.commands import (Command, add_option_argument, check_only_with, command_options, counts_up_to, emit,
                               one_of, register_command, sample_count)
from analysis.solving import parse_deal, parse_trump
from analysis.stats import estimate_frame
from simcore import checks, runner
from simcore.errors import CardsimError, unknown_name
from simcore.games import giltspiel as g
from simcore.games import giltspiel_perlique as perlique_play
from simcore.games import giltspiel_perlique_pimc as perlique_pimc
from simcore.games import giltspiel_pimc as pimc
from simcore.games import giltspiel_play as play
from simcore.rng import normalize_seed

GAME = "giltspiel"
OUTCOMES = ("win", "lose")


# --- solve ------------------------------------------------------------------------------------
def solve(deal: str, trump: str | None = None, turnup: str | None = None, perlique: bool = False,
          perlique_tie: str = "wild") -> dict:
    """Double-dummy result of one deal: {"trump", "hands", "spiel_team", "tricks": [team 0, team 1]
    (each forcible out of 5 if all were played), "line": [(seat, token), ...] to the Spiel,
    "winners": the seat winning each trick of the line}.

    trump: the trump suit, or turnup: the turned-up card (its suit is trump); perlique: the §8 variant with the
    trump's 7, Unter and Ober wild in play (`simcore.games.giltspiel_perlique`; needs ``turnup``, which no wild may
    copy), a wild's play shown as "HO=HA" (the card, then the card it is declared as); perlique_tie as the option.
    """
    hands = parse_deal(deal, g.DECK, g.HAND_SIZE, g.SEATS)
    perlique = checks.flag(perlique, "perlique")
    perlique_play.checked_tie(perlique_tie, perlique)
    suit, card = _solve_trump(hands, trump, turnup, perlique)
    if perlique:
        line = perlique_play.optimal_line(hands, card, perlique_tie)
        shown = [(seat, g.DECK.token(c) + ("" if c == i else "=" + g.DECK.token(i))) for seat, c, i in line]
        return _solve_result(hands, suit, perlique_play.spiel_teams(hands[None, :], [card], perlique_tie)[0],
                             perlique_play.forced_tricks(hands, card, perlique_tie), shown,
                             perlique_play.trick_winners(line, card, perlique_tie), turnup=card,
                             perlique_tie=perlique_tie)
    line = play.optimal_line(hands, suit)
    return _solve_result(hands, suit, play.spiel_teams(hands[None, :], [suit])[0], play.forced_tricks(hands, suit),
                         [(seat, g.DECK.token(c)) for seat, c in line], play.trick_winners_of(line, suit), turnup=card)


def _solve_trump(hands: np.ndarray, trump: str | None, turnup: str | None, perlique: bool) -> tuple[int, int | None]:
    """(trump suit, turn-up card or None) of `solve`'s arguments; CardsimError where they are missing or clash."""
    if turnup is None:
        if perlique:
            raise CardsimError("the Perlique (option perlique) need the turn-up, which no wild may copy: give "
                               "--turnup CARD (its suit is trump) in place of --trump")
        if trump is None:
            raise CardsimError("give the trump: --trump SUIT, or --turnup CARD (its suit is trump)")
        return parse_trump(trump, g.DECK), None
    card = g.DECK.parse_cards(turnup, "--turnup")
    if len(card) != 1:
        raise CardsimError(f"--turnup '{turnup}' must be one card, e.g. H8")
    card = card[0]
    if (int(np.bitwise_or.reduce(hands)) >> card) & 1:
        raise CardsimError(f"--turnup {g.DECK.token(card)} is in a hand of --deal: the turn-up belongs to no hand; "
                           "give another card")
    if trump is not None and parse_trump(trump, g.DECK) != card // g.N_RANKS:
        raise CardsimError(f"--trump {trump} and --turnup {g.DECK.token(card)} disagree: the turn-up's suit is "
                           "trump; give one of them")
    return card // g.N_RANKS, card


def _solve_result(hands, suit, team, tricks, line, winners, **extra) -> dict:
    return {"trump": g.DECK.suits[suit], "hands": [g.DECK.format_cards(g.DECK.cards_of(h)) for h in hands],
            "spiel_team": int(team), "tricks": [int(t) for t in tricks], "line": line, "winners": winners,
            **{k: v for k, v in extra.items() if v is not None}}


def solve_json(result: dict) -> dict:
    turnup = {} if result.get("turnup") is None else {"turnup": g.DECK.token(result["turnup"])}
    tie = {"perlique": True, "perlique_tie": result["perlique_tie"]} if "perlique_tie" in result else {}
    return {"game": GAME, "trump": result["trump"], **turnup, **tie, "spiel_team": result["spiel_team"],
            "tricks": result["tricks"], "line": [[seat, token] for seat, token in result["line"]],
            "winners": result["winners"]}


def format_solve(result: dict) -> str:
    name = g.DECK.suit_names[g.DECK.suits.index(result["trump"])]
    turnup = "" if result.get("turnup") is None else f", turn-up {g.DECK.token(result['turnup'])}"
    lines = [f"Giltspiel{' mit 3 Perlique' if 'perlique_tie' in result else ''} double dummy: trump {result['trump']} "
             f"({name}){turnup}, dealer seat 0, seat 1 leads"]
    if "perlique_tie" in result:
        lines.append(f"(a wild is shown as CARD=DECLARED; a wild and the natural card it copies: the "
                     f"{result['perlique_tie']} card takes the trick)")
    return "\n".join(lines + solve_lines(result, result["line"], "optimal line:"))


def solve_lines(result: dict, plays, title: str) -> list[str]:
    """Text of a solve result after its title line: the hands, the Spiel, the forcible tricks, then
    ``title`` and the line trick by trick from ``plays`` [(seat, text), ...]."""
    team = result["spiel_team"]
    lines = [f"  seat {s} (team {s % 2}): {hand}" for s, hand in enumerate(result["hands"])]
    lines += ["",
              f"Spiel: team {team} (seats {team} and {team + 2}) wins under perfect play",
              f"tricks each team can force out of {play.TRICKS}: team 0 {result['tricks'][0]}, "
              f"team 1 {result['tricks'][1]}",
              title]
    for k, winner in enumerate(result["winners"]):
        cards = "  ".join(f"{seat}:{text}" for seat, text in plays[g.SEATS * k:g.SEATS * (k + 1)])
        lines.append(f"  trick {k + 1}: {cards}  -> seat {winner}")
    return lines


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='four hands for seats 0-3 separated by "/", dealer at seat 0 so seat 1 leads, '
                             'e.g. "E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7"')
    parser.add_argument("--trump", help="trump suit: E, L, H or S (or give --turnup)")
    parser.add_argument("--turnup", help="the turned-up card, whose suit is trump (needed with the Perlique)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_option_argument(parser, GAME)


def _run_solve(args: argparse.Namespace) -> int:
    options = command_options(args, GAME, "solve", ("perlique", "perlique_tie"))
    result = solve(args.deal, args.trump, args.turnup, options.get("perlique", False),
                   options.get("perlique_tie", "wild"))
    return emit(args, result, solve_json, format_solve)


# --- Spiel odds -------------------------------------------------------------------------------
def spiel_odds(hand: str, seat: int = 1, turnup: str | None = None, known: dict[int, str] | None = None,
               method: str = "dd", n: int = 20_000, seed=None, **run_kw) -> pd.DataFrame:
    """P(the team of ``seat`` wins / loses the Spiel) holding ``hand``, over deals of the hidden cards.

    method: "dd" (every deal solved double dummy: both teams play perfectly seeing all hands, the
    perfect-information estimate; not a strict bound, since in play neither team sees the hidden
    cards), "greedy" or "random" (all four seats play that policy of spec §10.5);
    turnup: the trump card if known (else uniform over the unseen cards); known: seat -> tokens of
    cards known in other hands. Rows: outcome, p, lo, hi (95% Wilson), successes, n.
    """
    if method not in play.METHODS:
        raise unknown_name("--spiel method", method, play.METHODS)
    seat = g.check_seat(seat)
    facts = g.parse_known(hand, seat, turnup, known)
    seed = normalize_seed(seed)
    team = seat % 2
    deals, wins = runner.run(play.SpielJob(facts, team, method), n, seed, **run_kw)[:2]
    frame = estimate_frame(OUTCOMES, [wins, deals - wins], int(deals)).rename(columns={"label": "outcome"})
    frame.attrs.update(game=GAME, method=method, n=int(deals), seed=seed, seat=seat, team=team,
                       hand=g.DECK.format_cards(facts.seat_cards[seat]),
                       turnup=None if facts.turnup is None else g.DECK.token(facts.turnup),
                       known={s: g.DECK.format_cards(c) for s, c in facts.seat_cards.items() if s != seat})
    return frame


register_command("solve", GAME, Command("double-dummy Spiel of a deal with all hands known",
                                        _add_solve_arguments, _run_solve))


# --- Spiel odds under imperfect information (PIMC) ---------------------------------------------
PIMC = "pimc"
PIMC_HALF_WIDTH = 0.01
PIMC_DEALS = math.ceil((1.959964 / (2 * PIMC_HALF_WIDTH)) ** 2)
"""Deals of a PIMC Spiel estimate unless told: 9,604, the fewest for which the 95% interval's
half-width is at most `PIMC_HALF_WIDTH` whatever the probability (largest at P = 0.5)."""


def pimc_counts(facts: g.Known, seat: int, conditions=(), samples: int = pimc.DEFAULT_SAMPLES,
                communication: str = "none", n: int = PIMC_DEALS, seed=None, perlique_tie: str | None = None,
                **run_kw) -> np.ndarray:
    """`runner.run` counts of deals consistent with ``facts`` (and the accept ``conditions``, which
    the players' own samples ignore) played out by PIMC at every seat
    (simcore.games.giltspiel_pimc.PimcSpielJob: [deals, wins of the team of ``seat``, ...]); with
    ``perlique_tie`` (option perlique_tie) the Perlique are wild in the tricks
    (simcore.games.giltspiel_perlique_pimc.PerliquePimcSpielJob)."""
    if not isinstance(facts, g.Known):
        raise CardsimError(f"facts must be a simcore.games.giltspiel.Known (parse_known gives one), got "
                           f"{checks.shown(facts)}")
    seat = g.check_seat(seat)
    if len(facts.seat_cards.get(seat, ())) != g.HAND_SIZE:
        raise CardsimError(f"seat {seat} is the asker, whose {g.HAND_SIZE} cards facts must hold; it holds "
                           f"{len(facts.seat_cards.get(seat, ()))}")
    pimc.communication_code(communication)
    samples = pimc.check_samples(samples)
    job = (pimc.PimcSpielJob(facts, seat, samples, communication, conditions) if perlique_tie is None else
           perlique_pimc.PerliquePimcSpielJob(facts, seat, samples, communication, conditions, perlique_tie))
    return runner.run(job, n, normalize_seed(seed), **run_kw)


def pimc_odds(hand: str, seat: int = 1, turnup: str | None = None, known: dict[int, str] | None = None,
              samples: int = pimc.DEFAULT_SAMPLES, communication: str = "none", n: int = PIMC_DEALS, seed=None,
              perlique: bool = False, perlique_tie: str = "wild", **run_kw) -> pd.DataFrame:
    """P(the team of ``seat`` wins / loses the Spiel) holding ``hand`` when all four seats play PIMC,
    each from its own information (own hand, turn-up, cards played, revealed voids, the ``known``
    cards as public, and with ``communication`` "partner" the partner's hand), ``samples`` deals per
    decision; with ``perlique`` the trump's 7, Unter and Ober are wild (`simcore.games.giltspiel_perlique_pimc`,
    ``perlique_tie`` the option perlique_tie). Rows as `spiel_odds`; attrs["pimc"] holds n, samples and
    communication."""
    perlique = checks.flag(perlique, "perlique")
    perlique_play.checked_tie(perlique_tie, perlique, "perlique=True")
    seat = g.check_seat(seat)
    facts = g.parse_known(hand, seat, turnup, known)
    seed = normalize_seed(seed)
    deals, wins = pimc_counts(facts, seat, (), samples, communication, n, seed,
                              perlique_tie if perlique else None, **run_kw)[:2]
    frame = estimate_frame(OUTCOMES, [wins, deals - wins], int(deals)).rename(columns={"label": "outcome"})
    frame.attrs.update(game=GAME, method=PIMC, pimc=pimc_settings({"samples": samples, "communication": communication},
                                                                   int(deals)),
                       seed=seed, seat=seat, team=seat % 2, hand=g.DECK.format_cards(facts.seat_cards[seat]),
                       **({"perlique_tie": perlique_tie} if perlique else {}))
    return frame


def pimc_settings(options: dict, deals: int) -> dict:
    """{"n": deals played, "samples": K per decision, "communication"} of a PIMC Spiel estimate."""
    return {"n": deals, "samples": options.get("samples", pimc.DEFAULT_SAMPLES),
            "communication": options.get("communication", "none")}


def pimc_note(settings: dict, weighs: str = "every legal card") -> str:
    """The line under the odds table saying how the Spiel row was played (``weighs``: the plays each sample
    solves)."""
    sees = "own and partner's hand" if settings["communication"] == "partner" else "own hand"
    return (f"(Spiel: n = {settings['n']:,} deals of its own sample, every one played out by PIMC at every seat: "
            f"{settings['samples']} sampled deals per decision, each solved double dummy for {weighs}; "
            f"a player sees its {sees}, the turn-up, --known cards and the play; forehand, seat 1, leads)")


PIMC_FLAGS = ("communication", "pimc_samples", "pimc_deals")
"""The options of `add_pimc_arguments` (argparse names); None when not given."""


def pimc_options(args: argparse.Namespace) -> dict:
    """Keywords of `pimc_counts` from the command line, the game's defaults for options not given;
    CardsimError for one given without --spiel pimc (it would change nothing)."""
    check_only_with(["--" + name.replace("_", "-") for name in PIMC_FLAGS if getattr(args, name) is not None],
                    "--spiel pimc", args.spiel == PIMC)
    value = {name: args.pimc_defaults[name] if getattr(args, name) is None else getattr(args, name)
             for name in PIMC_FLAGS}
    pimc.communication_code(value["communication"])
    return {"samples": pimc.check_samples(value["pimc_samples"]), "communication": value["communication"],
            "n": value["pimc_deals"]}


def add_pimc_arguments(parser: argparse.ArgumentParser, samples: int = pimc.DEFAULT_SAMPLES,
                       deals: int = PIMC_DEALS) -> None:
    """--communication, --pimc-samples and --pimc-deals of ``cardsim odds GAME --spiel pimc`` with
    the game's defaults (kept as ``pimc_defaults``)."""
    parser.set_defaults(pimc_defaults={"communication": "none", "pimc_samples": samples, "pimc_deals": deals})
    parser.add_argument("--communication", type=one_of(tuple(pimc.COMMUNICATIONS)), default=None,
                        help="with --spiel pimc: what partners know of each other's hand: none (default) or "
                             "partner (each sees both hands of its team)")
    parser.add_argument("--pimc-samples", type=counts_up_to(pimc.MAX_SAMPLES), default=None, metavar="K",
                        help=f"with --spiel pimc: sampled deals per decision, 1-{pimc.MAX_SAMPLES:,} (default "
                             f"{samples})")
    parser.add_argument("--pimc-deals", type=sample_count, default=None, metavar="N",
                        help=f"with --spiel pimc: deals played out for the Spiel (default {deals:,}, "
                             f"95%% interval half-width at most {half_width(deals):.3f}); --n sets the figures' deals")


def half_width(deals: int) -> float:
    """The largest half-width (at P = 0.5) of a 95% interval from ``deals`` deals."""
    return 1.959964 / (2 * math.sqrt(deals))
