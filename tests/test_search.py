"""simcore.search: a view without numba's reference counts reads and writes the array itself; the bit gathers
(pext, pdep) agree with their bit-by-bit definitions; a scratch transposition table handed to a solver is refused
unless it is laid out as the solver's own (a kernel indexes it unchecked)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcore import search
from simcore.config import njit
from simcore.search import unowned


@njit
def _fill_through_a_view(table, value):
    view = unowned(table)
    for i in range(view.shape[0]):
        view[i, 1] = value + i
    return view.shape, view[view.shape[0] - 1, 1]


def test_an_unowned_view_is_the_array_itself():
    table = np.zeros((5, 3), dtype=np.uint64)
    shape, last = _fill_through_a_view(table, np.uint64(40))
    assert shape == (5, 3) and last == 44
    assert table[:, 1].tolist() == [40, 41, 42, 43, 44] and not table[:, [0, 2]].any()


@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1))
def test_bit_gathers_follow_their_definitions(value, mask):
    """`extract_bits` and `deposit_bits` undo each other on the mask's bits; where the CPU has fast pext and pdep
    (`FAST_BIT_GATHER`) the compiled intrinsics give the same words, elsewhere the kernels never compile them."""
    packed = search.extract_bits(value, mask)
    assert packed < 2 ** bin(mask).count("1")
    assert search.deposit_bits(packed, mask) == value & mask
    assert search.extract_bits(search.deposit_bits(value, mask), mask) == value & ((1 << bin(mask).count("1")) - 1)
    if search.FAST_BIT_GATHER:
        got = _gathers(np.uint64(value), np.uint64(mask))
        assert (int(got[0]), int(got[1])) == (packed, search.deposit_bits(value, mask))


@njit
def _gathers(value, mask):
    return search.bit_extract(value, mask), search.bit_deposit(value, mask)


def _one_deal():
    """(1, 4) uint64: a Bauernstoss deal of 8 cards a seat (cards 0-31 dealt in order to seats 0-3)."""
    return np.array([[sum(1 << c for c in range(8 * seat, 8 * seat + 8)) for seat in range(4)]], dtype=np.uint64)


def _solvers():
    """(solve with a table, the table maker, rows of its bucket) of the public solvers that take a tuple table."""
    from simcore.games import bauernstoss_solve as bs, giltspiel_play as gp, perlaggen_play as pp
    five = np.array([[sum(1 << c for c in range(5 * seat, 5 * seat + 5)) for seat in range(4)]], dtype=np.uint64)
    return [(lambda t: bs.solve_points(_one_deal(), 0, 0, 0, table=t), bs.new_table, 4),
            (lambda t: bs.reaches_points(_one_deal(), 0, 0, 0, [42], table=t), bs.new_table, 4),
            (lambda t: bs.position_points(_one_deal()[0], 0, 0, 0, table=t), bs.new_table, 4),
            (lambda t: bs.solo_wins(_one_deal(), 0, 0, 0, table=t), bs.new_solo_table, 1),
            (lambda t: bs.solo_position_wins(_one_deal()[0], 0, 0, 0, table=t), bs.new_solo_table, 1),
            (lambda t: gp.spiel_teams(five, [0], table=t), gp.new_table, 1),
            (lambda t: gp.position_wins(five[0], 0, 0, 0, table=t), gp.new_table, 1),
            (lambda t: pp.spiel_teams(five, [0], table=t), pp.new_table, 2),
            (lambda t: pp.position_wins(five[0], 0, 0, 0, table=t), pp.new_table, 2)]


@pytest.mark.parametrize("case", range(9))
def test_solvers_refuse_a_table_not_laid_out_as_their_own(case):
    """Rows not a power of two (a bucket would run past the end), a missing array, another dtype or a text: one
    line naming the maker; the solver's own table, of any size from one bucket, gives the answer of a fresh one."""
    from simcore.errors import CardsimError
    solve, new_table, bucket = _solvers()[case]
    good = new_table(10)
    rows_of_six = tuple(np.zeros((6,) + a.shape[1:], a.dtype) if a.shape[0] == 1024 else a for a in good)
    refusal = rf"^table must be a transposition table made by \S+\.{new_table.__name__}\(\)"
    for bad in (rows_of_six, good[:1], (good[0].astype(np.float64),) + good[1:], "table", [*good]):
        with pytest.raises(CardsimError, match=refusal):
            solve(bad)
    least = bucket.bit_length() - 1
    assert np.array_equal(solve(new_table(least)), solve(None)) and np.array_equal(solve(good), solve(None))
    with pytest.raises(CardsimError, match=rf"^table bits \(the table holds 2\*\*bits entries\) must be from {least} "):
        new_table(least - 1 if least else 31)


@pytest.mark.parametrize("bits", [-1, 31, 2.5, "10", None])
def test_table_sizes_outside_their_range_are_refused(bits):
    from simcore.errors import CardsimError
    from simcore.games import pinochle3_solve
    with pytest.raises(CardsimError, match=r"^table bits \(the table holds 2\*\*bits entries\) must be"):
        search.table_rows(bits)
    with pytest.raises(CardsimError, match=r"^table bits"):
        pinochle3_solve.Table(bits)


def test_pinochle_solvers_refuse_a_table_that_is_not_a_table():
    from simcore.errors import CardsimError
    from simcore.games import pinochle3_solve as ps
    hands = np.array([0b11, 0b1100, 0b110000], dtype=np.uint64)
    for bad in ("table", (np.zeros((4, 4), np.uint64),)):
        with pytest.raises(CardsimError, match=r"^table must be a pinochle3_solve.Table \(or None"):
            ps.solve(hands, 0, 0, 0, table=bad)
        with pytest.raises(CardsimError, match=r"^table must be a pinochle3_solve.Table"):
            ps.reaches(hands, 0, 0, 0, [0], table=bad)
    assert ps.solve(hands, 0, 0, 0, table=ps.Table(4)) == ps.solve(hands, 0, 0, 0)


def test_pinochle_solve_refuses_a_with_nodes_that_is_no_flag():
    from simcore.errors import CardsimError
    from simcore.games import pinochle3_solve as ps
    with pytest.raises(CardsimError, match="with_nodes"):
        ps.solve(np.array([0b11, 0b1100, 0b110000], dtype=np.uint64), 0, 0, 0, with_nodes="yes")


def test_perlaggen_pimc_refuses_moves_not_made_by_new_moves():
    from simcore.errors import CardsimError
    from simcore.games import perlaggen_pimc, perlaggen_play
    five = [sum(1 << c for c in range(5 * seat, 5 * seat + 5)) for seat in range(4)]
    with pytest.raises(CardsimError, match=r"^moves must be a scratch buffer made by perlaggen_play.new_moves\(\)"):
        perlaggen_pimc.play_deal(five, 0, 2, moves=np.zeros((3, 4), dtype=np.int64))
    with pytest.raises(CardsimError, match=r"^table must be a transposition table made by"):
        perlaggen_pimc.play_deal(five, 0, 2, table=perlaggen_play.new_table(10)[:1])
    fresh = perlaggen_pimc.play_deal(five, 0, 2)
    assert perlaggen_pimc.play_deal(five, 0, 2, moves=perlaggen_play.new_moves()) == fresh
