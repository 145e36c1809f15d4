"""The Strafperlaggen finish for places 2 and 3 (perlaggen.md §9.5): two-player deals of `Deal3` with
hand-made cards (answers, raise to 3, "Höll auf!" with A-32), the first-deal rule (the winner deals,
his right cuts, his left leads and exchanges), the deal rotation, places, and `--places`."""

import dataclasses
import json

import numpy as np
import pytest

from analysis.games import betting as cli_betting
from simcore.betting import PRESETS, SP, G, H
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_three as T
from simcore.games import perlaggen_variants as PV
from simcore.games.perlaggen_betting import ACCEPT3, GUT3, RAISE3
from simcore.registry import get_game
from simcore.rng import block_substream
from test_betting_cli import run_cli
from test_betting_three import figure_points, finish

X, Y = 0, 1
TRUMP = P.DECK.suits.index("S")  # Strafperlaggen, bells trump: Perlaggen HK S6 S7 E7 SU SO EU EO
KINGS = "EK LK E8 L9 H10 S8 E10"
"""A pair of Kings, no Hanger, no Perlagg."""
ACES = "EA LA HA E9 L10 HU S9"
"""Three Aces (beat the Kings), no Hanger, no Perlagg."""
NOTHING = "EA LO H9 S10 HU L8 SK"
"""No Gleich, no Hanger, no Perlagg."""


def two(x=KINGS, y=ACES, scores=(9, 9), dealer=Y):
    """A finish deal: X (the dealer's left when Y deals) leads."""
    return T.Deal3([P.DECK.parse_cards(x), P.DECK.parse_cards(y)], TRUMP, dealer, scores, 0, "straf")


def test_two_player_gut_accept_and_the_gleich_by_the_cards_9_5():
    """Same rules between two: X bets the Gleich; Y gut -> X -1. Y accepts -> worth 2, the Aces win:
    Y -2, X +2 (his level)."""
    deal = two()
    deal.bet(X, G)
    assert deal.figures[G].queue == [Y]
    deal.answer(Y, G, GUT3)
    assert figure_points(finish(deal), G) == [-1, 0]
    deal = two()
    deal.bet(X, G)
    deal.answer(Y, G, ACCEPT3)
    assert deal.pending() is None and deal.figures[G].free == set()
    assert figure_points(finish(deal), G) == [2, -2]


def test_two_player_raise_to_three_by_the_accepter_only_A29():
    """Y accepts and raises later; the bettor may not raise (A-29), nothing goes beyond 3. X concedes
    the raise: Y -2, X +2. X accepts it: worth 3, the Aces win: Y -3, X +3."""
    deal = two()
    deal.bet(X, G)
    deal.answer(Y, G, ACCEPT3)
    with pytest.raises(CardsimError, match="raise"):
        deal.bet(X, G)
    deal.bet(Y, G)
    assert deal.figures[G].queue == [X]
    deal.answer(X, G, GUT3)
    assert figure_points(finish(deal), G) == [2, -2]
    deal = two()
    deal.bet(X, G)
    deal.answer(Y, G, RAISE3)
    deal.answer(X, G, ACCEPT3)
    assert deal.figures[G].value == 3 and deal.bet_error(Y, G) is not None
    assert figure_points(finish(deal), G) == [3, -3]


def test_two_player_spiel_always_decided():
    """Seven tricks between two: someone takes 4, so the Spiel is never hin."""
    rng = block_substream(8, 0, 1)
    for _ in range(10):
        hands, trump, dealer = T.finish_deal(rng, 0)
        deal = T.Deal3(hands, trump, dealer, (9, 9), 0, "straf")
        result = finish(deal)
        assert deal.won[result.spiel_winner] == T.NEED
        assert figure_points(result, SP) == [-int(p == result.spiel_winner) for p in (X, Y)]


