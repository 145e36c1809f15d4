"""Every registered deck: tokens round-trip, aliases and case are accepted, bad input is refused."""

import pytest

from simcore.errors import CardsimError
from simcore.registry import games

DECKS = {name: game.deck for name, game in sorted(games().items())}


@pytest.mark.parametrize("name", DECKS)
def test_every_token_round_trips(name):
    deck = DECKS[name]
    text = " ".join(t for t in deck.face_tokens for _ in range(deck.copies))
    cards = deck.parse_cards(text)
    assert sorted(cards) == list(range(deck.n_cards))
    assert deck.format_cards(cards) == text
    assert all(deck.token(c) == deck.face_tokens[deck.face_of(c)] for c in cards)


@pytest.mark.parametrize("name", DECKS)
def test_case_insensitive(name):
    deck = DECKS[name]
    for face, tok in enumerate(deck.face_tokens):
        assert deck.parse_face(tok.lower()) == face
        assert deck.parse_face(tok.upper()) == face
        assert deck.parse_face(f"  {tok.swapcase()} ") == face


@pytest.mark.parametrize("name", DECKS)
def test_aliases(name):
    deck = DECKS[name]
    for alias, rank in deck.rank_aliases.items():
        for suit in deck.suits:
            assert deck.parse_face(suit + alias) == deck.parse_face(suit + rank)
            assert deck.parse_face((suit + alias).lower()) == deck.parse_face(suit + rank)


@pytest.mark.parametrize("name", DECKS)
def test_grid_order_and_size(name):
    deck = DECKS[name]
    assert deck.n_cards == len(deck.face_tokens) * deck.copies <= 64
    assert deck.full_mask == (1 << deck.n_cards) - 1
    table = deck.card_table()
    for card in range(deck.n_cards):
        face, suit, rank = table[card]
        grid = deck.suits[suit] + deck.ranks[rank] if suit >= 0 else deck.extras[face - deck.n_suits * deck.n_ranks]
        assert deck.face_tokens[face] == grid


@pytest.mark.parametrize("name", DECKS)
@pytest.mark.parametrize("bad", ["", "X", "Z9", "H", "HH", "H1", "HKK"])
def test_unknown_tokens_are_refused(name, bad):
    with pytest.raises(CardsimError):
        DECKS[name].parse_face(bad)


@pytest.mark.parametrize("name", DECKS)
def test_a_face_given_too_often_is_refused(name):
    deck = DECKS[name]
    tok = deck.face_tokens[0]
    with pytest.raises(CardsimError, match=tok):
        deck.parse_groups({"--hand": " ".join([tok] * deck.copies), "--seen": tok})


def test_named_aliases():
    b, d, p = DECKS["bauernstoss"], DECKS["dreeg"], DECKS["pinochle3"]
    assert b.parse_cards("cJ hQ s10") == b.parse_cards("cB hD sT")
    assert d.parse_cards("ET") == d.parse_cards("E10")
    assert p.parse_cards("ST HN S10 H9") == p.parse_cards("ST H9 ST H9")


def test_duplicates_take_successive_copies():
    deck = DECKS["pinochle3"]
    parsed = deck.parse_groups({"a": "SQ", "b": "sq"})
    face = deck.parse_face("SQ")
    assert parsed == {"a": [face * 2], "b": [face * 2 + 1]}
