"""Bauernstoss runner jobs and commands: reproducible streams, §9.3 reference values, odds, thresholds,
match, auction policies, bad input."""

import json
import math

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs

TD01 = "sB hB dB cA cT sK h7 d8"


def run(job, n, seed=1, **kw):
    return runner.run(job, n, seed, checkpoint=False, progress=False, **kw)


def test_deals_partition_the_pack_and_keep_known_cards():
    hands = jobs.deal_hands(3, 0, 500)
    assert hands.shape == (500, 4)
    assert all(int(np.bitwise_or.reduce(h)) == bs.DECK.full_mask and all(bin(int(x)).count("1") == 8 for x in h)
               for h in hands)
    known = bs.DECK.parse_cards(TD01)
    fixed = jobs.deal_hands(3, 0, 200, jobs.deal_spec({2: tuple(known)}))
    assert (fixed[:, 2] == bs.DECK.mask(known)).all()
    assert (jobs.deal_hands(3, 1, 10) != hands[:10]).any()  # another block, another stream


def test_same_totals_for_any_chunking():
    """Same seed -> same counts whatever the chunk size or number of workers (spec of simcore.runner)."""
    job = jobs.OddsJob(tuple(bs.DECK.parse_cards(TD01)), 1, (jobs.Option(bs.NUMBER, 1),), "greedy")
    one = run(job, 700)
    assert (run(job, 700, chunk_deals=256) == one).all()
    assert (run(job, 700, chunk_deals=512, jobs=2) == one).all()
    assert (run(job, 700, seed=2) != one).any()


def test_hand_job_random_play_matches_spec_9_3(scale):
    """§9.3 whole hand, policy B0 + random play (BS): E[maker points] 79.98, P(maker >= 61) 0.8100,
    throw-in rate 7/899; within 4 standard errors."""
    n = int(3000 * scale)
    parts = jobs.HandJob.unpack(run(jobs.HandJob("random"), n, seed=101))
    hist = parts["points"].sum(axis=(0, 1))
    played = int(hist.sum())
    assert played + parts["throw_ins"] == parts["deals"] == n
    values = np.arange(hist.size)
    mean = (hist * values).sum() / played
    sd = math.sqrt((hist * values ** 2).sum() / played - mean ** 2)
    assert abs(mean - 79.98) < 4 * sd / math.sqrt(played)
    p61 = hist[61:].sum() / played
    assert abs(p61 - 0.81) < 4 * math.sqrt(0.81 * 0.19 / played)
    assert abs(parts["throw_ins"] / n - 7 / 899) < 4 * math.sqrt(0.0078 / n) + 1e-3
    assert parts["points"][0].sum() == 0  # the chooser always holds a jack (§4.3)


def test_policies_are_legal_and_differ():
    rng = np.random.default_rng(5)
    opts = bs.rule_options()
    for _ in range(200):
        hands = [bs.DECK.mask(h) for h in np.split(rng.permutation(32), 4)]
        for name, policy in jobs.AUCTION_POLICIES.items():
            auction = bs.Auction(hands, 0, False, opts)
            while not auction.done:
                call = jobs.policy_call(policy, auction)
                assert auction.illegal(call) is None, name
                if name == "cautious":
                    assert call.kind in (bs.PASS, bs.NUMBER)
                auction.call(call)
    # seven trumps with the club jack: the aggressive policy calls Big Solo, b0 bids a number
    hand = bs.DECK.mask(bs.DECK.parse_cards("cB sB hA hT hK h9 h8 s7"))
    rest = [c for c in range(32) if not (hand >> c) & 1]
    hands = [bs.DECK.mask(rest[:8]), hand, bs.DECK.mask(rest[8:16]), bs.DECK.mask(rest[16:])]
    auction = bs.Auction(hands, 0, False, opts)
    assert jobs.policy_call(jobs.AUCTION_POLICIES["aggressive"], auction).kind == bs.BIG_SOLO
    assert jobs.policy_call(jobs.AUCTION_POLICIES["b0"], auction) == bs.Call(bs.NUMBER, 7, 2)
    assert jobs.policy_call(jobs.AUCTION_POLICIES["aggressive"], bs.Auction(hands, 0, True, opts)).kind == bs.NUMBER


