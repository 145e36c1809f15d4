"""3-player Perlaggen match equity (simcore.games.perlaggen_three_equity): the deal codes, the kernel against the
plain reference (tests/naive_perlaggen_three_equity.py) and against games simulated from the same outcomes, worked
cases of the race and the penalties, the self-play job, and `cardsim thresholds perlaggen --players 3 --games`."""

import importlib.util
import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_perlaggen_three_equity as naive
from analysis.games import betting as cli_betting
from analysis.sections import betting as report_section
from analysis.stats import estimate_columns

from simcore import runner
from simcore.betting import load_policy
from simcore.errors import CardsimError
from simcore.games import perlaggen_three as T
from simcore.games import perlaggen_three_equity as E
from test_betting_cli import run_cli

AWARD = st.tuples(st.integers(0, 2), st.integers(1, E.MAX_POINTS))
OUTCOME = st.tuples(st.lists(AWARD, max_size=E.SLOTS), st.lists(st.integers(0, 2), unique=True, max_size=2))


def code_of(awards, penalised) -> int:
    """The code of an outcome seen from the dealer (seat 0): `deal_code` of a `Result3` dealt by seat 0."""
    result = T.Result3([0, 0, 0], [(seat, points, figure) for figure, (seat, points) in enumerate(awards)],
                       set(penalised), None)
    return E.deal_code(result, 0)


def probs_of(outcomes) -> np.ndarray:
    """(CODES,) weights of [(weight, awards, penalised)]."""
    probs = np.zeros(E.CODES)
    for weight, awards, penalised in outcomes:
        probs[code_of(awards, penalised)] += weight
    return probs


@given(OUTCOME, st.integers(0, 2))
@settings(max_examples=200)
def test_a_deal_code_holds_the_awards_and_penalties_seen_from_the_dealer(outcome, dealer):
    awards, penalised = outcome
    result = T.Result3([0, 0, 0], [((dealer + s) % 3, pts, f) for f, (s, pts) in enumerate(awards)],
                       {(dealer + s) % 3 for s in penalised}, None)
    code = E.deal_code(result, dealer)
    assert 0 <= code < E.CODES
    assert E.decode(code) == (list(awards), sorted(penalised))


def test_codes_outside_the_plain_game_are_refused():
    with pytest.raises(CardsimError, match="at most 3"):
        E.deal_code(T.Result3([0, 0, 0], [(0, 1, 0)] * 4, set(), None), 0)
    with pytest.raises(CardsimError, match="not one of the plain"):
        E.deal_code(T.Result3([0, 0, 0], [(0, 4, 0)], set(), None), 0)


@given(st.lists(st.tuples(st.integers(1, 9), OUTCOME), min_size=1, max_size=6), st.integers(2, 4),
       st.integers(-2, 0))
@settings(max_examples=25, deadline=None)
def test_the_kernel_agrees_with_the_plain_reference(weighted, target, floor):
    outcomes = [(weight, awards, penalised) for weight, (awards, penalised) in weighted]
    outcomes.append((sum(o[0] for o in outcomes), [(1, 2)], []))  # games that end in a few dozen deals at most
    probs = probs_of(outcomes)
    w = E.match_equity(probs, target, floor)
    total = sum(weight for weight, _, _ in outcomes)
    reference = naive.equity([(weight / total, awards, pens) for weight, awards, pens in outcomes], target, floor)
    for (dealer, *scores), value in reference.items():
        if dealer == 0:
            assert np.allclose(w[tuple(s - floor for s in scores)], value, atol=1e-9)
    views = E.player_views(w, target, floor)
    for (dealer, *scores), value in reference.items():  # seen from seat 0: who deals is him, his left, his right
        seen = {0: "him", 1: "left", 2: "right"}[dealer]
        assert E.view(w, target, seen, *scores, floor) == pytest.approx(value[0], abs=1e-9)
        if min(scores) >= 0:
            assert views[E.DEALERS.index(seen), scores[0], scores[1], scores[2]] == pytest.approx(value[0], abs=1e-9)


