"""Where cardkit keeps what it can make again but would rather not: ``cardkit list``'s
summaries and fonts converted to TrueType outlines."""

from __future__ import annotations

import os
from pathlib import Path


def cache_folder() -> Path | None:
    """Where cardkit keeps its caches: $CARDKIT_CACHE_DIR, else $XDG_CACHE_HOME/cardkit,
    else ~/.cache/cardkit; None when there is no home folder to put it in."""
    if os.environ.get("CARDKIT_CACHE_DIR"):
        return Path(os.environ["CARDKIT_CACHE_DIR"])
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if os.path.isabs(xdg):  # the XDG spec: a relative path is to be ignored
        return Path(xdg) / "cardkit"
    try:
        return Path.home() / ".cache" / "cardkit"
    except (RuntimeError, KeyError):  # no $HOME and no entry in the user database
        return None
