"""Run a counting job over N deals in chunks, in parallel, resumably.

A *job* is a picklable object with

* ``key() -> str``: a description of everything that changes its result (game, options, known cards);
* ``n_counts: int``: length of the count vector it returns;
* ``run_block(seed, block, n_deals) -> (n_counts,) int64``: counts of the first ``n_deals`` deals of
  random stream ``block`` (see `simcore.rng`);
* optionally ``block_size: int``: deals (or games, or solves) per random stream, default `BLOCK_DEALS`;
  jobs whose unit costs milliseconds (a solved deal, a whole game) use smaller blocks so that a run
  still splits into many chunks.

Deals are grouped in fixed blocks of the job's block size; a chunk is a run of whole blocks. Counts are
integers summed over chunks, so the total is identical for any number of jobs and any chunk size.
With a checkpoint folder every finished chunk is written atomically (temporary file, then rename)
and an interrupted run started again with the same arguments resumes where it stopped.
"""

from __future__ import annotations

import fcntl
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

CHUNK_BLOCKS = 8
"""Blocks per chunk unless a chunk size is given."""
DEFAULT_CHUNK_DEALS = CHUNK_BLOCKS * BLOCK_DEALS
MAX_DEALS = 10**12
"""Largest run accepted (the chunk plan is a list: about two million chunks at the default size)."""
CHECKPOINT_MIN_CHUNKS = 16
"""Runs of at least this many chunks checkpoint by default."""


@dataclass(frozen=True)
class Chunk:
    """Blocks ``first_block ..`` covering deals [start, stop) of the run."""

    index: int
    start: int
    stop: int
    block_size: int = BLOCK_DEALS

    def blocks(self):
        """(block, n_deals) pairs of this chunk."""
        deal = self.start
        while deal < self.stop:
            block = deal // self.block_size
            size = min(self.stop, (block + 1) * self.block_size) - deal
            yield block, size
            deal += size


def block_size_of(job) -> int:
    """Deals per random stream of ``job``: its ``block_size``, else `BLOCK_DEALS`."""
    return int(getattr(job, "block_size", BLOCK_DEALS))


def plan_chunks(n: int, chunk_deals: int | None = None, block_size: int = BLOCK_DEALS) -> list[Chunk]:
    """Split deals [0, n) into chunks of whole blocks (``chunk_deals`` rounded up to blocks; None:
    `CHUNK_BLOCKS` blocks)."""
    if chunk_deals is None:
        chunk_deals = CHUNK_BLOCKS * block_size
    if n <= 0:
        raise CardsimError(f"the number of deals must be positive, got {n}")
    if n > MAX_DEALS:
        raise CardsimError(f"the number of deals must be at most {MAX_DEALS:.0e}, got {n}")
    if chunk_deals <= 0:
        raise CardsimError(f"the chunk size must be positive, got {chunk_deals}")
    per_chunk = -(-chunk_deals // block_size) * block_size
    return [Chunk(i, start, min(n, start + per_chunk), block_size) for i, start in enumerate(range(0, n, per_chunk))]


def run_chunk(job, seed: int, chunk: Chunk) -> np.ndarray:
    """Counts of one chunk: (job.n_counts,) int64."""
    total = np.zeros(job.n_counts, dtype=np.int64)
    for block, size in chunk.blocks():
        total += job.run_block(seed, block, size)
    return total


def default_checkpoint_root() -> Path:
    base = os.environ.get("CARDSIM_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "cardsim")
    return Path(base) / "runs"


def code_fingerprint() -> str:
    """Hash of the simcore sources: checkpoints of other code are never mixed into a resumed run."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; the message says how to resume (same seed) and what was kept."""


class Checkpoint:
    """Finished chunk counts of one run, one ``.npy`` file per chunk, written atomically.

    The folder is named by a hash of the question (job key, n, seed, chunk size, random stream and
    code fingerprint) and locked while a run uses it, so two identical runs never share it.
    """

    def __init__(self, root: Path, job, n: int, seed: int, chunk_deals: int):
        ident = (f"{job.key()}|n={n}|seed={seed}|chunk={chunk_deals}|block={block_size_of(job)}|stream={STREAM_VERSION}"
                 f"|code={code_fingerprint()}")
        self.folder = Path(root) / hashlib.sha256(ident.encode()).hexdigest()[:20]
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "run.txt").write_text(ident + "\n")
        self._lock = open(self.folder / "run.txt", "a")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise CardsimError(f"an identical run is already in progress (checkpoint folder {self.folder}); "
                               "wait for it to finish, or pass another --seed or --checkpoint folder") from None

    def path(self, chunk: Chunk) -> Path:
        return self.folder / f"chunk-{chunk.index:06d}.npy"

    def load(self, chunk: Chunk):
        """Counts of a finished chunk, or None when missing or unreadable (it is then recomputed)."""
        try:
            return np.load(self.path(chunk))
        except Exception:  # a damaged file only means the chunk is computed again
            return None

    def save(self, chunk: Chunk, counts: np.ndarray) -> None:
        fd, tmp = tempfile.mkstemp(dir=self.folder, suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, counts)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, self.path(chunk))

    def release(self) -> None:
        self._lock.close()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self.release()


