"""Worked examples and reference numbers of shared/rules/bauernstoss.md that no other test checked (audit of the
spec's examples against the tests; the rest are in test_bauernstoss_rules.py, test_bauernstoss_exact_facts.py,
test_bauernstoss_seats.py, test_bauernstoss_jobs.py and test_bauernstoss_equity.py).

TD-06 with the stated lowest cards (9 against 10), TD-10 / X-13 (the next dealer after a throw-in), the §5.4 solo
lead table (who sits out, trick order), SC-13's next deal, DS-4 (a higher earlier bid silences a shorter suit),
AS-3 (chalk thresholds 42 / 79 in later AS hands), §8 A16 (lowest card of a suit without plain cards), the §3 deal
counts, the §9.2 jacks-per-hand table, §9.4's "the teams' trumps add up to 11", and the §9.3 baseline reference rows
that no test compared (policy B0/D0 auction shape, random-play rows)."""

from fractions import Fraction
from math import comb, factorial

import numpy as np
import pytest

from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play

from tests.test_bauernstoss_rules import (C, D, DECK, H, PASS, S, after, assert_rate, auction, calls, mask, mit,
                                          normal, number, random_hands)


# --- §4.13 trump determination ---------------------------------------------------------------------------------------
def test_td06_showdown_nine_against_ten():
    """TD-06: seat 1 bids 5 (lowest 9), seat 2 says mit (lowest 10; threshold 1, legal), seats 3 and 0 pass:
    showdown, seat 1 says "9", seat 2 says "10", seat 2 names trumps."""
    a = auction({1: "cB c9 cA cK cD sA sK dA", 2: "sB hB dB hA hT s7 s8 d7"})
    assert (bs.trump_length(a.hands[1], C), bs.lowest_trump(a.hands[1], C)) == (5, 2)  # 5 trumps, lowest a 9
    assert (bs.trump_length(a.hands[2], H), bs.lowest_trump(a.hands[2], H)) == (5, 5)  # 5 trumps, lowest a 10
    calls(a, number(5, C))
    assert a.mit_threshold(2) == 1 and a.illegal(bs.Call(bs.MIT, 0, H)) is None
    calls(a, mit(H), PASS, PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, 2, H, 5, True)


@pytest.mark.parametrize("first_hand", [True, False])
def test_td10_x13_throw_in_and_seat_1_deals_next(first_hand):
    """TD-10 / X-13 / §4.11: seat 3 holds all four jacks and passes (policy B0), nobody else may bid: the hand is
    thrown in, seat 1 (the old forehand) deals next, the score and the first-hand status are unchanged (A13)."""
    seat3 = mask("cB sB hB dB cA sA hA dA")
    rest = [c for c in range(32) if not (seat3 >> c) & 1]
    hands = [DECK.mask(rest[0:8]), DECK.mask(rest[8:16]), DECK.mask(rest[16:24]), seat3]
    before = bs.GameState(strokes=(4, 7), chalk=None if first_hand else 1, first_hand=first_hand, dealer=0)
    state, contract, result = play.play_hand(before, hands, bs.rule_options(), np.random.default_rng(1))
    assert contract == bs.Contract(bs.THROW_IN) and result.kind == bs.THROW_IN
    assert state == bs.GameState(strokes=(4, 7), chalk=before.chalk, first_hand=first_hand, dealer=1)


# --- §5.4 solo lead table (d = 0) -------------------------------------------------------------------------------------
@pytest.mark.parametrize("soloist, out, leader, order", [(1, 3, 1, (1, 2, 0)), (2, 0, 1, (1, 2, 3)),
                                                         (3, 1, 2, (2, 3, 0)), (0, 2, 1, (1, 3, 0))])
def test_solo_lead_table(soloist, out, leader, order):
    """§5.4 "Solo lead test cases": who sits out, who leads and the seat order of the first trick; the partner
    sitting out never plays a card, and every trick is played by the three others."""
    assert play.solo_leader(0, soloist) == leader
    rng = np.random.default_rng(soloist)
    for hands in random_hands(rng, 20):
        owner = {c: seat for seat in range(4) for c in DECK.cards_of(int(hands[seat]))}
        line = play.play_line("random", hands, H, leader, rng.random(play.DECISIONS), soloist=soloist)
        seats = [owner[c] for c in line]
        assert tuple(seats[:3]) == order
        assert out not in seats and len(line) % 3 == 0
        assert all(sorted(seats[i:i + 3]) == sorted(order) for i in range(0, len(line), 3))


