"""Giltspiel betting, showing and scoring: the spec's worked examples (giltspiel.md §11.3-§11.8) drive
the state machine of simcore.betting and check the score sheet.

Compass seats of the examples with South dealing: S = 0 (dealer), W = 1 (forehand), N = 2, E = 3;
N/S = team 0, E/W = team 1.
"""

import pytest

from simcore.betting import AUS, GUT, HOLD, NOBODY, RAISE, SP, STAND, VOID, G, H, DONE, SHOWDOWN
from simcore.errors import CardsimError
from simcore.games.giltspiel import DECK
from simcore.games.giltspiel_betting import new_deal, rules_from_options

S, W, N, E = 0, 1, 2, 3
NS, EW = 0, 1


def cards(text):
    return DECK.parse_cards(text)


def make(hands_by_seat: dict, turnup: str, scores=(0, 0), target=11, **options):
    """A deal with South dealing; hands_by_seat: compass seat -> cards text."""
    hands = [cards(hands_by_seat[s]) for s in range(4)]
    trump = cards(turnup)[0] // 8
    return new_deal(hands, trump, dealer=S, scores=scores, rules=rules_from_options(target=target, **options))


def play(deal, *moves):
    """Play (seat, card text) moves in order."""
    for seat, card in moves:
        deal.play(seat, cards(card)[0])


def state(deal, figure):
    fig = deal.figures[figure]
    return fig.value, fig.bet_right


# --- §11.3 Example 1: bet alternation ------------------------------------------------------------
EXAMPLE1 = {W: "HU H10 LU E7 L9", N: "E9 LK LO H8 S10", E: "HK HO SK L7 S8", S: "EA LA SU SO H9"}


def test_example1_alternation_11_3():
    """§11.3 [S]: S bets G, E holds; S bets Sp, E holds; W bets G, S holds."""
    deal = make(EXAMPLE1, "S7")
    play(deal, (W, "E7"))
    deal.bet(S, G)
    with pytest.raises(CardsimError, match="suspended"):
        play(deal, (N, "E9"))
    deal.answer(E, G, HOLD)
    assert [state(deal, f) for f in (G, H, SP)] == [(2, EW), (1, None), (1, None)]
    play(deal, (N, "E9"), (E, "L7"))
    deal.bet(S, SP)
    deal.answer(E, SP, HOLD)
    play(deal, (S, "EA"))
    assert deal.leader == S
    assert [state(deal, f) for f in (G, H, SP)] == [(2, EW), (1, None), (2, EW)]
    for seat in (N, S):
        assert "B2" in deal.bet_error(seat, G) or "B5" in deal.bet_error(seat, G)
        assert "B2" in deal.bet_error(seat, SP)
    assert all(deal.can_bet(seat, H) for seat in (N, E, S, W))
    play(deal, (S, "SO"))
    deal.bet(W, G)
    deal.answer(S, G, HOLD)
    play(deal, (W, "L9"), (N, "S10"), (E, "SK"))
    assert deal.leader == E
    assert [state(deal, f) for f in (G, H, SP)] == [(3, NS), (1, None), (2, EW)]
    assert deal.can_bet(S, G) and deal.can_bet(E, SP) and deal.can_bet(W, SP)
    assert "B2" in deal.bet_error(W, G) and "B2" in deal.bet_error(N, SP)
    assert all(deal.can_bet(seat, H) for seat in (N, E, S, W))
    assert deal.figures[G].duty == {S, E, W}


# --- §11.4 Examples 2 + 3: the showing -----------------------------------------------------------
EXAMPLE2 = {W: "EU LU EA S10 H8", N: "E9 L9 H9 SA LK", E: "E7 L7 HK S9 H10", S: "SK SO HA E10 L8"}


def example2_until_turn4(hands=EXAMPLE2):
    deal = make(hands, "E8")
    deal.bet(N, G)
    deal.answer(E, G, HOLD)
    play(deal, (W, "H8"), (N, "H9"), (E, "H10"), (S, "HA"))
    deal.concede(EW, SP)
    assert deal.phase == SHOWDOWN and deal.showing == NS and deal.figures[SP].winner == NS
    deal.bet(S, H)
    assert "B2" in deal.bet_error(N, G)
    with pytest.raises(CardsimError, match="§7.8"):
        deal.answer(E, H, GUT)  # N/S must first deal with the Gleich (C-9)
    deal.reveal(N, cards("L9"))
    deal.answer(W, H, GUT)
    assert deal.figures[H].winner == NS and deal.figures[H].points == 1
    deal.end_turn(NS)
    deal.reveal(W, cards("EU LU"))
    deal.end_turn(EW)
    deal.reveal(N, cards("E9"))
    deal.end_turn(NS)
    deal.bet(W, G)
    assert deal.figures[G].pending[:2] == (EW, 3)
    return deal


