"""Dreeg hands in play (simcore.games.dreeg_play, dreeg_policies): the worked examples of spec §7 that
need the engine (announcements, Rufen, Kamerun, closing, the trump-9 exchange, the Rot Assen talon
flip) and the property that the policies only ever play legal cards."""

from __future__ import annotations

import numpy as np
import pytest

import naive_dreeg as naive
from simcore.errors import CardsimError
from simcore.games import dreeg_play as dp
from simcore.games import dreeg_rules as r
from simcore.games.dreeg_policies import GreedyPolicy, RandomPolicy, make_policy, sure_cards
from simcore.registry import get_game

OPTS = {o.name: o.default for o in get_game("dreeg").options}
E, L, H, S = range(4)


def cards(text: str) -> list[int]:
    return r.DECK.parse_cards(text)


def mask(text: str) -> int:
    return r.DECK.mask(cards(text))


def perm_for(hands: list[str], talon: str = "") -> list[int]:
    """A pack that `deal_hands` deals as ``hands`` (each listed in dealing order) and ``talon``."""
    n = len(hands)
    queues = [cards(h) for h in hands]
    perm = [queues[pos].pop(0) for pos in r.deal_order(n) if pos >= 0]
    return perm + cards(talon)


class Scripted(GreedyPolicy):
    """Greedy, with answers overridden by keyword (a value or a function of (play, pos, *args))
    and a log of the questions asked: (question, tricks played, talon size)."""

    def __init__(self, log=None, **answers):
        super().__init__()
        self.answers, self.log = answers, [] if log is None else log

    def __getattribute__(self, name):
        answers = object.__getattribute__(self, "answers")
        base = object.__getattribute__(self, name) if hasattr(type(self), name) else None
        if name in ("card", "announce", "go_out", "close", "exchange", "durchmarsch", "ra_trump", "call", "name_trump",
                    "heart_ace"):
            log = object.__getattribute__(self, "log")

            def ask(play, pos, *args):
                log.append((name, pos, sum(play.tricks), None if play.talon is None else len(play.talon)))
                if name in answers:
                    a = answers[name]
                    return a(play, pos, *args) if callable(a) else a
                return base(play, pos, *args)
            return ask
        return object.__getattribute__(self, name)


def new_play(subgame, hands, policies=None, phase=1, talon=None, opts=OPTS):
    policies = policies or [Scripted() for _ in hands]
    return dp.Play(subgame, phase, [mask(h) for h in hands], policies, opts,
                   None if talon is None else cards(talon))


# --- §7.1 announcements ----------------------------------------------------------------------------
def test_d2_d3_announcement_forces_the_lead_section_7_1():
    play = new_play("66", ["HK HO EK EO LA", "E9", "L9", "S9"])
    play.trump = H
    lead = play._announce(0, play.lead_mask(0))
    assert lead == mask("HK HO") and play.marriages == [(0, 40)]
    # D3: two marriages on offer, one announced per lead
    play = new_play("66", ["EK EO LK LO HA", "E9", "L9", "S9"], [Scripted(announce=E)] + [Scripted()] * 3)
    play.trump = H
    assert play._announce(0, play.lead_mask(0)) == mask("EK EO") and play.marriages == [(0, 20)]


def test_d4_trickless_forehand_marriage_counts_nothing_section_7_1():
    play = new_play("66", ["EK EO", "E9", "L9", "S9"])
    play.marriages = [(0, 20)]
    assert play.side_total(0) == 0
    play.tricks[0] = 1
    assert play.side_total(0) == 20


