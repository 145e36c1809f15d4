"""The bidding rule of thumb of `cardsim thresholds pinochle3` (spec §9.1 Q4: "compare fitted linear rules such
as B* ≈ meld + α·counters_in_hand + β·trump_length"): the job's least-squares sums against a recount of the same
deals, the fits against numpy's least squares on the hands themselves, and the terms against a plain reading of each
hand."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3 as naive
from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore.dealing import deal
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.rng import block_words

RUN = dict(checkpoint=False, progress=False)


def hands_of(job: bid.ThresholdJob, seed: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(terms (m, 4), totals (m, 2), meld before (m,)) of the hands of block 0 that reach the auction, recounted."""
    slots = deal(job.spec, block_words(seed, 0, n, job.spec.words_per_deal))
    slots = slots[bid.reaching_auction(slots, job.nines_rule)]
    o = bid.bidder_outcomes(slots, job.rule, job.dd_tricks, options=job.options)
    totals = np.stack((o["meld"] + o["greedy"], o["meld"] + o["dd"]), axis=1)
    return bid.fit_terms(slots[:, 0], job.options), totals, o["meld_before"]


def test_fit_sums_equal_a_recount_of_the_same_hands():
    job = bid.ThresholdJob(dd_tricks=3)
    fit = job.unpack(job.run_block(5, 0, 200))["fit"]
    terms, totals, meld_before = hands_of(job, 5, 200)
    assert np.array_equal(fit["xtx"], terms.T @ terms) and np.array_equal(fit["xty"], terms.T @ totals)
    assert np.array_equal(fit["yty"], (totals ** 2).sum(axis=0))
    assert np.array_equal(terms[:, 1], meld_before)  # the meld term is the hand's best meld before the kitty
    greedy_only = bid.ThresholdJob()
    assert (greedy_only.unpack(greedy_only.run_block(5, 0, 200))["fit"]["xty"][:, 1] == 0).all()


def lstsq(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(coefficients, standard errors, residual SD) by numpy's least squares on the rows themselves."""
    coef, rss, _, _ = np.linalg.lstsq(x, y, rcond=None)
    sd = np.sqrt(rss[0] / (len(y) - x.shape[1]))
    return coef, sd * np.sqrt(np.diag(np.linalg.inv(x.T @ x))), sd


@pytest.mark.parametrize("divisor", [1, 10])
def test_rules_of_thumb_equal_least_squares_on_the_hands(divisor):
    job = bid.ThresholdJob(dd_tricks=2)
    fit = job.unpack(job.run_block(8, 0, 600))["fit"]
    terms, totals, _ = hands_of(job, 8, 600)
    rules = api._rules_of_thumb(fit, len(terms), ("greedy", "dd"), divisor)
    rules = rules.set_index(["play", "model", "term"]).sort_index()
    for column, play in enumerate(bid.FIT_PLAYS):
        y = totals[:, column].astype(float)
        spread = ((y - y.mean()) ** 2).sum()
        for model, x, target, names in (("free", terms, y, bid.FIT_TERMS),
                                        ("spec", terms[:, [0, 2, 3]], y - terms[:, 1], ("intercept", "counters",
                                                                                         "trump_length"))):
            coef, se, sd = lstsq(x.astype(float), target)
            scale = np.array([1 if name == "meld" else divisor for name in names])
            got = rules.loc[(play, model)].loc[list(names)]
            assert np.allclose(got.coef, coef / scale) and np.allclose(got.se, se / scale)
            assert np.allclose(got.residual_sd, sd / divisor)
            rss = ((target - x @ coef) ** 2).sum()
            assert np.allclose(got.r2, 1 - rss / spread)  # R² of meld + trick points in both models
            assert np.allclose(got.hi - got.lo, 2 * api.Z95 * got.se) and np.allclose(got.lo + got.hi, 2 * got.coef)


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(48)))
def test_fit_terms_read_a_hand_as_a_player_would(pack):
    hand = pack[:15]
    tokens = [p3.DECK.token(c) for c in hand]
    melds = [naive.meld_total(tokens, suit) for suit in "SHDC"]
    lengths = [sum(t[0] == suit for t in tokens) for suit in "SHDC"]
    intended = max(range(4), key=lambda s: (melds[s], lengths[s], -s))  # the longest of equal melds, then S H D C
    counters = sum(t[1:] in ("A", "10", "K") for t in tokens)
    terms = bid.fit_terms(np.array([p3.DECK.mask(hand)], dtype=np.uint64))[0]
    assert terms.tolist() == [1, max(melds), counters, lengths[intended]]


def test_the_intended_trump_is_the_longest_of_equally_good_suits():
    """Spades and clubs both meld 70 as trump (royal marriage, deece and the other marriage): clubs is longer."""
    hand = p3.DECK.parse_cards("SK SQ S9 CK CQ C9 CJ CJ HA H10 HJ HJ DA D10 DA")
    assert bid.fit_terms(np.array([p3.DECK.mask(hand)], dtype=np.uint64))[0, 3] == 5


def test_command_prints_the_rule_of_thumb_and_json_holds_it(capsys):
    argv = ["thresholds", "pinochle3", "--n", "1500", "--seed", "3", "--no-progress"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "Rule of thumb (spec Q4)" in text and "greedy play, spec form:" in text and "greedy play, free fit:" in text
    assert "standard: meld + 60 + 5 per counter + 5 per trump" in text and "double-dummy" not in text
    assert main(argv + ["--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["tables"]["rules_of_thumb"]
    assert {(r["play"], r["model"]) for r in rows} == {("greedy", "spec"), ("greedy", "free")}
    assert {r["term"] for r in rows if r["model"] == "free"} == set(bid.FIT_TERMS)


@pytest.mark.parametrize("n", [3, 29])
def test_too_few_hands_give_no_rule(n):
    tables = api.thresholds(n, 1, **RUN)
    assert tables["rules_of_thumb"].empty
    assert "none fitted: it needs 30 hands or more (raise --n)" in api.format_thresholds(tables)


def test_scale_divides_the_rules_and_the_policies_alike():
    main_game, tenth = (api.thresholds(1200, 2, options=o, **RUN) for o in ({}, {"scale": 0.1}))
    a, b = (t["rules_of_thumb"].set_index(["model", "term"]) for t in (main_game, tenth))
    for term in ("intercept", "counters", "trump_length"):
        assert np.allclose(b.loc[("free", term), "coef"] * 10, a.loc[("free", term), "coef"])
    assert np.isclose(b.loc[("free", "meld"), "coef"], a.loc[("free", "meld"), "coef"])
    assert np.allclose(b.r2, a.r2) and np.allclose(b.residual_sd * 10, a.residual_sd)
    text = api.format_thresholds(tenth)
    assert "standard: meld + 6.0 + 0.5 per counter + 0.5 per trump" in text and "meld + 60" not in text


def test_one_solved_trick_adds_no_rule_of_its_own():
    """The last trick plays itself: with --dd-tricks 1 the solved totals are the greedy ones."""
    assert set(api.thresholds(300, 2, dd_tricks=1, **RUN)["rules_of_thumb"].play) == {"greedy"}
