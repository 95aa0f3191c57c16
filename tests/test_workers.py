"""Worker processes end when the command that started them is killed (``kill -9``):
none is left running with nobody to hand it work."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import id_deck

WAIT = 30  # seconds


def children(pid: int) -> set[int]:
    """The live (not zombie) processes whose parent is ``pid``, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == pid and state != "Z":
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def kill_and_watch_workers(command: list[str], cwd: Path, workers: int) -> set[int]:
    """Start ``command``, wait for its ``workers`` worker processes, kill it with SIGKILL;
    return the workers still alive a few seconds later."""
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + WAIT
        while len(found := children(process.pid)) < workers:
            assert time.monotonic() < deadline, "the workers never started"
            assert process.poll() is None, "the command ended before its workers started"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=WAIT)
        deadline = time.monotonic() + 5
        while {pid for pid in found if alive(pid)} and time.monotonic() < deadline:
            time.sleep(0.1)
        return {pid for pid in found if alive(pid)}
    finally:
        for pid in children(process.pid) | ({process.pid} if process.poll() is None else set()):
            os.kill(pid, signal.SIGKILL)


pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def test_simulate_workers_end_with_a_killed_command(tmp_path):
    left = kill_and_watch_workers([sys.executable, "-m", "cardkit", "simulate", "blofa",
                                   "--games", "1000000", "--workers", "2"], tmp_path, 2)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left


def test_export_workers_end_with_a_killed_command(tmp_path):
    deck = id_deck(tmp_path / "deck", 400)
    left = kill_and_watch_workers([sys.executable, "-m", "cardkit", "export", str(deck),
                                   "--to", "png", "--dpi", "600", "--out",
                                   str(tmp_path / "out")], tmp_path, 2)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left
