"""`cardsim stats bauernstoss --exact` (analysis.games.bauernstoss_exact, simcore.games.bauernstoss_exact): every
row against spec §9.2's fractions and decimals, the jack split and the forced opener against dealt tables, and the
command's refusals."""

from __future__ import annotations

import json
from fractions import Fraction as F

import numpy as np
import pytest

from analysis.cli import main
from tests.exact import distribution_totals, facts_by_key
from analysis.games import bauernstoss_exact as api
from simcore.dealing import DealSpec, deal
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_exact as ex
from simcore.rng import block_words

SPEC = {  # (quantity, k): the exact value of spec §9.2
    ("jacks in one hand", 0): F(5313, 17980), ("jacks in one hand", 1): F(2024, 4495),
    ("jacks in one hand", 2): F(966, 4495), ("jacks in one hand", 3): F(168, 4495),
    ("jacks in one hand", 4): F(7, 3596),
    ("one hand: P(jacks >= 2)", None): F(4571, 17980), ("some player holds all 4 jacks", None): F(7, 899),
    ("the jacks split 4-0-0-0", None): F(7, 899), ("the jacks split 3-1-0-0", None): F(672, 4495),
    ("the jacks split 2-2-0-0", None): F(588, 4495), ("the jacks split 2-1-1-0", None): F(2688, 4495),
    ("the jacks split 1-1-1-1", None): F(512, 4495), ("jacks in one team (16 cards)", 0): F(91, 1798),
    ("jacks in one team (16 cards)", 1): F(224, 899), ("jacks in one team (16 cards)", 2): F(360, 899),
    ("jacks in the club jack holder's hand", 2): F(1932, 4495),
    ("jacks in the club jack holder's hand", 3): F(504, 4495),
    ("jacks in the club jack holder's team", 1): F(112, 899), ("jacks in the club jack holder's team", 3): F(336, 899),
    ("jacks in the club jack holder's team", 4): F(91, 899), ("BS: the dealer is the first who must bid", None): F(0),
    ("AS: the dealer is the first who must bid", None): F(7, 3596),
    ("BS: nobody must bid (one player holds all 4 jacks)", None): F(7, 899),
    ("can bid in DS (longest >= 5)", None): F(869753, 3506100), ("holds the club and spade jacks", None): F(7, 124),
    ("trumps in one hand (11 trumps among 32): mean", None): F(11, 4),
    ("one hand (8 cards): mean", None): F(30),
}
SPEC_DECIMALS = {  # (quantity, k): the decimal of spec §9.2, as printed
    ("one hand: P(jacks >= 1)", None): "0.704505", ("one hand: P(jacks >= 3)", None): "0.039321",
    ("one hand: 1-3 jacks (can bid a number in BS)", None): "0.702558", ("jacks in one team (16 cards)", 4): "0.050612",
    ("BS: the forehand is the first who must bid", None): "0.702558",
    ("BS: the 2nd speaker is the first who must bid", None): "0.242937",
    ("BS: the 3rd speaker is the first who must bid", None): "0.046719",
    ("AS: the forehand is the first who must bid", None): "0.704505",
    ("I hold 0: my partner's jacks", 2): "0.316206",
    ("I hold 1: my partner's jacks", 3): "0.027668", ("I hold 2: my partner's jacks", 1): "0.463768",
    ("I hold 3: my partner's jacks", 0): "0.666667", ("0 jacks: longest", 2): "0.062572",
    ("0 jacks: longest: mean", None): "3.2823", ("1 jack: longest", 8): "0.000003", ("2 jacks: longest", 5): "0.474731",
    ("3 jacks: longest: mean", None): "5.3615", ("4 jacks: longest", 7): "0.143590",
    ("1-3 jacks (BS bidders): longest", 4): "0.525242", ("1-3 jacks (BS bidders): longest: mean", None): "4.2503",
    ("every hand: longest", 2): "0.018490", ("every hand: longest", 6): "0.036644",
    ("the club jack's holder: longest", 5): "0.350900", ("the club jack's holder: P(longest >= 6)", None): "0.086384",
    ("the club jack's holder: P(longest >= 7)", None): "0.006891",
    ("can bid in DS and holds an Unter (a jack)", None): "0.236880",
    ("trumps in one hand (11 trumps among 32)", 3): "0.319214", ("trumps in one hand (11 trumps among 32)", 8):
    "0.000016", ("holds the club, spade and heart jacks", None): "0.011290",
    ("one hand (8 cards): SD", None): "10.3175", ("one hand (8 cards): P(points >= 20)", None): "0.840095",
    ("one hand (8 cards): P(points >= 61)", None): "0.001895",
    ("one hand (8 cards): P(points >= 30)", None): "0.508898",
    ("one hand (8 cards): P(points >= 40)", None): "0.181987",
    ("one hand (8 cards): P(points >= 42)", None): "0.133621",
    ("one hand (8 cards): P(points >= 50)", None): "0.033583", ("2 jacks: longest", 4): "0.442475",
    ("3 jacks: longest", 6): "0.299145", ("4 jacks: longest", 5): "0.117265", ("every hand: longest", 4): "0.447975",
    ("the club jack's holder: longest", 3): "0.098612", ("the club jack's holder: longest", 8): "0.000183",
    ("trumps in one hand (11 trumps among 32)", 0): "0.019346", ("trumps in one hand (11 trumps among 32)", 5):
    "0.058418",
    ("one hand (8 cards): most", None): "84", ("one team (16 cards): P(points >= 42)", None): "0.938423",
    ("one team (16 cards): P(points >= 61)", None): "0.482753",
    ("one team (16 cards): P(points = 60)", None): "0.034495",
    ("one team (16 cards): P(points >= 79)", None): "0.061577",
}


