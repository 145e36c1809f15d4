"""`cardsim stats dreeg --exact` (analysis.games.dreeg_exact) and the counting it adds to simcore.games.dreeg_exact:
card points by subset sums, every hand of up to 8 cards, hand features, the Rufen call and the 2-player deal. Each is
checked against a plain count (itertools, the class counts of tests/test_dreeg_exact_facts.py) and the command's
rows against the fractions of spec §6.3 (the 2-player 66 rows against the exact values that test file derives)."""

from __future__ import annotations

import json
from fractions import Fraction as F
from itertools import combinations
from math import comb

import pytest

from analysis.cli import main
from tests.exact import distribution_totals, facts_by_key
from analysis.games import dreeg_exact as api
from simcore.errors import CardsimError
from simcore.games import dreeg_exact as ex
from simcore.games import dreeg_rules as r
from tests.test_dreeg_exact_facts import POINT_CLASSES, point_counts

ACE = 1 << r.HEART_ACE


def test_card_point_counts_are_the_class_count():
    for n in api.POINT_HOLDINGS:
        counts = ex.card_point_counts(n)
        assert {p: c for p, c in enumerate(counts) if c} == point_counts(n) and sum(counts) == comb(24, n)
    rest = [(v, k - (v == r.POINTS[r.HEART_ACE])) for v, k in POINT_CLASSES]
    for n in (1, 6, 8):
        shifted = {p + r.POINTS[r.HEART_ACE]: c for p, c in point_counts(n - 1, rest).items()}
        assert {p: c for p, c in enumerate(ex.card_point_counts(n, ACE)) if c} == shifted


@pytest.mark.parametrize("n, fixed", [(6, ACE | 1 | 1 << 10), (5, 0b111), (8, ACE | 1 << 23), (3, ACE | 1 << 4)])
def test_card_point_counts_with_several_fixed_cards(n, fixed):
    """Against every hand holding the fixed cards, its points read card by card."""
    plain: dict[int, int] = {}
    for cards in combinations([c for c in range(24) if not fixed >> c & 1], n - fixed.bit_count()):
        points = sum(r.POINTS[c] for c in cards) + sum(r.POINTS[c] for c in range(24) if fixed >> c & 1)
        plain[points] = plain.get(points, 0) + 1
    assert {p: c for p, c in enumerate(ex.card_point_counts(n, fixed)) if c} == plain


