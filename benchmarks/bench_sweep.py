"""Sweep throughput (deals per second over a whole `cardsim sweep`) on 1 and 2 local worker processes
and on a local Dask cluster of 2 worker processes, as ratios to one worker (target >= 1.8 on 2).

    python benchmarks/bench_sweep.py      # prints the measure() dict as JSON

The scenario is Giltspiel figure odds of one hand over `CELLS` cells (seat x turn-up) of `DEALS`
deals each; with at least as many cells as workers the sweep runs whole cells in parallel. Every
configuration is timed warm: its workers (and their compiled kernels) are started by a small sweep
(`WARM_DEALS` per cell) into a throwaway folder, then the best of ``repeat`` sweeps into fresh folders
counts.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from analysis import sweep  # noqa: E402
from simcore import runner  # noqa: E402

DEALS = 8_000_000
CELLS = 8
WARM_DEALS = 20_000
SCENARIO = f"""
game = "giltspiel"
command = "odds"
seed = 1
n = {DEALS}
[fixed]
hand = "LA SA H10 E9 E8"
[grid]
seat = [0, 1, 2, 3]
turnup = ["L7", "HA"]
"""


def _rate(folder: Path, repeat: int, **options) -> float:
    """Deals per second of the best of ``repeat`` warm sweeps with ``options`` (sweep keywords)."""
    scenario, warm = folder / "bench.toml", folder / "warm.toml"
    scenario.write_text(SCENARIO)
    warm.write_text(SCENARIO.replace(f"n = {DEALS}", f"n = {WARM_DEALS}"))
    name = "-".join(f"{k}{v}" for k, v in options.items())
    with contextlib.redirect_stderr(io.StringIO()):  # the sweeps' per-cell log lines are no benchmark output
        sweep.sweep(warm, folder / f"{name}-warm", progress=False, **options)
        best = float("inf")
        for i in range(repeat):
            start = time.perf_counter()
            result = sweep.sweep(scenario, folder / f"{name}-{i}", progress=False, **options)
            best = min(best, time.perf_counter() - start)
            assert result.ran == CELLS
    return CELLS * DEALS / best


SPIN = "x = 0\nfor i in range(10_000_000): x += i"


def _machine_ratio() -> tuple[float, float]:
    """(loops per second of one process, of two processes at once) of a plain Python loop: what the
    machine gives two processes right now, the ceiling of every 2-worker ratio."""
    import subprocess

    def wall(copies: int) -> float:
        start = time.perf_counter()
        procs = [subprocess.Popen([sys.executable, "-c", SPIN]) for _ in range(copies)]
        for proc in procs:
            proc.wait()
        return time.perf_counter() - start

    return 1 / wall(1), 2 / wall(2)


def measure(repeat: int = 2) -> dict:
    """{"sweep.1-worker": {"per_s", "note"}, "sweep.2-workers" / "sweep.dask-2-workers": {"per_s",
    "reference_per_s" (one worker), "ratio"}, "machine.2-processes": the same ratio for a plain loop}."""
    machine_one, machine_two = _machine_ratio()
    with tempfile.TemporaryDirectory(prefix="cardsim-bench-sweep-") as tmp:
        folder = Path(tmp)
        one = _rate(folder, repeat, jobs=1)
        two = _rate(folder, repeat, jobs=2)
        try:
            dask = _rate(folder, repeat, dask_workers=2)
        finally:
            runner.close_dask_clients()
    note = (f"{CELLS} cells of {DEALS:,} Giltspiel odds deals, one worker process; load average "
            f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (other work on the machine lowers the ratios)")
    return {
        "sweep.1-worker": {"per_s": one, "note": note},
        "sweep.2-workers": {"per_s": two, "reference_per_s": one, "ratio": two / one},
        "sweep.dask-2-workers": {"per_s": dask, "reference_per_s": one, "ratio": dask / one},
        "machine.2-processes": {"per_s": machine_two, "reference_per_s": machine_one,
                                "ratio": machine_two / machine_one,
                                "note": "a plain Python loop in 2 processes vs 1: the machine's own ceiling right now"},
    }


if __name__ == "__main__":
    print(json.dumps(measure(), indent=2))
