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

**Inside a trusted root** (``under=``: every output of a deck, the deck's
``.cardkit-cache/``). What a deck's folder holds is the deck's, and a deck is untrusted: it
may ship ``output/DECK/DECK-pnp-a4.pdf`` as a link to ``~/.ssh/authorized_keys``, a FIFO,
or ``output/DECK/DECK-1.0-entry`` as a link to the user's home. So below the root nothing
is followed or opened but real folders and regular files: every folder between the root
and the output must be a real folder (or missing: it is made), and what is at the output's
name must be nothing, a regular file (for a file) or a real folder (for a folder). A
symbolic link, a FIFO, a device or a socket anywhere there is refused
(:class:`NotReplaced`, naming that path and what is there) before anything is written, and
is left as it is: never followed, opened or removed. The output must be inside the root
(``..`` cannot climb out of it). :func:`output_root` chooses the root of an output folder:

- the output folder itself, as the user gave it (``--out`` or the default ``output/`` of
  the folder cardkit runs in): a link in its own path is the user's and is followed;
- but when that folder lies inside the deck's folder (``cardkit build .`` in a deck's
  folder writes to the deck's ``output/``), the deck's folder: then ``output/`` itself is
  the deck's, and a deck that ships it as a link is refused.

The deck's cache folder has the deck's folder as its root.

**The user's own path** (``under=None``: a file or folder the user typed for this one output,
``diff --sheet FILE``, ``simulate --report DIR``, ``cardkit new FOLDER``). Only regular files
and folders are replaced. An output that names a character device or a FIFO
(``/dev/null``, ``/dev/stdout``, a named pipe) is written into as a stream, as ``cp`` does,
once the whole output is made; a socket, a block device (a disk) or a folder where a file
goes is refused, and so is anything but a folder where a folder goes (:class:`NotReplaced`).
A symbolic link is written through: the file or folder it points to is replaced and the
link stays, as the user asked.

Anything at a temporary's name is removed (never followed) before the temporary is made,
and a file's temporary is made new (``O_EXCL | O_NOFOLLOW``), so a link planted under a
temporary's name is never written through.

