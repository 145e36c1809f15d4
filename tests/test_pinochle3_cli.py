"""``cardsim meld pinochle3``: breakdown, JSON contract and bad input (spec pinochle3.md §10.1)."""

import json
from math import comb

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import pinochle3 as api
from analysis.games.pinochle3 import exact_meld_ccdf
from simcore.games import pinochle3 as p3

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
    assert code == 0 and out.count("\ntrump ") == 4 and "<- best" in out and "rope in H" in out


def test_frame_api_breakdown_adds_up():
    frame = api.meld(M19)
    for trump, total in frame.attrs["totals"].items():
        assert frame[frame.trump == trump].points.sum() == total


@pytest.mark.parametrize("argv,message", [
    (["--hand", "HA HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9"], "HA is given 3 times"),
    (["--hand", "HA H10 HK"], "must list 15 cards"),
    (["--hand", M2, "--trump", "X"], "--trump 'X' is not a suit; give one of S, H, D, C"),
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
    # the gain after the discard is at most the exact bound 142.149 - 90.975, and the 15-card limit costs little
    assert abs(gain["mean"] - (142.149 - 90.975)) < 4.5 * gain["se"] + 0.01
    assert means.loc["kept", "mean"] <= means.loc["hand+kitty", "mean"]
    assert gain["mean"] == pytest.approx(means.loc["kept", "mean"] - means.loc["hand", "mean"])
    # spec §9.3 (200,000 deals): median gain 30, E[G] by the hand's meld class 54.1 / 54.2 / 53.4 / 42.4 / 35.7
    assert gain["median"] == 30
    by_meld = tables["gain_by_meld"]
    assert list(by_meld.meld) == ["[0, 50)", "[50, 100)", "[100, 150)", "[150, 200)", ">= 200"]
    assert by_meld.n.sum() == n
    spec_se = by_meld.se * np.sqrt(n / 200_000)  # the spec's sample: 200,000 deals, each class a share of them
    z = (by_meld["mean"] - [54.1, 54.2, 53.4, 42.4, 35.7]) / np.hypot(by_meld.se, spec_se)
    assert (z.abs() < 4.5).all(), by_meld


def test_stats_command_json(capsys):
    code, out, _ = run_cli(capsys, "stats", "pinochle3", "--n", "70000", "--seed", "2", "--json")
    data = json.loads(out)
    assert code == 0 and data["n"] == 70000 and set(data["tables"]) == {"tails", "means", "gain_by_meld", "limit",
                                                                       "throw_ins"}
    assert all(r["lo"] <= r["p"] <= r["hi"] for r in data["tables"]["tails"])


# --- `cardsim odds` bids and `cardsim match` without a finished game -----------------------------------
HAND = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
DOUBLE_ROPE = "HA HA H10 H10 HK HK HQ HQ HJ HJ SQ DJ S9 C9 D9"


@pytest.mark.parametrize("bids, message", [
    ("250:100000000:10", "bid 2160 can never be made: meld + trick points reach at most 2150"),
    ("100000", "bid 100000 can never be made"),
    ("400:250:30", "--bids range '400:250:30' is empty: start 400 is above stop 250; write start:stop:step with "
                   "start <= stop, e.g. 250:400:30"),
    ("250:400:-10", "--bids step must be positive, got -10 in '250:400:-10'"),
    ("250:400:0", "--bids step must be positive, got 0"),
])
def test_odds_refuses_empty_and_unreachable_bids(capsys, bids, message):
    code, out, err = run_cli(capsys, "odds", "pinochle3", "--hand", HAND, "--n", "64", "--seed", "1", "--bids", bids,
                             "--no-progress")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_odds_counts_totals_up_to_the_highest_bid(capsys):
    """Meld 1540 (double rope) makes every bid up to 1540, also above 990; bid columns stay aligned."""
    code, out, _ = run_cli(capsys, "odds", "pinochle3", "--hand", DOUBLE_ROPE, "--n", "16", "--seed", "1",
                           "--bids", "250,1000,1500,2150", "--dd-tricks", "0", "--no-progress")
    make = out.split("Concede or play")[0]  # the P(make) table, before the concession table's rows
    rows = [line for line in make.splitlines() if line.startswith("  bid ")]
    assert code == 0 and [r.split()[2] for r in rows] == ["1.000", "1.000", "1.000", "0.000"]
    assert len({r.index(r.split()[2]) for r in rows}) == 1


def test_match_of_two_never_policies_is_refused(capsys):
    code, out, err = run_cli(capsys, "match", "pinochle3", "--a", "never", "--b", "never", "--games", "3", "--seed",
                             "1", "--no-progress", "--json")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "both policies are 'never' and no bid is forced, so every hand is thrown in" in err


def test_match_without_a_finished_game_has_no_win_rate(monkeypatch):
    from simcore.errors import CardsimError
    from simcore.games import pinochle3_bid as bid

    monkeypatch.setattr(bid, "MAX_HANDS", 1)  # no game reaches 1500 in one hand
    with pytest.raises(CardsimError, match="no game finished: all 2 were abandoned after 1 hands"):
        api.match("bold", "bold", 2, 1, progress=False, checkpoint=False)


def test_meld_compares_with_random_hands_exactly(capsys):
    """Spec Q1: the share of all C(48,15) hands that meld at least as much; M2's 250 under its best trump is
    the spec §9.2 count of hands with a best meld >= 250."""
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2, "--json")
    shares = json.loads(out)["share_at_least"]
    assert code == 0 and shares["best"] == 33_698_363_438 / comb(48, 15)
    for trump, total in json.loads(out)["by_trump"].items():
        counts = p3.exact_meld_distribution(15, p3.DECK.suits.index(trump))
        assert shares[trump] == counts[total // 10:].sum() / counts.sum()
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2)
    assert "random 15-card hands (exact): the share that melds as much or more" in out and "3.08%" in out


def test_meld_comparison_follows_scale_and_drops_with_other_values(capsys):
    scaled, plain = api.meld(M2, options={"scale": 0.1}).attrs["compared"], api.meld(M2).attrs["compared"]
    assert scaled == {key: (points // 10, share, mean / 10, median // 10)
                      for key, (points, share, mean, median) in plain.items()}
    assert api.meld(M2, trump="H").attrs["compared"].keys() == {"H"}  # no best-trump share for one trump
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2, "--option", "double_bonus=False", "--json")
    assert code == 0 and "share_at_least" not in json.loads(out)
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2, "--option", "double_bonus=False")
    assert "no comparison with random hands" in out


