"""Atomic output: a build writes a temporary file (or folder) and renames it over the old
one only when it is complete, so a failed or interrupted build leaves the previous good
output in place."""

from __future__ import annotations

import os
import shutil
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def atomic_path(path: Path):
    """Yield a temporary path beside ``path``; on success it replaces ``path``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    try:
        yield temporary
        os.replace(temporary, path)
    finally:
        if temporary.exists():
            temporary.unlink()


@contextmanager
def atomic_folder(path: Path):
    """Yield a temporary folder beside ``path``; on success it takes ``path``'s place (the
    old folder is removed only once the new one is complete), on failure it is removed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.part")
    old = path.with_name(f".{path.name}.{os.getpid()}.old")
    shutil.rmtree(temporary, ignore_errors=True)
    temporary.mkdir()
    try:
        yield temporary
        if path.exists():
            os.replace(path, old)
        os.replace(temporary, path)
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
        shutil.rmtree(old, ignore_errors=True)