def test_d5_forehand_closes_before_trick_1_section_7_1():
    """FH: trump A 10 K O + 2 others = 28 + 40: the greedy policy closes at once (B0)."""
    log = []
    perm = perm_for(["HA H10 HK HO E9 L9", "EA E10 EK EO EU LA"], "L10 LK LO LU S9 SU SO SK S10 SA H9 HU")
    # indicator between the packets: make it a heart by placing H9 at the 7th card
    perm = perm[:6] + cards("HU") + perm[6:12] + [c for c in perm[12:] if c != cards("HU")[0]]
    res = dp.play_hand("66", 1, perm, [Scripted(log), Scripted()], OPTS)
    assert res.trump == H and res.closer == 0
    assert log[0][0] == "close" and log[0][2] == 0 and log[0][3] == 12


def test_d6_rot_assen_marriage_before_trump_stays_20_section_7_1():
    play = new_play("RA", ["EK EO L9", "S9 SU SO"], talon="HA H9")
    play._announce(0, play.lead_mask(0))
    play.trump = E
    play.tricks[0] = 1
    assert play.marriages == [(0, 20)] and play.side_total(0) == 20


# --- §7.2 Kamerun leads and Rufen ------------------------------------------------------------------
def test_l10_l11_kamerun_lead_restriction_section_7_2():
    play = new_play("KA", ["EK E9 S9", "L9", "H9", "SU"], phase=4)
    play.last_led = E
    assert play.lead_mask(0) == mask("S9")
    play.hands[0] = mask("EK E9")
    assert play.lead_mask(0) == mask("EK E9")
    play.declarer = 0  # A17: the restriction does not bind a Durchmarsch declarer
    play.hands[0] = mask("EK E9 S9")
    assert play.lead_mask(0) == mask("EK E9 S9")


def test_l12_called_card_beats_the_head_duty_section_7_2():
    play = new_play("RU", ["HK E9", "H10 E10", "HA HO", "H9 HU"], phase=3)
    play.trump, play.called = H, cards("HO")[0]
    play.trick = cards("HK H10")
    assert play.follow_mask(2) == mask("HO")
    play.trick = cards("HK H10 HO")
    play.hands[3] = mask("HA H9")
    assert play.follow_mask(3) == mask("HA")


def test_l13_l14_calls_section_7_2():
    dp.check_call(mask("SA S9 LK"), cards("S10")[0])
    with pytest.raises(CardsimError, match="illegal call"):
        dp.check_call(mask("EA E10 LK"), cards("SA")[0])
    play = new_play("RU", ["SA S9 LK E9", "S10", "H9", "L9"], phase=3)
    play.trump, play.called = S, cards("S10")[0]
    assert play.lead_mask(0) == mask("SA S9")


@pytest.mark.parametrize("packet, call", [("SA S9 H9", "S10"), ("EK EO S9", "EA"), ("LA L10 LO", "LK")],
                         ids=["U1", "U2", "U3"])
def test_u1_u3_greedy_calls_section_7_8(packet, call):
    assert GreedyPolicy().call(None, 0, mask(packet)) == cards(call)[0]


def test_u4_u6_rufen_sides_section_7_8():
    hands4 = ["SA H9 L9 E9 EU EO", "S10 S9 H10 L10 E10 EK", "SK SO SU HA HK HO", "LA LK LO LU EA HU"]
    res = dp.play_hand("RU", 3, perm_for(hands4), [Scripted(call=cards("SA")[0])] + [Scripted()] * 3, OPTS)
    assert res.sides == [0, 1, 1, 1] and res.trump == S                     # U4: deliberate solo, 1 v 3
    log = []
    res = dp.play_hand("RU", 3, perm_for(hands4), [Scripted(log, call=cards("SK")[0])] + [Scripted()] * 3, OPTS)
    assert res.sides == [0, 1, 0, 1]                                         # the SK holder partners FH
    solo = ["SA H9 L9 S10 EU EO", "SK S9 H10 L10 E10 EK", "E9 SO SU HA HK HO", "LA LK LO LU EA HU"]
    first = {}

    def lead(play, pos, legal):
        first.setdefault("lead", legal)
        return GreedyPolicy().card(play, pos, legal)
    res = dp.play_hand("RU", 3, perm_for(solo), [Scripted(call=cards("S10")[0], card=lead)] + [Scripted()] * 3, OPTS)
    assert res.sides == [0, 1, 1, 1] and first["lead"] == mask("S10")        # U5: accidental solo
    hands3 = ["SA H9 L9 E9 EU EO L10 LK", "S10 S9 H10 E10 EK SK SO SU", "HA HK HO LA LO LU EA HU"]
    res = dp.play_hand("RU", 3, perm_for(hands3), [Scripted(call=cards("S10")[0])] + [Scripted()] * 2, OPTS)
    assert res.sides == [0, 0, 1]                                            # U6


