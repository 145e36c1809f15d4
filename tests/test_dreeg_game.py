"""Whole Dreeg games (simcore.games.dreeg_game): phase mechanics of spec §7.10, dealer rotation (§2.3),
Kamerun phase ends (§3.4.6) and the runner job's reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from simcore import runner
from simcore.errors import CardsimError
from simcore.games import dreeg_game as g
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_policies import make_policy

OPTS = rule_options()


def test_p2_ranking_can_skip_stages_section_7_10():
    """4p phase 1, strokes A1 B1 C1 D5, erase 3 2 1 0: A, B, C reach 0 together, D loses."""
    assert g.settle("66", [1, 1, 1, 5], [0, 1, 2, 3], [3, 2, 1, 0]) == ([0, 0, 0, 5], [3], [3])
    assert g.settle("66", [7, 7, 7, 7], [0, 1, 2, 3], [3, 2, 1, 0]) == ([4, 5, 6, 7], [0, 1, 2, 3], [])


def test_k3_k4_kamerun_phase_end_section_7_9():
    assert g.settle("KA", [1, 2, 3, 4], [0, 1, 2, 3], [2, 0, 3, 1])[2] == [2]
    assert g.settle("KA", [1, 2, 3, 4], [0, 1, 2, 3], [2, 2, 0, 3])[2] == [0, 1]


def test_first_dealer_of_a_phase_section_2_3():
    rng = np.random.default_rng(0)
    assert g.first_dealer([2], 4, OPTS, rng) == 1                                  # loser is FH
    assert g.first_dealer([0], 4, OPTS, rng) == 3
    assert g.first_dealer([2], 4, rule_options(first_dealer="loser_deals"), rng) == 2
    assert g.first_dealer([1, 3], 4, rule_options(kamerun_losers_dealer="agree"), rng) == 0
    assert g.first_dealer([1, 3], 4, OPTS, rng) in (0, 2)                          # the drawn chooser


def test_p6_bolln_count_phases_lost_section_7_10():
    phases = [g.PhaseRecord(p, losers) for p, losers in enumerate([[0], [1], [1], [0, 3], [1], [2], [3], [1]], 1)]
    assert g.bolln(phases, 4) == [2, 4, 1, 2]


@pytest.mark.parametrize("n, policy", [(4, "greedy"), (3, "random"), (4, "random")])
def test_whole_games_follow_the_phase_rules(n, policy, scale):
    """§2.1-§2.3: FH is the first active player left of the dealer, the deal passes to the next
    player on the left who took part (P3: a player just out still deals once), elimination
    phases have one loser, Kamerun at least one, and every hand has n, then fewer players."""
    cards = np.random.default_rng(n)
    for _ in range(max(1, int(2 * scale))):
        policies = [make_policy(policy, cards) for _ in range(n)]
        phases = g.play_game(policies, OPTS, cards)
        assert [p.phase for p in phases] == list(range(1, 9))
        for record in phases:
            assert record.losers and (len(record.losers) == 1 or record.phase in r.FIRST_OUT_LOSES)
            for (dealer, order, res), (nxt, _, _) in zip(record.hands, record.hands[1:]):
                assert order[0] == r.forehand(dealer, order, n)
                assert nxt == r.next_dealer(dealer, order, n)
            sizes = [len(order) for _, order, _ in record.hands]
            assert sizes == sorted(sizes, reverse=True) and sizes[0] == n
            if record.phase in r.FIRST_OUT_LOSES:
                assert set(sizes) == {n}
        assert sum(g.bolln(phases, n)) >= 8


def test_job_is_independent_of_chunking():
    job = g.GameJob(("greedy", "random", "random"), rotate=True, block_size=4)
    a = runner.run(job, 10, 7, chunk_deals=4, checkpoint=False, progress=False)
    b = runner.run(job, 10, 7, chunk_deals=12, checkpoint=False, progress=False)
    assert np.array_equal(a, b)
    parts = g.split_counts(a, 3)
    assert parts["games"][0] == 10 and parts["bolln_slot"].sum() == 30
    non_kamerun = [p - 1 for p in range(1, 9) if p not in r.FIRST_OUT_LOSES]
    assert (parts["loser_seat"][non_kamerun].sum(axis=1) == 10).all()
    assert parts["hands"].sum() == 80


def test_bad_players_and_policies():
    with pytest.raises(CardsimError, match="3 or 4"):
        g.GameJob(("greedy",) * 5)
    with pytest.raises(CardsimError, match="unknown policy"):
        g.GameJob(("greedy", "smart", "greedy"))
    with pytest.raises(CardsimError, match="3 or 4"):
        g.play_game([make_policy("greedy", None)] * 2, OPTS, np.random.default_rng(0))
    with pytest.raises(CardsimError, match="unknown dreeg option"):
        rule_options(strokes=3)
    with pytest.raises(CardsimError, match="choose one of"):
        rule_options(strokes_per_phase=9)


def test_ten_strokes_make_longer_phases():
    cards = np.random.default_rng(5)
    short = sum(len(p.hands) for p in g.play_game([make_policy("greedy", cards)] * 4, OPTS, cards))
    opts = rule_options(strokes_per_phase=10)
    long = sum(len(p.hands) for p in g.play_game([make_policy("greedy", cards)] * 4, opts, cards))
    assert long > short


def test_a_wrong_out_is_judged_by_the_points_compared_with_66():
    """§5 A24 events: going out below 66 counts as wrong by the side's points as compared with 66, which leave the
    marriages out under thresholds_include_marriages=False (a side on 58 cards + 20 marriage went out wrongly)."""
    from simcore.games.dreeg_play import HandResult

    def out(points, scores):
        return HandResult([0, 2], "out", points=points, scores=scores, sides=[0, 1], out_side=0)

    assert g.wrong_out(out([78, 30], [58, 30]))          # marriages not counted: 58 < 66
    assert not g.wrong_out(out([78, 30], [78, 30]))      # counted (the default): 78
    assert g.wrong_out(out([60, 30], [60, 30]))
    assert not g.wrong_out(HandResult([2, 0], "played", points=[60, 60], scores=[60, 60], sides=[0, 1]))


def test_stage_counts_equal_a_plain_recount_of_the_games():
    """Spec §6.2 phase transitions: per phase and k players, the games whose phase played a hand with k players and
    the sum and squares of those hands, recounted from the same games replayed as `GameJob.run_block` plays them."""
    from simcore.rng import block_stream, block_substream

    job = g.GameJob(("greedy",) * 4)
    parts = g.split_counts(job.run_block(3, 0, 12), 4)
    cards, decisions, chance = block_stream(3, 0), block_substream(3, 0, 1), block_substream(3, 0, 2)
    stages, hands, squares = (np.zeros((8, 5), dtype=np.int64) for _ in range(3))
    skipped = np.zeros(8, dtype=np.int64)
    for _ in range(12):
        for record in g.play_game([make_policy("greedy", decisions) for _ in range(4)], OPTS, cards, chance=chance):
            for k in range(5):
                played = sum(len(order) == k for _, order, _ in record.hands)
                stages[record.phase - 1, k] += played > 0
                hands[record.phase - 1, k] += played
                squares[record.phase - 1, k] += played * played
            skipped[record.phase - 1] += all(len(order) == 4 for _, order, _ in record.hands)
    assert (parts["stages"] == stages).all() and (parts["stage_hands"] == hands).all()
    assert (parts["stage_hands_sq"] == squares).all() and (parts["no_stage"] == skipped).all()
    elimination = [p - 1 for p in range(1, 9) if p not in r.FIRST_OUT_LOSES]
    assert (stages[:, 4] == 12).all() and 0 < stages[elimination, 3].sum() < 12 * len(elimination)


@pytest.mark.parametrize("players", [3, 4])
def test_the_stage_table_reads_the_elimination_phases(players):
    from analysis.games import dreeg as D

    tables = D.stats(players, n=8, seed=2, progress=False, checkpoint=False)
    stages = tables["stages"]
    assert list(stages.phase.unique()) == ["1 Sechsundsechzig", "2 Rot Assen", "3 Rufen", "6 Rufen", "7 Rot Assen",
                                           "8 Sechsundsechzig"]
    assert sorted(stages.players.unique()) == list(range(2, players))
    assert ((stages.lo <= stages.p) & (stages.p <= stages.hi) & (stages.n == 8)).all()
    assert (stages.hands_lo <= stages.hands).all() and "D. Stages" in D.format_stats(tables)
    skips = tables["stage_skips"]
    if players == 3:  # with one stage, skipping every stage is skipping that one: no table of its own
        assert skips.empty
    else:
        assert list(skips.phase) == list(stages.phase.unique()) and (skips.n == 8).all()
        at_most = stages.groupby("phase", sort=False).p.max().to_numpy()
        assert (skips.p.to_numpy() <= 1 - at_most + 1e-12).all()  # a skip of both is a skip of each
        assert "skips both stages" in D.format_stats(tables)


def test_a_hand_has_as_many_players_as_hold_strokes():
    """The stage of a hand, as the counts read it (its players), is the number of players still holding strokes,
    replayed with `settle` from each hand's erase counts: so a hand with k players is the phase's k-player stage, and
    a phase without one skipped it (two or more dropped out in one hand)."""
    cards = np.random.default_rng(8)
    for _ in range(6):
        for record in g.play_game([make_policy("greedy", cards) for _ in range(4)], OPTS, cards):
            if record.subgame not in ("66", "RA", "RU"):
                continue
            strokes, active = [OPTS["strokes_per_phase"]] * 4, [0, 1, 2, 3]
            for _, order, res in record.hands:
                assert len(order) == len(active) == sum(s > 0 for s in strokes)
                erase = [0] * 4
                for pos, seat in enumerate(order):
                    erase[seat] = res.erase[pos]
                strokes, active, _ = g.settle(record.subgame, strokes, active, erase, order)
