"""Errors raised for bad user input.

Every error a user can cause (a malformed card, an impossible constraint, an unknown option) is a
`CardsimError`. The command line prints its message as one line and exits with code 2.
"""

import difflib


class CardsimError(ValueError):
    """Bad input: the message says what is wrong and how to mend it."""


def meant(given: str, names) -> str | None:
    """The one of ``names`` that ``given`` misspells (any case, a letter or two off: difflib's ratio >= 0.8),
    else None; for an error's "did you mean ...?"."""
    lowered = {str(name).lower(): str(name) for name in names}
    close = difflib.get_close_matches(str(given).lower(), list(lowered), n=1, cutoff=0.8)
    return lowered[close[0]] if close else None


def did_you_mean(given: str, names) -> str:
    """" (did you mean 'scale'?)" when ``given`` misspells one of ``names`` (`meant`), else ""."""
    name = meant(given, names)
    return f" (did you mean '{name}'?)" if name else ""
