"""Perlaggen worked examples (perlaggen.md §12) that the other test files did not cover in full: each drives the
betting engine (`simcore.betting.Deal` with `simcore.games.perlaggen_betting`) through the example and asserts
the spec's stated outcome.

Compass seats with South dealing, as in test_betting_perlaggen.py (whose helpers are reused): S = 0 (dealer),
W = 1 (leads), N = 2, E = 3; N-S = team 0, E-W = team 1. Hands are filled in by the test author where the
spec names only figures.
"""

import pytest

from simcore.betting import AUS, DONE, GUT, HOLD, NOBODY, PLAY, RAISE, SHOWDOWN, SP, STAND, VOID, G, H
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games.perlaggen_betting import new_deal, rules_from_options

from test_betting_perlaggen import EW, NS, T17, E, N, S, W, bg, face, faces, make, play


def play_out(deal):
    """Play the tricks with the engine's own G1 policy (`PerlaggenCards.choose_card`) until the Spiel is decided."""
    while deal.phase == PLAY:
        deal.play(deal.to_move, *deal.game.choose_card(deal, deal.to_move))


def assert_three_tricks_win_the_game(deal):
    """The cards were played; the team that took 3 tricks won the Spiel and with it the game, and the Gleich and
    Hanger scored for nobody."""
    play_out(deal)
    assert deal.phase == DONE
    team = deal.figures[SP].winner
    assert team in (NS, EW) and deal.won[team] == 3
    assert deal.figures[G].winner == NOBODY and deal.figures[H].winner == NOBODY
    assert deal.result.game_winner == team
    assert deal.result.points[team] == 1 and deal.result.points[1 - team] == 0


# --- T-05 (second half): "das Spiel ist gut" after two cards of a trick ----------------------------------
T05 = {W: "E8 E9 H8 H9 S7", N: "EA EK LA LK H10", E: "S8 S9 SA E10 E7", S: "L8 L9 S10 SK HA"}
"""T = L (Perlaggen HK S6 S7 E7 L7 LU LO): N-S take tricks 1 and 2 with EA and EK; N leads LA to trick 3."""


def test_t05_spiel_conceded_after_two_cards_trick_belongs_to_nobody():
    """perlaggen.md T-05 (line 1123), second half, with A-36 (line 913): N-S already have 2 tricks; in the next
    trick, after two cards (N's LA and E's Perlagg E7 baptised as L10), E-W say "das Spiel ist gut": play stops
    at once, N-S win the Spiel, the unfinished trick belongs to nobody, its cards stay on view with their
    baptisms and the unplayed cards stay in hand."""
    deal = make(T05, "L")
    play(deal, (W, "E8"), (N, "EA"), (E, "E10"), (S, "HA"))
    play(deal, (N, "EK"), (E, "S8"), (S, "S10"), (W, "E9"))
    assert deal.won == [2, 0] and deal.leader == N and deal.phase == PLAY
    play(deal, (N, "LA"))
    deal.play(E, face("E7"), face("L10"))
    deal.concede(EW, SP)
    assert deal.phase == SHOWDOWN and deal.showing == NS
    assert deal.figures[SP].winner == NS and deal.figures[SP].points == 1
    assert deal.figures[SP].decided_by == "concession"
    assert deal.won == [2, 0] and deal.trick == []  # the third trick is nobody's
    assert face("LA") in deal.shown[N] and face("E7") in deal.shown[E]  # its cards stay on view ...
    assert deal.baptised[E] == {face("E7"): face("L10")}  # ... and keep their baptisms
    assert deal.in_hand[S] == set(faces("L8 L9 SK")) and deal.in_hand[W] == set(faces("H8 H9 S7"))
    assert len(deal.in_hand[N]) == len(deal.in_hand[E]) == 2
    with pytest.raises(CardsimError):
        play(deal, (S, "L8"))  # play has stopped: S and W never play to the trick


