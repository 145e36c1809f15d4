"""The cardsim command line: output contracts, determinism across --jobs, and bad input."""

import errno
import json
import os
import subprocess
import sys

import pytest

from analysis.cli import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys):
    code, out, err = run_cli(capsys, "odds", "giltspiel", "--hand", "EU E10 H9 H8 SK", "--turnup", "LA",
                             "--n", "70000", "--seed", "3", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "giltspiel" and data["n"] == 70000 and data["seed"] == 3
    expected = {f"{f}.{o}" for f in ("gleich", "hanger")
                for o in ("win", "stand", "lose", "void", "opponent_better", "opponent_equal")}
    assert set(data["estimates"]) == expected
    for fig in ("gleich", "hanger"):
        assert sum(data["estimates"][f"{fig}.{o}"]["p"] for o in ("win", "stand", "lose", "void")) == pytest.approx(1)
    for est in data["estimates"].values():
        assert est["lo"] <= est["p"] <= est["hi"]
    # the hand holds the run U-10 and no pair: it can never be void on the Hanger
    assert data["own"] == {"gleich": "none", "hanger": "U-10"}
    assert data["estimates"]["hanger.void"]["p"] == 0


def test_odds_with_spiel_adds_win_and_lose(capsys):
    args = ["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--turnup", "L7", "--n", "3000", "--seed", "4", "--json"]
    _, plain, _ = run_cli(capsys, *args)
    for method in ("dd", "greedy", "random"):
        code, out, _ = run_cli(capsys, *args, "--spiel", method)
        data = json.loads(out)
        assert code == 0
        assert data["estimates"]["spiel.win"]["p"] + data["estimates"]["spiel.lose"]["p"] == pytest.approx(1)
        # the figure estimates come from the same deals with or without the Spiel
        figures = {k: v for k, v in data["estimates"].items() if not k.startswith("spiel.")}
        assert figures == json.loads(plain)["estimates"]
    # trump Ace and Ace of another suit in the leading hand: double dummy beats random play here
    dd = json.loads(run_cli(capsys, *args, "--spiel", "dd")[1])["estimates"]["spiel.win"]["p"]
    rnd = json.loads(run_cli(capsys, *args, "--spiel", "random")[1])["estimates"]["spiel.win"]["p"]
    assert dd > 0.5 and rnd > 0.5


def test_odds_same_numbers_for_any_jobs_and_chunk_size(capsys):
    args = ["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seat", "1", "--n", "300000", "--seed", "7", "--json"]
    _, one, _ = run_cli(capsys, *args, "--jobs", "1")
    _, two, _ = run_cli(capsys, *args, "--jobs", "2", "--chunk-size", "65536")
    assert json.loads(one) == json.loads(two)


def test_odds_text_names_seed_n_and_intervals(capsys):
    code, out, _ = run_cli(capsys, "odds", "giltspiel", "--hand", "la sa h10 e9 e8", "--n", "20000", "--seed", "5",
                           "--known", "2:HA")
    assert code == 0
    assert "n = 20,000 deals, seed 5" in out and "95% Wilson" in out
    assert "seat 2 holds HA" in out and "best Gleich pair of Aces" in out
    assert out.count("[") >= 8


def test_stats_json_tables(capsys):
    code, out, _ = run_cli(capsys, "stats", "giltspiel", "--n", "65536", "--seed", "1", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data["tables"]) == {"outcome", "best_gleich", "best_hanger", "gleich_by_class", "hanger_by_class",
                                   "gestrichen", "joint", "sweep"}
    best = data["tables"]["best_gleich"]
    assert sum(r["successes"] for r in best) == 65536
    assert len(data["tables"]["best_hanger"]) == 23  # 22 possible runs and none


def test_stats_exact_matches_spec(capsys):
    code, out, _ = run_cli(capsys, "stats", "giltspiel", "--exact", "--json")
    assert code == 0
    facts = {r["event"]: r["hands"] for r in json.loads(out)["tables"]["facts"]}
    assert facts["has a Gleich"] == 144_032 and facts["Hanger of 3+"] == 9_184  # spec §10.2


def test_games_lists_games_and_options(capsys):
    code, out, _ = run_cli(capsys, "games")
    assert code == 0 and "giltspiel" in out and "commands: match, odds, solve, stats, thresholds\n" in out  # dreeg
    code, out, _ = run_cli(capsys, "games", "Giltspiel")
    assert code == 0 and "void_policy = 'nobody_scores'" in out and "target = 11" in out


BAD_INPUT = [
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seat", "0", "--seat", "3"],
     "--seat is given twice, as '0' and '3'; give it once"),
    (["solve", "pinochle3", "--rule", "old", "--rule", "new1945"], "--rule is given twice, as 'old' and 'new1945'"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--turnup", "L7\nX", "--turnup", "HA"],
     "--turnup is given twice, as 'L7\\nX' and 'HA'"),  # a line break is quoted as its escape: one line
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--spiel", "pimc", "--pimc-deals", "1"],
     "--pimc-deals: expected a whole number from 2"),
    (["report", "--n", "1"], "--n: expected a whole number from 2"),
    (["match", "giltspiel", "--a", "aggressive", "--b", "cautious", "--games", "0"],
     "--games: expected a whole number from 2"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 XZ"], "'XZ' is not a card"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 H6"], "'H6' is not a card"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 LA"], "LA is given 2 times"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9"], "exactly 5 cards"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8 E7"], "exactly 5 cards"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--turnup", "SA"], "SA is given 2 times"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--turnup", "HA HK"], "exactly one card"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--known", "3:SA"], "SA is given 2 times"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--known", "three:HA"], "SEAT:CARDS"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--known", "3:"], "SEAT:CARDS"),
    (["tournament", "giltspiel", "--policies", "formula,,cautious"], "has an empty name (two commas in a row"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--known", "1:HA"], "your own seat"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seat", "4"], "--seat must be"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "0"], "from 2 to"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "-5"], "--n"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seed", "abc"], "seed must be"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--jobs", "0"], "from 1 to"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--colour", "red"], "unrecognized arguments"),
    (["odds", "giltspiel"], "--hand"),
    (["odds", "giltspiel", "--hand=--"], "argument --hand: expected one argument; give it a value, e.g. --hand HAND"),
    (["stats", "pinochle3", "--n=--"], "argument --n: expected one argument; give it a value"),
    (["match", "pinochle3", "--a", "bold", "--b", "cautious", "--option=--"], "argument --option: expected one"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seed", "--n=200"],
     "argument --seed: expected one argument; give it a value, e.g. --seed SEED"),
    (["games", "--call", "S10"], "'cardsim games' takes no option --call"),
    (["thresholds", "perlaggen", "--players", "6", "--hand", "S6 LA LK L8", "--games", "4"],
     "argument --hand: expected the number of cards each player holds, e.g. 5 (--hand of this command is a hand size"),
    (["odds", "pinochle3", "--hand", "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ", "--bids", "255",
      "--bids=250:400:30"], "--bids is given twice, as '255' and '250:400:30'; give it once"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seat", "0", "--seat", "0", "--seat=3"],
     "--seat is given twice, as '0' and '3'; give it once"),
    (["odds", "gilt\nspiel", "--hand", "LA"], "unknown game 'gilt\\nspiel'"),
    # session 56's audit: a traceback, a raw argparse message, a limit checked late, a 100 KB line, a wrong hint
    (["odds", "bauernstoss", "--hand", "sB hB dB cA cT sK h7 d8", "--play", "pimc", "--samples", "1e9"],
     "argument --samples: expected a whole number from 1 to 64"),
    (["stats", "bauernstoss", "--min-n", "abc"], "argument --min-n: expected a whole number"),
    (["report", "--full", "--hand-n", "1e12"],
     "--hand-n 1,000,000,000,000 with --full is 10 x 1,000,000,000,000 deals"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--given", "x" * 100_000],
     f"--given '{'x' * 60}... (100,000 characters)' is not understood"),
    (["thresholds", "giltspiel", "--games", "2", "--paired-deals", "1"],
     "argument --paired-deals: expected a whole number from 2 to 1e+06"),
    (["thresholds", "giltspiel", "--games", "2", "--paired-deals", "2"],
     "--paired-deals sizes the tables of --concede: give it, or drop --paired-deals"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 HK HO E9 L9", "--policy", "sly"],
     "--policy sly differs from greedy only in 2-player Rot Assen"),
    (["cache", "--clear=yes"], "--clear is a switch and takes no value: give it alone"),
    (["solve", "pinochle3", "--deal", "S9 SJ / S10 SA / SK SQ", "--trump", "3\n", "--bidder", "1"],
     "--trump '3\\n' is not a suit"),
    (["thresholds", "dreeg", "--decision", "exchange", "--n", "2", "--seed", "1"],
     "none of the 2 deals came to the decision 'exchange'"),
    (["solve", "giltspiel", "--dael", "x"],
     "unrecognized arguments: --dael; did you mean --deal? (see"),
    (["odds", "giltspiel", "--seet", "2"], "unrecognized arguments: --seet; also required: --hand "),
    (["thresholds", "bauernstoss", "--dd-tricks", "8"], "unrecognized arguments: --dd-tricks 8; --dd-tricks is an "
                                                         "option of 'cardsim thresholds' for pinochle3, not for "
                                                         "bauernstoss (see "),
    (["odds", "bauernstoss", "--hand", "x", "--spiel"], "--spiel is an option of 'cardsim odds' for giltspiel and "
                                                       "perlaggen, not for bauernstoss"),
    (["solve", "giltspiel", "--deal", "--E9 L7 S8"], "--deal needs 4 hands for seats 0-3"),
    (["solve", "giltspiel", "--deal", "x", "--trmp=h"], "unrecognized arguments: --trmp=h; did you mean --trump?"),
    (["solve", "giltspiel", "--trump", "h", "--", "--dael"], "the following arguments are required: --deal"),
    (["odds", "skat", "--hand", "LA"], "unknown game 'skat'"),
    (["odds"], "needs a game"),
    (["play", "giltspiel"], "unknown command 'play'; choose one of: lasttrick, match,"),
    (["Odds", "giltspiel"], "unknown command 'Odds' (did you mean 'odds'?); choose one of: lasttrick, match,"),
    (["stats", "giltspiel", "--seat", "9"], "--seat must be"),
    (["games", "whist"], "unknown game 'whist'"),
    (["games", "giltspiel", "extra"], "at most one game"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seed", "\u00b2"], "seed must be"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--known", "\u00b2:HA"], "SEAT:CARDS"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "inf"], "expected a whole number"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "1e13"], "from 2 to"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--chunk-size", "1e400"], "expected a whole number"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--spiel", "perfect"], "invalid choice: 'perfect'"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--spiel", "gredy"],
     "invalid choice: 'gredy' (did you mean 'greedy'?) (choose from"),
    (["match", "giltspiel", "--a", "formla", "--b", "cautious"], "unknown policy 'formla' (did you mean 'formula'?);"),
    (["odds", "pinochle3", "--hand", "SA", "--play", "Gredy"], "invalid choice: 'Gredy' (did you mean 'greedy'?)"),
    (["match", "bauernstoss", "--a", "Cautios", "--b", "b0"],
     "unknown auction policy 'Cautios' (did you mean 'cautious'?); choose one of: b0,"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--checkpoint", ""], "empty"),
    (["report", "--out", ""], "--out: expected a file or folder path, got an empty one"),
    (["odds", "perlaggen", "--hand", "LA SA H10 E9 E8", "--turnup", "H7", "--stakes", "2:1"],
     "--stakes applies only with --level L1"),
    (["stats", "perlaggen", "--players", "3", "--stakes", "2:1"], "--stakes applies only with --level L1"),
    (["stats", "perlaggen", "--exact", "--level", "L1"], "no figure level; drop --level"),
    (["stats", "giltspiel", "--exact", "--n", "5", "--seed", "3"],
     "--exact enumerates every hand, so --n and --seed do not apply; drop them or drop --exact"),
    (["stats", "giltspiel", "--exact", "--seat", "1"], "so --seat does not apply; drop it or drop --exact"),
    (["stats", "giltspiel", "--exact", "--jobs", "1"], "so --jobs does not apply"),
    (["stats", "perlaggen", "--exact", "--n", "2000000"], "so --n does not apply"),
    (["stats", "perlaggen", "--exact", "--style", "innsbruck", "--exchange-gives", "keep_figures"],
     "so --style and --exchange-gives do not apply"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--pimc-samples", "5"],
     "--pimc-samples applies only with --spiel pimc"),
    (["odds", "perlaggen", "--hand", "LA SA H10 E9 E8", "--turnup", "H7", "--spiel", "dd", "--communication",
      "partner", "--pimc-deals", "50"], "--communication and --pimc-deals apply only with --spiel pimc"),
    (["sweep", "scenarios/giltspiel-seats.toml", "--out", " "], "--out: expected a file or folder path"),
    (["tournament", "giltspiel", "--policies", "formula,cautious", "--csv", ""], "--csv: expected a file"),
    (["odds", "pinochle3", "--hand", "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ", "--kitty", ""],
     "--kitty must list 3 cards, got 0"),
]