def test_example2_branch_a_gut_11_4():
    deal = example2_until_turn4()
    deal.answer(S, G, GUT)
    assert deal.phase == DONE
    assert deal.result.points == [2, 2]
    assert deal.figures[G].points == 2 and deal.figures[G].winner == EW


def test_example2_branch_b_hold_then_concede_11_4():
    deal = example2_until_turn4()
    deal.answer(N, G, HOLD)
    with pytest.raises(CardsimError, match="behind"):
        deal.end_turn(EW)
    deal.concede(EW, G)
    assert deal.result.points == [5, 0]
    # §11.4 step 8: category 1 = Sp, H (N/S, by time of concession); category 2 = G
    assert [(c, f) for c, f, _, _ in deal.result.awards] == [(1, SP), (1, H), (2, G)]
    assert all(c > 0 for c, *_ in deal.result.awards)  # verification: no penalties (step 7)
    assert deal.figures[G].duty == {N, E, W} and deal.figures[H].duty == {S}


def test_example2_branch_b_prime_third_unter_11_4():
    hands = {**EXAMPLE2, W: "EU LU HU S10 H8"}
    deal = example2_until_turn4(hands)
    deal.answer(N, G, HOLD)
    deal.reveal(W, cards("HU"))
    deal.end_turn(EW)
    deal.concede(NS, G)
    assert deal.result.points == [2, 3]


# --- §11.5 Example 4: a tie and the freeze ---------------------------------------------------------
EXAMPLE4 = {N: "EK SK H8 S8 L7", E: "L8 E8 E7 S9 HA", W: "HO EO EU L9 S10", S: "LO LU L10 H7 S7"}


def example4_until_turn4(hands=EXAMPLE4):
    deal = make(hands, "LA")
    deal.concede(NS, SP)
    assert deal.showing == EW
    deal.reveal(E, cards("L8 E8"))
    deal.reveal(E, cards("E7"))
    deal.end_turn(EW)
    deal.reveal(N, cards("H8 S8"))
    deal.reveal(S, cards("LO LU"))
    deal.end_turn(NS)
    assert not deal.frozen[G]  # the Spiel losers left the Gleich tied: no freeze
    deal.reveal(W, cards("HO EO"))
    deal.reveal(W, cards("EU"))
    deal.end_turn(EW)
    assert deal.frozen[H] and not deal.frozen[G]
    deal.reveal(N, cards("EK SK"))
    deal.reveal(S, cards("L10"))
    deal.end_turn(NS)
    return deal


def test_example4_freeze_11_5():
    deal = example4_until_turn4()
    deal.concede(EW, H)
    deal.concede(EW, G)
    assert deal.result.points == [2, 1]


def test_example4b_third_ober_11_5():
    deal = example4_until_turn4({**EXAMPLE4, W: "HO EO EU L9 SO"})
    deal.reveal(W, cards("SO"))
    deal.concede(EW, H)
    deal.end_turn(EW)
    deal.concede(NS, G)
    assert deal.result.points == [1, 2]


# --- §11.6 the freeze decides ---------------------------------------------------------------------
EXAMPLE6 = {N: "L10 L9 L8 HA SK", E: "E9 E8 E7 HK SA", S: "H9 S10 E10 LA HO", W: "EA SU H7 LO S8"}


def example6_until_turn3():
    deal = make(EXAMPLE6, "LK")
    deal.concede(EW, SP)
    deal.reveal(S, cards("E10 S10"))
    deal.reveal(N, cards("L9 L8"))
    deal.end_turn(NS)
    deal.concede(EW, G)
    deal.reveal(E, cards("E9 E8"))
    deal.end_turn(EW)
    return deal