def test_one_point_to_the_dealers_left_every_deal():
    """Target 2, seat 0 deals: seats 1, 2, 0 score one each, then seat 1 reaches 2 in the fourth deal."""
    w = E.match_equity(probs_of([(1, [(1, 1)], [])]), 2, 0)
    assert w[0, 0, 0].tolist() == [0.0, 1.0, 0.0]
    assert w[1, 1, 1].tolist() == [0.0, 1.0, 0.0]  # seat 0 deals: seat 1 scores and wins
    assert w[0, 1, 1].tolist() == [0.0, 1.0, 0.0]


def test_the_first_to_reach_the_target_in_a_deal_wins():
    """Both others on target - 1 and one award each: the earlier award in the §8.12 order wins the game."""
    left_first = E.match_equity(probs_of([(1, [(1, 1), (2, 1)], [])]), 3, 0)
    right_first = E.match_equity(probs_of([(1, [(2, 1), (1, 1)], [])]), 3, 0)
    assert left_first[0, 2, 2].tolist() == [0.0, 1.0, 0.0]
    assert right_first[0, 2, 2].tolist() == [0.0, 0.0, 1.0]


def test_penalties_lower_a_score_to_the_floor_and_no_further():
    """Half the deals the dealer fails an example (-2), half his left scores 2: from seat 0 on 0, seat 1 on 2 and
    target 4, seat 0 dealing, seat 0 falls to the floor; every game is won by whoever is on the dealer's left
    at a deal where he scores, and the table still sums to one."""
    w = E.match_equity(probs_of([(1, [], [0]), (1, [(1, 2)], [])]), 4, -2)
    assert np.allclose(w.sum(axis=-1), 1.0)
    # seat 1 on 2, seat 0 dealing: half the time seat 1 scores 2 and wins at once
    assert w[0 + 2, 2 + 2, 0 + 2, 1] >= 0.5


def test_the_kernel_agrees_with_games_simulated_from_the_outcomes():
    """W from the start against the share of 4,000 games played by drawing each deal's outcome."""
    outcomes = [(3, [(0, 1), (1, 1)], []), (2, [(2, 2)], []), (2, [(1, 1), (1, 1), (2, 1)], []), (1, [], [1]),
                (1, [], []), (1, [(0, 3)], [2])]
    target = 6
    w = E.match_equity(probs_of(outcomes), target)
    weights = np.array([o[0] for o in outcomes], dtype=float)
    rng = np.random.default_rng(11)
    wins = np.zeros(3)
    games = 4000
    for _ in range(games):
        scores, dealer, winner = [0, 0, 0], 0, None
        while winner is None:
            _, awards, penalised = outcomes[rng.choice(len(outcomes), p=weights / weights.sum())]
            winner, scores = naive.deal_step(scores, dealer, awards, penalised, target, E.FLOOR)
            dealer = (dealer + 1) % 3
        wins[winner] += 1
    z = -E.FLOOR
    share = wins / games
    se = np.sqrt(w[z, z, z] * (1 - w[z, z, z]) / games)
    assert np.all(np.abs(share - w[z, z, z]) < 4 * se)


def test_a_game_that_never_ends_is_refused():
    with pytest.raises(CardsimError, match="did not settle"):
        E.match_equity(probs_of([(1, [], [])]), 3)


