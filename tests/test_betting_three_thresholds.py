"""First-order accept/concede thresholds of one player in the 3-player game and Strafperlaggen
(perlaggen.md §9.4/§9.5, `perlaggen_three.accept_threshold`) against a plain payoff reference, the
payoffs against the engine's settlement, and `cardsim thresholds perlaggen --players 3 [--straf]`."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_betting
from analysis.games import betting as cli_betting
from simcore.errors import CardsimError
from simcore.games import perlaggen_three as T
from simcore.games.perlaggen_betting import ACCEPT3, GUT3, RAISE3, ThreeFigure
from test_betting_cli import run_cli


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([1, 2]), st.floats(0, 1), st.floats(0, 1), st.booleans(), st.booleans())
def test_accept_threshold_matches_the_payoffs(value, p, s, straf, spiel):
    """accept iff d = p - q > d*: the same side as EV(accept) - EV(gut) of the plain payoff table."""
    s = s * (1 - p)
    q = 1 - p - s
    d_star, p_star = T.accept_threshold(value, s, straf, spiel)
    margin = naive_betting.accept_beats_gut(value, p, q, straf, spiel)
    if abs(p - q - d_star) > 1e-9:
        assert (margin > 0) == (p - q > d_star)
    assert p_star == pytest.approx(max(0.0, (1 - s + d_star) / 2))


def test_no_stand_values_9_4():
    """Without stands: plain P(win)* = 1/(3(v+1)) (1/6, 1/9; two teams: 1/4, 1/6); Straf d* = -1/6 for a bet
    and -2/3 for the bettor answering the raise (conceding it costs him his level 2)."""
    assert T.accept_threshold(1)[1] == pytest.approx(1 / 6) and T.accept_threshold(2)[1] == pytest.approx(1 / 9)
    assert T.accept_threshold(1, straf=True)[0] == pytest.approx(-1 / 6)
    assert T.accept_threshold(2, straf=True)[0] == pytest.approx(-2 / 3)


@pytest.mark.parametrize("straf", [False, True])
def test_reference_payoffs_are_the_settlement(straf):
    """The reference's outcomes at v = 1 are the engine's: bettor 1, the third player (2) says gut first,
    I (0) concede or accept (T-26 / T-33)."""
    out = naive_betting.three_answer_outcomes(1, straf, spiel=False)
    for answer, winner, key in ((GUT3, 1, "gut"), (ACCEPT3, 0, "win"), (ACCEPT3, 1, "lose"), (ACCEPT3, None, "none")):
        fig = ThreeFigure(1, (9, 9, 9), straf=straf)
        fig.answer(2, GUT3)
        fig.answer(0, answer)
        points = fig.straf_changes(winner) if straf else fig.plain_points(winner)
        assert tuple(points) == out[key]


@pytest.mark.parametrize("spiel", [False, True])
def test_reference_payoffs_of_the_raise_are_the_settlement(spiel):
    """v = 2 in Strafperlaggen: the bettor (0) bets, player 1 says gut, player 2 raises to 3 and the bettor
    answers; the reference's (me, bettor, third) are (0, 2, 1) of the engine's §9.5 settlement."""
    out = naive_betting.three_answer_outcomes(2, True, spiel)
    cases = ((GUT3, 2, "gut"), (ACCEPT3, 0, "win"), (ACCEPT3, 2, "lose"), (ACCEPT3, None, "none"))
    for answer, winner, key in cases:
        if spiel and key == "none":
            winner = None
        fig = ThreeFigure(0, (9, 9, 9), straf=True)
        fig.answer(1, GUT3)
        fig.answer(2, RAISE3)
        fig.answer(0, answer)
        changes = fig.straf_changes(winner, spiel=spiel and key == "none")
        assert (changes[0], changes[2], changes[1]) == out[key], key


def test_thresholds_three_players_command(capsys):
    for extra, title in (([], "3-player Perlaggen"), (["--straf"], "Strafperlaggen")):
        code, text, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", *extra, "--no-progress")
        assert code == 0 and title in text and "weakest accept" in text
    _, out, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--straf", "--json")
    data = json.loads(out)
    rows = data["first_order"]
    assert data["style"] == "straf" and len(rows) == 6
    assert all(0 <= r["stand"] < 1 and r["accept_p_stands"] <= r["accept_p"] + 1e-12 for r in rows)
    table = cli_betting.thresholds3("innsbruck")
    spiel = table[table.figure == "spiel"]
    assert (spiel.stand > 0.3).all() and (table.weakest_accept[table.figure != "spiel"] != "none").all()


def test_thresholds_three_players_bad_input(capsys):
    code, _, err = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--hand", "5", "--no-progress")
    assert code == 2 and "7 cards" in err and err.count("\n") == 1
    with pytest.raises(CardsimError, match="3-player thresholds"):
        cli_betting.thresholds_frame({"first_order": cli_betting.thresholds3("straf")})


@pytest.mark.parametrize("args, message", [
    (["thresholds", "perlaggen", "--players", "3", "--target", "5"], "drop --target"),
    (["thresholds", "perlaggen", "--players", "3", "--straf", "--places"],
     "unrecognized arguments: --places; --places is an option of 'cardsim match perlaggen', not of this command"),
    (["thresholds", "perlaggen", "--players", "3", "--communication", "none"], "drop --communication"),
    (["thresholds", "perlaggen", "--players", "3", "--straf", "--games", "2000", "--seed", "1"],
     "drop --games and --seed"),
    (["thresholds", "perlaggen", "--players", "3", "--policy", "formula", "--jobs", "2"], "drop --policy and --jobs"),
    (["thresholds", "perlaggen", "--players", "3", "--straf", "--games", "10", "--target", "12", "--communication",
      "partner", "--dask-workers", "1"], "drop --games, --target, --dask-workers and --communication"),
    (["thresholds", "perlaggen", "--players", "3", "--games", "10", "--target", "12", "--communication", "partner",
      "--dask-workers", "1"], "drop --communication"),
    (["tournament", "perlaggen", "--players", "3", "--straf", "--places", "--policies", "formula,never",
      "--games", "3"], "--places is an option of 'cardsim match perlaggen', not of this command"),
])
def test_options_the_three_player_commands_do_not_use_are_refused(capsys, args, message):
    code, _, err = run_cli(capsys, *args, "--no-progress")
    assert code == 2 and message in err and err.count("\n") == 1


def test_three_player_thresholds_are_perlaggens():
    with pytest.raises(CardsimError, match="played by four"):
        cli_betting.thresholds("giltspiel", players=3)
