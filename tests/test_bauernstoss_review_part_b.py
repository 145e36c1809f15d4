"""Regression tests from the review of the Bauernstoss auction part (`odds`) and part B (`thresholds`): the
auction options reach `odds`, `thresholds` checks every argument first and splits the options between its
parts, unreachable states are flagged, sweeps store part B, the Q6 interval never collapses, a later hand
needs a chalk, and the BS Big Solo advice uses spec Q7's p* = 1/2 + D/24."""

import json

import numpy as np
import pandas as pd
import pytest

from analysis import sweep
from analysis.cli import main
from analysis.games import bauernstoss as api
from analysis.games import bauernstoss_equity as eq
from analysis.sections import bauernstoss as section
from analysis.stats import paired_difference
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs

TD01 = "sB hB dB cA cT sK h7 d8"
RUN = dict(progress=False, checkpoint=False)


# --- 1. the auction part reads the auction options --------------------------------------------------------------
@pytest.mark.parametrize("variant, hand, seat, base, rules", [
    ("BS", TD01, 1, (), (("mit_rule", "advisory"),)),
    ("BS", TD01, 1, (), (("partner_tie", "later_speaker"),)),
    ("BS", "sB hB hA hT cA sA dA c7", 1, (("partner_tie", "later_speaker"),),
     (("mixed_tie", "team_then_agree"), ("partner_tie", "later_speaker"))),
    ("AS", TD01, 1, (), (("mit_rule", "advisory"),)),
    ("DS", "sB hT h9 h8 h7 cT dT s7", 1, (), (("ds_ten_value", 0),)),
])
def test_odds_auction_options_change_the_auction_part(variant, hand, seat, base, rules):
    def part(chosen):
        return api.odds(hand, seat, n=300, seed=5, variant=variant, rules=chosen, **RUN).attrs["auction"]

    assert not part(base).equals(part(rules))


@pytest.mark.parametrize("variant, name, value", [("BS", "allow_suit_switch", True),
                                                  ("AS", "partner_tie", "later_speaker"),
                                                  ("AS", "mixed_tie", "team_then_agree")])
def test_options_no_command_reads_are_refused(variant, name, value):
    """No policy names a suit other than its bid's (allow_suit_switch); AS ties always go to a showdown (AS-6)."""
    for command in ("odds", "match", "equity"):
        with pytest.raises(CardsimError, match=f"option {name} does not change"):
            api.checked_rules({name: value}, variant, command)


# --- 2. thresholds: every argument first, the union of the parts' options -----------------------------------------
@pytest.mark.parametrize("flags, message", [
    (["--play", "foo"], "method (--play) must be one of dd, greedy, random"),
    (["--option", "first_dealer=2"], "option first_dealer does not change 'cardsim thresholds bauernstoss'"),
    (["--equity-hands", "0", "--option", "throwin_consumes_first_hand=true"],
     "option throwin_consumes_first_hand does not change"),
    (["--variant", "AS", "--option", "partner_tie=later_speaker"], "option partner_tie does not change"),
])
def test_thresholds_checks_every_argument_before_running(monkeypatch, capsys, flags, message):
    def ran(*args, **kw):
        raise AssertionError("a simulation ran before the arguments were checked")

    monkeypatch.setattr(api.runner, "run", ran)
    hands = [] if "--equity-hands" in flags else ["--equity-hands", "20000"]
    assert main(["thresholds", "bauernstoss", *hands, "--no-progress", *flags]) == 2
    assert message in capsys.readouterr().err


