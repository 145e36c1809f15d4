"""Pinochle auction, play and scoring (spec shared/rules/pinochle3.md §4-§6, §10.2-10.5, X5, X6): the
worked examples, kernels against the literal references in naive_pinochle3_play.py, the policies'
legality and the 250-point invariant of play-outs (R1.5, §9.4)."""

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import pinochle3_play as play
from simcore.games.pinochle3 import DECK, LAYOUT, TRICK_POINTS_TOTAL
from simcore.rng import block_words

import naive_pinochle3_play as naive

SPADES = DECK.suits.index("S")
RULES = tuple(play.PLAY_RULES)


def position(trick_text: str, hand_text: str) -> tuple[list, np.ndarray, list]:
    """([hand mask], (1, 3) trick row, [cards played]) of a trick and a hand given as token lists."""
    cards = DECK.parse_groups({"trick": trick_text, "hand": hand_text})
    row = np.zeros((1, 3), dtype=np.int64)
    row[0, :len(cards["trick"])] = cards["trick"]
    return [DECK.mask(cards["hand"])], row, [len(cards["trick"])]


def legal_tokens(trick_text: str, hand_text: str, rule: str, trump: int = SPADES) -> set[str]:
    """Face tokens of the legal cards of a hand to a trick."""
    legal = play.legal_masks(*position(trick_text, hand_text), [trump], rule)[0]
    return {DECK.token(c) for c in DECK.cards_of(legal)}


# --- §10.2 legality (trump spades) ------------------------------------------------------------------
LEGALITY = [  # id, trick so far, hand, legal under old, old_strict, new1945
    ("P1", "HK", "HA H9 SK", "HA", "HA", "HA H9"),
    ("P2", "HK H10", "HA H9 SK", "HA", "HA", "HA H9"),
    ("P3", "HK S9", "HA H9 SK", "HA H9", "HA", "HA H9"),
    ("P4", "HK H10", "CK CQ S9 SJ", "S9 SJ", "S9 SJ", "S9 SJ"),
    ("P5", "HK SQ", "CK CQ S9 SA", "SA", "SA", "SA S9"),
    ("P6", "HK SQ", "CK CQ", "CK CQ", "CK CQ", "CK CQ"),
    ("P7", "SQ", "SA S9 HA", "SA", "SA", "SA"),
    ("P8", "HA", "HA H10 H9", "HA H10 H9", "HA H10 H9", "HA H10 H9"),
    ("P9", "H10", "HA H9", "HA", "HA", "HA H9"),
    ("P10", "HK DJ", "S9 SA DK", "S9 SA", "S9 SA", "S9 SA"),
    ("P11", "", "HA D9 SK CQ", "HA D9 SK CQ", "HA D9 SK CQ", "HA D9 SK CQ"),
]


@pytest.mark.parametrize("example", LEGALITY, ids=[e[0] for e in LEGALITY])
@pytest.mark.parametrize("column", range(3), ids=["old", "old_strict", "new1945"])  # new1945: X5
def test_legality_examples(example, column):
    _, trick, hand, *expected = example
    rule = ("old", "old_strict", "new1945")[column]
    want = set(expected[column].split())
    assert legal_tokens(trick, hand, rule) == want
    cards = DECK.parse_groups({"trick": trick, "hand": hand})
    assert {DECK.token(c) for c in naive.legal(cards["hand"], cards["trick"], SPADES, rule)} == want


@pytest.mark.parametrize("trick, hand, want", [
    ("HK", "HA H9 SK", "HA"),  # following suit: still beat the highest card (literal A1 summary)
    ("HK SQ", "CK CQ S9 SA", "S9 SA"),  # void: a higher or lower trump (A1 example b)
    ("SQ", "SA S9 HA", "SA"),  # trumps led: follow higher
])
def test_new1945_alt(trick, hand, want):
    assert legal_tokens(trick, hand, "new1945_alt") == set(want.split())


@pytest.mark.parametrize("cards, slot", [
    ("HA HA HK", 0), ("HA S9 S9", 1), ("H10 HK HA", 2), ("HK DA HQ", 0), ("S9 HA S9", 0),
])
def test_trick_winner_examples(cards, slot):
    trick = DECK.parse_cards(cards)
    assert play.trick_winners([trick], [SPADES])[0] == slot
    assert naive.winner_index(trick, SPADES) == slot


