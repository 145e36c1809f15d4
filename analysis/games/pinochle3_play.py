"""Three-player Pinochle double-dummy ``solve`` command: the bidder's trick points under perfect play
of a deal (or an ending) with every hand known, and on request one line of perfect play.

Command line::

    cardsim solve pinochle3 --deal "15 cards / 15 cards / 15 cards" --trump H [--bidder 0] [--leader 0]
        [--rule old] [--line] [--bid B] [--option NAME=VALUE ...] [--json]

Python API::

    from analysis.games.pinochle3_play import solve
    result = solve("HA HA H10 ... / ... / ...", "H", bidder=0, line=True)

The hands are those in play: the bidder's 15 after his discard (the buried counters are his, outside
play; in a full deal the 3 cards in no hand are the discard). The bidder leads the first trick (R5.1)
unless ``--leader`` says otherwise. ``--bid B`` scores the bidder's hand against the contract (R6.1),
under the meld options and the minimum bid given as ``--option``; ``scale=0.1`` divides every point.
"""

from __future__ import annotations

import argparse

import numpy as np

from analysis.commands import Command, emit, option_items, options_note, register_command, whole_number
from analysis.games.pinochle3 import (CONTRACT_OPTIONS, MELD_VARIANTS_HELP, checked_bids, checked_options,
                                      merged_rule, options_text, parse_options)
from analysis.solving import interruptible, parse_deal, parse_seat, parse_trump, solve_json, split_tricks, tricks_text
from simcore import checks
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_play as play
from simcore.games import pinochle3_solve as solver

GAME = "pinochle3"


def trick_points(cards, last: bool) -> int:
    """Points of a trick's cards: 10 per counter (A, 10, K), and 10 more for the last trick."""
    counters = sum(int(play.COUNTERS) >> int(c) & 1 for c in cards)
    return play.COUNTER_POINTS * counters + (p.LAST_TRICK_BONUS if last else 0)


