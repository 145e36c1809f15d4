"""Giltspiel's rule alternatives A-12 (random priority of speech), A-14 (a held Spiel aus scored in category 2)
and A-18 (stop_on_target), giltspiel.md §9, against the defaults on hand-made deals.

Compass seats as in test_betting_giltspiel.py: S = 0 (dealer), W = 1, N = 2, E = 3; N/S = team 0, E/W = team 1.
"""

import numpy as np
import pytest
from test_betting_giltspiel import EW, LADDER, NS, E, N, S, W, make, play, raise_to

from simcore.betting import AUS, DONE, SHOWDOWN, SP, Agent, BettingRules, G, H, PRESETS, betting_window
from simcore.errors import CardsimError
from simcore.games.giltspiel_betting import draw_deal, make_estimator, new_deal, play_game, rules_from_options


def conceded_to_the_target(**options):
    """N/S at 3 of 11. E/W's Gleich goes to Spiel aus and is held; N/S's Spiel is held at 7; E/W then concede the
    Spiel (N/S 10) and the Hanger (N/S 11, the target, by concessions alone). Later N/S concede the Gleich:
    E/W win the held Spiel aus, also by concession, after N/S reached the target."""
    deal = make(LADDER, "HA", scores=(3, 0), target=11, **options)
    raise_to(deal, G, W, S, AUS)
    raise_to(deal, SP, S, W, 7)
    deal.concede(EW, SP)
    deal.concede(EW, H)
    if deal.phase != DONE:
        deal.concede(NS, G)
    return deal


def test_a14_default_a_held_spiel_aus_overrides_the_order():
    deal = conceded_to_the_target()
    assert [a[1:] for a in deal.result.awards] == [(SP, NS, 7), (H, NS, 1), (G, EW, 7)]
    assert deal.result.game_winner == EW


def test_a14_category_2_the_target_reached_first_wins():
    """spiel_aus_held=category_2: the Spiel aus counts at its place; N/S reach 11 two awards earlier."""
    deal = conceded_to_the_target(spiel_aus_held="category_2")
    assert [a[1:] for a in deal.result.awards] == [(SP, NS, 7), (H, NS, 1), (G, EW, 7)]
    assert deal.result.game_winner == NS


def test_a18_stop_on_target_ends_the_deal_at_the_concession():
    """stop_on_target: the deal ends when the Hanger's concession brings N/S to 11; the Gleich stays open."""
    deal = conceded_to_the_target(stop_on_target=True)
    assert deal.phase == DONE and deal.figures[G].open and deal.figures[G].aus_held
    assert [a[1:] for a in deal.result.awards] == [(SP, NS, 7), (H, NS, 1)]
    assert deal.result.points == [8, 0] and deal.result.game_winner == NS


def two_held_aus_figures(**options):
    """The deal of test_betting_giltspiel's two held Spiel aus: N/S decide the Spiel aus by tricks first, then concede
    the Gleich (E/W's Spiel aus) and the Hanger in the showing."""
    deal = make({S: "E7 L7 HK HO S9", W: "EA LA E9 L10 SU", N: "S7 H9 E10 LU SK", E: "EO S8 L9 H7 SA"}, "HA",
                **options)
    raise_to(deal, G, W, S, AUS)
    raise_to(deal, SP, S, W, AUS)
    play(deal, (W, "LA"), (N, "H9"), (E, "L9"), (S, "L7"), (N, "SK"), (E, "SA"), (S, "HO"), (W, "SU"),
         (S, "HK"), (W, "E9"), (N, "S7"), (E, "H7"))
    if deal.phase == SHOWDOWN:
        deal.concede(NS, G)
        deal.concede(NS, H)
    return deal


def test_a14_category_2_the_first_spiel_aus_in_the_order_wins():
    """Default: the Spiel aus decided first (N/S's Spiel, by tricks) wins the game. category_2: the Gleich's Spiel
    aus comes first in the scoring order, so E/W win."""
    assert two_held_aus_figures().result.game_winner == NS
    deal = two_held_aus_figures(spiel_aus_held="category_2")
    assert [a[1:3] for a in deal.result.awards] == [(G, EW), (H, EW), (SP, NS)]
    assert deal.result.game_winner == EW


def test_a18_stop_on_target_with_a_held_spiel_aus_at_once():
    """stop_on_target with the default A-14: the Spiel aus won by tricks ends the game at once: no showing."""
    deal = two_held_aus_figures(stop_on_target=True)
    assert deal.phase == DONE and deal.figures[G].open and deal.figures[H].open
    assert [a[1:] for a in deal.result.awards] == [(SP, NS, 7)]
    assert deal.result.game_winner == NS


def test_a18_stop_on_target_keeps_the_verification():
    """Permissive (A-19 off): N bets the Hanger without a run, E/W say gut (N/S 9 + 1) and concede the Gleich
    (11 by concessions). But N fails the §7.9 check: N/S's -2 scores first, so the target is not certain and the
    deal goes on; played to the end it is the same with and without stop_on_target."""
    hands = {S: "E7 L7 H10 S9 HO", W: "EA LA H9 S7 L8", N: "H7 E10 LU SO L9", E: "EK EO HK S8 E9"}
    results = []
    for stop in (False, True):
        deal = make(hands, "HA", scores=(9, 0), strict_examples=False, stop_on_target=stop)
        deal.bet(N, H)
        deal.answer(E, H, "gut")
        deal.concede(EW, G)
        assert deal.phase != DONE and not deal.game_decided()
        deal.concede(NS, SP)
        while deal.phase == SHOWDOWN:
            deal.end_turn(deal.showing)
        results.append(deal.result)
    assert results[0] == results[1]
    assert (0, None, NS, -2) in results[1].awards and results[1].game_winner is None


