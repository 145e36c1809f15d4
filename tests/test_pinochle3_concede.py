"""Concede or play (shared/rules/pinochle3.md R4.10, §6.1, S5, §9.1 Q5-Q6).

* ``odds``' concession table (defenders' trick points, the race if the bidder plays or concedes,
  their paired difference, the break-even P(make)) and the defenders' saved melds against per-deal
  values scored by the scalar references `score_played` and `score_conceded`;
* self-play: S5 through `play_hand` (bid 270, the bidder's meld 120, the defenders' 40 and 0), the
  concession rate of `match`, its counts, keys and run-split invariance; the default never concedes;
* ``--bids`` given twice is valued once.
"""

import json
import math

import numpy as np
import pytest

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
Z = 1.959963984540054
# S5 of spec §10.3 as a pack: the bidder (the dealer's left) keeps meld 120 under diamonds, his left 40, his right 0
S5_PACK = ("S9 SQ SQ SK SA HJ HK D9 D9 DJ DQ C9 C9 CJ CQ", "S10 S10 HQ HK H10 H10 DJ D10 DA CJ CQ CK C10 CA CA",
           "S9 SJ SJ SK SA H9 H9 HJ HQ HA HA DK D10 DA CK", "DQ DK C10")


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def plain_mean(y) -> tuple[float, float]:
    """(mean, standard error with the sample variance) of a list."""
    mean = sum(y) / len(y)
    return mean, math.sqrt(sum((v - mean) ** 2 for v in y) / (len(y) - 1) / len(y)) if len(y) > 1 else math.nan


def per_deal(options: dict, n: int, seed: int) -> list[dict]:
    """Per deal of `odds`' first block: the bidder's total T, the melds and the greedy trick points and
    counters of the three seats (the bidder's trick points with his buried counters)."""
    job = bid.BidderJob(api.parse_holding(HAND), options=options)
    slots = deal(job.spec, block_words(seed, 0, n, job.spec.words_per_deal))
    o = bid.bidder_outcomes(slots, options=options)
    rows = []
    for i in range(n):
        melds = [int(o["meld"][i])] + [int(p3.meld_points(slots[i:i + 1, s], int(o["trump"][i]))[0]) for s in (1, 2)]
        points = [int(o["greedy"][i])] + [int(x) for x in o["points"][i, 1:]]
        rows.append({"total": melds[0] + points[0], "melds": melds, "points": points,
                     "counters": [int(x) for x in o["counters"][i]]})
    return rows


@pytest.mark.parametrize("options", [{}, {"defender_counter_rule_on_set": False,
                                          "defender_keeps_last_trick_without_counter": False}])
def test_concession_table_follows_the_scalar_scores(options):
    n, seed, bids = 256, 5, (250, 340, 370, 400)  # one random-stream block of `BidderJob`
    tables = api.odds(HAND, bids=bids, n=n, seed=seed, dd_tricks=0, options=options, **RUN)
    deals = per_deal(options, n, seed)
    for r in tables["concede"].itertuples():
        race_play, race_concede, kept, made_gain, set_loss = [], [], [], [], []
        for d in deals:
            played = play.score_played(r.bid, 0, d["melds"], d["points"], d["counters"], options).delta
            conceded = play.score_conceded(r.bid, 0, d["melds"]).delta
            assert conceded == (-r.bid, d["melds"][1], d["melds"][2])  # R4.10: melds, no counter test
            without_meld = play.score_played(r.bid, 0, (d["melds"][0], 0, 0), d["points"], d["counters"], options)
            kept.append(without_meld.delta[1] + without_meld.delta[2])
            race_play.append(played[0] - (played[1] + played[2]) / 2)
            race_concede.append(conceded[0] - (conceded[1] + conceded[2]) / 2)
            gain = race_play[-1] - race_concede[-1]
            (made_gain if d["total"] >= r.bid else set_loss).append(gain if d["total"] >= r.bid else -gain)
        for column, y in (("defenders_points", kept), ("race_play", race_play), ("race_concede", race_concede),
                          ("play_minus_concede", [a - b for a, b in zip(race_play, race_concede)])):
            mean, se = plain_mean(y)
            got = getattr(r, column), getattr(r, column + "_lo"), getattr(r, column + "_hi")
            assert got == pytest.approx((mean, mean - Z * se, mean + Z * se)), (r.bid, column)
        if not set_loss:  # bid 250: never set, no break-even
            assert math.isnan(r.concede_below)
            continue
        (g, se_g), (h, se_h) = plain_mean(made_gain), plain_mean(set_loss)
        x = h / (g + h)
        se = math.sqrt(g * g * se_h ** 2 + h * h * se_g ** 2) / (g + h) ** 2
        assert (r.concede_below, r.concede_below_lo, r.concede_below_hi) == pytest.approx((x, x - Z * se, x + Z * se))
        # the break-even reads the same as the paired difference: play wins the race iff P(make) > x
        p_make = len(made_gain) / n
        assert (r.play_minus_concede > 0) == (p_make > r.concede_below)


