"""``cardsim meld pinochle3``: breakdown, JSON contract and bad input (spec pinochle3.md §10.1)."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api

# M19 of spec §10.1: the 15-card maximum under diamonds
M19 = "DA DA D10 D10 DK DK DQ DQ DJ DJ SQ SQ SA HA CA"
# M2 (rope + 100 aces) padded to 15 cards with nines and jacks that meld nothing under hearts
M2 = "HA H10 HK HQ HJ SA DA CA S9 S9 C9 C9 SJ SJ CJ"


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_contract_with_trump(capsys):
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M19, "--trump", "D", "--json")
    data = json.loads(out)
    assert code == 0 and data["trump"] == "D" and data["total"] == 1900
    assert sum(m["points"] for m in data["melds"]) == 1900
    assert {m["name"] for m in data["melds"]} >= {"double pinochle", "aces around"}
    assert "by_trump" not in data


def test_every_trump_and_the_best(capsys):
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2, "--json")
    data = json.loads(out)
    assert code == 0 and data["trump"] == "H" and data["total"] == 250  # rope 150 + aces 100
    assert set(data["by_trump"]) == {"S", "H", "D", "C"} and max(data["by_trump"].values()) == 250
    assert data["by_trump"]["S"] == 100 + 20 + 20  # aces around + marriage in H + double deece in spades


def test_text_lists_each_trump(capsys):
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2)
    assert code == 0 and out.count("trump ") == 4 and "<- best" in out and "rope in H" in out


def test_frame_api_breakdown_adds_up():
    frame = api.meld(M19)
    for trump, total in frame.attrs["totals"].items():
        assert frame[frame.trump == trump].points.sum() == total


@pytest.mark.parametrize("argv,message", [
    (["--hand", "HA HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9"], "HA is given 3 times"),
    (["--hand", "HA H10 HK"], "must list 15 cards"),
    (["--hand", M2, "--trump", "X"], "--trump must be one of"),
    (["--hand", "HA H10 HK HQ HJ SA DA CA S9 S9 C9 C9 SJ SJ H8"], "'H8' is not a card"),
])
def test_bad_input(capsys, argv, message):
    code, out, err = run_cli(capsys, "meld", "pinochle3", *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_meld_statistics_agree_with_the_exact_distribution(scale):
    from analysis.games.pinochle3 import stats

    n = max(65_536, int(400_000 * scale))
    tables = stats(n=n, seed=3, progress=False, checkpoint=False)
    tails = tables["tails"].dropna(subset=["exact"])
    z = (tails["p"] - tails["exact"]) / np.sqrt(tails["exact"] * (1 - tails["exact"]) / n)
    assert (z.abs() < 4.5).all(), tails[z.abs() >= 4.5]
    means = tables["means"].set_index("quantity")
    for what in ("hand", "hand+kitty"):
        assert abs(means.loc[what, "mean"] - means.loc[what, "exact"]) < 4.5 * means.loc[what, "se"]
    # spec §9.2: E[best 15-card meld] 90.975 and E[best 18-card meld] 142.149, exact
    assert means.loc["hand", "exact"] == pytest.approx(90.975, abs=5e-4)
    assert means.loc["hand+kitty", "exact"] == pytest.approx(142.149, abs=5e-4)
    gain = means.loc["gain"]
    assert abs(gain["mean"] - (142.149 - 90.975)) < 4.5 * gain["se"] + 0.01


def test_stats_command_json(capsys):
    code, out, _ = run_cli(capsys, "stats", "pinochle3", "--n", "70000", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["n"] == 70000 and set(data["tables"]) == {"tails", "means"}
    assert all(r["lo"] <= r["p"] <= r["hi"] for r in data["tables"]["tails"])
