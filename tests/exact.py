"""Helpers of the tests that reproduce the specs' exact reference numbers: hypergeometric laws and the decimals the
specs print."""

from fractions import Fraction
from math import comb


def hypergeometric(population: int):
    """hyper(k, successes, draws, population=``population``) = P(k of ``successes`` special cards among ``draws``
    cards drawn from ``population``), an exact Fraction."""
    def hyper(k: int, successes: int, draws: int, population: int = population) -> Fraction:
        return Fraction(comb(successes, k) * comb(population - successes, draws - k), comb(population, draws))

    return hyper


def printed(p, places: int) -> str:
    """``p`` rounded exactly to ``places`` decimals, as a spec prints it ("0.039526")."""
    return f"{float(round(Fraction(p), places)):.{places}f}"


def is_printed(p, text: str) -> bool:
    """Does the spec's decimal ``text`` (".25015", "4.516") show ``p`` rounded to the places it is printed with?"""
    return float(printed(p, len(text.split(".")[1]))) == float(text)


def facts_by_key(table) -> dict:
    """A `stats GAME --exact` facts table (analysis.exact_facts) as {(quantity, k or None): row}."""
    rows = table.astype(object).where(table.notna(), None).itertuples()
    return {(row.quantity, None if row.k is None else int(row.k)): row for row in rows}


def distribution_totals(facts: dict) -> dict[str, Fraction]:
    """The sum of the exact shares of every distribution (rows with a k) of `facts_by_key`'s dict, by quantity."""
    totals: dict[str, Fraction] = {}
    for (quantity, k), row in facts.items():
        if k is not None:
            totals[quantity] = totals.get(quantity, Fraction(0)) + Fraction(row.fraction)
    return totals
