"""Errors raised for bad user input.

Every error a user can cause (a malformed card, an impossible constraint, an unknown option) is a
`CardsimError`. The command line prints its message as one line and exits with code 2.
"""


class CardsimError(ValueError):
    """Bad input: the message says what is wrong and how to mend it."""
