"""E[strokes | k jacks] of `thresholds bauernstoss`' two Q8 tables (spec §9.1 Q8; `jobs.JackValueJob`,
`jobs.SeatJob`, `jack_value_frame`, `jack_seats_frame`): the jobs' stroke sums against a plain replay of the deals
scored by the engine (`bs.hand_strokes`), forehand's strokes the same in both jobs, team strokes zero-sum, the
deal-clustered mean (`analysis.stats.ratio_mean`) against a plain computation, and the columns in the text, JSON and
sweep (none for DS)."""

import json
import math

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import lookup
from analysis.games import bauernstoss as api
from analysis.stats import Z95, ratio_mean
from simcore import runner
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play

RUN = dict(progress=False, checkpoint=False)
DEALS = 64
STROKES = [jobs.SEAT_JACK_STATS.index(k) for k in jobs.STROKE_STATS]
"""Columns of the `STROKE_STATS` among `jobs.SEAT_JACK_STATS`."""


def replayed_strokes(seed: int, method: str, variant: str, policy: str) -> np.ndarray:
    """(DEALS, 2) team 0's strokes minus team 1's with the chalk at team 0 / team 1 in the first DEALS deals of block
    0, one deal at a time: the auction by ``policy``, a normal game played by ``method`` with forehand leading, a solo
    by `jobs.solo_outcomes`, each scored by the engine (`bs.hand_strokes`, a later hand); a throw-in scores 0."""
    opts = bs.rule_options(variant=variant)
    rule = play.play_rule(variant, opts["jack_rule"])
    hands = jobs.deal_hands(seed, 0, DEALS)
    u = jobs.play_uniforms(seed, 0, DEALS)
    caller = jobs.caller_for((jobs.auction_policy(policy),))
    out = np.zeros((DEALS, 2), dtype=np.int64)
    for i in range(DEALS):
        contract = jobs.run_auction(hands[i], opts, caller)
        if contract.kind == bs.THROW_IN:
            continue
        maker = contract.declarer % 2
        if contract.kind in bs.SOLOS:
            _, won = jobs.solo_outcomes(hands[i:i + 1], contract.kind, contract.trump, contract.declarer, method, rule)
            result = bs.HandResult(contract.kind, maker=maker, solo_won=bool(won[0]))
        else:
            points, tricks = play.play_out(method, hands[i:i + 1], np.array([contract.trump]),
                                           np.array([jobs.FOREHAND]), u[i:i + 1], rule)
            result = bs.HandResult(bs.NORMAL, int(points[0, 0]), int(tricks[0, 0]), maker)
        for chalk in (0, 1):
            scorer, strokes = bs.hand_strokes(bs.GameState(chalk=chalk, first_hand=False), result, opts)
            out[i, chalk] = strokes if scorer == 0 else -strokes
    return out


