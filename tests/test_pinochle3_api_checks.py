"""Bad arguments to the Pinochle play and analysis entry points are a CardsimError naming them (before: a card not
in the hand, a truncated seat, numpy's or numba's own errors)."""
import numpy as np
import pytest

from analysis.games import pinochle3 as api
from simcore.errors import CardsimError
from simcore.games import pinochle3_play as play

HAND = np.array([0b1000, 0b0100], dtype=np.uint64)
EMPTY_TRICKS = np.zeros((2, 3), dtype=np.int64)


@pytest.mark.parametrize("kwargs, message", [
    (dict(policy="random", u=[5.0, 0.1]), r"u must hold numbers in \[0, 1\) only, got 5.0"),
    (dict(policy="random", u=[0.1]), r"u must be 2 or more random numbers in \[0, 1\), got 1"),
    (dict(policy="random"), "the random policy reads u"),
    (dict(policy="sloppy"), "policy must be one of random, greedy"),
    (dict(hands=[-1, 4]), "hands must be integer masks of the 48 cards"),
    (dict(hands=[8, 0]), r"hands must be \(n,\) masks of the mover's 1 to 15 cards, one per position, got \[8, 0\]"),
    (dict(trumps=[9, 0]), r"trumps \(suit indices 0-3, S H D C\) must be 0-3, got 9"),
    (dict(trumps=1.5), "trumps .* must be a whole number or 2 of them"),
    (dict(counts=[5, 0]), r"counts \(the cards already on the trick\) must be 0-2, got 5"),
    (dict(counts=[1, 0], tricks=[[3, 0, 0], [0, 0, 0]]), "a card on the trick is also in the hand"),
    (dict(counts=[2, 0], tricks=[[5, 5, 0], [0, 0, 0]]), "or on the trick twice"),
    (dict(counts=[1, 0], tricks=[[99, 0, 0], [0, 0, 0]]), r"tricks must be \(2, 3\) cards 0-47"),
    (dict(tricks=np.zeros((2, 2), dtype=int)), r"tricks must be \(2, 3\) cards"),
])
def test_choose_refuses_bad_positions(kwargs, message):
    args = dict(policy="greedy", hands=HAND, tricks=EMPTY_TRICKS, counts=[0, 0], trumps=[0, 0]) | kwargs
    with pytest.raises(CardsimError, match=message):
        play.choose(args.pop("policy"), **args)


def test_choose_keeps_its_answers_on_good_positions():
    greedy = play.choose("greedy", HAND, EMPTY_TRICKS, [0, 0], [0, 0])
    assert greedy.tolist() == [3, 2]
    padded = play.choose("greedy", HAND, [[5, -1, -1], [-1, -1, -1]], [1, 0], [0, 0])  # slots past the count unread
    assert padded.tolist() == play.choose("greedy", HAND, [[5, 0, 0], [0, 0, 0]], [1, 0], [0, 0]).tolist()
    assert play.choose("random", HAND, EMPTY_TRICKS, 0, 0, u=[0.2, 0.9]).tolist() == [3, 2]


def test_play_out_checks_its_draws():
    hands = np.array([[(1 << 15) - 1, ((1 << 15) - 1) << 15, ((1 << 15) - 1) << 30]], dtype=np.uint64)
    with pytest.raises(CardsimError, match=r"u must hold 45 random numbers in \[0, 1\) per deal, shape \(1, 45\)"):
        play.play_out("random", hands, [0], [0], u=np.zeros(45))
    with pytest.raises(CardsimError, match="hands must be an \\(n, 3\\) array"):
        play.play_out("greedy", hands[0], [0], [0])
    with pytest.raises(CardsimError, match=r"hands: every seat must hold 15 cards, got \[14, 15, 15\]"):
        play.play_out("greedy", hands & ~np.uint64(1), [0], [0])
    assert play.play_out("greedy", hands[:0], [], [])[0].shape == (0, 3)  # an empty batch plays nothing
    points, _ = play.play_out("random", hands, [0], [0], u=np.full((1, 45), 0.5))
    kitty = ~np.bitwise_or.reduce(hands[0]) & np.uint64((1 << 48) - 1)
    assert points.sum() == 250 - 10 * int(np.bitwise_count(kitty & np.uint64(play.COUNTERS)))  # 24 counters, last trick


