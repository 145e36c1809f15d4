"""Dreeg §6.3 exact combinatorial facts (shared/rules/dreeg.md lines 786-905) not covered by
tests/test_dreeg_rules.py: the trump marriage "someone at the table" rows, the table-marriage distributions, two
cards in the same hand, the phase-1 trump counts (3p non-dealer, the means, the printed decimals), card points held
in hand with the low tails and team rows, and the Rot Assen, Rufen, 2-player 66 and Kamerun facts; plus the report's
marriage table (`analysis.sections.dreeg._marriages`), which renders §6.3 figures.

Every value is counted exactly: over classes of cards (binomial / hypergeometric products, a generating function
over the card-point classes), over the product's suit profiles (`dreeg_exact.profiles`), or by a small exhaustive
enumeration (the 2,024 Rufen packets, the 24 places of one card in a deal). The classes come from the product's own
data: the pack (`dreeg.DECK`, `dreeg_rules.POINTS`, `N_SUITS`, `N_RANKS`), the deal shapes (`dreeg.LAYOUTS`,
`dreeg_rules.HAND_SIZES`, `deal_order`, `deal_hands`, `deal_duel66`), so a change of the product's data shows here.
Where the product computes the same quantity (`dreeg_exact.trump_marriage`, `trump_count_distribution`,
`table_marriage_distribution`, `profiles`; `GreedyPolicy.call`, `GreedyPolicy.durchmarsch` / `sure_cards`; the
report's `_marriages`), the product's function is checked against the spec. Spec fractions are asserted as exact
Fractions, spec decimals to the printed number of places. Where the spec's number is wrong, the exact value is
asserted and the comment quotes the spec's value.
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction as F
from itertools import combinations, product
from math import comb, sqrt
from types import SimpleNamespace

from analysis.sections.dreeg import _marriages
from simcore.games import dreeg as dg
from simcore.games import dreeg_exact as ex
from simcore.games import dreeg_rules as r
from simcore.games.dreeg_play import check_call
from simcore.games.dreeg_policies import GreedyPolicy, sure_cards
from tests.exact import hypergeometric, printed
from tests.test_dreeg_rules import mask

# --- the product's data as card classes ---------------------------------------------------------------------------
N_CARDS = r.DECK.n_cards
SUIT_SIZE = N_CARDS // r.N_SUITS
SIZES = {p: tuple(int(s) for s in dg.LAYOUTS[p].sizes) for p in (4, 3, 2)}
"""Deal shape per number of active players: hands (and the 2-player talon)."""
HAND = {p: r.HAND_SIZES[p] for p in (4, 3, 2)}
POINT_CLASSES = sorted(Counter(r.POINTS).items())
"""(card points, cards with that value) over the pack."""
N_ACES = sum(1 for c in range(N_CARDS) if r.card_rank(c) == r.ACE)
TOP4 = (r.ACE, r.TEN, r.KING, r.OBER)


def test_product_data_is_the_spec_pack():
    """§1.2 (lines 53-65) and §2.4 (lines 155-161): 24 cards in 4 suits of 6, card points A 11, 10 10, K 4, O 3,
    U 2, 9 0 (120 in all), hands of 6 (4p), 8 (3p), 6 + a 12-card talon (2p)."""
    assert (N_CARDS, r.N_SUITS, SUIT_SIZE, N_ACES) == (24, 4, 6, 4)
    assert POINT_CLASSES == [(0, 4), (2, 4), (3, 4), (4, 4), (10, 4), (11, 4)]
    assert {r.DECK.ranks[r.card_rank(c)]: r.POINTS[c] for c in range(N_CARDS)} == dg.RANK_POINTS
    assert r.TOTAL_POINTS == 120
    assert SIZES == {4: (6, 6, 6, 6), 3: (8, 8, 8), 2: (6, 6, 12)} and HAND == {4: 6, 3: 8, 2: 6}
    for p in (4, 3):
        assert Counter(r.deal_order(p)) == {seat: HAND[p] for seat in range(p)}


# --- helpers ------------------------------------------------------------------------------------------------------
hyper = hypergeometric(N_CARDS)


def point_counts(n: int, classes=None) -> dict[int, int]:
    """Number of ``n``-card sets of each card-point total: a generating function over the point classes."""
    gf = {(0, 0): 1}
    for value, count in classes or POINT_CLASSES:
        new: dict = {}
        for (cards, pts), w in gf.items():
            for j in range(min(count, n - cards) + 1):
                key = (cards + j, pts + j * value)
                new[key] = new.get(key, 0) + w * comb(count, j)
        gf = new
    return {pts: w for (cards, pts), w in gf.items() if cards == n}


def tail(counts: dict[int, int], keep) -> F:
    return F(sum(w for pts, w in counts.items() if keep(pts)), sum(counts.values()))


def length(part) -> int:
    return part[0] + part[1] + part[2]


def with_heart_ace(n: int):
    """(profile, weight) of the ``n``-card hands holding ♥A: a profile's heart part holds ``x`` of the suit's four
    cards other than K and O, ♥A among them in x/4 of its hands (weights add up to C(23, n - 1))."""
    for prof, w in ex.profiles(n):
        if prof[r.HEART][2]:
            yield prof, F(w * prof[r.HEART][2], 4)


def test_helpers_count_every_hand():
    """The class counts cover C(24, n) hands, and the point generating function agrees with the product's
    `points_of` over all 2,024 three-card hands."""
    for n in (3, 6, 8, 12, 16, 18):
        assert sum(point_counts(n).values()) == comb(N_CARDS, n)
    direct = Counter(r.points_of(r.DECK.mask(h)) for h in combinations(range(N_CARDS), 3))
    assert dict(direct) == point_counts(3)
    for n in (6, 8):
        assert sum(w for _, w in with_heart_ace(n)) == comb(N_CARDS - 1, n - 1)


# --- trump marriage, marriages at the table, two cards in one hand -------------------------------------------------
def test_trump_marriage_someone_at_the_table():
    """Lines 792, 795: someone at the table holds trump K + O, 4p 5/23 = 0.217391, 3p 7/23 = 0.304348. Only one hand
    can hold both, so it is the dealer's chance plus every non-dealer's (`dreeg_exact.trump_marriage`)."""
    expect = {4: (F(5, 23), "0.217391"), 3: (F(7, 23), "0.304348")}
    for p, (frac, text) in expect.items():
        n = HAND[p]
        someone = ex.trump_marriage(n, dealer=True) + (p - 1) * ex.trump_marriage(n, dealer=False)
        assert someone == frac and printed(someone, 6) == text
        assert someone == p * F(comb(n, 2), comb(N_CARDS, 2))  # trump K and O are two given cards


def test_trump_marriage_two_player_either_player():
    """Line 796: 2-player 66, a given player's initial 6 holds trump K + O with 10/253 = 0.039526, either player
    20/253 = 0.079051. Class count: the indicator (not in either hand) must not be the K or O of its suit."""
    n = HAND[2]
    given = ex.trump_marriage(n, dealer=False)
    by_class = sum(F(1, N_CARDS) * hyper(2, 2, n, N_CARDS - 1)
                   for c in range(N_CARDS) if r.card_rank(c) not in (r.KING, r.OBER))
    assert given == by_class == F(10, 253) and printed(given, 6) == "0.039526"
    either = sum(1 for size in SIZES[2] if size == n) * given
    assert either == F(20, 253) and printed(either, 6) == "0.079051"


def test_two_specified_cards_in_the_same_hand():
    """Line 806: two specified cards lie in the same hand with 4p 5/23 = 0.217391, 3p 7/23 = 0.304348; hence the
    expected marriages at the table (line 802-803, E[#] 20/23 = 0.8696, 28/23 = 1.2174) are 4 times that, which the
    product's `table_marriage_distribution` must reproduce."""
    expect = {4: (F(5, 23), "0.217391", F(20, 23), "0.8696"), 3: (F(7, 23), "0.304348", F(28, 23), "1.2174")}
    for p, (frac, text, mean, mean_text) in expect.items():
        same = sum(F(comb(size, 2), comb(N_CARDS, 2)) for size in SIZES[p])
        assert same == frac and printed(same, 6) == text
        dist = ex.table_marriage_distribution(SIZES[p])
        got = sum(k * q for k, q in dist.items())
        assert got == r.N_SUITS * same == mean and printed(got, 4) == mean_text


def test_marriages_at_the_table_rows():
    """Lines 803-804: P(0..4) of the 3 x 8 row (0.237014 0.406414 0.267766 0.079779 0.009027) and the 2 x 6 row
    with the talon excluded (97007/156009 = 0.621804, 0.324280, 0.051279, 0.002606, 0.000032; P(>= 1) 0.378196),
    from `dreeg_exact.table_marriage_distribution` over the product's deal shapes."""
    three = ex.table_marriage_distribution(SIZES[3])
    assert [printed(three[k], 6) for k in range(5)] == ["0.237014", "0.406414", "0.267766", "0.079779", "0.009027"]
    assert sum(three.values()) == 1
    hands = sum(1 for size in SIZES[2] if size == HAND[2])
    duel = ex.table_marriage_distribution(SIZES[2], counted=hands)
    assert duel[0] == F(97007, 156009)
    assert [printed(duel[k], 6) for k in range(5)] == ["0.621804", "0.324280", "0.051279", "0.002606", "0.000032"]
    assert printed(1 - duel[0], 6) == "0.378196" and sum(duel.values()) == 1


# --- trump count in phase 1 ----------------------------------------------------------------------------------------
def trump_count_by_class(n: int, dealer: bool) -> dict[int, F]:
    """The turned card's suit has SUIT_SIZE - 1 more cards among the 23 others; the dealer holds the turned card
    and n - 1 of the 23, a non-dealer n of them."""
    others, draws, base = SUIT_SIZE - 1, n - 1 if dealer else n, 1 if dealer else 0
    dist = {base + k: hyper(k, others, draws, N_CARDS - 1) for k in range(others + 1)}
    return {t: q for t, q in dist.items() if q}


def test_trump_count_three_player_non_dealer():
    """Lines 833-840: 3p non-dealer 0 = 39/437 = 0.08924, 1 = 1560/4807 = 0.32453, 2 = 1820/4807 (printed 0.37862),
    3 = 840/4807 = 0.17475, 4 = 150/4807 = 0.03120, 5 = 8/4807 = 0.00166; mean 40/23 = 1.7391."""
    d = ex.trump_count_distribution(HAND[3], dealer=False)
    assert d == trump_count_by_class(HAND[3], dealer=False) == {
        0: F(39, 437), 1: F(1560, 4807), 2: F(1820, 4807), 3: F(840, 4807), 4: F(150, 4807), 5: F(8, 4807)}
    # Spec line 836 prints 0.37862; 1820/4807 = 0.378614..., which rounds to 0.37861 (the fraction is right).
    assert [printed(d[t], 5) for t in range(6)] == ["0.08924", "0.32453", "0.37861", "0.17475", "0.03120", "0.00166"]
    mean = sum(t * q for t, q in d.items())
    assert mean == F(40, 23) and printed(mean, 4) == "1.7391"


def test_trump_count_means_and_printed_decimals():
    """Lines 809-832: 4p dealer mean 48/23 = 2.0870, 3p dealer 6 trumps = 3/4807 = 0.00062 and mean 58/23 = 2.5217,
    and the printed decimals of the 4p dealer, 4p non-dealer and 3p dealer lists (their fractions are in
    tests/test_dreeg_rules.py); `dreeg_exact.trump_count_distribution` against a hypergeometric class count."""
    four_d = ex.trump_count_distribution(HAND[4], dealer=True)
    assert four_d == trump_count_by_class(HAND[4], dealer=True)
    # Spec line 811 prints 0.45470; 15300/33649 = 0.454694..., which rounds to 0.45469 (the fraction is right).
    assert [printed(four_d[t], 5) for t in range(1, 6)] == ["0.25463", "0.45469", "0.24250", "0.04547", "0.00267"]
    assert four_d[6] == F(1, 33649)
    mean = sum(t * q for t, q in four_d.items())
    assert mean == F(48, 23) and printed(mean, 4) == "2.0870"

    four_n = ex.trump_count_distribution(HAND[4], dealer=False)
    assert four_n == trump_count_by_class(HAND[4], dealer=False)
    assert [printed(four_n[t], 5) for t in range(6)] == ["0.18390", "0.42438", "0.30313", "0.08083", "0.00758",
                                                          "0.00018"]
    assert printed(sum(t * q for t, q in four_n.items()), 4) == "1.3043"

    three_d = ex.trump_count_distribution(HAND[3], dealer=True)
    assert three_d == trump_count_by_class(HAND[3], dealer=True)
    assert three_d[6] == F(3, 4807) and set(three_d) == {1, 2, 3, 4, 5, 6}
    # Spec line 827 prints 0.37862; 1820/4807 = 0.378614..., which rounds to 0.37861 (the fraction is right).
    assert [printed(three_d[t], 5) for t in range(1, 7)] == ["0.12981", "0.37861", "0.34949", "0.12482", "0.01664",
                                                           "0.00062"]
    mean = sum(t * q for t, q in three_d.items())
    assert mean == F(58, 23) and printed(mean, 4) == "2.5217"


# --- card points held in hand --------------------------------------------------------------------------------------
THRESHOLDS = (33, 40, 45, 50, 55, 60, 66)


def test_card_points_single_hands():
    """Lines 844-848: card points held in 3, 6 and 8 cards: mean, SD (var), P(>= 33 .. 66) and the maximum."""
    spec = {
        3: (15, None, "6.757", [F(1, 506), 0, 0, 0, 0, 0, 0], ["0.001976"], 33),
        6: (30, F(1800, 23), "8.8465",
            [F(24987, 67298), F(4871, 33649), F(3889, 67298), F(384, 33649), F(13, 3059), F(1, 4807), 0],
            ["0.371289", "0.144759", "0.057788", "0.011412", "0.004250", "0.000208"], 64),
        8: (40, F(6400, 69), "9.6309",
            [F(191687, 245157), F(384257, 735471), F(12101, 38709), F(42118, 245157), F(47312, 735471),
             F(18130, 735471)],
            ["0.781895", "0.522464", "0.312615", "0.171800", "0.064329", "0.024651"], 84),
    }
    for n, (mean, var, sd, fracs, decimals, top) in spec.items():
        counts = point_counts(n)
        total = comb(N_CARDS, n)
        got_mean = F(sum(p * w for p, w in counts.items()), total)
        got_var = F(sum(p * p * w for p, w in counts.items()), total) - got_mean ** 2
        assert got_mean == mean and (var is None or got_var == var)
        assert f"{sqrt(got_var):.{len(sd.split('.')[1])}f}" == sd
        ge = [tail(counts, lambda p, t=t: p >= t) for t in THRESHOLDS]
        assert ge[:len(fracs)] == fracs
        assert [printed(q, 6) for q in ge[:len(decimals)]] == decimals
        assert max(counts) == top
    eight_66 = tail(point_counts(8), lambda p: p >= 66)
    assert printed(eight_66, 4) == "0.0039"  # line 848: 321/81719
    assert r.points_of(mask("EA LA HA SA E10 L10")) == 64  # line 847: the best 6 cards


def test_card_points_low_tails_and_no_66_in_six_cards():
    """Lines 853-855: 6 cards P(<= 10) = 312/33649 = 0.009272, P(<= 15) = 0.048233, P(<= 20) = 0.145799; 8 cards
    P(<= 20) = 0.017496; no 6-card hand holds 66 card points."""
    six, eight = point_counts(6), point_counts(8)
    low6 = [tail(six, lambda p, t=t: p <= t) for t in (10, 15, 20)]
    assert low6[0] == F(312, 33649)
    assert [printed(q, 6) for q in low6] == ["0.009272", "0.048233", "0.145799"]
    assert printed(tail(eight, lambda p: p <= 20), 6) == "0.017496"
    assert tail(six, lambda p: p >= 66) == 0


def test_card_points_team_rows():
    """Lines 849-851: cards held by a team (a uniform 12-, 16- or 18-card set): mean 60 / 80 / 90 and
    P(>= 33, 45, 55, 60, 66)."""
    spec = {
        2 * HAND[4]: (60, ["0.9971", "0.9325", "0.6990", "0.5218", "0.3010"]),
        2 * HAND[3]: (80, ["1.0000", "0.9999", "0.9961", "0.9814", "0.9357"]),
        3 * HAND[4]: (90, ["1.0000", "1.0000", "1.0000", "0.9998", "0.9958"]),
    }
    assert sorted(spec) == [12, 16, 18]
    for n, (mean, decimals) in spec.items():
        counts = point_counts(n)
        assert F(sum(p * w for p, w in counts.items()), comb(N_CARDS, n)) == mean
        ge = [tail(counts, lambda p, t=t: p >= t) for t in (33, 45, 55, 60, 66)]
        assert [printed(q, 4) for q in ge] == decimals


# --- Rot Assen -----------------------------------------------------------------------------------------------------
def test_rot_assen_holder_and_soloist_points():
    """Lines 858-859: a given player holds ♥A with 1/4 (4p), 1/3 (3p) (the product's deal order); the 4p soloist's
    hand points: mean 798/23 = 34.696, P(>= 33) = 19403/33649 = 0.576629 (♥A plus 5 of the other 23 cards)."""
    for p, frac in ((4, F(1, 4)), (3, F(1, 3))):
        assert F(r.deal_order(p).count(0), N_CARDS) == frac
    ace = r.POINTS[r.HEART_ACE]
    rest = [(v, k - (v == ace)) for v, k in POINT_CLASSES]
    counts = {p + ace: w for p, w in point_counts(HAND[4] - 1, rest).items()}
    mean = F(sum(p * w for p, w in counts.items()), comb(N_CARDS - 1, HAND[4] - 1))
    assert mean == F(798, 23) and printed(mean, 3) == "34.696"
    at_33 = tail(counts, lambda p: p >= 33)
    assert at_33 == F(19403, 33649) and printed(at_33, 6) == "0.576629"


def test_rot_assen_soloist_longest_suit_heart_length_marriages():
    """Lines 862-868: the soloist's (♥A holder's) longest suit, 4p 0.4614 0.4672 0.0682 0.0032 0.00003 and 3p
    0.0688 0.6559 0.2478 0.0266 0.0008; his heart length (4p) 0.2546 0.4547 0.2425 0.0455 0.0027; >= 1 marriage 4p
    274/1771 = 0.154715, 3p 4450/14421 = 0.308578. Over the product's suit profiles (`dreeg_exact.profiles`)."""
    longest_spec = {4: ["0.4614", "0.4672", "0.0682", "0.0032", "0.00003"],
                    3: ["0.0688", "0.6559", "0.2478", "0.0266", "0.0008"]}
    marriage_spec = {4: (F(274, 1771), "0.154715"), 3: (F(4450, 14421), "0.308578")}
    for p in (4, 3):
        n = HAND[p]
        total = F(comb(N_CARDS - 1, n - 1))
        longest, hearts, married = Counter(), Counter(), F(0)
        for prof, w in with_heart_ace(n):
            longest[max(length(part) for part in prof)] += w
            hearts[length(prof[r.HEART])] += w
            married += w if any(k and o for k, o, _ in prof) else 0
        assert sorted(longest) == [2, 3, 4, 5, 6]
        assert [printed(longest[m] / total, len(text) - 2) for m, text in zip(range(2, 7), longest_spec[p])] \
            == longest_spec[p]
        assert (married / total, printed(married / total, 6)) == marriage_spec[p]
        if p == 4:
            assert [printed(hearts[h] / total, 4) for h in range(1, 6)] == ["0.2546", "0.4547", "0.2425", "0.0455",
                                                                            "0.0027"]
            # holding a given card = owning the turned card: the phase-1 dealer's trump count (lines 809-815)
            assert {h: q / total for h, q in hearts.items()} == ex.trump_count_distribution(n, dealer=True)


def test_rot_assen_two_players_heart_ace_place():
    """Lines 869-873: 2-player Rot Assen, ♥A with FH 1/4, the other player 1/4, the talon 1/2; drawn in tricks 1-3
    (talon places 1-6) 1/4; in the last 6 talon cards (a flip under honest play without an early close) 1/4; the
    bottom card 1/24. ♥A is put at each of the 24 places of the pack and dealt by the product's `deal_hands`."""
    where = Counter()
    for i in range(N_CARDS):
        perm = [c for c in range(N_CARDS) if c != r.HEART_ACE]
        perm.insert(i, r.HEART_ACE)
        hands, talon = r.deal_hands(perm, 2)
        held = [pos for pos, h in enumerate(hands) if (h >> r.HEART_ACE) & 1]
        if held:
            where["FH" if held == [0] else "other"] += 1
            continue
        assert len(talon) == SIZES[2][2]
        at = talon.index(r.HEART_ACE)
        where["talon"] += 1
        where["drawn 1-3"] += at < 3 * 2
        where["last 6"] += at >= len(talon) - 6
        where["bottom"] += at == len(talon) - 1
    assert {k: F(v, N_CARDS) for k, v in where.items()} == {
        "FH": F(1, 4), "other": F(1, 4), "talon": F(1, 2), "drawn 1-3": F(1, 4), "last 6": F(1, 4),
        "bottom": F(1, 24)}


# --- Rufen ---------------------------------------------------------------------------------------------------------
PACKETS = [sum(1 << c for c in cards) for cards in combinations(range(N_CARDS), 3)]
"""All C(24, 3) = 2,024 first packets of FH (§6.3 line 767)."""


def suits_in(m: int) -> list[int]:
    return [s for s in range(r.N_SUITS) if m & r.SUIT_MASKS[s]]


def test_rufen_distinct_suits_in_first_packet():
    """Lines 876-879: distinct suits in FH's first 3 cards: one 10/253 = 0.03953, two 135/253 = 0.53360, three
    108/253 = 0.42688 (the first packet is the first 3 cards the product deals, all to FH)."""
    for p in (4, 3):
        assert r.deal_order(p)[:3] == (0, 0, 0)
    dist = Counter(len(suits_in(m)) for m in PACKETS)
    got = {k: F(v, len(PACKETS)) for k, v in dist.items()}
    assert got == {1: F(10, 253), 2: F(135, 253), 3: F(108, 253)}
    assert [printed(got[k], 5) for k in (1, 2, 3)] == ["0.03953", "0.53360", "0.42688"]


def spec_call_rank(packet: int) -> int:
    """Line 880, the spec's policy: the longest suit among the 3 cards (ties: more points), its highest missing
    rank."""
    def key(s):
        cards = [c for c in r.cards_of(packet) if r.card_suit(c) == s]
        return len(cards), sum(r.POINTS[c] for c in cards)

    suit = max(suits_in(packet), key=key)
    held = {r.card_rank(c) for c in r.cards_of(packet) if r.card_suit(c) == suit}
    return max(rank for rank in range(r.N_RANKS) if rank not in held)


def test_rufen_call_rank_under_the_stated_policy():
    """Lines 880-884: rank called under "longest suit among the 3 (ties: more points), call its highest missing
    rank": A 315/506 = 0.62253, 10 169/506 = 0.33399, K 21/506 = 0.04150, O 1/506 = 0.00198. The product's
    `GreedyPolicy.call` (the toolkit's §3.3.1 heuristic) is run on all 2,024 packets: every call is legal
    (`check_call`), misses FH's first 3 cards, and calls the rank the spec's policy calls."""
    policy = GreedyPolicy()
    ranks = Counter()
    for packet in PACKETS:
        card = policy.call(None, 0, packet)
        check_call(packet, card)
        assert not (packet >> card) & 1
        assert r.card_rank(card) == spec_call_rank(packet)
        ranks[r.DECK.ranks[r.card_rank(card)]] += 1
    got = {k: F(v, len(PACKETS)) for k, v in ranks.items()}
    assert got == {"A": F(315, 506), "10": F(169, 506), "K": F(21, 506), "O": F(1, 506)}
    assert [printed(got[k], 5) for k in ("A", "10", "K", "O")] == ["0.62253", "0.33399", "0.04150", "0.00198"]


def test_rufen_accidental_solo():
    """Line 885: the called card is not among FH's first 3; FH holds it among his remaining cards (an accidental
    solo) with 3/21 = 1/7 = 0.142857 (4p) and 5/21 = 0.238095 (3p); a 2 v 2 partnership forms with 6/7 (4p). FH's
    remaining cards are his deal slots after the first packet, the called card one of the 21 unseen; averaged over
    the greedy policy's calls on all 2,024 packets."""
    policy = GreedyPolicy()
    for p, frac, text in ((4, F(1, 7), "0.142857"), (3, F(5, 21), "0.238095")):
        rest = r.deal_order(p)[3:].count(0)
        unseen = N_CARDS - 3
        solo = F(0)
        for packet in PACKETS:
            card = policy.call(None, 0, packet)
            assert not (packet >> card) & 1
            solo += F(comb(unseen - 1, rest - 1), comb(unseen, rest))  # FH's rest holds that card
        solo /= len(PACKETS)
        assert solo == frac == F(rest, unseen) and printed(solo, 6) == text
        if p == 4:
            assert 1 - solo == F(6, 7)


# --- 2-player 66 ---------------------------------------------------------------------------------------------------
def duel_places() -> dict[int, str]:
    """Where each place of the shuffled pack goes in the product's 2-player 66 deal (`deal_duel66`, the indicator
    between the packets): 'FH', 'other', 'talon' (above the indicator) or 'indicator'."""
    hands, talon = r.deal_duel66(list(range(N_CARDS)))
    out = {talon[-1]: "indicator"}
    for place in talon[:-1]:
        out[place] = "talon"
    for pos, name in enumerate(("FH", "other")):
        for place in r.cards_of(hands[pos]):
            out[place] = name
    assert len(out) == N_CARDS
    return out


def test_duel66_trump_nine():
    """Lines 888-890: the trump 9 (the 9 of the indicator's suit): the spec states P(indicator) = 1/24, P(a given
    player dealt it) = 1/4, P(in the talon above the indicator) = 11/24 - the places of a fixed card, as if the
    trump were chosen independently of the indicator. But the indicator sets the trump: it is the trump 9 whenever
    it is a 9 (4 of 24 cards), and otherwise the trump 9 is one of the 23 other cards. Enumerated over the indicator
    card and the place of the trump 9 in the product's deal."""
    places = duel_places()
    ind_place = next(pl for pl, name in places.items() if name == "indicator")
    got = Counter()
    for ind in range(N_CARDS):
        nine = r.N_RANKS * r.card_suit(ind) + r.NINE
        if nine == ind:
            got["indicator"] += F(1, N_CARDS)
            continue
        for pl, name in places.items():
            if pl != ind_place:
                got[name] += F(1, N_CARDS * (N_CARDS - 1))
    assert sum(got.values()) == 1
    # Spec line 888 states 1/24; exact 1/6 (the indicator is a 9 with 4/24).
    assert got["indicator"] == F(1, 6)
    # Spec line 889 states 1/4; exact 5/6 * 6/23 = 5/23.
    assert got["FH"] == got["other"] == F(5, 23)
    # Spec line 890 states 11/24; exact 5/6 * 11/23 = 55/138.
    assert got["talon"] == F(55, 138)


def test_duel66_close_at_once_hand():
    """Line 891: FH's initial 6 holds trump A, 10, K, O (28 card points + 40, "close at once") with 1/1771 =
    0.000565: the indicator must be the 9 or U of its suit, and FH's 6 are 6 of the 23 other cards."""
    places = duel_places()
    fh = sum(1 for name in places.values() if name == "FH")
    p = sum(F(1, N_CARDS) * hyper(len(TOP4), len(TOP4), fh, N_CARDS - 1)
            for ind in range(N_CARDS) if r.card_rank(ind) not in TOP4)
    assert p == F(1, 1771) and printed(p, 6) == "0.000565"
    assert sum(r.POINTS[rank] for rank in TOP4) == 28  # the ranks of suit 0, card = rank there


# --- Kamerun -------------------------------------------------------------------------------------------------------
def test_kamerun_voids_and_longest_suit():
    """Lines 894-902, 905: voids in 6 cards 0.48946 0.46940 0.04110 0.00003, in 8 cards 0.76605 0.22991 0.00404;
    longest suit in 6 cards 0.46138 0.46718 0.06820 0.00321 0.00003 (the product's suit profiles)."""
    spec_voids = {6: ["0.48946", "0.46940", "0.04110", "0.00003"], 8: ["0.76605", "0.22991", "0.00404"]}
    for n, decimals in spec_voids.items():
        voids = Counter()
        for prof, w in ex.profiles(n):
            voids[sum(1 for part in prof if length(part) == 0)] += w
        assert sorted(voids) == list(range(len(decimals)))
        assert [printed(F(voids[v], comb(N_CARDS, n)), 5) for v in range(len(decimals))] == decimals
    longest = Counter()
    for prof, w in ex.profiles(HAND[4]):
        longest[max(length(part) for part in prof)] += w
    assert sorted(longest) == [2, 3, 4, 5, 6]
    assert [printed(F(longest[m], comb(N_CARDS, HAND[4])), 5) for m in range(2, 7)] == [
        "0.46138", "0.46718", "0.06820", "0.00321", "0.00003"]


def test_kamerun_aces_in_six_cards():
    """Line 904: aces in a 6-card hand 0: 0.28797, 1: 0.46076, 2: 0.21598, 3: 0.03388, 4: 0.00141."""
    got = [hyper(a, N_ACES, HAND[4]) for a in range(N_ACES + 1)]
    assert sum(got) == 1
    assert [printed(q, 5) for q in got] == ["0.28797", "0.46076", "0.21598", "0.03388", "0.00141"]


def test_kamerun_top_sequence_hands():
    """Line 903: hands of top sequences only (A, A-10, A-10-K, ... in every suit held): 84/134596 = 3/4807 =
    0.000624 (6 cards), 149/735471 = 0.000203 (8 cards). The product's Durchmarsch test (`GreedyPolicy.durchmarsch`:
    `sure_cards` without trump cover the hand) works suit by suit, so the qualifying hands are the unions of one
    qualifying part per suit; each such hand is checked whole."""
    for h in PACKETS:  # sure_cards without trump is suit-wise
        parts = 0
        for s in range(r.N_SUITS):
            parts |= sure_cards(h & r.SUIT_MASKS[s], 0, -1)
        assert sure_cards(h, 0, -1) == parts
    policy = GreedyPolicy()
    good = []
    for s in range(r.N_SUITS):
        subsets = [sum(1 << (r.N_RANKS * s + k) for k in range(r.N_RANKS) if (sub >> k) & 1)
                   for sub in range(1 << r.N_RANKS)]
        good.append([m for m in subsets if sure_cards(m, 0, -1) == m])
        # exactly the top sequences: one per length 0..6
        assert sorted(r.bit_count(m) for m in good[-1]) == list(range(r.N_RANKS + 1))
        assert all(m == 0 or (m >> (r.N_RANKS * s + r.ACE)) & 1 for m in good[-1])
    spec = {6: (F(3, 4807), 84, "0.000624"), 8: (F(149, 735471), 149, "0.000203")}
    for n, (frac, count, text) in spec.items():
        hands = [sum(parts) for parts in product(*good) if sum(r.bit_count(m) for m in parts) == n]
        assert all(policy.durchmarsch(SimpleNamespace(hands=[h], gone=0), 0) for h in hands)
        p = F(len(hands), comb(N_CARDS, n))
        assert len(hands) == count and p == frac and printed(p, 6) == text


# --- the report's marriage table (analysis/sections/dreeg.py `_marriages`) -----------------------------------------
def test_report_marriage_table_matches_spec():
    """Lines 777-803: every row of the report's exact marriage table carries the spec's fraction and its 6-place
    decimal (>= 1 marriage per hand size, a given suit's marriage, the phase-1 trump marriage, a marriage somewhere
    at the table)."""
    html = _marriages()
    rows = re.findall(r'<th>([^<]*)</th><td class="num">(\d+)/(\d+)</td><td class="num">([0-9.]+)</td>', html)
    got = {what: (F(int(a), int(b)), dec) for what, a, b, dec in rows}
    spec = {
        "Rufen first packet (3 cards): at least one marriage": (F(1, 23), "0.043478"),
        "Rufen first packet (3 cards): the marriage of a given suit": (F(1, 92), "0.010870"),
        "6-card hand (4 players, duel): at least one marriage": (F(7031, 33649), "0.208951"),
        "6-card hand (4 players, duel): the marriage of a given suit": (F(5, 92), "0.054348"),
        "8-card hand (3 players): at least one marriage": (F(269993, 735471), "0.367102"),
        "8-card hand (3 players): the marriage of a given suit": (F(7, 69), "0.101449"),
        "phase 1, 4 players, the dealer (owns the turned card): trump King + Ober": (F(25, 253), "0.098814"),
        "phase 1, 4 players, a given other player: trump King + Ober": (F(10, 253), "0.039526"),
        "phase 1, 3 players, the dealer (owns the turned card): trump King + Ober": (F(119, 759), "0.156785"),
        "phase 1, 3 players, a given other player: trump King + Ober": (F(56, 759), "0.073781"),
        "4 players: a marriage somewhere at the table": (F(355853, 572033), "0.622085"),
        "3 players: a marriage somewhere at the table": (F(935257, 1225785), "0.762986"),
    }
    assert got == spec
