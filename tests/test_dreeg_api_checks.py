"""The documented Python entry points of Dreeg refuse bad input with a one-line CardsimError naming the argument, and
give the same answers as before for good input: `dreeg_dd.solve`, `dreeg_rules.wegloescher_erase`, the `dreeg_exact`
fractions, `analysis.games.dreeg_phase.phase_value` and `analysis.games.dreeg` (odds, strength, stats, match,
thresholds)."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from analysis.games import dreeg, dreeg_phase
from simcore.errors import CardsimError
from simcore.games import dreeg_dd as dd
from simcore.games import dreeg_exact as ex
from simcore.games import dreeg_rules as r


def masks(*hands: str) -> list[int]:
    return [r.DECK.mask(r.DECK.parse_cards(h)) for h in hands]


# --- dreeg_dd.solve ------------------------------------------------------------------------------------------------
HANDS = masks("HA H10 HK", "SA S10 SK", "EA E10 EK", "LA L10 LK")
LEAD = masks("H10 HK", "SA S10 SK", "EA E10 EK", "LA L10 LK")  # HA already led by seat 0


@pytest.mark.parametrize("change, match", [
    (dict(hands=[HANDS[0], HANDS[0], HANDS[2], HANDS[3]]), "hands: a card is held by two hands"),
    (dict(hands=[-1, HANDS[1], HANDS[2], HANDS[3]]), r"hands must be integer masks of the 24 cards \(bits 0-23\)"),
    (dict(hands=[1 << 24, HANDS[1], HANDS[2], HANDS[3]]), "hands must be integer masks of the 24 cards"),
    (dict(hands=[1.0, 2.0]), "hands must be integer masks"),
    (dict(hands=[HANDS[0]]), "hands must be a list of 2-4 card masks, one per seat"),
    (dict(hands=HANDS + [0]), "hands must be a list of 2-4 card masks"),
    (dict(hands=[HANDS[0], HANDS[1] | 1]), "equal size"),
    (dict(leader=7), "leader must be from 0 to 3, got 7"),
    (dict(leader=-1), "leader must be from 0 to 3, got -1"),
    (dict(leader=0.5), "leader must be a whole number from 0 to 3, got 0.5"),
    (dict(trump=5), r"trump \(a suit, -1: none\) must be from -1 to 3, got 5"),
    (dict(trump=None), r"trump \(a suit, -1: none\) must be a whole number"),
    (dict(maxside={0, 7}), "maxside must be a set of one or more seats 0-3, got {0, 7}"),
    (dict(maxside=set()), "maxside must be a set of one or more seats 0-3"),
    (dict(maxside=0), "maxside must be a set of one or more seats 0-3, got 0"),
    (dict(mode=9), r"mode \(FREE 0, STRICT 1, FOLLOW 2\) must be from 0 to 2, got 9"),
    (dict(flags=4), r"flags \(NO_UNDERTRUMP 1 \| HEAD_TRUMPED_LEAD 2\) must be from 0 to 3, got 4"),
    (dict(last_led=7), r"last_led \(-2: no Kamerun restriction, -1: before trick 1, else the suit led last\) must "
                       "be from -2 to 3, got 7"),
    (dict(last_led=-3), "last_led .* must be from -2 to 3, got -3"),
    (dict(exempt=9), r"exempt \(a seat, -1: none\) must be from -1 to 3, got 9"),
    (dict(count_tricks=1), "count_tricks must be True or False, got 1"),
    (dict(trick=[99]), r"trick must list distinct cards 0-23, got \(99,\)"),
    (dict(trick=[-1]), "trick must list distinct cards 0-23"),
    (dict(trick=[5.0]), "trick must list distinct cards 0-23"),
    (dict(hands=LEAD[:2] + [LEAD[2] & ~1, LEAD[3]], trick=[r.HEART_ACE, r.HEART_ACE]),
     "trick must list distinct cards 0-23"),
    (dict(trick=[r.HEART_ACE]), "a card on the table is still in a hand"),
    (dict(hands=masks("H10 HK", "H9 SK", "EA E10 EK", "LA L10 LK"), trick=[r.HEART_ACE, r.DECK.parse_cards("SA")[0]]),
     r"^trick HA SA: seat 1 may not play SA there \(mode 1, flags 0\); it had to play one of H9$"),
])
def test_solve_refuses(change, match):
    args = dict(hands=HANDS, leader=0, trump=2, maxside={0, 2})
    args.update(change)
    with pytest.raises(CardsimError, match=match):
        dd.solve(**args)


def test_solve_same_answers_and_trusted_twin():
    """Valid positions give what they gave before the checks (the plain minimax of test_dreeg_dd agrees); whole
    floats and numpy values pass; `trusted_solve`, which the PIMC policy calls, gives the same value."""
    assert dd.solve(HANDS, 0, 2, {0, 2}) == 100
    assert dd.solve(HANDS, 0.0, 2.0, [0, 2]) == 100
    assert dd.solve(np.array(HANDS, dtype=np.uint64), np.int64(0), 2, np.array([0, 2])) == 100
    assert dd.solve(LEAD, 0, 2, {0, 2}, trick=[r.HEART_ACE]) == dd.trusted_solve(LEAD, 0, 2, {0, 2},
                                                                                   trick=[r.HEART_ACE])
    sweep = masks("EA LA HA SA E10 L10", "E9 EU EO L9 LU LO", "H9 HU HO S9 SU SO", "EK LK HK SK H10 S10")
    assert dd.solve(sweep, 0, -1, {0}, last_led=-1, exempt=0, count_tricks=True) == 6
    rng = np.random.default_rng(1)
    hands, _ = r.deal_hands(rng.permutation(24), 4)
    assert dd.solve(hands, 0, 2, {0, 2}) == dd.trusted_solve(hands, 0, 2, {0, 2})


# --- dreeg_rules.wegloescher_erase ---------------------------------------------------------------------------------
@pytest.mark.parametrize("strokes, pair, erase, match", [
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, -3, 0, 0], r"erase\[2\] must be from 0 to 3, got -3"),
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, 4, 0, 0], r"erase\[2\] must be from 0 to 3, got 4"),
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, 1.5, 0, 0], r"erase\[2\] must be a whole number"),
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, 3, 1, 0], r"erase must give 1-3 to the hand's winner, one of the pair \[2, 3\]"),
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, 0, 0, 0], "erase must give 1-3 to the hand's winner"),
    ([6, 2, 3, 1, 4], [2, 3], [1, 0, 3, 0, 0], "and 0 to every other seat"),
    ([6, 2, 3, 1, 4], [2, 3], [0, 0, 3], "erase must be a list of 5 counts, one per seat like strokes"),
    ([6, 2, 3, 1, 4], [2, 9], [0, 0, 3, 0, 0], r"pair must be the two seats \(0-4\) who played the hand, both "
                                               r"holding strokes, got \[2, 9\]"),
    ([6, 2, 3, 1, 4], [2, 2], [0, 0, 3, 0, 0], "pair must be the two seats"),
    ([6, 2, 3, 1, 4], [2], [0, 0, 3, 0, 0], "pair must be the two seats"),
    ([6, 2, 3, 1, 4], 2, [0, 0, 3, 0, 0], "pair must be the two seats"),
    ([6, 0, 3, 1, 4], [1, 2], [0, 0, 3, 0, 0], "pair must be the two seats .* both holding strokes"),
    ([6, -2, 3, 1, 4], [2, 3], [0, 0, 3, 0, 0], r"strokes\[1\] must be at least 0, got -2"),
    ([6, 2], [0, 1], [3, 0], "strokes must be a list of every seat's strokes, 3 seats or more"),
])
def test_wegloescher_erase_refuses(strokes, pair, erase, match):
    with pytest.raises(CardsimError, match=match):
        r.wegloescher_erase(strokes, pair, erase)


def test_wegloescher_erase_same_answers():
    """Example G1 (spec §7.11) and a hand won by the pair's other player, a tuple pair and numpy counts."""
    assert r.wegloescher_erase([6, 2, 3, 1, 4], [2, 3], [0, 0, 3, 0, 0]) == [3, 1, 0, 1, 1]
    assert r.wegloescher_erase([6, 2, 3, 1, 4], (2, 3), [0, 0, 0, np.int64(2), 0]) == [4, 1, 3, 0, 2]
    assert r.wegloescher_erase([7, 0, 7], [2, 0], [1, 0, 0]) == [6, 0, 7]


