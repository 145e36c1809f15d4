"""The optional sub-games of Dreeg spec §3.5 (Kamerun bei Nacht, Schweige-Maß, Weglöscher), their
place in whole games (`dreeg_rules.phase_plan`), and the §5 A24 counting-error model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import naive_dreeg as naive
from analysis.stats import Estimate
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import dreeg_game as g
from simcore.games import dreeg_play as dp
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import rule_options
from simcore.games.dreeg_policies import GreedyPolicy, make_policy
from test_dreeg_play import Checked, Scripted

OPTS = rule_options()


class Fixed:
    """A stand-in for a numpy Generator whose ``random()`` returns the given numbers in turn."""

    def __init__(self, values):
        self.values = list(values)

    def random(self):
        return self.values.pop(0)


# --- which phases are played ----------------------------------------------------------------------
def test_phase_plan_puts_the_sub_games_in_place_or_after_phase_8_section_3_5():
    assert r.phase_plan(OPTS) == ("66", "RA", "RU", "KA", "KA", "RU", "RA", "66")
    extra = rule_options(wegloescher="extra", kamerun_bei_nacht="extra", schweige_mass="extra")
    assert r.phase_plan(extra)[8:] == ("KN", "SM", "WL")
    mixed = rule_options(kamerun_bei_nacht="phase5", schweige_mass="phase8", wegloescher="phase1")
    assert r.phase_plan(mixed) == ("WL", "RA", "RU", "KA", "KN", "RU", "RA", "SM")
    with pytest.raises(CardsimError, match="phase 1 is already Schweige-Maß"):
        r.phase_plan(rule_options(schweige_mass="phase1", wegloescher="phase1"))
    with pytest.raises(CardsimError, match="choose one of"):
        rule_options(wegloescher="phase4")


def test_whole_games_play_every_planned_phase():
    opts = rule_options(kamerun_bei_nacht="phase4", schweige_mass="extra", wegloescher="extra")
    cards = np.random.default_rng(3)
    for n in (3, 4):
        phases = g.play_game([make_policy("greedy", cards) for _ in range(n)], opts, cards)
        assert [p.subgame for p in phases] == list(r.phase_plan(opts))
        assert all(p.losers for p in phases)


def test_game_job_counts_the_extra_phases_and_is_independent_of_chunking():
    options = (("information", "counting_errors"), ("kamerun_bei_nacht", "extra"), ("schweige_mass", "extra"),
               ("wegloescher", "extra"))
    job = g.GameJob(("greedy", "sly", "random"), options, rotate=True, block_size=3)
    a = runner.run(job, 7, 11, chunk_deals=3, checkpoint=False, progress=False)
    b = runner.run(job, 7, 11, chunk_deals=7, checkpoint=False, progress=False)
    assert np.array_equal(a, b)
    parts = g.split_counts(a, 3, 11)
    assert (parts["loser_seat"][8:].sum(axis=1) >= 7).all() and parts["bolln_seat"].sum() == 21
    assert parts["events"][g.SUBGAMES.index("WL"), 0] > 0
    with pytest.raises(CardsimError, match="already"):
        g.GameJob(("greedy",) * 4, (("schweige_mass", "phase8"), ("wegloescher", "phase8")))


# --- Weglöscher -----------------------------------------------------------------------------------------
def test_g1_wegloescher_bystanders_keep_their_last_stroke_section_7_11():
    """Strokes A6 B2 C3 D1 E4; C plays D and wins with 3: A3 B1 C0 (out) D1 E1."""
    erase = [0, 0, 3, 0, 0]
    assert r.wegloescher_erase([6, 2, 3, 1, 4], [2, 3], erase) == [3, 1, 0, 1, 1]
    strokes, active, losers = g.settle("WL", [6, 2, 3, 1, 4], [0, 1, 2, 3, 4], erase, [2, 3])
    assert strokes == [3, 1, 0, 1, 1] and active == [0, 1, 3, 4] and losers == []


@given(st.lists(st.integers(0, 10), min_size=3, max_size=5), st.data())
@settings(max_examples=200, deadline=None)
def test_wegloescher_erase_matches_the_plain_reference(strokes, data):
    n = len(strokes)
    holding = [seat for seat in range(n) if strokes[seat] > 0]  # the pair plays, so it holds strokes (§3.5)
    assume(len(holding) >= 2)
    pair = data.draw(st.lists(st.sampled_from(holding), min_size=2, max_size=2, unique=True))
    won = data.draw(st.integers(1, 3))
    erase = [0] * n
    erase[pair[data.draw(st.integers(0, 1))]] = won
    ref = naive.wegloescher_erase(dict(enumerate(strokes)), pair, dict(enumerate(erase)))
    assert r.wegloescher_erase(strokes, pair, erase) == [ref[i] for i in range(n)]


def test_wegloescher_deal_rotation_section_3_5():
    """A (0) deals to B and C, who play; B leads (§5 A18 default) or C (wegloescher_c_leads)."""
    assert r.wegloescher_pair(0, [0, 1, 2, 3, 4], 5) == [1, 2]
    assert r.wegloescher_pair(1, [0, 1, 2, 3, 4], 5) == [2, 3]
    assert r.wegloescher_pair(3, [0, 3], 5) == [0, 3]              # two left: the other and the dealer
    assert r.wegloescher_pair(2, [0, 3, 4], 5) == [3, 4]           # a dealer just out deals once more
    assert g.hand_seats("WL", 0, [0, 1, 2, 3], 4, rule_options(wegloescher_c_leads=True)) == [2, 1]


@pytest.mark.parametrize("n, c_leads", [(3, False), (4, False), (4, True)])
def test_wegloescher_phase_follows_its_rules(n, c_leads, scale):
    """Every hand is a 2-player 66 of the two players left of the dealer; only a hand's winner can
    reach 0; the deal passes to the left; the last player holding strokes loses."""
    opts = rule_options(wegloescher_c_leads=c_leads)
    cards = np.random.default_rng(n + c_leads)
    for _ in range(max(1, int(3 * scale))):
        record = g.play_phase(1, 0, [make_policy("greedy", cards) for _ in range(n)], opts, cards, "WL", cards)
        strokes, active = [7] * n, list(range(n))
        for dealer, order, res in record.hands:
            pair = r.wegloescher_pair(dealer, active, n)
            assert order == (pair[::-1] if c_leads else pair) and len(res.erase) == 2
            erase = [0] * n
            for pos, seat in enumerate(order):
                erase[seat] = res.erase[pos]
            after = naive.wegloescher_erase(dict(enumerate(strokes)), order, dict(enumerate(erase)))
            assert all(after[s] > 0 for s in active if erase[s] == 0)
            strokes, active = [after[s] for s in range(n)], [s for s in range(n) if after[s] > 0]
        assert record.losers == active and len(active) == 1


def test_wegloescher_hand_needs_two_players():
    with pytest.raises(CardsimError, match="2 players"):
        dp.play_hand("WL", 1, list(range(24)), [GreedyPolicy()] * 3, OPTS)


# --- Kamerun bei Nacht ------------------------------------------------------------------------------
@given(st.integers(0, 2**32 - 1), st.sampled_from([3, 4]), st.lists(st.floats(0, 0.999), min_size=24, max_size=24))
@settings(max_examples=150, deadline=None)
def test_kamerun_bei_nacht_matches_the_plain_reference(seed, n, picks):
    """§3.5: blind cards, no lead or follow obligations, the highest card of the led suit wins,
    Kamerun scoring: the engine agrees with the plain reference for the same blind picks."""
    perm = np.random.default_rng(seed).permutation(24)
    hands, _ = r.deal_hands(perm, n)
    res = dp.play_hand("KN", 4, perm, [Scripted(card=None)] * n, OPTS, Fixed(picks))
    assert res.erase == naive.blind_kamerun([r.cards_of(h) for h in hands], picks, r.STROKE_TABLE[n])
    assert sum(res.card_points) == 120 and res.declarer < 0 and res.marriages == []


class Logged(dp.Play):
    """A hand that logs every card played (position, card, his hand before, the trick so far) and
    every finished trick (cards from the leader, leader, winner)."""

    def _choose_card(self, pos, legal):
        card = super()._choose_card(pos, legal)
        self.cards.append((pos, card, self.hands[pos], list(self.trick)))
        return card

    def _finish_trick(self, winner):
        self.log.append((list(self.trick), self.leader, winner))
        super()._finish_trick(winner)


def test_kamerun_bei_nacht_is_pure_chance(scale):
    """No player chooses a card (the policy is never asked), cards ignore the led suit, the highest
    card of the led suit wins, and forehand's first lead is uniform over his six cards."""
    asked = []

    class Watch(Scripted):
        def card(self, play, pos, legal):
            asked.append(pos)
            return super().card(play, pos, legal)

    rng = np.random.default_rng(9)
    n_hands = int(600 * scale)
    hands, _ = r.deal_hands(rng.permutation(24), 4)
    first, revokes = {c: 0 for c in r.cards_of(hands[0])}, 0
    for _ in range(n_hands):
        play = Logged("KN", 4, list(hands), [Watch() for _ in range(4)], OPTS, None, rng)
        play.log, play.cards = [], []
        play.play()
        first[play.log[0][0][0]] += 1
        assert all(winner == (leader + naive.winner_slot(trick, None)) % 4 for trick, leader, winner in play.log)
        revokes += sum(1 for pos, card, hand, trick in play.cards if trick and r.card_suit(card) != r.card_suit(
            trick[0]) and hand & r.SUIT_MASKS[r.card_suit(trick[0])])
    assert not asked and revokes > 0
    for count in first.values():
        est = Estimate(count, n_hands)
        assert est.lo <= 1 / 6 <= est.hi
    with pytest.raises(CardsimError, match="never played with 2"):
        dp.play_hand("KN", 4, list(range(24)), [GreedyPolicy()] * 2, OPTS, rng)
    with pytest.raises(CardsimError, match="chance"):
        dp.play_hand("KN", 4, list(range(24)), [GreedyPolicy()] * 4, OPTS)


