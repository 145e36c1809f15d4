"""The Dreeg phase value V (spec §6.2, §6.4): the stroke-vector DP against a plain recursion over the engine's phase
steps, its symmetry and monotonicity, against whole phases played by the engine's phase loop, the sampling job's
determinism, and the ``thresholds dreeg --decision value`` command."""

import functools
import itertools
import json
import math

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import dreeg_phase as dp
from simcore import runner
from simcore.games import dreeg_game as dg
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_phase import PhaseHandsJob, active_counts, erase_code, erase_vector
from simcore.games.dreeg_play import HandResult


def made_up(rng, m, kamerun, codes=6):
    """A random distribution (4**m,) over a few erase codes that can happen (`dp.check_distribution`)."""
    possible = [c for c in range(4 ** m) if any(erase_vector(c, m)) and (kamerun or not all(erase_vector(c, m)))]
    p = np.zeros(4 ** m)
    p[rng.choice(possible, size=codes, replace=False)] = rng.random(codes) + 0.1
    return p / p.sum()


def dists_for(rng, n, kamerun):
    return {m: made_up(rng, m, kamerun) for m in active_counts(n, "KA" if kamerun else "66")}


def exchangeable(p, m):
    """``p`` averaged over every permutation of the positions."""
    out = np.zeros_like(p)
    for perm in itertools.permutations(range(m)):
        for code in np.flatnonzero(p):
            e = erase_vector(code, m)
            out[erase_code([e[i] for i in perm])] += p[code]
    return out / math.factorial(m)


def brute_force(dists, n, kamerun):
    """value(strokes by seat, dealer seat) -> P(lose) per seat, by plain recursion over the engine's own phase
    steps (`dreeg_game.settle`, `dreeg_rules.seat_order`, `dreeg_rules.next_dealer`)."""
    subgame = "KA" if kamerun else "66"

    @functools.cache
    def value(strokes, dealer):
        active = [s for s in range(n) if strokes[s] > 0]
        order = r.seat_order(dealer, active, n)
        total = np.zeros(n)
        for code, p in enumerate(dists[len(order)]):
            if p == 0:
                continue
            erase = [0] * n
            for pos, e in enumerate(erase_vector(code, len(order))):
                erase[order[pos]] = e
            after, _, losers = dg.settle(subgame, list(strokes), active, erase)
            if losers:
                total[losers] += p
            else:
                total += p * np.array(value(tuple(after), r.next_dealer(dealer, active, n)))
        return tuple(total)

    return value


def solved(n, most, kamerun):
    """Every (strokes by seat, dealer seat) the DP solves, with the dealer holding strokes."""
    for strokes in itertools.product(range(most + 1), repeat=n):
        alive = sum(s > 0 for s in strokes)
        if (alive == n if kamerun else alive >= 2):
            for dealer in range(n):
                if strokes[dealer] > 0:
                    yield strokes, dealer


@pytest.mark.parametrize("n, kamerun, seed", [(4, False, 1), (3, False, 2), (4, True, 3), (3, True, 4)])
def test_dp_matches_a_plain_recursion_from_two_strokes_each(n, kamerun, seed):
    dists = dists_for(np.random.default_rng(seed), n, kamerun)
    most = 3  # two strokes each, and one more for the value of a stroke
    values = dp.phase_values(dists, n, most, kamerun)
    slow = brute_force(dists, n, kamerun)
    for strokes, dealer in solved(n, most, kamerun):
        k = [s for s in strokes if s > 0]
        live = [i for i in range(n) if strokes[i] > 0]
        got = dp.seat_values(values, k, live.index(dealer), most)
        np.testing.assert_allclose(got, np.array(slow(strokes, dealer))[live], atol=1e-12)


def test_dp_batches_replicates():
    rng = np.random.default_rng(9)
    models = [dists_for(rng, 4, False) for _ in range(3)]
    batched = dp.phase_values({m: np.stack([d[m] for d in models]) for m in models[0]}, 4, 3, False)
    for i, model in enumerate(models):
        np.testing.assert_allclose(batched[i], dp.phase_values(model, 4, 3, False))