def test_defenders_saved_melds():
    n, seed = 256, 5
    saves = api.odds(HAND, bids=(300,), n=n, seed=seed, dd_tricks=0, **RUN)["saves"].set_index("defender")
    took = np.array([[c > 0 for c in d["counters"][1:]] for d in per_deal({}, n, seed)])
    assert saves.loc["left", "p"] == took[:, 0].mean() and saves.loc["right", "p"] == took[:, 1].mean()
    assert saves.loc["each", "p"] == took.mean() and saves.loc["each", "n"] == 2 * n
    for side in ("each", "left", "right"):
        assert saves.loc[side, "lo"] <= saves.loc[side, "p"] <= saves.loc[side, "hi"]


def test_odds_json_and_text_of_the_concession(capsys):
    argv = ["odds", "pinochle3", "--hand", HAND, "--n", "256", "--seed", "1", "--bids", "300,370", "--dd-tricks", "0",
            "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["race_model"] == api.RACE_MODEL and [r["bid"] for r in data["concede"]] == [300, 370]
    for r in data["concede"]:
        assert r["n"] == 256 and r["race_play_lo"] <= r["race_play"] <= r["race_play_hi"]
        assert r["play_minus_concede"] == pytest.approx(r["race_play"] - r["race_concede"])
    assert [r["defender"] for r in data["defender_saves_meld"]] == ["each", "left", "right"]
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0 and api.RACE_MODEL in text and api.BREAK_EVEN_MODEL in text and "spec Q5" in text


def test_repeated_bids_are_valued_once(capsys):
    assert api.checked_bids((300, 300, 250, 300), p3.rule_options()) == (300, 250)
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "32", "--seed", "1", "--bids",
                           "300,300", "--dd-tricks", "0", "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and [r["bid"] for r in data["make"]] == [300] and [r["bid"] for r in data["concede"]] == [300]


# --- self-play ------------------------------------------------------------------------------------------
def s5_hand(monkeypatch, margin):
    """play_hand of the S5 pack, the auction fixed to B3's shape: the dealer's left wins at 270."""
    monkeypatch.setattr(bid, "max_bids", lambda policies, hands, options: np.array([270, 260, 0]))
    groups = p3.DECK.parse_groups({f"seat {k}": cards for k, cards in enumerate(S5_PACK)})  # copies across groups
    cards = [c for group in groups.values() for c in group]
    policies = [bid.bid_policy("standard", margin)] * 3
    return bid.play_hand(np.array(cards), policies, 2, play.rule_options())


def test_s5_concession_in_self_play(monkeypatch):
    """S5: bid 270, his meld 120 (trump D: royal marriage, spade marriage, pinochle, double deece) and
    120 + 30 buried + 10 per counter kept falls short of 270: he concedes, -270, the defenders +40 +0."""
    groups = p3.DECK.parse_groups({"hand": S5_PACK[0], "kitty": S5_PACK[3]})
    d = bid.best_discard(groups["hand"] + groups["kitty"])
    assert (p3.DECK.suits[d.trump], d.meld) == ("D", 120)
    score, bidder = s5_hand(monkeypatch, 0)
    assert bidder == 0 and score == play.HandScore((-270, 40, 0), (1, 0, 0), False, conceded=True)
    played = s5_hand(monkeypatch, 200)[0]  # a wide margin: he plays, and is set
    assert played.set_units == (2, 0, 0) and not played.conceded


def test_the_estimate_of_the_conceding_policy():
    kept = p3.DECK.mask(p3.DECK.parse_cards("SA S10 SK SQ HJ", "kept"))
    assert bid.trick_estimate(kept, 30) == 30 + 3 * 10
    policy = bid.bid_policy("bold", 40)
    assert policy.concedes(300, 200, 59) and not policy.concedes(300, 200, 60)  # 259 < 260, 260 is not
    assert not bid.bid_policy("bold").concedes(300, 0, 0)  # no margin: never
    with pytest.raises(Exception, match="whole number"):
        bid.bid_policy("bold", 2.5)


def test_self_play_counts_concessions():
    job = bid.GameJob("bold", "bold", b_concede=40)
    whole = runner.run(job, 12, 3, **RUN)
    assert np.array_equal(whole, runner.run(job, 12, 3, chunk_deals=1, **RUN))  # --jobs / --chunk-size
    c = job.unpack(whole)
    assert c["conceded"][0] == 0 and 0 < c["conceded"][1] < c["contracts"][1]
    assert c["conceded_squares"][1] >= c["conceded"][1] ** 2 / 12 and c["contracts_squares"][1] >= c["contracts"][1]
    assert job.key() != bid.GameJob("bold", "bold").key() and "concede=None,40" in job.key()
    never = bid.GameJob("bold", "bold").unpack(runner.run(bid.GameJob("bold", "bold"), 12, 3, **RUN))
    assert never["conceded"] == [0, 0] and min(never["contracts"]) > 0


def test_match_reports_the_concession_rate(capsys):
    argv = ["match", "pinochle3", "--a", "bold", "--b", "bold", "--b-concede", "40", "--games", "12", "--seed", "3",
            "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    a, b = data["a"]["concessions"], data["b"]["concessions"]
    assert code == 0 and a["margin"] is None and a["conceded"] == 0 and b["margin"] == 40
    assert b["lo"] <= b["p"] == b["conceded"] / b["contracts"] <= b["hi"] and b["conceded"] > 0
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0 and "never concedes" in text and f"concedes {b['p']:.3f}" in text and api.CONCEDE_RULE in text
    scaled = api.match("bold", "bold", 12, 3, {"scale": 0.1}, b_concede=4, **RUN)
    assert scaled.concede_margin.tolist()[1] == 4 and scaled.conceded.tolist() == [0, b["conceded"]]


def test_self_play_counts_the_conceded_flag_not_the_set_units(monkeypatch):
    """A hand that costs the bidder one set unit without a concession (a renege rule that charged one unit,
    say) is no concession; `HandScore.conceded` is."""
    monkeypatch.setattr(bid, "MAX_HANDS", 4)
    job = bid.GameJob("bold", "bold")
    for conceded in (False, True):
        score = play.HandScore((-250, 0, 0), (1, 0, 0), False, conceded)
        monkeypatch.setattr(bid, "play_hand", lambda *args, s=score: (s, 0))
        c = job.unpack(job.run_block(1, 0, 1))
        assert c["abandoned"] == 1 and sum(c["contracts"]) == 4 and sum(c["conceded"]) == 4 * conceded


@pytest.mark.parametrize("margin", [-1, -1000, 2.5, True])
def test_a_concession_margin_is_a_whole_number_at_least_0(capsys, margin):
    with pytest.raises(Exception, match=">= 0, got"):
        bid.bid_policy("bold", margin)
    if isinstance(margin, int) and not isinstance(margin, bool):
        code, out, err = run_cli(capsys, "match", "pinochle3", "--a", "bold", "--b", "bold", "--a-concede",
                                 str(margin), "--games", "2", "--no-progress")
        lines = err.strip().splitlines()
        assert code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("cardsim: error: ")
        assert f"a concession margin is a whole number of points >= 0, got {margin}" in lines[0]
    assert bid.bid_policy("bold", 0).concede_margin == 0


def test_a_margin_without_contracts_has_no_rate(capsys):
    """Policy never wins no contract (no bid is forced): its concession rate is '-', null in JSON."""
    argv = ["match", "pinochle3", "--a", "never", "--b", "standard", "--a-concede", "10", "--games", "3", "--seed", "3",
            "--no-progress"]
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0 and "concedes - of no contracts (margin 10)" in text and "nan" not in text
    code, out, _ = run_cli(capsys, *argv, "--json")
    a = json.loads(out)["a"]["concessions"]
    assert code == 0 and a == {"margin": 10, "p": None, "lo": None, "hi": None, "conceded": 0, "contracts": 0}


def test_mean_intervals_use_the_sample_variance():
    """One helper, the sample variance (n - 1), for every mean interval of Pinochle (the comparisons' too) and
    Bauernstoss."""
    from analysis import stats
    from analysis.games import bauernstoss, pinochle3_compare

    y = np.array([3.0, -1.0, 4.0, 1.0, 5.0])
    m = stats.mean_interval(y.sum(), (y * y).sum(), y.size)
    assert m["se"] == pytest.approx(y.std(ddof=1) / math.sqrt(y.size))
    assert m["hi"] - m["mean"] == pytest.approx(Z * m["se"])
    assert math.isnan(stats.mean_interval(2.0, 4.0, 1)["se"])  # one value: no spread to estimate
    assert api.mean_interval is pinochle3_compare.mean_interval is bauernstoss.mean_interval is stats.mean_interval
    assert bauernstoss._mean_lo_hi(y.sum(), (y * y).sum(), y.size) == pytest.approx((m["mean"], m["lo"], m["hi"]))
