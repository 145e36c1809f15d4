"""Perlaggen trick play: spec §12.1 examples, kernels, policies and the double-dummy solver against the
plain references in naive_perlaggen_play.py, the Spiel job and the ``solve`` / ``odds --spiel`` commands."""

import json
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from analysis.games.perlaggen import parse_known
from analysis.games.perlaggen_play import spiel_odds
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.games.perlaggen import DECK

import naive_perlaggen_play as naive

E, L, H, S = range(4)
STYLES = ("innsbruck", "eichel")


def c(token):
    return DECK.parse_face(token)


def plays(text):
    """'L10 LU->LA' -> [(card, identity), ...]."""
    out = []
    for token in text.split():
        card, _, identity = token.partition("->")
        out.append((c(card), c(identity or card)))
    return out


def mask(tokens):
    return DECK.mask([c(t) for t in tokens.split()])


def masks(hands):
    return np.array([sum(1 << x for x in h) for h in hands], dtype=np.uint64)


def random_position(rng, size, style):
    """Four hands of ``size`` cards, a trump the style allows, a leader and trick counts."""
    pack = rng.sample(range(33), 4 * size)
    hands = [set(pack[i * size:(i + 1) * size]) for i in range(4)]
    trump = rng.choice([E, L, H, S] if style == "innsbruck" else [L, H, S])
    done = 5 - size
    won0 = rng.randint(max(0, done - 2), min(2, done))
    return hands, trump, rng.randrange(4), (won0, done - won0)


def random_trick(rng, hands, trump, perl, leader, played):
    """Play ``played`` random legal plays from ``leader`` on (hands modified)."""
    trick = []
    for i in range(played):
        seat = (leader + i) % 4
        card, identity = rng.choice(sorted(naive.legal_plays(hands[seat], trick, trump, perl)))
        hands[seat].remove(card)
        trick.append((card, identity))
    return trick


# --- spec §12.1 -------------------------------------------------------------------------------
@pytest.mark.parametrize("trick, winner", [
    ("L10 LA LU->LA S7->LA", 3),  # T-01: the best "trump Ace" wins
    ("L10 LA LU->LA L8", 2),      # T-01b: a Perlagg as the trump Ace beats the real one
    ("L10 HK->LO LK E7->HK", 2),  # T-02: the natural trump King is the highest trump
    ("L10 HK->LO LK E7->LK", 3),  # T-02b: a Perlagg beats the natural card of its identity
    ("L10 HK->LO LK E7->LA", 3),  # T-02c
])
def test_t01_t02_trick_winner(trick, winner):
    assert play.trick_winner_of(plays(trick), 0, L) == winner
    assert naive.trick_winner(plays(trick), 0, L, naive.perlaggen("innsbruck", L)) == winner


def test_t02_precondition_d_may_baptise_e7_as_a_heart():
    trick = plays("L10 HK->LO LK")
    legal = play.legal_plays(mask("E7 E9 S9 H9 SK"), trick, L)
    assert (c("E7"), c("HK")) in legal and (c("E7"), c("LK")) in legal


def test_t03_trump_led_forces_a_trump_identity():
    legal = play.legal_plays(mask("SK E7 HA L9 E10"), plays("SA"), S)
    bells = {b for b in range(33) if naive.suit(b) == S}
    assert legal == {(c("SK"), c("SK"))} | {(c("E7"), b) for b in bells}
    assert len(bells) == 9  # SA SK SO SU S10 S9 S8 S7 S6


@pytest.mark.parametrize("hand, led, naturals, perlagg_suits", [
    ("L8 H10 E9 SA S6", "L9", "L8 H10", {L, H}),      # follow or trump; the Weli as any L or H card
    ("H10 E9 EA SK S8", "L9", "H10 E9 EA SK S8", None),  # void: anything, no duty to trump
    ("H10 E9 HO SA S8", "H9", "H10", {H}),             # trump led: natural trump, HO as any heart
    ("HO E9 EA SK S8", "H9", "E9 EA SK S8", {E, L, H, S}),  # HO is no natural heart
])
def test_t04_follow_or_trump(hand, led, naturals, perlagg_suits):
    legal = play.legal_plays(mask(hand), plays(led), H)
    nat = {(x, x) for x in DECK.parse_cards(naturals)}
    perl = naive.perlaggen("innsbruck", H)
    wild = {(x, b) for x in DECK.parse_cards(hand) if x in perl for b in range(33)
            if perlagg_suits and naive.suit(b) in perlagg_suits}
    assert legal == nat | wild


