"""Perlaggen for 2, 3 and 6 players and Strafperlaggen (spec §9.2-§9.5): the deal kernel against the
plain-Python reference (tests/naive_perlaggen_deal.py) on the same random words, arranged packs, the
rule errors, and the per-seat statistics."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_perlaggen_deal as naive
from analysis.cli import main
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_variants as V
from simcore.rng import block_words

RULES = [V.TableRules(2), V.TableRules(2, packets="3-T-4"), V.TableRules(3), V.TableRules(3, "eichel"),
         V.TableRules(3, "straf"), V.TableRules(6), V.TableRules(6, hand_size=5), V.TableRules(6, "eichel", 5),
         V.TableRules(3, "schlanders", exchange_gives="lowest"), V.TableRules(6, "schlanders_e8"),
         V.TableRules(2, "deutschnofen")]


def tokens(mask) -> set[str]:
    return {P.DECK.token(c) for c in P.DECK.cards_of(int(mask))}


def as_reference(row, rules: V.TableRules) -> dict:
    """The kernel row in the reference's terms."""
    if row[V.THROWN]:
        return {"thrown": True}
    return {"hands": {s: tokens(row[s]) for s in range(rules.players)}, "taken": tokens(row[V.TAKEN]),
            "stock": tokens(row[V.STOCK]), "table": tokens(row[V.TABLE]), "exposed": tokens(row[V.EXPOSED]),
            "turned": P.DECK.token(int(row[V.TURNED])), "swapper": int(row[V.SWAPPER]) - 1,
            "upgrades": int(row[V.UPGRADES]), "acorn_swaps": int(row[V.ACORN_SWAPS])}


def reference(words, rules: V.TableRules) -> dict:
    ref = naive.deal_table(words, rules.players, rules.style, V.PACKETS[rules.packets], rules.exchange == "always",
                           rules.exchange_gives == "keep_figures")
    if ref["thrown"]:
        return {"thrown": True}
    return {"hands": {s: set(h) for s, h in ref["hands"].items()}, "taken": set(ref["taken"]),
            "stock": ref["stock"], "table": ref["table"], "exposed": set(ref["exposed"]), "turned": ref["turned"],
            "swapper": -1 if ref["swapper"] is None else ref["swapper"], "upgrades": ref["upgrades"],
            "acorn_swaps": ref["acorn_swaps"]}


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key())
def test_kernel_equals_reference(rules):
    words = block_words(4, 2, 400, D.WORDS_PER_DEAL)
    rows = V.table_block(words, rules)
    for w, row in zip(words, rows):
        assert as_reference(row, rules) == reference(w, rules)


@settings(max_examples=100)
@given(st.lists(st.integers(0, 2**32 - 1), min_size=D.WORDS_PER_DEAL, max_size=D.WORDS_PER_DEAL),
       st.sampled_from(RULES))
def test_kernel_equals_reference_any_words(words, rules):
    words = np.array([words], dtype=np.uint32)
    assert as_reference(V.table_block(words, rules)[0], rules) == reference(words[0], rules)


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.key())
def test_hands_and_partition(rules):
    """Every played deal gives each player his hand size and places every card of the pack once."""
    rows = V.table_block(block_words(6, 0, 5000, D.WORDS_PER_DEAL), rules)
    rows = rows[rows[:, V.THROWN] == 0]
    seats = rows[:, :rules.players]
    assert (np.bitwise_count(seats) == rules.hand_size).all()
    places = np.concatenate([seats, rows[:, [V.STOCK, V.TABLE]]], axis=1)
    pack = P.DECK.full_mask & ~(0 if P.has_weli(rules.style) else 1 << P.WELI)
    assert (np.bitwise_or.reduce(places, axis=1) == pack).all()
    assert (np.bitwise_count(places).sum(axis=1) == bin(pack).count("1")).all()
    assert ((rows[:, V.TAKEN] & ~rows[:, rules.players - 1]) == 0).all()


def arranged(front: list[str]) -> list[str]:
    return front + [c for c in naive.CARDS if c not in front]


