"""Deck images (PNG and JPEG), opened only as what they are, and only when small enough.

Pillow picks a file's format by sniffing its first bytes, whatever its name. Among the
formats it knows is EPS, which it hands to Ghostscript to run: an EPS file named
``art.png`` would run its PostScript on the designer's machine (a loop that never ends, or
text sent to the terminal). So a deck's image is opened as PNG or JPEG and nothing else;
any other file is refused for what it is, before any decoder runs.

Opening reads the header alone; a picture of more than :data:`MAX_PIXELS` is refused from
it, before its pixels are decoded (a 177-megapixel PNG of 170 KB decodes to 2.6 GB).
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import BinaryIO

from PIL import Image

IMAGE_FORMATS = ("PNG", "JPEG")
MAX_PIXELS = 60_000_000  # a tarot card's art at 1200 dpi is 15 megapixels
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class TooManyPixels(ValueError):
    """A picture whose header says it has more than MAX_PIXELS pixels."""

    def __init__(self, width: int, height: int):
        super().__init__(f"{width} x {height} px")
        self.width, self.height = width, height


def open_image(source: Path | BinaryIO) -> Image.Image:
    """Open ``source`` (a path or a binary file) as a PNG or a JPEG, lazily: nothing is
    decoded. Other content raises :class:`PIL.UnidentifiedImageError`, whatever the
    file's name; more than MAX_PIXELS raises :class:`TooManyPixels`."""
    with warnings.catch_warnings():
        # Pillow warns past its own bound (89 megapixels), printing its path; cardkit's
        # bound is lower and refuses the picture with a message naming the deck's file
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            image = Image.open(source, formats=IMAGE_FORMATS)
        except Image.DecompressionBombError:  # past twice Pillow's bound: refused unread
            raise TooManyPixels(*_header_size(source)) from None
    width, height = image.size
    if width * height > MAX_PIXELS:
        image.close()
        raise TooManyPixels(width, height)
    return image


def _header_size(source: Path | BinaryIO) -> tuple[int, int]:
    """The size a PNG's or JPEG's header gives, read by Pillow's own reader of the format
    (which leaves the check of the size to Image.open)."""
    from PIL import JpegImagePlugin, PngImagePlugin

    file = open(source, "rb") if isinstance(source, (str, Path)) else source
    try:
        file.seek(0)
        reader = PngImagePlugin.PngImageFile if file.read(8) == _PNG_SIGNATURE else \
            JpegImagePlugin.JpegImageFile
        file.seek(0)
        return reader(file).size
    finally:
        if file is not source:
            file.close()
