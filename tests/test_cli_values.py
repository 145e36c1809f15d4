"""One rule for the values of every option, whatever the game: names in any case and without surrounding
spaces, whole numbers in ASCII digits (300.0 is 300), errors that quote the value as typed."""

from __future__ import annotations

import json

import pytest

from analysis.cli import command_parser, main
from analysis.commands import commands, option_items, whole_value
from simcore import runner
from simcore.betting import load_policy

DREEG_ODDS = ["--phase", "1", "--hand", "HA H10 HK HO E9 L9"]
GILTSPIEL_ODDS = ["--hand", "LA SA H10 E9 E8"]
PERLAGGEN_ODDS = ["--hand", "S6 LA LK L8 E10", "--trump", "L"]


def parsed(command: str, game: str, *words: str):
    return command_parser(command, game, commands()[command][game]).parse_args(list(words))


def refused(capsys, monkeypatch, *argv: str) -> str:
    """The one error line of ``cardsim argv`` (exit code 2, nothing simulated, nothing printed)."""
    def no_simulation(*args, **kw):
        raise AssertionError("simulated although the input is bad")

    monkeypatch.setattr(runner, "run", no_simulation)
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("cardsim: error: "), err
    return err


@pytest.mark.parametrize("command,words,dest,value", [
    ("odds", [*DREEG_ODDS, "--policy", "Greedy"], "policy", "greedy"),
    ("odds", [*DREEG_ODDS, "--policy", " PIMC "], "policy", "pimc"),
    ("stats", ["--policy", "RANDOM"], "policy", "random"),
    ("match", ["--a", "Sly", "--b", " greedy"], "a", "sly"),
    ("match", ["--a", "Sly", "--b", " greedy"], "b", "greedy"),
    ("thresholds", ["--decision", "Close"], "decision", "close"),
    ("thresholds", ["--decision", "ALL"], "decision", "all"),
])
def test_dreeg_names_take_any_case_and_surrounding_spaces(command, words, dest, value):
    assert getattr(parsed(command, "dreeg", *words), dest) == value


