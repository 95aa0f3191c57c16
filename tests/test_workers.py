"""Worker processes end when the command that started them is killed (``kill -9``):
none is left running with nobody to hand it work.

The waits count the processes' own CPU time, not the clock: on a machine whose cores
other work shares, a command can take a minute of wall time to start its workers, while
a worker left running with nobody to hand it work keeps using CPU."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import cpu_seconds, id_deck

START_CPU = 30  # CPU seconds the command may use before its workers are all running
LEFT_CPU = 2  # CPU seconds a worker may use after the kill: one still working is left
HANG = 600  # wall seconds: only against a process that neither runs nor ends


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
        hang = time.monotonic() + HANG
        while len(found := children(process.pid)) < workers:
            assert cpu_seconds(process.pid) < START_CPU, "the workers never started"
            assert time.monotonic() < hang, "the command neither ran nor ended"
            assert process.poll() is None, "the command ended before its workers started"
            time.sleep(0.05)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=HANG)
        used = {pid: cpu_seconds(pid) for pid in found}
        while (left := {pid for pid in found if alive(pid)}) and time.monotonic() < hang:
            if any(cpu_seconds(pid) - used[pid] > LEFT_CPU for pid in left):
                break  # a worker is still at work, with nobody to hand its results
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