# --- §7.4 two-sided windows -------------------------------------------------------------------------
def test_t10_rot_assen_surrender_section_7_4():
    hands = ["E9 L9 S9 EU LU SU", "HA E10 L10 S10 H9 HU", "EA LA SA EK LK SK", "EO LO SO HO HK H10"]
    res = dp.play_hand("RA", 2, perm_for(hands), [Scripted(), Scripted(ra_trump=-1)] + [Scripted()] * 2, OPTS)
    assert res.kind == "surrender" and res.erase == [2, 0, 2, 2]


def test_t12_t13_going_out_needs_two_tricks_left_section_7_4():
    play = new_play("66", ["EA E10", "L9 LU"])
    play.two_sided, play.tricks = True, [6, 4]
    assert play._may_go_out(0)                      # T12: after trick 10, 2 tricks remain
    play.hands = [mask("EA"), mask("L9")]
    assert not play._may_go_out(0)                  # T13: after trick 11


# --- §7.5 closing timings ---------------------------------------------------------------------------
def test_c10_c11_closing_offers_section_7_5():
    """Never closing, the leader is asked at B0 (talon 12) and after tricks 1-5 before drawing
    (timing A: 12, 10, 8, 6, 4 cards) and after tricks 1-4 after drawing (timing B: 10, 8, 6, 4)."""
    log = []
    rng = np.random.default_rng(3)
    policies = [Scripted(log, close=False, go_out=False), Scripted(log, close=False, go_out=False)]
    dp.play_hand("RU", 3, rng.permutation(24), policies, OPTS)
    offers = [(t, size) for q, _, t, size in log if q == "close"]
    assert offers == [(0, 12), (1, 12), (1, 10), (2, 10), (2, 8), (3, 8), (3, 6), (4, 6), (4, 4), (5, 4)]


# --- §7.6 trump-9 exchange --------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(40))
def test_x_exchange_only_by_a_leader_after_a_win_section_7_6(seed):
    rng = np.random.default_rng(seed)
    offers = []

    def check(play, pos):
        offers.append(sum(play.tricks))
        nine = play.trump * 6 + r.NINE
        assert pos == play.leader and sum(play.tricks) >= 1 and play.closer < 0       # X1, X2
        assert play.talon and play.talon[-1] != nine and (play.hands[pos] >> nine) & 1  # X5
        return True
    dp.play_hand("66", 1, rng.permutation(24), [Scripted(exchange=check), Scripted(exchange=check)], OPTS)
    assert all(1 <= t <= 6 for t in offers)                                           # X4: last chance after trick 6


def test_x3_exchange_right_after_drawing_the_nine_section_7_6():
    play = new_play("66", ["EA E10 EK EO EU", "LA L10 LK LO LU"], talon="H9 S9 SA S10 SK SO SU L9 HA H10 HK HO")
    play.trump, play.exchange_allowed, play.tricks = H, True, [1, 0]
    play._between_tricks(0)
    assert (play.hands[0] >> cards("HO")[0]) & 1 and play.talon[-1] == cards("H9")[0]


def test_x6_no_exchange_with_three_or_four_players_section_7_6():
    log = []
    for seed in range(10):
        dp.play_hand("66", 1, np.random.default_rng(seed).permutation(24), [Scripted(log) for _ in range(4)], OPTS)
    assert not [q for q in log if q[0] in ("exchange", "close", "go_out")]


