"""Review of the Pinochle commands (spec shared/rules/pinochle3.md): rule options reach ``odds`` and
``thresholds`` (R4.2a min bid, V4 nines, V5-V7 meld variants, V12 scale, play rule), the classes
``thresholds`` leaves out, its --help, money play in ``cardsim games``, the kitty gain's interval and
its exact value with a known kitty, --samples only with --play pimc, bids as a string in Python, and
``meld`` of 18 cards: the best 15 kept after a discard of 3 (R3.9a, R4.7b)."""

import json
from itertools import combinations

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore import runner
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.rng import block_words

HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
"""The README's hand: rope in hearts, pinochle, a spade marriage (220 in hearts)."""
DOUBLE_ROPE = "HA HA H10 H10 HK HK HQ HQ HJ HJ SQ DJ S9 C9 D9"
"""Meld 1540 under hearts in the main game (double rope 1500 + pinochle 40), 340 under V5."""
RUN = {"progress": False, "checkpoint": False}


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(capsys, *argv) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, (code, out, err)
    return err


# --- 1. --option reaches odds and thresholds ------------------------------------------------------------
def test_odds_meld_variant_changes_meld_and_make(capsys):
    """V5 (double_bonus=False): the double rope is 300, not 1500, so a bid of 1000 is never made."""
    argv = ["odds", "pinochle3", "--hand", DOUBLE_ROPE, "--n", "32", "--seed", "1", "--bids", "300,1000",
            "--dd-tricks", "0", "--no-progress", "--json"]
    code, out, _ = run_cli(capsys, *argv)
    main_game = json.loads(out)
    code_v5, out_v5, _ = run_cli(capsys, *argv, "--option", "double_bonus=False")
    v5 = json.loads(out_v5)
    assert code == code_v5 == 0 and v5["options"] == {"double_bonus": False} and main_game["options"] == {}
    assert main_game["meld_by_trump"]["H"] == 1540 and v5["meld_by_trump"]["H"] == 340
    assert [r["greedy_p"] for r in main_game["make"]] == [1.0, 1.0]
    assert [r["greedy_p"] for r in v5["make"]] == [1.0, 0.0]


def test_bidder_job_counts_the_variant_meld():
    """The job's discard and meld use the variant's values (`bidder_outcomes` with options)."""
    options = {"double_royal_marriage": 240}
    job = bid.BidderJob(api.parse_holding(HAND), options=options)
    slots = deal(job.spec, block_words(4, 0, 64, job.spec.words_per_deal))
    o = bid.bidder_outcomes(slots, options=options)
    before, _ = p3.best_meld(slots[:, 0], options)
    melds = bid.discards(slots[:, 0] | slots[:, 3], None, options)[2]
    assert np.array_equal(o["meld_before"], before) and np.array_equal(o["meld"], melds)
    c = job.unpack(job.run_block(4, 0, 64))
    assert c["gain_sum"] == int((melds - before).sum()) and c["deals"] == 64
    assert not np.array_equal(melds, bid.discards(slots[:, 0] | slots[:, 3])[2])  # the variant matters here


def test_min_bid_option_moves_the_bids():
    tables = api.odds(HAND, n=16, seed=1, dd_tricks=0, options={"min_bid": 300}, **RUN)
    assert tables["make"].bid.iloc[0] == 300 and tables["make"].bid.iloc[-1] == 500
    with pytest.raises(CardsimError, match="bid 250 is below the minimum bid 300"):
        api.odds(HAND, bids=(250,), n=16, seed=1, dd_tricks=0, options={"min_bid": 300}, **RUN)
    low = api.odds(HAND, bids=(100,), n=16, seed=1, dd_tricks=0, options={"min_bid": None}, **RUN)
    assert low["make"].greedy_p.tolist() == [1.0]  # meld 220 alone makes 100
    thr = api.thresholds(600, 2, options={"min_bid": 300}, **RUN)
    assert min(thr["curves"].bid) == 300
    assert all(b is None or b != b or b >= 300 for b in thr["by_meld"].bid50)


