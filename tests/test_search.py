"""simcore.search: a view without numba's reference counts reads and writes the array itself; the bit gathers
(pext, pdep) agree with their bit-by-bit definitions."""

import numpy as np
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
