"""Perlaggen betting, showing and scoring: the spec's worked examples (perlaggen.md §12.4-§12.5) drive
simcore.betting with the Perlaggen rules (simcore.games.perlaggen_betting) and check the score sheet.

Compass seats with South dealing: S = 0 (dealer), W = 1 (leads), N = 2, E = 3; N-S = team 0, E-W = team 1.
Innsbruck style; the hands are filled in by hand where S1 gives only some cards. §12.6 (three players and
Strafperlaggen, T-26..T-33) drives `ThreeFigure`.
"""

import json

import pytest

from simcore.betting import AUS, DONE, GUT, HOLD, NOBODY, RAISE, SP, STAND, VOID, G, H
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games.perlaggen_betting import ACCEPT3, GUT3, RAISE3, ThreeFigure, cards_for, new_deal, rules_from_options

S, W, N, E = 0, 1, 2, 3
NS, EW = 0, 1


def faces(text):
    return P.DECK.parse_cards(text)


def face(token):
    return P.DECK.parse_face(token)


def make(hands_by_seat, trump, scores=(0, 0), target=18, blind=(), **options):
    hands = [faces(hands_by_seat[s]) for s in range(4)]
    return new_deal(hands, P.DECK.suits.index(trump), dealer=S, scores=scores,
                    rules=rules_from_options(target=target, **options), blind=blind)


def play(deal, *moves):
    for seat, card in moves:
        deal.play(seat, face(card))


# --- T-14: bet alternation (S1 Example 3) --------------------------------------------------------
T14 = {W: "LU HU H9 L8 S10", N: "H8 L10 S9 LA SA", E: "EK LK H10 S8 L7", S: "EA HA E10 SK H7"}


def test_bet_alternation_T14():
    deal = make(T14, "E")
    play(deal, (W, "L8"))
    deal.bet(S, G)
    with pytest.raises(CardsimError, match="suspended"):
        play(deal, (N, "L10"))
    assert "A-16" in deal.bet_error(S, SP)  # one unanswered bet at a time during trick play
    deal.answer(E, G, HOLD)
    play(deal, (N, "L10"), (E, "L7"))
    deal.bet(S, SP)
    deal.answer(E, SP, HOLD)
    play(deal, (S, "E10"))
    assert deal.leader == S
    state = [(f.value, f.bet_right) for f in deal.figures]
    assert state == [(2, EW), (1, None), (2, EW)]
    assert all("B2" in deal.bet_error(seat, figure) for seat in (N, S) for figure in (G, SP))
    play(deal, (S, "H7"))
    deal.bet(W, G)
    assert deal.figures[G].pending[1] == 3
    deal.answer(S, G, HOLD)
    play(deal, (W, "H9"), (N, "H8"), (E, "H10"))
    assert deal.leader == E
    assert [(f.value, f.bet_right) for f in deal.figures] == [(3, NS), (1, None), (2, EW)]


# --- T-15: the showing (S1 Examples 4 and 5) -------------------------------------------------------
T15 = {N: "E9 L9 S7 HA SA", W: "EU HU H10 S9 EA", E: "E8 H8 LK S10 HO", S: "SK SO LA H9 L10"}


def t15_until_turn4():
    deal = make(T15, "L")
    deal.bet(N, G)
    deal.answer(E, G, HOLD)
    play(deal, (W, "H10"), (N, "L9"), (E, "H8"), (S, "H9"))
    deal.concede(EW, SP)
    assert deal.showing == NS
    deal.bet(S, H)
    assert "B2" in deal.bet_error(N, G)
    deal.reveal(N, faces("E9"))
    deal.answer(W, H, GUT)
    deal.end_turn(NS)
    deal.reveal(W, faces("EU HU"))
    deal.end_turn(EW)
    deal.reveal(N, faces("S7"), {face("S7"): face("S9")})  # the Perlagg S7 baptised a 9: three 9s (51)
    assert deal.shown_code(NS, G) == 51
    deal.end_turn(NS)
    deal.bet(W, G)
    return deal


def test_showing_concede_the_raise_T15():
    deal = t15_until_turn4()
    deal.answer(N, G, GUT)
    assert deal.result.points == [2, 2]
    assert deal.figures[G].duty == {N, E, W} and deal.figures[H].duty == {S}


