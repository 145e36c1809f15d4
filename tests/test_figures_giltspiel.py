"""Gleich and Hanger kernels: the worked examples T01-T12 of spec §11.1, names, and properties against
the slow references in tests/naive.py."""

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.figures import (
    RELATIVE_OUTCOMES,
    STAND,
    TEAM0,
    TEAM1,
    VOID,
    hand_codes,
    relative_outcome,
    resolve,
    run_code,
    run_table,
    set_code,
    set_code_four_suits,
    top_bit_table,
)
from simcore.games.giltspiel import (
    DECK,
    HANGER_BINS,
    RUN_TABLE,
    gleich_name,
    hand_figures,
    hanger_name,
    possible_hanger_codes,
)

import naive

OUTCOME_OF = {TEAM0: 0, TEAM1: 1, STAND: "stand", VOID: "void"}


def cards(text):
    return DECK.parse_cards(text)


def codes(text):
    """(gleich, hanger) of a hand written as tokens, checked against the naive reference too."""
    hand = cards(text)
    g, h = hand_figures(hand)
    assert (g, h) == (naive.best_gleich(hand), naive.best_hanger(hand))
    return g, h


def table_outcome(seat_codes):
    """Kernel resolution of four seats' codes, as 0/1/'stand'/'void', cross-checked with naive."""
    result = OUTCOME_OF[int(resolve(*seat_codes))]
    assert result == naive.team_result(seat_codes)
    return result


def two_hand_outcome(hand_a, hand_b, figure):
    """'A', 'B', 'stand' or 'void' when hands A and B sit on opposing teams and the other two seats
    hold nothing (the examples say nothing better is at the table). Checked for every seating."""
    index = 0 if figure == "G" else 1
    a, b = codes(hand_a)[index], codes(hand_b)[index]
    results = set()
    for seat_a in range(4):
        for seat_b in ((seat_a + 1) % 4, (seat_a + 3) % 4):
            seat_codes = [-1, -1, -1, -1]
            seat_codes[seat_a], seat_codes[seat_b] = a, b
            r = table_outcome(seat_codes)
            if isinstance(r, int):
                r = "A" if r == seat_a % 2 else "B"
            results.add(r)
    assert len(results) == 1
    return results.pop()


# --- §11.1 worked examples ----------------------------------------------------------------------
def test_T01_deck():
    assert DECK.n_cards == 32 and len(set(DECK.face_tokens)) == 32
    assert (DECK.parse_face("HA"), DECK.parse_face("E7"), DECK.parse_face("S10")) == (23, 0, 27)


def test_T02_pair_of_aces_beats_pair_of_kings():
    assert codes("EA LA H9 S8 E7")[0] == 7
    assert codes("EK LK H10 S7 L9")[0] == 6
    assert two_hand_outcome("EA LA H9 S8 E7", "EK LK H10 S7 L9", "G") == "A"


def test_T03_three_sevens_beat_two_aces():
    assert codes("E7 L7 H7 SK E9")[0] == 8
    assert codes("EA LA H9 S8 HK")[0] == 7
    assert two_hand_outcome("E7 L7 H7 SK E9", "EA LA H9 S8 HK", "G") == "A"


def test_T04_equal_pairs_of_tens_stand():
    assert codes("E10 L10 HK S9 LO")[0] == codes("H10 S10 EO L8 E7")[0] == 3
    assert two_hand_outcome("E10 L10 HK S9 LO", "H10 S10 EO L8 E7", "G") == "stand"


def test_T05_equal_pairs_of_kings_stand():
    assert codes("EK LK H9 S7 LU")[0] == codes("HK SK E8 L10 H7")[0] == 6
    assert two_hand_outcome("EK LK H9 S7 LU", "HK SK E8 L10 H7", "G") == "stand"


def test_T06_ace_king_beats_king_ober():
    assert codes("LA LK E9 S7 HU")[1] == 7
    assert codes("HK HO E8 S9 L7")[1] == 6
    assert two_hand_outcome("LA LK E9 S7 HU", "HK HO E8 S9 L7", "H") == "A"


def test_T07_longer_run_beats_higher_run():
    assert codes("E9 E8 E7 LA S10")[1] == 10
    assert codes("HA HK L9 S7 EU")[1] == 7
    assert two_hand_outcome("E9 E8 E7 LA S10", "HA HK L9 S7 EU", "H") == "A"


def test_T08_equal_three_runs_stand():
    assert codes("HK HO HU E10 SA")[1] == codes("SK SO SU L8 E7")[1] == 14
    assert two_hand_outcome("HK HO HU E10 SA", "SK SO SU L8 E7", "H") == "stand"


def test_T09_trump_is_irrelevant_for_hanger_ties():
    # figure codes take no trump argument at all; the tie stands whatever the trump
    assert codes("H10 H9 H8 L7 SA")[1] == codes("E10 E9 E8 LK SU")[1] == 11
    assert two_hand_outcome("H10 H9 H8 L7 SA", "E10 E9 E8 LK SU", "H") == "stand"


