"""The game registry: games declare themselves here; commands look them up by name.

A `Game` is data: its name, title, deck and the rule options with their defaults. The core never
names a game; the analysis commands find a game's pieces through its registered module.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from simcore.cards import Deck
from simcore.errors import CardsimError, did_you_mean, unknown_name


@dataclass(frozen=True)
class Option:
    """A named rule option: its default, the allowed choices and a one-line meaning."""

    name: str
    default: object
    choices: tuple = ()
    help: str = ""


@dataclass(frozen=True)
class AnyNumber:
    """A choice that stands for every number from ``minimum`` to ``maximum`` (an option with a free value, e.g. a
    stake; the maximum keeps sums of squares exact enough in floats); ``whole``: whole numbers only (12.0 is 12);
    ``step``: multiples of it only (a score that moves in tens)."""

    minimum: float = 0
    maximum: float = 1e9
    whole: bool = False
    step: int | None = None

    def admits(self, value) -> bool:
        return (isinstance(value, (int, float)) and not isinstance(value, bool)
                and self.minimum <= value <= self.maximum and (not self.whole or float(value).is_integer())
                and (self.step is None or float(value) % self.step == 0))

    def chosen(self, value):
        """An admitted ``value`` as the option holds it: a whole number as an int."""
        return int(value) if self.whole else value

    def __repr__(self) -> str:
        steps = f" in steps of {self.step}" if self.step else ""
        return f"any {'whole ' if self.whole else ''}number from {self.minimum:,g} to {self.maximum:,.0f}{steps}"


@dataclass(frozen=True)
class AnySubset:
    """A choice that stands for every comma list of some of ``names`` (an option naming members of a set, e.g. the
    melds that keep a bonus), given as text ("rope,aces") or, from Python, as a list, tuple or set of names; the
    option holds them in ``names`` order, joined by commas."""

    names: tuple[str, ...]

    def _parts(self, value) -> list[str]:
        if isinstance(value, (list, tuple, set, frozenset)) and all(isinstance(part, str) for part in value):
            return [part.strip().lower() for part in value]
        return [part.strip().lower() for part in value.split(",")] if isinstance(value, str) else []

    def admits(self, value) -> bool:
        parts = self._parts(value)
        return bool(parts) and set(parts) <= set(self.names) and len(parts) == len(set(parts))

    def chosen(self, value) -> str:
        """An admitted ``value`` as the option holds it: its names in ``names`` order."""
        return ",".join(name for name in self.names if name in self._parts(value))

    def __repr__(self) -> str:
        return f"a comma list (or a list) of some of {', '.join(self.names)}"


FREE_CHOICES = (AnyNumber, AnySubset)
"""Choices that stand for many values (`admits` one, `chosen` gives it as the option holds it)."""
NOT_MODELLED = "(alternative not modelled)"


def default_only(name: str, default, help: str) -> Option:
    """An option whose spec default is the only rule played: its one choice is the default, its help ends
    `NOT_MODELLED`."""
    return Option(name, default, (default,), f"{help} {NOT_MODELLED}")


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    deck: Deck
    rules_file: str
    options: tuple[Option, ...] = ()


_GAMES: dict[str, Game] = {}


def register(game: Game) -> Game:
    if game.name in _GAMES:
        raise ValueError(f"game {game.name} registered twice")
    _GAMES[game.name] = game
    return game


def games() -> dict[str, Game]:
    importlib.import_module("simcore.games")  # registers every game
    return dict(_GAMES)


def get_game(name: str) -> Game:
    known = games()
    key = name.strip().lower()
    if key not in known:
        raise unknown_name("game", name, sorted(known))
    return known[key]


def same_type(value, choice) -> bool:
    """The default kind check of `chosen_options`: a value matches only choices of its own type (True is
    not 1, 1.0 is not 1)."""
    return type(value) is type(choice)


def chosen_options(game_name: str, options: tuple[Option, ...], chosen: dict, same_kind=same_type,
                   typed: dict[str, str] | None = None) -> dict:
    """Every option of ``options`` by name: ``chosen`` values over the defaults.

    Raises CardsimError for an unknown option or a value outside its choices: a value must equal a choice
    and be of its kind, ``same_kind(value, choice)``, or be admitted by an `AnyNumber` or `AnySubset` choice; the
    choice itself is returned (300.0 given for the choice 300 comes back as 300), an admitted number as given (by a
    whole-number choice as an int), an admitted list in its choice's order.
    ``typed``: option name -> the value as the user typed it, which the error quotes (else it shows the value).
    """
    known = {o.name: o for o in options}
    out = {name: o.default for name, o in known.items()}
    for name, value in chosen.items():
        if name not in known:
            raise unknown_name(f"{game_name} option", name, known)
        matches = [c.chosen(value) if isinstance(c, FREE_CHOICES) else c for c in known[name].choices
                   if (c.admits(value) if isinstance(c, FREE_CHOICES) else value == c and same_kind(value, c))]
        if not matches:
            shown = f"'{typed[name]}'" if typed and name in typed else repr(value)
            choices = _choices_text(known[name].choices)
            named = [c for c in known[name].choices if isinstance(c, str) or c is None]
            raise CardsimError(f"{game_name} option {name} cannot be {shown}{did_you_mean(value, named)}; "
                               f"choose one of {choices}")
        out[name] = matches[0]
    return out


def _choices_text(choices: tuple) -> str:
    """An option's choices for an error: "(1, 0.1)", "('BS', 'AS')", "(any whole number from 2 to 100)"."""
    return f"({', '.join(map(repr, choices))})"
