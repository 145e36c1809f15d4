"""``cardsim odds|stats|match dreeg``: JSON contracts, exact cases, reproducibility and bad input."""

from __future__ import annotations

import json
import re

import pytest

from analysis.cli import main
from analysis.games import dreeg as api


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_odds_json_contract(capsys):
    code, out, _ = run_cli(capsys, "odds", "dreeg", "--phase", "1", "--hand", "HA H10 HK HO E9 L9", "--turnup", "H9",
                           "--n", "300", "--seed", "3", "--json", "--no-progress")
    data = json.loads(out)
    assert code == 0 and data["phase"] == 1 and data["subgame"] == "Sechsundsechzig" and data["n"] == 300
    erase = [data["estimates"][f"erase.{k}"]["p"] for k in range(4)]
    assert sum(erase) == pytest.approx(1.0)
    # trump A 10 K O and the 40: every card point plan wins, the hand comes first every time
    assert data["estimates"]["erase.3"]["p"] == 1.0 and data["estimates"]["opp_erase.2"]["p"] > 0.5
    # individual 66 (§3.0.6) ranks the points: 66 is no target there, and nobody loses Schneider
    assert not {"reach66", "schneider", "schwarz"} & set(data["estimates"])
    cp = data["card_points"]
    assert cp["lo"] <= cp["mean"] <= cp["hi"]


def test_odds_kamerun_sure_durchmarsch(capsys):
    """Four Aces and two backed Tens at forehand: trick 1 is won and the Durchmarsch always succeeds."""
    code, out, _ = run_cli(capsys, "odds", "dreeg", "--phase", "4", "--hand", "EA LA HA SA E10 L10", "--n", "100",
                           "--seed", "1", "--json", "--no-progress")
    est = json.loads(out)["estimates"]
    assert code == 0 and est["durchmarsch"]["p"] == 1.0 and est["trick1"]["p"] == 1.0 and est["erase.0"]["p"] == 1.0


def test_odds_plays_the_sub_game_the_options_put_in_place_of_the_phase(capsys):
    """§3.5: with kamerun_bei_nacht=phase4, phase 4 is Kamerun bei Nacht (blind random play), not
    Kamerun: the header names it and the odds differ from plain Kamerun on the same deals."""
    argv = ("odds", "dreeg", "--phase", "4", "--hand", "HA H10 HK HO E9 L9", "--n", "300", "--seed", "7", "--json",
            "--no-progress")
    plain = json.loads(run_cli(capsys, *argv)[1])
    code, out, _ = run_cli(capsys, *argv, "--option", "kamerun_bei_nacht=phase4")
    blind = json.loads(out)
    assert code == 0 and plain["subgame"] == "Kamerun" and blind["subgame"] == "Kamerun bei Nacht"
    assert blind["estimates"]["erase.0"]["p"] != plain["estimates"]["erase.0"]["p"]
    assert "reach66" not in blind["estimates"] and "reach66" not in plain["estimates"]


def test_odds_text_and_three_players(capsys):
    code, out, _ = run_cli(capsys, "odds", "dreeg", "--phase", "3", "--players", "3", "--hand",
                           "SA S9 LK EA E10 HU H9 L9", "--call", "S10", "--n", "200", "--seed", "2", "--no-progress")
    assert code == 0 and "Rufen" in out and "side reaches 66" in out and "n = 200 deals" in out


def test_odds_independent_of_chunking():
    kw = dict(phase=2, hand="HA H10 HK EA E10 S9", n=300, seed=5, progress=False, checkpoint=False)
    a = api.odds(chunk_deals=100, **kw)
    b = api.odds(chunk_deals=1024, **kw)
    assert a[["successes", "n"]].equals(b[["successes", "n"]])


def test_stats_and_match_json(capsys):
    code, out, _ = run_cli(capsys, "stats", "dreeg", "--players", "3", "--n", "4", "--seed", "1", "--json",
                           "--no-progress")
    data = json.loads(out)
    assert code == 0 and data["n"] == 4 and data["players"] == 3
    losers = data["tables"]["losers"]
    assert len(losers) == 8 * 3
    assert sum(row["successes"] for row in losers if row["phase"].startswith("1 ")) == 4
    code, out, _ = run_cli(capsys, "match", "dreeg", "--a", "greedy", "--b", "random", "--games", "3", "--seed", "1",
                           "--json", "--no-progress")
    data = json.loads(out)
    assert code == 0 and data["n"] == 3 and {r["policy"] for r in data["tables"]["bolln"]} == {"A greedy", "B random"}


