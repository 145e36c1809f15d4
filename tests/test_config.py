"""simcore.config.specialise: one plain source compiled into several kernels that differ by their globals."""

import pytest

from simcore.config import specialise

_SCALE = 0
"""Placeholder of the global each kernel below gets."""


def _scaled(x):
    return _SCALE * x


_twice = specialise(_scaled, "_twice", _SCALE=2)
_thrice = specialise(_scaled, "_thrice", _SCALE=3)


def test_each_copy_sees_its_own_globals():
    assert (_twice(5), _thrice(5)) == (10, 15)


def test_a_name_used_twice_for_one_source_is_refused():
    """numba's on-disk cache keys a copy by its name and its source's place, not by its globals: a second copy
    of the same name would load the first one's code."""
    with pytest.raises(ValueError, match="'_twice' is already a kernel of _scaled"):
        specialise(_scaled, "_twice", _SCALE=7)
