"""Whole 3-player Perlaggen deals and games, each for himself (perlaggen.md §9.4, T-26 through the deal
engine `simcore.games.perlaggen_three`): answers, free ride, raise to 3, the Spiel of 4 tricks, the
showing order, verification, the §8.6 limit per player (A-38), the §8.12 order, random legal actions
and the match command (`cardsim match perlaggen --players 3`)."""

import copy
import dataclasses
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.games import betting as cli_betting
from simcore.betting import PRESETS, SP, G, H
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_three as T
from simcore.games.perlaggen_betting import ACCEPT3, GUT3, RAISE3
from simcore.rng import block_substream
from test_betting_cli import run_cli

A, B, C = 0, 1, 2
TRUMP = P.DECK.suits.index("S")  # Innsbruck, spades trump: Perlaggen HK, Weli, S7, E7, SU, SO
HANDS = {A: "EK LK E8 L9 H10 S8 EO", B: "EA LA HA E9 L10 HU S9", C: "EU LU H8 H9 LO SA SK"}
"""A: a pair of Kings; B: three Aces (the best Gleich); C: a pair of Unters and the Hanger H9-H8."""


STRAF_HANDS = {A: "EK LK E8 L9 H10 S8 E10", B: "EA LA HA E9 L10 HU S9", C: "L8 H8 H9 LO SA SK L7"}
"""Strafperlaggen (spades trump: Perlaggen HK, Weli, S7, E7, SU, SO, EU, EO): A Kings, B Aces, C 8s."""


def deal_of(hands=HANDS, scores=(0, 0, 0), target=18, dealer=C, style="innsbruck"):
    return T.Deal3([P.DECK.parse_cards(hands[s]) for s in (A, B, C)], TRUMP, dealer, scores, target, style)


def straf_deal(scores=(9, 9, 9)):
    return deal_of(STRAF_HANDS, scores, style="straf")


def finish(deal):
    """Greedy card play to the end of the tricks, then every showing turn."""
    while deal.phase == T.PLAY:
        T.play_card(deal)
    while deal.phase == T.SHOW:
        deal.show(deal.show_turns[0])
    return deal.result


def figure_points(result, figure):
    out = [0] * len(result.points)
    for player, points, f in result.awards:
        if f == figure:
            out[player] += points
    return out


def test_both_gut_bettor_scores_one_T26():
    """§9.4 / T-26: B gut, C gut -> A scores the Gleich for 1 at once (he shows an example)."""
    deal = deal_of()
    deal.bet(A, G)
    deal.answer(B, G, GUT3)
    deal.answer(C, G, GUT3)
    assert not deal.open(G)
    assert figure_points(finish(deal), G) == [1, 0, 0]


@pytest.mark.parametrize("style, expected", [("innsbruck", [2, 0, 0]), ("straf", [-2, 0, 2])])
def test_gut_then_accept_T26_T33(style, expected):
    """B gut, C accepts: worth 2, B is out although he holds the best Gleich; the better of A and C wins
    (T-26: A scores 2; Strafperlaggen T-33: A -2, C +2 at the level he accepted, B 0)."""
    deal = straf_deal() if style == "straf" else deal_of()
    deal.bet(A, G)
    deal.answer(B, G, GUT3)
    deal.answer(C, G, ACCEPT3)
    result = finish(deal)
    assert deal.code(B, G) > deal.code(A, G) > deal.code(C, G)
    assert figure_points(result, G) == expected
    assert deal.duty[G] == {A, C}


def test_free_ride_wins_without_duty_T26():
    """B accepts: C rides free, may win (here B, the best, wins 2), and has no example duty."""
    hands = dict(HANDS)
    hands[A], hands[C] = HANDS[C], HANDS[A]  # A: Unters, C: Kings (no duty, may still win)
    deal = deal_of(hands)
    deal.bet(A, G)
    deal.answer(B, G, ACCEPT3)
    assert deal.figures[G].free == {C} and deal.pending() is None
    assert figure_points(finish(deal), G) == [0, 2, 0]
    assert deal.duty[G] == {A, B}


