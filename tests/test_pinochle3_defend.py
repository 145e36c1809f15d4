"""``cardsim odds pinochle3 --defend``: a defender's odds of saving his meld (spec §9.1 Q5, R6.1-R6.3).

The model (simcore.games.pinochle3_defend): the unseen cards are dealt at random, the bidder's 18 cards hold
the shown meld cards, he buries 3 by the best discard under the trump named and keeps exactly the shown meld.
"""

import itertools
import random
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import command_parser, main
from analysis.commands import LONG_COLUMNS, commands
from analysis.games import pinochle3 as api
from simcore.errors import CardsimError
from simcore.games import pinochle3_defend as d
from simcore.games.pinochle3 import DECK, HAND_SIZE, meld_breakdown
from simcore.games.pinochle3_play import COUNTERS
from simcore.rng import block_stream

ROPE = "HA H10 HK HQ HJ"
DOUBLE_ROPE = "HA HA H10 H10 HK HK HQ HQ HJ HJ"
# no heart but the nine, counters only in spades and diamonds: a middling defender
WEAK = "S9 SJ SQ SK S10 H9 D9 DJ DQ DK D10 C9 C9 CJ CQ"
# both aces of every suit: a trick in each plain suit is his
ACES = "SA SA DA DA CA CA HA HA S9 D9 C9 SJ DJ CJ C10"
# no counter at all and no trump: queens, jacks and nines only
NOTHING = "S9 S9 SJ SJ SQ D9 D9 DJ DJ DQ C9 C9 CJ CJ CQ"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cards(text: str) -> list[int]:
    return DECK.parse_cards(text) if text else []


# --- a plain-Python reference of the dealing constraint ------------------------------------------------------------
def plain_meld(hand: list[int], trump: int) -> int:
    """Meld by the reference breakdown (spec §3), card by card."""
    return sum(m.points for m in meld_breakdown(hand, trump))


def plain_faces(hand) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in hand:
        out[DECK.token(c)] = out.get(DECK.token(c), 0) + 1
    return out


def check_deal(s: d.DefendSetup, kept: int, buried: int, partner: int) -> None:
    """Every card once: yours 15, the bidder's 15 kept and 3 buried, the partner's 15 (48 in all); the kitty with the
    bidder; his kept cards hold the shown cards and meld exactly what they meld."""
    mine, kept_c, buried_c, partner_c = (DECK.cards_of(m) for m in (DECK.mask(s.mine), kept, buried, partner))
    assert (len(mine), len(kept_c), len(buried_c), len(partner_c)) == (15, 15, 3, 15)
    assert sorted(mine + kept_c + buried_c + partner_c) == list(range(48))
    assert set(s.kitty or ()) <= set(kept_c + buried_c)
    shown, held = plain_faces(d._faces_cards(s.shown)), plain_faces(kept_c)
    assert all(held.get(face, 0) >= k for face, k in shown.items())
    assert plain_meld(kept_c, s.trump) == s.shown_meld == plain_meld(d._faces_cards(s.shown), s.trump)


def test_the_shown_cards_land_with_the_bidder():
    s = d.setup(cards(WEAK), 2, 1, 300, cards(ROPE))
    deals = d.sample_deals(s, block_stream(5, 0), 40)
    assert deals["passed"] >= 40 and deals["proposals"] >= deals["drawn"] > deals["passed"]
    for kept, buried, partner in zip(deals["kept"], deals["buried"], deals["partner"]):
        check_deal(s, int(kept), int(buried), int(partner))


def test_a_known_kitty_is_the_bidders_and_may_be_melded():
    kitty = cards("HA S9 CK")  # the bidder melds the kitty's HA in his rope
    s = d.setup(cards(WEAK.replace("S9", "SA")), 1, 1, 250, cards(ROPE), cards("HA S9 CK"))
    assert s.kitty == tuple(sorted(kitty)) and len(s.pool) - s.draw == HAND_SIZE
    deals = d.sample_deals(s, block_stream(1, 0), 16)
    for kept, buried, partner in zip(deals["kept"], deals["buried"], deals["partner"]):
        check_deal(s, int(kept), int(buried), int(partner))


