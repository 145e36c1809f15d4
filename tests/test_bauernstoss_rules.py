"""Bauernstoss, Alter Schoofkopp and Deutscher Schafkopf rules (shared/rules/bauernstoss.md).

The spec's worked examples (X-01..X-36, P1-P11, W1-W5, A1-A6, TD-01..TD-13, SC-01..SC-14, SEQ-BS,
AS-S1..AS-S9, DS-T1..DS-T8), the play kernels against the plain references in naive_bauernstoss.py,
the §9.2 exact facts by enumeration, the §9.3 baseline reference values and the §9.4 invariants of
whole hands and games."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play

import naive_bauernstoss as naive

DECK = bs.DECK
H = 2


def cards(text):
    return DECK.parse_cards(text)


def mask(text):
    return DECK.mask(cards(text))


def trick_array(text):
    played = cards(text)
    return np.array(played + [0] * (4 - len(played)), dtype=np.int64), len(played)


def legal(trick_text, hand_text, rule=play.BS_OVERTAKE, trump=H):
    trick, count = trick_array(trick_text)
    return DECK.format_cards(DECK.cards_of(play.legal_mask(np.uint32(mask(hand_text)), trick, count, trump, rule)))


# --- §1 deck and orders ---------------------------------------------------------------------
def test_x01_deck_points():
    assert DECK.n_cards == 32
    assert play.card_points(np.uint32(0xFFFFFFFF)) == 120
    for suit in "cshd":
        assert play.card_points(np.uint32(mask(" ".join(suit + r for r in "789BDKTA")))) == 30
    assert [play.card_points(np.uint32(mask("c" + r))) for r in "ATKDB987"] == [11, 10, 4, 3, 2, 0, 0, 0]


@pytest.mark.parametrize("trump", range(4))
def test_x02_trump_order(trump):
    """X-02: cB > sB > hB > dB > A T K D 9 8 7 of the trump suit; plain suits A T K D 9 8 7."""
    s = "cshd"[trump]
    order = cards("cB sB hB dB " + " ".join(s + r for r in "ATKD987"))
    assert len(order) == 11 and bs.EFF_MASKS[trump, bs.TRUMP] == DECK.mask(order)
    for hi, lo in zip(order, order[1:]):
        assert (int(bs.BEATS[trump, lo]) >> hi) & 1 and not (int(bs.BEATS[trump, hi]) >> lo) & 1
    plain = (trump + 1) % 4
    order = cards(" ".join("cshd"[plain] + r for r in "ATKD987"))
    for hi, lo in zip(order, order[1:]):
        assert (int(bs.BEATS[trump, lo]) >> hi) & 1


# --- §5.5 play examples (trump hearts) -------------------------------------------------------
@pytest.mark.parametrize("case, trick, hand, expected", [
    ("P1", "cA", "c7 hA sB", "c7"),
    ("P2", "cA", "cB h7 sA", "cB h7"),
    ("P3", "cA dB", "sB h9 dK", "sB"),
    ("P4", "cA dB", "c9 sB", "c9"),
    ("P5", "h7", "hA cB", "cB hA"),
    ("P6", "hB", "hA sB dB", "sB"),
    ("P7", "sK", "dA d7", "d7 dA"),
    ("P8", "h9 cB", "hA hT", "hT hA"),
    ("P9", "cA hA", "h7 sA", "h7"),
    ("P10", "c9 dB sB", "cB h8 c7", "c7"),
    ("P11", "h7 sB", "cB hB hA", "cB"),
])
def test_play_examples_bs(case, trick, hand, expected):
    assert legal(trick, hand) == expected, case


def test_jack_rule_scopes():
    """§8 A1: P4 with the duty overriding follow suit; P3 and P6 without the duty."""
    assert legal("cA dB", "c9 sB", play.BS_JACK_ALWAYS) == "sB"
    assert legal("cA dB", "sB h9 dK", play.BS_NO_JACK) == "sB h9"
    assert legal("hB", "hA sB dB", play.BS_NO_JACK) == "sB hA dB"


@pytest.mark.parametrize("case, trick, hand, expected", [
    ("A1", "h9 hK", "hA h7 dA", "hA"),
    ("A2", "h9 sB", "hA h7", "h7 hA"),
    ("A3", "cA hT", "h7 hA sK", "h7 hA"),
    ("A4", "hB", "sB dB hA", "sB"),
    ("A5", "h7 hA", "dB hK", "dB"),
    ("A6", "cA hT", "c7 hA", "c7"),
])
def test_play_examples_as(case, trick, hand, expected):
    assert legal(trick, hand, play.AS_BEAT_TRUMP) == expected, case


def test_a5_differs_in_bs():
    assert legal("h7 hA", "dB hK") == "hK dB"


def test_play_examples_ds():
    assert legal("cA", "h7 sA", play.DS_FOLLOW) == "sA h7"  # DS-T1
    assert legal("h7 hA", "h8 sA", play.DS_FOLLOW) == "h8"  # DS-T2


@pytest.mark.parametrize("case, trick, winner", [
    ("W1", "cA cT h7 cK", "h7"),
    ("W2", "cK cA sB hA", "sB"),
    ("W3", "d7 dA sA dT", "dA"),
    ("W4", "hA dB hT c7", "dB"),
    ("W5", "sT s9 sK hD", "hD"),
])
def test_trick_winner_examples(case, trick, winner):
    t, count = trick_array(trick)
    assert DECK.token(int(t[play.winning_slot(t, count, H)])) == winner, case


def test_play_rule_option():
    assert play.play_rule() == play.BS_OVERTAKE
    assert play.play_rule("BS", "off") == play.BS_NO_JACK
    assert play.play_rule("AS") == play.AS_BEAT_TRUMP
    with pytest.raises(CardsimError, match="jack_rule"):
        play.play_rule("BS", "sometimes")


# --- kernels against the references ----------------------------------------------------------
REFERENCES = {
    play.BS_OVERTAKE: lambda h, t, tr: naive.legal_bs(h, t, tr),
    play.BS_JACK_ALWAYS: lambda h, t, tr: naive.legal_bs(h, t, tr, "always_overrides_follow"),
    play.BS_NO_JACK: lambda h, t, tr: naive.legal_bs(h, t, tr, "off"),
    play.AS_BEAT_TRUMP: naive.legal_as,
    play.DS_FOLLOW: naive.legal_ds,
}


@st.composite
def positions(draw):
    """A hand of 1-8 cards and a disjoint trick of 0-3 cards, a trump suit."""
    pack = draw(st.permutations(range(32)))
    size = draw(st.integers(1, 8))
    count = draw(st.integers(0, 3))
    return pack[:size], pack[size:size + count], draw(st.integers(0, 3))


@given(positions(), st.sampled_from(sorted(REFERENCES)))
def test_legal_mask_matches_reference(position, rule):
    hand, trick, trump = position
    t = np.array(trick + [0] * (4 - len(trick)), dtype=np.int64)
    got = set(DECK.cards_of(play.legal_mask(np.uint32(DECK.mask(hand)), t, len(trick), trump, rule)))
    assert got == REFERENCES[rule](hand, trick, trump)


@given(st.permutations(range(32)), st.integers(1, 4), st.integers(0, 3))
def test_winning_slot_matches_reference(pack, count, trump):
    trick = np.array(pack[:4], dtype=np.int64)
    assert play.winning_slot(trick, count, trump) == naive.winner(pack[:count], trump)


@given(st.sets(st.integers(0, 31)))
def test_card_points_match_reference(hand):
    assert play.card_points(np.uint32(DECK.mask(hand))) == naive.points(hand)


def test_tables_match_reference():
    for t in range(4):
        for c in range(32):
            assert bs.LOW_SCALE[c] == naive.low_value(c)
            assert (bs.EFF[t, c] == bs.TRUMP) == (naive.eff(c, t) == naive.TRUMP)


def test_vectorized_wrappers():
    rng = np.random.default_rng(5)
    n = 300
    packs = np.array([rng.permutation(32) for _ in range(n)])
    hands = np.array([DECK.mask(p[:8]) for p in packs], dtype=np.uint32)
    tricks = packs[:, 8:12].astype(np.int64)
    counts = rng.integers(0, 4, n)
    trumps = rng.integers(0, 4, n)
    legal_all = play.legal_masks(hands, tricks, counts, trumps, play.BS_OVERTAKE)
    assert legal_all.dtype == np.uint32
    for i in range(n):
        assert set(DECK.cards_of(legal_all[i])) == naive.legal_bs(list(packs[i, :8]), list(tricks[i, :counts[i]]),
                                                                  trumps[i])
    slots = play.winning_slots(tricks, counts + 1, trumps)
    assert all(slots[i] == naive.winner(list(tricks[i, :counts[i] + 1]), trumps[i]) for i in range(n))


# --- §6 scoring ---------------------------------------------------------------------------
def normal(points0, tricks0=4, **kw):
    return bs.HandResult(bs.NORMAL, points0, tricks0, **kw)


def after(result, variant="BS", **state):
    """State after one hand from a mid-game state (default: chalk team 0, 0-0)."""
    state.setdefault("chalk", 0)
    state.setdefault("first_hand", False)
    return bs.score_hand(bs.GameState(**state), result, bs.rule_options(variant=variant))


@pytest.mark.parametrize("case, chalk, result, strokes, new_chalk", [
    ("SC-01", 0, normal(42), (1, 0), 0),
    ("SC-02", 0, normal(41), (0, 1), 1),
    ("SC-03", 0, normal(90), (1, 0), 0),
    ("SC-04", 0, normal(91), (2, 0), 0),
    ("SC-05", 0, normal(30), (0, 1), 1),
    ("SC-06", 0, normal(29), (0, 2), 1),
    ("SC-07", 0, normal(0, 1), (0, 2), 1),
    ("SC-08", 0, normal(120, 8), (3, 0), 0),
    ("SC-09", 1, normal(78), (0, 1), 1),
    ("SC-10", 1, bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=True), (8, 0), 0),
    ("SC-11", 0, bs.HandResult(bs.SMALL_SOLO, maker=0, solo_won=False), (0, 8), 1),
    ("SC-12", 1, bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True), (12, 0), 0),
])
def test_scoring_examples_bs(case, chalk, result, strokes, new_chalk):
    state = after(result, chalk=chalk)
    assert (state.strokes, state.chalk, state.first_hand) == (strokes, new_chalk, False), case


def test_sc13_game_won_and_reset():
    state = after(normal(95), strokes=(18, 5))
    assert state == bs.GameState(strokes=(0, 0), chalk=None, first_hand=True, games=(1, 0), dealer=1)


def test_sc14_first_hand_chalk_is_club_jack_team():
    """SC-14 / X-22: in a game's first hand the team dealt cB has the chalk (42 is enough)."""
    state = bs.score_hand(bs.GameState(), normal(78, club_jack=1))
    assert (state.strokes, state.chalk) == ((0, 1), 1)
    state = bs.score_hand(bs.GameState(), normal(78, club_jack=0))
    assert (state.strokes, state.chalk) == ((1, 0), 0)


