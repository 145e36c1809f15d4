"""Monte-Carlo runs agree with exact values: the runner + dealing + figure kernels, end to end.

Exact targets come from the spec (§4.2, §5.2, §10.3) or are computed here independently (exact DPs).
Sample sizes scale with CARDSIM_TEST_SCALE (fixture ``scale``).
"""

import random
from fractions import Fraction
from math import comb, perm

import numpy as np
import pytest

from analysis.stats import Estimate
from simcore import runner
from simcore.games.giltspiel import DECK, GESTRICHEN, Known, OddsJob, StatsJob

import naive

LEVEL = 0.999
G_VOID = Fraction(25_537_490_432, 3_041_834_100_305)  # spec §10.3
# spec §4.2 / §5.2: hands (of 201,376) per best class, index code + 1
GLEICH_CLASSES = [57_344] + [13_440 + 864 * r for r in range(8)] + [1_512] * 8 + [28] * 8
HANGER_CLASSES = [106_224, 0, 12_156, 11_132, 11_520, 11_908, 12_296, 12_580, 14_376, 0, 0, 1_512, 1_404,
                  1_404, 1_404, 1_404, 1_512, 0, 0, 0, 108, 104, 104, 104, 108, 0, 0, 0, 0, 4, 4, 4, 4]
WIN, STAND, LOSE, VOID = range(4)  # RELATIVE_OUTCOMES order (odds, by-class tallies)
TEAM0, TEAM1, ABS_STAND, ABS_VOID = range(4)  # ABSOLUTE_OUTCOMES order (table outcome tallies)


def within(successes, n, p, level=LEVEL):
    lo, hi = Estimate(int(successes), int(n), level).interval
    return lo <= float(p) <= hi


def run_table(job, n, seed):
    return runner.run(job, n, seed, checkpoint=False, progress=False)


# --- independent exact values --------------------------------------------------------------------
def hanger_free_tuples(n_hands: int, hand: int = 5) -> int:
    """Ordered tuples of ``n_hands`` disjoint 5-card hands none of which holds a run (same suit, adjacent ranks).

    Per suit: colour the 8 ranks with 'nobody' or a hand so that adjacent ranks never share a hand,
    counting cards per hand; then multiply the four suits' count polynomials and read the coefficient
    of (5, 5, ..., 5).
    """
    shape = (hand + 1,) * n_hands
    states = {(-1, (0,) * n_hands): 1}
    for _ in range(8):
        new: dict = {}
        for (last, counts), ways in states.items():
            for owner in range(-1, n_hands):
                if owner >= 0 and (owner == last or counts[owner] == hand):
                    continue
                nxt = counts if owner < 0 else counts[:owner] + (counts[owner] + 1,) + counts[owner + 1:]
                new[owner, nxt] = new.get((owner, nxt), 0) + ways
        states = new
    suit = np.zeros(shape, dtype=object)
    for (_, counts), ways in states.items():
        suit[counts] += ways
    total = suit
    for _ in range(3):
        product = np.zeros(shape, dtype=object)
        for index in zip(*np.nonzero(total)):
            out = tuple(slice(i, hand + 1) for i in index)
            part = tuple(slice(0, hand + 1 - i) for i in index)
            product[out] += total[index] * suit[part]
        total = product
    return int(total[(hand,) * n_hands])


def pair_free_completions(used: list[int], n_hands: int = 3, hand: int = 5) -> int:
    """Ordered tuples of ``n_hands`` disjoint pair-free hands avoiding cards already out.

    used[r]: cards of rank r that are out of play (own hand, turn-up); a rank taken by k of the hands
    gets k different suits among the 4 - used[r] left: (4 - used[r])! / (4 - used[r] - k)! ways.
    """
    states = {(hand,) * n_hands: 1}
    for rank in range(8):
        new: dict = {}
        for need, ways in states.items():
            for subset in range(1 << n_hands):
                users = [i for i in range(n_hands) if subset >> i & 1]
                if any(need[i] == 0 for i in users):
                    continue
                nxt = tuple(need[i] - (subset >> i & 1) for i in range(n_hands))
                new[nxt] = new.get(nxt, 0) + ways * perm(4 - used[rank], len(users))
        states = new
    return states.get((0,) * n_hands, 0)


