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

Only regular files and folders are replaced. An output that names a character device or a
FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written into as a stream, as ``cp``
does, once the whole output is made; a socket, a block device (a disk) or a folder where
a file goes is refused, and so is anything but a folder where a folder goes
(:class:`NotReplaced`). A symbolic link is written through: the file or folder it points
to is replaced and the link stays.
"""

from __future__ import annotations

import ctypes
import errno
import glob
import itertools
import os
import shutil
import stat
import tempfile
from contextlib import contextmanager
from functools import cache
from pathlib import Path

_AT_FDCWD = -100
_RENAME_NOREPLACE, _RENAME_EXCHANGE = 1, 2
_STREAMS = (stat.S_IFCHR, stat.S_IFIFO)  # written into, not replaced
_KINDS = {stat.S_IFCHR: "a character device", stat.S_IFIFO: "a FIFO (named pipe)",
          stat.S_IFSOCK: "a socket", stat.S_IFBLK: "a block device (a disk)",
          stat.S_IFDIR: "a folder", stat.S_IFREG: "a file"}


class NotReplaced(OSError):
    """What is at an output's path is not for cardkit to replace: ``strerror`` says what
    it is. ``kept`` is where the finished output was put instead, or None when nothing
    was written."""

    def __init__(self, path: Path, why: str, kept: Path | None = None):
        super().__init__(errno.EEXIST, why, str(path))
        self.kept = kept


def _kind(path: Path) -> int | None:
    """The file type (``stat.S_IFMT``) of what ``path`` names, through links; None when
    nothing is there (a link to nothing included)."""
    try:
        return stat.S_IFMT(os.stat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):  # the latter: a parent is no folder
        return None


def _through_link(path: Path) -> Path:
    """Where an output named ``path`` goes: what a symbolic link points to, else
    ``path``."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _remove_stale(path: Path) -> None:
    """Remove the temporaries of ``path`` left by processes that no longer run; an old
    folder moved aside by a process killed before its new folder took the name goes
    back to the name."""
    for leftover in path.parent.glob(f".{glob.escape(path.name)}.*.*"):
        pid, _, kind = leftover.name[len(path.name) + 2:].partition(".")
        if kind not in ("part", "old") or not pid.isdigit() or is_running(int(pid)):
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


def is_running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a temporary named after it is not stale)."""
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
    """Yield a temporary path beside ``path``; on success it replaces ``path``. Where
    ``path`` is a character device or a FIFO, the temporary is elsewhere, and on success
    it is copied into ``path``; anything else there but a file raises NotReplaced."""
    path = Path(path)
    kind = _kind(path)
    if kind in _STREAMS:
        with _streamed(path) as temporary:
            yield temporary
        return
    if kind not in (None, stat.S_IFREG):
        raise NotReplaced(path, f"it is {_KINDS.get(kind, 'not a file')}, which cardkit "
                          "does not write into")
    path = _through_link(path)
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
def _streamed(path: Path):
    """Yield a temporary file; on success copy it into ``path`` (a device or a FIFO, which
    a rename would replace), so what reads there gets the whole output or nothing."""
    descriptor, name = tempfile.mkstemp(prefix=".cardkit-", suffix=path.suffix)
    os.close(descriptor)
    temporary = Path(name)
    try:
        yield temporary
        with temporary.open("rb") as made, open(path, "wb") as stream:
            shutil.copyfileobj(made, stream)
    finally:
        temporary.unlink(missing_ok=True)


@contextmanager
def atomic_folder(path: Path, why_not_replaced=None):
    """Yield a temporary folder beside ``path``; on success it takes ``path``'s place (the
    old folder is removed only once the new one is complete), on failure it is removed.

    Anything at ``path`` but a folder raises NotReplaced before anything is made. Just
    before the new folder takes the place, ``why_not_replaced(path)`` (if given) may say
    why the folder there must stay after all (files saved into it meanwhile); then the
    new folder is kept beside it instead, and NotReplaced says where."""
    path = Path(path)
    kind = _kind(path)
    if kind not in (None, stat.S_IFDIR):
        raise NotReplaced(path, f"it is {_KINDS.get(kind, 'not a folder')}, not a folder")
    path = _through_link(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir()
    try:
        yield temporary
        why = why_not_replaced(path) if why_not_replaced and os.path.lexists(path) else None
        if why:
            raise NotReplaced(path, why, _kept_beside(temporary, path))
        _install(temporary, path, old)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)  # after a swap: the old folder
        shutil.rmtree(old, ignore_errors=True)


def _kept_beside(new: Path, path: Path) -> Path:
    """Move the folder ``new`` to the first free name of ``NAME-2``, ``NAME-3``...
    beside ``path``, never over anything; return that name."""
    for number in itertools.count(2):
        kept = path.with_name(f"{path.name}-{number}")
        try:
            if _renamed(new, kept, _RENAME_NOREPLACE):
                return kept
            if not os.path.lexists(kept):  # no renameat2: a run may come between, rarely
                os.rename(new, kept)
                return kept
        except FileExistsError:
            continue


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
