"""What every file a deck names must be before cardkit opens it: a regular file of a
sane size. A FIFO or a device (``/dev/zero``) would block or never end; a huge file would
fill memory before any check could look at it.

>>> why_unreadable(Path("/dev/null"), 1000)
'not a regular file (a folder, a FIFO or a device)'
"""

from __future__ import annotations

import stat
from pathlib import Path

MB = 1_000_000


def why_unreadable(path: Path, limit: int) -> str | None:
    """Why ``path`` cannot be an input of at most ``limit`` bytes, or None if it can."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return "file not found"
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a folder, a FIFO or a device)"
    if status.st_size > limit:
        return f"larger than {limit // MB} MB"
    return None
