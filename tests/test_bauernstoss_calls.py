"""`odds bauernstoss --calls`: the deals conditioned on the calls made before my seat (spec §9.1 Q5 "calls so
far"). The accept predicate against a plain reference auction written from §4 and the §9.3 baseline B0, the
rejection sampling (`jobs.conditioned_hands`), one-line errors with exit code 2, today's numbers without calls,
conditioning that moves P(I choose) the obvious way, and the same numbers whatever --jobs and --chunk-size."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import command_parser, main
from analysis.commands import LONG_COLUMNS, lookup
from analysis.games import bauernstoss as api
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs

TD01 = "sB hB dB cA cT sK h7 d8"
WEAK = "dB c7 c8 s7 s8 h7 h9 d7"
"""One jack, at most 3 trumps in any suit, a 7 in every suit but hearts' 9 (lowest heart 7 too)."""
THREES = "dB sA sT cA cT hA hT d7"
"""One jack, 3 trumps in spades, clubs or hearts, each with a ten as its lowest card."""
RUN = dict(progress=False, checkpoint=False)


# --- a plain reference: the B0 calls (§9.3) of the seats before mine, straight from §1.2 and §4 --------------------
LOW = {"7": 0, "8": 1, "9": 2, "D": 3, "K": 4, "T": 5, "A": 6}
"""§1.2 lowest-card scale of plain cards; a jack ranks dB 7, hB 8, sB 9, cB 10."""