def test_seq_bs():
    hands = [
        normal(45, club_jack=0), normal(40), normal(25), bs.HandResult(bs.SMALL_SOLO, maker=0),
        bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True), normal(120, 8), normal(38), normal(70),
        normal(95), normal(61), normal(100),
    ]
    expected = [((1, 0), 0), ((1, 1), 1), ((1, 3), 1), ((1, 11), 1), ((13, 11), 0), ((16, 11), 0),
                ((16, 12), 1), ((16, 13), 1), ((18, 13), 0), ((19, 13), 0), ((0, 0), None)]
    state = bs.GameState()
    for i, (result, want) in enumerate(zip(hands, expected)):
        state = bs.score_hand(state, result)
        assert (state.strokes, state.chalk) == want, f"hand {i + 1}"
    assert state.games == (1, 0) and state.first_hand and state.dealer == 11 % 4


def test_throw_in_keeps_first_hand_and_passes_the_deal():
    state = bs.score_hand(bs.GameState(dealer=3), bs.HandResult(bs.THROW_IN))
    assert state == bs.GameState(dealer=0)
    consumed = bs.score_hand(bs.GameState(), bs.HandResult(bs.THROW_IN),
                             bs.rule_options(throwin_consumes_first_hand=True))
    assert not consumed.first_hand and consumed.chalk is None


@pytest.mark.parametrize("points0, club_jack, want", [(45, 0, ((1, 0), 0)), (41, 0, ((0, 1), 1)),
                                                      (79, 1, ((1, 0), 0)), (78, 1, ((0, 1), 1))])
def test_the_hand_after_a_consumed_throw_in_gives_the_chalk_as_a_first_hand(points0, club_jack, want):
    """§8 A13 with throwin_consumes_first_hand: the redeal is no first hand (solos allowed), but nobody holds the
    chalk yet, so the club jack's team holds it, as in a first hand (§6.4)."""
    opts = bs.rule_options(throwin_consumes_first_hand=True)
    state = bs.score_hand(bs.GameState(), bs.HandResult(bs.THROW_IN), opts)
    state = bs.score_hand(state, normal(points0, club_jack=club_jack), opts)
    assert (state.strokes, state.chalk) == want and not state.first_hand


def test_a_match_with_consumed_throw_ins_runs():
    """A thrown-in first hand (7/899 of them) used to stop the game: no chalk team to score against."""
    from analysis.games import bauernstoss as b

    result = b.match("b0", "b0", 200, 5, rules=(("throwin_consumes_first_hand", True),), progress=False)
    assert result["games"] == 200


def test_bad_hand_results():
    with pytest.raises(CardsimError, match="chalk"):
        bs.normal_score(60, 4, None)
    for bad in (normal(121), normal(60, 9), normal(60, maker=2), bs.HandResult("grand")):
        with pytest.raises(CardsimError, match="points 0-120"):
            bs.score_hand(bs.GameState(), bad)


