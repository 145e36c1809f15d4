"""Argument checks of the Perlaggen, Giltspiel and betting entry points: bad input gets a one-line CardsimError
naming the argument; valid input gives the answer it gave before the checks."""
import numpy as np
import pytest

from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_play as PP

HAND = P.DECK.mask(P.DECK.parse_cards("S6 LA LK L8 E10", "hand"))
LA, EA = P.DECK.parse_face("LA"), P.DECK.parse_face("EA")


@pytest.mark.parametrize("kw, message", [
    ({"u": 5.0}, "^u must be a number from 0 below 1, got 5.0$"),
    ({"u": 1.0}, "^u must be a number from 0 below 1, got 1.0$"),
    ({"hand": 0}, "^hand must hold at least one card"),
    ({"hand": 1 << 40}, "^hand must be integer masks of the 33 cards \\(bits 0-32\\), got 1099511627776$"),
    ({"hand": -1}, "^hand must be integer masks"),
    ({"trump": -1}, "^trump must be from 0 to 3, got -1$"),
    ({"trump": 4}, "^trump must be from 0 to 3, got 4$"),
    ({"trump": 1.5}, "^trump must be a whole number from 0 to 3, got 1.5$"),
    ({"trick": [(LA, LA)]}, "^trick: card 15 is played twice or still in the hand"),
    ({"trick": [(1, 1), (2, 2), (3, 3), (4, 4)]}, "^trick must be up to 3 \\(card, identity\\) plays"),
    ({"trick": [(1, 1), (1, 1)]}, "^trick: card 1 is played twice"),
    ({"trick": [(1,)]}, "^trick must be up to 3 .*, got the play \\(1,\\)$"),
    ({"trick": [(1, 40)]}, "^trick must be up to 3 .*, got the play \\(1, 40\\)$"),
    ({"trick": "EA"}, "^trick must be up to 3 .*, got 'EA'$"),
    ({"trick": [(1, 2)]}, "^trick: card 1 is no Perlagg of this trump, so it stands for itself, not for 2$"),
    ({"policy": "gredy"}, "^unknown Perlaggen policy 'gredy' \\(did you mean 'greedy'\\?\\)"),
    ({"style": "bogus"}, "^unknown Perlaggen style 'bogus'"),
])
def test_choose_refuses(kw, message):
    args = dict(policy="random", hand=HAND, trick=[], trump=1, u=0.5, style="innsbruck") | kw
    with pytest.raises(CardsimError, match=message):
        PP.choose(**args)


@pytest.mark.parametrize("policy, trick, trump, u", [("random", [], 1, 0.5), ("greedy", [(EA, EA)], 1, 0.0),
                                                     ("g2", [(EA, EA), (32 - 1, 31)], 1.0, 0.9)])
def test_choose_valid_unchanged(policy, trick, trump, u):
    """The checked entry and the engines' `trusted_choose` agree on valid positions."""
    assert PP.choose(policy, HAND, trick, trump, u) == PP.trusted_choose(policy, HAND, trick, int(trump), u)


# --- analysis.games.perlaggen odds, perlaggen_play.spiel_odds ---------------------------------------
PERLAGGEN_HAND = "S6 LA LK L8 E10"
ODDS = dict(seat=2, turnup="L10", n=2000, seed=5)
BAD_FORM = "^options must be a dict such as \\{'name': value\\} or \\(name, value\\) pairs, got 5$"


@pytest.mark.parametrize("kw, message", [
    ({"spiel": "bogus"}, "^unknown Spiel method 'bogus'; choose one of: dd, greedy, random, g2, pimc$"),
    ({"seat": 1.5}, "^--seat must be a whole number, got 1.5$"),
    ({"seat": 4}, "^--seat must be 0, 1, 2 or 3"),
    ({"players": 3.5}, "^--players must be a whole number, got 3.5$"),
    ({"players": 3, "hand": "S6 LA LK L8 E10 H9 H8", "hand_size": 7.5},
     "^--hand-size must be a whole number of at least 1, got 7.5$"),
    ({"options": 5}, BAD_FORM),
    ({"options": {"bogus": 1}}, "^unknown Perlaggen deal option 'bogus'; choose one of: six_below_bells_seven$"),
    ({"options": {"six_below_bells_seven": "no"}}, "^six_below_bells_seven must be True or False, got 'no'$"),
    ({"both_gestrichen": "no"}, "^both_gestrichen must be True or False, got 'no'$"),
    ({"exchanges": 5}, "^exchanges must be a text or a list of texts such as \\['0:H9'\\], got 5$"),
    ({"given": [None]}, "^given must be a text or a list of texts"),
    ({"hand": 5}, "^--hand must be cards as a text such as 'S6 LA LK L8 E10' \\(or a list of card names\\), got 5$"),
    ({"hand": None}, "^--hand must be cards as a text"),
    ({"turnup": None, "trump": 1}, "^unknown trump suit '1'; choose one of: E, L, H, S$"),
])
def test_perlaggen_odds_refuses(kw, message):
    from analysis.games import perlaggen

    args = dict(ODDS, hand=PERLAGGEN_HAND) | kw
    with pytest.raises(CardsimError, match=message):
        perlaggen.odds(**args)


def test_perlaggen_odds_valid_unchanged():
    """A whole-float seat, a list of card names and one --given text give the frame of the plain arguments; a
    four-player Spiel method adds the Spiel rows (`perlaggen_play.add_spiel`) instead of ignoring them."""
    from analysis.games import perlaggen, perlaggen_play

    given = "opponents gleich >= pair of Obers"
    plain = perlaggen.odds(PERLAGGEN_HAND, given=[given], **ODDS)
    odd = perlaggen.odds(PERLAGGEN_HAND.split(), given=given, **(ODDS | {"seat": 2.0}))
    assert plain.equals(odd) and odd.attrs["seat"] == 2 and type(odd.attrs["seat"]) is int
    with_spiel = perlaggen.odds(PERLAGGEN_HAND, spiel="greedy", **ODDS)
    assert with_spiel.equals(perlaggen_play.add_spiel(perlaggen.odds(PERLAGGEN_HAND, **ODDS), "greedy"))


@pytest.mark.parametrize("kw, message", [
    ({"seat": 1.5}, "^--seat must be a whole number, got 1.5$"),
    ({"bogus": 2}, "^unknown spiel_odds keyword 'bogus'; choose one of: cutter_took, exchanges, acorns"),
    ({"method": "pimc"}, "^unknown Spiel method 'pimc'"),
])
def test_spiel_odds_refuses(kw, message):
    from analysis.games.perlaggen_play import spiel_odds

    with pytest.raises(CardsimError, match=message):
        spiel_odds(**(dict(hand=PERLAGGEN_HAND, seat=1, turnup="L10", method="greedy", n=2000, seed=7) | kw))


