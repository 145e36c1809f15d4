"""Dreeg rules as pure functions (simcore.games.dreeg_rules, dreeg_exact): the worked examples of
spec §7.1-§7.5, §7.9-§7.10, the exact facts of §6.3, and property tests against tests/naive_dreeg.py."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_dreeg as naive
from simcore.games import dreeg_exact as ex
from simcore.games import dreeg_rules as r

E, L, H, S = range(4)


def cards(text: str) -> list[int]:
    return r.DECK.parse_cards(text)


def mask(text: str) -> int:
    return r.DECK.mask(cards(text))


def legal(hand: str, trick: str, trump=H, mode=r.STRICT, flags=0) -> set[str]:
    m = r.legal_cards(mask(hand), cards(trick), trump, mode, flags)
    return {r.DECK.token(c) for c in r.cards_of(m)}


# --- §7.1 deck and melds ---------------------------------------------------------------------------
def test_d1_pack_is_worth_120():
    assert r.TOTAL_POINTS == 120
    assert all(r.points_of(m) == 30 for m in r.SUIT_MASKS)


def test_marriage_values_and_suits_section_1_4():
    assert r.marriage_suits(mask("EK EO LK LO HK")) == [E, L]
    assert r.marriage_value(H, H) == 40 and r.marriage_value(E, H) == 20 and r.marriage_value(E, -1) == 20


# --- §7.2 trick winner and legal moves ------------------------------------------------------------
@pytest.mark.parametrize("trick, trump, slot", [("EK E10 H9 EA", H, 2), ("EK SA S10 E9", H, 0),
                                                ("E10 EA SA E9", -1, 1)], ids=["W1", "W2", "W3"])
def test_w_trick_winner_section_7_2(trick, trump, slot):
    assert r.winning_slot(cards(trick), trump) == slot


@pytest.mark.parametrize("hand, trick, trump, mode, flags, expected", [
    ("EA E9 HU", "EK", H, r.STRICT, 0, {"EA"}),                    # L1
    ("EA E9 HU", "EK H9", H, r.STRICT, 0, {"EA", "E9"}),           # L2
    ("HU SA", "EK H9", H, r.STRICT, 0, {"HU"}),                    # L3
    ("HU SA", "EK HO", H, r.STRICT, 0, {"HU"}),                    # L4
    ("HU SA", "EK HO", H, r.STRICT, r.NO_UNDERTRUMP, {"HU", "SA"}),  # L4 NO_UNDERTRUMP_DUTY
    ("HA H9 EA", "HK", H, r.STRICT, 0, {"HA"}),                    # L5
    ("H9 EA", "HK", H, r.STRICT, 0, {"H9"}),                       # L6
    ("EA S10", "HK", H, r.STRICT, 0, {"EA", "S10"}),               # L7
    ("EA H9 S9", "EK", H, r.FREE, 0, {"EA", "H9", "S9"}),          # L8
    ("EK SA", "E10 EA", -1, r.STRICT, 0, {"EK"}),                  # L9
], ids=["L1", "L2", "L3", "L4", "L4-variant", "L5", "L6", "L7", "L8", "L9"])
def test_l_legal_cards_section_7_2(hand, trick, trump, mode, flags, expected):
    assert legal(hand, trick, trump, mode, flags) == expected


def test_trumped_lead_variant_section_5_a4():
    """A4: after a trump on a plain lead any card of the suit; option must_head asks to head it."""
    assert legal("EA E9", "EK H9") == {"EA", "E9"}
    assert legal("EA E9", "EK H9", flags=r.HEAD_TRUMPED_LEAD) == {"EA"}


def test_follow_mode_kamerun5_no_head():
    assert legal("EA E9 SA", "EK", trump=-1, mode=r.FOLLOW) == {"EA", "E9"}


# --- §7.3 individual 66 ---------------------------------------------------------------------------
@pytest.mark.parametrize("points, last, erase", [
    ([40, 35, 25, 20], 3, [3, 2, 1, 0]),   # I1
    ([40, 40, 25, 15], 3, [2, 2, 1, 0]),   # I2
    ([50, 30, 30, 10], 0, [3, 1, 1, 0]),   # I3
    ([45, 35, 20, 20], 0, [3, 2, 0, 0]),   # I4
    ([60, 20, 20, 20], 0, [3, 0, 0, 0]),   # I5
    ([40, 40, 25, 15], 1, [2, 3, 1, 0]),   # I6
    ([50, 35, 35], 2, [2, 0, 1]),          # I7
    ([45, 45, 30], 2, [1, 1, 0]),          # I8
    ([40, 40, 40], 0, [2, 0, 0]),          # I9
], ids=[f"I{i}" for i in range(1, 10)])
def test_i_individual_66_section_7_3(points, last, erase):
    assert r.individual_66(points, last) == erase


# --- §7.4 two-sided scoring without closing -------------------------------------------------------
@pytest.mark.parametrize("points, tricks, out, last, erase", [
    ([68, 40], [3, 1], 0, 0, [1, 0]),      # T1
    ([72, 25], [4, 1], 0, 0, [2, 0]),      # T2
    ([70, 0], [4, 0], 0, 0, [3, 0]),       # T3
    ([66, 74], [3, 3], 0, 0, [1, 0]),      # T4
    ([62, 40], [3, 2], 0, 0, [0, 2]),      # T5
    ([70, 50], [3, 3], -1, 1, [1, 0]),     # T6
    ([86, 74], [3, 3], -1, 1, [0, 1]),     # T7
    ([64, 56], [3, 3], -1, 1, [0, 1]),     # T8
    ([70, 30], [4, 2], 0, 0, [2, 0]),      # T9: the team of 3 (side 0) vs the soloist with 30
    ([80, 40], [4, 2], -1, 1, [1, 0]),     # T11: played out, the team >= 66, opponents < 66
], ids=["T1", "T2", "T3", "T4", "T5", "T6", "T7", "T8", "T9", "T11"])
def test_t_two_sided_section_7_4(points, tricks, out, last, erase):
    assert r.resolve_open(points, tricks, out, last) == erase


def test_two_sided_eraser_literal_reading_section_5_a2():
    assert r.resolve_open([70, 50], [3, 3], -1, 1, eraser="loser") == [0, 1]


# --- §7.5 closing ---------------------------------------------------------------------------------
def cv(pk, po, tk, to):
    return r.close_value(pk, po, tk, to)


@pytest.mark.parametrize("snap, end, out, last, erase", [
    ((40, 35, 2, 2), ([60, 60], [5, 1]), -1, 0, [0, 1]),    # C1: K ends with 60 -> O erases 1
    ((20, 35, 1, 2), ([50, 70], [4, 2]), -1, 0, [0, 2]),    # C2
    ((14, 0, 1, 0), ([50, 70], [4, 2]), -1, 0, [0, 3]),     # C3
    ((0, 0, 0, 0), ([50, 70], [4, 2]), -1, 1, [0, 3]),      # C4: FH closes before trick 1, fails
    ((40, 35, 2, 2), ([70, 45], [4, 2]), 0, 0, [1, 0]),     # C5
    ((30, 0, 1, 0), ([61, 45], [4, 2]), 0, 0, [0, 3]),      # C6
    ((40, 35, 2, 2), ([61, 45], [4, 2]), 0, 0, [0, 2]),     # C7
    ((40, 20, 2, 1), ([70, 50], [4, 2]), -1, 1, [0, 2]),    # C8
    ((40, 35, 2, 2), ([50, 70], [3, 3]), 1, 1, [0, 1]),     # C9: O goes out -> close_value
], ids=["C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8", "C9"])
def test_c_closing_section_7_5(snap, end, out, last, erase):
    points, tricks = end
    assert r.resolve_closed(points, tricks, 0, out, last, cv(*snap), -1) == erase


def test_closing_variants_section_3_5():
    """DUEL_CLOSER_LOSS_MIN2 and CLOSER_WIN_STATUS_AT_CLOSE (A6); a wrong out by O costs K 2 (A7)."""
    c1 = cv(40, 35, 2, 2)
    assert r.resolve_closed([60, 60], [5, 1], 0, -1, 0, c1, -1, loss_min2=True) == [0, 2]
    assert r.resolve_closed([70, 20], [5, 1], 0, 0, 0, c1, 1) == [1, 0]
    assert r.resolve_closed([70, 20], [5, 1], 0, 0, 0, c1, -1) == [2, 0]
    assert r.resolve_closed([50, 60], [3, 3], 0, 1, 1, c1, -1) == [2, 0]


# --- §7.9 Kamerun, §7.10 phase mechanics ----------------------------------------------------------
def test_k1_k2_kamerun_ranking_section_7_9():
    assert r.kamerun_normal([50, 30, 30, 10], [3, 1, 1, 1], 0) == [3, 2, 2, 0]
    assert r.kamerun_normal([70, 50, 0, 0], [4, 2, 0, 0], 0) == [3, 2, 0, 0]


def test_k9_and_a11_kamerun_section_7_9():
    assert r.kamerun_normal([45, 30, 45], [3, 2, 3], 2) == [1, 0, 2]
    # A11: two players tied on 0 points, each with a (0-point) trick, take the higher value 1;
    # option kamerun_scores_by=points erases 0 for them
    assert r.kamerun_normal([70, 50, 0, 0], [3, 1, 1, 1], 0) == [3, 2, 1, 1]
    assert r.kamerun_normal([70, 50, 0, 0], [3, 1, 1, 1], 0, by="points") == [3, 2, 0, 0]


def test_an_undeclared_sweep_erases_3_with_3_players_too():
    """§3.4.3 (and the seed): a player who takes every trick without declaring Durchmarsch erases 3, the others
    0; with 4 players that is the table's top, with 3 players it is above the table's 2."""
    assert r.kamerun_normal([120, 0, 0, 0], [6, 0, 0, 0], 0) == [3, 0, 0, 0]
    assert r.kamerun_normal([0, 120, 0], [0, 8, 0], 1) == [0, 3, 0]
    assert r.kamerun_normal([0, 120, 0], [0, 8, 0], 1, by="points") == [0, 3, 0]


@pytest.mark.parametrize("erase, after, losers", [
    ([2, 0, 3, 1], [1, 2, 0, 4], [2]),       # K3
    ([2, 2, 0, 3], [0, 0, 3, 1], [0, 1]),    # K4
    ([3, 3, 3, 0], [0, 0, 0, 4], [0, 1, 2]),  # K5
], ids=["K3", "K4", "K5"])
def test_k3_k5_kamerun_erasing_section_7_9(erase, after, losers):
    assert r.apply_kamerun([1, 2, 3, 4], erase) == (after, losers)


def test_p1_p2_clamping_and_elimination_section_7_10():
    assert r.apply_elimination([2], [3]) == [0]
    assert r.apply_elimination([1, 1, 1, 5], [3, 2, 1, 0]) == [0, 0, 0, 5]


def test_p4_p5_penalties_section_7_10():
    assert r.penalty_erase(4, 1, kamerun=False) == [3, 0, 3, 3]
    assert r.penalty_erase(4, 2, kamerun=True) == [0, 0, 3, 0]


def test_dealer_rotation_section_2_3():
    """P3: A (seat 0) deals, B (seat 1) drops out: B deals the next hand, C is FH; then C deals."""
    assert r.next_dealer(0, [1, 2, 3, 0], 4) == 1
    assert r.forehand(1, [2, 3, 0], 4) == 2
    assert r.seat_order(1, [2, 3, 0], 4) == [2, 3, 0]
    assert r.next_dealer(1, [2, 3, 0], 4) == 2


def test_deal_shapes_section_2_4():
    perm = list(range(24))
    hands, talon = r.deal_hands(perm, 3)
    assert [r.bit_count(h) for h in hands] == [8, 8, 8] and talon == []
    assert r.cards_of(hands[0]) == [0, 1, 2, 9, 10, 15, 16, 17]
    hands, talon = r.deal_duel66(perm)
    assert r.cards_of(hands[0]) == [0, 1, 2, 7, 8, 9] and talon == list(range(13, 24)) + [6]
    assert r.deal_duel66(perm, "13th_card")[1][-1] == 12 and r.deal_duel66(perm, "bottom")[1][-1] == 23


# --- properties against the plain references ------------------------------------------------------
@st.composite
def trick_positions(draw):
    order = draw(st.permutations(range(24)))
    count = draw(st.integers(0, 3))
    size = draw(st.integers(1, 8))
    trump = draw(st.sampled_from([None, 0, 1, 2, 3]))
    return order[:count], set(order[count:count + size]), trump


@given(trick_positions(), st.sampled_from(["strict", "free", "follow"]), st.booleans(), st.booleans())
def test_legal_mask_matches_naive(pos, mode, no_under, head):
    trick, hand, trump = pos
    flags = (r.NO_UNDERTRUMP if no_under else 0) | (r.HEAD_TRUMPED_LEAD if head else 0)
    code = {"strict": r.STRICT, "free": r.FREE, "follow": r.FOLLOW}[mode]
    got = r.legal_cards(r.DECK.mask(hand), list(trick), -1 if trump is None else trump, code, flags)
    assert set(r.cards_of(got)) == naive.legal_follow(hand, list(trick), trump, mode, no_under, head)


@given(st.permutations(range(24)), st.integers(2, 4), st.sampled_from([None, 0, 1, 2, 3]))
def test_winning_slot_matches_naive(order, n, trump):
    trick = list(order[:n])
    assert r.winning_slot(trick, -1 if trump is None else trump) == naive.winner_slot(trick, trump)


@given(st.lists(st.integers(0, 12), min_size=3, max_size=4), st.data())
def test_ranking_tables_match_naive(raw, data):
    n = len(raw)
    points = [5 * p for p in raw]
    tricks = [data.draw(st.integers(0, 2)) for _ in range(n)]
    last = data.draw(st.integers(0, n - 1))
    table = r.STROKE_TABLE[n]
    pts = dict(enumerate(points))
    assert r.individual_66(points, last) == [naive.individual_66(pts, last, table)[i] for i in range(n)]
    expect = naive.kamerun_normal(pts, dict(enumerate(tricks)), last, table)
    assert r.kamerun_normal(points, tricks, last) == [expect[i] for i in range(n)]


@given(st.lists(st.integers(1, 7), min_size=3, max_size=4), st.data())
def test_apply_kamerun_matches_naive(strokes, data):
    erase = [data.draw(st.integers(0, 3)) for _ in strokes]
    after, losers = r.apply_kamerun(strokes, erase)
    ref = dict(enumerate(strokes))
    assert losers == naive.apply_kamerun(ref, dict(enumerate(erase)))


# --- §6.3 exact facts by enumeration ---------------------------------------------------------------
def test_deal_counts_section_6_3():
    assert ex.deal_counts() == {
        "6-card hands": 134_596, "8-card hands": 735_471, "Rufen first packets": 2_024,
        "4-player deals": 2_308_743_493_056, "3-player deals": 9_465_511_770,
        "2-player deals, talon unordered": 2_498_640_144,
        "2-player deals, talon ordered": 1_196_852_626_800_230_400}


def test_marriages_in_one_hand_section_6_3():
    assert ex.marriage_distribution(3) == {0: F(22, 23), 1: F(1, 23)}
    assert ex.marriage_distribution(6) == {0: F(26618, 33649), 1: F(964, 4807), 2: F(282, 33649), 3: F(1, 33649)}
    d8 = ex.marriage_distribution(8)
    assert d8 == {0: F(465478, 735471), 1: F(10528, 31977), 2: F(9080, 245157), 3: F(32, 38709), 4: F(1, 735471)}
    assert 1 - d8[0] == F(269993, 735471)
    assert (ex.suit_marriage(6), ex.suit_marriage(8), ex.suit_marriage(3)) == (F(5, 92), F(7, 69), F(1, 92))


def test_trump_marriage_and_trump_counts_section_6_3():
    assert ex.trump_marriage(6, dealer=True) == F(25, 253) and ex.trump_marriage(6, dealer=False) == F(10, 253)
    assert ex.trump_marriage(8, dealer=True) == F(119, 759) and ex.trump_marriage(8, dealer=False) == F(56, 759)
    assert ex.trump_count_distribution(6, dealer=True) == {1: F(1224, 4807), 2: F(15300, 33649), 3: F(8160, 33649),
                                                           4: F(1530, 33649), 5: F(90, 33649), 6: F(1, 33649)}
    nd = ex.trump_count_distribution(6, dealer=False)
    assert nd == {0: F(884, 4807), 1: F(2040, 4807), 2: F(10200, 33649), 3: F(2720, 33649), 4: F(255, 33649),
                  5: F(6, 33649)}
    assert sum(t * p for t, p in nd.items()) == F(30, 23)
    d3 = ex.trump_count_distribution(8, dealer=True)
    assert (d3[1], d3[2], d3[3], d3[4], d3[5]) == (F(624, 4807), F(1820, 4807), F(1680, 4807), F(600, 4807),
                                                  F(80, 4807))


def test_table_marriages_section_6_3():
    four = ex.table_marriage_distribution((6, 6, 6, 6))
    assert 1 - four[0] == F(355853, 572033) and sum(k * p for k, p in four.items()) == F(20, 23)
    assert [round(float(four[k]), 6) for k in range(5)] == [0.377915, 0.412675, 0.173759, 0.033229, 0.002421]
    three = ex.table_marriage_distribution((8, 8, 8))
    assert 1 - three[0] == F(935257, 1225785) and sum(k * p for k, p in three.items()) == F(28, 23)
    duel = ex.table_marriage_distribution((6, 6, 12), counted=2)
    assert duel[0] == F(97007, 156009) and round(float(duel[1]), 6) == 0.324280


def test_profile_enumeration_is_complete():
    """The profile weights count every hand once (checked directly for 3-card hands)."""
    from itertools import combinations
    from math import comb

    for n in (3, 6, 8):
        assert sum(w for _, w in ex.profiles(n)) == comb(24, n)
    direct = sum(1 for h in combinations(range(24), 3) if r.marriage_suits(r.DECK.mask(h)))
    assert F(direct, 2024) == ex.marriage_distribution(3)[1]


@given(st.integers(0, (1 << 24) - 1))
@settings(max_examples=300, deadline=None)
def test_mask_lookups_match_plain_loops(mask):
    """`cards_of` / `points_of` / `bit_count` (byte lookups) against plain loops over the 24 cards."""
    cards = [c for c in range(24) if (mask >> c) & 1]
    assert r.cards_of(mask) == cards and r.bit_count(mask) == len(cards)
    assert r.points_of(mask) == sum(naive.POINTS[naive.rank(c)] for c in cards)


@given(st.permutations(range(24)), st.integers(1, 3), st.sampled_from([-1, 0, 1, 2, 3]))
@settings(max_examples=300, deadline=None)
def test_winning_cards_match_the_plain_trick_winner(perm, played, trump):
    """`winning_cards`: exactly the cards that would hold the trick (plain §3.0.1 reference)."""
    trick, cards = list(perm[:played]), list(perm[played:played + 8])
    ref = [c for c in cards if naive.winner_slot(trick + [c], None if trump < 0 else trump) == len(trick)]
    assert r.winning_cards(cards, trick, trump) == ref
    assert r.winning_slot(trick, trump) == naive.winner_slot(trick, None if trump < 0 else trump)