def test_a_dreeg_match_runs_with_names_in_another_case(capsys):
    code = main(["match", "dreeg", "--a", " Greedy", "--b", "RANDOM", "--n", "2", "--seed", "1", "--json",
                 "--no-progress"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and (data["a"], data["b"]) == ("greedy", "random")


@pytest.mark.parametrize("argv,message", [
    (["match", "dreeg", "--b", "Smart"],
     "argument --b: invalid choice: 'Smart' (choose from random, greedy, pimc, sly)"),
    (["thresholds", "dreeg", "--decision", "clos"],
     "argument --decision: invalid choice: 'clos' (did you mean 'close'?) (choose from close, call, durchmarsch, "
     "hide, moment, surrender, exchange, value, all)"),
])
def test_an_unknown_dreeg_name_is_quoted_with_the_choices(capsys, monkeypatch, argv, message):
    assert message in refused(capsys, monkeypatch, *argv)


@pytest.mark.parametrize("spec", [" formula", "formula ", " Formula\t"])
def test_betting_policy_names_lose_their_surrounding_spaces(spec):
    assert load_policy(spec).name == "formula"


def test_a_betting_policy_file_and_its_name_lose_their_surrounding_spaces(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bold.json").write_text(json.dumps({"name": " bold ", "bet_margin": 0.1}))
    assert load_policy(" bold.json ").name == "bold"


def test_a_betting_policy_named_by_no_text_is_refused_in_one_line(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.json").write_text(json.dumps({"name": 5}))
    err = refused(capsys, monkeypatch, "match", "giltspiel", "--a", "p.json", "--b", "never")
    assert "a policy's name must be a text of visible characters on one line, got 5" in err


@pytest.mark.parametrize("policy, message", [
    ({"name": "a\nb"}, "visible characters on one line, got 'a\\nb'"),
    ({"name": ""}, 'write e.g. "name": "bold"'),
])
def test_a_betting_policy_file_with_a_broken_name_is_refused(tmp_path, monkeypatch, capsys, policy, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "p.json").write_text(json.dumps(policy))
    assert message in refused(capsys, monkeypatch, "match", "giltspiel", "--a", "p.json", "--b", "never")


@pytest.mark.parametrize("text,value", [("300", 300), ("300.0", 300), (" +3 ", 3), ("1_000", 1000), ("1e6", 10**6),
                                        ("-0", 0), ("３００", None), ("٣", None), ("²", None), ("2.5", None),
                                        ("nan", None), ("inf", None), ("1e400", None), ("", None), ("0x10", None)])
def test_whole_numbers_are_ascii_and_may_have_a_zero_fraction(text, value):
    assert whole_value(text) == value


# Every whole-number flag of the shared options and of Dreeg, Giltspiel and Perlaggen: (command, game, words
# that make the command parse, flag, a valid value).
WHOLE_FLAGS = [
    ("odds", "dreeg", DREEG_ODDS[2:], "--phase", 3),
    ("odds", "dreeg", DREEG_ODDS, "--players", 3),
    ("odds", "dreeg", DREEG_ODDS, "--position", 2),
    ("odds", "dreeg", DREEG_ODDS, "--n", 300),
    ("odds", "dreeg", DREEG_ODDS, "--seed", 300),
    ("stats", "dreeg", [], "--games", 3),
    ("odds", "giltspiel", GILTSPIEL_ODDS, "--seat", 2),
    ("odds", "giltspiel", GILTSPIEL_ODDS, "--pimc-samples", 3),
    ("odds", "giltspiel", GILTSPIEL_ODDS, "--pimc-deals", 300),
    ("odds", "giltspiel", GILTSPIEL_ODDS, "--chunk-size", 300),
    ("stats", "giltspiel", [], "--seat", 2),
    ("odds", "perlaggen", PERLAGGEN_ODDS, "--seat", 2),
    ("stats", "perlaggen", [], "--players", 6),
    ("stats", "perlaggen", [], "--hand-size", 5),
    ("match", "perlaggen", ["--a", "formula", "--b", "never"], "--players", 2),
    ("match", "perlaggen", ["--a", "formula", "--b", "never"], "--hand", 7),
    ("match", "perlaggen", ["--a", "formula", "--b", "never"], "--target", 15),
    ("match", "giltspiel", ["--a", "formula", "--b", "never"], "--games", 300),
    ("match", "giltspiel", ["--a", "formula", "--b", "never"], "--seed", 300),
]


@pytest.mark.parametrize("command,game,words,flag,value", WHOLE_FLAGS,
                         ids=[f"{c}-{g}-{f}" for c, g, _, f, _ in WHOLE_FLAGS])
def test_every_whole_number_flag_takes_a_zero_fraction_and_refuses_other_digits(capsys, monkeypatch, command,
                                                                                 game, words, flag, value):
    dest = flag[2:].replace("-", "_")
    dest = "n" if dest == "games" and game == "dreeg" else dest
    assert getattr(parsed(command, game, *words, flag, f"{value}.0"), dest) == value
    digits = str(value).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    err = refused(capsys, monkeypatch, command, game, *words, flag, digits)
    assert f"argument {flag}: " in err and f"'{digits}'" in err


def test_option_values_follow_the_same_rule():
    assert option_items(["strokes_per_phase=10.0", "counting_error_percent=+5"]) == {
        "strokes_per_phase": 10, "counting_error_percent": 5}
    assert option_items(["strokes_per_phase=１０"]) == {"strokes_per_phase": "１０"}  # text: no choice matches
    assert parsed("stats", "dreeg", "--option", "strokes_per_phase=10.0").option == ["strokes_per_phase=10.0"]


@pytest.mark.parametrize("argv,message", [
    (["stats", "dreeg", "--option", "strokes_per_phase=true"],
     "dreeg option strokes_per_phase cannot be 'true'; choose one of (7, 10)"),
    (["stats", "dreeg", "--option", "strokes_per_phase=１０"],
     "dreeg option strokes_per_phase cannot be '１０'; choose one of (7, 10)"),
    (["stats", "dreeg", "--option", "strokes_per_phase=TRUE", "--option", "strokes_per_phase=10"],
     "--option strokes_per_phase is given twice, as 'TRUE' and '10'; give it once"),
    (["stats", "dreeg", "--players", "5.0"], "argument --players: invalid choice: '5.0' (choose from 3, 4)"),
    (["match", "giltspiel", "--a", "formula", "--b", "never", "--target", "1e9"], "got '1e9'"),
    (["stats", "perlaggen", "--players", "5.0"], "argument --players: invalid choice: '5.0' (choose from 2, 3, 4, 6)"),
    (["odds", "giltspiel", *GILTSPIEL_ODDS, "--seed", "-1.0"],
     "argument --seed: seed must be a non-negative whole number, got '-1.0'"),
])
def test_errors_quote_the_value_as_typed(capsys, monkeypatch, argv, message):
    assert message in refused(capsys, monkeypatch, *argv)


HUGE = "9" * 5000
"""A number of more digits than Python reads from text (4,300)."""


@pytest.mark.parametrize("argv,message", [
    (["thresholds", "dreeg", "--decision", "value", "--phase", "4", "--strokes", f"7,5,3,{HUGE}"], "--strokes takes"),
    (["odds", "giltspiel", *GILTSPIEL_ODDS, "--known", f"{HUGE}:HA"], "--known takes a seat"),
    (["odds", "bauernstoss", "--hand", "sB hB dB cA cT sK h7 d8", "--seat", "2", "--calls", HUGE], "--calls: a number"),
    (["odds", "bauernstoss", "--hand", "sB hB dB cA cT sK h7 d8", "--my-call", f"{HUGE} s"], "--my-call: a number"),
])
def test_a_number_of_thousands_of_digits_is_refused_in_one_line(capsys, monkeypatch, argv, message):
    err = refused(capsys, monkeypatch, *argv)
    assert message in err and "5,000 digits is far too large" in err


def test_a_scenario_number_of_thousands_of_digits_is_refused_in_one_line(tmp_path, capsys, monkeypatch):
    scenario = tmp_path / "huge.toml"
    scenario.write_text(f'game = "giltspiel"\ncommand = "odds"\nseed = {HUGE}\n')
    assert "over 4,300 digits" in refused(capsys, monkeypatch, "sweep", str(scenario))
