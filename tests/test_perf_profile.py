"""benchmarks/perf_profile.py without perf: its name reading, its ELF reading and its one-line refusal."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from numba import njit

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "perf_profile.py"
spec = importlib.util.spec_from_file_location("perf_profile", SCRIPT)
perf_profile = sys.modules["perf_profile"] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(perf_profile)


def test_readable_names_a_numba_function_by_module_and_name():
    mangled = "_ZN7simcore5games17bauernstoss_solve12_four_tricksB2v1B38c8tJTIeFIjxB2IKSgI4CrvQClQZ6FczSBAA_3dEx"
    assert perf_profile.readable(mangled) == "simcore.games.bauernstoss_solve._four_tricks"
    assert perf_profile.readable("NRT_incref") == "NRT_incref"


@njit(cache=False)
def _twice(x):
    return 2 * x


def test_the_compiled_functions_of_a_library_are_found_in_its_object_code():
    _twice(3)
    library = next(iter(_twice.overloads.values())).library
    symbols = perf_profile.elf_functions(perf_profile.object_code(library))
    names = [perf_profile.readable(name) for name, _, _, size, _ in symbols if size > 0]
    assert any(name.endswith("test_perf_profile._twice") for name in names)


def test_without_perf_it_exits_2_with_one_line():
    env = dict(os.environ, PATH="/nonexistent")
    result = subprocess.run([sys.executable, str(SCRIPT), "bauernstoss", "--n", "1"], capture_output=True,
                            text=True, env=env)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "perf not found" in result.stderr
