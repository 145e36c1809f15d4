"""The auction part of `odds bauernstoss` (spec §9.1 Q5, Q6): its counts against a plain recount over the same
deals (the B0 auction of `bs.baseline_call`, whole hands by `play.play_hand`, scoring by `bs.score_hand`), the same
numbers whatever --jobs and --chunk-size, hands that always or never choose (§4.3, §4.11) and one-line errors."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from tests import naive_bauernstoss as naive

TD01 = "sB hB dB cA cT sK h7 d8"
NEVER = "dB c7 c8 s7 s8 h7 h8 d7"
"""Dealer (seat 0) with one jack, 3 trumps at most and a 7 in every suit: a forced opener before it always bids
3 or more, an opponent's bid needs an 8 to say mit (§4.6), and a tie with the partner goes to the earlier
speaker, the partner (§8 A3)."""


def _points(hands, trump, team):
    """Card points ``team`` takes when the deal is played greedily, forehand leading (naive trick winner)."""
    line = play.play_line("greedy", hands, trump, jobs.FOREHAND)
    leader, taken = jobs.FOREHAND, 0
    for start in range(0, len(line), 4):
        trick = line[start:start + 4]
        leader = (leader + naive.winner(trick, trump)) % bs.SEATS
        taken += naive.points(trick) if leader % 2 == team else 0
    return taken


def recount(hand: str, seat: int, n: int, seed: int) -> dict:
    """The auction part's rates by hand: each deal of the job's blocks through `play.play_hand` (B0 calls, greedy
    play, the chalk at the hand's team) and, for Q6, the two suits played out."""
    cards = bs.DECK.parse_cards(hand)
    job = jobs.AuctionOddsJob(tuple(cards), seat, chalk=seat % 2)
    team, partner = seat % 2, (seat + 2) % bs.SEATS
    state = bs.GameState(chalk=team, first_hand=False)
    opts = bs.rule_options()
    c = dict.fromkeys(jobs.AUCTION_STATS, 0)
    for block in range(-(-n // job.block_size)):
        size = min(job.block_size, n - block * job.block_size)
        for deal in jobs.deal_hands(seed, block, size, job.spec):
            hands = [int(h) for h in deal]
            after, contract, _ = play.play_hand(state, hands, opts, np.random.default_rng(0), "greedy")
            c["n"] += 1
            if contract.kind == bs.THROW_IN:
                c["throw_in"] += 1
                continue
            who = "me" if contract.declarer == seat else "partner" if contract.declarer == partner else "opponent"
            c[who] += 1
            c[f"score_{who}"] += after.strokes[team] > 0
            auction = jobs.finished_auction(hands, opts, bs.baseline_call)
            if contract.showdown and seat in auction.at_cur:
                c["my_showdown"] += 1
                c["my_showdown_won"] += contract.declarer == seat
            if contract.declarer % 2 == team and {seat, partner} <= auction.suit_of.keys():
                scores = [_points(hands, auction.suit_of[s], team) >= 42 for s in (seat, partner)]
                c["pairs"] += 1
                c["pair_me"] += scores[0]
                c["pair_partner"] += scores[1]
    return c


def _rates(frame):
    part = frame.attrs["auction"].set_index("estimate")
    return {key: (part.loc[key, "p"], int(part.loc[key, "n"])) for key in part.index}


@pytest.mark.parametrize("hand, seat", [(TD01, 1), ("cB sA sK sT s9 hA d7 c7", 2)])
def test_auction_part_matches_a_plain_recount(hand, seat):
    c = recount(hand, seat, 300, 11)
    got = _rates(api.odds(hand, seat, n=300, seed=11, progress=False, checkpoint=False))
    assert got["i_choose"] == (c["me"] / 300, 300) and got["partner_chooses"] == (c["partner"] / 300, 300)
    assert got["opponent_chooses"] == (c["opponent"] / 300, 300) and got["throw_in"] == (c["throw_in"] / 300, 300)
    for key, who in (("i_choose", "me"), ("partner_chooses", "partner"), ("opponent_chooses", "opponent")):
        if c[who]:
            assert got[f"score.{key}"] == (c[f"score_{who}"] / c[who], c[who])
    assert got["my_showdown"][0] == c["my_showdown"] / 300
    if c["my_showdown"]:
        assert got["win_showdown"] == (c["my_showdown_won"] / c["my_showdown"], c["my_showdown"])
    assert got["paired.mine"][1] == c["pairs"]
    if c["pairs"]:
        assert got["paired.mine"][0] == c["pair_me"] / c["pairs"]
        assert got["paired.diff"][0] == pytest.approx((c["pair_me"] - c["pair_partner"]) / c["pairs"])


def test_same_numbers_whatever_jobs_and_chunks():
    run = dict(progress=False, checkpoint=False)
    one = api.odds(TD01, 3, n=600, seed=5, **run)
    for kw in ({"chunk_deals": 256}, {"chunk_deals": 512, "jobs": 2}):
        other = api.odds(TD01, 3, n=600, seed=5, **kw, **run)
        assert one.attrs["auction"].equals(other.attrs["auction"])
        assert one.equals(other)


def test_four_jacks_choose_by_big_solo_or_throw_in():
    """§4.3: four jacks may only call Big Solo or pass; B0 never calls a solo, so the hand is thrown in (§4.11);
    the aggressive policy calls Big Solo with 7 trumps, so the hand always chooses. AS-5: four jacks bid a number,
    and nobody else holds a jack, so the hand always chooses."""
    hand = "cB sB hB dB cA cT cK hA"
    run = dict(n=64, seed=3, progress=False, checkpoint=False)
    assert _rates(api.odds(hand, 1, **run))["throw_in"] == (1.0, 64)
    rates = _rates(api.odds(hand, 1, policy="aggressive", **run))
    assert rates["i_choose"] == (1.0, 64) and rates["solo"] == (1.0, 64)
    assert _rates(api.odds(hand, 2, variant="AS", **run))["i_choose"] == (1.0, 64)


def test_a_hand_that_never_chooses():
    rates = _rates(api.odds(NEVER, 0, n=300, seed=4, progress=False, checkpoint=False))
    assert rates["i_choose"][0] == 0.0 and rates["throw_in"][0] == 0.0
    assert np.isnan(rates["score.i_choose"][0]) and rates["score.i_choose"][1] == 0


def test_cli_text_and_json(capsys):
    base = ["odds", "bauernstoss", "--hand", TD01, "--n", "80", "--seed", "7", "--no-progress"]
    assert main([*base, "--chalk", "them", "--policy", "cautious"]) == 0
    text = capsys.readouterr().out
    assert "your seat by cautious" in text and "the chalk at the other team (team 0)" in text
    assert "I choose trumps" in text and ("difference (mine - partner)" in text or "no paired difference" in text)
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["auction"]["policy"] == "b0" and out["auction"]["estimates"]["i_choose"]["n"] == 80
    assert {"calls", "n", "seed", "options"} <= out.keys()


@pytest.mark.parametrize("extra, message", [
    (["--policy", "bold"], "argument --policy: invalid choice: 'bold' (choose from b0, cautious, aggressive)"),
    (["--chalk", "ours"], "argument --chalk: invalid choice: 'ours' (choose from us, them)"),
    (["--chalk", "us", "--first-hand"], "--chalk does not apply with --first-hand"),
    (["--chalk", "them", "--variant", "DS"], "Deutscher Schafkopf has no chalk (DS-13): drop --chalk"),
])
def test_bad_input_is_one_line(extra, message, capsys):
    hand = "sB hB hA hT hK h9 s7 d8" if "DS" in extra else TD01
    assert main(["odds", "bauernstoss", "--hand", hand, "--n", "10", "--no-progress", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err
