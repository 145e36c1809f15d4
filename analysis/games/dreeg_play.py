"""Dreeg double-dummy ``solve`` command: the card points (or tricks) one side takes under perfect play of a
hand with every card known, and one line of perfect play.

Command line::

    cardsim solve dreeg --deal "P0 / P1 / P2 [/ P3]" [--subgame 66|RA|RU|KA] [--trump SUIT] [--call CARD]
        [--side POSITIONS] [--leader P] [--last-led SUIT] [--tricks] [--option NAME=VALUE ...] [--json]

Python API::

    from analysis.games.dreeg_play import solve
    result = solve("HA H10 HK HO E9 L9 / ... / ... / ...", "66", trump="H")

Positions count from forehand (0 leads trick 1), as in the other Dreeg commands. The value is the card play
alone: the card points of the tricks a side takes (§3.0.5 without marriages; no going out, no Durchmarsch).
The side plays for the most points (in Kamerun for the fewest) and every other position plays against it,
together: in the games where everyone plays for himself (66 with 3 or 4 players, Kamerun) that is what a player
can make sure of whatever the others do, not what he takes when each plays for himself.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

from analysis.commands import Command, emit, register_command
from analysis.games.dreeg import parse_options
from analysis.solving import (interruptible, listed, parse_deal, parse_seat, parse_trump, solve_json, split_tricks,
                              tricks_text)
from simcore import checks
from simcore.errors import CardsimError
from simcore.games import dreeg_dd as dd
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import DECK, DEFAULTS
from simcore.games import dreeg_play as play_rules
from simcore.games.dreeg_reads import PLAY_READS, check_reads

GAME = "dreeg"
SUBGAMES = ("66", "RA", "RU", "KA")
"""The sub-games of §3.1-§3.4 whose card play the solver covers."""
NO_RESTRICTION = -2
"""`dreeg_dd.solve`'s ``last_led`` when no Kamerun lead rule applies (-1: Kamerun before its first trick)."""


@dataclass(frozen=True)
class Rules:
    """The play of one solve: players ``n``, ``trump`` (-1 none), STRICT or FOLLOW ``mode`` and ``flags``, the
    positions whose points count (``counted``) and those that play to make them more (``maxside``: the counted
    side itself, or in Kamerun everybody else), the Kamerun lead rule, tricks counted instead of points, and the
    card called in Rufen, whose first-trick duties apply while ``Position.first`` (-1: none)."""
    n: int
    trump: int
    mode: int
    flags: int
    counted: frozenset
    maxside: frozenset
    kamerun: bool
    count_tricks: bool
    call: int


@dataclass(frozen=True)
class Position:
    """Hands (int masks by position), the cards of the trick in play, its leader, the suit led to the previous
    trick as `dreeg_dd.solve` takes it (``last_led``) and whether Rufen's first-trick duties apply."""
    hands: tuple
    trick: tuple
    leader: int
    last_led: int
    first: bool


def legal(rules: Rules, pos: Position) -> list[int]:
    """The cards the position on turn may play, in card order (`dreeg_play.legal_play`: the STRICT or FOLLOW
    duties, Kamerun's lead rule, Rufen's first trick)."""
    hand = pos.hands[(pos.leader + len(pos.trick)) % rules.n]
    return r.cards_of(play_rules.legal_play(hand, list(pos.trick), rules.trump, rules.mode, rules.flags,
                                            rules.call if pos.first else -1, pos.last_led))


def played(rules: Rules, pos: Position, card: int) -> tuple[int, Position]:
    """(what the counted side gains, the position after ``card``): a full trick goes to its winner, who leads the
    next."""
    mover = (pos.leader + len(pos.trick)) % rules.n
    hands = tuple(h & ~(1 << card) if s == mover else h for s, h in enumerate(pos.hands))
    trick = pos.trick + (card,)
    if len(trick) < rules.n:
        return 0, Position(hands, trick, pos.leader, pos.last_led, pos.first)
    winner = (pos.leader + r.winning_slot(list(trick), rules.trump)) % rules.n
    gain = (1 if rules.count_tricks else sum(r.POINTS[c] for c in trick)) if winner in rules.counted else 0
    last_led = r.card_suit(trick[0]) if rules.kamerun else NO_RESTRICTION
    return gain, Position(hands, (), winner, last_led, False)


