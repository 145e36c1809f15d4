"""The pass of spec shared/rules/pinochle3.md §9.1 Q4 (EV_pass = E[defender score]) and the bid
threshold that compares with it, bid_ev = max{B : EV_bid(B) >= EV_pass}; hands per game (Q12).

* the defender's score of `pinochle3_bid.defender_outcomes` replayed by hand on fixed deals: the
  next seat's discard, a greedy line checked and scored by the plain references, the defender's
  meld by the literal meld reference, the score by R6.1-R6.3;
* `defender_scores` against `pinochle3_play.score_played` under every defenders' scoring flag;
* ``thresholds`` bid_ev / ev_pass / ev_vs_pass and ``odds`` ev_pass / ev_vs_pass against per-deal
  values computed without the count layout;
* run-split invariance (--jobs, --chunk-size), JSON and text shape, job keys, match's hands per game.
"""

import itertools
import json
import math

import numpy as np
import pytest

import naive_pinochle3
import naive_pinochle3_bid as naive_bid
import naive_pinochle3_play as naive_play
from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore import runner
from simcore.dealing import deal
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_play as play
from simcore.rng import block_words

HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
RUN = {"progress": False, "checkpoint": False}
DEFENDER_FLAGS = ("defender_needs_counter", "defender_counter_rule_on_set", "defender_keeps_last_trick_without_counter")


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def random_slots(seed: int, n: int, hand=None) -> np.ndarray:
    """The first n deals of block 0 of ``seed``: the deals the runner plays first (seat 0 holding ``hand``)."""
    job = bid.BidderJob(api.parse_holding(hand)) if hand else bid.ThresholdJob()
    return deal(job.spec, block_words(seed, 0, n, job.spec.words_per_deal))


def cards_of(mask) -> list[int]:
    return [c for c in range(48) if int(mask) >> c & 1]


# --- the defender's score replayed by hand --------------------------------------------------------------
def replayed_defender_score(slots_row) -> tuple[int, bool]:
    """(seat 0's score as a defender, the bidder made 250) of one deal (seat0, seat1, seat2, kitty),
    seat 1 bidding: worked out with the plain references only, from the engine's greedy line."""
    holding = cards_of(slots_row[1]) + cards_of(slots_row[3])
    d = bid.best_discard(holding)
    key, trump, meld, buried = naive_bid.best_discard(holding)  # the discard is the reference's best
    assert (d.trump, d.meld, d.buried) == (trump, meld, buried) and key[0] == meld + buried
    hands = [set(d.kept), set(cards_of(slots_row[2])), set(cards_of(slots_row[0]))]  # bidder, his left, seat 0
    masks = np.array([p3.DECK.mask(sorted(h)) for h in hands], dtype=np.uint64)
    line = play.play_line("greedy", masks, trump, 0, "old")
    points, counters = naive_play.replay(line, trump, "old", hands)  # legal, in turn, and scored (R5.6)
    assert sum(points) + buried == p3.TRICK_POINTS_TOTAL  # R1.5
    made = meld + points[0] + buried >= 250
    own = naive_pinochle3.meld_total([naive_bid.token(c) for c in hands[2]], "SHDC"[trump])  # R3.9b
    return points[2] + (own if counters[2] > 0 else 0), made  # R6.1: meld only with a counter (R6.3)


def test_defender_score_is_replayed_by_hand():
    slots = random_slots(7, 6)
    o = bid.defender_outcomes(slots)
    for i in range(len(slots)):
        score, made = replayed_defender_score(slots[i])
        assert (int(o["score"][i]), bool(o["made"][i])) == (score, made), i