def test_hoell_auf_answered_before_the_deal_A32():
    """§9.5 / A-32: X is on 1, so Y bets "Höll auf!" (all three figures blind) before the cards; X answers
    Gleich, Hanger, Spiel in turn, gut or accept (no raise: he is on 1). X concedes the Gleich (Y's Aces:
    Y -1), concedes the Spiel (Y -1 at once, trick play ends and Y shows first) and accepts the Hanger
    without holding one: an accepter keeps the example duty (DEFAULT: only the blind bettor is exempt,
    §8.14), so X adds 2 and scores nothing in the deal."""
    deal = two(scores=(1, 5))
    assert deal.hoell_auf_bettor() == Y and deal.blind == {G, H, SP}
    assert all(f.bettor == Y for f in deal.figures) and deal.pending() == G
    with pytest.raises(CardsimError):
        deal.play(X, deal.in_hand[X][0])
    with pytest.raises(CardsimError):
        deal.answer(X, G, RAISE3)
    deal.answer(X, G, GUT3)
    assert deal.pending() == H
    deal.answer(X, H, ACCEPT3)
    deal.answer(X, SP, GUT3)
    assert deal.phase == T.SHOW and deal.show_turns == [Y, X]
    result = finish(deal)
    assert [figure_points(result, f) for f in (G, H, SP)] == [[0, -1], [0, 0], [0, -1]]
    assert result.penalised == {X} and result.points == [2, -2]


def test_hoell_auf_conceded_gleich_scores_only_with_an_example_9_5():
    """"If he concedes Gleich or Hanger, the opponent scores it only if he can show a valid example": Y
    has no Gleich, X concedes it -> nobody scores it and Y gets no example penalty (a blind bet); the
    accepted Spiel goes by the tricks (winner -2, the other +2)."""
    deal = two(x=KINGS, y=NOTHING, scores=(1, 6))
    deal.answer(X, G, GUT3)
    deal.answer(X, H, GUT3)
    deal.answer(X, SP, ACCEPT3)
    result = finish(deal)
    assert figure_points(result, G) == [0, 0] and figure_points(result, H) == [0, 0]
    assert Y not in result.penalised
    spiel = figure_points(result, SP)
    assert spiel == ([-2, 2] if result.spiel_winner == X else [2, -2])
    assert result.game_winner == (X if result.spiel_winner == X else None)


def test_hoell_auf_conceded_gleich_is_checked_at_the_end_9_5():
    """"Only if he can show a valid example at the end": Y's only Gleich needs his Perlagg HK; X concedes
    the Gleich; Y then plays HK under another identity, so at the end he has no example and the conceded
    Gleich scores nothing (it was -1 for Y at the moment of the concession)."""
    deal = two(x="EA LK H9 S9 EU L7 H8", y="HK LA E9 S8 H10 LU EK", scores=(1, 6))
    assert deal.hoell_auf_bettor() == Y and deal.code(Y, G) >= 0
    deal.answer(X, G, GUT3)
    deal.answer(X, H, ACCEPT3)
    deal.answer(X, SP, ACCEPT3)
    assert deal.decided[G][0] == [0, -1]
    hk = P.DECK.parse_cards("HK")[0]
    keeps_gleich = set(P.DECK.parse_cards("LA E9 S8 H10 LU EK EA LK"))
    while deal.phase == T.PLAY:
        if deal.to_move == Y and hk in deal.in_hand[Y]:
            identity = next(i for c, i in sorted(deal.legal(Y)) if c == hk and i not in keeps_gleich)
            deal.play(Y, hk, identity)
        else:
            T.play_card(deal)
    while deal.phase == T.SHOW:
        deal.show(deal.show_turns[0])
    assert deal.code(Y, G) < 0 and figure_points(deal.result, G) == [0, 0]


@pytest.mark.parametrize("scores", [(1, 1), (2, 9), (9, 9)])
def test_no_hoell_auf_unless_exactly_one_is_on_one(scores):
    deal = two(scores=scores)
    assert deal.hoell_auf_bettor() is None and deal.figures == [None, None, None]


