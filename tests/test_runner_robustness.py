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