def test_hanger_dp_reproduces_the_single_hand_count():
    assert hanger_free_tuples(1) == 106_224  # spec §10.2 "no Hanger"


def test_pair_free_completion_dp_on_the_empty_table():
    total = comb(32, 5) * comb(27, 5) * comb(22, 5) * comb(17, 5)
    assert Fraction(pair_free_completions([0] * 8, n_hands=4), total) == G_VOID


def test_wilson_interval_of_the_stats_module():
    # textbook value: 50 of 100 at 95 %: [0.4038, 0.5962]
    lo, hi = Estimate(50, 100).interval
    assert abs(lo - 0.4038) < 1e-4 and abs(hi - 0.5962) < 1e-4
    lo, hi = Estimate(50, 100, 0.999).interval
    assert lo < 0.35 and hi > 0.65


# --- unconditional table statistics --------------------------------------------------------------
@pytest.fixture(scope="module")
def table_stats(scale):
    n = int(2_000_000 * scale)
    total = run_table(StatsJob(Known(), seat=0), n, seed=20261129)
    accepted, parts = StatsJob.split(total)
    assert accepted == n
    return n, parts


def test_gleich_void_matches_exact(table_stats):
    n, parts = table_stats
    assert within(parts["outcome"][0, ABS_VOID], n, G_VOID)


def test_hanger_void_matches_exact_dp(table_stats):
    n, parts = table_stats
    p = Fraction(hanger_free_tuples(4), comb(32, 5) * comb(27, 5) * comb(22, 5) * comb(17, 5))
    assert abs(float(p) - 0.08428) < 5 * 0.00016  # and the spec's MC baseline (§10.4 A) agrees with it
    assert within(parts["outcome"][1, ABS_VOID], n, p)


def test_teams_are_symmetric(table_stats):
    n, parts = table_stats
    for figure in range(2):
        team0, team1 = parts["outcome"][figure, :2]
        # given a decisive result, each team wins with probability 1/2
        assert within(team0, team0 + team1, 0.5)


def test_outcomes_agree_with_spec_mc_baselines(table_stats):
    # spec §10.4 A (10M deals, SE <= 0.00016): compare with the combined standard error
    n, parts = table_stats
    for figure, column, spec_p in ((0, ABS_STAND, 0.02501), (1, ABS_STAND, 0.05116), (0, ABS_VOID, 0.00838),
                                   (1, ABS_VOID, 0.08428), (0, TEAM0, 0.48330), (0, TEAM1, 0.48330)):
        p = parts["outcome"][figure, column] / n
        se = np.sqrt(spec_p * (1 - spec_p) / n + 0.00016 ** 2)
        assert abs(p - spec_p) < 4.5 * se, (figure, column, p)
    # spec §10.4 B: a 3-card Gleich somewhere in 22.0 %, a >= 3-card Hanger in 16.9 %
    best_g, best_h = parts["best_gleich"], parts["best_hanger"]
    for share, spec_p in ((best_g[9:].sum() / n, 0.21976), (best_h[11:].sum() / n, 0.16896),
                          (best_g[8] / n, 0.30515), (best_h[8] / n, 0.22234)):
        se = np.sqrt(spec_p * (1 - spec_p) / n + 0.00016 ** 2)
        assert abs(share - spec_p) < 4.5 * se, (share, spec_p)


def test_tables_best_class_is_at_least_each_seats_class(table_stats):
    n, parts = table_stats
    # a table without any Gleich is exactly the void outcome; same for Hanger
    assert parts["best_gleich"][0] == parts["outcome"][0, ABS_VOID]
    assert parts["best_hanger"][0] == parts["outcome"][1, ABS_VOID]
    # impossible Hanger classes never appear as the table's best
    impossible = [i for i, c in enumerate(HANGER_CLASSES) if c == 0]
    assert parts["best_hanger"][impossible].sum() == 0


