"""Properties of the betting engine (simcore.betting) on Giltspiel: no sequence of actions, legal or
not, leaves an illegal state; refused actions change nothing; games between any threshold policies
end with a consistent score sheet (points conserved as §7.9-§7.10 say, checked against naive_betting)."""

import copy

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_betting
from simcore.betting import (
    AUS, DONE, GUT, HOLD, NOBODY, PLAY, PRESETS, RAISE, SHOWDOWN, SP, SPEECH_ORDERS, STAND, VOID, G, Policy,
    load_policy,
)
from simcore.errors import CardsimError
from simcore.games import giltspiel_betting, perlaggen_betting
from simcore.games.giltspiel_betting import draw_deal, make_estimator, new_deal, play_game, rules_from_options

ESTIMATOR = None


def estimator():
    global ESTIMATOR
    if ESTIMATOR is None:
        ESTIMATOR = make_estimator()
    return ESTIMATOR


def snapshot(deal):
    return copy.deepcopy((deal.figures, deal.shown, deal.in_hand, deal.trick, deal.won, deal.secured, deal.phase,
                          deal.showing, deal.frozen, deal.void_passes, deal.leader))


def check_invariants(deal):
    for fig in deal.figures:
        assert 1 <= fig.value <= AUS
        if fig.pending is not None:
            assert fig.open and fig.pending[1] == fig.value + 1
        if fig.bet_right is not None:
            assert fig.ever_bet
        if not fig.open:
            assert fig.winner in (0, 1, STAND, VOID, NOBODY)
    assert max(deal.won) <= 3 and sum(deal.won) <= 5
    if deal.phase == PLAY:
        assert deal.figures[SP].open
    if deal.phase == SHOWDOWN:
        assert not deal.figures[SP].open and deal.showing in (0, 1)
    assert deal.n_shown == sum(len(s) for s in deal.shown)
    held = sum(len(h) for h in deal.in_hand) + sum(len(s) for s in deal.shown)
    assert held == 20


def random_action(deal, rng):
    """Any action of any seat, most of them illegal."""
    kind = rng.integers(6)
    seat, figure, team = int(rng.integers(4)), int(rng.integers(3)), int(rng.integers(2))
    if kind == 0:
        return lambda: deal.bet(seat, figure)
    if kind == 1:
        answer = (GUT, HOLD, RAISE)[rng.integers(3)]
        return lambda: deal.answer(seat, figure, answer)
    if kind == 2 and rng.random() < 0.3:
        return lambda: deal.concede(team, figure)
    if kind == 3 or kind == 2:
        hand = sorted(deal.in_hand[seat])
        card = hand[rng.integers(len(hand))] if hand else 0
        return lambda: deal.play(seat, card)
    if kind == 4:
        hand = sorted(deal.in_hand[seat])
        chosen = [c for c in hand if rng.random() < 0.4]
        return lambda: deal.reveal(seat, chosen)
    return lambda: deal.end_turn(team)


GILTSPIEL_ENDINGS = ({}, {"spiel_aus_held": "category_2"}, {"stop_on_target": True},
                     {"spiel_aus_held": "category_2", "stop_on_target": True})
"""Giltspiel's A-14 and A-18 choices (the default first)."""


@given(st.integers(0, 2**32 - 1), st.sampled_from([(0, 0), (8, 9), (10, 10), (9, 10), (4, 4)]),
       st.booleans(), st.sampled_from([giltspiel_betting, perlaggen_betting]), st.sampled_from(GILTSPIEL_ENDINGS))
@settings(max_examples=80)
def test_no_action_sequence_reaches_an_illegal_state(seed, scores, strict, kit, endings):
    """Random actions: refused ones raise CardsimError and leave the state as it was; accepted ones
    keep every invariant; a finished deal's points are its awards (checked by the naive order).
    Both games (target 11), Perlaggen with its own rules (one pending bet in play, void deals), Giltspiel
    under every A-14 / A-18 choice."""
    rng = np.random.default_rng(seed)
    hands, trump = kit.draw_deal(rng)
    endings = endings if kit is giltspiel_betting else {}
    deal = kit.new_deal(hands, trump, dealer=int(rng.integers(4)), scores=scores,
                        rules=kit.rules_from_options(target=11, strict_examples=strict, **endings))
    drive_randomly(deal, rng, random_action, check_invariants, 600)
    if deal.phase == DONE:
        check_result(deal, scores)


def drive_randomly(deal, rng, action, invariants, steps: int) -> None:
    """Up to ``steps`` random actions (``action(deal, rng)``) until the deal is done: a refused one must
    leave the state as it was, and ``invariants(deal)`` must hold after every one."""
    for _ in range(steps):
        if deal.phase == DONE:
            return
        before = snapshot(deal)
        try:
            action(deal, rng)()
        except CardsimError:
            assert snapshot(deal) == before
        invariants(deal)


def check_result(deal, scores):
    result = deal.result
    assert result.points == [sum(p for _, _, t, p in result.awards if t == team) for team in (0, 1)]
    if deal.gestrichen_checked and result.game_winner is not None and not result.awards:
        return  # won by the both-gestrichen comparison
    figures = [{"winner": f.winner, "points": f.points,
                "conceded_at": f.concede_seq if f.decided_by == "concession" else None,
                "first_bet_at": f.first_bet_seq if f.ever_bet else None} for f in deal.figures]
    penalties = [t for c, _, t, _ in result.awards if c == 0]
    expected = naive_betting.scoring_order(figures, penalties)
    if not deal.rules.penalty_voids_deal:
        assert result.awards == expected
    aus = sorted((f.decided_seq, f.winner) for f in deal.figures if f.aus_held and f.winner in (0, 1))
    if aus and deal.rules.spiel_aus_held == "ends_game":  # the first held Spiel aus decided
        assert result.game_winner == aus[0][1]
    elif not deal.gestrichen_checked or deal.figures[G].decided_by != "gestrichen":
        at_its_place = {i for i, f in enumerate(deal.figures) if f.aus_held}  # A-14 category_2
        assert result.game_winner == naive_betting.first_to_target(scores, expected, deal.target, at_its_place)
    if deal.rules.stop_on_target and any(f.open for f in deal.figures):  # stopped once the winner was sure
        assert result.game_winner is not None
    for f in deal.figures:
        assert 0 <= f.points <= 7