def test_defender_score_of_a_fixed_deal():
    """One spelled-out deal: seat 0 holds a rope in hearts, but the bidder (seat 1) names spades."""
    groups = p3.DECK.parse_groups({
        "seat0": "HA H10 HK HQ HQ HJ S9 D9 DJ C9 CJ CQ D10 C10 DA",
        "seat1": "SA SA S10 S10 SK SQ SJ SJ S9 DA DK CA CK H9 HJ",
        "kitty": "SK SQ DQ"})
    rest = sorted(set(range(48)) - set(groups["seat0"]) - set(groups["seat1"]) - set(groups["kitty"]))
    row = np.array([p3.DECK.mask(groups[k]) for k in ("seat0", "seat1")] + [p3.DECK.mask(rest),
                   p3.DECK.mask(groups["kitty"])], dtype=np.uint64)
    o = bid.defender_outcomes(row[None])
    assert p3.DECK.suits[int(o["trump"][0])] == "S"  # the kitty completes a double rope in spades
    # under spades the heart rope is only a marriage (20, R3.2), plus the deece S9 (10)
    assert int(o["meld"][0]) == 30
    score, made = replayed_defender_score(row)
    assert made and (int(o["score"][0]), bool(o["made"][0])) == (score, made)


@pytest.mark.parametrize("flags", list(itertools.product((True, False), repeat=3)))
def test_defender_scores_follow_score_played(flags):
    """The vectorised defender rule equals `score_played`'s (the scalar reference) for every
    defenders' scoring flag (R6.3, A3, A4), with and without a counter, made or set."""
    options = dict(zip(DEFENDER_FLAGS, flags))
    cases = [(meld, pts, n, made) for meld in (0, 60) for pts, n in ((0, 0), (10, 0), (40, 3)) for made in (0, 1)]
    meld, pts, counters, made = (np.array(x) for x in zip(*cases))
    got = bid.defender_scores(meld, pts, counters, made.astype(bool), options)
    for (m, p, n, mk), g in zip(cases, got):
        # bidder seat 0: meld 0 and 250 - 200 trick points makes a 250 bid exactly when mk
        bidder_points = 250 if mk else 200
        ref = play.score_played(250, 0, (0, m, 0), (bidder_points, p, 0), (1, n, 0), options)
        assert ref.made == bool(mk) and g == ref.delta[1], (m, p, n, mk)