def test_spiel_odds_whole_float_seat():
    from analysis.games.perlaggen_play import spiel_odds

    args = dict(turnup="L10", method="greedy", n=2000, seed=7)
    assert spiel_odds(PERLAGGEN_HAND, seat=1.0, **args).equals(spiel_odds(PERLAGGEN_HAND, seat=1, **args))


# --- analysis.games.giltspiel odds and stats, giltspiel_play --------------------------------------
GILTSPIEL_HAND = "LA SA H10 E9 E8"


@pytest.mark.parametrize("kw, message", [
    ({"hand": None}, "^--hand must be cards as a text such as 'LA SA H10 E9 E8' \\(or a list of card names\\), "
                     "got None$"),
    ({"hand": [1, 2]}, "^--hand must be cards as a text"),
    ({"seat": 1.5}, "^--seat must be a whole number, got 1.5$"),
    ({"seat": 4}, "^--seat must be 0, 1, 2 or 3 \\(dealer 0, forehand 1\\), got 4$"),
    ({"known": ["HA"]}, "^known must be a dict of seat -> cards such as \\{3: 'HA'\\}, got \\['HA'\\]$"),
    ({"known": {2.5: "HA"}}, "^--known seat must be a whole number, got 2.5$"),
    ({"known": {2: 5}}, "^--known 2 must be cards as a text such as 'HA'"),
    ({"turnup": 5}, "^--turnup must be cards as a text such as 'HK'"),
    ({"given": 3}, "^given must be a text or a list of texts"),
    ({"spiel": "pimc", "pimc": "samples=3"}, "^pimc must be a dict of PIMC settings"),  # was AttributeError
    ({"pimc": {"samples": 3}}, "given with spiel='pimc' only"),  # was ignored
    ({"spiel": "pimc", "pimc": {"seed": 3}}, "^pimc must be a dict of PIMC settings \\(samples, communication, n\\)"),
    # was a TypeError
    ({"spiel": "dd", "pimc": {"samples": 3}}, "given with spiel='pimc' only, got pimc=\\{'samples': 3\\} with "
                                             "spiel='dd'$"),
])
def test_giltspiel_odds_refuses(kw, message):
    from analysis.games import giltspiel

    with pytest.raises(CardsimError, match=message):
        giltspiel.odds(**(dict(hand=GILTSPIEL_HAND, n=2000, seed=1) | kw))


def test_giltspiel_odds_valid_unchanged():
    from analysis.games import giltspiel

    given = "opponents gleich >= pair of Obers"
    plain = giltspiel.odds(GILTSPIEL_HAND, 1, known={2: "HA"}, given=(given,), n=2000, seed=1)
    odd = giltspiel.odds(GILTSPIEL_HAND.split(), 1.0, known={2.0: ["HA"]}, given=given, n=2000, seed=1)
    assert plain.equals(odd) and type(odd.attrs["seat"]) is int and odd.attrs["known"] == {2: "HA"}


@pytest.mark.parametrize("seat, message", [(1.5, "^--seat must be a whole number, got 1.5$"),
                                           (9, "^--seat must be 0, 1, 2 or 3"), ("1", "got '1'$")])
def test_giltspiel_stats_and_spiel_odds_refuse(seat, message):
    from analysis.games import giltspiel, giltspiel_play

    with pytest.raises(CardsimError, match=message):
        giltspiel.stats(n=2000, seed=1, seat=seat)
    with pytest.raises(CardsimError, match=message):
        giltspiel_play.spiel_odds(GILTSPIEL_HAND, seat, method="greedy", n=2000, seed=1)


def test_giltspiel_whole_float_seat():
    """stats(seat=1.0) raised a numba TypingError; now it is seat 1."""
    from analysis.games import giltspiel, giltspiel_play

    tables = giltspiel.stats(n=2000, seed=1, seat=1.0)
    assert all(t.equals(u) for t, u in zip(tables.values(), giltspiel.stats(n=2000, seed=1, seat=1).values()))
    args = dict(method="greedy", n=2000, seed=1)
    assert giltspiel_play.spiel_odds(GILTSPIEL_HAND, 1.0, **args).equals(giltspiel_play.spiel_odds(GILTSPIEL_HAND, 1,
                                                                                                    **args))


# --- new_deal of the betting engines ---------------------------------------------------------------
DEAL_HANDS = [(26, 28, 7, 1, 3), (29, 11, 17, 23, 21), (16, 30, 20, 24, 15), (2, 25, 12, 10, 4)]


@pytest.mark.parametrize("kw, message", [
    ({"hands": DEAL_HANDS[:3]}, "^hands must be 4 hands of 5 card numbers each \\(0-(31|32)\\), got"),
    ({"hands": [DEAL_HANDS[0]] * 4}, "^hands: card 26 is held twice; each card can be in one hand only$"),
    ({"hands": [h[:4] for h in DEAL_HANDS]}, "^hands must be 4 hands of 5 card numbers"),
    ({"hands": ["LA SA H10 E9 E8"] * 4}, "^hands must be 4 hands of 5 card numbers"),
    ({"hands": [(40,) + DEAL_HANDS[0][1:]] + DEAL_HANDS[1:]}, "^hands must be 4 hands of 5 card numbers"),
    ({"hands": [(1.5,) + DEAL_HANDS[0][1:]] + DEAL_HANDS[1:]}, "^hands must be 4 hands of 5 card numbers"),
    ({"trump": 7}, "^trump must be from 0 to 3, got 7$"),
    ({"trump": -1}, "^trump must be from 0 to 3, got -1$"),
    ({"dealer": 9}, "^dealer must be from 0 to 3, got 9$"),
    ({"dealer": 1.5}, "^dealer must be a whole number from 0 to 3, got 1.5$"),
    ({"scores": (11, 0)}, "^scores must be 2 whole numbers of at most 10 \\(the points, below the target 11\\), "
                          "got \\(11, 0\\)$"),
    ({"scores": (1.5, 0)}, "^scores must be 2 whole numbers of at most 10 .*, got \\(1.5, 0\\)$"),
    ({"scores": (1, 2, 3)}, "^scores must be 2 whole numbers"),
    ({"scores": 5}, "^scores must be 2 whole numbers .*, got 5$"),
])
@pytest.mark.parametrize("game", ["giltspiel", "perlaggen"])
def test_new_deal_refuses(game, kw, message):
    import importlib

    kit = importlib.import_module(f"simcore.games.{game}_betting")
    args = dict(hands=DEAL_HANDS, trump=0, dealer=0, scores=(0, 0), rules=kit.rules_from_options(target=11)) | kw
    with pytest.raises(CardsimError, match=message):
        kit.new_deal(**args)