def test_accept_thresholds_at_worked_scores():
    """Symmetric deals: at the start the game-level threshold is near the first-order 1/(3(v+1)); against a
    bettor on 4 (target 6) it is W(after conceding) / W(after winning) by the plain reference (losing it ends
    the game), and a raise to 3 from 4 is refused as §8.6 forbids it (as the engine does with 16 of 18)."""
    outcomes = [(1, [(s, 1)], []) for s in range(3)] + [(1, [(s, 2)], []) for s in range(3)]
    w = E.match_equity(probs_of(outcomes), 18)
    start = E.accept_threshold(w, 18, 0, 0, 0, 1, "him", "left")
    assert abs(start - 1 / 6) < 0.03
    small = E.match_equity(probs_of(outcomes), 6)
    reference = naive.equity([(1 / 6, awards, pens) for _, awards, pens in outcomes], 6, E.FLOOR)
    # he is seat 0 and dealt this deal; the bettor, his left, is seat 1 and deals the next one
    concede, win = reference[(1, 0, 5, 0)][0], reference[(1, 2, 4, 0)][0]
    assert E.accept_threshold(small, 6, 0, 4, 0, 1, "him", "left") == pytest.approx(concede / win, abs=1e-9)
    with pytest.raises(CardsimError, match="§8.6"):
        E.accept_threshold(small, 6, 0, 4, 0, 2, "him", "left")
    deal = T.Deal3([list(range(7)), list(range(7, 14)), list(range(14, 21))], 0, 0, [0, 16, 0], 18)
    assert deal.limit_error(1, 1) is None and deal.limit_error(1, 2) is not None
    assert E.bet_allowed(16, 1, 18) and not E.bet_allowed(16, 2, 18)
    with pytest.raises(CardsimError, match="§8.6"):
        E.accept_threshold(w, 18, 0, 16, 0, 2, "him", "left")


def test_the_job_counts_every_deal_once_and_any_chunk_size_gives_the_same_counts():
    job = E.Equity3Job(load_policy("formula"), 8, "innsbruck")
    one = runner.run(job, 6, 5, chunk_deals=6, progress=False, checkpoint=False)
    three = runner.run(job, 6, 5, chunk_deals=2, progress=False, checkpoint=False)
    assert np.array_equal(one, three)
    every, far = one[2:2 + E.CODES], one[2 + E.CODES:]
    assert one[0] == 6 and one[1] == every.sum() > 6
    assert np.all(far <= every) and 6 <= far.sum() < every.sum()  # every game starts far from 8; it ends near it
    with pytest.raises(CardsimError, match="plain game"):
        E.Equity3Job(load_policy("formula"), 9, "straf")


def test_thresholds_with_games_give_the_game_level_tables(capsys):
    code, text, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--games", "12", "--target", "6",
                            "--seed", "4", "--no-progress")
    assert code == 0 and "B. Match equity W(a; b, b)" in text and "C. Game-level accept threshold" in text
    assert "add --games N" not in text
    _, out, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--games", "12", "--target", "6",
                        "--seed", "4", "--json", "--no-progress")
    data = json.loads(out)
    equity = data["match_equity"]
    w = np.array(equity["W"])
    assert w.shape == (3, 6, 6, 6) and data["target"] == 6 and data["seed"] == 4 and data["games"] == 12
    # one score triple, seat 0 dealing: seat 0 sees himself deal, seat 1 his right, seat 2 his left
    for a, b, c in ((0, 0, 0), (5, 1, 3), (2, 4, 0)):
        assert w[0, a, b, c] + w[2, b, c, a] + w[1, c, a, b] == pytest.approx(1.0, abs=1e-5)
    assert {r["dealt"] for r in data["game_level"]} == {"him", "bettor", "third"}
    assert all(0.0 <= r["accept_p"] <= 1.0 and r["b"] + r["value"] < 6 for r in data["game_level"])
    assert {(r["b"], r["value"]) for r in data["game_level"]} >= {(0, 1), (0, 2), (4, 1)}
    tables = cli_betting.thresholds("perlaggen", players=3, games=12, target=6, seed=4, progress=False)
    assert tables["match_equity"].W.to_numpy().reshape(3, 6, 6, 6).round(6).tolist() == equity["W"]


