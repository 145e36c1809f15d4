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