def test_freeze_decides_11_6():
    deal = example6_until_turn3()
    deal.end_turn(NS)  # pass on the tied Hanger -> frozen
    assert deal.frozen[H]
    deal.reveal(E, cards("E7"))
    deal.end_turn(EW)
    with pytest.raises(CardsimError, match="freeze"):
        deal.reveal(N, cards("L10"))
    assert cards("L10")[0] in deal.in_hand[N]  # the refused reveal changed nothing
    deal.concede(NS, H)
    assert deal.result.points == [2, 1]


def test_freeze_control_11_6():
    deal = example6_until_turn3()
    deal.reveal(N, cards("L10"))
    deal.end_turn(NS)
    deal.reveal(E, cards("E7"))
    with pytest.raises(CardsimError, match="behind"):
        deal.end_turn(EW)
    deal.concede(EW, H)
    assert deal.result.points == [3, 0]


# --- §11.7 scoring and the end game ---------------------------------------------------------------
T21 = {S: "E7 E8 L10 HO SK", W: "EA LA H9 S7 L8", N: "H7 L7 LU SO S9", E: "EK LK H10 S8 E9"}


def test_scoring_example_T21():
    """§7.10 / T21: E/W bet G, N/S hold; E/W bet Sp, N/S gut; N/S win the unbet H; E/W win G."""
    deal = make(T21, "HA")
    deal.bet(W, G)
    deal.answer(N, G, HOLD)
    deal.bet(W, SP)
    deal.answer(N, SP, GUT)
    assert deal.showing == EW
    deal.reveal(W, cards("EA LA"))
    deal.end_turn(EW)  # no Hanger on either side yet: a pass
    deal.concede(NS, G)
    deal.reveal(S, cards("E8 E7"))
    deal.end_turn(NS)
    deal.concede(EW, H)
    assert deal.result.points == [1, 3]
    assert {(c, f) for c, f, _, _ in deal.result.awards} == {(1, SP), (2, G), (3, H)}


def test_gestrichen_limit_T22():
    """T22: target 15, N/S 12, E/W 9: after G held at 2 and Sp conceded, N/S may bet H but not G."""
    deal = make(T21, "HA", scores=(12, 9), target=15)
    deal.bet(W, G)
    deal.answer(N, G, HOLD)
    deal.bet(S, SP)
    deal.answer(W, SP, GUT)
    assert deal.secured == [1, 0]
    assert "B6" in deal.bet_error(N, G)
    assert deal.can_bet(S, H)


def test_gestrichen_team_cannot_bet_T23():
    """T23: target 11, N/S on 10 may bet nothing (10 + 0 + 1 = 11); the opponents may, N/S may hold."""
    deal = make(T21, "HA", scores=(10, 3))
    assert all("B6" in deal.bet_error(seat, figure) for seat in (S, N) for figure in (G, H, SP))
    with pytest.raises(CardsimError, match="B6"):
        deal.bet(S, SP)
    deal.bet(W, G)
    deal.answer(N, G, HOLD)
    assert deal.figures[G].value == 2


def test_race_scoring_order_T24():
    """T24: A = N/S on 9, B = E/W on 9, target 11: A bets G, B holds, B concedes Sp, B wins G and A the
    unbet H in the showing -> Sp (cat 1) A 10, G (cat 2) B 11: B wins although A's H would make 11."""
    deal = make(T21, "HA", scores=(9, 9))
    deal.bet(N, G)
    deal.answer(W, G, HOLD)
    deal.concede(EW, SP)
    deal.reveal(N, cards("H7 L7"))
    deal.reveal(S, cards("E8 E7"))
    deal.end_turn(NS)
    deal.reveal(W, cards("EA LA"))
    deal.concede(EW, H)
    deal.end_turn(EW)
    deal.concede(NS, G)
    result = deal.result
    assert [(c, f, t) for c, f, t, _ in result.awards] == [(1, SP, NS), (2, G, EW), (3, H, NS)]
    assert result.game_winner == EW


LADDER = {S: "E7 L7 H10 S9 HO", W: "EA LA H9 S7 L8", N: "H7 E8 LU SO SK", E: "EK LK HK S8 E9"}


def ladder_to_aus(target=15):
    deal = make(LADDER, "HA", target=target)
    deal.bet(W, G)
    for seat in (S, W, S, W, S, W):
        deal.answer(seat, G, RAISE)
    return deal


