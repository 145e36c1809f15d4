"""Giltspiel trick play: spec §11.2 examples, kernels and solver against the plain references in
naive_tricks.py, policies' legality, the §10.5 baselines, and the ``solve`` command."""

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from analysis.games.giltspiel_play import spiel_odds
from analysis.stats import Estimate
from simcore import runner
from simcore.games import giltspiel_play as play
from simcore.errors import CardsimError
from simcore.games.giltspiel import DECK, Known
from simcore.tricks import (
    FOLLOW_OR_TRUMP,
    MUST_FOLLOW,
    bit_extract_table,
    legal_mask,
    legal_masks,
    lowest_card,
    popcount,
    suit_bits,
    trick_winner,
    trick_winners,
)

import naive_tricks as naive

SUITS = suit_bits(4, 8)
H = DECK.suits.index("H")
LEVEL = 0.999


def cards(text):
    return DECK.parse_cards(text)


def mask(cards_):
    return np.uint64(DECK.mask(cards_))


def masks(hands):
    return np.array([DECK.mask(h) for h in hands], dtype=np.uint64)


def legal(hand_text, led, trump=H):
    led_suit = -1 if led is None else DECK.suits.index(led)
    return set(DECK.cards_of(legal_mask(mask(cards(hand_text)), led_suit, trump, SUITS, FOLLOW_OR_TRUMP)))


def random_position(rng, size, played=None):
    """Four hands of ``size`` cards, a trump, a leader and trick counts consistent with the size."""
    pack = rng.sample(range(32), 4 * size + 1)
    hands = [set(pack[i * size:(i + 1) * size]) for i in range(4)]
    done = 5 - size if played is None else played
    won0 = rng.randint(max(0, done - 2), min(2, done))
    return hands, pack[-1] // 8, rng.randrange(4), (won0, done - won0)


# --- spec §11.2 -------------------------------------------------------------------------------
@pytest.mark.parametrize("trick, winner", [
    ("L9 LA H7 LK", 2),  # T13: the trump wins
    ("L9 LA EA LK", 1),  # T14: EA is off-suit
])
def test_t13_t14_trick_winner(trick, winner):
    assert trick_winner(np.array(cards(trick), dtype=np.int64), 0, H, 8) == winner


@pytest.mark.parametrize("hand, led, expected", [
    ("L7 H8 EA SK S9", "L", "L7 H8"),          # T15: follow or trump
    ("H8 EA SK S9 E7", "L", "H8 EA SK S9 E7"),  # T16: no Laub, anything
    ("H8 EA SK S9 E7", "H", "H8"),              # T17: trump led forces trump
    ("H8 EA SK S9 E7", None, "H8 EA SK S9 E7"),  # leading: anything
    ("L7 EA SK S9 E7", "H", "L7 EA SK S9 E7"),  # trump led, no trump: anything
])
def test_t15_t17_legal_moves(hand, led, expected):
    assert legal(hand, led) == set(cards(expected))


def test_t18_spiel_decided_after_third_trick():
    # seat 0 (South) holds the three top trumps: N/S (team 0) take tricks 1-3 and play stops
    hands = masks([cards("HA HK HO E7 E8"), cards("H7 H8 H9 E9 E10"), cards("SA SK SO L7 L8"),
                   cards("H10 HU EU EO EK")])
    line = play.play_line("greedy", hands, H)
    assert len(line) == 12  # three tricks; every player keeps two cards
    assert [w % 2 for w in play.trick_winners_of(line, H)] == [0, 0, 0]
    assert play.spiel_teams(hands[None, :], [H])[0] == 0
    assert len(play.optimal_line(hands, H)) == 12


def test_play_out_agrees_with_single_lines():
    rng = np.random.default_rng(3)
    pack = np.array([rng.permutation(32) for _ in range(300)])
    hands = np.stack([np.bitwise_or.reduce(np.uint64(1) << pack[:, 5 * s:5 * s + 5].astype(np.uint64), axis=1)
                      for s in range(4)], axis=1)
    trumps, u = pack[:, 20] // 8, rng.random((300, play.DECISIONS))
    for policy in play.POLICIES:
        teams, lengths = play.play_out(policy, hands, trumps, u)
        for i in range(300):
            winners = play.trick_winners_of(play.play_line(policy, hands[i], trumps[i], u[i]), trumps[i])
            assert lengths[i] == len(winners) and teams[i] == winners[-1] % 2


