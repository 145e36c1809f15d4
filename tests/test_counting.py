"""simcore.counting: card points by subset sums and the hypergeometric law, against a plain listing of every hand."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from simcore import counting
from simcore.errors import CardsimError


@settings(max_examples=80, deadline=None)
@given(points=st.lists(st.integers(0, 12), min_size=0, max_size=9), data=st.data())
def test_point_counts_equal_a_plain_listing(points, data):
    n = data.draw(st.integers(0, len(points)))
    fixed = data.draw(st.integers(0, (1 << len(points)) - 1).filter(lambda m: m.bit_count() <= n))
    plain = [0] * (sum(points) + 1)
    for cards in combinations(range(len(points)), n):
        if all(c in cards for c in range(len(points)) if fixed >> c & 1):
            plain[sum(points[c] for c in cards)] += 1
    assert list(counting.point_counts(points, n, fixed)) == plain


@pytest.mark.parametrize("special, population, drawn", [(4, 16, 6), (7, 15, 11), (0, 5, 3), (5, 5, 2), (3, 10, 10)])
def test_hypergeometric_equals_a_plain_listing(special, population, drawn):
    plain: dict[int, int] = {}
    hands = list(combinations(range(population), drawn))
    for hand in hands:
        k = sum(c < special for c in hand)
        plain[k] = plain.get(k, 0) + 1
    assert counting.hypergeometric(special, population, drawn) == {k: Fraction(v, len(hands))
                                                                   for k, v in sorted(plain.items())}


@pytest.mark.parametrize("call, message", [
    (lambda: counting.point_counts((1, 2), 3), "n (the cards in the hand)"),
    (lambda: counting.point_counts((1, -2), 1), "a card's points"),
    (lambda: counting.point_counts(7, 1), "points must list every card's points"),
    (lambda: counting.point_counts((1, 2, 3), 1, 0b11), "a hand of 1 cards cannot hold the 2 fixed cards"),
    (lambda: counting.point_counts((1, 2), 1, 4), "fixed (a card mask)"),
    (lambda: counting.hypergeometric(5, 4, 2), "special cards"),
    (lambda: counting.hypergeometric(2, 4, 5), "cards drawn"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(CardsimError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
