"""Scenario sweeps (`analysis.sweep`, ``cardsim sweep``): grid expansion, per-cell seeds, the Parquet
dataset, resuming, atomic part files and bad scenario files."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from analysis import sweep
from analysis.cli import main
from analysis.commands import LONG_COLUMNS
from analysis.games import giltspiel, pinochle3
from simcore.errors import CardsimError

N = 20_000
SCENARIO = f"""
description = "test: Giltspiel odds by seat and turn-up"
game = "giltspiel"
command = "odds"
seed = 99
n = {N}

[fixed]
hand = "LA SA H10 E9 E8"

[grid]
seat = [0, 1, 3]
turnup = ["L7", "HA"]
"""
ESTIMATES = 12  # gleich and hanger x win, stand, lose, void, opponent_better, opponent_equal


def _write(tmp_path: Path, text: str, name: str = "scenario.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """The test scenario swept once: (scenario file, output folder, result)."""
    folder = tmp_path_factory.mktemp("sweep")
    path = _write(folder, SCENARIO)
    result = sweep.sweep(path, folder / "out", progress=False)
    return path, folder / "out", result


def test_grid_is_the_cartesian_product_in_file_order(tmp_path):
    scenario = sweep.read_scenario(_write(tmp_path, SCENARIO))
    assert [(c.params["seat"], c.params["turnup"]) for c in scenario.cells] == [
        (0, "L7"), (0, "HA"), (1, "L7"), (1, "HA"), (3, "L7"), (3, "HA")]
    assert all(c.params["hand"] == "LA SA H10 E9 E8" and c.n == N for c in scenario.cells)
    assert [c.index for c in scenario.cells] == list(range(6))
    assert scenario.axes == ["seat", "turnup"] and scenario.game == "giltspiel" and scenario.command == "odds"


def test_cell_seeds_are_seed_sequence_children_not_seed_plus_i(tmp_path):
    scenario = sweep.read_scenario(_write(tmp_path, SCENARIO))
    seeds = [c.seed for c in scenario.cells]
    children = np.random.SeedSequence(99).spawn(6)
    assert seeds == [int(c.generate_state(1, np.uint64)[0]) >> 1 for c in children]
    assert len(set(seeds)) == 6 and not set(seeds) & {99 + i for i in range(6)}
    assert all(0 <= s < 2**63 for s in seeds)


def test_n_as_a_list_is_a_grid_axis(tmp_path):
    text = SCENARIO.replace(f"n = {N}", "n = [1000, 2000]")
    scenario = sweep.read_scenario(_write(tmp_path, text))
    assert len(scenario.cells) == 12 and scenario.axes == ["seat", "turnup", "n"]
    assert [c.n for c in scenario.cells[:4]] == [1000, 2000, 1000, 2000]


def test_one_part_file_per_cell_and_one_row_per_estimate(finished):
    _, out, result = finished
    parts = sorted(p.name for p in out.iterdir())
    assert len(parts) == 6 and all(p.startswith("part-") and p.endswith(".parquet") for p in parts)
    assert (result.cells, result.ran, result.skipped, result.rows) == (6, 6, 0, 6 * ESTIMATES)
    data = pd.read_parquet(out)
    assert len(data) == 6 * ESTIMATES
    for column in ["scenario", "game", "quantity", "cell", "hand", "seat", "turnup", "params", "sample_n",
                   *LONG_COLUMNS, "seed", "code_version"]:
        assert column in data.columns, column
    assert set(data.game) == {"giltspiel"} and set(data.quantity) == {"odds"} and set(data.sample_n) == {N}
    assert data.seat.dtype.kind == "i" and set(data.seat) == {0, 1, 3}
    assert set(data.code_version) == {sweep.code_version()}
    assert ((data.lo <= data.value) & (data.value <= data.hi)).all()
    # the four outcomes of each figure sum to one in every cell
    outcomes = data[~data.estimate.str.contains("opponent")]
    figure = outcomes.estimate.str.split(".").str[0]
    assert np.allclose(outcomes.groupby([outcomes.cell, figure]).value.sum(), 1.0)


def test_cell_numbers_equal_the_command_with_the_cell_seed(finished, tmp_path):
    path, out, _ = finished
    cell = sweep.read_scenario(path).cells[3]
    data = pd.read_parquet(out)
    stored = data[data.cell == 3].set_index("estimate")
    direct = giltspiel.odds("LA SA H10 E9 E8", seat=1, turnup="HA", n=N, seed=cell.seed, checkpoint=False)
    assert int(stored.seed.iloc[0]) == cell.seed
    for row in direct.itertuples():
        assert stored.loc[f"{row.figure}.{row.outcome}", "value"] == row.p
        assert stored.loc[f"{row.figure}.{row.outcome}", "n"] == row.n


def test_rerun_skips_finished_cells(finished):
    path, out, _ = finished
    before = {p.name: p.stat().st_mtime_ns for p in out.iterdir()}
    again = sweep.sweep(path, out, progress=False)
    assert (again.ran, again.skipped, again.rows) == (0, 6, 0)
    assert {p.name: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_interrupted_sweep_resumes_to_the_same_dataset(finished, tmp_path, monkeypatch):
    path, complete, _ = finished
    real, calls = sweep.run_cell, []

    def stop_at_third(*args):
        calls.append(args[2])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(sweep, "run_cell", stop_at_third)
    with pytest.raises(KeyboardInterrupt, match="2 of 6 cells are finished"):
        sweep.sweep(path, tmp_path / "out", progress=False)
    assert len(list((tmp_path / "out").iterdir())) == 2  # the finished cells, no partial file
    monkeypatch.setattr(sweep, "run_cell", real)
    resumed = sweep.sweep(path, tmp_path / "out", progress=False)
    assert (resumed.ran, resumed.skipped) == (4, 2)
    key = ["cell", "estimate"]
    a = pd.read_parquet(complete).sort_values(key).reset_index(drop=True)
    b = pd.read_parquet(tmp_path / "out").sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


def test_changed_question_is_not_skipped(finished, tmp_path):
    path, out, _ = finished
    scenario = sweep.read_scenario(path)
    other = sweep.read_scenario(_write(tmp_path, SCENARIO.replace("seed = 99", "seed = 100")))
    version = sweep.code_version()
    assert sweep.part_path(out, scenario, scenario.cells[0], version).exists()
    assert not sweep.part_path(out, other, other.cells[0], version).exists()
    assert sweep.part_path(out, scenario, scenario.cells[0], "0.0.0+other") != \
        sweep.part_path(out, scenario, scenario.cells[0], version)


def test_failed_write_leaves_no_file(tmp_path, monkeypatch):
    path = _write(tmp_path, SCENARIO.replace("seat = [0, 1, 3]", "seat = [0]"))

    def broken_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", broken_fsync)
    with pytest.raises(CardsimError, match="No space left on device"):
        sweep.sweep(path, tmp_path / "out", progress=False)
    assert list((tmp_path / "out").iterdir()) == []


def test_cells_in_parallel_give_the_same_numbers(finished, tmp_path):
    path, complete, _ = finished
    result = sweep.sweep(path, tmp_path / "out", jobs=2, progress=False)
    assert result.ran == 6
    key = ["cell", "estimate"]
    a = pd.read_parquet(complete).sort_values(key).reset_index(drop=True)
    b = pd.read_parquet(tmp_path / "out").sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b)


def test_pinochle_stats_sweep_with_n_axis(tmp_path):
    text = 'game = "pinochle3"\ncommand = "stats"\nseed = 5\n[grid]\nn = [3000, 6000]\nseat = [0, 2]\n'
    out = tmp_path / "out"
    result = sweep.sweep(_write(tmp_path, text), out, progress=False)
    data = pd.read_parquet(out)
    assert result.ran == 4 and set(data.sample_n) == {3000, 6000}
    cell = sweep.read_scenario(tmp_path / "scenario.toml").cells[3]
    assert (cell.n, cell.params) == (6000, {"seat": 2})
    direct = pinochle3.stats(6000, cell.seed, 2, checkpoint=False)["means"].set_index("quantity")
    stored = data[data.cell == 3].set_index("estimate")
    assert stored.loc["mean.hand", "value"] == direct.loc["hand", "mean"]
    assert set(stored.n) == {6000}


def test_cli_sweep_prints_a_summary_and_a_line_per_cell(tmp_path, capsys):
    path = _write(tmp_path, SCENARIO.replace("seat = [0, 1, 3]", "seat = [2]"))
    assert main(["sweep", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 0
    captured = capsys.readouterr()
    assert "2 cells (2 run, 0 already done), 24 rows written" in captured.out
    cell_lines = [line for line in captured.err.splitlines() if line.startswith("cardsim: cell ")]
    assert len(cell_lines) == 2 and "seat=2 turnup=HA" in cell_lines[1]
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 0
    assert "2 already done" in capsys.readouterr().out


@pytest.mark.parametrize("example", sorted(Path(__file__).resolve().parent.parent.glob("scenarios/*.toml")),
                         ids=lambda p: p.name)
def test_shipped_scenarios_are_valid(example):
    scenario = sweep.read_scenario(example)
    assert 1 <= len(scenario.cells) <= 16 and all(c.n <= 200_000 for c in scenario.cells)


BAD = [
    ("colour = 'red'\n" + SCENARIO, "unknown key 'colour'"),
    (SCENARIO.replace("seed = 99", 'seed = "x"'), "'seed' must be a whole number, got a string"),
    (SCENARIO.replace("seed = 99", "seed = -1"), "non-negative"),
    (SCENARIO.replace(f"n = {N}", 'n = "many"'), "'n' must be"),
    (SCENARIO.replace(f"n = {N}", "n = 0"), "'n' must be whole numbers from 2"),
    (SCENARIO.replace(f"n = {N}", ""), "give the deals per cell once"),
    (SCENARIO.replace('game = "giltspiel"', ""), "missing key 'game'"),
    (SCENARIO.replace("seat = [0, 1, 3]\nturnup = [\"L7\", \"HA\"]", ""), "the [grid] is empty"),
    (SCENARIO.replace("seat = [0, 1, 3]", "seat = []"), "grid 'seat' is an empty list"),
    (SCENARIO.replace("seat = [0, 1, 3]", "seat = 1"), "grid 'seat' must be a list"),
    (SCENARIO.replace('game = "giltspiel"', 'game = "skat"'), "unknown game 'skat'"),
    (SCENARIO.replace('command = "odds"', 'command = "fly"'), "not available for giltspiel"),
    (SCENARIO.replace('command = "odds"', 'command = "solve"'), "no table form"),
    (SCENARIO.replace("[grid]", "[grid]\ncolour = ['red']"), "'colour': unknown option"),
    (SCENARIO.replace("[grid]", "[grid]\njobs = [1, 2]"), "'jobs': the sweep sets it"),
    (SCENARIO.replace("seat = [0, 1, 3]", 'seat = [0, "north"]'), "cell 2 (hand=LA SA H10 E9 E8 seat=north turnup=L7)"),
    (SCENARIO.replace("seat = [0, 1, 3]", "seat = [[0, 1]]"), "'seat' takes one value, got a list"),
    (SCENARIO.replace("seat = [0, 1, 3]", "seat = [true]"), "'seat' must be a string or a number"),
    (SCENARIO.replace("[grid]", "[grid]\nhand = ['LA']"), "'hand' is both in [fixed] and in [grid]"),
    (SCENARIO.replace('[fixed]\nhand = "LA SA H10 E9 E8"', "fixed = 3"), "'fixed' must be a table, got a whole number"),
    (SCENARIO + "\n[grid.more]\n", "grid 'more' must be a list"),
    ("game = = 'x'", "not valid TOML"),
    (SCENARIO.replace("[grid]", "[grid]\npimc-deals = [2]\npimc_deals = [3]"),
     "'pimc-deals' and 'pimc_deals' name one option; keep one"),
    (SCENARIO.replace('[fixed]\n', '[fixed]\ncsv = "cells.csv"\n'), "'csv': the sweep writes the results itself"),
    (SCENARIO.replace("[grid]", "[grid]\njson = [true]"), "'json': the sweep writes the results itself"),
    (SCENARIO.replace("seat = [0, 1, 3]", "seat = [0, 1, 1]"), "grid 'seat' lists 1 twice"),  # ran cells twice
    (SCENARIO.replace('turnup = ["L7", "HA"]', 'turnup = ["L7", "L7"]'), "grid 'turnup' lists \"L7\" twice"),
    (SCENARIO.replace(f"n = {N}", "n = [200, 200]"), "'n' lists 200 twice"),
]


@pytest.mark.parametrize("text,message", BAD, ids=[m for _, m in BAD])
def test_bad_scenario_is_one_line_and_exit_2(tmp_path, capsys, text, message):
    path = _write(tmp_path, text)
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and lines[0].startswith(f"cardsim: error: scenario {path}: ")
    assert message in lines[0]
    assert not (tmp_path / "out").exists()  # nothing runs before the whole scenario is checked


def test_scenario_not_in_utf8_is_one_line_and_exit_2(tmp_path, capsys):
    path = tmp_path / "latin1.toml"
    path.write_bytes(SCENARIO.encode() + "# Spielkarten für Grün\n".encode("latin-1"))
    assert main(["sweep", str(path), "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"scenario {path}: not UTF-8 text, as TOML must be" in err


def test_missing_file_and_unwritable_folder_exit_2(tmp_path, capsys):
    assert main(["sweep", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read scenario file" in capsys.readouterr().err
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["sweep", str(_write(tmp_path, SCENARIO)), "--out", str(blocker / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cardsim: error: cannot write the sweep results to") and "\n" not in err


def test_bad_value_of_a_later_cell_stops_the_sweep_before_any_cell_runs(tmp_path, capsys):
    """A value only the command checks (a card token) in cell 1: one line naming the cell, nothing run."""
    path = _write(tmp_path, SCENARIO.replace('turnup = ["L7", "HA"]', 'turnup = ["L7", "ZZ"]'))
    assert main(["sweep", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("cardsim: error: ") and "cell 1 (" in err[0] and "'ZZ'" in err[0]
    assert not (tmp_path / "out").exists()


def test_exact_is_refused_as_a_sweep_quantity(tmp_path, capsys):
    text = 'game = "giltspiel"\ncommand = "stats"\nseed = 1\nn = 1000\n[grid]\nexact = [true]\n'
    assert main(["sweep", str(_write(tmp_path, text)), "--out", str(tmp_path / "out")]) == 2
    assert "cannot store it" in capsys.readouterr().err


def test_params_column_holds_every_parameter(finished):
    _, out, _ = finished
    data = pd.read_parquet(out)
    params = data.groupby("cell").params.first().map(json.loads)
    assert params[4] == {"hand": "LA SA H10 E9 E8", "seat": 3, "turnup": "L7"}