@given(st.integers(0, 120), st.integers(0, 8), st.integers(0, 1))
def test_chalk_table_matches_closed_form(points, tricks, chalk):
    """§6.2: the six rows of the chalk table, read from the chalk team's side."""
    if (tricks == 0 and points > 0) or (tricks == 8 and points < 120):
        return
    mine = points if chalk == 0 else 120 - points
    my_tricks = tricks if chalk == 0 else 8 - tricks
    if my_tricks == 0 or mine < 30:
        want = (1 - chalk, 3 if my_tricks == 0 else 2)
    elif mine < 42:
        want = (1 - chalk, 1)
    else:
        want = (chalk, 3 if my_tricks == 8 else 2 if mine >= 91 else 1)
    assert bs.normal_score(points, tricks, chalk) == want


@pytest.mark.parametrize("case, state, result, strokes, chalk", [
    ("AS-S1", dict(chalk=None, first_hand=True), normal(59), (0, 1), 1),
    ("AS-S2", dict(chalk=None, first_hand=True), normal(60, maker=0), (0, 1), 1),
    ("AS-S3", dict(chalk=None, first_hand=True), normal(89), (2, 0), 0),
    ("AS-S4", dict(chalk=1), normal(79), (1, 0), 0),
    ("AS-S5a", dict(chalk=0), normal(88), (1, 0), 0),
    ("AS-S5b", dict(chalk=0), normal(89), (2, 0), 0),
    ("AS-S6", dict(chalk=1), normal(89), (2, 0), 0),
    ("AS-S7a", dict(chalk=1), normal(120, 8), (4, 0), 0),
    ("AS-S7b", dict(chalk=None, first_hand=True), normal(0, 0), (0, 4), 1),
])
def test_scoring_examples_as(case, state, result, strokes, chalk):
    got = after(result, "AS", **state)
    assert (got.strokes, got.chalk) == (strokes, chalk), case


def test_as_target_and_big_solo():
    """AS-1: 15 strokes win; AS-S8: a Big Solo decides the game (not +12)."""
    assert after(normal(95), "AS", strokes=(13, 0)).games == (1, 0)
    won = after(bs.HandResult(bs.BIG_SOLO, maker=0, solo_won=True), "AS", strokes=(3, 12))
    assert (won.games, won.strokes, won.first_hand) == ((1, 0), (0, 0), True)
    lost = after(bs.HandResult(bs.BIG_SOLO, maker=0), "AS", strokes=(3, 12))
    assert lost.games == (0, 1)


def ds(points0, maker, tricks0=4):
    return normal(points0, tricks0, maker=maker)


@pytest.mark.parametrize("points0, strokes", [(61, (1, 0)), (90, (1, 0)), (91, (2, 0)), (59, (0, 2)), (29, (0, 4))])
def test_ds_t6(points0, strokes):
    assert after(ds(points0, 0), "DS", chalk=None).strokes == strokes


@pytest.mark.parametrize("case, second, strokes", [("DS-T7", ds(25, 1), (0, 3)), ("DS-T8", ds(70, 1), (4, 0))])
def test_ds_ties(case, second, strokes):
    """X-34: a 60-60 hand is settled by the next: +1 to its makers, +2 to the others."""
    tied = after(ds(60, 1), "DS", chalk=None)
    assert tied.strokes == (0, 0) and tied.pending == (1,)
    final = bs.score_hand(tied, second, bs.rule_options(variant="DS"))
    assert (final.strokes, final.pending, final.chalk) == (strokes, (), None), case


def test_ds_tie_chain_and_schwarz():
    opts = bs.rule_options(variant="DS")
    two = bs.score_hand(bs.score_hand(bs.GameState(chalk=None), ds(60, 1), opts), ds(60, 0), opts)
    assert two.pending == (1, 0)
    assert bs.score_hand(two, ds(70, 0), opts).strokes == (1 + 2 + 1, 0)
    last = bs.rule_options(variant="DS", ds_tie_chain="only_last")
    assert bs.score_hand(bs.score_hand(bs.GameState(), ds(60, 1), last), ds(60, 0), last).pending == (0,)
    # X-35 / A7: schwarz earns a game, strokes and pending ties unchanged
    credit = bs.score_hand(two, ds(120, 0, 8), opts)
    assert (credit.games, credit.strokes, credit.pending) == ((1, 0), (0, 0), (1, 0))
    plus = bs.score_hand(two, ds(120, 0, 8), bs.rule_options(variant="DS", ds_schwarz="game_credit_plus_strokes"))
    assert (plus.games, plus.strokes) == ((1, 0), (2 + 2 + 1, 0))
    ends = bs.score_hand(bs.GameState(strokes=(3, 5)), ds(0, 0, 0),
                         bs.rule_options(variant="DS", ds_schwarz="end_current_game"))
    assert (ends.games, ends.strokes) == ((0, 1), (0, 0))
    assert after(ds(95, 0), "DS", chalk=None, strokes=(7, 0)).games == (1, 0)  # 9 strokes
    with pytest.raises(CardsimError, match="DS-6"):
        after(bs.HandResult(bs.BIG_SOLO), "DS")


def test_rule_options_validation():
    assert bs.rule_options()["variant"] == "BS"
    with pytest.raises(CardsimError, match="unknown bauernstoss option"):
        bs.rule_options(varient="AS")
    with pytest.raises(CardsimError, match="choose one of"):
        bs.rule_options(min_number_bid=4)


# --- §4 trump auction -----------------------------------------------------------------------
C, S, D = 0, 1, 3


def auction(seats: dict, dealer=0, first_hand=False, **opts):
    """An auction where ``seats`` maps seat -> hand text; the other seats get the rest in card order."""
    given = {seat: mask(text) for seat, text in seats.items()}
    rest = [c for c in range(32) if not any((m >> c) & 1 for m in given.values())]
    hands = []
    for seat in range(4):
        if seat not in given:
            given[seat], rest = DECK.mask(rest[:8]), rest[8:]
        hands.append(given[seat])
    return bs.Auction(hands, dealer, first_hand, bs.rule_options(**opts))


def calls(a, *made):
    for kind, n, suit in made:
        a.call(bs.Call(kind, n, suit))
    return a


def number(n, suit):
    return (bs.NUMBER, n, suit)


def mit(suit):
    return (bs.MIT, 0, suit)


PASS = (bs.PASS, 0, -1)


def test_td01_hand_features_and_bids():
    hand = mask("sB hB dB cA cT sK h7 d8")
    assert [bs.trump_length(hand, s) for s in range(4)] == [5, 4, 4, 4]
    assert [bs.lowest_trump(hand, s) for s in range(4)] == [5, 4, 0, 1]
    a = auction({1: "sB hB dB cA cT sK h7 d8"})
    assert {(c.kind, c.n, c.suit) for c in a.legal_calls()} == {number(5, C), number(4, S), number(4, H),
                                                                number(4, D)}


@pytest.mark.parametrize("mine, legal_mit", [("sB h7 hA hK s7 s8 d7 d8", False), ("sB h8 hA hK s7 s9 d7 d9", True)])
def test_td02_mit_over_an_opponent(mine, legal_mit):
    a = calls(auction({1: "cB cA cK c9 sA sK dA dK", 2: mine}), number(4, C))
    assert a.mit_threshold(2) == 1
    assert (a.illegal(bs.Call(bs.MIT, 0, H)) is None) == legal_mit
    if not legal_mit:
        assert [c.kind for c in a.legal_calls()] == [bs.PASS]
        with pytest.raises(CardsimError, match=r"§4\.6 mit legality"):
            a.call(bs.Call(bs.MIT, 0, H))