def plain_sums(seed: int, strokes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The `STROKE_STATS` sums of team 0's ``strokes`` (DEALS, 2) recounted in plain Python: (4, JACK_MASKS, 4) per
    seat and its hand's jacks, (JACK_GROUPS, 4) pooled sums (Y², Y·t per setting) over the deals."""
    by_mask = np.zeros((bs.SEATS, jobs.JACK_MASKS, 4), dtype=np.int64)
    pooled = np.zeros((jobs.JACK_GROUPS, 4), dtype=np.int64)
    for deal, (a, b) in zip(jobs.deal_hands(seed, 0, DEALS), strokes):
        masks = [jobs.jack_mask(int(h)) for h in deal]
        own = [((a, b) if s % 2 == 0 else (-b, -a)) for s in range(bs.SEATS)]  # (chalk at its team, at the other)
        for s in range(bs.SEATS):
            y, z = own[s]
            by_mask[s, masks[s]] += [y, y * y, z, z * z]
        for g in range(jobs.JACK_GROUPS):
            inside = [s for s in range(bs.SEATS) if jobs.GROUP_MEMBERS[g, masks[s]]]
            t = len(inside)
            y, z = sum(own[s][0] for s in inside), sum(own[s][1] for s in inside)
            pooled[g] += [y * y, y * t, z * z, z * t]
    return by_mask, pooled


@pytest.mark.parametrize("method, variant, policy, seed", [("greedy", "BS", "b0", 5), ("random", "BS", "aggressive", 3),
                                                           ("greedy", "AS", "b0", 8)])
def test_stroke_sums_equal_a_plain_replay(method, variant, policy, seed):
    strokes = replayed_strokes(seed, method, variant, policy)
    by_mask, pooled = plain_sums(seed, strokes)
    job = jobs.SeatJob(method, variant, policy=policy)
    got = job.unpack(job.run_block(seed, 0, DEALS))
    assert np.array_equal(job.outcomes(jobs.deal_hands(seed, 0, DEALS), jobs.play_uniforms(seed, 0, DEALS))["strokes"],
                          strokes)
    assert np.array_equal(got["jacks"][..., STROKES], by_mask)
    first = 1 + 2 * jobs.POOLED_STATS.index("strokes_chalk")
    assert np.array_equal(got["pooled"][:, first:first + 4], pooled)
    assert (strokes != 0).all(axis=1).sum() == DEALS - got["throw_ins"]  # every played hand scores (§6.4)
    if policy == "aggressive":
        assert got["solos"] > 0 and (np.abs(strokes) >= 8).any()  # the case exercises a solo's stake
    if variant == "BS" and policy == "b0":
        value = jobs.JackValueJob(method, variant)
        counts = value.unpack(value.run_block(seed, 0, DEALS))
        assert np.array_equal(counts[:, [jobs.JACK_STATS.index(k) for k in jobs.STROKE_STATS]],
                              by_mask[jobs.FOREHAND])


@pytest.mark.parametrize("method", ["greedy", "random"])
def test_forehand_strokes_are_jack_value_jobs(method):
    seats = jobs.SeatJob.unpack(runner.run(jobs.SeatJob(method), 512, 17, **RUN))
    value = jobs.JackValueJob.unpack(runner.run(jobs.JackValueJob(method), 512, 17, **RUN))
    fore = seats["jacks"][jobs.FOREHAND]
    for stat in jobs.STROKE_STATS:
        assert np.array_equal(fore[:, jobs.SEAT_JACK_STATS.index(stat)], value[:, jobs.JACK_STATS.index(stat)])
    assert value[:, jobs.JACK_STATS.index("strokes_chalk_sq")].sum() > 0


def test_team_strokes_are_zero_sum():
    job = jobs.SeatJob("greedy")
    chalk, no_chalk = (jobs.SEAT_JACK_STATS.index(k) for k in ("strokes_chalk", "strokes_no_chalk"))
    for block in range(16):  # one deal each (the first of the block)
        counts = job.unpack(job.run_block(2, block, 1))["jacks"]
        for team in (0, 1):  # the chalk at this team: its seats' "chalk" and the other seats' "no chalk" strokes
            assert counts[team::2, :, chalk].sum() + counts[1 - team::2, :, no_chalk].sum() == 0
    parts = jobs.SeatJob.unpack(runner.run(job, 256, 2, **RUN))
    table = api.jack_seats_frame(parts, 1, strokes=True)
    pooled = table[(table.seat == "all") & (table.which == "any")]
    # pooled over all hands of the deal: team 0's with the chalk plus team 1's without it is 0, so the seat-average
    # E[strokes] with the chalk is minus the one without it
    weights = pooled.n / pooled.n.sum()
    assert (weights * (pooled.strokes_chalk + pooled.strokes_no_chalk)).sum() == pytest.approx(0.0, abs=1e-12)


def test_ratio_mean_equals_a_plain_computation():
    rng = np.random.default_rng(1)
    units = rng.integers(0, 5, size=40)
    values = np.array([rng.integers(-3, 4, size=u).sum() for u in units])
    got = ratio_mean(values.sum(), units.sum(), (values ** 2).sum(), (units ** 2).sum(), (values * units).sum(),
                     len(units))
    mean = values.sum() / units.sum()
    residuals = [v - mean * u for v, u in zip(values.tolist(), units.tolist())]
    variance = sum(r * r for r in residuals) / (len(units) - 1) * len(units) / units.sum() ** 2
    assert got["mean"] == pytest.approx(mean) and got["se"] == pytest.approx(math.sqrt(variance))
    assert got["lo"] == pytest.approx(mean - Z95 * math.sqrt(variance))
    assert got["hi"] == pytest.approx(mean + Z95 * math.sqrt(variance))


def test_per_seat_interval_is_the_normal_one():
    parts = jobs.SeatJob.unpack(runner.run(jobs.SeatJob("greedy"), 256, 6, **RUN))
    row = api.jack_seats_frame(parts, 20, strokes=True).set_index(["seat", "jacks", "which"]).loc[(2, 1, "any")]
    cells = parts["jacks"][2, [m for m in range(jobs.JACK_MASKS) if bin(m).count("1") == 1]].sum(axis=0)
    n, total, squares = (int(cells[jobs.SEAT_JACK_STATS.index(k)]) for k in ("deals", "strokes_chalk",
                                                                                "strokes_chalk_sq"))
    half = Z95 * math.sqrt((squares - total * total / n) / (n - 1) / n)
    assert row.n == n and row.strokes_chalk == pytest.approx(total / n)
    assert row.strokes_chalk_hi - row.strokes_chalk == pytest.approx(half)


def test_text_json_and_sweep(capsys):
    base = ["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--equity-hands", "0", "--no-progress"]
    assert main(base) == 0
    text = capsys.readouterr().out
    q8 = text[text.index("Q8 what"):text.index("Q11 seat effects")]
    assert q8.count("E[strokes] chalk     E[strokes] no chalk") == 2 and q8.count("a throw-in counts 0") == 2
    assert "± the half-width of the 95% interval" in q8
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    for row in out["jack_value"] + out["jack_seats"]:
        for key in ("strokes_chalk", "strokes_no_chalk"):
            assert set(row[key]) == {"mean", "lo", "hi"} and row[key]["lo"] <= row[key]["mean"] <= row[key]["hi"]
    spec = lookup("thresholds", "bauernstoss")
    frame = spec.frame(command_parser("thresholds", "bauernstoss", spec).parse_args(base[2:]))
    assert frame.estimate.is_unique
    assert {"q8.1.any.strokes_chalk", "q8.2.any.strokes_no_chalk", "q8s.all.1.any.strokes_chalk",
            "q8s.1.2.any.strokes_no_chalk"} <= set(frame.estimate)


def test_no_stroke_columns_without_strokes(capsys):
    assert main(["thresholds", "bauernstoss", "--variant", "DS", "--n", "200", "--seed", "4", "--equity-hands", "0",
                 "--no-progress", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not any("strokes_chalk" in row for row in out["jack_value"] + out["jack_seats"])
    assert api.q8_strokes_note("greedy", "DS") == "" and api.q8_strokes_note("dd", "BS") == api.NO_STROKES
    assert api.q8_strokes_note("random", "AS", solos=3) and api.q8_strokes_note("greedy", "AS") is None
    counts = jobs.JackValueJob.unpack(runner.run(jobs.JackValueJob("greedy", "DS"), 200, 4, **RUN))
    assert not counts[:, [jobs.JACK_STATS.index(k) for k in jobs.STROKE_STATS]].any()
    assert "strokes_chalk" not in api.jack_value_frame(counts, 20)
