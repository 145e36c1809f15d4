"""Card tokens, parsing across groups and masks for the Giltspiel pack (spec §1)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcore.cards import Deck
from simcore.errors import CardsimError
from simcore.games.giltspiel import DECK

import naive

SUITS = "ELHS"
RANKS = ("7", "8", "9", "10", "U", "O", "K", "A")


def spec_index(token: str) -> int:
    """card_index = 8*suit_index + rank_value, straight from the table of spec §1.3."""
    return 8 * SUITS.index(token[0]) + RANKS.index(token[1:])


def test_deck_has_32_unique_tokens_in_spec_order():
    # T01 and §1.3: 32 unique ids, HA = 23, E7 = 0, S10 = 27.
    assert DECK.n_cards == 32
    tokens = [DECK.token(c) for c in range(32)]
    assert len(set(tokens)) == 32
    assert tokens == [s + r for s in SUITS for r in RANKS]
    assert DECK.parse_face("HA") == 23
    assert DECK.parse_face("E7") == 0
    assert DECK.parse_face("S10") == 27
    assert [DECK.parse_face(t) for t in ("EA", "LA", "SA", "L7", "HU", "SO")] == [7, 15, 31, 8, 20, 29]


@pytest.mark.parametrize("card", range(32))
def test_token_round_trip(card):
    token = DECK.token(card)
    assert spec_index(token) == card
    assert DECK.parse_face(token) == card
    assert DECK.parse_face(token.lower()) == card
    assert DECK.parse_face(f"  {token.swapcase()} ") == card


@pytest.mark.parametrize("game, alias, canonical", [
    ("pinochle3", "HD", "HQ"), ("pinochle3", "DD", "DQ"), ("pinochle3", "hb", "HJ"), ("pinochle3", "SN", "S9"),
    ("bauernstoss", "sJ", "sB"), ("bauernstoss", "hQ", "hD"),
])
def test_french_packs_take_the_german_and_english_letters(game, alias, canonical):
    """README: French packs write the jack B or J and the queen D or Q (a suit letter first, so DD is the queen of
    diamonds); Pinochle also N for the nine."""
    from simcore.registry import get_game

    deck = get_game(game).deck
    assert deck.format_cards(deck.parse_cards(alias)) == canonical


@pytest.mark.parametrize("alias, canonical", [("ET", "E10"), ("lt", "L10"), ("hT", "H10"), ("St", "S10")])
def test_t_is_an_alias_for_ten(alias, canonical):
    assert DECK.parse_face(alias) == DECK.parse_face(canonical)
    assert DECK.token(DECK.parse_face(alias)) == canonical


@pytest.mark.parametrize("bad", ["X7", "E6", "EJ", "E1", "E", "7E", "", "HAA", "E11", "Weli", "10E"])
def test_unknown_tokens_raise_a_helpful_cardsim_error(bad):
    with pytest.raises(CardsimError) as err:
        DECK.parse_face(bad)
    message = str(err.value)
    assert repr(bad) in message or f"'{bad}'" in message
    # the message teaches the format: suits and ranks of this pack
    assert "E/L/H/S" in message
    assert "7/8/9/10/U/O/K/A" in message
    assert isinstance(err.value, ValueError)


def test_token_of_card_outside_pack_is_an_error():
    for card in (-1, 32, 64):
        with pytest.raises(CardsimError, match="outside"):
            DECK.token(card)


def test_parse_cards_separators_and_case():
    expected = [spec_index(t) for t in ("LA", "SA", "H10", "E9", "E8")]
    assert DECK.parse_cards("LA SA H10 E9 E8") == expected
    assert DECK.parse_cards("la,sa, ht ,e9,E8") == expected
    assert DECK.parse_cards("  LA   SA\tH10 E9 E8  ") == expected
    assert DECK.parse_cards("") == []


def test_duplicate_inside_one_group_is_an_error():
    with pytest.raises(CardsimError) as err:
        DECK.parse_cards("LA SA la", what="--hand")
    message = str(err.value)
    assert "LA" in message and "--hand" in message and "once" in message


def test_parse_groups_keeps_labels_and_order():
    groups = {"--hand": "EA LA H9 S8 E7", "--turnup": "hk", "--known 2": "ST LO"}
    parsed = DECK.parse_groups(groups)
    assert list(parsed) == list(groups)
    assert parsed["--hand"] == [7, 15, 18, 25, 0]
    assert parsed["--turnup"] == [22]
    assert parsed["--known 2"] == [27, 13]


def test_duplicate_across_groups_names_both_places():
    with pytest.raises(CardsimError) as err:
        DECK.parse_groups({"--hand": "EA LA H9 S8 E7", "--turnup": "h9"})
    message = str(err.value)
    assert "H9" in message
    assert "--hand" in message and "--turnup" in message
    # the alias spelling is recognised as the same card
    with pytest.raises(CardsimError, match="E10"):
        DECK.parse_groups({"a": "E10", "b": "eT"})


def test_unknown_token_inside_a_group_is_an_error():
    with pytest.raises(CardsimError, match="'HX'"):
        DECK.parse_groups({"--hand": "EA LA HX S8 E7"})


def test_duplicates_allowed_up_to_copies_in_a_doubled_pack():
    pinochle_like = Deck("double", suits=("A", "B"), ranks=("9", "K"), copies=2)
    assert pinochle_like.n_cards == 8
    parsed = pinochle_like.parse_groups({"x": "A9 A9", "y": "BK"})
    # repeated faces take successive copies: face 0 -> cards 0 and 1
    assert parsed == {"x": [0, 1], "y": [6]}
    with pytest.raises(CardsimError, match="2 times"):
        pinochle_like.parse_groups({"x": "A9 A9", "y": "a9"})


def test_format_cards():
    assert DECK.format_cards([23, 0, 27]) == "HA E7 S10"
    assert DECK.format_cards(np.array([7, 15], dtype=np.int64)) == "EA LA"
    assert DECK.format_cards(DECK.parse_cards("st ha e7")) == "S10 HA E7"


def test_card_table_matches_encoding():
    table = DECK.card_table()
    assert table.shape == (32, 3)
    for card in range(32):
        assert tuple(table[card]) == (card, card // 8, card % 8)


@given(st.lists(st.integers(0, 31), unique=True, max_size=32))
def test_mask_round_trip(cards):
    m = DECK.mask(cards)
    assert m == naive.mask(cards)
    assert DECK.cards_of(m) == sorted(cards)
    assert m & ~DECK.full_mask == 0
    assert bin(m).count("1") == len(cards)
    # tokens round-trip through text too
    assert DECK.parse_cards(DECK.format_cards(cards)) == list(cards)


def test_full_mask():
    assert DECK.full_mask == (1 << 32) - 1
    assert DECK.mask(range(32)) == DECK.full_mask


def test_subset_masks_are_every_k_subset_once():
    from itertools import combinations
    from simcore.cards import subset_masks
    cards = [0, 3, 5, 9, 40]
    for k in range(len(cards) + 1):
        masks = subset_masks(cards, k)
        assert sorted(int(m) for m in masks) == sorted(sum(1 << c for c in sub) for sub in combinations(cards, k))
    assert subset_masks(cards, 0).tolist() == [0]


@pytest.mark.parametrize("cards", [[99], [-1], [1.5], "LA", [True]])
def test_mask_refuses_what_is_no_card_of_the_pack(cards):
    """Before, [99] gave a mask past the pack, [1.5] the mask of card 1, [-1] 'negative shift count'."""
    from simcore.errors import CardsimError
    from simcore.games import giltspiel as g

    with pytest.raises(CardsimError, match="is not a card of the giltspiel pack \\(0..31\\)$"):
        g.DECK.mask(cards)


def test_mask_refuses_a_card_listed_twice():
    """Before, [1, 1] gave the mask of one card: the caller meant two. Pinochle's two copies of a face are two
    physical cards (two indices), so a hand may hold both; the same index twice is refused there too."""
    from simcore.errors import CardsimError
    from simcore.games import giltspiel as g
    from simcore.games import pinochle3 as p

    with pytest.raises(CardsimError, match=r"^card \S+ \(index 1\) is listed twice; each physical card can be in one "
                                           r"place only$"):
        g.DECK.mask([0, 1, 1])
    both_copies = p.DECK.parse_cards("SA SA", "hand")
    assert p.DECK.mask(both_copies).bit_count() == 2
    with pytest.raises(CardsimError, match="listed twice"):
        p.DECK.mask([both_copies[0]] * 2)


@pytest.mark.parametrize("mask", [-1, 1.5, 1 << 40, "3"])
def test_cards_of_refuses_what_is_no_mask_of_the_pack(mask):
    """Before, -1 gave all 32 cards, 1.5 card 0, 1 << 40 no card."""
    from simcore.errors import CardsimError
    from simcore.games import giltspiel as g

    with pytest.raises(CardsimError, match="is not a card mask of the giltspiel pack \\(32 cards\\)$"):
        g.DECK.cards_of(mask)


def test_token_refuses_a_card_that_is_no_whole_number():
    """Before, 1.5 raised TypeError (tuple indices must be integers)."""
    with pytest.raises(CardsimError, match="^card index 1.5 is outside the giltspiel pack"):
        DECK.token(1.5)