# --- dreeg_exact ---------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("call, match", [
    (lambda: ex.marriage_distribution(25), r"n \(the cards in the hand\) must be from 0 to 24, got 25"),
    (lambda: ex.marriage_distribution(-1), r"n \(the cards in the hand\) must be from 0 to 24, got -1"),
    (lambda: ex.marriage_distribution(6.5), "must be a whole number from 0 to 24, got 6.5"),
    (lambda: ex.marriage_distribution("6"), "must be a whole number from 0 to 24"),
    (lambda: ex.suit_marriage(30), "must be from 0 to 24, got 30"),
    (lambda: ex.trump_marriage(0, True), "must be from 1 to 24, got 0"),
    (lambda: ex.trump_count_distribution(24, False), "must be from 0 to 23, got 24"),
    (lambda: ex.trump_marriage(6, 1), "dealer must be True or False, got 1"),
    (lambda: ex.table_marriage_distribution((6, 6, 6)), r"sizes must be .* adding up to 24, e.g. \(6, 6, 6, 6\), "
                                                        r"got \(6, 6, 6\)"),
    (lambda: ex.table_marriage_distribution((30, -6)), "sizes must be from 0 to 24, got 30"),
    (lambda: ex.table_marriage_distribution(24), "adding up to 24"),
    (lambda: ex.table_marriage_distribution((6, 6, 12), counted=5), "counted must be from 0 to 3, got 5"),
])
def test_exact_refuses(call, match):
    with pytest.raises(CardsimError, match=match):
        call()


