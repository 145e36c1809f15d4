"""The runner under stress: concurrent identical runs, damaged checkpoints, unwritable caches, Ctrl-C."""

import numpy as np
import pytest

from simcore import runner
from simcore.dealing import DealSpec
from simcore.errors import CardsimError
from simcore.games.giltspiel import LAYOUT, Known, OddsJob
from simcore.rng import BLOCK_DEALS

JOB = OddsJob(Known(), 1)
N = 5 * BLOCK_DEALS + 17
CHUNK = BLOCK_DEALS


def test_identical_run_in_progress_is_refused(tmp_path):
    first = runner.Checkpoint(tmp_path, JOB, N, 1, CHUNK)
    with pytest.raises(CardsimError, match="identical run is already in progress"):
        runner.Checkpoint(tmp_path, JOB, N, 1, CHUNK)
    first.release()
    runner.Checkpoint(tmp_path, JOB, N, 1, CHUNK).release()  # free again once the first run ends


def test_damaged_chunk_files_are_recomputed(tmp_path):
    whole = runner.run(JOB, N, 4, chunk_deals=CHUNK, checkpoint=False)
    with pytest.raises(KeyboardInterrupt, match="--seed 4 to resume"):
        runner.run(JOB, N, 4, chunk_deals=CHUNK, checkpoint=tmp_path, stop_after=3)
    files = sorted(tmp_path.rglob("chunk-*.npy"))
    assert len(files) == 3
    files[0].write_bytes(b"")  # truncated
    files[1].write_bytes(files[1].read_bytes()[:20])  # cut in the middle
    resumed = runner.run(JOB, N, 4, chunk_deals=CHUNK, checkpoint=tmp_path)
    assert (resumed == whole).all()
    assert not list(tmp_path.rglob("chunk-*.npy"))


def test_unwritable_default_cache_only_warns(monkeypatch, capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CARDSIM_CACHE", str(blocker))
    counts = runner.run(JOB, N, 2, chunk_deals=CHUNK, checkpoint=True)
    assert counts[0] == N
    assert "cannot write checkpoints" in capsys.readouterr().err
    with pytest.raises(CardsimError, match="pass a writable --checkpoint folder"):
        runner.run(JOB, N, 2, chunk_deals=CHUNK, checkpoint=blocker / "sub")


def test_interrupt_without_checkpoint_says_how_to_repeat():
    with pytest.raises(KeyboardInterrupt, match="nothing was kept.*--seed 8 to start again"):
        runner.run(JOB, N, 8, chunk_deals=CHUNK, checkpoint=False, stop_after=1)


def test_checkpoint_key_names_the_code():
    assert len(runner.code_fingerprint()) == 16


def test_cached_spec_arrays_are_read_only():
    spec = DealSpec(LAYOUT, {"seat1": (0, 1)})
    for array in (spec.fixed_masks, spec.room, spec.free_cards, spec.place_of_draw):
        with pytest.raises(ValueError):
            array[0] = 1
    assert np.asarray(spec.room).sum() == 30


def test_log_lines_without_a_terminal(monkeypatch, capsys):
    """No terminal: plain progress lines on stderr (here from the start), at most one per 10% plus the last."""
    monkeypatch.setattr(runner, "LOG_AFTER_S", 0.0)
    monkeypatch.setattr(runner, "LOG_EVERY_S", 0.0)
    runner.run(JOB, 6 * BLOCK_DEALS, 5, chunk_deals=BLOCK_DEALS, checkpoint=False)
    lines = capsys.readouterr().err.splitlines()
    assert 2 <= len(lines) <= 6 and all(line.startswith("cardsim: ") and " chunks (" in line for line in lines)
    assert lines[-1].startswith("cardsim: 6/6 chunks (100%)")


def test_quiet_for_short_runs_and_without_progress(monkeypatch, capsys):
    runner.run(JOB, 2 * BLOCK_DEALS, 5, chunk_deals=BLOCK_DEALS, checkpoint=False)  # done within LOG_AFTER_S
    monkeypatch.setattr(runner, "LOG_AFTER_S", 0.0)
    runner.run(JOB, 2 * BLOCK_DEALS, 5, chunk_deals=BLOCK_DEALS, checkpoint=False, progress=False)
    assert capsys.readouterr().err == ""


def _square(x):
    return x, x * x


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_map_yields_every_result(jobs):
    results = sorted(runner.parallel_map(_square, [(i,) for i in range(7)], jobs))
    assert results == [(i, i * i) for i in range(7)]
    assert list(runner.parallel_map(_square, [], jobs)) == []


def test_progress_true_draws_a_bar(capsys):
    runner.run(JOB, 2 * BLOCK_DEALS, 5, chunk_deals=BLOCK_DEALS, checkpoint=False, progress=True)
    err = capsys.readouterr().err
    assert "/2 [" in err and "chunk" in err and "cardsim: " not in err  # tqdm, not log lines


def _status_field(status: str, name: str) -> int:
    """A number of a /proc/PID/status text (hexadecimal for the signal masks)."""
    value = next(line.split()[1] for line in status.splitlines() if line.startswith(name + ":"))
    return int(value, 16 if name.startswith("Sig") else 10)


HELD_CTRL_C = """
import signal, subprocess, sys, threading
from simcore import runner

signal.signal(signal.SIGINT, signal.default_int_handler)  # as in a terminal (a background job inherits it ignored)

def blocked(pid):
    status = open(f"/proc/{pid}/status").read()
    mask = next(line.split()[1] for line in status.splitlines() if line.startswith("SigBlk:"))
    return bool(int(mask, 16) & (1 << (signal.SIGINT - 1)))

reached = False
try:
    with runner._sigint_held():
        child = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)  # held: nothing is raised here
        reached = True
    print("lost")
except KeyboardInterrupt:
    print("raised", reached, blocked(child.pid), blocked("self"))
    child.communicate(b"")
"""


def test_ctrl_c_is_held_while_workers_start_and_raised_after():
    """`runner._sigint_held`: a process started inside inherits SIGINT blocked (a worker importing its modules
    prints no traceback on Ctrl-C); a Ctrl-C that reaches the main thread meanwhile is raised once the block ends,
    not lost, and SIGINT is unblocked again. (Sent to the main thread itself: a process-wide one may be taken by
    another thread, which Python then raises in the main thread at once; the children are shielded either way.)
    Run in a fresh interpreter with Python's own Ctrl-C handler: a test run started in the background (``make test
    &``) inherits SIGINT ignored, and then no Ctrl-C is ever raised."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = subprocess.run([sys.executable, "-c", HELD_CTRL_C], env={**os.environ, "PYTHONPATH": root},
                         capture_output=True, text=True, timeout=60)
    assert out.stdout.split() == ["raised", "True", "True", "False"], out.stdout + out.stderr


def test_local_workers_start_with_ctrl_c_blocked():
    """The loky workers of `parallel_map` hold SIGINT blocked (starting a resource tracker inside the hold would
    have unblocked it); the main process does not, once they run."""
    import os
    import signal
    from pathlib import Path

    sigint = 1 << (signal.SIGINT - 1)
    statuses = list(runner.parallel_map(Path.read_text, [(Path("/proc/self/status"),)] * 2, jobs=2))
    for status in statuses:
        in_worker = _status_field(status, "Pid") != os.getpid()  # one core: run in this process
        assert bool(_status_field(status, "SigBlk") & sigint) == in_worker
    assert not _status_field(open("/proc/self/status").read(), "SigBlk") & sigint
