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

import naive_perlaggen_play as naive
from test_perlaggen_play import assert_legal_line

STYLE = "innsbruck"


def deals_as_played(n, seed):
    """(n, N_FIELDS) rows of deals as played (perlaggen_deal, Innsbruck)."""
    return D.deal_block(block_words(seed, 0, n, D.WORDS_PER_DEAL))


def hand_sets(hands):
    return [set(pimc.cards_of(h)) for h in hands]


def random_position(rng, row):
    """A Position of the deal ``row`` after 0..11 random candidate plays (the game not yet over)."""
    public, gone, _ = pimc.public_facts(row)
    pos = pimc.Position(row[:4], int(row[D.TRUMP]), STYLE, gone)
    for _ in range(rng.randrange(12)):
        card, identity = rng.choice(pimc.candidates(pos))
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
    got = pimc.candidates(pos)
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
        assert all(not (voids >> s & 1) or not naturals & int(pimc.play.SUIT_MASKS[s]) for s in range(4))
    known, need, pool, allowed = pimc.view(pos, public, partner, stopper)
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
    table, moves = pimc.play.new_table(), pimc.play.new_moves()
    state = np.array([rng.getrandbits(64)], dtype=np.uint64)
    card, identity = pimc.decide(pos, pos.hands.copy(), False, 3, state, table, moves)
    values = {p: pimc.play_wins(pos, pos.hands, *p, table, moves) for p in pimc.candidates(pos)}
    assert values[(card, identity)] or not any(values.values())


@pytest.mark.parametrize("communication", ["none", "partner"])
def test_pimc_plays_legal_lines_to_the_spiel(communication):
    for row in deals_as_played(6, 6):
        public, gone, stopper = pimc.public_facts(row)
        team, line = pimc.play_deal(row[:4], int(row[D.TRUMP]), 2, communication, 11, STYLE, public, gone, stopper)
        trump = int(row[D.TRUMP])
        assert_legal_line(hand_sets(row[:4]), trump, line, STYLE)
        winners = [w % 2 for w in pimc.play.trick_winners_of(line, trump, STYLE)]
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
    (["--pimc-samples", "0"], "--pimc-samples must be a whole number >= 1"),
    (["--communication", "signals"], "--communication 'signals' is unknown"),
])
def test_odds_command_pimc_bad_input(capsys, extra, message):
    args = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "100", "--spiel", "pimc",
            "--no-progress"]
    assert main(args + extra) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err
