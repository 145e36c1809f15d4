"""Bauernstoss rule options on the command line (`--option NAME=VALUE` of odds, thresholds, match):
checked against the game's options, reaching the jobs (their keys and rules) and the calls offered."""

import json

import pytest

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs

TD01 = "sB hB dB cA cT sK h7 d8"


@pytest.mark.parametrize("items, variant, message", [
    (["variant=AS"], "BS", "give the variant with --variant"),
    (["ds_ten_value=0"], "BS", "option ds_ten_value is a rule of Deutscher Schafkopf only; add --variant DS"),
    (["as_first_hand_solo=true"], "DS", "rule of Alter Schoofkopp only"),
    (["partner_tie=strategy_callback"], "BS", "needs a Python callback"),
    (["jack_rule=sometimes"], "BS", "bauernstoss option jack_rule cannot be 'sometimes'"),
    (["colour=red"], "BS", "unknown bauernstoss option 'colour'"),
    (["jack_rule"], "BS", "--option expects NAME=VALUE"),
])
def test_bad_rule_options_are_refused(items, variant, message):
    with pytest.raises(CardsimError, match=message):
        api.parse_rules(items, variant)


def test_rule_options_are_typed_and_sorted():
    assert api.parse_rules(["min_number_bid=3", "jack_rule=off", "allow_suit_switch=True"]) == \
        (("allow_suit_switch", True), ("jack_rule", "off"), ("min_number_bid", 3))
    assert api.parse_rules(["ds_ten_value=0"], "DS") == (("ds_ten_value", 0),)


def test_options_change_the_calls_offered():
    """§8 A4: with min_number_bid=3 a suit of 2 trumps offers no number bid; §8 A10: AS solos in a first hand."""
    cards = bs.DECK.parse_cards("cB sA sK sT hA h9 d7 c7")  # with the jack: 2 clubs, 4 spades, 3 hearts, 2 diamonds
    two = [s for s in range(4) if bs.trump_length(bs.DECK.mask(cards), s) == 2]
    assert two
    numbers = {o.trump for o in api.call_options(cards) if o.kind == bs.NUMBER}
    strict = {o.trump for o in api.call_options(cards, rules=(("min_number_bid", 3),)) if o.kind == bs.NUMBER}
    assert set(two) <= numbers and not set(two) & strict
    assert not [o for o in api.call_options(cards, True, "AS") if o.kind != bs.NUMBER]
    assert [o for o in api.call_options(cards, True, "AS", (("as_first_hand_solo", True),)) if o.kind != bs.NUMBER]


def test_jobs_carry_the_rules_in_their_keys_and_options():
    job = jobs.OddsJob(tuple(bs.DECK.parse_cards(TD01)), 1, (jobs.Option(bs.NUMBER, 0),), "greedy", "BS", 3,
                       (("jack_rule", "off"),))
    plain = jobs.OddsJob(tuple(bs.DECK.parse_cards(TD01)), 1, (jobs.Option(bs.NUMBER, 0),), "greedy", "BS")
    assert job.opts["jack_rule"] == "off" and job.key() != plain.key()
    assert jobs.ThresholdJob("greedy", "BS", (("jack_rule", "off"),)).key() != jobs.ThresholdJob("greedy").key()
    assert jobs.MatchJob("b0", "cautious", (("mit_rule", "advisory"),)).opts["mit_rule"] == "advisory"


def test_cli_options_reach_odds_thresholds_and_match(capsys):
    base = ["--seed", "3", "--json", "--no-progress"]
    assert main(["odds", "bauernstoss", "--hand", TD01, "--n", "40", "--option", "jack_rule=off", *base]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"jack_rule": "off"}
    assert main(["thresholds", "bauernstoss", "--n", "300", "--variant", "ds", "--option", "ds_ten_value=0",
                 *base]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "DS" and data["options"] == {"ds_ten_value": 0}
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "cautious", "--games", "2", "--option",
                 "mit_rule=advisory", *base]) == 0
    assert json.loads(capsys.readouterr().out)["options"] == {"mit_rule": "advisory"}
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "cautious", "--games", "2", "--option",
                 "ds_schwarz=end_current_game", *base]) == 2
    assert "rule of Deutscher Schafkopf only" in capsys.readouterr().err


def test_small_input_mends(capsys):
    """A lower-case variant is taken; --first-hand (no solos) is refused in DS, which has none; a card
    given twice in one flag is named once."""
    assert main(["odds", "bauernstoss", "--hand", TD01, "--variant", "as", "--n", "20", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "AS"
    assert main(["odds", "bauernstoss", "--hand", TD01, "--variant", "DS", "--first-hand", "--n", "20"]) == 2
    assert "--first-hand bans solos (§4.7) and Deutscher Schafkopf has none (DS-6)" in capsys.readouterr().err
    assert main(["odds", "bauernstoss", "--hand", TD01.replace("hB", "sB"), "--n", "20"]) == 2
    assert "sB is given 2 times in --hand but" in capsys.readouterr().err