@pytest.mark.parametrize("mine, suit, legal_mit", [("hB dT dD d8 c7 c8 h7 h9", D, False),
                                                   ("hB sT sD s9 c7 c8 h7 h9", S, True)])
def test_td03_partner_bid_then_opponent_mit(mine, suit, legal_mit):
    a = calls(auction({1: "cB cA cK c9 sA sK dA dK", 2: "sB h8 hA hK s7 s8 d7 d9", 3: mine}), number(4, C), mit(H))
    assert a.known_low[2] == 1 and a.mit_threshold(3) == 2
    assert (a.illegal(bs.Call(bs.MIT, 0, suit)) is None) == legal_mit


def test_td04_partner_bid_opponent_passed():
    a = calls(auction({1: "cB cA cK c9 sA sK dA dK", 3: "hB sT sD s7 c7 c8 h7 h9"}), number(4, C), PASS)
    assert a.mit_threshold(3) == 0
    calls(a, mit(S), PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, 1, C, 4)  # partners: the higher lowest card (9 over 7)


@pytest.mark.parametrize("mine, legal_mit", [("hB dB d7 d9 s7 s8 sT sD", False), ("hB dB d8 d9 s7 s8 sT sD", True)])
def test_td05_dealer_after_two_opponents(mine, legal_mit):
    a = calls(auction({1: "cB cA cK c9 sA sK dA dK", 3: "sB h7 hA hK c7 c8 cT cD", 0: mine}),
              number(4, C), PASS, mit(H))
    assert a.known_low[3] == 0 and a.mit_threshold(0) == 1
    assert (a.illegal(bs.Call(bs.MIT, 0, D)) is None) == legal_mit


@pytest.mark.parametrize("case, second, chooser, trump", [("TD-06", "sB hT hA hK hD s7 s8 d7", 2, H),
                                                          ("TD-07", "sB h9 hA hK hD s7 s8 d7", 1, C)])
def test_td06_td07_showdown(case, second, chooser, trump):
    a = calls(auction({1: "cB c9 cA cK cD sA sK dA", 2: second}), number(5, C), mit(H), PASS, PASS)
    assert a.done and a.contract() == bs.Contract(bs.NORMAL, chooser, trump, 5, True), case


@pytest.mark.parametrize("partner_tie, chooser", [("higher_low", 1), ("earlier_speaker", 1), ("later_speaker", 3)])
def test_td08_partners_agree(partner_tie, chooser):
    a = calls(auction({1: "cB c7 cA cK sA sK dA dK", 3: "sB h7 hA hK s7 s8 d7 d8"}, partner_tie=partner_tie),
              number(4, C), PASS, mit(H), PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, chooser, (C, S, H)[chooser - 1], 4, False)


def test_td08_callback():
    a = calls(auction({1: "cB c7 cA cK sA sK dA dK", 3: "sB h7 hA hK s7 s8 d7 d8"}, partner_tie="strategy_callback"),
              number(4, C), PASS, mit(H), PASS)
    with pytest.raises(CardsimError, match="callback"):
        a.contract()
    a.agree = lambda seats: 0
    with pytest.raises(CardsimError, match="agree on one of seats"):
        a.contract()
    a.agree = lambda seats: seats[-1]
    assert a.contract().declarer == 3


@pytest.mark.parametrize("mixed_tie, chooser, trump", [("individual", 3, H), ("team_then_agree", 1, C)])
def test_mixed_tie_option(mixed_tie, chooser, trump):
    """§8 A15: seat 3's 9 is the best lowest card; team_then_agree lets its team agree (earlier speaker)."""
    a = calls(auction({1: "cB c7 cA cK sA sK dA dK", 2: "dB d8 dT dD h8 h7 c8 c9", 3: "sB h9 hA hK s7 s8 d7 d9"},
                      mixed_tie=mixed_tie, partner_tie="earlier_speaker"),
              number(4, C), mit(D), mit(H), PASS)
    assert a.known_low == {1: 0, 2: 1, 3: 2}
    assert a.contract() == bs.Contract(bs.NORMAL, chooser, trump, 4, True)


def test_td09_no_jack_passes_one_jack_must_bid():
    a = auction({1: "c7 c8 c9 cA s7 s8 s9 sA", 2: "cB cT cK h7 h8 d7 d8 d9"})
    assert a.legal_calls() == [bs.Call(bs.PASS)]
    with pytest.raises(CardsimError, match=r"§4\.3: seat 1 holds no jack"):
        a.call(bs.Call(bs.NUMBER, 1, C))
    calls(a, PASS)
    with pytest.raises(CardsimError, match=r"§4\.4 forced opening"):
        a.call(bs.Call(bs.PASS))
    legal = a.legal_calls()
    assert max(c.n for c in legal if c.kind == bs.NUMBER) >= 3
    assert {c.kind for c in legal} == {bs.NUMBER, bs.SMALL_SOLO, bs.BIG_SOLO}
    assert {c.kind for c in auction({2: "cB cT cK h7 h8 d7 d8 d9"}, first_hand=True).legal_calls()} == {bs.NUMBER}


def test_x12_forehand_may_not_pass():
    a = auction({1: "hB c7 c8 c9 sA s7 s8 d7"})
    assert bs.Call(bs.PASS) not in a.legal_calls()
    with pytest.raises(CardsimError, match="forced opening"):
        a.call(bs.Call(bs.PASS))


def test_td10_four_jacks_throw_in():
    a = auction({3: "cB sB hB dB cA sA hA dA"}, first_hand=True)
    calls(a, PASS, PASS)
    assert a.legal_calls() == [bs.Call(bs.PASS)]
    with pytest.raises(CardsimError, match="all four jacks"):
        a.call(bs.Call(bs.NUMBER, 5, C))
    with pytest.raises(CardsimError, match="first hand"):
        a.call(bs.Call(bs.BIG_SOLO, 0, C))
    calls(a, PASS, PASS)
    assert a.contract() == bs.Contract(bs.THROW_IN)
    later = calls(auction({3: "cB sB hB dB cA sA hA dA"}), PASS, PASS)
    assert {c.kind for c in later.legal_calls()} == {bs.PASS, bs.BIG_SOLO}
    with pytest.raises(CardsimError, match="only Big Solo"):
        later.call(bs.Call(bs.SMALL_SOLO, 0, H))


def test_td11_solo_ends_the_auction():
    a = calls(auction({1: "sB s7 s8 s9 sT h7 h8 h9", 2: "hB dB dA dT dK dD c7 c8", 3: "cB cA cT cK cD sA sK hA"}),
              number(5, S), number(6, D), (bs.BIG_SOLO, 0, C))
    assert a.done and a.to_speak == -1 and a.legal_calls() == []
    assert a.contract() == bs.Contract(bs.BIG_SOLO, 3, C)
    with pytest.raises(CardsimError, match="auction is over"):
        a.call(bs.Call(bs.PASS))


