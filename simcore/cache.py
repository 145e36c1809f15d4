"""cardsim's on-disk cache: run checkpoints (``runs/``) and computed tables (``tables/``).

The cache folder is ``$CARDSIM_CACHE`` or ``~/.cache/cardsim``. Every entry is tied to the simulation
code that made it (a hash of the ``simcore`` sources): an entry of other code is *stale*, is never
read, and is pruned when the same kind of entry is next written. ``cardsim cache`` lists the folder and
``cardsim cache --clear`` empties it.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import io
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcore.errors import CardsimError

RUN_FILE = "run.txt"
"""The file naming a checkpoint folder's question; its last field is ``code=<fingerprint>``."""


def cache_root() -> Path:
    base = os.environ.get("CARDSIM_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "cardsim")
    return Path(base)


def listed_root() -> Path:
    """`cache_root` for ``cardsim cache`` to list or empty; CardsimError when it names something that is not a
    folder (CARDSIM_CACHE set to a file), which would list as an empty cache. (The runs only warn that they cannot
    keep checkpoints there, and the tables are computed again.)"""
    root = cache_root()
    if root.exists() and not root.is_dir():
        raise CardsimError(f"the cache path {root} is not a folder; point CARDSIM_CACHE at a folder (unset, the "
                           "cache is ~/.cache/cardsim)")
    return root


def runs_root() -> Path:
    return cache_root() / "runs"


def tables_root() -> Path:
    return cache_root() / "tables"


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """Hash (16 hex digits) of the simcore sources: results of other code are never mixed with these."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).resolve().parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def write_atomically(path: Path, array: np.ndarray) -> None:
    """Save ``array`` as ``path`` (.npy) so that readers see the old file or the whole new one."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.save(handle, array)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _check_word(label: str, data: bytes) -> bytes:
    """8 bytes of blake2b over ``label`` and ``data``."""
    return hashlib.blake2b(label.encode() + b"\0" + data, digest_size=8).digest()


def write_checked(path: Path, array: np.ndarray, label: str) -> None:
    """Save ``array`` as ``path`` atomically, as one uint8 .npy array: a check word of ``label`` and the array's
    own .npy bytes, then those bytes (`read_checked`)."""
    body = io.BytesIO()
    np.save(body, array, allow_pickle=False)
    data = body.getvalue()
    write_atomically(path, np.frombuffer(_check_word(label, data) + data, dtype=np.uint8))


def read_checked(path: Path, label: str) -> np.ndarray | None:
    """The array `write_checked` saved as ``path`` under ``label``, or None when the path is not a file, or the
    file is damaged, of another format or saved under another label (another chunk, run or table)."""
    if not path.is_file():
        return None
    try:
        data = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if data.dtype != np.uint8 or data.ndim != 1 or data.size < 8:
        return None
    raw = data.tobytes()
    if raw[:8] != _check_word(label, raw[8:]):
        return None
    try:
        return np.load(io.BytesIO(raw[8:]), allow_pickle=False)
    except (ValueError, EOFError):
        return None


def cached_table(name: str, compute) -> np.ndarray:
    """``compute()`` kept as ``tables/<name>-<code fingerprint>.npy`` so that worker processes and later
    runs of the same code load it instead of computing it again; ``name`` must hold the rest of the
    table's definition (sizes, seed). The file is checked (`read_checked`): a missing, damaged or altered one, or
    another table's, is computed again. Tables of the same name made by other code are deleted."""
    folder = tables_root()
    path = folder / f"{name}-{code_fingerprint()}.npy"
    table = read_checked(path, path.name)
    if table is not None:
        return table
    table = compute()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_checked(path, table, path.name)
        for old in folder.glob(f"{name}-*.npy"):
            if old != path and _is_table_of(old, name):
                old.unlink(missing_ok=True)
    except OSError:
        pass  # no writable cache: computed again next time
    return table


def _is_table_of(path: Path, name: str) -> bool:
    """Whether ``path`` is ``<name>-<16 hex digits>.npy`` (not a table whose name merely starts alike)."""
    suffix = path.name[len(name) + 1:-len(".npy")]
    return len(suffix) == 16 and all(c in "0123456789abcdef" for c in suffix)


def run_code(folder: Path) -> str | None:
    """The code fingerprint a checkpoint folder was made by (None when unreadable)."""
    try:
        text = (folder / RUN_FILE).read_text()
    except OSError:
        return None
    return text.rsplit("code=", 1)[1].strip() if "code=" in text else None


def in_use(folder: Path) -> bool:
    """Whether a run holds the folder's lock right now."""
    if not (folder / RUN_FILE).exists():
        return False
    try:
        with open(folder / RUN_FILE, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return True
    return False


def prune_stale_runs(root: Path | None = None) -> int:
    """Delete the checkpoint folders under ``root`` (default ``runs/``) that other code made and no run
    uses; they can never be resumed. Returns how many were deleted."""
    root = runs_root() if root is None else Path(root)
    removed = 0
    for folder in _folders(root):
        code = run_code(folder)
        if code is not None and code != code_fingerprint() and not in_use(folder):
            shutil.rmtree(folder, ignore_errors=True)
            removed += 1
    return removed


def _folders(root: Path) -> list[Path]:
    try:
        return sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []


@dataclass(frozen=True)
class Usage:
    """What one kind of cache entry holds: entries, bytes, and how many are stale (other code)."""

    kind: str
    entries: int
    stale: int
    size_bytes: int


def _size(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def usage() -> list[Usage]:
    """The cache's checkpoint folders (interrupted runs) and tables."""
    current = code_fingerprint()
    runs = _folders(runs_root())
    try:
        tables = sorted(tables_root().glob("*.npy"))
    except OSError:
        tables = []
    return [
        Usage("runs", len(runs), sum(run_code(f) not in (None, current) for f in runs), sum(map(_size, runs))),
        Usage("tables", len(tables), sum(not t.stem.endswith(current) for t in tables), sum(map(_size, tables))),
    ]


def clear() -> int:
    """Delete every cache entry that no run is using; returns the bytes freed."""
    freed = 0
    for folder in _folders(runs_root()):
        if not in_use(folder):
            freed += _size(folder)
            shutil.rmtree(folder, ignore_errors=True)
    for table in tables_root().glob("*.npy") if tables_root().is_dir() else ():
        freed += _size(table)
        table.unlink(missing_ok=True)
    return freed