# --- §6.6 SC-13: the next deal after a game ---------------------------------------------------------------------------
def test_sc13_next_deal_restarts_with_club_jack_chalk_and_no_solo():
    """SC-13: 18-5, chalk team 0, team 0 takes 95: +2 -> 20, team 0 wins the game; next deal: 0-0, the chalk with
    the team of the cB holder, solos banned."""
    won = after(normal(95), strokes=(18, 5))
    assert (won.games, won.strokes, won.chalk, won.first_hand) == ((1, 0), (0, 0), None, True)
    hands = [mask("sB c7 c8 c9 s7 s8 s9 h7"), mask("cB cA cT cK cD sA sK hA"),
             mask("hB h8 h9 hK hD d7 d8 d9"), mask("dB sT sD hT dA dT dK dD")]
    a = bs.Auction(hands, won.dealer, won.first_hand)
    holder = 1  # seat 1 holds cB (team 1); dealer 1, so seats 2, 3 and 0 speak first
    while a.to_speak != holder:
        a.call(bs.baseline_call(a))
    for solo in (bs.SMALL_SOLO, bs.BIG_SOLO):
        assert "no solo in the first hand" in a.illegal(bs.Call(solo, 0, C))
    # the cB holder's team holds the chalk in that deal: 42 points are enough for team 1, 41 are not
    assert bs.score_hand(won, normal(78, club_jack=holder % 2)).strokes == (0, 1)
    assert bs.score_hand(won, normal(79, club_jack=holder % 2)).strokes == (1, 0)
    nxt = bs.score_hand(won, normal(78, club_jack=holder % 2))
    assert (nxt.chalk, nxt.games, nxt.first_hand) == (1, (1, 0), False)


# --- §7.2 DS-4 ------------------------------------------------------------------------------------------------------
def test_ds4_an_earlier_higher_bid_makes_a_shorter_suit_pass():
    """DS-4: a player with a 5-trump suit must announce it unless an earlier player already bid higher; after a 6,
    the 5 may not be bid and the player passes."""
    a = auction({1: "cB sB hB dA dT dK c7 c8", 2: "sA sK sD sT s9 c9 h7 h8"}, variant="DS")
    calls(a, number(6, D))
    assert bs.trump_length(a.hands[2], S) == 5
    assert a.legal_calls() == [bs.Call(bs.PASS)]
    with pytest.raises(CardsimError, match="DS-3/DS-4"):
        a.call(bs.Call(bs.NUMBER, 5, S))
    b = auction({1: "cB sB dA dT dK c7 c8 h9", 2: "sA sK sD sT s9 c9 h7 h8"}, variant="DS")
    calls(b, number(5, D))
    with pytest.raises(CardsimError, match="DS-4"):  # an equal length must still be announced
        b.call(bs.Call(bs.PASS))


# --- §7.1 AS-3 ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("chalk, points0, strokes, new_chalk", [
    (0, 42, (1, 0), 0), (0, 41, (0, 1), 1), (1, 78, (0, 1), 1), (1, 79, (1, 0), 0),
])
def test_as3_later_hands_use_the_bs_chalk_thresholds(chalk, points0, strokes, new_chalk):
    """AS-3: after the first hand the chalk team needs 42 to score 1 and keep the chalk; the other team needs 79
    to score and take the chalk."""
    got = after(normal(points0), "AS", chalk=chalk)
    assert (got.strokes, got.chalk) == (strokes, new_chalk)


# --- §8 A16 ---------------------------------------------------------------------------------------------------------
def test_a16_lowest_card_of_a_suit_without_plain_cards_is_the_lowest_jack():
    """A16 / §1.2 / §4.1: a proposed suit with no plain cards shows the lowest jack held, ranked above the Ace
    (dB 7, hB 8, sB 9, cB 10); in a showdown it beats an Ace."""
    hand = mask("sB hB cA cT sK s7 d8 d9")
    assert (bs.trump_length(hand, H), bs.lowest_trump(hand, H)) == (2, 8)
    assert [bs.lowest_trump(mask(f"{j} c7 c8 c9 cA s7 s8 s9"), H) for j in ("dB", "hB", "sB", "cB")] == [7, 8, 9, 10]
    # seat 1 bids 3 in clubs (lowest a ten), seat 2 says mit with sB hB dB in hearts (lowest dB, threshold 1): the
    # jack outranks the ten, seat 2 names hearts
    a = auction({1: "cB cA cT dA dT dK d9 d8", 2: "sB hB dB sA sT sK c9 c8"})
    calls(a, number(3, C))
    assert bs.lowest_trump(a.hands[1], C) == 5 and bs.lowest_trump(a.hands[2], H) == 7
    calls(a, mit(H), PASS, PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, 2, H, 3, True)