def test_showing_accept_the_raise_T15():
    deal = t15_until_turn4()
    deal.answer(N, G, HOLD)
    with pytest.raises(CardsimError, match="behind"):
        deal.end_turn(EW)
    deal.concede(EW, G)
    assert deal.result.points == [5, 0]


# --- T-16: ties and the freeze rule with baptised Perlaggen (S1 Example 6) ---------------------------
T16 = {N: "E10 S10 S6 L8 H9", E: "L10 H10 L9 L7 H7", S: "EO EU EK S9 H8", W: "HO HU HK E7 E9"}


def t16_until_turn2():
    deal = make(T16, "L")
    deal.concede(NS, SP)
    deal.reveal(E, faces("L10 H10 L9"))
    deal.end_turn(EW)
    deal.reveal(N, faces("E10 S10"))
    deal.reveal(S, faces("EO EU"))
    deal.end_turn(NS)
    assert (deal.shown_code(EW, G), deal.shown_code(NS, G), deal.shown_code(EW, H), deal.shown_code(NS, H)) == \
        (36, 36, 36, 38)
    assert not deal.frozen[G]
    return deal


def test_freeze_T16():
    deal = t16_until_turn2()
    deal.reveal(W, faces("HO HU"))
    deal.reveal(E, faces("L7"), {face("L7"): face("L10")})
    deal.end_turn(EW)
    assert deal.frozen[H] and deal.shown_code(EW, G) == 52
    deal.reveal(S, faces("EK"))
    deal.reveal(N, faces("S6"), {face("S6"): face("L10")})
    deal.end_turn(NS)
    with pytest.raises(CardsimError, match="freeze"):
        deal.reveal(W, faces("HK E7"), {face("HK"): face("HA"), face("E7"): face("HK")})
    deal.concede(EW, H)
    deal.reveal(W, faces("HK E7"), {face("HK"): face("LO"), face("E7"): face("LO")})
    assert deal.shown_code(EW, G) == 54
    deal.end_turn(EW)
    deal.concede(NS, G)
    assert deal.result.points == [1, 2]


def test_freeze_alternative_line_gleich_stands_T16():
    deal = t16_until_turn2()
    deal.reveal(W, faces("HO HU HK E7"), {face("HK"): face("HA"), face("E7"): face("HK")})
    deal.reveal(E, faces("L7"), {face("L7"): face("L10")})
    assert deal.shown_code(EW, H) == 72
    deal.end_turn(EW)
    deal.concede(NS, H)
    deal.reveal(N, faces("S6"), {face("S6"): face("L10")})
    deal.end_turn(NS)
    deal.end_turn(EW)
    assert deal.frozen[G]
    deal.end_turn(NS)
    assert deal.figures[G].winner == STAND
    assert deal.result.points == [0, 2]


# --- T-17 scoresheet, T-18 Spiel aus, T-19 fifth trick, T-20 limits ----------------------------------
T17 = {S: "E9 E8 L10 HO SK", W: "EA LA H9 SA L8", N: "H10 E10 LK SO S9", E: "EK HA L9 S8 S10"}


def test_scoresheet_T17():
    deal = make(T17, "H")
    deal.bet(W, G)
    deal.answer(N, G, HOLD)
    deal.bet(W, SP)
    deal.answer(N, SP, GUT)
    deal.reveal(W, faces("EA LA SA"))
    deal.end_turn(EW)
    deal.concede(NS, G)
    deal.reveal(S, faces("E9 E8"))
    deal.end_turn(NS)
    deal.concede(EW, H)
    assert deal.result.points == [1, 3]


def test_spiel_aus_T18():
    deal = make(T17, "H")
    deal.bet(W, G)
    for seat in (N, W, N, W, N):
        deal.answer(seat, G, RAISE)
    assert deal.figures[G].value == 6 and deal.figures[G].pending[:2] == (NS, 7)
    deal.answer(W, G, RAISE)
    assert deal.figures[G].value == 7 and deal.figures[G].pending[:2] == (EW, AUS)
    deal.answer(N, G, GUT)
    assert deal.figures[G].points == 7 and deal.figures[G].winner == EW