def test_a_non_playing_dealer_is_the_active_player_on_his_right():
    """§2.3, §5 A8, §7.10 P3: a player just out deals one more hand; that state is the one where the active player
    on his right deals (the same forehand, and the deal then passes to that forehand)."""
    dists = dists_for(np.random.default_rng(5), 4, False)
    slow = brute_force(dists, 4, False)
    assert slow((0, 3, 2, 1), 0) == pytest.approx(slow((0, 3, 2, 1), 3))
    assert slow((2, 0, 2, 3), 1) == pytest.approx(slow((2, 0, 2, 3), 0))


@pytest.mark.parametrize("n, seed", [(4, 11), (3, 12)])
def test_elimination_values_sum_to_one_and_kamerun_to_at_least_one(n, seed):
    rng = np.random.default_rng(seed)
    for kamerun in (False, True):
        values = dp.phase_values(dists_for(rng, n, kamerun), n, 4, kamerun)
        for strokes, dealer in solved(n, 4, kamerun):
            total = dp.seat_values(values, [s for s in strokes if s > 0] if not kamerun else strokes,
                                   [i for i in range(n) if strokes[i] > 0].index(dealer), 4).sum()
            assert total == pytest.approx(1.0) if not kamerun else total >= 1 - 1e-12


@pytest.mark.parametrize("n, kamerun", [(4, False), (3, False), (4, True)])
def test_exchangeable_hands_make_seats_and_dealers_alike(n, kamerun):
    """Hands whose erase vector does not depend on the positions: a player's value depends on his own strokes and
    the others', never on the seats or the dealer; two players left at a-b and b-a share the loss."""
    rng = np.random.default_rng(21)
    dists = {m: exchangeable(p, m) for m, p in dists_for(rng, n, kamerun).items()}
    most = 4
    values = dp.phase_values(dists, n, most, kamerun)
    for strokes in itertools.product(range(1, most), repeat=n):
        base = dp.seat_values(values, strokes, 0, most)
        for dealer in range(1, n):
            np.testing.assert_allclose(dp.seat_values(values, strokes, dealer, most), base, atol=1e-12)
        for perm in itertools.permutations(range(n)):
            moved = dp.seat_values(values, [strokes[i] for i in perm], 0, most)
            np.testing.assert_allclose(moved, base[list(perm)], atol=1e-12)
    if not kamerun:
        for a, b in itertools.product(range(1, most + 1), repeat=2):
            duel = dp.seat_values(values, (a, b), 0, most)
            assert duel[0] == pytest.approx(dp.seat_values(values, (b, a), 0, most)[1])
            assert duel[0] + dp.seat_values(values, (b, a), 1, most)[0] == pytest.approx(1.0)


@pytest.mark.parametrize("n, kamerun, seed", [(4, False, 31), (3, False, 32), (4, True, 33), (3, True, 34)])
def test_one_more_own_stroke_hurts_in_elimination_and_helps_in_kamerun(n, kamerun, seed):
    """A coupling of the two states (the same hands until the one with fewer strokes drops out, or in Kamerun
    reaches 0) shows it for any hand distribution: ELIMINATION V(s + e_i) >= V(s), Kamerun <=."""
    most = 4
    values = dp.phase_values(dists_for(np.random.default_rng(seed), n, kamerun), n, most, kamerun)
    for k in ([n] if kamerun else range(2, n + 1)):
        for strokes in itertools.product(range(1, most), repeat=k):
            for dealer in range(k):
                worth = dp.stroke_worth(values, strokes, dealer, most)
                assert (worth <= 1e-12).all() if not kamerun else (worth >= -1e-12).all()


