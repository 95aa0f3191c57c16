"""The studio's "Open in editor" links: the user's editor, opened at a file and line.

The command is the user's only: ``cardkit serve --editor CMD``, else ``$VISUAL``, else
``$EDITOR``; never anything a deck or a request says. The file is one of the deck's own,
which the server found from the card or element the page named, given as an absolute
path (so no file name reads as an option). The command is run without a shell: its
words are split as a shell would, ``{file}`` and ``{line}`` in them are replaced
(``code -g {file}:{line}``), and without them the file is added after ``+LINE``, the
convention of vi, Emacs, nano, Sublime Text and most others.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import threading
from pathlib import Path

from ..common.errors import Where
from .edits import WORKBOOK_OPEN_WHY, Refused, file_source
from .layout_edits import element_of, why_fixed

HOW_TO_SET = ("start the studio with --editor \"CMD\" (e.g. --editor \"code -g {file}:{line}\")"
              ", or set $VISUAL or $EDITOR")
_PLACE = re.compile(r"\{(file|line)\}")


def chosen_editor(given: str | None, environ) -> str:
    """The editor command: ``given`` (--editor), else $VISUAL, else $EDITOR ('' if none).

    >>> chosen_editor(None, {"EDITOR": "nano", "VISUAL": "gvim -f"})
    'gvim -f'
    """
    return (given or environ.get("VISUAL") or environ.get("EDITOR") or "").strip()


def editor_argv(command: str, path: Path, line: int) -> list[str]:
    """The words to run to open ``path`` at ``line`` with ``command``.

    >>> editor_argv("code -g {file}:{line}", Path("/d/cards.csv"), 3)
    ['code', '-g', '/d/cards.csv:3']
    >>> editor_argv("emacsclient -n", Path("/d/a b.yaml"), 7)
    ['emacsclient', '-n', '+7', '/d/a b.yaml']
    """
    words = shlex.split(command)
    places = {"file": str(path), "line": str(max(line, 1))}
    if any(_PLACE.search(word) for word in words):
        return [_PLACE.sub(lambda found: places[found.group(1)], word) for word in words]
    return words + [f"+{max(line, 1)}", str(path)]


def open_in_editor(command: str, path: Path, line: int) -> None:
    """Start the editor on ``path`` at ``line``, on its own (the studio does not wait for
    it, and it reads nothing from the studio's terminal). Raises OSError when it cannot
    be started, ValueError when the command cannot be split into words."""
    child = subprocess.Popen(editor_argv(command, Path(path).absolute(), line),
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    threading.Thread(target=child.wait, daemon=True).start()  # reaped when it ends


def place_of(deck, root: Path, number: int, side: str = "", element: str = "") -> Where:
    """The file and line to open for card ``number`` of ``deck`` (its row or entry), or for
    the ``element`` of its ``side`` (the element's entry in its layout): a file of the
    deck's own, in its folder ``root``. Raises :class:`.edits.Refused` saying why there is
    none to open (a sheet link, a workbook, a layout that ships with cardkit)."""
    if element:
        _, found = element_of(deck, number, side, element)
        path = Path(found.where.file).absolute()
        return _opened(Where(path, found.where.line), why_fixed(path, root))
    card = next((card for card in deck.cards if card.number == number), None)
    if card is None:
        raise Refused(f"the deck has no card {number}", "reload the page")
    found = file_source(card.where, root)
    why = found.why or (WORKBOOK_OPEN_WHY if found.kind == "xlsx" else "")
    return _opened(Where(found.path, card.where.line), why)


def _opened(where: Where, why: str) -> Where:
    if why:
        raise Refused(f"not opened: {why}")
    return where