# --- §3 deal counts, §9.2 jacks per hand, §9.4 trumps per team --------------------------------------------------------
def test_deal_counts():
    """§3: 32!/(8!)^4 = 99,561,092,450,391,000 deals and C(32,8) = 10,518,300 hands, from the game's layout."""
    sizes = [int(s) for s in bs.LAYOUT.sizes]
    assert sizes == [8, 8, 8, 8] and DECK.n_cards == 32
    deals = factorial(DECK.n_cards)
    for s in sizes:
        deals //= factorial(s)
    assert deals == 99_561_092_450_391_000
    assert comb(DECK.n_cards, bs.HAND_SIZE) == int(bs.longest_trump_table().sum()) == 10_518_300


def test_jacks_in_one_hand_table():
    """§9.2 "Jacks in one 8-card hand": exact probabilities, decimals and hand counts, from all C(32,8) hands."""
    counts = bs.longest_trump_table().sum(axis=(0, 2))
    probs = [Fraction(int(c), comb(32, 8)) for c in counts]
    assert probs == [Fraction(5313, 17980), Fraction(2024, 4495), Fraction(966, 4495), Fraction(168, 4495),
                     Fraction(7, 3596)]
    assert [round(float(p), 6) for p in probs] == [0.295495, 0.450278, 0.214905, 0.037375, 0.001947]
    assert round(float(sum(probs[1:])), 6) == 0.704505 and round(float(sum(probs[3:])), 6) == 0.039321
    assert round(float(sum(probs[1:4])), 6) == 0.702558


def test_team_trumps_add_up_to_eleven():
    """§9.4: the trump set has 11 cards and the two teams' trump counts add up to 11, for every trump suit."""
    rng = np.random.default_rng(94)
    for hands in random_hands(rng, 50):
        for t in range(4):
            teams = [int(hands[0]) | int(hands[2]), int(hands[1]) | int(hands[3])]
            assert sum(bs.trump_length(m, t) for m in teams) == 11


# --- §9.3 baseline reference rows (policy B0 / D0 auction; random play) -----------------------------------------------
AUCTION_ROWS = {  # spec §9.3, N = 4,000,000 (BS and AS: given no throw-in; DS: unconditional)
    "BS": dict(bids={3: 0.00091, 4: 0.27694, 6: 0.13471, 7: 0.00943}, tied=0.34492, jacks={1: 0.28746, 3: 0.14589},
               club_team=0.64297, trumps=4.8754, team_trumps=6.9170, team_points=59.649),
    "AS": dict(bids={3: 0.00090, 4: 0.27479, 6: 0.13933, 7: 0.01048}, tied=0.30149,
               jacks={1: 0.28523, 3: 0.14476, 4: 0.00775}, club_team=0.64574, trumps=4.8844, team_trumps=6.9230,
               team_points=59.621),
    "DS": dict(bids={6: 0.14085, 7: 0.01051}, tied=0.16953, value_tie=0.02469, team_trumps=6.8990),
}


def assert_mean(values, reference, what):
    values = np.asarray(values, dtype=np.float64)
    se = values.std() / len(values) ** 0.5
    assert abs(values.mean() - reference) <= 4.5 * se, f"{what}: {values.mean():.4f} vs {reference}"


