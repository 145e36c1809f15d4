"""Three-player Pinochle double-dummy ``solve`` command: the bidder's trick points under perfect play
of a deal (or an ending) with every hand known, and on request one line of perfect play.

Command line::

    cardsim solve pinochle3 --deal "15 cards / 15 cards / 15 cards" --trump H [--bidder 0] [--leader 0]
        [--rule old] [--line] [--bid B] [--json]

Python API::

    from analysis.games.pinochle3_play import solve
    result = solve("HA HA H10 ... / ... / ...", "H", bidder=0, line=True)

The hands are those in play: the bidder's 15 after his discard (the buried counters are his, outside
play; in a full deal the 3 cards in no hand are the discard). The bidder leads the first trick (R5.1)
unless ``--leader`` says otherwise. ``--bid B`` scores the bidder's hand against the contract (R6.1).
"""

from __future__ import annotations

import argparse

import numpy as np

from analysis.commands import Command, emit, register_command, whole_number
from analysis.solving import interruptible, parse_deal, parse_seat, parse_trump, solve_json, split_tricks, tricks_text
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_play as play
from simcore.games import pinochle3_solve as solver

GAME = "pinochle3"


def trick_points(cards, last: bool) -> int:
    """Points of a trick's cards: 10 per counter (A, 10, K), and 10 more for the last trick."""
    counters = sum(int(play.COUNTERS) >> int(c) & 1 for c in cards)
    return play.COUNTER_POINTS * counters + (p.LAST_TRICK_BONUS if last else 0)


def solve(deal: str, trump: str, bidder=0, leader=None, rule: str = "old", line: bool = False, bid=None) -> dict:
    """Double-dummy result of a deal or an ending (every hand the same number of cards, 1-15, at a
    trick start; ``leader`` None: the bidder leads): {"trump", "bidder", "leader", "rule", "hands",
    "bidder_points" (counters taken and the last trick under perfect play), "defender_points", "total"
    (points in play), "tricks": one line of perfect play as [{"plays": [(seat, token), ...], "winner",
    "points"}, ...] when ``line`` (one to three times the time of the solve), else None, "contract": the
    bidder's hand score against ``bid`` (`contract`; a full deal only), else None}."""
    hands = parse_deal(deal, p.DECK, range(1, play.TRICKS + 1), p.SEATS)
    suit = parse_trump(trump, p.DECK)
    bidder = parse_seat(bidder, p.SEATS, "--bidder")
    leader = bidder if leader is None else parse_seat(leader, p.SEATS, "--leader")
    play.play_rule(rule)
    if bid is not None and int(hands[0]).bit_count() != play.TRICKS:
        raise CardsimError("--bid needs the full deal (15 cards a hand): the bidder melds his 15 cards")
    if bid is not None:
        bid = checked_bid(bid)
    total = trick_points([c for h in hands for c in p.DECK.cards_of(int(h))], True)
    if line:
        value, plays = solver.optimal_line(hands, suit, leader, bidder, rule)
        tricks = split_tricks(plays, p.SEATS, lambda cards: play.winning_slot(cards, p.SEATS, suit), trick_points,
                              p.DECK.token)
    else:
        value, tricks = int(solver.solve(hands, suit, leader, bidder, rule)[0]), None
    return {"trump": p.DECK.suits[suit], "bidder": bidder, "leader": leader, "rule": rule,
            "hands": [p.DECK.format_cards(p.DECK.cards_of(int(h))) for h in hands],
            "bidder_points": int(value), "defender_points": total - int(value), "total": total, "tricks": tricks,
            "contract": None if bid is None else contract(bid, hands, bidder, suit, int(value))}


def checked_bid(bid) -> int:
    """A contract as `odds` checks its bids (minimum, step, reach), before any solve."""
    from analysis.games.pinochle3 import checked_bids

    return checked_bids((bid,), p.rule_options({}))[0]


def contract(bid, hands, bidder: int, trump: int, trick_points_won: int) -> dict:
    """The bidder's hand score (R6.1) when he takes ``trick_points_won`` in play: {"bid", "meld" (of his
    15 cards under ``trump``, R3.9a), "buried": the 3 cards in no hand, his discard, and "buried_points"
    (their counters are his, R4.7), "trick_points", "total", "made" (total >= bid), "score" (+total when
    made, -bid when set)}. hands (3,) card masks of a full deal."""
    bid = checked_bid(bid)
    meld = int(p.meld_points(np.array([hands[bidder]], dtype=np.uint64), trump)[0])
    held = [c for h in hands for c in p.DECK.cards_of(int(h))]
    buried = [c for c in range(p.DECK.n_cards) if c not in held]
    buried_points = trick_points(buried, False)
    total = meld + buried_points + trick_points_won
    return {"bid": bid, "meld": meld, "buried": p.DECK.format_cards(buried), "buried_points": buried_points,
            "trick_points": trick_points_won, "total": total, "made": total >= bid,
            "score": total if total >= bid else -bid}


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
    lines += _contract_lines(result["contract"])
    if result["tricks"] is None:
        lines.append("(--line prints one line of perfect play)")
        return "\n".join(lines)
    lines += tricks_text(result["tricks"])
    return "\n".join(lines)


def _contract_lines(c: dict | None) -> list[str]:
    """The contract line of `format_solve` (nothing without --bid)."""
    if c is None:
        return []
    verdict = f"made, scores +{c['score']}" if c["made"] else f"set, scores {c['score']}"
    return ["", f"contract {c['bid']}: meld {c['meld']} + buried counters {c['buried_points']} ({c['buried']}) + "
                f"trick points {c['trick_points']} = {c['total']}: {verdict} (R6.1)"]


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
    parser.add_argument("--bid", type=whole_number, default=None,
                        help="the contract: also score the bidder's hand, meld + buried counters (the 3 cards in no "
                             "hand) + trick points against the bid, made or set (R6.1; full deals only)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = interruptible(solve, args.deal, args.trump, args.bidder, args.leader, args.rule, args.line, args.bid)
    return emit(args, result, lambda r: solve_json(GAME, r), format_solve)


register_command("solve", GAME, Command("double-dummy trick points of a deal with all hands known",
                                        _add_solve_arguments, _run_solve))