# --- kernels against the references -----------------------------------------------------------
hands_st = st.sets(st.integers(0, 31), min_size=0, max_size=8)
suit_st = st.integers(0, 3)


@pytest.mark.parametrize("width", [1, 3, 6])
def test_bit_extract_table_packs_the_bits_at_the_mask(width):
    table = bit_extract_table(width)
    assert table.shape == (1 << width, 1 << width)
    for m in range(1 << width):
        places = [b for b in range(width) if m >> b & 1]
        for x in range(1 << width):
            assert int(table[m, x]) == sum(((x >> b) & 1) << i for i, b in enumerate(places))


@given(hands_st, st.one_of(st.none(), suit_st), suit_st)
def test_legal_mask_matches_reference(hand, led, trump):
    def kernel(rule):
        return set(DECK.cards_of(legal_mask(mask(hand), -1 if led is None else led, trump, SUITS, rule)))

    assert kernel(FOLLOW_OR_TRUMP) == naive.legal_cards(hand, led, trump)
    assert kernel(MUST_FOLLOW) == naive.legal_cards_must_follow(hand, led)


@given(st.integers(1, 2**64 - 1))
def test_bit_helpers(m):
    assert lowest_card(np.uint64(m)) == (m & -m).bit_length() - 1
    assert popcount(np.uint64(m)) == bin(m).count("1")


@given(st.lists(st.integers(0, 31), min_size=4, max_size=4, unique=True), st.integers(0, 3), suit_st)
def test_trick_winner_matches_reference(trick, leader, trump):
    assert trick_winner(np.array(trick, dtype=np.int64), leader, trump, 8) == naive.trick_winner(trick, leader, trump)


def test_vectorized_kernels_match_scalar():
    rng = np.random.default_rng(5)
    tricks = np.array([rng.permutation(32)[:4] for _ in range(500)], dtype=np.int64)
    leaders, trumps = rng.integers(0, 4, 500), rng.integers(0, 4, 500)
    expected = [naive.trick_winner(list(t), l, s) for t, l, s in zip(tricks, leaders, trumps)]
    assert list(trick_winners(tricks, leaders, trumps, 8)) == expected
    hands = rng.integers(0, 1 << 32, 500, dtype=np.uint64)
    led = rng.integers(-1, 4, 500)
    got = legal_masks(hands, led, trumps, SUITS, FOLLOW_OR_TRUMP)
    assert all(set(DECK.cards_of(g)) == naive.legal_cards(DECK.cards_of(h), None if l < 0 else l, s)
               for g, h, l, s in zip(got, hands, led, trumps))


# --- solver against the plain minimax ---------------------------------------------------------
@settings(max_examples=300)
@given(st.integers(1, 3), st.randoms(use_true_random=False))
def test_solver_matches_minimax_on_endings(size, rng):
    hands, trump, leader, won = random_position(rng, size)
    team = naive.spiel_minimax(hands, trump, leader, won)
    assert play.position_wins(masks(hands), trump, team, leader, won)
    assert not play.position_wins(masks(hands), trump, 1 - team, leader, won)


@settings(max_examples=150)
@given(st.integers(1, 3), st.integers(1, 3), st.randoms(use_true_random=False))
def test_solver_matches_minimax_within_a_trick(size, played, rng):
    hands, trump, leader, won = random_position(rng, size)
    trick = []
    for i in range(played):  # random legal cards from the leader on
        seat = (leader + i) % 4
        card = rng.choice(sorted(naive.legal_cards(hands[seat], naive.suit(trick[0]) if trick else None, trump)))
        hands[seat].remove(card)
        trick.append(card)
    team = naive.spiel_minimax(hands, trump, leader, won, trick)
    assert play.position_wins(masks(hands), trump, team, leader, won, trick)
    assert not play.position_wins(masks(hands), trump, 1 - team, leader, won, trick)