def value(rules: Rules, pos: Position, memo: dict) -> int:
    """What the counted side takes from ``pos`` on under perfect play: `dreeg_dd` once Rufen's first trick is over,
    a minimax over that trick's cards (``memo``) before."""
    if not pos.trick and not any(pos.hands):
        return 0
    if pos.first:
        if pos not in memo:
            memo[pos] = best_card(rules, pos, memo)[0]
        return memo[pos]
    last_led = pos.last_led if not pos.trick else -1 if rules.kamerun else NO_RESTRICTION
    return dd.trusted_solve(pos.hands, pos.leader, rules.trump, rules.maxside, rules.mode, rules.flags, last_led,
                            -1, rules.count_tricks, pos.trick, rules.counted)


def best_card(rules: Rules, pos: Position, memo: dict) -> tuple[int, int]:
    """(value, card): the first legal card, in card order, that keeps the best value for the position on turn
    (the most counted points for the maximising side, the fewest for the others)."""
    maximise = (pos.leader + len(pos.trick)) % rules.n in rules.maxside
    best = None
    for card in legal(rules, pos):
        gain, after = played(rules, pos, card)
        total = gain + value(rules, after, memo)
        if best is None or (total > best[0] if maximise else total < best[0]):
            best = (total, card)
    return best


def perfect_line(rules: Rules, pos: Position) -> tuple[int, list[tuple[int, int]]]:
    """(value, line): the counted side's points (or tricks) and one line of perfect play [(position, card), ...] to
    the end of the hand."""
    memo: dict = {}
    line, values = [], []
    while pos.trick or any(pos.hands):
        worth, card = best_card(rules, pos, memo)
        values.append(worth)
        line.append(((pos.leader + len(pos.trick)) % rules.n, card))
        pos = played(rules, pos, card)[1]
    return values[0], line


def _players(deal) -> int:
    """The number of hands in ``deal`` (2-4); CardsimError otherwise."""
    if not isinstance(deal, str):
        raise CardsimError(f"--deal must be the hands as one text, separated by '/', got {deal!r}")
    n = deal.count("/") + 1
    if n not in (2, 3, 4):
        raise CardsimError(f"--deal needs 2, 3 or 4 hands (positions from forehand) separated by '/', got {n}")
    return n


def _subgame(text) -> str:
    key = str(text).strip().upper()
    if key not in SUBGAMES:
        raise CardsimError(f"--subgame must be one of {', '.join(SUBGAMES)} (66, Rot Assen, Rufen, Kamerun), "
                           f"got {text!r}")
    return key


def _positions(text, n: int) -> frozenset:
    """``--side``: positions as "0,2" or "0 2" (a position, or a list, tuple or set of them from Python), a proper
    non-empty subset of 0 to n - 1."""
    if isinstance(text, str):
        items = [item for item in re.split(r"[,\s]+", text.strip()) if item] or [text]
    elif isinstance(text, int) and not isinstance(text, bool):
        items = [text]
    elif isinstance(text, (list, tuple, set, frozenset)) and all(isinstance(i, (int, str)) for i in text):
        items = list(text)
    else:
        raise CardsimError(f"--side takes positions 0-{n - 1} separated by commas, e.g. 0,2; got {text!r}")
    side = frozenset(parse_seat(item, n, "--side") for item in items)
    if not side or len(side) == n:
        raise CardsimError(f"--side must name at least one position and leave one out (0-{n - 1}), got {text!r}")
    return side


def _holder(hands, card: int) -> int:
    """The position holding ``card``, or -1."""
    return next((s for s, h in enumerate(hands) if int(h) >> card & 1), -1)


def _rule_side(subgame: str, hands, full: bool, call: int, n: int) -> frozenset | None:
    """The side a sub-game's rule fixes: Rot Assen the heart Ace's holder (§3.2.1), Rufen forehand and the called
    card's holder (§3.3.1); None where the rule leaves it to ``--side``."""
    soloist = _holder(hands, r.HEART_ACE)
    if subgame == "RA" and soloist >= 0 and n > 2:
        return frozenset({soloist})
    if subgame == "RU" and full and call >= 0:
        return frozenset({0, _holder(hands, call)})
    return None