def test_hoell_auf_policy_answers_blind():
    """The player on 1 answers on `blind_prior` of the finish (his cards unseen): about 0 between two,
    symmetric players; a hand without an example (the duty) counts about -1. The answers follow
    d > -1/2 + hold_margin for every preset."""
    prior = T.blind_prior("straf", 2)
    assert all(abs(d) < 0.15 for d in prior)
    tables = T.three_tables("straf", 2)
    assert tables[0][G, 0] < -0.95 and tables[0][H, 0] < -0.95
    for name in ("formula", "cautious", "aggressive"):
        deal = two(scores=(1, 4))
        policy = PRESETS[name]
        T.answer_hoell_auf(deal, [T.Player(policy, tables), T.Player(PRESETS["formula"], tables)])
        assert deal.pending() is None
        assert [f.level[X] == 2 for f in deal.figures] == [d > -0.5 + policy.hold_margin for d in prior]
    timid = dataclasses.replace(PRESETS["cautious"], name="timid", hold_margin=0.6)
    deal = two(scores=(1, 4))
    T.answer_hoell_auf(deal, [T.Player(timid, tables), T.Player(PRESETS["formula"], tables)])
    assert deal.pending() is None and [f.level[X] for f in deal.figures] == [0, 0, 0]


def test_winner_deals_first_hand_roles_9_5():
    """The winner deals the first two-player hand: his right (finish seat 1) cuts, his left (seat 0) leads
    and takes over the exchange. `finish_deal(rng, None)` is the two-player deal dealt by seat 0 (the
    exchanger) with seat 0 leading; a normal finish deal has the dealer exchange and his opponent cut
    and lead. The cutter's Perlaggen and the exchanged trump end in the right hands."""
    rules = PV.TableRules(players=2, style="straf", straf_finish=True)
    words = block_substream(3, 0, 1).integers(0, 1 << 32, size=(20000, 4), dtype=np.uint64).astype(np.uint32)
    rows = PV.table_block(words, rules)
    rows = rows[rows[:, PV.THROWN] == 0]
    assert (rows[:, 1] & rows[:, PV.TAKEN] == rows[:, PV.TAKEN]).all() and rows[:, PV.TAKEN].any()
    assert set(np.unique(rows[:, PV.SWAPPER])) == {0, 1}  # only seat 0 (the dealer) exchanges
    for dealer, leader in ((None, X), (X, Y), (Y, X)):
        hands, trump, deal_dealer = T.finish_deal(block_substream(4, 0, 1), dealer)
        same, trump2 = T.draw_deal(block_substream(4, 0, 1), "straf", X if dealer is None else dealer, 2)
        assert (hands, trump) == (same, trump2)
        assert T.Deal3(hands, trump, deal_dealer, (9, 9), 0, "straf").to_move == leader
    with pytest.raises(CardsimError, match="three-player"):
        PV.TableRules(players=2, style="straf")


def game_won_by(winner, last_dealer, scores, reached=None):
    """A finished 3-player Strafperlaggen game (the finish still to play)."""
    game = T.Game3(9, list(scores), winner=winner, dealers=[last_dealer])
    game.deals.append(T.Result3([0, 0, 0], [], set(), None, winner, reached or [winner]))
    return game