def test_kamerun_bei_nacht_phase_is_first_out_loses():
    cards = np.random.default_rng(2)
    record = g.play_phase(4, 0, [make_policy("greedy", cards) for _ in range(4)], OPTS, cards, "KN", cards)
    assert all(len(order) == 4 for _, order, _ in record.hands) and record.losers
    assert g.settle("KN", [1, 2, 3, 4], [0, 1, 2, 3], [1, 3, 2, 0])[2] == [1]


# --- Schweige-Maß ----------------------------------------------------------------------------------------
def test_schweige_mass_speaker_loses_section_3_5():
    """Who speaks loses the sub-game: the hand is not scored and the phase ends with him."""
    assert r.speaker(4, 0, None) == -1
    assert r.speaker(4, 5, Fixed([0.9, 0.01, 0.02, 0.9, 0.6])) == 2   # seats 1 and 2 spoke; the second first
    opts = rule_options(schweige_speak_percent=10)
    res = dp.play_hand("SM", 1, list(range(24)), [GreedyPolicy()] * 4, opts, Fixed([0.5, 0.5, 0.05, 0.5, 0.0]))
    assert res.kind == "spoke" and res.speaker == 2 and res.erase == [0, 0, 0, 0]
    silent = dp.play_hand("SM", 1, list(range(24)), [GreedyPolicy()] * 4, opts, Fixed([0.5] * 4))
    assert silent.erase == dp.play_hand("66", 1, list(range(24)), [GreedyPolicy()] * 4, OPTS).erase
    cards = np.random.default_rng(1)
    record = g.play_phase(1, 0, [GreedyPolicy()] * 4, opts, cards, "SM", Fixed([0.99] * 4 + [0.05] + [0.99] * 3
                                                                               + [0.0]))
    assert record.losers == [2] and len(record.hands) == 2      # seat 2 is FH (position 0) of hand 2's order


