"""A command's one round of fetching: within :func:`fetching_once`, each sheet link is
fetched at most once, and what came of it is said again (``validate`` loads a deck for
each of its checks; a watch's rebuild is one round). A module of its own, so that a
command can open the round without importing the network code of :mod:`.links`, which a
deck without links never needs."""

from __future__ import annotations

from contextlib import contextmanager

# (deck folder, link) -> (the LinkError or None, the warning) of the links fetched in
# the round under way; None outside a round
fetched: dict | None = None


@contextmanager
def fetching_once():
    """Within it, each link is fetched at most once. Nested, the outermost counts."""
    global fetched
    if fetched is not None:
        yield
        return
    fetched = {}
    try:
        yield
    finally:
        fetched = None
