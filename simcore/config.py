"""Numba options for every kernel, in one place.

``NJIT`` compiles (numba's njit is always nopython) with the on-disk cache, so worker processes and later runs load
compiled kernels instead of compiling again. Set ``NUMBA_DISABLE_JIT=1`` to run the kernels' Python
source (slow, but measurable by coverage and debuggable).
"""

import numba

NJIT = dict(nogil=True, cache=True)


def njit(func):
    """Compile ``func`` with the project's numba options."""
    return numba.njit(**NJIT)(func)


def njit_inline(func):
    """`njit` plus numba-level inlining, for small hot helpers called from search loops, where a
    call passing arrays costs about as much as the helper itself."""
    return numba.njit(inline="always", **NJIT)(func)
