"""Run a counting job over N deals in chunks, in parallel, resumably.

A *job* is a picklable object with

* ``key() -> str``: a description of everything that changes its result (game, options, known cards);
* ``n_counts: int``: length of the count vector it returns;
* ``run_block(seed, block, n_deals) -> (n_counts,) int64``: counts of the first ``n_deals`` deals of
  random stream ``block`` (see `simcore.rng`).

Deals are grouped in fixed blocks of `BLOCK_DEALS`; a chunk is a run of whole blocks. Counts are
integers summed over chunks, so the total is identical for any number of jobs and any chunk size.
With a checkpoint folder every finished chunk is written atomically (temporary file, then rename)
and an interrupted run started again with the same arguments resumes where it stopped.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.errors import CardsimError
from simcore.rng import BLOCK_DEALS, STREAM_VERSION

DEFAULT_CHUNK_DEALS = 8 * BLOCK_DEALS
CHECKPOINT_MIN_CHUNKS = 16
"""Runs of at least this many chunks checkpoint by default."""


@dataclass(frozen=True)
class Chunk:
    """Blocks ``first_block ..`` covering deals [start, stop) of the run."""

    index: int
    start: int
    stop: int

    def blocks(self):
        """(block, n_deals) pairs of this chunk."""
        deal = self.start
        while deal < self.stop:
            block = deal // BLOCK_DEALS
            size = min(self.stop, (block + 1) * BLOCK_DEALS) - deal
            yield block, size
            deal += size


def plan_chunks(n: int, chunk_deals: int = DEFAULT_CHUNK_DEALS) -> list[Chunk]:
    """Split deals [0, n) into chunks of whole blocks (``chunk_deals`` rounded up to blocks)."""
    if n <= 0:
        raise CardsimError(f"the number of deals must be positive, got {n}")
    if chunk_deals <= 0:
        raise CardsimError(f"the chunk size must be positive, got {chunk_deals}")
    per_chunk = -(-chunk_deals // BLOCK_DEALS) * BLOCK_DEALS
    return [Chunk(i, start, min(n, start + per_chunk)) for i, start in enumerate(range(0, n, per_chunk))]


def run_chunk(job, seed: int, chunk: Chunk) -> np.ndarray:
    """Counts of one chunk: (job.n_counts,) int64."""
    total = np.zeros(job.n_counts, dtype=np.int64)
    for block, size in chunk.blocks():
        total += job.run_block(seed, block, size)
    return total


def default_checkpoint_root() -> Path:
    base = os.environ.get("CARDSIM_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "cardsim")
    return Path(base) / "runs"


class Checkpoint:
    """Finished chunk counts of one run, one ``.npy`` file per chunk, written atomically."""

    def __init__(self, root: Path, job, n: int, seed: int, chunk_deals: int):
        ident = f"{job.key()}|n={n}|seed={seed}|chunk={chunk_deals}|stream={STREAM_VERSION}"
        self.folder = Path(root) / hashlib.sha256(ident.encode()).hexdigest()[:20]
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            (self.folder / "run.txt").write_text(ident + "\n")
        except OSError as exc:
            raise CardsimError(f"cannot write checkpoints to {root} ({exc.strerror}); pass a writable --checkpoint folder") from None

    def path(self, chunk: Chunk) -> Path:
        return self.folder / f"chunk-{chunk.index:06d}.npy"

    def load(self, chunk: Chunk):
        try:
            return np.load(self.path(chunk))
        except (OSError, ValueError):
            return None

    def save(self, chunk: Chunk, counts: np.ndarray) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, counts)
        os.replace(tmp, self.path(chunk))

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


def _progress(total: int, done: int, enabled: bool | None):
    if enabled is None:
        enabled = sys.stderr.isatty()
    if not enabled:
        return None
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit="chunk", file=sys.stderr, leave=False)


def run(
    job,
    n: int,
    seed: int,
    jobs: int = 1,
    chunk_deals: int = DEFAULT_CHUNK_DEALS,
    checkpoint: str | Path | None | bool = None,
    progress: bool | None = None,
    stop_after: int | None = None,
) -> np.ndarray:
    """Total counts of ``job`` over deals [0, n): (job.n_counts,) int64.

    jobs: worker processes (joblib); checkpoint: a folder, True for the default folder, False for
    none, None to checkpoint only long runs; progress: None shows a bar on a terminal;
    stop_after: stop (raising KeyboardInterrupt) after this many new chunks, to test resuming.
    """
    if jobs < 1:
        raise CardsimError(f"--jobs must be at least 1, got {jobs}")
    chunks = plan_chunks(n, chunk_deals)
    if checkpoint is None:
        checkpoint = len(chunks) >= CHECKPOINT_MIN_CHUNKS
    store = None
    if checkpoint is not False:
        root = default_checkpoint_root() if checkpoint is True else Path(checkpoint)
        store = Checkpoint(root, job, n, seed, chunk_deals)
    results: dict[int, np.ndarray] = {}
    if store is not None:
        for chunk in chunks:
            counts = store.load(chunk)
            if counts is not None and counts.shape == (job.n_counts,):
                results[chunk.index] = counts
    todo = [c for c in chunks if c.index not in results]
    bar = _progress(len(chunks), len(results), progress)
    new = 0
    try:
        for chunk, counts in _execute(job, seed, todo, jobs):
            results[chunk.index] = counts
            if store is not None:
                store.save(chunk, counts)
            if bar is not None:
                bar.update(1)
            new += 1
            if stop_after is not None and new >= stop_after and len(results) < len(chunks):
                raise KeyboardInterrupt
    finally:
        if bar is not None:
            bar.close()
    total = np.zeros(job.n_counts, dtype=np.int64)
    for chunk in chunks:
        total += results[chunk.index]
    if store is not None:
        store.remove()
    return total


def _execute(job, seed: int, chunks: list[Chunk], jobs: int):
    """Yield (chunk, counts) as chunks finish."""
    if jobs == 1 or len(chunks) <= 1:
        for chunk in chunks:
            yield chunk, run_chunk(job, seed, chunk)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
    tasks = (delayed(_indexed_chunk)(job, seed, chunk) for chunk in chunks)
    yield from parallel(tasks)


def _indexed_chunk(job, seed: int, chunk: Chunk):
    return chunk, run_chunk(job, seed, chunk)