@pytest.mark.parametrize("argv, message", [
    (["odds", "dreeg", "--phase", "9", "--hand", "HA H10 HK HO E9 L9"],
     "argument --phase: invalid choice: '9' (choose from 1, 2, 3, 4, 5, 6, 7, 8)"),
    (["odds", "dreeg", "--phase", "1", "--players", "5", "--hand", "HA H10 HK HO E9 L9"],
     "argument --players: invalid choice: '5' (choose from 2, 3, 4)"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 HK"], "must list 6 cards"),
    (["odds", "dreeg", "--phase", "1", "--players", "3", "--hand", "HA H10 HK HO E9 L9"], "must list 8 cards"),
    (["odds", "dreeg", "--phase", "3", "--hand", "EA E10 LK HO E9 L9", "--call", "SA"], "illegal call SA"),
    (["odds", "dreeg", "--phase", "3", "--hand", "EA E10 LK HO E9 L9", "--position", "1", "--call", "EK"],
     "illegal call: only forehand calls a card in Rufen; give --position 0"),
    (["odds", "dreeg", "--phase", "2", "--hand", "EA E10 LK HO E9 L9", "--trump", "E"],
     "illegal trump choice: only the holder of the heart ace (HA) names trump in Rot Assen: add HA to --hand"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA E10 LK HO E9 L9", "--trump", "E"],
     "--trump exists only in Rot Assen (phases 2 and 7; with --players 2 also in Rufen), and phase 1 is "
     "Sechsundsechzig: drop --trump"),
    (["odds", "dreeg", "--phase", "2", "--hand", "HA E10 LK HO E9 L9", "--trump", "E", "--option",
      "rot_assen_trump=hearts"], "illegal trump choice: option rot_assen_trump=hearts allows only H"),
    (["odds", "dreeg", "--phase", "4", "--hand", "EA LA E9 L9 SU H9", "--call", "EK"],
     "--call exists only in Rufen (phases 3 and 6), and phase 4 is Kamerun: drop --call"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 LK HO E9 L9", "--option", "counting_error_percent=50"],
     "option counting_error_percent=50 applies only with information=counting_errors"),
    (["stats", "dreeg", "--option", "schweige_speak_percent=10"],
     "option schweige_speak_percent=10 applies only with schweige_mass=extra, phase1 or phase8"),
    (["match", "dreeg", "--option", "wegloescher_c_leads=true"], "option wegloescher_c_leads=true applies only with"),
    (["odds", "dreeg", "--phase", "8", "--players", "2", "--hand", "EA E10 EK LA L10 LK", "--option",
      "wegloescher=phase8", "--option", "wegloescher_c_leads=true"],
     "(who leads a Weglöscher pair is the hand's --position, 0 leading); drop it"),
    (["stats", "dreeg", "--option", "kamerun5_no_head=true", "--option", "kamerun_bei_nacht=phase5"],
     "option kamerun5_no_head=true applies only with a Kamerun in phase 5"),
    (["thresholds", "dreeg", "--option", "counting_error_percent=1"], "applies only with information=counting_errors"),
    (["odds", "dreeg", "--phase", "2", "--hand", "HA E10 LK HO E9 L9", "--trump", "X"],
     "--trump must be a suit, one of E, L, H, S (or 'surrender', in Rot Assen), got 'X'"),
    (["odds", "dreeg", "--phase", "4", "--hand", "HA E10 LK HO E9 L9", "--turnup", "S9"], "only in phases 1 and 8"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA E10 LK HO E9 L9", "--turnup", "HA"], "belongs to the dealer"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA HA LK HO E9 L9"], "HA is given 2 times"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H8 LK HO E9 L9"], "'H8' is not a card"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 LK HO E9 L9", "--policy", "smart"],
     "argument --policy: invalid choice: 'smart' (choose from random, greedy, pimc, sly)"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 LK HO E9 L9", "--option", "nope=1"], "unknown dreeg option"),
    (["stats", "dreeg", "--players", "5"], "argument --players: invalid choice: '5' (choose from 3, 4)"),
    (["match", "dreeg", "--a", "smart"],
     "argument --a: invalid choice: 'smart' (choose from random, greedy, pimc, sly)"),
    (["thresholds", "dreeg", "--decision", "nope"],
     "argument --decision: invalid choice: 'nope' (choose from close, call, durchmarsch, hide, moment, "
     "surrender, exchange, value, all)"),
    (["stats", "dreeg", "--option", "schweige_mass=phase1", "--option", "wegloescher=phase1"], "already"),
    (["stats", "dreeg", "--option", "counting_error_percent=7"], "choose one of"),
    (["match", "dreeg", "--option", "kamerun_bei_nacht=phase1"], "choose one of"),
    (["thresholds", "dreeg", "--decision", "moment", "--option", "information=counting_errors"], "perfect recall"),
    (["odds", "dreeg", "--phase", "1", "--hand", "HA H10 LK HO E9 L9", "--option", "schweige_mass=phase1",
      "--option", "wegloescher=phase1"], "already"),
    (["odds", "dreeg", "--phase", "8", "--hand", "HA H10 LK HO E9 L9", "--option", "wegloescher=phase8"],
     "Weglöscher"),
])
def test_bad_input(capsys, argv, message):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and message in err