def test_analysis_arguments():
    with pytest.raises(CardsimError, match="--seat must be a whole number from 0 to 2, got 1.5"):
        api.stats(n=200, seed=1, seat=1.5)
    hand = "SA SA S10 SK SQ SJ HA H10 HK HQ DA DK DQ CJ C9"
    tenths = [api.meld(hand, options=form) for form in ("scale=0.1", ["scale=0.1"], {"scale": 0.1}, [("scale", 0.1)])]
    assert all(frame.equals(tenths[0]) for frame in tenths) and not tenths[0].equals(api.meld(hand))
    with pytest.raises(CardsimError, match="options must be a dict such as .* got 5"):
        api.meld(hand, options=5)
    whole, plain = api.stats(n=200, seed=1, seat=1.0), api.stats(n=200, seed=1, seat=1)
    assert whole["tails"].equals(plain["tails"])


MELD_HAND = "HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 D9"


@pytest.mark.parametrize("call, message", [
    # before: a float mask truncated, a negative one OverflowError, numpy's ValueError, True taken as hearts, a trump
    # of 1.7 truncated to 1, AttributeError for options as a text, IndexError/TypeError for a hand size of -1 or 1.5
    (lambda p, h: p.meld_points([float(h) + 0.5], 1), "^hands must be integer masks of the 48 cards"),
    (lambda p, h: p.meld_points([-1], 1), "^hands must be integer masks of the 48 cards"),
    (lambda p, h: p.meld_points([1 << 50], 1), "^hands must be integer masks of the 48 cards"),
    (lambda p, h: p.meld_points([[h]], 1), "^hands must be \\(n,\\) card masks of the 48 cards, got shape \\(1, 1\\)$"),
    (lambda p, h: p.meld_points([h], True), "^trump must be a suit index 0-3 \\(S/H/D/C\\), got True$"),
    (lambda p, h: p.meld_points([h], np.array([1])), "^trump must be a suit index 0-3"),
    (lambda p, h: p.meld_points([h], 1, "double_bonus=False"), "^options must be a dict such as"),
    (lambda p, h: p.best_meld([float(h)]), "^hands must be integer masks of the 48 cards"),
    (lambda p, h: p.meld_cards([h], 1.7), "^trumps \\(suit indices 0-3, S/H/D/C\\) must be a whole number or 1 of"),
    (lambda p, h: p.meld_cards([h, h], [1, 2, 3]), "^trumps \\(suit indices 0-3, S/H/D/C\\) must be a whole number"),
    (lambda p, h: p.meld_cards([h], True), "^trumps \\(suit indices 0-3, S/H/D/C\\) must be a whole number"),
    (lambda p, h: p.nines_throw_in([h], ["6_any"]), "^unknown nines_rule"),
    (lambda p, h: p.meld_breakdown([1.5, 2.7], 1), "^a holding lists distinct cards 0-47"),
    (lambda p, h: p.meld_breakdown("HA HK", 1), "^a holding lists distinct cards 0-47"),
    (lambda p, h: p.exact_meld_distribution(-1), "^hand_size must be from 0 to 48, got -1$"),
    (lambda p, h: p.exact_meld_distribution(1.5), "^hand_size must be a whole number from 0 to 48, got 1.5$"),
    (lambda p, h: p.rule_options(["scale=0.1"]), "^options must be a dict such as"),
])
def test_meld_functions_refuse(call, message):
    from simcore.games import pinochle3 as p

    with pytest.raises(CardsimError, match=message):
        call(p, p.DECK.mask(p.DECK.parse_cards(MELD_HAND, "hand")))


def test_meld_functions_valid_unchanged():
    from simcore.games import pinochle3 as p

    h = p.DECK.mask(p.DECK.parse_cards(MELD_HAND, "hand"))
    assert p.meld_points([h], 1).tolist() == p.meld_points(h, 1.0).tolist() == p.meld_points(np.uint64(h), 1).tolist()
    assert p.meld_cards([h], 1).tolist() == p.meld_cards([h], [1.0]).tolist()
    assert p.rule_options([("scale", 0.1)]) == p.rule_options({"scale": 0.1})
    assert p.exact_meld_distribution(15.0, 1).tolist() == p.exact_meld_distribution(15, 1).tolist()