def test_schweige_mass_speaking_rate(scale):
    """P(someone of 4 speaks in a hand) = 1 - (1 - p)^4 for a speaking chance p."""
    opts = rule_options(schweige_speak_percent=10)
    rng = np.random.default_rng(4)
    n = int(2000 * scale)
    spoke = sum(dp.play_hand("SM", 1, rng.permutation(24), [GreedyPolicy()] * 4, opts, rng).kind == "spoke"
                for _ in range(n))
    est = Estimate(spoke, n)
    assert est.lo <= 1 - 0.9 ** 4 <= est.hi


# --- §5 A24 counting errors ----------------------------------------------------------------------------
def test_miscount_is_one_taken_card_forgotten_or_counted_twice_section_5_a24():
    play = dp.Play("66", 1, [0, 0], [GreedyPolicy()] * 2, rule_options(information="counting_errors",
                                                                        counting_error_percent=20))
    play.took = [r.DECK.mask(r.DECK.parse_cards("EA EK")), 0]
    play.chance = Fixed([0.19, 0.0, 0.7])                      # miscount; card EK (index 0 of EK, EA), forgotten
    assert play._miscount(0) == -4
    play.chance = Fixed([0.19, 0.9, 0.2])                      # EA, counted twice
    assert play._miscount(0) == 11
    play.chance = Fixed([0.2])                                 # 20 is not below 20 percent: counted right
    assert play._miscount(0) == 0
    exact = dp.Play("66", 1, [0, 0], [GreedyPolicy()] * 2, OPTS)
    assert exact._miscount(0) == 0 and exact.counted_score(0) == exact.side_score(0)