def test_perlaggen_new_deal_weli_and_style():
    from simcore.games import perlaggen_betting as pb

    weli = [DEAL_HANDS[0][:4] + (P.WELI,)] + DEAL_HANDS[1:]
    assert pb.new_deal(weli, 0).in_hand[0] == set(weli[0])
    with pytest.raises(CardsimError, match="^trump E is not possible in the eichel style"):
        pb.new_deal(DEAL_HANDS, 0, style="eichel")
    with pytest.raises(CardsimError, match="^hands must be 4 hands of 5 card numbers each \\(0-31\\)"):
        pb.new_deal(weli, 1, style="schlanders")


@pytest.mark.parametrize("game", ["giltspiel", "perlaggen"])
def test_new_deal_valid_unchanged(game):
    """Whole floats and numpy numbers are the same deal; the deal plays as before (checked by the engine tests)."""
    import importlib

    import numpy as np

    kit = importlib.import_module(f"simcore.games.{game}_betting")
    plain = kit.new_deal(DEAL_HANDS, 1, dealer=2, scores=(-2, 4))  # a penalty can make a score negative
    odd = kit.new_deal(np.array(DEAL_HANDS), np.int64(1), dealer=2.0, scores=[-2.0, np.int8(4)])
    assert (odd.hands, odd.trump, odd.dealer, odd.scores) == (plain.hands, plain.trump, plain.dealer, plain.scores)
    assert type(odd.dealer) is int and odd.to_move == plain.to_move


# --- analysis.games.betting ----------------------------------------------------------------------
@pytest.mark.parametrize("call, message", [
    (lambda b: b.match("perlaggen", "formula", "never", games=4, seed=1, players=2.5),
     "^--players must be a whole number, got 2.5$"),
    (lambda b: b.match("perlaggen", "formula", "never", games=4, seed=1, hand=4.5),
     "^--hand must be a whole number of at least 1, got 4.5$"),
    (lambda b: b.match("giltspiel", "formula", "never", games=4, seed=1, options=5), BAD_FORM),
    (lambda b: b.match("giltspiel", "formula", "never", games=4, seed=1, permissive="no"),
     "^permissive must be True or False, got 'no'$"),
    (lambda b: b.match3("formula", "never", games=3, seed=1, options={"bogus": 1}),
     "^unknown 3-player match option 'bogus'; choose one of: straf_no_hopeless_spiel_bet$"),
    (lambda b: b.match3("formula", "never", games=3, seed=1, options={"straf_no_hopeless_spiel_bet": "yes"}),
     "^straf_no_hopeless_spiel_bet must be True or False, got 'yes'$"),
    (lambda b: b.match3("formula", "never", games=3, seed=1, places=1), "^places must be True or False, got 1$"),
    (lambda b: b.match("perlaggen", "formula", "never", games=3, seed=1, players=3, options=["a=b"]),
     "^unknown 3-player match option 'a'"),
    (lambda b: b.tournament("giltspiel", 5, games=2, seed=1),
     "^policies must be a text or a list of texts such as \\['formula'\\], got 5$"),
    (lambda b: b.tournament("giltspiel", "formula,formula", games=2, seed=1),
     "^--policies names a policy twice: formula, formula$"),
    (lambda b: b.tournament("giltspiel", ["formula", "cautious"], games=2, seed=1, options=5), BAD_FORM),
    (lambda b: b.equity3(games=2, scores="1,2,3"),
     "^--scores '1,2,3': give three whole scores from 0 to below the target 18"),
    (lambda b: b.thresholds("perlaggen", players=3, games=3, scores=(1.5, 2, 3)),
     "^--scores \\(1.5, 2, 3\\): give three whole scores from 0 to below the target 18"),
    (lambda b: b.first_order("perlaggen", players=6.5), "^--players must be a whole number, got 6.5$"),
    (lambda b: b.match("giltspiel", "formula", "never", games="4", seed=1),
     "^--games must be a whole number, got '4'$"),
    (lambda b: b.match3("formula", "never", games="3", seed=1), "^--games must be a whole number, got '3'$"),
    (lambda b: b.equity3(games="2"), "^--games must be a whole number, got '2'$"),
])
def test_betting_refuses(call, message):
    from analysis.games import betting

    with pytest.raises(CardsimError, match=message):
        call(betting)


def test_betting_valid_unchanged():
    """match(players=2.0) raised a numba TypingError; whole floats and (name, value) pairs now give the match of the
    plain arguments, and a comma-separated policies text the tournament of the list."""
    from analysis.games import betting

    plain = betting.match("perlaggen", "formula", "never", games=4, seed=1, players=2, hand=7)
    odd = betting.match("perlaggen", "formula", "never", games=4, seed=1, players=2.0, hand=7.0)
    assert plain.equals(odd) and odd.attrs["players"] == 2
    options = {"void_policy": "second_shower_scores"}
    plain = betting.match("giltspiel", "formula", "never", games=4, seed=1, options=options)
    for form in (options.items(), ["void_policy=second_shower_scores"], "void_policy=second_shower_scores"):
        assert plain.equals(betting.match("giltspiel", "formula", "never", games=4, seed=1, options=form))
    four = betting.match("giltspiel", "formula", "never", games=4, seed=1, options=options, players=4, hand=5)
    assert plain.equals(four)  # Giltspiel's own table, named
    listed = betting.tournament("giltspiel", ["formula", "cautious"], games=2, seed=1)
    assert listed.equals(betting.tournament("giltspiel", "formula, cautious", games=2, seed=1))


@pytest.mark.parametrize("call, message", [
    (lambda m: m.stats(n=2000, seed=1, options=5), BAD_FORM),
    (lambda m: m.stats(n=2000, seed=1, options={"bogus": True}),
     "^unknown Perlaggen deal option 'bogus'; choose one of: six_below_bells_seven$"),
    (lambda m: m.table_stats(players=3.5, n=2000, seed=1), "^--players must be a whole number, got 3.5$"),
    (lambda m: m.table_stats(players=6, hand_size=4.5, n=2000, seed=1),
     "^--hand-size must be a whole number of at least 1, got 4.5$"),
])
def test_perlaggen_stats_refuse(call, message):
    from analysis.games import perlaggen

    with pytest.raises(CardsimError, match=message):
        call(perlaggen)


def test_perlaggen_stats_valid_unchanged():
    from analysis.games import perlaggen

    def same(a, b):
        return a.keys() == b.keys() and all(a[k].equals(b[k]) for k in a)

    assert same(perlaggen.stats(n=2000, seed=1, options={"six_below_bells_seven": False}),
                perlaggen.stats(n=2000, seed=1, options=[("six_below_bells_seven", False)]))
    assert same(perlaggen.table_stats(players=3, n=2000, seed=1), perlaggen.table_stats(players=3.0, n=2000, seed=1))


