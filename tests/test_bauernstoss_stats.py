"""``cardsim stats bauernstoss`` (analysis.games.bauernstoss_stats): the exact table against spec §9.2, the shape and
chalk tables on hand-made histograms, the Monte-Carlo throw-in rate against the exact 7/899, reproducibility and
bad input."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import LONG_COLUMNS, lookup
from analysis.games import bauernstoss_stats as st
from simcore.errors import CardsimError

SPEC_JACKS = (Fraction(5313, 17980), Fraction(2024, 4495), Fraction(966, 4495), Fraction(168, 4495),
              Fraction(7, 3596))
"""Spec §9.2: P(an 8-card hand holds k jacks), k = 0-4."""


def test_exact_jacks_match_the_spec():
    frame = st.exact_jacks()
    assert list(frame.n) == [3_108_105, 4_736_160, 2_260_440, 393_120, 20_475]  # spec §9.2's hands
    for row, exact in zip(frame.itertuples(), SPEC_JACKS):
        assert row.p == pytest.approx(float(exact), abs=1e-15)
    lengths = frame[[f"L{k}" for k in range(2, 9)]].to_numpy()
    assert np.allclose(lengths.sum(axis=1), 1.0)
    # a hand with j jacks holds at least j + ceil((8 - j) / 4) potential trumps in its longest suit
    for j in range(5):
        shortest = j + -(-(8 - j) // 4)
        assert lengths[j, :shortest - 2].sum() == 0 and lengths[j, shortest - 2] > 0


def parts_of(points: dict, schwarz: dict | None = None) -> dict:
    """A `HandJob.unpack`-like dict from {(jacks, trumps): [card points of each hand]}."""
    hist = np.zeros((5, 9, 121), dtype=np.int64)
    for (j, length), values in points.items():
        for value in values:
            hist[j, length, value] += 1
    all_tricks = np.zeros((5, 9), dtype=np.int64)
    for key, count in (schwarz or {}).items():
        all_tricks[key] = count
    return {"deals": int(hist.sum()), "throw_ins": 0, "points": hist, "schwarz": all_tricks}


def test_shapes_frame_counts_levels_points_and_schwarz():
    parts = parts_of({(2, 5): [41, 42, 79, 90, 91, 120], (1, 4): [10] * 3}, {(2, 5): 1})
    frame = st.shapes_frame(parts, "BS", min_n=4)
    assert len(frame) == 1  # the (1, 4) shape has 3 hands, under min_n
    row = frame.iloc[0]
    assert (row.jacks, row.trumps, row.n) == (2, 5, 6)
    assert (row.p42, row.p79, row.p91) == pytest.approx((5 / 6, 4 / 6, 2 / 6))
    assert row.points == pytest.approx(np.mean([41, 42, 79, 90, 91, 120]))
    assert row.p_schwarz == pytest.approx(1 / 6) and row.p42_lo < row.p42 < row.p42_hi
    ds = st.shapes_frame(parts, "DS", min_n=1)
    assert {"p61", "p_le59", "p91"} <= set(ds.columns) and "p42" not in ds.columns
    assert ds.set_index(["jacks", "trumps"]).loc[(2, 5)].p_le59 == pytest.approx(2 / 6)


def test_chalk_frame_sides_are_complements():
    parts = parts_of({(2, 5): [20, 41, 42, 60, 78, 79, 100], (1, 3): [5, 50]})
    frame = st.chalk_frame(parts).set_index(["team", "chalk"])
    assert frame.loc[("choosing", "with")].p == pytest.approx(6 / 9)  # 42 60 78 79 100 50
    assert frame.loc[("choosing", "without")].p == pytest.approx(2 / 9)  # 79 100
    assert frame.loc[("defending", "with")].p == pytest.approx(7 / 9)  # choosing team <= 78
    assert frame.loc[("defending", "without")].p == pytest.approx(3 / 9)  # choosing team <= 41: 20 41 5
    # exactly one team reaches its target: the chalk team's 42 or the other's 79
    assert frame.loc[("choosing", "with")].p + frame.loc[("defending", "without")].p == pytest.approx(1)
    assert (frame.n == 9).all()


def test_stats_throw_in_rate_and_reproducibility():
    tables = st.stats(n=4000, seed=3, jobs=1)
    again = st.stats(n=4000, seed=3, jobs=2)
    for name in tables:
        assert tables[name].equals(again[name])
    a = tables["shapes"].attrs
    assert a["n"] == 4000 and tables["chalk"].n.iloc[0] == 4000 - a["throw_ins"]
    lo, hi = st.Estimate(a["throw_ins"], a["n"]).lo, st.Estimate(a["throw_ins"], a["n"]).hi
    assert lo <= st.THROW_IN_RATE <= hi  # spec §9.2: 7/899, B0 never calls the Big Solo
    assert tables["shapes"].n.sum() <= 4000 - a["throw_ins"] and (tables["shapes"].n >= st.MIN_N).all()


def test_variants_without_throw_ins_or_chalk():
    ds = st.stats(n=1000, seed=1, variant="DS", min_n=50)
    assert "chalk" not in ds and ds["shapes"].attrs["throw_ins"] == 0
    assert st.stats(n=1000, seed=1, variant="AS", min_n=50)["shapes"].attrs["throw_ins"] == 0  # AS-5


def test_cli_text_json_and_frame(capsys):
    assert main(["stats", "bauernstoss", "--n", "2000", "--seed", "5", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Bauernstoss hands: Bauernstoss, n = 2,000 deals, seed 5, B0 auction, greedy play")
    assert "C. The chalk" in text and "exact 0.0078 (7/899)" in text
    assert main(["stats", "bauernstoss", "--n", "2000", "--seed", "5", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "bauernstoss" and set(data["tables"]) == {"jacks", "shapes", "chalk"}
    spec = lookup("stats", "bauernstoss")
    frame = spec.frame(command_parser("stats", "bauernstoss", spec).parse_args(["--n", "2000", "--seed", "5",
                                                                                "--no-progress"]))
    assert list(frame.columns) == LONG_COLUMNS
    assert {"chalk.choosing.with", "chalk.defending.without"} <= set(frame.estimate)
    assert any(name.startswith("shapes.2.5.p42") for name in frame.estimate)


def test_text_says_when_no_shape_has_enough_hands(capsys):
    assert main(["stats", "bauernstoss", "--n", "300", "--seed", "1", "--min-n", "5000", "--no-progress"]) == 0
    assert "(no shape has 5,000 hands at this n: raise --n or lower --min-n)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["--policy", "pimc"], "invalid choice: 'pimc'"),
    (["--variant", "XS"], "XS"),
    (["--min-n", "0"], "argument --min-n: expected a whole number from 1 to 1e+12"),
])
def test_bad_input(capsys, argv, message):
    assert main(["stats", "bauernstoss", "--n", "100"] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_python_api_refuses_unknown_policy():
    with pytest.raises(CardsimError, match=r"policy \(--policy\) must be one of greedy, random"):
        st.stats(n=10, policy="pimc")
    assert st.stats(n=300, seed=1, policy=" Greedy").keys() == st.stats(n=300, seed=1).keys()