@pytest.fixture(scope="module")
def facts():
    return facts_by_key(api.exact()["facts"])


def test_rows_are_the_spec(facts):
    for key, value in SPEC.items():
        assert F(facts[key].fraction) == value, key
    for key, text in SPEC_DECIMALS.items():
        places = len(text.partition(".")[2])
        assert round(facts[key].p, places) == float(text), key


def test_every_distribution_adds_up_to_one(facts):
    totals = distribution_totals(facts)
    assert len(totals) >= 14 and set(totals.values()) == {F(1)}


@pytest.mark.parametrize("bids, message", [(iter([1, 2]), None), ({5}, "a jack count of bids"),
                                           (3, "bids must list jack counts"), ("12", "bids must list jack counts")])
def test_forced_opener_takes_any_iterable_of_jack_counts(bids, message):
    if message is None:
        assert ex.forced_opener(bids) == ex.forced_opener([1, 2])
    else:
        with pytest.raises(CardsimError, match=message):
            ex.forced_opener(bids)


def test_jack_split_and_forced_opener_on_dealt_tables():
    """Against 131,072 deals of the product's layout: each seat's jacks, the split pattern, the first speaker
    (forehand = seat 1) with 1-3 jacks (within 4.5 SE)."""
    spec = DealSpec(bs.LAYOUT)
    slots = np.concatenate([deal(spec, block_words(3, b, 65_536, spec.words_per_deal)) for b in range(2)])
    jacks = np.stack([np.bitwise_count(slots[:, s] & np.uint64(bs.JACKS)) for s in range(4)], axis=1).astype(int)
    n = len(jacks)

    def close(count: int, p: F) -> bool:
        return abs(count / n - float(p)) <= 4.5 * np.sqrt(float(p) * (1 - float(p)) / n) + 1e-12

    patterns = ["-".join(map(str, sorted(row, reverse=True))) for row in jacks]
    for pattern, p in ex.jack_patterns().items():
        assert close(patterns.count(pattern), p), pattern
    speaking = jacks[:, [1, 2, 3, 0]]
    can = (speaking >= 1) & (speaking <= 3)
    first = np.where(can.any(axis=1), can.argmax(axis=1), -1)
    for place, p in ex.forced_opener().items():
        assert close(int((first == place).sum()), p), place


def test_command_text_json_and_refusals(capsys):
    assert main(["stats", "bauernstoss", "--exact"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Bauernstoss exact deal facts (spec §9.2): every deal counted once (C(32,8) = 10,518,300 hands)"
    assert next(x for x in lines if x.startswith("  can bid in DS (longest >= 5)")).split()[-2:] == [
        "0.248069", "869753/3506100"]
    assert next(x for x in lines if x.startswith("  jacks in one hand = 4 ")).split()[-2:] == ["0.001947", "7/3596"]
    assert next(x for x in lines if x.startswith("  one hand (8 cards): SD")).split()[-2:] == ["10.317539",
                                                                                                "sqrt(3300/31)"]
    assert main(["stats", "bauernstoss", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and set(data["tables"]) == {"facts"}
    for flag, value in (("--n", "10"), ("--policy", "random"), ("--variant", "DS"), ("--min-n", "5")):
        assert main(["stats", "bauernstoss", "--exact", flag, value]) == 2
        out, err = capsys.readouterr()
        assert out == "" and f"--exact enumerates every hand, so {flag} does not apply" in err


def test_a_sweep_refuses_exact(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text('game = "bauernstoss"\ncommand = "stats"\nseed = 1\nn = 10\n[grid]\nexact = [true]\n')
    assert main(["sweep", str(grid), "--out", str(tmp_path / "out")]) == 2
    assert "cannot store it" in capsys.readouterr().err

