"""Ctrl-C stops a long simulation without losing the finished part's figures (issue 29)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest import runner
from cardkit.playtest.runner import BotSpec, Setup, Stopped, play_many, play_runs


def interrupt_at(monkeypatch, stop_index: int) -> None:
    """Ctrl-C arrives as game ``stop_index`` begins (in this process)."""
    play_one = runner.play_one

    def playing(setup, index, watch=None):
        if index == stop_index:
            raise KeyboardInterrupt
        return play_one(setup, index, watch)

    monkeypatch.setattr(runner, "play_one", playing)


def test_stopping_keeps_the_games_finished(monkeypatch):
    setup = Setup("blofa", 4, 3, (BotSpec("random"),) * 4)
    whole = play_many(setup, 200)
    interrupt_at(monkeypatch, 120)
    with pytest.raises(Stopped) as stop:
        play_many(setup, 200)
    assert [r.index for r in stop.value.finished] == list(range(120))
    assert [r.returns for r in stop.value.finished] == [r.returns for r in whole[:120]]


def test_stopping_runs_side_by_side_keeps_each_run_s_games(monkeypatch):
    setups = [Setup("blofa", 4, seed, (BotSpec("random"),) * 4) for seed in (1, 2)]
    interrupt_at(monkeypatch, 70)
    with pytest.raises(Stopped) as stop:
        play_runs(setups, 100)
    # a chunk of each in turn: the first run stops at its game 70, the second had played
    # its first chunk
    assert [len(results) for results in stop.value.finished] == [70, runner.CHUNK]


def test_the_cli_reports_the_finished_part_and_exits_130(monkeypatch, tmp_path):
    interrupt_at(monkeypatch, 300)
    outcome = CliRunner().invoke(main, ["simulate", "shapes", "--games", "1000", "--workers",
                                        "1", "--report", str(tmp_path / "r")])
    assert outcome.exit_code == 130, outcome.output
    assert "stopped (Ctrl-C) after 300 of 1,000 games; the figures below are of those" \
        in outcome.output
    assert "shapes: 300 games, 4 players" in outcome.output
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["games"] == 300


def test_ctrl_c_on_worker_processes_keeps_their_finished_games(tmp_path):
    """A real SIGINT to the whole process group, as a terminal sends it, with two workers."""
    command = [sys.executable, "-m", "cardkit", "simulate", "shapes", "--games", "200000",
               "--workers", "2", "--report", str(tmp_path / "r")]
    # a job started in the background may inherit Ctrl-C ignored; a terminal's is not
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(4)
    os.killpg(child.pid, signal.SIGINT)
    started = time.monotonic()
    out, err = child.communicate(timeout=60)
    assert time.monotonic() - started < 15  # it stops now, not when the work is done
    assert child.returncode == 130, err
    played = json.loads((tmp_path / "r" / "summary.json").read_text())["games"]
    assert 0 < played < 200000 and f"after {played:,} of 200,000 games" in err
    assert f"shapes: {played:,} games" in out


def test_a_sweep_s_points_are_handed_out_side_by_side_a_window_at_a_time():
    """A chunk of each point in turn, so no worker idles while one point's last games
    finish; never more than WINDOW chunks a worker submitted and not yet taken, so
    memory stays flat however many games (issue 46)."""
    from concurrent.futures import Future

    events, waiting = [], set()

    class Recording:
        def submit(self, function, setup, start, stop):
            events.append((setup.seed, start))
            waiting.add((setup.seed, start))
            assert len(waiting) <= runner.WINDOW * 2
            future = Future()
            future.set_result(function(setup, start, stop))
            original = future.result

            def result(timeout=None):
                waiting.discard((setup.seed, start))
                return original(timeout)
            future.result = result
            return future

    setups = [Setup("blofa", 4, seed, (BotSpec("random"),) * 4) for seed in (1, 2, 3)]
    found = play_runs(setups, 120, workers=2, executor=Recording())
    assert events == [(seed, start) for start in (0, 50, 100) for seed in (1, 2, 3)]
    assert [[r.index for r in results] for results in found] == [list(range(120))] * 3
    assert found[1] != found[0] and \
        [r.returns for r in found[1]] == [r.returns for r in play_many(setups[1], 120)]