def test_rot_assen_rows_are_a_plain_reading_of_the_soloists_hands(facts):
    """Every 3- and 4-player hand holding the heart ace, read card by card: the soloist's points held (mean, >= 33),
    his opponents' (the rest of the pack: mean, >= 66), a marriage, the longest suit, the hearts."""
    for players, n in api.TABLES.items():
        hands = [cards + (r.HEART_ACE,) for cards in combinations([c for c in range(24) if c != r.HEART_ACE], n - 1)]
        points = [sum(r.POINTS[c] for c in hand) for hand in hands]
        who = f"{players} players"
        assert F(facts[(f"{who}: soloist's card points held, mean", None)].fraction) == F(sum(points), len(hands))
        assert F(facts[(f"{who}: soloist's card points held >= 33", None)].fraction) == F(
            sum(p >= 33 for p in points), len(hands))
        assert F(facts[(f"{who}: his opponents' card points held >= 66", None)].fraction) == F(
            sum(120 - p >= 66 for p in points), len(hands))
        married = sum(any({6 * s + r.KING, 6 * s + r.OBER} <= set(hand) for s in range(4)) for hand in hands)
        assert F(facts[(f"{who}: soloist holds a marriage", None)].fraction) == F(married, len(hands))
        longest: dict[int, int] = {}
        for hand in hands:
            suits = [c // 6 for c in hand]
            most = max(suits.count(s) for s in range(4))
            longest[most] = longest.get(most, 0) + 1
        for k, count in longest.items():
            assert F(facts[(f"{who}: soloist's longest suit", k)].fraction) == F(count, len(hands))


@pytest.mark.parametrize("n", range(5))
@pytest.mark.parametrize("fixed", [0, ACE, ACE | 1])
def test_every_hand_is_every_combination(n, fixed):
    if fixed.bit_count() > n:
        with pytest.raises(CardsimError, match="cannot hold the"):
            ex.every_hand(n, fixed)
        return
    plain = {sum(1 << c for c in cards) for cards in combinations(range(24), n)
             if sum(1 << c for c in cards) & fixed == fixed}
    hands = ex.every_hand(n, fixed)
    assert len(hands) == len(plain) and set(hands.tolist()) == plain


def plain_features(hand: int) -> dict[str, int]:
    """The `HAND_FEATURES` of one hand, read card by card."""
    cards = [c for c in range(24) if hand >> c & 1]
    lengths = [sum(1 for c in cards if c // 6 == s) for s in range(4)]
    ranks = [{c % 6 for c in cards if c // 6 == s} for s in range(4)]
    return {"voids": lengths.count(0), "longest suit": max(lengths), "hearts": lengths[r.HEART],
            "aces": sum(r.ACE in held for held in ranks),
            "marriages": sum({r.KING, r.OBER} <= held for held in ranks),
            "top sequences only": int(all(held == set(range(6 - len(held), 6)) for held in ranks))}


@pytest.mark.parametrize("n, fixed", [(6, 0), (5, 0), (6, ACE), (3, 0)])
def test_feature_distributions_are_the_plain_reading(n, fixed):
    hands = [sum(1 << c for c in cards) for cards in combinations(range(24), n)]
    read = [plain_features(h) for h in hands if h & fixed == fixed]
    for feature in ex.HAND_FEATURES:
        tally: dict[int, int] = {}
        for features in read:
            tally[features[feature]] = tally.get(features[feature], 0) + 1
        assert ex.feature_distribution(feature, n, fixed) == {k: F(v, len(read)) for k, v in sorted(tally.items())}


def test_duel_facts_are_the_exact_places():
    """The 2-player rows: the values tests/test_dreeg_exact_facts.py enumerates over the product's deal (66: the
    indicator sets the trump, so the spec's 1/24, 1/4 and 11/24 are 1/6, 5/23 and 55/138)."""
    assert list(ex.duel_facts().values()) == [F(1, 6), F(5, 23), F(55, 138), F(1, 1771), F(1, 4), F(1, 2), F(1, 4),
                                              F(1, 4), F(1, 24)]


SPEC = {  # (quantity, k): the exact value of spec §6.3
    ("marriages in a 6-card hand", 1): F(964, 4807), ("marriages in a 8-card hand", 4): F(1, 735471),
    ("8 cards: at least one marriage", None): F(269993, 735471), ("3 cards: the marriage of a given suit", None):
    F(1, 92), ("marriages at the table, 2 x 6, talon out", 0): F(97007, 156009),
    ("marriages at the table, 3 x 8: mean", None): F(28, 23), ("3 players: two given cards in one hand", None):
    F(7, 23), ("4 players, the dealer: holds trump King + Ober", None): F(25, 253),
    ("3 players, a given other player: holds trump King + Ober", None): F(56, 759),
    ("3 players, a given other player: trumps", 0): F(39, 437), ("4 players, the dealer: trumps: mean", None):
    F(48, 23), ("2-player 66, either player's first 6: trump King + Ober", None): F(20, 253),
    ("6 cards, a 4-player or duel hand: P(points >= 33)", None): F(24987, 67298),
    ("6 cards, a 4-player or duel hand: P(points <= 10)", None): F(312, 33649),
    ("8 cards, a 3-player hand: P(points >= 55)", None): F(47312, 735471),
    ("4 players: soloist's card points held, mean", None): F(798, 23),
    ("4 players: soloist's card points held >= 33", None): F(19403, 33649),
    ("4 players: a given player holds the heart ace", None): F(1, 4),
    ("3 players: a given player holds the heart ace", None): F(1, 3),
    ("3 players: soloist holds a marriage", None): F(4450, 14421),
    ("distinct suits in the first 3 cards", 1): F(10, 253),
    ("the greedy call names rank A", None): F(315, 506), ("the greedy call names rank 10", None): F(169, 506),
    ("the greedy call names rank K", None): F(21, 506), ("the greedy call names rank O", None): F(1, 506),
    ("4 players: a partnership forms", None): F(6, 7), ("4 players: soloist holds a marriage", None): F(274, 1771),
    ("marriages at the table, 4 x 6: at least one", None): F(355853, 572033),
    ("marriages at the table, 3 x 8: at least one", None): F(935257, 1225785),
    ("4 players: the called card is in his other 3 cards (a solo)", None): F(1, 7),
    ("3 players: the called card is in his other 5 cards (a solo)", None): F(5, 21),
    ("8 cards: only top sequences (A, A 10, A 10 K, ... in every suit held)", None): F(149, 735471),
    ("6 cards: only top sequences (A, A 10, A 10 K, ... in every suit held)", None): F(3, 4807),
}
SPEC_DECIMALS = {  # (quantity, k): the decimal of spec §6.3, as printed
    ("12 cards, random, as many as a 2 v 2 team: P(points >= 66)", None): "0.3010",
    ("16 cards, random, as many as two 3-player hands: P(points >= 66)", None): "0.9357",
    ("18 cards, random, as many as three 4-player hands: P(points >= 66)", None): "0.9958",
    ("8 cards, a 3-player hand: P(points >= 66)", None): "0.0039", ("6 cards: voids", 2): "0.04110",
    ("8 cards: voids", 1): "0.22991", ("6 cards: aces", 3): "0.03388", ("6 cards: longest suit", 4): "0.06820",
    ("3 players: soloist's longest suit", 4): "0.2478", ("4 players: soloist's hearts", 5): "0.0027",
    ("3 cards, a Rufen packet: SD", None): "6.757", ("8 cards, a 3-player hand: SD", None): "9.6309",
}


@pytest.fixture(scope="module")
def facts():
    return facts_by_key(api.exact()["facts"])


def test_facts_are_the_spec_fractions(facts):
    for key, value in SPEC.items():
        row = facts[key]
        assert (row.fraction, row.p) == (str(value), float(value)), key
    for key, text in SPEC_DECIMALS.items():
        places = len(text.split(".")[1])
        assert round(facts[key].p, places) == float(text), key


def test_every_distribution_adds_up_to_one(facts):
    totals = distribution_totals(facts)
    assert len(totals) >= 20 and set(totals.values()) == {F(1)}


def test_deal_counts_and_command_text(capsys):
    assert main(["stats", "dreeg", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Dreeg exact deal facts (spec §6.3): every hand or deal counted once"
    assert lines[3].split()[-1] == "134,596" and lines[9].split()[-1] == "1,196,852,626,800,230,400"
    assert "  4 players: the called card is in his other 3 cards (a solo)" in next(
        x for x in lines if x.endswith("0.142857   1/7"))
    assert next(x for x in lines if x.startswith("  6 cards, a 4-player or duel hand: most")).split()[-1] == "64"
    assert not any(x.rstrip() != x for x in lines)
    assert main(["stats", "dreeg", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and set(data["tables"]) == {"deals", "facts"}
    assert data["tables"]["deals"][3] == {"quantity": "4-player deals", "count": 2_308_743_493_056}


@pytest.mark.parametrize("argv, message", [
    (["--n", "5"], "--exact enumerates every hand, so --n does not apply"),
    (["--policy", "random"], "--exact enumerates every hand, so --policy does not apply"),
    (["--players", "3"], "--exact enumerates every hand, so --players does not apply"),
    (["--option", "strict=True"], "--exact counts deals, which no rule option changes; drop --option"),
])
def test_exact_refuses_what_does_not_apply(capsys, argv, message):
    assert main(["stats", "dreeg", "--exact", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_a_sweep_refuses_exact(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text('game = "dreeg"\ncommand = "stats"\nseed = 1\nn = 4\n[grid]\nexact = [true]\n')
    assert main(["sweep", str(grid), "--out", str(tmp_path / "out")]) == 2
    assert "cannot store it" in capsys.readouterr().err


@pytest.mark.parametrize("call, message", [
    (lambda: ex.every_hand(9), "n (the cards in the hand)"),
    (lambda: ex.feature_distribution("trumps", 6), "unknown hand feature 'trumps'"),
    (lambda: ex.card_point_counts(6, -1), "fixed (a card mask)"),
    (lambda: ex.same_hand((6, 6)), "sizes must add up to 24"),
    (lambda: ex.same_hand(24), "sizes must be the hands' numbers of cards"),
    (lambda: ex.card_point_counts(2, 0b111), "a hand of 2 cards cannot hold the 3 fixed cards"),
    (lambda: ex.every_hand([6]), "n (the cards in the hand)"),
    (lambda: ex.feature_distribution(["voids"], 6), "unknown hand feature"),
    (lambda: ex.called_ranks(lambda packet: -1), "the called card must be"),
    (lambda: ex.called_ranks(lambda packet: packet.bit_length() - 1), "a call names a card outside"),
])
def test_bad_input_is_refused(call, message):
    with pytest.raises(CardsimError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()
