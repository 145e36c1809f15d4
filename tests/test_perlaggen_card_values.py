"""`stats perlaggen --card-values` (spec §11.3 Q8): each card swapped for a random stock card, paired counts.

The job's counts are checked against the plain recount of `naive_perlaggen_card_values`.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from naive_perlaggen_card_values import plain_counts
from analysis.cli import main
from analysis.games import perlaggen_card_values as A
from simcore import runner
from simcore.games import perlaggen_card_values as V
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as PP
from simcore.rng import block_substream, block_words


@pytest.mark.parametrize("style, method, n", [("innsbruck", "greedy", 48), ("eichel", "greedy", 48),
                                              ("eichel", "g2", 32), ("innsbruck", "dd", 16)])
def test_counts_equal_a_plain_recount(style, method, n):
    job = V.CardValueJob(D.DealRules(style), method)
    assert (job.run_block(11, 3, n) == plain_counts(11, 3, n, style, method)).all()


def test_the_random_policy_plays_both_deals_with_the_same_draws():
    n = 32
    rules = D.DealRules()
    rows = D.deal_block(block_words(5, 0, n, D.WORDS_PER_DEAL), rules)
    held = V.hand_cards(rows[:, :4]).reshape(n, V.SLOTS)
    drawn = V.stock_draws(rows[:, D.STOCK], block_substream(5, 0, V.SWAP_STREAM).random((n, V.SLOTS)))
    u = block_substream(5, 0, PP.PLAY_STREAM).random((n, PP.DECISIONS))
    swapped = V.swapped_rows(rows, held, drawn)
    after = np.array([PP.play_out("random", swapped[k:k + 1, :4], swapped[k:k + 1, D.TRUMP].astype(np.int64),
                                  u[k // V.SLOTS][None])[0][0] for k in range(n * V.SLOTS)])
    before = np.array([PP.play_out("random", rows[d:d + 1, :4], rows[d:d + 1, D.TRUMP].astype(np.int64),
                                   u[d][None])[0][0] for d in range(n)])
    expected = V.tally(rows, held, np.column_stack([D.outcomes(rows), before]),
                       np.column_stack([D.outcomes(swapped), after]).reshape(n, V.SLOTS, 3))
    assert (V.CardValueJob(rules, "random").run_block(5, 0, n) == expected).all()


def test_swapped_rows_move_one_card_each_way():
    rows = D.deal_block(block_words(2, 0, 64, D.WORDS_PER_DEAL))
    held = V.hand_cards(rows[:, :4]).reshape(64, V.SLOTS)
    drawn = V.stock_draws(rows[:, D.STOCK], np.random.default_rng(1).random((64, V.SLOTS)))
    swapped = V.swapped_rows(rows, held, drawn).reshape(64, V.SLOTS, D.N_FIELDS)
    for d in range(64):
        for s in range(V.SLOTS):
            seat, new = s // 5, swapped[d, s]
            assert int(rows[d, D.STOCK]) >> int(drawn[d, s]) & 1
            assert int(new[seat]) == int(rows[d, seat]) ^ (1 << int(held[d, s])) ^ (1 << int(drawn[d, s]))
            assert int(new[D.STOCK]) == int(rows[d, D.STOCK]) ^ (1 << int(held[d, s])) ^ (1 << int(drawn[d, s]))
            others = [f for f in range(D.N_FIELDS) if f not in (seat, D.STOCK)]
            assert (new[others] == rows[d, others]).all()


def test_stock_draws_take_each_card_for_its_share_of_u():
    stock = np.array([(1 << 3) | (1 << 9) | (1 << 32)], dtype=np.uint64)
    u = np.array([[0.0, 0.33, 0.34, 0.66, 0.67, 0.999]])
    assert V.stock_draws(stock, u).tolist() == [[3, 3, 9, 9, 32, 32]]


def test_seeded_counts_do_not_depend_on_chunks_and_every_holding_is_counted():
    job = V.CardValueJob()
    one = runner.run(job, 1200, 9, chunk_deals=1200, checkpoint=False, progress=False)
    two = runner.run(job, 1200, 9, chunk_deals=512, checkpoint=False, progress=False)
    assert (one == two).all()
    deals, by_trump, tallies = job.unpack(one)
    assert deals == 1200 == by_trump.sum()
    assert (tallies[:, :, 0].sum(axis=1) == 20 * by_trump).all()


def test_the_martl_is_worth_more_than_a_random_card_and_a_plain_seven_less():
    frame = A.card_values(n=3_000, seed=4, trump="L", progress=False, checkpoint=False).set_index("card")
    for fig in V.FIGURES:
        assert frame.loc["HK", f"{fig}_d_lo"] > 0
        assert frame.loc["H7", f"{fig}_d_hi"] < 0
    assert frame.loc["HK", "role"] == "Perlagg 1, Martl" and frame.loc["LA", "role"] == "trump"


def test_cli_json_and_the_sweep_names(capsys):
    assert main(["stats", "perlaggen", "--card-values", "--n", "600", "--seed", "3", "--trump", "s", "--json",
                 "--no-progress"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["n"] == 600 and list(out["trumps"]) == ["S"] and out["spiel"] == "greedy"
    first = out["trumps"]["S"]["cards"][0]
    assert first["card"] == "HK" and set(first) == {"card", "role", "held", "gleich", "hanger", "spiel"}
    diff = first["gleich"]["difference"]
    assert diff["lo"] <= diff["d"] <= diff["hi"]
    frame = A.card_values(n=600, seed=3, trump="S", progress=False, checkpoint=False)
    long = A.card_values_long(frame)
    assert "S.HK.spiel_d" in set(long.estimate) and len(long) == 6 * len(frame)
    assert (long.n > 0).all()


@pytest.mark.parametrize("args, message", [
    (["--spiel", "dd"], "--spiel applies only with --card-values"),
    (["--card-values", "--players", "3"], "four-player deals"),
    (["--card-values", "--style", "eichel", "--trump", "E"], "not possible in the eichel style"),
    (["--card-values", "--trump", "X"], "trump 'X'"),
    (["--card-values", "--spiel", "pimc"], "--spiel"),
    (["--card-values", "--level", "L1"], "at L0"),
    (["--card-values", "--hand-size", "7"], "drop --players, --hand-size"),
    (["--card-values", "--packets", "2-2"], "drop --players, --hand-size, --packets"),
    (["--card-values", "--trump", "E", "--n", "2", "--seed", "0"], "no deal out of 2 has trump E"),
])
def test_bad_input_is_one_line(args, message, capsys):
    assert main(["stats", "perlaggen", *args, *([] if "--n" in args else ["--n", "10"])]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err


@pytest.mark.parametrize("style, trump, card, role", [
    ("eichel", "S", "S7", "Perlagg 3, Spitz"), ("eichel", "L", "E7", "Perlagg 6, Eichel-Spitz"),
    ("deutschnofen", "L", "L7", "Perlagg 6"), ("deutschnofen", "L", "S7", "Perlagg 5, Schell-Spitz"),
    ("innsbruck", "H", "H7", "Perlagg 5"), ("schlanders", "S", "S8", "Perlagg 2")])
def test_role_names(style, trump, card, role):
    roles = {A.P.DECK.token(c): r for c, r in A.card_roles(style, trump)}
    assert roles[card] == role