def _side(side, subgame: str, hands, full: bool, call: int, n: int) -> frozenset:
    """The side whose points are counted: the sub-game's (`_rule_side`), else ``side`` (required in a Rot Assen
    ending without the heart Ace and a Rufen ending), else forehand alone."""
    fixed = _rule_side(subgame, hands, full, call, n)
    given = None if side is None else _positions(side, n)
    if fixed is not None and given is not None and given != fixed:
        who = ", ".join(map(str, sorted(fixed)))
        raise CardsimError(f"--side {side}: in {r.SUBGAME_NAMES[subgame]} the rule fixes the side of this deal "
                           f"(position {who}, §{'3.2.1' if subgame == 'RA' else '3.3.1'}); drop --side")
    if fixed is None and given is None and subgame in ("RA", "RU") and n > 2:
        who = "the heart Ace's holder, §3.2.1), e.g. --side 2" if subgame == "RA" else \
            "forehand and the called card's holder, §3.3.1), e.g. --side 0,2"
        raise CardsimError(f"a {r.SUBGAME_NAMES[subgame]} ending needs --side: the position(s) of the side ({who}")
    chosen = fixed or given or frozenset({0})
    if len(chosen) > 1 and (subgame in ("66", "KA") or n == 2):
        raise CardsimError(f"--side {side}: in {r.SUBGAME_NAMES[subgame]} with {n} players everyone plays for "
                           "himself; give one position")
    if len(chosen) > 1 and subgame == "RA":
        raise CardsimError(f"--side {side}: in Rot Assen the heart Ace's holder plays alone against the others "
                           "(§3.2.1); give his position")
    return chosen


def _call(call, subgame: str, n: int, full: bool, hands) -> int:
    """The called card of a full Rufen deal of 3-4 players (§3.3.1), -1 elsewhere; CardsimError where it does not
    apply or is missing."""
    if subgame != "RU" or n == 2 or not full:
        if call is not None:
            where = "a full Rufen deal of 3 or 4 players" if subgame == "RU" else "Rufen"
            raise CardsimError(f"--call applies only to {where} (the called card falls in trick 1; in an ending give "
                               "the side with --side); drop it")
        return -1
    if call is None:
        raise CardsimError("a full Rufen deal needs --call CARD (forehand's call; its suit is trump, §3.3.1), or give "
                           "the position after trick 1 with --side")
    cards = DECK.parse_cards(call, "--call") if isinstance(call, str) else []
    if len(cards) != 1:
        raise CardsimError(f"--call takes one card, e.g. H10, got {call!r}")
    if not int(hands[0]) & r.SUIT_MASKS[r.card_suit(cards[0])]:
        raise CardsimError(f"--call {call}: forehand (position 0) holds no card of its suit, which his first packet "
                           "must hold (§3.3.1)")
    return cards[0]


def _trump(trump, subgame: str, call: int, options: dict, n: int, heart_ace_held: bool) -> int:
    """The trump suit: none in Kamerun, the called card's suit in Rufen, else ``trump`` (required; "none" in a
    2-player Rot Assen closed before the heart Ace was announced, §3.2.2)."""
    if subgame == "KA":
        if trump is not None:
            raise CardsimError("Kamerun has no trump (§3.4.1); drop --trump")
        return -1
    if call >= 0:
        suit = r.card_suit(call)
        if trump is not None and parse_trump(trump, DECK) != suit:
            raise CardsimError(f"--trump {trump}: in Rufen the called card's suit ({DECK.suits[suit]}) is trump; "
                               "drop --trump")
        return suit
    duel_rot_assen = subgame == "RA" and n == 2
    if trump is None:
        raise CardsimError(f"{r.SUBGAME_NAMES[subgame]} needs --trump SUIT ({', '.join(DECK.suits)}"
                           + (", or none: the talon closed before the heart Ace was announced)" if duel_rot_assen
                              else ")"))
    if isinstance(trump, str) and trump.strip().lower() == "none":
        if not duel_rot_assen:
            raise CardsimError("--trump none applies only to a 2-player Rot Assen whose talon was closed before the "
                               f"heart Ace was announced (§3.2.2); give a suit ({', '.join(DECK.suits)})")
        if heart_ace_held:
            raise CardsimError("--trump none: a hand holds the heart Ace, which is announced, naming trump, before "
                               "the talon is closed (§3.2.2); give the trump named")
        return -1
    suit = parse_trump(trump, DECK)
    if subgame == "RA" and options["rot_assen_trump"] == "hearts" and suit != r.HEART:
        raise CardsimError(f"--trump {trump}: under rot_assen_trump=hearts the heart Ace's holder names hearts "
                           "(§5 A14)")
    return suit