def test_fifth_trick_spiel_bet_T19():
    """T-19: 2-2, T = H, L9 led to trick 5: E8 may not bet the Spiel; L7, H8 and the Perlagg S7 may."""
    from simcore.betting import Deal

    hands = [faces("L9 EA EK SA SK"), faces("E8 LA LK EO EU"), faces("L7 SO SU S10 S9"), faces("S7 L10 E10 E9 H8")]
    deal = Deal(cards_for("innsbruck", P.DECK.suits.index("H")), rules_from_options(), hands, 2)
    deal.won, deal.leader, deal.trick = [2, 2], 0, [(face("L9"), face("L9"))]
    deal.in_hand = [set(), {face("E8")}, {face("L7")}, {face("S7")}]
    assert "§7.6" in deal.bet_error(1, SP)
    assert deal.can_bet(2, SP) and deal.can_bet(3, SP)
    deal.in_hand[3] = {face("H8")}
    assert deal.can_bet(3, SP)



def test_fifth_trick_spiel_bet_after_the_weli_led():
    """§8.5 with §1: the Weli led to trick 5 as itself (unbaptised) is a bell, so a bell follows suit."""
    from simcore.betting import Deal

    hands = [faces("S6 EA EK SA SK"), faces("E8 LA LK EO EU"), faces("S9 SO SU S10 L9"), faces("L7 L10 E10 E9 H8")]
    deal = Deal(cards_for("innsbruck", P.DECK.suits.index("H")), rules_from_options(), hands, 2)
    deal.won, deal.leader, deal.trick = [2, 2], 0, [(face("S6"), face("S6"))]
    deal.in_hand = [set(), {face("E8")}, {face("S9")}, {face("L7")}]
    assert "§7.6" in deal.bet_error(1, SP) and "§7.6" in deal.bet_error(3, SP)
    assert deal.can_bet(2, SP)

def test_end_game_limits_T20():
    deal = make(T17, "H", scores=(15, 9), target=18)
    deal.bet(W, G)
    deal.answer(N, G, HOLD)
    deal.bet(S, SP)
    deal.answer(W, SP, GUT)
    assert "B6" in deal.bet_error(N, G)
    assert deal.can_bet(S, H)
    gestrichen = make(T17, "H", scores=(17, 9), target=18)
    assert all("B6" in gestrichen.bet_error(seat, f) for seat in (S, N) for f in (G, H, SP))


# --- T-21, T-22: both gestrichen -------------------------------------------------------------------------
def bg(a, b, a_partner, b_partner):
    """17-17 of 18 at the start of a deal, T = S (Perlaggen HK S6 S7 E7 SU SO: none dealt here)."""
    return make({S: a, N: a_partner, W: b, E: b_partner}, "S", scores=(17, 17))


def test_both_gestrichen_three_aces_vs_four_run_T21():
    deal = bg("HU H10 H9 H8 L7", "EA LA HA S9 EK", a_partner="E8 L9 LK S8 E9", b_partner="E10 L10 SK H7 LO")
    assert deal.result.game_winner == NS


def test_both_gestrichen_gleich_beats_hanger_T21():
    deal = bg("LA LK LO E8 H8", "E9 L9 H9 SA EK", a_partner="E10 L8 HA S9 EO", b_partner="EA H10 SK H7 LU")
    assert deal.result.game_winner == EW


def test_both_gestrichen_tied_runs_play_T21():
    deal = bg("HU H10 H9 H8 SA", "LU L10 L9 L8 EK", a_partner="E8 E9 LA S10 LO", b_partner="EA H7 S9 HA LK")
    assert deal.phase != DONE and deal.figures[G].winner == NOBODY
    assert not any(deal.can_bet(s, f) for s in range(4) for f in (G, H, SP))