@pytest.mark.parametrize("figure, spec_counts", [("gleich", GLEICH_CLASSES), ("hanger", HANGER_CLASSES)])
def test_own_class_frequencies_match_exact_single_hand_counts(table_stats, figure, spec_counts):
    n, parts = table_stats
    observed = parts[f"{figure}_by_class"].sum(axis=1)
    assert observed.sum() == n
    expected = [Fraction(c, 201_376) for c in spec_counts]
    assert sum(expected) == 1
    assert naive.chi2_test(observed.tolist(), [float(p) for p in expected]) > 1e-4
    classes = sum(1 for c in spec_counts if c)
    level = 1 - (1 - LEVEL) / classes  # Bonferroni
    for index, p in enumerate(expected):
        if p == 0:
            assert observed[index] == 0
        else:
            assert within(observed[index], n, p, level), (figure, index - 1)


def test_no_gleich_of_my_own_means_void_as_often_as_exact(table_stats):
    # P(nobody has a Gleich | my hand has none) = P(G void) / P(my hand has none)
    n, parts = table_stats
    row = parts["gleich_by_class"][0]
    assert within(row[VOID], row.sum(), G_VOID / Fraction(57_344, 201_376))
    # with a Gleich of my own the figure is never void, and it never stands beyond a pair
    assert parts["gleich_by_class"][1:, VOID].sum() == 0
    assert parts["gleich_by_class"][9:, STAND].sum() == 0
    # the weakest triple already beats every pair; four Aces always win
    assert parts["gleich_by_class"][24, WIN] == parts["gleich_by_class"][24].sum()


@pytest.mark.parametrize("figure, code, spec_row", [
    ("gleich", -1, (0.3160, 0.0148, 0.6398, 0.0294)),  # table C: none
    ("gleich", 0, (0.3406, 0.0220, 0.6375, 0.0)),  # pair of 7s
    ("gleich", 7, (0.8348, 0.0477, 0.1175, 0.0)),  # pair of Aces
    ("hanger", -1, (0.2641, 0.0322, 0.5439, 0.1598)),  # table D: none
    ("hanger", 1, (0.4084, 0.0610, 0.5306, 0.0)),  # 8-7
    ("hanger", 6, (0.7194, 0.0904, 0.1902, 0.0)),  # K-O
    ("hanger", 7, (0.7989, 0.1061, 0.0951, 0.0)),  # A-K
    ("hanger", 10, (0.8985, 0.0140, 0.0875, 0.0)),  # 9-8-7
])
def test_own_class_odds_agree_with_spec_tables_c_and_d(table_stats, figure, code, spec_row):
    # spec §10.4 C and D, MC tables over 10M deals pooled over seats; generous combined tolerance
    n, parts = table_stats
    row = parts[f"{figure}_by_class"][code + 1]
    m = row.sum()
    for outcome, spec_p in enumerate(spec_row):
        p = row[outcome] / m
        se = np.sqrt(max(spec_p * (1 - spec_p), 1e-6) / m) + 0.0005
        assert abs(p - spec_p) < 4.5 * se, (code, outcome, p, spec_p)


# --- conditional odds with known cards --------------------------------------------------------------
def test_conditional_gleich_void_with_a_known_hand_and_turnup(scale):
    hand = DECK.parse_cards("EA LK H9 S8 E7")  # pair-free
    turnup = DECK.parse_face("HK")
    used = [0] * 8
    for card in hand + [turnup]:
        used[card % 8] += 1
    exact = Fraction(pair_free_completions(used), comb(26, 5) * comb(21, 5) * comb(16, 5))
    n = int(1_000_000 * scale)
    counts = run_table(OddsJob(Known({2: tuple(hand)}, turnup=turnup), team=0), n, seed=77)
    assert counts[0] == n
    gleich = counts[1:5]
    assert within(gleich[VOID], n, exact)
    # and without the turn-up known the other hands are dealt from 27 cards
    used[turnup % 8] -= 1
    exact27 = Fraction(pair_free_completions(used), comb(27, 5) * comb(22, 5) * comb(17, 5))
    counts = run_table(OddsJob(Known({2: tuple(hand)}), team=0), n, seed=78)
    assert within(counts[1 + VOID], n, exact27)
    assert exact27 != exact