# --- §7.7 Rot Assen with 2 players ------------------------------------------------------------------
def test_r1_heart_ace_announced_before_the_first_lead_section_7_7():
    trumps = []

    def card(play, pos, legal):
        trumps.append(play.trump)
        return GreedyPolicy().card(play, pos, legal)
    perm = perm_for(["E9 L9 S9 EU LU SU", "HA E10 L10 S10 H9 HU"], "EA LA SA EK LK SK EO LO SO HO HK H10")
    res = dp.play_hand("RA", 2, perm, [Scripted(card=card), Scripted(ra_trump=S)], OPTS)
    assert trumps[0] == S and res.trump == S


def test_r2_talon_flip_and_unflip_section_7_7():
    """HA at talon position 9: tricks 1-3 draw 1-6; the flip makes the order 12 11 10 9 8 7; trick
    5's loser draws HA; the rest [8 visible, 7] turns face down as 7 (top), 8; trick 6 draws 7, 8."""
    talon = "E9 EU EO EK E10 EA L9 L10 HA LK LO LU"  # positions 1..12
    play = new_play("RA", ["S9 SU SO SK S10", "H9 HU HO HK H10"], talon=talon,
                    policies=[Scripted(go_out=False, close=False), Scripted(go_out=False, close=False, ra_trump=L)])
    play.heart_ace_pending, play.two_sided = True, True
    drawn = []
    for k, winner in enumerate([0, 1, 0, 0, 0, 1], start=1):
        before = [play.hands[0], play.hands[1]]
        play.tricks[winner] += 1
        play._between_tricks(winner)
        drawn.append((r.DECK.token(r.cards_of(play.hands[winner] & ~before[winner])[0]),
                      r.DECK.token(r.cards_of(play.hands[1 - winner] & ~before[1 - winner])[0])))
        for p in (0, 1):  # both play a card of their own suit to the next trick
            play.hands[p] &= ~(1 << (play.hands[p] & -play.hands[p]).bit_length() - 1)
    assert drawn == [("E9", "EU"), ("EO", "EK"), ("E10", "EA"), ("LU", "LO"), ("LK", "HA"), ("L9", "L10")]
    assert play.trump == L


R3_HANDS = ["HA E9 L9 S9 EU LU", "E10 L10 S10 H9 HU SU"]
R3_TALON = "EA LA SA EK LK SK EO LO SO HO HK H10"


def _hider(**answers):
    from simcore.games.dreeg_policies import Committed, SlyPolicy

    return Committed(SlyPolicy(), **{"heart_ace": False, "go_out": False, **answers})


def test_r3_hidden_heart_ace_detected_at_the_flip_section_7_7():
    """HA dealt to FH, who keeps it hidden; the talon flip after trick 3 exposes it (§5 A13): the
    hand ends and the dealer-side player erases 3 (§3.0.10)."""
    res = dp.play_hand("RA", 2, perm_for(R3_HANDS, R3_TALON), [_hider(), Scripted(go_out=False, close=False)], OPTS)
    assert res.kind == "penalty" and res.offender == 0 and res.erase == [0, 3] and sum(res.tricks) == 3


def test_hidden_heart_ace_detected_by_a_close_or_by_playing_it_section_5_a13():
    closer = Scripted(go_out=False, close=lambda p, pos: sum(p.tricks) == 1)
    res = dp.play_hand("RA", 2, perm_for(R3_HANDS, R3_TALON), [_hider(), closer], OPTS)
    assert res.kind == "penalty" and res.offender == 0 and res.erase == [0, 3] and sum(res.tricks) == 1
    greedy_hider = Scripted(heart_ace=False, go_out=False, close=False)   # greedy cashes the sure HA at once
    res = dp.play_hand("RA", 2, perm_for(R3_HANDS, R3_TALON), [greedy_hider, Scripted(close=False)], OPTS)
    assert res.kind == "penalty" and res.offender == 0 and sum(res.tricks) == 0


