"""Giltspiel worked examples (giltspiel.md §11) that the other test files did not cover in full: each drives the
betting engine (`simcore.betting.Deal` with `simcore.games.giltspiel_betting`) through the example and asserts
the spec's stated outcome.

Compass seats with South dealing, as in test_betting_giltspiel.py (whose helpers are reused): S = 0 (dealer),
W = 1 (forehand), N = 2, E = 3; N/S = team 0, E/W = team 1.
"""

import pytest

from simcore.betting import HOLD, SHOWDOWN, SP
from simcore.errors import CardsimError

from test_betting_giltspiel import EW, EXAMPLE2, NS, E, N, S, W, cards, make, play


@pytest.mark.parametrize("spiel_bet", [False, True], ids=["unbet", "bet-and-held"])
def test_T19_spiel_conceded_mid_trick_2(spiel_bet):
    """giltspiel.md T19 (line 832), with §6.2 (line 289) and §7.4 (line 360): in the middle of trick 2, after
    two cards, E/W say "das Spiel ist gut": N/S win the Spiel at its current value (1 unbet; 2 after N's bet
    held by E), the last two cards of trick 2 are not played (they stay in N's and E's hands), and the showdown
    starts with N/S showing first. Hands of §11.4 (trump E); S wins trick 1 and leads SK, W follows S10."""
    deal = make(EXAMPLE2, "E8")
    if spiel_bet:
        deal.bet(N, SP)
        deal.answer(E, SP, HOLD)
    value = deal.figures[SP].value
    assert value == (2 if spiel_bet else 1)
    play(deal, (W, "H8"), (N, "H9"), (E, "H10"), (S, "HA"))
    assert deal.leader == S and deal.won == [1, 0]
    play(deal, (S, "SK"), (W, "S10"))
    assert deal.to_move == N
    deal.concede(EW, SP)
    spiel = deal.figures[SP]
    assert spiel.winner == NS and spiel.points == value and spiel.decided_by == "concession"
    assert deal.phase == SHOWDOWN and deal.showing == NS  # N/S show first
    assert deal.won == [1, 0] and deal.trick == []  # trick 2 was never completed
    assert deal.in_hand[N] == set(cards("E9 L9 SA LK")) and deal.in_hand[E] == set(cards("E7 L7 HK S9"))
    assert deal.shown[N] == cards("H9") and deal.shown[E] == cards("H10")
    with pytest.raises(CardsimError):
        play(deal, (N, "SA"))  # the last two cards of trick 2 are not played
    with pytest.raises(CardsimError):
        deal.reveal(W, cards("EU LU"))  # E/W do not show first
    deal.reveal(N, cards("L9"))  # N/S's turn: N shows L9 beside the H9 he played