For a new writer, e.g. a file of the deck's own: ``with atomic_path(path, under=root) as
temporary: temporary.write_bytes(data)``; :func:`checked_below` says whether a path under
a root may be read or written without following anything, and :func:`read_below` reads a
file there without following a link or opening a FIFO.
"""

from __future__ import annotations

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
          stat.S_IFDIR: "a folder", stat.S_IFREG: "a file",
          stat.S_IFLNK: "a symbolic link"}


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


def _own_kind(path: Path) -> int | None:
    """The file type of what is at ``path`` itself (a link is a link); None when nothing
    is."""
    try:
        return stat.S_IFMT(os.lstat(path).st_mode)
    except (FileNotFoundError, NotADirectoryError):
        return None


def output_root(folder: Path, deck: Path | None = None) -> Path:
    """The trusted root of what is written into the output folder ``folder`` for the deck
    whose file or folder is ``deck``: ``folder`` itself, unless it lies inside the deck's
    folder; then the deck's folder, as ``folder``'s path names it (see the module's
    docstring)."""
    folder = Path(os.path.abspath(folder))
    if deck is None:
        return folder
    deck = os.path.realpath(deck if os.path.isdir(deck) else os.path.dirname(deck) or ".")
    for above in reversed((folder, *folder.parents)):  # the shallowest first
        if os.path.realpath(above) == deck:
            return above
    return folder


def checked_below(path: Path, root: Path, last: int = stat.S_IFREG) -> list[Path]:
    """Check that ``path`` is inside ``root`` and reached from it through real folders only,
    and that what is at ``path`` is nothing or of the file type ``last`` (``stat.S_IFREG``
    or ``stat.S_IFDIR``). Return the folders between them that are
    missing, the shallowest first; raise :class:`NotReplaced` naming the first path that
    is a link, a FIFO, a device, a socket or a file where a folder goes. Nothing is
    followed or opened: a deck that ships such a thing cannot make cardkit write (or read)
    elsewhere, or wait for ever on a FIFO."""
    path, root = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    if path == root or root not in path.parents:
        raise NotReplaced(path, f"it is not inside {root}, where cardkit writes")
    missing, where = [], root
    for part in path.relative_to(root).parts:
        where = where / part
        kind = None if missing else _own_kind(where)
        if kind is None:
            missing.append(where)
            continue
        wanted = stat.S_IFDIR if where != path else last
        if kind != wanted:
            raise NotReplaced(where, f"it is {_KINDS.get(kind, 'not a file')}, "
                              + ("which cardkit never follows or opens inside an output "
                                 "or cache folder (a deck may have shipped it)"
                                 if kind in _NEVER_OPENED else
                                 f"where cardkit {'reads or ' * (wanted == stat.S_IFREG)}"
                                 f"writes {_KINDS[wanted]}"))
    return [folder for folder in missing if folder != path]


_NEVER_OPENED = (stat.S_IFLNK, stat.S_IFIFO, stat.S_IFCHR, stat.S_IFBLK, stat.S_IFSOCK)


def read_below(path: Path, root: Path) -> bytes:
    """The bytes of the regular file ``path`` inside ``root``, read without following a
    link or opening anything but a regular file (:func:`checked_below`); FileNotFoundError
    when it is not there."""
    if checked_below(path, root) or not os.path.lexists(path):
        raise FileNotFoundError(errno.ENOENT, "no such file", str(path))
    descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    with open(descriptor, "rb") as stream:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):  # it changed since the check
            raise NotReplaced(path, "it is not a file")
        return stream.read()


def _discard(path: Path) -> None:
    """Remove what is at ``path`` itself, whatever it is: a real folder with all it holds
    (links in it are removed, not followed), anything else unlinked."""
    kind = _own_kind(path)
    if kind == stat.S_IFDIR:
        shutil.rmtree(path, ignore_errors=True)
    elif kind is not None:
        path.unlink(missing_ok=True)


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
        if kind == "old" and not os.path.lexists(path) and \
                _own_kind(leftover) == stat.S_IFDIR:
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


def _make_folders(path: Path, root: Path | None = None, last: int = stat.S_IFREG) -> list[Path]:
    """Make the folder ``path`` goes in and return the folders made, the deepest first.
    With ``root``, the folders below it are checked (:func:`checked_below`, ``last`` what
    ``path`` may be) and each is made on its own, never through a link."""
    below = checked_below(path, root, last) if root is not None else None
    top = Path(os.path.abspath(root if root is not None else path.parent))
    missing = [folder for folder in (top, *top.parents) if not folder.exists()]
    top.mkdir(parents=True, exist_ok=True)
    for folder in below or ():
        folder.mkdir()
    return (below or [])[::-1] + missing


@contextmanager
def _folder_for(path: Path, root: Path | None = None):
    """Make the folder ``path`` goes in (:func:`_make_folders`); if what follows fails,
    the folders made here are removed again, so a failed build leaves nothing behind."""
    missing = _make_folders(path, root)
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
def atomic_path(path: Path, under: Path | None = None):
    """Yield a temporary file beside ``path``; on success it replaces ``path``.

    ``under``: the trusted root ``path`` is inside (:func:`output_root`, the deck's folder
    for its cache): nothing between them, nor at ``path``, may be anything but a real
    folder or, at ``path``, a regular file; else NotReplaced, before anything is written
    (:func:`checked_below`). Without it, ``path`` is the user's own: where it is a
    character device or a FIFO, the temporary is elsewhere, and on success it is copied
    into ``path``; a link is written through; anything else there but a file raises
    NotReplaced."""
    path = Path(path)
    if under is None:
        kind = _kind(path)
        if kind in _STREAMS:
            with _streamed(path) as temporary:
                yield temporary
            return
        if kind not in (None, stat.S_IFREG):
            raise NotReplaced(path, f"it is {_KINDS.get(kind, 'not a file')}, which "
                              "cardkit does not write into")
        path = _through_link(path)
    with _folder_for(path, under):
        _remove_stale(path)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
        _discard(temporary)  # of a process with the same number, or planted
        try:  # made inside: a Ctrl-C or SIGTERM landing just after still takes it away
            os.close(os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                             0o666))
            yield temporary
            os.replace(temporary, path)
        finally:
            _discard(temporary)


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
def atomic_folder(path: Path, why_not_replaced=None, under: Path | None = None):
    """Yield a temporary folder beside ``path``; on success it takes ``path``'s place (the
    old folder is removed only once the new one is complete), on failure it is removed.

    Anything at ``path`` but a folder raises NotReplaced before anything is made; with
    ``under`` (a trusted root, as for :func:`atomic_path`) only a real folder is replaced
    (a link to one is refused, not followed, not removed), and only through real folders.
    Just before the new folder takes the place, ``why_not_replaced(path)`` (if given) may
    say why the folder there must stay after all (files saved into it meanwhile); then the
    new folder is kept beside it instead, and NotReplaced says where."""
    path = Path(path)
    if under is not None:
        _make_folders(path, under, stat.S_IFDIR)
    else:
        kind = _kind(path)
        if kind not in (None, stat.S_IFDIR):
            raise NotReplaced(path, f"it is {_KINDS.get(kind, 'not a folder')}, not a "
                              "folder")
        path = _through_link(path)
        path.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(path)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    _discard(temporary)
    _discard(old)
    try:  # made inside: a Ctrl-C or SIGTERM landing just after still takes it away
        temporary.mkdir()
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
    import ctypes  # _renameat2 imported it: only swapping a folder needs it

    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL):  # an old kernel, or a file system without it
        return False
    raise OSError(code, os.strerror(code), str(target))


@cache
def _renameat2():
    """The C library's ``renameat2``, or None where it has none (not Linux, old glibc)."""
    import ctypes  # late: most commands swap no folder, and it takes a while to import

    try:
        return ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return None