# --- the other public functions of simcore.games.perlaggen_play, analysis perlaggen_play.solve ---------
SOLVE_DEAL = "HK L9 E8 SA S9 / S6 LA EK H9 H8 / LU E10 SK S8 H10 / E7 L8 EA HA S10"
DEAL = [P.DECK.mask(P.DECK.parse_cards(h, "hand")) for h in SOLVE_DEAL.split("/")]
FOUR = [h & (h - 1) for h in DEAL]  # each hand without its lowest card
TRICK = [(0, 0), (1, 1), (2, 2), (3, 3)]


@pytest.mark.parametrize("call, message", [
    (lambda: PP.legal_plays(DEAL[1], [], -1), "^trump must be from 0 to 3, got -1$"),
    (lambda: PP.legal_plays(DEAL[1] | DEAL[0], [], 1), "^hand must hold at most 5 cards here"),
    (lambda: PP.legal_plays(DEAL[1], [(6, 6)], 1), "^trick: card 6 is played twice or still in the hand"),
    (lambda: PP.trick_winner_of(TRICK, 5, 1), "^leader must be from 0 to 3, got 5$"),
    (lambda: PP.trick_winner_of(TRICK[:3], 0, 1), "^plays must be the 4 \\(card, identity\\) plays of a trick"),
    (lambda: PP.trick_winner_of(TRICK[:3] + [(2, 2)], 0, 1), "^plays: card 2 is played twice"),
    (lambda: PP.play_out("dd", [DEAL], [1]), "^unknown Perlaggen policy 'dd'"),
    (lambda: PP.play_out("greedy", DEAL, [1]), "^hands must be an \\(n, 4\\) array of card masks, one row of seats "
                                               "0-3 per deal; got shape \\(4,\\)$"),
    (lambda: PP.play_out("greedy", [FOUR], [1]), "^hands: every seat must hold 5 cards, got \\[4, 4, 4, 4\\] "
                                                 "\\(deal 0\\)$"),
    (lambda: PP.play_out("greedy", [DEAL], [7]), "^trumps must be 1 suit index, one per deal, of 0, 1, 2, 3"),
    (lambda: PP.play_out("greedy", [DEAL], [0], style="eichel"), "^trumps must be .* of 1, 2, 3 \\(the trumps of the "
                                                                 "eichel style\\), got \\[0\\]$"),
    (lambda: PP.play_out("random", [DEAL], [1], [[5.0] * 20]), "^u must hold numbers in \\[0, 1\\) only, got 5.0$"),
    (lambda: PP.play_out("random", [DEAL], [1], [0.5] * 20), "^u must be \\(1, 20\\) random numbers"),
    (lambda: PP.play_out("greedy", [DEAL], [1], leader=1.5), "^leader must be a whole number from 0 to 3, got 1.5$"),
    (lambda: PP.play_line("random", DEAL, 1, u=[0.5] * 3), "^u must be 20 or more random numbers in \\[0, 1\\), "
                                                           "got 3$"),
    (lambda: PP.play_line("greedy", DEAL, 4), "^trump must be from 0 to 3, got 4$"),
    (lambda: PP.spiel_teams([DEAL[:3]], [1]), "^hands must be an \\(n, 4\\) array of card masks"),
    (lambda: PP.spiel_teams([[DEAL[0]] * 4], [1]), "^hands: a card is held by two hands"),
    (lambda: PP.forced_tricks([DEAL[0]] + FOUR[1:], 1), "^hands: every seat must hold 1 to 5 cards, all as many, got "
                                                        "\\[5, 4, 4, 4\\]$"),
    (lambda: PP.optimal_line(DEAL, 1, leader=7), "^leader must be from 0 to 3, got 7$"),
    (lambda: PP.position_wins(DEAL, 1, 2, 1), "^team must be from 0 to 1, got 2$"),
    (lambda: PP.position_wins(DEAL, 1, 1, 1, won=(0, 9)), "^won must be 2 whole numbers from 0 to 5, got \\(0, 9\\)$"),
    (lambda: PP.position_wins(DEAL, 1, 1, 1, need=0), "^need must be from 1 to 5, got 0$"),
    (lambda: PP.position_wins(DEAL, 1, 0, 1, won=(5, 0)), "^the seats hold 5, 5, 5, 5 cards with 0 on the trick led by "
                                                         "seat 1 and won \\(5, 0\\)"),  # was True
    (lambda: PP.position_wins(DEAL, 1, 1, 1, trick=[(9, 9)]), "^trick: card 9 is played twice or still in the hand"),
])
def test_perlaggen_play_functions_refuse(call, message):
    with pytest.raises(CardsimError, match=message):
        call()


def test_perlaggen_play_functions_valid_unchanged():
    """Whole floats are the same numbers, and the checked functions agree with their trusted twins."""
    import numpy as np

    assert PP.legal_plays(DEAL[1], [], 1.0) == PP.trusted_legal_plays(DEAL[1], [], 1)
    assert PP.trick_winner_of(TRICK, 2.0, 1) == PP.trusted_trick_winner_of(TRICK, 2, 1)
    u = np.random.default_rng(1).random((1, PP.DECISIONS))
    for a, b in zip(PP.play_out("random", [DEAL], np.array([1]), u, leader=1.0),
                    PP.trusted_play_out("random", [DEAL], [1], u)):
        assert (a == b).all()
    assert (PP.spiel_teams([DEAL], [1], leader=1.0) == PP.trusted_spiel_teams([DEAL], [1])).all()
    for team in (0, 1):
        assert PP.position_wins(DEAL, 1.0, team, 1) == PP.trusted_position_wins(np.array(DEAL, dtype=np.uint64), 1,
                                                                                team, 1)
    assert PP.play_line("random", DEAL, 1.0, u[0]) == PP.play_line("random", DEAL, 1, list(u[0]))
    assert PP.forced_tricks(FOUR, 1.0) == PP.forced_tricks(np.array(FOUR, dtype=np.uint64), 1)
    mid = [DEAL[0], DEAL[1] & ~np.uint64(1 << 6), DEAL[2], DEAL[3]]
    assert PP.position_wins(mid, 1, 1, 1, trick=[(6, 6)]) in (True, False)


