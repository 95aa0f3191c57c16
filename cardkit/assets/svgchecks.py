"""What an SVG must be to be read, shared by the reader (:mod:`.svgread`, which imports
svglib) and the drawing side (:mod:`.svg`, which calls the reader when a deck has SVG):
the error a refused file raises, the file's size limit, the check of a picture it embeds
or links, and the font name a text's font is noted in while the file is read.
"""

from __future__ import annotations

from ..sources.files import MB

MAX_SVG_BYTES = 10 * MB
NOTED = "svg|"  # how the font names that record an SVG text's font begin (svgread)


def noted_font(name: str) -> tuple[tuple[str, ...], bool, bool] | None:
    """What an SVG text's font name records: (the families its SVG lists, none when it
    gives none; bold; italic); None for a font name not made by :mod:`.svgread`."""
    if not name.startswith(NOTED):
        return None
    import json  # late: a build without SVG text has no use for it

    names, is_bold, is_italic = json.loads(name[len(NOTED):])
    return tuple(names), is_bold, is_italic


class SvgError(ValueError):
    """An SVG file that cannot be drawn: ``what`` is wrong, ``fix`` says what to do."""

    def __init__(self, what: str, fix: str):
        super().__init__(f"{what}; {fix}")
        self.what, self.fix = what, fix


def check_picture(picture) -> None:
    """A picture an SVG embeds or links (a path or a binary file): a PNG or JPEG of at most
    MAX_PIXELS, judged from its header alone."""
    from ..sources.images import MAX_PIXELS, TooManyPixels, open_image

    try:
        open_image(picture).close()
    except TooManyPixels as large:
        raise SvgError(f"it holds a picture of {large}, more than "
                       f"{MAX_PIXELS // 1_000_000} megapixels",
                       "use a smaller picture: 300 dpi at its size on the card is enough") \
            from None
    except Exception:  # Pillow raises many kinds: not a PNG or JPEG it can read
        raise SvgError("it holds a picture that is not a PNG or JPEG",
                       "embed PNG or JPEG pictures only") from None
