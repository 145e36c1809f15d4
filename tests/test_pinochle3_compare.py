"""Pinochle comparisons on the same deals (spec shared/rules/pinochle3.md §9.1 Q7, Q9): discard policies
against the burial rules (R4.7b: any 3 of the 18, A8) and a plain reference, ``odds --compare`` paired
with separate runs, its JSON and bad input, and EV_pass in the thresholds' sweep frame."""

import argparse
import json
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3
from naive_pinochle3_bid import token
from naive_pinochle3_play import counters, strength, suit
from analysis.cli import main
from analysis.games import pinochle3 as api
from analysis.games.pinochle3_compare import PAIRED_MODEL, compare, compare_frame
from analysis.stats import paired_difference
from simcore.dealing import deal
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_discard as discard
from simcore.rng import block_words

HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
BIDS = (300, 340, 370)


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def reference_bury(cards, trump, policy) -> tuple[tuple[int, ...], int]:
    """Plain reference of `pinochle3_discard.bury`: every 3 of the 18 and every trump, the first
    with the greatest key, features counted card by card with the literal meld reference; the
    buried cards as faces (two copies are alike)."""
    best = None
    for dropped in combinations(sorted(cards), 3):
        kept = [c for c in cards if c not in dropped]
        buried = 10 * counters(dropped)
        for t in range(4) if trump is None else (trump,):
            meld = naive_pinochle3.meld_total([token(c) for c in kept], "SHDC"[t])
            f = {"meld": meld, "buried": buried, "value": meld + buried, "trumps": sum(suit(c) == t for c in kept),
                 "aces": sum(strength(c) == 5 for c in kept), "ranks": sum(strength(c) for c in kept)}
            key = tuple(f[name] for name in discard.DISCARD_POLICIES[policy].key)
            if best is None or key > best[0]:
                best = (key, tuple(c // 2 for c in dropped), t)
    return best[1], best[2]


# --- discard policies (R4.7) ----------------------------------------------------------------------
@settings(max_examples=25, deadline=None)
@given(st.permutations(range(48)), st.sampled_from(list(discard.DISCARD_POLICIES)), st.none() | st.integers(0, 3))
def test_every_policy_buries_three_of_the_eighteen(pack, policy, trump):
    """R4.7b, A8: exactly 3 of the 18 cards, any of them (no card is barred from burial); the trump
    given is kept; meld and buried points are those of the kept 15 and the 3 buried."""
    cards = sorted(pack[:18])
    buried, t = discard.bury(cards, trump, policy)
    assert len(set(buried)) == 3 and set(buried) <= set(cards) and t in range(4)
    assert trump is None or t == trump
    holding = np.array([p3.DECK.mask(cards)], dtype=np.uint64)
    mask, trumps, melds, points = discard.policy_discards(holding, trump, policy)
    kept = np.array([p3.DECK.mask(sorted(set(cards) - set(buried)))], dtype=np.uint64)
    assert int(mask[0]) == p3.DECK.mask(buried) and int(trumps[0]) == t
    assert int(melds[0]) == int(p3.meld_points(kept, t)[0]) and int(points[0]) == 10 * counters(buried)


@settings(max_examples=3, deadline=None)
@given(st.permutations(range(48)), st.none() | st.integers(0, 3))
def test_policies_match_the_plain_reference(pack, trump):
    cards = sorted(pack[:18])
    for policy in discard.DISCARD_POLICIES:
        buried, t = discard.bury(cards, trump, policy)
        assert (tuple(c // 2 for c in buried), t) == reference_bury(cards, trump, policy), policy


def test_kernel_policies_are_searched_once_and_agree_with_their_keys(monkeypatch):
    """`best` and `meld_first` are `discards` (the compiled search, also `pinochle3_bid`'s), which chooses
    exactly what the feature search by their keys chooses."""
    rng = np.random.default_rng(3)
    holdings = np.array([p3.DECK.mask(rng.permutation(48)[:18].tolist()) for _ in range(300)], dtype=np.uint64)
    assert bid.discards is discard.discards and set(discard.KERNEL_POLICIES) == {"best", "meld_first"}
    for policy, meld_first in discard.KERNEL_POLICIES.items():
        for trump in (None, 1):
            kernel = discard.discards(holdings, trump, None, meld_first)
            by_key = discard.feature_discards(holdings, trump, discard.DISCARD_POLICIES[policy].key)
            for got, want in zip(by_key, kernel):
                np.testing.assert_array_equal(got, want)
    monkeypatch.setattr(discard, "feature_discards", None)  # the kernel policies never reach the feature search
    for policy in discard.KERNEL_POLICIES:
        discard.policy_discards(holdings[:2], None, policy)


def test_policies_on_a_worked_hand():
    """The README's hand with the kitty HK SQ CA under hearts: best buries three plain counters
    (meld 260 + 30), keep_aces keeps SA and CA, bury_counters buries 30 at any meld."""
    cards = p3.DECK.parse_cards("HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ HK SQ CA", "cards")
    fmt = p3.DECK.format_cards
    assert fmt(discard.bury(cards, 1, "best")[0]) == "SA DK D10"
    aces = discard.bury(cards, 1, "keep_aces")[0]
    assert not {"SA", "CA"} & set(fmt(aces).split())
    assert counters(discard.bury(cards, 1, "bury_counters")[0]) == 3


def test_unknown_policy():
    with pytest.raises(Exception, match="unknown discard policy 'x'; choose one of: best"):
        discard.policy_discards(np.array([(1 << 18) - 1], dtype=np.uint64), None, "x")


# --- odds --compare ----------------------------------------------------------------------------------
def test_rules_paired_with_separate_odds_runs():
    """Each rule's P(make) is `odds` with that rule on the same seed, and the paired difference is the
    difference of the two runs' estimates (greedy and dd columns)."""
    tables = compare(HAND, "rules", bids=BIDS, n=512, seed=11, dd_tricks=2, checkpoint=False)
    make = tables["make"].set_index(["alternative", "play", "bid"])
    runs = {r: api.odds(HAND, bids=BIDS, n=512, seed=11, dd_tricks=2, rule=r, checkpoint=False)["make"].set_index("bid")
            for r in ("old", "old_strict", "new1945")}
    for r, run in runs.items():
        for play in ("greedy", "dd"):
            for b in BIDS:
                assert make.loc[(r, play, b), "p"] == run.loc[b, f"{play}_p"]
                assert make.loc[(r, play, b), "diff"] == pytest.approx(run.loc[b, f"{play}_p"]
                                                                      - runs["old"].loc[b, f"{play}_p"], abs=1e-12)
    greedy = tables["points"].set_index(["alternative", "play"])
    assert greedy.loc[("new1945", "greedy"), "diff"] == 0.0  # greedy plays alike under new1945
    frame = compare_frame(tables).set_index("estimate")  # the sweep form
    assert frame.loc["compare.old_strict.make_diff.340.dd", "hi"] == make.loc[("old_strict", "dd", 340), "diff_hi"]
    assert frame.loc["compare.new1945.points.dd", "value"] == greedy.loc[("new1945", "dd"), "mean"]


def test_discard_points_paired_with_separate_plays():
    """E[P_b] and P(make) and their paired differences agree with `bidder_outcomes` run alone per policy
    on the deals of the same seed (`BidderJob`'s deal spec and blocks): the mean's interval from the
    sample sd of the per-deal differences (none when no deal differed), P(make)'s Tango's score
    interval of the deals only one side made."""
    n, seed = 300, 5
    tables = compare(HAND, "discards", bids=BIDS, n=n, seed=seed, dd_tricks=0, checkpoint=False)
    spec = bid.BidderJob(p3.DECK.parse_cards(HAND, "hand")).spec
    size = bid.BidderJob.block_size
    slots = np.concatenate([deal(spec, block_words(seed, b, min(size, n - b * size), spec.words_per_deal))
                            for b in range((n + size - 1) // size)])
    outcomes = {d: bid.bidder_outcomes(slots, discard=d) for d in discard.DISCARD_POLICIES}
    points = {d: o["greedy"] for d, o in outcomes.items()}
    got = tables["points"].set_index("alternative")
    make = tables["make"].set_index(["alternative", "bid"])
    for d, pts in points.items():
        assert got.loc[d, "mean"] == pytest.approx(pts.mean())
        assert got.loc[d, "diff"] == pytest.approx(pts.mean() - points["best"].mean())
        sd = (pts - points["best"]).std(ddof=1)
        if sd:
            assert got.loc[d, "diff_hi"] - got.loc[d, "diff"] == pytest.approx(1.959963984540054 * sd / np.sqrt(n))
        else:  # best itself, and meld_first here: no interval of width 0
            assert np.isnan(got.loc[d, "diff_lo"]) and np.isnan(got.loc[d, "diff_hi"])
        for b in BIDS:
            made = {k: o["meld"] + o["greedy"] >= b for k, o in ((d, outcomes[d]), ("best", outcomes["best"]))}
            only = int((made[d] & ~made["best"]).sum()), int((made["best"] & ~made[d]).sum())
            row = make.loc[(d, b)]
            if d != "best":
                assert (row["diff"], row["diff_lo"], row["diff_hi"]) == paired_difference(*only, n)
    assert np.isnan(got.loc["meld_first", "diff_lo"])  # meld_first plays best's discards on these deals


def test_run_split_invariance():
    one = compare(HAND, "discards", bids=BIDS, n=600, seed=2, dd_tricks=1, checkpoint=False)
    split = compare(HAND, "discards", bids=BIDS, n=600, seed=2, dd_tricks=1, checkpoint=False, jobs=2,
                    chunk_deals=256)
    for name in one:
        assert one[name].equals(split[name])


def test_compare_json_keys(capsys):
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "64", "--seed", "1", "--bids",
                           "300,350", "--dd-tricks", "1", "--compare", "discards", "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"game", "hand", "kitty", "trump", "n", "seed", "compare", "default", "rule", "dd_tricks",
                         "options", "thrown_in", "paired_interval", "alternatives"}
    assert data["compare"] == "discards" and data["default"] == "best" and data["rule"] == "old"
    assert [x["name"] for x in data["alternatives"]] == list(discard.DISCARD_POLICIES)
    first = data["alternatives"][0]
    assert set(first) == {"name", "note", "meld", "plays"} and set(first["plays"]) == {"greedy", "dd"}
    stat = {"lo", "hi", "diff", "diff_lo", "diff_hi"}
    assert set(first["meld"]) == set(first["plays"]["dd"]["points"]) == stat | {"mean"}
    assert [set(r) for r in first["plays"]["greedy"]["make"]] == [stat | {"bid", "p"}] * 2
    assert first["plays"]["greedy"]["make"][0]["diff"] == 0.0


def test_compare_text(capsys):
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "64", "--bids", "300", "--dd-tricks",
                           "0", "--compare", "rules")
    assert code == 0 and "by play rule" in out and "new1945_alt" in out and out.count("diff +") >= 3
    assert PAIRED_MODEL in out and "Tango" in PAIRED_MODEL and "1.96·sd/√n" in PAIRED_MODEL


def test_no_zero_width_paired_interval(capsys):
    """Greedy play heads every trick it can, so new1945 plays as old in the greedy column: no deal
    differs. P(make)'s difference then has Tango's interval of width > 0, and E[P_b]'s says so."""
    n = 128
    tables = compare(HAND, "rules", bids=(340,), n=n, seed=1, dd_tricks=0, checkpoint=False)
    row = tables["make"].set_index("alternative").loc["new1945"]
    lo, hi = paired_difference(0, 0, n)[1:]
    assert (row["diff"], row["diff_lo"], row["diff_hi"]) == (0.0, lo, hi) and lo < 0 < hi
    points = tables["points"].set_index("alternative").loc["new1945"]
    assert points["diff"] == 0 and np.isnan(points["diff_lo"]) and np.isnan(points["diff_hi"])
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", str(n), "--seed", "1", "--bids", "340",
                           "--dd-tricks", "0", "--compare", "rules", "--no-progress")
    assert code == 0 and "[+0.000,+0.000]" not in out and "[+0.0,+0.0]" not in out
    assert out.count("no deal differed") >= 2 and f"diff +0.000 [{lo:+.3f},{hi:+.3f}]" in out  # new1945, _alt
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", str(n), "--seed", "1", "--bids", "340",
                           "--dd-tricks", "0", "--compare", "rules", "--no-progress", "--json")
    data = {a["name"]: a for a in json.loads(out)["alternatives"]}
    assert data["new1945"]["plays"]["greedy"]["points"]["diff_lo"] is None
    assert data["old"]["plays"]["greedy"]["make"][0]["diff_lo"] is None  # the default is not paired with itself


@pytest.mark.parametrize("argv,message", [
    (["--compare", "rule"],
     "argument --compare: invalid choice: 'rule' (did you mean 'rules'?) (choose from rules, discards)"),
    (["--compare", "rules", "--rule", "old"], "--compare rules plays every rule"),
    (["--compare", "rules", "--option", "play_rule=old"], "drop --rule and option play_rule"),
    (["--compare", "discards", "--play", "pimc"], "--compare plays greedy and dd columns only; drop --play pimc"),
])
def test_bad_compare_is_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "8", *argv)
    lines = err.strip().splitlines()
    assert code == 2 and out == "" and len(lines) == 1 and lines[0].startswith("cardsim: error: ")
    assert message in lines[0]


def test_compare_api_rejects_unknown():
    with pytest.raises(Exception, match="cannot compare 'deals'; choose one of: rules, discards"):
        compare(HAND, "deals", n=8)


# --- thresholds: EV_pass where P(make) is ------------------------------------------------------------
def test_thresholds_frame_has_ev_pass():
    from analysis.commands import commands

    args = argparse.Namespace(n=600, seed=3, rule=None, option=[], dd_tricks=0, jobs=1, chunk_size=None,
                              checkpoint=False, no_progress=True, scheduler=None, dask_workers=None)
    frame = commands()["thresholds"]["pinochle3"].frame(args).set_index("estimate")
    curves = api.thresholds(600, 3, checkpoint=False)["curves"].set_index(["meld", "bid"])
    row = curves.loc[("0-90", 300)]
    assert frame.loc["make.0-90.300", "value"] == row["p"]
    assert frame.loc["ev_pass.0-90", "value"] == row["ev_pass"]
    assert frame.loc["ev_vs_pass.0-90.300", "lo"] == row["ev_vs_pass_lo"]
    assert row["ev_vs_pass_lo"] < row["ev_vs_pass"] < row["ev_vs_pass_hi"]