def test_asked_scores_come_first_in_the_accept_table(capsys):
    code, text, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--games", "12", "--target", "8",
                            "--seed", "4", "--scores", "3,6,2", "--no-progress")
    lines = text.splitlines()
    header = next(i for i, line in enumerate(lines) if line.split()[:4] == ["a", "b", "c", "dealt"])
    assert code == 0 and "first the asked scores 3,6,2" in text
    assert [line.split()[:4] for line in lines[header + 1:header + 4]] == [["3", "6", "2", d]
                                                                           for d in ("him", "bettor", "third")]
    assert lines[header + 1].split()[5] == "-"  # 6 + 2 reaches 8: §8.6 forbids the raise
    tables = cli_betting.thresholds("perlaggen", players=3, games=12, target=8, seed=4, scores=(3, 6, 2),
                                    progress=False)
    first = tables["game_level"].iloc[0]
    assert (first.a, first.b, first.c, first.dealt, first.value) == (3, 6, 2, "him", 1)
    assert cli_betting.thresholds_json(tables)["asked_scores"] == [3, 6, 2]
    with pytest.raises(CardsimError, match="from 0 to below the target 8"):
        cli_betting.equity3("formula", 2, 4, 8, scores=(3, -1, 2), progress=False)


@pytest.mark.parametrize("args, message", [
    (["--games", "12", "--target", "8", "--scores", "3,8,2"], "from 0 to below the target 8"),
    (["--scores", "3,5,2"], "add --games N for the game-level tables): drop --scores"),
    (["--games", "12", "--scores", "3,5"], "give three scores"),
    (["--games", "12", "--scores", "3,-1,2"], "give three scores"),
    (["--straf", "--games", "30"], "Strafperlaggen thresholds are first-order"),
    (["--target", "6"], "add --games N"),
    (["--games", "12", "--communication", "none"], "the 3-player game has no partners to tell: drop --communication"),
    (["--games", "1"], "--games"),
])
def test_three_player_game_level_bad_input(capsys, args, message):
    code, _, err = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", *args, "--no-progress")
    assert code == 2 and message in err and err.count("\n") == 1


def per_class_outcomes(scores, target: int):
    """A deal model that depends on the limit classes of the scores (dealer's, left's, right's): the player with
    the smallest class (the first of them) is more likely to score, and a failed example only when all are far."""
    classes = [E.limit_class(target - s, target) for s in scores]
    near = classes.index(min(classes))
    outcomes = [(1 + min(classes), [(near, 1)], []), (2, [((near + 1) % 3, 2), (near, 1)], []),
                (1, [((near + 2) % 3, 1)], [])]
    if min(classes) == E.LIMIT_REACH:
        outcomes.append((1, [], [1]))
    return outcomes


@given(st.integers(1, 6), st.integers(-2, 0))
@settings(max_examples=12, deadline=None)
def test_the_kernel_reads_each_scores_class_as_the_plain_reference(target, floor):
    """A per-class model (`per_class_outcomes`) against plain value iteration."""
    probs = np.zeros((E.CLASSES, E.CODES))
    for classes in itertools.product(range(1, E.LIMIT_REACH + 1), repeat=3):
        if max(classes) <= min(target, E.LIMIT_REACH):
            probs[E.class_index(classes)] = probs_of(per_class_outcomes([target - c for c in classes], target))
    w = E.match_equity(probs, target, floor)

    def outcomes_at(scores):
        listed = per_class_outcomes(scores, target)
        total = sum(weight for weight, _, _ in listed)
        return [(weight / total, awards, pens) for weight, awards, pens in listed]

    reference = naive.equity(outcomes_at, target, floor)
    for (dealer, *scores), value in reference.items():
        if dealer == 0:
            assert np.allclose(w[tuple(s - floor for s in scores)], value, atol=1e-9)


def test_one_distribution_for_every_class_is_the_pooled_model():
    outcomes = [(3, [(0, 1), (1, 1)], []), (2, [(2, 2)], []), (1, [], [1]), (1, [(0, 3)], [2])]
    probs = probs_of(outcomes)
    pooled = E.match_equity(probs, 9)
    assert np.allclose(E.match_equity(np.tile(probs, (E.CLASSES, 1)), 9), pooled, atol=1e-11)


@given(st.lists(st.tuples(st.integers(0, E.CLASSES - 1), OUTCOME, st.integers(1, 5)), min_size=1, max_size=12),
       st.integers(0, 2 ** 32 - 1))
