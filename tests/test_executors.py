"""A Dask cluster plays the very same games as this machine (issue 29), and an executor
that cannot be used exits 2 with what to do; a wrong address or a cluster without workers
is waited for a bounded time (issue 46)."""

from __future__ import annotations

import socket
import sys

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import play_many


@pytest.fixture(scope="module")
def distributed():
    """Dask's distributed, imported where a test uses it: not at collection, in every
    worker of make test (about a second of CPU time each)."""
    return pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster(distributed):
    """An in-process cluster with a TCP scheduler, as a remote one would be reached."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  protocol="tcp", host="127.0.0.1",
                                  dashboard_address="127.0.0.1:0") as local:
        yield local


def _lines(output: str) -> list[str]:
    """The summary without its first line, which holds the time taken."""
    return output.splitlines()[1:]


def test_a_cluster_plays_the_same_games_as_this_machine(cluster, distributed):
    setup = Setup("ragusa", 3, 5, (BotSpec("heuristic"), BotSpec("random"), BotSpec("random")))
    with distributed.Client(cluster) as client:
        remote = play_many(setup, 230, executor=client)
    here = play_many(setup, 230, workers=1)
    assert [(r.index, r.returns, r.scores, r.length, r.figures) for r in remote] == \
        [(r.index, r.returns, r.scores, r.length, r.figures) for r in here]


def test_simulate_on_a_cluster_prints_what_one_machine_prints(cluster):
    address = "dask://" + cluster.scheduler_address.removeprefix("tcp://")
    runner = CliRunner()
    there = runner.invoke(main, ["simulate", "blofa", "--games", "300", "--executor", address])
    here = runner.invoke(main, ["simulate", "blofa", "--games", "300", "--workers", "1"])
    assert there.exit_code == 0, there.output
    assert _lines(there.output) == _lines(here.output)
    by_env = runner.invoke(main, ["simulate", "blofa", "--games", "300"],
                           env={"CARDKIT_EXECUTOR": address})
    assert _lines(by_env.output) == _lines(here.output)


def test_tune_on_a_cluster_gives_the_answer_one_machine_gives(cluster, distributed):
    """--tune plays its search and its fresh games on the run's executor (issue 44)."""
    from known_games.verdicts import planted_tuning

    with distributed.Client(cluster) as client:
        there = planted_tuning(3, trials=9, games=50, rungs=(50, 50, 50), executor=client)
    assert there == planted_tuning(3, trials=9, games=50, rungs=(50, 50, 50))
    assert there["suggestions"] and there["games_searched"] == 9 * 50 + 3 * 50 + 50


@pytest.mark.parametrize("address, message", [
    ("tcp://127.0.0.1:8786", "--executor tcp://127.0.0.1:8786: not a Dask scheduler's "
                             "address; give dask://HOST:PORT"),
    ("dask://", "not a Dask scheduler's address")])
def test_an_address_that_is_not_a_scheduler_s_exits_2(address, message):
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--executor", address])
    assert outcome.exit_code == 2 and message in outcome.output


def test_without_dask_installed_the_message_says_what_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails as if absent
    outcome = CliRunner().invoke(main, ["simulate", "blofa", "--executor", "dask://h:1"])
    assert outcome.exit_code == 2
    assert "needs dask.distributed, which is not installed; pip install 'cardkit[dask]'" \
        in outcome.output


@pytest.fixture
def silent_port():
    """A local port where something listens and never answers, as a wrong service would;
    and a closed one: where nothing listens."""
    with socket.socket() as listening, socket.socket() as closed:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        yield listening.getsockname()[1], closed.getsockname()[1]


def test_a_wrong_address_times_out_naming_it(silent_port, monkeypatch):
    from cardkit.playtest import executors

    waited = []  # the seconds each connection was given: the wait itself is Dask's
    connect = executors._connect
    monkeypatch.setattr(executors, "_connect",
                        lambda address, seconds: waited.append(seconds) or connect(address,
                                                                                   seconds))
    for port in silent_port:
        outcome = CliRunner().invoke(main, ["simulate", "blofa", "--games", "10", "--executor",
                                            f"dask://127.0.0.1:{port}", "--executor-timeout",
                                            "0.5"])
        assert waited.pop() == 0.5
        assert outcome.exit_code == 2, outcome.output
        assert outcome.output.startswith(
            f"cardkit: no Dask scheduler answers at dask://127.0.0.1:{port} (")
        assert "--executor-timeout sets how long to wait" in outcome.output


def test_a_cluster_without_workers_times_out_saying_what_was_played(distributed):
    with distributed.LocalCluster(n_workers=0, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0") as empty:
        address = "dask://" + empty.scheduler_address.removeprefix("tcp://")
        outcome = CliRunner().invoke(main, ["simulate", "blofa", "--games", "100",
                                            "--executor", address, "--executor-timeout",
                                            "0.5"])
    assert outcome.exit_code == 2, outcome.output
    assert outcome.output == (
        f"cardkit: the Dask cluster at {address} has had no worker for 0.5 s; 0 games were "
        "played; start workers with 'dask worker HOST:PORT' and run again, or give "
        "--executor-timeout more seconds\n")
