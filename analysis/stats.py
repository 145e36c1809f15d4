"""Estimates with their uncertainty: a proportion, its 95% Wilson interval and the sample size."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

Z95 = 1.959963984540054


def student_t95(degrees: int) -> float:
    """The 0.975 quantile of Student's t with ``degrees`` degrees of freedom (the half-width of a 95% interval in
    standard errors; scipy is imported here, on first use, as it takes a second to load)."""
    from scipy.stats import t

    return float(t.ppf(0.975, degrees))


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (lo, hi) of a binomial proportion; (0, 1) when n == 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    lo = 0.0 if successes == 0 else max(0.0, centre - half)
    hi = 1.0 if successes == n else min(1.0, centre + half)
    return lo, hi



def paired_difference(only_first: int, only_second: int, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(d, lo, hi): the difference p1 - p2 of two proportions measured on the same n units, d = (b - c) / n
    with b = ``only_first`` units a success under the first condition only and c = ``only_second`` under the
    second only, and Tango's score interval (Stat Med 1998; 17:891), which stays honest with few or no
    discordant units (b = c = 0 gives +-z^2 / (n + z^2), where the Wald interval collapses to 0)."""
    if n <= 0:
        return float("nan"), -1.0, 1.0
    b, c = only_first, only_second

    def score(delta: float) -> float:
        w = -b - c + (2 * n - b + c) * delta
        q21 = (math.sqrt(max(w * w + 8 * n * c * delta * (1 - delta), 0.0)) - w) / (4 * n)
        variance = n * (2 * q21 + delta * (1 - delta))
        gap = b - c - n * delta
        if variance > 0:
            return gap / math.sqrt(variance)
        return 0.0 if gap == 0 else math.copysign(math.inf, gap)

    def root(target: float) -> float:
        lo, hi = -1.0, 1.0  # score() decreases in delta
        for _ in range(100):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if score(mid) > target else (lo, mid)
        return (lo + hi) / 2

    return (b - c) / n, root(z), root(-z)

@dataclass(frozen=True)
class Estimate:
    """A proportion ``successes / n`` with its Wilson interval [lo, hi] at ``level``."""

    successes: int
    n: int
    level: float = 0.95

    @property
    def p(self) -> float:
        return self.successes / self.n if self.n else float("nan")

    @property
    def interval(self) -> tuple[float, float]:
        z = Z95 if self.level == 0.95 else _z(self.level)
        return wilson(self.successes, self.n, z)

    @property
    def lo(self) -> float:
        return self.interval[0]

    @property
    def hi(self) -> float:
        return self.interval[1]

    @property
    def se(self) -> float:
        """Standard error of the point estimate."""
        return math.sqrt(self.p * (1 - self.p) / self.n) if self.n else float("nan")

    def as_dict(self) -> dict:
        return {"p": self.p, "lo": self.lo, "hi": self.hi}

    def __str__(self) -> str:
        return f"{format_p(self.p)} [{format_p(self.lo)}, {format_p(self.hi)}]"


def estimate_columns(prefix: str, successes: int, n: int) -> dict:
    """A proportion and its Wilson interval as table columns {prefix, prefix_lo, prefix_hi}."""
    e = Estimate(int(successes), int(n))
    return {prefix: e.p, f"{prefix}_lo": e.lo, f"{prefix}_hi": e.hi}


PRIOR_CLUSTERS = 10
"""Weight, in clusters, of the prior design effect 1 in `ratio_share` (guards small samples)."""


def clustered_share(successes: int, successes_sq: int, clusters: int, per_cluster: int,
                    z: float = Z95) -> dict:
    """A proportion whose trials come in clusters of ``per_cluster`` (e.g. the two games of a duplicate
    pair), with a Wilson interval at the effective sample size (`ratio_share` with equal clusters).

    successes: the sum over clusters of each cluster's successes; successes_sq: the sum of their
    squares. Returns {"p", "lo", "hi", "n", "design_effect"}.
    """
    return ratio_share(successes, clusters * per_cluster, successes_sq, clusters * per_cluster ** 2,
                       per_cluster * successes, clusters, z)