def _last_led(last_led, subgame: str, full: bool) -> int:
    """The Kamerun lead rule's state at the start: -1 before trick 1, the suit led last in an ending (required),
    `NO_RESTRICTION` outside Kamerun."""
    if subgame != "KA" or full:
        if last_led is not None:
            raise CardsimError("--last-led applies only to a Kamerun ending (the suit led to the trick before it, "
                               "§3.4.2); drop it")
        return -1 if subgame == "KA" else NO_RESTRICTION
    if last_led is None:
        raise CardsimError("a Kamerun ending needs --last-led SUIT: the suit led to the previous trick, which the "
                           "leader may not lead again while he holds another (§3.4.2)")
    return parse_trump(last_led, DECK, "--last-led")


def _mode_flags(subgame: str, trump: int, chosen: tuple) -> tuple[int, int]:
    """(mode, flags) of the options ``chosen`` (`parse_options` pairs) for a solve of ``subgame``: the play rules
    with a trump (§5 A3, A4), Kamerun's ``kamerun5_no_head`` (phase 5's follow-only play); Rot Assen's
    ``rot_assen_trump`` is read too (`_trump`); any other option away from its default is refused."""
    reads = (PLAY_READS if trump >= 0 else ()) + {"KA": ("kamerun5_no_head",), "RA": ("rot_assen_trump",)}.get(
        subgame, ())
    check_reads(chosen, reads, f"a double-dummy solve of {r.SUBGAME_NAMES[subgame]}")
    opts = {**DEFAULTS, **dict(chosen)}
    mode = r.FOLLOW if subgame == "KA" and opts["kamerun5_no_head"] else r.STRICT
    return mode, play_rules.play_flags(opts)


def solve(deal: str, subgame: str = "66", trump: str | None = None, side=None, leader=None, call: str | None = None,
          last_led: str | None = None, tricks: bool = False, options=()) -> dict:
    """Double-dummy result of a Dreeg hand or ending (2-4 hands of the same size, positions from forehand, at a
    trick start), card play only: {"subgame", "players", "trump" (None in Kamerun), "call", "leader", "side"
    (positions), "aim" ("most", Kamerun "fewest"), "count" ("points" or "tricks"), "options", "hands", "value"
    (what the side takes under perfect play, every other position playing against it), "others", "total",
    "tricks": one line of perfect play as [{"plays": [(position, token), ...], "winner", "points"}, ...]}.

    ``side``: positions as "0,2" (default: the sub-game's rule, Rot Assen the heart Ace's holder, Rufen forehand
    and the called card's holder; else forehand). ``call``: Rufen's called card (a full deal of 3-4 players: the
    first trick's duties apply). ``last_led``: a Kamerun ending's suit led to the previous trick. ``tricks``:
    count tricks instead of card points. ``options``: the play rules as NAME=VALUE (§5 A3, A4;
    ``kamerun5_no_head``; ``rot_assen_trump``)."""
    subgame = _subgame(subgame)
    n = _players(deal)
    if subgame == "KA" and n == 2:
        raise CardsimError("Kamerun is played by 3 or 4 players (§3.4.1); give 3 or 4 hands")
    hands = parse_deal(deal, DECK, range(1, r.HAND_SIZES[n] + 1), n, label="position")
    full = int(hands[0]).bit_count() == r.HAND_SIZES[n]
    lead = 0 if leader is None else parse_seat(leader, n, "--leader")
    called = _call(call, subgame, n, full, hands)
    if called >= 0 and lead != 0:
        raise CardsimError(f"--leader {leader}: forehand (position 0) leads the first trick of Rufen (§3.3.1); drop "
                           "--leader")
    counted = _side(side, subgame, hands, full, called, n)
    chosen = parse_options(options)
    suit = _trump(trump, subgame, called, {**DEFAULTS, **dict(chosen)}, n, _holder(hands, r.HEART_ACE) >= 0)
    mode, flags = _mode_flags(subgame, suit, chosen)
    count_tricks = checks.flag(tricks, "tricks")
    fewest = subgame == "KA"
    maxside = frozenset(range(n)) - counted if fewest else counted
    rules = Rules(n, suit, mode, flags, counted, maxside, fewest, count_tricks, called)
    start = Position(tuple(int(h) for h in hands), (), lead, _last_led(last_led, subgame, full), called >= 0)
    taken, line = perfect_line(rules, start)
    total = int(hands[0]).bit_count() if count_tricks else sum(r.points_of(int(h)) for h in hands)
    token = DECK.token
    plays = split_tricks(line, n, lambda cards: r.winning_slot([int(c) for c in cards], suit),
                         lambda cards, last: 1 if count_tricks else sum(r.POINTS[int(c)] for c in cards), token)
    return {"subgame": subgame, "players": n, "trump": None if suit < 0 else DECK.suits[suit],
            "call": None if called < 0 else token(called), "leader": lead, "side": sorted(counted),
            "aim": "fewest" if fewest else "most", "count": "tricks" if count_tricks else "points",
            "options": {k: v for k, v in chosen if v != DEFAULTS[k]},
            "hands": [DECK.format_cards(DECK.cards_of(int(h))) for h in hands], "value": int(taken),
            "others": int(total - taken), "total": int(total), "tricks": plays}