def test_sly_announces_a_hidden_heart_ace_before_the_flip():
    """The sly policy names trump at the window after trick 3's draws: no flip, no penalty; until
    then the tricks are played without trump."""
    from simcore.games.dreeg_policies import SlyPolicy

    trumps = []

    class Seen(SlyPolicy):
        def card(self, play, pos, legal):
            trumps.append((sum(play.tricks), play.trump))
            return super().card(play, pos, legal)

    res = dp.play_hand("RA", 2, perm_for(R3_HANDS, R3_TALON), [Seen(), Scripted(go_out=False, close=False)], OPTS)
    assert res.kind != "penalty" and res.trump >= 0
    assert {t for k, t in trumps if k < 3} == {-1} and {t for k, t in trumps if k >= 3} == {res.trump}


def test_r2_an_ace_drawn_face_up_cannot_be_hidden_section_7_7():
    talon = "E9 EU EO EK E10 EA L9 L10 HA LK LO LU"
    play = new_play("RA", ["S9 SU SO SK S10", "H9 HU HO HK H10"], talon=talon,
                    policies=[Scripted(go_out=False, close=False, heart_ace=False),
                              Scripted(go_out=False, close=False, ra_trump=L, heart_ace=False)])
    play.heart_ace_pending, play.two_sided = True, True
    for winner in (0, 1, 0, 0, 0):
        play.tricks[winner] += 1
        play._between_tricks(winner)
        for p in (0, 1):
            play.hands[p] &= ~(1 << (play.hands[p] & -play.hands[p]).bit_length() - 1)
    assert play.trump == L and play.offender < 0


def test_r4_closed_before_trump_means_no_trump_section_7_7():
    perm = perm_for(["E9 L9 S9 EU LU SU", "EA E10 L10 S10 H9 HU"], "LA SA EK LK SK EO LO SO HO HK H10 HA")
    res = dp.play_hand("RA", 2, perm, [Scripted(close=lambda p, pos: sum(p.tricks) == 2, go_out=False),
                                       Scripted(close=lambda p, pos: sum(p.tricks) == 2, go_out=False)], OPTS)
    assert res.trump == -1 and res.closer >= 0


# --- §7.9 Kamerun -----------------------------------------------------------------------------------
def test_k7_undeclared_sweep_erases_3_section_7_9():
    hands = ["EA LA HA SA E10 L10", "E9 EU EO L9 LU LO", "H9 HU HO S9 SU SO", "EK LK HK SK H10 S10"]
    res = dp.play_hand("KA", 4, perm_for(hands), [Scripted(durchmarsch=False) for _ in range(4)], OPTS)
    assert res.kind == "played" and res.tricks == [6, 0, 0, 0] and res.erase == [3, 0, 0, 0]
    res = dp.play_hand("KA", 4, perm_for(hands), [Scripted() for _ in range(4)], OPTS)
    assert res.kind == "durchmarsch" and res.declarer_won and res.erase == [0, 3, 3, 3]   # K5-style success


@pytest.mark.parametrize("n", [3, 4])
def test_k6_k8_durchmarsch_stops_at_the_first_lost_trick_section_7_9(n):
    for seed in range(30):
        rng = np.random.default_rng(seed)
        policies = [Scripted(durchmarsch=True, card=RandomPolicy(rng).card) for _ in range(n)]
        res = dp.play_hand("KA", 4, rng.permutation(24), policies, OPTS)
        d = res.declarer
        assert res.kind == "durchmarsch" and d >= 0
        if res.declarer_won:
            assert res.tricks[d] == 24 // n and res.erase == [0 if i == d else 3 for i in range(n)]
        else:
            assert res.erase == [3 if i == d else 0 for i in range(n)]
            assert sum(res.tricks) - res.tricks[d] == 1          # stopped at the first lost trick