def test_counting_errors_make_wrong_go_outs(scale):
    """Greedy 2-player 66: with perfect recall no one goes out below 66; with miscounts some do
    (the opponent then erases 2, §3.0.7), and some miss a 66 they hold."""
    rng = np.random.default_rng(8)
    n = int(1500 * scale)
    wrong = {}
    for info in ("perfect_recall", "counting_errors"):
        opts = rule_options(information=info, counting_error_percent=50)
        count = 0
        for _ in range(n):
            res = dp.play_hand("66", 1, rng.permutation(24), [GreedyPolicy(), GreedyPolicy()], opts, rng)
            count += res.kind == "out" and res.points[res.sides.index(res.out_side)] < r.TARGET
        wrong[info] = count
    assert wrong["perfect_recall"] == 0 and wrong["counting_errors"] > 0
    with pytest.raises(CardsimError, match="chance"):
        dp.play_hand("66", 1, rng.permutation(24), [GreedyPolicy()] * 2, rule_options(information="counting_errors"))


# --- every new sub-game plays legal cards ----------------------------------------------------------------
@pytest.mark.parametrize("sub, n", [("SM", 2), ("SM", 3), ("SM", 4), ("WL", 2)])
@pytest.mark.parametrize("policy", ["random", "greedy", "sly"])
def test_policies_play_only_legal_cards_in_the_66_variants(sub, n, policy, scale):
    rng = np.random.default_rng(n)
    opts = rule_options(information="counting_errors", schweige_speak_percent=1)
    for _ in range(int(20 * scale)):
        players = [Checked(make_policy(policy, rng)) for _ in range(n)]
        res = dp.play_hand(sub, 8, rng.permutation(24), players, opts, rng)
        assert len(res.erase) == n and all(0 <= e <= 3 for e in res.erase)
