"""The Bauernstoss solver's bounds at a trick start (`_quick_points`, `_start_bounds`) against the plain
minimax of tests/naive_bauernstoss.py: a lower bound never above the value, an upper bound never below it."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as sv

import naive_bauernstoss as naive

RULES = {play.BS_OVERTAKE: "BS", play.BS_JACK_ALWAYS: "BS:always_overrides_follow", play.BS_NO_JACK: "BS:off",
         play.AS_BEAT_TRUMP: "AS", play.DS_FOLLOW: "DS"}
DEAL = (st.permutations(range(32)), st.integers(0, 3), st.integers(0, 3), st.sampled_from(sorted(RULES)))


def _bits(hands, trump: int) -> np.ndarray:
    """(4,) uint64 strength-bit masks of four card lists."""
    return np.array([sv.to_bits(np.uint64(sum(1 << c for c in h)), trump) for h in hands], dtype=np.uint64)


def _seats(bits, leader: int) -> tuple:
    """The hands of the leader, his partner and the two opponents, in `_quick_points`' order."""
    return bits[leader], bits[(leader + 2) % 4], bits[(leader + 1) % 4], bits[(leader + 3) % 4]


def _quick(bits, leader: int) -> int:
    """`_quick_points` of the side of ``leader``."""
    return int(sv._quick_points(*_seats(bits, leader)))


def _bounds(bits, leader: int, team: int) -> tuple[int, int]:
    """`_start_bounds` of ``team``'s points, ``leader`` to lead."""
    lower, upper = sv._start_bounds(*_seats(bits, leader), leader % 2 == team)
    return int(lower), int(upper)


def _check_bounds(bits, leader: int, exact_of) -> None:
    """The quick points of the side on lead are at most its value; `_start_bounds` of both teams
    hold the value between them. ``exact_of(team)``: the exact points of ``team``."""
    exact = {team: exact_of(team) for team in (0, 1)}
    assert _quick(bits, leader) <= exact[leader % 2]
    for team in (0, 1):
        lower, upper = _bounds(bits, leader, team)
        assert lower <= exact[team] <= upper


def _leader_strong(pack, trump: int, leader: int, k: int, stacked: int) -> list[list[int]]:
    """Hands of ``k`` cards dealt from ``pack``; the leader first takes the ``stacked`` strongest cards
    (for ``trump``) of the pack's first 2k, so that the bounds have winners to count."""
    head = sorted(pack[:2 * k], key=lambda c: -int(sv.TO_BIT[trump, c]))
    mine = head[:stacked] + [c for c in pack if c not in head[:stacked]][:k - stacked]
    rest = [c for c in pack if c not in mine]
    hands = [[] for _ in range(4)]
    hands[leader] = sorted(mine)
    for i, seat in enumerate((leader + j) % 4 for j in (1, 2, 3)):
        hands[seat] = sorted(rest[i * k:(i + 1) * k])
    return hands


def _check_against_minimax(pack, trump: int, leader: int, rule: int, k: int, stacked: int) -> None:
    hands = _leader_strong(pack, trump, leader, k, stacked)
    bits = _bits(hands, trump)
    ours = naive.minimax_points(hands, trump, leader, leader % 2, (), RULES[rule])
    total = int(sv.bit_points(np.bitwise_or.reduce(bits)))
    _check_bounds(bits, leader, lambda team: ours if team == leader % 2 else total - ours)


@settings(max_examples=80, deadline=None)
@given(*DEAL, st.integers(1, 4), st.integers(0, 4))
def test_start_bounds_hold_against_minimax(pack, trump, leader, rule, k, stacked):
    """Endings of 1-4 tricks under all five play rules, the leader often holding the strongest cards:
    the bounds never cross the plain minimax value."""
    _check_against_minimax(pack, trump, leader, rule, k, min(stacked, k))


def test_start_bounds_hold_on_five_trick_endings():
    """Three endings of 5 tricks (the leader holding 3-5 of the strongest cards; three play rules)
    against the plain minimax, which does not use the bounds (the solver does, so it could not check
    them)."""
    rng = np.random.default_rng(11)
    for stacked, rule in zip((3, 4, 5), (play.BS_OVERTAKE, play.AS_BEAT_TRUMP, play.DS_FOLLOW)):
        pack = [int(c) for c in rng.permutation(32)]
        _check_against_minimax(pack, int(rng.integers(4)), int(rng.integers(4)), rule, 5, stacked)


def _hands(*texts: str) -> list[list[int]]:
    return [bs.DECK.parse_cards(text) for text in texts]


def test_leader_cashing_every_trick_takes_every_card():
    """No trumps out, the leader holds the top spades sA sT (the others' best is sK) and hA: he cashes
    all three tricks, so his side takes all 54 points, which is the exact value."""
    hands = _hands("sA sT hA", "sK sD h8", "s7 h7 d7", "s9 hK dA")
    bits = _bits(hands, 0)
    assert _quick(bits, 0) == 54 == naive.minimax_points(hands, 0, 0, 0)
    assert _bounds(bits, 0, 1) == (0, 0)


def test_trump_holders_limit_the_plain_rounds():
    """Diamonds trumps; the leader has no trump and the winners sA sT; every other seat holds a trump
    (seat 1 the jack of clubs, the partner d7, seat 3 dT), and the opponents one spade each, so one
    spade round only: sA (11) with the partner's dearest spade s8 (0) and the opponents' sK (4) and
    sD (3): 18 points. The partner's d7 is no sure trump (dT and cB are higher)."""
    hands = _hands("sA sT s9", "cB sK h7", "s7 s8 d7", "sD hA dT")
    bits = _bits(hands, 3)
    assert _quick(bits, 0) == 18
    assert 18 <= naive.minimax_points(hands, 3, 0, 0)
    # the other team: at least its sure trumps cB and dT (12), at most the 51 points left minus 18
    assert _bounds(bits, 0, 1) == (12, 51 - 18)