def test_becoming_gestrichen_T22():
    """T-22: target 18, A 17, B 16: B bets Sp, A concedes -> 17-17 with G, H open and unbet: A's three
    8s win the game; with no >= 3-card figure nobody scores G/H and a new deal follows."""
    three = {S: "E8 L8 H8 SA LK", N: "E9 L9 HA S10 EU", W: "EA LA H10 SK E10", E: "EK LO H9 S9 HU"}
    deal = make(three, "S", scores=(17, 16))
    deal.bet(W, SP)
    deal.answer(S, SP, GUT)
    assert deal.result.game_winner == NS
    none = {**three, S: "E8 L8 HO SA LK"}
    deal = make(none, "S", scores=(17, 16))
    deal.bet(W, SP)
    deal.answer(S, SP, GUT)
    assert deal.result.redeal and deal.result.points == [0, 1]


# --- T-24 verification penalty, T-25 blind bets ------------------------------------------------------------
T24 = {N: "EA H9 S10 LK E8", S: "HA L9 SK E10 H7", E: "HO HU L10 S8 EK", W: "SA L8 H10 SU EO"}


def test_verification_penalty_voids_the_deal_T24():
    """T-24: N bets the Hanger (permissive), E accepts; N-S win the Spiel; N has no Hanger: N-S -2 and
    nothing else this deal; E-W score the Hanger (2)."""
    with pytest.raises(CardsimError, match="B5"):
        make(T24, "L").bet(N, H)
    deal = make(T24, "L", strict_examples=False)
    deal.bet(N, H)
    deal.answer(E, H, HOLD)
    deal.concede(EW, SP)
    deal.end_turn(NS)
    deal.reveal(E, faces("HO HU"))
    deal.end_turn(EW)
    assert deal.figures[G].winner == VOID
    deal.concede(NS, H)
    assert deal.result.points == [-2, 2]


def test_blind_bets_T25():
    """T-25: X (N-S) calls "Höll auf!" (blind on all three); Y concedes everything; X holds no Gleich and
    no Hanger: X scores only the Spiel, and no -2."""
    deal = make(T24, "L", blind=[(S, G), (S, H), (S, SP)])
    assert len(deal.pending()) == 3
    for figure in (G, H, SP):
        deal.answer(W, figure, GUT)
    assert deal.phase == DONE
    assert deal.result.points == [1, 0]
    assert all(c > 0 for c, *_ in deal.result.awards)


def test_blind_bets_not_in_giltspiel():
    from simcore.games.giltspiel_betting import new_deal as gilt_deal

    with pytest.raises(CardsimError, match="§8.14"):
        gilt_deal([list(range(5 * s, 5 * s + 5)) for s in range(4)], 0).blind_bet(0, G)


def test_unbet_concession_needs_an_example_A11():
    """A-11: an unbet Gleich or Hanger conceded scores only if the receiving team holds an example: N-S
    hold no Hanger, nobody holds a Gleich; only the conceded Spiel scores."""
    deal = make(T24, "L")
    deal.concede(EW, H)
    deal.concede(NS, SP)
    deal.concede(NS, G)
    assert deal.figures[H].winner == NOBODY and deal.figures[G].winner == NOBODY
    assert deal.result.points == [0, 1]



# --- T-26..T-33: three players and Strafperlaggen (§9.4, §9.5); players A, B, C = 0, 1, 2 ------------
A, B, C = 0, 1, 2


def scripted(fig, script):
    """``fig`` after the steps ("answer", player, kind) / ("raise", player) in order."""
    for step in script:
        if step[0] == "raise":
            fig.raise_(step[1])
        else:
            fig.answer(step[1], step[2])
    return fig


def test_three_player_answers_T26():
    fig = ThreeFigure(A)
    fig.answer(B, GUT3)
    fig.answer(C, GUT3)
    assert fig.eligible() == {A} and fig.value == 2
    fig = ThreeFigure(A)
    fig.answer(B, GUT3)
    fig.answer(C, ACCEPT3)
    assert fig.eligible() == {A, C} and fig.value == 2
    fig = ThreeFigure(A)
    fig.answer(B, ACCEPT3)
    assert fig.free == {C} and fig.level[C] == 0 and fig.settled_bet  # C rides free, no duty
    fig.raise_(C)
    assert fig.queue == [A, B]  # A (C's left) answers first
    fig.answer(A, ACCEPT3)
    assert fig.value == 3 and fig.eligible() == {A, B, C} and B in fig.free
    fig = ThreeFigure(A)
    fig.answer(B, ACCEPT3)
    fig.raise_(C)
    fig.answer(A, GUT3)
    fig.answer(B, GUT3)
    assert fig.eligible() == {C}
    with pytest.raises(CardsimError, match="beyond 3"):
        fig.raise_(C)
    fig = ThreeFigure(A)
    fig.answer(B, ACCEPT3)
    with pytest.raises(CardsimError, match="A-29"):
        fig.raise_(A)
    fig.raise_(B)  # B raises later: C answers first
    assert fig.queue == [C, A]


