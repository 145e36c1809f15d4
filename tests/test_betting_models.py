"""Betting models (simcore.betting, analysis.games.betting): the communication models ``partner`` and
``none``, Perlaggen styles, bluff-showing, the §7.10 close-finish order and the dealer in the match
equity, and the table forms (`Command.frame`) that `cardsim sweep` stores."""

import copy
import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_betting
from analysis import sweep
from analysis.cli import main
from analysis.games import betting as analysis_betting
from simcore import betting
from simcore.betting import (COMMUNICATION, GUT, PRESETS, SHOWDOWN, Agent, G, Policy, dealt_match_equity, reach_table,
                             game_hold_threshold, match_equity, race_order, showing_turn)
from simcore.errors import CardsimError
from simcore.games import giltspiel_betting as gb
from simcore.games import perlaggen_betting as pb
from simcore.games.perlaggen_deal import FOUR_PLAYER_STYLES

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def game_log(communication: str, seed: int):
    """Every deal's action log and score line of one Giltspiel game (formula vs aggressive)."""
    record = gb.play_game((PRESETS["formula"], PRESETS["aggressive"]), np.random.default_rng(seed),
                          np.random.default_rng(seed + 1), gb.rules_from_options(), gb.make_estimator(communication))
    return [(r.points, r.awards) for r in record.deals], record.scores


# --- communication -------------------------------------------------------------------------------
@given(st.sampled_from([2, 4, 6]).flatmap(lambda players: st.lists(st.lists(
    st.tuples(st.integers(-1, 5), st.integers(-1, 5)), min_size=players, max_size=players), min_size=1, max_size=30)),
    st.sampled_from(COMMUNICATION))
@settings(max_examples=60)
def test_figure_counts_match_naive(codes, communication):
    """`betting.figure_counts` equals plain loops, for every model (``none``: each seat by its own code;
    ``auer_channel``: and the partners' has-figure signal, summing to ``none`` over the signal) and tables
    of 2, 4 and 6 players."""
    array = np.array(codes, dtype=np.int64)
    got = betting.figure_counts(array, 7, communication)
    if communication == betting.AUER:
        assert got.tolist() == naive_betting.figure_counts(codes, communication, 7)
        assert (naive_betting.fold_signals(got) == betting.figure_counts(array, 7, "none")).all()
    else:
        want = naive_betting.figure_counts(codes, communication)
        assert got[:, :len(want[0])].tolist() == want
    per_team = 1 if communication == "partner" else len(codes[0]) // 2
    assert got.sum() == per_team * 2 * 2 * len(codes)


def test_none_sees_only_its_own_hand():
    """Seat 0 holds no Gleich and its partner (seat 2) three Aces: with partner information seat 0
    judges the team's three Aces, alone it knows of no Gleich at all (the weakest class)."""
    deck = gb.DECK
    hands = [deck.parse_cards(h) for h in ("E7 L8 H9 S10 EU", "L7 H8 S9 E10 LU", "EA LA HA EK LK", "S7 E8 L9 H10 HU")]
    deal = gb.new_deal(hands, trump=0)
    partner, alone = gb.make_estimator("partner"), gb.make_estimator("none")
    assert partner(deal, 0, G) == partner(deal, 2, G) == pytest.approx(alone(deal, 2, G), abs=0.01)
    assert alone(deal, 0, G) < 0 < partner(deal, 0, G)
    assert partner.view(0) == partner.view(2) == 0 and alone.view(0) != alone.view(2)


def test_communication_changes_decisions_and_both_are_deterministic():
    """The same deal sequence played under both models: the same model twice gives the same game, the
    two models give different games (different bets) for some seed."""
    differ = False
    for seed in range(6):
        partner = game_log("partner", seed)
        assert game_log("partner", seed) == partner
        none = game_log("none", seed)
        assert game_log("none", seed) == none
        differ = differ or none != partner
    assert differ


def test_match_command_communication(capsys):
    """`cardsim match --communication none`: the same numbers for any --jobs / --chunk-size, other
    numbers than with partner information, and the model named in the output."""
    args = ["match", "giltspiel", "--a", "formula", "--b", "cautious", "--games", "24", "--seed", "5",
            "--no-progress", "--json"]
    _, none_one, _ = run_cli(capsys, *args, "--communication", "none")
    _, none_two, _ = run_cli(capsys, *args, "--communication", "none", "--jobs", "2", "--chunk-size", "8")
    _, partner, _ = run_cli(capsys, *args)
    assert json.loads(none_one) == json.loads(none_two)
    assert json.loads(none_one) != json.loads(partner)
    code, text, _ = run_cli(capsys, *args[:-1], "--communication", "none")
    assert code == 0 and "communication none" in text.splitlines()[0]


