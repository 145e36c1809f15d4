"""Giltspiel mit 3 Perlique under PIMC (simcore/games/giltspiel_perlique_pimc.py): the kernels against the plain
driver of tests/naive_giltspiel_perlique_pimc.py (same plays from the same generator state), the candidate plays, the
inferences a player draws from the play (never excluding the real cards), strength against random play, the job's
chunk invariance and ``cardsim odds giltspiel --spiel pimc --option perlique=true``."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_giltspiel_perlique as rules
import naive_giltspiel_perlique_pimc as naive
from analysis.cli import main
from analysis.games.giltspiel_play import pimc_counts, pimc_odds
from analysis.stats import Estimate
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_perlique as gp
from simcore.games import giltspiel_perlique_pimc as gpp
from simcore.games.giltspiel_pimc import _reveal


def deal_with_wilds(rng, wilds_in_hands: int, wild_turnup: bool = False) -> tuple[list[int], int]:
    """(hands (4,) masks of five cards, turn-up) of a random deal whose hands hold ``wilds_in_hands`` of the trump's
    three wild cards (the rest in the stock), the turn-up a natural trump, or with ``wild_turnup`` (and at most two
    wilds in the hands) a wild one."""
    trump = rng.randrange(4)
    wilds = rng.sample(sorted(rules.wild_cards(trump)), 3)
    naturals = [c for c in range(32) if c not in wilds]
    rng.shuffle(naturals)
    turnup = wilds.pop() if wild_turnup and wilds_in_hands < 3 else next(c for c in naturals if c // 8 == trump)
    if turnup in naturals:
        naturals.remove(turnup)
    cards = wilds[:wilds_in_hands] + naturals[:20 - wilds_in_hands]
    rng.shuffle(cards)
    return [sum(1 << c for c in cards[5 * s:5 * s + 5]) for s in range(4)], turnup


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 3), st.integers(1, 6), st.sampled_from(["wild", "natural"]), st.booleans(),
       st.sampled_from([range(4), (1, 3), (0, 2), ()]), st.booleans(), st.randoms(use_true_random=False))
def test_kernel_plays_as_the_reference(wilds_in_hands, samples, tie, partner, pimc_seats, wild_turnup, rng):
    hands, turnup = deal_with_wilds(rng, wilds_in_hands, wild_turnup)
    public = (0, 0, hands[2] & -hands[2], 0) if rng.random() < 0.3 else (0, 0, 0, 0)
    seed = rng.getrandbits(64)
    kernel = gpp.play_line(hands, turnup, samples, "partner" if partner else "none", seed, public, tie, pimc_seats)
    assert kernel == naive.play_deal(hands, turnup, samples, partner, seed, public, tie, pimc_seats)


def random_position(rng):
    """(hand, trick as (card, identity) plays, visible identities, trump) of a random decision: a hand of 1-5
    cards with 0-3 of the wilds, a trick of 0-3 natural cards or wilds with identities not visible."""
    trump = rng.randrange(4)
    wilds = sorted(rules.wild_cards(trump))
    size = rng.randint(1, 5)
    cards = rng.sample(range(32), 12)
    hand = set(cards[:size]) | set(rng.sample(wilds, rng.randint(0, 3)))
    hand = set(sorted(hand)[:5])
    visible = {c for c in cards[size:size + 3] if c not in hand} | {c for c in rng.sample(range(32), 3)}
    trick = []
    for card in cards[size + 3:size + 3 + rng.randint(0, 3)]:
        if card in hand:
            continue
        ident = card
        if card in wilds:
            free = [i for i in range(32) if i not in visible]
            ident = rng.choice(free)
        trick.append((card, ident))
        visible.add(ident)
    return hand, trick, visible, trump


@settings(max_examples=300, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from(["wild", "natural"]))
def test_candidates_as_the_reference(rng, tie):
    hand, trick, visible, trump = random_position(rng)
    cards = np.array([c for c, _ in trick] + [0] * (4 - len(trick)), dtype=np.int64)
    ids = np.array([i for _, i in trick] + [0] * (4 - len(trick)), dtype=np.int64)
    out = np.zeros(gpp.MAX_CANDIDATES, dtype=np.int64)
    n = gpp._candidates(np.uint64(naive.mask_of(hand)), cards, ids, len(trick), trump, g.PERLIQUE[trump], gp.TIES[tie],
                        np.uint64(naive.mask_of(visible)), out)
    kernel = [(int(p) >> gp.ID_BITS, int(p) & 31) for p in out[:n]]
    assert kernel == naive.candidates(hand, trick, trump, visible, tie)
    legal = rules.options(hand, trump, rules.suit(trick[0][1]) if trick else -1, visible)
    assert set(kernel) <= legal and {(c, i) for c, i in legal if c not in rules.wild_cards(trump)} <= set(kernel)


def test_candidates_of_a_wild():
    """Hearts trump, a hand of EK and the wild HU: leading, the highest free identity of each suit and the lowest;
    following a lead of E9 (the hand holds EK, so identities of Eichel or trumps): the trump Ace, the cheapest card
    that takes the trick (E10 when E9 holds it) and the lowest (E7)."""
    card, hearts = g.DECK.parse_face, g.DECK.suits.index("H")
    hand = {card("EK"), card("HU")}
    visible = {card("H8")}
    lead = naive.candidates(hand, [], hearts, visible, "wild")
    assert [g.DECK.token(i) for _, i in lead] == ["EK", "EA", "LA", "HA", "SA", "S7"]  # S7: of equal heights the later
    follow = naive.candidates(hand, [(card("E9"), card("E9"))], hearts, visible | {card("E9")}, "wild")
    assert [g.DECK.token(i) for _, i in follow] == ["EK", "HA", "E10", "E7"]


def test_what_a_play_tells():
    """Hearts trump, Eichel led. Seat 2 plays the natural S9 (off suit, no trump): it holds no natural Eichel, but may
    still hold a wild (the heart 7, Unter or Ober). Seat 3 plays its wild heart Ober as the LA: it holds no natural
    LA; a wild declared as a wild's face (seat 0: HU as HO) says nothing."""
    card, hearts = g.DECK.parse_face, g.DECK.suits.index("H")
    voids, declared = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.uint64)
    eichel = g.DECK.suits.index("E")
    _reveal(voids, 2, card("S9"), eichel, hearts)
    _reveal(voids, 3, card("LA"), eichel, hearts)  # a trump or not, seat 3's play was off suit too
    _reveal(voids, 1, card("HA"), eichel, hearts)  # a trump on a plain suit: nothing
    declared[3] |= np.uint64(1 << card("LA"))
    declared[0] |= np.uint64(1 << card("HO"))
    allowed = np.empty(4, dtype=np.uint64)
    gpp._allowed(voids, declared, g.PERLIQUE[hearts], allowed)
    may = [set(g.DECK.token(c) for c in range(32) if int(a) >> c & 1) for a in allowed]
    eichel_cards = {"E7", "E8", "E9", "E10", "EU", "EO", "EK", "EA"}
    assert may[0] == may[1] == set(g.DECK.token(c) for c in range(32))
    assert may[2] == set(g.DECK.token(c) for c in range(32)) - eichel_cards
    assert may[3] == set(g.DECK.token(c) for c in range(32)) - eichel_cards - {"LA"}
    assert {"H7", "HU", "HO"} <= may[2] & may[3]


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.sampled_from([range(4), ()]), st.randoms(use_true_random=False))
def test_inferences_admit_the_real_hands(wilds_in_hands, pimc_seats, rng):
    """Replaying a line (PIMC or random play): after every play the voids (`_reveal` on the identity) and the
    identities each seat declared a wild as leave every seat's real remaining hand among the cards it may hold
    (`_allowed`)."""
    hands, turnup = deal_with_wilds(rng, wilds_in_hands)
    trump, wilds = turnup // 8, g.PERLIQUE[turnup // 8]
    _, line = gpp.play_line(hands, turnup, 2, seed=rng.getrandbits(64), pimc_seats=pimc_seats)
    held = list(hands)
    voids, declared = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.uint64)
    allowed = np.empty(4, dtype=np.uint64)
    for k, (seat, card, ident) in enumerate(line):
        led = line[k - k % 4][2] // 8
        _reveal(voids, seat, ident, led, trump)
        if card != ident:
            declared[seat] |= np.uint64(1 << ident)
        held[seat] &= ~(1 << card)
        gpp._allowed(voids, declared, wilds, allowed)
        assert all(h & ~int(a) == 0 for h, a in zip(held, allowed)), (k, line)