def test_four_aces_always_win_the_gleich():
    counts = run_table(OddsJob(Known({3: tuple(DECK.parse_cards("EA LA HA SA E7"))}), team=1), 50_000, seed=5)
    assert counts[1 + WIN] == 50_000
    assert counts[1 + STAND] == counts[1 + LOSE] == counts[1 + VOID] == 0


def naive_odds(hand, seat, n, seed):
    """Plain-Python simulation: shuffle the other 27 cards with `random`, deal 5 to each other seat."""
    rng = random.Random(seed)
    rest = [c for c in range(32) if c not in hand]
    tally = {"gleich": [0] * 4, "hanger": [0] * 4}
    names = {0: "win", 1: "lose", "stand": "stand", "void": "void"}
    order = ["win", "stand", "lose", "void"]
    for _ in range(n):
        rng.shuffle(rest)
        hands, k = [], 0
        for s in range(4):
            if s == seat:
                hands.append(hand)
            else:
                hands.append(rest[k:k + 5])
                k += 5
        for figure, best in (("gleich", naive.best_gleich), ("hanger", naive.best_hanger)):
            result = naive.team_result([best(h) for h in hands])
            if isinstance(result, int):
                result = 0 if result == seat % 2 else 1
            tally[figure][order.index(names[result])] += 1
    return tally


@pytest.mark.slow
def test_conditional_odds_agree_with_an_independent_simulation(scale):
    hand = DECK.parse_cards("EK LK H9 S7 LU")  # spec T05: pair of Kings
    n_naive = int(40_000 * scale)
    n_kernel = int(1_000_000 * scale)
    reference = naive_odds(hand, 1, n_naive, seed=2026)
    counts = run_table(OddsJob(Known({1: tuple(hand)}), team=1), n_kernel, seed=2026)
    for index, figure in enumerate(("gleich", "hanger")):
        kernel = counts[1 + 4 * index:5 + 4 * index]
        for outcome in range(4):
            p1, p2 = kernel[outcome] / n_kernel, reference[figure][outcome] / n_naive
            pooled = (kernel[outcome] + reference[figure][outcome]) / (n_kernel + n_naive)
            se = np.sqrt(pooled * (1 - pooled) * (1 / n_kernel + 1 / n_naive))
            assert abs(p1 - p2) <= 4 * se + 1e-12, (figure, outcome, p1, p2)


SPEC_GESTRICHEN = {"gleich": 0.21805, "hanger": 0.13776, "play": 0.64419, "hanger_tied": 0.00115, "gleich_tied": 0}
"""Spec §10.4-F: how §7.12 would decide random deals (10,000,000 deals, SE <= 0.00016)."""


def test_both_gestrichen_resolution_matches_the_spec_baseline(table_stats):
    """The spec's baseline within the interval of our count widened by its own standard error (a 2-sample view)."""
    n, parts = table_stats
    for name, count in zip(GESTRICHEN, parts["gestrichen"]):
        est = Estimate(int(count), n, LEVEL)
        assert est.lo - 0.00016 * 4 <= SPEC_GESTRICHEN[name] <= est.hi + 0.00016 * 4, name
    assert parts["gestrichen"][:3].sum() == n


