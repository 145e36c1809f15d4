"""`cardsim lasttrick perlaggen` (spec §10 Q12, §8.5, T-19): the fifth trick with one card each, counted exactly over
every ordered draw of the later players' cards; the counts against a plain reading of the trick's order (§2.5)."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings, strategies as st

from analysis.cli import main
from analysis.games import perlaggen_last_trick as LT
from simcore.games import perlaggen as P
from simcore.games import perlaggen_play as PP

SEEN = "LA E10 SK LK EA EK SA S10 H10 E9 L10 S9 HA EO"


def plain_winner(plays, trump: int, style: str) -> int:
    """Slot of the trick's winner as §2.5 reads: a trump beats the led suit, which beats the rest; then the higher
    card; between a Perlagg and a card of the same identity, or two Perlaggen, the earlier in the style's list of
    Perlaggen (a natural card has none)."""
    order = P.perlaggen(style, P.DECK.suits[trump])
    led = PP.id_suit(plays[0][1])

    def key(play):
        card, identity = play
        suit = PP.id_suit(identity)
        tier = 2 if suit == trump else 1 if suit == led else 0
        return tier, PP.id_strength(identity), len(order) - order.index(card) if card in order else 0

    return max(range(len(plays)), key=lambda i: key(plays[i]))


def plain_counts(card, trick, trump, pool, style):
    perlaggen = set(P.perlaggen(style, P.DECK.suits[trump]))

    def play(c):
        return (c, trump * 8 + 7) if c in perlaggen else (c, c)

    counts = [0, 0, 0]
    for later in itertools.permutations(pool, 3 - len(trick)):
        slot = plain_winner(list(trick) + [play(card)] + [play(c) for c in later], trump, style)
        counts[0] += slot == len(trick)
        counts[1] += (slot - len(trick)) % 2 == 0
        counts[2] += 1
    return tuple(counts)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["innsbruck", "eichel"]), st.data())
def test_counts_equal_a_plain_reading_of_the_trick(style, data):
    trump = P.DECK.suits.index(data.draw(st.sampled_from(P.trump_suits(style))))
    cards = data.draw(st.permutations(range(P.DECK.n_cards)))
    size = data.draw(st.integers(0, 3))
    card, trick_cards, pool = cards[0], cards[1:1 + size], cards[1 + size:1 + size + data.draw(st.integers(3, 7))]
    perlaggen = set(P.perlaggen(style, P.DECK.suits[trump]))
    trick = [(c, data.draw(st.integers(0, P.DECK.n_cards - 1)) if c in perlaggen else c) for c in trick_cards]
    assert PP.last_trick_counts(card, trick, trump, pool, style) == plain_counts(card, trick, trump, pool, style)


def test_worked_example():
    """Trump H, seat 1 led L9, you (seat 2) hold H8, 14 cards seen: 17 unseen, among them the seven Perlaggen (HK S6
    S7 E7 H7 HU HO) and H9, which beat H8. Your card holds if neither later card is one of those 8: 9/17 * 8/16 =
    72/272. Your team (your partner plays last) also wins when the opponent's card is one of the 9 others (9 * 16),
    or H9 and your partner's a Perlagg (7), or a Perlagg and your partner's a Perlagg of higher precedence (0+1+...+6
    = 21): 172/272."""
    frame = LT.last_trick("H8", "H", 2, "L9", SEEN).set_index("quantity")
    assert (frame.loc["card_wins", "successes"], frame.loc["team_wins", "successes"]) == (72, 172)
    assert frame.loc["card_wins", "n"] == 272 and frame.loc["card_wins", "fraction"] == "9/34"
    assert frame.attrs["leader"] == 1 and frame.attrs["pool"] == 17


@pytest.mark.parametrize("card, allowed", [("E8", False), ("L7", True), ("H8", True), ("S7", True)])
def test_t19_who_may_bet_the_spiel(card, allowed):
    """Spec T-19: tricks 2-2, trump H, L9 led to trick 5: E8 may not bet, L7 (led suit, cannot win) may, H8 (trump)
    may, S7 (a Perlagg) may."""
    assert (LT.last_trick(card, "H", 2, "L9", None).attrs["may_bet"] is not None) == allowed


def test_a_perlagg_takes_the_trump_ace_and_the_leader_may_always_bet(capsys):
    frame = LT.last_trick("HK", "H", 1, None, None).set_index("quantity")  # the Maxi, the first Perlagg: it wins
    assert frame.loc["card_wins", "p"] == 1 and frame.attrs["later"] == 3
    assert main(["lasttrick", "perlaggen", "--card", "L8", "--trump", "H", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["may_bet"] and out["bet_reason"] == "your last card is of the led suit" and out["later"] == 3
    assert 0 < out["card_wins"]["p"] < out["team_wins"]["p"] < 1


@pytest.mark.parametrize("args, message", [
    (["--card", "H8", "--trump", "H", "--trick", "S7"], "give the card it was baptised as"),
    (["--card", "H8", "--trump", "H", "--trick", "L9=LA"], "only a Perlagg is baptised"),
    (["--card", "H8", "--trump", "H", "--trick", "L9 L8 L7 LU"], "at most 3"),
    (["--card", "H8", "--trump", "H", "--seen", "H8"], "each card can be in one place only"),
    (["--card", "H8", "--trump", "H", "--trick", "L9", "--seen", "L9"], "name a card twice"),
    (["--card", "H8 H9", "--trump", "H"], "one last card"),
    (["--card", "H8", "--trump", "X"], "trump suit"),
    (["--card", "S6", "--trump", "H", "--style", "schlanders"], "without it"),
    (["--card", "H8", "--trump", "H", "--seen", " ".join(P.DECK.token(c) for c in range(31)
                                                         if P.DECK.token(c) != "H8")], "unseen cards"),
])
def test_bad_input_is_one_line(args, message, capsys):
    assert main(["lasttrick", "perlaggen", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_perlagg_baptised_in_the_showing_keeps_its_identity():
    """B3: --card S7=H10 plays as the ten of trumps (it loses to a later natural trump above it, and to any Perlagg
    the later players baptise as the trump Ace); without the identity it takes the trump Ace and wins outright when
    it is above every later Perlagg in precedence."""
    seen = "LA E10 SK LK EA EK SA S10 HA EO"
    fixed = LT.last_trick("S7=H10", "H", 2, "L9", seen).set_index("quantity")
    pool = [c for c in range(P.DECK.n_cards) if P.DECK.token(c) not in set(seen.split()) | {"S7", "L9"}]
    expected = plain_counts_with(P.DECK.parse_face("S7"), P.DECK.parse_face("H10"), pool)
    assert (fixed.loc["card_wins", "successes"], fixed.loc["team_wins", "successes"]) == expected[:2]
    free = LT.last_trick("S7", "H", 2, "L9", seen).set_index("quantity")
    assert free.loc["card_wins", "p"] > fixed.loc["card_wins", "p"]
    assert fixed.attrs["card"] == "S7=H10"


def plain_counts_with(card: int, identity: int, pool) -> tuple[int, int, int]:
    """`plain_counts` with your play fixed as (card, identity), trump H, L9 led."""
    perlaggen = set(P.perlaggen("innsbruck", "H"))
    led = (P.DECK.parse_face("L9"), P.DECK.parse_face("L9"))
    counts = [0, 0, 0]
    for later in itertools.permutations(pool, 2):
        plays = [led, (card, identity)] + [(c, 2 * 8 + 7) if c in perlaggen else (c, c) for c in later]
        slot = plain_winner(plays, 2, "innsbruck")
        counts[0] += slot == 1
        counts[1] += slot in (1, 3)
        counts[2] += 1
    return tuple(counts)