def test_td12_no_solo_in_first_hand():
    a = auction({1: "cB cA cT cK cD sA sK hA"}, first_hand=True)
    with pytest.raises(CardsimError, match=r"§4\.7: no solo in the first hand"):
        a.call(bs.Call(bs.SMALL_SOLO, 0, C))
    with pytest.raises(CardsimError, match="only the holder of the club jack"):
        calls(auction({1: "sB cA cT cK cD sA sK hA"}), (bs.BIG_SOLO, 0, C))


def test_td13_numbers_equal_the_real_length():
    a = calls(auction({1: "cB c7 cA cK sA sK dA dK", 2: "sB hB h7 h8 h9 hT d7 d8"}), number(4, C))
    with pytest.raises(CardsimError, match="would hold 6 with hearts trumps, not 5"):
        a.call(bs.Call(bs.NUMBER, 5, H))
    with pytest.raises(CardsimError, match="must exceed the highest bid 4"):
        a.call(bs.Call(bs.NUMBER, 4, D))
    assert {(c.kind, c.n, c.suit) for c in a.legal_calls()} == {PASS, number(6, H)}  # mit with d7 loses to an opponent
    calls(a, number(6, H))
    assert a.cur == 6


def test_mit_rule_advisory_and_min_bid():
    a = calls(auction({1: "cB cA cK c9 sA sK dA dK", 2: "sB h7 hA hK s7 s8 d7 d8"}, mit_rule="advisory"),
              number(4, C))
    assert a.illegal(bs.Call(bs.MIT, 0, H)) is None
    short = auction({1: "cB c7 sA sK sD hA hK dA"}, min_number_bid=3)
    with pytest.raises(CardsimError, match="A4"):
        short.call(bs.Call(bs.NUMBER, 2, C))


@pytest.mark.parametrize("low, legal_mit", [("s7", False), ("s8", True)])
def test_as_s9_mit_over_partner(low, legal_mit):
    """AS-6 / AS-S9 / X-27: in AS mit over your partner needs a lowest card of 8, and then wins."""
    seats = {1: "cB c7 cA cK cD sA hA dA", 3: f"sB {low} sK sD sT h7 h8 d7"}
    a = calls(auction(seats, variant="AS"), number(5, C), PASS)
    assert a.mit_threshold(3) == 1 and (a.illegal(bs.Call(bs.MIT, 0, S)) is None) == legal_mit
    assert calls(auction(seats), number(5, C), PASS).illegal(bs.Call(bs.MIT, 0, S)) is None  # BS: partners agree
    if legal_mit:
        calls(a, mit(S), PASS)
        assert a.contract() == bs.Contract(bs.NORMAL, 3, S, 5, True)


def test_as_four_jacks_bid_and_no_small_solo():
    """AS-5 / X-26: all four jacks bid a number (and must open); AS-10: no Small Solo."""
    a = auction({1: "cB sB hB dB cA sA hA dA"}, variant="AS")
    assert {c.kind for c in a.legal_calls()} == {bs.NUMBER, bs.BIG_SOLO}
    with pytest.raises(CardsimError, match="AS-10"):
        a.call(bs.Call(bs.SMALL_SOLO, 0, C))
    first = auction({1: "cB sB hB dB cA sA hA dA"}, first_hand=True, variant="AS")
    assert {c.kind for c in first.legal_calls()} == {bs.NUMBER}


@pytest.mark.parametrize("first_hand", [False, True])
def test_as_four_jacks_forced_is_an_option(first_hand):
    """AS-5's default (§8 A10): the holder of all four jacks must open, so AS never throws in. With
    as_four_jacks_forced=False he may pass; nobody else holds a jack, so the hand is thrown in (§4.11)."""
    seats = {1: "cB sB hB dB cA sA hA dA"}
    forced = auction(seats, first_hand=first_hand, variant="AS")
    with pytest.raises(CardsimError, match="§4.4 forced opening: seat 1 holds 4 jack"):
        forced.call(bs.Call(bs.PASS))
    free = auction(seats, first_hand=first_hand, variant="AS", as_four_jacks_forced=False)
    assert bs.Call(bs.PASS) in free.legal_calls()
    assert {c.kind for c in free.legal_calls()} - {bs.PASS} == {c.kind for c in forced.legal_calls()}
    calls(free, PASS, PASS, PASS, PASS)
    assert free.contract().kind == bs.THROW_IN


def test_ds_t3_lengths():
    a = auction({1: "c7 c8 c9 cA s7 s8 s9 h7", 2: "cB sA sK sD sT h8 h9 d7", 3: "sB hA hK hD hT d8 d9 cK"},
                variant="DS")
    assert a.legal_calls() == [bs.Call(bs.PASS)]
    calls(a, PASS)
    with pytest.raises(CardsimError, match="DS-4"):
        a.call(bs.Call(bs.PASS))
    calls(a, number(5, S), number(5, H))
    with pytest.raises(CardsimError, match="longest potential trump suit, 6"):
        a.call(bs.Call(bs.NUMBER, 5, C))
    calls(a, number(6, D))
    assert a.contract() == bs.Contract(bs.NORMAL, 0, D, 6, False)


@pytest.mark.parametrize("ten, chooser, trump", [(10, 1, H), (0, 2, D)])
def test_ds_t4_values(ten, chooser, trump):
    hands = {1: "cB sB hA hT hK h9 c7 s7", 2: "hB dB dA dD d8 d7 c8 s8"}
    assert bs.ds_suit_value(mask(hands[1]), H) == 60 and bs.ds_suit_value(mask(hands[2]), D) == 56
    a = calls(auction(hands, variant="DS", ds_ten_value=ten), number(6, H), number(6, D), PASS, PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, chooser, trump, 6, True)


def test_ds_t5_all_pass_acorn_unter_chooses():
    plain = [c for c in range(32) if c % 8 != bs.JACK]
    seats = {seat: " ".join(DECK.token(c) for c in [8 * seat + bs.JACK] + plain[seat::4]) for seat in range(4)}
    a = calls(auction(seats, dealer=2, variant="DS"), PASS, PASS, PASS, PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, 0)
    with pytest.raises(CardsimError, match="no big_solo"):
        auction(seats, variant="DS").call(bs.Call(bs.BIG_SOLO, 0, C))


def random_auction(rng, variant, first_hand):
    hands = [DECK.mask(p) for p in np.split(rng.permutation(32), 4)]
    a = bs.Auction(hands, int(rng.integers(4)), first_hand, bs.rule_options(variant=variant))
    while not a.done:
        legal = a.legal_calls()
        assert legal, "a seat to speak always has a legal call"
        a.call(legal[int(rng.integers(len(legal)))])
    return hands, a.contract()