def test_exact_same_answers():
    assert ex.marriage_distribution(6) == ex.marriage_distribution(6.0) == {
        0: F(26618, 33649), 1: F(964, 4807), 2: F(282, 33649), 3: F(1, 33649)}
    assert ex.marriage_distribution(0) == {0: F(1)} and ex.marriage_distribution(24) == {4: F(1)}
    assert ex.trump_marriage(24, True) == 1 and ex.trump_marriage(0, False) == 0
    assert ex.table_marriage_distribution([6, 6, 12], counted=2) == ex.table_marriage_distribution((6, 6, 12), 2)
    assert sum(ex.table_marriage_distribution((8, 8, 8)).values()) == 1


# --- analysis.games.dreeg_phase.phase_value ------------------------------------------------------------------------
@pytest.mark.parametrize("change, match", [
    (dict(replicates=0), r"replicates \(bootstrap redraws\) must be at least 1, got 0"),
    (dict(replicates=2.5), r"replicates \(bootstrap redraws\) must be a whole number"),
    (dict(phase=9), "phase must be from 1 to 8, got 9"),
    (dict(phase=True), "phase must be a whole number from 1 to 8, got True"),
    (dict(players=2), "players must be from 3 to 4, got 2"),
    (dict(policy="gredy"), r"unknown policy 'gredy' \(did you mean 'greedy'\?\)"),
    (dict(policy=["greedy"]), "unknown policy"),
    (dict(n=100.5), "--n must be a whole number, got 100.5"),
    (dict(n=50), "--n must be at least 100"),
    (dict(options=5), "options must be a dict such as"),
    (dict(options=[("strokes_per_phase", 9)]), "strokes_per_phase"),
    (dict(strokes=(7, 5)), "--strokes takes whole numbers separated by commas in a string"),
    (dict(strokes="7,5", seat=0.5), "--seat must be a whole number, got 0.5"),
    (dict(strokes="7,5", dealer="1"), "--dealer must be a whole number, got '1'"),
    (dict(strokes="7,5", seat=2), "--seat must be a seat 0-1 of --strokes, got 2"),
])
def test_phase_value_refuses(change, match):
    args = dict(n=100, seed=1, replicates=2)
    args.update(change)
    with pytest.raises(CardsimError, match=match):
        dreeg_phase.phase_value(**args)


def test_phase_value_same_answers():
    """Whole floats, option pairs or a dict, and the query give the tables of the plain call."""
    plain = dreeg_phase.phase_value(1, 3, "greedy", 100, 1, options=(("strokes_per_phase", 7),), strokes="7,5",
                                    seat=1, dealer=0, replicates=3)
    again = dreeg_phase.phase_value(1.0, 3.0, "greedy", 100.0, 1, options={"strokes_per_phase": 7}, strokes="7,5",
                                    seat=1.0, dealer=0, replicates=3.0)
    for name in ("start", "duel", "vectors", "state"):
        assert plain[name].equals(again[name])
    assert plain["start"].attrs["phase"] == 1 and plain["state"].you.tolist() == [False, True]


# --- analysis.games.dreeg ------------------------------------------------------------------------------------------
HAND = "HA H10 HK HO E9 L9"
DUEL = "SA S10 HK HO E9 L9"


