"""`cardsim stats pinochle3 --exact`: the exact meld distributions of spec §9.2, every number of its table
"Meld distribution, 15 cards (exact)", its CCDF, its integer counts and its 18-card rows, and bad input."""

from __future__ import annotations

import json

import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api

SPEC_SUMMARY = {  # spec §9.2: mean, SD, P(meld = 0), the quantiles 10/25/50/75/90/95/99 %, maximum
    "best": (90.975, 66.375, 0.001846, (20, 50, 70, 130, 180, 210, 300), 1900),
    "H": (68.742, 57.322, 0.057335, (10, 30, 60, 100, 150, 170, 270), 1820),
    "C": (68.742, 57.322, 0.057335, (10, 30, 60, 100, 150, 170, 270), 1820),
    "S": (68.742, 59.159, 0.057335, (10, 30, 50, 100, 150, 180, 280), 1900),
    "D": (68.742, 57.968, 0.057335, (10, 30, 60, 100, 150, 170, 280), 1900),
}
SPEC_CCDF = {  # spec §9.2 "CCDF P(meld >= t)": t -> best, H/C, S, D
    20: (0.918402, 0.870019, 0.870019, 0.870019), 40: (0.849767, 0.681568, 0.654359, 0.681568),
    60: (0.617199, 0.502755, 0.477482, 0.500675), 80: (0.491739, 0.349599, 0.361494, 0.344816),
    100: (0.370951, 0.261982, 0.277202, 0.258618), 120: (0.293082, 0.184157, 0.189251, 0.183124),
    150: (0.215326, 0.103152, 0.100633, 0.101817), 180: (0.107857, 0.045243, 0.053804, 0.047689),
    200: (0.069477, 0.027924, 0.034111, 0.031466), 220: (0.046456, 0.019427, 0.021829, 0.021171),
    250: (0.030824, 0.013937, 0.014487, 0.014753), 300: (0.010659, 0.007772, 0.008188, 0.008465),
    350: (0.004857, 0.002670, 0.003465, 0.002745), 400: (0.001587, 0.000857, 0.001125, 0.000979),
    500: (1.584e-4, 7.18e-5, 9.88e-5, 9.62e-5), 800: (3.652e-5, 3.51e-5, 3.51e-5, 3.51e-5),
    1000: (1.898e-5, 1.755e-5, 1.755e-5, 1.756e-5), 1500: (1.836e-6, 4.59e-7, 4.59e-7, 4.59e-7),
}


def printed_unit(value: float) -> float:
    """The unit of the last digit the spec prints: 1e-6 for 0.918402, 1e-8 for 1.755e-05."""
    mantissa, _, exponent = repr(value).partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


@pytest.fixture(scope="module")
def tables():
    return api.exact()


def test_summary_is_the_spec_table(tables):
    summary = tables["summary"].set_index(["cards", "trump"])
    for trump, (mean, sd, p0, quantiles, most) in SPEC_SUMMARY.items():
        row = summary.loc[(15, trump)]
        assert row["mean"] == pytest.approx(mean, abs=5e-4) and row.sd == pytest.approx(sd, abs=5e-4)
        assert row.p0 == pytest.approx(p0, abs=5e-7) and row["max"] == most
        assert tuple(row[f"q{q}"] for q in api.EXACT_QUANTILES) == quantiles
    best = summary.loc[(15, "best")]
    assert (best["mode"], round(best.mode_p, 4)) == (50, 0.1362) and best.holdings == 1_093_260_079_344


def test_ccdf_is_the_spec_table_and_its_integer_counts(tables):
    ccdf = tables["ccdf"][tables["ccdf"].cards == 15].set_index(["threshold", "trump"])
    for t, values in SPEC_CCDF.items():
        for trumps, value in zip(("best", "HC", "S", "D"), values):
            for trump in ([trumps] if trumps == "best" else list(trumps)):
                assert abs(ccdf.loc[(t, trump), "p"] - value) <= printed_unit(value) / 2 + 1e-12, (t, trump)
    # spec §9.2 "Integer counts, for oracle tests"
    assert ccdf.loc[(250, "best"), "holdings"] == 33_698_363_438
    assert ccdf.loc[(300, "best"), "holdings"] == 11_653_164_764


def test_eighteen_cards_are_the_spec_rows(tables):
    summary = tables["summary"].set_index(["cards", "trump"])
    assert summary.loc[(18, "best"), "mean"] == pytest.approx(142.149, abs=5e-4)
    assert summary.loc[(18, "best"), "holdings"] == 7_309_837_001_104
    ccdf = tables["ccdf"][(tables["ccdf"].cards == 18) & (tables["ccdf"].trump == "best")].set_index("threshold")
    for t, value in zip((150, 200, 250, 300, 350, 400), (0.46397, 0.23982, 0.13353, 0.05305, 0.02362, 0.00972)):
        assert ccdf.loc[t, "p"] == pytest.approx(value, abs=5e-6)


def test_zero_meld_count_of_the_spec(tables):
    """Best meld = 0: 2,018,188,176 hands (spec §9.2), the P(meld = 0) row's numerator."""
    from simcore.games.pinochle3 import exact_meld_distribution

    assert exact_meld_distribution(15)[0] == 2_018_188_176
    row = tables["summary"].set_index(["cards", "trump"]).loc[(15, "best")]
    assert row.p0 == 2_018_188_176 / row.holdings


def test_command_text_json_and_scale(capsys):
    assert main(["stats", "pinochle3", "--exact"]) == 0
    text = capsys.readouterr().out
    assert "15 cards, a hand: C(48,15) = 1,093,260,079,344 holdings" in text
    assert "  most likely (p)  50 (0.1362)" in text and "  P(meld >= t)" in text
    assert [line.split()[-5:] for line in text.splitlines() if line.startswith("  99% quantile")] == [
        ["300", "280", "270", "280", "270"], ["390", "370", "360", "360", "360"]]  # best, S, H, D, C
    assert main(["stats", "pinochle3", "--exact", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exact"] is True and {"summary", "ccdf"} <= set(data["tables"])
    tenth = api.exact({"scale": 0.1})["summary"].set_index(["cards", "trump"]).loc[(15, "best")]
    assert tenth["mean"] == pytest.approx(9.0975, abs=5e-5) and tenth.q99 == 30 and tenth["max"] == 190


@pytest.mark.parametrize("argv, message", [
    (["--n", "5"], "--exact enumerates every hand, so --n does not apply; drop it or drop --exact"),
    (["--seat", "1"], "--exact enumerates every hand, so --seat does not apply"),
    (["--option", "double_bonus=False"], "--exact counts the main game's meld values only; drop the meld variant"),
    (["--seed", "3"], "--exact enumerates every hand, so --seed does not apply"),
    (["--jobs", "2"], "--exact enumerates every hand, so --jobs does not apply"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(["stats", "pinochle3", "--exact", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_a_sweep_refuses_exact(tmp_path, capsys):
    grid = tmp_path / "grid.toml"
    grid.write_text('game = "pinochle3"\ncommand = "stats"\nseed = 1\nn = 1000\n[grid]\nexact = [true]\n')
    assert main(["sweep", str(grid), "--out", str(tmp_path / "out")]) == 2
    assert "cannot store it" in capsys.readouterr().err
