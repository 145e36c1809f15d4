"""Timing helpers every benchmark shares: warm calls, best of several timings."""

from __future__ import annotations

import time


def best_seconds(func, repeat: int) -> float:
    """Seconds of the fastest of ``repeat`` calls of ``func`` (warm it first yourself if it compiles)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def best_rate(func, items: int, repeat: int = 5) -> float:
    """Items per second of the fastest of ``repeat`` calls (the first call warms up)."""
    func()
    return items / best_seconds(func, repeat)


def whole_games(job, games: int, label: str, deals_at: int = 2) -> dict:
    """{"per_s", "note"} of a match job playing ``games`` whole games in one block on one core, warm
    (a small block first loads its tables and compiles its kernels); the job's counts hold the deals
    played at index ``deals_at``. ``label`` says who played."""
    job.run_block(1, 0, 3)
    start = time.perf_counter()
    counts = job.run_block(1, 1, games)
    seconds = time.perf_counter() - start
    per_s, deals = games / seconds, int(counts[deals_at])
    return {"per_s": per_s, "note": f"{label}, {games} games = {deals} deals ({deals / seconds:,.0f} deals/s); "
                                    f"a 20,000-game match needs about {20000 / per_s / 60:.1f} min on one core"}
