"""Atomic output: a build writes a temporary file (or folder) and renames it over the old
one only when it is complete, so a failed or interrupted build leaves the previous good
output in place.

A temporary is named after the output and the process writing it (``.NAME.PID.part``).
An interrupted build removes its own; one left by a killed process is removed by the next
build of the same output.

A finished folder takes its place in one step where the system can swap two paths
(Linux's ``renameat2``), so a kill at any moment leaves the old folder or the new one at
the name, never neither, and two runs writing the same folder both succeed (the last one
to finish wins). Elsewhere the old folder is first moved aside to ``.NAME.PID.old``; if the
process is killed before the new one is in place, the next run puts the old one back.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import os
import shutil
from contextlib import contextmanager
from functools import cache
from pathlib import Path

_AT_FDCWD = -100
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2


def _remove_stale(path: Path) -> None:
    """Remove the temporaries of ``path`` left by processes that no longer run; an old
    folder moved aside by a process killed before its new folder took the name goes
    back to the name."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.*"):
        pid, _, kind = leftover.name[len(path.name) + 2:].partition(".")
        if kind not in ("part", "old") or not pid.isdigit() or _running(int(pid)):
            continue
        if kind == "old" and not os.path.lexists(path):
            try:
                os.rename(leftover, path)
                continue
            except OSError:  # another run got there first: this one is stale after all
                pass
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
        _install(temporary, path, old)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)  # after a swap: the old folder
        shutil.rmtree(old, ignore_errors=True)


def _install(new: Path, path: Path, old: Path) -> None:
    """Put the folder ``new`` at ``path``: renamed there if nothing is, else swapped with
    what is (which ends up at ``new``), or where the system cannot swap, moved in after
    the old folder is moved to ``old``. Retried while another run changes ``path``."""
    while True:
        try:
            if _renamed(new, path, _RENAME_NOREPLACE):
                return
        except FileExistsError:
            try:
                if _renamed(new, path, _RENAME_EXCHANGE):
                    return
            except FileNotFoundError:  # another run's folder went between the two calls
                continue
        try:  # no swap on this system
            if os.path.lexists(path):
                os.replace(path, old)
            os.replace(new, path)
            return
        except OSError as error:  # another run's folder came or went: try again
            if error.errno not in (errno.ENOTEMPTY, errno.EEXIST, errno.ENOENT):
                raise


def _renamed(source: Path, target: Path, flags: int) -> bool:
    """``renameat2(source, target, flags)``: True when done, False where the system has
    no such call; raises the OSError it gives otherwise."""
    call = _renameat2()
    if call is None:
        return False
    if call(_AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), flags) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL):  # an old kernel, or a file system without it
        return False
    raise OSError(code, os.strerror(code), str(target))


@cache
def _renameat2():
    """The C library's ``renameat2``, or None where it has none (not Linux, old glibc)."""
    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
