"""Strokes in `cardsim odds bauernstoss` (spec §9.1 Q2, Q7): the stroke differential of the normal game
per chalk setting (§6.2, AS-2..AS-4) and of each solo, S(2p - 1)."""

import json
import re

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play

SOLO_HAND = "cB sB hA hT hK h9 h8 s7"


@pytest.mark.parametrize("points, tricks, chalk, variant, expected", [
    (42, 3, 1, "BS", 1),     # the chalk team (the team) makes its 42: one stroke
    (41, 3, 1, "BS", -1),    # it misses: the other team scores
    (91, 6, 1, "BS", 2),     # schneider
    (120, 8, 1, "BS", 3),    # schwarz: every trick
    (78, 5, 0, "BS", -1),    # without the chalk 78 is not enough; the chalk team (other) scores
    (79, 5, 0, "BS", 1),
    (29, 1, 0, "BS", -2),    # the other team, holding the chalk, takes 91
    (0, 0, 0, "BS", -3),     # the other team takes every trick
    (120, 8, 1, "AS", 4),    # AS-4: schwarz is 4
    (89, 6, 1, "AS", 2),     # AS-4: schneider from 89
    (61, 4, -1, "AS", 1),    # AS-2: a game's first hand, no chalk, 61 wins
    (60, 4, -1, "AS", -1),   # 60-60 goes to the maker's opponents
])
def test_stroke_differential_follows_section_6_2(points, tricks, chalk, variant, expected):
    for team in (0, 1):
        team_chalk = -1 if chalk < 0 else (team if chalk == 1 else 1 - team)
        got = jobs.stroke_differentials(np.array([points]), np.array([tricks]), team, np.array([team_chalk]), variant)
        assert got[0] == expected


def test_odds_strokes_match_a_direct_play_out(capsys):
    """The job's histogram against the same deals played out and scored one by one."""
    cards = bs.DECK.parse_cards(SOLO_HAND)
    option = jobs.Option(bs.NUMBER, 2)
    job = jobs.OddsJob(tuple(cards), 3, (option,), "greedy")
    stats, strokes = job.unpack(job.run_block(5, 0, 256))[:2]
    hands = jobs.deal_hands(5, 0, 256, job.spec)
    points, tricks = play.play_out("greedy", hands, np.full(256, 2), np.full(256, 1))
    for row, chalk in enumerate((1, 0)):
        expected = [bs.normal_score(int(p[0]), int(t[0]), chalk) for p, t in zip(points, tricks)]
        diffs = [k if team == 1 else -k for team, k in expected]
        assert np.array_equal(strokes[0, row], np.bincount(np.array(diffs) + 4, minlength=9))
    assert stats[0, 0] == 256 and strokes[0].sum() == 2 * 256


def test_solo_strokes_are_the_stake_times_two_p_minus_one():
    frame = api.odds(SOLO_HAND, 3, "greedy", n=256, seed=2, checkpoint=False, progress=False)
    for _, r in frame[frame.call != "number"].iterrows():
        stake = 8 if r.call == "small solo" else 12
        assert r.strokes_chalk == pytest.approx(stake * (2 * r.p_solo - 1))
        assert r.strokes_chalk_lo == pytest.approx(stake * (2 * r.p_solo_lo - 1))
    numbers = frame[frame.call == "number"]
    assert (numbers.strokes_chalk >= numbers.strokes_no_chalk - 1e-9).all()  # the chalk never hurts


def test_strokes_only_where_the_play_gives_tricks(capsys):
    for extra, shown in ((["--play", "random", "--n", "40"], True), (["--play", "dd", "--n", "4"], False),
                         (["--variant", "DS", "--n", "40"], False)):
        hand = "sB hB hA hT hK h9 s7 d8" if "DS" in extra else SOLO_HAND
        assert main(["odds", "bauernstoss", "--hand", hand, "--seat", "3", "--seed", "1", "--json", "--no-progress",
                     *extra]) == 0
        calls = json.loads(capsys.readouterr().out)["calls"]
        assert any("strokes" in c for c in calls) == shown


def test_first_hand_strokes_use_the_club_jacks_team():
    """BS first hand: the chalk goes to the club jack's team (§6.2); the hand holds cB, so its team."""
    frame = api.odds(SOLO_HAND, 3, "greedy", n=256, seed=2, first_hand=True, checkpoint=False, progress=False)
    plain = api.odds(SOLO_HAND, 3, "greedy", n=256, seed=2, checkpoint=False, progress=False)
    h = frame[(frame.call == "number") & (frame.trump == "h")].iloc[0]
    assert h.strokes_chalk == plain[(plain.call == "number") & (plain.trump == "h")].iloc[0].strokes_chalk