def open_checkpoint(checkpoint, job, n: int, seed: int, chunk_deals: int) -> Checkpoint | None:
    """The run's checkpoint store: an explicit folder must be writable; the default folder, when
    not writable, only costs resumability (one warning line)."""
    explicit = checkpoint is not True
    root = Path(checkpoint) if explicit else default_checkpoint_root()
    try:
        return Checkpoint(root, job, n, seed, chunk_deals)
    except OSError as exc:
        if explicit:
            raise CardsimError(f"cannot write checkpoints to {root} ({exc.strerror}); "
                               "pass a writable --checkpoint folder") from None
        print(f"cardsim: warning: cannot write checkpoints to {root} ({exc.strerror}); "
              "this run cannot be resumed if interrupted", file=sys.stderr)
        return None


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
    chunk_deals: int | None = None,
    checkpoint: str | Path | None | bool = None,
    progress: bool | None = None,
    stop_after: int | None = None,
) -> np.ndarray:
    """Total counts of ``job`` over deals [0, n): (job.n_counts,) int64.

    jobs: worker processes (joblib); chunk_deals: deals per work unit (None: `CHUNK_BLOCKS` of the
    job's blocks); checkpoint: a folder, True for the default folder, False for
    none, None to checkpoint only long runs; progress: None shows a bar on a terminal;
    stop_after: stop (raising KeyboardInterrupt) after this many new chunks, to test resuming.
    """
    if jobs < 1:
        raise CardsimError(f"--jobs must be at least 1, got {jobs}")
    chunks = plan_chunks(n, chunk_deals, block_size_of(job))
    if checkpoint is None:
        checkpoint = len(chunks) >= CHECKPOINT_MIN_CHUNKS
    store = open_checkpoint(checkpoint, job, n, seed, chunk_deals) if checkpoint is not False else None
    try:
        return _run(job, seed, chunks, jobs, store, progress, stop_after)
    except (KeyboardInterrupt, SystemError) as exc:
        if isinstance(exc, SystemError) and not isinstance(exc.__context__ or exc.__cause__, KeyboardInterrupt):
            raise  # a SystemError that is not numba passing on Ctrl-C
        kept = f"{len(list(store.folder.glob('chunk-*.npy')))} finished chunks are kept in {store.folder}; " \
            if store is not None else "nothing was kept (no checkpoint); "
        raise RunInterrupted(f"interrupted; {kept}run the same command with --seed {seed} to "
                             + ("resume" if store is not None else "start again")) from None
    finally:
        if store is not None:
            store.release()


def _run(job, seed: int, chunks: list[Chunk], jobs: int, store: Checkpoint | None, progress, stop_after) -> np.ndarray:
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
    """Yield (chunk, counts) as chunks finish; more workers than cores or chunks would only cost."""
    jobs = min(jobs, len(chunks), os.cpu_count() or 1)
    if jobs == 1:
        for chunk in chunks:
            yield chunk, run_chunk(job, seed, chunk)
        return
    from joblib import Parallel, delayed

    parallel = Parallel(n_jobs=jobs, return_as="generator_unordered")
    tasks = (delayed(_indexed_chunk)(job, seed, chunk) for chunk in chunks)
    yield from parallel(tasks)


def _indexed_chunk(job, seed: int, chunk: Chunk):
    return chunk, run_chunk(job, seed, chunk)
