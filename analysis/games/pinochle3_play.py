"""Three-player Pinochle double-dummy ``solve`` command: the bidder's trick points under perfect play
of a deal (or an ending) with every hand known, and on request one line of perfect play.

Command line::

    cardsim solve pinochle3 --deal "15 cards / 15 cards / 15 cards" --trump H [--bidder 0] [--leader 0]
        [--rule old] [--line] [--json]

Python API::

    from analysis.games.pinochle3_play import solve
    result = solve("HA HA H10 ... / ... / ...", "H", bidder=0, line=True)

The hands are those in play: the bidder's 15 after his discard (the buried counters are his, outside
play). The bidder leads the first trick (R5.1) unless ``--leader`` says otherwise.
"""

from __future__ import annotations

import argparse

from analysis.commands import Command, emit, register_command
from analysis.solving import interruptible, parse_deal, parse_seat, parse_trump, solve_json, split_tricks, tricks_text
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_play as play
from simcore.games import pinochle3_solve as solver

GAME = "pinochle3"


def trick_points(cards, last: bool) -> int:
    """Points of a trick's cards: 10 per counter (A, 10, K), and 10 more for the last trick."""
    counters = sum(int(play.COUNTERS) >> int(c) & 1 for c in cards)
    return play.COUNTER_POINTS * counters + (p.LAST_TRICK_BONUS if last else 0)


def solve(deal: str, trump: str, bidder=0, leader=None, rule: str = "old", line: bool = False) -> dict:
    """Double-dummy result of a deal or an ending (every hand the same number of cards, 1-15, at a
    trick start; ``leader`` None: the bidder leads): {"trump", "bidder", "leader", "rule", "hands",
    "bidder_points" (counters taken and the last trick under perfect play), "defender_points", "total"
    (points in play), "tricks": one line of perfect play as [{"plays": [(seat, token), ...], "winner",
    "points"}, ...] when ``line`` (one to three times the time of the solve), else None}."""
    hands = parse_deal(deal, p.DECK, range(1, play.TRICKS + 1), p.SEATS)
    suit = parse_trump(trump, p.DECK)
    bidder = parse_seat(bidder, p.SEATS, "--bidder")
    leader = bidder if leader is None else parse_seat(leader, p.SEATS, "--leader")
    play.play_rule(rule)
    total = trick_points([c for h in hands for c in p.DECK.cards_of(int(h))], True)
    if line:
        value, plays = solver.optimal_line(hands, suit, leader, bidder, rule)
        tricks = split_tricks(plays, p.SEATS, lambda cards: play.winning_slot(cards, p.SEATS, suit), trick_points,
                              p.DECK.token)
    else:
        value, tricks = int(solver.solve(hands, suit, leader, bidder, rule)[0]), None
    return {"trump": p.DECK.suits[suit], "bidder": bidder, "leader": leader, "rule": rule,
            "hands": [p.DECK.format_cards(p.DECK.cards_of(int(h))) for h in hands],
            "bidder_points": int(value), "defender_points": total - int(value), "total": total, "tricks": tricks}


def format_solve(result: dict) -> str:
    suit = p.DECK.suit_names[p.DECK.suits.index(result["trump"])]
    bidder = result["bidder"]
    lines = [f"Pinochle double dummy: trump {result['trump']} ({suit}), bidder seat {bidder}, "
             f"seat {result['leader']} leads; play rule {result['rule']}"]
    lines += [f"  seat {s}{' (bidder)' if s == bidder else ''}: {hand}" for s, hand in enumerate(result["hands"])]
    defenders = " and ".join(str(s) for s in range(p.SEATS) if s != bidder)
    lines += ["", f"trick points under perfect play (of {result['total']} in play: 10 a counter, 10 the last trick; "
                  "buried counters not included):",
              f"  bidder (seat {bidder}): {result['bidder_points']}",
              f"  defenders (seats {defenders}): {result['defender_points']}"]
    if result["tricks"] is None:
        lines.append("(--line prints one line of perfect play)")
        return "\n".join(lines)
    lines += tricks_text(result["tricks"])
    return "\n".join(lines)


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='three hands for seats 0-2 separated by "/", 15 cards each for a full deal (the '
                             "bidder's after his discard; fewer, the same number each, for an ending)")
    parser.add_argument("--trump", required=True, help="trump suit: S, H, D or C")
    parser.add_argument("--bidder", default="0", help="the bidder's seat, 0-2 (default 0)")
    parser.add_argument("--leader", default=None, help="seat on lead, 0-2 (default: the bidder, R5.1)")
    parser.add_argument("--rule", default="old", help="play rule: old (default), old_strict, new1945, new1945_alt")
    parser.add_argument("--line", action="store_true",
                        help="also print one line of perfect play (one to three times the solve's time)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = interruptible(solve, args.deal, args.trump, args.bidder, args.leader, args.rule, args.line)
    return emit(args, result, lambda r: solve_json(GAME, r), format_solve)


register_command("solve", GAME, Command("double-dummy trick points of a deal with all hands known",
                                        _add_solve_arguments, _run_solve))