def test_T10_one_card_in_both_figures():
    assert codes("S9 E9 L9 L10 HA") == (10, 3)


@pytest.mark.parametrize("others", ["L9 H10 SU", "H8 S9 LO", "LK HU S10"])
def test_T11_no_wrap_from_ace_to_seven(others):
    g, h = codes(f"EA E7 {others}")
    assert h == -1


def test_T12_pair_free_table_is_void():
    # hand s holds rank r in suit (r - s) % 4: 20 different cards, no hand with two equal ranks
    hands = [[8 * ((r - s) % 4) + r for r in range(5)] for s in range(4)]
    assert len({c for hand in hands for c in hand}) == 20
    masks = np.array([[DECK.mask(hand) for hand in hands]], dtype=np.uint64)
    out = hand_codes(masks, 4, 8, RUN_TABLE)
    g = [int(x) for x in out[0, :, 0]]
    assert g == [-1, -1, -1, -1]
    assert table_outcome(g) == "void"


# --- resolution rules of §4.3 / §9.2 -------------------------------------------------------------
def test_partners_with_equal_best_win_for_their_team():
    # equal best Gleich held by both partners wins, it does not stand
    assert table_outcome([7, 3, 7, -1]) == 0
    assert table_outcome([-1, 6, 2, 6]) == 1


def test_tie_between_teams_stands_even_if_partner_holds_more():
    # the best at the table decides; weaker cards elsewhere do not break a tie
    assert table_outcome([5, 5, 4, 4]) == "stand"
    assert table_outcome([5, 5, -1, -1]) == "stand"


def test_only_one_seat_with_a_figure_wins():
    for seat in range(4):
        seat_codes = [-1] * 4
        seat_codes[seat] = 0  # weakest possible example
        assert table_outcome(seat_codes) == seat % 2


@pytest.mark.parametrize("team", [0, 1])
def test_relative_outcome(team):
    assert RELATIVE_OUTCOMES[relative_outcome(TEAM0 if team == 0 else TEAM1, team)] == "win"
    assert RELATIVE_OUTCOMES[relative_outcome(TEAM1 if team == 0 else TEAM0, team)] == "lose"
    assert RELATIVE_OUTCOMES[relative_outcome(STAND, team)] == "stand"
    assert RELATIVE_OUTCOMES[relative_outcome(VOID, team)] == "void"


# --- names ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("code, name", [
    (-1, "none"), (0, "pair of 7s"), (3, "pair of 10s"), (4, "pair of Unters"), (6, "pair of Kings"),
    (7, "pair of Aces"), (8, "three 7s"), (10, "three 9s"), (15, "three Aces"), (16, "four 7s"),
    (22, "four Kings"), (23, "four Aces"),
])
def test_gleich_name(code, name):
    assert gleich_name(code) == name


@pytest.mark.parametrize("code, name", [
    (-1, "none"), (1, "8-7"), (3, "10-9"), (4, "U-10"), (7, "A-K"), (10, "9-8-7"), (13, "O-U-10"),
    (15, "A-K-O"), (19, "10-9-8-7"), (23, "A-K-O-U"), (28, "U-10-9-8-7"), (31, "A-K-O-U-10"),
])
def test_hanger_name(code, name):
    # spec §5.2 table
    assert hanger_name(code) == name


def test_possible_hanger_codes_are_the_22_classes_of_spec():
    expected = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 19, 20, 21, 22, 23, 28, 29, 30, 31]
    assert possible_hanger_codes() == expected
    assert HANGER_BINS == 33
    # every possible class is reached by some real hand: the run itself plus filler from other suits
    for code in expected:
        length, top = code // 8 + 2, code % 8
        run = [8 * 2 + r for r in range(top - length + 1, top + 1)]  # Herz
        filler = [0, 25, 10][: 5 - length]  # E7, S8, L9: no run, no pair with each other
        assert naive.best_hanger(run + filler) == code
        assert hand_figures(run + filler)[1] == code
        # and the name lists exactly `length` ranks from the top down
        assert hanger_name(code).split("-")[0] == DECK.ranks[top]
        assert len(hanger_name(code).split("-")) == length


# --- properties against the naive references ----------------------------------------------------
five_cards = st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True)
any_cards = st.lists(st.integers(0, 31), min_size=0, max_size=32, unique=True)
seat_code = st.integers(-1, 31)


@given(five_cards)
def test_hand_figures_match_naive_on_five_card_hands(hand):
    assert hand_figures(hand) == (naive.best_gleich(hand), naive.best_hanger(hand))


@given(any_cards)
def test_set_and_run_code_match_naive_on_any_mask(hand):
    m = np.uint64(naive.mask(hand))
    assert set_code(m, 4, 8) == naive.best_gleich(hand)
    assert run_code(m, 4, 8, RUN_TABLE) == naive.best_hanger(hand)


@given(any_cards)
def test_four_suit_set_code_matches_naive_on_any_mask(hand):
    m = np.uint64(naive.mask(hand))
    assert set_code_four_suits(m, 8, top_bit_table(8)) == naive.best_gleich(hand)