def test_impossible_hands_are_refused():
    bad = np.zeros(16)
    bad[erase_code((1, 2))] = 1.0  # nobody erases 0 (§2.2)
    with pytest.raises(ValueError, match="leaves one player erasing 0"):
        dp.phase_values({2: bad}, 2, 3, False)
    idle = np.zeros(64)
    idle[0] = 1.0
    with pytest.raises(ValueError, match="every hand erases a stroke"):
        dp.phase_values({3: idle}, 3, 3, True)


@pytest.mark.parametrize("subgame, n, phases, seed", [("66", 4, 2500, 41), ("KA", 4, 2500, 42), ("66", 3, 2500, 43)])
def test_dp_agrees_with_the_engines_phase_loop(monkeypatch, subgame, n, phases, seed):
    """`dreeg_game.play_phase` (the engine's phase state machine: settling, dropping out, the non-playing dealer,
    Kamerun's groups) with each hand's erase vector drawn from a made-up table: its losers by seat agree with the
    DP from 7 strokes each, seat 0 dealing first."""
    kamerun = subgame == "KA"
    rng = np.random.default_rng(seed)
    dists = dists_for(rng, n, kamerun)

    def hand(sub, phase, perm, policies, opts, chance=None):
        m = len(policies)
        return HandResult(list(erase_vector(int(rng.choice(4 ** m, p=dists[m])), m)), "played")

    monkeypatch.setattr(dg, "play_hand", hand)
    opts = rule_options()
    lost = np.zeros(n)
    for _ in range(phases):
        record = dg.play_phase(4 if kamerun else 1, 0, [None] * n, opts, rng, subgame)
        lost[record.losers] += 1
    expected = dp.seat_values(dp.phase_values(dists, n, 8, kamerun), (7,) * n, 0, 8)
    share = lost / phases
    assert np.abs(share - expected).max() < 4.5 * np.sqrt(expected * (1 - expected) / phases).max()


def test_dp_of_sampled_hands_agrees_with_whole_played_phases():
    """Real hands: 3-player phase 1 (greedy) played whole by `dreeg_game.play_phase` agrees with the DP of
    the job's hand tables within the two intervals."""
    from analysis.stats import Estimate
    from simcore.games.dreeg_policies import GreedyPolicy

    tables = dp.phase_value(1, 3, n=600, seed=8, replicates=60, progress=False, checkpoint=False)
    start = tables["start"]
    rng = np.random.default_rng(8)
    phases, lost = 400, np.zeros(3, dtype=int)
    for _ in range(phases):
        record = dg.play_phase(1, 2, [GreedyPolicy() for _ in range(3)], rule_options(), rng)
        lost[record.losers] += 1
    for i, row in enumerate(start.itertuples()):  # seat i from forehand; seat 2 deals first
        est = Estimate(int(lost[i]), phases)
        assert est.lo <= row.hi and row.lo <= est.hi, (row.seat, est.p, row.V)


def test_job_counts_one_hand_per_active_count_whatever_the_chunking():
    job = PhaseHandsJob(2, 4)
    a = runner.run(job, 150, 3, chunk_deals=40, progress=False, checkpoint=False)
    b = runner.run(job, 150, 3, progress=False, checkpoint=False)
    assert (a == b).all()
    hands = job.unpack(a)
    assert {m: int(h.sum()) for m, h in hands.items()} == {4: 150, 3: 150, 2: 150}
    assert PhaseHandsJob(5, 3).actives == (3,) and PhaseHandsJob(6, 3).actives == (3, 2)


# --- the command -----------------------------------------------------------------------------------------------
VALUE = ["thresholds", "dreeg", "--decision", "value", "--n", "150", "--seed", "5", "--no-progress"]


