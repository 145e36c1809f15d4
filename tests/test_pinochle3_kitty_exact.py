"""Pinochle exact kitty gain (spec shared/rules/pinochle3.md §9.1 Q2): `pinochle3_discard.kitty_gains` over every
kitty against a plain enumeration of the C(33, 3) = 5,456 physical kitties, the literal meld reference on some of
them, and the ``odds`` command's exact figures in text, JSON and frame, within the sampled interval."""

import json
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

import naive_pinochle3_bid as naive
from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games.pinochle3_discard import kitties, kitty_gains

HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
"""The README hand: meld 220 in hearts; the reviewer's enumeration gives a mean gain of 34.758."""
CARDS = p3.DECK.parse_cards(HAND, "--hand")
RUN = {"progress": False, "checkpoint": False}


def plain_gains(cards, trump=None, options=None) -> list[int]:
    """The kitty gain of every physical kitty of 3 of the 33 unseen cards, one by one: the most meld a discard keeps
    (spec Q2) minus the best meld of the hand."""
    before = max(int(p3.meld_points(np.array([p3.DECK.mask(cards)], dtype=np.uint64), t, options)[0])
                 for t in range(4))
    unseen = [c for c in range(48) if c not in cards]
    return [bid.best_discard(cards + list(k), trump, options, meld_first=True).meld - before
            for k in combinations(unseen, 3)]


def weighted(gains, weights) -> tuple[float, list[float]]:
    """(mean, P(gain >= x) for x of `api.GAIN_STEPS`) of gains with weights."""
    gains, weights = np.asarray(gains), np.asarray(weights)
    total = weights.sum()
    return float(gains @ weights / total), [float(weights[gains >= x].sum() / total) for x in api.GAIN_STEPS]


def test_kitties_are_every_kitty_once_per_choice_of_faces():
    masks, weights = kitties(p3.DECK.mask(CARDS))
    unseen = [c for c in range(48) if c not in CARDS]
    plain = Counter(tuple(c // 2 for c in k) for k in combinations(unseen, 3))
    faces = [tuple(c // 2 for c in range(48) if int(m) >> c & 1) for m in masks]
    assert dict(zip(faces, weights.tolist())) == plain and weights.sum() == 5456
    assert all(int(m) & p3.DECK.mask(CARDS) == 0 for m in masks)


@pytest.mark.parametrize("trump, options", [(None, None), (2, None), (None, {"double_royal_marriage": 240})])
def test_exact_gain_equals_a_plain_enumeration_of_the_5456_kitties(trump, options):
    gains, weights = kitty_gains(p3.DECK.mask(CARDS), trump, options)
    plain = plain_gains(CARDS, trump, options)
    (mean, tails), (plain_mean, plain_tails) = weighted(gains, weights), weighted(plain, np.ones(len(plain)))
    assert mean == pytest.approx(plain_mean, abs=1e-12) and tails == pytest.approx(plain_tails, abs=1e-12)
    if trump is None and options is None:
        assert sum(plain) / len(plain) == pytest.approx(34.758064516)


def test_kitty_gains_match_the_literal_meld_reference_on_some_kitties():
    masks, _ = kitties(p3.DECK.mask(CARDS))
    gains, _ = kitty_gains(p3.DECK.mask(CARDS))
    before = 220
    for i in np.random.default_rng(7).choice(len(masks), 8, replace=False):
        kitty = [c for c in range(48) if int(masks[i]) >> c & 1]
        assert gains[i] == naive.most_meld(CARDS + kitty) - before


def test_odds_show_the_exact_gain_in_text_json_and_frame(capsys):
    argv = ["odds", "pinochle3", "--hand", HAND, "--n", "64", "--seed", "1", "--bids", "300", "--dd-tricks", "0",
            "--no-progress"]
    mean, at_least = weighted(*kitty_gains(p3.DECK.mask(CARDS)))
    assert main(argv + ["--json"]) == 0
    gain = json.loads(capsys.readouterr().out)["kitty_gain"]
    assert gain["exact"] == gain["mean"] == gain["lo"] == gain["hi"] == pytest.approx(mean) and gain["se"] == 0
    assert gain["kitties"] == 5456 and [r["p"] for r in gain["at_least"]] == pytest.approx(at_least)
    assert all(r["lo"] == r["p"] == r["hi"] and r["n"] == 5456 for r in gain["at_least"])
    sampled = gain["sampled"]
    assert sampled["lo"] < sampled["mean"] < sampled["hi"] and sampled["se"] > 0
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "exact over all 5,456 kitties: mean 34.758" in text and f"P(gain >= 10 ) {at_least[0]:.4f}" in text
    assert f"(mean of the 64 deals below: {sampled['mean']:.1f} [{sampled['lo']:.1f}, {sampled['hi']:.1f}])" in text


@pytest.mark.parametrize("seed", [2, 3, 4])
def test_sampled_gain_interval_holds_the_exact_mean(seed):
    tables = api.odds(HAND, bids=(300,), n=2048, seed=seed, dd_tricks=0, **RUN)
    a = tables["make"].attrs
    assert a["gain_mean"]["lo"] <= a["gain_exact"] <= a["gain_mean"]["hi"]


def test_scale_divides_the_exact_gain():
    main_game, tenth = (api.odds(HAND, bids=(b,), n=16, seed=1, dd_tricks=0, options=o, **RUN)
                        for b, o in ((300, {}), (30, {"scale": 0.1})))
    assert tenth["make"].attrs["gain_exact"] == pytest.approx(main_game["make"].attrs["gain_exact"] / 10)
    assert tenth["gain"].p.tolist() == main_game["gain"].p.tolist()


def test_the_gain_is_the_most_meld_a_discard_keeps_not_the_meld_of_the_best_discard(capsys):
    """Spec Q2 maximises the meld kept; the best discard of play (meld + buried counters) keeps 400 here and buries
    20 in counters, while another keeps 410: the gain is 410 - 240 (and 60.502 over every kitty, as `stats` counts
    it; the best discard's meld would give 60.429)."""
    hand, kitty = "SJ SQ SA H9 HJ HQ HK H10 HA DJ DJ DQ DA DA CJ", "CQ CK CA"
    cards, extra = p3.DECK.parse_cards(hand, "--hand"), p3.DECK.parse_cards(kitty, "--kitty")
    best, most = bid.best_discard(cards + extra), bid.best_discard(cards + extra, meld_first=True)
    before = int(p3.best_meld(np.array([p3.DECK.mask(cards)], dtype=np.uint64))[0][0])
    assert (best.meld, best.buried, most.meld, before) == (400, 20, 410, 240)
    assert naive.most_meld(cards + extra) == 410
    argv = ["odds", "pinochle3", "--hand", hand, "--kitty", kitty, "--n", "8", "--seed", "1", "--bids", "300",
            "--dd-tricks", "0", "--no-progress", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kitty_gain"] == {"exact": 170} and data["best_discard"]["meld"] == 400
    mean, _ = weighted(*kitty_gains(p3.DECK.mask(cards)))
    assert mean == pytest.approx(60.502199413, abs=1e-9)
