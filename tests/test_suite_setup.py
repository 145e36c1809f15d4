"""The test suite's own set-up (tests/conftest.py): the xdist scheduler that keeps files sharing slow work (kernels
to compile, a session fixture) on one worker."""

import importlib
from pathlib import Path

import conftest


class _LoadFileConfig:
    """The options pytest-xdist's schedulers read, as `make test` sets them (two workers, --dist loadfile)."""

    def getvalue(self, name):
        return {"dist": "loadfile", "numprocesses": 2, "tx": ["2*popen"]}[name]

    getoption = getvalue


def test_shared_work_groups_go_to_one_worker_and_other_files_stay_whole():
    scheduler = conftest.pytest_xdist_make_scheduler(_LoadFileConfig(), None)
    for group, prefixes in conftest.SHARED_WORK_GROUPS.items():
        for prefix in prefixes:
            assert scheduler._split_scope(prefix + ("x" if prefix.endswith("::") else "")) == group
    assert scheduler._split_scope("tests/test_cli.py::test_console_script_exit_code") == "tests/test_cli.py"
    assert scheduler._split_scope("tests/test_cli.py::test_long_frames_have_the_sweep_columns[odds-perlaggen]") \
        == "tests/test_cli.py"


def _names_a_test(prefix: str) -> bool:
    """``prefix`` ("path::" or "path::function[parameter id]") names an existing test file, function, parameter."""
    path, _, rest = prefix.partition("::")
    name, _, parameter = rest.partition("[")
    if not Path(conftest.__file__).parent.parent.joinpath(path).is_file():
        return False
    if not name:
        return True
    function = getattr(importlib.import_module(Path(path).stem), name, None)
    ids = [i for mark in getattr(function, "pytestmark", []) if mark.name == "parametrize"
           for i in mark.kwargs.get("ids") or []]
    return function is not None and (not parameter or parameter.rstrip("]") in ids)


def test_shared_work_groups_name_existing_tests():
    """A renamed file, test or parameter would silently leave its group."""
    for prefixes in conftest.SHARED_WORK_GROUPS.values():
        for prefix in prefixes:
            assert _names_a_test(prefix), prefix
    assert not _names_a_test("tests/test_cli.py::test_long_frames_have_the_sweep_columns[odds-dreeg]")
    assert not _names_a_test("tests/test_cli.py::test_no_such_test")