@pytest.mark.parametrize("call, match", [
    (lambda: dreeg.odds("1", HAND), "--phase must be a whole number from 1 to 8, got '1'"),
    (lambda: dreeg.odds(True, HAND), "--phase must be a whole number from 1 to 8, got True"),
    (lambda: dreeg.odds(9, HAND), "--phase must be from 1 to 8, got 9"),
    (lambda: dreeg.odds(1.5, HAND), "--phase must be a whole number from 1 to 8, got 1.5"),
    (lambda: dreeg.odds(1, HAND, players=5), "--players must be 3 or 4, got 5"),
    (lambda: dreeg.odds(1, HAND, players="4"), "--players must be a whole number, got '4'"),
    (lambda: dreeg.odds(1, HAND, position=1.5), "--position must be a whole number, got 1.5"),
    (lambda: dreeg.odds(1, HAND, position=4), r"--position must be 0 \(forehand\) to 3 \(dealer\), got 4"),
    (lambda: dreeg.odds(1, HAND, policy=["greedy"]), "unknown policy"),
    (lambda: dreeg.odds(1, HAND.split()), "--hand takes the cards as one string, names separated by spaces, got"),
    (lambda: dreeg.odds(1, None), "--hand takes the cards as one string"),
    (lambda: dreeg.odds(1, HAND, turnup=5), "--turnup takes the cards as one string"),
    (lambda: dreeg.odds(2, HAND, trump=2), r"--trump takes a suit letter as a string, one of E, L, H, S \(or "
                                           r"'surrender'\), got 2"),
    (lambda: dreeg.odds(1, HAND, options=5), "options must be a dict such as .* pairs, got 5$"),
    (lambda: dreeg.odds(1, HAND, options=[("information", "counting_errors", 1)]), "options must be a dict such as"),
    (lambda: dreeg.odds(1, HAND, options=["information=counting_errors", ("a", 1)]), "options must be a dict"),
    (lambda: dreeg.odds(1.5, DUEL, players=2), "--phase must be a whole number"),
    (lambda: dreeg.odds(1, DUEL, players=2, position=0.5), "--position must be a whole number, got 0.5"),
    (lambda: dreeg.duel_odds(0, DUEL), "--phase must be from 1 to 8, got 0"),
    (lambda: dreeg.strength(phase=1.5), "--phase must be a whole number, got 1.5"),
    (lambda: dreeg.strength(phase=9), "strength needs a phase 1-8 and 2-4 players"),
    (lambda: dreeg.strength(players="2"), "--players must be a whole number, got '2'"),
    (lambda: dreeg.strength(policy=["greedy"], n=50, seed=1), "^unknown policy '\\['greedy'\\]'"),  # was TypeError
    (lambda: dreeg.stats(players=4.5), "--players must be a whole number, got 4.5"),
    (lambda: dreeg.stats(players=5), "--players must be 3 or 4, got 5"),
    (lambda: dreeg.stats(policy=None), "unknown policy 'None'"),
    (lambda: dreeg.match("greedy", ["random"]), "unknown policy"),
    (lambda: dreeg.match("greedy", "random", players=True), "--players must be a whole number, got True"),
    (lambda: dreeg.thresholds(["close"]), "unknown --decision"),
    (lambda: dreeg.thresholds("clos"), r"unknown --decision 'clos' \(did you mean 'close'\?\)"),
    (lambda: dreeg.thresholds("call", players=3.5), "--players must be a whole number, got 3.5"),
    (lambda: dreeg.thresholds("close", strokes=(7, 7)), "--strokes takes whole numbers separated by commas"),
    (lambda: dreeg.thresholds("close", strokes="7,7", value_hands=50), "^value_hands must be at least 100"),
    (lambda: dreeg.thresholds("close", strokes="7,7", seat=0.5, value_hands=100), "--seat must be a whole number"),
    (lambda: dreeg.thresholds("close", strokes="7,7", value_hands=100.5), "^value_hands must be a whole number, got 100.5"),
])
def test_analysis_refuses(call, match):
    with pytest.raises(CardsimError, match=match):
        call()


def test_analysis_whole_floats_give_the_same_answers():
    """1.0 is phase 1, 4.0 four players: the frames equal the plain call's."""
    plain = dreeg.odds(1, HAND, turnup="H9", n=40, seed=7)
    floats = dreeg.odds(1.0, HAND, players=4.0, position=0.0, turnup="H9", n=40, seed=7)
    assert plain.equals(floats) and floats.attrs["phase"] == 1 and floats.attrs["players"] == 4
    assert dreeg.odds(1, DUEL, players=2, turnup="SU", n=20, seed=1).equals(
        dreeg.odds(1.0, DUEL, players=2.0, turnup="SU", n=20, seed=1))
    assert dreeg.strength(1, 2, n=20, seed=1).equals(dreeg.strength(1.0, 2.0, n=20.0, seed=1))
    assert dreeg.strength(1.0, 2, n=20.0, seed=1).attrs["n"] == 20
    close = dreeg.thresholds("close", n=40.0, seed=1, players=4.0)
    assert close.equals(dreeg.thresholds("close", n=40, seed=1)) and repr(close.attrs["n"]) == "40"
    a, b = dreeg.stats(players=3, n=2, seed=1), dreeg.stats(players=3.0, n=2, seed=1)
    assert all(a[k].equals(b[k]) for k in a) and b["losers"].attrs["players"] == 3


def test_options_in_any_form_give_the_same_numbers():
    """NAME=VALUE strings (as on the command line), a dict and (name, value) pairs are one set of options."""
    forms = ("kamerun_bei_nacht=phase4", ["kamerun_bei_nacht=phase4"], {"kamerun_bei_nacht": "phase4"},
             [("kamerun_bei_nacht", "phase4")])
    frames = [dreeg.stats(n=30, seed=1, options=form) for form in forms]
    for frame in frames[1:]:
        assert all(frame[key].equals(frames[0][key]) for key in frames[0])
