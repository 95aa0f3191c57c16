"""Deck images (PNG and JPEG), opened only as what they are.

Pillow picks a file's format by sniffing its first bytes, whatever its name. Among the
formats it knows is EPS, which it hands to Ghostscript to run: an EPS file named
``art.png`` would run its PostScript on the designer's machine (a loop that never ends, or
text sent to the terminal). So a deck's image is opened as PNG or JPEG and nothing else;
any other file is refused for what it is, before any decoder runs.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image

IMAGE_FORMATS = ("PNG", "JPEG")


def open_image(path: Path) -> Image.Image:
    """Open ``path`` as a PNG or a JPEG (lazily, as Pillow does); any other content raises
    :class:`PIL.UnidentifiedImageError`, whatever the file's name."""
    return Image.open(path, formats=IMAGE_FORMATS)
