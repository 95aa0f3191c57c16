"""Atomic output: a build writes a temporary file (or folder) and renames it over the old
one only when it is complete, so a failed or interrupted build leaves the previous good
output in place.

A temporary is named after the output and the process writing it (``.NAME.PID.part``).
An interrupted build removes its own; one left by a killed process is removed by the next
build of the same output.
"""

from __future__ import annotations

import glob
import os
import shutil
from contextlib import contextmanager
from pathlib import Path


def _remove_stale(path: Path) -> None:
    """Remove the temporaries of ``path`` left by processes that no longer run."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.*"):
        pid, _, kind = leftover.name[len(path.name) + 2:].partition(".")
        if kind not in ("part", "old") or not pid.isdigit() or _running(int(pid)):
            continue
        if leftover.is_dir() and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)
        else:
            leftover.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextmanager
def _folder_for(path: Path):
    """Make the folder ``path`` goes in; if what follows fails, the folders made here are
    removed again, so a failed build leaves nothing behind."""
    missing = [folder for folder in path.parents if not folder.exists()]
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        yield
    except BaseException:
        for folder in missing:  # the deepest first
            try:
                folder.rmdir()
            except OSError:  # not empty: something else writes there too
                break
        raise


@contextmanager
def atomic_path(path: Path):
    """Yield a temporary path beside ``path``; on success it replaces ``path``."""
    path = Path(path)
    with _folder_for(path):
        _remove_stale(path)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            yield temporary
            os.replace(temporary, path)
        finally:
            if temporary.exists():
                temporary.unlink()


@contextmanager
def atomic_folder(path: Path):
    """Yield a temporary folder beside ``path``; on success it takes ``path``'s place (the
    old folder is removed only once the new one is complete), on failure it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir()
    try:
        yield temporary
        if path.exists():
            os.replace(path, old)
        os.replace(temporary, path)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
