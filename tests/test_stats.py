"""Wilson intervals, the Estimate type and the distribution-free median interval."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.stats import (Estimate, clustered_share, estimate_frame, format_p, median_interval, paired_difference,
                            table_records, wilson)


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


def _pairs(rng, pairs, p_a, correlation):
    """(successes, successes_sq) of duplicate pairs: each game a win with probability p_a; with
    probability |correlation| the second game copies (positive) or mirrors (negative) the first."""
    first = rng.random(pairs) < p_a
    second = rng.random(pairs) < p_a
    tied = rng.random(pairs) < abs(correlation)
    # mirroring keeps the mean only at p = 1/2, where the tests use it
    second = np.where(tied, first if correlation > 0 else ~first, second)
    totals = first.astype(int) + second
    return int(totals.sum()), int((totals ** 2).sum())


def test_clustered_share_of_independent_trials_is_wilson():
    rng = np.random.default_rng(5)
    wins, wins_sq = _pairs(rng, 20_000, 0.3, 0.0)
    share = clustered_share(wins, wins_sq, 20_000, 2)
    lo, hi = wilson(wins, 40_000)
    assert share["p"] == wins / 40_000
    assert abs(share["design_effect"] - 1) < 0.05
    assert share["lo"] == pytest.approx(lo, abs=2e-4) and share["hi"] == pytest.approx(hi, abs=2e-4)


@pytest.mark.parametrize("correlation", [-0.8, 0.0, 0.8])
def test_clustered_share_covers_95_percent_of_correlated_pairs(correlation):
    # duplicate games are correlated; plain Wilson over games would cover ~100% (negative) or ~80% (positive)
    rng = np.random.default_rng(11)
    hits = 0
    for _ in range(1000):
        share = clustered_share(*_pairs(rng, 400, 0.5, correlation), 400, 2)
        hits += share["lo"] <= 0.5 <= share["hi"]
    assert 0.93 <= hits / 1000 <= 0.97


def test_clustered_share_edges():
    assert clustered_share(0, 0, 50, 2)["lo"] == 0.0
    full = clustered_share(100, 200, 50, 2)
    assert full["hi"] == 1.0 and full["lo"] < 1.0
    assert clustered_share(0, 0, 0, 2)["n"] == 0


def test_clustered_share_with_few_clusters_is_not_overconfident():
    # one cluster says nothing about the spread: plain Wilson; a few lopsided pairs (mostly split 1-1,
    # sometimes 2-0) must not give intervals narrower than they can support
    assert clustered_share(2, 4, 1, 3)["lo"] == pytest.approx(wilson(2, 3)[0])
    rng = np.random.default_rng(3)
    hits = 0
    for _ in range(1000):
        totals = rng.choice(3, size=10, p=[0, 0.9, 0.1])
        share = clustered_share(int(totals.sum()), int((totals ** 2).sum()), 10, 2)
        hits += share["lo"] <= 0.55 <= share["hi"]
    assert hits / 1000 >= 0.95


def test_median_interval_textbook_ranks():
    # order statistics of the 95% median interval: n = 11 -> 2nd and 10th (coverage 1 - 2 * 12/2048),
    # n = 40 -> 14th and 27th (the usual table); n = 6 is the smallest sample that reaches 95%
    assert median_interval(np.arange(1, 12)) == (2.0, 10.0, pytest.approx(1 - 24 / 2048))
    lo, hi, coverage = median_interval(np.arange(40, 0, -1))
    assert (lo, hi) == (14.0, 27.0) and 0.95 <= coverage < 0.97
    assert median_interval([3, 1, 2, 6, 5, 4]) == (1.0, 6.0, pytest.approx(1 - 2 / 64))


def test_median_interval_small_samples_give_the_range_and_its_coverage():
    assert median_interval([5, 1, 3]) == (1.0, 5.0, 0.75)
    assert median_interval([7]) == (7.0, 7.0, 0.0)
    with pytest.raises(ValueError):
        median_interval([])


@given(st.lists(st.floats(-1e6, 1e6), min_size=1, max_size=60))
def test_median_interval_brackets_the_sample_median(values):
    lo, hi, coverage = median_interval(values)
    assert lo <= np.median(values) <= hi
    assert coverage >= 0.95 or len(values) < 6


def test_median_interval_covers_the_true_median_at_least_95_percent():
    rng = np.random.default_rng(2)
    samples = rng.lognormal(size=(4000, 11))  # skewed like solve times; true median 1
    covered = np.mean([lo <= 1.0 <= hi for lo, hi, _ in map(median_interval, samples)])
    assert 0.98 < covered < 0.995  # the exact coverage for n = 11 is 0.988


@given(st.integers(0, 60), st.integers(0, 60), st.integers(0, 200))
def test_paired_difference_contains_its_estimate_and_mirrors(b, c, rest):
    n = b + c + rest
    if n == 0:
        return
    d, lo, hi = paired_difference(b, c, n)
    assert -1 <= lo <= d <= hi <= 1 and d == (b - c) / n
    d2, lo2, hi2 = paired_difference(c, b, n)
    assert d2 == -d and lo2 == pytest.approx(-hi, abs=1e-9) and hi2 == pytest.approx(-lo, abs=1e-9)


def test_paired_difference_without_discordant_units_is_not_a_point():
    """b = c = 0: Tango's interval is +-z^2 / (n + z^2) (the Wald interval would be [0, 0])."""
    z2 = 1.959963984540054 ** 2
    assert paired_difference(0, 0, 91) == pytest.approx((0.0, -z2 / (91 + z2), z2 / (91 + z2)))


