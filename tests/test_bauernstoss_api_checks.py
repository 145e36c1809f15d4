"""Argument checks of Bauernstoss entry points that had none: bad input gets a one-line CardsimError naming the
argument (before: a segmentation fault, IndexError, TypeError or an answer from arguments it cannot use); valid
input gives the answer it gave before."""
import numpy as np
import pytest

from analysis.games import bauernstoss as bs_api
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as solve

DEAL = "c7 c8 s7 s8 h7 h8 d7 d8 / sB hB dB cA cT sK h9 d9 / c9 cD s9 sD hD hT dD dT / cB cK sT sA hK hA dK dA"
HANDS = [bs.DECK.mask(bs.DECK.parse_cards(h, "deal")) for h in DEAL.split("/")]
CB = bs.DECK.parse_cards("cB", "card")[0]


@pytest.mark.parametrize("call, message", [
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 9), "^leader must be from 0 to 3, got 9$"),  # was a segfault
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 1), "^leader must be a seat in play, not the soloist's partner"),
    (lambda: solve.solo_position_wins(HANDS, 7, 3, 0), "^trump must be from 0 to 3, got 7$"),
    (lambda: solve.solo_position_wins(HANDS, 0, 5, 0), "^soloist must be from 0 to 3, got 5$"),
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 0, trick=[99]), "^trick must list at most 3 distinct cards"),
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 0, trick=[CB]), "^trick must list at most 3 distinct cards"),
    (lambda: solve.solo_position_wins(HANDS[:2], 0, 3, 0), "^hands must be 4 card masks, one per seat 0-3"),
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 0, kept=-1), "^kept \\(the cards the soloist is to hold\\) must"),
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 0, kept=1.5), "^kept \\(the cards the soloist is to hold\\) must"),
    (lambda: solve.solo_position_wins(HANDS, 0, 3, 0, rule=9), "^rule must be a play rule code 0-4"),
    (lambda: solve.solo_position_wins([HANDS[0] & (HANDS[0] - 1) | 1 << CB, *HANDS[1:]], 0, 3, 0),
     "^hands \\(the partner's ignored\\): a card is held by two hands"),
    (lambda: solve.solo_position_wins([HANDS[0] & (HANDS[0] - 1), HANDS[1], HANDS[2], HANDS[3]], 0, 3, 0),
     "^the seats in play hold 7, 0, 8, 8 cards with 0 on the trick"),
    (lambda: solve.solo_line(HANDS, 7, 3, 0), "^trump must be from 0 to 3, got 7$"),
    (lambda: solve.solo_line(HANDS, 0, 5, 0), "^soloist must be from 0 to 3, got 5$"),
    (lambda: solve.solo_line(HANDS, 0, 3, 1.5), "^leader must be a whole number from 0 to 3, got 1.5$"),
    (lambda: solve.solo_line(HANDS, 0, 3, 0, rule="x"), "^rule must be a play rule code 0-4"),
    (lambda: jobs.dd_solo_won(np.array([HANDS], dtype=np.uint64), bs.SMALL_SOLO, 0, 5, 0), "^soloist \\(one seat"),
    (lambda: jobs.dd_solo_won(np.array([HANDS], dtype=np.uint64), bs.SMALL_SOLO, 0, 1.5, 0), "^soloist \\(one seat"),
    (lambda: jobs.dd_solo_won(np.array([HANDS], dtype=np.uint64), bs.SMALL_SOLO, 0, [3], 0), "^soloist \\(one seat"),
])
def test_solo_functions_refuse(call, message):
    with pytest.raises(CardsimError, match=message):
        call()


def test_solo_functions_valid_unchanged():
    assert solve.solo_position_wins(HANDS, 0, 3, 0) == solve.solo_position_wins(HANDS, 0.0, 3.0, 0, kept=0)
    won, tricks, line = solve.solo_line(HANDS, 0, 3, 0)
    assert won == bool(solve.solo_wins(np.array([HANDS], dtype=np.uint64), 0, 3, 0)[0])
    assert len(line) >= 3 * tricks
    # the partner's hand is ignored, whatever it holds
    assert solve.solo_line([HANDS[0], 0, HANDS[2], HANDS[3]], 0, 3, 0) == (won, tricks, line)


@pytest.mark.parametrize("call, message", [
    (lambda B: B.equity(hands=50, seed=1, replicates=0), "^replicates \\(bootstrap redraws\\) must be at least 1"),
    (lambda B: B.equity(hands=50, seed=1, replicates=1.5), "^replicates \\(bootstrap redraws\\) must be a whole"),
    (lambda B: B.equity(hands="50", seed=1), "^hands \\(self-play hands\\) must be a whole number, got '50'$"),
    (lambda B: B.odds("cB sB hA hT hK h9 s7 d8", 2, "greedy", n=20, seed=1, calls=5),
     "^--calls must be the calls before yours as a text such as '4,pass'"),
    (lambda B: B.match(["b0"], "cautious", games=4, seed=1), "^unknown auction policy '\\['b0'\\]'"),
    (lambda B: B.equity(hands=50, seed=1, policy=["b0"]), "^unknown auction policy"),
])
def test_analysis_refuses(call, message):
    from analysis.games import bauernstoss

    with pytest.raises(CardsimError, match=message):
        call(bauernstoss)