policies = st.builds(Policy, name=st.just("random"), bet_margin=st.floats(-1, 1), hold_margin=st.floats(-1, 1),
                     raise_margin=st.floats(-1, 1), max_value=st.integers(1, AUS), bluff=st.floats(0, 1),
                     concede_spiel=st.floats(0, 0.5))


@given(policies, policies, st.integers(0, 2**32 - 1), st.sampled_from([2, 5, 11, 15]),
       st.sampled_from(GILTSPIEL_ENDINGS), st.sampled_from(SPEECH_ORDERS))
@settings(max_examples=30)
def test_any_policies_play_whole_games(a, b, seed, target, endings, speech_order):
    """Threshold policies of any parameters play games to the end under any A-12, A-14 and A-18 choice: no
    illegal action is ever taken, the score sheet adds up and the winner reached the target (or won by Spiel
    aus / the §7.12 comparison)."""
    rng = np.random.default_rng(seed)
    rules = rules_from_options(target=target, speech_order=speech_order, **endings)
    record = play_game((a, b), rng, np.random.default_rng(seed + 1), rules, estimator())
    assert record.winner in (0, 1)
    totals = [0, 0]
    for result in record.deals:
        totals = [totals[t] + result.points[t] for t in (0, 1)]
    assert totals == record.scores
    last = record.deals[-1]
    won_by_points = record.scores[record.winner] >= target
    won_otherwise = last.game_winner is not None and (not last.awards or any(c == 2 for c, *_ in last.awards))
    assert won_by_points or won_otherwise
    assert all(r.game_winner is None for r in record.deals[:-1])


@given(policies, policies, st.integers(0, 2**32 - 1))
@settings(max_examples=4)
def test_any_policies_play_whole_perlaggen_games(a, b, seed):
    """The same for Perlaggen (wild cards baptised in play and in the showing), target 8."""
    record = perlaggen_betting.play_game((a, b), np.random.default_rng(seed), np.random.default_rng(seed + 1),
                                         perlaggen_betting.rules_from_options(target=8))
    assert record.winner in (0, 1)
    assert [sum(r.points[t] for r in record.deals) for t in (0, 1)] == record.scores


def test_b6_matches_naive():
    """B6 in the engine equals the plain formula for every score, secured and value."""
    hands, trump = draw_deal(np.random.default_rng(3))
    for score in range(0, 11):
        deal = new_deal(hands, trump, scores=(score, 0), rules=rules_from_options(target=11))
        error = deal.bet_error(1 - 1, SP)  # seat 0, team 0; fresh deal: only B6 can refuse the Spiel
        assert (error is None) == naive_betting.can_bet_b6(score, 0, 1, 11)


def test_policy_input_errors():
    assert load_policy("Cautious") is PRESETS["cautious"]
    with pytest.raises(CardsimError, match="unknown policy"):
        load_policy("reckless")
    with pytest.raises(CardsimError, match="max_value"):
        Policy("x", max_value=9)
    with pytest.raises(CardsimError, match="bluff"):
        Policy("x", bluff=1.5)


def test_policy_files(tmp_path):
    good = tmp_path / "mine.json"
    good.write_text('{"bet_margin": 0.2, "bluff": 0.1}')
    assert load_policy(str(good)) == Policy("mine", bet_margin=0.2, bluff=0.1)
    for text, message in (("{", "JSON"), ('{"bet": 1}', "keys"), ("[1]", "keys"), ('{"bluff": "x"}', "number")):
        bad = tmp_path / "bad.json"
        bad.write_text(text)
        with pytest.raises(CardsimError, match=message):
            load_policy(str(bad))
    with pytest.raises(CardsimError, match="JSON"):
        load_policy(str(tmp_path / "missing.json"))


def test_a_policy_file_that_gives_a_key_twice_is_refused(tmp_path):
    """json keeps the last of two values of a key; the policy file is refused instead, naming the key."""
    twice = tmp_path / "twice.json"
    twice.write_text('{"bet_margin": 0.1, "bluff": 0.1, "bet_margin": 0.3}')
    with pytest.raises(CardsimError, match=r"^policy file \S+twice.json: .*the key 'bet_margin' is given twice; give "
                                           r"it once\)$"):
        load_policy(str(twice))
    ok = tmp_path / "ok.json"
    ok.write_text('{"bet_margin": 0.1, "bluff": 0.2}')
    assert load_policy(str(ok)) == Policy("ok", bet_margin=0.1, bluff=0.2)


def test_never_policy_never_bets():
    rng = np.random.default_rng(5)
    record = play_game((PRESETS["never"], PRESETS["never"]), rng, np.random.default_rng(6),
                       rules_from_options(), estimator())
    for result in record.deals:
        assert all(points <= 1 for _, _, _, points in result.awards)


def test_target_below_two():
    with pytest.raises(CardsimError, match="at least 2"):
        rules_from_options(target=1)