def _full_deal():
    from simcore.dealing import DealSpec, deal
    from simcore.games import pinochle3 as p
    from simcore.rng import block_words

    spec = DealSpec(p.LAYOUT)
    return deal(spec, block_words(1, 0, 1, spec.words_per_deal))[0, :3].copy()


@pytest.mark.parametrize("args, message", [
    ((250, "bidder", 5), "^bidder must be from 0 to 2, got 5$"),  # was IndexError
    ((250, "points", -5), "^trick_points_won \\(main-game points\\) must be from 0 to 250, got -5$"),  # was scored
    ((250, "points", 1.5), "^trick_points_won \\(main-game points\\) must be a whole number"),
    ((250, "points", 999), "^trick_points_won \\(main-game points\\) must be from 0 to 250, got 999$"),
    ((250, "hands", [1, 2, 4]), "^hands: every seat must hold 15 cards, got \\[1, 1, 1\\]$"),
])
def test_contract_refuses(args, message):
    from analysis.games import pinochle3_play

    bid, what, value = args
    kw = dict(hands=_full_deal(), bidder=0, trick_points_won=100) | {
        {"bidder": "bidder", "points": "trick_points_won", "hands": "hands"}[what]: value}
    with pytest.raises(CardsimError, match=message):
        pinochle3_play.contract(bid, trump=0, **kw)


def test_contract_and_solve_line_flag():
    from analysis.games import pinochle3_play

    hands = _full_deal()
    assert pinochle3_play.contract(250, hands, 0, 0, 100) == pinochle3_play.contract(250, list(hands), 0.0, 0, 100.0)
    with pytest.raises(CardsimError, match="^line must be True or False, got 'no'$"):
        pinochle3_play.solve("HA / HA / H10", "H", line="no")  # "no" was true: a line was searched


@pytest.mark.parametrize("call, message", [
    (lambda: api.odds(MELD_HAND, "H", n=30, seed=1, dd_tricks=0, pimc_samples=1.5),
     r"^pimc_samples \(--samples; 0: no PIMC column"),
    (lambda: api.odds(MELD_HAND, "H", n=30, seed=1, dd_tricks=0, pimc_samples="2"),
     r"^pimc_samples \(--samples; 0: no PIMC column"),
    (lambda: api.defend(MELD_HAND, "left", "S", 250, None, n=30, seed=1),
     "^--bidder-meld must be the shown meld cards as one text such as 'SQ DJ', or 'none', got None$"),
    (lambda: api.defend(MELD_HAND, "left", "S", 250, "none", n=30, seed=1, partner_meld=["SQ"]),
     "^--partner-meld must be the shown meld cards as one text"),
])
def test_odds_and_defend_refuse(call, message):
    """Before: TypeError for pimc_samples 1.5 or "2", AttributeError for a meld that is not a text."""
    with pytest.raises(CardsimError, match=message):
        call()


def test_compare_refuses_a_what_that_is_no_text():
    from analysis.games import pinochle3_compare

    with pytest.raises(CardsimError, match="^cannot compare '\\['rules'\\]'; choose one of: rules, discards$"):
        pinochle3_compare.compare(MELD_HAND, ["rules"], trump="H", n=30, seed=1, dd_tricks=0)


def _ending(cards: int):
    hands = _full_deal()
    out = []
    for hand in hands:
        m, kept = int(hand), 0
        for _ in range(cards):
            kept |= m & -m
            m &= m - 1
        out.append(kept)
    return np.array([out], dtype=np.uint64)


