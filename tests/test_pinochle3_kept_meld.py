"""The most meld of the 15 cards kept from 18 (spec §9.3, R3.9a) and the meld statistics job that counts it.

`most_meld_kept` takes cards away while the meld of all 18 stands and searches every discard only when that fails;
checked against the full discard search (`discards` with ``meld_first``) on random and meld-rich holdings under
the meld variants, against a plain every-discard-every-trump reference, and `MeldStatsJob` against a recount.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_pinochle3 as naive
from analysis.stats import histogram_median, median_interval
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games.pinochle3_discard import TALLIES, MeldStatsJob, discards, most_meld_kept
from simcore.rng import block_words

VARIANTS = [None, {"double_bonus": False}, {"double_royal_marriage": 240}, {"roundhouse_meld": True},
            {"roundhouse_meld": True, "roundhouse_with_rope": 390}, {"double_bonus": "rope,aces"},
            {"double_bonus": False, "double_royal_marriage": 240},  # meld not monotone: a double rope 300, rope+240 390
            {"double_bonus": "pinochle", "double_royal_marriage": 240, "roundhouse_meld": True,
             "roundhouse_with_rope": 390}]
NOT_MONOTONE = VARIANTS[-2:]

# a double rope in hearts, a double pinochle and the other three aces: 17 cards of meld among 18
LIMITED = "HA HA H10 H10 HK HK HQ HQ HJ HJ SQ SQ DJ DJ SA DA CA C9"


def masks(tokens_list) -> np.ndarray:
    return np.array([p3.DECK.mask(p3.DECK.parse_cards(t)) for t in tokens_list], dtype=np.uint64)


NON_NINES = [f for f in range(24) if f % p3.N_RANKS != p3.NINE]
"""The faces that make meld beyond the deece: A 10 K Q J of each suit."""


@st.composite
def holdings(draw) -> int:
    """An 18-card holding: a random one, one from a few faces, or a double rope and both copies of 4 faces of the
    other suits (about 5% of these need 16 cards or more for their best meld, so the discard search runs)."""
    kind = draw(st.sampled_from(["random", "few faces", "double rope"]))
    if kind == "double rope":
        suit = draw(st.integers(0, p3.N_SUITS - 1))
        others = draw(st.lists(st.sampled_from([f for f in NON_NINES if f // p3.N_RANKS != suit]), min_size=4,
                               max_size=4, unique=True))
        return int(sum(3 << 2 * f for f in [f for f in NON_NINES if f // p3.N_RANKS == suit] + others))
    faces = list(range(24)) if kind == "random" else draw(st.lists(st.integers(0, 23), min_size=9, max_size=24,
                                                                    unique=True))
    cards = [2 * f + c for f in faces for c in (0, 1)]
    return int(sum(1 << c for c in draw(st.permutations(cards))[:18]))


@settings(max_examples=300, deadline=None)
@given(holding=holdings(), options=st.sampled_from(VARIANTS))
def test_most_meld_kept_equals_the_full_discard_search(holding, options):
    held = np.array([holding], dtype=np.uint64)
    assert most_meld_kept(held, options)[0] == discards(held, options=options, meld_first=True)[2][0]


def test_most_meld_kept_equals_the_plain_reference_also_where_the_limit_binds():
    rng = np.random.default_rng(5)
    tokens = [LIMITED.split()] + [[p3.DECK.token(int(c)) for c in rng.permutation(48)[:18]] for _ in range(3)]
    kept = most_meld_kept(masks([" ".join(t) for t in tokens]))
    assert list(kept) == [naive.most_meld_kept(t) for t in tokens]
    all_18 = p3.best_meld(masks([LIMITED]))[0][0]
    assert kept[0] < all_18  # the limit binds for LIMITED


def rope_rich(n: int, seed: int) -> np.ndarray:
    """n holdings of a double rope and both copies of 4 faces of the other suits (as the strategy's)."""
    rng = np.random.default_rng(seed)
    out = []
    for suit in rng.integers(0, p3.N_SUITS, size=n):
        others = rng.choice([f for f in NON_NINES if f // p3.N_RANKS != suit], size=4, replace=False)
        out.append(sum(3 << 2 * int(f) for f in [f for f in NON_NINES if f // p3.N_RANKS == suit] + list(others)))
    return np.array(out, dtype=np.uint64)


@pytest.mark.parametrize("options", VARIANTS)
def test_most_meld_kept_equals_the_full_search_on_meld_rich_holdings(options):
    """A seeded set where the 15-card limit binds often (and a fallback searching meld + buried counters, not meld
    first, errs: the second holding keeps 390, not 380)."""
    counters_tempt = "S9 SJ SQ SK S10 SA HQ HQ HK HK HA D9 D9 DK DA CQ CK CA"
    held = np.concatenate((rope_rich(1500, 9), masks([LIMITED, counters_tempt])))
    assert np.array_equal(most_meld_kept(held, options), discards(held, options=options, meld_first=True)[2])
    if options is None:
        assert most_meld_kept(held[-1:])[0] == 390


@pytest.mark.parametrize("options", VARIANTS)
def test_meld_is_monotone_as_adding_a_card_shows(options):
    """`meld_is_monotone` against adding every missing card to random holdings of 14-17 cards: never lower meld
    when it says True; a holding whose meld falls exists when it says False (a double rope's second trump J)."""
    values = p3.meld_values(options)
    rng = np.random.default_rng(3)
    rope_but_a_jack = p3.DECK.parse_cards("HA HA H10 H10 HK HK HQ HQ HJ")
    others = [c for c in range(48) if p3.DECK.suit_of_face(p3.DECK.face_of(c)) != p3.DECK.suit_of_face(
        p3.DECK.face_of(rope_but_a_jack[0]))]
    holdings = np.array([p3.DECK.mask(rng.permutation(48)[:rng.integers(14, 18)]) for _ in range(300)]
                        + [p3.DECK.mask(rope_but_a_jack + list(rng.choice(others, 6, replace=False)))
                           for _ in range(50)], dtype=np.uint64)
    added = np.array([h | np.uint64(1 << c) for h in holdings for c in range(48) if not int(h) >> c & 1],
                     dtype=np.uint64)
    before = np.repeat(p3.best_meld(holdings, options)[0], [48 - int(np.bitwise_count(h)) for h in holdings])
    falls = (p3.best_meld(added, options)[0] < before).any()
    assert p3.meld_is_monotone(values) == (options not in NOT_MONOTONE) == (not falls)


@pytest.mark.parametrize("holdings, message", [
    (masks(["HA H10 HK"]), "the bidder discards from 18 cards (his 15 and the kitty's 3); holding 0 has 3"),
    ([-1], "holdings must be integer masks of the 48 cards (bits 0-47), got [-1]"),
    (["a"], "holdings must be integer masks of the 48 cards"),
    (np.array([2.0 ** 18 - 1]), "holdings must be integer masks of the 48 cards"),
    ([(1 << 17) - 1 | 1 << 60], "holdings must be integer masks of the 48 cards (bits 0-47)"),
    (262143, "holdings must be a sequence of card masks, one per holding of 18 cards; got shape ()"),
    ([[262143]], "got shape (1, 1)"),
])
def test_most_meld_kept_refuses_what_is_not_18_card_masks(holdings, message):
    with pytest.raises(CardsimError) as refused:
        most_meld_kept(holdings)
    assert message in str(refused.value)


def test_meld_stats_job_counts_equal_a_recount_of_the_same_deals():
    job, n = MeldStatsJob(1), 3000
    deals, tallies, limit, throw_ins = job.unpack(job.run_block(7, 0, n))
    slots = deal(job.spec, block_words(7, 0, n, job.spec.words_per_deal))
    hand = p3.best_meld(slots[:, 1])[0]
    all_18 = p3.best_meld(slots[:, 1] | slots[:, 3])[0]
    kept = most_meld_kept(slots[:, 1] | slots[:, 3])
    gain = kept - hand
    assert deals == n and set(tallies) == set(TALLIES) and len(throw_ins) == len(p3.NINES_RULES)
    for name, points in (("hand", hand), ("hand+kitty", all_18), ("kept", kept), ("gain", gain)):
        assert np.array_equal(tallies[name], np.bincount(points // 10, minlength=p3.MELD_BINS)), name
    assert np.array_equal(tallies["gain_sum"], np.bincount(hand // 10, weights=gain, minlength=p3.MELD_BINS))
    assert np.array_equal(tallies["gain_squares"], np.bincount(hand // 10, weights=gain ** 2, minlength=p3.MELD_BINS))
    assert limit == {"cost_deals": (kept < all_18).sum(), "cost_points": (all_18 - kept).sum(), "raised_deals": 0}


def test_stats_counts_deals_where_burying_raises_the_meld():
    """Under a meld table that is not monotone, the kept meld can beat that of all 18 (burying the second trump J of a
    double rope): stats counts those deals and says why."""
    from analysis.games.pinochle3 import format_stats, stats

    options = NOT_MONOTONE[0]
    job = MeldStatsJob(0, options)
    assert not job.monotone
    tables = stats(300_000, 1, options=options, progress=False, checkpoint=False)
    raised = int(tables["limit"].raised.iloc[0])
    assert raised > 0 and tables["means"].set_index("quantity").loc["kept", "mean"] > 0
    assert f"In {raised:,} deals burying raised the meld above that of all 18" in format_stats(tables)


def test_stats_limit_row_counts_the_deals_where_the_limit_binds():
    from analysis.games.pinochle3 import format_stats, stats

    tables = stats(20_000, 3, progress=False, checkpoint=False)
    limit = tables["limit"].iloc[0]
    assert limit.lo <= limit.p <= limit.hi and limit.p == limit.successes / 20_000
    assert limit.successes == 0 or limit.mean_cost >= 10
    text = format_stats(tables)
    assert "Mean kitty gain by the best meld of the 15-card hand (spec §9.3)" in text
    assert "The 15-card limit cost meld in" in text and "kept 15" in text


@pytest.mark.parametrize("seed", range(3))
def test_histogram_median_agrees_with_the_sample_median_interval(seed):
    values = np.random.default_rng(seed).binomial(12, 0.3, size=5000)
    hist = np.bincount(values)
    median, lo, hi = histogram_median(hist, np.arange(hist.size))
    assert median == np.sort(values)[(values.size + 1) // 2 - 1]
    assert (lo, hi) == median_interval(values)[:2]


@pytest.mark.parametrize("n", [1, 2, 5, 6, 7, 20, 21, 99, 100, 101, 1000, 1001])
def test_histogram_median_agrees_with_median_interval_on_distinct_values(n):
    values = np.arange(n) * 10.0
    assert histogram_median(np.ones(n, dtype=np.int64), values)[1:] == median_interval(values)[:2]


def test_histogram_median_of_a_tiny_sample_is_its_range():
    assert histogram_median([1, 0, 1], [0, 10, 20]) == (0, 0, 20)
