"""simcore.errors: the misspelling check behind every "did you mean ...?" of an error message."""

from hypothesis import given
from hypothesis import strategies as st

from simcore.errors import meant, typo_distance

WORDS = st.text(alphabet="abcde_", max_size=8)


def levenshtein_with_swaps(a: str, b: str) -> int:
    """The same distance by plain recursion over the first letters (small words only)."""
    if not a or not b:
        return len(a) + len(b)
    options = [levenshtein_with_swaps(a[1:], b) + 1, levenshtein_with_swaps(a, b[1:]) + 1,
               levenshtein_with_swaps(a[1:], b[1:]) + (a[0] != b[0])]
    if len(a) > 1 and len(b) > 1 and a[0] == b[1] and a[1] == b[0]:
        options.append(levenshtein_with_swaps(a[2:], b[2:]) + 1)
    return min(options)


@given(WORDS, WORDS)
def test_typo_distance_matches_the_recursive_definition(a, b):
    assert typo_distance(a, b) == levenshtein_with_swaps(a, b) == typo_distance(b, a)
    assert (typo_distance(a, b) == 0) == (a == b)


def test_typo_distance_examples():
    assert typo_distance("sed", "seed") == 1  # a letter dropped
    assert typo_distance("reprot", "report") == 1  # two neighbours swapped
    assert typo_distance("gredy", "greedy") == 1
    assert typo_distance("exact", "seat") == 3


def test_meant_names_only_a_close_and_unrivalled_name():
    assert meant("OLD", ["old", "old_strict"]) == "old"  # case only
    assert meant(" bld ", ["bold", "cautious"]) == "bold"  # spaces stripped
    assert meant("new1954", ["new1945", "new1945_alt"]) == "new1945"
    assert meant("comunicaton", ["communication"]) == "communication"  # two edits in a long name
    assert meant("seet", ["seed", "seat"]) is None  # a tie: no guess
    assert meant("exact", ["seat", "seed"]) is None  # too far
    assert meant("m", ["n"]) is None  # names under 3 letters: case only
    assert meant(3, [3, 4]) == "3" and meant("x", []) is None
