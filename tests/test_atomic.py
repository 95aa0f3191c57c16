"""Atomic output folders: a kill at any moment leaves a whole folder at the name (the old
one or the new one), and runs that write the same folder at once do not break each other.

Kills are injected in a child process right after each file-system step of installing the
folder, on the path that swaps in one step (Linux) and on the path that moves the old folder
aside first (systems without a swap, forced here).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from cardkit.common import atomic
from conftest import PATIENCE

INSTALL = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    import cardkit.common.atomic as atomic

    target, kill_after, swap = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3] == "swap"
    steps = 0

    def killing(real):
        def step(*args, **kwargs):
            global steps
            result = real(*args, **kwargs)
            steps += 1
            if steps == kill_after:
                os.kill(os.getpid(), signal.SIGKILL)
            return result
        return step

    os.replace, os.rename = killing(os.replace), killing(os.rename)
    atomic._renamed = killing(atomic._renamed)
    if not swap:
        atomic._renameat2 = lambda: None
    with atomic.atomic_folder(target) as temporary:
        (temporary / "card.txt").write_text("new")
    print("steps", steps)
""")


def _install(target, kill_after: int, swap: bool) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", INSTALL, str(target), str(kill_after),
                           "swap" if swap else "move"], capture_output=True, text=True,
                          timeout=PATIENCE)


@pytest.mark.skipif(atomic._renameat2() is None, reason="no renameat2 on this system")
def test_the_swap_is_one_step():
    """Where the system swaps paths, replacing a folder is a single step, so there is no
    moment at which the name is empty."""
    assert atomic._renameat2() is not None


@pytest.mark.parametrize("swap", [True, False], ids=["swap", "move-aside"])
def test_a_kill_at_any_step_leaves_a_whole_folder_at_the_name(tmp_path, swap):
    if swap and atomic._renameat2() is None:
        pytest.skip("no renameat2 on this system")
    target = tmp_path / "deck-png"
    done = _install(target, 0, swap)  # a first, whole run: the old folder
    assert done.returncode == 0, done.stderr
    steps = int(done.stdout.split()[-1])
    assert steps >= 1
    for kill_after in range(1, steps + 1):
        (target / "card.txt").write_text("old")
        killed = _install(target, kill_after, swap)
        assert killed.returncode == -9, killed.stderr
        if not swap:  # the next run of the same output mends what the kill left
            atomic._remove_stale(target)
        assert (target / "card.txt").read_text() in ("old", "new"), kill_after
        atomic._remove_stale(target)
        assert [p.name for p in tmp_path.iterdir()] == ["deck-png"]


RACE = textwrap.dedent("""
    import sys
    from pathlib import Path
    from cardkit.common.atomic import atomic_folder

    for round in range(int(sys.argv[2])):
        with atomic_folder(Path(sys.argv[1])) as temporary:
            for i in range(3):
                (temporary / f"{i}.txt").write_text(sys.argv[3])
""")


def test_two_runs_writing_the_same_folder_both_succeed(tmp_path):
    """Two processes replacing one folder 150 times each, at the same time: neither fails
    ('Directory not empty' before), and the folder at the end is one run's, whole."""
    target = tmp_path / "out"
    runs = [subprocess.Popen([sys.executable, "-c", RACE, str(target), "150", name],
                             stderr=subprocess.PIPE, text=True) for name in ("a", "b")]
    for run in runs:
        assert run.wait(timeout=PATIENCE) == 0, run.stderr.read()
    texts = {(target / f"{i}.txt").read_text() for i in range(3)}
    assert texts in ({"a"}, {"b"})
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_folder_output_never_replaces_what_is_not_a_folder(tmp_path):
    target = tmp_path / "deck-png"
    target.write_text("a file of the user's")
    with pytest.raises(atomic.NotReplaced, match="it is a file, not a folder"):
        with atomic.atomic_folder(target) as temporary:
            (temporary / "card.png").write_text("new")
    assert target.read_text() == "a file of the user's"
    assert [p.name for p in tmp_path.iterdir()] == ["deck-png"]


@pytest.mark.parametrize("swap", [True, False], ids=["swap", "move-aside"])
def test_a_folder_that_may_not_be_replaced_after_all_keeps_the_new_one_beside(tmp_path,
                                                                              monkeypatch, swap):
    """The check just before the swap refuses: the new folder goes to the first free
    NAME-N (NAME-2 is taken here), and the old folder and NAME-2 are as they were."""
    if not swap:
        monkeypatch.setattr(atomic, "_renameat2", lambda: None)
    target = tmp_path / "report"
    target.mkdir()
    (target / "notes.txt").write_text("mine")
    (tmp_path / "report-2").mkdir()
    with pytest.raises(atomic.NotReplaced) as refused:
        with atomic.atomic_folder(target, lambda path: "it holds notes.txt") as temporary:
            (temporary / "report.html").write_text("new")
    assert refused.value.strerror == "it holds notes.txt"
    assert refused.value.kept == tmp_path / "report-3"
    assert (tmp_path / "report-3" / "report.html").read_text() == "new"
    assert [p.name for p in target.iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report", "report-2", "report-3"]


@pytest.mark.parametrize("kind", ["file", "folder"])
def test_a_stop_landing_just_after_the_temporary_is_made_leaves_nothing(tmp_path, kind,
                                                                       monkeypatch):
    """A build stopped by SIGTERM under load left its folder behind once: the signal, raised
    as an exception where the main thread was, landed between making the temporary and the
    block that takes it away again. Here the stop lands in the first call after it is made
    (os.close of the new file, os.mkdir's return for a folder)."""
    real = {"file": os.close, "folder": os.mkdir}[kind]

    def made_then_stopped(*args, **kwargs):
        real(*args, **kwargs)
        monkeypatch.undo()
        raise KeyboardInterrupt

    out = tmp_path / "out"
    (out / "deck").mkdir(parents=True)
    monkeypatch.setattr(os, "close" if kind == "file" else "mkdir", made_then_stopped)
    with pytest.raises(KeyboardInterrupt):
        if kind == "file":
            with atomic.atomic_path(out / "deck" / "sheet.pdf", under=out):
                pass
        else:
            with atomic.atomic_folder(out / "deck" / "images", under=out):
                pass
    assert [p.name for p in out.rglob("*")] == ["deck"]