@pytest.mark.parametrize("script, winner, expected", [
    ([("answer", B, ACCEPT3), ("raise", C), ("answer", A, ACCEPT3)], C, [3, 2, -3]),          # T-27
    ([("answer", B, ACCEPT3), ("raise", B), ("answer", C, ACCEPT3)], C, [2, 3, -3]),          # T-28
    ([("answer", B, ACCEPT3), ("raise", C), ("answer", A, GUT3), ("answer", B, GUT3)], None, [2, 2, -2]),  # T-29
    ([("answer", B, GUT3), ("answer", C, RAISE3), ("answer", A, GUT3)], None, [2, 0, -2]),    # T-30
    ([("answer", B, GUT3), ("answer", C, RAISE3), ("answer", A, ACCEPT3)], A, [-3, 0, 3]),    # T-31, A better
    ([("answer", B, GUT3), ("answer", C, RAISE3), ("answer", A, ACCEPT3)], C, [3, 0, -3]),    # T-31, C better
    ([("answer", B, ACCEPT3), ("raise", B), ("answer", C, GUT3), ("answer", A, ACCEPT3)], A, [-3, 3, 0]),  # T-32
])
def test_strafperlaggen_cases_T27_T32(script, winner, expected):
    """S1's six Strafperlaggen cases (A bets the Gleich), T-32 as corrected by D-2 / A-02."""
    assert scripted(ThreeFigure(A), script).straf_changes(winner) == expected


def test_strafperlaggen_level_two_T33():
    fig = ThreeFigure(A)
    fig.answer(B, GUT3)
    fig.answer(C, GUT3)
    assert fig.straf_changes(None) == [-1, 0, 0]
    fig = ThreeFigure(A)
    fig.answer(B, GUT3)
    fig.answer(C, ACCEPT3)
    assert fig.straf_changes(A) == [-2, 0, 2]
    assert fig.straf_changes(None) == [0, 0, 0]  # A and C equal: it stands
    assert fig.straf_changes(B, spiel=True) == [2, 0, 2]  # B took 4 tricks but conceded: nobody wins
    fig = ThreeFigure(A)
    fig.answer(B, ACCEPT3)
    assert fig.straf_changes(C) == [2, 2, -2]
    assert fig.straf_changes(B) == [2, -2, 0]
    assert fig.straf_changes(None, spiel=True) == [2, 2, 0]  # nobody took 4 tricks
    with pytest.raises(CardsimError, match="on 1"):
        ThreeFigure(A, scores=(1, 9, 9))
    on_one = ThreeFigure(A, scores=(9, 1, 9))
    on_one.answer(B, ACCEPT3)  # a player on 1 may accept
    with pytest.raises(CardsimError, match="on 1"):
        on_one.raise_(B)
    early = ThreeFigure(A)
    early.answer(C, ACCEPT3)  # C answers before B: out of turn
    assert C in early.penalised and early.queue == [B, C]
    early.answer(B, GUT3)
    early.answer(C, GUT3)
    assert early.straf_changes(None)[C] == 2


