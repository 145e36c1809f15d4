"""Pinochle spec examples and reference numbers that no other test checked (spec shared/rules/pinochle3.md): the
decimal and "1 in" columns of the §9.2 single-meld table, the §9.2 nines throw-in table (per deal, "1 in"), the
§9.3 kitty-gain Monte-Carlo figures, V1 minimum bids, R4.2e, V4b-e and A11 on concrete hands, V5's double kings,
queens and jacks, V9 targets, V12 meld values, A8 / R3.9a discards and the deal passing left (R2.5, R4.5, A12)."""

from decimal import Decimal
from fractions import Fraction
from itertools import islice
from math import comb, sqrt

import numpy as np
import pytest

from analysis.games import pinochle3 as api
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games import pinochle3_exact as exact_facts
from simcore.games import pinochle3_play as play
from simcore.games.pinochle3_discard import discards
from simcore.rng import block_words
from test_pinochle3_melds import EXACT_15

DECK = p3.DECK
SUITS = "SHDC"
DEALER = 2  # D = seat 2, so D+1 = seat 0 and D+2 = seat 1


def holding(text: str) -> np.ndarray:
    return np.array([DECK.mask(DECK.parse_cards(text, "cards"))], dtype=np.uint64)


def printed(x, text: str) -> bool:
    """Does x round to the decimal ``text`` (commas allowed) at the precision it is printed with?"""
    d = Decimal(text.replace(",", ""))
    return abs(Decimal(float(x)) - d) <= Decimal(5).scaleb(d.as_tuple().exponent - 1)


# --- §9.2 single-meld table: the Decimal and "≈ 1 in" columns of the exact fractions --------------------------
SINGLE_MELD_COLUMNS = {  # EXACT_15 label: (Decimal, ≈ 1 in), as printed in §9.2
    "rope cards in a given suit": ("0.0298315", "33.5"),
    "rope cards in some suit": ("0.1179574", "8.48"),
    "double rope in a given suit": ("4.5912e-7", "2,178,061"),
    "double rope in some suit": ("1.8365e-6", "544,515"),
    "aces around": ("0.0652273", "15.3"),
    "jacks around": ("0.0652273", "15.3"),
    "some single around": ("0.2487831", "4.02"),
    "double kings around": ("1.7053e-5", "58,640"),
    "pinochle": ("0.2741289", "3.65"),
    "double pinochle": ("0.0070151", "142.5"),
    "marriage in a given suit": ("0.2741289", "3.65"),
    "double marriage in a given suit": ("0.0070151", "142.5"),
    "some marriage": ("0.7549787", "1.32"),
    "roundhouse": ("0.0020313", "492.3"),
    "a nine of a given suit": ("0.5319149", "1.88"),
    "both nines of a given suit": ("0.0930851", "10.7"),
}


@pytest.mark.parametrize("label, counted, exact", EXACT_15, ids=[e[0] for e in EXACT_15])
def test_single_meld_decimal_and_one_in_columns(label, counted, exact):
    """§9.2: the independently counted probability (test_pinochle3_melds) printed as the Decimal and ≈ 1 in."""
    decimal, one_in = SINGLE_MELD_COLUMNS[label]
    assert counted == exact and printed(counted, decimal) and printed(1 / counted, one_in)


# --- §9.2 nines throw-in table (V4): per player, per deal (x 3) and "1 in" -------------------------------------
NINES_TABLE = [  # (nines at least, aces at most, product rule or None), per player, per deal, 1 in
    ((5, 8, None), "0.0510026", "0.153008", None),
    ((6, 8, "6_any"), "0.0075830", "0.022749", "131.9"),
    ((7, 8, "7_any"), "0.00057981", "0.0017394", "1724.7"),
    ((5, 0, "5_no_ace"), "0.0041029", "0.012309", "243.7"),
    ((6, 1, "6_max1ace"), "0.0031572", "0.0094716", "316.7"),
]


