"""Errors raised for bad user input.

Every error a user can cause (a malformed card, an impossible constraint, an unknown option) is a
`CardsimError`. The command line prints its message as one line and exits with code 2.
"""


class CardsimError(ValueError):
    """Bad input: the message says what is wrong and how to mend it."""


def typo_distance(a: str, b: str) -> int:
    """Edits that turn ``a`` into ``b``: a letter added, dropped or changed, or two neighbours swapped (the
    optimal-string-alignment distance)."""
    previous, row = None, list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            current[j] = min(row[j] + 1, current[j - 1] + 1, row[j - 1] + (x != y))
            if previous is not None and i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                current[j] = min(current[j], previous[j - 2] + 1)
        previous, row = row, current
    return row[-1]


def meant(given: str, names) -> str | None:
    """The one of ``names`` that ``given`` misspells, else None, for an error's "did you mean ...?": compared in
    any case and without surrounding spaces, a name one edit away (`typo_distance`; none for names under 3
    letters, two for names of 8 or more) and nearer than every other name."""
    text = str(given).strip().lower()
    by_distance = sorted((typo_distance(text, str(name).lower()), str(name)) for name in names)
    if not by_distance:
        return None
    best, name = by_distance[0]
    tied = len(by_distance) > 1 and by_distance[1][0] == best
    allowed = 0 if len(name) < 3 else 1 if len(name) < 8 else 2
    return name if best <= allowed and not tied else None


def did_you_mean(given: str, names) -> str:
    """" (did you mean 'scale'?)" when ``given`` misspells one of ``names`` (`meant`), else ""."""
    name = meant(given, names)
    return f" (did you mean '{name}'?)" if name else ""


def unknown_name(what: str, given, names, or_else: str = "") -> CardsimError:
    """The error for ``given`` that names no ``what`` (e.g. "card policy"), to raise: "unknown card policy 'x' (did
    you mean ...?); choose one of: a, b" and `` or {or_else}`` when there is another way ("give a .json file")."""
    names = [str(name) for name in names]
    tail = f" or {or_else}" if or_else else ""
    hint = did_you_mean(given, names)
    return CardsimError(f"unknown {what} '{given}'{hint}; choose one of: {', '.join(names)}{tail}")


def is_whole_int(value) -> bool:
    """Whether ``value`` is an int or a numpy integer, not a bool: the test behind every count, seat or code an API
    function takes as a whole number."""
    import numpy as np

    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