def test_auction_refuses_a_first_hand_that_is_no_bool_and_a_call_that_is_no_call():
    """Before, first_hand="no" made a first hand (a non-empty text is true) and call("pass") raised AttributeError."""
    with pytest.raises(CardsimError, match="^first_hand must be True or False, got 'no'$"):
        bs.Auction(HANDS, dealer=0, first_hand="no", opts=bs.rule_options())
    auction = bs.Auction(HANDS, dealer=0, first_hand=False, opts=bs.rule_options())
    with pytest.raises(CardsimError, match="^call must be a Call such as Call\\(NUMBER, n=4, suit=0\\)"):
        auction.call("pass")
    auction.call(bs.Call(bs.NUMBER, n=4, suit=3))  # the README's example's legal bid
    assert auction.to_speak == 2


def test_play_rule_refuses_a_jack_rule_that_is_no_text():
    from simcore.games import bauernstoss_play

    with pytest.raises(CardsimError, match="^unknown play rules variant='BS' jack_rule=\\['off'\\]"):  # was TypeError
        bauernstoss_play.play_rule("BS", ["off"])


def test_reaches_points_takes_whole_float_levels():
    """Before, levels=[42.0] was refused although the API takes a whole number as a float; 42.5 still is."""
    hands = np.array([HANDS], dtype=np.uint64)
    assert solve.reaches_points(hands, 0, 1, 0, [42.0, 79.0]).tolist() == \
        solve.reaches_points(hands, 0, 1, 0, [42, 79]).tolist()
    with pytest.raises(CardsimError, match="^levels must be one or more whole numbers of card points"):
        solve.reaches_points(hands, 0, 1, 0, [42.5])
    with pytest.raises(CardsimError, match="^levels must be one or more whole numbers of card points"):
        solve.reaches_points(hands, 0, 1, 0, [True])

U = np.random.default_rng(3).random(play.DECISIONS)
OPTS = bs.rule_options()


@pytest.mark.parametrize("call, message", [
    (lambda: play.play_line("greedy", HANDS, 0, 9), "^leader must be from 0 to 3, got 9$"),  # returned a line
    (lambda: play.play_line("greedy", HANDS, 4, 0), "^trump must be from 0 to 3, got 4$"),
    (lambda: play.play_line("greedy", HANDS, 0, 1, soloist=3), "^a solo's leader must be a seat in play, not the"),
    (lambda: play.play_line("greedy", HANDS, 0, 0, soloist=5), "^soloists must be seats 0-3, or -1"),
    (lambda: play.play_line("random", HANDS, 0, 0), r"^the random policy reads u: give u, \(1, 32\) uniforms"),
    (lambda: play.play_line("random", HANDS, 0, 0, U * 2), r"^u must hold numbers in \[0, 1\) only"),
    (lambda: play.play_line("greed", HANDS, 0, 0), "^unknown policy 'greed'"),
    (lambda: play.play_line("greedy", HANDS, 0, 0, rule=7), "^rule must be a play rule code 0-4"),
    (lambda: play.play_line("greedy", [HANDS[0], HANDS[0], HANDS[2], HANDS[3]], 0, 0), "^hands: a card is held by"),
    (lambda: play.play_out("greedy", [HANDS], [0], [0], soloists=[2]), "^a solo's leader must be a seat in play"),
    (lambda: play.play_out("random", [HANDS], [0], [0]), r"^the random policy reads u: give u, \(1, 32\) uniforms"),
    (lambda: play.play_out("greedy", [HANDS], [0, 1], [0]), "^trumps must be a whole number or 1 of them"),
    (lambda: play.play_out("greedy", [HANDS[:3]], [0], [0]), r"^hands must be an \(n, 4\) array of card masks"),
    (lambda: play.legal_masks([HANDS[1]], [[0, 0, 0, 0]], [4], [0]), "^counts .* must be 0-3, got 4$"),
    (lambda: play.legal_masks([HANDS[1]], [[0, 0, 0, 0]], [0], [0], rule=-1), "^rule must be a play rule code"),
    (lambda: play.winning_slots([[0, 1, 2, 3]], [0], [0]), r"^tricks must be \(n, 4\) distinct cards 0-31"),
    (lambda: play.winning_slots([[0, 0, 2, 3]], [4], [0]), r"^tricks must be \(n, 4\) distinct cards 0-31"),
    (lambda: play.winning_slots([[0, 1, 2, 40]], [4], [0]), r"^tricks must be \(n, 4\) distinct cards 0-31"),
    (lambda: play.solo_leader(0, 4), "^soloist must be from 0 to 3, got 4$"),
    (lambda: play.small_solo_exchange(HANDS, 3, 0, 99), r"^give \(a card of the soloist\) must be from 0 to 31"),
    (lambda: play.small_solo_exchange([HANDS[0], 0, HANDS[2], 0], 1, 0, 0), "^the soloist .* must hold 8 cards"),
    (lambda: play.play_hand(bs.GameState(), HANDS, {"variant": "BS"}, np.random.default_rng(1)), "^opts must be"),
    (lambda: play.play_hand(bs.GameState(), HANDS, OPTS, 1), "^rng must be a numpy Generator"),
    (lambda: play.play_hand("new", HANDS, OPTS, np.random.default_rng(1)), "^state must be a bauernstoss.GameState"),
    (lambda: play.play_hand(bs.GameState(), HANDS[:3], OPTS, np.random.default_rng(1)), "^hands must be 4 card"),
    (lambda: play.play_game(OPTS, np.random.default_rng(1), deals=[HANDS]), "^deals ran out after 1 hands"),
    (lambda: play.play_game(OPTS, np.random.default_rng(1), policies="greedy"), "^play_game takes policy and caller"),
])
def test_play_functions_refuse(call, message):
    """bauernstoss_play's public helpers checked nothing: play_line(leader=9) returned a line, the random policy
    without draws played the first legal card every time, a solo led by the sitting-out partner was played."""
    with pytest.raises(CardsimError, match=message):
        call()