@pytest.mark.parametrize("variant, state, result, options, expected", [
    ("AS", bs.GameState(chalk=0, first_hand=False), bs.HandResult(points=120, tricks=8), {}, (0, 4)),  # AS-4
    ("AS", bs.GameState(first_hand=True), bs.HandResult(points=60, tricks=4, maker=0), {}, (1, 1)),  # AS-2
    ("AS", bs.GameState(chalk=0, first_hand=False), bs.HandResult(bs.BIG_SOLO, maker=1, solo_won=True), {},
     (1, 0)),  # AS-10: the game, not strokes
    ("DS", bs.GameState(), bs.HandResult(points=60, tricks=4, maker=0), {}, (0, 0)),  # DS-11: settled later
    ("DS", bs.GameState(pending=(0, 1)), bs.HandResult(points=70, tricks=5, maker=0), {}, (0, 1 + 1 + 2)),
    ("DS", bs.GameState(), bs.HandResult(points=50, tricks=3, maker=0), {}, (1, 2)),  # DS-9: opponents 2
    ("DS", bs.GameState(), bs.HandResult(points=120, tricks=8, maker=0), {}, (0, 0)),  # schwarz: game credit
    ("DS", bs.GameState(), bs.HandResult(points=120, tricks=8, maker=0), {"ds_schwarz": "end_current_game"},
     (0, 0)),
    ("DS", bs.GameState(), bs.HandResult(points=120, tricks=8, maker=0),
     {"ds_schwarz": "game_credit_plus_strokes"}, (0, 2)),
])
def test_hand_strokes_of_the_variants(variant, state, result, options, expected):
    """The strokes a hand credits agree with what `score_hand` adds to the score."""
    opts = bs.rule_options(variant=variant, **options)
    assert bs.hand_strokes(state, result, opts) == expected
    after = bs.score_hand(state, result, opts)
    team, strokes = expected
    if after.games == state.games and strokes:
        assert after.strokes[team] - state.strokes[team] == strokes


def test_match_of_every_variant(capsys):
    """AS and DS matches play to 15 and 9 strokes; DS takes one policy twice (its calls are compulsory)."""
    for variant, target, b in (("AS", 15, "cautious"), ("DS", 9, "b0")):
        assert main(["match", "bauernstoss", "--a", "b0", "--b", b, "--games", "4", "--seed", "2",
                     "--variant", variant.lower(), "--no-progress"]) == 0
        assert f"match: 4 games to {target} strokes" in capsys.readouterr().out
    assert main(["match", "bauernstoss", "--a", "b0", "--b", "b0", "--games", "4", "--seed", "2", "--json",
                 "--variant", "DS", "--option", "ds_schwarz=end_current_game", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["variant"] == "DS"


def test_thresholds_strokes_by_hand_shape(capsys):
    """Spec §9.1 Q8: E[strokes] by jacks and trumps, for greedy play; every cell's histogram counts its deals."""
    frame = api.thresholds("greedy", n=1500, seed=4, min_n=1, checkpoint=False, progress=False)
    assert frame.strokes_chalk.notna().all() and (frame.strokes_chalk >= frame.strokes_no_chalk - 1e-9).all()
    parts = jobs.ThresholdJob.unpack(jobs.ThresholdJob("greedy").run_block(4, 0, 256))
    assert (parts["strokes"].sum(axis=3) == parts["points"].sum(axis=2)[None]).all()
    assert main(["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--json", "--no-progress"]) == 0
    assert "strokes" in json.loads(capsys.readouterr().out)["rows"][0]
    assert main(["thresholds", "bauernstoss", "--n", "20", "--seed", "4", "--play", "dd", "--json",
                 "--no-progress"]) == 0
    assert all("strokes" not in r for r in json.loads(capsys.readouterr().out)["rows"])


def test_odds_prints_the_stroke_distribution(capsys):
    """Spec Q2: the normal game's strokes, per trump and chalk setting, the shares adding up to 1 with the JSON's."""
    argv = ["odds", "bauernstoss", "--hand", "cB sB cA cT c9 hA hK d7", "--n", "300", "--seed", "1"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    start = lines.index("Strokes of the normal game (Q2): P(strokes = s), s = your team's strokes minus the other "
                        "team's")
    rows = lines[start + 1:start + 9]
    assert [r.split()[:3] for r in rows[:2]] == [["c", "strokes", "chalk"], ["c", "strokes", "no"]]
    assert main(argv + ["--json"]) == 0
    dist = json.loads(capsys.readouterr().out)["calls"][0]["strokes"]["chalk"]["dist"]
    shares = {k: float(v) for k, v in re.findall(r"([+-]\d+): (\S+)", rows[0])}
    assert shares == pytest.approx({(k if k.startswith("-") else f"+{k}"): v for k, v in dist.items()}, abs=5e-5)
    assert sum(dist.values()) == pytest.approx(1)