def test_raise_at_once_all_concede_T26():
    """B accepts, C raises to 3: A answers first; A gut, B gut -> C scores 2."""
    deal = deal_of()
    deal.bet(A, G)
    deal.answer(B, G, ACCEPT3)
    deal.bet(C, G)  # the free rider raises later
    assert deal.figures[G].queue == [A, B]
    with pytest.raises(CardsimError):
        deal.answer(B, G, GUT3)  # out of turn
    deal.answer(A, G, GUT3)
    deal.answer(B, G, GUT3)
    assert figure_points(finish(deal), G) == [0, 0, 2]


def test_raise_accepted_worth_three_and_no_fourth_level_T26():
    deal = deal_of()
    deal.bet(A, G)
    deal.answer(B, G, RAISE3)
    assert deal.figures[G].queue == [C, A]
    deal.answer(C, G, ACCEPT3)  # A counts as accepting (free ride at 3)
    assert deal.figures[G].value == 3 and A in deal.figures[G].free
    for seat in (A, B, C):
        assert deal.bet_error(seat, G) is not None  # nothing beyond 3
    assert figure_points(finish(deal), G) == [0, 3, 0]


def test_bettor_may_not_raise_A29():
    deal = deal_of()
    deal.bet(A, G)
    deal.answer(B, G, ACCEPT3)
    with pytest.raises(CardsimError, match="raise"):
        deal.bet(A, G)


def test_verification_penalty():
    """§9.4: B accepts a Hanger without any Hanger: he scores nothing in the deal and loses 2."""
    deal = deal_of()
    assert deal.code(B, H) < 0
    deal.bet(C, H)
    deal.answer(A, H, GUT3)
    deal.answer(B, H, ACCEPT3)
    result = finish(deal)
    assert B in result.penalised and result.points[B] == -2
    assert all(player != B for player, _, _ in result.awards)


def test_limits_per_player_A38():
    """§8.6 per player: a gestrichen player may not bet; a raise needs score + secured + 2 < target."""
    assert "8.6" in deal_of(scores=(17, 0, 0)).bet_error(A, G)
    for b_score, allowed in ((16, False), (15, True)):
        deal = deal_of(scores=(0, b_score, 0))
        deal.bet(C, G)
        deal.answer(A, G, GUT3)
        deal.answer(B, G, ACCEPT3)
        assert (deal.bet_error(B, G) is None) == allowed


def test_spiel_conceded_ends_play_and_its_winner_shows_first():
    """A bets the Spiel, both gut: A wins it for 1, trick play ends, A shows first (§9.4)."""
    deal = deal_of()
    deal.bet(A, SP)
    deal.answer(B, SP, GUT3)
    deal.answer(C, SP, GUT3)
    assert deal.phase == T.SHOW and deal.show_turns == [A, B, C]
    assert figure_points(finish(deal), SP) == [1, 0, 0]


def test_spiel_needs_four_tricks_and_hin_forehand_shows():
    """Greedy deals: the Spiel goes to a player with 4 tricks; when nobody can reach 4 it is hin and the
    forehand (the dealer's left) shows first."""
    rng = block_substream(5, 0, 1)
    kinds = set()
    for _ in range(40):
        hands, trump = T.draw_deal(rng, "innsbruck", dealer=2)
        deal = T.Deal3(hands, trump, dealer=2)
        while deal.phase == T.PLAY:
            T.play_card(deal)
        if deal.spiel_winner is None:
            assert max(deal.won) + T.HAND - sum(deal.won) < T.NEED and deal.show_turns[:1] in ([], [0])
        else:
            assert deal.won[deal.spiel_winner] == T.NEED
        kinds.add(deal.spiel_winner is None)
        finish(deal)
        assert figure_points(deal.result, SP) == [int(p == deal.spiel_winner) for p in range(3)]
    assert kinds == {True, False}