@pytest.mark.parametrize("variant", ["BS", "AS", "DS"])
def test_random_auctions_invariants(variant):
    """Random legal calls: the contract's trump suit has the bid length; BS throws in only when one
    player holds all four jacks (§4.4, §4.11); AS never throws in (AS-5)."""
    rng = np.random.default_rng(11)
    for _ in range(400):
        hands, contract = random_auction(rng, variant, bool(rng.integers(2)))
        if contract.kind == bs.THROW_IN:
            assert variant == "BS" and max(bs.jack_count(h) for h in hands) == 4
        elif contract.kind == bs.NORMAL and contract.trump >= 0:
            assert bs.trump_length(hands[contract.declarer], contract.trump) == contract.bid
        elif contract.kind in bs.SOLOS:
            assert (hands[contract.declarer] >> bs.CLUB_JACK) & 1


# --- play-out --------------------------------------------------------------------------------
def random_hands(rng, n):
    return np.array([[DECK.mask(h) for h in np.split(rng.permutation(32), 4)] for _ in range(n)], dtype=np.uint32)


def replay(hands, line, trump, leader, legal_ref, soloist=-1):
    """Check a play line with the references; returns (points, tricks) per team and the tricks."""
    held = [set(DECK.cards_of(h)) for h in hands]
    out = (soloist + 2) % 4 if soloist >= 0 else -1
    order = [s for s in range(4) if s != out]
    points, tricks, pos = [0, 0], [0, 0], 0
    while pos < len(line):
        seats = [order[(order.index(leader) + i) % len(order)] for i in range(len(order))]
        trick = line[pos:pos + len(seats)]
        for i, (seat, card) in enumerate(zip(seats, trick)):
            assert card in legal_ref(sorted(held[seat]), trick[:i], trump)
            held[seat].remove(card)
        leader = seats[naive.winner(trick, trump)]
        points[leader % 2] += naive.points(trick)
        tricks[leader % 2] += 1
        pos += len(seats)
        if soloist >= 0 and leader != soloist:
            break
    assert pos == len(line)
    return points, tricks


@pytest.mark.parametrize("policy", ["random", "greedy"])
@pytest.mark.parametrize("rule", [play.BS_OVERTAKE, play.AS_BEAT_TRUMP, play.DS_FOLLOW])
def test_play_out_matches_reference(policy, rule):
    """§9.4: points add up to 120 and tricks to 8; every card is legal by the reference rules."""
    rng = np.random.default_rng(rule * 10 + len(policy))
    n = 60
    hands = random_hands(rng, n)
    trumps, leaders = rng.integers(0, 4, n), rng.integers(0, 4, n)
    u = rng.random((n, play.DECISIONS))
    points, tricks = play.play_out(policy, hands, trumps, leaders, u, rule)
    assert (points.sum(axis=1) == 120).all() and (tricks.sum(axis=1) == 8).all()
    for i in range(n):
        line = play.play_line(policy, hands[i], trumps[i], leaders[i], u[i], rule)
        assert len(line) == 32
        assert replay(hands[i], line, trumps[i], leaders[i], REFERENCES[rule]) == (list(points[i]), list(tricks[i]))


@pytest.mark.parametrize("dealer, soloist, leader", [(0, 1, 1), (0, 2, 1), (0, 3, 2), (0, 0, 1), (2, 1, 0)])
def test_x17_solo_leader(dealer, soloist, leader):
    assert play.solo_leader(dealer, soloist) == leader


def test_solo_play_out_stops_at_first_lost_trick():
    """§5.4 / X-18: three cards a trick without the soloist's partner; play stops when S loses a trick."""
    rng = np.random.default_rng(3)
    n = 200
    hands = random_hands(rng, n)
    soloists = rng.integers(0, 4, n)
    trumps = rng.integers(0, 4, n)
    leaders = np.array([play.solo_leader(0, s) for s in soloists])
    u = rng.random((n, play.DECISIONS))
    points, tricks = play.play_out("random", hands, trumps, leaders, u, soloists=soloists)
    for i in range(n):
        line = play.play_line("random", hands[i], trumps[i], leaders[i], u[i], soloist=soloists[i])
        team = soloists[i] % 2
        won = tricks[i, team]
        assert len(line) == 3 * (won + (won < 8))
        assert not set(line) & set(DECK.cards_of(hands[i, (soloists[i] + 2) % 4]))
        assert replay(hands[i], line, trumps[i], leaders[i], REFERENCES[play.BS_OVERTAKE], soloists[i])[1] == \
            list(tricks[i])
    # a hand with every trump and the top plain cards never loses a trick
    strong = np.array([[mask("cB sB hB dB hA hT hK hD"), mask("c7 c8 c9 s7 s8 s9 d7 d8"),
                        mask("cA cT cK cD sA sT sK sD"), mask("dA dT dK dD d9 h7 h8 h9")]], dtype=np.uint32)
    _, tricks = play.play_out("greedy", strong, [H], [1], soloists=[0])
    assert tricks[0, 0] == 8


def test_greedy_choices():
    """Greedy: lead the strongest card; the weakest card when partner holds the trick or nothing wins;
    else the weakest card that wins."""
    given = [mask("c7 hA cB sA c9 s9 d9 dT"), mask("h7 h8 c8 s8 cT sT dA dK"), mask("h9 hT cA sK cK cD dD sD")]
    hands = np.array(given + [mask("s7 sB hB hD hK d7 d8 dB")], dtype=np.uint32)
    line = play.play_line("greedy", hands, H, 0)
    # trick 1: nobody beats cB, so weakest trumps; trick 2: seat 2's partner holds it, seat 3 wins with dB
    assert DECK.format_cards(line[:9]) == "cB h7 h9 hD hA h8 hT dB sB"


def test_greedy_solo_defender_keeps_the_guard_that_can_still_beat_the_soloist():
    """Seat 0, a defender void in trumps, discards seven cards while the soloist draws trumps: non-top
    cards first, then the top whose lower cards it has all seen (dK, c8), keeping sK, the one card that
    beats the soloist's s7 in the last trick (plain greedy kept dK, throwing the first of two equal cards)."""
    hands = np.array([[mask("sK dK d7 d8 d9 dD c7 c8"), mask("sA sT sD s9 s8 hD h9 h8"),
                       mask("c9 cD cK cT cA dT dA h7"), mask("cB sB hB dB hA hT hK s7")]], dtype=np.uint32)
    line = play.play_line("greedy", hands[0], H, 3, soloist=3)
    assert DECK.format_cards(line[-3:]) == "s7 sK dA"
    _, tricks = play.play_out("greedy", hands, [H], [3], soloists=[3])
    assert list(tricks[0]) == [1, 7]


# --- §9.3 baseline reference values (policy B0 auction, policy R play) ------------------------
def assert_rate(hits, n, reference, what):
    """Within 4.5 standard errors of the spec's reference proportion."""
    se = (reference * (1 - reference) / n) ** 0.5
    assert abs(hits / n - reference) <= 4.5 * se + 1e-12, f"{what}: {hits / n:.4f} vs {reference}"


REFERENCE = {  # spec §9.3: throw-in or all-pass rate, bid 5 / opponents' showdown / 2-jack chooser rates,
    # E[maker points], P(maker >= 61), P(maker >= 91), P(maker schwarz)
    "BS": (7 / 899, 0.57781, 0.22333, 0.56665, 79.98, 0.8100, 0.3348, 0.0356),
    "AS": (0.0, 0.57425, 0.21462, 0.56226, 80.73, 0.8193, 0.3474, 0.0404),
    "DS": (0.27011, None, None, None, 77.96, 0.7800, 0.3076, 0.0309),
}