# --- T-18: Spiel aus accepted ---------------------------------------------------------------------------
def spiel_aus_accepted(hands):
    """T-18's ladder on the Gleich: X = E-W bets 2, Y = N-S ... X bets Spiel aus; Y (N) accepts."""
    deal = make(hands, "H")
    deal.bet(W, G)
    for seat in (N, W, N, W, N, W):
        deal.answer(seat, G, RAISE)
    assert deal.figures[G].value == 7 and deal.figures[G].pending[:2] == (EW, AUS)
    deal.answer(N, G, HOLD)
    assert deal.figures[G].value == AUS and deal.figures[G].pending is None
    return deal


def test_t18_spiel_aus_accepted_x_wins_the_gleich_and_the_game():
    """perlaggen.md T-18 (line 1198): after X's (E-W's) Spiel aus on the Gleich, Y (N-S) accepts ⇒ whoever wins
    the Gleich wins the game. E-W concede the Spiel and N-S win the unbet Hanger, but W's three Aces win the
    Gleich in the showing: E-W win the game at 0-0 of 18."""
    deal = spiel_aus_accepted(T17)
    deal.concede(EW, SP)
    deal.reveal(N, faces("H10 E10"))
    deal.reveal(S, faces("E9 E8"))
    deal.end_turn(NS)
    deal.reveal(W, faces("EA LA SA"))
    deal.concede(EW, H)
    deal.end_turn(EW)
    deal.concede(NS, G)
    assert deal.phase == DONE
    assert deal.figures[G].winner == EW and deal.figures[H].winner == NS and deal.figures[SP].winner == NS
    assert deal.result.game_winner == EW


T18_Y = {S: "E9 S9 L10 SO EO", W: "E8 L8 H9 SK LA", N: "EA SA H10 E10 LK", E: "EK HA L9 S8 S10"}
"""T = H, no Perlagg dealt: X (W) bets with two 8s, Y holds two Aces (N) and two 9s, two Obers (S)."""


def test_t18_spiel_aus_accepted_y_wins_the_gleich_and_the_game():
    """perlaggen.md T-18 (line 1198), the other winner: Y (N-S) accepted X's Spiel aus and wins the Gleich with
    N's two Aces, so N-S win the game, although E-W won the Spiel (by N-S's concession, scored first)."""
    deal = spiel_aus_accepted(T18_Y)
    deal.concede(NS, SP)
    assert deal.showing == EW
    deal.reveal(W, faces("E8 L8"))
    deal.end_turn(EW)  # nobody holds a Hanger: a pass ...
    deal.reveal(N, faces("EA SA"))
    deal.end_turn(NS)  # ... and a second pass: the Hanger is void
    deal.concede(EW, G)
    assert deal.phase == DONE
    assert deal.figures[G].winner == NS and deal.figures[SP].winner == EW
    assert deal.result.game_winner == NS


T18_STAND = {S: "E9 S9 L10 SO EO", W: "EA LA H9 SK L8", N: "SA HA H10 E10 LK", E: "EK E8 L9 S8 S10"}
"""T = H, no Perlagg dealt: W's two Aces (EA LA) against N's two Aces (SA HA); nothing higher anywhere."""


def test_t18_spiel_aus_accepted_gleich_stands_A35():
    """perlaggen.md T-18 (line 1198) "(if it stands, A-35)", A-35 (line 912): the accepted Spiel aus Gleich
    stands (two Aces against two Aces): nobody wins the game through it, the deal scores normally and the
    standing Gleich scores nothing."""
    deal = spiel_aus_accepted(T18_STAND)
    deal.concede(EW, SP)
    deal.reveal(N, faces("SA HA"))
    deal.end_turn(NS)  # nobody holds a Hanger: a pass ...
    deal.reveal(W, faces("EA LA"))
    deal.end_turn(EW)  # ... and a second pass (the Hanger is void); E-W, the Spiel losers, leave the Gleich tied
    assert deal.figures[H].winner == VOID and not deal.frozen[G]
    deal.end_turn(NS)  # N-S, the Spiel winners, leave it tied: frozen
    deal.end_turn(EW)  # E-W cannot improve it: it stands
    assert deal.figures[G].winner == STAND
    assert deal.phase == DONE
    assert deal.result.game_winner is None
    assert deal.result.points == [1, 0]  # the Spiel only