def test_scoring_order_decides_the_game_8_12():
    """A (16) wins a bet and accepted Gleich (2), B (17) the unbet Hanger (1): bet figures count before
    unbet ones, so A reaches 18 first."""
    hands = {A: "EA LA HA E9 L10 HU S9", B: "EU LU H8 H9 LO SA SK", C: "EK LK E8 L9 H10 S8 EO"}
    deal = deal_of(hands, scores=(16, 17, 0))
    deal.bet(A, G)
    deal.answer(B, G, ACCEPT3)
    result = finish(deal)
    assert figure_points(result, G) == [2, 0, 0] and figure_points(result, H)[B] == 1
    assert result.game_winner == A


def test_bad_hands_refused():
    with pytest.raises(CardsimError, match="7 cards"):
        T.Deal3([P.DECK.parse_cards("EA LA")] * 3, TRUMP)
    hands = [P.DECK.parse_cards(HANDS[A])] * 3
    with pytest.raises(CardsimError, match="twice"):
        T.Deal3(hands, TRUMP)


def test_solo_view_never_shows_a_partner():
    """G1 on `solo_view`: the play two before the mover is never the one holding the trick."""
    rng = np.random.default_rng(3)
    for _ in range(50):
        cards = rng.permutation(32)[:2]
        trick = [(int(c), int(c)) for c in cards]
        view = T.solo_view(trick, TRUMP, "innsbruck")
        keys = T.trick_keys(view, TRUMP, "innsbruck")
        assert view[0] == trick[0] and not (len(view) == 2 and keys.index(max(keys)) == 0)


# --- Strafperlaggen (§9.5, T-33 through the deal engine) ---------------------------------------------
def test_straf_everyone_gut_T33():
    deal = straf_deal()
    deal.bet(A, G)
    deal.answer(B, G, GUT3)
    deal.answer(C, G, GUT3)
    assert figure_points(finish(deal), G) == [-1, 0, 0]


def test_straf_raise_conceded_T29():
    """B accepts, C raises to 3, A gut, B gut: C -2, A +2, B +2."""
    deal = straf_deal()
    deal.bet(A, G)
    deal.answer(B, G, ACCEPT3)
    deal.bet(C, G)
    deal.answer(A, G, GUT3)
    deal.answer(B, G, GUT3)
    assert figure_points(finish(deal), G) == [2, 2, -2]


def test_straf_player_on_one_may_accept_not_bet_T33():
    deal = straf_deal(scores=(1, 9, 9))
    assert "on 1" in deal.bet_error(A, G)
    deal.bet(B, G)
    deal.answer(C, G, GUT3)
    with pytest.raises(CardsimError):
        deal.answer(A, G, RAISE3)
    deal.answer(A, G, ACCEPT3)
    assert deal.figures[G].level[A] == 2


def test_straf_game_counts_down_to_zero():
    policies = [PRESETS["formula"], PRESETS["never"], PRESETS["cautious"]]
    game = T.play_game(policies, block_substream(3, 0, 1), block_substream(3, 0, 2), target=3, style="straf")
    assert game.scores[game.winner] <= 0
    assert game.scores == [3 + sum(d.points[p] for d in game.deals) for p in range(3)]


# --- Strafperlaggen blind bets (§9.5, §8.14) -----------------------------------------------------------
BLIND_HANDS = {A: "E8 E10 EA L9 LU H7 HO", B: "EK LK E9 L10 HA LA S9", C: "L8 H8 H9 LO SA SK L7"}
"""A: no Gleich, no Hanger, no Perlagg; B: Kings and Aces, the Hanger LK-LA; C: 8s, Hangers H8-H9, SK-SA."""


def blind_deal(scores=(9, 9, 9)):
    return deal_of(BLIND_HANDS, scores, style="straf")