def test_unknown_communication(capsys):
    code, out, err = run_cli(capsys, "match", "giltspiel", "--a", "formula", "--b", "never", "--communication",
                             "whisper", "--no-progress")
    assert code == 2 and out == "" and err.count("\n") == 1 and "communication" in err
    with pytest.raises(CardsimError, match="communication model"):
        gb.make_estimator("auer")


# --- Perlaggen styles ----------------------------------------------------------------------------
@pytest.mark.parametrize("style", FOUR_PLAYER_STYLES)
def test_every_four_player_style_plays_whole_games(style):
    """Games of every four-player style end with a winner and a consistent score sheet; the wild cards
    are the style's (a Perlagg of the style is in the adapter's wild set)."""
    record = pb.play_game((PRESETS["aggressive"], PRESETS["formula"]), np.random.default_rng(3),
                          np.random.default_rng(4), pb.rules_from_options(target=6), style=style)
    assert record.winner in (0, 1)
    assert [sum(r.points[t] for r in record.deals) for t in (0, 1)] == record.scores
    assert pb.kit(style).cards(2).wild == pb.P.perlaggen(style, "H")


def test_style_option_on_the_commands(capsys):
    args = ["match", "perlaggen", "--a", "formula", "--b", "never", "--games", "2", "--seed", "1", "--target", "6",
            "--no-progress"]
    _, eichel, _ = run_cli(capsys, *args, "--style", "eichel", "--json")
    _, innsbruck, _ = run_cli(capsys, *args, "--json")
    assert json.loads(eichel) != json.loads(innsbruck)
    code, text, _ = run_cli(capsys, *args, "--style", "eichel")
    assert code == 0 and "Eichel style" in text
    code, out, err = run_cli(capsys, *args, "--style", "straf")
    assert code == 2 and "invalid choice" in err
    code, out, err = run_cli(capsys, "thresholds", "giltspiel", "--style", "eichel", "--no-progress")
    assert code == 2 and "unrecognized" in err
    with pytest.raises(CardsimError, match="three-player game"):
        pb.match_job(PRESETS["never"], PRESETS["never"], pb.rules_from_options(), style="straf")


def test_perlaggen_first_order_by_style_and_model():
    """The weakest holding class depends on the style's wild cards and on what a player knows."""
    table = {(style, comm): analysis_betting.first_order("perlaggen", comm, style)
             for style in ("innsbruck", "eichel") for comm in COMMUNICATION}
    for frame in table.values():
        assert frame.hold_p.round(3).tolist()[:3] == [0.25, 0.167, 0.125]
    assert len({tuple(f.weakest_hold) for f in table.values()}) > 1


# --- bluff-showing ---------------------------------------------------------------------------------
def beaten_showdowns(limit: int):
    """Giltspiel deals played (greedy cards, no bets) into the showing where the showing team holds a
    Gleich example but is beaten by what the opponents displayed in tricks."""
    rng = np.random.default_rng(11)
    found = 0
    while found < limit:
        hands, trump = gb.draw_deal(rng)
        deal = gb.new_deal(hands, trump)
        while deal.phase == "play":
            deal.play(deal.to_move, *gb.CARDS.choose_card(deal, deal.to_move))
        team = deal.showing
        if deal.phase == SHOWDOWN and deal.beaten(team, G) and (deal.can_bet(team, G) or deal.can_bet(team + 2, G)):
            found += 1
            yield deal


def test_bluff_showing_bets_a_beaten_figure():
    """`Policy.show_bluff` = 1: in its showing turn a beaten team bets the Gleich instead of conceding it;
    the opponents answer, and a held bluff is conceded at the new value (§7.8). A truthful team concedes
    it at once (value 1)."""
    estimator = gb.make_estimator()
    answers = set()
    for deal in beaten_showdowns(12):
        team = deal.showing
        truthful = copy.deepcopy(deal)
        showing_turn(truthful, [Agent(PRESETS["formula"], estimator)] * 2, gb.CARDS.example_cards)
        assert truthful.figures[G].winner == 1 - team and truthful.figures[G].points == 1
        agents = [Agent(PRESETS["formula"], estimator), Agent(PRESETS["formula"], estimator)]
        agents[team] = Agent(Policy("bluffer", show_bluff=1.0), estimator, show_bluffs=(True, True))
        showing_turn(deal, agents, gb.CARDS.example_cards)
        assert (team, G, "bet") in [(s % 2, f, k) for s, f, k in deal.log]
        fig = deal.figures[G]
        answer = next(k for s, f, k in deal.log if f == G and s % 2 != team)
        answers.add(answer)
        if answer == GUT:
            assert fig.winner == team and fig.points == 1
        else:
            assert fig.winner == 1 - team and fig.points >= 2
    assert answers  # the opponents answered every bluff