def test_pimc_beats_random_play():
    """200 deals with all three wilds in the hands, played twice: PIMC (3 samples) for team 1 against the random
    policy, then for team 0. The PIMC side's share of the 400 games must clear 0.55 at 99.9% (random play at every
    seat would give 0.5 on average)."""
    import random
    rng = random.Random(8)
    wins = 0
    for k in range(200):
        hands, turnup = deal_with_wilds(rng, 3)
        for seats, team in (((1, 3), 1), ((0, 2), 0)):
            wins += gpp.play_line(hands, turnup, 3, seed=k, pimc_seats=seats)[0] == team
    lo, _ = Estimate(wins, 400, 0.999).interval
    assert lo > 0.55, wins / 400


@pytest.mark.parametrize("tie", ["wild", "natural"])
def test_job_totals_do_not_depend_on_chunks_or_jobs(tie):
    facts = g.parse_known("EK LK EO HO SO", 1, "H8", None)
    job = gpp.PerliquePimcSpielJob(facts, 1, samples=2, tie=tie)
    kw = dict(checkpoint=False, progress=False)
    a = runner.run(job, 80, 9, chunk_deals=64, **kw)
    b = runner.run(job, 80, 9, chunk_deals=1000, **kw)
    c = runner.run(job, 80, 9, jobs=2, chunk_deals=64, **kw)
    assert a[0] == 80 and (a == b).all() and (a == c).all()
    assert job.key() != gpp.PerliquePimcSpielJob(facts, 1, 2, tie="natural" if tie == "wild" else "wild").key()