# --- T-21 (bullets 3 and 4): both gestrichen at the start, the cards are played ------------------------------
def test_t21_tied_four_runs_play_three_tricks_win_the_game():
    """perlaggen.md T-21 (line 1209), bullet 3: 17-17 of 18, T = S; opponents hold HU-H10-H9-H8 and
    LU-L10-L9-L8, nobody has a 4-card Gleich ⇒ tie ⇒ the cards are played; the team taking 3 tricks wins the
    game."""
    deal = bg("HU H10 H9 H8 SA", "LU L10 L9 L8 EK", a_partner="E8 E9 LA S10 LO", b_partner="EA H7 S9 HA LK")
    assert deal.phase == PLAY and deal.result is None
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (G, H, SP))
    assert_three_tricks_win_the_game(deal)


def test_t21_no_three_card_figure_play_three_tricks_win_the_game():
    """perlaggen.md T-21 (line 1209), bullet 4: 17-17 of 18, T = S; nobody has a figure of >= 3 cards (pairs and
    2-card runs only) ⇒ the cards are played; 3 tricks win the game."""
    deal = bg("EA LA H9 H8 L7", "EK LK HA E10 S9", a_partner="E8 E9 SA L10 HO", b_partner="H10 L9 S10 LO EU")
    assert all(max(deal.full_codes(s)) < 48 for s in range(4))  # no figure of 3 cards (codes 16 * size + ...)
    assert deal.phase == PLAY and deal.result is None
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (G, H, SP))
    assert_three_tricks_win_the_game(deal)


# --- T-22 (second bullet): becoming gestrichen when the Gleich is conceded -------------------------------------
T22 = {S: "EK EO H8 L9 S8", W: "SA EA LA H9 L8", N: "HA HO LK E10 H10", E: "SK S10 E9 H7 L10"}
"""T = S (Perlaggen HK S6 S7 E7 SU SO, none dealt). A = N-S (17), B = E-W (16). W bets the Gleich (three Aces);
S holds the only Hanger, the 2-card EK-EO; E-W hold the trumps SA SK S10 and take tricks 1-3."""
T22_TRICKS = (((W, "SA"), (N, "HA"), (E, "S10"), (S, "S8")),
              ((W, "EA"), (N, "E10"), (E, "E9"), (S, "EO")),
              ((W, "LA"), (N, "LK"), (E, "L10"), (S, "L9")))


def t22_gleich_conceded(hands, tricks=T22_TRICKS):
    """B (W) bets the Gleich, A (S) concedes ⇒ 17-17 and no more bets; E-W take tricks 1-3 (the Spiel)."""
    deal = make(hands, "S", scores=(17, 16))
    deal.bet(W, G)
    deal.answer(S, G, GUT)
    assert deal.figures[G].winner == EW and deal.secured == [0, 1]
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (H, SP))
    assert deal.figures[H].open  # no >= 3-card comparison: the Gleich is decided
    for trick in tricks:
        play(deal, *trick)
    assert deal.won == [0, 3] and deal.figures[SP].winner == EW and deal.showing == EW
    return deal


def test_t22_gleich_conceded_best_two_card_hanger_wins_the_game():
    """perlaggen.md T-22 (line 1215), second bullet: target 18, A 17, B 16; B bets the Gleich, A concedes ⇒
    17-17; the best Hanger, even of 2 cards (S's EK-EO), wins the game for A, although B took 3 tricks."""
    deal = t22_gleich_conceded(T22)
    deal.end_turn(EW)  # E-W hold no Hanger: a pass
    deal.reveal(S, faces("EK"))  # EK beside the EO he played: EK-EO
    deal.end_turn(NS)
    deal.concede(EW, H)
    assert deal.phase == DONE and deal.figures[H].winner == NS
    assert deal.result.game_winner == NS