def test_show_bluff_is_checked():
    with pytest.raises(CardsimError, match="show_bluff"):
        Policy("x", show_bluff=2.0)


@given(st.floats(0, 1), st.integers(0, 2**32 - 1))
@settings(max_examples=6, deadline=None)
def test_bluff_showing_policies_play_whole_games(rate, seed):
    """Games with any bluff-showing rate end properly (the engine refuses every illegal line)."""
    policy = Policy("b", show_bluff=rate, bluff=0.2)
    record = gb.play_game((policy, PRESETS["formula"]), np.random.default_rng(seed), np.random.default_rng(seed + 1),
                          gb.rules_from_options(target=7), gb.make_estimator("none"))
    assert record.winner in (0, 1)


# --- close finish and dealer in the match equity ------------------------------------------------------
penalties = st.lists(st.integers(0, 1).map(lambda team: (0, None, team, -2)), max_size=2)
scored = st.lists(st.tuples(st.integers(1, 3), st.integers(0, 2), st.integers(0, 1), st.integers(1, 7)), max_size=3)


@given(penalties, scored, st.integers(0, 1), st.integers(1, 12), st.integers(1, 12))
@settings(max_examples=50)
def test_race_order_matches_naive(penalty_list, scored_list, side, na, nb):
    """`race_order`[na, nb] says whether side a reaches na first when both reach: as `first_to_target`
    from the scores (T - na, T - nb) does (penalties first, then the figures in the §7.10 order)."""
    award_list = penalty_list + scored_list
    target = 30
    order = race_order(award_list, side)
    start = [0, 0]
    start[side], start[1 - side] = target - na, target - nb
    totals = [sum(p for _, _, t, p in award_list if (t == side) == (s == 0)) for s in (0, 1)]
    if totals[0] >= na and totals[1] >= nb:
        assert order[na, nb] == (naive_betting.first_to_target(start, award_list, target) == side)
    else:
        assert order[na, nb] == 0


dists = st.lists(st.floats(0.05, 1), min_size=9, max_size=9).map(lambda v: np.array(v).reshape(3, 3) / sum(v))


@given(dists, dists, st.floats(0, 1), st.integers(2, 4))
@settings(max_examples=8, deadline=None)
def test_dealt_match_equity_matches_value_iteration(p0, p1, share, target):
    """The DP (2 x 2 system for deals where nobody scores) equals plain value iteration, with the race
    order given (A first in a share of the both-reach cases) and without it (1/2)."""
    firsts = []
    for p in (p0, p1):
        both = p[::-1, ::-1].cumsum(0).cumsum(1)[::-1, ::-1] * share
        both[0, :] = both[:, 0] = 0
        firsts.append(both)
    for given_firsts in (firsts, None):
        w = dealt_match_equity((p0, p1), target, given_firsts)
        naive = naive_betting.race_equity((p0.tolist(), p1.tolist()),
                                          None if given_firsts is None else [f.tolist() for f in firsts], target,
                                          sweeps=300)
        assert w[:, :target, :target] == pytest.approx(np.array(naive), abs=1e-9)


def test_close_finish_order_decides_both_at_target():
    """Every deal gives both teams 1 point, A's first (§7.10 order): from target-1 : target-1 A always
    wins, where the old ½ rule said 0.5; the dealer-blind form agrees with `match_equity`."""
    dist = np.zeros((2, 2))
    dist[1, 1] = 1.0
    first = np.zeros((2, 2))
    first[1, 1] = 1.0
    assert match_equity(dist, 5, first)[4, 4] == 1.0
    assert match_equity(dist, 5)[4, 4] == 0.5
    w = dealt_match_equity((dist, dist), 5, (first, first))
    assert np.array_equal(w[0], w[1])


def test_dealer_advantage_in_the_match_equity():
    """The dealing team scores the deal's point: from 0:0 with target 1 the next dealer wins; with target 2
    and the deal alternating, both score once, so A wins if it deals first."""
    a_deals, b_deals = np.zeros((2, 2)), np.zeros((2, 2))
    a_deals[1, 0] = b_deals[0, 1] = 1.0
    w = dealt_match_equity((a_deals, b_deals), 2)
    assert w[0, 1, 1] == 1.0 and w[1, 1, 1] == 0.0
    assert w[0, 0, 0] == 1.0 and w[1, 0, 0] == 0.0