def test_thresholds_json_contract(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "dreeg", "--n", "60", "--seed", "4", "--json", "--no-progress")
    data = json.loads(out)
    assert code == 0 and set(data["decisions"]) == {"close", "call", "durchmarsch", "hide", "moment", "surrender",
                                                 "exchange"}
    assert {row["tricks"] for row in data["decisions"]["moment"]["close_from"]} <= set(range(6))
    for name, decision in data["decisions"].items():
        assert sum(row["n"] for row in decision["rows"]) == 60 or name in ("hide", "exchange")  # only some deals
        for row in decision["rows"]:
            assert row["diff_lo"] <= row["diff"] <= row["diff_hi"]
            assert row["diff"] == pytest.approx(row["mean_a"] - row["mean_b"])


def test_thresholds_durchmarsch_by_sure_cards():
    """Declaring with several unsure cards nearly always fails (net -3); Kamerun net is -erase."""
    frame = api.thresholds("durchmarsch", n=200, seed=2, progress=False, checkpoint=False)
    assert frame["n"].sum() == 200
    assert ((frame[["mean_a", "mean_b"]] <= 0) & (frame[["mean_a", "mean_b"]] >= -3)).all().all()
    weak = frame[frame["class"].str[0].astype(int) >= 3]
    assert (weak["p_a"] < 0.05).all() and (weak["mean_a"] < weak["mean_b"]).all()


def test_strength_rows_cover_every_deal():
    frame = api.strength(phase=1, players=2, n=50, seed=1, progress=False, checkpoint=False)
    reach = frame[frame.outcome == "reach66"]
    assert reach.groupby("position")["n"].sum().to_dict() == {"dealer": 50, "forehand": 50}


def test_stats_with_the_optional_sub_games(capsys):
    """§3.5 sub-games as phases: Kamerun bei Nacht in place of phase 4, Schweige-Maß and Weglöscher
    after phase 8; every phase has a loser in every game."""
    code, out, _ = run_cli(capsys, "stats", "dreeg", "--n", "3", "--seed", "2", "--json", "--no-progress",
                           "--option", "kamerun_bei_nacht=phase4", "--option", "schweige_mass=extra",
                           "--option", "wegloescher=extra", "--option", "schweige_speak_percent=5")
    data = json.loads(out)
    phases = list(dict.fromkeys(row["phase"] for row in data["tables"]["losers"]))
    assert code == 0 and phases[3] == "4 Kamerun bei Nacht" and phases[8:] == ["9 Schweige-Maß", "10 Weglöscher"]
    for phase in phases:
        assert sum(row["successes"] for row in data["tables"]["losers"] if row["phase"] == phase) >= 3
    code, out, _ = run_cli(capsys, "match", "dreeg", "--a", "sly", "--b", "greedy", "--games", "2", "--seed", "1",
                           "--no-progress")
    assert code == 0 and "A sly" in out


def test_moment_thresholds_classes_and_pairs():
    """Every deal contributes one closing moment; the class parts decode the moment; the intervals
    hold their estimates; the branches replay the hand exactly up to the chosen moment."""
    from simcore.games.dreeg_odds import moment_class, moment_label

    assert moment_label(moment_class(0, 0, 0)) == (0, "0-19", "0-1")
    assert moment_label(moment_class(5, 70, 6)) == (5, "66+", "4+")
    assert moment_label(moment_class(2, 33, 2)) == (2, "33-44", "2")
    frame = api.thresholds("moment", n=120, seed=3, progress=False, checkpoint=False)
    assert frame["n"].sum() == 120 and set(frame["tricks"]) <= set(range(6))
    assert ((frame["diff_lo"] <= frame["diff"]) & (frame["diff"] <= frame["diff_hi"])).all()
    assert frame.attrs["close_from"] and all(set(row) == {"tricks", "trumps", "classes", "close_from"}
                                             for row in frame.attrs["close_from"])
    import numpy as np

    from simcore.games.dreeg import rule_options
    from simcore.games.dreeg_odds import _Moments
    from simcore.games.dreeg_play import play_hand

    rng = np.random.default_rng(5)
    for _ in range(20):
        perm = rng.permutation(24)
        probe: list = []
        play_hand("66", 1, perm, [_Moments(probe), _Moments(probe)], rule_options())
        at = int(rng.integers(len(probe)))
        for answer in (True, False):
            branch: list = []
            res = play_hand("66", 1, perm, [_Moments(branch, at, answer), _Moments(branch, at, answer)], rule_options())
            assert branch[:at + 1] == probe[:at + 1] and (res.closer >= 0 or not answer)