def _value_rows(rows) -> list[str]:
    """Aligned lines "positions 1 and 3:  45   (note)" of (positions, value, note) rows."""
    labels = [f"position{'s' if len(positions) > 1 else ''} {listed(positions)}:" for positions, _, _ in rows]
    width = max(map(len, labels))
    return [f"  {label:{width}s} {worth:3d}   ({note})" for label, (_, worth, note) in zip(labels, rows)]


def format_solve(result: dict) -> str:
    n, side = result["players"], result["side"]
    trump = "no trump" if result["trump"] is None else \
        f"trump {result['trump']} ({DECK.suit_names[DECK.suits.index(result['trump'])]})"
    call = f", forehand calls {result['call']}" if result["call"] else ""
    options = "".join(f", {k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in result["options"].items())
    lines = [f"Dreeg double dummy: {r.SUBGAME_NAMES[result['subgame']]}, {n} players, {trump}{call}, position "
             f"{result['leader']} leads{options}"]
    lines += [f"  position {s}{' (side)' if s in side else ''}: {hand}" for s, hand in enumerate(result["hands"])]
    others = [s for s in range(n) if s not in side]
    unit = "tricks" if result["count"] == "tricks" else "card points"
    ending = "; an ending: tricks already taken are not counted" if len(result["tricks"]) < r.HAND_SIZES[n] else \
        "; the tricks played while the talon was open are not counted" if n == 2 else ""
    aim = f"as few as {'they' if len(side) > 1 else 'it'} can" if result["aim"] == "fewest" else \
        f"as many as {'they' if len(side) > 1 else 'it'} can"
    lines += ["", f"{unit} under perfect play (of {result['total']} in play{ending}; card play only: no marriages, "
                  "no going out):",
              *_value_rows([(side, result["value"], f"take{'s' if len(side) == 1 else ''} {aim}"),
                            (others, result["others"], ("play together" if len(others) > 1 else "plays")
                             + f" against {'them' if len(side) > 1 else 'it'}")])]
    lines += tricks_text(result["tricks"], lambda s: " (side)" if s in side else "", label="position")
    return "\n".join(lines)


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='2-4 hands for positions 0, 1, ... from forehand separated by "/" (4 players 6 cards, '
                             '3 players 8, 2 players at most 6; fewer, the same number each, for an ending)')
    parser.add_argument("--subgame", default="66", help="66 (default), RA (Rot Assen), RU (Rufen) or KA (Kamerun)")
    parser.add_argument("--trump", default=None, help="trump suit E, L, H or S (none in Kamerun; Rufen: the called "
                        "card's suit; 2-player Rot Assen closed before the heart Ace was announced: none)")
    parser.add_argument("--call", default=None, metavar="CARD",
                        help="Rufen with 3-4 players: forehand's called card; its holder is his partner and the first "
                             "trick's duties apply (§3.3.1)")
    parser.add_argument("--side", default=None, metavar="POSITIONS",
                        help="the positions whose points are counted, e.g. 0 or 0,2 (default: Rot Assen the heart "
                             "Ace's holder, Rufen forehand and the called card's holder, else forehand)")
    parser.add_argument("--leader", default=None, help="position on lead (default 0, forehand)")
    parser.add_argument("--last-led", default=None, metavar="SUIT",
                        help="a Kamerun ending: the suit led to the previous trick (§3.4.2)")
    parser.add_argument("--tricks", action="store_true", help="count tricks instead of card points")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="play rules: no_undertrump_duty, trumped_lead_follow, kamerun5_no_head (Kamerun), "
                             "rot_assen_trump (Rot Assen); see 'cardsim games dreeg'")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = interruptible(solve, args.deal, args.subgame, args.trump, args.side, args.leader, args.call,
                           args.last_led, args.tricks, args.option)
    return emit(args, result, lambda res: solve_json(GAME, res), format_solve)


register_command("solve", GAME, Command("double-dummy card points of a hand with all cards known",
                                        _add_solve_arguments, _run_solve))