def test_hand_strokes_follow_the_chalk_table():
    """§6.2/§6.3: chalk team 42+ scores 1 (2 schneider, 3 schwarz), else the other team; solos 8/12."""
    state = bs.GameState(chalk=1, first_hand=False)
    assert bs.hand_strokes(state, bs.HandResult(points=78, tricks=6)) == (1, 1)  # team 1 has 42
    assert bs.hand_strokes(state, bs.HandResult(points=79, tricks=6)) == (0, 1)
    assert bs.hand_strokes(state, bs.HandResult(points=100, tricks=6)) == (0, 2)
    assert bs.hand_strokes(state, bs.HandResult(points=120, tricks=8)) == (0, 3)
    first = bs.GameState()
    assert bs.hand_strokes(first, bs.HandResult(points=20, tricks=1, club_jack=1)) == (1, 2)
    assert bs.hand_strokes(state, bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True)) == (0, 12)
    assert bs.hand_strokes(state, bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=False)) == (1, 8)
    assert bs.hand_strokes(state, bs.HandResult(bs.THROW_IN)) == (0, 0)


def test_match_counts_and_duplicate_symmetry():
    """A policy against itself: every game has a winner, each seat order is played once per pair."""
    counts = dict(zip(jobs.MATCH_STATS, run(jobs.MatchJob("b0", "b0"), 3, seed=4)))
    assert counts["a_wins"] + counts["b_wins"] == 6 and counts["deals"] > 6
    assert counts["a_strokes"] >= 20 * counts["a_wins"] and counts["b_strokes"] >= 20 * counts["b_wins"]
    # the duplicate pair of identical policies scores identically on both sides
    assert counts["a_wins"] == counts["b_wins"] and counts["a_strokes"] == counts["b_strokes"]
    # a pair's games have one winner each, so a side wins 0, 1 or 2 games of a pair
    assert counts["a_wins"] <= counts["a_wins_sq"] <= 2 * counts["a_wins"]


def test_odds_td01_promotion_suit(scale):
    """TD-01 / §9.1 Q4: with sB hB dB cA cT sK h7 d8 the hand may bid 5 (clubs) or 4 (spades, hearts,
    diamonds); the source prefers spades, where cA and cT stay side winners and sK becomes a trump."""
    frame = api.odds(TD01, seat=1, n=int(800 * scale), seed=3, checkpoint=False, progress=False)
    assert list(frame.call) == ["number"] * 4
    assert dict(zip(frame.trump, frame.trumps)) == {"c": 5, "s": 4, "h": 4, "d": 4}
    by = frame.set_index("trump")
    assert by.loc["s", "points_lo"] > by.loc["c", "points_hi"]
    assert (frame.p42 >= frame.p79).all() and (frame.p79 >= frame.p91).all()
    assert ((frame.p42_lo <= frame.p42) & (frame.p42 <= frame.p42_hi)).all()


def test_odds_lists_solos_and_solves_double_dummy():
    dd = api.odds(TD01, seat=1, method="dd", n=2, seed=1, checkpoint=False, progress=False)
    assert list(dd.n) == [2] * 4 and dd.points.between(0, 120).all()
    hand = "cB sB hA hT hK h9 h8 s7"
    frame = api.odds(hand, seat=3, n=20, seed=1, checkpoint=False, progress=False)
    kinds = list(zip(frame.call, frame.trump))
    assert ("number", "h") in kinds and ("small solo", "h") in kinds and ("big solo", "d") in kinds
    assert frame[frame.call == "number"].p_solo.isna().all() and frame[frame.call != "number"].p42.isna().all()
    first = api.odds(hand, seat=3, n=20, seed=1, first_hand=True, checkpoint=False, progress=False)
    assert set(first.call) == {"number"}  # §4.7 no solo in a game's first hand
    four = api.call_options(bs.DECK.parse_cards("cB sB hB dB hA hT hK h9"))
    assert {o.kind for o in four} == {bs.BIG_SOLO}  # §4.3: four jacks, Big Solo or pass


@pytest.mark.parametrize("hand, seat, play, message", [
    ("sB hB dB cA cT sK h7", 1, "greedy", "must list 8 cards"),
    ("sB hB dB cA cT sK h7 h7", 1, "greedy", "given 2 times"),
    ("sB hB dB cA cT sK h7 x9", 1, "greedy", "is not a card"),
    (TD01, 4, "greedy", "--seat must be"),
    (TD01, "one", "greedy", "--seat must be"),
    (TD01, 1, "best", r"method \(--play\) must be"),
])
def test_odds_bad_input(hand, seat, play, message):
    with pytest.raises(CardsimError, match=message):
        api.odds(hand, seat, play, n=10, seed=1)


