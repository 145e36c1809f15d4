"""Table F of `cardsim thresholds giltspiel --facing`: d of every class of the answering side facing the opponents'
bet from v (`analysis.games.giltspiel.facing`) against a plain-Python reference deal by deal, its weakest holds,
determinism, the command's text, JSON and sweep names, and bad input."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import naive_giltspiel_bets_seen as naive
from analysis.cli import main
from analysis.games import betting as ab
from analysis.games import giltspiel as ag
from analysis.stats import weighted_difference, wilson
from simcore.betting import COMMUNICATION, PRESETS, Policy
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_betting as gb

POLICIES = (PRESETS["formula"], PRESETS["aggressive"], PRESETS["cautious"],
            Policy("loose", bet_margin=-0.4, bluff=0.3),
            Policy("raiser", bet_margin=0.2, hold_margin=-0.3, raise_margin=-0.2, bluff=0.25))


def reference_rows(n: int, seed: int, policy: Policy, communication: str) -> dict:
    """{(figure, value, code, partner_example): (deals, facing share, d, P(win))} of the plain reference on the deals
    `facing` draws."""
    view = {"partner": "team", "none": "own"}.get(communication, "signal")
    slots, keep = g.FacingJob(np.zeros((1, 2, g.HANGER_BINS, g.HANGER_BINS), dtype=np.int8)).deal_block(seed, 0, n)
    table = gb.figure_table(communication)
    d = table[:, :, 0] - table[:, :, 2]
    sums = naive.facing_by_class(slots, keep, 1, policy, communication, d, view, ag.FACING_VALUES)
    return {key: (deals, total / deals, scored / total, won / total)
            for key, (deals, total, scored, won) in sums.items() if total > 0 and key[2] >= 0}


def frame_key(r) -> tuple:
    return r.figure, r.value, r.code, None if r.partner_example is None else bool(r.partner_example)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), communication=st.sampled_from(COMMUNICATION), policy=st.sampled_from(POLICIES))
def test_facing_matches_the_reference(seed, communication, policy):
    n = 1200
    frame = ag.facing(policy, communication, n=n, seed=seed, progress=False)
    expected = reference_rows(n, seed, policy, communication)
    got = {frame_key(r): (r.deals, r.facing, r.d, r.p_win) for r in frame.itertuples()}
    assert set(got) == set(expected)
    for key, (deals, share, d, p_win) in expected.items():
        assert got[key][0] == deals
        assert got[key][1] == pytest.approx(share, abs=1e-12)
        assert got[key][2] == pytest.approx(d, abs=1e-12)
        assert got[key][3] == pytest.approx(p_win, abs=1e-12)
    for r in frame.itertuples():
        assert r.hold == (r.d > -r.value / (r.value + 1))
        assert r.lo <= r.d <= r.hi and 0 < r.n_eff <= r.deals and r.p_win_lo <= r.p_win <= r.p_win_hi
    assert frame.attrs["view"] == {"partner": "team", "none": "own"}.get(communication, "signal")


@pytest.mark.parametrize("communication", COMMUNICATION)
def test_each_view_matches_the_reference(communication):
    """Every class view (team, own, own with the partner's signal) on a fixed case, beside the random ones above."""
    test_facing_matches_the_reference.hypothesis.inner_test(seed=17, communication=communication,
                                                             policy=PRESETS["aggressive"])


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def by_hand(rows, view="own", never=()) -> pd.DataFrame:
    frame = pd.DataFrame([{"figure": f, "value": v, "code": c, "class": name, "partner_example": signal,
                              "deals": 10, "facing": 0.5, "n_eff": 5.0, "d": d, "lo": lo, "hi": hi,
                              "hold": d > -v / (v + 1)} for f, v, c, name, signal, d, lo, hi in rows],
                            columns=ag.FACING_COLUMNS)
    frame.attrs.update(view=view, never_bet=[list(pair) for pair in never])
    return frame


def test_weakest_hold_by_hand():
    """The weakest class above the line, '~' when a weaker class's interval reaches the line, 'none', 'never bet'
    (the policy never makes it) and 'not met' (no deal drawn met it)."""
    frame = by_hand([("gleich", 1, 0, "pair of 7s", None, -0.9, -0.95, -0.85),
                     ("gleich", 1, 1, "pair of 8s", None, -0.45, -0.52, -0.40),
                     ("gleich", 1, 2, "pair of 9s", None, -0.1, -0.2, 0.0),
                     ("gleich", 2, 0, "pair of 7s", None, -0.9, -0.95, -0.85),
                     ("hanger", 1, 0, "8-7", None, -0.7, -0.75, -0.65)], never=[("hanger", 6)])
    weakest = ag.weakest_holds(frame).set_index(["figure", "value"])
    assert weakest.loc[("gleich", 1), "class"] == "pair of 8s" and not weakest.loc[("gleich", 1), "settled"]
    assert weakest.loc[("gleich", 1), "d"] == -0.45
    assert weakest.loc[("gleich", 2), "class"] == "none" and weakest.loc[("gleich", 2), "settled"]
    assert weakest.loc[("hanger", 1), "class"] == "none" and np.isnan(weakest.loc[("hanger", 1), "d"])
    assert weakest.loc[("gleich", 3), "class"] == "not met" and weakest.loc[("hanger", 6), "class"] == "never bet"
    assert weakest.loc[("hanger", 6), "code"] == -1 and weakest.partner_example.isna().all()
    assert len(weakest) == 2 * len(ag.FACING_VALUES)


def test_weakest_hold_by_the_partners_signal():
    """Under auer_channel a weakest hold for each signal: the player's own class with his partner holding an example,
    and without."""
    frame = by_hand([("gleich", 1, 0, "pair of 7s", True, -0.3, -0.35, -0.25),
                     ("gleich", 1, 0, "pair of 7s", False, -0.99, -1.0, -0.97),
                     ("gleich", 1, 5, "pair of Obers", False, -0.4, -0.45, -0.35)], view="signal")
    weakest = ag.weakest_holds(frame)
    first = weakest[(weakest.figure == "gleich") & (weakest.value == 1)]
    assert list(first.partner_example) == [True, False]
    assert list(first["class"]) == ["pair of 7s", "pair of Obers"]
    assert len(weakest) == 2 * 2 * len(ag.FACING_VALUES)


def test_the_opponents_bet_moves_the_weakest_hold():
    """Against formula opponents who see both their hands (bluff 0), a bet shows a team that wants the figure: the
    weakest Gleich that holds is far above table A's, which ignores the bet, and the bet at every value shows the
    same teams (they bet, held and bet again only with d > 0), so d by class does not change with v."""
    frame = ag.facing("formula", "partner", n=200_000, seed=5, progress=False)
    weakest = ag.weakest_holds(frame).set_index(["figure", "value"])
    first = ab.first_order("giltspiel").set_index(["figure", "value"])
    codes = {g.gleich_name(code): code for code in range(g.GLEICH_BINS - 1)}
    for v in ag.FACING_VALUES:
        assert weakest.loc[("gleich", v), "code"] > codes[first.loc[("gleich", v), "weakest_hold"]]
    gleich = frame[frame.figure == "gleich"].pivot(index="code", columns="value", values="d")
    assert np.allclose(gleich.to_numpy(), gleich[[1]].to_numpy())


def test_same_numbers_whatever_jobs_or_chunks():
    one = ag.facing("aggressive", "none", n=30_000, seed=9, progress=False)
    other = ag.facing("aggressive", "none", n=30_000, seed=9, jobs=2, chunk_deals=7_000, progress=False)
    assert one.equals(other)


def test_cli_text_json_and_sweep_names(capsys):
    argv = ("thresholds", "giltspiel", "--games", "20", "--class-deals", "2", "--seed", "3", "--facing", "20000",
            "--policy", "aggressive", "--no-progress")
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0
    text = out[out.index("F. Facing"):]
    assert "the opponents play aggressive (communication partner, bluff 0.15)" in text
    assert "over 20,000 deals" in text and "(seed 3)" in text
    assert len([line for line in text.splitlines() if line.startswith(("gleich ", "hanger "))]) == 12
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    frame = ag.facing("aggressive", "partner", n=20_000, seed=3, progress=False)
    assert data["facing"] == frame.to_dict(orient="records")
    assert [row["class"] for row in data["facing_weakest"]] == list(ag.weakest_holds(frame)["class"])
    long = ab.thresholds_frame(ab.thresholds("giltspiel", games=20, class_deals=2, seed=3, policy="aggressive",
                                             facing=20_000, progress=False))
    rows = long[long.estimate.str.startswith("facing.")].set_index("estimate")
    assert len(rows) == len(frame)
    top = frame.iloc[-1]
    assert rows.loc[f"facing.hanger.v6.c{top.code}", "value"] == top.d
    assert rows.loc[f"facing.hanger.v6.c{top.code}", "n"] == round(top.n_eff)


@pytest.mark.parametrize("argv, message", [
    (("thresholds", "giltspiel", "--facing", "1"), "argument --facing: expected a whole number from 2"),
    (("thresholds", "giltspiel", "--facing", "many"), "argument --facing: expected a whole number"),
    (("thresholds", "perlaggen", "--facing"), "--facing is an option of 'cardsim thresholds' for giltspiel"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("call, message", [
    (lambda: ag.facing(n=1), "n (deals) must be at least 2"),
    (lambda: ag.facing("nope", n=100), "unknown policy 'nope'"),
    (lambda: ag.facing(communication="loud", n=100), "unknown communication model 'loud'"),
    (lambda: ag.facing(Policy("quitter", concede_spiel=0.5), n=100), "gives up the Spiel before it bets"),
    (lambda: ab.thresholds("perlaggen", facing=100), "Perlaggen has no such table yet: drop --facing"),
    (lambda: ab.thresholds("perlaggen", players=3, facing=100), "take none of these: drop --facing"),
    (lambda: ab.thresholds("giltspiel", games=20, facing=1), "--facing (deals) must be at least 2"),
])
def test_bad_api_input_is_refused_before_any_run(call, message):
    with pytest.raises(CardsimError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()


def test_an_interval_without_spread_is_wilsons_bound_not_a_point():
    """Every weighted deal lost (or won, or neither): the ratio estimator's se is 0, yet d = -1 is not certain; the
    interval then reaches 2u from d, u the Wilson bound of a share never seen at Kish's effective size."""
    n_eff = (5 + 3 * 0.5) ** 2 / (5 + 3 * 0.25)
    u = wilson(0, n_eff)[1]
    lost = weighted_difference([0, 0], [5, 3], [5, 3], [1.0, 0.5])
    assert (lost["d"], lost["lo"]) == (-1.0, -1.0) and lost["hi"] == pytest.approx(-1 + 2 * u)
    won = weighted_difference([5, 3], [0, 0], [5, 3], [1.0, 0.5])
    assert won["lo"] == pytest.approx(1 - 2 * u) and won["hi"] == 1.0
    stood = weighted_difference([0, 0], [0, 0], [5, 3], [1.0, 0.5])
    assert stood["d"] == 0.0 and stood["lo"] == pytest.approx(-2 * u) and stood["hi"] == pytest.approx(2 * u)
    mixed = weighted_difference([1, 3], [4, 0], [5, 3], [1.0, 0.5])
    assert mixed["hi"] - mixed["d"] == pytest.approx(1.959964 * mixed["se"], rel=1e-6)
    ignored = weighted_difference([0, 2], [5, 1], [5, 3], [1.0, 0.0])  # a stratum of weight 0 does not count
    assert ignored["hi"] == pytest.approx(-1 + 2 * wilson(0, 5.0)[1])


def test_never_bet_comes_from_the_policy_and_not_met_from_the_sample():
    """cautious proposes no value above 4: from v = 4 its bet never comes, whatever the deals; with three deals
    formula's bets are simply not met."""
    cautious = ag.weakest_holds(ag.facing("cautious", n=20_000, seed=2, progress=False)).set_index(["figure", "value"])
    assert all(cautious.loc[(f, v), "class"] == "never bet" for f in g.FIGURES for v in (4, 5, 6))
    assert all(cautious.loc[(f, v), "class"] not in ("never bet", "not met") for f in g.FIGURES for v in (1, 2, 3))
    few = ag.facing("formula", n=3, seed=1, progress=False)
    assert few.attrs["never_bet"] == [] and set(ag.weakest_holds(few)["class"]) == {"not met"}


def test_auer_channel_splits_by_the_partners_signal(capsys):
    argv = ("thresholds", "giltspiel", "--games", "20", "--class-deals", "2", "--seed", "4", "--facing", "30000",
            "--communication", "auer_channel", "--policy", "aggressive", "--no-progress")
    code, out, _ = run_cli(capsys, *argv)
    text = out[out.index("F. Facing"):]
    assert code == 0 and "partner  weakest hold" in text and "by the player's own best class and his partner's" in text
    rows = [line.split()[:4] for line in text.splitlines() if line.startswith(("gleich ", "hanger "))]
    assert len(rows) == 24 and [r[2:4] for r in rows[:2]] == [["has", "one"], ["has", "none"]]
    weakest = ag.weakest_holds(ag.facing("aggressive", "auer_channel", n=30_000, seed=4, progress=False))
    first = weakest.iloc[:2]
    assert list(first.partner_example) == [True, False]
    lines = [line for line in text.splitlines() if line.startswith("gleich    1")]
    for line, (_, r), signal in zip(lines, first.iterrows(), ("has one ", "has none")):
        assert line.startswith(f"gleich    1  {signal} {'' if r.settled else '~'}{r['class']} ")
    code, out, _ = run_cli(capsys, *argv, "--json")
    data = json.loads(out)
    assert data["facing_settings"] == {"n": 30000, "seed": 4, "policy": "aggressive", "bluff": 0.15,
                                       "communication": "auer_channel", "view": "signal", "never_bet": []}
    assert {row["partner_example"] for row in data["facing"]} == {True, False}
    long = ab.thresholds_frame(ab.thresholds("giltspiel", games=20, class_deals=2, seed=4, policy="aggressive",
                                             communication="auer_channel", facing=30_000, progress=False))
    names = long.estimate[long.estimate.str.startswith("facing.")]
    assert names.str.endswith(".partner_has").sum() + names.str.endswith(".partner_none").sum() == len(names) > 0
    assert names.is_unique


def test_a_rule_option_reaches_the_thresholds(capsys):
    """--option with the team thresholds (it once raised a traceback in the check of the paired tables' setting)."""
    code, out, err = run_cli(capsys, "thresholds", "giltspiel", "--games", "20", "--class-deals", "2", "--seed", "1",
                             "--option", "speech_order=random_priority", "--no-progress")
    assert code == 0 and err == "" and "options speech_order=random_priority" in out.splitlines()[0]
