"""Giltspiel mit 3 Perlique (giltspiel.md §8): the trump suit's 7, Unter and Ober are wild for the Gleich and the
Hanger, each standing for any card its hand does not hold. The wild-card kernels against a brute-force substitution,
exact enumeration against the Monte-Carlo statistics, and the commands."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive
from analysis.cli import main
from analysis.games import giltspiel as analysis
from simcore.errors import CardsimError
from simcore.figures import run_code, run_table, set_code, wild_run_code, wild_set_code
from simcore.games import giltspiel as g

N_SUITS, N_RANKS = 4, 8


def substituted_codes(cards, trump: int) -> tuple[int, int]:
    return naive.wild_figures(cards, {trump * N_RANKS + r for r in g.PERLIQUE_RANKS})


def plain_codes(cards) -> tuple[int, int]:
    return naive.best_gleich(cards), naive.best_hanger(cards)


hands = st.lists(st.integers(0, 31), min_size=5, max_size=5, unique=True)


@given(hands, st.integers(0, 3))
@settings(max_examples=300, deadline=None)
def test_wild_codes_match_brute_force_substitution(cards, trump):
    assert g.hand_figures(cards, int(g.PERLIQUE[trump])) == substituted_codes(cards, trump)


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=300)
def test_wild_kernels_without_wild_cards_are_the_plain_ones(mask):
    table = run_table(N_RANKS)
    mask = np.uint64(mask)
    assert wild_set_code(mask, 0, N_SUITS, N_RANKS) == set_code(mask, N_SUITS, N_RANKS)
    assert wild_run_code(mask, 0, N_SUITS, N_RANKS) == run_code(mask, N_SUITS, N_RANKS, table)


@pytest.mark.parametrize("hand, trump, gleich, hanger", [
    ("EK LK EO HO SO", "H", "three Kings", "A-K-O"),  # HO wild: a third King, the Ace above E K-O
    ("EK LK EO HO SO", "S", "three Kings", "A-K-O"),  # SO wild
    ("EK LK EO HO SO", "L", "three Obers", "K-O"),  # no Perlique in hand: natural
    ("E7 EU EO HA S9", "E", "four Aces", "A-K-O-U"),  # three wild cards around one Ace
    ("H7 HU HO HK HA", "H", "four Aces", "A-K-O-U-10"),  # the Ace and three wild cards; or H K A below them
])
def test_worked_hands(hand, trump, gleich, hanger):
    wild = int(g.PERLIQUE[g.DECK.suits.index(trump)])
    code_g, code_h = g.hand_figures(g.DECK.parse_cards(hand), wild)
    assert (g.gleich_name(code_g), g.hanger_name(code_h)) == (gleich, hanger)


def test_exact_enumeration_covers_every_turnup_and_hand():
    masks, codes = g.exact_hands(perlique=True)
    assert masks.size == 8 * 169_911 and codes.shape == (masks.size, 2)
    plain_masks, plain = g.exact_hands()
    assert plain_masks.size == 201_376
    # a hand without a Perlique keeps its natural codes
    wild = int(g.PERLIQUE[0])
    natural = (masks & np.uint64(wild)) == 0
    sample = np.flatnonzero(natural)[::997]
    for i in sample:
        assert tuple(codes[i]) == plain_codes([c for c in range(32) if int(masks[i]) >> c & 1])


def test_monte_carlo_own_classes_match_the_exact_enumeration():
    """The seat's own best class under the Perlique over 400,000 dealt hands against the exact shares of
    `exact_hands(perlique=True)`: every class within 4.5 standard errors."""
    gleich, hanger = g.single_hand_classes(perlique=True)
    total = gleich.sum()
    tables = analysis.stats(n=400_000, seed=11, perlique=True)
    for figure, exact in (("gleich", gleich), ("hanger", hanger)):
        by_class = tables[f"{figure}_by_class"].drop_duplicates("code").set_index("code")["n"]
        for code, hands_exact in enumerate(exact):
            p = hands_exact / total
            seen = int(by_class.get(code - 1, 0)) / 400_000
            assert abs(seen - p) <= 4.5 * np.sqrt(p * (1 - p) / 400_000) + 1e-9, (figure, code - 1, seen, p)


def test_perlique_raise_the_figures():
    exact = analysis.exact(perlique=True)["facts"].set_index("event")["p"]
    plain = analysis.exact()["facts"].set_index("event")["p"]
    assert exact["has a Gleich"] > plain["has a Gleich"] and exact["Hanger of 3+"] > plain["Hanger of 3+"]
    assert "two pairs" not in exact.index  # counting ranks means nothing with wild cards


def test_a_condition_only_the_wild_cards_make_possible():
    """Holding three Aces, the opponents cannot hold four Aces with natural cards; with the Perlique they can (the
    fourth Ace and the trump's 7, Unter and Ober in one hand), and then they win the Gleich."""
    hand, condition = "EA LA HA SK SO", "opponents gleich >= four Aces"
    with pytest.raises(CardsimError, match="cannot hold"):
        analysis.odds(hand, given=(condition,), n=1000, seed=1)
    frame = analysis.odds(hand, given=(condition,), n=200_000, seed=1, perlique=True)
    assert 0 < frame.attrs["n"] < 1000
    assert frame.set_index(["figure", "outcome"]).loc[("gleich", "lose"), "p"] == 1.0


def test_job_keys_differ():
    assert g.OddsJob(g.Known(), 1).key() != g.OddsJob(g.Known(), 1, (), True).key()
    assert g.StatsJob(g.Known(), 1).key() != g.StatsJob(g.Known(), 1, (), True).key()


def test_commands(capsys):
    assert main(["stats", "giltspiel", "--exact", "--option", "perlique=true", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["perlique"] is True and out["hands"] == 8 * 169_911
    assert main(["odds", "giltspiel", "--hand", "EK LK EO HO SO", "--turnup", "H8", "--n", "2000", "--seed", "1",
                 "--option", "perlique=true", "--no-progress"]) == 0
    assert "mit 3 Perlique" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["odds", "giltspiel", "--hand", "EK LK EO HO SO", "--spiel", "dd", "--option", "perlique_tie=natural"],
     "option perlique_tie is a rule of the Perlique's play in tricks"),
    (["odds", "giltspiel", "--hand", "EK LK EO HO SO", "--option", "perlique=true", "--option", "perlique_tie=natural"],
     "option perlique_tie does not change 'cardsim odds giltspiel'"),
    (["odds", "giltspiel", "--hand", "EK LK EO HO SO", "--spiel", "dd", "--option", "perlique=true", "--option",
      "perlique_tie=first"], "perlique_tie"),
    (["match", "giltspiel", "--a", "formula", "--b", "never", "--games", "2", "--option", "perlique=true"],
     "option perlique does not change"),
])
def test_refused_where_not_modelled(capsys, argv, message):
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