@settings(max_examples=20)
@given(st.randoms(use_true_random=False))
def test_solver_matches_minimax_on_four_card_endings(rng):
    hands, trump, leader, won = random_position(rng, 4)
    team = naive.spiel_minimax(hands, trump, leader, won)
    assert play.position_wins(masks(hands), trump, team, leader, won)


@settings(max_examples=200)
@given(st.randoms(use_true_random=False))
def test_solver_on_full_deals_agrees_with_minimax_over_the_first_trick(rng):
    """Every sequence of legal first-trick cards is searched in plain Python; the four-card
    positions after it are valued by the solver (checked against the minimax above)."""
    hands, trump, _, _ = random_position(rng, 5)
    table = play.new_table()

    def value(trick, hands_now):
        if len(trick) == 4:
            winner = naive.trick_winner(trick, play.FOREHAND, trump)
            won = (1, 0) if winner % 2 == 0 else (0, 1)
            return 1 if play.position_wins(masks(hands_now), trump, 1, winner, won, table=table) else 0
        seat = (play.FOREHAND + len(trick)) % 4
        led = naive.suit(trick[0]) if trick else None
        results = []
        for card in naive.legal_cards(hands_now[seat], led, trump):
            rest = [h - {card} if s == seat else h for s, h in enumerate(hands_now)]
            results.append(value(trick + [card], rest))
        return max(results) if seat % 2 == 1 else min(results)

    expected = value([], hands)  # 1: team 1 wins
    assert play.spiel_teams(masks(hands)[None, :], [trump])[0] == expected


