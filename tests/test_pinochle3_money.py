"""Money play (spec pinochle3.md §6.3, R6.6) in `cardsim match pinochle3`: the stakes options, the per-game
money counts of `GameJob` and the money per seat per game, checked against a plain replay of the games."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.commands import option_items
from analysis.games import pinochle3 as api
from analysis.stats import Z95
from simcore import registry
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games.pinochle3_play import settle


def test_money_counts_are_settle_at_any_stakes():
    """G x + S y of a side equals the money `settle` gives its seats at stakes G, S (R6.6 direct settlement)."""
    rng = np.random.default_rng(4)
    for _ in range(300):
        winner, units = int(rng.integers(3)), rng.integers(0, 9, 3)
        is_a = rng.permutation([True, False, bool(rng.integers(2))])
        counts = bid._money_counts(winner, units, is_a)
        for g, s in ((2, 2), (0.5, 0.25), (1, 0), (0, 3)):
            money = settle(winner, units, g, s)
            for side, seats in enumerate((is_a, ~is_a)):
                x, y = counts[7 * side], counts[7 * side + 1]
                assert g * x + s * y == pytest.approx(sum(money[i] for i in range(3) if seats[i]))
                assert counts[7 * side + 5] == x * seats.sum() and counts[7 * side + 2] == x * x


def test_money_per_game_equals_a_replay_of_the_games(monkeypatch):
    """The match's money per seat-game, recounted in plain Python from every hand's set units and each game's
    winner (recorded as the games are played): mean and the clustered ratio interval."""
    hands, games = [], []
    play_hand, money_counts = bid.play_hand, bid._money_counts

    def recording_hand(*args):
        score, bidder = play_hand(*args)
        hands.append(score)
        return score, bidder

    def recording_end(winner, units, is_a):
        games.append((winner, is_a.copy(), list(hands)))
        hands.clear()
        return money_counts(winner, units, is_a)

    monkeypatch.setattr(bid, "play_hand", recording_hand)
    monkeypatch.setattr(bid, "_money_counts", recording_end)
    frame = api.match("bold", "cautious", 12, 8, {"game_stake": 2, "set_stake": 0.5}, jobs=1, progress=False,
                      checkpoint=False)
    assert len(games) == 12 - frame.attrs["abandoned"]
    for side, row in frame.iterrows():
        per_game = []
        for winner, is_a, played in games:
            units = [sum(h.set_units[s] for h in played if h is not None) for s in range(3)]
            seats = is_a if side == 0 else ~is_a
            money = settle(winner, units, 2, 0.5)
            per_game.append((sum(money[s] for s in range(3) if seats[s]), int(seats.sum())))
        v, k = np.array(per_game, dtype=float).T
        ratio = v.sum() / k.sum()  # the ratio estimator's variance from the games' residuals, written out here
        half = Z95 * np.sqrt(len(v) / (len(v) - 1) * ((v - ratio * k) ** 2).sum()) / k.sum()
        assert row.money_mean == pytest.approx(ratio)
        assert (row.money_lo, row.money_hi) == pytest.approx((ratio - half, ratio + half))
    assert frame.money_mean.iloc[0] == pytest.approx(-frame.money_mean.iloc[1])  # equal seat-games, zero sum


def test_money_in_text_json_and_sweep_frame(capsys):
    argv = ["match", "pinochle3", "--a", "bold", "--b", "cautious", "--n", "12", "--seed", "3", "--no-progress",
            "--option", "game_stake=2", "--option", "set_stake=2"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "money per seat per game at game stake 2, set stake 2" in text
    assert main([*argv, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stakes"] == {"game": 2, "set": 2}
    for side in "ab":
        m = data[side]["money_per_game"]
        assert m["lo"] <= m["mean"] <= m["hi"]
    assert main(["match", "pinochle3", "--a", "bold", "--b", "cautious", "--n", "12", "--seed", "3",
                 "--no-progress", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert "stakes" not in plain and "money_per_game" not in plain["a"]
    assert plain["a"]["win_rate"] == data["a"]["win_rate"]  # the stakes change no game


@pytest.mark.parametrize("argv, message", [
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "game_stake=-2"],
     "option game_stake cannot be -2; choose one of (None, any number from 0 to 1,000,000,000)"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "set_stake=lots"], "option set_stake cannot"),
    (["odds", "pinochle3", "--hand", "HA HA H10 H10 HK HK HQ HQ HJ HJ H9 SA SA DA CA", "--option", "game_stake=2"],
     "does not change 'cardsim odds pinochle3'"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "set_units=3"],
     "option set_units=3 counts money set units (R6.6), which only money play reads: add game_stake or set_stake"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "concede_units=3", "--option", "game_stake=1"],
     "without --a-concede or --b-concede nobody concedes"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "set_units=2.5", "--option", "game_stake=1"],
     "option set_units cannot be 2.5"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "concede_units=11", "--option", "game_stake=1"],
     "option concede_units cannot be 11"),
])
def test_bad_stakes(capsys, argv, message):
    code = main([*argv, "--n", "8", "--no-progress"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and "\n" not in err


def test_any_number_choice():
    """`registry.AnyNumber` admits numbers from its minimum to its maximum, no bools or text; the value comes back
    as given; --option reads decimals in any notation (2.5e-1 is 0.25)."""
    choice = registry.AnyNumber(0)
    assert choice.admits(0) and choice.admits(2.5) and choice.admits(10 ** 9) and not choice.admits(-0.01)
    assert not any(choice.admits(v) for v in (True, "2", float("inf"), float("nan"), None, 10 ** 400, 1e10))
    assert p3.rule_options({"game_stake": 0.25})["game_stake"] == 0.25
    assert option_items(["game_stake=2.5e-1", "set_stake=.5"]) == {"game_stake": 0.25, "set_stake": 0.5}


def test_one_game_has_no_money_interval(capsys):
    """From Python (the command line asks for two games at least)."""
    text = api.format_match(api.match("bold", "cautious", games=1, seed=2, options={"game_stake": 2}))
    assert "nan" not in text and text.count("(no interval from one game)") == 3  # two money lines, hands per game


def test_the_stakes_do_not_change_the_games_key():
    """The stakes only price the counts: games with and without them share the checkpoint key."""
    assert bid.GameJob("bold", "cautious", {"game_stake": 2, "set_stake": 0.5}).key() == \
        bid.GameJob("bold", "cautious").key()


def test_set_units_per_hand_follow_the_options():
    """R6.6 and the spec's money parameters (concede_units 1, set_units 2 by default): a concession and a set; a
    renege costs the spec's fixed units, 2 for the bidder and 1 for a defender."""
    from simcore.games.pinochle3_play import score_conceded, score_played, score_renege

    melds, zero = (100, 40, 20), (0, 0, 0)
    units = {"concede_units": 3, "set_units": 5}
    for options, single, double in ((None, 1, 2), (units, 3, 5)):
        assert score_conceded(300, 1, melds, options).set_units == (0, single, 0)
        set_hand = score_played(300, 1, melds, (100, 50, 80), (3, 2, 4), options)
        assert not set_hand.made and set_hand.set_units == (0, double, 0)
        made = score_played(300, 1, melds, (0, 260, 0), (0, 6, 0), options)
        assert made.made and made.set_units == zero
        assert score_renege(300, 1, melds, 1, options).set_units == (0, 2, 0)
        assert score_renege(300, 1, melds, 2, options).set_units == (0, 0, 1)


def test_set_units_change_the_money_and_its_text(capsys):
    """With set_units=3 and concede_units=0 the games are the same and only their money changes (policy b
    concedes with margin 0, so there are concessions to price)."""
    base = ["match", "pinochle3", "--a", "cautious", "--b", "bold", "--n", "20", "--seed", "1", "--no-progress",
            "--option", "game_stake=2", "--option", "set_stake=2", "--b-concede", "0"]
    assert main([*base, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    for units in ("set_units=3", "concede_units=0"):
        assert main([*base, "--json", "--option", units]) == 0
        priced = json.loads(capsys.readouterr().out)
        assert plain["a"]["win_rate"] == priced["a"]["win_rate"]
        assert plain["b"]["money_per_game"] != priced["b"]["money_per_game"], units
    assert main([*base, "--option", "set_units=3", "--option", "concede_units=0"]) == 0
    assert "a concession is 0 units, a set 3" in capsys.readouterr().out