def test_checked_play_functions_give_what_the_trusted_ones_give():
    hands = np.array([HANDS], dtype=np.uint64)
    u = U[None]
    for policy in ("greedy", "random"):
        checked = play.play_out(policy, hands, [2], [1], u)
        trusted = play.trusted_play_out(policy, hands, [2], [1], u)
        assert all(np.array_equal(a, b) for a, b in zip(checked, trusted))
    assert play.play_line("random", HANDS, 2, 1, U) == play.play_line("random", HANDS, 2, 1, U.tolist())
    assert play.small_solo_exchange(HANDS, 3, 0, CB) == play.trusted_small_solo_exchange(HANDS, 3, 0, CB)
    state = bs.GameState()
    assert play.play_hand(state, HANDS, OPTS, np.random.default_rng(4), "greedy")[2] == \
        play.trusted_play_hand(state, HANDS, OPTS, np.random.default_rng(4), "greedy")[2]


@pytest.mark.parametrize("call, message", [
    (lambda: bs_api.call_options(None), r"^cards \(the hand\) must be 8 whole numbers from 0 to 31, got None$"),
    (lambda: bs_api.call_options([1, 2]), r"^cards \(the hand\) must be 8 whole numbers"),
    (lambda: bs_api.call_options(list(range(8)), rules=5), "^options must be a dict"),
    (lambda: bs_api.call_options(list(range(8)), first_hand="no"), "^first_hand must be True or False"),
    (lambda: bs_api.pass_rule(list(range(8)), "XX"), "^bauernstoss option variant cannot be 'XX'"),  # answered before
    (lambda: bs_api.pass_rule([1, 2]), r"^cards \(the hand\) must be 8 whole numbers"),  # said "no jack (§4.3)"
])
def test_the_call_helpers_refuse_what_is_no_hand(call, message):
    """`call_options` and `pass_rule` raised TypeError for None or rules=5 and answered for a 2-card hand or an
    unknown variant; a hand of 8 cards gives what it gave."""
    with pytest.raises(CardsimError, match=message):
        call()
    hand = bs.DECK.parse_cards("c7 c8 c9 cD cK cT cA s7", "hand")  # no jack
    assert bs_api.call_options(hand) == [] and bs_api.pass_rule(hand) == "no jack (§4.3)"


@pytest.mark.parametrize("call, message", [
    (lambda: jobs.pimc_values(HANDS[1], 1, 9, 0, 1), "^trump must be from 0 to 3, got 9$"),  # read past the tables
    (lambda: jobs.pimc_values(HANDS[1], 1, 0, 2, 1), "^team must be from 0 to 1, got 2$"),
    (lambda: jobs.pimc_values(HANDS[1], 1, 0, 0, 1, rule=9), "^rule must be a play rule code"),
    (lambda: jobs.pimc_values(HANDS[1], 1, 0, 0, 1, table="t"), "^table must be a transposition table made by"),
    (lambda: jobs.pimc_values(float(HANDS[1]) + 0.5, 1, 0, 0, 1), r"^hand \(a card mask\) must be a whole number"),
    (lambda: jobs.pimc_worlds(HANDS[1], 1, 3, [CB, CB], 0, 2, 0), "^card cB .* is listed twice"),
    (lambda: jobs.pimc_worlds(HANDS[1], 1, 1, (), 0, 0, 0), r"^samples \(worlds a decision\) must be at least 1"),
    (lambda: jobs.pimc_worlds(HANDS[1], 1, 1, (), 0, 2, 0, rng=5), "^rng must be a numpy Generator or None"),
    (lambda: jobs.pimc_play(HANDS, 0, 0, 5), "^rng must be a numpy Generator"),
    (lambda: jobs.pimc_play(HANDS[:3], 0, 0, np.random.default_rng(1)), "^hands must be 4 card masks"),
    (lambda: jobs.pimc_play(HANDS, 0, 0, np.random.default_rng(1), leader=4), "^leader must be from 0 to 3, got 4$"),
])
def test_pimc_functions_refuse(call, message):
    with pytest.raises(CardsimError, match=message):
        call()