@pytest.mark.parametrize("variant", sorted(AUCTION_ROWS))
def test_baseline_auction_rows(variant):
    """§9.3 auction-only rows not compared elsewhere: winning bids, P(two or more tied at the top), the chooser's
    jacks, P(chooser's team holds cB), E[chooser's trumps], E[chooser team's trumps], E[points dealt to it], and the
    DS value tie (-> earlier speaker); within 4.5 standard errors of a small seeded sample."""
    ref = AUCTION_ROWS[variant]
    rng = np.random.default_rng(20260529)
    opts = bs.rule_options(variant=variant)
    n = 8000
    rows = []
    for h in random_hands(rng, n):
        h = [int(x) for x in h]
        a = bs.Auction(h, 0, False, opts)
        while not a.done:
            a.call(bs.baseline_call(a))
        c = a.contract()
        if c.kind == bs.THROW_IN:
            continue
        d = c.declarer
        trump = c.trump if c.trump >= 0 else bs.best_suit(h[d], variant)
        team = h[d] | h[(d + 2) % 4]
        vals = [a._tie_key(q)[0] for q in a.at_cur] if variant == "DS" else [0]
        rows.append((c.bid, len(a.at_cur) >= 2, bs.jack_count(h[d]), (team >> bs.CLUB_JACK) & 1,
                     bs.trump_length(h[d], trump), bs.trump_length(team, trump),
                     int(play.card_points(np.uint32(team))), len(a.at_cur) >= 2 and vals.count(max(vals)) >= 2))
    m = len(rows)
    cols = list(zip(*rows))
    base = n if variant == "DS" else m  # DS rows are unconditional (an all-pass hand is bid 0 here)
    for bid, p in ref["bids"].items():
        assert_rate(cols[0].count(bid), base, p, f"winning bid {bid}")
    assert_rate(sum(cols[1]), base, ref["tied"], "two or more tied at the top bid")
    assert_mean(cols[5], ref["team_trumps"], "E[chooser team's trumps]")
    if variant == "DS":
        assert_rate(sum(cols[7]), n, ref["value_tie"], "DS value also tied -> earlier speaker")
        return
    for k, p in ref["jacks"].items():
        assert_rate(cols[2].count(k), m, p, f"chooser holds {k} jacks")
    assert_rate(sum(cols[3]), m, ref["club_team"], "chooser's team holds cB")
    assert_mean(cols[4], ref["trumps"], "E[chooser's trumps]")
    assert_mean(cols[6], ref["team_points"], "E[card points dealt to the chooser's team]")


PLAY_ROWS = {  # spec §9.3 whole hand, random play: P(maker = 60), P(opponents >= 91), P(maker >= 61 | 1/2/3/4 jacks)
    "BS": (0.0116, 0.0121, {1: 0.751, 2: 0.813, 3: 0.913}),
    "AS": (0.0107, 0.0106, {1: 0.761, 2: 0.821, 3: 0.918}),
    "DS": (0.0121, 0.0185, {1: 0.691, 2: 0.800, 3: 0.906}),
}
FIRST_HAND = {("chalk", 1): 0.5686, ("chalk", 2): 0.2346, ("other", 1): 0.0845, ("other", 2): 0.0767}
"""§9.3 "First hand of a BS game with random play": the chalk (cB) team's and the other team's +1 / +2 rates."""


@pytest.mark.parametrize("variant", sorted(PLAY_ROWS))
def test_random_play_rows(variant):
    """§9.3 whole-hand rows (B0/D0 auction, random play, forehand leads) not compared elsewhere, and the BS
    first-hand stroke split; within 4.5 standard errors of a small seeded sample."""
    tie, opp91, by_jacks = PLAY_ROWS[variant]
    rng = np.random.default_rng(303)
    n = 8000
    hands = random_hands(rng, n)
    opts = bs.rule_options(variant=variant)
    made, declarers, trumps = [], [], []
    for i, h in enumerate(hands):
        a = bs.Auction(h, 0, False, opts)
        while not a.done:
            a.call(bs.baseline_call(a))
        c = a.contract()
        if c.kind == bs.NORMAL:
            made.append(i)
            declarers.append(c.declarer)
            trumps.append(c.trump if c.trump >= 0 else bs.best_suit(int(h[c.declarer]), variant))
    m = len(made)
    points, tricks = play.play_out("random", hands[made], trumps, np.ones(m, dtype=int),
                                   rng.random((m, play.DECISIONS)), play.play_rule(variant))
    maker = np.array(declarers) % 2
    mine = points[np.arange(m), maker]
    assert_rate((mine == 60).sum(), m, tie, "maker = 60")
    assert_rate((mine <= 29).sum(), m, opp91, "opponents >= 91")
    jacks = np.array([bs.jack_count(int(hands[made[k], declarers[k]])) for k in range(m)])
    for k, p in by_jacks.items():
        assert_rate((mine[jacks == k] >= 61).sum(), int((jacks == k).sum()), p, f"maker >= 61 with {k} jacks")
    if variant == "BS":
        split = {key: 0 for key in FIRST_HAND}
        for k, i in enumerate(made):
            chalk = 0 if (int(hands[i, 0]) | int(hands[i, 2])) >> bs.CLUB_JACK & 1 else 1
            team, strokes = bs.normal_score(int(points[k, 0]), int(tricks[k, 0]), chalk)
            key = ("chalk" if team == chalk else "other", strokes)
            if key in split:
                split[key] += 1
        for key, p in FIRST_HAND.items():
            assert_rate(split[key], m, p, f"first hand {key}")
