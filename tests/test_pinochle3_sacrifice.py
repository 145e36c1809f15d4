"""Spec pinochle3.md Q10 ("near 1500: should I sacrifice-bid?"): `cardsim match pinochle3 --scores ... --sacrifice
...`, the paired games of `pinochle3_bid.SacrificeJob` recounted by a plain game loop, and its bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore import runner
from simcore.games import pinochle3_bid as bid
from simcore.games.pinochle3_play import game_winner, rule_options
from simcore.rng import block_substream

SCORES, SEED = (1200, 1450, 1300), 3


def plain_game(seed, block, index, policies, scores, dealer, opts, override):
    """(winner, hands, first bidder, first made) of one game by a loop written out here (R6.5: play on until
    `game_winner` names one; a thrown-in hand changes nothing; the deal passes left)."""
    rng, scores, first = block_substream(seed, block, index), list(scores), None
    for hand in range(1, bid.MAX_HANDS + 1):
        score, bidder = bid.play_hand(rng.permutation(48), policies, dealer, opts, override if hand == 1 else None)
        if hand == 1:
            first = (bidder, score is not None and bool(score.made))
        dealer = (dealer + 1) % 3
        if score is None:
            continue
        scores = [s + d for s, d in zip(scores, score.delta)]
        winner = game_winner(scores, bidder, score.made, opts)
        if winner is not None:
            return winner, hand, *first
    return None, bid.MAX_HANDS, *first


@pytest.mark.parametrize("dealer", [0, 2])
def test_counts_equal_a_plain_replay(dealer):
    """Pass, your policy and each sacrifice on the same cards, counted as the job's docstring says."""
    sacrifices = (300, 400)
    job = bid.SacrificeJob(SCORES, dealer, "standard", "bold", sacrifices)
    n = 20
    counts = runner.run(job, n, SEED, progress=False, checkpoint=False)
    policies = [bid.bid_policy("standard"), bid.bid_policy("bold"), bid.bid_policy("bold")]
    opts = rule_options()
    expected = np.zeros(job.n_counts, dtype=np.int64)
    for g in range(n):
        block, index = divmod(g, job.block_size)
        passed, hands, _, _ = plain_game(SEED, block, index + 1, policies, SCORES, dealer, opts, (0, bid.PASS))
        expected[:4] += (1, passed == 0, passed is None, passed not in (None, 0) and hands == 1)
        policy = plain_game(SEED, block, index + 1, policies, SCORES, dealer, opts, None)[0]
        for k, choice in enumerate((None, *sacrifices)):
            override = None if choice is None else (0, choice)
            won, _, bidder, made = plain_game(SEED, block, index + 1, policies, SCORES, dealer, opts, override)
            expected[4 + 8 * k:12 + 8 * k] += (won == 0, won == 0 and passed != 0, passed == 0 and won != 0,
                                               bidder == 0, bidder == 0 and not made, won is None,
                                               won == 0 and policy != 0, policy == 0 and won != 0)
    assert np.array_equal(counts, expected)


def test_the_override_makes_you_bid_up_to_the_sacrifice_or_pass():
    """With (you, S) you hold the first hand's contract unless another seat's limit goes beyond S; with (you,
    PASS) you never hold it (no forced bids under the default rules)."""
    rng = np.random.default_rng(5)
    policies = [bid.bid_policy("cautious"), bid.bid_policy("standard"), bid.bid_policy("standard")]
    opts = rule_options()
    for _ in range(60):
        cards = rng.permutation(48)
        hands = np.array([bid.DECK.mask(cards[15 * s:15 * (s + 1)]) for s in range(3)], dtype=np.uint64)
        limits = bid.max_bids(policies, np.roll(hands, 1), opts)  # dealer 0: seat 1 gets the first packet
        _, bidder = bid.play_hand(cards, policies, 0, opts, (0, 400))
        assert bidder == 0 or limits[bidder] > 400
        _, bidder = bid.play_hand(cards, policies, 0, opts, (0, bid.PASS))
        assert bidder != 0


