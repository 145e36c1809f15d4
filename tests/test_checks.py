"""simcore.checks: the shared argument checks of the Python entry points."""
import math

import numpy as np
import pytest

from simcore import checks
from simcore.errors import CardsimError


@pytest.mark.parametrize("value, low, high, expected", [
    (3, None, None, 3), (np.int8(3), 0, 3, 3), (2.0, 0, 3, 2), (1e6, 1, None, 1_000_000), (np.float32(4), 4, 4, 4),
])
def test_whole_accepts_whole_numbers(value, low, high, expected):
    result = checks.whole(value, "seat", low, high)
    assert result == expected and type(result) is int


@pytest.mark.parametrize("value, low, high, message", [
    (1.5, 0, 3, "seat must be a whole number from 0 to 3, got 1.5"),
    (True, 0, 3, "seat must be a whole number from 0 to 3, got True"),
    ("1", None, None, "seat must be a whole number, got '1'"),
    (math.nan, 1, None, "seat must be a whole number of at least 1, got nan"),
    (math.inf, None, 5, "seat must be a whole number of at most 5, got inf"),
    (None, 0, 3, "seat must be a whole number from 0 to 3, got None"),
    (4, 0, 3, "seat must be from 0 to 3, got 4"),
    (0, 1, None, "seat must be at least 1, got 0"),
    (-1.0, None, -2, "seat must be at most -2, got -1"),
])
def test_whole_refuses_the_rest(value, low, high, message):
    with pytest.raises(CardsimError, match=f"^{message}"):
        checks.whole(value, "seat", low, high)


@pytest.mark.parametrize("value", [0, 0.25, 1, np.float64(0.5)])
def test_probability_accepts_zero_to_one(value):
    assert checks.probability(value, "p") == float(value)


@pytest.mark.parametrize("value, below_one", [(-0.1, False), (1.5, False), (math.nan, False), ("0.5", False),
                                              (True, False), (1.0, True)])
def test_probability_refuses_the_rest(value, below_one):
    with pytest.raises(CardsimError, match="^p must be a number from 0"):
        checks.probability(value, "p", below_one)


def test_uniforms():
    assert checks.uniforms([0, 0.5, 0.999], "u", 3).dtype == np.float64
    for values, message in [([0.1], "u must be 2 or more random numbers in \\[0, 1\\), got 1"),
                            ([[0.1, 0.2]], "got shape \\(1, 2\\)"),
                            (["a", "b"], "u must be random numbers in \\[0, 1\\), got array\\(\\['a', 'b'\\]"),
                            ([0.1, 1.0], "u must hold numbers in \\[0, 1\\) only, got 1.0"),
                            ([math.nan, 0.1], "only, got nan")]:
        with pytest.raises(CardsimError, match=message):
            checks.uniforms(values, "u", 2)


def test_flag_and_one_of():
    assert checks.flag(np.bool_(True), "first_hand") is True
    for value in ("no", 1, None):
        with pytest.raises(CardsimError, match="^first_hand must be True or False, got"):
            checks.flag(value, "first_hand")
    assert checks.one_of("greedy", "policy", ("greedy", "random")) == "greedy"
    with pytest.raises(CardsimError, match="unknown policy 'gredy' \\(did you mean 'greedy'\\?\\)"):
        checks.one_of("gredy", "policy", ("greedy", "random"))
    with pytest.raises(CardsimError, match="unknown policy '1'"):
        checks.one_of(1, "policy", ("greedy", "random"))


def test_options_dict():
    assert checks.options_dict(None) == {}
    assert checks.options_dict({"a": 1}) == {"a": 1}
    assert checks.options_dict([("a", 1), ["b", 2]]) == {"a": 1, "b": 2}
    for bad in (["a=1"], "a=1"):
        with pytest.raises(CardsimError, match="options must be a dict .* NAME=VALUE strings are the command line"):
            checks.options_dict(bad)
    for bad in (5, [("a", 1, 2)]):
        with pytest.raises(CardsimError, match="options must be a dict such as .* pairs, got"):
            checks.options_dict(bad)


def test_card_masks():
    masks = checks.card_masks([[1, 2], [4, 8]], "hands", 32)
    assert masks.dtype == np.uint64 and masks.tolist() == [[1, 2], [4, 8]]
    assert checks.card_masks([2 ** 63, 1], "hands", 64).tolist() == [2 ** 63, 1]
    for bad, message in [([-1, 2], "integer masks of the 32 cards"), ([1 << 32], "bits 0-31"),
                         ([1.0, 2.0], "integer masks"), (["1"], "integer masks"),
                         ([[1, 2], [3, 1]], "a card is held by two hands \\(row 1\\)"), ([3, 1], "held by two hands;")]:
        with pytest.raises(CardsimError, match=message):
            checks.card_masks(bad, "hands", 32)
    assert checks.card_masks([3, 1], "cards", 32, disjoint=False).tolist() == [3, 1]


