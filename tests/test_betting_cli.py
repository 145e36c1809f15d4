"""Betting commands (analysis.games.betting): match, tournament and thresholds for Giltspiel; output
contracts, determinism across --jobs / --chunk-size, match equity against an exact race, bad input."""

import errno
import json
import os
from math import comb

import numpy as np
import pytest

import simcore.betting
from analysis.cli import main
from analysis.games import betting
from simcore.betting import game_hold_threshold, hold_threshold, match_equity
from simcore.errors import CardsimError


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_match_json_contract_and_jobs_invariance(capsys):
    args = ["match", "giltspiel", "--a", "aggressive", "--b", "cautious", "--games", "48", "--seed", "7",
            "--no-progress", "--json"]
    code, one, err = run_cli(capsys, *args)
    assert code == 0 and err == ""
    data = json.loads(one)
    assert set(data) == {"games", "seed", "a", "b"} and data["games"] == 48 and data["seed"] == 7
    for side in ("a", "b"):
        assert set(data[side]) == {"win_rate", "points_per_deal"}
        assert set(data[side]["win_rate"]) == {"p", "lo", "hi"}
        assert set(data[side]["points_per_deal"]) == {"mean", "lo", "hi"}
        win, ppd = data[side]["win_rate"], data[side]["points_per_deal"]
        assert win["lo"] <= win["p"] <= win["hi"] and ppd["lo"] <= ppd["mean"] <= ppd["hi"]
    assert data["a"]["win_rate"]["p"] + data["b"]["win_rate"]["p"] == pytest.approx(1)
    _, two, _ = run_cli(capsys, *args, "--jobs", "2", "--chunk-size", "16")
    assert json.loads(two) == data


def test_duplicate_deals_make_self_play_even():
    """The same policy on both sides with duplicate deals: every pair of games is mirrored, so a
    policy wins exactly half of the games against itself (seats swapped, same deals and bluffs)."""
    frame = betting.match("giltspiel", "formula", "formula", games=16, seed=3, progress=False)
    assert frame.win_p.tolist() == [0.5, 0.5]
    assert frame.ppd_mean[0] == pytest.approx(frame.ppd_mean[1])


def test_match_text(capsys):
    code, out, _ = run_cli(capsys, "match", "giltspiel", "--a", "never", "--b", "formula", "--games", "8",
                           "--seed", "2", "--target", "15", "--no-progress")
    assert code == 0
    assert "never (a) vs formula (b), target 15" in out and "8 games" in out and "seed 2" in out


def test_tournament_table(capsys, tmp_path):
    path = tmp_path / "t.csv"
    code, out, _ = run_cli(capsys, "tournament", "giltspiel", "--policies", "formula,never,cautious", "--games", "8",
                           "--seed", "1", "--no-progress", "--csv", str(path))
    assert code == 0 and "overall game-win rate" in out
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 6  # three pairings, two rows each


def test_tournament_loads_every_policy_once(monkeypatch, tmp_path):
    """A round robin of k policies loads each file once, not once per pairing (k - 1 times)."""
    specs = []
    for name in ("p", "q", "r"):
        (tmp_path / f"{name}.json").write_text(json.dumps({"name": name, "bet_margin": 0.1}))
        specs.append(str(tmp_path / f"{name}.json"))
    loads = []
    monkeypatch.setattr(betting, "load_policy", lambda spec: loads.append(spec) or simcore.betting.load_policy(spec))
    table = betting.tournament("giltspiel", [*specs, "never"], games=2, seed=1, progress=False)
    assert len(table) == 4 * 3 and sorted(loads) == sorted([*specs, "never"])


@pytest.mark.parametrize("players", ["4", "3"])
def test_match_refuses_two_policies_of_one_name(capsys, tmp_path, players):
    """The output names the policies: a file named like the preset it plays against is refused (one line), while
    a policy against itself is a self-play match."""
    path = tmp_path / "mine.json"
    path.write_text(json.dumps({"name": "cautious", "bet_margin": 0.1}))
    games = "6" if players == "3" else "4"
    code = main(["match", "perlaggen", "--players", players, "--a", str(path), "--b", "cautious", "--games", games])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "--a and --b are two policies both named 'cautious'" in err and f"give {path} another" in err
    assert betting._pair("cautious", "cautious") == (simcore.betting.load_policy("cautious"),) * 2


