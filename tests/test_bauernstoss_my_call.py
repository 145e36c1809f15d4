"""`odds bauernstoss --my-call`: your own call in the auction part (spec §9.1 Q5 for the call you pick). The
policy's own call gives the numbers of the run without it; on the same deals a higher number bid chooses trumps
on every deal a lower one does (the later seats bid their longest suit, §9.3); a pass never chooses, a solo
always does; illegal calls exit 2 with one line naming the rule; the same numbers whatever --jobs and
--chunk-size."""

import json

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import lookup
from analysis.games import bauernstoss as api
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs

TD01 = "sB hB dB cA cT sK h7 d8"
"""Spec TD-01: 5 trumps with clubs (lowest ten), 4 with spades (king), hearts (7) or diamonds (8)."""
TD05 = "cB hA hK h8 sA sT dA d8"
"""The dealer of spec TD-05 with a lowest heart 8: after 4, pass, mit it may say mit (threshold 8, §4.6)."""
RUN = dict(progress=False, checkpoint=False)


def _auction(frame) -> dict:
    return frame.attrs["auction"].set_index("estimate")["p"].to_dict()


def _choosers(hand: str, seat: int, call: bs.Call, calls: tuple = (), n: int = 256, seed: int = 3) -> np.ndarray:
    """The chooser of each of the job's deals (-1: throw-in) with ``seat`` making ``call``."""
    job = jobs.AuctionOddsJob(tuple(bs.DECK.parse_cards(hand)), seat, chalk=1, calls=calls, my_call=call)
    hands, _ = jobs.conditioned_hands(seed, 0, n, job.spec)
    caller = jobs.fixed_caller(jobs.caller_for((jobs.auction_policy("b0"),)), seat, call)
    return np.array([jobs.run_auction(h, job.opts, caller).declarer for h in hands])


# --- the policy's own call changes nothing ------------------------------------------------------------------------
@pytest.mark.parametrize("hand, seat, calls, mine", [(TD01, 1, None, "5 c"), (TD05, 0, "4,pass,mit", "mit h")])
def test_the_policys_own_call_gives_the_same_numbers(hand, seat, calls, mine):
    plain = api.odds(hand, seat, n=120, seed=7, calls=calls, **RUN)
    fixed = api.odds(hand, seat, n=120, seed=7, calls=calls, my_call=mine, **RUN)
    assert fixed.equals(plain) and fixed.attrs["auction"].equals(plain.attrs["auction"])
    assert fixed.attrs["my_call"]["same_as_policy"] and fixed.attrs["my_call"]["call"] == mine
    assert "the call policy b0 makes here" in fixed.attrs["plan"] and plain.attrs["my_call"] is None


# --- what is provably true on the same deals ----------------------------------------------------------------------
@pytest.mark.parametrize("hand, seat, calls, low, high", [
    (TD01, 1, (), bs.Call(bs.NUMBER, 4, 1), bs.Call(bs.NUMBER, 5, 0)),
    (TD01, 1, (), bs.Call(bs.NUMBER, 4, 2), bs.Call(bs.NUMBER, 5, 0)),
    (TD01, 3, ((bs.PASS, 0), (bs.PASS, 0)), bs.Call(bs.NUMBER, 4, 3), bs.Call(bs.NUMBER, 5, 0)),
])
def test_a_higher_number_chooses_on_every_deal_a_lower_one_does(hand, seat, calls, low, high):
    """With the lower bid I choose only if no later seat holds a longer suit (b0 bids its longest, §9.3, and a longer
    bid shuts me out, §4.5); then nobody reaches the higher bid, nobody can say mit to it, and I choose alone."""
    lo, hi = (_choosers(hand, seat, call, calls) == seat for call in (low, high))
    assert not (lo & ~hi).any() and hi.sum() > lo.sum() > 0