# --- policies: only legal moves, every sub-game ------------------------------------------------------
class Checked:
    """Wraps a policy: every card asked for is checked against the plain §3.0.2 reference."""

    def __init__(self, inner):
        self.inner = inner

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def card(self, play, pos, legal):
        hand = play.hands[pos]
        if play.trick and not (play.called >= 0 and play.gone == 0):
            mode = {r.FREE: "free", r.STRICT: "strict", r.FOLLOW: "follow"}[play.mode]
            ref = naive.legal_follow(r.cards_of(hand), play.trick, None if play.trump < 0 else play.trump, mode,
                                     bool(play.flags & r.NO_UNDERTRUMP), bool(play.flags & r.HEAD_TRUMPED_LEAD))
            assert set(r.cards_of(legal)) == ref
        assert legal and legal & ~hand == 0
        card = self.inner.card(play, pos, legal)
        assert (legal >> card) & 1
        return card


CASES = [(sub, n) for sub in ("66", "RA", "RU", "KA") for n in (2, 3, 4) if not (sub == "KA" and n == 2)]


@pytest.mark.parametrize("sub, n", CASES)
@pytest.mark.parametrize("policy", ["random", "greedy"])
def test_policies_play_only_legal_cards(sub, n, policy, scale):
    rng = np.random.default_rng(hash((sub, n, policy)) % 2**32)
    phase = {"66": 1, "RA": 2, "RU": 3, "KA": 5}[sub]
    for _ in range(int(40 * scale)):
        players = [Checked(make_policy(policy, rng)) for _ in range(n)]
        res = dp.play_hand(sub, phase, rng.permutation(24), players, OPTS)
        assert len(res.erase) == n and all(0 <= e <= 3 for e in res.erase)
        if sub != "KA":
            assert min(res.erase) == 0        # §2.2 invariant: someone always erases 0
        if res.kind == "played" and sub == "KA":
            assert sum(res.points) == 120


def test_unknown_policy_and_bad_player_count():
    with pytest.raises(CardsimError, match="unknown policy"):
        make_policy("clever", np.random.default_rng(0))
    with pytest.raises(CardsimError, match="2, 3 or 4"):
        dp.play_hand("66", 1, list(range(24)), [GreedyPolicy()] * 5, OPTS)
    with pytest.raises(CardsimError, match="never played with 2"):
        dp.play_hand("KA", 4, list(range(24)), [GreedyPolicy()] * 2, OPTS)


def test_illegal_policy_answers_raise():
    class Cheat(GreedyPolicy):
        def card(self, play, pos, legal):
            return (~legal & play.hands[pos]).bit_length() - 1 if ~legal & play.hands[pos] else 99
    with pytest.raises(CardsimError, match="not one of the legal cards"):
        dp.play_hand("66", 1, list(range(24)), [Cheat()] * 4, OPTS)
    with pytest.raises(CardsimError, match="illegal Rot Assen trump"):
        dp.play_hand("RA", 2, list(range(24)), [Scripted(ra_trump=7)] * 4, OPTS)


def test_sure_cards():
    assert sure_cards(mask("HA H10 HK HO E9 L9"), 0, H) == mask("HA H10 HK HO")
    assert sure_cards(mask("EA E10 L9"), 0, H) == mask("EA")
    assert sure_cards(mask("EA E10 L9"), 0, -1) == mask("EA E10")


