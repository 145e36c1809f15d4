"""Pinochle bid analysis (spec shared/rules/pinochle3.md §4.7 discard, §6 scoring, §9.1 Q2-Q4): the
best discard against its plain reference, the bidder's outcomes, the auction policy, self-play games,
and the ``odds``, ``thresholds`` and ``match`` commands (JSON contracts, run-split invariance, bad input)."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3_bid as naive
from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_play as play

HAND = "HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 D9"
DEFAULT = play.rule_options()


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- discard (R4.7) ---------------------------------------------------------------------------------
@settings(max_examples=5)
@given(st.permutations(range(48)), st.integers(0, 3))
def test_best_discard_matches_reference(pack, trump):
    cards = sorted(pack[:18])
    d = bid.best_discard(cards, trump)
    key, t, meld, buried = naive.best_discard(cards, [trump])
    assert (d.trump, d.meld, d.buried) == (t, meld, buried)
    assert len(d.discards) == 3 and sorted(d.discards + d.kept) == cards
    assert key[0] == d.meld + d.buried


def test_best_discard_over_every_trump_matches_reference():
    cards = sorted(np.random.default_rng(4).permutation(48)[:18].tolist())
    d = bid.best_discard(cards)
    _, t, meld, buried = naive.best_discard(cards)
    assert (d.trump, d.meld, d.buried) == (t, meld, buried)


def test_discard_buries_counters_outside_meld():
    """R4.7c / §9.6 tip 1: with a rope and aces around kept, the three spare counters are buried (30)."""
    cards = p3.DECK.parse_cards("HA H10 HK HQ HJ SA DA CA SK D10 CK S9 D9 C9 SJ CJ DQ C10", "cards")
    d = bid.best_discard(cards)
    assert p3.DECK.suits[d.trump] == "H" and d.meld == 250 and d.buried == 30
    assert p3.DECK.format_cards(d.discards) in {"SK D10 CK", "SK D10 C10", "SK CK C10", "D10 CK C10"}


def test_discard_bad_input():
    with pytest.raises(CardsimError, match="18 cards"):
        bid.discards(np.array([(1 << 17) - 1], dtype=np.uint64))
    with pytest.raises(CardsimError, match="trump"):
        bid.best_discard(range(18), 5)


# --- the bidder's outcomes ------------------------------------------------------------------------------
def test_bidder_outcomes_invariants():
    job = bid.BidderJob()
    from simcore.dealing import deal
    from simcore.rng import block_words

    slots = deal(job.spec, block_words(3, 0, 200, job.spec.words_per_deal))
    o = bid.bidder_outcomes(slots, dd_tricks=1)
    kept = (slots[:, 0] | slots[:, 3])
    assert ((o["greedy"] >= o["buried"]) & (o["greedy"] <= 250) & (o["greedy"] % 10 == 0)).all()
    assert ((o["dd"] >= o["buried"]) & (o["dd"] <= 250)).all()
    assert (o["meld"] >= 0).all() and (o["meld"] + o["buried"] >= o["meld_before"]).all()
    full, _ = p3.best_meld(kept)
    assert (o["meld"] <= full).all()  # the 18-card meld bounds the kept 15 (spec §9.3)


@pytest.mark.parametrize("job", [bid.BidderJob(api.parse_holding(HAND), dd_tricks=2), bid.ThresholdJob(),
                                 bid.GameJob("bold", "cautious")], ids=["odds", "thresholds", "games"])
def test_jobs_do_not_depend_on_the_split(job):
    n = 3 * job.block_size // 2 if job.block_size > 100 else 3
    if isinstance(job, bid.ThresholdJob):
        n = 300
    whole = runner.run(job, n, 5, progress=False, checkpoint=False)
    split = runner.run(job, n, 5, chunk_deals=1, progress=False, checkpoint=False)
    assert np.array_equal(whole, split) and whole.sum() > 0


def test_game_counts_add_up():
    c = runner.run(bid.GameJob("standard", "bold"), 6, 2, progress=False, checkpoint=False)
    games, a_wins, b_wins, abandoned, seats_a, seats_b = c[:6]
    assert games == 6 and abandoned == 0 and a_wins + b_wins == 6 and seats_a + seats_b == 18 and seats_a == 9
    # per game a holds 1 or 2 seats (3 games each): the cluster sums behind the win-rate intervals
    assert c[12] == 3 * 1 + 3 * 4 and c[13] == 3 * 4 + 3 * 1
    assert a_wins <= c[14] <= 2 * a_wins and b_wins <= c[15] <= 2 * b_wins


def test_abandoned_games_are_no_trials_of_the_win_rate(monkeypatch):
    monkeypatch.setattr(bid, "MAX_HANDS", 10)  # some games reach 1500 within 10 hands, others do not
    c = runner.run(bid.GameJob("standard", "bold"), 12, 3, progress=False, checkpoint=False)
    games, a_wins, b_wins, abandoned, seats_a, seats_b = c[:6]
    assert 0 < abandoned < games and a_wins + b_wins == games - abandoned
    assert seats_a + seats_b == p3.SEATS * (games - abandoned)  # seats of finished games only
    frame = api.match("standard", "bold", 12, 3, progress=False, checkpoint=False)
    assert frame.attrs["abandoned"] == abandoned
    assert frame.seat_games.tolist() == [seats_a, seats_b]
    assert frame.win_p.tolist() == [a_wins / seats_a, b_wins / seats_b]


# --- auction policy (R4.2, V2, V3) ------------------------------------------------------------------
@pytest.mark.parametrize("limits, options, expected", [
    ((0, 250, 0), {}, (1, 250)),          # B1 shape: dealer 0, seat 1 opens, the others pass
    ((0, 0, 0), {}, (None, 0)),           # B2: all pass
    ((300, 270, 0), {}, (0, 280)),        # seat 1 opens 250, seat 2 passes, 0 and 1 raise by 10
    ((0, 0, 0), {"dealer_stuck": True}, (0, 250)),  # B6 / V3: the dealer must bid 250
    ((0, 0, 0), {"forced_open": True}, (1, 250)),   # V2: the dealer's left must open
])
def test_policy_auction(limits, options, expected):
    assert bid.auction(limits, 0, {**DEFAULT, **options}) == expected


@settings(max_examples=20)
@given(st.permutations(range(48)))
def test_intended_trump_matches_reference(pack):
    hands = np.array([p3.DECK.mask(pack[15 * s:15 * (s + 1)]) for s in range(3)], dtype=np.uint64)
    melds, trumps, lengths = bid.intended_trumps(hands)
    expected = [naive.intended_trump(pack[15 * s:15 * (s + 1)]) for s in range(3)]
    assert list(zip(melds.tolist(), trumps.tolist(), lengths.tolist())) == expected


def test_policy_trump_is_the_longest_of_equally_good_suits():
    """Aces around (100) under every trump and nothing else: spades come first in S H D C order, but the policies
    count the 7 clubs."""
    cards = p3.DECK.parse_cards("SA S10 HA H10 HK DA D10 DK CA CA C10 C10 CJ CJ CK")
    hands = [p3.DECK.mask(cards)] * 3  # a list, as a caller may give it
    assert [p3.meld_points(hands[:1], t)[0] for t in range(4)] == [100] * 4 and p3.best_meld(hands[:1])[1][0] == 0
    assert [a.tolist() for a in bid.intended_trumps(hands[:1])] == [[100], [3], [7]]
    standard = bid.bid_policy("standard")
    assert bid.max_bids([standard] * 3, hands).tolist() == [100 + 60 + 5 * 13 + 5 * 7] * 3  # 13 counters: 260


def test_unknown_bidding_policy():
    with pytest.raises(CardsimError, match="unknown bidding policy 'wild'"):
        bid.GameJob("wild", "bold")


# --- commands ---------------------------------------------------------------------------------------------
def test_odds_json_contract(capsys):
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "64", "--seed", "3", "--bids",
                           "250:500:50", "--dd-tricks", "2", "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["n"] == 64 and data["meld_by_trump"]["H"] == 330
    assert [r["bid"] for r in data["make"]] == [250, 300, 350, 400, 450, 500]
    for r in data["make"]:
        assert r["greedy_lo"] <= r["greedy_p"] <= r["greedy_hi"] and r["dd_lo"] <= r["dd_p"] <= r["dd_hi"]
    assert data["make"][0]["greedy_p"] == 1.0  # meld 330 alone makes 250
    assert data["kitty_gain"]["mean"] >= 0 and len(data["trump_named"]) == 4


def test_odds_with_known_kitty_shows_the_discard():
    tables = api.odds(HAND, trump="H", kitty="SK DK CK", bids=(300,), n=16, seed=1, dd_tricks=0, progress=False,
                      checkpoint=False)
    d = tables["discard"].iloc[0]
    cards = api.parse_holding(HAND) + p3.DECK.parse_cards("SK DK CK", "kitty")
    key = naive.best_discard(cards, [1])[0]  # 80 kings kept: bury HA D9 C9 (meld 430 + 10)
    assert d.trump == "H" and d.meld + d.buried == key[0] == 440
    assert tables["trump"].set_index("trump").loc["H", "p"] == 1.0
    assert "dd_p" not in tables["make"]
    assert "best discard with kitty" in api.format_odds(tables)


def test_thresholds_json(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "4096", "--seed", "1", "--no-progress", "--json")
    data = json.loads(out)
    by_meld = data["tables"]["by_meld"]
    assert code == 0 and data["n"] == 4096 and sum(r["n"] for r in by_meld) <= 4096
    assert all(r["bid50"] is None or r["bid50"] >= 250 for r in by_meld)
    made = [r["bid50"] for r in by_meld if r["bid50"] is not None]
    assert made[0] < made[-1]  # more meld, higher threshold (greedy play, classes of 20 points)
    assert all(r["ev_vs_pass"] is None or r["ev_vs_pass_lo"] <= r["ev_vs_pass"] <= r["ev_vs_pass_hi"]
               for r in by_meld)
    assert all(r["ev_pass_lo"] <= r["ev_pass"] <= r["ev_pass_hi"] for r in by_meld)


def test_match_json(capsys):
    code, out, _ = run_cli(capsys, "match", "pinochle3", "--a", "bold", "--b", "never", "--games", "6", "--seed", "2",
                           "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 6
    for side in "ab":
        w = data[side]["win_rate"]
        assert w["lo"] <= w["p"] <= w["hi"] and set(data[side]["points_per_deal"]) == {"mean", "lo", "hi"}
    assert data["b"]["win_rate"]["p"] <= data["a"]["win_rate"]["p"]


def test_match_options_reach_the_games():
    """V9 target 1000 and V4 nines rule: shorter games to the lower target."""
    short = api.match("bold", "bold", 6, 4, {"target": 1000, "nines_rule": "6_any"}, progress=False, checkpoint=False)
    assert short.attrs["target"] == 1000 and short.attrs["games"] == 6
    assert "games to 1000" in api.format_match(short)


@pytest.mark.parametrize("argv, message", [
    (["odds", "pinochle3", "--hand", HAND, "--bids", "255"], "not a multiple of 10"),
    (["odds", "pinochle3", "--hand", HAND, "--bids", "240,250"], "below the minimum bid 250"),
    (["odds", "pinochle3", "--hand", "HA HA H10"], "--hand must list"),
    (["odds", "pinochle3", "--hand", HAND.replace("HQ HJ", "HA HJ")], "HA is given 3 times"),
    (["odds", "pinochle3", "--hand", HAND, "--kitty", "SK"], "--kitty must list 3 cards, got 1"),
    (["odds", "pinochle3", "--hand", HAND, "--kitty", "HA SK DK"], "HA is given 3 times (--hand twice, --kitty)"),
    (["odds", "pinochle3", "--hand", HAND, "--rule", "modern"], "option play_rule"),
    (["odds", "pinochle3", "--hand", HAND, "--bids", "x"], "--bids must look like"),
    (["match", "pinochle3", "--a", "bold", "--b", "wild"], "unknown bidding policy"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "target=905"],
     "option target cannot be 905; choose one of (any whole number from 10 to 10,000 in steps of 10)"),
    (["match", "pinochle3", "--a", "bold", "--b", "bold", "--option", "target"], "--option expects NAME=VALUE"),
])
def test_bad_input(capsys, argv, message):
    code, _, err = run_cli(capsys, *argv, "--n", "8", "--no-progress")
    assert code == 2 and message in err and err.count("\n") == 1
