"""Ctrl-C stops a long simulation without losing the finished part's figures (issue 29);
so does SIGTERM, a second Ctrl-C stops at once, and a game that never ends stops at its
timeout (issue 37)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.playtest import runner
from cardkit.playtest.run_setup import BotSpec, Setup
from cardkit.playtest.runner import Stopped, play_many, play_runs
from conftest import PATIENCE, cpu_seconds


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
    interrupt_at(monkeypatch, 120)  # in the third chunk of games
    outcome = CliRunner().invoke(main, ["simulate", "shapes", "--games", "1000", "--workers",
                                        "1", "--report", str(tmp_path / "r")])
    assert outcome.exit_code == 130, outcome.output
    assert "stopped (Ctrl-C) after 120 of 1,000 games; the figures below are of those" \
        in outcome.output
    assert "shapes: 120 games, 4 players" in outcome.output
    assert json.loads((tmp_path / "r" / "summary.json").read_text())["games"] == 120


def test_ctrl_c_on_worker_processes_keeps_their_finished_games(tmp_path):
    """A real SIGINT to the whole process group, as a terminal sends it, with two workers."""
    command = [sys.executable, "-m", "cardkit", "simulate", "shapes", "--games", "200000",
               "--workers", "2", "--report", str(tmp_path / "r")]
    # a job started in the background may inherit Ctrl-C ignored; a terminal's is not
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # once its workers play (on a busy machine, starting may take longer than a few seconds)
    out, err = _signalled_once_busy(child, signal.SIGINT)
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


# a move that never returns: in Python code a timer can stop, or in one C call it cannot;
# or one that waits for ever, using no CPU time, once it has left a file saying it is stuck
# (where the test is of stopping, not of a limit on CPU time: the games spun both cores)
NEVER_RETURNS = {"a Python loop": "            pass",
                 "one long C call": "            sum(range(10 ** 15))",
                 "a wait": "            Path(__file__).with_name(f'stuck-{os.getpid()}').touch()\n"
                           "            threading.Event().wait()"}


def _stuck_deck(tmp_path, loop: str):
    """The duel deck whose every game gets stuck in a move once the table has 3 cards."""
    from test_own_rules import BASE, _deck

    old = '        if move[0] == "draw":'
    imports = "import os\nimport threading\nfrom pathlib import Path\n"  # for "a wait"
    return _deck(tmp_path, imports + BASE.replace(
        old, f"        while len(self.table) >= 3:\n{loop}\n" + old))


def _stuck_in(folder, workers: int = 2):
    """A condition: ``workers`` processes are stuck in a waiting game of the deck in
    ``folder`` (see NEVER_RETURNS)."""
    return lambda: len(list(folder.glob("stuck-*"))) >= workers


def _working(child: subprocess.Popen, cpu: float = 0.2):
    """A condition: each worker of ``child`` has used ``cpu`` seconds of CPU time, more
    than a chunk of games (50 games of shapes take about 0.15 s, of Blófa 0.05 s): games
    are finished whatever the clock says. Forked workers start with the parent's modules,
    so their time is the games'."""
    from test_workers import children

    return lambda: all(cpu_seconds(pid) >= cpu for pid in children(child.pid))


@pytest.mark.parametrize("loop, workers", [("a Python loop", "1"), ("a Python loop", "2"),
                                           ("one long C call", "2")])
def test_a_game_that_never_ends_stops_at_its_timeout_naming_the_game(tmp_path, loop, workers,
                                                                     monkeypatch):
    folder = _stuck_deck(tmp_path, NEVER_RETURNS[loop])
    if loop == "one long C call":  # no timer reaches it: the parent ends its worker, once
        # past KILL_AFTER times the bound and KILL_GRACE more (a tick's lateness of the
        # worker's own timer, which a C call never lets run); less grace, less spinning
        monkeypatch.setattr(runner, "KILL_GRACE", 0.1)
    outcome = CliRunner().invoke(main, ["simulate", str(folder), "--games", "60", "--workers",
                                        workers, "--game-timeout", "0.3"])
    assert outcome.exit_code == 2, outcome.output
    rules = str(folder / "rules.py")
    first = outcome.output.splitlines()[0]
    if loop == "a Python loop":  # the timer stops it where it is: the traceback shows where
        assert first.startswith(f"cardkit: {rules}: game 0 (seed 1), after 4 moves: the game "
                                "did not end within 0.3 s; look for a loop that never ends")
        assert f'File "{rules}", line 26, in play' in outcome.output
    else:  # the parent ends the worker
        assert re.match(rf"cardkit: {re.escape(rules)}: game (0|50) \(seed 1\): the game did "
                        r"not end within 0.3 s \(its worker process was ended\)", first), first