def test_a_face_of_two_unseen_copies_is_drawn_as_in_a_uniform_deal():
    """The bidder shows one HA, both unseen: P(he holds both | at least one) is exact below, by counting, and
    by plain-Python rejection of uniform deals; the sampler's proposals agree."""
    mine = cards(WEAK)
    s = d.setup(mine, 1, 0, 250, cards("HA SA DA CA"))  # aces around, spades trump
    ha = [c for c in range(48) if DECK.token(c) == "HA"]
    unseen, held = 33, 18
    ways = {copies: comb(unseen - 8, held - sum(copies)) * 2 ** copies.count(1)  # both copies of each ace unseen
            for copies in itertools.product((1, 2), repeat=4)}  # HA's copies first
    exact = sum(w for copies, w in ways.items() if copies[0] == 2) / sum(ways.values())
    rng = random.Random(3)
    rest = [c for c in range(48) if c not in mine]
    both = hits = 0
    while hits < 4000:  # plain reference: uniform deals, kept when the bidder holds an ace of every suit
        rng.shuffle(rest)
        faces = plain_faces(rest[:held])
        if all(faces.get(a, 0) for a in ("HA", "SA", "DA", "CA")):
            hits += 1
            both += faces["HA"] == 2
    bidder, _ = d.propose(s, np.random.default_rng(4), 40_000)
    sampled = np.mean([(int(b) >> ha[0] & 1) + (int(b) >> ha[1] & 1) == 2 for b in bidder])
    assert abs(both / hits - exact) < 4.5 * (exact * (1 - exact) / hits) ** 0.5
    assert abs(sampled - exact) < 4.5 * (exact * (1 - exact) / len(bidder)) ** 0.5


def test_the_kept_share_is_of_uniform_deals_holding_the_shown_cards():
    """passed / drawn (the "deals kept" line) is the share of uniform deals with the shown cards in the bidder's 18
    that fit his shown meld: plain-Python rejection of uniform deals, judged by the same `accept`, agrees (with
    aces around shown, proposals / drawn is about 3: the thinning must not count against the share)."""
    mine = cards(WEAK)
    s = d.setup(mine, 1, 0, 250, cards("HA SA DA CA"))
    rng = random.Random(8)
    rest = [c for c in range(48) if c not in mine]
    bidders, partners = [], []
    while len(bidders) < 8000:
        rng.shuffle(rest)
        faces = plain_faces(rest[:18])
        if all(faces.get(a, 0) for a in ("HA", "SA", "DA", "CA")):
            bidders.append(DECK.mask(rest[:18]))
            partners.append(DECK.mask(rest[18:]))
    ok = d.accept(s, np.array(bidders, dtype=np.uint64), np.array(partners, dtype=np.uint64))["ok"]
    deals = d.sample_deals(s, block_stream(2, 0), 3000)
    share, reference = deals["passed"] / deals["drawn"], ok.mean()
    assert deals["proposals"] > 2 * deals["drawn"]
    se = (reference * (1 - reference) * (1 / len(ok) + 1 / deals["drawn"])) ** 0.5
    assert 0.01 < reference < 0.1 and abs(share - reference) < 4.5 * se


@st.composite
def views(draw):
    """A random defender's view: your 15 cards, a trump, and as the bidder's shown meld the meld cards of a random
    holding of the other cards (what some bidder could show), at most 8 of them."""
    order = draw(st.permutations(range(48)))
    trump = draw(st.integers(0, 3))
    mine, other = list(order[:15]), list(order[15:33])
    melds = meld_breakdown(other, trump)
    chosen = draw(st.lists(st.sampled_from(melds), max_size=2, unique=True)) if melds else []
    shown = sorted({c for m in chosen for c in m.cards})
    seat = draw(st.sampled_from((1, 2)))
    return mine, seat, trump, shown


