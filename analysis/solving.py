"""Shared pieces of the ``solve`` commands: the trump, a seat, a deal given as hands separated by '/',
and a line of perfect play split into tricks for text and JSON."""

from __future__ import annotations

import threading
from typing import Callable

import numpy as np

from analysis.commands import whole_value
from simcore.errors import CardsimError


def interruptible(func: Callable, *args):
    """``func(*args)`` run in a daemon thread while this thread waits, so that Ctrl-C stops a long solve at
    once (KeyboardInterrupt here; the compiled solvers release the GIL but never look at signals, so a
    solve called directly finishes first). For the command line, which exits after an interrupt: the
    abandoned thread runs on until then."""
    outcome: dict = {}

    def target():
        try:
            outcome["value"] = func(*args)
        except BaseException as exc:  # handed to the waiting thread as it is
            outcome["error"] = exc

    worker = threading.Thread(target=target, daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.05)
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def parse_trump(text: str, deck, flag: str = "--trump") -> int:
    """Suit index of a trump (or another suit, given with ``flag``) as one of ``deck.suits`` or
    ``deck.suit_names`` (any case); CardsimError otherwise."""
    key = text.strip().upper() if isinstance(text, str) else None
    for index, (letter, name) in enumerate(zip(deck.suits, deck.suit_names)):
        if key in (letter.upper(), name.upper()):
            return index
    raise CardsimError(f"{flag} '{text}' is not a suit; give one of {', '.join(deck.suits)} "
                       f"({', '.join(deck.suit_names)})")


def parse_seat(text, seats: int, flag: str, note: str = "") -> int:
    """A seat 0 to seats - 1 given with ``flag`` (text or int; ``note`` ends the error's list of seats);
    CardsimError otherwise."""
    value = text if isinstance(text, int) and not isinstance(text, bool) else whole_value(str(text))
    if value not in range(seats):
        names = ", ".join(map(str, range(seats - 1))) + f" or {seats - 1}"
        raise CardsimError(f"{flag} must be {names}{note}, got {text!r}")
    return value


def parse_deal(text: str, deck, hand_size: int | range, seats: int, free_seat: int | None = None,
               label: str = "seat") -> np.ndarray:
    """The hands of seats 0 to seats - 1 separated by '/' -> (seats,) uint64 masks; every hand holds
    ``hand_size`` cards, or when it is a range (an ending) the same number of cards from it; the hand of
    ``free_seat`` (a player who sits out) may hold any number, none included. CardsimError if malformed
    (for a range, naming every hand's number of cards); ``label`` names a place in the messages (Dreeg:
    "position")."""
    if not isinstance(text, str):
        raise CardsimError(f"--deal must be the {seats} hands as one text, separated by '/', got {text!r}")
    parts = text.split("/")
    if len(parts) != seats:
        raise CardsimError(f"--deal needs {seats} hands for {label}s 0-{seats - 1} separated by '/', got {len(parts)}")
    parsed = deck.parse_groups({f"{label} {s}": part for s, part in enumerate(parts)})
    checked = {name: cards for s, (name, cards) in enumerate(parsed.items()) if s != free_seat}
    if isinstance(hand_size, int):
        for name, cards in checked.items():
            if len(cards) != hand_size:
                raise CardsimError(f"--deal: {name} holds {len(cards)} card{'s' * (len(cards) != 1)}; every hand "
                                   f"needs {hand_size}")
    else:
        counts = [len(cards) for cards in checked.values()]
        if len(set(counts)) > 1 or counts[0] not in hand_size:
            # every hand's count: when sizes differ, no one hand is "the" wrong one
            shown = [s for s in range(seats) if s != free_seat]
            whose = f"{label}s {shown[0]}-{shown[-1]}" if free_seat is None else f"{label}s {listed(shown)}"
            but = "" if free_seat is None else f" but {label} {free_seat}'s (who sits out)"
            raise CardsimError(f"--deal: the hands of {whose} hold {listed(counts)} cards; every hand{but} needs the "
                               f"same number of cards, {hand_size[0]} to {hand_size[-1]}")
    return np.array([deck.mask(cards) for cards in parsed.values()], dtype=np.uint64)


def listed(items) -> str:
    """"1, 2 and 3" of a list of items ("1" of one)."""
    items = [str(item) for item in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def split_tricks(line: list[tuple[int, int]], seats: int, winner_slot: Callable, points: Callable,
                 token: Callable) -> list[dict]:
    """A line of play [(seat, card), ...] as tricks [{"plays": [(seat, token), ...], "winner": seat,
    "points"}, ...]: winner_slot(cards (seats,) int64) -> the winning place from the leader,
    points(cards, last trick?) -> the trick's points, token(card) -> its text."""
    tricks = []
    for k in range(0, len(line), seats):
        plays = line[k:k + seats]
        cards = np.array([card for _, card in plays], dtype=np.int64)
        tricks.append({"plays": [(seat, token(card)) for seat, card in plays],
                       "winner": plays[int(winner_slot(cards))][0], "points": points(cards, k + seats == len(line))})
    return tricks


def solve_json(game: str, result: dict) -> dict:
    """A solve command's JSON: ``result`` under "game", its "tricks" (`split_tricks`, or None) with every
    play as a [seat, token] list."""
    tricks = result["tricks"]
    if tricks is not None:
        tricks = [{**t, "plays": [[seat, token] for seat, token in t["plays"]]} for t in tricks]
    return {"game": game, **result, "tricks": tricks}


def tricks_text(tricks: list[dict], winner_note: Callable[[int], str] = lambda seat: "",
                points: bool = True, label: str = "seat") -> list[str]:
    """One text line a trick: its plays (seat:card), the winning seat (and ``winner_note(seat)``) and,
    with ``points``, its points; ``label`` names a place (Dreeg: "position")."""
    width = len(str(len(tricks)))
    lines = ["one line of perfect play:"]
    for k, trick in enumerate(tricks):
        cards = "  ".join(f"{seat}:{token}" for seat, token in trick["plays"])
        lines.append(f"  trick {k + 1:{width}d}: {cards}  -> {label} {trick['winner']}{winner_note(trick['winner'])}"
                     + (f" +{trick['points']}" if points else ""))
    return lines