@pytest.mark.parametrize("variant", sorted(REFERENCE))
def test_baseline_reference_values(variant):
    """§9.3: policy B0/D0 auction shape and random play (policy R) of the contracts, dealer seat 0."""
    passed, bid5, showdown, two_jacks, mean, p61, p91, schwarz = REFERENCE[variant]
    rng = np.random.default_rng(20260529)
    n = 5000
    hands = random_hands(rng, n)
    opts = bs.rule_options(variant=variant)
    contracts, opposed = [], []
    for h in hands:
        a = bs.Auction(h, 0, False, opts)
        while not a.done:
            a.call(bs.baseline_call(a))
        contracts.append(a.contract())
        opposed.append(len({q % 2 for q in a.at_cur}) == 2)
    assert_rate(sum(c.kind == bs.THROW_IN or c.trump < 0 for c in contracts), n, passed, "all passed")
    made = [i for i, c in enumerate(contracts) if c.kind == bs.NORMAL]
    trumps = [contracts[i].trump if contracts[i].trump >= 0 else bs.best_suit(int(hands[i, contracts[i].declarer]),
                                                                              variant) for i in made]
    m = len(made)
    if variant == "DS":
        assert_rate(sum(contracts[i].bid == 5 for i in made), n, 0.57828, "winning bid 5")
    else:
        assert_rate(sum(contracts[i].bid == 5 for i in made), m, bid5, "winning bid 5")
        assert_rate(sum(opposed[i] for i in made), m, showdown, "showdown between opponents")
        assert_rate(sum(bs.jack_count(int(hands[i, contracts[i].declarer])) == 2 for i in made), m, two_jacks,
                    "chooser holds 2 jacks")
    points, tricks = play.play_out("random", hands[made], trumps, np.ones(m, dtype=int),
                                   rng.random((m, play.DECISIONS)), play.play_rule(variant))
    maker = np.array([contracts[i].declarer % 2 for i in made])
    mine = points[np.arange(m), maker]
    assert abs(mine.mean() - mean) < 4.5 * mine.std() / m ** 0.5
    assert_rate((mine >= 61).sum(), m, p61, "maker >= 61")
    assert_rate((mine >= 91).sum(), m, p91, "maker >= 91")
    assert_rate((tricks[np.arange(m), maker] == 8).sum(), m, schwarz, "maker schwarz")
    if variant == "BS":  # the first hand of a game: the chalk is with the cB team
        chalk = [0 if (int(hands[i, 0]) | int(hands[i, 2])) >> bs.CLUB_JACK & 1 else 1 for i in made]
        scores = sum(bs.normal_score(points[k, 0], tricks[k, 0], chalk[k])[0] == chalk[k] for k in range(m))
        assert_rate(scores, m, 0.8388, "first hand: chalk team scores")


# --- §2 partnerships, §5.4 Small Solo, whole hands and games -------------------------------------
def test_x03_partnership_draw():
    """X-03 / A12: the first jack to X, the next jack to a different player Y: X and Y are partners."""
    with pytest.raises(CardsimError, match="ran out"):  # both jacks to player 1: a second jack does not count
        bs.draw_partners(cards("c7 sB c8 c9 cA hB"))
    assert bs.draw_partners(cards("c7 sB c8 c9 cA hB dB")) == (1, 2)
    assert bs.draw_partners(cards("sB c7 hB"), first=3) == (3, 1)
    assert bs.seating((1, 2)) == (1, 0, 2, 3)


def test_x16_small_solo_exchange():
    """§5.4 / X-16 / A11: S passes one card, P' returns its highest trump (else its best card)."""
    hands = [mask("cB sB cA cT cK cD c9 h7"), mask("s7 s8 s9 d7 d8 d9 dT dA"),
             mask("hB dB hA hT sA sK sD sT"), mask("c7 c8 h8 h9 hD hK dD dK")]
    new = play.small_solo_exchange(hands, 0, C, cards("h7")[0])
    assert DECK.format_cards(DECK.cards_of(new[0])) == "c9 cB cD cK cT cA sB hB"
    assert DECK.format_cards(DECK.cards_of(new[2])) == "sD sK sT sA h7 hT hA dB"
    no_trump = [mask("c7 c8 c9 cD cK cT cA cB"), 0, mask("sA sT s7 hK d7 d8 d9 h7"), 0]
    assert (play.small_solo_exchange(no_trump, 0, C, cards("c7")[0])[0] >> cards("sA")[0]) & 1
    with pytest.raises(CardsimError, match="original hand"):
        play.small_solo_exchange(hands, 0, C, cards("h7")[0], back=cards("h7")[0])
    with pytest.raises(CardsimError, match="its hand"):
        play.small_solo_exchange(hands, 0, C, cards("hA")[0])


def solo_caller(kind):
    """B0, except that the cB holder calls ``kind`` in its best suit whenever it may."""
    def caller(auction):
        hand = auction.hands[auction.to_speak]
        solo = bs.Call(kind, 0, bs.best_suit(hand))
        return solo if auction.illegal(solo) is None else bs.baseline_call(auction)
    return caller


@pytest.mark.parametrize("kind", [bs.SMALL_SOLO, bs.BIG_SOLO])
def test_solo_hands_score(kind):
    """X-18 / §6.3: a solo scores 8 or 12 for the soloist's team if it takes all tricks, else for the
    opponents, who take the chalk."""
    rng = np.random.default_rng(8)
    outcomes = set()
    for _ in range(40):
        hands = [DECK.mask(h) for h in np.split(rng.permutation(32), 4)]
        before = bs.GameState(chalk=0, first_hand=False)
        after, contract, result = play.play_hand(before, hands, bs.rule_options(), rng, "greedy", solo_caller(kind))
        if contract.kind == bs.THROW_IN:  # all four jacks with the cB holder: no Small Solo, B0 passes
            continue
        assert contract.kind == kind and result.maker == contract.declarer % 2
        team = result.maker if result.solo_won else 1 - result.maker
        assert after.strokes[team] == bs.SOLO_STROKES[kind] and after.chalk == team
        outcomes.add(result.solo_won)
    assert outcomes == {True, False}


@pytest.mark.parametrize("variant", ["BS", "AS", "DS"])
def test_games_played_to_the_target(variant):
    """§9.4: in BS/AS exactly one team scores 1-3 (AS: 1-4) strokes a played hand and holds the
    chalk after it; a game ends when a team reaches 20 / 15 / 9 strokes (a DS schwarz credits a game on top, DS-10)."""
    rng = np.random.default_rng(len(variant))
    opts = bs.rule_options(variant=variant)
    for _ in range(15):
        history = play.play_game(opts, rng)
        for before, contract, result, after in history:
            assert after.dealer == (before.dealer + 1) % 4
            if contract.kind == bs.THROW_IN:
                assert variant == "BS" and after.strokes == before.strokes
                continue
            if after.games != before.games:
                continue
            gain = np.subtract(after.strokes, before.strokes)
            if variant == "DS":
                assert after.chalk is None and (gain.sum() == 0) == (len(after.pending) > len(before.pending))
            else:
                assert sorted(gain)[0] == 0 and 1 <= gain.max() <= (4 if variant == "AS" else 3)
                assert after.chalk == int(np.argmax(gain))
        final = history[-1][3]
        assert final.first_hand and final.strokes == (0, 0)  # the game ran to its end
        assert sum(final.games) == 1 or variant == "DS"  # DS-10: a schwarz credits a game on top