def test_td01_spades_against_clubs():
    """TD-01 as forehand: 4 in spades chooses less often than 5 in clubs but my team scores more often (counts on the
    same 300 deals, seed 7); the call table does not depend on the call."""
    clubs = api.odds(TD01, 1, n=300, seed=7, my_call="5 c", **RUN)
    spades = api.odds(TD01, 1, n=300, seed=7, my_call="4 s", **RUN)
    a, b = _auction(clubs), _auction(spades)
    assert (round(a["i_choose"] * 300), round(a["score.all"] * 300)) == (294, 252)
    assert (round(b["i_choose"] * 300), round(b["score.all"] * 300)) == (259, 287)
    assert spades.equals(clubs) and not spades.attrs["my_call"]["same_as_policy"]
    assert spades.attrs["plan"] == ("your call (--my-call 4 s): 4 in spades (lowest card king); NOT policy b0's "
                                    "call, which is 5 in clubs (lowest card ten)")


def test_a_pass_never_chooses_and_a_solo_always_does():
    hand = "cB sA hA cA c8 h7 h9 d7"  # one jack, the club jack: 3 trumps at most
    passed = _auction(api.odds(hand, 3, n=60, seed=2, calls="4,5", my_call="pass", **RUN))
    solo = _auction(api.odds(hand, 3, n=60, seed=2, calls="4,5", my_call="big solo c", **RUN))
    assert passed["i_choose"] == 0 and passed["opponent_chooses"] == 1
    assert solo["i_choose"] == 1 and solo["solo"] == 1


def test_job_keys_name_the_call():
    cards = tuple(bs.DECK.parse_cards(TD01))
    keys = {jobs.AuctionOddsJob(cards, 1, chalk=1, my_call=c).key() for c in
            (None, bs.Call(bs.NUMBER, 4, 1), bs.Call(bs.NUMBER, 4, 2))}
    assert len(keys) == 3


def test_same_numbers_whatever_jobs_and_chunks():
    one = api.odds(TD01, 3, n=300, seed=5, calls="4,pass", my_call="5 c", **RUN)
    other = api.odds(TD01, 3, n=300, seed=5, calls="4,pass", my_call="5 c", chunk_deals=256, jobs=2, **RUN)
    assert one.equals(other) and one.attrs["auction"].equals(other.attrs["auction"])


# --- variants ------------------------------------------------------------------------------------------------------
def test_as_four_jacks_may_bid_and_ds_fixes_the_call():
    """AS-5: four jacks bid a number (BS: Big Solo or pass, §4.3); DS-4: the call is the longest suit, so D0's."""
    four = "cB sB hB dB c8 h7 h9 d7"
    frame = api.odds(four, 1, n=40, seed=1, variant="AS", my_call="6 h", **RUN)
    assert _auction(frame)["i_choose"] == 1
    with pytest.raises(CardsimError, match="§4.3: seat 1 holds all four jacks"):
        api.odds(four, 1, n=40, seed=1, my_call="6 h", **RUN)
    ds = "sB hB hA hT hK h9 s7 d8"
    fixed = api.odds(ds, 2, n=60, seed=1, variant="DS", calls="5", my_call="6 h", **RUN)
    plain = api.odds(ds, 2, n=60, seed=1, variant="DS", calls="5", **RUN)
    assert fixed.attrs["auction"].equals(plain.attrs["auction"]) and fixed.attrs["my_call"]["policy"] == "D0"


