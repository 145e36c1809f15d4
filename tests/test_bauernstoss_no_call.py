"""Hands without a call in `odds bauernstoss` (no jack, §4.3; four jacks in a game's first hand; a DS hand that must
pass): no call rows, the rule that makes the hand pass, and the auction part (text, JSON, sweep frame) equal to a
plain recount; and the Q8 table of `thresholds bauernstoss` (spec §9.1 Q8: P(I choose), P(partner chooses), P(team
scores) by forehand's jacks) against a plain recount, the same for any --jobs / --chunk-size."""

import json

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import LONG_COLUMNS, lookup
from analysis.games import bauernstoss as api
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from tests import naive_bauernstoss as naive
from tests.test_bauernstoss_auction_odds import recount

NO_JACK = "cA cT cK cD c9 c8 c7 sA"
RUN = dict(progress=False, checkpoint=False)


def _rates(frame) -> dict:
    part = frame.attrs["auction"].set_index("estimate")
    return {key: (part.loc[key, "p"], int(part.loc[key, "n"])) for key in part.index}


@pytest.mark.parametrize("seat", [1, 0])
def test_jackless_auction_part_matches_a_plain_recount(seat):
    c = recount(NO_JACK, seat, 300, 11)
    frame = api.odds(NO_JACK, seat, n=300, seed=11, **RUN)
    got = _rates(frame)
    assert frame.empty and frame.attrs["must_pass"] == "no jack (§4.3)" and frame.attrs["n"] == 300
    assert got["i_choose"] == (0.0, 300) and c["me"] == 0 and got["my_showdown"] == (0.0, 300)
    assert got["partner_chooses"] == (c["partner"] / 300, 300) and got["throw_in"] == (c["throw_in"] / 300, 300)
    assert got["opponent_chooses"] == (c["opponent"] / 300, 300)
    for key, who in (("partner_chooses", "partner"), ("opponent_chooses", "opponent")):
        assert got[f"score.{key}"] == (c[f"score_{who}"] / c[who], c[who])
    assert got["score.all"] == ((c["score_partner"] + c["score_opponent"]) / 300, 300)
    assert got["paired.mine"][1] == 0


