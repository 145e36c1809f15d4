"""The match equity's deal model near the end of the game (analysis.games.betting.thresholds, table B): one per-deal
distribution per pair of limit classes (§8.6 / §7.11), points below 0 (penalties), games won outright; the solvers
against plain value iteration, the jobs' counts, the command's flags, and the played-out W as the check."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_betting
from analysis.cli import main
from analysis.games import betting
from analysis.stats import estimate_columns
from simcore import runner
from simcore.betting import (LIMIT_REACH, MIN_DEAL_POINTS, OUTCOME_SIZE, PAIRED_COUNTS, POINT_BINS,
                             RACE_SIZE, DealResult, _equity_linear, _equity_sweep, class_match_equity,
                             dealt_match_equity, deal_outcome, limit_class, near_classes, reach_table, split_outcomes)
from simcore.errors import CardsimError
from simcore.games import giltspiel_betting, perlaggen_betting

L = LIMIT_REACH


def class_tables(seed: int, bins: int, low: int) -> tuple[np.ndarray, np.ndarray]:
    """Random (2, L, L, bins, bins) deal distributions (each summing to 1, a class of its own) and race tables
    (A first in a random share of the deals where both reach na, nb)."""
    rng = np.random.default_rng(seed)
    dists = rng.random((2, L, L, bins, bins)) + 0.05
    dists /= dists.sum(axis=(3, 4), keepdims=True)
    firsts = reach_table(dists, low) * rng.random((2, L, L, 1, 1))
    firsts[..., 0, :] = firsts[..., :, 0] = 0.0
    return dists, firsts


@given(st.integers(0, 2**32 - 1), st.integers(1, 3), st.sampled_from([0, -1, -2]))
@settings(max_examples=10, deadline=None)
def test_class_match_equity_matches_value_iteration(seed, target, low):
    """Every class its own table, points from ``low`` to 2 (scores below 2 low count as 2 low): the solver equals
    plain value iteration over the same scores (2,000 sweeps: with points lost, games can be long, and the iteration
    settles slowly, at worst seen about 3% a sweep)."""
    dists, firsts = class_tables(seed, 3 - low, low)
    w = class_match_equity(dists, target, firsts, low)
    naive = naive_betting.race_equity(dists.tolist(), firsts.tolist(), target, sweeps=2000, reach=L, low=low)
    assert w[:, :target, :target] == pytest.approx(np.array(naive), abs=1e-8)
    assert (w[:, target, :target] == 1).all() and (w[:, :target, target] == 0).all()


@given(st.integers(0, 2**32 - 1), st.integers(1, 12))
@settings(max_examples=10, deadline=None)
def test_the_sweep_and_the_linear_system_agree_without_lost_points(seed, target):
    """Without points below 0 both solvers apply: the sweep by falling a + b and the sparse linear system."""
    dists, firsts = class_tables(seed, 5, 0)
    both_first = np.zeros(firsts.shape[:3] + (6, 6))
    both_first[..., :5, :5] = firsts
    assert _equity_sweep(dists, both_first, target, 0) == pytest.approx(_equity_linear(dists, both_first, target, 0),
                                                                        abs=1e-12)


def test_one_table_for_every_class_is_the_dealt_match_equity():
    dists, firsts = class_tables(3, 4, 0)
    same, same_first = (np.broadcast_to(t[:, :1, :1], t.shape) for t in (dists, firsts))
    assert class_match_equity(same, 9, same_first) == pytest.approx(
        dealt_match_equity(same[:, 0, 0], 9, same_first[:, 0, 0]), abs=1e-12)


def test_points_lost_near_the_end_count():
    """Each deal A loses 2 points (probability r), scores 1 (s), or B scores 1 (t). To 2 from 1 : 1, A wins if it
    scores before B; a deal that moves it back to -1 makes that harder, which a model with the -2 clipped to 0 (as
    before the deal model kept points below 0) does not see: W = s / (s + t) there, below it here, as value
    iteration gives."""
    r, s, t = 0.3, 0.4, 0.3
    lost = np.zeros((2, L, L, 4, 4))  # bins -2 .. 1 points
    lost[..., 0, 2], lost[..., 3, 2], lost[..., 2, 3] = r, s, t
    clipped = np.zeros((2, L, L, 2, 2))  # bins 0 .. 1
    clipped[..., 0, 0], clipped[..., 1, 0], clipped[..., 0, 1] = r, s, t
    w_lost = class_match_equity(lost, 2, np.zeros((2, L, L, 2, 2)), -2)
    w_clipped = class_match_equity(clipped, 2, np.zeros((2, L, L, 2, 2)))
    assert w_clipped[0, 1, 1] == pytest.approx(s / (s + t))
    naive = naive_betting.race_equity(lost.tolist(), None, 2, sweeps=600, reach=L, low=-2)
    assert w_lost[0, 1, 1] == pytest.approx(naive[0][1][1], abs=1e-9) and w_lost[0, 1, 1] < s / (s + t) - 0.05


def test_each_score_reads_its_own_limit_class():
    """A class table where A always scores the target's points, the others where B always does: W is 1 exactly at
    the scores of that class."""
    target = 11
    dists = np.zeros((2, L, L, 12, 12))
    dists[..., 0, 11] = 1.0  # B reaches the target
    dists[:, 2, 4, :, :] = 0.0
    dists[:, 2, 4, 11, 0] = 1.0  # class (3, 5): A reaches the target
    w = class_match_equity(dists, target, np.zeros((2, L, L, 12, 12)))
    for a in range(target):
        for b in range(target):
            won = (limit_class(target - a), limit_class(target - b)) == (3, 5)
            assert w[0, a, b] == (1.0 if won else 0.0)


@pytest.mark.parametrize("call, message", [
    (lambda: class_match_equity(np.ones((2, L, L, 3, 3)), 5, np.zeros((2, L, L, 3, 3)), 1), "at most 0"),
    (lambda: class_match_equity(np.ones((2, 3, 3, 3, 3)), 5, np.zeros((2, 3, 3, 3, 3))), r"\(2, 8, 8, B, B\)"),
    (lambda: class_match_equity(np.ones((2, L, L, 3, 3)), 5, np.zeros((2, L, L, 3, 3)), -1), "B \\+ low"),
    (lambda: class_match_equity(-np.ones((2, L, L, 3, 3)), 5, np.zeros((2, L, L, 3, 3))), "non-negative"),
    (lambda: class_match_equity(np.zeros((2, L, L, 3, 3)), 5, np.zeros((2, L, L, 3, 3))), "a limit class has no deal"),
])
def test_class_match_equity_refuses_bad_tables(call, message):
    with pytest.raises(CardsimError, match=message):
        call()


def test_a_model_that_never_ends_is_refused():
    """Every deal: both teams lose 1 point: from every score the game goes on forever."""
    dists = np.zeros((2, L, L, 3, 3))
    dists[..., 0, 0] = 1.0  # bins -1 .. 1: (-1, -1)
    with pytest.raises(CardsimError, match="no game ever ends"):
        class_match_equity(dists, 3, np.zeros((2, L, L, 2, 2)), -1)


def result(points, awards=(), winner=None) -> DealResult:
    return DealResult(list(points), list(awards), winner, (None, None, None))


def test_deal_outcome_bins_penalties_and_outright_wins():
    # a penalty of -2 for A, 3 points for B: bins from MIN_DEAL_POINTS
    x, y, race = deal_outcome(result((-2, 3), [(0, None, 0, -2), (3, 2, 1, 3)]), (0, 0), 18, 0)
    assert (x, y) == (-2 - MIN_DEAL_POINTS, 3 - MIN_DEAL_POINTS) and race.shape == (RACE_SIZE, RACE_SIZE)
    assert deal_outcome(result((-2, 3)), (0, 0), 18, 1)[:2] == (3 - MIN_DEAL_POINTS, -2 - MIN_DEAL_POINTS)
    # more than MAX_DEAL_POINTS in the last bin
    assert deal_outcome(result((25, 0)), (0, 0), 40, 0)[0] == POINT_BINS - 1
    # a game won by points reaching the target keeps the points and the race
    x, y, race = deal_outcome(result((2, 1), [(3, 0, 0, 2), (3, 1, 1, 1)], winner=0), (16, 17), 18, 0)
    assert (x, y) == (2 - MIN_DEAL_POINTS, 1 - MIN_DEAL_POINTS) and race[2, 1] == 1
    # won outright (both gestrichen, Spiel aus held) without reaching the target: the winner's last bin, no race
    x, y, race = deal_outcome(result((0, 0), winner=1), (17, 17), 18, 0)
    assert (x, y) == (-MIN_DEAL_POINTS, POINT_BINS - 1) and not race.any()
    # a held Spiel aus ends the game ahead of the §7.10 order (A-14 "ends_game"): B's earlier 7 reaches the target
    # first by points, yet A won; coded as A's outright win
    awards = [(2, 0, 1, 7), (2, 2, 0, 7)]
    x, y, race = deal_outcome(result((7, 7), awards, winner=0), (11, 11), 18, 0)
    assert (x, y) == (POINT_BINS - 1, -MIN_DEAL_POINTS) and not race.any()
    # the same order won by B, as the engine says: kept as points and race
    x, y, race = deal_outcome(result((7, 7), awards, winner=1), (11, 11), 18, 0)
    assert (x, y) == (7 - MIN_DEAL_POINTS, 7 - MIN_DEAL_POINTS) and race[7, 7] == 0


def test_an_outright_win_ends_the_game_from_any_distance():
    """Every deal: A wins the game outright (the last bin) with probability q, else B scores 1. From 0 : 0 in a game
    to 40 (far beyond the last bin's points) A wins unless B scores 40 times first; without ``top_ends`` the last
    bin is only its points."""
    q, target = 0.1, 40
    dists = np.zeros((2, L, L, POINT_BINS, POINT_BINS))
    dists[..., -1, -MIN_DEAL_POINTS] = q
    dists[..., -MIN_DEAL_POINTS, 1 - MIN_DEAL_POINTS] = 1 - q
    firsts = np.zeros((2, L, L, RACE_SIZE, RACE_SIZE))
    w = class_match_equity(dists, target, firsts, MIN_DEAL_POINTS, top_ends=True)
    assert w[0, 0, 0] == pytest.approx(1 - (1 - q) ** target)
    assert class_match_equity(dists, target, firsts, MIN_DEAL_POINTS)[0, 0, 0] < w[0, 0, 0] - 0.05


def test_limit_classes():
    assert [limit_class(d) for d in (1, 7, 8, 9, 30)] == [1, 7, 8, 8, 8]
    assert len(near_classes(18)) == L * L - 1 and (L, L) not in near_classes(18)
    assert near_classes(3) == tuple((i, j) for i in (1, 2, 3) for j in (1, 2, 3))


def test_limit_class_job_plays_every_class_from_its_scores():
    """Giltspiel to 3: nine classes, each deal counted once in its class; the same counts in other chunks."""
    job = giltspiel_betting.class_job(betting._loaded("formula"), giltspiel_betting.rules_from_options(target=3))
    counts = runner.run(job, 6, 4, progress=False)
    points, race = split_outcomes(counts.reshape(-1, OUTCOME_SIZE))
    assert points.shape == (9, POINT_BINS, POINT_BINS) and (points.sum(axis=(1, 2)) == 6).all()
    assert np.array_equal(counts, runner.run(job, 6, 4, chunk_deals=4, jobs=2, progress=False))
    assert (race <= points.sum(axis=(1, 2))[:, None, None]).all()


def test_match_keeps_the_far_deals_apart():
    """Target 18: every game's first deal begins 18 points short, so far deals >= games; target 6: none is far."""
    frame = betting.match("perlaggen", "formula", "formula", games=4, seed=3, progress=False)
    at = frame.attrs
    far, every = np.asarray(at["far_points"]).sum(), np.asarray(at["dealt_points"]).sum()
    assert at["games"] <= far < every == at["deals"] and at["point_low"] == MIN_DEAL_POINTS
    small = betting.match("giltspiel", "formula", "formula", games=4, seed=3, target=6, progress=False).attrs
    assert np.asarray(small["far_points"]).sum() == 0


def test_thresholds_report_the_class_model(capsys):
    assert main(["thresholds", "giltspiel", "--target", "9", "--games", "4", "--class-deals", "3", "--seed", "2",
                 "--no-progress", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["class_deals"] == 3 and data["model_deals"] == data["far_deals"] + 3 * (L * L - 1)
    rows = {(r["deals"], r["a"], r["b"]): r["n"] for r in data["match_equity"]}
    assert rows["a", 0, 0] == rows["b", 0, 0] == data["far_deals"] and rows["a", 2, 0] == rows["a", 8, 5] == 3


@pytest.mark.parametrize("argv, message", [
    (["thresholds", "giltspiel", "--class-deals", "1"], "--class-deals: expected a whole number from 2 to 1e+06"),
    (["thresholds", "perlaggen", "--players", "3", "--class-deals", "5"], "drop --class-deals"),
    (["thresholds", "perlaggen", "--players", "3", "--class-deals", "5", "--communication", "none"],
     "drop --class-deals"),
])
def test_class_deals_errors(capsys, argv, message):
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("class_deals", [1, 10 ** 6 + 1, 2.5])
def test_class_deals_range_from_python(class_deals):
    """The command line's range (argparse) and the Python API's (`checked_class_deals`) are the same."""
    with pytest.raises(CardsimError, match="--class-deals must be"):
        betting.thresholds("giltspiel", games=4, class_deals=class_deals)


@pytest.mark.slow
def test_table_b_agrees_with_games_played_out_near_the_end(scale):
    """W(11, 17) and W(14, 17) at target 18, A dealing: the class model's interval and that of games played out from
    the score overlap. The single model of all scores gave 0.140 [0.135, 0.145] at 11:17 against 0.080 [0.065,
    0.098] played out (1,000 games a side); at CARDSIM_TEST_SCALE 1 (120 games a score) the intervals are about
    0.1 wide, from 10 on they tell the two models apart."""
    games, deals = 2 * round(100 * scale), max(20, round(40 * scale))
    equity = betting.thresholds("perlaggen", games=games, seed=11, class_deals=deals, progress=False)["match_equity"]
    equity = equity.set_index(["deals", "a", "b"])
    policy, scores = betting._loaded("formula"), [(11, 17), (14, 17)]
    job = perlaggen_betting.paired_job(policy, perlaggen_betting.rules_from_options(), scores, [((), policy)])
    counts = runner.run(job, max(60, 3 * deals), 12, progress=False).reshape(len(scores), 2, len(PAIRED_COUNTS))
    for (a, b), by_dealer in zip(scores, counts):
        played = dict(zip(PAIRED_COUNTS, (int(c) for c in by_dealer[0])))
        lo, hi = (estimate_columns("W", played["a_wins"], played["deals"])[k] for k in ("W_lo", "W_hi"))
        model = equity.loc[("a", a, b)]
        assert model.lo <= hi and lo <= model.hi, (a, b, model.W, played["a_wins"] / played["deals"])


@pytest.mark.parametrize("a_first", [True, False])
def test_mirrored_deal_swaps_the_race(a_first):
    """One deal outcome: A 2 points, B 1, A's award first or B's. Dealt by the other team with the teams swapped, the
    new A (old B) scores 1 and the new B 2, and the new A is first exactly when the old B was."""
    p = np.zeros((3, 3))
    p[2, 1] = 1.0
    first = np.zeros((3, 3))
    first[1:, 1:] = reach_table(p)[1:, 1:] * a_first  # [na, nb] = P(both reach, A first)
    q, other = betting.mirrored(p, first, 0)
    assert q[1, 2] == 1.0 and q.sum() == 1.0
    expected = np.zeros((3, 3))
    expected[1, 1:] = 0.0 if a_first else 1.0  # the new A reaches 1 point, the new B 1 or 2
    assert np.array_equal(other, expected)