@pytest.mark.parametrize("rule, per_player, per_deal, one_in", NINES_TABLE, ids=[str(r[0][2]) for r in NINES_TABLE])
def test_nines_throw_in_table_per_deal(rule, per_player, per_deal, one_in):
    """§9.2: with 8 nines two players never both hold >= 5, so the per-deal rate is exactly 3 x the per-player
    rate; the rules as the product defines them (`NINES_RULES`) and its exact column
    (`pinochle3_exact.throw_in_shares`)."""
    least, most_aces, name = rule
    if name is not None:
        assert p3.NINES_RULES[name][:2] == (least, most_aces)
    assert 2 * least > 8
    p = Fraction(sum(comb(8, k) * comb(8, a) * comb(32, 15 - k - a) for k in range(least, 9)
                     for a in range(most_aces + 1) if k + a <= 15), comb(48, 15))
    assert printed(p, per_player) and printed(3 * p, per_deal)
    if one_in is not None:
        assert printed(1 / p, one_in)
        row = next(r for r in exact_facts.throw_in_shares() if r["rule"] == name)
        assert row["holdings"] == p * comb(48, 15) and printed(row["deal"], per_deal)


def test_throw_in_deals_never_count_two_players():
    """§9.2: a deal with a qualifying player has exactly one (every nines rule needs >= 5 of the 8 nines), so the
    product's per-deal count `throw_in_deals` is the sum of the per-seat counts."""
    spec = DealSpec(p3.LAYOUT)
    slots = deal(spec, block_words(11, 0, 20000, spec.words_per_deal))
    per_seat = np.array([[p3.nines_throw_in(slots[:, s], rule).sum() for s in range(3)] for rule in p3.NINES_RULES])
    assert np.array_equal(p3.throw_in_deals(slots), per_seat.sum(axis=1)) and per_seat.sum() > 100


# --- §9.3 kitty gain (Monte Carlo with the product's discard search) --------------------------------------------
SPEC_DEALS = 200_000
"""Deals behind the §9.3 estimates."""
N_SAMPLE = 40_000
"""Deals of the sample here (about a second)."""
Z = 4.5


@pytest.fixture(scope="module")
def kitty_sample():
    """(best meld of the 15 dealt, best meld of the 15 kept after the meld-maximizing discard of 3 of the 18,
    best meld of all 18) of seat 0 in 40,000 deals: §9.3's bidder "keeps the best 15 of 18 cards, searching all
    816 choices of 3 discards and all 4 trumps"."""
    spec = DealSpec(p3.LAYOUT)
    slots = deal(spec, block_words(20240601, 0, N_SAMPLE, spec.words_per_deal))
    hands, full = slots[:, 0], slots[:, 0] | slots[:, 3]
    before = p3.best_meld(hands)[0]
    after = discards(full, meld_first=True)[2]
    return before, after, p3.best_meld(full)[0]


def close_mean(values, spec_value: float, spec_se: float | None = None, digits: int = 2):
    """The sample mean agrees with the spec's estimate: both sampling errors (the spec's from its SE or, when it
    prints none, from this sample's SD over its 200,000 deals' share) and half a unit of the printed precision."""
    se = values.std() / sqrt(values.size)
    other = spec_se if spec_se is not None else se * sqrt(N_SAMPLE / SPEC_DEALS)
    assert abs(values.mean() - spec_value) <= Z * sqrt(se ** 2 + other ** 2) + 0.5 * 10 ** -digits, \
        (values.mean(), spec_value)


def close_share(hits, spec_value: float, spec_se: float | None = None, digits: int = 3):
    close_mean(hits.astype(float), spec_value, spec_se, digits)


def test_kitty_gain_means_9_3(kitty_sample):
    before, after, full = kitty_sample
    gain = after - before
    close_mean(after, 141.95, 0.20)
    close_mean(gain, 51.06, 0.14)
    assert np.median(gain) == 30
    close_mean(full - before, 51.174, None, 3)  # the exact upper bound 142.149 - 90.975 = 51.17
    assert (full >= after).all() and (after >= before).all()  # the kitty's 3 may be the discard


def test_kitty_gain_shares_9_3(kitty_sample):
    before, after, _ = kitty_sample
    gain = after - before
    for hits, share in ((gain > 0, 0.648), (gain >= 20, 0.577), (gain >= 50, 0.356), (gain >= 100, 0.255)):
        close_share(hits, share)
    close_share(after >= 250, 0.133, 0.001)


@pytest.mark.parametrize("lo, hi, expected", [(0, 50, 54.1), (50, 100, 54.2), (100, 150, 53.4), (150, 200, 42.4),
                                              (200, 10_000, 35.7)])
def test_kitty_gain_by_pre_kitty_meld_9_3(kitty_sample, lo, hi, expected):
    before, after, _ = kitty_sample
    cell = (before >= lo) & (before < hi)
    close_mean((after - before)[cell], expected, None, 1)


