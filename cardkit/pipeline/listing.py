"""What ``cardkit list`` shows of each deck, kept in a cache between runs.

Loading a deck imports reportlab, Pillow and PyYAML and checks every card, which made
``cardkit list`` take nine times as long as Python takes to start (issue 14). What a deck
loads to depends only on the files it may read (its reach, the bundled decks and layouts:
see :mod:`cardkit.sources.files`), on cardkit's own code and fonts, and on
CARDKIT_MAX_CARDS; while none of them has changed, the summary kept from the last load is
shown. A file has changed when its size or modification time differs, or it came or went:
``stat`` calls, no reading. The cache is ``list.json`` in :func:`~cardkit.common.cache.cache_folder`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from .. import __version__
from ..common.cache import cache_folder
from ..common.errors import InputError
from ..sources.bundled import bundled_decks
from ..sources.files import BUNDLED_DECKS, BUNDLED_LAYOUTS, deck_root

CACHE_FILE = "list.json"
FORMAT = 1  # of the cache file: a file of another format is a miss
PACKAGE = Path(__file__).resolve().parents[1]  # cardkit's code and bundled fonts


class Summary(NamedTuple):
    """What ``cardkit list`` shows of a deck: its printed cards, its size's name, its
    title and its variants' options (variant -> option names), or, for a deck that does
    not load, how many problems it has (``problems`` is 0 for a deck that loads)."""

    total: int
    size: str
    title: str
    variants: dict[str, list[str]]
    problems: int


def deck_summaries(decks: dict[str, Path] | None = None,
                   cache_dir: Path | None = None) -> dict[str, Summary]:
    """Deck name -> its :class:`Summary`, for ``decks`` (name -> deck file; the bundled
    decks by default), from the cache in ``cache_dir`` (:func:`cache_folder` by default)
    where it is current, else by loading the deck; the cache is then rewritten. A cache
    that cannot be read is a miss, one that cannot be written is left be."""
    decks = bundled_decks() if decks is None else decks
    folder = cache_folder() if cache_dir is None else Path(cache_dir)
    file = folder / CACHE_FILE if folder else None
    cached = _read(file) if file else {}
    shared = _shared_fingerprint()
    kept = cached.get("decks") if cached.get("shared") == shared else None
    kept = kept if isinstance(kept, dict) else {}
    entries, summaries = {}, {}
    for name, path in decks.items():
        # taken before the deck loads: a file saved meanwhile makes the next run load the
        # deck again, rather than keep a summary made from files this did not see
        fingerprint = _fingerprint(Path(path))
        entry = kept.get(name)
        summary = _cached_summary(entry, fingerprint)
        if summary is None:
            summary = _loaded(Path(path))
            entry = {"fingerprint": fingerprint, "summary": summary._asdict()}
        entries[name], summaries[name] = entry, summary
    if file and entries != kept:
        _write(file, {"format": FORMAT, "shared": shared, "decks": entries})
    return summaries


def _loaded(path: Path) -> Summary:
    """The summary of the deck at ``path``, loading it."""
    from ..deck.loader import load_deck  # reportlab, Pillow and PyYAML: only when a deck changed

    try:
        deck = load_deck(path)
    except InputError as error:
        return Summary(0, "", "", {}, len(error.problems))
    variants = {name: list(options) for name, options in deck.variants.items()}
    return Summary(deck.total(), deck.size.name, deck.title, variants, 0)


def _cached_summary(entry, fingerprint: list) -> Summary | None:
    """The summary a cache entry holds if it was made from files of this ``fingerprint``,
    else None."""
    if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint:
        return None
    try:
        return Summary(**entry["summary"])
    except (KeyError, TypeError):  # not a mapping of Summary's fields: not written here
        return None


def _shared_fingerprint() -> list:
    """What every deck's summary depends on besides its own reach: cardkit's version,
    code and fonts, the bundled decks (a deck may extend one) and layouts, and the limit
    on a deck's cards. As JSON holds it, so that it compares equal to the cached one."""
    folders = [[str(folder), _files(folder)]
               for folder in (PACKAGE, BUNDLED_DECKS, BUNDLED_LAYOUTS)]
    return [__version__, os.environ.get("CARDKIT_MAX_CARDS"), folders]


def _fingerprint(path: Path) -> list:
    """The deck file at ``path``, and the files of the folder it may read."""
    root = deck_root(path.parent)
    return [str(path), str(root), _files(root)]


def _files(folder: Path) -> list[list]:
    """``[path relative to folder, size, mtime_ns]`` of every file below ``folder``,
    sorted; a link to a file counts as the file. A folder reached by a symbolic link is not
    entered: whatever a deck may read through one lies in its reach or in the bundled
    folders, which are listed anyway (and a link to a folder above it would lead round for
    ever). Compiled Python is left out."""
    found = []
    pending = [(str(folder), "")]
    while pending:
        here, prefix = pending.pop()
        try:
            entries = os.scandir(here)
        except OSError:  # gone or unreadable: loading the deck says so
            continue
        with entries:
            for entry in entries:
                name = prefix + entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            pending.append((entry.path, name + "/"))
                        continue
                    status = entry.stat()
                except OSError:  # a broken link (the file it names is not there) or a file
                    continue  # that just went: neither is read, and a file made later is seen
                found.append([name, status.st_size, status.st_mtime_ns])
    found.sort()
    return found


def _read(file: Path) -> dict:
    """The cache in ``file``, or {} when there is none of this format."""
    try:
        with open(file, encoding="utf-8") as text:
            data = json.load(text)
    except (OSError, ValueError, RecursionError):  # none, unreadable, or not JSON
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT else {}


def _write(file: Path, data: dict) -> None:
    """Replace ``file`` with ``data`` in one step (a reader never sees half a file);
    nothing happens when its folder cannot be made or written."""
    from ..common.atomic import atomic_path  # only when a deck was loaded again

    try:
        with atomic_path(file, under=file.parent) as temporary:
            Path(temporary).write_text(json.dumps(data), encoding="utf-8")
    except OSError:
        pass