def test_column():
    assert checks.column(2, 3, "trump", 4).tolist() == [2, 2, 2]
    assert checks.column([1.0], 2, "trump", 4).tolist() == [1, 1]
    assert checks.column(np.array([0, 3, 1], dtype=np.uint8), 3, "trump", 4).dtype == np.int64
    assert checks.column([-7, 300], 2, "targets", None).tolist() == [-7, 300]
    for values, message in [(1.7, "trump must be a whole number or 3 of them, got array\\(1.7\\)"),
                            (True, "got array\\(True\\)"), ([1, 2], "or 3 of them"), (4, "trump must be 0-3, got 4"),
                            ([0, -1, 2], "trump must be 0-3, got -1"),
                            (np.zeros((3, 1)), "got array\\(\\[\\[0.\\], \\[0.\\]")]:
        with pytest.raises(CardsimError, match=message):
            checks.column(values, 3, "trump", 4)


def test_hand_masks_of_many_deals():
    hands = checks.hand_masks([[1, 2, 4], [8, 16, 32]], "hands", 48, 3, range(16), rows=True)
    assert hands.dtype == np.uint64 and hands.flags.c_contiguous and hands.shape == (2, 3)
    empty = checks.hand_masks(np.zeros((0, 3), dtype=np.uint64), "hands", 48, 3, range(16), rows=True, empty=True)
    assert empty.shape == (0, 3)
    for bad, message in [([1, 2, 4], r"hands must be an \(n, 3\) array of card masks, .* n >= 1; got shape \(3,\)"),
                         ([[1, 2], [4]], r"got shape \('ragged',\)"), (np.zeros((0, 3), dtype=int), "n >= 1"),
                         ([[1, 6, 8]], r"hands: every seat must hold 0 to 15 cards, all as many, got \[1, 2, 1\] "
                                       r"\(deal 0\)"), ([[1, 1, 8]], "a card is held by two hands")]:
        with pytest.raises(CardsimError, match=message):
            checks.hand_masks(bad, "hands", 48, 3, range(16), rows=True)
    with pytest.raises(CardsimError, match="every seat must hold 2 cards, got"):
        checks.hand_masks([[1, 6, 24]], "hands", 48, 3, (2,), rows=True)
    assert checks.hand_masks([[1, 6, 24]], "hands", 48, 3, range(3), rows=True, equal=False).shape == (1, 3)
    assert checks.hand_masks([[1, 1, 8]], "hands", 48, 3, range(3), rows=True, equal=False, disjoint=False).shape \
        == (1, 3)


def test_messages_stay_on_one_line():
    assert checks.shown(np.zeros((2, 2))) == "array([[0., 0.], [0., 0.]])"
    assert len(checks.shown(list(range(1000)))) == 80 and checks.shown(list(range(1000))).endswith("...")
    with pytest.raises(CardsimError) as error:
        checks.card_masks(np.full((50, 4), -1), "hands", 32)
    assert "\n" not in str(error.value) and len(str(error.value)) < 160
    from types import MappingProxyType
    assert checks.options_dict(MappingProxyType({"a": 1})) == {"a": 1}
    with pytest.raises(CardsimError, match=r"got 5$"):
        checks.options_dict(5)


def test_texts():
    assert checks.texts(None, "given", "x") == ()
    assert checks.texts("a >= b", "given", "x") == ("a >= b",)
    assert checks.texts(["a", "b"], "given", "x") == ("a", "b")
    for values in (3, {"a": 1}, ["a", None]):
        with pytest.raises(CardsimError, match="^given must be a text or a list of texts such as \\['x'\\], got"):
            checks.texts(values, "given", "x")


def test_card_text():
    assert checks.card_text("LA SA", "hand", "LA SA") == "LA SA"
    assert checks.card_text(["LA", "SA"], "hand", "LA SA") == "LA SA"
    for value in (None, [1, 2], 5):
        with pytest.raises(CardsimError, match="^hand must be cards as a text such as 'LA SA' \\(or a list of card "
                                               "names\\), got"):
            checks.card_text(value, "hand", "LA SA")