def test_value_command_json_is_the_same_whatever_the_jobs_and_chunks(capsys):
    outputs = []
    for extra in ([], ["--jobs", "2"], ["--chunk-size", "64"]):
        assert main(VALUE + ["--json", "--strokes", "7,5,3,2", "--seat", "1", "--dealer", "2"] + extra) == 0
        outputs.append(json.loads(capsys.readouterr().out))
    assert outputs[0] == outputs[1] == outputs[2]
    value = outputs[0]["decisions"]["value"]
    assert value["rule"] == "elimination" and value["hands"] == 150 and outputs[0]["n"] == 150
    assert sum(row["V"] for row in value["start"]) == pytest.approx(1.0)
    assert len(value["duel"]) == 2 * 7 * 7 and {row["active"] for row in value["vectors"]} == {4, 3}
    state = {row["seat"]: row for row in value["state"]}
    assert state[1]["you"] and state[1]["strokes"] == 5 and value["query"]["dealer"] == 2
    assert sum(row["V"] for row in value["state"]) == pytest.approx(1.0)


def test_value_command_text(capsys):
    assert main(VALUE + ["--phase", "4", "--players", "3"]) == 0
    text = capsys.readouterr().out
    assert "phase 4 Kamerun, 3 players" in text and "FIRST-OUT-LOSES" in text and "Two players left" not in text
    assert "at least 0: a stroke is a life" in text
    assert main(VALUE + ["--strokes", "3,2"]) == 0
    text = capsys.readouterr().out
    assert "Two players left, P(I lose)" in text and "State 3,2 by seat clockwise, seat 1 deals" in text
    assert "0 (you)" in text


def test_value_frame_for_sweeps():
    from analysis.cli import command_parser
    from analysis.commands import LONG_COLUMNS, lookup

    spec = lookup("thresholds", "dreeg")
    args = command_parser("thresholds", "dreeg", spec).parse_args(
        ["--decision", "value", "--n", "100", "--seed", "2", "--no-progress", "--players", "3"])
    frame = spec.frame(args)
    assert list(frame.columns) == LONG_COLUMNS and frame.estimate.is_unique
    names = set(frame.estimate)
    assert {"value.start.forehand", "value.duel.dealer.2.2", "value.V.7-7-7.dealer",
            "value.stroke.7-7-7.dealer"} <= names
    assert ((frame.lo <= frame.value + 1e-12) & (frame.value <= frame.hi + 1e-12)).all() and (frame.n == 100).all()


@pytest.mark.parametrize("flags, message", [
    (["--strokes", "7,5,3,2,1"], "--strokes needs 2 to 4 numbers"),
    (["--strokes", "7"], "--strokes needs 2 to 4 numbers"),
    (["--strokes", "7,8,3"], "--strokes values must be 1-7"),
    (["--strokes", "7,0,3"], "--strokes values must be 1-7"),
    (["--strokes", "7,x"], "--strokes takes positive whole numbers separated by commas"),
    (["--phase", "4", "--strokes", "7,5,3"], "--strokes needs 4 numbers (Kamerun: everyone plays)"),
    (["--strokes", "7,5,3", "--seat", "3"], "--seat must be a seat 0-2 of --strokes"),
    (["--seat", "1"], "--seat and --dealer apply only with --strokes"),
    (["--phase", "9"], "argument --phase: invalid choice: '9'"),
    (["--option", "schweige_mass=phase1"], "Schweige-Maß under the options"),
])
def test_bad_value_input_is_one_line_and_exit_2(capsys, flags, message):
    assert main(VALUE + flags) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_value_flags_need_the_value_decision(capsys):
    assert main(["thresholds", "dreeg", "--decision", "close", "--phase", "2", "--n", "10", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--phase applies only with --decision value" in err and "\n" not in err


def test_value_needs_enough_hands(capsys):
    assert main(["thresholds", "dreeg", "--decision", "value", "--n", "99", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--n must be at least 100 with --decision value" in err and "\n" not in err


@pytest.mark.parametrize("option", ["first_dealer=loser_deals", "kamerun_losers_dealer=agree"])
def test_options_between_phases_are_refused(capsys, option):
    """Options that only choose the next phase's first dealer cannot change a phase's value: refused, not ignored."""
    assert main(["thresholds", "dreeg", "--decision", "value", "--n", "100", "--no-progress", "--option", option]) == 2
    err = capsys.readouterr().err.strip()
    assert "only chooses who deals first in the next phase" in err and "\n" not in err