def test_odds_opponents_schneider_and_schwarz():
    """Without closing or miscounts the opponents of a two-sided hand erase 3 exactly when the hero's side
    is Schwarz and 2 exactly when it is Schneider (§3.0.7); the opponents' erases form a distribution."""
    frame = api.odds(2, "HA H9 SK SO E10 L9", trump="S", n=400, seed=1, progress=False, checkpoint=False)
    got = frame.set_index("quantity")["successes"]
    assert got["schwarz"] == got["opp_erase.3"] > 0 and got["schneider"] == got["opp_erase.2"]
    assert sum(got[f"opp_erase.{k}"] for k in range(4)) == 400
    # a lost hand is exactly one in which the hero erases nothing (the soloist has no partner to win)
    assert got["erase.0"] == sum(got[f"opp_erase.{k}"] for k in (1, 2, 3))


def test_schneider_and_schwarz_do_not_depend_on_who_erases():
    """§5 A2's literal reading (the loser erases a played-out hand) changes who erases, not who lost."""
    def losses(eraser):
        frame = api.odds(2, "HA HK EA E10 LA S9", trump="H", n=400, seed=4, progress=False, checkpoint=False,
                         options=[f"two_sided_eraser={eraser}"])
        got = frame.set_index("quantity")["successes"]
        return got["schneider"], got["schwarz"]
    assert losses("winner") == losses("loser") and sum(losses("winner")) > 0


def test_odds_reach66_counts_as_the_thresholds_option_says():
    """§5 A5: with thresholds_include_marriages=false a side's 40 does not count towards 66."""
    kw = dict(phase=2, hand="HA H10 HK HO E9 L9", trump="H", n=300, seed=2, progress=False, checkpoint=False)
    p = {opt: api.odds(options=opt, **kw).set_index("quantity").loc["reach66", "p"]
         for opt in ((), ("thresholds_include_marriages=false",))}
    assert p[()] > p[("thresholds_include_marriages=false",)]


def test_stats_shows_kamerun_events_that_did_not_happen(capsys):
    code, out, _ = run_cli(capsys, "stats", "dreeg", "--players", "3", "--n", "2", "--seed", "1", "--no-progress")
    rows = [line for line in out.splitlines() if line.startswith("  Kamerun ")]
    assert code == 0 and [row.split()[1] for row in rows] == ["durchmarsch", "durchmarsch_won"]


def test_match_bolln_intervals_stay_within_the_phases():
    tables = api.match("greedy", "random", n=10, seed=1, progress=False, checkpoint=False)
    bolln = tables["bolln"]
    assert (bolln["lo"] >= 0).all() and (bolln["hi"] <= 8).all()
    assert ((bolln["lo"] < bolln["mean"]) & (bolln["mean"] < bolln["hi"])).all()


def test_paired_diff_is_a_student_t_interval():
    assert api.paired_diff(-4, 16, 1) == (-4, -api.NET_SPAN, api.NET_SPAN)      # one deal: no information
    mean, lo, hi = api.paired_diff(3, 5, 2)                                       # differences 1 and 2
    assert mean == 1.5 and mean - lo == pytest.approx(12.7062 * 0.5, abs=1e-4) and hi == api.NET_SPAN  # t(1)
    mean, lo, hi = api.paired_diff(10, 10 + 9 * 0.25, 10)  # ten differences, sd 0.5: the t quantile with 9 df
    assert hi - mean == pytest.approx(2.2622 * 0.5 / 10 ** 0.5, abs=1e-4)


def test_threshold_summaries_use_only_classes_with_enough_deals(capsys):
    frame = api.thresholds("moment", n=300, seed=1, progress=False, checkpoint=False)
    small = set(frame["class"][frame["n"] < api.MIN_CLASS_N])
    assert small and not small & set(frame.attrs["a_better"] + frame.attrs["b_better"])
    used = {(row["tricks"], row["trumps"], row["close_from"]) for row in frame.attrs["close_from"]}
    for tricks, trumps, points in used:
        if points is not None:
            row = frame[(frame.tricks == tricks) & (frame.trumps == trumps) & (frame.points == points)]
            assert int(row["n"].iloc[0]) >= api.MIN_CLASS_N
    text = api.format_thresholds([frame])
    marked = [line for line in text.splitlines() if re.search(r"\d\*  \d\.\d{4} \[", line)]
    assert f"fewer than {api.MIN_CLASS_N} deals" in text and len(marked) == len(small)