def _cards(hand: int) -> list[tuple[str, str]]:
    """(suit letter, rank letter) of every card of a hand mask."""
    return [(bs.DECK.suits[c // 8], bs.DECK.ranks[c % 8]) for c in range(32) if hand >> c & 1]


def _proposal(hand: int, variant: str) -> tuple[int, int, int]:
    """(jacks, L, low) of the suit B0 proposes: most trumps, then the highest lowest card, then c > s > h > d."""
    cards = _cards(hand)
    jacks = [s for s, r in cards if r == "B"]
    best = None
    for order, suit in enumerate("cshd"):
        plain = [LOW[r] for s, r in cards if s == suit and r != "B"]
        length = len(jacks) + len(plain)
        low = min(plain) if plain else min((10 - "cshd".index(s) for s in jacks), default=-1)
        key = (length, low, -order)
        if best is None or key > best[0]:
            best = (key, length, low)
    return len(jacks), best[1], best[2]


def reference_calls(hands, seat: int, variant: str = "BS") -> list[tuple[str, int]]:
    """The calls (kind, n) the seats before ``seat`` make under B0 (dealer 0, forehand 1 speaks first): a seat
    without a jack passes (§4.3), in BS one with four jacks too (Big Solo or pass, B0 calls no solo); else it bids
    its proposal's length when that beats cur (§4.4, §4.5), says mit when the length equals cur and its lowest card
    beats every opposing earlier bidder of cur (§4.6; AS: every earlier bidder, AS-6), else passes. DS (DS-3, DS-4):
    the longest suit from 5 trumps is bid unless an earlier bid is higher."""
    cur, at_cur, known = 0, [], {}
    out = []
    for q in (1, 2, 3, 0)[:(1, 2, 3, 0).index(seat)]:
        jacks, length, low = _proposal(int(hands[q]), variant)
        if variant == "DS":
            call = ("number", length) if length >= 5 and length >= cur else ("pass", 0)
        elif jacks == 0 or (jacks == 4 and variant == "BS"):
            call = ("pass", 0)
        elif length > cur:
            call = ("number", length)
        else:
            rivals = [r for r in at_cur if variant == "AS" or r % 2 != q % 2]
            need = max([0] + [known[r] + 1 for r in rivals])
            call = ("mit", 0) if length == cur and low >= need else ("pass", 0)
        kind, n = call
        if kind == "number" and n > cur:
            cur, at_cur, known[q] = n, [q], 0
        elif kind in ("number", "mit"):
            known[q] = max([0] + [known[r] + 1 for r in at_cur if variant == "AS" or r % 2 != q % 2])
            at_cur.append(q)
        out.append(call)
    return out


WORDS = [("pass", 0), ("mit", 0)] + [("number", n) for n in range(3, 9)]


@settings(max_examples=150)
@given(order=st.permutations(range(32)), seat=st.sampled_from([2, 3, 0]), variant=st.sampled_from(["BS", "AS", "DS"]),
       other=st.lists(st.sampled_from(WORDS), min_size=3, max_size=3))
def test_accept_predicate_matches_the_reference(order, seat, variant, other):
    hands = np.array([sum(1 << c for c in order[8 * s:8 * s + 8]) for s in range(4)], dtype=np.uint64)
    truth = reference_calls(hands, seat, variant)
    k = len(truth)
    made = jobs.CallsCondition(seat, tuple(truth), variant)
    assert made.accepts(hands) and made(hands[None, :])[0]
    guess = tuple(other[:k])
    cond = jobs.CallsCondition(seat, guess, variant)
    assert cond.accepts(hands) == (list(guess) == truth) == bool(cond(hands[None, :])[0])


def test_block_predicate_equals_the_plain_one_on_dealt_blocks():
    cards = tuple(bs.DECK.parse_cards(WEAK))
    block = jobs.deal_hands(3, 0, 2000, jobs.deal_spec({0: cards}))
    for calls in ((("number", 4), ("pass", 0), ("mit", 0)), (("pass", 0), ("number", 3), ("number", 4)),
                  (("number", 3), ("pass", 0), ("number", 4))):
        cond = jobs.CallsCondition(0, calls)
        plain = np.array([cond.accepts(h) for h in block])
        assert (cond(block) == plain).all() and plain.any()
        assert [reference_calls(h, 0) == list(calls) for h in block] == list(plain)


def test_rejection_sampling_keeps_the_first_accepted_deals():
    cards = tuple(bs.DECK.parse_cards(WEAK))
    spec = jobs.deal_spec({3: cards}, jobs.calls_accept(3, (("number", 4), ("pass", 0))))
    hands, tried = jobs.conditioned_hands(9, 1, 200, spec)
    more, tried_more = jobs.conditioned_hands(9, 1, 256, spec)
    assert (more[:200] == hands).all() and tried < tried_more
    candidates = jobs.deal_hands(9, 1, tried_more, jobs.deal_spec({3: cards}))
    keep = [h for h in candidates if reference_calls(h, 3) == [("number", 4), ("pass", 0)]]
    assert (np.array(keep) == more).all() and (candidates[tried_more - 1] == more[-1]).all()
    plain, n = jobs.conditioned_hands(9, 1, 100, jobs.deal_spec({3: cards}))
    assert n == 100 and (plain == jobs.deal_hands(9, 1, 100, jobs.deal_spec({3: cards}))).all()


# --- without calls: today's numbers ----------------------------------------------------------------------------------
TODAY = {1: ({"i_choose": 294, "partner_chooses": 2, "opponent_chooses": 4, "showdown": 16, "score.all": 250},
             {"c": (249, 20567), "s": (287, 23928), "h": (286, 23433), "d": (289, 23654)}),
         3: ({"i_choose": 298, "partner_chooses": 1, "opponent_chooses": 1, "showdown": 27, "score.all": 251},
             {"c": (251, 18669), "s": (294, 23646), "h": (290, 22657), "d": (297, 23093)})}
"""`odds bauernstoss --hand TD01 --seat 1/3 --n 300 --seed 11` before --calls existed (counts of the JSON:
auction estimates, and per number row P(>=42) and the sum of card points)."""


@pytest.mark.parametrize("seat", [1, 3])
def test_no_calls_gives_todays_numbers(seat):
    frame = api.odds(TD01, seat, n=300, seed=11, **RUN)
    part = frame.attrs["auction"].set_index("estimate")
    auction, rows = TODAY[seat]
    assert {k: round(part.loc[k, "p"] * 300) for k in auction} == auction
    assert {r.trump: (round(r.p42 * 300), round(r.points * 300)) for r in frame.itertuples()} == rows
    assert frame.attrs["calls"] is None
    same = api.odds(TD01, seat, n=300, seed=11, calls="" if seat == 1 else None, **RUN)
    assert same.equals(frame) and same.attrs["auction"].equals(frame.attrs["auction"])
    job = jobs.AuctionOddsJob(tuple(bs.DECK.parse_cards(TD01)), seat, chalk=1)
    assert "calls=" not in job.key() and job.unpack(job.run_block(11, 0, 40))[0]["tried"] == 40


# --- conditioning matters ------------------------------------------------------------------------------------------
def _choose(frame) -> tuple[float, float, float, int]:
    r = frame.attrs["auction"].set_index("estimate").loc["i_choose"]
    return r.p, r.lo, r.hi, int(r.n)


def test_an_earlier_bid_of_four_shuts_a_weak_hand_out_and_a_three_lets_it_in():
    """Seat 2 with 3 trumps in three suits (lowest card a ten): after seat 1 bids 4 it can never choose (it cannot
    beat 4, and mit needs 4 trumps), after seat 1 bids 3 it says mit (threshold 8, §4.6) and chooses far more often
    than over all deals, where seat 1 mostly bids 4 or more."""
    plain = _choose(api.odds(THREES, 2, n=400, seed=2, **RUN))
    after_four = api.odds(THREES, 2, n=400, seed=2, calls="4", **RUN)
    after_three = _choose(api.odds(THREES, 2, n=400, seed=2, calls="3", **RUN))
    assert _choose(after_four)[0] == 0.0 and _choose(after_four)[3] == 400 and plain[0] > 0
    assert after_three[1] > plain[2] and after_three[3] == 400
    calls = after_four.attrs["calls"]
    assert calls["calls"] == ["4"] and calls["accepted"] == 400 and 400 < calls["tried"] < 400 / 0.05
    assert (after_four["n"] == 400).all()  # the rows are conditioned too, on the same accepted deals


def test_same_numbers_whatever_jobs_and_chunks():
    one = api.odds(WEAK, 3, n=300, seed=5, calls="4,pass", **RUN)
    for kw in ({"chunk_deals": 256}, {"chunk_deals": 256, "jobs": 2}):
        other = api.odds(WEAK, 3, n=300, seed=5, calls="4,pass", **kw, **RUN)
        assert one.equals(other) and one.attrs["auction"].equals(other.attrs["auction"])
        assert one.attrs["calls"] == other.attrs["calls"]


# --- the command line --------------------------------------------------------------------------------------------
def test_cli_text_and_json(capsys):
    base = ["odds", "bauernstoss", "--hand", WEAK, "--seat", "0", "--calls", "4, pass ,mit", "--n", "60", "--seed",
            "3", "--no-progress"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "Calls before you: seat 1 bid 4, seat 2 passed, seat 3 said mit;" in text and "acceptance rate" in text
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)["calls_before"]
    assert out["calls"] == ["4", "pass", "mit"] and out["seats"] == [1, 2, 3] and out["accepted"] == 60
    assert out["acceptance"] == pytest.approx(60 / out["tried"]) and out["policy"] == "b0"
    spec = lookup("odds", "bauernstoss")
    frame = spec.frame(command_parser("odds", "bauernstoss", spec).parse_args(base[2:])).set_index("estimate")
    assert list(frame.columns) == LONG_COLUMNS[1:] and frame.index.is_unique
    assert frame.loc["calls.acceptance", "n"] == out["tried"] and frame.loc["auction.i_choose", "n"] == 60


@pytest.mark.parametrize("hand, seat, calls, message", [
    (WEAK, 1, "4", "seat 1 is forehand and speaks first, so no call precedes it: drop --calls"),
    (WEAK, 3, "4", "--calls gives 1 call but seat 3 speaks third: give the calls of seats 1 and 2"),
    (WEAK, 0, "4,pass", "--calls gives 2 calls but seat 0 speaks fourth"),
    (WEAK, 3, "4,gut weg", "'gut weg' is not a call"),
    (WEAK, 3, "4,,pass", "--calls: call 2 of 3 is empty (a comma too many); give the calls of seats 1 and 2"),
    (WEAK, 3, "4,", "--calls: call 2 of 2 is empty (a comma too many)"),
    (WEAK, 2, "-3", "'-3' is not a call"),
    (WEAK, 3, "\u00b2,pass", "'\u00b2' is not a call"),  # a superscript two is a digit to str.isdigit, not a bid
    (WEAK, 2, "\u0664", "'\u0664' is not a call"),  # an Arabic-Indic four
    (WEAK, 2, "mit", "mit equals an earlier number bid and none precedes it (§4.5)"),
    (WEAK, 3, "5,4", "a new number must exceed the highest bid 5 before it (§4.5)"),
    (WEAK, 3, "4,4", "say mit to equal it"),
    (WEAK, 2, "9", "a number bid is the trumps the bidder would hold, 2-8 (§4.5)"),
    (WEAK, 2, "2", "policy b0 of the other seats never bids 2"),
    (WEAK, 2, "big solo", "a solo ends the auction at once, so you would not speak (§4.7)"),
    (WEAK, 2, "Big-Solo", "a solo ends the auction at once, so you would not speak (§4.7)"),
    ("cB c7 c8 s7 s8 h7 h9 d7", 3, "4,small_solo", "you hold the club jack, and only its holder may call a solo"),
    ("cB sB hB dB c8 h7 h9 d7", 2, "3", "you hold 4 jacks, leaving 0 for the other seats, but seat 1 bid"),
    (WEAK, 0, "pass,pass,pass", "seats 1, 2 and 3 passed before any bid, which means no jack (or all four)"),
    (WEAK, 3, "8,pass", "too rare to reach --n in reasonable time"),
])
def test_bad_calls_are_one_line_with_exit_2(hand, seat, calls, message, capsys):
    args = ["odds", "bauernstoss", "--hand", hand, "--seat", str(seat), "--calls", calls, "--n", "10", "--no-progress"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


@pytest.mark.parametrize("calls, message", [
    ("mit", "Deutscher Schafkopf has no mit; an equal length is bid as its number (DS-6)"),
    ("4", "a Deutscher Schafkopf bid is the longest suit, 5-8 trumps (DS-3, DS-4)"),
])
def test_bad_ds_calls(calls, message, capsys):
    args = ["odds", "bauernstoss", "--hand", "sB hB hA hT hK h9 s7 d8", "--seat", "2", "--variant", "DS",
            "--calls", calls, "--n", "10", "--no-progress"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_a_job_refuses_the_wrong_number_of_calls():
    with pytest.raises(CardsimError, match="needs 2 earlier call"):
        jobs.AuctionOddsJob(tuple(bs.DECK.parse_cards(WEAK)), 3, chalk=1, calls=(("number", 4),))


@pytest.mark.parametrize("low, call", [
    ("h7", "after these calls, pass (§4.6 mit legality: seat 0's lowest hearts trump (7) cannot win the tie-break; "
           "mit needs at least 8)"),
    ("h8", "after these calls, mit (4 in hearts, the showdown of §4.9 decides)"),
])
def test_your_call_line_is_the_call_after_the_calls(low, call):
    """Spec TD-05: after 4, pass, mit the dealer may say mit only with a lowest trump that can win the tie (§4.6);
    the "your call" line gives that call, not the suit the hand would open with."""
    frame = api.odds(f"cB hA hK {low} sA sT dA d8", seat=0, calls="4,pass,mit", n=64, seed=7)
    assert frame.attrs["plan"] == call


def test_calls_no_longer_open_are_marked(capsys):
    """After seat 1 bid 5, a 3-trump suit is neither a higher number nor mit (§4.5): its row is marked, while the
    5-trump suit stays open as mit."""
    args = ["odds", "bauernstoss", "--hand", "hB dB hA hK h9 cA s7 d8", "--seat", "2", "--calls", "5", "--n", "64",
            "--seed", "7", "--no-progress"]
    assert main(args + ["--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["calls"]
    assert {(r["trump"], r["trumps"], r["open"]) for r in rows} == {("c", 3, False), ("s", 3, False), ("h", 5, True),
                                                                    ("d", 3, False)}
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "number*    c" in out and "number     h" in out and "* not open to you after the calls" in out
    assert main(["odds", "bauernstoss", "--hand", "hB dB hA hK h9 cA s7 d8", "--seat", "2", "--n", "64", "--seed",
                 "7", "--no-progress", "--json"]) == 0
    assert all("open" not in r for r in json.loads(capsys.readouterr().out)["calls"])


def test_conditioned_deals_are_sampled_once_per_block_and_handed_out_as_copies():
    """The call table's and the auction part's jobs condition the same blocks: the second gets the kept deals
    (same hands, same count of candidates tried), each caller its own copy."""
    spec = jobs.deal_spec({3: tuple(bs.DECK.parse_cards(WEAK))}, jobs.calls_accept(3, ((bs.NUMBER, 4), (bs.PASS, 0))))
    first, tried = jobs.conditioned_hands(5, 2, 64, spec)
    first[:] = 0
    again, tried_again = jobs.conditioned_hands(5, 2, 64, spec)
    fresh, tried_fresh = jobs._sample_conditioned(5, 2, 64, spec, jobs.CALLS_STREAMS, False)
    assert np.array_equal(again, fresh) and tried == tried_again == tried_fresh and again.any()
