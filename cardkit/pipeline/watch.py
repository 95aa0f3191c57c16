"""Rebuild a deck whenever a file it may read changes.

Every file a deck reads lies in its reach (its folder, or its project folder) or among the
bundled decks and layouts, so watching those folders sees every change: the deck, its
layouts, spreadsheets, images, icons and fonts, and files that do not exist yet (the image
a card names before it is drawn). The operating system reports the changes (watchfiles);
nothing polls for changes. Saves that come in a burst (an editor writing a file and
renaming it) are one rebuild.

A sheet the deck reads from a link (``from: https://...``) has no file to watch: when the
user allowed the network, it is asked every :data:`POLL_SECONDS` whether it changed (with
the ETag or Last-Modified of the copy kept), and a change rebuilds as a saved file does.

A deck folder deleted and made again (a new version unzipped, a git checkout) is a new
folder the operating system's watch does not follow: the watch starts again on it, and
the deck is rebuilt (while it is gone, once, to say so).
"""

from __future__ import annotations

import os
import queue
import stat
import threading
from pathlib import Path
from typing import Callable

from ..sources import links
from ..sources.files import BUNDLED_DECKS, BUNDLED_LAYOUTS, PROJECT_FILE, deck_root

QUIET_MS = 50  # a burst of saves ends when the files have been quiet this long
POLL_SECONDS = 5.0  # how often a sheet read from a link is asked whether it changed


def reach(deck_path: Path) -> list[Path]:
    """The folders whose files a deck may read, there or not: its reach and cardkit's
    bundled decks and layouts, without a folder inside another."""
    folders = sorted({deck_root(Path(deck_path).parent), BUNDLED_DECKS, BUNDLED_LAYOUTS})
    return [f for f in folders if not any(f != other and f.is_relative_to(other)
                                          for other in folders)]


def watched_folders(deck_path: Path) -> list[Path]:
    """The folders of the deck's :func:`reach` that are there, to watch."""
    return [folder for folder in reach(deck_path) if folder.is_dir()]


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")
LOCK_PREFIXES = (".~lock.", "~$")  # LibreOffice's and Microsoft Office's lock files


def may_read(name: str) -> bool:
    """Whether a deck could read a file of this name: a deck or layout, a spreadsheet, an
    image, a font, the project file or the rules (for ``--rulebook``). A spreadsheet
    program's lock file, an editor's backup or a note beside the deck is none of them, so
    saving it rebuilds nothing.

    >>> [may_read(n) for n in ("deck.yaml", "cards.xlsx", "art/Lamp.PNG", "fonts/a.otf",
    ...                        "rules.md")]
    [True, True, True, True, True]
    >>> [may_read(n) for n in (".~lock.cards.xlsx#", "~$cards.xlsx", "notes.txt",
    ...                        "d/.cardkit-cache/1f2e.csv")]
    [False, False, False, False]
    """
    from ..assets.fonts import FONT_SUFFIXES, UNUSABLE_SUFFIXES
    from ..sources.rulebook import RULES_FILE
    from ..sources.spreadsheet import SUFFIXES as SPREADSHEET_SUFFIXES

    path = Path(name)
    # a sheet link's copy is written by the build itself (the link is polled instead)
    if path.name.startswith(LOCK_PREFIXES) or links.CACHE_FOLDER in path.parts:
        return False
    return path.name in (PROJECT_FILE, RULES_FILE) or path.suffix.lower() in (
        ".yaml", ".yml", *SPREADSHEET_SUFFIXES, *IMAGE_SUFFIXES, *FONT_SUFFIXES,
        *UNUSABLE_SUFFIXES)  # a web font in fonts/ is read, to be refused


def changed_files(changes, since: Path) -> list[str]:
    """The files of a batch of watchfiles changes that a deck may read (see
    :func:`may_read`), as paths relative to ``since`` when they are below it. A file that
    came and went within the batch (an editor's or a tool's temporary file) is left out.

    >>> from watchfiles import Change
    >>> changed_files({(Change.modified, "/d/deck.yaml"), (Change.added, "/d/tmp1.png"),
    ...                (Change.deleted, "/d/tmp1.png"), (Change.deleted, "/d/art/x.png"),
    ...                (Change.added, "/d/.~lock.cards.ods#")}, Path("/d"))
    ['art/x.png', 'deck.yaml']
    """
    from watchfiles import Change

    kinds: dict[str, set] = {}
    for change, name in changes:
        kinds.setdefault(name, set()).add(change)
    shown = set()
    for name, seen in kinds.items():
        if links.is_link(name):  # a sheet link that changed (:func:`_poll_links`)
            shown.add(name)
            continue
        path = Path(name)
        if not may_read(name) or {Change.added, Change.deleted} <= seen and not path.exists():
            continue
        shown.add(str(path.relative_to(since)) if path.is_relative_to(since) else str(path))
    return sorted(shown)