def test_a18_a_stopped_deal_scores_nothing_more():
    """No Gleich or Hanger anywhere, void_policy=second_shower_scores, N/S at 10 of 11: the second pass concedes the
    Gleich to N/S (11), which stops the deal; the Hanger, next in the same turn, stays open."""
    hands = {S: "E7 L8 H9 S10 EU", W: "L7 H8 S9 E10 LU", N: "H7 S8 E9 L10 HU", E: "S7 E8 L9 H10 SU"}
    finished = {}
    for stop in (False, True):
        deal = make(hands, "EA", scores=(10, 0), void_policy="second_shower_scores", stop_on_target=stop)
        deal.concede(NS, SP)  # E/W win the Spiel and show first
        deal.end_turn(EW)
        deal.end_turn(NS)
        finished[stop] = deal
    assert finished[False].result.points == [2, 1] and finished[False].result.game_winner == NS
    stopped = finished[True]
    assert stopped.result.points == [1, 1] and stopped.result.game_winner == NS and stopped.figures[H].open


def test_a18_a_stopped_deal_refuses_answers_to_bets_left_pending():
    deal = make(LADDER, "HA", scores=(0, 10), stop_on_target=True)  # E/W at 10 of 11
    deal.bet(S, G)  # pending: E/W to answer
    deal.concede(NS, SP)  # E/W reach 11: the deal stops
    assert deal.phase == DONE and deal.result.points == [0, 1]
    for kind in ("gut", "hold", "raise"):
        with pytest.raises(CardsimError, match="the deal is over"):
            deal.answer(E, G, kind)
    assert deal.result.points == [0, 1]


class EveryoneBetsTheSpiel:
    """An estimate that makes every seat want to bet the Spiel (d = 1), each seat its own view."""

    def __call__(self, deal, seat, figure):
        return 1.0 if figure == SP else -1.0

    def view(self, seat):
        return seat


def first_bettor(seed=None, **options):
    hands, trump = draw_deal(np.random.default_rng(5))
    deal = new_deal(hands, trump, dealer=S, rules=rules_from_options(**options))
    agents = tuple(Agent(PRESETS["formula"], EveryoneBetsTheSpiel()) for _ in (NS, EW))
    betting_window(deal, agents, None if seed is None else np.random.default_rng(seed))
    return next(seat for seat, figure, kind in deal.log if kind == "bet")


def test_a12_default_the_next_to_play_speaks_first():
    assert first_bettor() == W  # forehand, left of the dealer
    assert first_bettor(seed=3) == W  # a generator changes nothing under the default


def test_a12_random_priority_draws_who_speaks_first():
    """random_priority: the first of a round of polling drawn at random (each seat a quarter of 400 windows)."""
    firsts = [first_bettor(seed, speech_order="random_priority") for seed in range(400)]
    expected = [int(np.random.default_rng(seed).permutation(4)[0]) for seed in range(400)]
    assert firsts == expected
    counts = np.bincount(firsts, minlength=4)
    assert counts.min() >= 70, counts  # 100 each expected; below 70 has probability < 1e-3 per seat


def test_a12_random_priority_needs_a_generator():
    with pytest.raises(CardsimError, match="speech_rng"):
        first_bettor(speech_order="random_priority")


def test_a12_random_priority_games_repeat_with_the_seed_and_differ_from_the_default():
    estimate = make_estimator()
    rules = {name: rules_from_options(speech_order=name) for name in ("clockwise_from_next", "random_priority")}
    policies = (PRESETS["aggressive"], PRESETS["cautious"])

    def game(order, seed):
        return play_game(policies, np.random.default_rng(seed), np.random.default_rng(seed + 1), rules[order],
                         estimate)

    again = [game("random_priority", seed) for seed in range(2)]
    assert [r.deals for r in again] == [game("random_priority", seed).deals for seed in range(2)]
    logs = {order: [[r.points for r in game(order, seed).deals] for seed in range(12)] for order in rules}
    assert logs["clockwise_from_next"] != logs["random_priority"]


@pytest.mark.parametrize("options, message", [
    ({"speech_order": "random"}, "giltspiel option speech_order cannot be 'random'"),
    ({"spiel_aus_held": "category_3"}, "giltspiel option spiel_aus_held cannot be 'category_3'"),
    ({"stop_on_target": "yes"}, "giltspiel option stop_on_target cannot be 'yes'"),
    ({"strict_examples": 0}, "giltspiel option strict_examples cannot be 0"),
])
def test_bad_choices_are_refused(options, message):
    """From Python too: a value outside the option's choices is refused, not read as true or false."""
    with pytest.raises(CardsimError, match=message):
        rules_from_options(**options)


@pytest.mark.parametrize("field, value", [("speech_order", "random"), ("spiel_aus_held", "category_3"),
                                          ("stop_on_target", 1)])
def test_betting_rules_refuse_bad_choices(field, value):
    with pytest.raises(CardsimError, match=f"{field} must be"):
        BettingRules(**{field: value})