def test_discard_limit_rarely_costs_meld_9_3(kitty_sample):
    """§9.3: keeping 15 of the 18 cards costs meld (the best 18-card meld is more) in only about 0.04 % of deals."""
    _, after, full = kitty_sample
    lost = full > after
    assert (full >= after).all()
    k, n = int(lost.sum()), lost.size
    assert 0 < k and abs(k / n - 0.0004) <= Z * sqrt(0.0004 / n) + 0.00005


# --- V1 minimum bid, R4.2e --------------------------------------------------------------------------------------
@pytest.mark.parametrize("min_bid, lowest", [(100, 100), (200, 200), (250, 250), (300, 300), (None, 10)])
def test_v1_minimum_bid(min_bid, lowest):
    """V1: the opening bid must be at least min_bid (None: any multiple of 10); the default refuses 200 and 240."""
    options = {"min_bid": min_bid}
    auction = play.run_auction(DEALER, (lowest, None, None), options)
    assert (auction.high_bidder, auction.high, auction.to_speak) == (0, lowest, None)
    if lowest > 10:
        with pytest.raises(CardsimError, match=f"below the minimum bid {lowest}"):
            play.run_auction(DEALER, (lowest - 10,), options)
    with pytest.raises(CardsimError, match="below the minimum bid 250"):
        play.run_auction(DEALER, (240 if lowest >= 250 else lowest,))


def test_r4_2e_one_bidder_in_the_first_round():
    """R4.2e: only D+2 bids in the first round: the auction ends after that round at his bid."""
    auction = play.run_auction(DEALER, (None, 250, None))
    assert (auction.high_bidder, auction.high, auction.to_speak) == (1, 250, None)
    assert len(auction.calls) == 3 and not auction.thrown_in


# --- V4b-e and A11 on concrete hands ------------------------------------------------------------------------------
SIX_NINES = "S9 S9 H9 H9 D9 D9 HK HQ SA DA CJ CJ HJ D10 C10"
"""Six nines, a heart marriage, two aces."""
SEVEN_NINES = "S9 S9 H9 H9 D9 D9 C9 HK HQ SA CJ CJ HJ D10 C10"
"""Seven nines, a heart marriage, one ace."""
SIX_NO_ACE = "S9 S9 H9 H9 D9 D9 HK HQ S10 D10 CJ CJ HJ DK C10"
"""Six nines, a heart marriage, no ace."""


@pytest.mark.parametrize("text, qualifies", [
    (SIX_NINES, {"5_no_meld": False, "6_any": True, "7_any": False, "5_no_ace": False, "6_max1ace": False}),
    (SEVEN_NINES, {"5_no_meld": False, "6_any": True, "7_any": True, "5_no_ace": False, "6_max1ace": True}),
    (SIX_NO_ACE, {"5_no_meld": False, "6_any": True, "7_any": False, "5_no_ace": True, "6_max1ace": True}),
], ids=["six nines two aces", "seven nines one ace", "six nines no ace"])
def test_v4_nines_rules_on_hands(text, qualifies):
    """V4a-e: each rule's count of nines ("at least", A11: six or seven nines meet "five"), its aces and (V4a only)
    its meld condition (a marriage stops V4a, not the others); V4g (None) never throws in."""
    hand = holding(text)
    assert int(p3.meld_points(hand, p3.SPADES)[0]) > 10 * text.split().count("S9")  # meld beyond the deece
    assert {rule: bool(p3.nines_throw_in(hand, rule)[0]) for rule in p3.NINES_RULES} == qualifies
    assert not p3.nines_throw_in(hand, None)[0]


# --- V5 doubles of kings, queens, jacks -----------------------------------------------------------------------
@pytest.mark.parametrize("text, default, no_bonus", [
    ("SK SK HK HK DK DK CK CK", 800, 160), ("SQ SQ HQ HQ DQ DQ CQ CQ", 600, 120), ("SJ SJ HJ HJ DJ DJ CJ CJ", 400, 80),
])
def test_v5_double_arounds(text, default, no_bonus):
    """V5: double kings 160, queens 120, jacks 80 (2 x single) instead of 800 / 600 / 400."""
    for trump in range(4):
        assert int(p3.meld_points(holding(text), trump)[0]) == default
        assert int(p3.meld_points(holding(text), trump, {"double_bonus": False})[0]) == no_bonus


