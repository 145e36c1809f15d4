"""Pinochle rule variants as options (spec shared/rules/pinochle3.md §7, §8, §10.7): meld variants V5-V7
(X1-X3, A13, A14), the ÷10 scale V12 (X4), nines throw-in V4 (X7, §9.2 rates), bad options, the
meld variants through ``cardsim meld`` and ``cardsim stats`` (``--option``), and options refused by a
command they would not change."""

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.cli import main
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_bid as bid
from simcore.games.pinochle3_discard import MeldStatsJob
from simcore.games import pinochle3_play as play
from simcore.rng import block_words
from analysis.stats import wilson

SUITS = "SHDC"
M8 = "SA S10 SK SQ SJ HK HQ DK DQ CK CQ"
M21 = "S9 S9 H9 D9 C9 SA S10 SJ H10 HJ DA D10 CJ C10 CA"


def meld(text: str, trump: str, **options) -> int:
    mask = np.array([p3.DECK.mask(p3.DECK.parse_cards(text, "cards"))], dtype=np.uint64)
    return int(p3.meld_points(mask, SUITS.index(trump), options)[0])


@pytest.mark.parametrize("label, text, trump, options, expected", [
    ("X1 double rope", "HA HA H10 H10 HK HK HQ HQ HJ HJ", "H", {"double_bonus": False}, 300),
    ("X1 double pinochle", "SQ SQ DJ DJ", "H", {"double_bonus": False}, 80),
    ("X1 eight aces", "SA SA HA HA DA DA CA CA", "H", {"double_bonus": False}, 200),
    ("V5 double marriage unchanged", "SK SK SQ SQ", "H", {"double_bonus": False}, 40),
    ("V5 some doubles: the rope keeps its bonus", "HA HA H10 H10 HK HK HQ HQ HJ HJ", "H", {"double_bonus": "rope"},
     1500),
    ("V5 some doubles: the pinochle loses its", "SQ SQ DJ DJ", "H", {"double_bonus": "rope"}, 80),
    ("V5 some doubles: names in any order", "SQ SQ DJ DJ", "H", {"double_bonus": "Pinochle, rope"}, 300),
    ("V5 some doubles: eight aces", "SA SA HA HA DA DA CA CA", "H", {"double_bonus": "kings,queens"}, 200),
    ("X2 double royal", "HK HK HQ HQ", "H", {"double_royal_marriage": 240}, 240),
    ("X2 rope + double royal", "HA H10 HK HK HQ HQ HJ", "H", {"double_royal_marriage": 240}, 390),
    ("X2 default", "HK HK HQ HQ", "H", {}, 80),
    ("X2 default rope", "HA H10 HK HK HQ HQ HJ", "H", {}, 190),
    ("A13 double rope under V6", "HA HA H10 H10 HK HK HQ HQ HJ HJ", "H", {"double_royal_marriage": 240}, 1500),
    ("A13 double rope under V5 and V6: 300, not a rope and the 240",
     "HA HA H10 H10 HK HK HQ HQ HJ HJ", "H", {"double_bonus": False, "double_royal_marriage": 240}, 300),
    ("V6 plain double marriage", "SK SK SQ SQ", "H", {"double_royal_marriage": 240}, 40),
    ("X3 390", M8, "S", {"roundhouse_meld": True, "roundhouse_with_rope": 390}, 390),
    ("X3 350", M8, "S", {"roundhouse_meld": True, "roundhouse_with_rope": 350}, 350),
    ("X3 default", M8, "S", {"roundhouse_with_rope": 390}, 350),  # only with roundhouse_meld
    ("V7 roundhouse alone", "SK SQ HK HQ DK DQ CK CQ", "S", {"roundhouse_meld": True}, 240),
    ("A14 component sum", "SQ SQ HQ HQ DQ DQ CQ CQ SK HK DK CK", "S",
     {"roundhouse_meld": True, "roundhouse_with_rope": 390}, 780),
])
def test_meld_variants(label, text, trump, options, expected):
    assert meld(text, trump, **options) == expected