def test_exchange_by_follower_variant_section_3_5():
    """DUEL66_EXCHANGE_BY_FOLLOWER: the second player takes the indicator for his trump 9 by playing
    it at once, which must win the trick; the 9 goes under the talon."""
    from simcore.games.dreeg import rule_options

    opts = rule_options(duel66_exchange_by_follower=True)
    indicator = cards("HK")[0]
    seen = []

    def follower(play, pos, legal):
        seen.append((legal, play.talon[-1] if play.talon else -1, play.hands[pos]))
        return indicator if (legal >> indicator) & 1 else GreedyPolicy().card(play, pos, legal)
    play = new_play("66", ["EA E10 EK EO EU E9", "H9 L9 LU LO LK LA"], opts=opts,
                    talon="S9 SU SO SK S10 SA L10 HA H10 HO HU HK",
                    policies=[Scripted(go_out=False, close=False), Scripted(card=follower, go_out=False, close=False)])
    play.trump, play.exchange_allowed, play.two_sided = H, True, True
    play.play()
    legal, bottom, hand = seen[0]
    assert (legal >> indicator) & 1 and not (hand >> indicator) & 1 and bottom == indicator
    assert seen[1][1] == cards("H9")[0]                      # the 9 now lies under the talon
    assert not (seen[1][2] >> cards("H9")[0]) & 1
    default = new_play("66", ["EA E10", "H9 L9"], talon="S9 SU SO SK", opts=OPTS)
    default.trump, default.exchange_allowed, default.trick = H, True, cards("EA")
    assert default._follower_swap(1) == -1


VARIANTS = [("rot_assen_trump", "hearts"), ("duel_rot_assen_surrender", True), ("duel_rufen_suit_in_packet", True),
            ("thresholds_include_marriages", False), ("closer_win_status_at_close", True),
            ("two_sided_eraser", "loser"), ("kamerun5_no_head", True), ("durchmarsch_lead_restriction", True),
            ("kamerun_scores_by", "points"), ("no_undertrump_duty", True), ("trumped_lead_follow", "must_head"),
            ("duel66_indicator", "13th_card"), ("duel66_indicator", "bottom"), ("duel66_exchange_on_close", True),
            ("duel_closer_loss_min2", True), ("ra_solo_win_3", True)]


@pytest.mark.parametrize("name, value", VARIANTS, ids=[f"{n}={v}" for n, v in VARIANTS])
def test_rule_variants_play_legally(name, value):
    """Every §3.5 / §5 variant option plays whole hands with legal cards (random policies)."""
    from simcore.games.dreeg import rule_options

    opts = rule_options(**{name: value})
    rng = np.random.default_rng(len(name))
    for sub, n in CASES:
        phase = {"66": 1, "RA": 2, "RU": 3, "KA": 5}[sub]
        for _ in range(4):
            res = dp.play_hand(sub, phase, rng.permutation(24), [Checked(RandomPolicy(rng)) for _ in range(n)], opts)
            assert len(res.erase) == n and all(0 <= e <= 3 for e in res.erase)
            if name == "rot_assen_trump" and sub == "RA" and res.kind != "surrender" and n > 2:
                assert res.trump == H


def test_r5_closing_a_face_up_talon_section_7_7():
    """The talon is flipped (HA not yet drawn) and the leader closes: no more draws, no trump."""
    talon = "E9 EU EO EK E10 EA L9 L10 HA LK LO LU"
    closes = [Scripted(go_out=False, close=lambda p, pos: p.flipped), Scripted(go_out=False, close=False)]
    play = new_play("RA", ["S9 SU SO SK S10", "H9 HU HO HK H10"], talon=talon, policies=closes)
    play.heart_ace_pending, play.two_sided = True, True
    for winner in (0, 1, 0, 0):
        play.tricks[winner] += 1
        play._between_tricks(winner)
        for p in (0, 1):
            play.hands[p] &= ~(1 << (play.hands[p] & -play.hands[p]).bit_length() - 1)
    assert play.closer == 0 and play.trump == -1 and len(play.talon) == 6 and play.mode == r.STRICT