@settings(max_examples=25, deadline=None)
def test_weights_on_a_grouping_made_once_give_the_same_transitions_and_table(listed, seed):
    """`reweighted` on the `class_grouping` of some weights, for weights on part of their codes (a redraw), gives the
    group and code probabilities `class_transitions` gives them afresh (codes of weight 0 count nothing), and the
    same table."""
    probs = np.zeros((E.CLASSES, E.CODES))
    for cls, (awards, pens), weight in listed:
        probs[cls, code_of(awards, pens)] += weight
    probs[:, code_of([(0, 1)], [])] += 1  # every class scores, so every game ends
    rng = np.random.default_rng(seed)
    redraw = probs * (rng.random(probs.shape) < 0.6)
    redraw[:, code_of([(0, 1)], [])] = probs[:, code_of([(0, 1)], [])]
    grouping = E.class_grouping(probs)
    fresh, again = E.class_transitions(redraw), E.reweighted(grouping, redraw)
    for cls in range(E.CLASSES):  # per class: each effect's probability and each code's, whatever the grouping
        def effects(columns):
            starts, group_p, gains, pens = columns[:4]
            rows = range(starts[cls], starts[cls + 1])
            return {(tuple(gains[g]), tuple(pens[g])): group_p[g] for g in rows if group_p[g] > 0}
        assert effects(fresh).keys() == effects(again).keys()
        assert all(np.isclose(effects(fresh)[k], v, atol=1e-15) for k, v in effects(again).items())
    w = E.match_equity(redraw, 5)
    assert np.allclose(E.match_equity(redraw, 5, grouping=grouping), w, atol=1e-12)
    outside = redraw.copy()
    outside[0, np.flatnonzero(probs[0] == 0)[0]] = 1  # a code no class-0 weight of the grouping has
    with pytest.raises(CardsimError, match="lacks"):
        E.reweighted(grouping, outside)


def test_the_bootstrap_gives_the_same_redraws_on_any_number_of_threads():
    every, far = np.zeros(E.CODES), np.zeros(E.CODES)
    every[[3, 5, 9]], far[[3, 5]] = (5, 3, 2), (4, 1)
    near = np.zeros((len(E.near_classes(6)), E.CODES))
    near[:, [7, 9]] = (2, 3)
    probs, deals = E.class_probs(every, far, near, 6, 1.0)
    w = E.match_equity(probs, 6)
    one = cli_betting.bootstrap_equity3(probs, deals, every, 6, 1, w, replicates=7)
    assert len(one) == 7 and np.std([r[5 - E.FLOOR, 5 - E.FLOOR, 5 - E.FLOOR, 0] for r in one]) > 0
    for jobs in (2, 3):  # batches of 2 or 3 redraws, the last one short
        many = cli_betting.bootstrap_equity3(probs, deals, every, 6, 1, w, replicates=7, jobs=jobs)
        assert len(many) == 7 and all(np.array_equal(a, b) for a, b in zip(one, many))


def test_limit_classes_of_scores():
    assert [E.limit_class(d, 18) for d in (1, 2, 3, 4, 5, 30)] == [1, 2, 3, 4, 4, 4]
    assert E.limit_class(5, 2) == 2  # a score below 0 in a game to 2 takes the class of 0
    assert E.class_index((1, 1, 1)) == 0 and E.class_index((4, 4, 4)) == E.FAR_CLASS == E.CLASSES - 1
    assert E.score_class((16, 15, 0), 18) == E.class_index((2, 3, 4))
    assert len(E.near_classes(18)) == E.CLASSES - 1 == 63 and (4, 4, 4) not in E.near_classes(18)
    assert report_section.THREE_NEAR_CLASSES == len(E.near_classes(18))
    assert E.near_classes(2) == tuple((i, j, k) for k in (1, 2) for j in (1, 2) for i in (1, 2))


