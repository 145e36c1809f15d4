"""simcore.config: `specialise` (one plain source compiled into several kernels that differ by their globals) and
the note announcing a first compilation."""

import sys

import numba
import pytest
from numba.core import event

from analysis import cli
from simcore import config
from simcore.config import _typed_without_literals, specialise

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


def test_the_solvers_run_as_python_under_disable_jit():
    """NUMBA_DISABLE_JIT=1 runs the kernels' Python source (simcore.config): the solvers' bit-count intrinsics and
    the prefetch have Python stand-ins there, and the values equal the compiled ones."""
    import os
    import subprocess
    import sys

    import numpy as np

    from simcore.games import bauernstoss_solve, pinochle3_solve

    script = ("import numpy as np\n"
              "from simcore.games import bauernstoss_solve, pinochle3_solve\n"
              "b = np.array([[7, 7 << 8, 7 << 16, 7 << 24]], dtype=np.uint64)\n"
              "p = np.array([7, 7 << 12, 7 << 24], dtype=np.uint64)\n"
              "print(int(bauernstoss_solve.solve_points(b, 0, 1, 1)[0]), int(pinochle3_solve.solve(p, 0, 0, 0)[0]))\n")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-W", "ignore", "-c", script], env=env, capture_output=True, text=True,
                         check=True).stdout.split()
    b = np.array([[7, 7 << 8, 7 << 16, 7 << 24]], dtype=np.uint64)
    p = np.array([7, 7 << 12, 7 << 24], dtype=np.uint64)
    assert [int(x) for x in out] == [int(bauernstoss_solve.solve_points(b, 0, 1, 1)[0]),
                                     int(pinochle3_solve.solve(p, 0, 0, 0)[0])]


def test_a_kernel_called_with_constants_compiles_once_for_plain_integers():
    """numba would compile ``add`` three times (for the literal types 0 and 1 and for int64): `njit` asks for
    plain types. (Dispatchers without numba's on-disk cache, so that the test always compiles.)"""
    import numba

    add = _typed_without_literals(numba.njit(lambda x, y: x + y))

    @numba.njit
    def add_with_constants(x):
        return add(x, 0) + add(1, x) + add(x, x)

    assert add_with_constants(5) == 5 + 6 + 10
    assert [[str(t) for t in signature] for signature in add.signatures] == [["int64", "int64"]]


def test_the_first_compilation_is_announced_once_and_a_compiled_call_not_at_all():
    heard = []
    compiled = numba.njit(lambda x: x - 1)
    compiled(1)
    listener = config.announce_compilation(heard.append)
    try:
        compiled(2)
        assert heard == []
        fresh = numba.njit(lambda x: x + 1)  # no on-disk cache: compiles in every process
        fresh(1), fresh(2.5)
        numba.njit(lambda x: 2 * x)(3)
    finally:
        event.unregister("numba:compile", listener)
    assert heard == [config.COMPILING_NOTE]


@pytest.mark.parametrize("terminal", [True, False])
def test_the_command_line_announces_compilation_on_a_terminal_only(monkeypatch, capsys, terminal):
    """`cardsim` on a terminal prints the note on stderr at its first compilation (a first run is slow to start);
    piped or redirected, as in scripts and tests, it prints nothing of the kind."""
    listeners, register = [], config.announce_compilation

    def announce(write):
        listeners.append(register(write))

    monkeypatch.setattr(config, "announce_compilation", announce)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: terminal)
    try:
        assert cli.main(["games"]) == 0
        numba.njit(lambda x: x + 3)(1)
    finally:
        for listener in listeners:
            event.unregister("numba:compile", listener)
    assert (config.COMPILING_NOTE in capsys.readouterr().err) == terminal