def test_thresholds_first_order_values():
    """§10.6 table: hold iff P(win) > 1/(2(v+1)) without stands: 0.25, 0.167, 0.125, 0.1, 0.083, 0.071."""
    expected = [0.25, 0.167, 0.125, 0.100, 0.083, 0.071]
    assert [round(hold_threshold(v)[1], 3) for v in range(1, 7)] == expected
    frame = betting.first_order("giltspiel")
    gleich = frame[frame.figure == "gleich"]
    assert gleich.hold_p.round(3).tolist() == expected
    assert (gleich.hold_p_stands < gleich.hold_p).all()  # stands make holding cheaper
    assert gleich.weakest_hold.iloc[0] != "none"


def test_thresholds_command(capsys):
    code, out, _ = run_cli(capsys, "thresholds", "giltspiel", "--target", "5", "--games", "8", "--seed", "4",
                           "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["target"] == 5 and len(data["match_equity"]) == 2 * 25  # both dealers
    assert len(data["first_order"]) == 12


def test_thresholds_at_a_low_target_show_only_scores_that_exist(capsys):
    """Target 2: the scores shown in section C are 0 and 1, none below 0."""
    assert main(["thresholds", "giltspiel", "--target", "2", "--games", "2", "--seed", "1", "--no-progress"]) == 0
    section_c = capsys.readouterr().out.split("\nC. ")[1].splitlines()[2:]
    rows = [line.split()[:2] for line in section_c if line.startswith("  ")]
    assert rows and all(0 <= int(a) <= 1 and 0 <= int(b) <= 1 for a, b in rows)


def test_match_equity_exact_race():
    """One point per deal to A or B with probability 1/2: W(a, b) is the exact binomial race."""
    target = 6
    dist = np.zeros((2, 2))
    dist[1, 0] = dist[0, 1] = 0.5
    w = match_equity(dist, target)
    for a in range(target):
        for b in range(target):
            need_a, need_b = target - a, target - b
            exact = sum(comb(need_a - 1 + k, k) * 0.5 ** (need_a + k) for k in range(need_b))
            assert w[a, b] == pytest.approx(exact)
    assert w[0, 0] == pytest.approx(0.5)


def test_game_level_threshold_matches_first_order_far_from_the_end():
    """Far from the target W is nearly linear in the score difference, so the game-level hold threshold
    approaches the first-order 1/(2(v+1))."""
    dist = np.zeros((2, 2))
    dist[1, 0] = dist[0, 1] = 0.5
    w = match_equity(dist, 200)
    assert game_hold_threshold(w, 0, 0, 1) == pytest.approx(0.25, abs=0.02)


@pytest.mark.parametrize("argv, message", [
    (["match", "giltspiel", "--a", "bold", "--b", "cautious"], "unknown policy"),
    (["match", "giltspiel", "--a", "never", "--b", "cautious", "--target", "1"], "at least 2"),
    (["match", "giltspiel", "--a", "never", "--b", "cautious", "--games", "7"], "even"),
    (["tournament", "giltspiel", "--policies", "never"], "at least two"),
    (["tournament", "giltspiel", "--policies", "never,Never"], "twice"),
    (["thresholds", "giltspiel", "--target", "0"], "at least 2"),
    (["match", "giltspiel", "--a", "never.json", "--b", "cautious"], "JSON"),
    (["match", "giltspiel", "--a", "formula", "--b", "cautious", "--games", "2", "--target", "1500"], "at most 100"),
    (["thresholds", "giltspiel", "--games", "2", "--target", "1500"], "at most 100"),
    (["match", "perlaggen", "--players", "3", "--straf", "--a", "aggressive", "--b", "cautious", "--games", "3",
      "--target", "300"], "at most 100"),
])
def test_bad_input_exits_2(argv, message, capsys):
    code, out, err = run_cli(capsys, *argv, "--no-progress")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("cardsim: error:") and message in err


def test_perlaggen_match_and_thresholds(capsys):
    """Perlaggen has the same commands (target 18 by default)."""
    code, out, _ = run_cli(capsys, "match", "perlaggen", "--a", "formula", "--b", "never", "--games", "2",
                           "--seed", "1", "--no-progress", "--json")
    data = json.loads(out)
    assert code == 0 and data["games"] == 2 and set(data) == {"games", "seed", "a", "b"}
    frame = betting.first_order("perlaggen")
    assert frame.hold_p.round(3).tolist()[:6] == [0.25, 0.167, 0.125, 0.1, 0.083, 0.071]


def test_tournament_overall_rate_pools_the_pairings():
    """One policy's overall rate: p = wins / games; its interval from the pairings' own intervals (which
    allow for duplicate pairs), so it is narrower than plain Wilson when those are, and plain when they are."""
    import pandas as pd

    from analysis.stats import clustered_share, wilson

    shares = [clustered_share(220, 260, 200, 2), clustered_share(180, 200, 200, 2)]  # most pairs split 1-1
    rows = pd.DataFrame({"wins": [220, 180], "games": [400, 400], "win_lo": [s["lo"] for s in shares],
                         "win_hi": [s["hi"] for s in shares]})
    p, lo, hi = betting.pooled_win_rate(rows)
    plain = wilson(400, 800)
    assert p == 0.5 and plain[0] < lo < p < hi < plain[1]
    independent = pd.DataFrame({"wins": [220, 180], "games": [400, 400], "win_lo": [wilson(220, 400)[0],
                                wilson(180, 400)[0]], "win_hi": [wilson(220, 400)[1], wilson(180, 400)[1]]})
    _, lo, hi = betting.pooled_win_rate(independent)
    assert lo == pytest.approx(plain[0], abs=3e-3) and hi == pytest.approx(plain[1], abs=3e-3)


def test_target_above_the_maximum_is_refused_by_the_api():
    """The Python API refuses a target no game reaches in reasonable time, as the command line does."""
    with pytest.raises(CardsimError, match="at most 100"):
        betting.match("giltspiel", "formula", "cautious", games=2, seed=1, target=1500, progress=False)
    with pytest.raises(CardsimError, match="at most 100"):
        betting.match("perlaggen", "aggressive", "cautious", games=3, seed=3, target=300, players=3, style="straf",
                      progress=False)


def test_deal_cap_grows_with_the_target(capsys, monkeypatch):
    """A legal target finishes: the cap on deals per game scales with the target (here from a cap of 5)."""
    monkeypatch.setattr(simcore.betting, "MAX_DEALS_PER_GAME", 5)
    code, out, err = run_cli(capsys, "match", "giltspiel", "--a", "never", "--b", "never", "--games", "2", "--seed",
                             "1", "--target", "30", "--no-progress", "--json")
    assert code == 0 and err == "" and json.loads(out)["games"] == 2
    code, out, err = run_cli(capsys, "match", "perlaggen", "--players", "3", "--straf", "--a", "aggressive", "--b",
                             "cautious", "--games", "3", "--seed", "3", "--target", "30", "--no-progress", "--json")
    assert code == 0 and err == "" and json.loads(out)["games"] == 3


def test_policies_that_never_finish_a_game_exit_2(capsys, monkeypatch, tmp_path):
    """Strafperlaggen between players who accept every bet: failed acceptances add more than won figures
    count off, the counts rise and nobody reaches 0; the error names the policy and hold_margin."""
    monkeypatch.setattr(simcore.betting, "MAX_DEALS_PER_GAME", 60)  # the default 400 only takes longer
    bold = tmp_path / "p.json"
    bold.write_text(json.dumps({"name": "bold", "bet_margin": -1, "hold_margin": -1, "raise_margin": -1}))
    code, out, err = run_cli(capsys, "match", "perlaggen", "--a", str(bold), "--b", str(bold), "--games", "3",
                             "--players", "3", "--straf", "--seed", "3", "--no-progress")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "nobody reached 0" in err and "'bold'" in err and "hold_margin" in err
    monkeypatch.setattr(simcore.betting, "DEALS_PER_POINT", 0)
    monkeypatch.setattr(simcore.betting, "MAX_DEALS_PER_GAME", 1)  # no real team policy pair hits the cap
    code, out, err = run_cli(capsys, "match", "giltspiel", "--a", "never", "--b", "never", "--games", "2",
                             "--seed", "1", "--no-progress")
    assert code == 2 and err.count("\n") == 1 and "never finish a game" in err


@pytest.mark.parametrize("where, problem", [("missing/t.csv", "its folder {tmp}/missing does not exist"),
                                            (".", "it is a folder"),
                                            ("/proc/t.csv", "no file can be created in its folder /proc: "),
                                            ("file/t.csv", "{tmp}/file is a file, not a folder")])
def test_tournament_csv_is_checked_before_simulating(where, problem, capsys, monkeypatch, tmp_path):
    """A --csv in a missing folder, a folder, or a folder where no file can be made (/proc, which said 'its folder:
    No such file or directory') is refused at once (not after the whole round robin), saying which."""
    def no_simulation(*args, **kw):
        raise AssertionError("simulated before checking --csv")

    monkeypatch.setattr(betting, "match", no_simulation)
    (tmp_path / "file").write_text("")
    code, out, err = run_cli(capsys, "tournament", "giltspiel", "--policies", "formula,cautious", "--games", "4",
                             "--seed", "1", "--no-progress", "--csv", str(tmp_path / where))
    assert code == 2 and out == "" and err.count("\n") == 1 and "--csv" in err
    assert f"({problem.format(tmp=tmp_path)}" in err


def _folder_put_in_place(csv):
    """A `betting.tournament` that, once it has run, puts a folder where its --csv file goes."""
    run = betting.tournament

    def tournament(*args, **kw):
        table = run(*args, **kw)
        csv.mkdir()
        return table
    return tournament


def _disk_full(*args, **kw):
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


@pytest.mark.parametrize("breaks,reason", [("folder", "Is a directory"), ("disk", "No space left on device")])
def test_tournament_csv_write_failing_after_the_checks_is_one_line(breaks, reason, capsys, monkeypatch, tmp_path):
    """A --csv that passed the checks but fails when the table is written (a folder put in its place during the
    run, the disk full) ends with exit 2 and one line naming the path and the system's reason."""
    import pandas as pd

    csv = tmp_path / "table.csv"
    if breaks == "folder":
        monkeypatch.setattr(betting, "tournament", _folder_put_in_place(csv))
    else:
        monkeypatch.setattr(pd.DataFrame, "to_csv", _disk_full)
    code, out, err = run_cli(capsys, "tournament", "giltspiel", "--policies", "formula,never", "--games", "2",
                             "--seed", "1", "--no-progress", "--csv", str(csv))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"cardsim: error: cannot write {csv} ({reason}); make room or give a writable path")


