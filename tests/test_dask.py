"""Runs on a dask.distributed cluster (``--scheduler`` / ``--dask-workers``): a real LocalCluster of
worker processes gives the same totals as a local run; bad or unreachable schedulers fail fast."""

from __future__ import annotations

import argparse
import json
import socket
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from distributed import LocalCluster

from analysis import report, sweep
from analysis.cli import main
from simcore import runner
from simcore.errors import CardsimError
from simcore.games.giltspiel import FigureCondition, Known, OddsJob, StatsJob
from simcore.rng import BLOCK_DEALS

N = 2 * BLOCK_DEALS + 777  # not a multiple of the block size
SEED = 31337
HAND = "LA SA H10 E9 E8"


@pytest.fixture(scope="module")
def scheduler():
    """The address of a LocalCluster of two worker processes, one thread each."""
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0")
    try:
        yield cluster.scheduler_address
    finally:
        runner.close_dask_clients()
        cluster.close()


def test_cluster_has_two_worker_processes(scheduler):
    client = runner.dask_client(scheduler)
    assert len(client.nthreads()) == 2 and set(client.nthreads().values()) == {1}
    assert runner.dask_client(scheduler) is client  # one client per address, reused


def test_stats_totals_equal_a_local_run(scheduler):
    job = StatsJob(Known(), seat=2)
    local = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)
    remote = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False, scheduler=scheduler)
    assert remote.dtype == np.int64 and (remote == local).all() and remote[0] == N


def test_rejecting_odds_totals_equal_a_local_run(scheduler):
    job = OddsJob(Known({1: (7, 15, 18, 25, 0)}, turnup=22), team=1,
                  accept=(FigureCondition(seats=(3,), figure="gleich", code=5),))
    local = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)
    remote = runner.run(job, N, SEED, chunk_deals=3 * BLOCK_DEALS, checkpoint=False, scheduler=scheduler)
    assert (remote == local).all() and 0 < remote[0] < N


@pytest.mark.filterwarnings("ignore:.*tasks which were still being processed.*:UserWarning")
def test_interrupted_cluster_run_resumes_locally(scheduler, tmp_path):
    job = StatsJob(Known(), seat=0)
    with pytest.raises(KeyboardInterrupt):
        runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path, stop_after=1, scheduler=scheduler)
    resumed = runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=tmp_path)
    assert (resumed == runner.run(job, N, SEED, chunk_deals=BLOCK_DEALS, checkpoint=False)).all()


def _cli_json(capsys, *argv) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def test_cli_odds_on_the_cluster_prints_the_local_numbers(scheduler, capsys):
    argv = ["odds", "giltspiel", "--hand", HAND, "--n", str(N), "--seed", str(SEED), "--json", "--no-progress",
            "--chunk-size", str(BLOCK_DEALS)]
    assert _cli_json(capsys, *argv, "--scheduler", scheduler) == _cli_json(capsys, *argv)


def test_sweep_on_the_cluster_equals_a_local_sweep(scheduler, tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(f'game = "giltspiel"\ncommand = "odds"\nseed = 4\nn = 5000\n[fixed]\nhand = "{HAND}"\n'
                    '[grid]\nseat = [0, 1, 2]\n')
    on_cluster = sweep.sweep(path, tmp_path / "dask", scheduler=scheduler, progress=False)
    local = sweep.sweep(path, tmp_path / "local", progress=False)
    assert on_cluster.ran == local.ran == 3
    key = ["cell", "estimate"]
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "dask").sort_values(key).reset_index(drop=True),
                                  pd.read_parquet(tmp_path / "local").sort_values(key).reset_index(drop=True))


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_unreachable_scheduler_is_one_line_exit_2_within_seconds(capsys):
    address = f"tcp://127.0.0.1:{_closed_port()}"
    start = time.monotonic()
    code = main(["odds", "giltspiel", "--hand", HAND, "--n", "1000", "--scheduler", address])
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err.strip()
    assert code == 2 and elapsed < runner.DASK_TIMEOUT_S + 10  # slack: the suite runs one worker per core
    assert err.startswith(f"cardsim: error: cannot reach the Dask scheduler at {address}") and "\n" not in err