def test_jackless_text_json_and_frame(capsys):
    base = ["odds", "bauernstoss", "--hand", NO_JACK, "--n", "60", "--seed", "7", "--no-progress"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "No call to evaluate: the hand must pass, no jack (§4.3)" in text and "call       trump" not in text
    assert "your call by b0: pass: no jack (§4.3)" in text and "my partner chooses" in text
    assert "whoever chooses (every deal)" in text
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["calls"] == [] and out["must_pass"] == "no jack (§4.3)" and out["n"] == 60
    assert out["auction"]["call"] == "pass: no jack (§4.3)" and out["auction"]["proposal"] is None
    assert out["auction"]["estimates"]["partner_chooses"]["n"] == 60
    spec = lookup("odds", "bauernstoss")
    frame = spec.frame(command_parser("odds", "bauernstoss", spec).parse_args(base[2:]))
    assert list(frame.columns) == LONG_COLUMNS and frame.estimate.is_unique
    assert frame.estimate.str.startswith("auction.").all() and "auction.partner_chooses" in set(frame.estimate)


def test_hands_with_calls_keep_their_rows():
    frame = api.odds("sB hB dB cA cT sK h7 d8", 1, n=40, seed=3, **RUN)
    assert len(frame) == 4 and frame.attrs["must_pass"] is None and frame.attrs["proposal"]["suit"] == "clubs"


def test_four_jacks_in_a_first_hand_and_ds_passes():
    """§4.3 / §4.7: four jacks must pass in a game's first hand, nobody else can bid: always a throw-in (§4.11).
    DS-3..DS-5: under 5 trumps without the acorn Unter the hand passes; the others still name trumps."""
    four = api.odds("cB sB hB dB hA hT hK h9", 1, n=30, seed=2, first_hand=True, **RUN)
    assert four.empty and "first hand" in four.attrs["must_pass"] and _rates(four)["throw_in"] == (1.0, 30)
    assert "thrown in (§4.11)" in four.attrs["plan"]
    ds = api.odds("sB hA hT s9 s7 c7 d7 d8", 2, n=30, seed=2, variant="DS", **RUN)
    rates = _rates(ds)
    assert ds.empty and "DS-3" in ds.attrs["must_pass"] and rates["i_choose"] == (0.0, 30)
    assert rates["partner_chooses"][0] + rates["opponent_chooses"][0] == 1.0


def test_jackless_odds_same_numbers_whatever_jobs_and_chunks():
    one = api.odds(NO_JACK, 3, n=600, seed=5, **RUN)
    for kw in ({"chunk_deals": 256}, {"chunk_deals": 512, "jobs": 2}):
        assert one.attrs["auction"].equals(api.odds(NO_JACK, 3, n=600, seed=5, **kw, **RUN).attrs["auction"])


# --- Q8: what are forehand's jacks worth -------------------------------------------------------
def _forehand_points(hands, trump: int) -> int:
    """Forehand's team's card points when the deal is played greedily, forehand leading (naive trick winner)."""
    line = play.play_line("greedy", hands, trump, jobs.FOREHAND)
    leader, taken = jobs.FOREHAND, 0
    for start in range(0, len(line), 4):
        trick = line[start:start + 4]
        leader = (leader + naive.winner(trick, trump)) % bs.SEATS
        taken += naive.points(trick) if leader % 2 == jobs.FOREHAND % 2 else 0
    return taken


def q8_recount(n: int, seed: int) -> dict:
    """{(jacks, which): [deals, forehand chose, its partner chose, its team took 42+, 79+]} over the deals of
    `ThresholdJob`'s blocks, by the B0 auction (`bs.baseline_call`), greedy play and the §6.2 thresholds (the chalk
    team needs 42, the other 79)."""
    out = {}
    opts = bs.rule_options()
    for block in range(-(-n // jobs.ThresholdJob.block_size)):
        size = min(jobs.ThresholdJob.block_size, n - block * jobs.ThresholdJob.block_size)
        for deal in jobs.deal_hands(seed, block, size):
            hands = [int(h) for h in deal]
            held = [f"{bs.DECK.suits[s]}B" for s in range(4) if hands[jobs.FOREHAND] >> (8 * s + bs.JACK) & 1]
            row = [1, 0, 0, 0, 0]
            contract = jobs.run_auction(hands, opts, bs.baseline_call)
            if contract.kind != bs.THROW_IN:
                row[1], row[2] = contract.declarer == jobs.FOREHAND, contract.declarer == 3
                points = _forehand_points(hands, contract.trump)
                row[3], row[4] = points >= 42, points >= 79
            keys = [(len(held), "any")] + ([(len(held), " ".join(held))] if len(held) in (1, 2) else [])
            for key in keys:
                out[key] = [a + b for a, b in zip(out.get(key, [0] * 5), row)]
    return out


def test_q8_table_matches_a_plain_recount():
    frame = api.thresholds("greedy", 600, 13, min_n=1, **RUN)
    table = frame.attrs["jack_value"]
    expected = q8_recount(600, 13)
    assert len(table) == len(expected) and table[table.which == "any"].n.sum() == 600
    for _, r in table.iterrows():
        deals, me, partner, chalk, no_chalk = expected[(r["jacks"], r["which"])]
        assert r["n"] == deals and r["p_choose"] == me / deals and r["p_partner"] == partner / deals
        assert r["p_score_chalk"] == chalk / deals and r["p_score_no_chalk"] == no_chalk / deals
        assert r["p_choose_lo"] <= r["p_choose"] <= r["p_choose_hi"]
    zero = table.set_index(["jacks", "which"]).loc[(0, "any")]
    assert zero["p_choose"] == 0.0 and zero["p_partner"] > 0.2  # §4.3: no jack, never chooses


def test_q8_same_numbers_whatever_jobs_and_chunks():
    one = api.thresholds("greedy", 700, 9, **RUN).attrs["jack_value"]
    for kw in ({"chunk_deals": 256}, {"chunk_deals": 512, "jobs": 2}):
        assert one.equals(api.thresholds("greedy", 700, 9, **kw, **RUN).attrs["jack_value"])


def test_q8_text_json_and_frame(capsys):
    base = ["thresholds", "bauernstoss", "--n", "500", "--seed", "4", "--equity-hands", "0", "--no-progress"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "Q8 what are forehand's jacks worth?" in text and " 1  cB " in text and "P(partner chooses)" in text
    assert main([*base, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["jack_value"]
    assert rows[0]["jacks"] == 0 and rows[0]["which"] == "any" and rows[0]["p_choose"]["p"] == 0.0
    spec = lookup("thresholds", "bauernstoss")
    frame = spec.frame(command_parser("thresholds", "bauernstoss", spec).parse_args(base[2:]))
    assert frame.estimate.is_unique and {"q8.0.any.p_partner", "q8.1.cB.p_score_chalk"} <= set(frame.estimate)
    assert np.isfinite(frame[frame.estimate.str.startswith("q8.")].value).all()