def test_tournament_refuses_two_policies_of_one_name(capsys, tmp_path):
    """Rows and the pooled rate are keyed by name: two policy files named alike, or a file named like a
    built-in policy, would be merged into one."""
    for stem, name in (("a", "mine"), ("b", "mine"), ("cautious", "cautious")):
        (tmp_path / f"{stem}.json").write_text(json.dumps({"name": name}))
    for policies, rename in ((f"{tmp_path / 'a.json'},{tmp_path / 'b.json'}", "b.json"),
                             (f"formula,cautious,{tmp_path / 'cautious.json'}", "cautious.json")):
        code, out, err = run_cli(capsys, "tournament", "giltspiel", "--policies", policies, "--games", "2",
                                 "--seed", "1", "--no-progress")
        assert code == 2 and out == "" and err.count("\n") == 1
        assert "both named" in err and f'give {tmp_path / rename} another "name"' in err


@pytest.mark.parametrize("extra, flags", [
    (["--players", "3", "--permissive", "--communication", "none"], "--communication and --permissive belong"),
    (["--players", "3", "--straf", "--permissive"], "--permissive belongs to the partnership game"),
    (["--players", "2", "--communication", "auer_channel"], "--communication belongs to the partnership game: with "
                                                            "--players 2 every player is on his own, so it does"),
])
def test_partnership_flags_without_partners_are_refused(capsys, extra, flags):
    """Self-play of two or three players reads neither --communication (no partner) nor, at three, --permissive
    (the 4-player example rule): given, they are refused, not ignored."""
    for command in (["match", "perlaggen", "--a", "formula", "--b", "cautious"],
                    ["tournament", "perlaggen", "--policies", "formula,cautious"]):
        if command[0] == "tournament" and "--permissive" in extra:
            continue  # tournament has no --permissive
        assert main([*command, "--games", "6", *extra]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and flags in err


def test_two_player_thresholds_refuse_communication(capsys):
    """Two players have no partner: the thresholds' numbers are the same whatever --communication says."""
    assert main(["thresholds", "perlaggen", "--players", "2", "--communication", "none", "--games", "6"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "--communication belongs to the partnership game: with --players 2" in err


def test_bluff_grid_is_the_formula():
    """Spec §10.6: c*(v, d) = |d| / (v + (v+1)|d|), e.g. v = 1, d = -1: 1/3; every cell of the grid, written out."""
    from fractions import Fraction

    table = betting.bluff_table()
    assert len(table) == len(betting.VALUES) * len(betting.BLUFF_D)
    for r in table.itertuples():
        d = Fraction(r.d).limit_denominator(100)
        assert r.c == pytest.approx(float(-d / (r.value + (r.value + 1) * -d)), abs=1e-15)
    assert table.set_index(["value", "d"]).c[1, -1.0] == pytest.approx(1 / 3)
    lines = betting._bluff_lines(table)
    assert lines[2].split() == ["v", "d=-0.10", "d=-0.25", "d=-0.50", "d=-0.75", "d=-1.00"]
    assert lines[3].split() == ["1", "0.083", "0.167", "0.250", "0.300", "0.333"]
