"""Wilson intervals and the Estimate type."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.stats import Estimate, estimate_frame, wilson


def test_textbook_values():
    # Newcombe (1998), Table I: 81/263 -> 0.2553 to 0.3662; 5/100 from the closed form
    lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    lo, hi = wilson(5, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.0215, 0.1118)


def test_edges_are_exact():
    assert wilson(0, 50)[0] == 0.0 and wilson(50, 50)[1] == 1.0
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 100)[1] == pytest.approx(1.959963984540054**2 / (100 + 1.959963984540054**2))


@given(st.integers(1, 10**7), st.floats(0, 1))
def test_interval_contains_the_point_and_stays_in_unit_range(n, fraction):
    k = int(fraction * n)
    lo, hi = wilson(k, n)
    assert 0 <= lo <= k / n <= hi <= 1


def test_coverage_is_near_95_percent():
    rng = np.random.default_rng(1)
    p, n = 0.07, 400
    draws = rng.binomial(n, p, size=4000)
    covered = np.mean([lo <= p <= hi for lo, hi in (wilson(int(k), n) for k in draws)])
    assert 0.93 < covered < 0.97


def test_estimate_and_frame():
    est = Estimate(30, 120)
    assert est.p == 0.25 and est.lo < 0.25 < est.hi
    assert est.se == pytest.approx(math.sqrt(0.25 * 0.75 / 120))
    assert Estimate(30, 120, level=0.99).lo < est.lo
    frame = estimate_frame(["a", "b"], [1, 3], figure="x")
    assert list(frame["p"]) == [0.25, 0.75] and list(frame["n"]) == [4, 4] and set(frame["figure"]) == {"x"}
