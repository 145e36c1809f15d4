"""Dreeg worked examples of shared/rules/dreeg.md not yet reproduced through the engine: T11 (§7.4, line 983: a
missed go-out window does not reopen) and P6 (§7.10, line 1058, with §2.1 line 111: one litre per Bolln)."""

from __future__ import annotations

import numpy as np

from simcore.games import dreeg_game as g
from simcore.games import dreeg_play as dp
from simcore.games import dreeg_rules as r
from tests.test_dreeg_play import OPTS, Scripted, cards, perm_for

# T11 deal, 4-player Rufen (phase 3), trump hearts: FH (position 0) calls H10, held by position 2, so the team is
# {0, 2} and the opponents {1, 3}. No hand holds a marriage, so the points are card points only.
T11_HANDS = ["HA EA LA HK SO EU", "H9 E9 L9 E10 SA EK", "H10 EO LU HO SU LK", "HU S9 LO L10 S10 SK"]
T11_PLAY = {  # the card each position plays to tricks 1-6
    0: "HA EA LA HK SO EU",   # wins tricks 1-4 (23 + 14 + 16 + 27 = 80 points; 53 after trick 3)
    1: "H9 E9 L9 E10 SA EK",  # wins trick 5 with SA (26) and trick 6 with EK (14): 40 points
    2: "H10 EO LU HO SU LK",  # H10 is the called card, played to trick 1 (§3.3.1)
    3: "HU S9 LO L10 S10 SK",
}


def test_t11_a_missed_go_out_window_does_not_reopen_section_7_4():
    """dreeg.md §7.4 T11 (line 983), §3.0.7 windows (lines 333-338): the team reaches 66 by winning trick 4 and
    lets the window pass; the opponents win tricks 5 and 6 and finish with 40, the team with 80. No window
    reopens: after trick 4 the team is asked for the last time; after trick 5 only one trick remains, so nobody is
    asked. Played out: the team (>= 66) wins against opponents < 66 and each member erases status(opp) = 1."""
    asked = []
    script = {pos: iter(cards(text)) for pos, text in T11_PLAY.items()}
    may_go_out_in_trick_6 = []

    def go_out(play, pos):
        side = play.sides[pos]
        asked.append((pos, sum(play.tricks), play.side_score(side), play.tricks_left))
        return False  # the team lets every window pass

    def card(play, pos, legal):
        if sum(play.tricks) == 5 and not play.trick:  # between tricks 5 and 6: can either side still go out?
            may_go_out_in_trick_6.extend(play._may_go_out(s) for s in (0, 1))
        return next(script[pos])

    policies = [Scripted(call=cards("H10")[0], go_out=go_out, card=card)] + \
        [Scripted(go_out=go_out, card=card) for _ in range(3)]
    res = dp.play_hand("RU", 3, perm_for(T11_HANDS), policies, OPTS)
    assert res.sides == [0, 1, 0, 1] and res.trump == r.DECK.suits.index("H") and not res.marriages
    # windows: the team, after each of its tricks 1-4; 66 is first reached at trick 4 (53 after trick 3)
    assert asked == [(0, 1, 23, 5), (0, 2, 37, 4), (0, 3, 53, 3), (0, 4, 80, 2)]
    assert may_go_out_in_trick_6 == [False, False]  # after trick 5 only one trick remains (§3.0.7 latest window)
    assert res.kind == "played" and res.out_side == -1
    assert res.tricks == [4, 2, 0, 0] and res.points == [80, 40, 80, 40]
    assert r.status(40, 2) == 1
    assert res.erase == [1, 0, 1, 0]  # each team member erases status(opp) = 1


def test_p6_one_litre_per_bolln_section_7_10():
    """dreeg.md §7.10 P6 (line 1058) with §2.1 (line 111: after phase 8 each player buys one litre per Bolln on
    his slate): Bolln counts A2 B3 C1 D2 -> A buys 2 litres, B 3, C 1, D 2. The product counts a seat's Bolln as
    the phases it lost (`dreeg_game.bolln`) and a game's Bolln histograms and heaviest loser from them
    (`GameJob` counts, `_count_game`); litres are those Bolln, one each."""
    A, B, C, D = range(4)
    losers = [[B], [A], [B], [C], [D], [B], [A], [D]]  # phases 1-8, one loser each
    phases = [g.PhaseRecord(p, who, subgame=r.SUBGAME[p]) for p, who in enumerate(losers, start=1)]
    litres = g.bolln(phases, 4)  # one litre per Bolln (§2.1)
    assert litres == [2, 3, 1, 2] and sum(litres) == 8
    parts = {name: np.zeros(shape, dtype=np.int64) for name, shape in g.counts_layout(4).items()}
    g._count_game(phases, [A, B, C, D], parts)
    for seat, count in zip((A, B, C, D), (2, 3, 1, 2)):
        assert parts["bolln_seat"][seat, count] == 1 and parts["bolln_seat"][seat].sum() == 1
    assert list(parts["most_bolln"]) == [0, 1, 0, 0, 0]  # B alone has the most Bolln (buys the most)