def test_t05_spiel_decided_only_after_the_fourth_card():
    """Tricks 2-2 (N-S = team 0 need one more): seats 0-2 have played to trick 5 and South's
    (seat 2) LA holds it, but West (seat 3) is still to play: the Spiel is not N-S's yet."""
    trick = plays("L8 L9 LA")
    hands = np.zeros(4, dtype=np.uint64)
    hands[3] = mask("S7")  # West's Perlagg can still take the trick as the trump Ace
    assert not play.position_wins(hands, L, 0, 0, won=(2, 2), trick=trick)
    hands[3] = mask("H8")  # a West who cannot beat LA: the Spiel is N-S's when his card is down
    assert play.position_wins(hands, L, 0, 0, won=(2, 2), trick=trick)


def test_spiel_stops_at_the_third_trick():
    # seat 1 holds the four top Perlaggen and the trump Ace: team 1 takes tricks 1-3, play stops
    hands = masks([{c(t) for t in h.split()} for h in
                   ("E8 E9 L8 L9 H7", "HK S6 S7 E7 LA", "EA EK H8 H9 L10", "SA SK S8 S9 H10")])
    for policy in play.POLICIES:
        line = play.play_line(policy, hands, L, np.full(play.DECISIONS, 0.0))
        winners = play.trick_winners_of(line, L)
        assert len(line) == 4 * len(winners) and [w % 2 for w in winners].count(winners[-1] % 2) == 3
    assert play.spiel_teams(hands[None, :], [L])[0] == 1
    assert len(play.optimal_line(hands, L)) == 12


# --- kernels against the references -----------------------------------------------------------
@settings(max_examples=150)
@given(st.sampled_from(STYLES), st.integers(0, 3), st.integers(0, 3), st.randoms(use_true_random=False))
def test_legal_plays_match_reference(style, played, trump_i, rng):
    trump = [E, L, H, S][trump_i] if style == "innsbruck" else [L, H, S][trump_i % 3]
    perl = naive.perlaggen(style, trump)
    hands, _, leader, _ = random_position(rng, 5, style)
    trick = random_trick(rng, hands, trump, perl, leader, played)
    seat = (leader + played) % 4
    got = play.legal_plays(masks(hands)[seat], trick, trump, style)
    assert got == naive.legal_plays(hands[seat], trick, trump, perl)


