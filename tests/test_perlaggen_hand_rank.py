"""`odds perlaggen`'s hand rank (spec §11.3 Q1): the seat's hands of deals as played with the same trump, compared
with the given hand by a plain L0 reading (`naive_perlaggen_deal.l0`) and the Perlaggen counted by hand."""

from __future__ import annotations

import json

import numpy as np
import pytest

import naive_perlaggen as nf
import naive_perlaggen_deal as nd
from analysis.cli import main
from analysis.games import perlaggen as A
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_hand_rank as H
from simcore.rng import block_words


def plain_measures(cards, style: str, trump: str) -> tuple:
    """Best Gleich and Hanger codes (L0), Perlaggen, their precedences from the highest (§2.2: the spec's list is
    highest first) and natural trumps (the Weli is a bells card, §1.1)."""
    tokens = [nd.CARDS[c] for c in cards]
    wild = nf.PERLAGGEN[(style, trump)]
    precedences = tuple(sorted((len(wild) - wild.index(t) for t in tokens if t in wild), reverse=True))
    return (*nd.l0(tokens, style, trump), sum(t in wild for t in tokens), precedences,
            sum(t not in wild and t[0] == trump for t in tokens))


@pytest.mark.parametrize("style, seat, trump, hand", [("innsbruck", 1, 1, "S6 LA LK L8 E10"),
                                                       ("eichel", 3, 2, "HA HK H10 E9 S9"),
                                                       ("innsbruck", 0, 3, "SA S10 E10 L10 H8"),
                                                       ("schlanders", 2, 1, "S8 LO E7 H9 SA"),
                                                       ("deutschnofen", 1, 0, "SK EK H7 LA S9")])
def test_counts_equal_a_plain_recount(style, seat, trump, hand):
    cards = [P.DECK.parse_face(c) for c in hand.split()]
    job = H.HandRankJob(D.DealRules(style), seat, trump, P.DECK.mask(cards))
    rows = D.deal_block(block_words(4, 1, 600, D.WORDS_PER_DEAL), D.DealRules(style))
    own = plain_measures(cards, style, "ELHS"[trump])
    expected = np.zeros(job.n_counts, dtype=np.int64)
    for row in rows[rows[:, D.TRUMP] == trump]:
        theirs = plain_measures([c for c in range(P.DECK.n_cards) if int(row[seat]) >> c & 1], style, "ELHS"[trump])
        expected[0] += 1
        for m in range(len(H.MEASURES)):
            expected[1 + 2 * m] += theirs[m] < own[m]
            expected[2 + 2 * m] += theirs[m] == own[m]
    assert (job.run_block(4, 1, 600) == expected).all() and expected[0] > 100


def test_odds_prints_and_returns_the_rank(capsys):
    frame = A.odds("S6 LA LK L8 E10", seat=1, turnup="L10", n=3_000, seed=5, progress=False, checkpoint=False)
    rank = frame[frame.figure == "rank"].set_index("outcome")
    assert list(rank.index) == list(H.TALLIES) and (rank.lo <= rank.p).all() and (rank.p <= rank.hi).all()
    assert (rank.n == rank.n.iloc[0]).all() and 0 < rank.n.iloc[0] < 3_000
    assert main(["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--n", "3000", "--seed", "5",
                 "--no-progress"]) == 0
    assert "among the hands seat 1 holds after the exchanges" in capsys.readouterr().out


def test_the_rank_is_left_out_when_no_deal_has_the_trump(capsys):
    """--n 4 --seed 4: the table has deals, the rank job none with trump L; the odds still print, without the rank."""
    base = ["odds", "perlaggen", "--hand", "S6 LA LK L8 E10", "--turnup", "L10", "--seed", "4", "--no-progress"]
    assert main(base + ["--n", "4"]) == 0 and "among the hands seat" not in capsys.readouterr().out
    assert main(base + ["--n", "4", "--json"]) == 0 and "rank" not in json.loads(capsys.readouterr().out)
    assert main(base + ["--n", "3000", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["own"]["perlaggen"] == 1 and data["own"]["natural_trumps"] == 3 and 0 < data["rank"]["n"] < 3000
