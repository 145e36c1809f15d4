"""`cardsim odds bauernstoss`, spec §9.1 Q3, Q4, Q9: the normal game's card points (quantiles, P(>=30), P(all 8
tricks)), each suit against the suit policy B0 proposes on the same deals, and the chalk's worth on the same deals;
and `analysis.stats.histogram_quantile`, the quantile and its distribution-free interval."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy.stats import binom

from analysis.cli import main
from analysis.games import bauernstoss as api
from analysis.stats import histogram_quantile
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play

TD01 = "sB hB dB cA cT sK h7 d8"
"""Spec TD-01 / Q4: clubs is the longest suit (5), the source prefers spades (4)."""


def _plain_quantile(values: list[float], q: float, level: float = 0.95) -> tuple[float, float, float]:
    """The order statistic x(ceil(nq)) of a sorted sample and the interval x(r), x(s): r, s found by walking the
    binomial law count by count (the definition of `histogram_quantile`, written out)."""
    n, tail = len(values), (1 - level) / 2
    k = next(k for k in range(1, n + 1) if k >= n * q - 1e-9)
    r = max([j + 1 for j in range(n) if binom.cdf(j, n, q) <= tail], default=1)
    s = min([j for j in range(1, n + 1) if binom.sf(j - 1, n, q) <= tail], default=n)
    return values[k - 1], values[r - 1], values[s - 1]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=1, max_size=6),
       st.sampled_from([0.05, 0.1, 0.25, 0.5, 0.75, 0.9, 0.97]))
def test_histogram_quantile_matches_the_order_statistics_of_the_sample(hist, q):
    values = np.arange(len(hist)) * 7.0
    if sum(hist) == 0:
        with pytest.raises(ValueError):
            histogram_quantile(hist, values, q)
        return
    sample = [float(v) for v, c in zip(values, hist) for _ in range(c)]
    assert histogram_quantile(hist, values, q) == _plain_quantile(sample, q)


def test_histogram_quantile_interval_covers_the_true_quantile():
    """Uniform 0..9, q = 0.25: the population quantile is 2; 2,000 samples of 150, the interval holds it in at
    least 95% of them less 3 standard errors."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(2000):
        hist = np.bincount(rng.integers(0, 10, 150), minlength=10)
        _, lo, hi = histogram_quantile(hist, np.arange(10), 0.25)
        hits += lo <= 2 <= hi
    assert hits / 2000 >= 0.95 - 3 * math.sqrt(0.95 * 0.05 / 2000)


def test_odds_counts_match_a_direct_play_out():
    """The job's points histogram, sweeps and discordant counts against the same deals played out and scored one by
    one (two suits of TD-01, seat 1, greedy play); and the identity `odds` reads the chalk's stroke gain from: on
    every deal the strokes with the chalk minus those without are 2 when the team takes 42 to 78 points, else 0."""
    cards = tuple(bs.DECK.parse_cards(TD01))
    options = (jobs.Option(bs.NUMBER, 0), jobs.Option(bs.NUMBER, 1))
    job = jobs.OddsJob(cards, 1, options, "greedy")
    n = 300
    counts = job.unpack(job.run_block(9, 0, n))
    hands = jobs.deal_hands(9, 0, n, job.spec)
    reached = []
    for k, option in enumerate(options):
        points, tricks = play.play_out("greedy", hands, np.full(n, option.trump), np.full(n, 1))
        mine, taken = points[:, 1], tricks[:, 1]
        assert np.array_equal(counts.points[k], np.bincount(mine, minlength=121))
        assert counts.stats[k, jobs.ODDS_STATS.index("all_tricks")] == (taken == 8).sum()
        gains = []
        for p0, t0 in zip(points[:, 0], tricks[:, 0]):  # team 0's: normal_score's reading; the hand is team 1's
            signed = [k if team == 1 else -k for team, k in
                      (bs.normal_score(int(p0), int(t0), chalk, maker=1) for chalk in (1, 0))]
            gains.append(signed[0] - signed[1])
        assert gains == [2 * int(42 <= p < 79) for p in mine]
        reached.append(mine[:, None] >= np.array(jobs.LEVELS))
    for i in range(2):
        for j in range(2):
            assert np.array_equal(counts.discordant[i, j], (reached[i] & ~reached[j]).sum(axis=0))