@settings(max_examples=150)
@given(st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_trick_winner_matches_reference(style, rng):
    hands, trump, leader, _ = random_position(rng, 5, style)
    perl = naive.perlaggen(style, trump)
    trick = random_trick(rng, hands, trump, perl, leader, 4)
    assert play.trick_winner_of(trick, leader, trump, style) == naive.trick_winner(trick, leader, trump, perl)


@settings(max_examples=150)
@given(st.sampled_from(STYLES), st.integers(0, 3), st.floats(0, 1, exclude_max=True),
       st.randoms(use_true_random=False))
def test_policies_match_reference(style, played, u, rng):
    hands, trump, leader, _ = random_position(rng, 5, style)
    perl = naive.perlaggen(style, trump)
    trick = random_trick(rng, hands, trump, perl, leader, played)
    hand = hands[(leader + played) % 4]
    m = sum(1 << x for x in hand)
    assert play.choose("greedy", m, trick, trump, style=style) == naive.greedy_play(hand, trick, trump, perl)
    assert play.choose("random", m, trick, trump, u, style) == naive.random_play(hand, trick, trump, perl, u)


def assert_legal_line(hands, trump, line, style="innsbruck"):
    """Every play of ``line`` (seat, card, identity) is legal (§7.2) and made by the seat to move."""
    perl = naive.perlaggen(style, trump)
    hands = [set(h) for h in hands]
    leader = play.FOREHAND
    for start in range(0, len(line), 4):
        trick = []
        for i, (seat, card, identity) in enumerate(line[start:start + 4]):
            assert seat == (leader + i) % 4
            assert (card, identity) in naive.legal_plays(hands[seat], trick, trump, perl)
            hands[seat].remove(card)
            trick.append((card, identity))
        if len(trick) == 4:
            leader = naive.trick_winner(trick, leader, trump, perl)


@settings(max_examples=100)
@given(st.sampled_from(STYLES), st.sampled_from(sorted(play.POLICIES)), st.randoms(use_true_random=False))
def test_policies_play_legal_cards_to_the_spiel(style, policy, rng):
    hands, trump, _, _ = random_position(rng, 5, style)
    line = play.play_line(policy, masks(hands), trump, [rng.random() for _ in range(play.DECISIONS)], style)
    assert_legal_line(hands, trump, line, style)
    winners = [w % 2 for w in play.trick_winners_of(line, trump, style)]
    assert len(line) == 4 * len(winners) and winners.count(winners[-1]) == 3


def test_play_out_agrees_with_single_lines():
    rng = random.Random(3)
    deals = [random_position(rng, 5, "innsbruck")[:2] for _ in range(200)]
    hands = np.array([masks(h) for h, _ in deals])
    trumps = np.array([t for _, t in deals])
    u = np.random.default_rng(3).random((200, play.DECISIONS))
    for policy in play.POLICIES:
        teams, lengths = play.play_out(policy, hands, trumps, u)
        for i in range(200):
            winners = play.trick_winners_of(play.play_line(policy, hands[i], trumps[i], u[i]), trumps[i])
            assert lengths[i] == len(winners) and teams[i] == winners[-1] % 2


# --- solver against the plain minimax ---------------------------------------------------------
def check_solver(hands, trump, leader, won, style, trick=()):
    team = naive.spiel_minimax(hands, trump, naive.perlaggen(style, trump), leader, won, trick)
    m = masks(hands)
    assert play.position_wins(m, trump, team, leader, won, trick, style=style)
    assert not play.position_wins(m, trump, 1 - team, leader, won, trick, style=style)


@settings(max_examples=120)
@given(st.sampled_from(STYLES), st.integers(1, 2), st.randoms(use_true_random=False))
def test_solver_matches_minimax_on_endings(style, size, rng):
    hands, trump, leader, won = random_position(rng, size, style)
    check_solver(hands, trump, leader, won, style)


@settings(max_examples=100)
@given(st.sampled_from(STYLES), st.integers(1, 3), st.randoms(use_true_random=False))
def test_solver_matches_minimax_within_a_trick(style, played, rng):
    hands, trump, leader, won = random_position(rng, 2, style)
    trick = random_trick(rng, hands, trump, naive.perlaggen(style, trump), leader, played)
    check_solver(hands, trump, leader, won, style, trick)


@settings(max_examples=4)
@given(st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_solver_matches_minimax_on_three_card_endings(style, rng):
    hands, trump, leader, won = random_position(rng, 3, style)
    check_solver(hands, trump, leader, won, style)


def rich_position(rng, size, style):
    """Like `random_position`, but about half the cards are Perlaggen (the solver's hard cases:
    identity classes, Perlagg wars, sure tricks net of higher Perlaggen)."""
    hands, trump, leader, won = random_position(rng, size, style)
    per = sorted(naive.perlaggen(style, trump))
    n_per = min(len(per), rng.randint(size, 2 * size))
    pack = rng.sample(per, n_per) + rng.sample([x for x in range(33) if x not in per], 4 * size - n_per)
    rng.shuffle(pack)
    return [set(pack[i * size:(i + 1) * size]) for i in range(4)], trump, leader, won


@settings(max_examples=150)
@given(st.sampled_from(STYLES), st.integers(1, 2), st.integers(0, 3), st.randoms(use_true_random=False))
def test_solver_matches_minimax_with_many_perlaggen(style, size, played, rng):
    hands, trump, leader, won = rich_position(rng, size, style)
    trick = random_trick(rng, hands, trump, naive.perlaggen(style, trump), leader, min(played, 4 * size - 1) % 4)
    check_solver(hands, trump, leader, won, style, trick)


@settings(max_examples=6, deadline=None)
@given(st.sampled_from(STYLES), st.integers(1, 3), st.randoms(use_true_random=False))
def test_solver_matches_minimax_within_a_trick_of_three_cards(style, played, rng):
    hands, trump, leader, won = rich_position(rng, 3, style)
    trick = random_trick(rng, hands, trump, naive.perlaggen(style, trump), leader, played)
    check_solver(hands, trump, leader, won, style, trick)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(STYLES), st.integers(1, 3), st.randoms(use_true_random=False))
def test_sure_tricks_are_sure(style, size, rng):
    """`_sure_tricks` s >= 1 for a team with k cards each left: the plain minimax, with the team
    needing exactly s more tricks and the opponents k - s + 1, gives the team the Spiel."""
    hands, trump, leader, _ = rich_position(rng, min(size, 2) if rng.random() < 0.9 else size, style)
    k = len(hands[0])
    pmasks, precs = play.PlayRules(style).arrays()
    for team in (0, 1):
        s = play._sure_tricks(masks(hands), pmasks[trump], precs[trump], trump, team, k)
        if s:
            won = [0, 0]
            won[team], won[1 - team] = 3 - s, 2 - k + s
            assert naive.spiel_minimax(hands, trump, naive.perlaggen(style, trump), leader, won) == team


@settings(max_examples=15)
@given(st.randoms(use_true_random=False))
def test_optimal_line_is_legal_and_keeps_the_spiel(rng):
    hands, trump, _, _ = random_position(rng, 5, "innsbruck")
    m = masks(hands)
    line = play.optimal_line(m, trump)
    assert_legal_line(hands, trump, line)
    winners = play.trick_winners_of(line, trump)
    team = play.spiel_teams(m[None, :], [trump])[0]
    assert [w % 2 for w in winners].count(team) == 3 and winners[-1] % 2 == team
    tricks = play.forced_tricks(m, trump)
    assert sum(tricks) == 5 and tricks[team] >= 3


# --- Spiel job and commands -------------------------------------------------------------------
def test_spiel_job_same_counts_for_any_chunking():
    known = parse_known("S6 LA LK L8 E10", 1, turnup="L10")
    job = play.SpielJob(known, D.DealRules(), "greedy")
    kw = dict(checkpoint=False, progress=False)
    a = runner.run(job, 1500, 5, **kw)
    b = runner.run(job, 1500, 5, chunk_deals=512, **kw)
    assert (a == b).all() and a[0] > 0 and 0 < a[1] < a[0]
    for f in range(len(play.FEATURES)):  # every deal lands in one bin per feature
        base = 2 + 2 * play.BINS * f
        assert a[base:base + play.BINS].sum() == a[0] and a[base + play.BINS:base + 2 * play.BINS].sum() == a[1]


def test_top_perlaggen_always_win_double_dummy():
    frame = spiel_odds("HK S6 S7 E7 LA", seat=1, turnup="L9", method="dd", n=200, seed=1,
                       checkpoint=False, progress=False)
    assert list(frame.outcome) == ["win", "lose"] and frame.successes.iloc[0] == frame.n.iloc[0] > 0


def test_spiel_odds_bad_method():
    with pytest.raises(CardsimError, match="unknown"):
        spiel_odds("S6 LA LK L8 E10", turnup="L10", method="pimc", n=10)


DEAL = "HK L9 E8 SA S9 / S6 LA EK H9 H8 / LU E10 SK S8 H10 / E7 L8 EA HA S10"


def test_solve_command_json(capsys):
    assert main(["solve", "perlaggen", "--deal", DEAL, "--trump", "L", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["spiel_team"] == 1 and sum(out["tricks"]) == 5 and out["tricks"][1] >= 3
    line = [(seat, c(card), c(identity)) for seat, card, identity in out["line"]]
    assert_legal_line([set(DECK.parse_cards(h)) for h in DEAL.split("/")], L, line)
    assert [w % 2 for w in play.trick_winners_of(line, L)].count(1) == 3


def test_solve_command_text(capsys):
    assert main(["solve", "perlaggen", "--deal", DEAL, "--trump", "l"]) == 0
    out = capsys.readouterr().out
    assert "team 1 (seats 1 and 3) wins" in out and "trick 1: 1:" in out and "->" in out


@pytest.mark.parametrize("args, message", [
    (["--deal", DEAL.rsplit("/", 1)[0], "--trump", "L"], "needs 4 hands"),
    (["--deal", DEAL.replace("S9 /", "/"), "--trump", "L"], "seat 0 holds 4 cards"),
    (["--deal", DEAL.replace("S9 /", "SA /"), "--trump", "L"], "SA"),
    (["--deal", DEAL, "--trump", "X"], "not a suit"),
    (["--deal", DEAL, "--trump", "E", "--style", "eichel"], "not possible"),
    (["--deal", DEAL, "--trump", "H", "--style", "schlanders"], "without the Weli"),
])
def test_solve_command_bad_input(capsys, args, message):
    assert main(["solve", "perlaggen", *args]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_odds_command_with_spiel(capsys):
    argv = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "600", "--seed", "3",
            "--no-progress", "--spiel", "greedy"]
    assert main([*argv, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    win, lose = out["estimates"]["spiel.win"], out["estimates"]["spiel.lose"]
    assert abs(win["p"] + lose["p"] - 1) < 1e-12 and win["lo"] <= win["p"] <= win["hi"]
    assert "gleich.win" in out["estimates"]
    assert main(argv) == 0
    assert "Spiel" in capsys.readouterr().out


def test_spiel_job_on_deals_as_played():
    """Without known facts the job plays deals as dealt (§3); the leader's team and features tally."""
    job = play.SpielJob(None, D.DealRules(), "greedy", team=1)
    counts = runner.run(job, 1024, 8, checkpoint=False, progress=False)
    assert counts[0] == 1024 and 0 < counts[1] < 1024
    assert (counts == runner.run(job, 1024, 8, chunk_deals=512, checkpoint=False, progress=False)).all()
    base = 2 + 2 * play.BINS * play.FEATURES.index("perlaggen")
    wins, dealt = counts[base + play.BINS:base + 2 * play.BINS], counts[base:base + play.BINS]
    assert wins[0] / dealt[0] < counts[1] / counts[0] < wins[3] / dealt[3]  # Perlaggen help the Spiel


@settings(max_examples=100)
@given(st.sampled_from(STYLES), st.integers(0, 1), st.randoms(use_true_random=False))
def test_team_features_match_counting(style, team, rng):
    """The job's features: the team's Perlaggen, natural trumps and Perlaggen above all of the opponents'."""
    hands, trump, _, _ = random_position(rng, 5, style)
    perl = naive.perlaggen(style, trump)
    ours = hands[team] | hands[team + 2]
    theirs = hands[1 - team] | hands[3 - team]
    top = max([perl[x] for x in theirs if x in perl], default=0)
    expected = [sum(x in perl for x in ours), sum(x not in perl and naive.suit(x) == trump for x in ours),
                sum(perl.get(x, 0) > top for x in ours)]
    out = np.empty((1, 3), dtype=np.int64)
    pmasks, precs = play.PlayRules(style).arrays()
    play._team_features(masks(hands)[None, :], np.array([trump]), pmasks, precs, team, out)
    assert list(out[0]) == expected


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(STYLES), st.randoms(use_true_random=False))
def test_solver_matches_minimax_from_a_three_card_trick_boundary(style, rng):
    """Three cards each after two tricks, rich in Perlaggen: every trick boundary of the search is
    stored under `_canon_key` (relative ranks, capped gaps, Perlaggen by precedence)."""
    hands, trump, leader, _ = rich_position(rng, 3, style)
    won = rng.choice([(2, 0), (1, 1), (0, 2)])
    check_solver(hands, trump, leader, won, style, [])


def test_adjacent_perlaggen_of_one_hand_are_searched_once():
    """Innsbruck, trump L (precedence HK S6 S7 E7 L7 LU LO): S6, S7 and LU of one hand, with E7 and L7
    out of play, are adjacent, so only S6 is searched; once another hand holds S7 (or S7 is in the
    trick) between S6 and E7, both S6 and E7 are."""
    _, precs = play.PlayRules().arrays()
    prec = precs[L]
    mine = mask("S6 S7 LU")
    got = play._distinct_perlaggen(np.uint64(mine), np.uint64(mask("HK")), np.zeros(4, dtype=np.int64), 0, prec)
    assert int(got) == mask("S6")
    got = play._distinct_perlaggen(np.uint64(mask("S6 E7")), np.uint64(mask("S7")), np.zeros(4, dtype=np.int64), 0,
                                   prec)
    assert int(got) == mask("S6 E7")
    trick = np.array([c("S7"), 0, 0, 0], dtype=np.int64)  # S7 already played to this trick
    got = play._distinct_perlaggen(np.uint64(mask("S6 E7")), np.uint64(0), trick, 1, prec)
    assert int(got) == mask("S6 E7")


def canon_reference(hands, perl):
    """What `_canon_key` must tell apart, in plain Python: the cap K = min(Perlaggen left, 4); per suit
    the natural cards left in rank order with their holders and, per gap below, between and above them,
    the strengths a Perlagg identity can take there (the lower card's own included; a bells' lowest gap
    counts the Weli's strength 0), each capped at K; the holders of the Perlaggen from the highest
    precedence down. perl: {card: precedence}."""
    holder = {x: s for s in range(4) for x in hands[s]}
    cap = min(sum(x in perl for x in holder), 4)
    suits = []
    for suit in range(4):
        strength, cards = (0 if suit == 3 else 1), []
        for x in sorted(x for x in holder if x not in perl and x < 32 and x // 8 == suit):
            cards.append((min(x % 8 + 1 - strength, cap), holder[x]))
            strength = x % 8 + 1
        suits.append((tuple(cards), min(9 - strength, cap)))
    return cap, tuple(suits), tuple(holder[x] for x in sorted((x for x in holder if x in perl), key=perl.get,
                                                               reverse=True))


def shifted(hands, perl, draw):
    """The hands with one natural card moved to another free rank of its suit between its neighbours
    (same holder, same order of the cards left): only gaps change. None if no card can move."""
    present = set().union(*hands)
    moves = []
    for x in present - set(perl) - {32}:
        suit = [y % 8 for y in present - set(perl) if y < 32 and y // 8 == x // 8]
        low, high = max([r for r in suit if r < x % 8], default=-1), min([r for r in suit if r > x % 8], default=8)
        moves += [(x, 8 * (x // 8) + r) for r in range(low + 1, high) if r != x % 8 and 8 * (x // 8) + r not in perl]
    if not moves:
        return None
    x, y = draw.choice(sorted(moves))
    return [h - {x} | {y} if x in h else set(h) for h in hands]


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(("innsbruck", "eichel", "deutschnofen")), st.integers(1, 4), st.randoms(use_true_random=False))
def test_canonical_key_tells_apart_exactly_what_the_reference_does(style, size, rng):
    """Positions drawn from a small pool of cards (so that many share a key), each with a variant whose
    gaps differ (`shifted`): two get the same `_canon_key` exactly when the plain reference above
    makes them alike."""
    pmasks, precs = play.PlayRules(style).arrays()
    trump = rng.choice([t for t in range(4) if pmasks[t]])
    perl = {x: int(precs[trump, x]) for x in range(33) if int(pmasks[trump]) >> x & 1}
    n_per = rng.randint(0, min(len(perl), 4 * size))  # often four or more Perlaggen: the cap at work
    pool = rng.sample(sorted(perl), n_per) + rng.sample(sorted(set(range(33)) - set(perl)), 4 * size - n_per
                                                        + rng.randint(0, 4))
    draw = random.Random(rng.getrandbits(64))  # plain draws: hypothesis' own are slow for 300 positions
    by_key, by_reference = {}, {}
    for _ in range(300):
        cards = draw.sample(pool, 4 * size)
        hands = [set(cards[s * size:(s + 1) * size]) for s in range(4)]
        for position in (hands, shifted(hands, perl, draw)):
            if position is None:
                continue
            key = tuple(int(k) for k in play._canon_key(masks(position), pmasks[trump], precs[trump]))
            reference = canon_reference(position, perl)
            assert by_key.setdefault(key, reference) == reference
            assert by_reference.setdefault(reference, key) == key


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(STYLES), st.integers(2, 3), st.booleans(), st.randoms(use_true_random=False))
def test_solver_matches_minimax_at_the_end_of_the_fourth_trick(style, played, rich, rng):
    """Two cards each, two or three plays of the fourth trick made, with few or many Perlaggen: the last
    play is settled without a move list (`_fourth_last_play`), and so is the third (`_fourth_third_play`,
    a Perlagg in its hand: one winning key per class of the last seat's splitting keys)."""
    hands, trump, leader, won = (rich_position if rich else random_position)(rng, 2, style)
    trick = random_trick(rng, hands, trump, naive.perlaggen(style, trump), leader, played)
    check_solver(hands, trump, leader, won, style, trick)


def test_pext8_extracts_the_bits_at_the_mask():
    for m in range(256):
        places = [b for b in range(8) if m >> b & 1]
        for x in range(0, 256, 7):
            assert int(play.PEXT8[256 * m + x]) == sum(((x >> b) & 1) << i for i, b in enumerate(places))