def ratio_share(successes: int, trials: int, successes_sq: int, trials_sq: int, cross: int, clusters: int,
                z: float = Z95) -> dict:
    """A proportion successes / trials over ``clusters`` clusters of correlated trials (the games of a
    duplicate pair, the seats one policy holds in one game), with a Wilson interval at the effective
    sample size.

    successes_sq, trials_sq, cross: sums over clusters of s², t² and s·t (s, t: a cluster's successes
    and trials). The design effect is the ratio estimator's variance (the spread of s - p·t over the
    clusters) over the binomial variance p (1 - p) / trials: below 1 when a cluster's trials are
    negatively correlated (duplicate deals cancel the luck of the cards, one seat's win is another's
    loss), above 1 when positively. Few clusters estimate it poorly, so the observed effect is shrunk
    toward 1 as if `PRIOR_CLUSTERS` clusters had shown none: (C effect + 10) / (C + 10); one cluster
    gives plain Wilson. The interval is Wilson's at ``trials / design_effect`` trials. Returns {"p",
    "lo", "hi", "n", "design_effect"}.
    """
    if trials <= 0 or clusters <= 0:
        return {"p": float("nan"), "lo": 0.0, "hi": 1.0, "n": 0, "design_effect": 1.0}
    p = successes / trials
    variance = _ratio_variance(p, trials, successes_sq, trials_sq, cross, clusters)
    binomial = p * (1 - p) / trials
    observed = variance / binomial if binomial > 0 and clusters > 1 else 1.0
    effect = (clusters * observed + PRIOR_CLUSTERS) / (clusters + PRIOR_CLUSTERS)
    n_eff = trials / effect
    lo, hi = wilson(p * n_eff, n_eff, z)
    return {"p": p, "lo": lo, "hi": hi, "n": trials, "design_effect": effect}


def _ratio_variance(ratio: float, units: float, total_sq: float, units_sq: float, cross: float,
                    clusters: int) -> float:
    """Variance of a ratio estimator total / units over clusters (the spread of v - ratio·u over the clusters,
    v and u a cluster's total and units; the sums of v², u² and v·u given)."""
    spread = max(total_sq - 2 * ratio * cross + ratio * ratio * units_sq, 0.0) / max(clusters - 1, 1)
    return spread * clusters / (units * units)


def ratio_mean(total: float, units: float, total_sq: float, units_sq: float, cross: float, clusters: int,
               z: float = Z95) -> dict:
    """Mean per unit, total / units, of values that come in clusters (e.g. a side's money per seat-game, the
    game a cluster of its seats), with a normal interval from the ratio estimator's variance (`ratio_share`'s).
    total_sq, units_sq, cross: sums over clusters of v², u², v·u. Returns {"mean", "se", "lo", "hi"}; NaN
    without units, no interval from one cluster."""
    if units <= 0 or clusters <= 0:
        return dict.fromkeys(("mean", "se", "lo", "hi"), float("nan"))
    mean = total / units
    se = math.sqrt(_ratio_variance(mean, units, total_sq, units_sq, cross, clusters)) if clusters > 1 \
        else float("nan")
    return {"mean": mean, "se": se, "lo": mean - z * se, "hi": mean + z * se}


def mean_interval(total: float, squares: float, n: int, z: float = Z95) -> dict:
    """Mean of n values from their sum and sum of squares, its standard error (sample variance, n - 1) and
    normal interval: {"mean", "se", "lo", "hi"}; one value has no spread to estimate (se, lo, hi NaN)."""
    mean = total / n if n else float("nan")
    se = math.sqrt(max(squares - n * mean ** 2, 0.0) / (n - 1) / n) if n > 1 else float("nan")
    return {"mean": mean, "se": se, "lo": mean - z * se, "hi": mean + z * se}


def median_interval(values, level: float = 0.95) -> tuple[float, float, float]:
    """(lo, hi, coverage): a distribution-free interval for the population median from a sample, the
    order statistics x(j+1) and x(n-j) (1-based) with j the largest count such that a Binomial(n, 1/2)
    is at most j with probability at most (1 - level) / 2; ``coverage`` = 1 - 2 P(Binomial <= j), at
    least ``level``. Samples too small for ``level`` (n < 6 at 95%) give the whole range and its lower
    coverage 1 - 2 / 2**n (coverage 0 for a single value)."""
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        raise ValueError("median_interval needs at least one value")
    j, below = _median_rank(n, level)
    if j < 0:
        return float(x[0]), float(x[-1]), 1 - 2 / 2 ** n if n > 1 else 0.0
    return float(x[j]), float(x[n - 1 - j]), 1 - 2 * below


