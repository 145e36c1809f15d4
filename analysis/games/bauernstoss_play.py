"""Bauernstoss double-dummy ``solve`` command: the card points each team takes under perfect play of
a deal (or of an ending) with every hand known, and one line of perfect play.

Command line::

    cardsim solve bauernstoss --deal "cB sA ... / ... / ... / ..." --trump h [--leader 1] [--variant BS]
        [--jack-rule overtake_when_trumping] [--json]

Python API::

    from analysis.games.bauernstoss_play import solve
    result = solve("cB hB cA cT sK h7 d8 d9 / ...", "h")

Seats 0-3 clockwise, dealer seat 0, so forehand (seat 1) leads a full deal; team = seat % 2.
"""

from __future__ import annotations

import argparse

from analysis.commands import Command, emit, register_command
from analysis.games.bauernstoss import COLUMNS, VARIANT_NAMES, parse_seat, parse_variant
from analysis.solving import interruptible, parse_deal, parse_trump, solve_json, split_tricks, tricks_text
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as solver

GAME = "bauernstoss"
DEFAULT_JACK_RULE = bs.rule_options()["jack_rule"]


def play_rule_of(variant: str, jack_rule: str | None) -> int:
    """The play-rule code of ``variant`` and ``jack_rule`` (a Bauernstoss option only: None, the
    default rule with BS; any rule given with AS or DS is refused, even the default one)."""
    variant = parse_variant(variant)
    if jack_rule is None:
        jack_rule = DEFAULT_JACK_RULE
    elif variant != "BS":
        raise CardsimError(f"--jack-rule applies only with --variant BS ({VARIANT_NAMES[variant]} has its own "
                           "play rule); drop it or use --variant BS")
    bs.rule_options(jack_rule=jack_rule)
    return play.play_rule(variant, jack_rule)


def trick_points(cards, last: bool) -> int:
    """Card points of a trick's cards (``last`` does not matter in Bauernstoss)."""
    return int(sum(int(bs.FACE_POINTS[c]) for c in cards))


def solve(deal: str, trump: str, leader=None, variant: str = "BS", jack_rule: str | None = None,
          solo=None) -> dict:
    """Double-dummy result of a deal or an ending (every hand the same number of cards, 1-8, at a
    trick start; ``jack_rule`` None: the default with BS, none with AS and DS, which refuse one):
    {"trump", "leader", "variant", "jack_rule" (None with AS and DS), "hands", "solo": None, "points":
    [team 0, team 1] (card points each takes under perfect play; they add up to the points in play),
    "total", "tricks": [{"plays": [(seat, token), ...], "winner", "points"}, ...] (one line of perfect
    play)}. ``leader`` None: forehand (seat 1).

    ``solo``: the soloist's seat (his partner sits out, §5.4, his hand of any size, none included, ignored
    but for the club jack; the hands after any Small Solo exchange): "solo" is that seat, "solo_won"
    whether he takes every trick under perfect play (`solo_wins`) and "solo_tricks" how many he takes before
    losing one (all when won; `solo_line`), with "points" and "total" None; ``leader``
    None: the §5.4 leader of a full deal (`solo_leader`); in an ending the soloist, who has won every trick so
    far, leads."""
    variant = parse_variant(variant)
    sitting_out = None if solo is None else (parse_seat(solo, "--solo") + 2) % bs.SEATS
    hands = parse_deal(deal, bs.DECK, range(1, bs.HAND_SIZE + 1), bs.SEATS, free_seat=sitting_out)
    if sitting_out is not None and int(hands[sitting_out]).bit_count() > bs.HAND_SIZE:
        raise CardsimError(f"--deal: seat {sitting_out}, who sits out, holds {int(hands[sitting_out]).bit_count()} "
                           f"cards; a hand has at most {bs.HAND_SIZE} (or leave it empty)")
    suit = parse_trump(trump, bs.DECK)
    rule = play_rule_of(variant, jack_rule)
    soloist = None if solo is None else solo_seat(hands, solo, variant)
    seat = lead_seat(leader, soloist, int(hands[soloist or 0]).bit_count() == bs.HAND_SIZE)
    result = {"trump": bs.DECK.suits[suit], "leader": seat, "variant": variant,
              "jack_rule": (jack_rule or DEFAULT_JACK_RULE) if variant == "BS" else None,
              "hands": [bs.DECK.format_cards(bs.DECK.cards_of(h)) for h in hands], "solo": soloist}
    if soloist is not None:
        won, held_out, line = solver.solo_line(hands, suit, soloist, seat, rule)
        tricks = split_tricks(line, bs.SEATS - 1, lambda cards: play.winning_slot(cards, bs.SEATS - 1, suit),
                              trick_points, bs.DECK.token)
        return {**result, "solo_won": won, "solo_tricks": held_out, "points": None, "total": None, "tricks": tricks}
    team0, line = solver.optimal_line(hands, suit, seat, 0, rule)
    total = trick_points([c for h in hands for c in bs.DECK.cards_of(int(h))], True)
    tricks = split_tricks(line, bs.SEATS, lambda cards: play.winning_slot(cards, bs.SEATS, suit), trick_points,
                          bs.DECK.token)
    return {**result, "points": [int(team0), total - int(team0)], "total": total, "tricks": tricks}