def test_window_b_after_an_announcement_with_the_marriage_as_last_cards_section_3_0_7():
    """A side with a trick announces with K + O as its last two cards: it may go out (window (b))."""
    play = new_play("RA", ["HK HO", "E9 EU", "L9 LU", "S9 SU"])
    play.two_sided, play.sides, play.trump = True, [0, 1, 1, 1], H
    play.tricks, play.took = [3, 1, 0, 0], [mask("HA H10 EA E10 LA L10 SA"), mask("S10 SK SO EK"), 0, 0]
    play.play()
    assert play.out_side == 0 and play.marriages == [(0, 40)] and play.hands[0] == mask("HK HO")
    assert dp.score(play).erase == [2, 0, 0, 0]          # opponents have 21 < 33: Schneider


@pytest.mark.parametrize("sub, n", CASES)
def test_pimc_plays_legal_cards(sub, n):
    from simcore.games.dreeg_policies import PimcPolicy

    rng = np.random.default_rng(n)
    phase = {"66": 8, "RA": 7, "RU": 6, "KA": 4}[sub]
    for _ in range(2):
        players = [Checked(PimcPolicy(rng, worlds=2))] + [Checked(GreedyPolicy()) for _ in range(n - 1)]
        res = dp.play_hand(sub, phase, rng.permutation(24), players, OPTS)
        assert len(res.erase) == n


def test_pimc_worlds_respect_what_is_known():
    """Sampled worlds keep the player's hand, give every other player his number of cards from the
    unseen ones, and never a card of a suit he has shown to lack."""
    from simcore.games.dreeg_policies import PimcPolicy

    play = new_play("66", ["EA E10 SA SK", "L9 LU LO HK", "H9 HU HO S10", "S9 SU SO EK"])
    play.gone, play.voids = mask("E9 EU EO L10 LK LA H10 HA"), [0, 1 << E, 1 << E, 0]
    pimc = PimcPolicy(np.random.default_rng(0))
    unseen = r.ALL & ~play.gone & ~play.hands[0]
    for _ in range(50):
        world = pimc._world(play, 0)
        assert world[0] == play.hands[0] and sum(world[1:]) == unseen
        assert [r.bit_count(h) for h in world[1:]] == [4, 4, 4]
        assert world[3] & mask("EK")                 # the only unseen Eichel: seats 1 and 2 lack the suit


def test_pimc_worlds_place_the_publicly_known_cards():
    """Sampled worlds give the turned trump card to the dealer (§3.1.1) and the unplayed card of an
    announced marriage to its announcer (§3.0.4); in the closed 2-player talon the indicator stays dead
    (§3.1.2), unless a player took it for his trump 9, who then holds it and the 9 is dead instead."""
    from simcore.games.dreeg_policies import PimcPolicy

    pimc = PimcPolicy(np.random.default_rng(1))
    hands = ["EA E10 SA SK EK E9", "L9 LU LO LK HK H9", "H10 HU HO S10 EO EU", "S9 SU SO LA L10 HA"]
    play = new_play("66", hands, [Scripted(announce=L) for _ in hands])
    dp._setup(play, perm_for(hands))                          # the dealer's last card, HA, is turned
    play.leader = 1
    assert play._announce(1, play.hands[1]) == mask("LK LO")
    play.trick, play.hands[1] = cards("LO"), play.hands[1] & ~mask("LO")
    for _ in range(50):
        world = pimc._world(play, 2)
        assert world[3] & mask("HA") and world[1] & mask("LK")

    talon = "E9 EU EO EK E10 EA L9 L10 LK LO LU HA"               # the indicator HA lies at the bottom
    for exchange in (False, True):
        duel = new_play("66", ["S9 SU SO SK S10 SA", "H10 HU HO HK LA H9"], talon=talon,
                        policies=[Scripted(close=True), Scripted(exchange=exchange)])
        dp._setup(duel, None)
        duel._offer_exchange(1)
        duel._offer_close(0)
        dead, held = (cards("H9")[0], cards("HA")[0]) if exchange else (cards("HA")[0], -1)
        assert duel.closer == 0 and duel.mode == r.STRICT
        for _ in range(50):
            world = pimc._world(duel, 0)
            assert not world[1] >> dead & 1 and (held < 0 or world[1] >> held & 1)
