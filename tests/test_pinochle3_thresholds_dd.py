"""Pinochle bid thresholds with the last tricks solved double-dummy (`cardsim thresholds pinochle3 --dd-tricks K`,
spec §9.1 Q3-Q4): the same hands as the greedy columns, the histogram of the solved play, run-split invariance,
the JSON, text and sweep frame, and bad input."""

import argparse
import json

import numpy as np
import pandas as pd
import pytest

from analysis.cli import main
from analysis.commands import commands
from analysis.games import pinochle3 as api
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import pinochle3_bid as bid
from simcore.rng import block_words

RUN = dict(checkpoint=False)


def test_solved_histogram_counts_each_hands_meld_plus_solved_points():
    job = bid.ThresholdJob(dd_tricks=3)
    counts = job.unpack(job.run_block(11, 0, 120))
    slots = deal(job.spec, block_words(11, 0, 120, job.spec.words_per_deal))
    slots = slots[bid.reaching_auction(slots, job.nines_rule)]
    o = bid.bidder_outcomes(slots, dd_tricks=3)
    expected = np.zeros(job.shape, dtype=np.int64)
    for meld_before, length, total in zip(o["meld_before"], o["trump_length"], o["meld"] + o["dd"]):
        m = min(meld_before // 20, bid.THRESHOLD_MELD_BINS - 1)
        t = min(max(length, bid.TRUMP_LENGTHS[0]), bid.TRUMP_LENGTHS[1]) - bid.TRUMP_LENGTHS[0]
        expected[m, t, min(total // 10, bid.TOTAL_BINS - 1)] += 1
    assert (counts["hist_dd"] == expected).all()
    assert (counts["hist_dd"].sum(axis=2) == counts["hist"].sum(axis=2)).all()  # the same hands, played twice
    assert bid.ThresholdJob().unpack(bid.ThresholdJob().run_block(11, 0, 120))["hist_dd"] is None


def test_greedy_columns_are_those_of_the_run_without_the_solved_ending():
    plain = api.thresholds(1500, 4, **RUN)
    solved = api.thresholds(1500, 4, dd_tricks=4, **RUN)
    for name in ("by_meld", "by_trump_length", "grid", "curves"):
        pd.testing.assert_frame_equal(solved[name][plain[name].columns], plain[name])
    assert "dd_p" not in plain["curves"] and "bid50_dd" not in plain["by_meld"]
    curves = solved["curves"]
    assert (curves.dd_lo <= curves.dd_p).all() and (curves.dd_p <= curves.dd_hi).all()
    assert curves.groupby("meld", sort=False).dd_p.apply(lambda p: p.is_monotonic_decreasing).all()
    for row in solved["by_meld"].itertuples():  # bid50_dd read off the solved P(make) curve of its class
        if row.bid50_dd is not None and row.bid50_dd == row.bid50_dd:
            assert row.lo50_dd <= row.p50_dd <= row.hi50_dd and row.p50_dd >= 0.5


def test_same_numbers_whatever_the_chunks():
    one = api.thresholds(900, 6, dd_tricks=3, chunk_deals=900, **RUN)
    three = api.thresholds(900, 6, dd_tricks=3, chunk_deals=300, **RUN)
    for name in one:
        pd.testing.assert_frame_equal(one[name], three[name])


def test_command_json_text_and_frame(capsys):
    argv = ["thresholds", "pinochle3", "--n", "800", "--seed", "2", "--dd-tricks", "2", "--no-progress"]
    assert main(argv + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dd_tricks"] == 2 and {"bid50_dd", "p50_dd", "bid50_dd_settled"} <= set(data["tables"]["by_meld"][0])
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "bid50_dd: the last 2 tricks double-dummy" in text and "bid50_dd P(make) [95%]" in text
    args = argparse.Namespace(n=800, seed=2, rule=None, option=[], dd_tricks=2, jobs=1, chunk_size=None,
                              checkpoint=False, no_progress=True, scheduler=None, dask_workers=None)
    frame = commands()["thresholds"]["pinochle3"].frame(args).set_index("estimate")
    curves = api.thresholds(800, 2, dd_tricks=2, **RUN)["curves"].set_index(["meld", "bid"])
    assert frame.loc["make_dd.0-90.300", "value"] == curves.loc[("0-90", 300), "dd_p"]


def test_new1945_is_read_when_the_ending_is_solved(capsys):
    assert main(["thresholds", "pinochle3", "--n", "300", "--seed", "1", "--rule", "new1945", "--dd-tricks", "3",
                 "--no-progress"]) == 0
    assert "rule new1945, greedy play (plays as old); bid50_dd: the last 3 tricks" in capsys.readouterr().out


@pytest.mark.parametrize("flags, message", [
    (["--dd-tricks", "16"], "--dd-tricks must be a whole number 0-15, got 16"),
    (["--rule", "new1945"], "or solve the ending with --dd-tricks 2-15"),
    (["--rule", "new1945", "--dd-tricks", "1"], "or solve the ending with --dd-tricks 2-15"),
])
def test_bad_input_exits_2_with_one_line(capsys, flags, message):
    assert main(["thresholds", "pinochle3", "--n", "300", "--seed", "1", "--no-progress", *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.parametrize("dd_tricks", [2.5, True, "8", -1])
def test_python_api_refuses_a_solved_ending_that_is_not_0_to_15_tricks(dd_tricks):
    with pytest.raises(CardsimError, match="--dd-tricks must be a whole number 0-15"):
        api.thresholds(300, 1, dd_tricks=dd_tricks, **RUN)