def test_unknown_play_rule():
    with pytest.raises(CardsimError, match="play_rule"):
        play.legal_masks([1], [[0, 0, 0]], [0], [0], "newest")


# --- kernels against the references -----------------------------------------------------------------
@st.composite
def positions(draw):
    """(hand, trick, trump): a trick of 0-2 cards and a hand of 1-15 other cards, cards mostly from
    two suits so that following, trumping and identical cards are common."""
    suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=2))
    extra = draw(st.sets(st.integers(0, 47), max_size=8))
    pool = sorted({c for c in range(48) if c // 12 in suits} | extra)
    cards = draw(st.permutations(pool))
    count = draw(st.integers(0, 2))
    size = draw(st.integers(1, min(15, len(cards) - count)))
    return cards[count:count + size], cards[:count], draw(st.sampled_from(suits + [0, 1, 2, 3]))


@given(positions())
def test_legal_matches_reference(position):
    hand, trick, trump = position
    row = np.zeros((1, 3), dtype=np.int64)
    row[0, :len(trick)] = trick
    for rule in RULES:
        mask = play.legal_masks([DECK.mask(hand)], row, [len(trick)], [trump], rule)[0]
        assert set(DECK.cards_of(mask)) == naive.legal(hand, trick, trump, rule), rule


@given(st.lists(st.integers(0, 11), min_size=3, max_size=3), st.integers(0, 3), st.integers(0, 3))
def test_winner_matches_reference(faces, suit_shift, trump):
    """Faces from two adjacent suits (12 faces) with repeats, so identical cards meet often."""
    faces = [(f + 6 * suit_shift) % 24 for f in faces]
    cards = [2 * f + faces[:i].count(f) for i, f in enumerate(faces)]
    assume(all(faces.count(f) <= 2 for f in faces))
    assert play.trick_winners([cards], [trump])[0] == naive.winner_index(cards, trump)


def test_card_points_of_discards():
    """S8: burying A♥ 10♣ K♦ credits the bidder 30 (R4.7c)."""
    assert play.card_points(DECK.mask(DECK.parse_cards("HA C10 DK"))) == 30
    assert play.card_points(DECK.full_mask) == TRICK_POINTS_TOTAL - 10


# --- §10.3 hand scoring (bidder seat 0, defenders X = 1, Y = 2) --------------------------------------
def test_s1_made():
    score = play.score_played(300, 0, melds=(180, 60, 40), points=(130, 70, 50), counters=(12, 7, 5))
    assert score == play.HandScore((310, 130, 90), (0, 0, 0), True)


def test_s2_set():
    score = play.score_played(300, 0, melds=(180, 60, 40), points=(110, 80, 60), counters=(10, 8, 6))
    assert score == play.HandScore((-300, 140, 100), (2, 0, 0), False)


@pytest.mark.parametrize("options, bid, expected", [
    ({}, 250, 0),  # S3: made, meld lost
    ({}, 400, 0),  # set: the counter rule applies too (A3)
    ({"defender_counter_rule_on_set": False}, 400, 100),
    ({"defender_counter_rule_on_set": False}, 250, 0),
    ({"defender_needs_counter": False}, 250, 100),
])
def test_s3_defender_without_counter(options, bid, expected):
    score = play.score_played(bid, 0, melds=(100, 100, 0), points=(240, 0, 10), counters=(23, 0, 1), options=options)
    assert score.delta[1] == expected


@pytest.mark.parametrize("options, expected", [({}, 10), ({"defender_keeps_last_trick_without_counter": False}, 0)])
def test_s4_last_trick_of_losers(options, expected):
    """S4: the defender wins only the last trick (Q, J, 9): meld lost, the 10 kept by default (A4)."""
    score = play.score_played(250, 0, melds=(200, 100, 0), points=(240, 10, 0), counters=(24, 0, 0), options=options)
    assert score.delta == (440, expected, 0)


def test_s5_concession():
    assert play.score_conceded(270, 0, (120, 40, 0)) == play.HandScore((-270, 40, 0), (1, 0, 0), False, True)


def test_s6_bidder_renege():
    assert play.score_renege(280, 0, (150, 60, 20), offender=0) == play.HandScore((-280, 60, 20), (2, 0, 0), False)


@pytest.mark.parametrize("award, bidder_score", [("bid_plus_meld", 430), ("bid", 280), ("max_bid_meld", 280)])
def test_s7_defender_renege(award, bidder_score):
    score = play.score_renege(280, 0, (150, 70, 40), offender=1, options={"renege_defender_bidder_award": award})
    assert score == play.HandScore((bidder_score, 0, 40), (0, 1, 0), True)


def test_s8_buried_counters():
    buried = play.card_points(DECK.mask(DECK.parse_cards("HA C10 DK")))
    score = play.score_played(250, 0, melds=(160, 0, 0), points=(buried + 100, 60, 60), counters=(8, 6, 5))
    assert score.delta[0] == 290 and score.made


def test_bidder_needs_counter_option():
    """A5 option: the bidder's meld counts only with a counter taken in tricks (discards excluded)."""
    args = dict(bid=250, bidder=0, melds=(300, 0, 0), points=(30, 110, 110), counters=(0, 11, 10))
    assert play.score_played(**args).delta[0] == 330
    assert play.score_played(**args, options={"bidder_needs_counter": True}).delta[0] == -250


@pytest.mark.parametrize("options, message", [
    ({"play_rule": "newest"}, "play_rule"), ({"no_such_rule": 1}, "unknown pinochle3 option"),
])
def test_bad_options(options, message):
    with pytest.raises(CardsimError, match=message):
        play.score_played(250, 0, (0, 0, 0), (250, 0, 0), (24, 0, 0), options=options)


def test_bad_seats():
    with pytest.raises(CardsimError, match="seat"):
        play.score_conceded(250, 3, (0, 0, 0))


# --- §10.5 game end, §10.7 X6 -------------------------------------------------------------------------
@pytest.mark.parametrize("scores, made, winner", [
    ((1680, 1520, 900), True, 0),  # G1
    ((1050, 1520, 900), False, 1),  # G2
    ((1050, 1510, 1540), False, 2),  # G3
    ((1050, 1520, 1520), False, None),  # G4
    ((1510, 1600, 900), True, 0),  # G5
    ((1400, 1499, 900), True, None),
])
def test_game_end_examples(scores, made, winner):
    assert play.game_winner(scores, bidder=0, made=made) == winner


@pytest.mark.parametrize("scores, winner", [
    ((-1010, 300, 450), 2),  # X6
    ((-1010, -300, -50), None),  # all negative: play on
    ((-1000, 300, 450), None),  # strictly below the limit (A16)
])
def test_x6_negative_limit(scores, winner):
    assert play.game_winner(scores, bidder=0, made=False, options={"neg_limit": -1000}) == winner


def test_any_target_and_limit_in_tens():
    """V9 names 1000 and 2500, V10 gives -1000 as an example: any multiple of 10 is a target or a limit."""
    opts = play.rule_options({"target": 1200, "neg_limit": -500})
    assert (opts["target"], opts["neg_limit"]) == (1200, -500)
    assert play.game_winner((1200, 900, 300), 0, True, opts) == 0
    assert play.game_winner((1190, 900, 300), 0, True, opts) is None
    assert play.game_winner((-510, 300, 450), 0, False, opts) == 2  # strictly below the limit with one positive
    for bad in ({"target": 1205}, {"target": 0}, {"neg_limit": -5}, {"neg_limit": 100}):
        with pytest.raises(CardsimError, match="in steps of 10"):
            play.rule_options(bad)


def test_v10_all_negative_plays_on_until_someone_is_positive():
    """V10: once a score fell below the limit with all three negative, the game ends when someone turns positive,
    even if the low score has climbed back above the limit meanwhile."""
    options = {"neg_limit": -1000}
    assert play.game_winner((-990, 30, -200), 0, True, options) is None            # the limit never broken
    assert play.game_winner((-990, 30, -200), 0, True, options, limit_broken=True) == 1
    assert play.game_winner((-990, -30, -200), 0, True, options, limit_broken=True) is None  # still all negative


# --- policies and play-out ----------------------------------------------------------------------------
@pytest.mark.parametrize("trick, hand, want", [
    ("", "HA SA H9 S10", "SA"),  # leading: highest rank, the trump first
    ("HK", "HA H10 H9", "H10"),  # the cheapest card that takes the trick
    ("HK S9", "HA H9", "H9"),  # nothing wins: the cheapest card
    ("HK HA", "CK CQ", "CQ"),  # free discard: a loser before a counter
    ("HK H10", "S9 SA D9", "S9"),  # the lowest trump that wins
])
def test_greedy_choices(trick, hand, want):
    assert DECK.token(play.choose("greedy", *position(trick, hand), [SPADES])[0]) == want


def test_random_policy_is_uniform_over_legal_cards():
    """P8 (any heart, the second A♥ included): u in the k-th of n equal parts picks the k-th legal card."""
    hands, row, count = position("HA", "HA H10 H9 SA")
    n = 3
    picks = play.choose("random", hands * n, np.repeat(row, n, axis=0), count * n, [SPADES] * n,
                        u=(np.arange(n) + 0.5) / n)
    assert {DECK.token(c) for c in picks} == {"HA", "H10", "H9"} and len(set(picks)) == n


def deals(seed: int, n: int) -> np.ndarray:
    """(n, 4) uint64: seats 0-2 and the kitty of n random deals."""
    spec = DealSpec(LAYOUT)
    return deal(spec, block_words(seed, 0, n, spec.words_per_deal))


POLICY_TRIPLES = st.lists(st.sampled_from(list(play.POLICIES)), min_size=3, max_size=3)


@given(st.integers(0, 2**32), st.sampled_from(RULES), POLICY_TRIPLES, st.integers(0, 3), st.integers(0, 2))
def test_play_line_is_legal_and_scores(seed, rule, policies, trump, bidder):
    """Every card played is legal by the reference; trick points plus the discards (the kitty,
    kept unplayed) add up to 250 (R1.5)."""
    slots = deals(seed % 1000, 1)[0]
    u = np.random.default_rng(seed).random(play.DECISIONS)
    line = play.play_line(policies, slots[:3], trump, bidder, rule, u)
    points, taken = naive.replay(line, trump, rule, [DECK.cards_of(h) for h in slots[:3]])
    assert sum(points) + play.card_points(slots[3]) == TRICK_POINTS_TOTAL
    got_points, got_taken = play.play_out(policies, slots[None, :3], [trump], [bidder], rule, u[None])
    assert list(got_points[0]) == points and list(got_taken[0]) == taken


@pytest.mark.parametrize("rule", RULES)
def test_play_out_conservation(rule):
    """R1.5 over many deals: 250 trick points per deal with the discards; counters add up to 24."""
    n = 2000
    slots = deals(7, n)
    rng = np.random.default_rng(1)
    points, taken = play.play_out(("greedy", "random", "greedy"), slots[:, :3], rng.integers(0, 4, n),
                                  rng.integers(0, 3, n), rule, rng.random((n, play.DECISIONS)))
    buried = np.array([play.card_points(k) for k in slots[:, 3]])
    assert (points.sum(axis=1) + buried == TRICK_POINTS_TOTAL).all()
    assert (taken.sum(axis=1) + buried // 10 == 24).all()
    assert ((points - 10 * taken) % 10 == 0).all() and ((points - 10 * taken).sum(axis=1) == 10).all()


def test_play_out_bad_input():
    with pytest.raises(CardsimError, match=r"hands: every seat must hold 15 cards, got \[1, 1, 1\] \(deal 0\)"):
        play.play_out("greedy", [[1, 2, 4]], [0], [0])
    with pytest.raises(CardsimError, match="policy"):
        play.play_out("clever", deals(1, 1)[:, :3], [0], [0])
    with pytest.raises(CardsimError, match="trump .* must be 0-3, got 4"):
        play.play_out("greedy", deals(1, 1)[:, :3], [4], [0])


# --- §10.4 auction, kitty and trump -----------------------------------------------------------------
DEALER = 2  # D = seat 2, so D+1 = seat 0 and D+2 = seat 1


@pytest.mark.parametrize("calls, bidder, bid", [
    ((250, None, None), 0, 250),  # B1
    ((250, 260, None, 270, None), 0, 270),  # B3
    ((None, 250, 300, None), DEALER, 300),  # B4: a jump bid
    ((None, None, 250), DEALER, 250),
    ((260, 270, 280, None, 290, None), 1, 290),
])
def test_auction_examples(calls, bidder, bid):
    auction = play.run_auction(DEALER, calls)
    assert auction.to_speak is None and not auction.thrown_in
    assert (auction.high_bidder, auction.high) == (bidder, bid)


def test_b2_all_pass():
    auction = play.run_auction(DEALER, (None, None, None))
    assert auction.thrown_in and auction.to_speak is None and auction.high is None


def test_auction_turns_skip_passed_players():
    """B3: the dealer passed, so the auction goes D+1, D+2, D+1, D+2."""
    auction = play.run_auction(DEALER, (250, 260, None, 270, None))
    assert [seat for seat, _ in auction.calls] == [0, 1, 2, 0, 1]


@pytest.mark.parametrize("calls, message", [
    ((255,), "not a multiple of 10"),  # B5
    ((240,), "below the minimum bid 250"),
    ((250, 250), "does not exceed the standing bid 250"),
    ((250, 260, 260), "does not exceed"),
    ((250, None, None, 260), "auction is over"),
    ((250.5,), "whole number"),
])
def test_b5_illegal_calls(calls, message):
    with pytest.raises(CardsimError, match=message):
        play.run_auction(DEALER, calls)


def test_b5_bidding_again_after_passing():
    auction = play.run_auction(DEALER, (None, 250))
    with pytest.raises(CardsimError, match="seat 0 has passed and is out of the auction"):
        play.call(auction, 0, 260)
    with pytest.raises(CardsimError, match="seat 1 is out of turn; seat 0 speaks now"):
        play.call(play.start_auction(DEALER), 1, 250)


def test_b6_dealer_stuck():
    stuck = {"dealer_stuck": True}
    auction = play.run_auction(DEALER, (None, None), stuck)
    assert auction.to_speak == DEALER
    for bid in (None, 260):
        with pytest.raises(CardsimError, match="must bid exactly 250"):
            play.call(auction, DEALER, bid, stuck)
    auction = play.call(auction, DEALER, 250, stuck)
    assert (auction.high_bidder, auction.high, auction.to_speak) == (DEALER, 250, None)


def test_forced_open_and_no_minimum():
    with pytest.raises(CardsimError, match="must bid exactly 300"):
        play.run_auction(DEALER, (None,), {"forced_open": True, "min_bid": 300})
    assert play.run_auction(DEALER, (300, None, None), {"forced_open": True, "min_bid": 300}).high == 300
    assert play.run_auction(DEALER, (10, None, None), {"min_bid": None}).high == 10


def test_exchange_buries_counters():
    """R4.7: the bidder adds the kitty and buries any 3 of his 18 cards; their counters are his."""
    slots = deals(3, 1)[0]
    eighteen = DECK.cards_of(int(slots[0]) | int(slots[3]))
    discards = eighteen[-3:]
    kept, buried = play.exchange(slots[0], slots[3], discards)
    assert bin(kept).count("1") == 15 and kept & DECK.mask(discards) == 0
    assert buried == play.card_points(DECK.mask(discards))
    for bad in (eighteen[:2], eighteen[:4], [eighteen[0]] * 3, DECK.cards_of(int(slots[1]))[:3], [-1, 0, 1]):
        with pytest.raises(CardsimError, match="exactly 3"):
            play.exchange(slots[0], slots[3], bad)


def test_name_trump():
    kept = DECK.mask(DECK.parse_cards("HK HQ SA"))
    assert play.name_trump(kept, SPADES) == SPADES
    assert play.name_trump(kept, 1, {"trump_requires_marriage": True}) == 1
    with pytest.raises(CardsimError, match="needs a marriage"):
        play.name_trump(kept, SPADES, {"trump_requires_marriage": True})
    with pytest.raises(CardsimError, match="suit index"):
        play.name_trump(kept, 4)


def test_money_example():
    """§10.6: A (seat 0) wins; B had 1 + 2 units, C none, A 2. Direct: B pays 8, C 2, A +10; the pot
    method (antes 3 x 2, then 2 per unit) leaves A the same +10."""
    units = (2, 3, 0)
    assert play.settle(0, units, 2, 2) == (10, -8, -2)
    pot = 3 * 2 + 2 * sum(units)
    assert pot == 16 and pot - 2 - 2 * units[0] == 10
    assert play.settle(1, units, 0.5, 0.25) == (-1.0, 1.5, -0.5)  # the winner's own sets cost him nothing