@given(st.permutations(range(48)), st.integers(0, 3))
def test_variants_move_meld_one_way(pack, trump):
    """V5 never adds meld, V6 and V7 never remove it; V5 changes nothing without a double bonus meld."""
    hands = np.array([p3.DECK.mask(pack[:15])], dtype=np.uint64)
    base = p3.meld_points(hands, trump)[0]
    assert p3.meld_points(hands, trump, {"double_bonus": False})[0] <= base
    assert p3.meld_points(hands, trump, {"double_royal_marriage": 240})[0] >= base
    assert p3.meld_points(hands, trump, {"roundhouse_meld": True, "roundhouse_with_rope": 390})[0] >= base
    best, _ = p3.best_meld(hands, {"double_bonus": False})
    assert best[0] >= p3.meld_points(hands, trump, {"double_bonus": False})[0]


def test_double_bonus_lists_name_the_doubles_that_keep_their_bonus():
    """V5 "some or all doubles": all six named is the table (True), none is no bonus at all (False); the option
    holds the names in table order, given as text or from Python as a list, tuple or set; a repeated or unknown name
    is refused."""
    every = ",".join(p3.BONUS_MELDS)
    assert np.array_equal(p3.meld_values({"double_bonus": every}), p3.meld_values({}))
    one = p3.meld_values({"double_bonus": "jacks"})
    off = p3.meld_values({"double_bonus": False})
    assert one[p3.JACKS, 2] == 400 and off[p3.JACKS, 2] == 80 and one[p3.ROPE, 2] == off[p3.ROPE, 2] == 300
    assert p3.rule_options({"double_bonus": "Jacks, rope"})["double_bonus"] == "rope,jacks"
    for names in (["jacks", "Rope"], ("rope", "jacks"), {"jacks", "rope"}):
        assert p3.rule_options({"double_bonus": names})["double_bonus"] == "rope,jacks"
    for bad in ("aces,aces", "tens", "", "rope,", 3, [], ["aces", "aces"], ["rope", 1], ["rope,aces"]):
        with pytest.raises(CardsimError, match="option double_bonus cannot be"):
            p3.rule_options({"double_bonus": bad})