def test_wholes():
    assert checks.wholes([1, 2.0, np.int8(3)], "scores", 3, 0, 10) == (1, 2, 3)
    for values in ((1, 2), (1, 2, 11), "123", (1, 2, 1.5), None):
        with pytest.raises(CardsimError, match="^scores must be 3 whole numbers from 0 to 10 \\(why\\), got"):
            checks.wholes(values, "scores", 3, 0, 10, " (why)")


def test_hand_masks():
    hands = [0b11, 0b1100, 0b110000, 0b11000000]
    assert checks.hand_masks(hands, "hands", 8, 4, range(2, 3)).dtype == np.uint64
    assert checks.hand_masks([hands], "hands", 8, 4, range(1, 3), rows=True).shape == (1, 4)
    assert checks.hand_masks([1, 0b110, 0, 0], "hands", 8, 4, range(3), equal=False).shape == (4,)
    for value, kw, message in [
        (hands, {"rows": True}, "^hands must be an \\(n, 4\\) array of card masks, one row of seats 0-3 per deal, "
                                "n >= 1; got shape \\(4,\\)$"),
        (hands[:3], {}, "^hands must be 4 card masks, one per seat 0-3; got shape \\(3,\\)$"),
        (hands, {"sizes": range(3, 4)}, "^hands: every seat must hold 3 cards, got \\[2, 2, 2, 2\\]$"),
        ([1, 0b110, 0, 0], {"sizes": range(3)}, "^hands: every seat must hold 0 to 2 cards, all as many, got"),
        ([hands, [3] * 4], {"rows": True}, "^hands: a card is held by two hands \\(row 1\\)"),
        ([1 << 9, 0, 0, 0], {}, "^hands must be integer masks of the 8 cards"),
    ]:
        with pytest.raises(CardsimError, match=message):
            checks.hand_masks(value, "hands", 8, 4, **({"sizes": range(2, 3)} | kw))


def test_suit_indices():
    assert checks.suit_indices([1, 3], "trumps", 2, [1, 3]).tolist() == [1, 3]
    assert checks.suit_indices([1.0, 3.0], "trumps", 2, [1, 3]).tolist() == [1, 3]  # whole floats, as in `column`
    for values in ([1, 2], [1], [1.5, 3.0], "13"):
        with pytest.raises(CardsimError, match="^trumps must be 2 suit indices, one per deal, of 1, 3 \\(why\\), got"):
            checks.suit_indices(values, "trumps", 2, [1, 3], " (why)")


def test_uniform_rows():
    assert checks.uniform_rows([[0, 0.5]], "u", 1, 2).shape == (1, 2)
    for values, message in [([0, 0.5], "^u must be \\(1, 2\\) random numbers in \\[0, 1\\), one row per deal, got "
                                        "shape \\(2,\\)$"),
                            ([[0, 1.5]], "^u must hold numbers in \\[0, 1\\) only, got 1.5$")]:
        with pytest.raises(CardsimError, match=message):
            checks.uniform_rows(values, "u", 1, 2)


def test_trick_positions():
    hands, tricks, counts = checks.trick_positions([0b1000, 0b0100], [[5, -1, -1], [1, 7, 9]], [1, 2], 48, 3, 15)
    assert hands.tolist() == [8, 4] and tricks.tolist() == [[5, 0, 0], [1, 7, 0]] and counts.tolist() == [1, 2]
    for args, message in [(([0], [[0, 0, 0]], [0]), r"mover's 1 to 15 cards"), (([8], [[0, 0]], [0]), r"\(1, 3\)"),
                          (([8], [[3, 0, 0]], [1]), "also in the hand"), (([8], [[5, 5, 0]], [2]), "on the trick twice"),
                          (([8], [[60, 0, 0]], [1]), "cards 0-47"), (([8], [[0, 0, 0]], [3]), "must be 0-2, got 3")]:
        with pytest.raises(CardsimError, match=message):
            checks.trick_positions(*args, 48, 3, 15)


def test_card_masks_returns_a_copy_that_kernels_may_change():
    """The solvers play cards out of the masks the checks return; a caller's uint64 array must stay as it was."""
    hands = np.array([0b11, 0b1100, 0b110000, 0b11000000], dtype=np.uint64)
    masks = checks.card_masks(hands, "hands", 32)
    masks[0] = 0
    assert hands[0] == 0b11


def test_optimal_line_leaves_the_callers_hands_alone():
    from analysis.solving import parse_deal
    from simcore.games import giltspiel as g, giltspiel_play as play

    hands = parse_deal("E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7", g.DECK, 5, 4)
    before = hands.copy()
    assert len(play.optimal_line(hands, g.DECK.suits.index("H"))) > 0
    assert (hands == before).all()