def test_class_deals_are_dealt_at_their_scores():
    """Every player one point short: no bet is allowed (§8.6), so every award is one point; far from the target
    the same deals pay bets of 2 and 3. Any chunk size gives the same counts."""
    job = E.Class3Job(load_policy("formula"), 18, "innsbruck")
    one = runner.run(job, 40, 3, chunk_deals=40, progress=False, checkpoint=False)
    assert np.array_equal(one, runner.run(job, 40, 3, chunk_deals=8, progress=False, checkpoint=False))
    counts = one.reshape(len(job.classes), E.CODES)
    assert np.all(counts.sum(axis=1) == 40)

    def points_paid(row):
        return {points for code in np.flatnonzero(row) for _, points in E.decode(int(code))[0]}

    assert points_paid(counts[job.classes.index((1, 1, 1))]) == {1}
    assert points_paid(counts[job.classes.index((4, 4, 3))]) > {1}
    with pytest.raises(CardsimError, match="plain game"):
        E.Class3Job(load_policy("formula"), 9, "straf")


def test_class_probs_take_the_far_class_from_self_play_and_a_prior_in_the_near_ones():
    every, far = np.zeros(E.CODES), np.zeros(E.CODES)
    every[[3, 5]], far[3] = (6, 2), 4
    near = np.zeros((len(E.near_classes(18)), E.CODES))
    near[0, 7] = 3
    probs, deals = E.class_probs(every, far, near, 18, 1.0)
    assert probs[E.FAR_CLASS, 3] == pytest.approx((4 + 0.75) / 5) and deals[E.FAR_CLASS] == 4
    first = E.class_index(E.near_classes(18)[0])
    assert probs[first, 7] == pytest.approx(3 / 4) and probs[first, 3] == pytest.approx(0.75 / 4)
    assert deals[first] == 3 and np.allclose(probs.sum(axis=1), 1.0)


def test_the_bootstrap_varies_a_class_whose_deals_all_agree():
    """Two deals a class, both of one code: the redraws come from the class's distribution with its prior in it, so
    they still vary (a bootstrap of the two deals alone would give an interval of width 0)."""
    every, far = np.zeros(E.CODES), np.zeros(E.CODES)
    every[[3, 5, 9]], far[[3, 5]] = (5, 3, 2), (4, 1)
    near = np.zeros((len(E.near_classes(6)), E.CODES))
    near[:, 7] = 2
    probs, deals = E.class_probs(every, far, near, 6, 1.0)
    w = E.match_equity(probs, 6)
    redraws = cli_betting.bootstrap_equity3(probs, deals, every, 6, 1, w, replicates=20)
    z = -E.FLOOR
    assert np.std([r[5 + z, 5 + z, 5 + z, 0] for r in redraws]) > 0.01


def test_class_deals_in_the_cli_and_json(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--games", "12", "--target", "6",
                           "--seed", "4", "--class-deals", "3", "--json", "--no-progress")
    data = json.loads(out)
    n = np.array(data["match_equity"]["n"])
    assert code == 0 and data["class_deals"] == 3 and n.shape == (3, 6, 6, 6)
    assert data["model_deals"] == data["far_deals"] + 3 * (E.CLASSES - 1)
    assert n[0, 0, 0, 0] == data["far_deals"] and n[0, 5, 0, 0] == 3 and n[1, 5, 0, 0] == 3
    assert all(r["n"] in (3, data["far_deals"]) for r in data["game_level"])
    code, text, _ = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", "--games", "12", "--target", "6",
                            "--seed", "4", "--class-deals", "3", "--no-progress")
    assert "from 3 deals begun at its scores (--class-deals)" in text


def test_two_games_are_enough_for_every_bootstrap_redraw():
    """Two self-play games to 4: a far-class redraw of only deals nobody scores in once stalled the bootstrap ("did
    not settle"); every class now holds the self-play prior, in the estimate and in each redraw."""
    tables = cli_betting.equity3("formula", 2, 3, 4, class_deals=2, progress=False)
    assert tables["match_equity"].attrs["class_deals"] == 2 and tables["match_equity"].hi.max() <= 1.0 + 1e-9
    assert cli_betting.equity3("formula", 4.0, 3, 4, class_deals=2, progress=False)["game_level"].attrs["games"] == 4


