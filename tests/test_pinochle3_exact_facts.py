"""simcore.games.pinochle3_exact and the fact tables of `cardsim stats pinochle3 --exact`: the holdings counted by
generating polynomials against a plain enumeration of every small holding, every single-meld, counter, suit-length
and nines throw-in number of spec §9.2, the no-meld rule against the meld evaluator, and the command's output."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from analysis.cli import main
from analysis.games import pinochle3 as api
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.games import pinochle3_exact as ex
from simcore.rng import block_words

SPEC_MELDS_15 = {  # product event: spec §9.2 exact fraction (15 cards)
    "rope cards in a given suit": Fraction(56853, 1905803),
    "rope cards in some suit": Fraction(8059885364, 68328754959),
    "double rope in a given suit": Fraction(7, 15246424),
    "double rope in some suit": Fraction(7, 3811606),
    "aces around (each rank alike)": Fraction(372931, 5717409),
    "some single around": Fraction(5666345978, 22776251653),
    "double around of a given rank": Fraction(65, 3811606),
    "pinochle": Fraction(889, 3243),
    "double pinochle": Fraction(91, 12972),
    "marriage in a given suit": Fraction(889, 3243),
    "double marriage in a given suit": Fraction(91, 12972),
    "some marriage": Fraction(464745543, 615574369),
    "roundhouse (K and Q of every suit)": Fraction(7304891, 3596250261),
    "a nine of a given suit": Fraction(25, 47),
    "both nines of a given suit": Fraction(35, 376),
}
SPEC_THROW_INS = {  # rule: per player, per deal (or None), as printed in spec §9.2
    "5_no_meld": ("0.0163659", "0.049098"), "6_any": ("0.0075830", "0.022749"), "7_any": ("0.00057981", "0.0017394"),
    "5_no_ace": ("0.0041029", "0.012309"), "6_max1ace": ("0.0031572", "0.0094716"),
    "5_any": ("0.0510026", "0.153008"), "no_meld_any_nines": ("0.1502328", None),
}


def close(x: float, text: str) -> bool:
    """Does x round to ``text`` at the digits it is printed with?"""
    digits = len(text.partition("e")[0].partition(".")[2]) - int(text.partition("e")[2] or 0)
    return abs(x - float(text)) <= 0.5 * 10.0 ** -digits + 1e-15


# --- a plain enumeration of every holding of up to 5 cards ---------------------------------------------------
def every_holding(size: int) -> np.ndarray:
    """(C(48, size),) uint64: every holding of ``size`` cards, each once."""
    masks, highest = np.zeros(1, dtype=np.uint64), np.full(1, -1)
    for _ in range(size):
        parts = [(masks[highest < c] | np.uint64(1 << c), np.full(int((highest < c).sum()), c)) for c in range(48)]
        masks, highest = np.concatenate([m for m, _ in parts]), np.concatenate([h for _, h in parts])
    return masks


@pytest.fixture(scope="module")
def small():
    """size -> (n, 24) copies of every face in every holding of that size (0-4)."""
    out = {}
    for size in range(5):
        masks = every_holding(size)
        out[size] = np.stack([(masks >> np.uint64(2 * f) & np.uint64(3)).astype(np.int64) for f in range(24)], 1)
        out[size] = (out[size] & 1) + (out[size] >> 1)
        assert len(masks) == comb(48, size)
    return out


def plain_count(copies: np.ndarray, minimum: dict[int, int], groups) -> int:
    """Holdings (rows of face copies) meeting ``minimum`` and ``groups``, counted one by one."""
    ok = np.ones(len(copies), dtype=bool)
    for face, least in minimum.items():
        ok &= copies[:, face] >= least
    for group in groups:
        total = copies[:, list(group.faces)].sum(axis=1)
        ok &= (total >= group.lo) & (total <= group.hi)
    return int(ok.sum())


@st.composite
def constraints(draw):
    """A minimum of copies for some faces and up to two disjoint groups with bounds."""
    faces = draw(st.permutations(range(24)))
    minimum = {f: draw(st.integers(0, 2)) for f in faces[:draw(st.integers(0, 4))]}
    groups, start = [], draw(st.integers(0, 8))
    for _ in range(draw(st.integers(0, 2))):
        width = draw(st.integers(1, 6))
        lo = draw(st.integers(0, 3))
        groups.append(ex.Group(tuple(faces[start:start + width]), lo, lo + draw(st.integers(0, 3))))
        start += width
    return minimum, tuple(groups)


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 4), rules=constraints())
def test_holdings_equal_the_plain_count(small, size, rules):
    minimum, groups = rules
    assert ex.holdings(size, minimum, groups) == plain_count(small[size], minimum, groups)


@settings(max_examples=60, deadline=None)
@given(size=st.integers(0, 4), copies=st.integers(1, 2),
       melds=st.lists(st.lists(st.integers(0, 23), min_size=1, max_size=3, unique=True), min_size=1, max_size=3))
def test_any_and_none_of_melds_equal_the_plain_count(small, size, copies, melds):
    """Melds may share faces here (inclusion-exclusion still holds)."""
    rows = small[size]
    held = np.zeros(len(rows), dtype=bool)
    for meld in melds:
        held |= (rows[:, meld] >= copies).all(axis=1)
    melds = [tuple(m) for m in melds]
    assert ex.holdings_with_any(size, melds, copies) == int(held.sum())
    if copies == 1:
        assert ex.holdings_without(size, melds) == len(rows) - int(held.sum())


@pytest.fixture(scope="module")
def five():
    """Every holding of 5 cards: (masks, nines, aces, no meld but deece as `nines_throw_in` reads it: the meld under
    spades is the spade nines alone)."""
    masks = every_holding(5)
    nines = np.bitwise_count(masks & p3.NINES).astype(np.int64)
    aces = np.bitwise_count(masks & p3.ACES_MASK).astype(np.int64)
    spade_nines = np.bitwise_count(masks & np.uint64(3)).astype(np.int64)
    return masks, nines, aces, p3.meld_points(masks, p3.SPADES) == 10 * spade_nines


def test_no_meld_but_deece_is_the_meld_evaluators(five):
    """`MELDS_BUT_DEECE` against `pinochle3.meld_points` on every holding of 4 and 5 cards."""
    masks, _, _, no_meld = five
    assert ex.holdings_without(5, ex.MELDS_BUT_DEECE) == int(no_meld.sum())
    four = every_holding(4)
    spade_nines = np.bitwise_count(four & np.uint64(3)).astype(np.int64)
    plain = int((p3.meld_points(four, p3.SPADES) == 10 * spade_nines).sum())
    assert ex.holdings_without(4, ex.MELDS_BUT_DEECE) == plain


@pytest.mark.parametrize("nines, aces, no_meld", [(0, 0, True), (1, 1, True), (2, 0, True), (0, 4, True), (1, 8, True),
                                                  (2, 1, False), (3, 8, False), (0, 0, False)])
def test_throw_in_holdings_equal_the_plain_count(five, nines, aces, no_meld):
    """Every combination of a nines floor, an aces limit and the no-meld condition, on every holding of 5 cards."""
    _, held_nines, held_aces, plain_no_meld = five
    ok = (held_nines >= nines) & (held_aces <= aces) & (plain_no_meld | (not no_meld))
    assert ex.throw_in_holdings(nines, aces, no_meld, size=5) == int(ok.sum())


def test_deal_rate_is_three_times_only_where_no_two_players_qualify():
    """Two hands cannot both hold 5 of the 8 nines, but can both hold 4."""
    assert ex.no_two_qualify(5) and not ex.no_two_qualify(4) and not ex.no_two_qualify(0)
    assert [r["deal"] is None for r in ex.throw_in_shares()] == [not ex.no_two_qualify(r["nines"])
                                                                  for r in ex.throw_in_shares()]


@pytest.mark.parametrize("call, message", [
    (lambda: ex.holdings(-1), "size must be from 0 to 48, got -1"),
    (lambda: ex.holdings(49), "size must be from 0 to 48, got 49"),
    (lambda: ex.holdings(2.5), "size must be a whole number"),
    (lambda: ex.holdings(1, {0: -1}), "a face's minimum copies"),
    (lambda: ex.holdings(1, {24: 1}), "a face must be"),
    (lambda: ex.holdings(1, [1]), "minimum must map faces"),
    (lambda: ex.holdings(1, groups=(ex.Group((0,), 0, -2),)), "a group's most cards"),
    (lambda: ex.holdings(1, groups=(ex.Group((0,), -1, 2),)), "a group's least cards"),
    (lambda: ex.holdings(1, groups=(ex.Group((0, 1)), ex.Group((1, 2)))), "the groups' faces must be distinct"),
    (lambda: ex.holdings(1, groups=(ex.Group((99,)),)), "a group's face"),
    (lambda: ex.holdings(1, groups=((0, 1),)), "groups must be Group"),
    (lambda: ex.throw_in_holdings(-1, 8, False), "nines must be"),
    (lambda: ex.throw_in_holdings(5, -2, False), "aces must be"),
    (lambda: ex.throw_in_holdings(5, 8, "no"), "no_meld must be True or False"),
    (lambda: ex.counter_holdings(-1), "size must be"),
    (lambda: ex.suit_length_holdings(49), "size must be"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(CardsimError, match=re.escape(message)):
        call()


# --- spec §9.2 numbers ---------------------------------------------------------------------------------------
def test_single_melds_are_the_spec_fractions():
    rows = ex.meld_event_holdings(15)
    assert [name for name, _ in rows] == list(SPEC_MELDS_15)
    for name, count in rows:
        assert Fraction(count, comb(48, 15)) == SPEC_MELDS_15[name], name
    eighteen = dict(ex.meld_event_holdings(18))
    assert close(eighteen["rope cards in some suit"] / comb(48, 18), "0.264693")
    assert close(eighteen["aces around (each rank alike)"] / comb(48, 18), "0.124462")


def test_counters_and_suit_lengths_are_the_spec_rows():
    hand = [c / comb(48, 15) for c in ex.counter_holdings(15)]
    for k, text in zip(range(4, 12), "0.02426 0.07625 0.16097 0.23284 0.23284 0.16097 0.07625 0.02426".split()):
        assert close(hand[k], text)
    kitty = [c / comb(48, 3) for c in ex.counter_holdings(3)]
    assert all(close(x, t) for x, t in zip(kitty, "0.117021 0.382979 0.382979 0.117021".split()))
    eighteen = ex.counter_holdings(18)
    assert close(1 - sum(eighteen[:3]) / comb(48, 18), "0.99997108") and sum(eighteen) == comb(48, 18)
    lengths = [c / comb(48, 15) for c in ex.suit_length_holdings()]
    spec = "0.005093 0.041669 0.139502 0.251879 0.272029 0.184143 0.079568 0.021922 0.003780".split()
    assert all(close(x, t) for x, t in zip(lengths, spec))
    longest = [c / comb(48, 15) for c in ex.longest_suit_holdings()]
    spec = {4: "0.097628", 5: "0.491544", 6: "0.306448", 7: "0.087600", 8: "0.015118", 9: "0.001568", 10: "9.1e-5"}
    assert all(close(longest[k], t) for k, t in spec.items()) and sum(longest[:4]) == 0
    assert close(sum(k * x for k, x in enumerate(longest)), "5.436") and sum(ex.longest_suit_holdings()) == comb(48, 15)


def test_throw_ins_are_the_spec_table():
    rows = {r["rule"]: r for r in ex.throw_in_shares()}
    assert list(rows) == [*p3.NINES_RULES, *ex.NINES_REFERENCES]
    for rule, (player, per_deal) in SPEC_THROW_INS.items():
        assert close(rows[rule]["player"], player), rule
        assert (rows[rule]["deal"] is None) if per_deal is None else close(rows[rule]["deal"], per_deal), rule
    assert close(1 / rows["5_no_meld"]["player"], "61.1")


def test_throw_in_shares_agree_with_nines_throw_in_on_dealt_hands():
    """The exact per-player shares against `pinochle3.nines_throw_in` over 393,216 dealt hands (within 4.5 SE)."""
    spec = DealSpec(p3.LAYOUT)
    hands = np.concatenate([deal(spec, block_words(5, block, 65_536, spec.words_per_deal))[:, :3].ravel()
                            for block in range(2)])
    for row in ex.throw_in_shares()[:len(p3.NINES_RULES)]:
        share = p3.nines_throw_in(hands, row["rule"]).mean()
        assert abs(share - row["player"]) <= 4.5 * np.sqrt(row["player"] * (1 - row["player"]) / hands.size)


# --- the command ---------------------------------------------------------------------------------------------
def test_exact_command_prints_the_fact_tables(capsys):
    assert main(["stats", "pinochle3", "--exact", "--option", "nines_rule=5_no_ace"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Pinochle exact facts: every holding counted once")
    row = next(x for x in lines if x.startswith("  rope cards in some suit"))
    assert row.split()[-5:] == ["0.117957", "8.48", "0.264693", "3.78", "8059885364/68328754959"]
    row = next(x for x in lines if x.startswith("  double rope in a given suit"))
    assert row.split()[-5:] == ["4.591e-7", "2,178,061", "6.690e-6", "149,475", "7/15246424"]
    assert any(x.startswith("  P(hand and kitty hold 3 counters or more, so") and x.endswith("= 0.99997108")
               for x in lines)
    assert next(x for x in lines if x.startswith("  mean ") and "5.436" in x).split() == ["mean", "3.750", "5.436"]
    assert "  5_no_ace                0.00410292    243.7   0.0123088   <- nines_rule" in lines
    assert "  (no meld but deece)       0.150233     6.66" in lines
    assert main(["stats", "pinochle3", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)["tables"]
    assert set(data) == {"summary", "ccdf", "melds", "counters", "suits", "throw_ins"}
    roundhouse = next(r for r in data["melds"] if r["event"].startswith("roundhouse") and r["cards"] == 15)
    assert roundhouse["fraction"] == "7304891/3596250261" and roundhouse["holdings"] == 7304891 * comb(48, 15) // \
        3596250261
    assert not any(r["chosen"] for r in data["throw_ins"])


def test_stats_exact_column_is_the_computed_share(capsys):
    table = api._throw_in_table(np.zeros(len(p3.NINES_RULES), dtype=np.int64), 10, None)
    assert table.exact.tolist() == [r["deal"] for r in ex.throw_in_shares()[:len(p3.NINES_RULES)]]