@pytest.mark.parametrize("kw, message", [
    ({"trump": 1}, "^--trump '1' is not a suit; give one of E, L, H, S"),
    ({"deal": None}, "^--deal must be the 4 hands as one text, separated by '/', got None$"),
])
def test_perlaggen_solve_refuses(kw, message):
    from analysis.games.perlaggen_play import solve

    with pytest.raises(CardsimError, match=message):
        solve(**(dict(deal=SOLVE_DEAL, trump="L") | kw))


# --- simcore.games.giltspiel_play, analysis giltspiel_play.solve -----------------------------------
GILT_DEAL = "E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7"


def _gilt_hands():
    from simcore.games import giltspiel as g

    return [g.DECK.mask(g.DECK.parse_cards(h, "hand")) for h in GILT_DEAL.split("/")]


@pytest.mark.parametrize("call, message", [
    (lambda G, h: G.choose("random", [h[1]], [[0] * 4], [0], [2], [5.0]), "^u must hold numbers in \\[0, 1\\) only"),
    (lambda G, h: G.choose("greedy", [0], [[0] * 4], [0], [2]), "^hands must be \\(n,\\) masks of the mover's 1 to 5"),
    (lambda G, h: G.choose("greedy", [h[1]], [[0] * 4], [0], [-1]), "^trumps must be 1 suit index, one per deal"),
    (lambda G, h: G.choose("greedy", [h[1]], [[0, 1, 2, 3]], [4], [2]),
     r"^counts \(the cards already on the trick\) must be 0-3, got 4"),
    (lambda G, h: G.choose("greedy", [h[1]], [[9, 0, 0, 0]], [1], [2]),
     "^a card on the trick is also in the hand, or on the trick twice; each card is in one place$"),
    (lambda G, h: G.choose("greedy", [h[1]], [0, 0, 0, 0], [0], [2]), "^tricks must be \\(1, 4\\) cards 0-31"),
    (lambda G, h: G.play_out("dd", [h], [2]), "^unknown Giltspiel policy 'dd'; choose one of: random, greedy$"),
    (lambda G, h: G.play_out("greedy", [h], [2], leader=1.5), "^leader must be a whole number from 0 to 3, got 1.5$"),
    (lambda G, h: G.play_out("random", [h], [2], [[2.0] * 20]), "^u must hold numbers in \\[0, 1\\) only, got 2.0$"),
    (lambda G, h: G.play_line("greedy", h[:3], 2), "^hands must be 4 card masks, one per seat 0-3; got shape"),
    (lambda G, h: G.spiel_teams([[h[0]] * 4], [2]), "^hands: a card is held by two hands \\(row 0\\)"),
    (lambda G, h: G.spiel_teams([h], [4]), "^trumps must be 1 suit index, one per deal, of 0, 1, 2, 3, got \\[4\\]$"),
    (lambda G, h: G.forced_tricks(h, 2, leader=4), "^leader must be from 0 to 3, got 4$"),
    (lambda G, h: G.optimal_line(h, 9), "^trump must be from 0 to 3, got 9$"),
    (lambda G, h: G.position_wins(h, 2, 2, 1), "^team must be from 0 to 1, got 2$"),
    (lambda G, h: G.position_wins(h, 2, 1, 1, trick=[h[0].bit_length() - 1]),
     "^trick must be up to 3 cards played before this one, none still in a hand$"),
])
def test_giltspiel_play_functions_refuse(call, message):
    from simcore.games import giltspiel_play

    with pytest.raises(CardsimError, match=message):
        call(giltspiel_play, _gilt_hands())


def test_giltspiel_play_functions_valid_unchanged():
    import numpy as np

    from simcore.games import giltspiel_play as G

    hands = _gilt_hands()
    assert (G.choose("greedy", [hands[1]], [[0] * 4], [0], [2])
            == G.trusted_choose("greedy", [hands[1]], [[0] * 4], [0], [2])).all()
    u = np.random.default_rng(2).random((1, G.DECISIONS))
    for a, b in zip(G.play_out("random", [hands], [2], u, leader=1.0), G.trusted_play_out("random", [hands], [2], u)):
        assert (a == b).all()
    assert G.play_line("random", hands, 2.0, u[0]) == G.trusted_play_line("random", hands, 2, u[0])
    assert (G.spiel_teams([hands], np.array([2])) == G.trusted_spiel_teams([hands], [2])).all()


def test_giltspiel_solve_refuses_a_number_trump():
    from analysis.games.giltspiel_play import solve

    with pytest.raises(CardsimError, match="^--trump '2' is not a suit; give one of E, L, H, S"):
        solve(GILT_DEAL, 2)


# --- PIMC entry points: perlaggen_pimc.choose/play_deal, giltspiel_pimc.choose/play_line/play_out -----
@pytest.mark.parametrize("call, message", [
    (lambda pp: pp.choose(DEAL, 1.5), "^trump must be a whole number from 0 to 3, got 1.5$"),
    (lambda pp: pp.choose(DEAL, 0, style="eichel"), "^trump E is not possible in the eichel style"),
    (lambda pp: pp.choose(DEAL, 1, leader=1.5), "^leader must be a whole number from 0 to 3, got 1.5$"),
    (lambda pp: pp.choose(DEAL, 1, seed=-1), "^seed must be from 0 to 18446744073709551615, got -1$"),
    (lambda pp: pp.choose(DEAL, 1, won=(3, 0)), "^won must be 2 whole numbers from 0 to 2, got \\(3, 0\\)$"),
    (lambda pp: pp.choose(DEAL, 1, trick=[(9, 9)]), "^trick: card 9 is played twice or still in the hand"),
    (lambda pp: pp.choose(DEAL[:3], 1), "^hands must be 4 card masks, one per seat 0-3; got shape"),
    (lambda pp: pp.choose(DEAL, 1, public=(0, 0)), "^public must be 4 card masks, one per seat"),
    (lambda pp: pp.choose(DEAL, 1, samples=0), r"^samples \(--pimc-samples\) must be a whole number from 1 to 1,024 "
                                               r"\(each"),
    (lambda pp: pp.choose(DEAL, 1, samples=100_000), r"^samples \(--pimc-samples\) must be a whole number from 1 to "
                                                     "1,024"),
    (lambda pp: pp.choose(DEAL, 1, won=(2, 0)), "^the seats hold 5, 5, 5, 5 cards with 0 on the trick"),  # was a card
    (lambda pp: pp.choose(DEAL, 1, gone=DEAL[0] & -DEAL[0]), "^gone must be cards out of the hands"),
    (lambda pp: pp.play_deal(FOUR, 1, 2), "^hands: every seat must hold 5 cards, got \\[4, 4, 4, 4\\]$"),
    (lambda pp: pp.play_deal(DEAL, 1, 2, stopper=40), "^stopper must be from 0 to 32, got 40$"),
])
def test_perlaggen_pimc_refuses(call, message):
    from simcore.games import perlaggen_pimc

    with pytest.raises(CardsimError, match=message):
        call(perlaggen_pimc)