def test_three_players_2_3_trump_2():
    """§9.4: 2, 3, trump, 2 from seat 1; the cutter (seat 2) showed S7 (cut at 1: the bottom card of a
    one-card packet), so his first packet has one card (A-08); the Martl turned makes hearts trump and
    the dealer, the only one who exchanges (DEFAULT for three players), gives his H8 for it."""
    order = ["S7", "EA", "EK", "L9", "LA", "LK", "LO", "HA", "E9", "H9", "SA", "SK", "SO", "S10", "L10", "HK",
             "E10", "L8", "E8", "H10", "H8", "S8"]
    row = V.table_from_order(arranged(order), 1, V.TableRules(3))
    assert tokens(row[V.TAKEN]) == {"S7"}
    assert tokens(row[1]) == {"EA", "EK", "LO", "HA", "E9", "E10", "L8"}
    assert tokens(row[2]) == {"S7", "L9", "H9", "SA", "SK", "E8", "H10"}
    assert tokens(row[0]) == {"LA", "LK", "SO", "S10", "L10", "HK", "S8"}
    assert P.DECK.token(int(row[V.TURNED])) == "HK" and tokens(row[V.TABLE]) == {"H8"} and row[V.SWAPPER] == 1


def test_straf_exchange_is_dealer_only_without_upgrade():
    """§9.5: only the dealer exchanges and there is no upgrading: a turned trump Perlagg stays dead when
    the dealer has no natural trump, although he holds an acorn Perlagg; in Eichel he upgrades (§9.1)."""
    order = ["S8", "EA", "E10", "E9", "L9", "LA", "LK", "EU", "S9", "S10", "HU", "EK", "SA", "SK", "L10",
             "L8", "E8", "H8", "H9", "L7", "SO", "S7", "LO"]
    row = V.table_from_order(arranged(order), 1, V.TableRules(3, "straf"))
    assert P.DECK.token(int(row[V.TURNED])) == "HU" and row[V.SWAPPER] == 0
    assert tokens(row[0]) == {"EU", "S9", "S10", "L7", "SO", "S7", "LO"}
    eichel = V.table_from_order(arranged(order), 1, V.TableRules(3, "eichel", packets="3-T-4"))
    assert eichel[V.SWAPPER] == 1 and eichel[V.UPGRADES] == 1 and "HU" in tokens(eichel[0])
    assert "EU" in tokens(eichel[V.TABLE])


def test_six_players_eichel_throw_in():
    """A-28: six players with 5 cards in Eichel and only acorns left: no trump, the deal is thrown in."""
    acorns = ["EA", "EK", "E10"]
    others = [c for c in naive.CARDS if c not in acorns]
    row = V.table_from_order(others + acorns, 33, V.TableRules(6, "eichel", 5))
    assert row[V.THROWN] == 1


@pytest.mark.parametrize("kwargs, message", [
    (dict(players=5), "must be 2, 3, 4 or 6"),
    (dict(players=2, style="straf"), "three-player game"),
    (dict(players=3, hand_size=5), "hold 7 cards"),
    (dict(players=6, hand_size=0), "got 0"),
    (dict(players=6, hand_size=4, packets="2-3"), "does not deal 4 cards"),
    (dict(players=3, style="straf", packets="2-3-T-2"), "deals 3-T-4"),
    (dict(players=3, exchange="sometimes"), "unknown exchange policy"),
])
def test_bad_rules_are_refused(kwargs, message):
    with pytest.raises(CardsimError, match=message):
        V.TableRules(**kwargs)


def test_stats_per_seat(capsys):
    """`cardsim stats perlaggen --players 3 --style straf`: per seat Perlaggen and best figures, with
    intervals; the dealer's exchange shows as more Perlaggen in his hand."""
    code = main(["stats", "perlaggen", "--players", "3", "--style", "straf", "--n", "65536", "--seed", "2",
                 "--json", "--no-progress"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["players"] == 3 and data["style"] == "straf" and data["packets"] == "3-T-4"
    seats = {r["seat"]: r for r in data["tables"]["perlaggen_by_seat"]}
    assert set(seats) == {0, 1, 2} and seats[0]["mean"] > seats[1]["mean"]
    strict = [r for r in data["tables"]["seat_best"] if r["label"] == "strictly best"]
    assert len(strict) == 6 and all(0 < r["lo"] <= r["p"] <= r["hi"] < 1 for r in strict)


def test_stats_six_players_teams(capsys):
    code = main(["stats", "perlaggen", "--players", "6", "--hand-size", "5", "--n", "20000", "--seed", "2",
                 "--no-progress"])
    out = capsys.readouterr().out
    assert code == 0 and "6 players" in out and "team D" in out


def test_perlagg_counts_of_the_variants():
    """§9.5: 9 Perlaggen with hearts or leaves trump, 8 with bells; 7-card hands of the reference agree."""
    assert len(P.perlaggen("straf", "H")) == 9 and len(P.perlaggen("straf", "S")) == 8
    rows = V.table_block(block_words(1, 0, 3000, D.WORDS_PER_DEAL), V.TableRules(3, "straf"))
    assert set(rows[:, V.TRUMP].tolist()) <= {1, 2, 3}