@pytest.mark.parametrize("args, message", [
    (["--class-deals", "30"], "add --games N for the game-level tables): drop --class-deals"),
    (["--straf", "--class-deals", "30"], "Strafperlaggen thresholds are first-order"),
    (["--games", "12", "--class-deals", "1"], "--class-deals"),
])
def test_three_player_class_deals_bad_input(capsys, args, message):
    code, _, err = run_cli(capsys, "thresholds", "perlaggen", "--players", "3", *args, "--no-progress")
    assert code == 2 and message in err and err.count("\n") == 1


def check_script():
    """scripts/check_three_equity.py as a module."""
    path = Path(__file__).resolve().parents[1] / "scripts" / "check_three_equity.py"
    spec = importlib.util.spec_from_file_location("check_three_equity", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script


def test_a_game_begun_mid_way_keeps_its_scores_and_first_dealer():
    policies = [load_policy("formula")] * 3
    game = T.play_game(policies, np.random.default_rng(1), np.random.default_rng(2), 18, scores=(17, 3, 5), dealer=2)
    assert game.dealers[0] == 2 and [d % 3 for d in game.dealers] == [(2 + k) % 3 for k in range(len(game.deals))]
    assert game.scores == [s + sum(d.points[p] for d in game.deals) for p, s in enumerate((17, 3, 5))]
    assert game.scores[game.winner] >= 18
    for scores, dealer, message in (((18, 0, 0), 0, "every score below the target 18"), ((1, 2), 0, "3 whole numbers"),
                                    ((0, 0, 0), 3, "dealer")):
        with pytest.raises(CardsimError, match=message):
            T.play_game(policies, np.random.default_rng(1), np.random.default_rng(2), 18, scores=scores,
                        dealer=dealer)


@pytest.mark.slow
def test_the_class_model_agrees_with_games_played_out_near_the_end(scale):
    """Target 18, seat 0 dealing: W of every seat from the class model against games played out from the score
    (their 95% Wilson interval). scripts/check_three_equity.py makes the same comparison at 27 scores and dealers
    with 1,000 games each (the README gives its figures); this is its CI size."""
    games, deals, played = round(300 * scale), max(20, round(40 * scale)), max(100, round(200 * scale))
    equity = cli_betting.equity3("formula", games, 11, class_deals=deals, progress=False)["match_equity"]
    equity = equity.set_index(["dealer", "a", "b", "c"])
    for scores in ((16, 16, 0), (17, 15, 0)):
        wins = check_script().wins_from(scores, 0, played, 12)
        for seat in range(3):
            mine, left, right = scores[seat], scores[(seat + 1) % 3], scores[(seat + 2) % 3]
            model = equity.loc[(E.DEALERS[-seat % 3], mine, left, right)]
            if model.W < 0.01:  # the player on 0: a game in a hundred or fewer, below what these games tell
                continue
            lo, hi = (estimate_columns("W", int(wins[seat]), played)[k] for k in ("W_lo", "W_hi"))
            assert model.lo <= hi and lo <= model.hi, (scores, seat, model.W, wins[seat] / played)


def test_the_played_out_check_script_prints_every_cell_and_both_models(capsys):
    """scripts/check_three_equity.py at a tiny size: a line per score and dealer, then one summary per model."""
    script = check_script()
    assert script.main(["--games", "4", "--class-deals", "2", "--played", "3", "--jobs", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 * len(script.SCORES) + 3
    assert lines[-2].startswith("class model: ") and lines[-1].startswith("pooled: ")
    assert "3 games played out per score and dealer" in lines[-3]


def test_equity3_gives_the_same_tables_on_any_number_of_bootstrap_threads():
    run = dict(games=6, seed=2, target=4, class_deals=2, progress=False, checkpoint=False)
    one, two = cli_betting.equity3(**run), cli_betting.equity3(threads=2, **run)
    for name in ("match_equity", "game_level"):
        assert one[name].equals(two[name])
    with pytest.raises(CardsimError, match="threads"):
        cli_betting.equity3(threads=0, **run)