@pytest.mark.parametrize("call, message", [
    (lambda gp, h: gp.choose(h, 1.5, 2, h, 2, 0), "^seat must be a whole number from 0 to 3, got 1.5$"),
    (lambda gp, h: gp.choose(h, 1, 4, h, 2, 0), "^trump must be from 0 to 3, got 4$"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, -1), "^seed must be from 0 to 18446744073709551615, got -1$"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, trick=[3]), "^trick must be up to 3 cards played since the leader "
                                                           "led, none still in a hand, with seat 1 to play next"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, won=(0, 3)), "^won must be 2 whole numbers from 0 to 2"),
    (lambda gp, h: gp.play_line(h, 2, 40, 2), "^turnup must be from 0 to 31, got 40$"),
    (lambda gp, h: gp.play_line(h[:3], 2, 4, 2), "^hands must be 4 card masks, one per seat 0-3; got shape"),
    (lambda gp, h: gp.play_out([h], [5], [1], 2), "^trumps must be 1 suit index, one per deal, of 0, 1, 2, 3"),
])
def test_giltspiel_pimc_refuses(call, message):
    from simcore.games import giltspiel_pimc

    with pytest.raises(CardsimError, match=message):
        call(giltspiel_pimc, _gilt_hands())


def _low(mask):
    return (mask & -mask).bit_length() - 1


def _unheld(h):
    return _low(~(h[0] | h[1] | h[2] | h[3]) & 0xFFFFFFFF)


@pytest.mark.parametrize("call, message", [
    # each of these returned a card, a line or counts, or raised IndexError/OverflowError/TypeError/ZeroDivisionError
    (lambda gp, h: gp.choose(h, 1, 2, h[:2], 2, 0),
     "^known must be 4 card masks, one per seat 0-3"),
    (lambda gp, h: gp.choose(h, 1, 2, [h[1], h[0], h[2], h[3]], 2, 0), "^known must be cards of the seats' own hands"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, voids=(99, 0, 0, 0)),
     "^voids \\(void-suit bits per seat\\) must be 4"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, voids=(15, 0, 0, 0)),
     "^voids: seat 0 is marked void in a suit it holds"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, gone=-1), "^gone \\(a mask of the cards out of play\\) must be from 0"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, gone=1 << _low(h[0])),
     "^gone must be cards out of play, none in a hand"),
    (lambda gp, h: gp.votes([h], 9, 2), "^seat must be from 0 to 3, got 9$"),
    (lambda gp, h: gp.votes([h], 1, 7), "^trump must be from 0 to 3, got 7$"),
    (lambda gp, h: gp.votes(np.zeros((0, 4), dtype=np.uint64), 1, 2), "^deals must be one or more deals"),
    (lambda gp, h: gp.sample([h[0], 0, 0, 0], [0, 50, 5, 5], 0xFFFFFFFF & ~h[0], [0] * 4, 1),
     "^need \\(cards to add per seat\\) must be 4 whole numbers from 0 to 5"),
    (lambda gp, h: gp.sample([h[0], 0, 0, 0], [0, 5, 5, 5], h[1], [0] * 4, 1), "^sample: the seats need 15 cards but"),
    (lambda gp, h: gp.sample([h[0], 0, 0, 0], [0, 5, 5, 5], 0xFFFFFFFF & ~h[0], [0] * 4, -1), "^seed must be from 0"),
    (lambda gp, h: gp.play_line(h, 2, _low(h[0]), 2), "^turnup must be a card in no hand, got"),
    (lambda gp, h: gp.play_line(h, 2, _unheld(h), 2, public=[1, 2]), "^public must be 4 card masks"),
    (lambda gp, h: gp.play_line(h, 2, _unheld(h), 2, pimc_seats=[7]), "^pimc_seats must be a collection of seats"),
    (lambda gp, h: gp.play_line(h, 2, _unheld(h), 2, pimc_seats=3), "^pimc_seats must be a collection of seats"),
    (lambda gp, h: gp.play_out([h, h], [2, 2], [1 << _unheld(h)], 2), "^turnups must be 2 masks of one card each"),
    (lambda gp, h: gp.play_out([h], [2], [0], 2), "^turnups must be 1 masks of one card each"),
    (lambda gp, h: gp.play_out([h], [2], [1 << _low(h[0])], 2), "^turnups must be 1 masks of one card each"),
    (lambda gp, h: gp.play_out([h], [2], [1 << _unheld(h)], 2, seeds=[1.5]), "^seeds must be 1 whole numbers"),
    (lambda gp, h: gp.play_out([h], [2], [1 << _unheld(h)], 2, seeds=[-1]), "^seeds must be 1 whole numbers"),
    (lambda gp, h: gp.play_out([h], [2], [1 << _unheld(h)], 2, public=[1]), "^public must be 4 card masks"),
    (lambda gp, h: gp.communication_code(["none"]), "^unknown --communication '\\['none'\\]'"),
    (lambda gp, h: gp.choose(h, 1, 2, h, 2, 0, won=(2, 0)), "^the seats hold 5, 5, 5, 5 cards with 0 on the trick"),
])
def test_giltspiel_pimc_helpers_refuse(call, message):
    from simcore.games import giltspiel_pimc

    with pytest.raises(CardsimError, match=message):
        call(giltspiel_pimc, _gilt_hands())


def test_giltspiel_pimc_helpers_valid_unchanged():
    from simcore.games import giltspiel_pimc as gp

    h = _gilt_hands()
    tu = _unheld(h)
    assert gp.choose(h, 1, 2, h, 2, 0) == gp.choose(h, 1, 2, h, 2.0, 0)  # a whole float of samples is accepted
    assert gp.play_out([h], [2], [1 << tu], 2).tolist() == gp.play_out([h], [2], [1 << tu], 2, seeds=[0]).tolist()
    assert gp.votes(np.array([h]), 1, 2).sum() >= 0
    dealt, exact = gp.sample([h[0], 0, 0, 0], [0, 5, 5, 5], 0xFFFFFFFF & ~h[0], [0] * 4, 1)
    assert exact and dealt[0] == h[0] and all(int(m).bit_count() == 5 for m in dealt)


