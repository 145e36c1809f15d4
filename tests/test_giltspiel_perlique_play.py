"""Giltspiel mit 3 Perlique in tricks (giltspiel.md §8 and the readings of simcore/games/giltspiel_perlique.py): the
rules on constructed tricks, and the kernels (legal plays, trick winner, policies, double-dummy solver) against the
plain references of tests/naive_giltspiel_perlique.py."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_giltspiel_perlique as naive
from analysis.cli import main
from analysis.games import giltspiel as analysis
from simcore.games import giltspiel as g
from simcore.games import giltspiel_perlique as gp
from simcore.games import giltspiel_play as play

card = g.DECK.parse_face


def mask(cards) -> np.uint64:
    return np.uint64(sum(1 << c for c in cards))


def kernel_options(hand, trump, led, visible) -> set[tuple[int, int]]:
    """`gp._options` spelled out as (card, identity) plays, every wild of the hand with every allowed identity."""
    wilds = g.PERLIQUE[trump]
    legal, allowed = gp._options(mask(hand), wilds, led, trump, mask(visible))
    naturals = {(c, c) for c in range(32) if (int(legal) >> c) & 1}
    return naturals | {(w, i) for w in hand if (int(wilds) >> w) & 1 for i in range(32) if (int(allowed) >> i) & 1}


def kernel_winner(plays, trump, tie) -> int:
    cards = np.array([c for c, _ in plays], dtype=np.int64)
    ids = np.array([i for _, i in plays], dtype=np.int64)
    return gp._winning_slot(cards, ids, 0, len(plays), trump, g.PERLIQUE[trump], gp.TIES[tie])


HEARTS = g.DECK.suits.index("H")


# --- the rules on constructed tricks ---------------------------------------------------------------
@pytest.mark.parametrize("plays, tie, slot", [
    # hearts trump: a wild (HO) declared as the trump Ace takes the trick from the natural trump King
    ([("L9", "L9"), ("LA", "LA"), ("HO", "HA"), ("HK", "HK")], "wild", 2),
    # a wild leading as LA: a natural LA hidden in another hand falls to it; the tie rule decides
    ([("H7", "LA"), ("LA", "LA"), ("L9", "L9"), ("E8", "E8")], "wild", 0),
    ([("H7", "LA"), ("LA", "LA"), ("L9", "L9"), ("E8", "E8")], "natural", 1),
    # the identity, not the printed card, decides: HU declared as a plain card is no trump
    ([("E9", "E9"), ("HU", "S10"), ("EK", "EK"), ("E7", "E7")], "wild", 2),
    # and its suit is the suit led when it leads
    ([("HU", "S8"), ("SA", "SA"), ("EA", "EA"), ("S9", "S9")], "wild", 1),
])
def test_trick_winner(plays, tie, slot):
    plays = [(card(a), card(b)) for a, b in plays]
    assert kernel_winner(plays, HEARTS, tie) == naive.winner(plays, HEARTS, tie) == slot


@pytest.mark.parametrize("hand, led, visible, naturals, suits", [
    # L led, a natural L held: natural L or trumps; the wild only as a card of L or of trumps
    ("L7 H8 HO SK S9", "L", "H9", {"L7", "H8"}, "LH"),
    # L led, no natural L: any natural card, the wild as anything
    ("H8 HO EA SK S9", "L", "H9", {"H8", "EA", "SK", "S9"}, "ELHS"),
    # trumps led and no natural trump: the wild is never compulsory
    ("HO EA SK S9 E7", "H", "H9", {"EA", "SK", "S9", "E7"}, "ELHS"),
    # trumps led and a natural trump held: a natural trump, or the wild as a trump
    ("HO HA SK S9 E7", "H", "H9", {"HA"}, "H"),
])
def test_legal_plays(hand, led, visible, naturals, suits):
    hand = set(g.DECK.parse_cards(hand))
    visible = set(g.DECK.parse_cards(visible))
    led = g.DECK.suits.index(led)
    expected = kernel_options(hand, HEARTS, led, visible)
    assert expected == naive.options(hand, HEARTS, led, visible)
    assert {c for c, i in expected if c != card("HO")} == set(g.DECK.parse_cards(" ".join(naturals)))
    identities = {i for c, i in expected if c == card("HO")}
    allowed_suits = {g.DECK.suits.index(s) for s in suits}
    assert identities == {i for i in range(32) if i // 8 in allowed_suits} - visible - (hand - {card("HO")})


def test_no_visible_identity():
    """A wild may not copy the turn-up, a card played before or a card of its own hand."""
    hand = {card("HO"), card("EA")}
    identities = {i for c, i in kernel_options(hand, HEARTS, -1, {card("H9"), card("SA")}) if c == card("HO")}
    assert not {card("H9"), card("SA"), card("EA")} & identities and len(identities) == 29


# --- the kernels against the references ---------------------------------------------------------
@st.composite
def endings(draw, most_cards: int = 3):
    """A trick start with k = 1..most_cards cards a hand, most of the trump's wilds in play, and some identities
    already played (visible): (hands, turnup, team, leader, won, visible, tie)."""
    k = draw(st.integers(1, most_cards))
    turnup = draw(st.integers(0, 31))
    trump = turnup // 8
    wilds = [c for c in naive.wild_cards(trump) if c != turnup]
    in_play = draw(st.lists(st.sampled_from(wilds), unique=True, min_size=min(1, len(wilds)), max_size=len(wilds)))
    others = [c for c in range(32) if c not in wilds and c != turnup]
    cards = in_play + draw(st.permutations(others))[:4 * k - len(in_play)]
    cards = draw(st.permutations(cards))
    hands = [set(cards[i * k:(i + 1) * k]) for i in range(4)]
    rest = [c for c in range(32) if c not in cards and c != turnup]
    visible = draw(st.lists(st.sampled_from(rest), unique=True, max_size=min(len(rest), 4 * (5 - k))))
    first = draw(st.integers(max(0, 3 - k), min(2, 5 - k)))  # neither team has 3 tricks yet
    won = (first, 5 - k - first)
    return (hands, turnup, draw(st.integers(0, 1)), draw(st.integers(0, 3)), won, visible,
            draw(st.sampled_from(sorted(gp.TIES))))


@settings(max_examples=150, deadline=None)
@given(endings())
def test_solver_matches_minimax(position):
    """The search (one wild of a hand, one identity per class, the table) against plain minimax over every play."""
    hands, turnup, team, leader, won, visible, tie = position
    hand_masks = np.array([mask(h) for h in hands], dtype=np.uint64)
    assert gp.position_wins(hand_masks, turnup, team, leader, won, (), visible, tie=tie) == naive.spiel_minimax(
        hands, turnup, team, leader, won, visible, tie=tie)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_policies_match_the_reference(data):
    """Both policies at random positions: a hand, the trick so far (some of it wild), identities played before."""
    position = data.draw(endings(most_cards=5))
    hands, turnup, _, leader, _, visible, tie = position
    trump = turnup // 8
    count = data.draw(st.integers(0, 3))
    trick, shown = [], {turnup, *visible}
    for i in range(count):
        hand = hands[(leader + i) % 4]
        led = trick[0][1] // 8 if trick else -1
        play_ = data.draw(st.sampled_from(sorted(naive.options(hand, trump, led, shown))))
        hand.discard(play_[0])
        trick.append(play_)
        shown.add(play_[1])
    hand = hands[(leader + count) % 4]
    u = data.draw(st.floats(0, 1, exclude_max=True))
    cards = np.array([c for c, _ in trick] + [0] * (4 - count), dtype=np.int64)
    ids = np.array([i for _, i in trick] + [0] * (4 - count), dtype=np.int64)
    for policy in ("random", "greedy"):
        made = gp._choose(gp.POLICIES[policy], mask(hand), cards, ids, 0, count, trump, g.PERLIQUE[trump],
                          gp.TIES[tie], mask(shown), u)
        assert divmod(made, 32) == naive.choose(policy, hand, trick, trump, shown, u, tie), policy


def test_without_wilds_in_play_the_base_solver():
    """Deals whose three wilds lie in the stock or the turn-up play as the base game: the Perlique solver agrees with
    `giltspiel_play`'s on 400 such deals."""
    rng = np.random.default_rng(5)
    hands, turnups = [], []
    while len(hands) < 400:
        order = rng.permutation(32)
        trump = int(order[20]) // 8
        if any((int(g.PERLIQUE[trump]) >> int(c)) & 1 for c in order[:20]):
            continue
        hands.append([mask(order[5 * s:5 * s + 5]) for s in range(4)])
        turnups.append(int(order[20]))
    hands, turnups = np.array(hands, dtype=np.uint64), np.array(turnups)
    expected = play.trusted_spiel_teams(hands, turnups // 8)
    assert np.array_equal(gp.trusted_spiel_teams(hands, turnups // 8, turnups), expected)
    for tie in gp.TIES.values():
        assert np.array_equal(gp.trusted_spiel_teams(hands, turnups // 8, turnups, tie), expected)


@pytest.mark.slow
def test_full_deals_against_minimax(scale):
    """Whole deals, five cards a hand, with two or three wilds in play: the solver against minimax (5-15 seconds a
    deal and team for minimax; one deal, CARDSIM_TEST_SCALE more)."""
    rng = np.random.default_rng(8)
    checked = 0
    while checked < max(1, round(scale)):
        order = rng.permutation(32)
        trump = int(order[20]) // 8
        if sum((int(g.PERLIQUE[trump]) >> int(c)) & 1 for c in order[:20]) < 2:
            continue
        hands = [set(int(c) for c in order[5 * s:5 * s + 5]) for s in range(4)]
        masks = np.array([mask(h) for h in hands], dtype=np.uint64)
        for team in (0, 1):
            assert gp.position_wins(masks, int(order[20]), team) == naive.spiel_minimax(hands, int(order[20]), team)
        checked += 1


# --- the odds command ------------------------------------------------------------------------------
def test_odds_play_the_perlique(capsys):
    """`odds --spiel` with the Perlique: the Spiel row, the rule line, the tie rule in the JSON and in the job."""
    hand, turnup = "EK LK EO HO SO", "H8"
    assert main(["odds", "giltspiel", "--hand", hand, "--turnup", turnup, "--n", "1000", "--seed", "2", "--spiel",
                 "dd", "--option", "perlique=true", "--option", "perlique_tie=natural", "--no-progress",
                 "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["perlique"] is True and out["perlique_tie"] == "natural" and out["n"] == 1000
    spiel = out["estimates"]["spiel.win"]
    assert spiel["lo"] < spiel["p"] < spiel["hi"] and 0 < spiel["p"] < 1
    frames = {policy: analysis.odds(hand, turnup=turnup, n=1000, seed=2, spiel=policy, perlique=True)
              for policy in ("dd", "greedy")}
    wins = {policy: frame.set_index(["figure", "outcome"]).loc[("spiel", "win"), "p"]
            for policy, frame in frames.items()}
    assert wins["dd"] != wins["greedy"]
    assert "a wild and the natural card it copies" in analysis.format_odds(frames["dd"])
    keys = {gp.PerliqueSpielJob(g.Known(), 1, "dd", (), tie).key() for tie in gp.TIES}
    assert len(keys | {play.SpielJob(g.Known(), 1, "dd").key()}) == 3


def test_the_perlique_change_the_spiel():
    """On the same deals, the wild cards in play change the double-dummy Spiel of some deals and not of others: the
    Perlique solver differs from the base solver on deals with wilds in the hands."""
    rng = np.random.default_rng(3)
    orders = np.array([rng.permutation(32) for _ in range(300)])
    hands = np.array([[mask(o[5 * s:5 * s + 5]) for s in range(4)] for o in orders], dtype=np.uint64)
    turnups = orders[:, 20].astype(np.int64)
    base = play.trusted_spiel_teams(hands, turnups // 8)
    wild = gp.trusted_spiel_teams(hands, turnups // 8, turnups)
    assert 0 < (base != wild).sum() < 150


# --- the solve command ---------------------------------------------------------------------------
DEAL = "E9 L7 S8 S9 SO / E10 L8 L10 HU HK / E7 EA H10 SU SK / E8 EU LU LK H7"


@pytest.mark.parametrize("tie", sorted(gp.TIES))
def test_solve_plays_a_legal_line(tie):
    """`solve` with the Perlique: its line replayed under the plain rules (every play legal, the tricks' winners as
    printed, the Spiel to the team it names), and the forcible tricks agreeing with the Spiel."""
    from analysis.games import giltspiel_play as solving

    result = solving.solve(DEAL, turnup="H8", perlique=True, perlique_tie=tie)
    hands = [set(g.DECK.parse_cards(h)) for h in DEAL.split("/")]
    trump, shown, trick, winners, won = HEARTS, {card("H8")}, [], [], [0, 0]
    for seat, token in result["line"]:
        printed, _, declared = token.partition("=")
        play_ = (card(printed), card(declared or printed))
        led = trick[0][1] // 8 if trick else -1
        assert play_ in naive.options(hands[seat], trump, led, shown | {i for _, i in trick}), token
        hands[seat].discard(play_[0])
        trick.append(play_)
        if len(trick) == 4:
            leader = (seat + 1) % 4
            winners.append((leader + naive.winner(trick, trump, tie)) % 4)
            won[winners[-1] % 2] += 1
            shown |= {i for _, i in trick}
            trick = []
    assert winners == result["winners"] and won[result["spiel_team"]] == 3 and not trick
    assert (result["tricks"][result["spiel_team"]] >= 3) and sum(result["tricks"]) == 5
    assert result["turnup"] == card("H8") and result["perlique_tie"] == tie


def test_solve_command(capsys):
    assert main(["solve", "giltspiel", "--deal", DEAL, "--turnup", "H8", "--option", "perlique=true", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["perlique"] is True and out["turnup"] == "H8" and out["trump"] == "H"
    assert any("=" in token for _, token in out["line"])
    assert main(["solve", "giltspiel", "--deal", DEAL, "--turnup", "H8"]) == 0  # the base game, trump from the turn-up
    assert "turn-up H8" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--trump", "H", "--option", "perlique=true"], "need the turn-up"),
    (["--turnup", "H8", "--trump", "E"], "disagree"),
    (["--turnup", "HU"], "is in a hand of --deal"),
    ([], "give the trump"),
    (["--turnup", "H8 H9"], "must be one card"),
    (["--turnup", "H8", "--option", "perlique_tie=natural"], "give it with --option perlique=true"),
])
def test_solve_refuses(capsys, argv, message):
    assert main(["solve", "giltspiel", "--deal", DEAL, *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_python_api_refuses_bad_deals():
    from simcore.errors import CardsimError

    hands = np.array([mask(g.DECK.parse_cards(h)) for h in DEAL.split("/")], dtype=np.uint64)
    with pytest.raises(CardsimError, match="turn-up"):
        gp.position_wins(hands, card("HU"), 1)
    with pytest.raises(CardsimError, match="turn-up"):
        gp.spiel_teams(hands[None, :], [card("SO")])
    with pytest.raises(CardsimError, match="perlique_tie"):
        gp.spiel_teams(hands[None, :], [card("H8")], tie="first")
    assert gp.spiel_teams(hands[None, :], [card("H8")])[0] == 1


@pytest.mark.parametrize("tie", sorted(gp.TIES))
def test_a_copied_natural_stays_in_play(tie):
    """Seat 2 leads with two wilds, leaves trump: the first, declared as the Ace that seat 3 holds, takes the trick
    (or, under "natural", loses it to the Ace), but seat 3 keeps the Ace by following with LT and takes the next trump
    lead with it, then its EA. Team 0 (tricks 1:1) cannot take two of the last three; an early cut once counted the
    second wild as sure too."""
    hands = [set(g.DECK.parse_cards(h)) for h in ("H9 H10 S7", "HK SK H8", "L7 LU E7", "LA L10 EA")]
    turnup = card("L9")
    masks = np.array([mask(h) for h in hands], dtype=np.uint64)
    expected = naive.spiel_minimax(hands, turnup, 0, leader=2, won=(1, 1), tie=tie)
    assert expected is False
    assert gp.position_wins(masks, turnup, 0, leader=2, won=(1, 1), tie=tie) is expected


@pytest.mark.parametrize("trick, message", [
    ([(card("L7"), card("L7"))], "be in no hand"),
    ([(card("S8"), card("SA"))], "stands for itself"),
    ([(card("H7"), card("H8"))], "a visible card"),
    ([(card("H7"), card("SA")), (card("HU"), card("SA"))], "a visible card"),
    ([(card("S8"), card("S8")), (card("S8"), card("S8"))], "played once each"),
])
def test_position_wins_checks_the_trick(trick, message):
    """Review: the plays of a trick given to `position_wins` must fit the rules, or it refuses them."""
    from simcore.errors import CardsimError

    held = [g.DECK.parse_cards(h) for h in ("E9 L7 SO", "E10 L8 L10", "E7 EA H10", "E8 EU LU")]
    hands = np.array([mask(h[1:] if seat < len(trick) else h) for seat, h in enumerate(held)], dtype=np.uint64)
    with pytest.raises(CardsimError, match=message):
        gp.position_wins(hands, card("H8"), 0, leader=0, won=(1, 1), trick=trick)


def test_solve_refuses_a_tie_rule_without_the_perlique():
    from analysis.games import giltspiel_play as solving
    from simcore.errors import CardsimError

    for tie, match in (("natural", "give it with --option perlique=true"), ("bogus", "perlique_tie")):
        with pytest.raises(CardsimError, match=match):
            solving.solve(DEAL, "H", perlique_tie=tie)