def relabelled(rng, hands, trump):
    """The same position on other cards: each suit's cards in play moved to other ranks keeping their
    order, the three plain suits permuted; -> (hands, trump)."""
    plain = [s for s in range(4) if s != trump]
    suit_map = {trump: trump, **dict(zip(plain, rng.sample(plain, 3)))}
    rank_map = {}
    for suit in range(4):
        ranks = sorted({c % 8 for h in hands for c in h if c // 8 == suit})
        new_ranks = sorted(rng.sample(range(8), len(ranks)))
        rank_map.update({suit * 8 + r: suit_map[suit] * 8 + n for r, n in zip(ranks, new_ranks)})
    return [{rank_map[c] for c in h} for h in hands], trump


@settings(max_examples=150)
@given(st.integers(2, 3), st.randoms(use_true_random=False))
def test_rank_relative_table_key_is_exact(size, rng):
    """Positions that differ only by ranks outside play and by the plain suits' names share a table key
    (`_position_key`), and the minimax gives them the same value; unrelated positions of the same
    shape (a trump and a plain card swapped between two hands) get different keys."""
    hands, trump, leader, won = random_position(rng, size)
    other, _ = relabelled(rng, hands, trump)
    key = play._position_key(masks(hands), leader, np.array(won), 0, trump, 1)
    assert play._position_key(masks(other), leader, np.array(won), 0, trump, 1) == key
    assert naive.spiel_minimax(other, trump, leader, won) == naive.spiel_minimax(hands, trump, leader, won)
    trumps = [c for h in hands for c in h if c // 8 == trump]
    plain = [c for h in hands for c in h if c // 8 != trump]
    holder = {c: seat for seat, h in enumerate(hands) for c in h}
    x, y = rng.choice(trumps or [None]), rng.choice(plain)
    if x is not None and holder[x] != holder[y]:  # a trump and a plain card change hands: trump counts change
        moved = [set(h) for h in hands]
        moved[holder[x]] = moved[holder[x]] - {x} | {y}
        moved[holder[y]] = moved[holder[y]] - {y} | {x}
        assert play._position_key(masks(moved), leader, np.array(won), 0, trump, 1) != key


@pytest.mark.slow
def test_solver_matches_minimax_on_full_deals(scale):
    """The plain minimax on whole deals (several seconds each): max(1, CARDSIM_TEST_SCALE) deals."""
    rng = random.Random(11)
    for _ in range(max(1, round(scale))):
        hands, trump, _, _ = random_position(rng, 5)
        team = naive.spiel_minimax(hands, trump, play.FOREHAND)
        assert play.spiel_teams(masks(hands)[None, :], [trump])[0] == team


@settings(max_examples=150)
@given(st.integers(1, 3), st.randoms(use_true_random=False))
def test_forced_tricks_match_minimax(size, rng):
    hands, trump, leader, _ = random_position(rng, size)
    got = play.forced_tricks(masks(hands), trump, leader)
    assert got[leader % 2] == naive.forced_tricks(hands, trump, leader) and sum(got) == size


@settings(max_examples=30)
@given(st.randoms(use_true_random=False))
def test_optimal_line_is_legal_and_keeps_the_spiel(rng):
    hands, trump, _, _ = random_position(rng, 5)
    m = masks(hands)
    line = play.optimal_line(m, trump)
    assert_legal_line(hands, trump, line)
    winners = play.trick_winners_of(line, trump)
    team = play.spiel_teams(m[None, :], [trump])[0]
    assert sum(w % 2 == team for w in winners) == 3 and winners[-1] % 2 == team
    tricks = play.forced_tricks(m, trump)
    assert sum(tricks) == 5 and (tricks[team] >= 3)


def assert_legal_line(hands, trump, line):
    """Every card of ``line`` is legal (spec §6.1) and played by the seat whose turn it is."""
    hands = [set(h) for h in hands]
    leader = play.FOREHAND
    for start in range(0, len(line), 4):
        trick = []
        for i, (seat, card) in enumerate(line[start:start + 4]):
            assert seat == (leader + i) % 4
            assert card in naive.legal_cards(hands[seat], naive.suit(trick[0]) if trick else None, trump)
            hands[seat].remove(card)
            trick.append(card)
        if len(trick) == 4:
            leader = naive.trick_winner(trick, leader, trump)


# --- policies ---------------------------------------------------------------------------------
@settings(max_examples=100)
@given(st.sampled_from(sorted(play.POLICIES)), st.randoms(use_true_random=False))
def test_policies_play_legal_cards_to_the_spiel(policy, rng):
    hands, trump, _, _ = random_position(rng, 5)
    line = play.play_line(policy, masks(hands), trump, [rng.random() for _ in range(play.DECISIONS)])
    assert_legal_line(hands, trump, line)
    winners = [w % 2 for w in play.trick_winners_of(line, trump)]
    assert len(line) == 4 * len(winners) and max(winners.count(0), winners.count(1)) == 3
    assert winners.count(winners[-1]) == 3  # play stops at the third trick of a team


@given(st.randoms(use_true_random=False))
def test_greedy_matches_reference(rng):
    size = rng.randint(1, 5)
    count = rng.randint(0, 3)
    pack = rng.sample(range(32), size + count)
    hand, trick, trump = pack[:size], pack[size:], rng.randrange(4)
    padded = np.zeros((1, 4), dtype=np.int64)
    padded[0, :count] = trick
    got = play.choose("greedy", [DECK.mask(hand)], padded, [count], [trump])[0]
    assert got == naive.greedy_card(hand, trick, trump)


@pytest.mark.parametrize("policy, spec_p", [("random", 0.5101), ("greedy", 0.4692)])
def test_spec_baselines(policy, spec_p, scale):
    """§10.5: P(forehand team wins the Spiel) under each policy, 20,000 deals (x CARDSIM_TEST_SCALE)."""
    n = int(20_000 * scale)
    deals, wins = runner.run(play.SpielJob(Known(), 1, policy), n, 2024, checkpoint=False, progress=False)[:2]
    lo, hi = Estimate(int(wins), int(deals), LEVEL).interval
    assert deals == n and lo <= spec_p <= hi


# --- command and odds -------------------------------------------------------------------------
DEAL = "E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7"


def test_solve_command_json(capsys):
    assert main(["solve", "giltspiel", "--deal", DEAL, "--trump", "H", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["spiel_team"] == 1 and out["tricks"] == [1, 4]
    line = [(seat, DECK.parse_face(token)) for seat, token in out["line"]]
    hands = [set(cards(part)) for part in DEAL.split("/")]
    assert_legal_line(hands, H, line)
    assert [w % 2 for w in play.trick_winners_of(line, H)].count(1) == 3


def test_solve_command_text(capsys):
    assert main(["solve", "giltspiel", "--deal", DEAL, "--trump", "h"]) == 0
    out = capsys.readouterr().out
    assert "team 1 (seats 1 and 3) wins" in out and "trick 1: 1:" in out


@pytest.mark.parametrize("deal, trump, message", [
    (DEAL.rsplit("/", 1)[0], "H", "needs 4 hands"),
    (DEAL.replace("SK /", "/"), "H", "seat 2 holds 4 cards"),
    (DEAL.replace("SK /", "SO /"), "H", "SO is given 2 times"),
    (DEAL, "X", "not a suit"),
    (DEAL.replace("E9", "E6"), "H", "not a card"),
])
def test_solve_command_bad_input(capsys, deal, trump, message):
    assert main(["solve", "giltspiel", "--deal", deal, "--trump", trump]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.parametrize("method", play.METHODS)
def test_spiel_odds_top_trumps_always_win(method):
    frame = spiel_odds("HA HK HO HU H10", seat=3, turnup="H7", method=method, n=500, seed=1,
                       checkpoint=False, progress=False)
    assert list(frame.outcome) == ["win", "lose"] and list(frame.successes) == [500, 0]
    assert frame.attrs["team"] == 1 and frame.attrs["method"] == method


def test_spiel_odds_frame_and_seed():
    kw = dict(hand="LA SA H10 E9 E8", seat=2, known={1: "HA"}, n=2000, seed=4, checkpoint=False, progress=False)
    dd = spiel_odds(method="dd", **kw)
    assert abs(dd.p.sum() - 1) < 1e-12 and list(dd.n) == [2000, 2000]
    assert (dd.lo <= dd.p).all() and (dd.p <= dd.hi).all()
    assert dd.equals(spiel_odds(method="dd", **kw)) and dd.attrs["known"] == {1: "HA"}


def test_spiel_odds_bad_method():
    with pytest.raises(CardsimError, match="unknown"):
        spiel_odds("LA SA H10 E9 E8", method="pimc", n=10)


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(32)), st.integers(0, 3), st.integers(0, 3), st.integers(1, 5))
def test_packed_candidates_are_the_greedy_order(cards, trump, count, held):
    """`_candidates`' packed list, read back with `_move`, is the plain list: the legal cards that are
    not below an equivalent card of the same hand (the next higher card of their suit still held by
    anyone is the hand's own), best greedy key first, equal keys in card order."""
    trick = np.array(cards[:count] + [0] * (4 - count), dtype=np.int64)
    hand_cards, others = cards[4:4 + held], cards[9:9 + 3 * held]
    hand = sum(1 << c for c in hand_cards)
    present = hand | sum(1 << c for c in others) | sum(1 << c for c in cards[:count])
    led, best_power, partner = play._trick_state(trick, count, trump)
    legal = int(legal_mask(np.uint64(hand), led, trump, play.SUITS, FOLLOW_OR_TRUMP))
    kept = []
    for card in sorted(c for c in hand_cards if legal >> c & 1):
        higher = [c for c in range(card + 1, (card // 8 + 1) * 8) if present >> c & 1]
        if not (higher and higher[0] in hand_cards):
            kept.append(card)
    keys = {c: play._greedy_key(c, count, led, best_power, partner, trump) for c in kept}
    expected = sorted(kept, key=lambda c: -keys[c])  # stable: equal keys stay in card order
    n, packed = play._candidates(np.uint64(hand), np.uint64(present), count, led, best_power, partner, trump)
    assert [int(play._move(packed, i)) for i in range(n)] == expected