@pytest.mark.parametrize("kw, message", [
    ({"trump": 9}, "^trump must be from 0 to 3, got 9$"),
    ({"dealer": 1.5}, "^dealer must be a whole number from 0 to 2, got 1.5$"),
    ({"hands": [(40, 1, 2, 3, 4, 5, 6), tuple(range(8, 15)), tuple(range(16, 23))]},
     "^hands must be 3 hands of 7 card numbers each \\(0-32\\)"),
    ({"scores": (18, 0, 0)}, "^scores must be 3 whole numbers of at most 17 \\(the points, below the target 18\\)"),
    ({"scores": 5}, "^give one score per player \\(3\\), got 5$"),
    ({"style": "straf", "hands": [tuple(range(7)), tuple(range(8, 15)), (16, 17, 18, 19, 20, 21, 6)]},
     "^hands: card 6 is held twice"),
    ({"no_hopeless_spiel_bet": True}, "^no_hopeless_spiel_bet is a Strafperlaggen rule \\(§9.5\\): use it with style "
                                      "'straf'$"),
    ({"style": "straf", "no_hopeless_spiel_bet": "yes"}, "^no_hopeless_spiel_bet must be True or False, got 'yes'$"),
])
def test_three_player_deal_refuses(kw, message):
    from simcore.games import perlaggen_three as T

    args = dict(hands=[tuple(range(7)), tuple(range(8, 15)), tuple(range(16, 23))], trump=1) | kw
    with pytest.raises(CardsimError, match=message):
        T.Deal3(**args)


def test_three_player_deal_valid_unchanged():
    from simcore.games import perlaggen_three as T

    hands = [tuple(range(7)), tuple(range(8, 15)), tuple(range(16, 23))]
    plain, odd = T.Deal3(hands, 1, dealer=2, scores=(3, 4, 5)), T.Deal3(hands, 1.0, dealer=2.0, scores=[3, 4.0, 5])
    assert (plain.hands, plain.trump, plain.dealer, plain.scores) == (odd.hands, odd.trump, odd.dealer, odd.scores)
    assert odd.to_move == plain.to_move and T.Deal3(hands, 1, scores=(9, 3, 0), style="straf").scores == (9, 3, 0)
    assert T.Deal3(hands, 1, style="straf", no_hopeless_spiel_bet=True).no_hopeless_spiel_bet


def test_random_policy_needs_its_draws():
    """Before, "random" without u played the first legal card every time, as Pinochle's play-out already refused."""
    from simcore.games import giltspiel_play as G

    hands = [0b11111 << (5 * s) for s in range(4)]
    for call in (lambda: G.play_out("random", [hands], [1]), lambda: G.play_line("random", hands, 1),
                 lambda: G.choose("random", [hands[1]], [[0] * 4], [0], [1]),
                 lambda: PP.play_out("random", [DEAL], [1]), lambda: PP.play_line("random", DEAL, 1)):
        with pytest.raises(CardsimError, match="^the random policy reads u: give "):
            call()


@pytest.mark.parametrize("call, message", [
    # before: TypeError (unhashable list), AttributeError ('list' object has no attribute 'strip'), or ignored
    (lambda B: B.match(["giltspiel"], "formula", "cautious", games=2, seed=1), "^betting is implemented for"),
    (lambda B: B.match("giltspiel", ["formula"], "cautious", games=2, seed=1), "^a policy is a preset name"),
    (lambda B: B.thresholds("giltspiel", games=2, seed=1, policy=["formula"]), "^a policy is a preset name"),
    (lambda B: B.match3(["formula"], "cautious", games=3, seed=1), "^a policy is a preset name"),
    (lambda B: B.equity3(policy=["formula"], games=3, seed=1), "^a policy is a preset name"),
    (lambda B: B.thresholds3(style=["straf"]), "^unknown Perlaggen style '\\['straf'\\]'"),
])
def test_betting_refuses_values_of_a_wrong_type(call, message):
    from analysis.games import betting

    with pytest.raises(CardsimError, match=message):
        call(betting)


def test_perlaggen_win_odds_refuses_a_style_that_is_no_text():
    from simcore.games import perlaggen_play

    with pytest.raises(CardsimError, match="^unknown Perlaggen style '\\['innsbruck'\\]'"):  # was TypeError
        perlaggen_play.win_odds(["innsbruck"])
    with pytest.raises(CardsimError, match="^unknown Perlaggen style 'x'"):
        perlaggen_play.win_counts("x")


@pytest.mark.parametrize("method, options, message", [
    ("pimc", {"sample": 2, "n": 20}, "^pimc_options 'sample': the Spiel method 'pimc' reads only n, samples, "
                                     "communication \\(did you mean 'samples'\\?\\)$"),  # was ignored
    ("pimc", "samples=2", "^pimc_options must be a dict such as"),  # was AttributeError
    ("dd", {"samples": 2}, "^pimc_options 'samples': the Spiel method 'dd' reads none$"),  # was ignored
    ("g2", {"concede": 1.5}, "^concede \\(--concede-below\\) 1.5 is not a probability"),
])
def test_add_spiel_refuses_options_its_method_does_not_read(method, options, message):
    from analysis.games import perlaggen, perlaggen_play

    frame = perlaggen.odds(PERLAGGEN_HAND, turnup="L10", n=200, seed=1)
    with pytest.raises(CardsimError, match=message):
        perlaggen_play.add_spiel(frame, method, options)
    with pytest.raises(CardsimError, match="^frame must be the figure odds DataFrame"):
        perlaggen_play.add_spiel("x", method)


def test_perlaggen_stakes_need_level_l1():
    """Before, stakes=(2, 3) with level L0 were ignored; the command line refuses --stakes without --level L1."""
    from analysis.games import perlaggen

    with pytest.raises(CardsimError, match="^stakes apply to level L1 only"):
        perlaggen.odds(PERLAGGEN_HAND, turnup="L10", n=200, seed=1, stakes=(2, 3))
    with pytest.raises(CardsimError, match="^stakes apply to level L1 only"):
        perlaggen.stats(n=200, seed=1, stakes=(2, 3))
    plain = perlaggen.odds(PERLAGGEN_HAND, turnup="L10", n=200, seed=1)
    assert perlaggen.odds(PERLAGGEN_HAND, turnup="L10", n=200, seed=1, stakes=(1.0, 1)).equals(plain)


def test_giltspiel_position_wins_refuses_sizes_and_won_that_do_not_fit():
    """Before, won=(3, 0) with four full hands answered True, and hands of unequal sizes were searched."""
    from simcore.games import giltspiel_play

    h = _gilt_hands()
    with pytest.raises(CardsimError, match="^the seats hold 5, 5, 5, 5 cards with 0 on the trick"):
        giltspiel_play.position_wins(h, 2, 0, 1, won=(3, 0))
    with pytest.raises(CardsimError, match="^the seats hold 5, 1, 5, 1 cards"):
        giltspiel_play.position_wins([h[0], h[1] & -h[1], h[2], h[3] & -h[3]], 2, 0, 1)
    first = _low(h[1])
    assert giltspiel_play.position_wins([h[0], h[1] & ~(1 << first), h[2], h[3]], 2, 0, 1, trick=(first,)) in (True,
                                                                                                               False)


