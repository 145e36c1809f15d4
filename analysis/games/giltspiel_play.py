"""Giltspiel trick play: the double-dummy ``solve`` command and Spiel odds as a DataFrame.

Command line::

    cardsim solve giltspiel --deal "HA HK HO E7 E8 / LA ... / ... / ..." --trump H [--json]

Python API::

    from analysis.games.giltspiel_play import spiel_odds
    frame = spiel_odds("HA HK LA SA E9", seat=1, turnup="H7", method="dd", n=20_000, seed=7)

The four hands are seats 0-3 with the dealer at seat 0, so seat 1 (team 1) leads trick 1.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from analysis.commands import Command, emit, register_command
from analysis.stats import estimate_frame
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_play as play
from simcore.rng import normalize_seed

GAME = "giltspiel"
OUTCOMES = ("win", "lose")


# --- solve ------------------------------------------------------------------------------------
def parse_trump(text: str) -> int:
    """Suit index of a trump given as a letter (E L H S) or German name; CardsimError otherwise."""
    key = text.strip().upper()
    for index, (letter, name) in enumerate(zip(g.DECK.suits, g.DECK.suit_names)):
        if key in (letter.upper(), name.upper()):
            return index
    raise CardsimError(f"--trump '{text}' is not a suit; give one of {', '.join(g.DECK.suits)} "
                       f"({', '.join(g.DECK.suit_names)})")


def parse_deal(text: str) -> np.ndarray:
    """Four five-card hands for seats 0-3 separated by '/' -> (4,) uint64 masks; CardsimError if bad."""
    parts = text.split("/")
    if len(parts) != g.SEATS:
        raise CardsimError(f"--deal needs {g.SEATS} hands for seats 0-3 separated by '/', got {len(parts)}")
    parsed = g.DECK.parse_groups({f"seat {s}": part for s, part in enumerate(parts)})
    for label, cards in parsed.items():
        if len(cards) != g.HAND_SIZE:
            raise CardsimError(f"--deal: {label} holds {len(cards)} cards; every hand needs {g.HAND_SIZE}")
    return np.array([g.DECK.mask(cards) for cards in parsed.values()], dtype=np.uint64)


def solve(deal: str, trump: str) -> dict:
    """Double-dummy result of one deal: {"trump", "hands", "spiel_team", "tricks": [team 0, team 1]
    (each forcible out of 5 if all were played), "line": [(seat, token), ...] to the Spiel,
    "winners": the seat winning each trick of the line}."""
    hands = parse_deal(deal)
    suit = parse_trump(trump)
    line = play.optimal_line(hands, suit)
    return {
        "trump": g.DECK.suits[suit],
        "hands": [g.DECK.format_cards(g.DECK.cards_of(h)) for h in hands],
        "spiel_team": int(play.spiel_teams(hands[None, :], [suit])[0]),
        "tricks": list(play.forced_tricks(hands, suit)),
        "line": [(seat, g.DECK.token(card)) for seat, card in line],
        "winners": play.trick_winners_of(line, suit),
    }


def solve_json(result: dict) -> dict:
    return {"game": GAME, "trump": result["trump"], "spiel_team": result["spiel_team"],
            "tricks": result["tricks"], "line": [[seat, token] for seat, token in result["line"]],
            "winners": result["winners"]}


def format_solve(result: dict) -> str:
    name = g.DECK.suit_names[g.DECK.suits.index(result["trump"])]
    team = result["spiel_team"]
    lines = [f"Giltspiel double dummy: trump {result['trump']} ({name}), dealer seat 0, seat 1 leads"]
    lines += [f"  seat {s} (team {s % 2}): {hand}" for s, hand in enumerate(result["hands"])]
    lines += ["",
              f"Spiel: team {team} (seats {team} and {team + 2}) wins under perfect play",
              f"tricks each team can force out of {play.TRICKS}: team 0 {result['tricks'][0]}, "
              f"team 1 {result['tricks'][1]}",
              "optimal line:"]
    line = result["line"]
    for k, winner in enumerate(result["winners"]):
        cards = "  ".join(f"{seat}:{token}" for seat, token in line[g.SEATS * k:g.SEATS * (k + 1)])
        lines.append(f"  trick {k + 1}: {cards}  -> seat {winner}")
    return "\n".join(lines)


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='four hands for seats 0-3 separated by "/", dealer at seat 0 so seat 1 leads, '
                             'e.g. "E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7"')
    parser.add_argument("--trump", required=True, help="trump suit: E, L, H or S")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = solve(args.deal, args.trump)
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
        raise CardsimError(f"--spiel method '{method}' is unknown; choose one of {', '.join(play.METHODS)}")
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
