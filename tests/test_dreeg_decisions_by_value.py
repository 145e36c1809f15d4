"""``cardsim thresholds dreeg --decision D --strokes S0,S1,...``: a decision's paired outcomes valued by the decider's
phase value V after the hand (spec §6.2). The resulting-state logic of `dreeg_phase.decider_table` (clamping, a
player at 0 leaving, the last one holding strokes losing, Kamerun first-out), a plain recount of a small run's
P(lose) columns from per-deal erase vectors, the same numbers whatever --jobs and --chunk-size, the command's text
and JSON, and its bad input."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict

import numpy as np
import pytest
from scipy.stats import t as student_t

from analysis.cli import main
from analysis.games import dreeg as api
from analysis.games import dreeg_phase as dp
from analysis.stats import Z95
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_odds import DeciderValues, ThresholdJob
from simcore.games.dreeg_phase import PhaseHandsJob, erase_code
from simcore.rng import block_stream

RUN = dict(progress=False, checkpoint=False)
MOST = 8


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- the state after one hand ------------------------------------------------------------------------------------
def single_eraser(m: int) -> np.ndarray:
    """A valid hand table of m players: one position erases 1, 2 or 3, the others nothing; uneven weights."""
    probs = np.zeros(4 ** m)
    for p in range(m):
        for k in (1, 2, 3):
            probs[k * 4 ** p] = (p + 1) * k
    return probs / probs.sum()


@pytest.fixture(scope="module")
def elimination():
    return dp.phase_values({m: single_eraser(m) for m in (4, 3, 2)}, 4, MOST, False)


@pytest.fixture(scope="module")
def kamerun():
    return dp.phase_values({4: single_eraser(4)}, 4, MOST, True)


def lookup(values, strokes, dealer, erase_by_position, kamerun_rule=False):
    """The decider_table row of the erase vector, by position from forehand."""
    return dp.decider_table(values, strokes, dealer, MOST, kamerun_rule)[:, erase_code(erase_by_position)]


def test_a_hand_no_one_leaves_is_valued_at_the_next_state_forehand_dealing(elimination):
    got = lookup(elimination, (7, 6, 5, 4), 1, (1, 0, 2, 0))          # positions: seats 2, 3, 0, 1
    after = (5, 6, 4, 4)                                               # seat 2 erased 1, seat 0 erased 2
    want = dp.seat_values(elimination, after, 2, MOST)                 # seat 2, the forehand, deals next
    assert got == pytest.approx(want[[2, 3, 0, 1]])


def test_erasing_is_clamped_and_a_player_at_0_leaves(elimination):
    got = lookup(elimination, (1, 3, 3, 3), 3, (3, 0, 1, 0))          # seat 0 erases 3 holding 1
    # seats 1-3 go on with 3, 2, 3; the dealer's deal passes to seat 0, who is out: seat 3, on his right, deals
    rest = dp.seat_values(elimination, (3, 2, 3), 2, MOST)
    assert got == pytest.approx([0.0, *rest])
    assert lookup(elimination, (1, 3, 3, 3), 3, (2, 0, 1, 0)) == pytest.approx(got)   # 2 or 3: the same


def test_the_last_one_holding_strokes_loses(elimination):
    assert list(lookup(elimination, (2, 1), 1, (0, 1))) == [1.0, 0.0]   # forehand (seat 0) keeps his 2 strokes
    assert list(lookup(elimination, (2, 1), 1, (3, 0))) == [0.0, 1.0]
    assert list(lookup(elimination, (1, 1, 1, 2), 3, (1, 1, 0, 2))) == [0.0, 0.0, 1.0, 0.0]


def test_kamerun_first_out_loses(kamerun):
    assert list(lookup(kamerun, (3, 1, 2, 3), 3, (3, 1, 0, 1), True)) == [1, 0, 0, 0]    # the 3s first: seat 0
    assert list(lookup(kamerun, (3, 1, 2, 3), 3, (0, 1, 2, 0), True)) == [0, 0, 1, 0]    # the 2s before the 1s
    assert list(lookup(kamerun, (2, 2, 7, 7), 3, (2, 2, 0, 1), True)) == [1, 1, 0, 0]    # co-losers
    got = lookup(kamerun, (7, 7, 7, 7), 3, (3, 2, 1, 0), True)
    assert got == pytest.approx(dp.seat_values(kamerun, (4, 5, 6, 7), 0, MOST))


def test_a_stack_of_value_tables_gives_the_stack_of_decider_tables(elimination, kamerun):
    for values, first_out in ((elimination, False), (kamerun, True)):
        stack = np.stack([values, values * 0.5, values ** 2])
        got = dp.decider_table(stack, (3, 1, 2, 4), 2, MOST, first_out)
        assert got.shape == (3, 4, 4 ** 4)
        for r in range(3):
            assert np.array_equal(got[r], dp.decider_table(stack[r], (3, 1, 2, 4), 2, MOST, first_out))


def test_the_value_replicates_keep_the_values_as_played():
    job = PhaseHandsJob(1)
    plain, redrawn = (dp.point_values(job, 200, 9, replicates, **RUN) for replicates in (0, 20))
    assert plain.shape[0] == 1 and redrawn.shape[0] == 21
    assert np.array_equal(plain[0], redrawn[0]) and not np.array_equal(redrawn[1], redrawn[0])


def test_hand_step_is_the_dynamic_programmings_step():
    before = np.array([[1, 3, 3, 3], [3, 1, 2, 3]])
    after, lost = dp.hand_step(before, np.array([[3, 0, 1, 0], [0, 1, 2, 0]]), False)
    assert after.tolist() == [[0, 3, 2, 3], [3, 0, 0, 3]] and not lost.any()
    after, lost = dp.hand_step(before, np.array([[3, 0, 1, 0], [0, 1, 2, 0]]), True)
    assert after.tolist() == [[0, 3, 3, 3], [3, 1, 0, 3]] and lost.tolist() == [[1, 0, 0, 0], [0, 0, 1, 0]]


# --- a plain recount of a small run ------------------------------------------------------------------------------
def _deals(seed: int, n: int, block_size: int):
    """The job's deals: ``block_size`` per random stream (`simcore.rng.block_stream`)."""
    for block in range(-(-n // block_size)):
        rng = block_stream(seed, block)
        for _ in range(min(block_size, n - block * block_size)):
            yield rng.permutation(24)


def _plain_value(values, strokes, dealer, erase_by_seat, decider, first_out):
    """P(decider loses the phase) after one hand, by the rules of §2.1-§2.3 and §3.4.6 written out: one per value
    table of ``values`` (R, S, n), (R,)."""
    after, k, ended = list(strokes), len(strokes), np.ones(values.shape[0])
    if first_out:
        for size in (3, 2, 1):
            hit = [i for i in range(k) if erase_by_seat[i] == size]
            for i in hit:
                after[i] = max(after[i] - size, 0)
            if any(after[i] == 0 for i in hit):
                return ended * (after[decider] == 0 and decider in hit)
    else:
        after = [max(s - e, 0) for s, e in zip(strokes, erase_by_seat)]
    left = [i for i in range(k) if after[i] > 0]
    if decider not in left:
        return 0 * ended
    if len(left) == 1:
        return ended
    forehand = (dealer + 1) % k                                   # deals next; if he is out, the one on his right
    deals = forehand if forehand in left else max([i for i in left if i < forehand] or left)
    return dp.seat_values(values, [after[i] for i in left], left.index(deals), MOST)[:, left.index(decider)]


@pytest.mark.parametrize("decision, strokes, dealer, phase", [("durchmarsch", (2, 2, 2, 2), 3, 4),
                                                              ("surrender", (1, 3, 2, 4), 1, 2),
                                                              ("close", (2, 3), 1, 1)])
def test_table_matches_a_plain_recount(decision, strokes, dealer, phase):
    n, seed = 400, 5
    job = ThresholdJob(decision)
    values = dp.point_values(PhaseHandsJob(phase), 200, seed + api.VALUE_SEED_OFFSET, dp.REPLICATES, **RUN)
    k, opts = len(strokes), rule_options()
    groups = defaultdict(list)
    for perm in _deals(seed, n, job.block_size):
        cls, outcomes = getattr(job, f"_{decision}")(perm, opts)
        pos = outcomes[0].pos
        seat = (dealer + 1 + pos) % k
        v = []
        for outcome in outcomes:
            by_seat = [outcome.erase[(s - dealer - 1) % k] for s in range(k)]
            v.append(_plain_value(values, strokes, dealer, by_seat, seat, decision == "durchmarsch"))
        groups[api.CLASS_LABELS[decision](min(cls, 7))].append(v)
    frame = api.thresholds(decision, n=n, seed=seed, strokes=",".join(map(str, strokes)), dealer=dealer,
                           **RUN, value_hands=200).set_index("class")
    assert set(frame.index) == set(groups) and frame.attrs["state"]["value_seed"] == seed + 1
    assert frame.attrs["state"]["replicates"] == dp.REPLICATES
    for label, rows in groups.items():
        got = frame.loc[label]
        every = np.array([a - b for a, b in rows])                # (deals, 1 + replicates): V as played, then redrawn
        diffs = list(every[:, 0])
        value_se = every[:, 1:].mean(0).std(ddof=1)             # V's own error of the class's mean difference
        assert got["n"] == len(rows)
        assert got["lose_a"] == pytest.approx(statistics.fmean(a[0] for a, _ in rows), abs=1e-6)
        assert got["lose_b"] == pytest.approx(statistics.fmean(b[0] for _, b in rows), abs=1e-6)
        assert got["lose_diff"] == pytest.approx(statistics.fmean(diffs), abs=1e-6)
        assert got["lose_diff_value_se"] == pytest.approx(value_se, abs=1e-6)
        if len(rows) > 1:
            half = np.hypot(student_t.ppf(0.975, len(rows) - 1) * statistics.stdev(diffs) / len(rows) ** 0.5,
                            Z95 * value_se)
            assert got["lose_diff_hi"] - got["lose_diff_lo"] == pytest.approx(2 * half, abs=1e-5) or \
                got["lose_diff_hi"] == 1.0 or got["lose_diff_lo"] == -1.0
    enough = frame[frame["n"] >= api.MIN_CLASS_N]
    assert set(frame.attrs["a_better"]) == set(enough.index[enough["lose_diff_hi"] < 0])
    assert set(frame.attrs["b_better"]) == set(enough.index[enough["lose_diff_lo"] > 0])


def test_seat_counts_only_the_deals_decided_there():
    every = api.thresholds("durchmarsch", n=300, seed=2, strokes="3,5,4,6", **RUN, value_hands=200)
    parts = [api.thresholds("durchmarsch", n=300, seed=2, strokes="3,5,4,6", seat=s, **RUN, value_hands=200)
             for s in range(4)]
    assert sum(int(p["n"].sum()) for p in parts) == int(every["n"].sum()) == 300
    mine = parts[1].set_index("class")
    assert parts[1].attrs["state"]["seat"] == 1 and (mine["lose_a"] <= 1).all()


def test_the_job_key_names_the_state_and_the_tables():
    a, b = DeciderValues("strokes=[7, 7, 7, 7]|n=2000|seed=2"), DeciderValues("strokes=[2, 2, 2, 2]|n=2000|seed=2")
    keys = {ThresholdJob("durchmarsch", value=v).key() for v in (a, b, None)}
    assert len(keys) == 3 and all("seed=2" in key for key in keys if "strokes" in key)


# --- runs and the command ---------------------------------------------------------------------------------------
BY_VALUE = ("thresholds", "dreeg", "--decision", "durchmarsch", "--strokes", "2,2,2,2", "--no-progress")


def test_same_numbers_whatever_jobs_and_chunk_size(capsys):
    base = (*BY_VALUE, "--n", "600", "--seed", "3", "--json")
    outs = []
    for extra in ((), ("--jobs", "2"), ("--chunk-size", "512"), ("--jobs", "2", "--chunk-size", "1024")):
        code, out, _ = run_cli(capsys, *base, *extra)
        assert code == 0
        outs.append(json.loads(out))
    assert all(o == outs[0] for o in outs[1:])
    assert sum(row["n"] for row in outs[0]["decisions"]["durchmarsch"]["rows"]) == 600


def test_cli_text_shows_the_phase_value_columns(capsys):
    code, out, err = run_cli(capsys, *BY_VALUE, "--n", "300", "--seed", "1", "--dealer", "0")
    assert code == 0 and err == ""
    assert "applied to the strokes 2,2,2,2" in out and "seat 0 deals" in out
    assert "covers the deals" in out and f"V's own sampling error ({dp.REPLICATES} bootstrap redraws of V)" in out
    assert "P(lose) A P(lose) B  A - B" in out and "net A" not in out and "(net strokes" not in out
    rows = [line for line in out.splitlines() if line[:3].strip().isdigit() and "card(s) not sure" in line]
    assert rows and sum(int(line[30:37].replace(",", "").rstrip("*")) for line in rows) == 300
    code, out, _ = run_cli(capsys, "thresholds", "dreeg", "--decision", "durchmarsch", "--n", "300", "--seed", "1",
                           "--no-progress")
    assert code == 0 and "net A" in out and "P(lose)" not in out                 # without --strokes: as before


def test_cli_json_and_frame(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "thresholds", "dreeg", "--decision", "hide", "--strokes", "3,1", "--seat", "0",
                           "--n", "300", "--seed", "4", "--json", "--no-progress")
    data = json.loads(out)["decisions"]["hide"]
    assert code == 0 and data["state"] == {"strokes": [3, 1], "seat": 0, "dealer": 1, "phase": 2, "players": 4,
                                           "policy": "greedy", "value_hands": 300, "value_seed": 5,
                                           "replicates": dp.REPLICATES}
    for row in data["rows"]:
        assert 0 <= row["lose_a"] <= 1 and 0 <= row["lose_b"] <= 1
        assert row["lose_diff_lo"] <= row["lose_diff"] <= row["lose_diff_hi"] and row["lose_diff_value_se"] >= 0
        assert row["lose_diff"] == pytest.approx(row["lose_a"] - row["lose_b"])
    from analysis import sweep

    (tmp_path / "s.toml").write_text('game = "dreeg"\ncommand = "thresholds"\nseed = 3\nn = 200\n'
                                     '[fixed]\ndecision = "surrender"\n[grid]\nstrokes = ["3,3,3,3", "1,2,3,4"]\n')
    sweep.sweep(tmp_path / "s.toml", tmp_path / "out", progress=False)
    import pandas as pd

    est = pd.read_parquet(tmp_path / "out")["estimate"]
    assert est.str.endswith(".lose_diff").any() and est.str.endswith(".diff").any()


@pytest.mark.parametrize("argv, message", [
    (["--decision", "all", "--strokes", "7,7,7,7"], "name it with --decision (not all)"),
    (["--decision", "durchmarsch", "--strokes", "7,7,7"], "--strokes with --decision durchmarsch needs 4 numbers"),
    (["--decision", "close", "--strokes", "7,7,7,7"], "--strokes with --decision close needs 2 numbers"),
    (["--decision", "surrender", "--strokes", "7,0,7,7"], "--strokes values must be 1-7"),
    (["--decision", "close", "--strokes", "3,5", "--option", "schweige_mass=phase1", "--option",
      "wegloescher=phase8"], "no phase is Sechsundsechzig under the options"),
    (["--decision", "call", "--strokes", "3,5,4,4", "--seat", "2"], "--decision call is forehand's, seat 0"),
    (["--decision", "call", "--seat", "0"], "--seat and --dealer apply only with --strokes"),
    (["--decision", "call", "--strokes", "3,5,4,4", "--phase", "3"], "--phase applies only with --decision value"),
    (["--decision", "call", "--strokes", "3,5,4,4", "--n", "50"], "--n must be at least 100"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "thresholds", "dreeg", *argv, "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err