@pytest.mark.parametrize("hands, expected", [(BLIND_HANDS, [0, 0, 0]), (STRAF_HANDS, [-1, 0, 0])])
def test_straf_blind_gleich_conceded_scores_only_with_an_example_T25(hands, expected):
    """T-25 / §8.14 for three: A bets the Gleich blind, B and C concede. Without a Gleich (BLIND_HANDS) A
    scores nothing for it and gets no example penalty (+2); with his Kings (STRAF_HANDS) he subtracts 1."""
    deal = deal_of(hands, (9, 9, 9), style="straf")
    deal.bet_blind(A, G)
    deal.answer(B, G, GUT3)
    deal.answer(C, G, GUT3)
    result = finish(deal)
    assert figure_points(result, G) == expected
    assert A not in result.penalised


def test_straf_blind_bet_lost_costs_its_level_without_example_penalty():
    """A bets the Gleich blind with none, B accepts (C rides free): B's Aces beat C's 8s, B -2; A adds
    his level 2 (failed commitment, §9.5) but no example penalty (§8.14); C nothing."""
    deal = blind_deal()
    deal.bet_blind(A, G)
    deal.answer(B, G, ACCEPT3)
    result = finish(deal)
    assert figure_points(result, G) == [2, -2, 0]
    assert A not in result.penalised


def test_straf_blind_bets_answered_gleich_hanger_spiel_and_window_closes():
    """§8.14: several blind bets are answered in the order Gleich, Hanger, Spiel; no blind bet after the
    first answer; none in the plain 3-player game (§9.4); none by a player on 1 (§9.5)."""
    deal = blind_deal()
    deal.bet_blind(B, SP)
    deal.bet_blind(C, H)
    deal.bet_blind(A, G)
    assert "already bet" in deal.blind_error(B, G)
    assert deal.pending() == G
    deal.answer(B, G, GUT3)
    deal.answer(C, G, GUT3)
    assert deal.pending() == H
    with pytest.raises(CardsimError, match="blind"):
        deal.bet_blind(A, H)
    assert "before the cut" in deal.blind_error(A, SP)
    assert "no blind bets" in deal_of().blind_error(A, G)
    assert "on 1" in blind_deal(scores=(1, 9, 9)).blind_error(A, G)


def test_straf_blind_bettor_must_make_the_figure():
    """§9.5: a blind Gleich/Hanger bettor must make it if he can; he has no example duty."""
    deal = straf_deal()
    deal.bet_blind(A, H)
    assert deal.must_make(A, H) and A not in deal.duty[H]
    assert not deal.must_make(B, H) and not deal.must_make(A, G)


def test_blind_policy_rule():
    """A policy bets blind when `blind_prior` clears its bet margin by BLIND_MARGIN: the prior is
    negative (about -P(someone wins)/3), so the presets never do; a policy with margin -1 bets all three."""
    prior = T.blind_prior("straf")
    assert all(-1 / 3 - 0.05 < d < 0 for d in prior)
    deal = straf_deal()
    players = [T.Player(PRESETS[name], T.three_tables("straf")) for name in ("aggressive", "formula", "cautious")]
    T.blind_bets(deal, players)
    assert deal.figures == [None, None, None]
    bold = dataclasses.replace(PRESETS["aggressive"], name="bold", bet_margin=-1.0)
    deal = straf_deal()
    T.blind_bets(deal, [T.Player(bold, T.three_tables("straf"))] + players[1:])
    assert deal.blind == {G, H, SP} and all(f.bettor == A for f in deal.figures)
    assert deal.pending() is None and not deal.blind_open


def test_straf_game_with_blind_bets_reaches_zero():
    """Whole Strafperlaggen games with a policy that bets everything blind end, counting down to 0."""
    bold = dataclasses.replace(PRESETS["aggressive"], name="bold", bet_margin=-1.0)
    policies = [PRESETS["formula"], bold, PRESETS["cautious"]]
    game = T.play_game(policies, block_substream(4, 0, 1), block_substream(4, 0, 2), target=9,
                       style="straf")
    assert game.scores[game.winner] <= 0
    assert game.scores == [9 + sum(d.points[p] for d in game.deals) for p in range(3)]


