"""The Perlaggen solver's table and buffers (issue 4, speed): results do not depend on the table's
size or on reusing it, and `position_wins` reuses its buffers across calls."""

import numpy as np

import naive_perlaggen_play as naive
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.rng import block_words


def played_deals(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(hands (n, 4) uint64, trumps (n,) int64) of n Innsbruck deals as played."""
    rows = D.deal_block(block_words(seed, 0, n, D.WORDS_PER_DEAL))
    return np.ascontiguousarray(rows[:, :play.SEATS]), rows[:, D.TRUMP].astype(np.int64)


def test_tiny_table_solves_alike():
    """A table of one bucket (every entry collides) gives the same Spiel winners as the default one:
    a collision only costs search, never a wrong value."""
    hands, trumps = played_deals(60, seed=5)
    assert (play.spiel_teams(hands, trumps, table=play.new_table(1)) ==
            play.spiel_teams(hands, trumps)).all()


def test_reused_table_matches_fresh_tables():
    """One table serving many solves (entries of earlier solves are never read) gives what a fresh
    table per deal gives."""
    hands, trumps = played_deals(40, seed=9)
    table = play.new_table()
    shared = play.spiel_teams(hands, trumps, table=table)
    fresh = [play.spiel_teams(hands[i:i + 1], trumps[i:i + 1], table=play.new_table())[0] for i in range(40)]
    assert list(shared) == fresh
    assert table[1][0] == 40 and table[1][1] > 0


def test_position_wins_reuses_buffers_and_agrees_with_minimax():
    """Repeated `position_wins` calls (the thread's reused table and scratch) agree with the plain
    minimax on three-card endings, for both teams."""
    rng = np.random.default_rng(3)
    perl = naive.perlaggen("innsbruck", 1)
    for _ in range(4):
        pack = [int(c) for c in rng.permutation(33)[:12]]
        hands = [set(pack[3 * i:3 * i + 3]) for i in range(4)]
        masks = np.array([sum(1 << c for c in h) for h in hands], dtype=np.uint64)
        leader = int(rng.integers(4))
        expected = naive.spiel_minimax(hands, 1, perl, leader, (1, 1))
        for team in (0, 1):
            assert play.position_wins(masks, 1, team, leader, (1, 1)) == (expected == team)
    assert play._scratch("moves", play.new_moves) is play._scratch("moves", play.new_moves)