def test_paired_difference_agrees_with_wald_for_large_counts_and_covers():
    b, c, n = 1000, 800, 10_000
    d = (b - c) / n
    half = 1.959963984540054 * math.sqrt((b + c) / n - d * d) / math.sqrt(n)
    assert paired_difference(b, c, n)[1:] == pytest.approx((d - half, d + half), abs=2e-5)
    rng = np.random.default_rng(5)  # coverage of the true difference 0.03 at n = 60
    cells = rng.multinomial(60, [0.05, 0.02, 0.93], size=4000)
    covered = np.mean([lo <= 0.03 <= hi for lo, hi in (paired_difference(x, y, 60)[1:] for x, y, _ in cells)])
    assert 0.93 <= covered <= 0.99


def test_format_p_keeps_small_probabilities_readable():
    assert [format_p(x) for x in (0.0, 0.0482, 0.001, 1.584e-4, 9.996e-4, 3e-9)] == \
        ["0.0000", "0.0482", "0.0010", "1.6e-4", "1.0e-3", "3.0e-9"]
    assert str(Estimate(3, 20_000)) == "1.5e-4 [5.1e-5, 4.4e-4]"
    assert {len(format_p(x)) for x in np.geomspace(1e-9, 1, 500)} == {6}  # table columns keep their width


@given(st.floats(min_value=0.0, max_value=1.0))
def test_format_p_reads_back_within_its_precision(x):
    assert abs(float(format_p(x)) - x) <= max(5e-5, 5e-2 * x)


def test_table_records_keep_every_digit_and_turn_missing_values_into_none():
    """A share of 3e-12 is no 0.0 in the JSON (pandas' to_json rounds to 10 decimals); numpy scalars and arrays become
    Python numbers and lists, NaN and missing text None, and the records survive json.dumps as they are."""
    import json

    import pandas as pd

    table = pd.DataFrame({"p": [3.2345678e-12, np.nan, 1 / 899], "n": np.array([1, 2, 3], dtype=np.uint64),
                          "what": ["a", None, "c"], "cards": [np.array([1, 2]), (3,), []]})
    rows = table_records({"t": table})["t"]
    assert rows[0] == {"p": 3.2345678e-12, "n": 1, "what": "a", "cards": [1, 2]}
    assert rows[1] == {"p": None, "n": 2, "what": None, "cards": [3]} and rows[2]["p"] == 1 / 899
    assert json.loads(json.dumps(rows, allow_nan=False)) == rows
    odd = pd.DataFrame({"d": [{"k": np.int64(3), 1: np.nan}], "t": [pd.Timestamp("2026-12-06")],
                        "i": [pd.Interval(0, 1)]})
    assert table_records({"o": odd})["o"] == [{"d": {"k": 3, "1": None}, "t": "2026-12-06T00:00:00", "i": "(0, 1]"}]