def test_self_play_model_is_a_distribution():
    frame = analysis_betting.match("giltspiel", "formula", "formula", games=8, seed=2, progress=False)
    p, first, deals = analysis_betting.self_play_model(frame.attrs["dealt_points"], frame.attrs["race"])
    assert p.sum() == pytest.approx(1) and deals == frame.attrs["deals"]
    both = reach_table(p, frame.attrs["point_low"])
    assert (first <= both + 1e-12).all() and (first >= 0).all()


# --- table forms and sweeps ---------------------------------------------------------------------------
def test_thresholds_frame_and_intervals():
    tables = analysis_betting.thresholds("giltspiel", target=4, games=8, seed=3, progress=False)
    frame = analysis_betting.thresholds_frame(tables)
    assert list(frame.columns) == ["estimate", "value", "lo", "hi", "n"]
    allowed = sum(1 for b in range(4) for v in range(1, 7) if b + v < 4)  # the betting limit (§7.11)
    assert len(frame) == 2 * 16 + 2 * 4 * allowed
    assert (frame.lo <= frame.value + 1e-9).all() and (frame.value <= frame.hi + 1e-9).all()
    assert frame.estimate.iloc[0] == "equity.a.0.0"


def test_match_and_tournament_frames():
    frame = analysis_betting.match_frame(analysis_betting.match("giltspiel", "never", "formula", games=4, seed=1,
                                                                progress=False))
    assert frame.estimate.tolist() == ["a.win_rate", "a.points_per_deal", "b.win_rate", "b.points_per_deal"]
    assert (frame.n == 4).all()
    table = analysis_betting.tournament("giltspiel", ["never", "formula", "cautious"], games=2, seed=1, progress=False)
    long = analysis_betting.tournament_frame(table)
    assert len(long) == 12 and "never.formula.win_rate" in set(long.estimate)


def test_sweep_of_a_match(tmp_path):
    """`cardsim sweep` runs the match command over a grid (communication x style), one part per cell."""
    scenario = tmp_path / "betting.toml"
    scenario.write_text('game = "perlaggen"\ncommand = "match"\nseed = 3\nn = 2\n\n[fixed]\na = "aggressive"\n'
                        'b = "formula"\ntarget = 5\n\n[grid]\ncommunication = ["partner", "none"]\n'
                        'style = ["innsbruck", "eichel"]\n')
    result = sweep.sweep(scenario, tmp_path / "out", progress=False)
    assert result.cells == 4 and result.ran == 4
    import pandas as pd
    data = pd.read_parquet(tmp_path / "out")
    assert set(data.communication) == {"partner", "none"} and set(data["style"]) == {"innsbruck", "eichel"}
    assert set(data.estimate) == {"a.win_rate", "b.win_rate", "a.points_per_deal", "b.points_per_deal"}


def test_shipped_betting_scenario_parses():
    """scenarios/betting_communication.toml: every cell's options parse (nothing is run)."""
    parsed = sweep.read_scenario(ROOT / "scenarios" / "betting_communication.toml")
    assert parsed.command == "match" and len(parsed.cells) == 4