def test_td01_spades_beat_the_longest_suit_under_greedy_play():
    """Spec Q4 on TD-01: with spades (4 trumps) the team scores more often than with clubs (5), on the same deals;
    the differences are the shares' differences, and the chalk's worth is P(42 <= points < 79)."""
    frame = api.odds(TD01, 1, "greedy", n=512, seed=3, checkpoint=False, progress=False)
    numbers = frame[frame.call == "number"].set_index("trump")
    assert frame.attrs["reference"] == "c"
    spades, clubs = numbers.loc["s"], numbers.loc["c"]
    assert spades.d_p79_lo > 0 and spades.d_p42_lo > 0
    for key in ("p42", "p79", "p91"):
        assert spades[f"d_{key}"] == pytest.approx(spades[key] - clubs[key])
    assert (numbers.chalk_gain == numbers.p42 - numbers.p79).all()
    assert (numbers.chalk_strokes == 2 * numbers.chalk_gain).all()
    assert (numbers.chalk_strokes_lo == 2 * numbers.chalk_gain_lo).all()
    assert clubs[["d_p42", "d_p79"]].isna().all()  # the proposed suit is the baseline, not compared with itself
    assert (numbers.points_q10 <= numbers.points_q50).all() and (numbers.points_q50 <= numbers.points_q90).all()
    assert (numbers.points_q50_lo <= numbers.points_q50).all() and (numbers.points_q50 <= numbers.points_q50_hi).all()


def test_text_and_json_show_the_blocks(capsys):
    assert main(["odds", "bauernstoss", "--hand", TD01, "--n", "64", "--seed", "1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    for header in ("Card points of the normal game (Q3)", "Your suit against the suit policy B0 proposes (Q4: c",
                   "The chalk's worth (Q9)", "P(all 8 tricks)"):
        assert header in text
    assert main(["odds", "bauernstoss", "--hand", TD01, "--n", "64", "--seed", "1", "--no-progress", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["proposed_suit"] == "c"
    spades = next(c for c in out["calls"] if c["trump"] == "s")
    clubs = next(c for c in out["calls"] if c["trump"] == "c")
    assert {"p30", "p_all", "points_quantiles", "chalk_gain", "chalk_strokes", "vs_proposed_suit"} <= set(spades)
    assert "vs_proposed_suit" not in clubs and set(spades["vs_proposed_suit"]) >= {"p42", "p79", "p91"}
    assert set(spades["points_quantiles"]) == {"10", "25", "50", "75", "90"}
    assert set(spades["points_quantiles"]["50"]) == {"value", "lo", "hi"} and "mean" in spades["chalk_strokes"]


@pytest.mark.parametrize("extra, chalk, sweeps", [
    (["--first-hand"], False, True),          # the chalk is the deal's (the club jack's team): nothing to weigh
    (["--variant", "DS"], False, True),       # DS has no chalk
    (["--play", "dd"], True, False),          # the solver gives points, not tricks: no sweeps, no strokes
])
def test_blocks_follow_the_rules_and_the_play(capsys, extra, chalk, sweeps):
    hand = "sB hB hA hT hK h9 s7 d8" if "DS" in extra else TD01
    n = "6" if "dd" in extra else "40"
    assert main(["odds", "bauernstoss", "--hand", hand, "--n", n, "--seed", "2", "--no-progress", *extra]) == 0
    text = capsys.readouterr().out
    assert "Card points of the normal game (Q3)" in text
    assert ("The chalk's worth (Q9)" in text) == chalk
    assert ("P(all 8 tricks)" in text) == sweeps
    if "dd" in extra:  # the stroke gain needs no tricks: twice the share
        assert "and E[strokes] with it minus without" in text


@pytest.mark.parametrize("variant, first_hand, hand, columns", [
    ("DS", False, "sB hB hA hT hK sA sK sT", ("p61", "p_le59")),
    ("AS", True, TD01, ("p61", "p89")),
])
def test_mirrored_and_first_hand_differences_have_the_right_sign(variant, first_hand, hand, columns):
    """Q4 in DS (P(<=59): the opponents score, read from not reaching 60) and in an AS first hand (61, 89): each
    difference is the row's share minus the proposed suit's, on the same deals."""
    frame = api.odds(hand, 1, "greedy", n=300, seed=4, variant=variant, first_hand=first_hand, checkpoint=False,
                     progress=False)
    numbers = frame[frame.p30.notna()].set_index("trump")
    base = numbers.loc[frame.attrs["reference"]]
    others = numbers.drop(index=frame.attrs["reference"])
    assert len(others)
    for key in columns:
        assert ((others[f"d_{key}"] - (others[key] - base[key])).abs() < 1e-12).all()
