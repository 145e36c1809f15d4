"""Regression tests from the review of the Pinochle changes: a decimal option value is its choice (min_bid=250.0
crashed thresholds), odd Python bids are CardsimErrors, a contract is checked before the solve, one game has no
interval and JSON holds no NaN."""

import json

import pytest

from analysis import cli
from analysis.commands import json_safe
from analysis.games import pinochle3, pinochle3_play
from simcore.errors import CardsimError

HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"


def test_thresholds_with_decimal_min_bid_does_not_crash():
    tables = pinochle3.thresholds(500, seed=1, options={"min_bid": 250.0}, checkpoint=False)
    assert tables["by_meld"].attrs["n"] == 500


def test_cli_decimal_option_is_the_choice(capsys):
    assert cli.main(["thresholds", "pinochle3", "--n", "500", "--seed", "1", "--option", "min_bid=300.0",
                     "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"min_bid": 300}


@pytest.mark.parametrize("bids", [float("inf"), b"300"])
def test_odds_odd_bids_are_cardsim_errors(bids):
    with pytest.raises(CardsimError):
        pinochle3.odds(HAND, bids=bids, n=4, seed=1, dd_tricks=0, checkpoint=False)


def test_solve_checks_the_bid_before_solving(monkeypatch):
    called = []
    monkeypatch.setattr(pinochle3_play.solver, "solve", lambda *a, **k: called.append(1) or (0,))
    deal = ("H9 H9 HJ HJ HQ HQ HK HK H10 H10 HA HA SA SA S10 / S9 S9 SJ SJ SQ SQ SK SK S10 D9 D9 DJ DJ DQ DQ / "
            "DK DK D10 D10 DA DA C9 C9 CJ CJ CQ CQ CK CK C10")
    with pytest.raises(CardsimError):
        pinochle3_play.solve(deal, "H", bid=255)
    assert not called


def test_one_game_has_no_interval_and_json_no_nan(capsys):
    """The command line asks for two games at least; from Python one game has no interval, and its JSON no NaN."""
    assert cli.main(["match", "pinochle3", "--a", "bold", "--b", "bold", "--games", "1", "--no-progress"]) == 2
    assert "from 2 to" in capsys.readouterr().err
    frame = pinochle3.match("bold", "bold", games=1, seed=1)
    hands = json.loads(json.dumps(json_safe(pinochle3.match_json(frame))))["hands_per_game"]
    assert hands["n"] == 1 and hands["lo"] is None and hands["se"] is None
    assert json_safe({"a": [1.0, float("nan")], "b": (float("inf"), "x")}) == {"a": [1.0, None], "b": [None, "x"]}


@pytest.mark.parametrize("value", ["0", "65"])
def test_samples_out_of_range_names_the_real_limit(capsys, value):
    assert cli.main(["odds", "pinochle3", "--hand", HAND, "--play", "pimc", "--samples", value, "--n", "2"]) == 2
    assert f"expected a whole number from 1 to 64, got '{value}'" in capsys.readouterr().err
