"""A command's round of sheet-link fetches (:mod:`.links`): within :func:`fetching_once`
each link is fetched at most once. Kept apart from :mod:`.links` so that a command opens
its round without importing the network code, which a deck without links never needs."""

from __future__ import annotations

from contextlib import contextmanager

# (deck folder, link) -> (the LinkError, the warning) of the links fetched within
# fetching_once(); None outside it
FETCHED: dict | None = None


@contextmanager
def fetching_once():
    """Within it, each link is fetched at most once, and what came of it (a problem, a
    warning) is said again: a command that loads a deck several times (validate loads it
    for each check) asks the server once. Nested, the outermost counts: a watch's
    rebuild is one round, whatever it makes."""
    global FETCHED
    if FETCHED is not None:
        yield
        return
    FETCHED = {}
    try:
        yield
    finally:
        FETCHED = None
