"""Shared pieces of the ``solve`` commands: the trump, a deal given as hands separated by '/', and a
line of perfect play split into tricks for text and JSON."""

from __future__ import annotations

from typing import Callable

import numpy as np

from simcore.errors import CardsimError


def parse_trump(text: str, deck) -> int:
    """Suit index of a trump given as one of ``deck.suits`` or ``deck.suit_names`` (any case);
    CardsimError otherwise."""
    key = text.strip().upper()
    for index, (letter, name) in enumerate(zip(deck.suits, deck.suit_names)):
        if key in (letter.upper(), name.upper()):
            return index
    raise CardsimError(f"--trump '{text}' is not a suit; give one of {', '.join(deck.suits)} "
                       f"({', '.join(deck.suit_names)})")


def parse_deal(text: str, deck, hand_size: int | range, seats: int) -> np.ndarray:
    """The hands of seats 0 to seats - 1 separated by '/' -> (seats,) uint64 masks; every hand holds
    ``hand_size`` cards, or when it is a range (an ending) the same number of cards from it.
    CardsimError if malformed."""
    parts = text.split("/")
    if len(parts) != seats:
        raise CardsimError(f"--deal needs {seats} hands for seats 0-{seats - 1} separated by '/', got {len(parts)}")
    parsed = deck.parse_groups({f"seat {s}": part for s, part in enumerate(parts)})
    sizes = range(hand_size, hand_size + 1) if isinstance(hand_size, int) else hand_size
    need = sizes[0] if len(sizes) == 1 else f"the same number of cards, {sizes[0]} to {sizes[-1]}"
    first = len(parsed["seat 0"])
    for label, cards in parsed.items():
        if len(cards) not in sizes or len(cards) != first:
            raise CardsimError(f"--deal: {label} holds {len(cards)} card{'s' * (len(cards) != 1)}; every hand needs "
                               f"{need}")
    return np.array([deck.mask(cards) for cards in parsed.values()], dtype=np.uint64)


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


def tricks_json(tricks: list[dict] | None) -> list[dict] | None:
    """`split_tricks` output with every play as a [seat, token] list."""
    if tricks is None:
        return None
    return [{**t, "plays": [[seat, token] for seat, token in t["plays"]]} for t in tricks]


def tricks_text(tricks: list[dict], winner_note: Callable[[int], str] = lambda seat: "") -> list[str]:
    """One text line a trick: its plays (seat:card), the winning seat (and ``winner_note(seat)``) and
    its points."""
    width = len(str(len(tricks)))
    lines = ["one line of perfect play:"]
    for k, trick in enumerate(tricks):
        cards = "  ".join(f"{seat}:{token}" for seat, token in trick["plays"])
        lines.append(f"  trick {k + 1:{width}d}: {cards}  -> seat {trick['winner']}{winner_note(trick['winner'])} "
                     f"+{trick['points']}")
    return lines
