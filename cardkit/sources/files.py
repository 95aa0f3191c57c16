"""What every file a deck names must be before cardkit opens it.

- **Inside the deck's reach.** A deck reads files inside its own folder (the folder of its
  YAML file) and cardkit's bundled decks and layouts, nothing else: symbolic links are
  followed first, so neither ``../``, an absolute path nor a link leads out. Decks that
  share files (an expansion that extends ``../base``) live in one project folder that holds
  a file named ``cardkit-project.txt``; every deck below it may read the whole project.
- **A regular file of a sane size.** A FIFO or a device (``/dev/zero``) would block or never
  end; a huge file would fill memory before any check could look at it.

>>> why_unreadable(Path("/dev/null"), 1000)
'not a regular file (a folder, a FIFO or a device)'
>>> why_outside(ROOT / "decks" / "blofa" / "deck.yaml", Path("/somewhere/else"))
"""

from __future__ import annotations

import stat
from pathlib import Path

from ..common.errors import closest

MB = 1_000_000
CSV_SUFFIXES = {".csv": None, ".tsv": "\t", ".tab": "\t"}  # None: detect the separator
WORKBOOK_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".ods")
SPREADSHEET_SUFFIXES = tuple(CSV_SUFFIXES) + WORKBOOK_SUFFIXES  # the files cards come from
ROOT = Path(__file__).resolve().parents[2]  # cardkit's checkout
BUNDLED_DECKS, BUNDLED_LAYOUTS = ROOT / "decks", ROOT / "layouts"
PROJECT_FILE = "cardkit-project.txt"
MAX_NAMES_COMPARED = 10_000  # a folder's names a missing file's is compared with
REACH_FIX = (f"copy the file into the deck's folder; decks that share files go in one "
             f"project folder holding a file named {PROJECT_FILE} (docs/deck-format.md, "
             "'What a deck can read')")


def why_unreadable(path: Path, limit: int) -> str | None:
    """Why ``path`` cannot be an input of at most ``limit`` bytes, or None if it can."""
    try:
        status = path.stat()
    except FileNotFoundError:
        return "file not found" + _near_name(path)
    except OSError as exc:
        return f"cannot read it ({exc.strerror})"
    except ValueError:  # a NUL character in the name
        return "not a usable file name"
    if not stat.S_ISREG(status.st_mode):
        return "not a regular file (a folder, a FIFO or a device)"
    if status.st_size > limit:
        return f"larger than {limit // MB} MB"
    return None


def _near_name(path: Path) -> str:
    """A name in ``path``'s folder close to its own, as a hint: ' (did you mean
    'drone.svg'?)'; '' when there is none (or no folder to look in)."""
    from itertools import islice

    try:
        names = [entry.name for entry in islice(path.parent.iterdir(), MAX_NAMES_COMPARED)]
    except (OSError, ValueError):
        return ""
    close = closest(path.name, names, cutoff=0.8)
    return f" (did you mean '{close}'?)" if close else ""


def deck_root(folder: Path) -> Path:
    """The folder a deck in ``folder`` may read: the nearest folder at or above it that
    holds a ``cardkit-project.txt``, else ``folder`` itself (symbolic links followed)."""
    folder = Path(folder).resolve()
    for candidate in (folder, *folder.parents):
        if (candidate / PROJECT_FILE).is_file():
            return candidate
    return folder


def why_outside(path: Path, folder: Path) -> str | None:
    """Why a deck in ``folder`` may not read ``path``, or None if it may."""
    try:
        real = Path(path).resolve()
    except (OSError, RuntimeError):  # a loop of symbolic links
        return "a symbolic link that leads round in a loop"
    except ValueError:
        return "not a usable file name"
    root = deck_root(folder)
    if any(real.is_relative_to(allowed) for allowed in (root, BUNDLED_DECKS, BUNDLED_LAYOUTS)):
        return None
    led = f" (it leads to {real})" if real != Path(path).absolute() else ""
    return f"outside the deck's folder {root}{led}"