def test_same_numbers_whatever_the_split():
    job = bid.SacrificeJob(SCORES, 1, "standard", "standard", (350,))
    whole = runner.run(job, 40, 9, progress=False, checkpoint=False)
    split = runner.run(job, 40, 9, chunk_deals=5, progress=False, checkpoint=False)
    assert np.array_equal(whole, split) and whole[0] == 40


def test_text_and_json(capsys):
    argv = ["match", "pinochle3", "--a", "standard", "--b", "standard", "--scores", "1200,1450,1300",
            "--sacrifice", "300,350", "--n", "24", "--seed", "1", "--no-progress"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "sacrifice bids near the target (spec Q10)" in text and "you deal and speak last" in text
    assert main([*argv, "--dealer", "right", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["question"] == "sacrifice" and data["dealer"] == "right"
    assert data["scores"] == {"you": 1200, "left": 1450, "right": 1300}
    assert [r["choice"] for r in data["rows"]] == ["policy", "300", "350"]
    assert [r["bid"] for r in data["rows"]] == [None, 300, 350] and data["rows"][0]["vs_policy"] is None
    for r in data["rows"]:
        assert r["diff_lo"] <= r["diff"] <= r["diff_hi"] and r["win_lo"] <= r["win"] <= r["win_hi"]
        assert r["win"] - data["pass"]["p"] == pytest.approx(r["diff"])
    for r in data["rows"][1:]:
        assert r["win"] - data["rows"][0]["win"] == pytest.approx(r["vs_policy"])


@pytest.mark.parametrize("extra, message", [
    (["--scores", "1200,1500,1300", "--sacrifice", "300"], "has already won"),
    (["--scores", "1200,1450", "--sacrifice", "300"], "--scores needs three whole numbers"),
    (["--scores", "1200,14x0,1300", "--sacrifice", "300"], "--scores needs three whole numbers"),
    (["--scores", "1200,1450,1300", "--sacrifice", "305"], "not a multiple of 10"),
    (["--scores", "1200,1450,1300", "--sacrifice", "300:400"], "--sacrifice must look like 250:400:10"),
    (["--scores", "1200,1450,1300"], "--scores applies only with --sacrifice"),
    (["--sacrifice", "300"], "--sacrifice applies only with --scores"),
    (["--dealer", "left"], "--dealer applies only with --scores"),
    (["--scores", "1200,1450,1300", "--sacrifice", "300", "--a-concede", "20"], "--a-concede is not used"),
    (["--scores", "1200,1450,1300", "--sacrifice", "300", "--dealer", "north"], "argument --dealer"),
    (["--scores", "1205,1450,1300", "--sacrifice", "300"], "give multiples of 10"),
    (["--scores=-3000,1450,1300", "--sacrifice", "300", "--option", "neg_limit=-1000"], "has already ended the game"),
    (["--scores=-100000000000000000000000000,0,0", "--sacrifice", "300"], "out of this model's range"),
    (["--scores", "0,-150010,0", "--sacrifice", "300"], "a score below -150000 (100 times the target)"),
    (["--scores", "1200,1450,1300", "--sacrifice", "300", "--option", "set_stake=2"], "not used with --scores"),
])
def test_bad_input(capsys, extra, message):
    code = main(["match", "pinochle3", "--a", "standard", "--b", "standard", "--n", "4", "--no-progress", *extra])
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and "\n" not in err


def test_api_returns_a_frame():
    frame = api.sacrifice("standard", "bold", "1000,1400,900", "350", "left", games=8, seed=2, progress=False,
                          checkpoint=False)
    assert list(frame.choice) == ["policy", "350"] and frame.attrs["scores"] == (1000, 1400, 900)


def test_sweep_frame():
    from analysis.cli import command_parser, commands
    from analysis.commands import LONG_COLUMNS

    args = command_parser("match", "pinochle3", commands()["match"]["pinochle3"]).parse_args(
        ["--a", "standard", "--b", "standard", "--scores", "1200,1450,1300", "--sacrifice", "300,350", "--n", "8",
         "--seed", "1", "--no-progress"])
    frame = api._match_frame(args)
    assert list(frame.columns) == LONG_COLUMNS
    assert list(frame.estimate) == ["pass.win", "policy.win", "sacrifice.300.win", "sacrifice.350.win",
                                    "policy.diff", "sacrifice.300.diff", "sacrifice.350.diff"]