def test_eighteen_cards_compare_the_meld_of_all_eighteen(capsys):
    """The exact 18-card count is of the meld of all 18 cards (spec §9.2): the row shows that meld, 2520 here,
    not the 1620 of the best 15 kept, and its share is the count's."""
    hand = "SA SA S10 S10 SK SK SQ SQ SJ SJ HA HA DA DA CA CA HK HQ"
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", hand, "--json")
    data = json.loads(out)
    counts = p3.exact_meld_distribution(18, p3.DECK.suits.index("S"))
    assert code == 0 and data["by_trump"]["S"] == 1620 and data["meld_of_all_cards"]["S"] == 2520
    assert data["share_at_least"]["S"] == counts[252:].sum() / counts.sum()


def test_meld_comparison_gives_the_mean_and_median_of_a_random_hand(capsys):
    """Beside the share, the mean and median meld of all C(48,15) hands: the best-trump mean is §9.2's exact
    90.975, and each median m is a median of its exact distribution, P(meld >= m) >= 1/2 >= P(meld > m)."""
    compared = api.meld(M2).attrs["compared"]
    assert compared["best"][2] == pytest.approx(90.975, abs=5e-4) and compared["best"][3] == 70
    for key, (_, _, mean, median) in compared.items():
        ccdf = exact_meld_ccdf(15, None if key == "best" else p3.DECK.suits.index(key))
        assert ccdf[median // 10] >= 0.5 >= ccdf[median // 10 + 1]
        assert mean == pytest.approx(sum(10 * k * (ccdf[k] - ccdf[k + 1]) for k in range(ccdf.size - 1))
                                     + 10 * (ccdf.size - 1) * ccdf[-1])
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2, "--json")
    assert json.loads(out)["random_meld"]["best"] == {"mean": compared["best"][2], "median": 70}
    code, out, _ = run_cli(capsys, "meld", "pinochle3", "--hand", M2)
    assert "  with their best trump" in out and "91.0      70" in out
