"""Shared test settings: hypothesis profiles, the size of the Monte-Carlo checks, one small report, and a
cache folder of their own."""

import getpass
import os
import tempfile

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=200,
    deadline=None,  # the first call of a numba kernel compiles or loads it from the cache
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", settings.get_profile("default"), derandomize=True, print_blob=True)
"""CI's profile (`.ci/run`): the same examples on every run, so a red CI points at a change of the code (or of
hypothesis itself); a failure prints the blob that replays it (`@reproduce_failure`)."""
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

os.environ.setdefault("CARDSIM_CACHE", os.path.join(tempfile.gettempdir(), f"cardsim-tests-{getpass.getuser()}"))
"""The tests' cached tables and run checkpoints go to a temporary folder (shared by the xdist workers, kept
between runs so that tables are built once), not to the user's ~/.cache/cardsim; CARDSIM_CACHE chooses
another."""


@pytest.fixture
def python_ctrl_c():
    """Python's own Ctrl-C handler (KeyboardInterrupt) and SIGINT unblocked in this thread for one test, whatever the
    test process inherited (a run started in the background, ``make test &``, ignores SIGINT) or an earlier test
    left; both restored afterwards."""
    import signal

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)
        signal.signal(signal.SIGINT, previous)


@pytest.fixture(scope="session")
def scale() -> float:
    """CARDSIM_TEST_SCALE (default 1.0): multiplies the sample sizes of the Monte-Carlo checks."""
    value = float(os.environ.get("CARDSIM_TEST_SCALE", "1.0"))
    if value <= 0:
        raise ValueError(f"CARDSIM_TEST_SCALE must be positive, got {value}")
    return value


SMALL_REPORT_ARGS = ("--n", "100000", "--hand-n", "20000", "--seed", "12345", "--jobs", "1", "--no-progress")
"""The small report the report tests and the browser test share (built once per test process: once per pytest-xdist
worker that needs it)."""


@pytest.fixture(scope="session")
def small_report(tmp_path_factory):
    """Path of index.html of a small report, written into a folder that did not exist yet."""
    import argparse

    from analysis import report

    parser = argparse.ArgumentParser()
    report.add_report_arguments(parser)
    out = tmp_path_factory.mktemp("report") / "nested" / "out"
    return report.build_report(parser.parse_args(["--out", str(out), *SMALL_REPORT_ARGS]))


SHARED_WORK_GROUPS = {
    "pinochle3 solver": ("tests/test_pinochle3_solve.py::",
                         "tests/test_cli.py::test_long_frames_have_the_sweep_columns[odds-pinochle3]"),
    "small report": ("tests/test_report.py::", "tests/test_report_browser.py::"),
}
"""Tests in different files that share slow work: the first compilation of the same numba kernels (the Pinochle
solver: about 60 s) or a session fixture (`small_report`: about 25 s). `make test`'s `--dist loadfile` sends each
group to one worker, so the work is done once (later users load the kernels from numba's cache or reuse the
fixture) instead of on both workers at once. Keys are group names, values node id prefixes."""


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's `--dist loadfile` (one file to one worker), with each of `SHARED_WORK_GROUPS` kept together."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class SharedWorkScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            for group, prefixes in SHARED_WORK_GROUPS.items():
                if nodeid.startswith(prefixes):
                    return group
            return super()._split_scope(nodeid)

    return SharedWorkScheduling(config, log)
