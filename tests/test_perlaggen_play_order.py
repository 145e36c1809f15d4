"""The Perlaggen solver's dynamic move order (issue 4, speed): a ply's killer play is tried first,
the other plays keep their order, and the order never changes a value."""

import numpy as np

from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.rng import block_words


def test_nth_tries_the_first_then_the_rest_in_order():
    """`_nth` walks a list of n plays as: the play at ``first``, then every other in list order."""
    for n in range(1, 13):
        for first in range(n):
            order = [play._nth(t, first) for t in range(n)]
            assert order == [first] + [i for i in range(n) if i != first]


def test_root_value_is_the_best_lead_value():
    """On deals as played, the leader's team wins the Spiel exactly when one of its legal leads
    (every card, every identity) leaves a position it wins: each lead is a separate solve, with
    killers of its own, so this checks that the killers of one search never change a value. Both sides
    use the solver; its values against the plain minimax are checked in tests/test_perlaggen_play.py."""
    rows = D.deal_block(block_words(7, 0, 12, D.WORDS_PER_DEAL))
    hands, trumps = np.ascontiguousarray(rows[:, :play.SEATS]), rows[:, D.TRUMP].astype(np.int64)
    leader = play.FOREHAND
    team = leader % 2
    winners = play.spiel_teams(hands, trumps, leader=leader)
    for deal, trump, winner in zip(hands, trumps, winners):
        wins = False
        for card, identity in sorted(play.legal_plays(int(deal[leader]), [], int(trump))):
            after = deal.copy()
            after[leader] &= ~np.uint64(1 << card)
            if play.position_wins(after, int(trump), team, leader, trick=[(card, identity)]):
                wins = True
                break
        assert wins == (winner == team)
