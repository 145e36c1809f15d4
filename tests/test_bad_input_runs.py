"""Bad input found before anything runs: every cell of a sweep is checked by its own command first
(`simcore.runner.dry_run`), so a bad later cell stops the sweep before the first cell writes a file."""

from __future__ import annotations

import numpy as np
import pytest

from analysis.cli import main
from simcore import runner
from simcore.errors import CardsimError
from simcore.games.giltspiel import Known, OddsJob

GILTSPIEL = 'game = "giltspiel"\ncommand = "odds"\nseed = 1\nn = 2000\n'
LATE_BAD_CELLS = [
    (GILTSPIEL + '[fixed]\nhand = "LA SA H10 E9 E8"\n[grid]\nseat = [0, 7]\n', "cell 1 (hand=LA SA H10 E9 E8 seat=7)",
     "--seat must be 0, 1, 2 or 3"),
    (GILTSPIEL + '[grid]\nhand = ["LA SA H10 E9 E8", "LA SA H10 E9 X8"]\n', "cell 1 (hand=LA SA H10 E9 X8)",
     "'X8' is not a card"),
    ('game = "pinochle3"\ncommand = "odds"\nseed = 1\nn = 20\n[fixed]\n'
     'hand = "HA HA H10 HK HK HQ HQ HJ SQ DJ CA DA SA C9 C10"\n[grid]\nbids = ["250:300:10", "5:10:1"]\n',
     "bids=5:10:1): ", "bid 5"),
    ('game = "perlaggen"\ncommand = "odds"\nseed = 1\nn = 2000\n[fixed]\nhand = "LA SA H10 E9 E8"\nturnup = "H7"\n'
     '[grid]\nspiel = ["pimc", "dd"]\npimc-samples = [2]\n', "cell 1 (",
     "--pimc-samples applies only with --spiel pimc"),
    ('game = "perlaggen"\ncommand = "thresholds"\nseed = 1\nn = 4\n[grid]\nplayers = [4, 3]\n', "cell 1 (players=3)",
     "3-player thresholds have no table form for a sweep"),
]


@pytest.mark.parametrize("text,cell,message", LATE_BAD_CELLS, ids=[m for _, _, m in LATE_BAD_CELLS])
def test_bad_value_in_a_later_cell_stops_the_sweep_before_any_cell_runs(tmp_path, capsys, text, cell, message):
    path = tmp_path / "scenario.toml"
    path.write_text(text)
    assert main(["sweep", str(path), "--out", str(tmp_path / "out"), "--no-progress"]) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert captured.out == "" and len(lines) == 1 and lines[0].startswith(f"cardsim: error: scenario {path}: ")
    assert cell in lines[0] and message in lines[0]
    assert not (tmp_path / "out").exists()


def test_dry_run_checks_the_sizes_and_runs_nothing():
    job = OddsJob(Known(), team=0)
    with runner.dry_run():
        with pytest.raises(runner.DryRun):
            runner.run(job, 1000, 1, checkpoint=True)
        with pytest.raises(CardsimError, match="must be positive"):
            runner.run(job, 0, 1)
    counts = runner.run(job, 1000, 1, checkpoint=False)  # outside the block a run runs again
    assert counts.dtype == np.int64 and counts[0] == 1000
