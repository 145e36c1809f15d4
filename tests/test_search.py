"""simcore.search.unowned: a view without numba's reference counts reads and writes the array itself."""

import numpy as np

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
