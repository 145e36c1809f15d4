"""The Perlaggen solver's lazy move list (issue 4, speed): the natural card `_search` tries before
building a node's list (`_first_natural`) is exactly the play the full list (`_moves`) tries first."""

import numpy as np

from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.rng import block_words


def _positions(seed, n):
    """(hands (4,) uint64, trump, leader, trick [(card, identity)]) with 0-2 plays into tricks 1-3 of
    deals as played, reached by plays drawn uniformly from the legal ones."""
    rows = D.deal_block(block_words(seed, 0, n, D.WORDS_PER_DEAL))
    rng = np.random.default_rng(seed)
    for row in rows:
        hands, trump = row[:play.SEATS].astype(np.uint64), int(row[D.TRUMP])
        leader = play.FOREHAND
        for _ in range(int(rng.integers(0, 3))):  # whole tricks played first
            trick = _play(hands, trump, leader, play.SEATS, rng)
            leader = play.trick_winner_of(trick, leader, trump)
        yield hands, trump, leader, _play(hands, trump, leader, int(rng.integers(0, 3)), rng), rng


def _play(hands, trump, leader, plays, rng):
    """A trick of ``plays`` random legal plays led by ``leader``, taken out of ``hands``."""
    trick = []
    for k in range(plays):
        seat = (leader + k) % play.SEATS
        options = sorted(play.legal_plays(int(hands[seat]), trick, trump))
        card, identity = options[int(rng.integers(len(options)))]
        hands[seat] &= ~np.uint64(1 << card)
        trick.append((card, identity))
    return trick


def test_first_natural_is_the_first_play_of_the_full_list():
    """At random nodes, with no killer, a killer from the node's list or a random card of the hand
    as the killer, `_first_natural` gives -1 or the natural card the search tries first from the
    full list: the killer when the list holds it, else the list's first play."""
    pmasks, precs = play.PlayRules("innsbruck").arrays()
    moves, work = play.new_moves(), play._new_work()
    found = 0
    for hands, trump, leader, trick, rng in _positions(3, 150):
        count = len(trick)
        seat = (leader + count) % play.SEATS
        pmask, prec = pmasks[trump], precs[trump]
        tcards, tids = play._trick_arrays(trick)
        slot, best_key = play._best_slot(tids, tcards, count, prec, trump) if count else (0, 0)
        n = play._moves(hands, seat, tcards, tids, count, slot, best_key, pmask, prec, trump, moves, 0, work)
        listed = [(int(moves[0, 0, j]), int(moves[0, 1, j])) for j in range(n)]
        led = play.id_suit(trick[0][1]) if count else -1
        hand = int(hands[seat])
        held = [c for c in range(play.N_IDS) if hand >> c & 1]
        for killer in [-1, listed[int(rng.integers(n))], (held[int(rng.integers(len(held)))],) * 2]:
            code = killer if killer == -1 else killer[0] * 64 + killer[1]
            first = play._first_natural(np.uint64(hand),
                                        np.uint64(int(hands[0] | hands[1] | hands[2] | hands[3]) ^ hand),
                                        pmask, count, led,
                                        trump, best_key if count else -1, count >= 2 and slot == count - 2, code)
            if first >= 0:
                found += 1
                assert (first, first) == (killer if killer in listed else listed[0])
    assert found > 150


def test_lazy_list_after_a_trick_is_taken_back():
    """A deal where a stale trick key (the lead of a later trick, left after a take-back across a trick
    boundary) once made the lazily tried play differ from the list's first and one play go untried,
    turning the Spiel (found in review against the killer-only solver, which agrees with the solver
    before the killer): leader 0, trump 3, team 1 wins."""
    hands = np.array([[138412432, 2416066624, 73765, 5377623040]], dtype=np.uint64)
    assert play.spiel_teams(hands, np.array([3]), leader=0)[0] == 1