def test_spiel_aus_ladder_conceded_T25():
    """T25: alternating raises accept 2..7 and leave Spiel aus pending by A; B gut -> A +7 (C-1)."""
    deal = ladder_to_aus()
    assert deal.figures[G].value == 7 and deal.figures[G].pending[:2] == (EW, AUS)
    with pytest.raises(CardsimError, match="Spiel aus"):
        deal.answer(S, G, RAISE)
    deal.answer(S, G, GUT)
    assert deal.figures[G].winner == EW and deal.figures[G].points == 7
    deal.concede(NS, SP)
    deal.concede(EW, H)
    assert deal.result.points == [1, 8]
    assert deal.result.game_winner is None


def test_spiel_aus_held_wins_the_game_T25():
    """T25: B holds Spiel aus -> whoever wins the figure wins the game (A-14 overrides the order)."""
    deal = ladder_to_aus()
    deal.answer(S, G, HOLD)
    assert deal.figures[G].value == AUS
    deal.bet(S, SP)
    deal.answer(W, SP, GUT)  # N/S 1 point first (category 1) ...
    deal.concede(NS, G)  # ... but E/W win the Spiel-aus Gleich
    deal.concede(EW, H)
    assert deal.result.game_winner == EW


def raise_to(deal, figure, bettor, answerer, top=AUS):
    """The bettor's team bets ``figure``, the two raise in turn until ``top`` (default Spiel aus) is proposed, which
    is held."""
    deal.bet(bettor, figure)
    seats = (answerer, bettor)
    i = 0
    while deal.figures[figure].pending[1] != top:
        deal.answer(seats[i % 2], figure, RAISE)
        i += 1
    deal.answer(seats[i % 2], figure, HOLD)


def test_the_first_held_spiel_aus_decided_wins_the_game():
    """§7.13 [D] / A-14: two held Spiel aus figures in one deal, the Gleich bet first; N/S take three tricks,
    deciding the Spiel in play, before E/W win the Gleich in the showing (N/S concede it): N/S win the game at once,
    whatever the scoring order (which puts the conceded Gleich and Hanger before the Spiel)."""
    deal = make({S: "E7 L7 HK HO S9", W: "EA LA E9 L10 SU", N: "S7 H9 E10 LU SK", E: "EO S8 L9 H7 SA"}, "HA")
    raise_to(deal, G, W, S)
    raise_to(deal, SP, S, W)
    assert deal.figures[G].aus_held and deal.figures[SP].aus_held
    play(deal, (W, "LA"), (N, "H9"), (E, "L9"), (S, "L7"), (N, "SK"), (E, "SA"), (S, "HO"), (W, "SU"),
         (S, "HK"), (W, "E9"), (N, "S7"), (E, "H7"))
    assert deal.phase == SHOWDOWN and deal.figures[SP].winner == NS
    deal.concede(NS, G)
    deal.concede(NS, H)
    assert deal.phase == DONE and deal.figures[G].winner == EW
    assert [a[1:3] for a in deal.result.awards] == [(G, EW), (H, EW), (SP, NS)]  # the scoring order
    assert deal.result.game_winner == NS


def test_spiel_aus_needs_room_B6():
    """§7.13 [I]: Spiel aus must pass B6 with value 7; in an 11-game at 4 points it may not be bet."""
    deal = make(LADDER, "HA", scores=(0, 4), target=11)
    deal.bet(W, G)
    for seat in (S, W, S, W, S):
        deal.answer(seat, G, RAISE)
    assert deal.figures[G].pending[:2] == (NS, 7)
    assert "B6" in deal.raise_error(W, G)


def test_penalty_permissive_T26():
    """T26: N bets H without a run (permissive); E/W gut; E/W hold a run -> N/S -2, E/W score H at 1."""
    hands = {S: "E7 L7 H10 S9 HO", W: "EA LA H9 S7 L8", N: "H7 E10 LU SO L9", E: "EK EO HK S8 E9"}
    deal = make(hands, "HA", strict_examples=False)
    with pytest.raises(CardsimError):
        make(hands, "HA").bet(N, H)  # strict mode refuses it up front
    deal.bet(N, H)
    deal.answer(E, H, GUT)
    deal.concede(NS, SP)
    deal.concede(NS, G)
    result = deal.result
    assert (0, None, NS, -2) in result.awards
    assert deal.figures[H].winner == EW
    assert result.points == [-2, 3]