# --- random legal actions (property test) -------------------------------------------------------------
def snapshot(deal):
    return copy.deepcopy(([f and vars(f) for f in deal.figures], deal.decided, deal.duty, deal.won, deal.trick,
                          deal.in_hand, deal.phase,
                          deal.shown, deal.show_turns, deal.baptised, deal.leader, deal.blind, deal.blind_open))


def random_action(deal, rng):
    """A random action, legal or not (a refused one must change nothing)."""
    figure = deal.pending()
    u = rng.random()
    if deal.blind_open and u < 0.3:
        seat, fig = int(rng.integers(deal.players)), int(rng.integers(3))
        return lambda: deal.bet_blind(seat, fig)
    if figure is not None:
        seat = deal.figures[figure].queue[0] if u < 0.9 else int(rng.integers(deal.players))
        kind = (GUT3, ACCEPT3, RAISE3)[int(rng.integers(3))]
        return lambda: deal.answer(seat, figure, kind)
    if u < 0.25:
        seat, fig = int(rng.integers(deal.players)), int(rng.integers(3))
        return lambda: deal.bet(seat, fig)
    if deal.phase == T.SHOW:
        return lambda: deal.show(deal.show_turns[0] if u < 0.9 else int(rng.integers(deal.players)))
    seat = deal.to_move
    plays = sorted(deal.legal(seat))
    card, identity = plays[int(rng.integers(len(plays)))] if u < 0.95 else (int(rng.integers(33)), 0)
    return lambda: deal.play(seat, card, identity)


def expected_awards(deal):
    """Plain recomputation of the §8.12 order from the decided figures: conceded ones by the concession,
    bet ones by the first bet, unbet ones Gleich, Hanger, Spiel (Strafperlaggen: Spiel, Gleich, Hanger)."""
    unbet = (SP, G, H) if deal.straf else (G, H, SP)

    def key(figure):
        points, (kind, seq) = deal.decided[figure]
        return (kind, seq if kind < 2 else unbet.index(figure))

    out = []
    for figure in sorted(deal.decided, key=key):
        out += [(p, deal.decided[figure][0][p], figure) for p in range(deal.players)
                if deal.decided[figure][0][p] != 0 and p not in deal.result.penalised]
    return out


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.lists(st.integers(0, 17), min_size=3, max_size=3),
       st.sampled_from([("innsbruck", 3), ("eichel", 3), ("straf", 3), ("straf", 2)]))
def test_random_actions_stay_legal(seed, scores, table):
    """Random actions (legal or not) at a 3-player or Strafperlaggen table, or the two-player
    Strafperlaggen finish ("Höll auf!" when exactly one is on 1): refused ones change nothing,
    the deal ends, the points are the awards in the §8.12 order (a penalised player: -2, Straf +2, and
    nothing else), and the game winner is the first to reach the target (Straf: 0) in that order."""
    style, players = table
    straf = style == "straf"
    scores = [1 + s % 9 for s in scores[:players]] if straf else scores
    rng = np.random.default_rng(seed)
    hands, trump = T.draw_deal(rng, style, int(seed % players), players)
    deal = T.Deal3(hands, trump, int(seed % players), scores, target=18, style=style)
    assert (deal.blind == {G, H, SP}) == (players == 2 and scores.count(1) == 1)
    for _ in range(400):
        if deal.phase == T.DONE:
            break
        before = snapshot(deal)
        try:
            random_action(deal, rng)()
        except CardsimError:
            assert snapshot(deal) == before
        for fig in deal.figures:
            assert fig is None or fig.value in (2, 3)
        assert sum(deal.won) <= T.HAND and max(deal.won) <= T.NEED
    assert deal.phase == T.DONE
    result = deal.result
    assert result.awards == expected_awards(deal)
    for p in range(players):
        gained = sum(points for q, points, _ in result.awards if q == p)
        penalty = T.PENALTY if straf else -T.PENALTY
        assert result.points[p] == (penalty if p in result.penalised else gained)
    for figure in (G, H, SP):
        won = figure_points(result, figure)
        assert (min(won) >= -3) if straf else (min(won) >= 0 and sum(won) <= 3)
    assert result.spiel_winner is None or deal.won[result.spiel_winner] == T.NEED or deal.figures[SP] is not None
    running, winner = list(scores), None
    for p, points, _ in result.awards:
        running[p] += points
        if winner is None and (running[p] <= 0 if straf else running[p] >= 18):
            winner = p
    assert result.game_winner == winner


