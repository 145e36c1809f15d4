"""Charts as pure functions: an estimate DataFrame in, a matplotlib `Figure` out.

The frames are the ones `analysis.stats.estimate_frame` builds: one row per estimate with ``p``, ``lo``
and ``hi`` (the 95% interval). The functions know no game: titles and axis wording come as arguments.
They build a `Figure` directly on the Agg canvas, never through ``pyplot``, so there is no global figure
state to leak between calls; save with ``fig.savefig(path)``.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

ESTIMATE_COLUMNS = ("p", "lo", "hi")
OUTCOME_COLOURS = {"win": "#2e7d32", "stand": "#f9a825", "lose": "#c62828", "void": "#757575"}
_FALLBACK_COLOURS = ("#1565c0", "#6a1b9a", "#00838f", "#ef6c00")


def _require(frame: pd.DataFrame, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the frame lacks the column(s) {', '.join(missing)}; "
                         f"it has {', '.join(map(str, frame.columns))}")
    if frame.empty:
        raise ValueError("the frame has no rows to draw")


def _new_figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _titles(ax, title: str, note: str | None) -> None:
    """The title on the left, an optional small note (sample size, interval kind) just below it."""
    ax.set_title(title, loc="left", fontsize=11, pad=16 if note else 6)
    if note:
        ax.annotate(note, xy=(0, 1), xycoords="axes fraction", xytext=(0, 4), textcoords="offset points",
                    ha="left", va="bottom", fontsize=7.5, color="#555555")


def _errors(p: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(2, n) distances below and above p, never negative (float noise in lo/hi)."""
    return np.vstack([np.clip(p - lo, 0, None), np.clip(hi - p, 0, None)])


def distribution_chart(frame: pd.DataFrame, title: str, *, label_column: str = "label",
                       category: str = "class", xlabel: str = "probability",
                       note: str | None = None, colour: str = "#1565c0") -> Figure:
    """Horizontal bars of P(category) with 95% interval error bars, one bar per row, first row on top.

    frame: rows with ``label_column``, p, lo, hi (e.g. the distribution of the table's best figure,
    strongest class first). Each bar is annotated with its p.
    """
    _require(frame, (label_column, *ESTIMATE_COLUMNS))
    labels = [str(v) for v in frame[label_column]]
    p, lo, hi = (frame[c].to_numpy(dtype=float) for c in ESTIMATE_COLUMNS)
    y = np.arange(len(labels))
    fig = _new_figure(7.5, 1.2 + 0.27 * len(labels))
    ax = fig.add_subplot()
    ax.barh(y, p, color=colour, alpha=0.85, height=0.7,
            xerr=_errors(p, lo, hi), error_kw=dict(ecolor="black", elinewidth=1, capsize=2.5))
    for yi, pi, hii in zip(y, p, hi):
        digits = 4 if pi >= 0.01 else 5 if pi >= 0.001 else 6
        ax.text(hii + 0.005 * max(hi.max(), 1e-9), yi, f"{pi:.{digits}f}", va="center", fontsize=7.5)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, max(hi.max(), 1e-9) * 1.15)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(category)
    ax.grid(axis="x", alpha=0.3)
    _titles(ax, title, note)
    return fig


def conditional_chart(frame: pd.DataFrame, title: str, *, class_column: str = "own_class",
                      outcome_column: str = "outcome", outcomes: Sequence[str] = ("win", "stand", "lose"),
                      category: str = "own best class", xlabel: str = "probability",
                      note: str | None = None, legend: str = "P({})") -> Figure:
    """P(outcome | class) for each class (one row of the chart) and outcome (one marker series), with
    95% interval error bars. Classes keep the frame's order, first on top; ``outcomes`` picks and orders
    the series (an outcome absent from the frame is an error); ``legend`` labels a series from its outcome.
    """
    _require(frame, (class_column, outcome_column, *ESTIMATE_COLUMNS))
    absent = [o for o in outcomes if o not in set(frame[outcome_column])]
    if absent:
        raise ValueError(f"outcome(s) {', '.join(absent)} not in the frame's '{outcome_column}' column")
    classes = list(dict.fromkeys(frame[class_column]))
    rows = {c: i for i, c in enumerate(classes)}
    fig = _new_figure(7.5, 1.5 + 0.3 * len(classes))
    ax = fig.add_subplot()
    step = 0.22
    offsets = (np.arange(len(outcomes)) - (len(outcomes) - 1) / 2) * step
    for k, outcome in enumerate(outcomes):
        part = frame[frame[outcome_column] == outcome]
        y = np.array([rows[c] for c in part[class_column]], dtype=float) + offsets[k]
        p, lo, hi = (part[c].to_numpy(dtype=float) for c in ESTIMATE_COLUMNS)
        colour = OUTCOME_COLOURS.get(str(outcome), _FALLBACK_COLOURS[k % len(_FALLBACK_COLOURS)])
        ax.errorbar(p, y, xerr=_errors(p, lo, hi), fmt="o", markersize=4, color=colour, ecolor=colour,
                    elinewidth=1.2, capsize=2.5, label=legend.format(outcome))
    ax.set_yticks(np.arange(len(classes)), [str(c) for c in classes])
    ax.set_ylim(len(classes) - 0.5, -0.5)
    ax.set_xlim(-0.02, 1.02)
    for boundary in np.arange(len(classes) - 1) + 0.5:
        ax.axhline(boundary, color="#dddddd", linewidth=0.6, zorder=0)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(category)
    ax.grid(axis="x", alpha=0.3)
    fig.legend(loc="outside lower center", ncol=len(outcomes), frameon=False, fontsize=8.5)
    _titles(ax, title, note)
    return fig
