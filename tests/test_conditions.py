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
    ("partner gleich <= four Aces", "not understood.*>= or <"),  # was read as '<' and a class '= four Aces'
    ("partner gleich > four Aces", "not understood"),
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


@pytest.mark.parametrize("hand,known,given", [
    ("EA LK H9 S7 LU", None, "partner gleich >= four Aces"),            # you hold an Ace
    ("EA LA HA SA LU", None, "opponents gleich >= four Aces"),          # you hold all four Aces
    ("EK LK H9 S7 LU", {3: "E7 L8 H10 SU EO"}, "partner gleich >= pair of 7s"),  # the partner's known hand has none
    ("EK LK H9 S7 LU", {3: "E7 L7 H8 S8 EO"}, "seat3 gleich < pair of 7s"),  # seat 3 already holds two pairs
])
def test_conditions_impossible_with_the_placed_cards_are_refused_before_dealing(hand, known, given):
    facts = g.parse_known(hand, 1, None, known)
    with pytest.raises(CardsimError, match="cannot hold with the cards already placed"):
        api.parse_conditions((given,), 1, facts)


def test_conditions_possible_with_the_placed_cards_pass():
    facts = g.parse_known("EA LA HA S7 LU", 1, "SA", {3: "E7 L7"})
    for given in ("opponents gleich >= pair of Aces",  # no Ace left, but any three of a kind (three 8s) ranks above
                  "partner gleich >= three 7s", "partner gleich < three 7s", "opponents hanger >= K-O-U-10-9"):
        assert api.parse_conditions((given,), 1, facts)


def test_possible_agrees_with_dealing():
    """`FigureCondition.possible` is False exactly when no dealt deal meets the condition, on cases
    where dealing finds the answer (a seat with few open places)."""
    facts = g.parse_known("EA LA H9 S7 LU", 1, "HA", {2: "E7 L7 H7 S8"})
    spec = facts.deal_spec()
    slots = deal(spec, block_words(5, 0, 20_000, spec.words_per_deal))
    for text in ("partner gleich >= four 7s", "partner gleich >= three 7s", "partner gleich < pair of 7s",
                 "partner gleich >= pair of Aces", "partner gleich >= pair of Kings", "seat0 gleich >= four Aces",
                 "opponents gleich >= three Aces", "partner hanger >= 9-8-7"):
        condition = g.parse_condition(text, 1)
        assert condition.possible(facts) == bool(condition(slots).any()), text
