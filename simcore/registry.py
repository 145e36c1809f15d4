"""The game registry: games declare themselves here; commands look them up by name.

A `Game` is data: its name, title, deck and the rule options with their defaults. The core never
names a game; the analysis commands find a game's pieces through its registered module.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcore.cards import Deck
from simcore.errors import CardsimError


@dataclass(frozen=True)
class Option:
    """A named rule option: its default, the allowed choices and a one-line meaning."""

    name: str
    default: object
    choices: tuple = ()
    help: str = ""


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
    import simcore.games  # noqa: F401  (registers every game)

    return dict(_GAMES)


def get_game(name: str) -> Game:
    known = games()
    key = name.strip().lower()
    if key not in known:
        raise CardsimError(f"unknown game '{name}'; choose one of: {', '.join(sorted(known))}")
    return known[key]


def chosen_options(game_name: str, options: tuple[Option, ...], chosen: dict) -> dict:
    """Every option of ``options`` by name: ``chosen`` values over the defaults.

    Raises CardsimError for an unknown option or a value outside its choices.
    """
    known = {o.name: o for o in options}
    for name, value in chosen.items():
        if name not in known:
            raise CardsimError(f"unknown {game_name} option '{name}'; options are {', '.join(known)}")
        if not any(value == c and type(value) is type(c) for c in known[name].choices):
            raise CardsimError(f"{game_name} option {name}={value!r}: choose one of {known[name].choices}")
    return {name: chosen.get(name, o.default) for name, o in known.items()}