def test_the_rules_checker_stops_a_game_that_never_ends_at_its_timeout(tmp_path):
    folder = _stuck_deck(tmp_path, NEVER_RETURNS["a Python loop"])
    outcome = CliRunner().invoke(main, ["simulate", str(folder), "--check", "--games", "20",
                                        "--game-timeout", "0.3"])
    assert outcome.exit_code == 2, outcome.output
    rules = str(folder / "rules.py")
    assert outcome.output.splitlines()[0].startswith(
        f"cardkit: {rules}: game 0 (seed 1), after 4 moves: the game did not end within "
        "0.3 s; look for a loop that never ends in the rules")
    assert f'File "{rules}", line 26, in play' in outcome.output


def test_a_second_ctrl_c_stops_at_once(tmp_path):
    """Real SIGINTs to the process group, while both workers are in games that never end."""
    from test_workers import children

    folder = _stuck_deck(tmp_path, NEVER_RETURNS["a wait"])
    child = subprocess.Popen([sys.executable, "-m", "cardkit", "simulate", str(folder),
                              "--games", "60", "--workers", "2", "--game-timeout", "0"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             start_new_session=True,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        _wait_for(_stuck_in(folder), child)  # both in their game 0 and 50, which never end
        workers = children(child.pid)
        os.killpg(child.pid, signal.SIGINT)
        time.sleep(0.3)
        assert child.poll() is None  # the first waits for the games under way
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=PATIENCE)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    assert child.returncode == 130, err
    assert err == "cardkit: stopped (Ctrl-C) before any of the 60 games finished\n"
    assert not children(child.pid) and not any(Path(f"/proc/{pid}").exists()
                                               for pid in workers)


def test_sigterm_stops_a_run_as_ctrl_c_does():
    """A real SIGTERM to the command alone, as kill and service managers send it."""
    from test_workers import children

    child = subprocess.Popen([sys.executable, "-m", "cardkit", "simulate", "shapes", "--games",
                              "200000", "--workers", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for(lambda: len(children(child.pid)) >= 2, child)
        _wait_for(_working(child), child)  # some games played
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=120)  # a safety net: the games played say when
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 143, err
    played = int(re.fullmatch(r"cardkit: stopped \(SIGTERM\) after ([\d,]+) of 200,000 games; "
                              r"the figures below are of those\n", err).group(1).replace(",", ""))
    assert 0 < played < 200000
    assert out.startswith(f"shapes: {played:,} games, 4 players")


def _group_run(args: list[str], cwd=None) -> subprocess.Popen:
    """``cardkit ARGS`` in a process group of its own, Ctrl-C as a terminal has it."""
    return subprocess.Popen([sys.executable, "-m", "cardkit", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, cwd=cwd,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for(condition, child: subprocess.Popen) -> None:
    """Wait until ``condition()`` holds, while ``child`` runs (PATIENCE: a safety net
    against a hang only)."""
    deadline = time.monotonic() + PATIENCE
    while not condition():
        assert time.monotonic() < deadline and child.poll() is None
        time.sleep(0.05)


def _signalled_once_busy(child: subprocess.Popen, number: int, busy=None, workers: int = 2):
    """Send ``number`` to the child's whole group once its workers started and
    ``busy()`` holds (by default: they have played games, see _working): (out, err). The
    waits are safety nets only: what is asserted is how the run ended."""
    from test_workers import children

    try:
        _wait_for(lambda: len(children(child.pid)) >= workers, child)
        _wait_for(busy or _working(child), child)  # games under way
        os.killpg(child.pid, number)
        return child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)


@pytest.mark.parametrize("game", ["blofa", "stuck"])
def test_sigterm_to_the_whole_group_says_stopped_with_143(tmp_path, game):
    """Issue 54: ``timeout`` and a CI cancel send SIGTERM to the whole process group; the
    workers died of it first and a bundled deck was told to look for os._exit()."""
    folder = _stuck_deck(tmp_path, NEVER_RETURNS["a wait"]) if game == "stuck" else None
    child = _group_run(["simulate", str(folder) if folder else game, "--games", "100000",
                        "--workers", "2", "--game-timeout", "0"])
    out, err = _signalled_once_busy(child, signal.SIGTERM, folder and _stuck_in(folder))
    assert child.returncode == 143, err
    assert err.startswith("cardkit: stopped (SIGTERM) ") and "os._exit" not in err, err


def test_tune_stops_on_ctrl_c_without_waiting_for_a_game_that_never_ends(tmp_path):
    """Issue 54: --tune waited for the per-game limit (about a minute) before it stopped.
    A game that never ends, a limit of 1,000 s: stopping waits for it STOP_GRACE seconds,
    then ends it (the two-minute wait below is a safety net)."""
    folder = _stuck_deck(tmp_path, NEVER_RETURNS["a wait"])
    rules = (folder / "rules.py").read_text()
    (folder / "rules.py").write_text(
        rules.replace("self.deal(self.deck, self.hands, 2)",
                      "self.deal(self.deck, self.hands, HAND)")
        .replace("class Duel(CardGame):", "HAND = 2\n\n\nclass Duel(CardGame):"))
    for number, code, said in ((signal.SIGINT, 130, "Ctrl-C"), (signal.SIGTERM, 143, "SIGTERM")):
        for left in folder.glob("stuck-*"):  # the first run's
            left.unlink()
        child = _group_run(["simulate", folder.name, "--tune", "--target", "seats=5",
                            "--vary", "HAND=2..4", "--workers", "2", "--game-timeout", "1000"],
                           cwd=folder.parent)
        out, err = _signalled_once_busy(child, number, _stuck_in(folder))
        assert child.returncode == code, err
        assert err == f"cardkit: stopped ({said}) before the search was done; nothing to " \
                      "suggest yet\n"


@pytest.mark.parametrize("workers", ["1", "2"])
def test_the_game_timeout_counts_cpu_time_not_the_clock(tmp_path, workers):
    """Issue 54: on a loaded machine --game-timeout aborted whole runs. A game that waits
    (sleeps 0.03 s a move, as a game would on a machine busy with other work: about 0.9 s
    a game) takes three times its 0.3 s on the clock, and little CPU time: it is played,
    not stopped."""
    from test_own_rules import BASE, _deck

    old = '        if move[0] == "draw":'
    folder = _deck(tmp_path, "import time\n" + BASE.replace(
        old, "        time.sleep(0.03)\n" + old))
    outcome = CliRunner().invoke(main, ["simulate", str(folder), "--games", "2", "--workers",
                                        workers, "--game-timeout", "0.3"])
    assert outcome.exit_code == 0, outcome.output
    assert "2 games, 2 players" in outcome.output


class _Job(Future):
    """A pool's job that remembers being cancelled."""
    cancel_asked = False

    def cancel(self):
        self.cancel_asked = True
        return super().cancel()


class _Pool:
    """A pool whose first job is done and the others not begun."""

    def __init__(self):
        self.jobs, self.killed = [], False

    def submit(self, fn, *args):
        job = _Job()
        if not self.jobs:
            job.set_result([])
        self.jobs.append(job)
        return job

    def kill(self):
        self.killed = True


def test_a_stop_with_this_machines_workers_cancels_no_job():
    """Tasks not begun end by themselves once ``stopping`` is set. A cancelled one, with
    the workers then killed (a second Ctrl-C, a stuck game), made Python 3.11's pool print
    an InvalidStateError traceback from its own thread (fixed in Python 3.12)."""
    pool, stopping = _Pool(), threading.Event()

    def take(run, start, chunk):
        raise KeyboardInterrupt  # Ctrl-C as the first games come in, then a second one

    with pytest.raises(Stopped):
        runner._gather(pool, [None], [(0, i, i + 1) for i in range(4)], take, None, 4,
                       stopping)
    assert stopping.is_set() and pool.killed and len(pool.jobs) == 4
    assert not any(job.cancel_asked for job in pool.jobs)