# --- games and the command -----------------------------------------------------------------------------
def test_whole_games_reach_the_target():
    policies = [PRESETS["formula"], PRESETS["cautious"], PRESETS["aggressive"]]
    for i in range(3):
        game = T.play_game(policies, block_substream(2, 0, 2 * i + 1), block_substream(2, 0, 2 * i + 2), target=11)
        assert game.scores[game.winner] >= 11 and len(game.deals) == len(game.dealers)
        assert game.scores == [sum(d.points[p] for d in game.deals) for p in range(3)]
        assert all(b == (a + 1) % 3 for a, b in zip(game.dealers, game.dealers[1:]))


def test_match_command_three_players_and_jobs_invariance(capsys):
    args = ["match", "perlaggen", "--players", "3", "--a", "aggressive", "--b", "cautious", "--games", "6",
            "--seed", "4", "--target", "8", "--no-progress"]
    code, text, _ = run_cli(capsys, *args)
    assert code == 0 and "3-player match" in text and "6 games" in text
    _, one, _ = run_cli(capsys, *args, "--json")
    _, two, _ = run_cli(capsys, *args, "--json", "--jobs", "2", "--chunk-size", "3")
    assert json.loads(one) == json.loads(two)
    data = json.loads(one)
    a, b = data["a"]["win_rate"], data["b"]["win_rate"]
    assert a["lo"] <= a["p"] <= a["hi"] and b["p"] == pytest.approx((1 - a["p"]) / 2)
    assert b["lo"] == pytest.approx((1 - a["hi"]) / 2)


@pytest.mark.parametrize("extra, message", [(["--games", "4"], "multiple of 3"), (["--hand", "5"], "7 cards"),
                                            (["--style", "straf"], "invalid choice"),
                                            (["--straf", "--style", "eichel"], "--straf")])
def test_match_three_bad_input(capsys, extra, message):
    args = ["match", "perlaggen", "--players", "3", "--a", "formula", "--b", "never", "--no-progress"]
    code, out, err = run_cli(capsys, *args, *(extra if "--games" in extra else ["--games", "3", *extra]))
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err


def test_match_command_strafperlaggen(capsys):
    code, text, _ = run_cli(capsys, "match", "perlaggen", "--players", "3", "--straf", "--a", "formula", "--b",
                            "cautious", "--games", "3", "--seed", "2", "--target", "3", "--no-progress")
    assert code == 0 and "Strafperlaggen match" in text and "starts on 3" in text
    code, _, err = run_cli(capsys, "match", "perlaggen", "--straf", "--a", "formula", "--b", "never", "--no-progress")
    assert code == 2 and "--players 3" in err




def test_tournament_three_players():
    table = cli_betting.tournament("perlaggen", ["formula", "never"], games=3, seed=1, target=6, players=3,
                                   progress=False)
    assert list(table.policy) == ["formula", "never"] and table.attrs["players"] == 3
    assert table.win_p.iloc[0] + 2 * table.win_p.iloc[1] == pytest.approx(1)