@settings(max_examples=30, deadline=None)
@given(views(), st.integers(0, 2 ** 32 - 1))
def test_proposals_deal_every_card_once_and_hold_the_shown_cards(view, seed):
    mine, seat, trump, shown = view
    try:
        s = d.setup(mine, seat, trump, 250, shown)
    except CardsimError as error:  # shown cards whose meld is not all theirs (one of two melds sharing cards)
        assert "part of no meld" in str(error)
        return
    bidder, partner = d.propose(s, np.random.default_rng(seed), 64)
    mask = DECK.mask(mine)
    for b, p in zip(bidder.tolist(), partner.tolist()):
        assert bin(b).count("1") == 18 and bin(p).count("1") == 15 and b & p == 0 and (b | p) & mask == 0
        assert (b | p | mask) == (1 << 48) - 1
        faces = plain_faces(DECK.cards_of(b))
        assert all(faces.get(DECK.token(c), 0) >= plain_faces(shown)[DECK.token(c)] for c in shown)


@settings(max_examples=4, deadline=None)
@given(views(), st.integers(0, 2 ** 32 - 1))
def test_kept_deals_are_consistent_with_the_view(view, seed):
    mine, seat, trump, shown = view
    try:
        s = d.setup(mine, seat, trump, 250, shown)
        deals = d.sample_deals(s, np.random.default_rng(seed), 4)
    except CardsimError as error:
        assert "part of no meld" in str(error) or "too rare" in str(error)
        return
    for kept, buried, partner in zip(deals["kept"], deals["buried"], deals["partner"]):
        check_deal(s, int(kept), int(buried), int(partner))
    o = d.play(s, deals)
    assert ((o["me"] + o["partner"] + o["bidder"]) == 250).all()  # R1.5, buried counters the bidder's


# --- the command ------------------------------------------------------------------------------------------------------
BASE = ("odds", "pinochle3", "--defend", "right", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld",
        ROPE, "--no-progress")


