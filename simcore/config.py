"""Numba options for every kernel, in one place.

``NJIT`` compiles (numba's njit is always nopython) with the on-disk cache, so worker processes and later runs load
compiled kernels instead of compiling again. Set ``NUMBA_DISABLE_JIT=1`` to run the kernels' Python
source (slow, but measurable by coverage and debuggable).
"""

import types

import numba
import numpy as np
from numba.core import event

NJIT = dict(nogil=True, cache=True)


def _typed_without_literals(dispatcher):
    """``dispatcher``, changed so that a call from another kernel compiles it for the arguments' plain types: numba
    compiles a callee once per *literal* type at its call sites (``f(x, 0)`` and ``f(x, n)`` are two compiles of
    ``f`` and of everything it calls), which made the Bauernstoss solver's search compile six times (its first
    compilation took 156 s of CPU, now 62 s). Python callers already give plain types."""
    if not hasattr(dispatcher, "get_call_template"):  # NUMBA_DISABLE_JIT: the plain function
        return dispatcher
    typed = dispatcher.get_call_template

    def get_call_template(args, kws):
        return typed(tuple(numba.types.unliteral(a) for a in args),
                     {k: numba.types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


def kernel_array(values, shape, dtype) -> np.ndarray:
    """``values`` broadcast to ``shape`` as a new writable array of ``dtype``, as Python callers hand arrays to the
    kernels: a read-only or broadcast view would be another argument type, so another compiled version."""
    return np.array(np.broadcast_to(np.asarray(values, dtype=dtype), shape))


def njit(func):
    """Compile ``func`` with the project's numba options, once per plain argument types."""
    return _typed_without_literals(numba.njit(**NJIT)(func))


def njit_inline(func):
    """`njit` plus numba-level inlining, for small hot helpers called from search loops, where a
    call passing arrays costs about as much as the helper itself."""
    return _typed_without_literals(numba.njit(inline="always", **NJIT)(func))


_SPECIALISED: set[tuple[str, int, str]] = set()
"""(file, line, name) of every `specialise` copy made in this process."""


def specialise(func, name, **helpers):
    """`njit` of a copy of the plain function ``func`` named ``name``, with the globals ``helpers`` (constants,
    kernels) added to or replacing its module's: one source for kernels that differ only in such names, e.g. a
    loop kernel per depth calling the one below (numba's on-disk cache holds no recursive kernel). The copy
    shares ``func``'s code, not a closure, so numba caches it by ``name`` (its qualified name) and ``func``'s
    file and line, not by the helpers: a name is refused (ValueError) when used twice for one source, and
    helpers should live in ``func``'s file (numba's cache notices changes to that file only). The globals are
    copied here: specialise after every name ``func`` uses is defined. A branch on a constant helper (``if
    _CARDS == 3:``) is dropped before typing, so a branch may name a helper that another copy lacks."""
    source = (func.__code__.co_filename, func.__code__.co_firstlineno, name)
    if source in _SPECIALISED:
        raise ValueError(f"specialise: {name!r} is already a kernel of {func.__qualname__}; numba's cache would "
                         "give both the same code")
    _SPECIALISED.add(source)
    copy = types.FunctionType(func.__code__, {**func.__globals__, **helpers}, name, func.__defaults__)
    copy.__qualname__, copy.__doc__, copy.__module__ = name, func.__doc__, func.__module__
    copy.__kwdefaults__ = func.__kwdefaults__
    return njit(copy)


COMPILING_NOTE = ("cardsim: compiling the numba kernels this command needs (once after an install or an update, up to "
                  "a minute or two for the solvers; later runs load them from numba's cache)")


class _FirstCompile(event.Listener):
    """Calls ``write(COMPILING_NOTE)`` at the first compilation it hears of, then nothing."""

    def __init__(self, write):
        self.write = write
        self.heard = False

    def on_start(self, _event):
        if not self.heard:
            self.heard = True
            self.write(COMPILING_NOTE)

    def on_end(self, _event):
        pass


def announce_compilation(write) -> event.Listener:
    """Have ``write(text)`` called once, when this process first compiles a kernel: a miss in numba's on-disk cache,
    as on the first run after an install or an update, which makes a command slow to start (numba announces only
    compilations, not loads from the cache). Returns the listener (``numba.core.event.unregister`` removes it)."""
    listener = _FirstCompile(write)
    event.register("numba:compile", listener)
    return listener
