"""simcore.errors: the misspelling check behind every "did you mean ...?" of an error message, and the message for an
unknown name."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcore.errors import CardsimError, meant, typo_distance, unknown_name

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


def test_unknown_name_says_what_is_unknown_the_guess_and_every_name():
    error = unknown_name("card policy", "gredy", {"greedy": 1, "random": 2})
    assert isinstance(error, CardsimError)
    assert str(error) == "unknown card policy 'gredy' (did you mean 'greedy'?); choose one of: greedy, random"
    assert str(unknown_name("policy", "x.txt", ["b0", "b1"], or_else="give a .json policy file")) == \
        "unknown policy 'x.txt'; choose one of: b0, b1 or give a .json policy file"


def test_the_api_names_the_name_meant():
    from simcore.betting import check_communication
    from simcore.games.giltspiel_pimc import communication_code
    from simcore.games.pinochle3_play import play_rule
    with pytest.raises(CardsimError, match=r"^unknown play rule 'olt' \(--rule, option play_rule\) \(did you mean "
                                           r"'old'\?\); choose one of: old, old_strict, new1945, new1945_alt$"):
        play_rule("olt")
    with pytest.raises(CardsimError, match=r"^unknown --communication 'partnr' \(did you mean 'partner'\?\); "
                                           "choose one of: "):
        communication_code("partnr")
    with pytest.raises(CardsimError, match=r"^unknown communication model 'partnr' \(did you mean 'partner'\?\)"):
        check_communication("partnr")
