"""A git revision of a deck's folder, copied into a temporary folder for cardkit to load.

A deck folder may come with its history (a zipped folder holds ``.git``), and the
repository's own configuration names commands: filters, a file-system monitor, hooks, a
pager, an SSH command, a promisor remote to fetch missing objects from. None of them may
run, so only plumbing that never looks at them is used: ``rev-parse`` (a revision),
``ls-tree`` (the names in a tree) and ``cat-file --batch`` (blobs as stored: no filter,
no textconv), with the system's and the user's configuration off and every transport
refused, and the work tree never read.

Only the deck's reach is read (its folder, or the project folder above it holding
``cardkit-project.txt``), streamed to disk a blob at a time, within the limits a deck's
files have: a blob larger than any input may be is not read but stands as a sparse file
of its size, so loading says 'larger than 50 MB' of it as of the working file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..common.atomic import is_running
from ..common.errors import InputError, Problem, Where
from .files import MB, PROJECT_FILE

MAX_FILE = 50 * MB  # the largest input of a deck (a spreadsheet, an image)
MAX_FILES = 20_000  # in the deck's reach at a revision
MAX_TOTAL = 1000 * MB  # the blobs copied out
CHUNK = MB
COPY_PREFIX = "cardkit-old-"  # the temporary copy: cardkit-old-PID-XXXX
REGULAR, EXECUTABLE, LINK = "100644", "100755", "120000"
MAX_LINK = 4096  # a link's target, as long as a path may be
# the system's and the user's configuration are left out, and no transport may run (a
# partial clone would fetch a missing object from its promisor remote, by a command its
# configuration names); replaced objects are not swapped in
ENVIRONMENT = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull,
               "GIT_NO_REPLACE_OBJECTS": "1", "GIT_TERMINAL_PROMPT": "0",
               "GIT_ALLOW_PROTOCOL": "none", "GIT_NO_LAZY_FETCH": "1",
               "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat", "LC_ALL": "C"}
# commands the repository's configuration could name for what runs anyway, overridden
OVERRIDES = ("core.fsmonitor=false", "core.hooksPath=" + os.devnull, "core.pager=cat",
             "core.sshCommand=false", "credential.helper=")
NEITHER_FIX = ("name the old version's folder, or a commit or tag of the deck's repository "
               "('HEAD~1', 'v1.0')")


@dataclass(frozen=True)
class Entry:
    """A file of the tree: its mode, blob, size and path inside the reach."""

    mode: str
    blob: str
    size: int
    path: str


@contextmanager
def checked_out(revision: str, deck_file: Path):
    """The deck file at ``revision`` of the repository holding ``deck_file``, in a
    temporary copy of its reach that is removed when the block ends, however it ends.
    A mistake in the copy is named as git names a file of a revision: 'v1.0:deck.yaml'."""
    real = Path(deck_file).resolve()
    folder = real.parent
    top = repository_of(folder)
    commit = _commit(top, revision) if top is not None else None
    if commit is None:
        raise InputError([Problem(Where(revision), "is neither a folder, a deck file nor a "
                                  f"git revision of {deck_file.parent}", NEITHER_FIX)])
    git = Git(top)
    inside = "" if folder == top else folder.relative_to(top).as_posix()
    reach = git.reach(commit, inside)
    entries = git.files(commit, reach, revision)
    deck_path = "/".join(filter(None, [inside[len(reach):].strip("/"), real.name]))
    if not any(entry.path == deck_path for entry in entries):
        raise InputError([Problem(Where(deck_file), f"the deck has no {real.name} at "
                                  f"revision {revision} (it was made later)",
                                  "name an older version that has it")])
    _remove_stale_copies()
    copy = Path(tempfile.mkdtemp(prefix=f"{COPY_PREFIX}{os.getpid()}-"))
    try:
        git.copy(entries, copy.joinpath(*PurePosixPath(reach).parts),
                 f"{revision}:" + "".join(f"{part}/" for part in PurePosixPath(reach).parts))
        try:
            yield copy.joinpath(*PurePosixPath(inside).parts, real.name)
        except InputError as error:
            raise InputError([_at_revision(p, copy, revision) for p in error.problems],
                             [_at_revision(w, copy, revision) for w in error.warnings]) \
                from None
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _remove_stale_copies() -> None:
    """Remove the copies that runs killed outright (no ``finally`` ran) left behind: each
    is named after the process that made it."""
    for leftover in Path(tempfile.gettempdir()).glob(f"{COPY_PREFIX}*-*"):
        pid = leftover.name[len(COPY_PREFIX):].partition("-")[0]
        if pid.isdigit() and not is_running(int(pid)) and leftover.is_dir() \
                and not leftover.is_symlink():
            shutil.rmtree(leftover, ignore_errors=True)


def repository_of(folder: Path) -> Path | None:
    """The nearest folder at or above ``folder`` holding ``.git`` (a folder, or a file
    naming one, as a linked work tree or a submodule has); its ``core.worktree`` is not
    asked."""
    for candidate in (folder, *folder.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _commit(top: Path, revision: str) -> str | None:
    """The commit ``revision`` names, or None (never an option: git would take '-x' as
    one)."""
    if revision.startswith("-") or "\n" in revision:
        return None
    found = Git(top).run("rev-parse", "--verify", "--quiet", "--end-of-options",
                         f"{revision}^{{commit}}")
    return found.strip() if found else None


class Git:
    """Plumbing commands in the repository whose work tree is ``top``."""

    def __init__(self, top: Path):
        self.top = top
        self.environment = {name: value for name, value in os.environ.items()
                            if not name.startswith("GIT_")}
        self.environment.update(ENVIRONMENT, GIT_DIR=str(top / ".git"), GIT_WORK_TREE=str(top))

    def command(self, *args: str) -> list[str]:
        return ["git", "--no-pager", *(part for pair in OVERRIDES for part in ("-c", pair)),
                *args]

    def run(self, *args: str) -> str | None:
        """What the command prints, or None when it fails (no git, not a repository)."""
        try:
            done = subprocess.run(self.command(*args), capture_output=True, text=True,
                                  env=self.environment, cwd=self.top, stdin=subprocess.DEVNULL)
        except OSError:
            return None
        return done.stdout if done.returncode == 0 else None

    def reach(self, commit: str, inside: str) -> str:
        """The folder a deck in ``inside`` may read at ``commit``: the nearest one at or
        above it holding cardkit-project.txt, else its own (see sources.files.deck_root)."""
        parts = PurePosixPath(inside).parts
        candidates = ["/".join(parts[:n]) for n in range(len(parts), -1, -1)]
        for candidate in candidates:
            path = "/".join(filter(None, [candidate, PROJECT_FILE]))
            if self.run("cat-file", "-e", f"{commit}:{path}") is not None:
                return candidate
        return inside

    def files(self, commit: str, reach: str, revision: str) -> list[Entry]:
        """The files below ``reach`` at ``commit`` (submodules left out), at most
        MAX_FILES; the listing stops as soon as there are more."""
        entries = []
        with subprocess.Popen(self.command("ls-tree", "-r", "-z", "--long",
                                           f"{commit}:{reach}"),
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              stdin=subprocess.DEVNULL, env=self.environment,
                              cwd=self.top) as listing:
            try:
                for record in _records(listing.stdout):
                    head, _, path = record.partition(b"\t")
                    mode, kind, blob, size = head.decode().split()
                    if kind != "blob":
                        continue
                    if len(entries) == MAX_FILES:
                        raise _too_much(reach, revision, f"more than {MAX_FILES:,} files")
                    path = path.decode("utf-8", "surrogateescape")
                    if not size.isdigit():  # git could not find the blob to size it
                        raise _missing(f"{revision}:" + "/".join(filter(None, [reach, path])))
                    entries.append(Entry(mode, blob, int(size), path))
            finally:
                listing.kill()
        total = sum(entry.size for entry in entries if entry.size <= MAX_FILE)
        if total > MAX_TOTAL:
            raise _too_much(reach, revision, f"{total // MB:,} MB of files, more than "
                                             f"{MAX_TOTAL // MB:,} MB")
        return entries

    def copy(self, entries: list[Entry], root: Path, label: str) -> None:
        """Write ``entries`` below ``root``: the files, then the links, and then take out
        each link that leads out of the copy. A path no checkout could make ('..',
        '.git', one below a link) is left out, and no file is written while a link is
        there, so none is written through one."""
        links = {entry.path for entry in entries if entry.mode == LINK}
        entries = [entry for entry in entries if _safe(entry.path) and not any(
            "/".join(entry.path.split("/")[:n]) in links
            for n in range(1, entry.path.count("/") + 1))]
        for entry in entries:
            (root / entry.path).parent.mkdir(parents=True, exist_ok=True)
            if entry.mode != LINK and entry.size > MAX_FILE:
                _sparse(root / entry.path, entry.size)  # its size says what it is
        wanted = [entry for entry in entries if entry.size <= (
            MAX_LINK if entry.mode == LINK else MAX_FILE if entry.mode in (REGULAR, EXECUTABLE)
            else -1)]
        targets = {}
        for entry, chunks in self.blobs(wanted, label):
            if entry.mode == LINK:
                targets[entry.path] = b"".join(chunks).decode("utf-8", "surrogateescape")
                continue
            try:
                descriptor = _created(root / entry.path)
            except FileExistsError:  # a name twice in a crafted tree, or on a case-blind disk
                continue
            with open(descriptor, "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
        for path, target in targets.items():
            if not target.startswith("/") and "\0" not in target:
                try:
                    os.symlink(target, root / path)
                except FileExistsError:  # a file of the same name (a crafted tree)
                    targets[path] = None
        _remove_links_out(root, [path for path, target in targets.items() if target])

    def blobs(self, entries: list[Entry], label: str):
        """Each entry with its blob, an iterator of chunks to be read to its end before
        the next: blobs as stored, never filtered."""
        with subprocess.Popen(self.command("cat-file", "--batch"), stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              env=self.environment, cwd=self.top) as batch:
            try:
                for entry in entries:
                    batch.stdin.write(entry.blob.encode() + b"\n")
                    batch.stdin.flush()
                    header = batch.stdout.readline().split()
                    if header[1:2] == [b"missing"]:
                        raise _missing(label + entry.path)
                    if len(header) != 3 or header[1] != b"blob":
                        raise OSError(f"git cat-file could not read {label}{entry.path}")
                    chunks = _chunks(batch.stdout, int(header[2]))
                    yield entry, chunks
                    for _ in chunks:  # what the reader left, up to the next blob
                        pass
                    batch.stdout.read(1)  # the newline after each blob
            finally:
                batch.kill()


def _chunks(stream, size: int):
    while size:
        chunk = stream.read(min(CHUNK, size))
        if not chunk:
            raise OSError("git cat-file stopped in the middle of a blob")
        size -= len(chunk)
        yield chunk


def _records(stream):
    """The NUL-ended records of ``stream``, read a piece at a time."""
    pending = b""
    while piece := stream.read(65536):
        pending += piece
        *done, pending = pending.split(b"\0")
        yield from done


def _safe(path: str) -> bool:
    """Whether every part of ``path`` is a name a checkout could make."""
    return all(part not in ("", ".", "..") and part.lower() != ".git" and "\\" not in part
               for part in path.split("/"))


def _remove_links_out(root: Path, links: list[str]) -> None:
    """Remove each of ``links`` that leads out of ``root``, until none does (a link may
    lead out through another, and out once that one is gone)."""
    real = root.resolve()
    while leading_out := [path for path in links
                          if not Path(os.path.realpath(root / path)).is_relative_to(real)]:
        for path in leading_out:
            (root / path).unlink()
            links.remove(path)


def _sparse(path: Path, size: int) -> None:
    descriptor = _created(path)
    try:
        os.ftruncate(descriptor, size)
    finally:
        os.close(descriptor)


def _created(path: Path) -> int:
    """A new file at ``path``, opened to write; never through a link."""
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)


def _missing(name: str) -> InputError:
    return InputError([Problem(Where(name), "this file's contents are not in the repository "
                               "(a partial clone's are fetched by commands cardkit does not "
                               "run)", "fetch them with git, or compare with a copy of the "
                               "old version's folder")])


def _too_much(reach: str, revision: str, what: str) -> InputError:
    return InputError([Problem(Where(f"{revision}:{reach}"), f"the deck's folder holds {what}",
                               "keep the deck in a folder of its own, or compare with a "
                               "copy of the old version's folder")])


def _at_revision(problem: Problem, copy: Path, revision: str) -> Problem:
    """``problem`` with a file of the ``copy`` named 'REVISION:path'."""
    name = str(problem.where.file)
    if not name.startswith(str(copy) + os.sep):
        return problem
    inside = Path(name).relative_to(copy).as_posix()
    return problem._replace(where=Where(f"{revision}:{inside}", problem.where.line,
                                              problem.where.col))
