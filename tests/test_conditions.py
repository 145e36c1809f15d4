"""Accept predicates ("what a bet reveals") agree with a plain evaluation and condition the odds."""

import numpy as np
import pytest

import naive
from analysis.games import giltspiel as api
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.rng import block_words


def test_condition_matches_plain_evaluation():
    spec = g.Known().deal_spec()
    slots = deal(spec, block_words(3, 0, 4000, spec.words_per_deal))
    for text, seat in [("opponents gleich >= pair of Obers", 1), ("partner hanger >= K-O", 2),
                       ("team gleich < pair of 7s", 0), ("seat3 hanger >= 9-8-7", 1)]:
        cond = g.parse_condition(text, seat)
        figure = naive.best_gleich if cond.figure == "gleich" else naive.best_hanger
        best = np.array([max(figure(naive.cards_of(row[s])) for s in cond.seats) for row in slots])
        expected = best < cond.code if cond.below else best >= cond.code
        assert (cond(slots) == expected).all(), text
        assert 0 < expected.sum() < len(expected)


def test_conditions_shape_the_odds():
    # opponents without any pair: a team holding a pair of Kings can only win the Gleich
    frame = api.odds("EK LK H9 S7 LU", seat=1, given=("opponents gleich < pair of 7s",), n=100_000, seed=2,
                     progress=False, checkpoint=False)
    gleich = frame[frame.figure == "gleich"].set_index("outcome")
    assert gleich.loc["win", "p"] == 1.0
    assert 0 < frame.attrs["n"] < 100_000
    # opponents holding three of a kind or better: no stand (triples never tie) and no void; only the
    # partner's own triple or quad can still win, which is rare
    frame = api.odds("EK LK H9 S7 LU", seat=1, given=("opponents gleich >= three 7s",), n=100_000, seed=2,
                     progress=False, checkpoint=False)
    gleich = frame[frame.figure == "gleich"].set_index("outcome")
    assert gleich.loc["stand", "p"] == 0 and gleich.loc["void", "p"] == 0
    assert gleich.loc["lose", "p"] > 0.9


@pytest.mark.parametrize("text,message", [
    ("opponents gleich >= pair of Ober", "not a gleich class"),
    ("rivals gleich >= pair of Obers", "not understood"),
    ("opponents spiel >= 3", "not understood"),
    ("opponents hanger >= A-7", "not a hanger class"),
])
def test_bad_conditions(text, message):
    with pytest.raises(CardsimError, match=message):
        g.parse_condition(text, 1)


@pytest.mark.parametrize("given", [
    ("opponents gleich >= pair of Obers", "opponents gleich < pair of Obers"),
    ("seat0 gleich >= three 7s", "opponents gleich < pair of Aces"),
    ("partner hanger >= K-O-U", "team hanger < 9-8-7"),
])
def test_contradicting_conditions_are_refused_before_dealing(given):
    with pytest.raises(CardsimError, match="contradict each other"):
        api.parse_conditions(given, 1)


@pytest.mark.parametrize("given", [
    ("opponents gleich >= pair of Obers", "opponents gleich < pair of Aces"),
    ("opponents gleich >= pair of Obers", "seat0 gleich < pair of 7s"),
    ("partner gleich >= pair of Kings", "opponents gleich < pair of Kings"),
    ("seat0 hanger >= K-O", "seat0 gleich < pair of 7s"),
])
def test_compatible_conditions_pass(given):
    assert len(api.parse_conditions(given, 1)) == 2
