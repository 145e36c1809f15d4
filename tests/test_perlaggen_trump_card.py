"""Perlaggen's trump card and deal counts of spec §11.1 (`perlaggen_deal.trump_card_exact`, the ``deals`` and
trump tables of `cardsim stats perlaggen --exact`): the spec's fractions, and the product's own deal (cut included)
within 4.5 standard errors of the exact values, which ignore the cut."""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import perlaggen as api
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.rng import block_words


def test_spec_fractions():
    suits, perlagg, before = D.trump_card_exact("innsbruck")
    assert suits == {"E": F(8, 33), "L": F(8, 33), "H": F(8, 33), "S": F(9, 33)} and perlagg == F(14, 33)
    assert before == {0: F(1)}
    suits, perlagg, before = D.trump_card_exact("eichel")
    assert suits == {"L": F(8, 25), "H": F(8, 25), "S": F(9, 25)} and perlagg == F(11, 25)
    assert [before[j] for j in range(4)] == [F(25, 33), F(25, 132), F(175, 4092), F(35, 4092)]
    assert round(float(before[4]), 4) == 0.0015 and round(float(sum(before[j] for j in range(5, 9))), 4) == 0.0002
    assert sum(before.values()) == 1
    with pytest.raises(CardsimError, match="four-player Perlaggen style"):
        D.trump_card_exact("straf")


@pytest.mark.parametrize("style", ["innsbruck", "eichel", "schlanders"])
def test_dealt_trump_cards_agree(style):
    """131,072 deals of the product (the cutter's Perlaggen taken first): trump suit, a Perlagg turned, acorns laid
    aside, each within 4.5 SE of the exact value."""
    rules = D.DealRules(style=style)
    rows = np.concatenate([D.deal_block(block_words(7, b, 65_536, D.WORDS_PER_DEAL), rules) for b in range(2)])
    n = len(rows)
    suits, perlagg, before = D.trump_card_exact(style)

    def close(share: float, p: F) -> bool:
        return abs(share - float(p)) <= 4.5 * np.sqrt(float(p) * (1 - float(p)) / n) + 1e-12

    trump, turned = rows[:, D.TRUMP].astype(int), rows[:, D.TURNED].astype(int)
    for letter, p in suits.items():
        assert close((trump == P.DECK.suits.index(letter)).mean(), p), letter
    masks = {t: P.perlagg_mask(style, P.DECK.suits[t]) for t in set(trump.tolist())}
    assert close(np.mean([masks[t] >> c & 1 for t, c in zip(trump, turned)]), perlagg)
    laid = np.bitwise_count(rows[:, D.EXPOSED])
    for j, p in before.items():
        assert close((laid == j).mean(), p), j


def test_deal_counts_are_the_spec():
    counts = dict(zip(api._deal_counts().quantity, api._deal_counts()["count"]))
    assert counts == {"4-card hands from the 33 cards": 40_920, "5-card hands from the 33 cards": 237_336,
                      "7-card hands from the 33 cards": 4_272_048,
                      "5-card hands from the 32 cards besides the trump card": 201_376,
                      "4-player deals (4 x 5 cards)": 6_724_815_696_833_794_560,
                      "3-player deals (3 x 7 cards)": 141_597_998_151_667_200,
                      "2-player deals (2 x 7 cards)": 2_810_153_174_400}


def test_exact_command_prints_the_trump_card(capsys):
    assert main(["stats", "perlaggen", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    row = next(x for x in lines if x.startswith("  innsbruck     E"))
    assert row.split()[-4:] == ["Perlagg", "14/33", "=", "0.4242"] and "S  3/11 = 0.2727" in row
    assert next(x for x in lines if x.startswith("  eichel        0:")).split()[1:5] == ["0:", "0.7576", "1:", "0.1894"]


@pytest.mark.parametrize("style", ["innsbruck", "eichel"])
def test_stats_both_gestrichen_equals_a_plain_reading(style):
    """`stats`' §8.13 table (spec Q14) against a plain reading of the same 4,000 dealt tables: each seat's L0 codes
    (`figure_codes`), the teams' best figure of the style's least size (more cards first; then a Gleich and the
    higher code, unless the style compares length only), a tie or no such figure meaning play."""
    least, length_only = D.gestrichen_args(style)
    rules = D.DealRules(style=style)
    job = D.StatsJob(rules)
    _, parts = D.StatsJob.split(job.run_block(3, 0, 4_000))
    rows = D.deal_block(block_words(3, 0, 4_000, D.WORDS_PER_DEAL), rules)
    tally = [0, 0, 0, 0]
    for row in rows:
        trump = P.DECK.suits[int(row[D.TRUMP])]
        codes = P.figure_codes(np.array([row[s] for s in range(4)], dtype=np.uint64), style, trump)
        best = [0, 0]
        for seat in range(4):
            for f, code in enumerate(codes[seat]):
                if code // 16 >= least:
                    key = (code // 16,) if length_only else (code // 16, 1 - f, code)
                    best[seat % 2] = max(best[seat % 2], key) if best[seat % 2] else key
        held = any(code // 16 >= least for seat in codes for code in seat)
        if best[0] != best[1]:
            tally[0 if (best[0] or ()) > (best[1] or ()) else 1] += 1
        else:
            tally[3 if held else 2] += 1
    assert list(parts["gestrichen"]) == tally and sum(tally) == 4_000


def test_odds_own_figure_rows_are_consistent():
    """`odds`' own-figure rows (spec Q2-Q3), at L0 on the same deals: a hand whose figure is the single best at the
    table wins it for its team, so the single-best count is at most the team's wins; single and tied exclude each
    other; the 3-player game (each for himself) has no such rows, its win/stand being the same question."""
    frame = api.odds("S6 LA LK L8 E10", seat=2, turnup="L10", n=4_000, seed=5, progress=False, checkpoint=False)
    rows = frame.set_index(["figure", "outcome"]).successes
    for fig in ("gleich", "hanger"):
        single, tied = rows["own", f"{fig}.single"], rows["own", f"{fig}.tied"]
        assert single <= rows[fig, "win"] and single + tied <= frame.attrs["n"] and tied > 0
    assert "Your own figure at the table" in api.format_odds(frame)
    three = api.odds("S6 LA LK L8 E10 H9 H8", players=3, turnup="L10", n=500, seed=5, progress=False,
                     checkpoint=False)
    assert "own" not in set(three.figure)