@pytest.mark.parametrize("argv,message", BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardsim: error: ")
    assert message in lines[0]


@pytest.mark.parametrize("flag", ["--seed", "--n"])
def test_a_number_too_long_to_read_is_quoted_short(capsys, flag):
    """A number of thousands of digits: the one line quotes its first digits and says how many there are."""
    code, out, err = run_cli(capsys, "stats", "giltspiel", flag, "7" * 5000)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert f"got '{'7' * 37}...' (5,000 digits, more than {sys.get_int_max_str_digits():,})" in err


@pytest.mark.parametrize("argv", [
    ["match", "pinochle3", "--a", "bold", "--b", "bold", "--games", "4", "--option", "target=" + "9" * 5000],
    ["odds", "pinochle3", "--hand", "SA", "--bids", "9" * 5000],
    ["meld", "pinochle3", "--hand", "SA", "--option", "double_royal_marriage=" + "9" * 5000],
])
def test_every_check_quotes_a_long_number_short(capsys, argv):
    """Checks that quote the value as given still print one short line: the digits are cut where it is printed."""
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and len(err) < 300
    assert f"{'9' * 20}... (5,000 digits)" in err


def test_console_script_exit_code():
    proc = subprocess.run([sys.executable, "-m", "analysis.cli", "odds", "giltspiel", "--hand", "HA"],
                          capture_output=True, text=True)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def _commands():
    from analysis.commands import commands

    return [(c, g, spec) for c, table in sorted(commands().items()) for g, spec in sorted(table.items())]


@pytest.mark.parametrize("command,game,spec", _commands(), ids=[f"{c}-{g}" for c, g, _ in _commands()])
def test_every_simulating_command_takes_the_cluster_options(command, game, spec):
    """A command that takes --jobs runs through the runner, so it can run on a Dask cluster too."""
    from analysis.cli import command_parser

    options = {o for action in command_parser(command, game, spec)._actions for o in action.option_strings}
    if "--jobs" in options:
        assert {"--scheduler", "--dask-workers"} <= options
    if spec.frame is not None:  # sweepable: it has a sample size and a seed
        assert "--seed" in options and ({"--n", "--games"} & options)


FRAMES = [(c, g, s) for c, g, s in _commands() if c in ("odds", "stats")
          and g in ("giltspiel", "perlaggen", "pinochle3")
          and s.frame is not None]


@pytest.mark.parametrize("command,game,spec", FRAMES, ids=[f"{c}-{g}" for c, g, _ in FRAMES])
def test_long_frames_have_the_sweep_columns(command, game, spec):
    """The `Command.frame` of the giltspiel, perlaggen and pinochle3 odds/stats returns one row per
    estimate with a unique name, an interval around the value and its n (the other games' sweepable
    commands: tests/test_sweep_games.py)."""
    from analysis.cli import command_parser
    from analysis.commands import LONG_COLUMNS

    assert len(FRAMES) == 6
    extra = {"odds": {"giltspiel": ["--hand", "LA SA H10 E9 E8"],
                      "perlaggen": ["--hand", "S6 LA LK L8 E10", "--trump", "L"],
                      "pinochle3": ["--hand", "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ", "--dd-tricks", "2"]}}
    n = "256" if (command, game) == ("odds", "pinochle3") else "5000"
    args = command_parser(command, game, spec).parse_args(
        ["--n", n, "--seed", "1", "--no-progress"] + extra.get(command, {}).get(game, []))
    frame = spec.frame(args)
    assert list(frame.columns) == LONG_COLUMNS and len(frame) > 0 and frame.estimate.is_unique
    assert ((frame.lo <= frame.value + 1e-12) & (frame.value <= frame.hi + 1e-12)).all() and (frame.n > 0).all()


class _FullOutput:
    """A standard output whose disk is full."""

    def write(self, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def flush(self):
        pass


def test_standard_output_that_cannot_be_written_is_one_line(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdout", _FullOutput())
    assert main(["games"]) == 2
    err = capsys.readouterr().err
    assert err == ("cardsim: error: cannot write the output (No space left on device); is standard output closed "
                   "or its disk full?\n")


def test_reader_that_goes_away_stops_the_output_quietly():
    """`cardsim ... | head`: the reader closes the pipe; cardsim stops with status 141 (128 + SIGPIPE) and no
    message (it printed a broken-pipe error, sometimes twice, exit 2)."""
    proc = subprocess.Popen([sys.executable, "-m", "analysis.cli", "games", "pinochle3"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    proc.stdout.close()
    assert proc.wait(timeout=120) == 141
    assert proc.stderr.read() == b""
    proc.stderr.close()


def test_a_value_read_as_an_option_gets_a_hint(capsys):
    """argparse takes a value such as -1:2 for an option; the one-line error says to join it with '='."""
    assert main(["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--trump", "H", "--level", "L1", "--stakes",
                 "-1:2"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "argument --stakes: expected one argument; a value that starts with '-' goes " \
                               "after '=', e.g. --stakes=-1" in err
    assert main(["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seat"]) == 2
    assert "argument --seat: expected one argument; give it a value, e.g. --seat SEAT (see" in capsys.readouterr().err
    assert main(["odds", "giltspiel", "--hand", "--seat", "1"]) == 2  # the hand forgotten: --seat is no value
    assert "argument --hand: expected one argument; give it a value, e.g. --hand HAND (see" in capsys.readouterr().err
    assert main(["meld", "pinochle3", "--hand", "SA", "--option"]) == 2
    assert "give it a value, e.g. --option NAME=VALUE (see" in capsys.readouterr().err
    assert main(["match", "pinochle3", "--a", "bold", "--b", "cautious", "--a-concede", "nan"]) == 2
    assert "argument --a-concede: expected a whole number, got 'nan'" in capsys.readouterr().err


def test_options_are_not_abbreviated(capsys):
    """--n is not short for --no-progress (match giltspiel has no --n), nor --j for --json."""
    assert main(["match", "giltspiel", "--a", "formula", "--b", "cautious", "--games", "2", "--n", "--seed", "1"]) == 2
    assert "unrecognized arguments: --n" in capsys.readouterr().err
    assert main(["stats", "giltspiel", "--n", "100", "--j"]) == 2
    assert "unrecognized arguments: --j" in capsys.readouterr().err


@pytest.mark.parametrize("argv, hint", [
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--sed", "3"], "--sed 3; did you mean --seed? (see"),
    (["meld", "pinochle3", "--hand", "SA", "--kitty", "HA HA C9"],
     "--kitty is an option of 'cardsim odds pinochle3', not of this command (see 'cardsim meld pinochle3 --help')"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--colour", "red"], "--colour red (see"),
    # an option of another command is named as such, not as a misspelling of a look-alike (--exact is not --seat)
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--exact"],
     "--exact is an option of 'cardsim stats giltspiel', not of this command"),
    (["stats", "perlaggen", "--seat", "1"], "--seat is an option of the perlaggen commands lasttrick and odds, not of "
                                            "this command"),
    (["odds", "bauernstoss", "--hand", "CJ", "--Seats", "1"], "--Seats 1; did you mean --seat? (see"),
    (["report", "--sed", "3"], "--sed 3; did you mean --seed? (see 'cardsim report --help')"),
    (["cache", "--clera"], "--clera; did you mean --clear? (see"),
    (["solve", "pinochle3", "--deal", "S9 / S9 / SA", "--trump", "C", "--bids", "300"],
     "--bids 300; did you mean --bid?; --bids is an option of 'cardsim odds pinochle3', not of this command (see"),
    (["meld", "pinochle3", "--hand", "SA", "--kity", "HA"],
     "--kity HA; did you mean --kitty, an option of 'cardsim odds pinochle3'? (see"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--SEED", "3"], "--SEED 3; did you mean --seed? (see"),
    (["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--seet", "3"], "--seet 3 (see"),  # --seed or --seat: no guess
    (["meld", "pinochle3", "--hand", "SA", "--seed", "1"],
     "--seed is an option of the pinochle3 commands match, odds, stats and thresholds, not of this command"),
])
def test_unknown_option_names_a_near_miss_or_the_command_that_takes_it(capsys, argv, hint):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error: unrecognized arguments: ") and hint in err and err.count("\n") == 1


def test_top_help_names_every_command_with_its_games(capsys):
    from analysis.cli import COMMAND_SUMMARIES
    from analysis.commands import commands
    from simcore.registry import games

    assert main(["--help"]) == 0
    text = capsys.readouterr().out
    assert main([]) == 0 and capsys.readouterr().out == text
    for command, by_game in commands().items():
        assert command in COMMAND_SUMMARIES
        line = next(line for line in text.splitlines() if line.startswith(f"  {command} "))
        assert all(game in line for game in by_game) or line.endswith("(all games)") and set(by_game) == set(games())
    assert "  tournament  every pairing of several betting policies (giltspiel, perlaggen)\n" in text
    assert "  odds        the chances of one hand (all games)\n" in text
    assert "cardsim COMMAND GAME --help" in text and max(map(len, text.splitlines())) <= 120


def test_version(capsys):
    from simcore import __version__

    assert main(["--version"]) == 0 and capsys.readouterr().out == f"cardsim {__version__}\n"
    assert main(["--version", "x"]) == 2
    assert capsys.readouterr().err == "cardsim: error: --version takes nothing after it, got 'x'; drop that\n"


@pytest.mark.parametrize("argv", [["odds", "giltspiel", "--help"], ["report", "--help"], ["cache", "-h"]])
def test_help_to_an_output_that_cannot_be_written_is_one_line(argv, capsys, monkeypatch):
    """argparse swallowed the failed write of --help and exited 0 with the help lost; it is an error like any
    other output that cannot be written (exit 2, one line)."""
    monkeypatch.setattr(sys, "stdout", _FullOutput())
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == ("cardsim: error: cannot write the output (No space left on device); is standard output closed "
                   "or its disk full?\n")


def test_sigterm_stops_a_command_as_ctrl_c_does_with_exit_143(capsys, monkeypatch):
    """`kill`, `timeout` and batch schedulers send SIGTERM: the run stops as on Ctrl-C (the runner keeps its
    finished chunks and stops its workers; before, the process died at once and left --jobs workers running)
    with one line and exit 143, and the handler before the command is back after it."""
    import signal
    import time

    from analysis import cli

    def killed(command, rest):
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler raises before this ends
        raise AssertionError("SIGTERM did not stop the command")

    monkeypatch.setattr(cli, "_game_command", killed)
    before = signal.getsignal(signal.SIGTERM)
    assert main(["odds", "giltspiel", "--hand", "LA SA H10 E9 E8"]) == 143
    assert capsys.readouterr().err == "cardsim: interrupted (terminated by SIGTERM)\n"
    assert signal.getsignal(signal.SIGTERM) is before