@pytest.mark.parametrize("winner, next_dealer, dealers", [
    (1, 1, [1, 2, 0, 2, 0]),   # the winner would deal: he deals the first hand, then his left, alternating
    (1, 2, [2, 0, 2, 0, 2]),   # someone else: he deals first, then they alternate
    (0, 2, [2, 1, 2, 1, 2]),
])
def test_finish_deal_rotation_and_places(winner, next_dealer, dealers):
    policies = [PRESETS["formula"], PRESETS["cautious"], PRESETS["aggressive"]]
    game = game_won_by(winner, (next_dealer - 1) % 3, [9, 9, 9])
    game.scores[winner] = 0
    T.play_finish(game, policies, block_substream(6, 0, 1), block_substream(6, 0, 2), next_dealer)
    n = len(game.finish_dealers)
    assert game.finish_dealers == (dealers * (n // 5 + 1))[:n]
    assert game.places[0] == winner and sorted(game.places) == [0, 1, 2]
    assert game.finish_scores[game.places[1]] <= 0 < game.finish_scores[game.places[2]]
    assert game.scores == [0 if p == winner else 9 for p in range(3)]  # the game's end is kept
    assert game.finish_scores[winner] == 0


def test_second_reaching_zero_in_the_last_deal_is_second_without_a_finish():
    game = game_won_by(2, 2, [5, -1, 0], reached=[2, 1])
    T.play_finish(game, [PRESETS["formula"]] * 3, block_substream(1, 0, 1), block_substream(1, 0, 2), 0)
    assert game.places == [2, 1, 0] and game.finish_deals == []


def test_whole_games_with_places():
    policies = [PRESETS["formula"], PRESETS["never"], PRESETS["cautious"]]
    game = T.play_game(policies, block_substream(9, 0, 1), block_substream(9, 0, 2), target=5, style="straf",
                       places=True)
    assert game.places[0] == game.winner and sorted(game.places) == [0, 1, 2]
    totals = [5 + sum(d.points[p] for d in game.deals) for p in range(3)]
    assert game.scores == totals
    seats = [(game.winner + 1) % 3, (game.winner + 2) % 3]
    for k, p in enumerate(seats):
        assert game.finish_scores[p] == totals[p] + sum(d.points[k] for d in game.finish_deals)
    with pytest.raises(CardsimError, match="Strafperlaggen"):
        T.play_game(policies, block_substream(9, 0, 1), block_substream(9, 0, 2), style="eichel", places=True)


def test_bad_finish_deals_refused():
    with pytest.raises(CardsimError, match="finish"):
        T.Deal3([P.DECK.parse_cards(KINGS), P.DECK.parse_cards(ACES)], TRUMP, 0, (0, 0), 18, "innsbruck")
    with pytest.raises(CardsimError, match="one score per player"):
        T.Deal3([P.DECK.parse_cards(KINGS), P.DECK.parse_cards(ACES)], TRUMP, 0, (9, 9, 9), 0, "straf")


def test_places_command_and_option(capsys):
    """`--places` reports 2nd and 3rd places (rates sum to 1 over a's seat; b's mapped); the same numbers
    for any --jobs; the win rates are those of the match without the finish; bad use exits 2."""
    args = ["match", "perlaggen", "--players", "3", "--straf", "--a", "cautious", "--b", "formula", "--games", "6",
            "--seed", "5", "--target", "4", "--no-progress"]
    code, text, _ = run_cli(capsys, *args, "--places")
    assert code == 0 and "Places 2 and 3" in text and "2nd place" in text
    frame = cli_betting.match3("cautious", "formula", 30, 5, 4, "straf", places=True, progress=False)
    two_jobs = cli_betting.match3("cautious", "formula", 30, 5, 4, "straf", places=True, progress=False, jobs=2,
                                  chunk_deals=15)  # two chunks of one block each
    plain = cli_betting.match3("cautious", "formula", 30, 5, 4, "straf", progress=False)
    a = frame.set_index("side").loc["a"]
    assert a.win_p + a.second_p + a.third_p == pytest.approx(1)
    assert frame.equals(two_jobs) and list(plain.win_p) == list(frame.win_p)
    assert frame.attrs["finish_deals"] > 0 and "second_p" not in plain
    long = cli_betting.match_frame(frame)
    assert {"a.second_rate", "b.third_rate"} <= set(long.estimate)
    _, out, _ = run_cli(capsys, *args, "--places", "--json")
    assert set(json.loads(out)["a"]) >= {"win_rate", "second_place", "third_place"}
    code, _, err = run_cli(capsys, "match", "perlaggen", "--players", "3", "--a", "formula", "--b", "never",
                           "--games", "3", "--places", "--no-progress")
    assert code == 2 and "--straf" in err and err.count("\n") == 1
    options = {o.name: o for o in get_game("perlaggen").options}
    assert options["straf_places"].default is False and options["communication"].default == "partner"
