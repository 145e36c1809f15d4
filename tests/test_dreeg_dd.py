"""The Dreeg double-dummy solver (simcore.games.dreeg_dd) against the plain minimax of
tests/naive_dreeg.py on random endings of every table size, with and without trump, the Kamerun
lead restriction and trick counting."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_dreeg as naive
from simcore.errors import CardsimError
from simcore.games import dreeg_dd as dd
from simcore.games import dreeg_rules as r


@st.composite
def endings(draw):
    n = draw(st.sampled_from([2, 3, 4]))
    size = draw(st.integers(1, {2: 5, 3: 3, 4: 3}[n]))
    order = draw(st.permutations(range(24)))
    hands = [set(order[i * size:(i + 1) * size]) for i in range(n)]
    trump = draw(st.sampled_from([None, 0, 1, 2, 3]))
    leader = draw(st.integers(0, n - 1))
    maxside = set(draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=n - 1, unique=True)))
    return hands, leader, trump, maxside


@settings(max_examples=150)
@given(endings(), st.booleans(), st.booleans())
def test_solver_matches_plain_minimax(ending, kamerun, count_tricks):
    hands, leader, trump, maxside = ending
    if kamerun:
        trump = None
    expected = naive.minimax(hands, leader, trump, maxside, restrict=kamerun, count_tricks=count_tricks)
    got = dd.solve([r.DECK.mask(h) for h in hands], leader, -1 if trump is None else trump, maxside,
                   last_led=-1 if kamerun else -2, count_tricks=count_tricks)
    assert got == expected


@settings(max_examples=100)
@given(endings(), st.booleans(), st.integers(0, 3))
def test_counted_seat_against_the_others(ending, kamerun, seat):
    """Kamerun's aim: one seat's points, that seat minimising them and every other seat maximising them."""
    hands, leader, trump, _ = ending
    seat %= len(hands)
    others = set(range(len(hands))) - {seat}
    if kamerun:
        trump = None
    expected = naive.minimax(hands, leader, trump, others, restrict=kamerun, counted={seat})
    got = dd.solve([r.DECK.mask(h) for h in hands], leader, -1 if trump is None else trump, others,
                   last_led=-1 if kamerun else -2, counted={seat})
    assert got == expected


def test_full_deal_sides_split_120():
    """The card play is zero-sum: one side's value plus the other side's is the 120 of the pack."""
    rng = np.random.default_rng(1)
    for n, sides in ((4, ({0, 2}, {1, 3})), (3, ({0}, {1, 2}))):
        hands, _ = r.deal_hands(rng.permutation(24), n)
        assert dd.solve(hands, 0, 2, sides[0]) + dd.solve(hands, 0, 2, sides[1]) == 120


def test_sure_sweep_in_kamerun():
    hands = [r.DECK.mask(r.DECK.parse_cards(h)) for h in ("EA LA HA SA E10 L10", "E9 EU EO L9 LU LO",
                                                           "H9 HU HO S9 SU SO", "EK LK HK SK H10 S10")]
    assert dd.solve(hands, 0, -1, {0}, last_led=-1, exempt=0, count_tricks=True) == 6


def test_bad_positions():
    with pytest.raises(CardsimError, match="equal size"):
        dd.solve([0b11, 0b100], 0, -1, {0})


@st.composite
def mid_trick(draw):
    """An ending with 1 .. n-1 legal cards already played to the trick in play."""
    hands, leader, trump, maxside = draw(endings())
    n = len(hands)
    played = []
    for k in range(draw(st.integers(1, n - 1))):
        seat = (leader + k) % n
        card = draw(st.sampled_from(sorted(naive.legal_follow(hands[seat], played, trump))))
        hands[seat] = hands[seat] - {card}
        played.append(card)
    return hands, leader, trump, maxside, played


@settings(max_examples=100)
@given(mid_trick())
def test_solver_from_the_middle_of_a_trick_matches_minimax(position):
    hands, leader, trump, maxside, played = position
    expected = naive.minimax(hands, leader, trump, maxside, played=played)
    got = dd.solve([r.DECK.mask(h) for h in hands], leader, -1 if trump is None else trump, maxside, trick=played)
    assert got == expected