@pytest.mark.parametrize("script, winner, expected", [
    ([("answer", B, GUT3), ("answer", C, GUT3)], None, [1, 0, 0]),                            # A +1
    ([("answer", B, GUT3), ("answer", C, ACCEPT3)], C, [0, 0, 2]),                            # better of A, C: 2
    ([("answer", B, GUT3), ("answer", C, ACCEPT3)], B, [0, 0, 0]),                            # B is out
    ([("answer", B, ACCEPT3)], C, [0, 0, 2]),                                                  # C rides free, wins
    ([("answer", B, ACCEPT3), ("raise", C), ("answer", A, ACCEPT3)], B, [0, 3, 0]),           # worth 3
    ([("answer", B, ACCEPT3), ("raise", C), ("answer", A, GUT3), ("answer", B, GUT3)], A, [0, 0, 2]),  # C +2
    ([("answer", B, ACCEPT3), ("raise", C), ("answer", A, GUT3), ("answer", B, ACCEPT3)], A, [0, 0, 0]),  # A out
    ([("answer", B, ACCEPT3)], None, [0, 0, 0]),                                               # it stands
])
def test_three_player_points_T26(script, winner, expected):
    """T-26 (§9.4, the ordinary 3-player game counting up): what each player scores from A's bet."""
    assert scripted(ThreeFigure(A, straf=False), script).plain_points(winner) == expected


@pytest.mark.parametrize("style, target", [("innsbruck", 18), ("eichel", 15), ("schlanders", 24),
                                           ("deutschnofen", 18)])
def test_a_style_plays_to_its_usual_target_unless_one_is_given(style, target):
    """§8.10: 18 in South Tyrol; §9.1: Eichelperlaggen usually to 15; §9.6: Schlanders to 24."""
    from analysis.games import betting

    assert betting.match("perlaggen", "never", "never", 2, 1, style=style, progress=False).attrs["target"] == target
    assert betting.match("perlaggen", "never", "never", 2, 1, 11, style=style, progress=False).attrs["target"] == 11
    if style in ("innsbruck", "eichel"):
        three = betting.match("perlaggen", "never", "never", 3, 1, style=style, players=3, progress=False)
        assert three.attrs["target"] == target


def test_a_target_asked_for_at_the_options_default_is_played(capsys):
    """--option target=18 with --style eichel plays to 18 as asked, although 18 is the option's default and the
    style's usual target is 15 (as --target 18 does)."""
    from analysis.cli import main

    base = ["match", "perlaggen", "--a", "never", "--b", "never", "--games", "2", "--seed", "1", "--no-progress",
            "--style", "eichel"]
    for extra, target in (([], 15), (["--option", "target=18"], 18), (["--target", "18"], 18)):
        assert main([*base, *extra]) == 0
        assert f"target {target}, Eichel style" in capsys.readouterr().out


def test_strict_examples_is_a_perlaggen_option_as_permissive_is_its_flag(capsys):
    """`cardsim games perlaggen` lists strict_examples (§8.9); --option strict_examples=False plays as
    --permissive, not with it, and not at three players (their own rules)."""
    from analysis.cli import main

    base = ["match", "perlaggen", "--a", "aggressive", "--b", "cautious", "--games", "4", "--seed", "2",
            "--no-progress", "--json"]
    outs = []
    for extra in (["--permissive"], ["--option", "strict_examples=False"]):
        assert main([*base, *extra]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] and '"options": {"strict_examples": false}' in outs[0]  # labelled either way
    assert main([*base, "--permissive", "--option", "strict_examples=False"]) == 2
    assert "not both" in capsys.readouterr().err
    assert main(["match", "perlaggen", "--players", "3", "--a", "never", "--b", "never", "--games", "3",
                 "--option", "strict_examples=False", "--no-progress"]) == 2
    assert "does not change" in capsys.readouterr().err


def test_two_players_refuse_communication_as_an_option_and_three_player_tables_read_the_target(capsys):
    """With --players 2 nobody has a partner: --option communication=... is refused as --communication is; the
    3-player thresholds with --games N play to the target, so --option target=T is --target T there (and is refused
    without --games, where the tables are fixed formulas)."""
    from analysis.cli import main

    assert main(["match", "perlaggen", "--players", "2", "--a", "never", "--b", "never", "--games", "2",
                 "--option", "communication=none", "--no-progress"]) == 2
    assert "option communication does not change" in capsys.readouterr().err
    base = ["thresholds", "perlaggen", "--players", "3", "--games", "2", "--seed", "3", "--no-progress", "--json"]
    outs = []
    for extra in (["--option", "target=12"], ["--target", "12"]):
        assert main([*base, *extra]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1] and outs[0]["target"] == 12
    assert main(["thresholds", "perlaggen", "--players", "3", "--option", "target=12"]) == 2
    assert "option target does not change" in capsys.readouterr().err