# --- the command line ----------------------------------------------------------------------------------------------
def test_cli_text_and_json(capsys):
    base = ["odds", "bauernstoss", "--hand", TD01, "--seat", "1", "--my-call", "4 s", "--n", "40", "--seed", "3",
            "--no-progress"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "your seat making --my-call 4 s, every other seat calling by policy b0" in text
    assert "NOT policy b0's call, which is 5 in clubs" in text and "(mine: the suit of --my-call 4 s)" in text
    assert main([*base, "--json"]) == 0
    mine = json.loads(capsys.readouterr().out)["auction"]["my_call"]
    assert (mine["call"], mine["kind"], mine["n"], mine["suit"], mine["policy_call"], mine["same_as_policy"]) == \
        ("4 s", "number", 4, "s", "5 c", False)
    spec = lookup("odds", "bauernstoss")
    frame = spec.frame(command_parser("odds", "bauernstoss", spec).parse_args(base[2:])).set_index("estimate")
    assert frame.loc["auction.i_choose", "n"] == 40


@pytest.mark.parametrize("hand, extra, message", [
    (TD01, ["--my-call", "4 c"], "§4.5: a number bid equals the trumps the bidder would hold; seat 1 would hold 5 "
                                 "with clubs trumps, not 4; calls open to you as forehand: 5 c, 4 s, 4 h, 4 d"),
    (TD01, ["--my-call", "4"], "4 trumps come with s or h or d; write the number and the suit"),
    (TD01, ["--my-call", "pass"], "§4.4 forced opening"),
    (TD01, ["--seat", "3", "--calls", "pass,pass", "--my-call", "pass"], "§4.4 forced opening: seat 3 holds 3 jack(s) "
     "and nobody has bid yet, so it must bid a number (or call a solo if eligible); calls open to you after --calls: "
     "5 c, 4 s, 4 h, 4 d"),
    (TD01, ["--my-call", "6"], "you hold 5 with c, 4 with s, 4 with h, 4 with d; write the number and the suit, e.g. "
     "'5 c'"),
    (TD01, ["--my-call", "mit s"], "§4.5: mit equals an earlier number, and nobody has bid one"),
    (TD01, ["--my-call", "big solo c"], "§4.7: only the holder of the club jack may call a solo"),
    ("cB sB hB cA cT sK h7 d8", ["--my-call", "big solo c", "--first-hand"], "§4.7: no solo in the first hand"),
    ("cB sB hB dB c8 h7 h9 d7", ["--my-call", "small solo h"], "§4.3 / §4.7: with all four jacks only Big Solo"),
    ("cB sB hB dB c8 h7 h9 d7", ["--my-call", "small solo h", "--variant", "AS"], "AS-10: Alter Schoofkopp has no"),
    (TD01, ["--seat", "2", "--my-call", "4 s"], "add --calls with the calls of seat 1, e.g. --calls \"4\""),
    (TD01, ["--seat", "2", "--calls", "5", "--my-call", "4 s"],
     "§4.5: a new number must exceed the highest bid 5 (say mit to equal it); calls open to you after --calls: "
     "mit c, pass"),
    (TD01, ["--seat", "2", "--calls", "4", "--my-call", "mit h"],
     "§4.6 mit legality: seat 2's lowest hearts trump (7) cannot win the tie-break; mit needs at least 8 (option "
     "mit_rule=advisory drops this test"),
    ("sB hB hA hT hK h9 s7 d8", ["--seat", "2", "--variant", "DS", "--calls", "5", "--my-call", "pass"],
     "DS-4: seat 2 holds a potential trump suit of 6 and must announce it; calls open to you after --calls: 6 h"),
    (TD01, ["--my-call", "foo"], "'foo' is not a call: write a number and the suit in mind ('4 s')"),
    (TD01, ["--my-call", "pass s"], "a pass names no suit"),
    (TD01, ["--my-call", "mit"], "name the suit after the call, e.g. 'mit s'"),
])
def test_illegal_calls_are_one_line_with_exit_2(hand, extra, message, capsys):
    args = ["odds", "bauernstoss", "--hand", hand, "--n", "10", "--no-progress", *extra]
    if "--seat" not in extra:
        args += ["--seat", "1"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_mit_under_the_advisory_rule_is_played():
    """mit_rule=advisory (§8 A2) lets the lowest heart 7 say mit after seat 1's 4; seat 1 speaks earlier and wins
    every tie with it (§4.9), so I never choose."""
    frame = api.odds(TD01, 2, n=60, seed=3, calls="4", my_call="mit h", rules=(("mit_rule", "advisory"),), **RUN)
    part = _auction(frame)
    assert part["i_choose"] == 0 and part["my_showdown"] == 1 and part["win_showdown"] == 0