def _median_rank(n: int, level: float) -> tuple[int, float]:
    """(j, P(Binomial(n, 1/2) <= j)) for the median interval x(j+1), x(n-j) of n values: j the largest count below
    n // 2 whose binomial lower tail is at most (1 - level) / 2, -1 when there is none (from the binomial quantile, so
    that samples of millions cost no more than small ones)."""
    from scipy.stats import binom

    tail = (1 - level) / 2
    j = int(binom.ppf(tail, n, 0.5))  # the smallest count whose P(Binomial <= it) reaches the tail
    if binom.cdf(j, n, 0.5) > tail:
        j -= 1
    j = min(j, n // 2 - 1)
    return j, float(binom.cdf(j, n, 0.5)) if j >= 0 else 0.0


def histogram_median(hist, values, level: float = 0.95) -> tuple[float, float, float]:
    """(median, lo, hi) of a sample given as counts ``hist`` of the sorted ``values``: the lower median
    x(ceil(n/2)) and `median_interval`'s distribution-free interval (`histogram_quantile` at 1/2)."""
    return histogram_quantile(hist, values, 0.5, level)


def histogram_quantile(hist, values, q: float, level: float = 0.95) -> tuple[float, float, float]:
    """(quantile, lo, hi) of a sample given as counts ``hist`` of the sorted ``values``: the order statistic
    x(ceil(nq)) (1-based; q in (0, 1)) and the distribution-free interval x(r), x(s) that holds the population's
    q-quantile with probability P(r <= Binomial(n, q) < s) >= ``level``: r - 1 the largest count with
    P(Binomial <= r - 1) <= (1 - level) / 2, s the smallest with P(Binomial >= s) <= (1 - level) / 2. A sample too
    small for a side (no such r, or s > n) takes the sample's end there."""
    from scipy.stats import binom

    hist = np.asarray(hist, dtype=np.int64)
    values = np.asarray(values, dtype=float)
    n = int(hist.sum())
    if n == 0:
        raise ValueError("histogram_quantile needs at least one value")
    if not 0 < q < 1:
        raise ValueError(f"histogram_quantile needs 0 < q < 1, got {q}")
    cumulative = np.cumsum(hist)

    def order_statistic(k: int) -> float:  # x(k), 1-based
        return float(values[np.searchsorted(cumulative, min(max(k, 1), n))])

    tail = (1 - level) / 2
    below = int(binom.ppf(tail, n, q))  # the smallest count whose P(Binomial <= it) reaches the tail
    if binom.cdf(below, n, q) > tail:
        below -= 1
    above = int(binom.isf(tail, n, q)) + 1  # P(Binomial >= above) <= tail
    while above > 0 and binom.sf(above - 2, n, q) <= tail:
        above -= 1
    quantile = order_statistic(math.ceil(n * q - 1e-9))
    return quantile, order_statistic(below + 1 if below >= 0 else 1), order_statistic(min(above, n))


def _z(level: float) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(0.5 + level / 2)


def proportions(counts, n: int | None = None) -> list[Estimate]:
    """An `Estimate` per count; n defaults to the sum of the counts."""
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum()) if n is None else int(n)
    return [Estimate(int(c), total) for c in counts]


def estimate_frame(labels, counts, n: int | None = None, **columns) -> pd.DataFrame:
    """DataFrame with one row per label: p, lo, hi, successes, n (plus constant ``columns``)."""
    rows = []
    for label, est in zip(labels, proportions(counts, n)):
        rows.append({"label": label, "p": est.p, "lo": est.lo, "hi": est.hi,
                     "successes": est.successes, "n": est.n, **columns})
    return pd.DataFrame(rows)


def _weighted_mean(sums, squares, totals, weights) -> tuple[float, float, float]:
    """(mean, variance of the mean, Kish's effective size) of a per-deal value y from deals weighted by strata: sums,
    squares (k,) the sum of y and of y^2 over each stratum's deals, totals (k,) its deals, weights (k,) the weight of
    its deals. The mean is the ratio sum w y / sum w; its variance sum w^2 (y - mean)^2 / (sum w)^2 over the deals."""
    y1, y2, t, w = (np.asarray(x, dtype=float) for x in (sums, squares, totals, weights))
    total, squared_weights = float(w @ t), float((w * w) @ t)
    if total <= 0:
        return float("nan"), float("nan"), 0.0
    mean = float(w @ y1) / total
    variance = float((w * w) @ (y2 - 2 * mean * y1 + mean * mean * t)) / total ** 2
    return mean, max(variance, 0.0), total ** 2 / squared_weights


def weighted_estimate(successes, totals, weights, z: float = Z95) -> dict:
    """A share estimated from deals weighted by strata (importance weights constant within a stratum): successes,
    totals (k,) deals per stratum, weights (k,) the weight of a stratum's deals. p = sum w s / sum w t; se from the
    ratio estimator's variance (`_weighted_mean`); lo, hi: the Wilson interval at the sample size
    n* = p (1 - p) / se^2 that this variance gives (all weights 0 or 1: the plain Wilson interval of the deals of
    weight 1); n_eff: Kish's effective sample size (sum w t)^2 / sum w^2 t. NaN p with no weight."""
    p, variance, n_eff = _weighted_mean(successes, successes, totals, weights)
    if n_eff == 0:
        return {"p": p, "lo": 0.0, "hi": 1.0, "se": float("nan"), "n_eff": 0.0}
    n_star = p * (1 - p) / variance if variance > 0 else n_eff
    lo, hi = wilson(p * n_star, n_star, z)
    return {"p": p, "lo": lo, "hi": hi, "se": math.sqrt(variance), "n_eff": n_eff}