@pytest.mark.parametrize("argv,message", [
    (["--defend", "left", "--hand", ACES, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE],
     "HA: you hold 2, the bidder shows 1, but the pack has 2"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", "HA H10 HK HQ HJ SA"],
     "--bidder-meld shows SA, part of no meld under trump H"),
    (["--defend", "left", "--hand", WEAK, "--trump", "S", "--bid", "300", "--bidder-meld", ROPE],
     "--bidder-meld shows HJ H10 HA, part of no meld under trump S"),
    (["--defend", "left", "--hand", WEAK.replace("S9", "HA"), "--trump", "H", "--bid", "300", "--bidder-meld",
      DOUBLE_ROPE], "HA: you hold 1, the bidder shows 2, but the pack has 2"),
    (["--defend", "left", "--hand", WEAK.replace("S9", "HA"), "--trump", "H", "--bid", "300", "--bidder-meld",
      DOUBLE_ROPE, "--kitty", "HA S9 S9"], "HA: you hold 1, the bidder shows 2, the kitty 1"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--kitty",
      "HA HA HA"], "HA is given 3 times"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300"], "--defend needs --bidder-meld"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ""],
     "--bidder-meld must be the shown meld cards as one text such as 'SQ DJ', or 'none', got ''"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--rule", ""],
     "unknown play rule '' (--rule, option play_rule)"),
    (["--defend", "left", "--hand", WEAK, "--bid", "300", "--bidder-meld", ROPE], "--defend needs --trump"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "305", "--bidder-meld", ROPE],
     "bid 305 is not a multiple of 10"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "3.5", "--bidder-meld", ROPE],
     "bids are whole numbers"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--bids", "300"],
     "--defend plays greedily at one bid, so --bids does not apply"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--dd-tricks", "4"],
     "--dd-tricks does not apply"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--option",
      "nines_rule=6_any"], "option nines_rule=6_any is not modelled by 'cardsim odds pinochle3 --defend'"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--rule", "new1945"],
     "play rule new1945 changes nothing in the defender's view"),
    (["--defend", "middle", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", ROPE], "invalid choice"),
    (["--hand", WEAK, "--bid", "300"], "--bid applies only with --defend"),
    (["--hand", WEAK, "--bidder-meld", ROPE], "--bidder-meld applies only with --defend"),
    (["--defend", "left", "--hand", WEAK, "--trump", "H", "--bid", "300", "--bidder-meld", "H9", "--kitty",
      "HK HQ CA"], "too rare to simulate"),  # he would always keep the kitty's royal marriage too
])
def test_bad_input_is_one_line_exit_2(capsys, argv, message):
    code, out, err = run_cli(capsys, "odds", "pinochle3", *argv, "--n", "16", "--seed", "1", "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_same_numbers_whatever_jobs_and_chunks(capsys):
    outs = [run_cli(capsys, *BASE, "--n", "300", "--seed", "9", "--json", *extra)[1]
            for extra in ([], ["--jobs", "2", "--chunk-size", "1"])]  # one block (256 deals) per chunk
    assert outs[0] == outs[1] and '"n": 300' in outs[0]


def test_text_output_and_sweep_frame(capsys):
    code, out, _ = run_cli(capsys, *BASE, "--n", "64", "--seed", "2")
    assert code == 0 and "on the bidder's right (you play third" in out
    assert "the bidder shows HJ HQ HK H10 HA (meld 150); your meld" in out and "you take >= 1 counter" in out
    args = command_parser("odds", "pinochle3", commands()["odds"]["pinochle3"]).parse_args(
        list(BASE[2:]) + ["--n", "64", "--seed", "2"])
    long = api._odds_frame(args)
    frame = long.set_index("estimate")
    tables = api.defend(WEAK, "right", "H", 300, ROPE, n=64, seed=2, checkpoint=False, progress=False)
    assert list(long.columns) == LONG_COLUMNS
    assert frame.loc["defend.you_counter", "value"] == tables["p"].set_index("what").loc["you_counter", "p"]
    assert "defend.defenders.at_least.100" in frame.index and "defend.mean.your_score" in frame.index


def test_json_adds_up():
    t = api.defend(WEAK, "left", "H", 300, ROPE, n=200, seed=4, checkpoint=False, progress=False)
    j = api.defend_json(t)
    p, m = j["p"], j["means"]
    assert j["shown_meld"] == 150 and j["n"] == 200 and 0 < j["acceptance"]["p"] < 1
    assert p["you_counter"]["p"] <= p["either_counter"]["p"] and p["partner_counter"]["p"] <= p["either_counter"]["p"]
    assert p["meld_scores"] == p["you_counter"]  # default flags: the meld scores exactly with a counter (R6.3, A3)
    assert m["your_points"]["mean"] <= m["defenders_points"]["mean"] <= 250
    assert m["your_score"]["mean"] == pytest.approx(m["your_points"]["mean"] + j["my_meld"] * p["meld_scores"]["p"])
    # without the counter rule the meld always scores
    free = api.defend_json(api.defend(WEAK, "left", "H", 300, ROPE, n=200, seed=4, checkpoint=False, progress=False,
                                      options={"defender_needs_counter": False}))
    assert free["p"]["meld_scores"]["p"] == 1.0 and free["p"]["you_counter"] == p["you_counter"]


def test_scale_divides_points_and_the_bid():
    t = api.defend_json(api.defend(WEAK, "left", "H", 30, ROPE, n=64, seed=4, checkpoint=False, progress=False,
                                   options={"scale": 0.1}))
    full = api.defend_json(api.defend(WEAK, "left", "H", 300, ROPE, n=64, seed=4, checkpoint=False, progress=False))
    assert t["shown_meld"] == 15 and t["bid"] == 30 and t["p"] == full["p"]
    assert t["means"]["your_points"]["mean"] == pytest.approx(full["means"]["your_points"]["mean"] / 10)


# --- sanity ------------------------------------------------------------------------------------------------------
def test_eight_aces_save_the_meld_almost_always_and_nothing_often_not():
    """Both aces of every suit: an ace wins a trick with another counter nearly always (R6.3). No counter and no
    trump: the meld is saved only when the partner lets a trick with a counter through, much less often."""
    aces = api.defend(ACES, "left", "S", 300, "SK SQ S9 DJ", n=300, seed=1, checkpoint=False,
                      progress=False)["p"].set_index("what")
    nothing = api.defend(NOTHING, "left", "H", 300, ROPE, n=300, seed=1, checkpoint=False,
                         progress=False)["p"].set_index("what")
    assert aces.loc["you_counter", "p"] > 0.97
    assert nothing.loc["you_counter", "hi"] < aces.loc["you_counter", "lo"]
    assert nothing.loc["you_counter", "p"] < 0.9


def test_counters_mask_matches_the_spec():
    """A, 10, K are the counters (R1.3): 24 of them, the mask `play` counts by."""
    assert bin(int(COUNTERS)).count("1") == 24


# --- the partner's shown meld (R3.9f) ---------------------------------------------------------------------------------
def test_a_face_the_partner_shows_once_is_drawn_as_in_a_uniform_deal():
    """The partner shows aces around, the bidder nothing, every ace unseen: P(the partner holds both HA | an ace of
    every suit) of the proposals is exact by counting, as for the bidder above."""
    s = d.setup(cards(WEAK), 1, 0, 250, [], None, None, cards("HA SA DA CA"))
    ha = [c for c in range(48) if DECK.token(c) == "HA"]
    ways = {copies: comb(33 - 8, 15 - sum(copies)) * 2 ** copies.count(1)
            for copies in itertools.product((1, 2), repeat=4)}
    exact = sum(w for copies, w in ways.items() if copies[0] == 2) / sum(ways.values())
    _, partner = d.propose(s, np.random.default_rng(6), 40_000)
    held = [(int(p) >> ha[0] & 1) + (int(p) >> ha[1] & 1) for p in partner]
    assert min(held) == 1
    sampled = np.mean([h == 2 for h in held])
    assert abs(sampled - exact) < 4.5 * (exact * (1 - exact) / len(partner)) ** 0.5


@settings(max_examples=20, deadline=None)
@given(views(), st.integers(0, 2 ** 32 - 1), st.integers(0, 2))
def test_proposals_hold_both_shown_melds(view, seed, partner_melds):
    """The partner's shown cards are meld cards of a random holding of the cards left: every card is dealt once, the
    bidder's 18 hold his shown cards and the partner's 15 his."""
    mine, seat, trump, shown = view
    rest = [c for c in range(48) if c not in mine and c not in shown][:15]
    partner_shown = sorted({c for m in meld_breakdown(rest, trump)[:partner_melds] for c in m.cards})
    try:
        s = d.setup(mine, seat, trump, 250, shown, None, None, partner_shown)
    except CardsimError as error:
        assert "part of no meld" in str(error)
        return
    bidder, partner = d.propose(s, np.random.default_rng(seed), 64)
    for b, p in zip(bidder.tolist(), partner.tolist()):
        assert b & p == 0 and (b | p | DECK.mask(mine)) == (1 << 48) - 1 and bin(p).count("1") == 15
        for hand, cards_shown in ((b, shown), (p, partner_shown)):
            faces = plain_faces(DECK.cards_of(hand))
            assert all(faces.get(face, 0) >= k for face, k in plain_faces(cards_shown).items())


def test_kept_deals_give_the_partner_exactly_his_shown_meld():
    partner_shown = cards("SQ H9 HQ HK DJ CQ CK")  # pinochle, royal marriage, deece, marriage: 110
    s = d.setup(cards("SK S10 SQ SJ S9 DK DQ DJ D9 CQ CJ C9 C9 H9 HJ"), 1, 1, 300, cards(ROPE), None, None,
                partner_shown)
    deals = d.sample_deals(s, block_stream(2, 0), 12)
    assert s.partner_meld == 110 and deals["passed"] >= 12
    for kept, buried, partner in zip(deals["kept"], deals["buried"], deals["partner"]):
        check_deal(s, int(kept), int(buried), int(partner))
        assert plain_meld(DECK.cards_of(int(partner)), s.trump) == 110


def test_the_partners_meld_is_an_input_of_the_command(capsys):
    argv = ["odds", "pinochle3", "--defend", "left", "--hand", "SK S10 SQ SJ S9 DK DQ DJ D9 CQ CJ C9 C9 H9 HJ",
            "--trump", "H", "--bid", "300", "--bidder-meld", ROPE, "--n", "64", "--seed", "1", "--no-progress"]
    code, out, _ = run_cli(capsys, *argv, "--partner-meld", "SQ H9 HQ HK DJ CQ CK", "--json")
    got = __import__("json").loads(out)
    assert code == 0 and got["partner_meld"] == "SQ H9 HQ HK DJ CQ CK" and got["partner_shown_meld"] == 110
    assert set(got["p"]) >= {"partner_meld_scores", "partner_counter"}
    code, out, _ = run_cli(capsys, *argv, "--partner-meld", "SQ H9 HQ HK DJ CQ CK")
    assert "your partner shows SQ H9 HQ HK DJ CQ CK (meld 110)" in out and "your partner's meld 110 scores" in out
    code, out, _ = run_cli(capsys, *argv)
    assert "partner's meld" not in out and "partner shows" not in out


@pytest.mark.parametrize("hand,partner,message", [
    (WEAK, "SA HA DA CA H10", "--partner-meld shows H10, part of no meld under trump H"),
    (WEAK, "SA SA HA HA DA DA CA CA", "HA: you hold 0, the bidder shows 1, your partner shows 2, but the pack has 2"),
    (WEAK.replace("S9", "SA").replace("SJ", "SA"), "SA HA DA CA",
     "SA: you hold 2, the bidder shows 0, your partner shows 1"),
])
def test_bad_partner_meld_is_one_line_exit_2(capsys, hand, partner, message):
    code, out, err = run_cli(capsys, "odds", "pinochle3", "--defend", "left", "--hand", hand, "--trump", "H", "--bid",
                             "300", "--bidder-meld", ROPE, "--partner-meld", partner, "--n", "16", "--seed", "1",
                             "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err, err


def test_partner_meld_needs_defend(capsys):
    code, out, err = run_cli(capsys, "odds", "pinochle3", "--hand", WEAK, "--partner-meld", "H9")
    assert code == 2 and "--partner-meld applies only with --defend" in err


def test_trick_point_distributions_are_the_tails_and_the_json():
    """Spec Q5's distribution of P_d: P(points = x) for you and the defenders, whose sums from x up are the
    printed P(>= x) rows and whose mean is the printed mean; JSON "points"; the text prints every cell."""
    tables = api.defend(WEAK, "left", "H", 300, ROPE, n=300, seed=5, checkpoint=False, progress=False)
    points = tables["points"]
    for who, mean_row in (("you", "your_points"), ("defenders", "defenders_points")):
        rows = points[points.who == who]
        assert rows.successes.sum() == 300 and (rows.points % 10 == 0).all()
        for r in tables["at_least"][tables["at_least"].who == who].itertuples():
            assert rows[rows.points >= r.points].successes.sum() / 300 == pytest.approx(r.p)
        mean = tables["means"].set_index("what").loc[mean_row, "mean"]
        assert (rows.points * rows.successes).sum() / 300 == pytest.approx(mean)
    assert api.defend_json(tables)["points"][0]["who"] == "you"
    text = api.format_defend(tables)
    assert "your trick points, P(= x):" in text and text.count("[") >= len(points)
