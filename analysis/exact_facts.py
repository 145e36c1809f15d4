"""Tables of exact facts for the ``stats GAME --exact`` commands that print a spec's "exact combinatorial facts":
a row per fact (section, quantity, k for a distribution's value, the exact fraction as text, p) and its text."""

from __future__ import annotations

import math
from fractions import Fraction

import pandas as pd


def fact_row(section: str, quantity: str, value, k: int | None = None) -> dict:
    """One fact: an exact Fraction (its share p and its fraction text) or a (float, text) pair."""
    p, text = (float(value), str(value)) if isinstance(value, Fraction) else value
    return {"section": section, "quantity": quantity, "k": k, "fraction": text, "p": p}


def distribution_rows(section: str, quantity: str, dist: dict[int, Fraction], mean: bool = True) -> list[dict]:
    """Rows P(quantity = k) of an exact distribution, then its mean."""
    rows = [fact_row(section, quantity, p, k) for k, p in dist.items()]
    if mean:
        rows.append(fact_row(section, f"{quantity}: mean", sum((k * p for k, p in dist.items()), Fraction(0))))
    return rows


def point_rows(section: str, label: str, counts, at_least=(), at_most=()) -> list[dict]:
    """Card points held, from the number of hands per points (``counts``, index = points): mean, SD, P(points >= t)
    for ``at_least`` (from the first below 1 to the first 0), P(points <= t) for ``at_most``, and the most."""
    total = sum(counts)
    mean = Fraction(sum(p * c for p, c in enumerate(counts)), total)
    variance = Fraction(sum(p * p * c for p, c in enumerate(counts)), total) - mean * mean
    rows = [fact_row(section, f"{label}: mean", mean),
            fact_row(section, f"{label}: SD", (math.sqrt(variance), f"sqrt({variance})"))]
    tails = [(t, Fraction(sum(counts[t:]), total)) for t in at_least]
    rows += [fact_row(section, f"{label}: P(points >= {t})", p) for i, (t, p) in enumerate(tails)
             if p < 1 and (i == 0 or tails[i - 1][1] > 0)]
    rows += [fact_row(section, f"{label}: P(points <= {t})", Fraction(sum(counts[:t + 1]), total)) for t in at_most]
    rows.append(fact_row(section, f"{label}: most", (max(p for p, c in enumerate(counts) if c), "")))
    return rows


def facts_frame(rows: list[dict], **attrs) -> pd.DataFrame:
    """The rows as a table (k a nullable integer), with ``attrs``."""
    frame = pd.DataFrame(rows)
    frame["k"] = frame["k"].astype("Int64")
    frame.attrs.update(attrs)
    return frame


def fact_lines(facts: pd.DataFrame, width: int = 76) -> list[str]:
    """The text of a facts table: a heading per section, then one line per fact (label, share, fraction)."""
    lines: list[str] = []
    for section, rows in facts.groupby("section", sort=False):
        lines += ["", section]
        for row in rows.itertuples():
            label = row.quantity if pd.isna(row.k) else f"{row.quantity} = {row.k}"
            value = f"{row.p:g}" if row.fraction == "" else share_text(row.p)
            lines.append(f"  {label:<{width}}{value:>12}   {row.fraction}".rstrip())
    return lines


def share_text(p: float) -> str:
    """Six decimals, or four significant digits below 0.001."""
    return f"{p:.6f}" if p >= 0.001 or p == 0 else f"{p:.3e}"