def weighted_difference(first, second, totals, weights, z: float = Z95) -> dict:
    """d = P(first) - P(second) of two exclusive events (a figure's win and loss) from deals weighted by strata
    (`weighted_estimate`'s arguments; first, second (k,) deals per stratum): d, its se from the ratio estimator's
    variance and the normal interval d +- z se, clipped to [-1, 1]. When every weighted deal ended alike (all first,
    all second, or neither) the sample shows no spread, and the interval is d +- 2u instead (clipped), u the Wilson
    upper bound of a share never seen at the effective size: d = -1 then reads [-1, -1 + 2u], not [-1, -1]."""
    a, b = np.asarray(first, dtype=float), np.asarray(second, dtype=float)
    d, variance, n_eff = _weighted_mean(a - b, a + b, totals, weights)
    se = math.sqrt(variance)
    half = z * se
    if n_eff > 0:
        w, t = np.asarray(weights, dtype=float), np.asarray(totals, dtype=float)
        total, share_first, share_second = float(w @ t), float(w @ a), float(w @ b)
        if share_first in (0.0, total) and share_second in (0.0, total):
            half = 2 * wilson(0, n_eff, z)[1]
    return {"d": d, "se": se, "lo": max(-1.0, d - half), "hi": min(1.0, d + half)}


def estimates_dict(frame: pd.DataFrame, key_columns: list[str]) -> dict:
    """{"a.b": {"p", "lo", "hi"}} with keys joined from ``key_columns`` (the commands' JSON form)."""
    return {".".join(str(row[c]) for c in key_columns): {"p": row["p"], "lo": row["lo"], "hi": row["hi"]}
            for _, row in frame.iterrows()}


def format_p(x: float) -> str:
    """A probability for text, six characters wide: four decimals ('0.0482'), or below 0.001 two
    significant digits in exponent form ('1.6e-4', where four decimals would print 0.0002, and
    '2.8e-5' for 0.0000; seven characters below 1e-9, '1.6e-10'); zero as '0.0000'."""
    if 0 < x < 0.001:
        mantissa, exponent = f"{x:.1e}".split("e")
        return f"{mantissa}e{int(exponent)}"
    return f"{x:.4f}"


def format_cell(row) -> str:
    """'p [lo,hi]' for text tables (`format_p`)."""
    return f"{format_p(row['p'])} [{format_p(row['lo'])},{format_p(row['hi'])}]"


def plus_minus(value: float, lo: float, hi: float, sign: bool = False) -> str:
    """"0.512±0.011": a value and the half-width of its interval [lo, hi] (which need not be centred on it),
    three decimals, for compact text tables; ``sign``: the value with its sign ("+0.021±0.006")."""
    return f"{value:{'+' if sign else ''}.3f}±{(hi - lo) / 2:.3f}"


def score_grid(target: int) -> list[int]:
    """The scores 0..target-1 a compact text table of a game's scores shows: every other one (every one up
    to a target of 10) and target - 1."""
    return sorted(set(range(0, target, 2 if target > 10 else 1)) | {target - 1})


def json_value(value):
    """A table cell as JSON holds it: numpy scalars and arrays as Python numbers and lists, tuples and sets as
    lists, dicts with text keys, NaN, infinities and missing values as None, a timestamp in ISO form, anything else
    as its text; a float keeps every digit (pandas' ``to_json`` would round to 10 decimals, printing 3e-12 as 0.0)."""
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (list, tuple, set, frozenset)):
        return [json_value(item) for item in value]
    if isinstance(value, dict):
        return {str(key): json_value(item) for key, item in value.items()}
    if isinstance(value, np.generic):
        value = value.item()
    if value is None or value is pd.NA or value is pd.NaT or (isinstance(value, float) and not math.isfinite(value)):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value if isinstance(value, (str, bool, int, float)) else str(value)


def table_records(tables: dict[str, pd.DataFrame]) -> dict[str, list[dict]]:
    """{name: [row, ...]} of named tables, as the commands' JSON prints them (cells by `json_value`)."""
    return {name: [{str(column): json_value(cell) for column, cell in row.items()}
                   for row in table.to_dict(orient="records")] for name, table in tables.items()}
