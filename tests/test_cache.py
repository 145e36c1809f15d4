"""The on-disk cache: tables and checkpoints are tied to the code that made them, stale entries are
pruned, `cardsim cache` lists and clears the folder."""

import os

import numpy as np
import pytest

from analysis.cli import main
from simcore import cache, runner
from simcore.games.giltspiel import Known, OddsJob
from simcore.rng import BLOCK_DEALS

OTHER_CODE = "0123456789abcdef"


@pytest.fixture
def cache_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDSIM_CACHE", str(tmp_path))
    return tmp_path


def test_table_is_computed_once_and_then_loaded(cache_dir):
    calls = []

    def compute():
        calls.append(1)
        return np.arange(5)

    first = cache.cached_table("demo", compute)
    second = cache.cached_table("demo", compute)
    assert len(calls) == 1
    assert (first == second).all()
    assert [p.name for p in (cache_dir / "tables").iterdir()] == [f"demo-{cache.code_fingerprint()}.npy"]


def test_damaged_table_file_is_computed_again(cache_dir):
    """An empty (truncated) table file is recomputed and replaced, not an EOFError."""
    tables = cache_dir / "tables"
    tables.mkdir()
    (tables / f"demo-{cache.code_fingerprint()}.npy").write_bytes(b"")
    assert (cache.cached_table("demo", lambda: np.arange(4)) == np.arange(4)).all()
    assert (cache.cached_table("demo", lambda: np.zeros(1)) == np.arange(4)).all()


@pytest.mark.parametrize("replace", ["zeros of the same shape", "another table's file", "a changed entry",
                                     "a plain .npy of the table", "a named pipe"])
def test_table_file_not_saved_for_that_table_is_computed_again(cache_dir, replace):
    """A table file of the right name whose contents are not what `cached_table` saved for that table fails
    its check word and is computed again (it gave tracebacks, or quietly other numbers, when loaded as it was)."""
    table = np.arange(12, dtype=np.float64).reshape(3, 4)
    cache.cached_table("demo", lambda: table)
    cache.cached_table("other", lambda: np.ones((3, 4)))
    path = cache_dir / "tables" / f"demo-{cache.code_fingerprint()}.npy"
    if replace == "zeros of the same shape":
        cache.write_atomically(path, np.zeros_like(table))
    elif replace == "another table's file":
        path.write_bytes((cache_dir / "tables" / f"other-{cache.code_fingerprint()}.npy").read_bytes())
    elif replace == "a changed entry":
        data = bytearray(path.read_bytes())
        data[-1] ^= 1
        path.write_bytes(bytes(data))
    elif replace == "a plain .npy of the table":
        np.save(path, table)
    else:
        path.unlink()
        os.mkfifo(path)
    assert cache.read_checked(path, path.name) is None
    assert (cache.cached_table("demo", lambda: table + 1) == table + 1).all()
    assert (cache.cached_table("demo", lambda: table) == table + 1).all()  # saved again, checked


def test_tables_of_other_code_are_pruned_but_not_tables_of_other_names(cache_dir):
    tables = cache_dir / "tables"
    tables.mkdir()
    stale, other_name = tables / f"demo-{OTHER_CODE}.npy", tables / f"demo-big-{OTHER_CODE}.npy"
    np.save(stale, np.zeros(2))
    np.save(other_name, np.zeros(2))
    cache.cached_table("demo", lambda: np.ones(3))
    assert not stale.exists()
    assert other_name.exists()


def _run_folder(root, code):
    folder = root / f"run-{code}"
    folder.mkdir(parents=True)
    (folder / cache.RUN_FILE).write_text(f"job|n=1|code={code}\n")
    np.save(folder / "chunk-000000.npy", np.zeros(3))
    return folder


def test_stale_checkpoints_are_pruned_when_a_run_starts(cache_dir):
    runs = cache_dir / "runs"
    stale, current = _run_folder(runs, OTHER_CODE), _run_folder(runs, cache.code_fingerprint())
    counts = runner.run(OddsJob(Known(), 1), 2 * BLOCK_DEALS, 3, chunk_deals=BLOCK_DEALS, checkpoint=True)
    assert counts[0] == 2 * BLOCK_DEALS
    assert not stale.exists()
    assert current.exists()  # an interrupted run of this code can still resume


def test_a_checkpoint_in_use_is_never_pruned(cache_dir):
    runs = cache_dir / "runs"
    folder = _run_folder(runs, OTHER_CODE)
    with open(folder / cache.RUN_FILE, "a") as handle:
        import fcntl

        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        assert cache.prune_stale_runs(runs) == 0
        assert cache.clear() == 0
    assert folder.exists()
    assert cache.prune_stale_runs(runs) == 1


def test_cli_lists_and_clears_the_cache(cache_dir, capsys):
    _run_folder(cache_dir / "runs", OTHER_CODE)
    cache.cached_table("demo", lambda: np.ones(1000))
    assert main(["cache"]) == 0
    out = capsys.readouterr().out
    assert str(cache_dir) in out
    assert " 1 interrupted runs (resumable)" in out and "1 of older code" in out
    assert " 1 computed tables" in out and "0 of older code" in out
    assert main(["cache", "--clear"]) == 0
    assert "cleared" in capsys.readouterr().out
    assert [u.entries for u in cache.usage()] == [0, 0]


def test_cli_cache_rejects_unknown_options(capsys):
    assert main(["cache", "--purge"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardsim: error:") and err.count("\n") == 1


@pytest.mark.parametrize("command", [["cache"], ["cache", "--clear"]])
def test_cli_cache_refuses_a_cache_path_that_is_a_file(monkeypatch, tmp_path, capsys, command):
    """CARDSIM_CACHE naming a file listed it as an empty cache folder; now one line, and the file is left alone."""
    path = tmp_path / "not-a-folder"
    path.write_text("keep me")
    monkeypatch.setenv("CARDSIM_CACHE", str(path))
    assert main(command) == 2
    err = capsys.readouterr().err
    assert err == (f"cardsim: error: the cache path {path} is not a folder; point CARDSIM_CACHE at a folder (unset, "
                   "the cache is ~/.cache/cardsim)\n")
    assert path.read_text() == "keep me"
