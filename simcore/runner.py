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

The chunks run in this process (``jobs=1``), in local worker processes (joblib's loky backend), or on a
dask.distributed cluster through joblib's Dask backend: an existing one (``scheduler="tcp://host:8786"``)
or a local one started on first use (``dask_workers=N``). The chunks and hence the totals are the same
on every backend.
"""

from __future__ import annotations

import atexit
import contextlib
import contextvars
import fcntl
import hashlib
import inspect
import os
import re
import shutil
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.cache import RUN_FILE, code_fingerprint, prune_stale_runs, read_checked, runs_root, write_checked
from simcore import checks
from simcore.errors import CardsimError, unknown_name
from simcore.rng import BLOCK_DEALS, STREAM_VERSION

CHUNK_BLOCKS = 8
"""Blocks per chunk unless a chunk size is given."""
DEFAULT_CHUNK_DEALS = CHUNK_BLOCKS * BLOCK_DEALS
MAX_DEALS = 10**12
"""Largest run accepted."""
MAX_CHUNKS = 2_000_000
"""Most chunks a run plans (the plan is a list: 10**12 deals at the default size of `BLOCK_DEALS` blocks make 1.9
million; a job of small blocks, e.g. whole games, reaches it with fewer deals)."""
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


DEAL_UNIT = ("deals (games in a match)", 1)
"""The user's unit of a run (`run_unit_of`) unless the job names its own: deals, one a deal."""


def run_unit_of(job) -> tuple[str, int]:
    """What the user counts in a run of ``job`` and how many of them one deal (unit of the runner) holds: the
    job's ``run_unit`` (a duplicate match: ("games", 2)), else `DEAL_UNIT`."""
    return getattr(job, "run_unit", DEAL_UNIT)


def _chunk_deals(n: int, chunk_deals: int | None, block_size: int,
                 unit: tuple[str, int] = DEAL_UNIT) -> int:
    """Deals per chunk of a run of ``n`` deals (``chunk_deals`` rounded up to whole blocks; None: `CHUNK_BLOCKS`
    blocks); CardsimError for a size out of range or a plan of more than `MAX_CHUNKS` chunks, counted in the
    user's ``unit`` (`run_unit_of`)."""
    name, each = unit
    if n <= 0:
        raise CardsimError(f"the number of {name} must be positive, got {n * each}")
    if n > MAX_DEALS:
        raise CardsimError(f"the number of {name} must be at most {MAX_DEALS * each:.0e}, got {n * each}")
    if chunk_deals is not None and chunk_deals <= 0:
        raise CardsimError(f"the chunk size must be positive, got {chunk_deals}")
    per_chunk = -(-(chunk_deals or CHUNK_BLOCKS * block_size) // block_size) * block_size
    chunks = -(-n // per_chunk)
    if chunks > MAX_CHUNKS:
        raise CardsimError(f"{n * each:,} {name} make {chunks:,} chunks of {per_chunk * each:,}, more than the "
                           f"{MAX_CHUNKS:,} a run plans; ask for at most {MAX_CHUNKS * per_chunk * each:,} "
                           f"{name.split()[0]} or give a larger --chunk-size")
    return per_chunk


def plan_chunks(n: int, chunk_deals: int | None = None, block_size: int = BLOCK_DEALS,
                unit: tuple[str, int] = DEAL_UNIT) -> list[Chunk]:
    """Split deals [0, n) into chunks of whole blocks (``chunk_deals`` rounded up to blocks; None:
    `CHUNK_BLOCKS` blocks); ``unit`` names the deals in errors (`run_unit_of`)."""
    per_chunk = _chunk_deals(n, chunk_deals, block_size, unit)
    return [Chunk(i, start, min(n, start + per_chunk), block_size) for i, start in enumerate(range(0, n, per_chunk))]


def run_chunk(job, seed: int, chunk: Chunk) -> np.ndarray:
    """Counts of one chunk: (job.n_counts,) int64."""
    total = np.zeros(job.n_counts, dtype=np.int64)
    for block, size in chunk.blocks():
        total += job.run_block(seed, block, size)
    return total


class DryRun(BaseException):
    """Raised by `run` within `dry_run()` in place of running (not an Exception: no handler of errors takes it)."""


_DRY_RUN = contextvars.ContextVar("dry_run", default=False)


@contextlib.contextmanager
def dry_run():
    """Within it `run` checks its arguments and raises `DryRun` instead of running, so that a caller (`cardsim
    sweep`) finds the bad input a computation checks before its first run without waiting for any run."""
    token = _DRY_RUN.set(True)
    try:
        yield
    finally:
        _DRY_RUN.reset(token)


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during a run; the message says how to resume (same seed) and what was kept."""


class Checkpoint:
    """Finished chunk counts of one run, one ``.npy`` file per chunk, written atomically with a check word of the
    run and the chunk (`simcore.cache.write_checked`).

    The folder is named by a hash of the question (job key, n, seed, chunk size, random stream and
    code fingerprint) and locked while a run uses it, so two identical runs never share it.
    """

    def __init__(self, root: Path, job, n: int, seed: int, chunk_deals: int):
        ident = (f"{job.key()}|n={n}|seed={seed}|chunk={chunk_deals}|block={block_size_of(job)}|stream={STREAM_VERSION}"
                 f"|code={code_fingerprint()}")
        self.ident = ident
        self.folder = Path(root) / hashlib.sha256(ident.encode()).hexdigest()[:20]
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / RUN_FILE).write_text(ident + "\n")
        self._lock = open(self.folder / RUN_FILE, "a")
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock.close()
            raise CardsimError(f"an identical run is already in progress (checkpoint folder {self.folder}); "
                               "wait for it to finish, or pass another --seed or --checkpoint folder") from None

    @staticmethod
    def file_name(chunk: Chunk) -> str:
        return f"chunk-{chunk.index:06d}.npy"

    def path(self, chunk: Chunk) -> Path:
        return self.folder / self.file_name(chunk)

    def load(self, chunk: Chunk, n_counts: int):
        """Counts of a finished chunk, or None when missing, unreadable, not saved for this chunk of this run (its
        check word) or not (n_counts,) int64 (it is then recomputed); something other than a file in the chunk's
        place is refused, as it could not be replaced."""
        path = self.path(chunk)
        if path.exists() and not path.is_file():
            raise CardsimError(f"the checkpoint chunk {path} is not a file, so the run cannot save it; remove it, "
                               "or pass another --checkpoint folder")
        counts = read_checked(path, self._label(chunk))
        return counts if counts is not None and counts.dtype == np.int64 and counts.shape == (n_counts,) else None

    def load_finished(self, chunks: list[Chunk], n_counts: int) -> dict[int, np.ndarray]:
        """{chunk index: counts} of the finished chunks among ``chunks`` (`load`), the folder listed once: a run of
        millions of chunks starts at once instead of looking for each chunk's file."""
        present = {path.name for path in self.folder.iterdir()}
        finished = {}
        for chunk in chunks:
            if self.file_name(chunk) in present and (counts := self.load(chunk, n_counts)) is not None:
                finished[chunk.index] = counts
        return finished

    def save(self, chunk: Chunk, counts: np.ndarray) -> None:
        write_checked(self.path(chunk), counts.astype(np.int64), self._label(chunk))

    def _label(self, chunk: Chunk) -> str:
        return f"{self.ident}|chunk={chunk.index}"

    def release(self) -> None:
        self._lock.close()

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)
        self.release()


def open_checkpoint(checkpoint, job, n: int, seed: int, chunk_deals: int) -> Checkpoint | None:
    """The run's checkpoint store: an explicit folder must be writable; the default folder, when
    not writable, only costs resumability (one warning line)."""
    explicit = checkpoint is not True
    root = Path(checkpoint) if explicit else runs_root()
    if not explicit:
        prune_stale_runs(root)
    try:
        return Checkpoint(root, job, n, seed, chunk_deals)
    except OSError as exc:
        if explicit:
            raise CardsimError(f"cannot write checkpoints to {root} ({exc.strerror}); "
                               "pass a writable --checkpoint folder") from None
        print(f"cardsim: warning: cannot write checkpoints to {root} ({exc.strerror}); "
              "this run cannot be resumed if interrupted", file=sys.stderr)
        return None


class _LogLines:
    """Progress as plain lines on stderr (no terminal): a line per further 10% of the chunks or every
    `LOG_EVERY_S` seconds, none for runs that finish within `LOG_AFTER_S` seconds."""

    def __init__(self, total: int, done: int):
        self.total, self.done = total, done
        self.started = self.last_time = time.monotonic()
        self.last_done = done
        self.printed = False

    def update(self, k: int) -> None:
        self.done += k
        now = time.monotonic()
        if now - self.started < LOG_AFTER_S:
            return
        if self.done == self.total:  # the last line only closes a run that logged before
            due = self.printed
        else:
            due = (self.done - self.last_done >= self.total / 10 and now - self.last_time >= 1.0
                   or now - self.last_time >= LOG_EVERY_S)
        if due:
            self.last_time, self.last_done, self.printed = now, self.done, True
            print(f"cardsim: {self.done}/{self.total} chunks ({100 * self.done / self.total:.0f}%), "
                  f"{now - self.started:.0f} s", file=sys.stderr, flush=True)

    def close(self) -> None:
        pass


LOG_AFTER_S = 2.0
LOG_EVERY_S = 10.0


def _progress(total: int, done: int, enabled: bool | None):
    """A tqdm bar on a terminal, plain log lines otherwise (``enabled`` None); nothing when False."""
    if enabled is False:
        return None
    if enabled is None and not sys.stderr.isatty():
        return _LogLines(total, done)
    from tqdm import tqdm

    return tqdm(total=total, initial=done, unit="chunk", file=sys.stderr, leave=False)


RUN_KEYWORDS = ("jobs", "chunk_deals", "checkpoint", "progress", "stop_after", "scheduler", "dask_workers")
"""The keyword arguments every simulating API function passes on to `run`."""


def _caller_keywords(frame) -> tuple[str, ...]:
    """The named parameters of the API function the user called (the outermost module-level function of this
    package among ``frame`` and its callers, which passed its unknown keywords on to `run`), for the "did you mean"
    of `run`'s error; () when there is none."""
    entry = None
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] in ("analysis", "simcore"):
        function = frame.f_globals.get(frame.f_code.co_name)
        if callable(function) and getattr(function, "__code__", None) is frame.f_code:
            entry = function
        frame = frame.f_back
    if entry is None:
        return ()
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(name for name, p in inspect.signature(entry).parameters.items() if p.kind in kinds)


def run(
    job,
    /,
    n: int,
    seed: int,
    jobs: int = 1,
    chunk_deals: int | None = None,
    checkpoint: str | Path | None | bool = None,
    progress: bool | None = None,
    stop_after: int | None = None,
    scheduler: str | None = None,
    dask_workers: int | None = None,
    **unknown,
) -> np.ndarray:
    """Total counts of ``job`` over deals [0, n): (job.n_counts,) int64.

    jobs: worker processes (joblib); chunk_deals: deals per work unit (None: `CHUNK_BLOCKS` of the
    job's blocks); checkpoint: a folder, True for the default folder, False for
    none, None to checkpoint only long runs; progress: None shows a bar on a terminal and plain log
    lines otherwise; stop_after: stop (raising KeyboardInterrupt) after this many new chunks, to test
    resuming; scheduler: address of a dask.distributed scheduler to run the chunks on instead
    (``jobs`` is then ignored); dask_workers: run them on a local Dask cluster of this many worker
    processes (started once per process and reused).
    """
    if unknown:  # an API function passes the keywords it does not know on to here
        raise unknown_name("keyword argument", next(iter(unknown)), _caller_keywords(sys._getframe(1)) + RUN_KEYWORDS)
    n = checks.whole(n, f"the number of {run_unit_of(job)[0]}")
    jobs = checks.whole(jobs, "--jobs")
    chunk_deals = None if chunk_deals is None else checks.whole(chunk_deals, "the chunk size")
    if jobs < 1:
        raise CardsimError(f"--jobs must be at least 1, got {jobs}")
    if checkpoint is not None and not isinstance(checkpoint, (bool, str, os.PathLike)):
        raise CardsimError(f"checkpoint must be a folder (a str or Path), True, False or None, got "
                           f"{checks.shown(checkpoint)}")
    progress = None if progress is None else checks.flag(progress, "progress")
    stop_after = None if stop_after is None else checks.whole(stop_after, "stop_after", 1)
    if scheduler is not None and not isinstance(scheduler, str):
        raise CardsimError(f"scheduler must be a dask scheduler address such as 'tcp://host:8786', got "
                           f"{checks.shown(scheduler)}")
    dask_workers = None if dask_workers is None else checks.whole(dask_workers, "--dask-workers", 1)
    if _DRY_RUN.get():
        _chunk_deals(n, chunk_deals, block_size_of(job), run_unit_of(job))
        raise DryRun
    client = dask_client(scheduler, dask_workers) if scheduler is not None or dask_workers is not None else None
    chunks = plan_chunks(n, chunk_deals, block_size_of(job), run_unit_of(job))
    if checkpoint is None:
        checkpoint = len(chunks) >= CHECKPOINT_MIN_CHUNKS
    store = open_checkpoint(checkpoint, job, n, seed, chunk_deals) if checkpoint is not False else None
    try:
        return _run(job, seed, chunks, jobs, store, progress, stop_after, client)
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


def _run(job, seed: int, chunks: list[Chunk], jobs: int, store: Checkpoint | None, progress, stop_after,
         client=None) -> np.ndarray:
    results = store.load_finished(chunks, job.n_counts) if store is not None else {}
    todo = [c for c in chunks if c.index not in results]
    bar = _progress(len(chunks), len(results), progress)
    new = 0
    try:
        for chunk, counts in _execute(job, seed, todo, jobs, client):
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


def _execute(job, seed: int, chunks: list[Chunk], jobs: int, client=None):
    """Yield (chunk, counts) as chunks finish."""
    return parallel_map(_indexed_chunk, [(job, seed, chunk) for chunk in chunks], jobs, client)


def _indexed_chunk(job, seed: int, chunk: Chunk):
    return chunk, run_chunk(job, seed, chunk)


@contextlib.contextmanager
def _sigint_held():
    """Hold back Ctrl-C (SIGINT) from the main thread while local workers start, then deliver it.

    Ctrl-C reaches every process of the terminal's group: a worker still importing its modules would print a
    traceback under the run's one-line message. Processes started while SIGINT is blocked inherit the block, and
    so do the threads started meanwhile (a worker they restart later is shielded too); a Ctrl-C pressed meanwhile
    is raised once the block ends, or at once if another thread (a progress bar's) takes it. The resource trackers
    are started first: starting one unblocks SIGINT (multiprocessing's ``SIG_UNBLOCK``)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    from multiprocessing import resource_tracker

    from joblib.externals.loky.backend import resource_tracker as loky_resource_tracker

    resource_tracker.ensure_running()
    loky_resource_tracker.ensure_running()
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def parallel_map(func, calls: list[tuple], jobs: int = 1, client=None):
    """Yield ``func(*args)`` for every ``args`` of ``calls`` as they finish, in any order: on the Dask
    ``client``'s cluster (joblib's Dask backend) when given, else in ``jobs`` local processes (joblib's
    loky backend; more workers than cores or calls would only cost) or, for one, in this process.
    ``func`` must be importable by the workers (a module-level function)."""
    if client is None:
        jobs = min(jobs, len(calls), os.cpu_count() or 1)
        if jobs <= 1:
            for args in calls:
                yield func(*args)
            return
    if not calls:
        return
    from joblib import Parallel, delayed, parallel_config

    tasks = (delayed(func)(*args) for args in calls)
    if client is None:
        with _sigint_held():  # the workers start here
            outputs = Parallel(n_jobs=jobs, return_as="generator_unordered")(tasks)
        yield from outputs
        return
    with parallel_config(backend="dask", client=client, wait_for_workers_timeout=DASK_TIMEOUT_S):
        try:
            yield from Parallel(n_jobs=-1, return_as="generator_unordered")(tasks)
        except TimeoutError:
            raise CardsimError(f"the Dask scheduler at {client.scheduler.address} has no workers "
                               f"(none joined within {DASK_TIMEOUT_S} s); "
                               "start some with 'dask worker ADDRESS'") from None


# --- Dask clusters ----------------------------------------------------------------------------
DASK_TIMEOUT_S = 5
"""Seconds to wait for a scheduler to answer (and for a first worker) before giving up."""
_ADDRESS = re.compile(r"^(tcp|tls|ws|wss|inproc)://[^\s/]+(:\d+)?/?$|^[A-Za-z0-9.\-\[\]:]+:\d+$")
_CLIENTS: dict[tuple, object] = {}


def dask_client(scheduler: str | None = None, workers: int | None = None):
    """A dask.distributed Client: connected to the scheduler at ``scheduler`` (``tcp://host:8786``),
    or to a local cluster of ``workers`` worker processes with one thread each, started on first
    use. Clients are kept for the life of the process (a report or sweep reuses one) and closed at exit.
    """
    if scheduler is not None and workers is not None:
        raise CardsimError("pass either --scheduler or --dask-workers, not both")
    key = (scheduler, workers)
    if key not in _CLIENTS:
        _CLIENTS[key] = _connect(scheduler) if scheduler is not None else _local_cluster(workers)
        if len(_CLIENTS) == 1:
            atexit.register(close_dask_clients)
    return _CLIENTS[key]


def _connect(address: str):
    from distributed import Client

    if not _ADDRESS.match(address.strip()):
        raise CardsimError(f"--scheduler takes a Dask scheduler address such as tcp://host:8786, got '{address}'")
    _quiet_dask_logs()
    try:
        return Client(address.strip(), timeout=DASK_TIMEOUT_S, set_as_default=False)
    except (OSError, TimeoutError, ValueError):
        raise CardsimError(f"cannot reach the Dask scheduler at {address} within {DASK_TIMEOUT_S} s; check the "
                           "address and that the scheduler runs, or use --dask-workers N for a local cluster") from None


def _local_cluster(workers: int):
    """A LocalCluster of ``workers`` processes with one thread each. Its workers start without dask's
    default MALLOC_TRIM_THRESHOLD_: with it glibc maps every large numpy buffer afresh, which cost 1.7x
    the CPU time per deal here."""
    import dask
    from distributed import Client, LocalCluster

    cores = os.cpu_count() or 1
    if not 1 <= workers <= cores:
        raise CardsimError(f"--dask-workers starts that many worker processes on this machine, which has {cores} "
                           f"cores: give 1 to {cores}, got {workers} (for more machines start a Dask cluster and "
                           "pass --scheduler)")
    _quiet_dask_logs()
    with dask.config.set({"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}):
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0")
    return Client(cluster, set_as_default=False)


def _quiet_dask_logs() -> None:
    """Only errors from dask.distributed on stderr: its routine start/stop messages are not ours."""
    import logging

    for name in ("distributed", "tornado"):
        logging.getLogger(name).setLevel(logging.ERROR)


def close_dask_clients() -> None:
    """Close every client (and local cluster) `dask_client` opened."""
    while _CLIENTS:
        _, client = _CLIENTS.popitem()
        cluster = client.cluster
        client.close()
        if cluster is not None:
            cluster.close()