# --- V9 targets -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("scores, default, options, winner", [
    ((1100, 900, 300), None, {"target": 1000}, 0),  # a shorter game ends sooner
    ((1100, 1000, 300), None, {"target": 1000}, 0),  # two reach 1000: the bidder who made goes out
    ((2400, 1600, 300), 0, {"target": 2500}, None),  # a longer game goes on
])
def test_v9_other_targets(scores, default, options, winner):
    assert play.game_winner(scores, bidder=0, made=True) == default
    assert play.game_winner(scores, bidder=0, made=True, options=options) == winner


# --- V12 meld values divided by 10 -----------------------------------------------------------------------------
@pytest.mark.parametrize("hand, trump, melds", [
    ("HA HA H10 H10 HK HK HQ HQ HJ HJ H9 SQ SQ DJ DJ", "H",
     {"double rope in H": 150, "deece in H": 1, "double pinochle": 30}),
    ("SK SQ HK HQ DK DQ CK CQ SA HA DA CA S9 D9 C9", "S",
     {"royal marriage in S": 4, "deece in S": 1, "marriage in H": 2, "marriage in D": 2, "marriage in C": 2,
      "aces around": 10, "kings around": 8, "queens around": 6}),
    ("SA SA HA HA DA DA CA CA SJ HJ DJ CJ S9 H9 D9", "S", {"deece in S": 1, "double aces around": 100,
                                                          "jacks around": 4}),
    ("SK SK HK HK DK DK CK CK SQ HQ DQ CQ S9 H9 C9", "D",
     {"marriage in S": 2, "marriage in H": 2, "royal marriage in D": 4, "marriage in C": 2,
      "double kings around": 80, "queens around": 6}),
    ("SQ SQ HQ HQ DQ DQ CQ CQ S9 H9 C9 SJ HJ CJ C10", "D", {"double queens around": 60}),
    ("SJ SJ HJ HJ DJ DJ CJ CJ SQ HQ DQ CQ S9 H9 C9", "C",
     {"deece in C": 1, "pinochle": 4, "queens around": 6, "double jacks around": 40}),
])
def test_v12_meld_values(hand, trump, melds):
    """V12: double rope 150, marriage 2, royal 4, deece 1, pinochle 4, double pinochle 30, arounds 10 / 8 / 6 / 4,
    doubles 100 / 80 / 60 / 40 (`cardsim meld`'s frame), each a tenth of the main game's."""
    tenth, main_game = (api.meld(hand, trump, o) for o in ({"scale": 0.1}, {}))
    assert dict(zip(tenth.meld, tenth.points)) == melds
    assert {k: 10 * v for k, v in melds.items()} == dict(zip(main_game.meld, main_game.points))
    assert tenth.attrs["totals"][trump] == sum(melds.values())


# --- A8 / R3.9a: any 3 of the 18, and buried cards never meld ------------------------------------------------------
def test_a8_bury_trump_ace_and_meld_cards():
    """R4.7b / A8: the bidder may bury a trump ace, a ten and a king of his rope (counters, trumps, meld cards);
    R3.9a: they no longer meld (rope 150 + royal 40 + aces around 100 -> royal 40 + the kitty's deece 10), R4.7c:
    their 30 points are his."""
    hand = DECK.mask(DECK.parse_cards("HA H10 HK HK HQ HQ HJ SA DA CA S9 D9 C9 SJ CJ", "hand"))
    kitty = DECK.mask(DECK.parse_cards("H9 D10 C10", "kitty"))
    assert int(p3.meld_points(np.array([hand], dtype=np.uint64), p3.HEARTS)[0]) == 150 + 40 + 100
    kept, buried = play.exchange(hand, kitty, DECK.parse_cards("HA H10 HK", "discard"))
    assert buried == 30 and bin(kept).count("1") == 15
    assert int(p3.meld_points(np.array([kept], dtype=np.uint64), p3.HEARTS)[0]) == 40 + 10


# --- R2.5, R4.5, A12: the deal passes left after a thrown-in hand --------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"nines_rule": "6_any"}])
def test_deal_passes_left_after_every_hand(options):
    """Hands nobody bids (policy never: all pass, R4.5) are thrown in with no score and the next seat deals."""
    never = [bid.BID_POLICIES["never"]] * 3
    hands = list(islice(bid.game_hands(np.random.default_rng(3), never, play.rule_options(options), dealer=1), 6))
    assert [h[1] for h in hands] == [1, 2, 0, 1, 2, 0]
    assert all(score is None and bidder is None and winner is None for _, _, score, bidder, winner in hands)
