"""Every simulating command of Bauernstoss, Dreeg and Pinochle can be a sweep quantity: its table form
(`Command.frame`) stores the same numbers as the command's own result."""

from __future__ import annotations

import pandas as pd

from analysis import sweep
from analysis.games import bauernstoss, dreeg, pinochle3


def _sweep(tmp_path, text: str) -> pd.DataFrame:
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    sweep.sweep(path, tmp_path / "out", progress=False)
    return pd.read_parquet(tmp_path / "out")


def test_bauernstoss_odds_sweep_over_variants(tmp_path):
    data = _sweep(tmp_path, 'game = "bauernstoss"\ncommand = "odds"\nseed = 3\nn = 200\n'
                            '[fixed]\nhand = "sB hB dB cA cT sK h7 d8"\n[grid]\nvariant = ["BS", "DS"]\n')
    bs_rows = data[data.variant == "BS"].set_index("estimate")
    direct = bauernstoss.odds("sB hB dB cA cT sK h7 d8", 1, n=200, seed=int(bs_rows.seed.iloc[0]), variant="BS",
                              checkpoint=False)
    row = direct[(direct.call == "number") & (direct.trump == "h")].iloc[0]
    assert bs_rows.loc["number.h.p42", "value"] == row["p42"]
    assert bs_rows.loc["number.h.points", "value"] == row["points"]
    assert "bid.c.p61" in set(data[data.variant == "DS"].estimate)  # DS-4: the compulsory bid of the longest suit
    assert not data[["value", "lo", "hi"]].isna().any().any()


def test_bauernstoss_thresholds_and_match_sweeps(tmp_path):
    thresholds = _sweep(tmp_path / "t", 'game = "bauernstoss"\ncommand = "thresholds"\nseed = 3\n'
                                        'n = 2000\n[grid]\nvariant = ["BS", "AS"]\n')
    assert {"1.4.p42", "1.4.points"} <= set(thresholds.estimate)
    assert "1.4.p61" in set(thresholds[thresholds.variant == "AS"].estimate)
    solo = thresholds[thresholds.estimate.str.contains("p_solo")]
    assert (solo.n < thresholds.n.max()).all()  # the Big Solo counts only its own tries
    match = _sweep(tmp_path / "m", 'game = "bauernstoss"\ncommand = "match"\nseed = 3\nn = 4\n'
                                   '[fixed]\nb = "aggressive"\n[grid]\na = ["cautious"]\n')
    assert set(match.estimate) == {"a.win_rate", "a.strokes_per_deal", "b.win_rate", "b.strokes_per_deal"}
    wins = match.set_index("estimate").value
    assert wins["a.win_rate"] + wins["b.win_rate"] == 1.0


def test_dreeg_thresholds_sweep(tmp_path):
    data = _sweep(tmp_path, 'game = "dreeg"\ncommand = "thresholds"\nseed = 3\nn = 300\n'
                            '[grid]\ndecision = ["call", "durchmarsch"]\n')
    call = data[data.decision == "call"].set_index("estimate")
    direct = dreeg.thresholds("call", n=300, seed=int(call.seed.iloc[0]), checkpoint=False).set_index("class")
    label = direct.index[0]
    assert call.loc[f"call.{label}.win_a", "value"] == direct.loc[label, "p_a"]
    assert call.loc[f"call.{label}.diff", "hi"] == direct.loc[label, "diff_hi"]
    assert data[data.decision == "durchmarsch"].estimate.str.startswith("durchmarsch.").all()


def test_pinochle_odds_thresholds_and_match_sweeps(tmp_path):
    hand = "HA H10 HK HQ HQ HJ H9 SQ DJ SA SK DK D10 C9 CJ"
    odds = _sweep(tmp_path / "o", f'game = "pinochle3"\ncommand = "odds"\nseed = 3\nn = 64\n[fixed]\nhand = "{hand}"\n'
                                  'bids = "300,350"\ndd-tricks = 4\n[grid]\nrule = ["old", "new1945"]\n')
    old = odds[odds.rule == "old"].set_index("estimate")
    direct = pinochle3.odds(hand, bids=(300, 350), n=64, seed=int(old.seed.iloc[0]), dd_tricks=4, checkpoint=False)
    make = direct["make"].set_index("bid")
    assert old.loc["make.350.greedy", "value"] == make.loc[350, "greedy_p"]
    assert old.loc["make.350.dd", "lo"] == make.loc[350, "dd_lo"]
    assert {"gain.10", "trump.H", "ev_pass.mean", "ev_vs_pass.350"} <= set(old.index)
    assert old.loc["ev_pass.mean", "value"] == direct["make"].attrs["ev_pass"]["mean"]
    curves = _sweep(tmp_path / "t", 'game = "pinochle3"\ncommand = "thresholds"\nseed = 3\nn = 500\n'
                                    '[grid]\nrule = ["old"]\n')
    assert curves.estimate.str.match(r"((make|ev_vs_pass)\.\d+(-\d+|\+)\.\d+|ev_pass\.\d+(-\d+|\+))$").all()
    assert curves.estimate.str.startswith("ev_pass.").any() and curves.estimate.str.startswith("ev_vs_pass.").any()
    solved = _sweep(tmp_path / "d", 'game = "pinochle3"\ncommand = "thresholds"\nseed = 3\nn = 500\n'
                                    '[fixed]\ndd-tricks = 2\n[grid]\nrule = ["old"]\n')
    made = solved[solved.estimate.str.startswith("make_dd.")].set_index("estimate")
    direct = pinochle3.thresholds(500, int(solved.seed.iloc[0]), dd_tricks=2, checkpoint=False)["curves"]
    assert made.loc["make_dd.0-90.300", "value"] == direct.set_index(["meld", "bid"]).loc[("0-90", 300), "dd_p"]
    assert len(made) == len(direct)
    match = _sweep(tmp_path / "m", 'game = "pinochle3"\ncommand = "match"\nseed = 3\nn = 2\n'
                                   '[fixed]\nb = "cautious"\n[grid]\na = ["bold"]\n')
    assert set(match.estimate) == {"a.win_rate", "b.win_rate", "a.points_per_deal", "b.points_per_deal",
                                   "hands_per_game"}