def plain_gestrichen(codes) -> str:
    """§7.12 read as the spec writes it: G* = the best Gleich of 3+ cards, H* = the best Hanger of 3+ cards, each
    unless both teams hold it (a tied Gleich needs wild cards; it drops out as the Hanger does, the chosen default);
    no candidate: play; else the larger figure, a Gleich on equal size."""
    team_gleichs = [max(codes[0][0], codes[2][0]), max(codes[1][0], codes[3][0])]
    gleich = max(team_gleichs) if team_gleichs[0] != team_gleichs[1] else -1
    team_hangers = [max(codes[0][1], codes[2][1]), max(codes[1][1], codes[3][1])]
    hanger = max(team_hangers) if team_hangers[0] != team_hangers[1] else -1
    candidates = [(code // 8 + 2, kind) for code, kind in ((gleich, 1), (hanger, 0)) if code >= 8]
    if not candidates:
        return "play"
    return "gleich" if max(candidates)[1] == 1 else "hanger"


def test_gestrichen_counts_equal_a_plain_recount():
    """The kernel's tallies against the plain reading on the same 20,000 deals, and each decided deal's winner
    against the betting engine's `both_gestrichen_winner`."""
    from simcore.games.giltspiel import hand_figures
    from simcore.games.giltspiel_betting import GiltspielCards
    from simcore.dealing import deal
    from simcore.rng import block_words

    job = StatsJob(Known(), seat=0)
    counts = job.run_block(5, 0, 20_000)
    _, parts = StatsJob.split(counts)
    slots = deal(job.spec, block_words(5, 0, 20_000, job.spec.words_per_deal))
    rules, tally, joint = GiltspielCards(), dict.fromkeys(GESTRICHEN, 0), np.zeros((4, 4), dtype=np.int64)
    for row in slots:
        hands = [DECK.cards_of(int(row[s])) for s in range(4)]
        codes = [hand_figures(h) for h in hands]
        joint[plain_outcome([c[0] for c in codes]), plain_outcome([c[1] for c in codes])] += 1
        kind = plain_gestrichen(codes)
        tally[kind] += 1
        tally["hanger_tied"] += max(codes[0][1], codes[2][1]) == max(codes[1][1], codes[3][1]) >= 8
        tally["gleich_tied"] += max(codes[0][0], codes[2][0]) == max(codes[1][0], codes[3][0]) >= 8
        assert (rules.both_gestrichen_winner(hands) is None) == (kind == "play")
    assert list(parts["gestrichen"]) == [tally[k] for k in GESTRICHEN]
    assert np.array_equal(parts["joint"], joint)


def plain_outcome(codes) -> int:
    """team0, team1, stand or void (ABSOLUTE_OUTCOMES order) of one figure from the four seats' codes."""
    team0, team1 = max(codes[0], codes[2]), max(codes[1], codes[3])
    if team0 == team1:
        return ABS_VOID if team0 < 0 else ABS_STAND
    return TEAM0 if team0 > team1 else TEAM1


def test_same_team_sweeps_match_the_spec(table_stats):
    """Spec Q6: one team wins both Gleich and Hanger in 42.75% of deals (its §10.4 simulation)."""
    n, parts = table_stats
    est = Estimate(int(parts["joint"][TEAM0, TEAM0] + parts["joint"][TEAM1, TEAM1]), n, LEVEL)
    assert est.lo - 0.0002 <= 0.4275 <= est.hi + 0.0002
    assert parts["joint"].sum() == n and np.array_equal(parts["joint"].sum(axis=1), parts["outcome"][0])


def test_a_tied_wild_gleich_drops_out():
    """With the Perlique both teams can hold three Aces (turn-up H8: hearts trump, H7 HU HO wild): the tied best
    Gleich drops out, and the deal goes to the Hanger or the play; natural Gleichs never tie."""
    from simcore.games.giltspiel import PERLIQUE, gestrichen_class, hand_figures

    hands = ["EA LA H7 E8 L9", "HA SA HU E10 L10", "EK L8 S9 H10 SO", "LK S8 E9 HK S7"]
    wild = int(PERLIQUE[DECK.suits.index("H")])
    codes = [hand_figures(DECK.parse_cards(h, "hand"), wild) for h in hands]
    assert max(codes[0][0], codes[2][0]) == max(codes[1][0], codes[3][0]) >= 8  # three Aces on both teams
    kind = ("gleich", "hanger", "play")[gestrichen_class(*(c[0] for c in codes), *(c[1] for c in codes))]
    assert kind == plain_gestrichen(codes) != "gleich"
    job = StatsJob(Known(), seat=0, perlique=True)
    _, parts = StatsJob.split(job.run_block(3, 0, 20_000))
    assert parts["gestrichen"][4] > 0 and parts["gestrichen"][:3].sum() == 20_000
    assert StatsJob.split(StatsJob(Known(), seat=0).run_block(3, 0, 20_000))[1]["gestrichen"][4] == 0