def test_scale_divides_odds_and_thresholds_by_ten():
    """V12 (X4): the same deals, every point value and bid / 10, the same probabilities."""
    main_game = api.odds(HAND, bids=(250, 340, 400), n=64, seed=3, dd_tricks=0, **RUN)
    tenth = api.odds(HAND, bids="25,34,40", n=64, seed=3, dd_tricks=0, options={"scale": 0.1}, **RUN)
    assert tenth["make"].bid.tolist() == [25, 34, 40]
    assert tenth["make"].greedy_p.tolist() == main_game["make"].greedy_p.tolist()
    assert tenth["by_trump"].meld.tolist() == [m // 10 for m in main_game["by_trump"].meld]
    assert tenth["gain"].gain_at_least.tolist() == [x // 10 for x in main_game["gain"].gain_at_least]
    assert tenth["gain"].attrs["gain_mean"]["mean"] == pytest.approx(main_game["gain"].attrs["gain_mean"]["mean"] / 10)
    with pytest.raises(CardsimError, match="bid 250 can never be made: meld \\+ trick points reach at most 215"):
        api.odds(HAND, bids=(250,), n=4, seed=1, dd_tricks=0, options={"scale": 0.1}, **RUN)
    main_thr, tenth_thr = (api.thresholds(600, 2, options=o, **RUN) for o in ({}, {"scale": 0.1}))
    assert tenth_thr["by_meld"].meld.iloc[0] == "0-1" and main_thr["by_meld"].meld.iloc[0] == "0-19"
    assert tenth_thr["by_meld"].n.tolist() == main_thr["by_meld"].n.tolist()
    for column in ("ev_vs_pass", "ev_pass", "bid_ev"):  # None (no bid worth passing) as NaN
        tenth_values, main_values = (np.array(t["by_meld"][column], dtype=float) for t in (tenth_thr, main_thr))
        assert tenth_values == pytest.approx(main_values / 10, nan_ok=True)
    assert tenth_thr["curves"].p.tolist() == main_thr["curves"].p.tolist()
    assert tenth_thr["curves"].bid.tolist() == [b // 10 for b in main_thr["curves"].bid]


def test_nines_rule_leaves_out_the_deals_a_defender_throws_in():
    """V4: a defender who may claim a throw-in does, before the auction; those deals are not played."""
    options = {"nines_rule": "5_no_meld"}
    job = bid.BidderJob(api.parse_holding(HAND), options=options)
    slots = deal(job.spec, block_words(1, 0, 256, job.spec.words_per_deal))
    thrown = p3.nines_throw_in(slots[:, 1], "5_no_meld") | p3.nines_throw_in(slots[:, 2], "5_no_meld")
    assert np.array_equal(bid.reaching_auction(slots, "5_no_meld"), ~thrown) and thrown.any()
    tables = api.odds(HAND, bids=(300,), n=256, seed=1, dd_tricks=0, options=options, **RUN)
    a = tables["make"].attrs
    assert a["thrown_in"] == int(thrown.sum()) and a["n"] == 256 - a["thrown_in"]
    assert "more deals thrown in by a defender under nines_rule 5_no_meld" in api.format_odds(tables)
    thr = api.thresholds(600, 2, options=options, **RUN)
    assert thr["by_meld"].attrs["thrown_in"] > 0
    assert thr["by_meld"].attrs["n"] + thr["by_meld"].attrs["thrown_in"] == 600


def test_play_rule_option_is_the_rule():
    by_rule = api.odds(HAND, bids=(340,), n=32, seed=1, dd_tricks=2, rule="old_strict", **RUN)
    by_option = api.odds(HAND, bids=(340,), n=32, seed=1, dd_tricks=2, options={"play_rule": "old_strict"}, **RUN)
    assert by_option["make"].attrs["rule"] == "old_strict"
    assert by_option["make"].equals(by_rule["make"])


@pytest.mark.parametrize("job", [
    bid.BidderJob(api.parse_holding(HAND), dd_tricks=1, options={"double_bonus": False, "nines_rule": "5_no_meld"}),
    bid.ThresholdJob("old", {"double_royal_marriage": 240, "nines_rule": "6_any"}),
], ids=["odds", "thresholds"])
def test_jobs_with_options_do_not_depend_on_the_split(job):
    n = 3 * job.block_size // 2 if job.block_size < 1000 else 300
    whole = runner.run(job, n, 5, **RUN)
    split = runner.run(job, n, 5, chunk_deals=1, **RUN)
    assert np.array_equal(whole, split) and whole.sum() > 0


def test_job_keys_tell_the_options_apart():
    cards = api.parse_holding(HAND)
    keys = {bid.BidderJob(cards, options=o).key() for o in ({}, {"double_bonus": False}, {"nines_rule": "6_any"},
                                                            {"double_bonus": False, "nines_rule": "6_any"})}
    assert len(keys) == 4
    keys = {bid.ThresholdJob("old", o).key() for o in ({}, {"double_royal_marriage": 240}, {"nines_rule": "7_any"})}
    assert len(keys) == 3
    # options that change no count share the checkpoints of the main game
    assert bid.BidderJob(cards, options={"scale": 0.1, "min_bid": 300}).key() == bid.BidderJob(cards).key()


def test_cli_options_do_not_depend_on_chunk_size(capsys):
    base = ["thresholds", "pinochle3", "--n", "700", "--seed", "4", "--option", "double_bonus=False", "--option",
            "min_bid=200", "--no-progress", "--json"]
    outs = [run_cli(capsys, *base, *extra)[1] for extra in ([], ["--chunk-size", "1"])]
    assert outs[0] == outs[1] and json.loads(outs[0])["options"] == {"double_bonus": False, "min_bid": 200}


@pytest.mark.parametrize("argv, message", [
    (["odds", "pinochle3", "--hand", HAND, "--option", "target=1000"],
     "option target does not change 'cardsim odds pinochle3', whose options are double_bonus"),
    (["thresholds", "pinochle3", "--option", "target=1000"],
     "option target does not change 'cardsim thresholds pinochle3'"),
    (["odds", "pinochle3", "--hand", HAND, "--option", "bidder_needs_counter=True"],
     "option bidder_needs_counter=True is not modelled by 'cardsim odds pinochle3'"),
    (["thresholds", "pinochle3", "--option", "trump_requires_marriage=True"],
     "option trump_requires_marriage=True is not modelled by 'cardsim thresholds pinochle3'"),
    (["odds", "pinochle3", "--hand", HAND, "--rule", "old", "--option", "play_rule=old_strict"],
     "--rule old and --option play_rule=old_strict disagree; give the play rule once"),
    (["thresholds", "pinochle3", "--option", "play_rule=new1945"], "play rule new1945 changes nothing"),
    (["odds", "pinochle3", "--hand", HAND, "--option", "min_bid=275"], "option min_bid cannot be 275"),
    (["thresholds", "pinochle3", "--option", "roundhouse_meld=True"], "give both or neither"),
])
def test_options_odds_and_thresholds_refuse(capsys, argv, message):
    assert message in one_error_line(capsys, *argv, "--n", "8", "--no-progress")


# --- 2. thresholds say which hands they leave out ----------------------------------------------------------
def test_thresholds_note_the_small_groups(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "2000", "--seed", "1", "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["min_deals_per_class"] == api.MIN_DEALS_PER_CLASS == 30
    for name in ("by_meld", "by_trump_length", "grid"):
        rows = data["tables"][name]
        assert data["left_out"][name] == data["n"] - sum(r["n"] for r in rows) > 0
        assert all(r["n"] >= 30 for r in rows)
    code, text, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "2000", "--seed", "1", "--no-progress")
    for name in ("by_meld", "by_trump_length"):
        assert f"  {data['left_out'][name]} hands in groups of fewer than 30 hands are left out" in text


def test_thresholds_with_too_few_hands_say_so(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "pinochle3", "--n", "10", "--seed", "1", "--no-progress")
    assert code == 0 and out.count("no group has 30 hands or more, so all 10 hands are left out; raise --n") == 2
    tables = api.thresholds(10, 1, **RUN)
    assert tables["by_meld"].empty and tables["by_meld"].attrs["left_out"] == 10
    assert list(tables["grid"].columns) == ["meld", "trump_length", *api.THRESHOLD_COLUMNS]


# --- 3. thresholds --help lists the rules it accepts ---------------------------------------------------------
def test_thresholds_help_lists_only_accepted_rules(capsys):
    with pytest.raises(SystemExit):
        main(["thresholds", "pinochle3", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "play rule: old or old_strict" in help_text and "new1945 and new1945_alt are refused" in help_text
    for rule in ("old", "old_strict"):
        assert main(["thresholds", "pinochle3", "--rule", rule, "--n", "40", "--seed", "1", "--no-progress"]) == 0
    capsys.readouterr()
    for rule in ("new1945", "new1945_alt"):
        assert "changes nothing" in one_error_line(capsys, "thresholds", "pinochle3", "--rule", rule, "--n", "8")


# --- 4. money play is listed as not implemented -----------------------------------------------------------------
def test_games_listing_says_where_money_play_is_read(capsys):
    assert main(["games", "pinochle3"]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines() if " = " in line}
    for name in ("game_stake", "set_stake"):
        assert ("[values: None, any number from 0 to 1,000,000,000]  money play (R6.6)" in lines[name]
                and "read by match" in lines[name])


# --- 5. the kitty gain: an interval, or one exact value ---------------------------------------------------------
def test_kitty_gain_mean_has_an_interval(capsys):
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "256", "--seed", "1", "--bids", "300",
                           "--dd-tricks", "0", "--no-progress", "--json")
    gain = json.loads(out)["kitty_gain"]
    sampled = gain["sampled"]  # the deals' mean; "mean" is exact over every kitty (test_pinochle3_kitty_exact)
    assert code == 0 and sampled["lo"] < sampled["mean"] < sampled["hi"] and sampled["se"] > 0
    assert [r["gain_at_least"] for r in gain["at_least"]] == [10, 20, 50, 100, 150]  # no P(gain >= 0) = 1
    code, text, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "256", "--seed", "1", "--bids", "300",
                            "--dd-tricks", "0", "--no-progress")
    assert f"{sampled['mean']:.1f} [{sampled['lo']:.1f}, {sampled['hi']:.1f}]" in text and "P(gain >= 0" not in text


def test_kitty_gain_mean_keeps_negative_gains():
    """A trump forced away from the best one can lose meld: the mean is not clipped at 0."""
    tables = api.odds(HAND, trump="S", bids=(300,), n=64, seed=1, dd_tricks=0, **RUN)
    assert tables["gain"].attrs["gain_mean"]["mean"] < 0


def test_known_kitty_gives_one_exact_gain(capsys):
    argv = ["odds", "pinochle3", "--hand", HAND, "--kitty", "HK SQ CA", "--trump", "H", "--n", "64", "--seed", "1",
            "--bids", "300", "--dd-tricks", "0", "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["kitty_gain"] == {"exact": 40}  # meld 260 after the discard, 220 before
    assert data["best_discard"]["meld"] - data["meld_by_trump"]["H"] == 40
    code, text, _ = run_cli(capsys, *argv)
    assert "kitty gain (the most meld a discard keeps - best meld now, spec Q2): 40 exactly (the kitty is known)" in text
    assert "P(gain" not in text
    groups = p3.DECK.parse_groups({"--hand": HAND, "--kitty": "HK SQ CA"})
    job = bid.BidderJob(groups["--hand"], trump=1, kitty=groups["--kitty"])
    c = job.unpack(runner.run(job, 64, 1, **RUN))
    assert c["gain_sum"] == 40 * 64 and c["gain_squares"] == 40 * 40 * 64


# --- 6. --samples only with --play pimc --------------------------------------------------------------------------
def test_samples_without_pimc_is_refused(capsys):
    err = one_error_line(capsys, "odds", "pinochle3", "--hand", HAND, "--samples", "3", "--n", "8", "--no-progress")
    assert "--samples applies only with --play pimc; drop it or add --play pimc" in err
    assert "--samples applies only" in one_error_line(capsys, "odds", "pinochle3", "--hand", HAND, "--samples", "4",
                                                      "--play", "greedy", "--n", "8")


# --- 7. bids in Python as the command line takes them ---------------------------------------------------------------
@pytest.mark.parametrize("bids, expected", [
    ("300,350,400", [300, 350, 400]),
    ("300, 350", [300, 350]),
    ("250:300:10", [250, 260, 270, 280, 290, 300]),
    ([300, 350], [300, 350]),
    ((np.int64(300),), [300]),
    (300, [300]),
])
def test_odds_takes_bids_as_text_or_numbers(bids, expected):
    tables = api.odds(HAND, bids=bids, n=8, seed=1, dd_tricks=0, **RUN)
    assert tables["make"].bid.tolist() == expected


@pytest.mark.parametrize("bids, message", [
    ("x", "--bids must look like 250:400:10 or 250,300,350, got 'x'"),
    ("400:250:10", "is empty"),
    ([300.5], "bids are whole numbers such as 300, got 300.5"),
    (["abc"], "bids are whole numbers"),
    ([], "give at least one bid"),
])
def test_odds_refuses_bad_bids(bids, message):
    with pytest.raises(CardsimError, match=message):
        api.odds(HAND, bids=bids, n=8, seed=1, dd_tricks=0, **RUN)


# --- 8. meld of 18 cards: the best 15 kept ----------------------------------------------------------------------------
EIGHTEEN = HAND + " HK SQ CA"
"""The README's hand with the kitty HK SQ CA: 1920-style counting of all 18 cards is not a declarable meld."""
MELD_OR_COUNTERS = "S9 SJ SQ SK S10 SA HJ HA D9 DJ DQ DK DA C9 CJ CQ CK CA"
"""Under spades the most meld kept is 370 (nothing buried); the bidder's discard (meld + buried
counters) keeps 360 and buries 10."""


def best_kept_meld(cards: list[int], trump: int) -> int:
    """The most meld of any 15 of 18 cards under ``trump``, by trying every discard (R4.7b: any 3)."""
    kept = [p3.DECK.mask([c for c in cards if c not in dropped]) for dropped in combinations(cards, 3)]
    return int(p3.meld_points(np.array(kept, dtype=np.uint64), trump).max())


def test_meld_of_eighteen_cards_is_the_best_fifteen(capsys):
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", EIGHTEEN, "--json")
    data = json.loads(out)
    cards = api.parse_holding(EIGHTEEN)
    assert code == 0 and data["trump"] == "H" and data["total"] == 260 == best_kept_meld(cards, 1)
    assert data["by_trump"] == {s: best_kept_meld(cards, t) for t, s in enumerate("SHDC")}
    buried = p3.DECK.parse_cards(data["discard"], "discard")
    kept = sorted(set(cards) - set(buried))
    assert len(buried) == 3 and len(kept) == 15 and set(buried) <= set(cards)
    assert int(p3.meld_points(np.array([p3.DECK.mask(kept)], dtype=np.uint64), 1)[0]) == 260
    assert sum(m["points"] for m in data["melds"]) == 260
    assert {t for m in data["melds"] for t in m["cards"].split()} <= set(p3.DECK.format_cards(kept).split())
    code, text, _ = run_cli(capsys, "meld", "pinochle3", "--hand", EIGHTEEN)
    assert "meld of the best 15 kept after burying 3 (R3.9a)" in text
    assert f"trump H (hearts): 260 points, burying {data['discard']}   <- best" in text


def test_meld_of_eighteen_cards_keeps_the_most_meld():
    frame = api.meld(MELD_OR_COUNTERS, "S")
    assert frame.attrs["totals"] == {"S": 370} == {"S": best_kept_meld(api.parse_holding(MELD_OR_COUNTERS), 0)}
    bidder = bid.best_discard(api.parse_holding(MELD_OR_COUNTERS), 0)
    assert (bidder.meld, bidder.buried) == (360, 10)  # odds' discard also weighs buried counters


def test_meld_of_eighteen_cards_with_options_and_scale():
    frame = api.meld(EIGHTEEN, "H", {"scale": 0.1})
    assert frame.attrs["totals"] == {"H": 26} and frame.points.sum() == 26


def test_meld_of_fifteen_cards_is_unchanged(capsys):
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", HAND, "--json")
    data = json.loads(out)
    assert code == 0 and data["total"] == 220 and "discard" not in data
    code, text, _ = run_cli(capsys, "meld", "pinochle3", "--hand", HAND)
    assert text.splitlines()[0] == f"Pinochle meld of {data['hand']}" and "burying" not in text