@pytest.mark.parametrize("kw, message", [
    # before: IndexError (two policies), AttributeError (policy names, an int generator), "yes" taken as true
    (dict(policies="two"), "^policies must be 3 Policy objects, one per seat"),
    (dict(policies="names"), "^policies must be 3 Policy objects, one per seat"),
    (dict(deal_rng=1), "^deal_rng must be a numpy Generator"),
    (dict(bluff_rng=None), "^bluff_rng must be a numpy Generator"),
    (dict(target=1.5), "^the target must be a whole number of at least 2 and at most 100 points"),
    (dict(style="straf", target=9, places="yes"), "^places must be True or False, got 'yes'$"),
])
def test_three_player_play_game_refuses(kw, message):
    from simcore.betting import load_policy
    from simcore.games import perlaggen_three

    formula = load_policy("formula")
    policies = {"two": [formula] * 2, "names": ["formula"] * 3}.get(kw.pop("policies", None), [formula] * 3)
    args = dict(deal_rng=np.random.default_rng(1), bluff_rng=np.random.default_rng(2)) | kw
    with pytest.raises(CardsimError, match=message):
        perlaggen_three.play_game(policies, **args)


def test_new_deal_refuses_rules_and_blind_bets_of_a_wrong_type():
    """Before: AttributeError for rules="x", TypeError/ValueError for blind=[9] or "x"."""
    from simcore.games import giltspiel_betting, perlaggen_betting

    hands = [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14], [15, 16, 17, 18, 19]]
    for module in (giltspiel_betting, perlaggen_betting):
        with pytest.raises(CardsimError, match="^rules must be a BettingRules \\(rules_from_options gives one\\)"):
            module.new_deal(hands, 0, rules="x")
    for blind in ([9], "x", [(0, "G")]):
        with pytest.raises(CardsimError, match="^blind must be \\(seat, figure\\) pairs of blind bets"):
            perlaggen_betting.new_deal(hands, 0, blind=blind)


def test_giltspiel_pimc_counts_refuses():
    """Before, seat 9 (or a seat whose hand the facts do not hold) gave counts, facts "x" AttributeError, seed -1
    numpy's ValueError."""
    from analysis.games import giltspiel_play
    from simcore.games import giltspiel as g

    facts = g.parse_known(GILTSPIEL_HAND, 1, None, None)
    for seat, message in ((9, "^--seat must be 0, 1, 2 or 3"), (2, "^seat 2 is the asker, whose 5 cards facts must")):
        with pytest.raises(CardsimError, match=message):
            giltspiel_play.pimc_counts(facts, seat, n=10, seed=1)
    with pytest.raises(CardsimError, match="^facts must be a simcore.games.giltspiel.Known"):
        giltspiel_play.pimc_counts("x", 1, n=10, seed=1)
    with pytest.raises(CardsimError, match="^seed must be a non-negative whole number, got -1$"):
        giltspiel_play.pimc_counts(facts, 1, n=10, seed=-1)


def test_perlaggen_spiel_frames_refuses():
    """Before: seed -1 numpy's ValueError, seed None an unreported seed, AttributeError for known or rules of
    another type, and a typo in the PIMC options ignored."""
    from analysis.games import perlaggen, perlaggen_play
    from simcore.games import perlaggen_deal

    known, rules = perlaggen.parse_known(PERLAGGEN_HAND, 1, "L10"), perlaggen_deal.DealRules("innsbruck")
    for args, message in (((known, rules, "dd", 200, -1), "^seed must be a non-negative whole number, got -1$"),
                          (("x", rules, "dd", 200, 1), "^known and rules must be a perlaggen_deal.Known"),
                          ((known, "x", "dd", 200, 1), "^known and rules must be a perlaggen_deal.Known"),
                          ((known, rules, "pimc", 200, 1, {"sample": 2}), "^pimc_options 'sample'")):
        with pytest.raises(CardsimError, match=message):
            perlaggen_play.spiel_frames(*args)


def test_betting_target_as_an_option():
    """Before, options={"target": 11} raised TypeError (rules_from_options got target twice)."""
    from analysis.games import betting

    plain = betting.match("giltspiel", "formula", "cautious", games=2, seed=1, target=11)
    assert plain.equals(betting.match("giltspiel", "formula", "cautious", games=2, seed=1, options={"target": 11}))
    assert plain.equals(betting.match("giltspiel", "formula", "cautious", games=2, seed=1, options="target=11"))
    with pytest.raises(CardsimError, match="^the target is given twice, as target=15 and the option target=11"):
        betting.match("giltspiel", "formula", "cautious", games=2, seed=1, target=15, options={"target": 11})


def test_given_parsers_refuse_a_seat_outside_the_table():
    """Before, seat 9 gave conditions (Giltspiel) or condition rows (Perlaggen), and given=5 raised TypeError."""
    from analysis.games import giltspiel, perlaggen

    given = ("opponents gleich >= pair of Obers",)
    with pytest.raises(CardsimError, match="^--seat must be 0, 1, 2 or 3"):
        giltspiel.parse_conditions(given, 9)
    with pytest.raises(CardsimError, match="^--seat must be a seat 0-3 of the 4 players, got 9$"):
        perlaggen.parse_given(given, 9)
    with pytest.raises(CardsimError, match="^given must be a text or a list of texts"):
        perlaggen.parse_given(5, 1)
    assert giltspiel.parse_conditions(given, 1.0) == giltspiel.parse_conditions(list(given), 1)


@pytest.mark.parametrize("text, players, message", [
    (None, 4, "^--exchange takes SEAT:GAVE or SEAT:GAVE=TOOK such as '0:H9', got None$"),  # was AttributeError
    (5, 4, "^--exchange takes SEAT:GAVE or SEAT:GAVE=TOOK such as '0:H9', got 5$"),
    ("0:H9", 1, "^--players must be at least 2, got 1$"),
    ("0:H9", "turnup 99", r"^turnup \(the turned-up card's index, or None\) must be from 0 to 32, got 99$"),
])
def test_parse_exchange_refuses_what_is_no_exchange_text(text, players, message):
    """Before, a text that is no text raised AttributeError and a turn-up of 99 came back as the card taken."""
    from analysis.games import perlaggen as AP

    with pytest.raises(CardsimError, match=message):
        AP.parse_exchange(text, 99, 4) if players == "turnup 99" else AP.parse_exchange(text, None, players)
    assert AP.parse_exchange("0:H9=EU", None) == AP.parse_exchange(" 0:H9=EU ", None)
