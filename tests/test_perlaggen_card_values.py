"""`stats perlaggen --card-values` (spec §11.3 Q8): each card swapped for a random stock card, paired counts; with
`--versus`, named cards against each other on the same deals.

The jobs' counts are checked against the plain recounts of `naive_perlaggen_card_values`.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from naive_perlaggen_card_values import plain_counts, plain_pair_counts
from analysis.cli import main
from analysis.games import perlaggen_card_values as A
from simcore import runner
from simcore.games import perlaggen as P
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
    (["--versus", "HK,S6"], "--versus applies only with --card-values"),
    (["--card-values", "--versus", "HK"], "--versus takes 2 to 8 different cards"),
    (["--card-values", "--versus", "HK,S6,S7,E7,LA,LK,L10,L9,L8"], "got 9"),
    (["--card-values", "--versus", "HK HK"], "HK is given 2 times in --versus"),
    (["--card-values", "--versus", "HK,Q7"], "'Q7' is not a card"),
    (["--card-values", "--versus", "HK,S6", "--style", "schlanders"], "--versus lists the Weli (S6)"),
    (["--card-values", "--versus", "HK,S6", "--players", "3"], "four-player deals"),
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


CARDS = [P.DECK.parse_face(t) for t in ("HK", "S6", "LA", "E7")]


@pytest.mark.parametrize("style, method, n", [("innsbruck", "greedy", 120), ("eichel", "g2", 120),
                                              ("innsbruck", "g2", 80), ("innsbruck", "dd", 40)])
def test_pair_counts_equal_a_plain_recount(style, method, n):
    job = V.CardPairJob(D.DealRules(style), method, CARDS)
    counts = job.run_block(11, 3, n)
    assert (counts == plain_pair_counts(11, 3, n, style, method, CARDS)).all()
    assert job.unpack(counts)[2][..., 0].sum() > 0


@settings(max_examples=10, deadline=None)
@given(cards=st.lists(st.integers(0, V.N_CARDS - 1), min_size=2, max_size=4, unique=True),
       seed=st.integers(0, 2**32 - 1), block=st.integers(0, 5))
def test_pair_counts_of_any_cards_equal_a_plain_recount(cards, seed, block):
    job = V.CardPairJob(D.DealRules(), "greedy", cards)
    assert (job.run_block(seed, block, 40) == plain_pair_counts(seed, block, 40, "innsbruck", "greedy", cards)).all()


def test_the_random_policy_judges_both_cards_with_the_deals_draws():
    n, rules = 64, D.DealRules()
    rows = D.deal_block(block_words(5, 0, n, D.WORDS_PER_DEAL), rules)
    job = V.CardPairJob(rules, "random", CARDS)
    deal, slot, out, into, pair, first = job.swaps(V.hand_cards(rows[:, :4]).reshape(n, V.SLOTS), rows[:, D.STOCK])
    u = block_substream(5, 0, PP.PLAY_STREAM).random((n, PP.DECISIONS))

    def spiel(row, d):
        return PP.play_out("random", row[None, :4], row[None, D.TRUMP].astype(np.int64), u[d][None])[0][0]

    swapped = V.swap_cards(rows, deal, V.SLOT_SEATS[slot], out, into)
    before = np.column_stack([D.outcomes(rows[deal]), [spiel(rows[d], d) for d in deal]])
    after = np.column_stack([D.outcomes(swapped), [spiel(swapped[k], d) for k, d in enumerate(deal)]])
    tallies = job.tally(rows[deal, D.TRUMP].astype(np.int64) * len(job.pairs) + pair, V.SLOT_SEATS[slot] % 2, first,
                        before, after)
    assert len(deal) > 0 and (job.run_block(5, 0, n)[1 + V.N_TRUMPS:] == tallies).all()


def test_swaps_take_a_held_card_and_a_stock_card_of_one_pair():
    n = 200
    rows = D.deal_block(block_words(2, 0, n, D.WORDS_PER_DEAL))
    job = V.CardPairJob(D.DealRules(), "greedy", CARDS)
    held = V.hand_cards(rows[:, :4]).reshape(n, V.SLOTS)
    deal, slot, out, into, pair, first = job.swaps(held, rows[:, D.STOCK])
    expected = {(d, s, int(held[d, s]), c) for d in range(n) for s in range(V.SLOTS) for c in CARDS
                if held[d, s] in CARDS and int(rows[d, D.STOCK]) >> c & 1}
    assert set(zip(deal.tolist(), slot.tolist(), out.tolist(), into.tolist())) == expected
    for k in range(len(deal)):
        i, j = job.pairs[pair[k]]
        assert (CARDS[i], CARDS[j]) == ((out[k], into[k]) if first[k] else (into[k], out[k]))


def test_pair_counts_do_not_depend_on_chunks_or_jobs():
    job = V.CardPairJob(D.DealRules(), "greedy", CARDS[:3])
    one = runner.run(job, 1500, 9, chunk_deals=1500, checkpoint=False, progress=False)
    two = runner.run(job, 1500, 9, chunk_deals=512, jobs=2, checkpoint=False, progress=False)
    assert (one == two).all() and one[0] == 1500


def test_the_martl_and_the_weli_are_equal_when_the_other_is_out_of_play():
    """The stock card is out of play, so the hand's Perlagg is the highest in play either way: no deal differs. The
    trump Ace is worth less than the Martl in every figure, less than the Weli in the Gleich and the Hanger."""
    frame = A.card_pairs("HK S6 LA", n=4_000, seed=2, trump="L", progress=False, checkpoint=False)
    rows = frame.set_index(["first", "second"])
    for fig in V.FIGURES:
        assert rows.loc[("HK", "S6"), f"{fig}_d"] == 0
        assert rows.loc[("HK", "S6"), f"{fig}_first"] == rows.loc[("HK", "S6"), f"{fig}_second"]
        assert rows.loc[("HK", "LA"), f"{fig}_d_lo"] > 0
    assert rows.loc[("S6", "LA"), "gleich_d_lo"] > 0 and rows.loc[("S6", "LA"), "hanger_d_lo"] > 0
    assert rows.loc[("HK", "LA"), "gleich_d"] == pytest.approx(
        rows.loc[("HK", "LA"), "gleich_first"] - rows.loc[("HK", "LA"), "gleich_second"])


def test_cli_versus_json_text_and_the_sweep_names(capsys):
    args = ["stats", "perlaggen", "--card-values", "--versus", "hk,la", "--n", "3000", "--seed", "3", "--trump", "L",
            "--no-progress"]
    assert main(args + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["cards"] == ["HK", "LA"] and list(out["trumps"]) == ["L"] and out["n"] == 3000
    (pair,) = out["trumps"]["L"]["pairs"]
    assert (pair["first"], pair["second"]) == ("HK", "LA") and pair["pairs"] > 100
    diff = pair["spiel"]["difference"]
    assert diff["lo"] <= diff["d"] <= diff["hi"]
    assert diff["d"] == pytest.approx(pair["spiel"]["first"]["p"] - pair["spiel"]["second"]["p"])
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "card against card" in text and "HK    LA" in text and f"{pair['pairs']:,}" in text
    long = A.card_pairs_long(A.card_pairs(["HK", "LA"], n=3000, seed=3, trump="L", progress=False,
                                          checkpoint=False))
    assert {"L.HK-LA.spiel_d", "L.HK-LA.gleich_first", "L.HK-LA.hanger_second"} <= set(long.estimate)
    assert len(long) == 9 and (long.n == pair["pairs"]).all()