@pytest.mark.parametrize("kw, message", [
    # before: TypeError (1.5, "2", True samples; 1.0 dd_tricks; a list rule), AttributeError (an int or None rng),
    # OverflowError (a negative forbidden mask), or an answer (a forbidden card the defender holds, a wrong shape)
    (dict(samples=1.5), "^PIMC samples must be 1-64, got 1.5$"),
    (dict(samples="2"), "^PIMC samples must be 1-64, got '2'$"),
    (dict(samples=True), "^PIMC samples must be 1-64, got True$"),
    (dict(dd_tricks=True), "^the solved ending has 0-15 tricks, got True$"),
    (dict(rng=5), "^rng must be a numpy Generator"),
    (dict(rng=None), "^rng must be a numpy Generator"),
    (dict(forbidden=[1, 2, 3]), "^forbidden must be \\(1, 2\\) card masks"),
    (dict(forbidden=[[-1, 0]]), "^forbidden must be non-negative integer card masks"),
    (dict(forbidden=[[0.5, 0]]), "^forbidden must be non-negative integer card masks"),
    (dict(forbidden="own"), "^forbidden: a card the bidder is to know a defender does not hold is in that defender"),
    (dict(melds_known="yes"), "^melds_known must be True or False, got 'yes'$"),
    (dict(rule=["old"]), "^unknown play rule"),
])
def test_pimc_points_refuses(kw, message):
    from simcore.games import pinochle3_pimc

    hands = _ending(3)
    if kw.get("forbidden") == "own":
        kw = dict(forbidden=[[int(hands[0, 1]), 0]])
    args = dict(samples=2, dd_tricks=1, rng=np.random.default_rng(1)) | kw
    with pytest.raises(CardsimError, match=message):
        pinochle3_pimc.pimc_points(hands, 0, 0, **args)


def test_pimc_points_valid_unchanged():
    from simcore.games import pinochle3_pimc

    hands = _ending(3)
    plain = pinochle3_pimc.pimc_points(hands, 0, 0, 2, 1, np.random.default_rng(1))
    assert plain.tolist() == pinochle3_pimc.pimc_points(hands, 0, 0, 2.0, 1.0, np.random.default_rng(1),
                                                        forbidden=[[0, 0]]).tolist()


def test_contract_and_checked_bid_take_options_in_every_form():
    """Before, options="scale=0.1" raised AttributeError ('str' object has no attribute 'items')."""
    from analysis.games import pinochle3_play

    hands = _full_deal()
    assert pinochle3_play.checked_bid(25, "scale=0.1") == pinochle3_play.checked_bid(25, {"scale": 0.1}) == 25
    assert pinochle3_play.contract(30, hands, 0, 0, 100, options=["scale=0.1"]) == \
        pinochle3_play.contract(30, hands, 0, 0, 100, options=[("scale", 0.1)])


@pytest.mark.parametrize("call, message", [
    (lambda opts: api.default_bids(None), r"^opts must be every rule option by name, as pinochle3.rule_options"),
    (lambda opts: api.default_bids({}), r"^opts must be every rule option by name"),  # was KeyError 'min_bid'
    (lambda opts: api.checked_bids((300,), None), r"^opts must be every rule option by name"),
    (lambda opts: api.checked_bids((300,), opts, 0), r"^divisor \(main-game points per reported point\) must be at "
                                                     r"least 1, got 0$"),  # was ZeroDivisionError
])
def test_bid_helpers_refuse_what_is_no_rule_set(call, message):
    from simcore.games import pinochle3 as p

    opts = p.rule_options()
    with pytest.raises(CardsimError, match=message):
        call(opts)
    assert api.checked_bids((300,), opts) == (300,) and api.default_bids(opts)[0] == 250


@pytest.mark.parametrize("text", [None, 300, ["300"]])
def test_parse_bids_refuses_what_is_no_text_with_the_flags_message(text):
    """parse_bids is the --bids type of argparse, so it raises argparse's ArgumentTypeError (one line there);
    before, None or 300 raised TypeError and ['300'] AttributeError."""
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match=r"^--bids must look like 250:400:10 or 250,300,350, got "):
        api.parse_bids(text)


@pytest.mark.parametrize("text, bids", [("250.0,300", (250, 300)), ("1_000", (1000,)), (" 300 ", (300,)),
                                        ("2.5e2:3e2:5e1", range(250, 301, 50)), ("250:400:10", range(250, 401, 10))])
def test_parse_bids_reads_numbers_as_every_whole_number_of_the_command_line(text, bids):
    """--bids reads 300.0 and 1_000 as --bid, --n and --scores do (it refused 250.0 while --bid took 370.0)."""
    assert api.parse_bids(text) == bids


@pytest.mark.parametrize("text", ["250.5", "250,x", "", "1:2", "1:2:3:4", "250,,300"])
def test_parse_bids_refuses_a_fraction_or_a_malformed_range(text):
    import argparse

    with pytest.raises(argparse.ArgumentTypeError, match=r"^--bids must look like 250:400:10 or 250,300,350, got "):
        api.parse_bids(text)
