"""Perlaggen PIMC policy (simcore.games.perlaggen_pimc): candidate plays, revealed voids and the
sampler against the true deal, optimal play when everything is known, legal play to the Spiel,
determinism of the job across chunks and jobs, and ``cardsim odds perlaggen --spiel pimc``."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from simcore import runner
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_pimc as pimc
from simcore.games.giltspiel_pimc import sample_hidden
from simcore.rng import block_words

import naive_perlaggen_pimc as ref
import naive_perlaggen_play as naive
from test_perlaggen_play import assert_legal_line

STYLE = "innsbruck"


def deals_as_played(n, seed):
    """(n, N_FIELDS) rows of deals as played (perlaggen_deal, Innsbruck)."""
    return D.deal_block(block_words(seed, 0, n, D.WORDS_PER_DEAL))


def hand_sets(hands):
    return [set(ref.cards_of(h)) for h in hands]


def random_position(rng, row):
    """A Position of the deal ``row`` after 0..11 random candidate plays (the game not yet over)."""
    public, gone, _ = pimc.public_facts(row)
    pos = ref.Position(row[:4], int(row[D.TRUMP]), STYLE, gone)
    for _ in range(rng.randrange(12)):
        card, identity = rng.choice(ref.candidates(pos))
        pos.apply(card, identity)
        if pos.over():
            break
    return pos, public


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 199), st.randoms(use_true_random=False))
def test_candidates_are_legal_and_cover_every_card(index, rng):
    """The candidate plays are legal (§7.2, the plain reference) and include every legal card."""
    pos, _ = random_position(rng, deals_as_played(200, 3)[index])
    if pos.over():
        return
    perl = naive.perlaggen(STYLE, pos.trump)
    trick = list(zip(pos.tcards[:pos.count].tolist(), pos.tids[:pos.count].tolist()))
    legal = naive.legal_plays(hand_sets(pos.hands)[pos.seat], trick, pos.trump, perl)
    got = ref.candidates(pos)
    assert set(got) <= legal and {c for c, _ in got} == {c for c, _ in legal} and len(set(got)) == len(got)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 199), st.booleans(), st.randoms(use_true_random=False))
def test_samples_agree_with_the_view_and_voids_are_true(index, partner, rng):
    """The revealed voids hold in the true hands (no natural card of the suit); every sample keeps
    the mover's hand (and its partner's with ``partner``), the public cards, each hand's size, and
    gives a seat no natural card of a suit it showed void in, nor a card anybody saw."""
    row = deals_as_played(200, 4)[index]
    pos, public = random_position(rng, row)
    if pos.over():
        return
    _, _, stopper = pimc.public_facts(row)
    for seat, voids in enumerate(pos.voids):
        naturals = int(pos.hands[seat]) & ~int(pos.pmask)
        assert all(not (voids >> s & 1) or not naturals & int(ref.play.SUIT_MASKS[s]) for s in range(4))
    known, need, pool, allowed = ref.view(pos, public, partner, stopper)
    deal = np.empty(4, dtype=np.uint64)
    sample_hidden(known, need, pool, allowed, np.array([rng.getrandbits(64)], dtype=np.uint64), deal)
    seat = pos.seat
    assert deal[seat] == pos.hands[seat] and (not partner or deal[(seat + 2) % 4] == pos.hands[(seat + 2) % 4])
    seen = pos.gone | sum(1 << int(c) for c in pos.tcards[:pos.count])
    for s in range(4):
        assert int(deal[s]) & int(public[s]) == int(pos.hands[s]) & int(public[s])
        assert bin(int(deal[s])).count("1") == bin(int(pos.hands[s])).count("1")
        assert not int(deal[s]) & seen
        assert int(deal[s]) & ~int(allowed[s]) == 0
    assert sum(bin(int(h)).count("1") for h in deal) == bin(int(np.bitwise_or.reduce(deal))).count("1")


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 199), st.randoms(use_true_random=False))
def test_everything_known_plays_a_winning_play(index, rng):
    """With every hand public the samples are the true deal: PIMC makes a play that takes the Spiel
    under perfect play whenever one of its candidates does."""
    pos, _ = random_position(rng, deals_as_played(200, 5)[index])
    if pos.over():
        return
    table, moves = ref.play.new_table(), ref.play.new_moves()
    state = np.array([rng.getrandbits(64)], dtype=np.uint64)
    card, identity = ref.decide(pos, pos.hands.copy(), False, 3, state, table, moves)
    values = {p: ref.play_wins(pos, pos.hands, *p, table, moves) for p in ref.candidates(pos)}
    assert values[(card, identity)] or not any(values.values())


def kernel_state(pos):
    """The arrays of a reference Position in the argument order of the kernels."""
    return (pos.hands.copy(), pos.tcards.copy(), pos.tids.copy(), pos.count, pos.leader, pos.won.copy(),
            np.array(pos.voids, dtype=np.int64), np.uint64(pos.gone))


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 199), st.booleans(), st.randoms(use_true_random=False))
def test_kernels_decide_as_the_plain_driver(index, partner, rng):
    """On random positions the kernels list the reference's candidate plays in its order, see the
    same view, and `_decide` makes the reference's play from the same generator state, leaving the
    state where the reference leaves it."""
    row = deals_as_played(200, 7)[index]
    pos, public = random_position(rng, row)
    if pos.over():
        return
    _, _, stopper = pimc.public_facts(row)
    hands, tcards, tids, count, leader, won, voids, gone = kernel_state(pos)
    plays = np.empty((pimc.MAX_PLAYS, 2), dtype=np.int64)
    n = pimc._candidates(hands[pos.seat], tcards, tids, count, pos.pmask, pos.prec, pos.trump, plays)
    assert [tuple(p) for p in plays[:n].tolist()] == ref.candidates(pos)
    known, need, allowed = np.empty(4, dtype=np.uint64), np.empty(4, dtype=np.int64), np.empty(4, dtype=np.uint64)
    pool = pimc._view(hands, pos.seat, public, partner, stopper, tcards, count, gone, voids, pos.pmask, known, need,
                      allowed)
    want = ref.view(pos, public, partner, stopper)
    assert (known == want[0]).all() and (need == want[1]).all() and pool == want[2] and (allowed == want[3]).all()
    seed = rng.getrandbits(64)
    table, moves = ref.play.new_table(), ref.play.new_moves()
    state_ref, state = np.array([seed], dtype=np.uint64), np.array([seed], dtype=np.uint64)
    expected = ref.decide(pos, public, partner, 3, state_ref, table, moves, stopper)
    got = pimc._decide(hands, tcards, tids, count, leader, won, voids, gone, public, partner, stopper, pos.pmask,
                       pos.prec, np.int64(pos.trump), 3, state, table, moves)
    assert (int(got[0]), int(got[1])) == expected and state[0] == state_ref[0]


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 199), st.booleans(), st.randoms(use_true_random=False))
def test_choose_is_the_references_decision(index, partner, rng):
    """The one-position API passes the position, its public facts and the seed on unchanged."""
    row = deals_as_played(200, 9)[index]
    pos, public = random_position(rng, row)
    if pos.over():
        return
    _, _, stopper = pimc.public_facts(row)
    seed = rng.getrandbits(64)
    trick = list(zip(pos.tcards[:pos.count].tolist(), pos.tids[:pos.count].tolist()))
    communication = "partner" if partner else "none"
    got = pimc.choose(pos.hands, pos.trump, 3, seed, trick, pos.leader, pos.won, pos.voids, pos.gone, public,
                      communication, STYLE, stopper)
    expected = ref.decide(pos, public, partner, 3, np.array([seed], dtype=np.uint64), ref.play.new_table(),
                          ref.play.new_moves(), stopper)
    assert got == (int(expected[0]), int(expected[1]))


@pytest.mark.parametrize("communication", ["none", "partner"])
def test_kernel_plays_the_plain_drivers_lines(communication):
    """Whole deals as played (public facts, table cards and the stopper included): the kernel's line
    and winner are the reference's for the same seed, and the job's block counts them."""
    rows = deals_as_played(12, 8)
    for i, row in enumerate(rows):
        public, gone, stopper = pimc.public_facts(row)
        args = (row[:4], int(row[D.TRUMP]), 2, communication, 1000 + i, STYLE, public, gone, stopper)
        assert pimc.play_deal(*args) == ref.play_deal(*args)


@pytest.mark.parametrize("communication", ["none", "partner"])
def test_pimc_plays_legal_lines_to_the_spiel(communication):
    for row in deals_as_played(6, 6):
        public, gone, stopper = pimc.public_facts(row)
        team, line = pimc.play_deal(row[:4], int(row[D.TRUMP]), 2, communication, 11, STYLE, public, gone, stopper)
        trump = int(row[D.TRUMP])
        assert_legal_line(hand_sets(row[:4]), trump, line, STYLE)
        winners = [w % 2 for w in ref.play.trick_winners_of(line, trump, STYLE)]
        assert winners.count(team) == 3 and winners[-1] == team


def test_job_totals_do_not_depend_on_chunks_or_jobs():
    job = pimc.PimcSpielJob(None, D.DealRules(), samples=2, communication="partner")
    kw = dict(checkpoint=False, progress=False)
    a = runner.run(job, 40, 9, chunk_deals=16, **kw)
    b = runner.run(job, 40, 9, chunk_deals=1000, **kw)
    c = runner.run(job, 40, 9, jobs=2, chunk_deals=16, **kw)
    assert a[0] == 40 and 0 < a[1] < 40 and (a == b).all() and (a == c).all()


def test_odds_command_spiel_pimc(capsys):
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "2000", "--seed", "7",
            "--spiel", "pimc", "--pimc-samples", "2", "--pimc-deals", "32", "--communication", "partner",
            "--no-progress"]
    assert main(args + ["--json"]) == 0
    estimates = json.loads(capsys.readouterr().out)["estimates"]
    win, lose = estimates["spiel.win"], estimates["spiel.lose"]
    assert abs(win["p"] + lose["p"] - 1) < 1e-12 and win["lo"] <= win["p"] <= win["hi"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "played out by PIMC" in text and "2 sampled deals per decision" in text and "partner's hand" in text


@pytest.mark.parametrize("extra, message", [
    (["--pimc-samples", "0"], "--pimc-samples: expected a whole number from 1"),
    (["--communication", "signals"], "--communication: invalid choice: 'signals' (choose from none, partner)"),
])
def test_odds_command_pimc_bad_input(capsys, extra, message):
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "100", "--spiel", "pimc",
            "--no-progress"]
    assert main(args + extra) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