def test_odds_command(capsys):
    args = ["odds", "giltspiel", "--hand", "EK LK EO HO SO", "--turnup", "H8", "--n", "2000", "--seed", "7",
            "--spiel", "pimc", "--pimc-samples", "2", "--pimc-deals", "64", "--option", "perlique=true",
            "--option", "perlique_tie=natural", "--no-progress"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["perlique"] is True and out["perlique_tie"] == "natural" and out["pimc"]["n"] == 64
    win, lose = out["estimates"]["spiel.win"], out["estimates"]["spiel.lose"]
    assert abs(win["p"] + lose["p"] - 1) < 1e-12 and win["lo"] <= win["p"] <= win["hi"]
    facts = g.parse_known("EK LK EO HO SO", 1, "H8", None)
    perlique = pimc_counts(facts, 1, samples=2, n=64, seed=7, perlique_tie="natural", progress=False)
    assert win["p"] == perlique[1] / 64  # the Perlique's job, not the base game's
    assert main(args) == 0
    assert "PIMC weighs a few declarations of a wild" in capsys.readouterr().out


def test_pimc_odds_api():
    """`pimc_odds` with the Perlique: the counts of the job with the tie rule; the tie rule needs the Perlique."""
    frame = pimc_odds("EK LK EO HO SO", turnup="H8", samples=2, n=64, seed=7, perlique=True, perlique_tie="natural",
                      progress=False)
    facts = g.parse_known("EK LK EO HO SO", 1, "H8", None)
    assert frame.successes.tolist()[0] == pimc_counts(facts, 1, samples=2, n=64, seed=7, perlique_tie="natural",
                                                      progress=False)[1]
    assert frame.attrs["perlique_tie"] == "natural"
    with pytest.raises(CardsimError, match="perlique_tie is a rule of the Perlique's play"):
        pimc_odds("EK LK EO HO SO", n=64, perlique_tie="natural")


def test_api_bad_input():
    card = g.DECK.parse_face
    hands = [g.DECK.mask(g.DECK.parse_cards(h)) for h in ("E7 E8 E9 E10 EU", "EO EK EA L7 L8", "L9 L10 LU LO LK",
                                                          "LA H7 H8 H9 H10")]
    with pytest.raises(CardsimError, match="turn-up"):
        gpp.play_line(hands, card("H8"), 2)
    with pytest.raises(CardsimError, match="perlique_tie"):
        gpp.play_line(hands, card("SA"), 2, tie="first")
    with pytest.raises(CardsimError, match="pimc_seats"):
        gpp.play_line(hands, card("SA"), 2, pimc_seats=(5,))
    with pytest.raises(CardsimError, match="pimc-samples"):
        gpp.play_line(hands, card("SA"), 0)