@given(st.integers(2, 9), st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_hold_thresholds_match_the_scalar_formula(target, seed):
    """The vectorised game-level thresholds equal `simcore.betting.game_hold_threshold` at every score."""
    w = dealt_match_equity([np.random.default_rng(seed).random((3, 3))] * 2, target)[0]
    table = analysis_betting.hold_thresholds(w)
    for a in range(target):
        for b in range(target):
            for i, v in enumerate(analysis_betting.VALUES):
                assert table[a, b, i] == pytest.approx(game_hold_threshold(w, a, b, v))


def _cluster_squares(job, n: int, seed: int, wins, per: int) -> np.ndarray:
    """Sums over clusters of ``per`` games of (a's wins)², replaying the block one game longer each time."""
    previous, outcomes = np.zeros(job.n_counts, dtype=np.int64), []
    for j in range(1, n + 1):
        counts = job.run_block(seed, 0, j)
        outcomes.append(counts[wins] - previous[wins])
        previous = counts
    outcomes = np.array(outcomes)
    return sum(outcomes[k:k + per].sum(axis=0) ** 2 for k in range(0, n, per))


def test_match_jobs_count_the_squares_of_their_clusters():
    """MatchJob's last count and Match3Job's last three are the sums over duplicate pairs / deal
    sequences of (games won)², (came 2nd)², (came 3rd)², also with a partial last cluster."""
    from simcore.betting import PRESETS
    from simcore.games import giltspiel_betting as gb
    from simcore.games import perlaggen_three as T

    job = gb.match_job(PRESETS["formula"], PRESETS["never"], gb.rules_from_options(target=5))
    assert job.run_block(11, 0, 7)[-1] == _cluster_squares(job, 7, 11, [1], 2)[0]
    job3 = T.Match3Job(PRESETS["formula"], PRESETS["aggressive"], 3, "straf", places=True)
    assert list(job3.run_block(11, 0, 7)[13:]) == list(_cluster_squares(job3, 7, 11, [1, 10, 11], 3))


EVEN = np.array([[0.0, 0.5], [0.5, 0.0]])
"""A deal where one team or the other scores one point, as likely."""


@pytest.mark.parametrize("call, message", [
    (lambda w: betting.match_equity(np.array([[0, -0.5], [1.5, 0]]), 5), r"must be a square \(K, K\) table of "
                                                                          r"finite numbers, non-negative, got "),
    (lambda w: betting.match_equity(np.array([[0, np.nan], [0.5, 0]]), 5), "finite numbers, non-negative"),
    (lambda w: betting.match_equity(np.zeros((2, 2)), 5), "a table sums to 0"),
    (lambda w: betting.match_equity(np.array([[1.0, 0], [0, 0]]), 5), "no deal ever scores"),
    (lambda w: betting.match_equity(np.array([[5, 0], [0, 0]]), 5), "no deal ever scores"),  # counts, not shares
    (lambda w: betting.match_equity(np.ones((2, 3)), 5), r"square \(K, K\)"),
    (lambda w: betting.match_equity({1: 0.5}, 5), r"square \(K, K\)"),
    (lambda w: betting.match_equity(EVEN, 0), "the target must be from 1 to 1000, got 0"),
    (lambda w: betting.match_equity(EVEN, True), "the target must be a whole number from 1 to 1000, got True"),
    (lambda w: betting.match_equity(EVEN, 10**7), "the target must be from 1 to 1000"),  # was a 728 TiB MemoryError
    (lambda w: betting.match_equity(EVEN, 5, first=np.zeros((3, 3))), r"must be a \(2, 2\) table"),
    (lambda w: betting.game_hold_threshold(w, -1, 0, 1), "score a must be from 0 to 5, got -1"),  # read row 5: 1.0
    (lambda w: betting.game_hold_threshold(w, 0, -6, 1), "score b must be from 0 to 5, got -6"),
    (lambda w: betting.game_hold_threshold(w, 2.5, 0, 1), "score a must be a whole number"),
    (lambda w: betting.game_hold_threshold(w, 0, 0, 0), r"value \(the figure's value before the bet\) must be at "
                                                        "least 1, got 0"),
    (lambda w: betting.game_hold_threshold(None, 0, 0, 1), r"w \(the match equity, as match_equity gives it\)"),
    (lambda w: betting.hold_threshold(1, float("nan")), r"stand \(the probability of a stand\) must be a number from "
                                                        "0 to 1, got nan"),  # max() made it 0.0
    (lambda w: betting.hold_threshold(-1), "must be at least 1, got -1"),  # was ZeroDivisionError
    (lambda w: betting.hold_threshold("1"), "must be a whole number of at least 1, got '1'"),
    (lambda w: betting.bet_threshold(2.0), "must be a number from 0 to 1, got 2.0"),  # gave P(win) > -0.5
    (lambda w: betting.bluff_break_even(1, float("nan")), r"d \(P\(win\) - P\(lose\) of a bluff\) must be a number "
                                                          "from -1 to below 0, got nan"),
    (lambda w: betting.bluff_break_even(0, -0.5), "must be at least 1, got 0"),
])
def test_the_threshold_models_refuse_what_they_cannot_use(call, message):
    """The §10.6 models and the match equity check their arguments (they returned 17.09 for a negative
    probability, wrapped negative scores round the table, or raised ZeroDivisionError)."""
    w = betting.match_equity(EVEN, 5)
    with pytest.raises(CardsimError, match=message):
        call(w)
    assert betting.game_hold_threshold(w, np.int64(0), 0, 1) == pytest.approx(0.25, abs=0.05)
    noisy = w.copy()
    noisy[1, 0] = 1.0024  # self-play's firsts are counted, so W may stray a little past [0, 1]; still read, clipped
    assert 0 <= betting.game_hold_threshold(noisy, 0, 0, 1) <= 1