@pytest.mark.parametrize("address", ["not an address", "http://host:8786/path", "tcp://"])
def test_malformed_scheduler_address_is_refused_at_once(address):
    with pytest.raises(CardsimError, match="--scheduler takes a Dask scheduler address"):
        runner.dask_client(address)


def test_more_local_dask_workers_than_cores_are_refused(capsys):
    """A local cluster of more worker processes than cores only slows the run (1e12 would never start)."""
    code = main(["stats", "giltspiel", "--n", "1000", "--dask-workers", "1e12"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and "--dask-workers starts that many worker processes" in err[0]


def test_scheduler_and_dask_workers_exclude_each_other(capsys):
    code = main(["stats", "giltspiel", "--n", "1000", "--scheduler", "tcp://127.0.0.1:1", "--dask-workers", "2"])
    assert code == 2 and "not allowed with argument" in capsys.readouterr().err
    with pytest.raises(CardsimError, match="either --scheduler or --dask-workers"):
        runner.dask_client("tcp://127.0.0.1:1", 2)


def test_report_arguments_reach_the_runner():
    parser = argparse.ArgumentParser()
    report.add_report_arguments(parser)
    ctx = report._context(parser.parse_args(["--scheduler", "tcp://10.0.0.1:8786"]))
    assert ctx.run_kw["scheduler"] == "tcp://10.0.0.1:8786" and "dask_workers" not in ctx.run_kw
    ctx = report._context(parser.parse_args(["--dask-workers", "3"]))
    assert ctx.run_kw["dask_workers"] == 3 and "local Dask cluster of 3" in report._backend(ctx)
    assert "scheduler" not in report._context(parser.parse_args([])).run_kw


EXAMPLE = str(Path(__file__).resolve().parent.parent / "scenarios" / "giltspiel-seats.toml")


@pytest.mark.parametrize("command", [["report", "--n", "1000"], ["sweep", EXAMPLE]], ids=["report", "sweep"])
def test_report_and_sweep_with_unreachable_scheduler_exit_2(command, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(runner, "DASK_TIMEOUT_S", 1)
    address = f"tcp://127.0.0.1:{_closed_port()}"
    start = time.monotonic()
    assert main([*command, "--out", str(tmp_path / "out"), "--scheduler", address]) == 2
    assert time.monotonic() - start < 15  # the 1 s timeout, start-up and slack for a busy machine; no hang
    err = capsys.readouterr().err.strip()
    assert err.startswith("cardsim: error: cannot reach the Dask scheduler") and "\n" not in err


def test_scheduler_without_workers_is_an_error_not_a_hang(monkeypatch):
    monkeypatch.setattr(runner, "DASK_TIMEOUT_S", 1)
    with LocalCluster(n_workers=0, processes=True, dashboard_address=":0") as empty:
        start = time.monotonic()
        with pytest.raises(CardsimError, match="has no workers"):
            runner.run(StatsJob(Known(), seat=0), 1000, SEED, checkpoint=False, scheduler=empty.scheduler_address)
        assert time.monotonic() - start < 20  # the 1 s timeout plus slack for a busy machine; no hang
        runner.close_dask_clients()


def test_report_section_on_the_cluster_equals_a_local_build(scheduler):
    """The Giltspiel report section (tables, charts' numbers, example hands) is the same on the cluster."""
    from analysis.sections import giltspiel as section

    parser = argparse.ArgumentParser()
    report.add_report_arguments(parser)
    argv = ["--n", "50000", "--hand-n", "5000", "--seed", "3", "--jobs", "1", "--no-progress"]
    local = section.section(report._context(parser.parse_args(argv))).body
    on_cluster = section.section(report._context(parser.parse_args([*argv, "--scheduler", scheduler]))).body
    assert on_cluster == local
