"""Seat effects (spec §9.1 Q11) and every seat's jacks (Q8) in `thresholds bauernstoss` (`jobs.SeatJob`,
`seat_effects_frame`, `jack_seats_frame`): the job against a plain per-deal tally, the same counts whatever --jobs /
--chunk-size, one chooser or a throw-in per deal, the JSON and sweep shapes, and the §9.3 reference figures of B0
(which average over the seats)."""

import json

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import lookup
from analysis.games import bauernstoss as api
from analysis.stats import ratio_share, wilson
from simcore import runner
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from tests.test_bauernstoss_no_call import _forehand_points

RUN = dict(progress=False, checkpoint=False)
SHARES = len(jobs.SEAT_JACK_STATS) - len(jobs.STROKE_STATS)
"""The share counts of `jobs.SEAT_JACK_STATS` (the strokes are recounted in test_bauernstoss_q8_strokes.py)."""
POOLED_SHARES = 1 + 2 * (SHARES - 1)
"""The pooled sums of those shares, the first of `jobs.POOLED_SUMS`."""


def _held(hand: int) -> int:
    return sum(1 << s for s in range(4) if hand >> (8 * s + bs.JACK) & 1)


def plain_tally(n: int, seed: int) -> dict:
    """`jobs.SeatJob.unpack`'s counts but the strokes (greedy play, BS, b0) recounted one deal at a time: the B0 auction
    (`bs.baseline_call`), greedy play with a naive trick winner and the §6.2 rule (the chalk team scores with 42,
    else the other team, which then holds 79 or more)."""
    seats = np.zeros((4, len(jobs.SEAT_STATS)), dtype=np.int64)
    paired = np.zeros((4, len(jobs.PAIRED_STATS), 2), dtype=np.int64)
    jacks = np.zeros((4, jobs.JACK_MASKS, SHARES), dtype=np.int64)
    pooled = np.zeros((jobs.JACK_GROUPS, POOLED_SHARES), dtype=np.int64)
    deal_stats = dict.fromkeys(jobs.DEAL_STATS, 0)
    opts = bs.rule_options()
    size = jobs.SeatJob.block_size
    for block in range(-(-n // size)):
        for deal in jobs.deal_hands(seed, block, min(size, n - block * size)):
            hands = [int(h) for h in deal]
            deal_stats["deals"] += 1
            auction = jobs.finished_auction(hands, opts, bs.baseline_call)
            contract = auction.contract()
            chooser, scorer, tied = -1, [-1, -1], set()
            if contract.kind == bs.THROW_IN:
                deal_stats["throw_ins"] += 1
            else:
                chooser = contract.declarer
                if len(auction.at_cur) > 1 and len({q % 2 for q in auction.at_cur}) == 2:
                    tied = set(auction.at_cur)
                    deal_stats["showdowns"] += 1
                ours = _forehand_points(hands, contract.trump)  # team 1's card points
                for chalk in (0, 1):
                    scorer[chalk] = chalk if (ours if chalk == 1 else 120 - ours) >= 42 else 1 - chalk
            row = {}
            for s in range(4):
                team = s % 2
                me, mate = chooser == s, chooser == (s + 2) % 4
                chalk, no_chalk = scorer[team] == team, scorer[1 - team] == team
                row[s] = {"choose": me, "score_choose_chalk": me and chalk, "score_choose_no_chalk": me and no_chalk,
                          "score_chalk": chalk, "score_no_chalk": no_chalk, "showdown": s in tied,
                          "showdown_won": s in tied and me}
                seats[s] += [row[s][k] for k in jobs.SEAT_STATS]
                mask = _held(hands[s])
                jacks[s, mask] += [1, me, mate, me or mate, chalk, no_chalk]
            for s in range(4):
                for k, name in enumerate(jobs.PAIRED_STATS):
                    mine, fore = row[s][name], row[jobs.FOREHAND][name]
                    paired[s, k] += [mine and not fore, fore and not mine]
            for g in range(jobs.JACK_GROUPS):
                inside = [s for s in range(4) if (bin(_held(hands[s])).count("1") == g if g < 5
                                                  else _held(hands[s]) == g - 5)]
                t = len(inside)
                sums = [t * t]
                for name in ("choose", "partner", "team", "score_chalk", "score_no_chalk"):
                    hits = 0
                    for s in inside:
                        me, mate = chooser == s, chooser == (s + 2) % 4
                        team = s % 2
                        hits += {"choose": me, "partner": mate, "team": me or mate,
                                 "score_chalk": scorer[team] == team, "score_no_chalk": scorer[1 - team] == team}[name]
                    sums += [hits * hits, hits * t]
                pooled[g] += sums
    return {**deal_stats, "solos": 0, "seats": seats, "paired": paired, "jacks": jacks, "pooled": pooled}


def test_seat_job_matches_a_plain_tally():
    got = jobs.SeatJob.unpack(runner.run(jobs.SeatJob("greedy"), 300, 21, **RUN))
    want = plain_tally(300, 21)
    for key in jobs.DEAL_STATS:
        assert got[key] == want[key], key
    shares = {**got, "jacks": got["jacks"][..., :SHARES], "pooled": got["pooled"][:, :POOLED_SHARES]}
    for key in ("seats", "paired", "jacks", "pooled"):
        assert np.array_equal(shares[key], want[key]), key
    # with b0 forehand's counts are JackValueJob's (thresholds reuses them for its Q8 table)
    value = jobs.JackValueJob.unpack(runner.run(jobs.JackValueJob("greedy"), 300, 21, **RUN))
    assert np.array_equal(got["jacks"][jobs.FOREHAND][:, [jobs.SEAT_JACK_STATS.index(k) for k in jobs.JACK_STATS]],
                          value)


def test_same_numbers_whatever_jobs_and_chunks():
    job = jobs.SeatJob("greedy")
    one = runner.run(job, 700, 9, **RUN)
    for kw in ({"chunk_deals": 256}, {"chunk_deals": 512, "jobs": 2}):
        assert np.array_equal(one, runner.run(job, 700, 9, **kw, **RUN))
    frame = api.thresholds("greedy", 700, 9, **RUN)
    again = api.thresholds("greedy", 700, 9, chunk_deals=256, jobs=2, **RUN)
    for name in ("seat_effects", "jack_seats", "jack_value"):
        assert frame.attrs[name].equals(again.attrs[name]), name


@pytest.mark.parametrize("variant, policy", [("BS", "b0"), ("BS", "aggressive"), ("AS", "b0"), ("DS", "b0")])
def test_one_chooser_or_a_throw_in_per_deal(variant, policy):
    job = jobs.SeatJob("greedy", variant, policy=policy)
    hands = jobs.deal_hands(4, 0, 256)
    got = job.outcomes(hands, jobs.play_uniforms(4, 0, 256))
    thrown = got["chooser"] < 0
    assert ((got["scorer"] >= 0).all(axis=1) | thrown | (variant == "DS")).all()
    assert not got["in_showdown"][thrown].any()
    showdown = got["in_showdown"].any(axis=1)
    assert (got["in_showdown"].sum(axis=1)[showdown] >= 2).all()
    assert got["in_showdown"][showdown, got["chooser"][showdown]].all()  # a showdown's winner was in it
    if variant == "BS":
        four = np.array([[bs.jack_count(int(h)) == 4 for h in deal] for deal in hands]).any(axis=1)
        assert np.array_equal(thrown, four) if policy == "b0" else (thrown <= four).all()
    else:
        assert not thrown.any()
    counts = job.unpack(job.run_block(4, 0, 256))
    per_seat = counts["seats"][:, jobs.SEAT_STATS.index("choose")]
    assert per_seat.sum() + counts["throw_ins"] == counts["deals"] == 256
    frame = api.seat_effects_frame(counts)
    total = frame.p_choose.sum() + frame.attrs["throw_in"]["p"]
    assert total == pytest.approx(1.0, abs=1e-12)
    fore = frame.set_index("seat").loc[jobs.FOREHAND]
    for _, r in frame[frame.seat != jobs.FOREHAND].iterrows():
        for key in api.PAIRED_KEYS.values():  # the paired difference is the difference of the two estimates
            assert r[f"d_{key}"] == pytest.approx(r[key] - fore[key], abs=1e-12)
            assert r[f"d_{key}_lo"] <= r[f"d_{key}"] <= r[f"d_{key}_hi"]


def test_json_text_and_sweep_shape(capsys):
    base = ["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--equity-hands", "0", "--no-progress"]
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    seats = out["seat_effects"]
    assert seats["policy"] == "b0" and seats["n"] == 300 and set(seats["throw_in"]) == {"p", "lo", "hi"}
    assert [s["seat"] for s in seats["seats"]] == [1, 2, 3, 0]
    for entry in seats["seats"]:
        assert set(entry["p_choose"]) == {"p", "lo", "hi", "n"} and entry["p_choose"]["n"] == 300
        assert entry["p_score_if_choose_chalk"]["n"] == round(entry["p_choose"]["p"] * 300)
        assert ("vs_forehand" in entry) == (entry["seat"] != 1)
    assert set(seats["seats"][1]["vs_forehand"]) == set(api.PAIRED_KEYS.values())
    assert sum(s["p_choose"]["p"] for s in seats["seats"]) + seats["throw_in"]["p"] == pytest.approx(1.0)
    rows = out["jack_seats"]
    assert {r["seat"] for r in rows} == {"all", 0, 1, 2, 3}
    assert {"p_choose", "p_partner", "p_team", "p_score_chalk", "p_score_no_chalk"} <= set(rows[0])
    total = sum(r["n"] for r in rows if r["seat"] == "all" and r["which"] == "any")
    assert 4 * 300 - 19 <= total <= 4 * 300  # every seat's hand, 4 a deal (only 4 jacks may fall under min_n 20)
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "Q11 seat effects" in text and "minus forehand (same deals)" in text and "Q8 by seat" in text
    spec = lookup("thresholds", "bauernstoss")
    frame = spec.frame(command_parser("thresholds", "bauernstoss", spec).parse_args(base[2:]))
    assert frame.estimate.is_unique
    assert {"q11.0.p_choose", "q11.0.d_p_choose", "q11.throw_in", "q8s.all.1.any.p_choose",
            "q8s.2.1.cB.p_team"} <= set(frame.estimate)
    assert "q11.1.d_p_choose" not in set(frame.estimate)


def test_policy_reaches_the_seat_tables_only(capsys):
    base = ["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--equity-hands", "20", "--json",
            "--no-progress"]
    assert main(base) == 0
    b0 = json.loads(capsys.readouterr().out)
    assert main([*base, "--policy", "cautious"]) == 0
    cautious = json.loads(capsys.readouterr().out)
    assert cautious["seat_effects"]["policy"] == "cautious" and cautious["jack_value"] == b0["jack_value"]
    assert cautious["seat_effects"] != b0["seat_effects"]


# --- spec §9.3 reference figures (BS, policy B0, later hand) ---------------------------------------
JACK_REFERENCE = {0: (0.0, 0.3333), 1: (0.1582, 0.4389), 2: (0.6545, 0.7696), 3: (0.9681, 0.9787)}
"""§9.3 "Value of jacks at the auction": my jacks k -> (P(I choose trumps), P(my team chooses trumps)), N = 2,000,000,
SE <= 0.0009; any seat, so our pooled ("all") row."""
CHOOSER_SEAT = {1: 0.27570, 2: 0.25769, 3: 0.24099, 0: 0.22562}
"""§9.3 "chooser seat: forehand / 2nd / 3rd / dealer", given no throw-in (SE <= 0.00025)."""
SHOWDOWN = 0.22333
"""§9.3 "P(showdown between opponents)", given no throw-in."""
Z999 = 3.2905
"""99.9% intervals: 13 figures are checked, and at 95% one of them would miss now and then by chance alone."""


def test_estimates_cover_the_spec_reference_figures():
    n = 8192
    parts = jobs.SeatJob.unpack(runner.run(jobs.SeatJob("greedy"), n, 777, **RUN))
    not_thrown = n - parts["throw_ins"]
    column = {name: k for k, name in enumerate(jobs.SEAT_JACK_STATS)}
    for k, (me, team) in JACK_REFERENCE.items():
        cells = parts["jacks"][:, [m for m in range(16) if bin(m).count("1") == k]].sum(axis=(0, 1))
        pooled = parts["pooled"][k]
        for j, (stat, reference) in enumerate((("me", me), ("team", team))):
            slot = 1 + 2 * ("me", "partner", "team").index(stat)
            share = ratio_share(int(cells[column[stat]]), int(cells[0]), int(pooled[slot]), int(pooled[0]),
                                int(pooled[slot + 1]), n, Z999)
            assert share["lo"] <= reference <= share["hi"], (k, stat, share)
    for seat, reference in CHOOSER_SEAT.items():
        lo, hi = wilson(int(parts["seats"][seat, 0]), not_thrown, Z999)
        assert lo <= reference <= hi, (seat, lo, hi)
    lo, hi = wilson(parts["showdowns"], not_thrown, Z999)
    assert lo <= SHOWDOWN <= hi
    lo, hi = wilson(parts["throw_ins"], n, Z999)
    assert lo <= 7 / 899 <= hi