@pytest.mark.parametrize("options", [{"perlique": True}, {"communication": "none"}])
def test_the_betting_api_refuses_options_it_does_not_read(options):
    """From Python as on the command line: an option the betting game does not read is refused, not run as the
    plain game under its name."""
    from analysis.games import betting

    with pytest.raises(CardsimError, match="does not change the Giltspiel betting game"):
        betting.match("giltspiel", "formula", "cautious", games=4, seed=1, options=options)


@pytest.mark.parametrize("perlique", [False, True])
def test_opponent_counts_equal_a_plain_reading_of_the_hands(perlique):
    """Spec Q4: the kernel's 'an opponent holds a better / an equal figure than mine' against the four hands read
    one by one (`hand_figures`, the Perlique of each deal's turn-up), 4,000 deals of a known hand at seat 3."""
    hand = tuple(g.DECK.parse_cards("LA SA H10 E9 E8"))
    job = g.OddsJob(g.Known({3: hand}), 1, (), perlique, seat=3)
    counts = job.run_block(6, 0, 4000)
    slots, _ = job.deal_block(6, 0, 4000)
    expected = np.zeros((2, 2), dtype=np.int64)
    for row in slots:
        wild = int(g.PERLIQUE[g.DECK.cards_of(int(row[g.TURNUP]))[0] // N_RANKS]) if perlique else 0
        codes = [g.hand_figures(g.DECK.cards_of(int(row[s])), wild) for s in range(4)]
        for figure in range(2):
            mine, best = codes[3][figure], max(codes[0][figure], codes[2][figure])
            expected[figure] += [best > mine, best == mine >= 0]
    assert counts[0] == 4000 and np.array_equal(counts[9:].reshape(2, 2), expected)
    assert (expected[:, 0] >= counts[[3, 7]]).all()  # the team loses only where an opponent beats me


def test_opponent_counts_need_a_seat_of_the_team():
    assert g.OddsJob(g.Known(), 1).n_counts == 9 and g.OddsJob(g.Known(), 1, seat=1).n_counts == 13
    for job in (g.OddsJob(g.Known(), 1), g.OddsJob(g.Known(), 1, seat=1)):
        counts = job.run_block(1, 0, 64)
        assert counts.dtype == np.int64 and counts.shape == (job.n_counts,)  # the runner adds chunks as int64
    assert g.OddsJob(g.Known(), 1, seat=3).key() != g.OddsJob(g.Known(), 1).key()
    with pytest.raises(CardsimError, match="not in team"):
        g.OddsJob(g.Known(), 1, seat=2)
    for seat in (5, -1, 1.5, True):
        with pytest.raises(CardsimError, match="--seat"):
            g.OddsJob(g.Known(), 1, seat=seat)


def test_odds_prints_the_opponent_lines(capsys):
    assert main(["odds", "giltspiel", "--hand", "LA SA H10 E9 E8", "--n", "20000", "--seed", "3",
                 "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "a better Gleich than your pair of Aces" in text and "an equal Hanger" in text
    assert main(["odds", "giltspiel", "--hand", "EU E10 H9 H8 SK", "--n", "20000", "--seed", "3", "--no-progress",
                 "--json"]) == 0
    estimates = json.loads(capsys.readouterr().out)["estimates"]
    assert estimates["gleich.opponent_better"]["p"] >= estimates["gleich.lose"]["p"]
