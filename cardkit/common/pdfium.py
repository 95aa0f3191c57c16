"""PDFium (through pypdfium2), which draws PDF pages into pixels, one thread at a time.

PDFium is not thread-safe: two threads drawing pages at once, even of different
documents, can crash the whole process (the studio did, under 40 clients). Every use of it
in cardkit goes through :func:`open_pdf`, which holds the process's one PDFium lock from
opening a document to closing it; tests/test_architecture.py keeps it so.
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager

_lock = threading.RLock()  # re-entrant: a drawing may open a second document


def _unlocked_in_child() -> None:
    """A forked child starts with the lock free: the thread that held it is not there."""
    global _lock
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_unlocked_in_child)


@contextmanager
def open_pdf(source):
    """The PDF ``source`` (a path, bytes or a binary file) as a pypdfium2 document, for
    the block, which draws with PDFium alone in this process; closed after it (with its
    pages, and what they drew kept only as Python bytes or images)."""
    import pypdfium2  # imported here: only drawing pages into pixels needs it

    with _lock:
        document = pypdfium2.PdfDocument(source)
        try:
            yield document
        finally:
            document.close()