def test_t22_gleich_conceded_no_hanger_three_tricks_win_the_game():
    """perlaggen.md T-22 (line 1215), second bullet: ... if there is no Hanger, the team taking 3 tricks (B) wins
    the game."""
    tricks = (T22_TRICKS[0], ((W, "EA"), (N, "E10"), (E, "E9"), (S, "EU")), T22_TRICKS[2])
    deal = t22_gleich_conceded({**T22, S: "EK EU H8 L9 S8"}, tricks)
    deal.end_turn(EW)
    deal.end_turn(NS)
    assert deal.phase == DONE and deal.figures[H].winner not in (NS, EW)
    assert deal.result.game_winner == EW


def test_t22_gleich_conceded_hanger_stands_three_tricks_win_the_game():
    """perlaggen.md T-22 (line 1215), second bullet: ... if the Hanger stands (S's EK-EO against E's LK-LO), the
    team taking 3 tricks (B) wins the game."""
    hands = {**T22, N: "HA HO L7 E10 H10", E: "SK S10 E9 LK LO"}
    tricks = (*T22_TRICKS[:2], ((W, "LA"), (N, "L7"), (E, "LO"), (S, "L9")))
    deal = t22_gleich_conceded(hands, tricks)
    deal.reveal(E, faces("LK"))  # LK beside the LO he played
    deal.end_turn(EW)
    deal.reveal(S, faces("EK"))
    deal.end_turn(NS)  # tied by the Spiel losers: no freeze
    deal.end_turn(EW)  # tied by the Spiel winners: frozen
    deal.end_turn(NS)  # N-S cannot improve it: it stands
    assert deal.phase == DONE and deal.figures[H].winner == STAND
    assert deal.result.game_winner == EW


# --- T-23: Eichelperlaggen, both gestrichen at 14-14 of 15 ----------------------------------------------------
def eichel_gestrichen(by_seat):
    """14-14 of 15, Eichel style, T = L (Perlaggen HK S6 L7 LU LO E7 EU EO: none dealt)."""
    hands = [faces(by_seat[s]) for s in range(4)]
    return new_deal(hands, P.DECK.suits.index("L"), dealer=S, scores=(14, 14), rules=rules_from_options(target=15),
                    style="eichel")


def test_t23_eichel_four_card_gleich_against_four_card_hanger_play():
    """perlaggen.md T-23 (line 1219): Eichel, both gestrichen 14-14 of 15: a 4-card Gleich (S: four 9s) against a
    4-card Hanger (W: SK-SO-SU-S10), no 5-card figure ⇒ the cards are played; 3 tricks win the game."""
    deal = eichel_gestrichen({S: "E9 L9 H9 S9 HA", W: "SK SO SU S10 EA", N: "E8 L8 H8 E10 LA", E: "S8 H10 HO LK EK"})
    assert deal.phase == PLAY and deal.result is None
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (G, H, SP))
    assert_three_tricks_win_the_game(deal)


def test_t23_eichel_five_card_hanger_beats_four_card_gleich():
    """perlaggen.md T-23 (line 1219): a 5-card Hanger (W: SA-SK-SO-SU-S10) against a 4-card Gleich (S: four 9s)
    ⇒ the Hanger's team (E-W) wins the game."""
    deal = eichel_gestrichen({S: "E9 L9 H9 S9 HA", W: "SA SK SO SU S10", N: "E8 L8 H8 E10 LA", E: "S8 H10 HO LK EK"})
    assert deal.phase == DONE
    assert deal.result.game_winner == EW


def test_t23_eichel_nobody_four_cards_play():
    """perlaggen.md T-23 (line 1219): nobody has a figure of >= 4 cards (three 9s and three 8s for N-S, a 3-card
    Hanger for E-W, which would decide in Innsbruck) ⇒ the cards are played; 3 tricks win the game."""
    deal = eichel_gestrichen({S: "E9 L9 H9 SA HA", W: "SK SO SU EA S8", N: "E8 L8 H8 E10 LA", E: "S9 H10 HO LK EK"})
    assert deal.phase == PLAY and deal.result is None
    assert_three_tricks_win_the_game(deal)