def test_four_jacks_in_first_hand_has_no_call():
    cards = bs.DECK.parse_cards("cB sB hB dB hA hT hK h9")
    assert api.call_options(cards, first_hand=True) == []
    assert "all four jacks in a game's first hand" in api.pass_rule(cards, first_hand=True)
    with pytest.raises(CardsimError, match="^this hand has calls"):  # a Big Solo outside the first hand
        api.pass_rule(cards)  # said "all four jacks in a game's first hand"


def test_thresholds_table(scale):
    frame = api.thresholds("greedy", n=int(1500 * scale), seed=2, min_n=1, checkpoint=False, progress=False)
    assert set(frame.jacks) <= {1, 2, 3, 4} and frame.n.sum() <= frame.attrs["n"]
    assert (frame.p42 >= frame.p79).all() and (frame.p79 >= frame.p91).all()
    assert frame.trumps.min() >= 3  # a bidder always has a suit of 3 or more (§4.5)
    assert set(frame.advice) <= {"big solo", "raise / mit", "bid when forced; mit with the chalk",
                                 "pass when allowed", "pass (4 jacks: big solo or pass, §4.3)"}
    solos = frame[frame.solo_n > 0]
    assert (solos.p_solo_dd == solos.p_solo_dd).all() and (frame[frame.jacks == 4].advice != "raise / mit").all()


@pytest.mark.parametrize("p_solo_dd, jacks, advice", [(0.6, 4, "big solo"), (0.2, 4, "pass (4 jacks: big solo or pass, "
                                                      "§4.3)"), (0.2, 3, "raise / mit"), (0.6, 2, "big solo")])
def test_threshold_advice_follows_the_double_dummy_solo_and_four_jacks(p_solo_dd, jacks, advice):
    """§4.3: with all four jacks only Big Solo or pass (BS); the solo advice reads the double-dummy figure."""
    row = {"p_solo": 0.9, "p_solo_dd": p_solo_dd, "jacks": jacks, "p79": 0.7, "p42": 0.9, "p61": 0.8}
    assert api.advice(row, "BS") == advice
    assert api.advice({**row, "jacks": 4}, "AS") in ("big solo", "raise / mit")  # AS-5: four jacks may bid


def test_cli_odds_thresholds_match_json(capsys):
    assert main(["odds", "bauernstoss", "--hand", TD01, "--seat", "1", "--n", "50", "--seed", "1", "--json",
                 "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["n"] == 50 and [c["trump"] for c in data["calls"]] == ["c", "s", "h", "d"]
    assert set(data["calls"][0]) >= {"p42", "p79", "p91", "points"}
    assert main(["thresholds", "bauernstoss", "--n", "300", "--seed", "1", "--json", "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["rows"]
    assert main(["match", "bauernstoss", "--a", "aggressive", "--b", "cautious", "--games", "2", "--seed", "1",
                 "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 2 and set(data["a"]) == {"policy", "win_rate", "points_per_deal"}
    assert set(data["a"]["win_rate"]) == {"p", "lo", "hi"}


@pytest.mark.parametrize("argv", [
    ["odds", "bauernstoss", "--hand", "sB hB", "--no-progress"],
    ["odds", "bauernstoss", "--hand", TD01, "--seat", "7", "--no-progress"],
    ["match", "bauernstoss", "--a", "b0", "--b", "bold", "--games", "2", "--no-progress"],
    ["match", "bauernstoss", "--a", "b0", "--b", "b0", "--games", "0", "--no-progress"],
])
def test_cli_bad_input_exits_2(capsys, argv):
    assert main(argv) == 2
    assert "cardsim: error:" in capsys.readouterr().err


def test_first_hand_chalk_team_scores_as_spec_9_3(scale):
    """§9.3 first hand of a BS game, B0 auction and random play: the chalk (club-jack) team scores
    with P = 0.8388 and scores +3 with P = 0.0356; within 4 standard errors."""
    from simcore.games import bauernstoss_play as play
    from simcore.rng import block_substream

    n = int(2000 * scale)
    opts = bs.rule_options()
    rng = block_substream(9, 0, 1)
    scored = three = 0
    for hands in jobs.deal_hands(9, 0, n):
        _, _, result = play.play_hand(bs.GameState(), [int(h) for h in hands], opts, rng)
        team, strokes = bs.hand_strokes(bs.GameState(), result)
        if result.kind != bs.THROW_IN and team == result.club_jack:
            scored += 1
            three += strokes == 3
    assert abs(scored / n - 0.8388) < 4 * math.sqrt(0.8388 * 0.1612 / n)
    assert abs(three / n - 0.0356) < 4 * math.sqrt(0.0356 * 0.9644 / n) + 1 / n
