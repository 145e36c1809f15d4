"""Giltspiel PIMC policy: sampling consistent with a player's view (against exact enumeration),
votes against the plain minimax, optimal play when everything is known, legal play, strength
against random play, chunk invariance of the job, and ``cardsim odds giltspiel --spiel pimc``."""

import json
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.cli import main
from analysis.games.giltspiel_play import pimc_odds
from analysis.stats import Estimate
from simcore import runner
from simcore.dealing import deal
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_pimc as pimc
from simcore.rng import block_words

import naive_giltspiel_pimc as naive
import naive_tricks
from test_giltspiel_play import assert_legal_line, masks

H = g.DECK.suits.index("H")


def to_mask(cards):
    return int(sum(1 << c for c in cards))


def sets(hands):
    return [set(g.DECK.cards_of(h)) for h in hands]


def uniform_deals(n, seed):
    """(hands (n, 4) uint64, trumps (n,), turnups (n,) uint64) of uniform deals."""
    spec = g.Known().deal_spec()
    slots = deal(spec, block_words(seed, 0, n, spec.words_per_deal))
    turnups = np.ascontiguousarray(slots[:, g.TURNUP])
    return np.ascontiguousarray(slots[:, :4]), np.array([g.DECK.cards_of(t)[0] // 8 for t in turnups]), turnups


def random_view(rng, size):
    """A position's true hands of ``size`` cards, a mover, the cards it knows, the voids its hands
    allow (a random subset of each seat's truly missing suits), cards gone and the hidden pool."""
    pack = rng.sample(range(32), 4 * size + 3)
    hands = [set(pack[i * size:(i + 1) * size]) for i in range(4)]
    gone = set(pack[4 * size:])
    seat = rng.randrange(4)
    known = [set(h) if s == seat else {c for c in h if rng.random() < 0.3} for s, h in enumerate(hands)]
    voids = []
    for h in hands:
        missing = [s for s in range(4) if not any(c // 8 == s for c in h)]
        voids.append(sum(1 << s for s in missing if rng.random() < 0.7))
    pool = set(range(32)) - gone - set().union(*known)
    return hands, seat, known, voids, gone, pool


# --- sampling ---------------------------------------------------------------------------------
@settings(max_examples=200)
@given(st.integers(1, 5), st.randoms(use_true_random=False))
def test_samples_are_consistent_with_the_view(size, rng):
    hands, seat, known, voids, gone, pool = random_view(rng, size)
    need = [size - len(k) for k in known]
    out, _ = pimc.sample([to_mask(k) for k in known], need, to_mask(pool), voids, rng.getrandbits(64))
    got = sets(out)
    assert got[seat] == hands[seat]
    for s in range(4):
        assert known[s] <= got[s] and len(got[s]) == size and got[s] <= pool | known[s]
        assert all(naive.allowed(c, voids[s]) for c in got[s] - known[s])
    assert sum(len(h) for h in got) == len(set().union(*got))


def test_samples_are_uniform_over_consistent_deals():
    """A small view (seat 0 knows its hand; seat 3 is void in H): the sample frequencies match the
    exact uniform distribution over all consistent deals (naive enumeration): a chi-square test."""
    known = [set(g.DECK.parse_cards("HA EK")), set(), set(), set()]
    pool = set(g.DECK.parse_cards("H7 H8 H9 E7 E8 S7 L7"))
    need, voids = [0, 2, 1, 2], [0, 0, 0, 1 << H]
    exact = naive.consistent_deals(known, need, pool, voids)
    draws = 6000
    counts = Counter()
    for k in range(draws):
        out, is_exact = pimc.sample([to_mask(c) for c in known], need, to_mask(pool), voids, 1000 + k)
        assert is_exact
        counts[tuple(frozenset(h) for h in sets(out))] += 1
    assert set(counts) <= set(exact)
    expected = draws / len(exact)
    chi2 = sum((counts[d] - expected) ** 2 / expected for d in exact)
    df = len(exact) - 1
    assert chi2 < df * (1 - 2 / (9 * df) + 3.09 * (2 / (9 * df)) ** 0.5) ** 3  # 99.9% (Wilson-Hilferty)


@given(st.lists(st.integers(0, 31), min_size=1, max_size=5, unique=True), st.integers(0, 3), st.integers(0, 3),
       st.randoms(use_true_random=False))
def test_revealed_voids_are_true(hand, led, trump, rng):
    """A legal card off the suit led reveals that the rest of the hand has none of the suit led
    unless it is a trump on a plain suit (§6.1: trumping is allowed at will); nothing else."""
    card = rng.choice(sorted(naive_tricks.legal_cards(hand, led, trump)))
    voids = np.zeros(4, dtype=np.int64)
    pimc._reveal(voids, 2, card, led, trump)
    rest = set(hand) - {card}
    assert all(not (voids[2] >> s) & 1 or not any(c // 8 == s for c in rest) for s in range(4))
    shown = card // 8 != led and not (card // 8 == trump != led)
    assert voids[2] == (1 << led if shown else 0) and not voids[[0, 1, 3]].any()


# --- decisions --------------------------------------------------------------------------------
def random_position(rng, size):
    """(hands, trump, leader, won, trick, mover) with ``size`` cards in the mover's hand."""
    count = rng.randrange(4)
    pack = rng.sample(range(32), 4 * size + 1)
    hands = [set(pack[i * size:(i + 1) * size]) for i in range(4)]
    leader = rng.randrange(4)
    trick = []
    for i in range(count):
        seat = (leader + i) % 4
        card = rng.choice(sorted(naive_tricks.legal_cards(hands[seat], trick[0] // 8 if trick else None,
                                                          pack[-1] // 8)))
        hands[seat].remove(card)
        trick.append(card)
    done = 5 - size
    won0 = rng.randint(max(0, done - 2), min(2, done))
    return hands, pack[-1] // 8, leader, (won0, done - won0), trick, (leader + count) % 4


@settings(max_examples=40)
@given(st.integers(1, 3), st.randoms(use_true_random=False))
def test_votes_match_minimax(size, rng):
    """The kernel's votes on given sample deals equal the plain minimax's for every legal card
    (cards equivalent within a sample deal share one solve)."""
    hands, trump, leader, won, trick, seat = random_position(rng, size)
    others = sorted(set(range(32)) - hands[seat] - set(trick))
    deals = []
    for _ in range(3):
        cards = rng.sample(others, sum(len(h) for s, h in enumerate(hands) if s != seat))
        dealt = [set() for _ in range(4)]
        for s in range(4):
            dealt[s] = set(hands[seat]) if s == seat else {cards.pop() for _ in range(len(hands[s]))}
        deals.append(dealt)
    got = pimc.votes([masks(d) for d in deals], seat, trump, trick, leader, won)
    expected = naive.votes(deals, seat, trump, leader, won, trick)
    assert {card: got[card] for card in expected} == expected and got.sum() == sum(expected.values())


def class_top(card, hand, present):
    """The highest card of ``hand`` equivalent to ``card`` when only the ``present`` cards are in play."""
    while True:
        above = [c for c in range(card + 1, (card // 8 + 1) * 8) if c in present]
        if not above or above[0] not in hand:
            return card
        card = above[0]


@settings(max_examples=300)
@given(st.lists(st.integers(0, 31), min_size=2, max_size=5, unique=True), st.integers(1, 10),
       st.sets(st.integers(0, 31), max_size=12), st.randoms(use_true_random=False))
def test_sequential_vote_matches_reference(hand, samples, gone, rng):
    """The kernel's sampling loop (`_next_live`, fed the wins of random outcomes; equivalent cards
    win together) stops after the same samples and picks the same card as the plain sequential vote."""
    gone = gone - set(hand)
    trump = rng.randrange(4)
    outcomes = []
    for _ in range(samples):
        present = set(range(32)) - gone - {c for c in range(32) if rng.random() < 0.3} | set(hand)
        winners = {c for c in hand if rng.random() < 0.5}
        outcomes.append({c for c in hand if class_top(c, hand, present) in winners})
    expected = naive.sequential_pick(hand, outcomes, (), trump, gone)
    wins = np.zeros(32, dtype=np.int64)
    legal, done = np.uint64(to_mask(hand)), 0
    live = pimc._next_live(legal, wins, done, samples, np.uint64(to_mask(gone)))
    while live:
        for card in g.DECK.cards_of(live):
            wins[card] += card in outcomes[done]
        done += 1
        live = pimc._next_live(np.uint64(live), wins, done, samples, np.uint64(to_mask(gone)))
    assert (pimc._pick(legal, wins, np.zeros(4, dtype=np.int64), 0, trump), done) == expected


@settings(max_examples=60)
@given(st.integers(1, 3), st.randoms(use_true_random=False))
def test_all_cards_known_plays_an_optimal_card(size, rng):
    """With every hand known (nothing hidden) every sample is the true deal: PIMC plays a card that
    wins the Spiel under perfect play whenever one exists (of those, the one greedy prefers)."""
    hands, trump, leader, won, trick, seat = random_position(rng, size)
    card = pimc.choose(masks(hands), seat, trump, masks(hands), samples=5, seed=rng.getrandbits(64),
                       trick=trick, leader=leader, won=won)
    values = naive.votes([hands], seat, trump, leader, won, trick)
    assert card == naive.pick(values, trick, trump)
    if any(values.values()):
        assert values[card] == 1


def test_last_two_tricks_known_by_partner_and_voids():
    """Last two tricks, communication partner, both opponents' remaining cards pinned by the pool:
    PIMC with many samples takes the Spiel whenever a winning card exists."""
    hands = [set(g.DECK.parse_cards(t)) for t in ("E7 L8", "HA S9", "E8 SK", "H7 L9")]
    gone = set(range(32)) - set().union(*hands)
    known = [set(), hands[1], set(), hands[3]]  # seat 1 sees its and its partner's hand
    # the opponents' cards are the only ones not gone: the sample is the true deal
    card = pimc.choose(masks(hands), 1, H, masks(known), samples=50, seed=3, gone=to_mask(gone), won=(1, 2))
    values = naive.votes([hands], 1, H, 1, (1, 2))
    assert any(values.values()) and values[card] == 1


@settings(max_examples=30)
@given(st.sampled_from(sorted(pimc.COMMUNICATIONS)), st.randoms(use_true_random=False))
def test_pimc_plays_legal_cards_to_the_spiel(communication, rng):
    hands, trumps, turnups = uniform_deals(1, rng.getrandbits(32))
    line = pimc.play_line(hands[0], int(trumps[0]), g.DECK.cards_of(turnups[0])[0], 3, communication,
                          rng.getrandbits(64))
    assert_legal_line(sets(hands[0]), int(trumps[0]), line)
    assert len(line) % 4 == 0 and 12 <= len(line) <= 20


def test_pimc_beats_random_play():
    """300 deals with a fixed seed, played twice: PIMC (4 samples) for team 1 against random legal
    play, then for team 0. With random play at all seats the two teams' chances add up to 1, so the
    PIMC side's share of the 600 games would be 0.5 on average; it must clear 0.55 at 99.9%."""
    hands, trumps, turnups = uniform_deals(300, 5)
    wins = 0
    for pimc_seats, team in (((1, 3), 1), ((0, 2), 0)):
        wins += int((pimc.play_out(hands, trumps, turnups, 4, pimc_seats=pimc_seats) == team).sum())
    lo, _ = Estimate(wins, 600, 0.999).interval
    assert lo > 0.55, wins / 600


# --- job and command --------------------------------------------------------------------------
@pytest.mark.parametrize("communication", ["none", "partner"])
def test_job_totals_do_not_depend_on_chunks_or_jobs(communication):
    facts = g.parse_known("LA SA H10 E9 E8", 1, "L7", None)
    job = pimc.PimcSpielJob(facts, 1, samples=2, communication=communication)
    kw = dict(checkpoint=False, progress=False)
    a = runner.run(job, 150, 9, chunk_deals=64, **kw)
    b = runner.run(job, 150, 9, chunk_deals=1000, **kw)
    c = runner.run(job, 150, 9, jobs=2, chunk_deals=64, **kw)
    assert a[0] == 150 and (a == b).all() and (a == c).all()


def test_forehand_first_lead_is_decided_once_per_turnup():
    """Seat 1 asking with communication none: its first lead (the same view in every deal with one
    turn-up) is one PIMC decision per (seed, turn-up), a legal card, and only then (not for seat 3
    or with communication partner)."""
    facts = g.parse_known("LA SA H10 E9 E8", 1, None, None)
    job = pimc.PimcSpielJob(facts, 1, samples=2)
    slots, keep = job.deal_block(5, 0, 64)
    job.run_block(5, 0, 64)
    turnups = {g.DECK.cards_of(t)[0] for t in slots[keep, g.TURNUP]}
    assert set(job._firsts) == {(5, t) for t in turnups}
    assert all(card in g.DECK.parse_cards("LA SA H10 E9 E8") for card in job._firsts.values())
    assert job.first_lead(5, min(turnups)) == job._firsts[5, min(turnups)]
    assert pimc.PimcSpielJob(facts, 1, 2, "partner").first_lead(5, 0) == -1
    assert pimc.PimcSpielJob(g.parse_known("LA SA H10 E9 E8", 3, None, None), 3, 2).first_lead(5, 0) == -1


def test_pimc_odds_top_trumps_always_win():
    frame = pimc_odds("HA HK HO HU H10", seat=3, turnup="H7", samples=2, n=64, seed=1, checkpoint=False,
                      progress=False)
    assert list(frame.successes) == [64, 0] and frame.attrs["pimc"]["n"] == 64


def test_odds_command_pimc(capsys):
    args = ["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--turnup", "L7", "--n", "2000", "--seed", "7",
            "--spiel", "pimc", "--pimc-samples", "2", "--pimc-deals", "64", "--communication", "partner",
            "--no-progress"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["pimc"] == {"n": 64, "samples": 2, "communication": "partner"}
    win, lose = out["estimates"]["spiel.win"], out["estimates"]["spiel.lose"]
    assert abs(win["p"] + lose["p"] - 1) < 1e-12 and win["lo"] <= win["p"] <= win["hi"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Spiel" in text and "n = 64 deals" in text and "own and partner's hand" in text


@pytest.mark.parametrize("extra, message", [
    (["--pimc-samples", "0"], "--pimc-samples: expected a whole number from 1"),
    (["--communication", "signals"], "--communication: invalid choice: 'signals' (choose from none, partner)"),
])
def test_odds_command_pimc_bad_input(capsys, extra, message):
    args = ["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "100", "--spiel", "pimc", "--no-progress"]
    assert main(args + extra) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_api_bad_input():
    with pytest.raises(CardsimError, match="pimc-samples"):
        pimc.PimcSpielJob(g.Known(), 1, samples=0)
    with pytest.raises(CardsimError, match="communication"):
        pimc.play_out(np.zeros((1, 4), dtype=np.uint64), [0], [1], 2, "everything")