def lead_seat(leader, soloist: int | None, full: bool) -> int:
    """The seat on lead (dealer 0): ``leader`` (--leader) if given, else forehand (seat 1). In a solo the
    §5.4 leader of a full deal (`solo_leader`), in an ending the soloist, who has won every trick so far;
    the partner, who sits out, never leads."""
    if leader is None:
        return 1 if soloist is None else play.solo_leader(0, soloist) if full else soloist
    seat = parse_seat(leader, "--leader")
    if soloist is not None and not full and seat != soloist:
        raise CardsimError(f"--leader {seat}: in a solo ending the soloist (seat {soloist}) leads, having won "
                           "every trick so far (§5.4); drop --leader")
    if soloist is not None and seat == (soloist + 2) % bs.SEATS:
        raise CardsimError(f"--leader {seat} is the soloist's partner, who sits out the solo (§5.4); "
                           f"give another seat or drop --leader")
    return seat


def solo_seat(hands, solo, variant: str) -> int:
    """The soloist's seat from ``--solo``, not in DS (DS-6). Only the club jack's holder calls a solo
    (§4.7): a defender holding cB is refused (the soloist may have given it to his partner in a Small Solo
    exchange, or played it already in an ending)."""
    seat = parse_seat(solo, "--solo")
    if variant == "DS":
        raise CardsimError("spec §7.2 DS-6: Deutscher Schafkopf has no solos; drop --solo or use --variant BS or AS")
    holder = [s for s in range(bs.SEATS) if int(hands[s]) >> bs.CLUB_JACK & 1]
    if holder and holder[0] % 2 != seat % 2:
        raise CardsimError(f"--solo {seat}: only the holder of the club jack (cB) may play a solo (§4.7), and seat "
                           f"{holder[0]}, a defender, holds it")
    return seat


def level_marks(points: int, variant: str) -> str:
    """Whether a team's card points of a full deal reach the variant's levels (the columns of `odds`,
    `COLUMNS`), e.g. ">=42 chalk yes, >=79 no chalk no, >=91 schneider no"."""
    marks = []
    for key, label in COLUMNS[variant]:
        name = label.split(") ", 1)[1]
        reached = points <= 59 if key == "p_le59" else points >= int(key[1:])
        marks.append(f"{'<=59' if key == 'p_le59' else '>=' + key[1:]} {name} {'yes' if reached else 'no'}")
    return ", ".join(marks)


def format_solve(result: dict) -> str:
    suit = bs.DECK.suit_names[bs.DECK.suits.index(result["trump"])]
    rules = VARIANT_NAMES[result["variant"]] + (f", jack rule {result['jack_rule']}" if result["variant"] == "BS"
                                                else "")
    lines = [f"Bauernstoss double dummy: trump {result['trump']} ({suit}), seat {result['leader']} leads; {rules}"]
    lines += [f"  seat {s} (team {s % 2}): {hand}" for s, hand in enumerate(result["hands"])]
    soloist = result["solo"]
    if soloist is not None:
        held_out = result["solo_tricks"]
        lost = "he loses the first trick" if held_out == 0 else \
            f"holding out as long as he can, he takes {held_out} trick{'' if held_out == 1 else 's'} before the " \
            "defenders win one"
        verdict = "takes every trick under perfect play" if result["solo_won"] else \
            f"cannot take every trick under perfect play: {lost}"
        lines += ["", f"solo by seat {soloist} (seat {(soloist + 2) % bs.SEATS} sits out): the soloist {verdict}"]
        lines += tricks_text(result["tricks"], lambda seat: " (soloist)" if seat == soloist else " (the solo is lost)",
                             points=False)
        lines[-len(result["tricks"]) - 1] = "one line of perfect play (each side choosing the first card that keeps " \
                                            "its aim; solo card points do not count, §8 A21):"
        return "\n".join(lines)
    # the levels are aims for a whole deal: an ending leaves out the tricks already taken
    full = len(result["tricks"]) == bs.TRICKS
    lines += ["", f"card points under perfect play (of {result['total']} in play"
                  + ("):" if full else "; an ending: tricks already taken are not counted):")]
    for team, points in enumerate(result["points"]):
        lines.append(f"  team {team} (seats {team} and {team + 2}): {points:3d}"
                     + (f"   {level_marks(points, result['variant'])}" if full else ""))
    lines += tricks_text(result["tricks"], lambda seat: f" (team {seat % 2})")
    return "\n".join(lines)


def _add_solve_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deal", required=True,
                        help='four hands for seats 0-3 separated by "/", 8 cards each for a full deal (fewer, the '
                             'same number each, for an ending), e.g. "cB sA sK s9 hA h9 d7 d8 / ..."')
    parser.add_argument("--trump", required=True, help="trump suit: c, s, h or d")
    parser.add_argument("--leader", default=None,
                        help="seat on lead, 0-3 (default 1: forehand leads a full deal; for a solo the §5.4 leader)")
    parser.add_argument("--solo", default=None, metavar="SEAT",
                        help="ask instead whether the soloist at SEAT (the club jack's holder; his partner sits out, "
                             "his hand may be left empty) takes every trick (§4.7, §5.4); give the hands after any "
                             "Small Solo exchange; in an ending the soloist leads")
    parser.add_argument("--variant", default="BS", help="play rules: BS (Bauernstoss, default), AS (Alter "
                        "Schoofkopp) or DS (Deutscher Schafkopf), spec §7")
    parser.add_argument("--jack-rule", default=None,
                        help="BS jack rule: overtake_when_trumping (default), always_overrides_follow or off (§8 A1); "
                             "refused with AS and DS")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _run_solve(args: argparse.Namespace) -> int:
    result = interruptible(solve, args.deal, args.trump, args.leader, args.variant, args.jack_rule, args.solo)
    return emit(args, result, lambda r: solve_json(GAME, r), format_solve)


register_command("solve", GAME, Command("double-dummy card points of a deal with all hands known",
                                        _add_solve_arguments, _run_solve))