def watch(deck_path: Path, out_dir: Path, rebuild: Callable[[list[str]], None],
          stop_event=None) -> None:
    """Call ``rebuild([])`` once the watching has begun, then ``rebuild(changed)`` with the
    files changed after every burst of changes to the files ``deck_path`` may read, until
    interrupted (or until ``stop_event`` is set). Changes inside ``out_dir``, where the
    builds write, and an editor's swap and backup files do not count.

    The first build starts only once the operating system watches the folders, so a save
    made while it runs is not missed: it rebuilds as soon as the first build ends. When a
    watched folder goes or comes back, the watch starts again on the folders there, and
    then the deck is rebuilt as if its file changed.
    """
    from watchfiles import Change, DefaultFilter
    from watchfiles import watch as file_events

    stop = stop_event or threading.Event()
    started = threading.Event()
    batches: queue.Queue = queue.Queue()
    again = {(Change.modified, str(Path(deck_path).resolve()))}  # a folder went or came

    def rebuild_again() -> None:
        batches.put(again)

    def listen() -> None:
        ignored = DefaultFilter(ignore_paths=[Path(out_dir).resolve()])
        on_start = started.set
        try:
            while not stop.is_set():
                running = _Running(stop, reach(deck_path), on_start)
                try:
                    for batch in file_events(*running.there, watch_filter=ignored,
                                             step=QUIET_MS, stop_event=running,
                                             raise_interrupt=False):
                        batches.put(batch)
                        if running.there.intersection(Path(name) for _, name in batch):
                            break  # a watched folder itself went (its files may not say)
                except FileNotFoundError:  # went as the watch began
                    stop.wait(QUIET_MS / 1000)
                if started.is_set():
                    on_start = rebuild_again
        finally:
            started.set()  # the watcher could not start: do not wait for it
            batches.put(None)

    threading.Thread(target=listen, name="cardkit-watch", daemon=True).start()
    if links.NETWORK.allowed or links.NETWORK.refresh:
        threading.Thread(target=_poll_links, args=(deck_path, batches, stop),
                         name="cardkit-watch-links", daemon=True).start()
    started.wait()
    here = Path.cwd()
    try:
        rebuild([])
        while (batch := batches.get()) is not None:
            changed = changed_files(batch, here)
            if changed:
                rebuild(changed)
    finally:
        stop.set()


def _poll_links(deck_path: Path, batches: queue.Queue, stop: threading.Event) -> None:
    """Every :data:`POLL_SECONDS` until ``stop``, ask each sheet link the deck's builds
    read whether it changed; a change (its new copy kept) is a batch of one change."""
    from watchfiles import Change

    root = deck_root(Path(deck_path).parent)
    while not stop.wait(POLL_SECONDS):
        for cache in list(links.LINKS_READ.values()):
            if cache.folder.is_relative_to(root) and cache.changed():
                batches.put({(Change.modified, cache.url)})


class _Running:
    """The stop event watchfiles polls between its steps (every :data:`QUIET_MS`). Its
    first poll says that the watcher runs (``on_start()``): watchfiles asks only once it
    watches the folders ``there``, those of ``folders`` that are. It stops the watch
    when ``stop`` is set, and when one of ``folders`` is no longer the folder it watches:
    gone, made again, or one that was not there is (a look at each folder's inode)."""

    def __init__(self, stop: threading.Event, folders: list[Path], on_start):
        self.stop, self.on_start = stop, on_start
        self.seen = {folder: _identity(folder) for folder in folders}
        self.there = {folder for folder, seen in self.seen.items() if seen}

    def is_set(self) -> bool:
        if self.on_start:
            self.on_start, on_start = None, self.on_start
            on_start()
        return self.stop.is_set() or any(_identity(folder) != seen
                                         for folder, seen in self.seen.items())


def _identity(folder: Path) -> tuple | None:
    """Which folder is at ``folder`` (its device and inode), None if none is."""
    try:
        found = os.stat(folder)
    except OSError:
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISDIR(found.st_mode) else None