# --- §11.8 both teams gestrichen --------------------------------------------------------------------
def gestrichen_deal(a, b, a_partner="EO E9 L10 S8 H7", b_partner="LA EK S10 H9 LO"):
    """Team 0 = A (S and N), team 1 = B (W and E) at 10-10 in an 11-game."""
    return make({S: a, N: a_partner, W: b, E: b_partner}, "SU", scores=(10, 10))


def test_both_gestrichen_four_run_beats_three_aces_T27():
    deal = gestrichen_deal("HU H10 H9 H8 E7", "EA LA SA HK S9", b_partner="LK EK S10 L9 LO")
    assert deal.phase == DONE and deal.result.game_winner == NS


def test_both_gestrichen_gleich_beats_hanger_T28():
    deal = gestrichen_deal("E7 L7 H7 SA LK", "HA HK HO E9 S8", a_partner="EO E10 L10 S9 H8")
    assert deal.result.game_winner == NS


def test_both_gestrichen_tied_hanger_drops_out_T29():
    deal = gestrichen_deal("HU H10 H9 H8 SA", "EU E10 E9 E8 LK", a_partner="EO SO L10 S8 EK",
                           b_partner="E7 L7 S7 LA HK")
    assert deal.result.game_winner == EW


@pytest.mark.parametrize("a, b", [("HK HO HU EA S7", "LK LO LU E8 S9"), ("HK HO EA S7 L9", "LK LO E8 S9 HU")])
def test_both_gestrichen_play_the_cards_T30_T31(a, b):
    """T30 (tied 3-runs) and T31 (no >= 3 figure): no bets, the cards are played, the Spiel wins."""
    from simcore.games.giltspiel_betting import CARDS

    deal = gestrichen_deal(a, b, a_partner="EO E9 L10 S8 H7", b_partner="LA EK S10 H9 L8")
    assert deal.phase != DONE and deal.figures[G].winner == NOBODY == deal.figures[H].winner
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (G, H, SP))
    while deal.phase != DONE:
        deal.play(deal.to_move, *CARDS.choose_card(deal, deal.to_move))
    assert deal.result.game_winner == deal.figures[SP].winner


def test_becoming_gestrichen_spiel_conceded_T32():
    """T32: 9-10, the 9-team bets Sp and the 10-team says gut -> 10-10 with G and H unbet: no >= 3
    figure -> nobody scores G/H and a new deal follows; with one, it wins the game."""
    none = {S: "HK HO EA S7 L9", N: "EO E9 L10 S8 H7", W: "LK LO E8 S9 HU", E: "LA EK S10 H9 L8"}
    deal = make(none, "SU", scores=(9, 10))
    deal.bet(S, SP)
    deal.answer(W, SP, GUT)
    assert deal.phase == DONE and deal.result.redeal and deal.result.points == [1, 0]
    three = {**none, N: "E7 L7 H7 S8 EO"}
    deal = make(three, "SU", scores=(9, 10))
    deal.bet(S, SP)
    deal.answer(W, SP, GUT)
    assert deal.result.game_winner == NS


def test_becoming_gestrichen_gleich_conceded_T33():
    """T33: 10-9, the 9-team bets G and the 10-team concedes (C-6) -> 10-10, no more bets: the best
    Hanger (2 cards are enough) wins the game, before the Spiel (category 3 order G, H, Sp)."""
    from simcore.games.giltspiel_betting import CARDS

    hands = {S: "HK HO EA S7 L9", N: "EO E9 L10 S8 H7", W: "LA SA E8 S9 HU", E: "E7 EK S10 H9 L8"}
    deal = make(hands, "SU", scores=(10, 9))
    deal.bet(W, G)
    deal.concede(NS, G)
    assert deal.secured == [0, 1]
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (H, SP))
    while deal.phase != SHOWDOWN:
        deal.play(deal.to_move, *CARDS.choose_card(deal, deal.to_move))
    if deal.showing == EW:
        deal.end_turn(EW)  # E/W hold no Hanger and face none: a pass
    deal.reveal(S, [c for c in cards("HK HO") if c in deal.in_hand[S]])  # some may have been played
    deal.end_turn(NS)
    deal.concede(EW, H)
    assert deal.result.game_winner == NS
    order = [(c, f) for c, f, _, _ in deal.result.awards]
    assert order.index((3, H)) < order.index((3, SP))