def test_thresholds_takes_part_b_options_and_gives_each_part_its_own(capsys):
    base = ["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--json", "--no-progress"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main([*base, "--option", "mit_rule=advisory", "--option", "min_number_bid=3", "--option",
                 "partner_tie=later_speaker"]) == 0
    data = json.loads(capsys.readouterr().out)
    chosen = {"mit_rule": "advisory", "min_number_bid": 3, "partner_tie": "later_speaker"}
    assert data["options"] == data["equity"]["options"] == chosen
    assert data["rows"] == plain["rows"]  # part A plays forehand's suit without an auction
    assert main([*base, "--variant", "AS", "--option", "as_first_hand_solo=true"]) == 0
    assert json.loads(capsys.readouterr().out)["equity"]["options"] == {"as_first_hand_solo": True}


# --- 3. unreachable states ------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def tables():
    return api.equity("BS", 2000, seed=3, replicates=20)


def test_reachable_states():
    frame = pd.DataFrame({"a": [0, 0, 1, 0, 3, 0], "b": [0, 2, 0, 0, 0, 1], "chalk": ["us", "us", "us", "them",
                                                                                    "them", "none"]})
    assert eq.reachable(frame).tolist() == [False, False, True, False, False, True]
    assert eq.reachable(frame.drop(columns="chalk")).tolist() == [False, False, False, False, False, False]
    for target in bs.TARGETS.values():
        picks = eq.score_picks(target)
        assert len(picks) == 7 and all(0 < a < target and 0 < b < target for a, b in picks)


def test_tables_flag_unreachable_states(tables):
    w = tables["equity"]
    assert w.reachable.tolist() == eq.reachable(w).tolist()
    assert not w[(w.a == 0) & (w.b == 0)].reachable.any()
    assert tables["chalk"].reachable.tolist() == ((tables["chalk"].a > 0) & (tables["chalk"].b > 0)).tolist()
    text = eq.format_equity(tables)
    us = text[text.index("chalk at us:"):text.index("chalk at them:")]
    assert us.splitlines()[2].split() == ["0"] + [eq.UNREACHABLE] * len(eq.score_grid(20))
    assert "0-0 " not in text[text.index("Q9"):] and "\n  0   0" not in text
    assert all("reachable" in row for row in eq.equity_json(tables)["W"])


def test_as_advice_reads_a_reachable_state():
    tables = api.equity("AS", 2000, seed=3, replicates=20)
    w = tables["equity"].set_index(["a", "b", "chalk", "deals"]).W
    assert api.as_solo_break_even(tables) == w[(*api.AS_SOLO_SCORE, "us", "them")]
    assert api.AS_SOLO_SCORE[0] > 0


def test_report_sentence_uses_the_first_hand_and_a_reachable_chalk(tables):
    text = section._equity_sentence(tables)
    first = tables["first_hand"].set_index(["club", "deals"]).W[("us", "either")]
    chalk = tables["chalk"].set_index(["a", "b", "deals"]).value[(10, 10, "either")]
    assert f"{first:.3f}" in text and f"at 10-10 it is worth {chalk:.3f}" in text and "later hand" in text
    figure = section.equity_chart(tables["equity"][(tables["equity"].chalk == "us")
                                                   & (tables["equity"].deals == "either")], "test")
    assert figure.axes[0].images[0].get_array().mask[0].all()  # row a = 0 blank


# --- 4. sweeps store part B -----------------------------------------------------------------------------------------
def test_thresholds_sweep_stores_part_b(tmp_path):
    path = tmp_path / "scenario.toml"
    path.write_text('game = "bauernstoss"\ncommand = "thresholds"\nseed = 3\nn = 400\n'
                    '[grid]\npolicy = ["b0", "aggressive"]\n')
    sweep.sweep(path, tmp_path / "out", progress=False)
    data = pd.read_parquet(tmp_path / "out")
    assert {"1.4.p42", "equity.W.10.10.us", "equity.first_hand.us", "equity.chalk.2.1",
            "equity.solo.big.19.19.them"} <= set(data.estimate)
    assert not data.estimate.str.contains(r"^equity\.W\.0\.0\.").any()
    wide = data.pivot(index="estimate", columns="policy", values="value")
    assert (wide.loc["equity.W.10.10.us", "b0"] != wide.loc["equity.W.10.10.us", "aggressive"])


# --- 5. the Q6 paired interval --------------------------------------------------------------------------------------
def test_paired_difference_is_never_zero_width():
    stats = dict.fromkeys(jobs.AUCTION_STATS, 0)
    stats.update(n=100, pairs=91, pair_me=91, pair_partner=91)
    row = api.auction_frame(stats, np.zeros((2, jobs.CUR_BINS), dtype=np.int64)).set_index("estimate").loc[
        "paired.diff"]
    assert (row.p, row.lo, row.hi) == paired_difference(0, 0, 91) and row.lo < 0 < row.hi


# --- 6. a later hand needs a chalk ------------------------------------------------------------------------------------
def test_auction_odds_job_needs_a_chalk_in_a_later_hand():
    hand = tuple(bs.DECK.parse_cards(TD01))
    for variant in ("BS", "AS"):
        with pytest.raises(CardsimError, match="scored against the chalk team"):
            jobs.AuctionOddsJob(hand, 1, variant=variant)
        jobs.AuctionOddsJob(hand, 1, variant=variant, first_hand=True)
    jobs.AuctionOddsJob(hand, 1, variant="DS")


# --- 7. the BS Big Solo break-even ----------------------------------------------------------------------------------
def test_bs_big_solo_break_even_is_half_plus_d_over_24():
    frame = pd.DataFrame({"strokes_chalk": [1.2, -0.6, np.nan], "strokes_no_chalk": [0.3, -1.2, np.nan]})
    assert api.solo_break_even(frame, "BS").tolist() == pytest.approx([0.5 + 1.2 / 24, 0.5 - 0.6 / 24, 0.5])
    assert api.solo_break_even(frame, "AS", 0.54).tolist() == [0.54] * 3
    assert api.solo_break_even(frame, "DS").isna().all()
    row = {"p_solo_dd": 0.52, "jacks": 3, "p79": 0.6, "p42": 0.9}
    assert api.advice(row, "BS", 0.55) == "raise / mit" and api.advice(row, "BS", 0.475) == "big solo"


def test_thresholds_advice_follows_the_break_even(capsys):
    frame = api.thresholds("greedy", 600, 3, **RUN)
    assert frame.solo_break_even.tolist() == pytest.approx(api.solo_break_even(frame, "BS").tolist())
    assert frame.advice.tolist() == [api.advice(r, "BS", r.solo_break_even) for _, r in frame.iterrows()]
    assert main(["thresholds", "bauernstoss", "--n", "200", "--seed", "3", "--equity-hands", "0", "--no-progress"]) == 0
    assert "p* = 1/2 + D/24" in capsys.readouterr().out
    assert main(["thresholds", "bauernstoss", "--n", "40", "--seed", "3", "--play", "dd", "--equity-hands", "0",
                 "--no-progress"]) == 0
    assert "p* = 1/2: --play dd counts card points" in capsys.readouterr().out


def test_auction_options_reach_the_auction_tables_of_thresholds():
    """An auction option changes the Q11 and Q5 tables of part A (their deals are auctioned) and not its main
    table, which plays forehand's best suit without an auction."""
    plain = api.thresholds("greedy", 1500, 4, progress=False, checkpoint=False)
    advisory = api.thresholds("greedy", 1500, 4, rules=(("mit_rule", "advisory"),), progress=False, checkpoint=False)
    assert advisory.equals(plain) and advisory.attrs["rules"] == (("mit_rule", "advisory"),)
    assert not advisory.attrs["seat_effects"].equals(plain.attrs["seat_effects"])
    assert not advisory.attrs["showdown_low"].equals(plain.attrs["showdown_low"])