def solve(deal: str, trump: str, bidder=0, leader=None, rule: str | None = None, line: bool = False, bid=None,
          options: dict | None = None) -> dict:
    """Double-dummy result of a deal or an ending (every hand the same number of cards, 1-15, at a
    trick start; ``leader`` None: the bidder leads): {"trump", "bidder", "leader", "rule", "options",
    "hands", "bidder_points" (counters taken and the last trick under perfect play), "defender_points",
    "total" (points in play), "tricks": one line of perfect play as [{"plays": [(seat, token), ...], "winner",
    "points"}, ...] when ``line`` (one to three times the time of the solve), else None, "contract": the
    bidder's hand score against ``bid`` (`contract`; a full deal only), else None}. ``rule`` None: the
    option play_rule, else old. options: `SOLVE_OPTIONS` (`solve_options`); points are divided by 10
    under scale=0.1."""
    hands = parse_deal(deal, p.DECK, range(1, play.TRICKS + 1), p.SEATS)
    suit = parse_trump(trump, p.DECK)
    bidder = parse_seat(bidder, p.SEATS, "--bidder")
    leader = bidder if leader is None else parse_seat(leader, p.SEATS, "--leader")
    options = solve_options(options, bid is not None)
    line = checks.flag(line, "line")
    rule = merged_rule(rule, options)
    play.play_rule(rule)
    if bid is not None and int(hands[0]).bit_count() != play.TRICKS:
        raise CardsimError("--bid needs the full deal (15 cards a hand): the bidder melds his 15 cards")
    if bid is not None:
        bid = checked_bid(bid, options)
    divisor = p.point_divisor(options)
    total = trick_points([c for h in hands for c in p.DECK.cards_of(int(h))], True)
    if line:
        value, plays = solver.optimal_line(hands, suit, leader, bidder, rule)
        tricks = split_tricks(plays, p.SEATS, lambda cards: play.winning_slot(cards, p.SEATS, suit),
                              lambda cards, last: trick_points(cards, last) // divisor, p.DECK.token)
    else:
        value, tricks = int(solver.solve(hands, suit, leader, bidder, rule)[0]), None
    return {"trump": p.DECK.suits[suit], "bidder": bidder, "leader": leader, "rule": rule, "options": options,
            "hands": [p.DECK.format_cards(p.DECK.cards_of(int(h))) for h in hands],
            "bidder_points": int(value) // divisor, "defender_points": (total - int(value)) // divisor,
            "total": total // divisor, "tricks": tricks,
            "contract": None if bid is None else contract(bid, hands, bidder, suit, int(value), options)}


def solve_options(options: dict | None, with_bid: bool) -> dict:
    """``options`` checked for `solve` (`checked_options`): CardsimError for an option it does not read, and for
    one of `CONTRACT_OPTIONS` set away from its default without a bid to score."""
    options = checked_options(options, "solve")
    defaults = p.rule_options()
    idle = [f"{name}={value}" for name, value in options.items() if name in CONTRACT_OPTIONS
            and value != defaults[name]]
    if idle and not with_bid:
        one = len(idle) == 1
        raise CardsimError(f"{options_text(idle)} {'changes' if one else 'change'} only the contract's score: add "
                           f"--bid B or drop {'it' if one else 'them'}")
    return options


def checked_bid(bid, options: dict | None = None) -> int:
    """A contract as `odds` checks its bids (minimum, step, reach) under ``options``, in scaled points,
    before any solve."""
    options = option_items(options)  # NAME=VALUE strings, a dict or (name, value) pairs
    return checked_bids((bid,), p.rule_options(options), p.point_divisor(options), "--bid")[0]


def contract(bid, hands, bidder: int, trump: int, trick_points_won: int, options: dict | None = None) -> dict:
    """The bidder's hand score (R6.1) when he takes ``trick_points_won`` (main-game points) in play: {"bid",
    "meld" (of his 15 cards under ``trump`` and the meld ``options``, R3.9a), "buried": the 3 cards in no hand,
    his discard, and "buried_points" (their counters are his, R4.7), "trick_points", "total", "made" (total >=
    bid), "score" (+total when made, -bid when set)}, every point divided by 10 under scale=0.1. hands (3,)
    card masks of a full deal."""
    options = option_items(options)
    bid = checked_bid(bid, options)
    hands = checks.hand_masks(hands, "hands", p.DECK.n_cards, p.SEATS, (p.HAND_SIZE,))
    bidder = checks.whole(bidder, "bidder", 0, p.SEATS - 1)
    trick_points_won = checks.whole(trick_points_won, "trick_points_won (main-game points)", 0, p.TRICK_POINTS_TOTAL)
    divisor = p.point_divisor(options)
    meld = int(p.meld_points(np.array([hands[bidder]], dtype=np.uint64), trump, options)[0]) // divisor
    held = [c for h in hands for c in p.DECK.cards_of(int(h))]
    buried = [c for c in range(p.DECK.n_cards) if c not in held]
    buried_points = trick_points(buried, False) // divisor
    total = meld + buried_points + trick_points_won // divisor
    return {"bid": bid, "meld": meld, "buried": p.DECK.format_cards(buried), "buried_points": buried_points,
            "trick_points": trick_points_won // divisor, "total": total, "made": total >= bid,
            "score": total if total >= bid else -bid}


def format_solve(result: dict) -> str:
    suit = p.DECK.suit_names[p.DECK.suits.index(result["trump"])]
    bidder = result["bidder"]
    options = {k: v for k, v in result["options"].items() if k != "play_rule"}
    lines = [f"Pinochle double dummy: trump {result['trump']} ({suit}), bidder seat {bidder}, "
             f"seat {result['leader']} leads; play rule {result['rule']}{options_note(options)}"]
    lines += [f"  seat {s}{' (bidder)' if s == bidder else ''}: {hand}" for s, hand in enumerate(result["hands"])]
    defenders = " and ".join(str(s) for s in range(p.SEATS) if s != bidder)
    unit = 10 // p.point_divisor(result["options"])
    lines += ["", f"trick points under perfect play (of {result['total']} in play: {unit} a counter, {unit} the last "
                  "trick; buried counters not included):",
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
    parser.add_argument("--rule", default=None, help="play rule: old (default), old_strict, new1945, new1945_alt")
    parser.add_argument("--line", action="store_true",
                        help="also print one line of perfect play (one to three times the solve's time)")
    parser.add_argument("--bid", type=whole_number, default=None,
                        help="the contract: also score the bidder's hand, meld + buried counters (the 3 cards in no "
                             "hand) + trick points against the bid, made or set (R6.1; full deals only)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help=f"a rule option: scale=0.1 (every point / 10), play_rule (as --rule) or, with --bid, "
                             f"min_bid=300 or a meld option ({MELD_VARIANTS_HELP}) "
                             "(repeatable; 'cardsim games pinochle3')")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = interruptible(solve, args.deal, args.trump, args.bidder, args.leader, args.rule, args.line, args.bid,
                           parse_options(args.option))
    return emit(args, result, lambda r: solve_json(GAME, r), format_solve)


register_command("solve", GAME, Command("double-dummy trick points of a deal with all hands known",
                                        _add_solve_arguments, _run_solve))