def test_x4_divide_by_ten():
    """X4 (V12): rope 15, counter 1, last trick 1, minimum bid 25, target 150: the main game's values over
    `point_divisor`, as the commands report them."""
    for options, divisor in (({"scale": 0.1}, 10), ({}, 1), ({"scale": 1}, 1), ({"scale": 1.0}, 1)):
        assert p3.point_divisor(options) == divisor
    opts = {"scale": 0.1}
    chosen = p3.rule_options(opts)
    main_game = (p3.MELD_KINDS[p3.ROPE].single, p3.RANK_POINTS["A"], p3.LAST_TRICK_BONUS, chosen["min_bid"],
                 chosen["target"])
    assert [value // p3.point_divisor(opts) for value in main_game] == [15, 1, 1, 25, 150]


def holding(text: str) -> np.ndarray:
    return np.array([p3.DECK.mask(p3.DECK.parse_cards(text, "cards"))], dtype=np.uint64)


def test_x7_nines_throw_in():
    """X7 / M21: V4a throws the deal in; with K♥ Q♥ for 10♥ J♥ (a marriage) it does not; V4d does not
    apply (aces held)."""
    assert p3.nines_throw_in(holding(M21), "5_no_meld")[0]
    assert not p3.nines_throw_in(holding(M21.replace("H10 HJ", "HK HQ")), "5_no_meld")[0]
    assert not p3.nines_throw_in(holding(M21), "5_no_ace")[0]
    assert not p3.nines_throw_in(holding(M21), None)[0]


@pytest.fixture(scope="module")
def random_hands(scale):
    spec = DealSpec(p3.LAYOUT)
    n = int(65536 * scale)
    return deal(spec, block_words(21, 0, n, spec.words_per_deal))[:, 0]


@pytest.mark.parametrize("rule, exact", [
    ("5_no_meld", 0.0163659), ("6_any", 0.0075830), ("7_any", 0.00057981), ("5_no_ace", 0.0041029),
    ("6_max1ace", 0.0031572),
])
def test_nines_rates_match_the_exact_values(random_hands, rule, exact):
    """§9.2 per-player throw-in rates inside a 99.9% Wilson interval of the simulated rate."""
    hits = int(p3.nines_throw_in(random_hands, rule).sum())
    lo, hi = wilson(hits, random_hands.size, z=3.29)
    assert lo <= exact <= hi


def test_thrown_in_hand_scores_nothing():
    """A12: a nines throw-in voids the hand (no auction, no score)."""
    cards = p3.DECK.parse_cards(M21, "cards")
    rest = [c for c in range(48) if c not in cards]
    pack = np.array(cards + rest)  # dealer 2: seat 0 (the dealer's left) gets the first 15
    opts = play.rule_options({"nines_rule": "5_no_meld"})
    policies = [bid.BID_POLICIES["bold"]] * 3
    assert bid.play_hand(pack, policies, 2, opts) == (None, None)
    assert bid.play_hand(pack, policies, 2, play.rule_options())[0] is not None


@pytest.mark.parametrize("options, message", [
    ({"roundhouse": True}, "unknown pinochle3 option 'roundhouse'"),
    ({"double_royal_marriage": 100}, "option double_royal_marriage cannot be 100"),
    ({"scale": 0.5}, "option scale cannot be 0.5"),
])
def test_bad_options(options, message):
    with pytest.raises(CardsimError, match=message):
        p3.meld_points(holding(M8), 0, options) if "scale" not in options else p3.point_divisor(options)
    with pytest.raises(CardsimError, match="unknown nines_rule"):
        p3.nines_throw_in(holding(M21), "4_any")


# --- meld variants in `cardsim meld` and `cardsim stats` ----------------------------------------------
VARIANTS = [{}, {"double_bonus": False}, {"double_bonus": "aces,pinochle"}, {"double_royal_marriage": 240},
            {"double_bonus": False, "double_royal_marriage": 240},
            {"roundhouse_meld": True, "roundhouse_with_rope": 390}, {"roundhouse_meld": True}]


@given(st.lists(st.integers(0, 47), min_size=8, max_size=18, unique=True), st.integers(0, 3),
       st.sampled_from(VARIANTS))
def test_meld_breakdown_adds_up_under_every_variant(cards, trump, options):
    """The declared melds sum to the kernel's meld under V5-V7 (R3.5, §7)."""
    mask = np.array([p3.DECK.mask(cards)], dtype=np.uint64)
    assert sum(m.points for m in p3.meld_breakdown(cards, trump, options)) == \
        int(p3.meld_points(mask, trump, options)[0])


@pytest.mark.parametrize("label, hand, trump, options, total, named", [
    ("X2 rope + double royal", "HA H10 HK HK HQ HQ HJ S9 S9 SJ DJ D9 C9 CJ CJ", "H", ["double_royal_marriage=240"],
     430, ("double royal marriage in H", 240)),
    ("X3 roundhouse with rope 390", "HA H10 HK HQ HJ SK SQ DK DQ CK CQ S9 D9 C9 CJ", "H",
     ["roundhouse_meld=True", "roundhouse_with_rope=390"], 390, ("royal marriage in H", 40)),
    ("X1 double pinochle", "SQ SQ DJ DJ S9 S9 H9 D9 C9 C9 CJ HJ HQ SJ SA", "S", ["double_bonus=False"], 140,
     ("double pinochle", 80)),
])
def test_meld_command_takes_variant_options(capsys, label, hand, trump, options, total, named):
    """§10.7 X1-X3 through ``cardsim meld pinochle3 --option``: the total and the meld that carries
    the variant's value (the X2 hand adds jacks around: 390 + 40; X1 a double deece and jacks around: 80 + 20 + 40)."""
    argv = ["meld", "pinochle3", "--hand", hand, "--trump", trump, "--json"]
    for o in options:
        argv += ["--option", o]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == total and named in [(m["name"], m["points"]) for m in data["melds"]]
    assert set(data["options"]) == {o.split("=")[0] for o in options}


def test_meld_stats_with_variants_count_the_variant_meld():
    """MeldStatsJob with V5 equals the best meld of the same deals under V5 computed directly."""
    options = {"double_bonus": False}
    job = MeldStatsJob(0, options)
    counts = job.run_block(3, 0, 500)
    slots = deal(job.spec, block_words(3, 0, 500, job.spec.words_per_deal))
    points, _ = p3.best_meld(slots[:, 0], options)
    assert np.array_equal(counts[1:1 + p3.MELD_BINS], np.bincount(points // 10, minlength=p3.MELD_BINS))
    assert job.key() != MeldStatsJob(0).key()


def test_stats_command_with_options_drops_exact_columns(capsys):
    assert main(["stats", "pinochle3", "--n", "2000", "--seed", "1", "--option", "double_royal_marriage=240",
                 "--no-progress", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["options"] == {"double_royal_marriage": 240}
    assert all(row["exact"] is None for row in data["tables"]["means"])
    assert all("exact" not in row or row["exact"] is None for row in data["tables"]["tails"])
    assert main(["meld", "pinochle3", "--hand", M21, "--option", "double_bonus=maybe"]) == 2
    assert "option double_bonus cannot be 'maybe'" in capsys.readouterr().err


# --- every option changes the answer of the command it is given to, or is refused -----------------------
M2 = "HA H10 HK HQ HJ SA DA CA S9 S9 C9 C9 SJ SJ CJ"


def test_meld_command_divides_by_ten(capsys):
    """X4 (V12) through ``cardsim meld``: rope 15, aces around 10."""
    assert main(["meld", "pinochle3", "--hand", M2, "--trump", "H", "--option", "scale=0.1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == 25 and [(m["name"], m["points"]) for m in data["melds"]] == [
        ("rope in H", 15), ("aces around", 10)]


def test_stats_and_match_divide_by_ten():
    """V12 in ``stats`` (thresholds, means and exact means / 10, same probabilities) and ``match``
    (target 150, points per hand / 10, same wins)."""
    from analysis.games import pinochle3 as api

    run = {"progress": False, "checkpoint": False}
    main_game, tenth = (api.stats(2048, 1, options=o, **run) for o in ({}, {"scale": 0.1}))
    assert list(tenth["tails"].threshold) == [x // 10 for x in main_game["tails"].threshold]
    assert np.allclose(tenth["tails"].p, main_game["tails"].p)
    for column in ("mean", "lo", "hi", "exact", "median", "median_lo", "median_hi"):
        assert np.allclose(tenth["means"][column].astype(float) * 10, main_game["means"][column].astype(float),
                           equal_nan=True)
    for column in ("mean", "lo", "hi"):
        assert np.allclose(tenth["gain_by_meld"][column] * 10, main_game["gain_by_meld"][column])
    assert list(tenth["gain_by_meld"].meld) == ["[0, 5)", "[5, 10)", "[10, 15)", "[15, 20)", ">= 20"]
    main_game, tenth = (api.match("bold", "cautious", 3, 1, o, **run) for o in ({}, {"scale": 0.1}))
    assert tenth.attrs["target"] == 150 and "games to 150" in api.format_match(tenth)
    assert list(tenth.win_p) == list(main_game.win_p)
    assert np.allclose(tenth.points_mean * 10, main_game.points_mean)


SELF_PLAY = ["match", "pinochle3", "--a", "bold", "--b", "bold", "--option"]
"""The start of a self-play match command line, before one option."""


@pytest.mark.parametrize("argv, message", [
    (["meld", "pinochle3", "--hand", M2, "--option", "target=1000"],
     "option target does not change 'cardsim meld pinochle3', whose options are double_bonus"),
    (["stats", "pinochle3", "--n", "64", "--option", "min_bid=300"],
     "option min_bid does not change 'cardsim stats pinochle3'"),
    (["meld", "pinochle3", "--hand", M2, "--option", "roundhouse_meld=True"],
     "roundhouse_meld=True and roundhouse_with_rope=390 (V7) change points only together"),
    (["meld", "pinochle3", "--hand", M2, "--option", "roundhouse_with_rope=390"], "give both or neither"),
    (["meld", "pinochle3", "--hand", M2, "--option", "scale=True"], "option scale cannot be True"),
    ([*SELF_PLAY, "trump_requires_marriage=True"],
     "option trump_requires_marriage=True is not modelled by 'cardsim match pinochle3'"),
    ([*SELF_PLAY, "unanimous_throw_in=True"],
     "option unanimous_throw_in=True (V4f) changes nothing without forced_open=True or dealer_stuck=True"),
    ([*SELF_PLAY, "allow_partial_meld=True"],
     "every player declares his full meld"),
    ([*SELF_PLAY, "renege_defender_bidder_award=bid"],
     "nobody reneges in self-play"),
    ([*SELF_PLAY, "misdeal_redeal=next_dealer"],
     "nobody misdeals in self-play"),
    ([*SELF_PLAY, "play_rule=new1945"],
     "play rule new1945 changes nothing in 'cardsim match pinochle3': greedy play heads every trick it can"),
    (["thresholds", "pinochle3", "--rule", "new1945_alt"], "play rule new1945_alt changes nothing"),
    (["odds", "pinochle3", "--hand", M2, "--rule", "new1945", "--dd-tricks", "0"],
     "changes nothing in the greedy column"),
    (["odds", "pinochle3", "--hand", M2, "--rule", "new1945", "--dd-tricks", "1"],
     "changes nothing in the greedy column: greedy play heads every trick it can, so it plays as under old (only "
     "old_strict differs); solve the ending with --dd-tricks 2-15 or use --rule old"),
])
def test_options_that_would_change_nothing_are_refused(capsys, argv, message):
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_options_at_their_default_are_accepted(capsys):
    assert main(["meld", "pinochle3", "--hand", M2, "--option", "target=1500", "--option", "scale=1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["total"] == 250


# --- V11 fixed number of hands (A17), R2.5 -------------------------------------------------------------
@pytest.mark.parametrize("scores, hands, winner", [
    ((1600, 300, 200), 5, None),  # no target in a game of 6 hands: 1600 wins nothing yet
    ((400, 520, 310), 6, 1),  # the single highest after the 6th hand
    ((-40, -100, -20), 6, 2),  # below zero too: the highest score wins
    ((520, 520, 310), 6, None),  # a tie plays one more hand (A17)
    ((530, 520, 310), 7, 0),  # ... and the first hand that breaks it ends the game
])
def test_fixed_hands_game_end(scores, hands, winner):
    opts = {"n_hands": 6}
    assert play.game_winner(scores, 0, True, opts, hands) == winner
    assert play.game_winner(scores, None, False, opts, hands) == winner  # a thrown-in hand counts (R2.5)


def test_fixed_hands_need_the_hand_count():
    n_hands = play.rule_options({"n_hands": 6.0})["n_hands"]
    assert n_hands == 6 and isinstance(n_hands, int)
    with pytest.raises(CardsimError, match="give hands"):
        play.game_winner((0, 10, 0), 0, True, {"n_hands": 6})


@pytest.mark.parametrize("seed", range(4))
def test_fixed_hands_games_stop_at_the_first_untied_hand_from_n(seed):
    """`game_hands` under V11: a game ends at the n-th completed hand (thrown-in deals included) unless the top
    score is tied, then at the first later hand with a single top score, which wins."""
    opts = play.rule_options({"n_hands": 2})
    scores = [0, 0, 0]
    rng = np.random.default_rng(seed)
    policies = [bid.BID_POLICIES["bold"], bid.BID_POLICIES["cautious"], bid.BID_POLICIES["standard"]]
    for hand, _, score, _, winner in bid.game_hands(rng, policies, opts):
        scores = [s + d for s, d in zip(scores, score.delta)] if score is not None else scores
        tied = scores.count(max(scores)) > 1
        assert winner == (None if hand < 2 or tied else scores.index(max(scores)))
    assert winner is not None and hand >= 2


def test_fixed_hands_match(capsys):
    """``cardsim match pinochle3 --option n_hands=N``: every game finishes after N hands or, tied, a little
    later; the title names the length instead of the target."""
    argv = ["match", "pinochle3", "--a", "standard", "--b", "cautious", "--option", "n_hands=3", "--games", "24",
            "--seed", "5", "--json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    hands = out["hands_per_game"]
    assert out["abandoned"] == 0 and hands["n"] == 24 and 3 <= hands["mean"] < 4
    assert out["options"] == {"n_hands": 3}
    assert main(argv[:-1]) == 0
    assert "24 games of 3 hands (V11; a tie plays on)" in capsys.readouterr().out


@pytest.mark.parametrize("options, message", [
    (["n_hands=0"], "option n_hands cannot be 0; choose one of (None, any whole number from 1 to 100)"),
    (["n_hands=6.5"], "option n_hands cannot be 6.5"),
    (["n_hands=101"], "option n_hands cannot be 101"),
    (["n_hands=6", "target=1000"], "option n_hands=6 (V11) ends the game by the hands played, so target=1000 "
                                    "would never be read; drop it or n_hands"),
    (["n_hands=6", "neg_limit=-1000", "target=1500"], "so target=1500 and neg_limit=-1000 would never be read"),
])
def test_fixed_hands_bad_options(capsys, options, message):
    argv = SELF_PLAY[:-1] + [x for option in options for x in ("--option", option)] + ["--games", "3"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_fixed_hands_refused_where_no_game_is_played(capsys):
    assert main(["odds", "pinochle3", "--hand", M2, "--option", "n_hands=6"]) == 2
    assert "option n_hands does not change 'cardsim odds pinochle3'" in capsys.readouterr().err
    assert main([*SELF_PLAY[:-1], "--scores", "1200,1400,1300", "--sacrifice", "300", "--option", "n_hands=6"]) == 2
    assert "option n_hands is not used with --scores" in capsys.readouterr().err


# --- V4f unanimous throw-in -----------------------------------------------------------------------------
def test_unanimous_throw_in_voids_the_hand_nobody_would_bid():
    """V4f with V2: a seat agrees when his limit is below the opening bid; all three agreeing throws the hand in
    (no score) where forced_open would make the dealer's left bid it; one seat willing to bid keeps it."""
    never, bold = bid.BID_POLICIES["never"], bid.BID_POLICIES["bold"]
    pack = np.arange(48)
    forced = play.rule_options({"forced_open": True})
    score, bidder = bid.play_hand(pack, [never] * 3, 2, forced)
    assert bidder == 0 and score is not None  # the dealer's left is forced to open
    assert bid.play_hand(pack, [never] * 3, 2, {**forced, "unanimous_throw_in": True}) == (None, None)
    hands = np.array([p3.DECK.mask(pack[15 * s:15 * s + 15]) for s in range(3)], dtype=np.uint64)
    assert bid.max_bids([bold] * 3, hands, forced)[0] >= 250  # the first 15 cards: all the spades
    assert bid.play_hand(pack, [bold] * 3, 2, {**forced, "unanimous_throw_in": True})[0] is not None


def test_unanimous_throw_in_match(capsys):
    """``match`` reads V4f with a forced bid: a policy that never bids agrees to every throw-in, so against
    itself no game could finish (refused); cautious against never plays on, with more hands a game."""
    base = ["match", "pinochle3", "--a", "cautious", "--b", "never", "--games", "12", "--seed", "2", "--json",
            "--option", "dealer_stuck=True"]
    assert main(base) == 0
    forced = json.loads(capsys.readouterr().out)
    assert main([*base, "--option", "unanimous_throw_in=True"]) == 0
    agreed = json.loads(capsys.readouterr().out)
    assert agreed["hands_per_game"]["mean"] > forced["hands_per_game"]["mean"]
    assert main([*base[:3], "never", *base[4:], "--option", "unanimous_throw_in=True"]) == 2
    assert "no game can finish" in capsys.readouterr().err