def test_void_figure_A1():
    """A-1: nobody holds a Hanger -> two passes make it VOID; nobody scores it."""
    hands = {S: "EA LA H7 S9 E9", N: "EK LK SO E7 HU", W: "EO L9 HA S7 L7", E: "E10 H9 SK S10 HO"}
    deal = make(hands, "LU")
    assert all(deal.full_codes(s)[H] < 0 for s in range(4))
    deal.concede(EW, SP)
    deal.reveal(S, cards("EA LA"))
    deal.end_turn(NS)
    deal.concede(EW, G)
    deal.end_turn(EW)
    assert deal.figures[H].winner == VOID
    assert deal.result.points == [2, 0]


STAND_HANDS = {S: "H8 H7 EA S9 E9", N: "EK LK SO E7 HU", W: "L8 L7 HA SU E10", E: "E8 H10 SK S10 HO"}
"""N/S show H8 H7, E/W L8 L7: equal Hangers."""


def show_to_a_tie(deal):
    """E/W concede the Spiel and the Gleich; both teams show their equal Hangers (`STAND_HANDS`), N/S first."""
    deal.concede(EW, SP)
    deal.reveal(N, cards("EK LK"))
    deal.reveal(S, cards("H8 H7"))
    deal.end_turn(NS)
    deal.concede(EW, G)
    deal.reveal(W, cards("L8 L7"))
    deal.end_turn(EW)


def test_final_stand_after_freeze_7_8():
    """§7.8 final stand: the Spiel winners end a turn tied (frozen), the losers pass -> STAND."""
    deal = make(STAND_HANDS, "LA")
    show_to_a_tie(deal)
    assert deal.figures[H].open and not deal.frozen[H]  # a tie left by the losers freezes nobody
    deal.end_turn(NS)
    assert deal.frozen[H]
    deal.end_turn(EW)
    assert deal.figures[H].winner == STAND
    assert deal.result.points == [2, 0]
    assert [(c, f) for c, f, _, _ in deal.result.awards] == [(1, SP), (3, G)]


def test_a_figure_that_stands_goes_to_the_team_that_passes_verification_7_9():
    """§7.9 (permissive): E bets the Hanger without a run, S holds; the Hanger stands (H8 H7 against L8 L7). E/W
    get -2 and cannot win it; N/S can show an example, so they score it at its value 2 (category 2, held)."""
    deal = make(STAND_HANDS, "LA", strict_examples=False)
    deal.bet(E, H)
    deal.answer(S, H, HOLD)
    show_to_a_tie(deal)
    deal.end_turn(NS)
    deal.end_turn(EW)
    assert deal.figures[H].winner == NS and (0, None, EW, -2) in deal.result.awards
    assert (2, H, NS, 2) in deal.result.awards and deal.result.points == [4, -2]


def test_fifth_trick_spiel_bet_T20():
    """T20 [D A-9]: 2-2, trump H, seat 0 leads L9 to trick 5; seat 1's last card SK may not bet Sp,
    seat 2's H7 (trump) and seat 3's LA (led suit) may, and so may the leader."""
    from simcore.betting import Deal
    from simcore.games.giltspiel_betting import CARDS

    deal = Deal(CARDS, rules_from_options(target=15), [cards("L9 E7 E8 S7 S8"), cards("SK EA EK S9 S10"),
                                                       cards("H7 EO EU SU SO"), cards("LA E9 E10 SA L10")], 2)
    deal.won, deal.leader, deal.trick = [2, 2], 0, [(cards("L9")[0], cards("L9")[0])]
    deal.in_hand = [set(), set(cards("SK")), set(cards("H7")), set(cards("LA"))]
    assert "§7.6" in deal.bet_error(1, SP)
    assert deal.can_bet(2, SP) and deal.can_bet(3, SP) and deal.can_bet(0, SP)
    strict = Deal(CARDS, rules_from_options(target=15, fifth_trick_bet="unplayed_only"), deal.hands, 2)
    strict.won, strict.leader, strict.trick, strict.in_hand = deal.won, deal.leader, deal.trick, deal.in_hand
    assert "A-9" in strict.bet_error(0, SP)