def test_auction_rejects_bad_hands():
    hands = [DECK.mask(h) for h in np.split(np.arange(32), 4)]
    with pytest.raises(CardsimError, match="four hands of 8 cards"):
        bs.Auction(hands[:3] + [hands[2]])
    with pytest.raises(CardsimError, match="dealer seat"):
        bs.Auction(hands, dealer=4)
    with pytest.raises(CardsimError, match="name the suit"):
        bs.Auction(hands).call(bs.Call(bs.NUMBER, 3))


def test_naming_trumps():
    """§4.10 / A5: the chooser names a suit with the winning length (after a showdown: the announced
    suit), unless allow_suit_switch; after four DS passes the acorn-Unter holder names any suit."""
    seats = {1: "sB hB dB cA cT sK h7 d8"}  # TD-01: 4 with spades, hearts or diamonds
    a = calls(auction(seats), number(4, S), PASS, PASS, PASS)
    assert a.contract(named=H) == bs.Contract(bs.NORMAL, 1, H, 4)
    with pytest.raises(CardsimError, match="names a suit with 4 trumps; clubs gives seat 1 5"):
        a.contract(named=C)
    assert calls(auction(seats, allow_suit_switch=True), number(4, S), PASS, PASS, PASS).contract(C).trump == C
    with pytest.raises(CardsimError, match="0-3"):
        a.contract(named=4)
    b = calls(auction({1: "cB c9 cA cK cD sA sK dA", 2: "sB hT hA hK hD s7 s8 d7"}), number(5, C), mit(H), PASS, PASS)
    with pytest.raises(CardsimError, match="after a showdown"):
        b.contract(named=S)
    plain = [c for c in range(32) if c % 8 != bs.JACK]
    ds_seats = {seat: " ".join(DECK.token(c) for c in [8 * seat + bs.JACK] + plain[seat::4]) for seat in range(4)}
    assert calls(auction(ds_seats, variant="DS"), PASS, PASS, PASS, PASS).contract(named=D) == \
        bs.Contract(bs.NORMAL, 0, D)


def test_ds_require_unter():
    """§8 A9: with ds_require_unter a hand without an Unter passes even with five cards of a suit."""
    seats = {1: "c7 c8 c9 cD cK s7 s8 h7"}
    assert calls(auction(seats, variant="DS"), number(5, C)).cur == 5
    assert auction(seats, variant="DS", ds_require_unter=True).legal_calls() == [bs.Call(bs.PASS)]


# --- §9.2 exact facts by enumeration of all hands ------------------------------------------------
LONGEST = {  # spec §9.2: P(max_s L = 2..8 | J) per jack count
    0: (0.062572, 0.632344, 0.267221, 0.035945, 0.001892, 0.000027, 0),
    1: (0, 0.219003, 0.608341, 0.157258, 0.014898, 0.000497, 0.000003),
    2: (0, 0, 0.442475, 0.474731, 0.078038, 0.004682, 0.000074),
    3: (0, 0, 0, 0.670085, 0.299145, 0.029915, 0.000855),
    4: (0, 0, 0, 0.117265, 0.732308, 0.143590, 0.006838),
}


def test_exact_hand_facts():
    """§9.2 by enumerating all C(32, 8) hands: jack counts, longest potential trump suit by jacks and
    for cB holders, and the DS bidding rate 869753/3506100."""
    from fractions import Fraction
    from math import comb

    table = bs.longest_trump_table()
    by_jacks = table.sum(axis=0)
    assert table.sum() == comb(32, 8) == 10_518_300
    assert list(by_jacks.sum(axis=1)) == [comb(4, k) * comb(28, 8 - k) for k in range(5)] == \
        [3_108_105, 4_736_160, 2_260_440, 393_120, 20_475]
    assert Fraction(int(by_jacks[2:].sum()), comb(32, 8)) == Fraction(4571, 17980)
    for j, row in LONGEST.items():
        np.testing.assert_allclose(by_jacks[j, 2:] / by_jacks[j].sum(), row, atol=6e-7)
    club = table[1].sum(axis=0) / table[1].sum()
    np.testing.assert_allclose(club[3:], (0.098612, 0.464103, 0.350900, 0.079493, 0.006708, 0.000183), atol=6e-7)
    assert Fraction(int(table[:, :, 5:].sum()), comb(32, 8)) == Fraction(869753, 3506100)
    assert round(table[:, 1:, 5:].sum() / comb(32, 8), 6) == 0.236880


def test_x31_ds_equal_values_go_to_the_earlier_speaker():
    hands = {1: "cB sB hA hT hK h9 c7 s7", 2: "hB dB dA dT dK d9 c8 s8"}
    assert bs.ds_suit_value(mask(hands[1]), H) == bs.ds_suit_value(mask(hands[2]), D) == 60
    a = calls(auction(hands, variant="DS"), number(6, H), number(6, D), PASS, PASS)
    assert a.contract() == bs.Contract(bs.NORMAL, 1, H, 6, True)


@given(st.permutations(range(32)), st.integers(0, 3), st.booleans(), st.lists(st.integers(0, 99), min_size=4,
                                                                             max_size=4))
def test_legal_calls_match_reference(pack, dealer, first_hand, picks):
    """The auction's legal calls equal the literal §4.12 generator with the §4.6 bookkeeping (BS)."""
    hands = [DECK.mask(pack[8 * s:8 * s + 8]) for s in range(4)]
    a = bs.Auction(hands, dealer, first_hand)
    ref = naive.AuctionReference(first_hand)
    for pick in picks:
        if a.done:
            break
        seat = a.to_speak
        legal = a.legal_calls()
        got = {(c.kind, c.n, -1 if c.kind in bs.SOLOS else c.suit) for c in legal}
        assert got == ref.legal_calls(seat, pack[8 * seat:8 * seat + 8])
        call = legal[pick % len(legal)]
        a.call(call)
        ref.record(seat, call.kind, call.n)


def test_greedy_solo_defender_leads_a_plain_card():
    """A solo defender on lead (the first trick, §5.4) leads its strongest plain card, not a trump into the
    soloist's trumps; in a normal game greedy leads its strongest card, a trump."""
    hands = np.array([mask("c7 hA cB sA c9 s9 d9 dT"), mask("h7 h8 c8 s8 cT sT dA dK"),
                      mask("h9 hT cA sK cK cD dD sD"), mask("s7 sB hB hD hK d7 d8 dB")], dtype=np.uint32)
    assert DECK.format_cards(play.play_line("greedy", hands, H, 0)[:1]) == "cB"
    assert DECK.format_cards(play.play_line("greedy", hands, H, 0, soloist=3)[:1]) == "sA"