@settings(max_examples=60)
@given(st.integers(3, 16), st.data())
def test_four_suit_set_code_matches_naive_for_other_rank_counts(n_ranks, data):
    hand = data.draw(st.lists(st.integers(0, 4 * n_ranks - 1), max_size=4 * n_ranks, unique=True))
    m = np.uint64(naive.mask(hand))
    assert set_code_four_suits(m, n_ranks, top_bit_table(n_ranks)) == naive.best_gleich(hand, 4, n_ranks)
    assert set_code(m, 4, n_ranks) == naive.best_gleich(hand, 4, n_ranks)


@numba.njit
def _four_suit_codes(masks, n_ranks, table):
    out = np.empty(masks.shape[0], dtype=np.int64)
    for i in range(masks.shape[0]):
        out[i] = set_code_four_suits(masks[i], n_ranks, table)
    return out


@pytest.mark.parametrize("first_suit", [1])
def test_four_suit_set_code_on_every_rank_count_pattern(first_suit):
    # every way to hold 0-4 cards of each of 8 ranks (5**8 patterns); suits taken in rotation from
    # `first_suit`. Expected code straight from the counts: max of 8*(count-2)+rank over counts >= 2.
    counts = (np.arange(5 ** 8)[:, None] // 5 ** np.arange(8)) % 5  # (390625, 8)
    masks = np.zeros(len(counts), dtype=np.uint64)
    for rank in range(8):
        for k in range(4):
            suit = (first_suit + k) % 4
            masks |= np.where(counts[:, rank] > k, np.uint64(1) << np.uint64(8 * suit + rank), np.uint64(0))
    candidates = np.where(counts >= 2, 8 * (counts - 2) + np.arange(8), -1)
    expected = candidates.max(axis=1)
    got = _four_suit_codes(masks, 8, top_bit_table(8))
    assert (got == expected).all()
    # spot-check the vectorised expectation with the naive reference
    for i in range(0, len(counts), 9973):
        assert expected[i] == naive.best_gleich(naive.cards_of(int(masks[i])))


def test_top_bit_table():
    table = top_bit_table(8)
    assert table[0] == -1
    assert all(table[v] == max(i for i in range(8) if v >> i & 1) for v in range(1, 256))


@settings(max_examples=60)
@given(st.lists(st.integers(0, 35), min_size=0, max_size=36, unique=True))
def test_kernels_match_naive_on_a_36_card_grid(hand):
    # the kernels claim any grid deck without duplicates: try 4 suits x 9 ranks
    m = np.uint64(naive.mask(hand))
    assert set_code(m, 4, 9) == naive.best_gleich(hand, 4, 9)
    assert run_code(m, 4, 9, run_table(9)) == naive.best_hanger(hand, 4, 9)


def test_run_table_matches_naive_for_every_suit_mask():
    for n_ranks in (6, 8, 9):
        table = run_table(n_ranks)
        for m in range(1 << n_ranks):
            held = [r for r in range(n_ranks) if m >> r & 1]
            assert table[m] == naive.best_hanger(held, 1, n_ranks), (n_ranks, m)


@given(st.tuples(seat_code, seat_code, seat_code, seat_code))
def test_resolve_matches_literal_rule(seat_codes):
    assert OUTCOME_OF[int(resolve(*seat_codes))] == naive.team_result(seat_codes)


@given(st.lists(st.lists(st.integers(0, 31), min_size=20, max_size=20, unique=True), min_size=1, max_size=8))
def test_hand_codes_on_batches_of_tables(tables):
    hands = np.array([[naive.mask(t[5 * s:5 * s + 5]) for s in range(4)] for t in tables], dtype=np.uint64)
    out = hand_codes(hands, 4, 8, RUN_TABLE)
    assert out.shape == (len(tables), 4, 2) and out.dtype == np.int16
    for i, t in enumerate(tables):
        for s in range(4):
            hand = t[5 * s:5 * s + 5]
            assert out[i, s, 0] == naive.best_gleich(hand)
            assert out[i, s, 1] == naive.best_hanger(hand)
        g = [int(x) for x in out[i, :, 0]]
        h = [int(x) for x in out[i, :, 1]]
        assert OUTCOME_OF[int(resolve(*g))] == naive.team_result(g)
        assert OUTCOME_OF[int(resolve(*h))] == naive.team_result(h)


def test_naive_references_on_hand_checked_cases():
    # the references themselves, on hands whose codes are worked out by hand from §4.2/§5.2
    assert naive.best_gleich(cards("EA LA SA HA E7")) == 23
    assert naive.best_gleich(cards("E7 L7 H8 S8 EA")) == 1  # two pairs: only the higher counts
    assert naive.best_gleich(cards("E7 L7 H7 S8 L8")) == 8  # full house: the triple
    assert naive.best_hanger(cards("HA HK HO HU H10")) == 31
    assert naive.best_hanger(cards("E8 E7 L8 L7 H9")) == 1
    assert naive.best_hanger(cards("SU S10 SA SK E7")) == 7  # two runs: the higher top wins at equal length
    assert naive.team_result([-1, -1, -1, -1]) == "void"
