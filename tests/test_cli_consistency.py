"""Rules every command follows alike, whatever its game: --games and --n name one number."""

from __future__ import annotations

import pytest

from analysis.cli import command_parser, main
from analysis.commands import commands
from simcore import runner


def _taking_games_and_n() -> list[tuple[str, str]]:
    """(command, game) of every command that accepts both --games and --n."""
    rows = []
    for command, table in sorted(commands().items()):
        for game, spec in sorted(table.items()):
            options = {o for action in command_parser(command, game, spec)._actions for o in action.option_strings}
            if {"--games", "--n"} <= options:
                rows.append((command, game))
    return rows


BOTH = _taking_games_and_n()


def _required_words(command: str, game: str) -> list[str]:
    """A placeholder value for each required option, so that parsing gets past them."""
    parser = command_parser(command, game, commands()[command][game])
    return [word for action in parser._actions if action.required for word in (action.option_strings[0], "x")]


def test_the_survey_finds_the_game_counting_commands():
    assert {("match", "bauernstoss"), ("match", "dreeg"), ("match", "pinochle3"), ("stats", "dreeg")} <= set(BOTH)


@pytest.mark.parametrize("first,second", [("--games", "--n"), ("--n", "--games")])
@pytest.mark.parametrize("command,game", BOTH, ids=[f"{c}-{g}" for c, g in BOTH])
def test_games_and_n_that_differ_are_refused_in_one_line(capsys, monkeypatch, command, game, first, second):
    def no_simulation(*args, **kw):
        raise AssertionError("simulated although --games and --n differ")

    monkeypatch.setattr(runner, "run", no_simulation)
    code = main([command, game, *_required_words(command, game), first, "6", second, "8"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"cardsim: error: give {first} or {second}, not both ({first} 6 and {second} 8 differ)\n"


@pytest.mark.parametrize("command,game", BOTH, ids=[f"{c}-{g}" for c, g in BOTH])
def test_games_and_n_that_agree_or_come_alone_set_the_size(command, game):
    parser = command_parser(command, game, commands()[command][game])
    required = _required_words(command, game)
    for words in (["--games", "6", "--n", "6"], ["--n", "6", "--games", "6"], ["--games", "6"], ["--n", "6"],
                  ["--n", "6", "--n", "6"], ["--n", "6", "--games", "6", "--n", "6"]):
        assert parser.parse_args(required + words).n == 6, words
    assert parser.parse_args(required).n == parser.get_default("n")


@pytest.mark.parametrize("words,message", [
    (["--n", "6", "--games", "6", "--games", "9"], "give --n or --games, not both (--n 6 and --games 9 differ)"),
    (["--games", "6", "--n", "6", "--n", "9"], "give --games or --n, not both (--games 6 and --n 9 differ)"),
    (["--n", "5", "--games", "5", "--n", "6"], "--n is given twice, as '5' and '6'; give it once"),
    (["--n", "5", "--n", "6"], "--n is given twice, as '5' and '6'; give it once"),
])
def test_a_repeated_alias_must_still_agree_with_the_other(words, message):
    """Once --games and --n agree, giving one of them again with another value is refused too, and so is one flag
    given twice with two values."""
    from simcore.errors import CardsimError

    parser = command_parser("match", "pinochle3", commands()["match"]["pinochle3"])
    with pytest.raises(CardsimError) as error:
        parser.parse_args(_required_words("match", "pinochle3") + words)
    assert str(error.value) == message