# --- bid_ev and EV_pass from per-deal values -------------------------------------------------------------
def per_deal_values(slots, options=None):
    """(meld class, bidder total T, defender score D) per deal, without the jobs' count layout."""
    o = bid.bidder_outcomes(slots, options=options)
    d = bid.defender_outcomes(slots, options=options)["score"]
    return np.minimum(o["meld_before"] // 20, bid.THRESHOLD_MELD_BINS - 1), o["meld"] + o["greedy"], d


def plain_mean_interval(y) -> tuple[float, float, float]:
    mean = sum(y) / len(y)
    se = math.sqrt(sum((v - mean) ** 2 for v in y) / (len(y) - 1) / len(y))  # the sample variance
    return mean, mean - 1.959963984540054 * se, mean + 1.959963984540054 * se


@pytest.mark.parametrize("options", [{}, {"defender_needs_counter": False, "min_bid": 300},
                                     {"defender_counter_rule_on_set": False, "min_bid": 300}])
def test_bid_ev_is_the_highest_bid_worth_passing(options):
    n = 700
    tables = api.thresholds(n, 11, options=options, **RUN)
    m, total, score = per_deal_values(random_slots(11, n), options)
    lowest = 300 if options.get("min_bid") == 300 else 250
    rows = tables["by_meld"].set_index("meld")
    checked = 0
    for k, label in enumerate(api._meld_labels(1)):
        mine = m == k
        if label not in rows.index:
            assert mine.sum() < api.MIN_DEALS_PER_CLASS
            continue
        row, t, d = rows.loc[label], total[mine].tolist(), score[mine].tolist()
        ev_pass = plain_mean_interval(d)
        assert (row.ev_pass, row.ev_pass_lo, row.ev_pass_hi) == pytest.approx(ev_pass)

        def ev_bid_minus_pass(b):
            return [(x if x >= b else -b) - y for x, y in zip(t, d)]

        worth = [b for b in range(lowest, bid.MAX_TOTAL + 10, 10) if sum(ev_bid_minus_pass(b)) >= 0]
        if not worth:
            assert row.bid_ev is None or math.isnan(row.bid_ev)
            continue
        checked += 1
        assert row.bid_ev == max(worth)
        ev = plain_mean_interval(ev_bid_minus_pass(max(worth)))
        assert (row.ev_vs_pass, row.ev_vs_pass_lo, row.ev_vs_pass_hi) == pytest.approx(ev)
        assert sum(ev_bid_minus_pass(max(worth) + 10)) < 0
    assert checked >= 1


def test_odds_ev_pass_and_ev_vs_pass_per_bid():
    n, bids = 256, (250, 310, 340, 370, 400)  # one random-stream block of `BidderJob`
    tables = api.odds(HAND, bids=bids, n=n, seed=5, dd_tricks=0, **RUN)
    _, total, score = per_deal_values(random_slots(5, n, HAND))
    e = tables["make"].attrs["ev_pass"]
    assert (e["mean"], e["lo"], e["hi"]) == pytest.approx(plain_mean_interval(score.tolist()))
    for r in tables["make"].itertuples():
        y = [(x if x >= r.bid else -r.bid) - d for x, d in zip(total.tolist(), score.tolist())]
        assert (r.ev_vs_pass, r.ev_vs_pass_lo, r.ev_vs_pass_hi) == pytest.approx(plain_mean_interval(y))
        assert r.greedy_p == pytest.approx(np.mean(total >= r.bid))  # P(make) as before


def test_defender_options_change_ev_pass_only():
    """defender_needs_counter=False keeps every defender's meld: EV_pass can only rise; the bidder's
    P(make) does not move."""
    main_game, no_counter = (api.odds(HAND, bids=(340,), n=256, seed=2, dd_tricks=0, options=o, **RUN)
                             for o in ({}, {"defender_needs_counter": False}))
    assert no_counter["make"].greedy_p.tolist() == main_game["make"].greedy_p.tolist()
    assert no_counter["make"].attrs["ev_pass"]["mean"] >= main_game["make"].attrs["ev_pass"]["mean"]


# --- run-split invariance, JSON and text, keys ------------------------------------------------------------
def test_thresholds_do_not_depend_on_jobs_or_chunks(capsys):
    base = ["thresholds", "pinochle3", "--n", "500", "--seed", "3", "--no-progress", "--json"]
    outs = [run_cli(capsys, *base, *extra)[1] for extra in ([], ["--chunk-size", "64"], ["--jobs", "2"])]
    assert outs[0] == outs[1] == outs[2]


def test_odds_do_not_depend_on_jobs_or_chunks(capsys):
    base = ["odds", "pinochle3", "--hand", HAND, "--n", "300", "--seed", "3", "--bids", "300,350", "--dd-tricks", "0",
            "--no-progress", "--json"]
    outs = [run_cli(capsys, *base, *extra)[1] for extra in ([], ["--chunk-size", "1"], ["--jobs", "2"])]
    assert outs[0] == outs[1] == outs[2]


def test_jobs_count_the_pass_whatever_the_split():
    for job, n in ((bid.BidderJob(api.parse_holding(HAND)), 300), (bid.ThresholdJob(), 300)):
        whole = runner.run(job, n, 9, **RUN)
        split = runner.run(job, n, 9, chunk_deals=1, **RUN)
        assert np.array_equal(whole, split) and len(whole) == job.n_counts
    c = bid.ThresholdJob().unpack(whole)
    assert c["hist"].sum() == 300 and c["pass_sum"].sum() > 0 and c["pass_squares"].sum() > 0


def test_thresholds_json_and_text(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "600", "--seed", "1", "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["pass_model"] == bid.PASS_MODEL
    for name in ("by_meld", "by_trump_length", "grid"):
        for r in data["tables"][name]:
            assert list(r)[-len(api.THRESHOLD_COLUMNS):] == api.THRESHOLD_COLUMNS
            assert "ev" not in r and r["ev_pass_lo"] <= r["ev_pass"] <= r["ev_pass_hi"]
            assert (r["bid_ev"] is None) == (r["ev_vs_pass"] is None)
            assert r["ev_vs_pass"] is None or r["ev_vs_pass"] >= 0  # the bid is worth at least the pass
    code, text, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "600", "--seed", "1", "--no-progress")
    assert code == 0 and bid.PASS_MODEL in text and "bid_ev: highest bid B with EV_bid(B) >= EV_pass" in text
    assert "EV_pass [95%]" in text and "EV_bid-EV_pass [95%]" in text


def test_odds_json_and_text(capsys):
    argv = ["odds", "pinochle3", "--hand", HAND, "--n", "64", "--seed", "1", "--bids", "300,400", "--dd-tricks", "0",
            "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and set(data["ev_pass"]) == {"mean", "se", "lo", "hi"} and data["pass_model"] == bid.PASS_MODEL
    for r in data["make"]:
        assert set(r) == {"bid", "greedy_p", "greedy_lo", "greedy_hi", "ev_vs_pass", "ev_vs_pass_lo", "ev_vs_pass_hi",
                          "n"}
        assert r["ev_vs_pass_lo"] <= r["ev_vs_pass"] <= r["ev_vs_pass_hi"]
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0 and "EV_pass (score as a defender if you pass):" in text and bid.PASS_MODEL in text
    assert "|| EV_bid - EV_pass, greedy" in text


def test_keys_change_with_the_pass():
    cards = api.parse_holding(HAND)
    assert "|pass=v1" in bid.BidderJob(cards).key() and "|pass=v1" in bid.ThresholdJob().key()
    keys = {bid.ThresholdJob("old", {f: False}).key() for f in DEFENDER_FLAGS} | {bid.ThresholdJob().key()}
    assert len(keys) == 4
    # the minimum bid matters to the pass only when a set bidder lets the defenders keep their meld
    assert bid.ThresholdJob("old", {"min_bid": 300}).key() == bid.ThresholdJob().key()
    on_set = {"defender_counter_rule_on_set": False}
    assert bid.ThresholdJob("old", {**on_set, "min_bid": 300}).key() != bid.ThresholdJob("old", on_set).key()


@pytest.mark.parametrize("option", ["defender_needs_counter=False", "defender_keeps_last_trick_without_counter=False"])
def test_odds_and_thresholds_take_the_defender_options(capsys, option):
    code, out, err = run_cli(capsys, "thresholds", "pinochle3", "--n", "100", "--seed", "1", "--option", option,
                             "--no-progress", "--json")
    assert code == 0 and json.loads(out)["options"] == {option.split("=")[0]: False}, err


# --- match: hands per game (Q12), policy names in any case -------------------------------------------------
def test_match_reports_hands_per_game(capsys):
    argv = ["match", "pinochle3", "--a", "Bold", "--b", "CAUTIOUS", "--games", "6", "--seed", "1", "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    h = data["hands_per_game"]
    assert code == 0 and data["a"]["policy"] == "bold" and data["b"]["policy"] == "cautious"
    assert h["n"] == 6 - data["abandoned"] and h["lo"] <= h["mean"] <= h["hi"] and h["mean"] >= 1
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0 and "hands per game" in text and "never concede" in text
    lower = json.loads(run_cli(capsys, *argv[:3], "bold", "--b", "cautious", *argv[6:], "--json")[1])
    assert lower == data  # the same policies, the same games


def test_game_counts_hands_per_finished_game():
    job = bid.GameJob("standard", "bold")
    c = job.unpack(runner.run(job, 6, 2, **RUN))
    assert c["games"] == 6 and c["hands_sum"] >= 6 and c["hands_squares"] >= c["hands_sum"] ** 2 / 6
    assert bid.GameJob("Standard", "BOLD").key() == job.key() and "|v6|" in job.key()
