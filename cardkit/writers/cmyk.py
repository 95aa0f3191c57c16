"""CMYK-only PDF output, for print shops such as DriveThruCards.

The rules, for every colour and every image pixel:

- It is CMYK. RGB is converted with the device formula and full grey-component
  replacement: K = 1 - max(R, G, B) and C = (1 - R - K) / (1 - K), likewise M from G
  and Y from B (black, K = 1, has C = M = Y = 0).
- A grey is black ink only. A near-neutral colour, whose largest and smallest RGB
  channels differ by at most 2/255, is printed as the grey of its channels' mean, so
  black text and lines are 0/0/0/100, never a rich black.
- Total ink C + M + Y + K never exceeds the shop's limit (a fraction: 2.4 is 240%).
  Over it, C, M and Y are scaled down by one common factor so the total is the limit;
  K is kept, so the colour keeps its darkness and loses some saturation.
- Small text that is grey or black is black ink only. Text set under 8 pt whose colour
  is greyish (its RGB channels differ by at most 40/255, as a tinted grey such as
  #6b5b4b does) prints as the grey of its channels' mean, K only: three inks a hair out
  of register blur a 5 pt stamp. Coloured text, and text of 8 pt and more, keep their
  inks.

Greyscale images stay DeviceGray (they print on the black plate); an image's alpha
channel stays its soft mask.
"""

from __future__ import annotations

import math
import weakref
from pathlib import Path

from PIL import Image, ImageMath
from reportlab.lib.colors import CMYKColor, toColor
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas
from reportlab.pdfgen.textobject import PDFTextObject

NEUTRAL = 2  # in 8-bit levels: a channel spread up to this is a grey
SMALL_TEXT = 8.0  # points: text under this is printed in one ink when it is greyish
GREYISH = 40  # in 8-bit levels: the channel spread of a grey for small text


def to_cmyk(colour, ink_limit: float) -> tuple[CMYKColor, bool]:
    """``colour`` (a reportlab Color or CMYKColor, or whatever ``toColor`` accepts) as
    process CMYK within ``ink_limit``, with its alpha; and whether the limit changed it.

    Without the limit this is the exact inverse of the naive CMYK to RGB formula
    R = (1 - C)(1 - K), so an unclipped colour displays unchanged (but for near-neutral
    colours, which move by less than 2/255 to become grey). A CMYK colour is only
    ink-limited (a spot colour becomes its process equivalent).

    >>> def show(colour, limit=4.0):  # C/M/Y/K in percent, and whether clipped
    ...     cmyk, clipped = to_cmyk(colour, limit)
    ...     return "/".join(f"{v * 100:.4g}" for v in cmyk.cmyk()), clipped
    >>> show("#ff0000")  # pure red
    ('0/100/100/0', False)
    >>> show("#000000")  # black is K only
    ('0/0/0/100', False)
    >>> show("#808080")  # so is mid grey
    ('0/0/0/49.8', False)
    >>> show("#330000", 2.4)  # 0/100/100/80 is 280% ink: M and Y give way, K stays
    ('0/80/80/80', True)
    """
    return _limited(_device_cmyk(colour), _checked(ink_limit))


def _checked(ink_limit: float) -> float:
    if not 1 <= ink_limit <= 4:
        raise ValueError(f"ink limit {ink_limit!r} is not between 1 (100%) and 4 (400%)")
    return ink_limit


def _device_cmyk(colour) -> CMYKColor:
    """``colour`` as CMYK by the rules above, before the ink limit."""
    rl = toColor(colour)
    # A tuple carries no alpha: leave the canvas's alpha alone, as reportlab does.
    alpha = None if isinstance(colour, (tuple, list)) else rl.alpha
    if isinstance(rl, CMYKColor):
        d = rl.density
        return CMYKColor(rl.cyan * d, rl.magenta * d, rl.yellow * d, rl.black * d, alpha=alpha)
    rgb = (rl.red, rl.green, rl.blue)
    if max(rgb) - min(rgb) <= NEUTRAL / 255 + 1e-9:
        return CMYKColor(0, 0, 0, 1 - sum(rgb) / 3, alpha=alpha)
    k = 1 - max(rgb)  # < 1: a colour that is not grey has a channel above 0
    c, m, y = ((1 - v - k) / (1 - k) for v in rgb)
    return CMYKColor(c, m, y, k, alpha=alpha)


def _black_ink_only(colour: CMYKColor) -> CMYKColor | None:
    """A device CMYK ``colour`` as K only, when it shows a greyish RGB (see
    :data:`GREYISH`); None when it is a colour. The grey is the mean of the RGB channels
    the naive formula gives back (exact for the colours :func:`_device_cmyk` makes).

    >>> [round(v, 3) for v in _black_ink_only(_device_cmyk("#6b5b4b")).cmyk()]
    [0, 0, 0, 0.643]
    >>> _black_ink_only(_device_cmyk("#2f5d62")) is None  # a muted teal stays a colour
    True
    """
    c, m, y, k = colour.cmyk()
    rgb = [(1 - v) * (1 - k) for v in (c, m, y)]
    if max(rgb) - min(rgb) > GREYISH / 255 + 1e-9:
        return None
    return CMYKColor(0, 0, 0, 1 - sum(rgb) / 3, alpha=colour.alpha)


def _limited(colour: CMYKColor, ink_limit: float) -> tuple[CMYKColor, bool]:
    c, m, y, k = colour.cmyk()
    if c + m + y + k <= ink_limit:
        return colour, False
    scale = (ink_limit - k) / (c + m + y)  # K <= 1 <= limit, so this is in [0, 1)
    return CMYKColor(c * scale, m * scale, y * scale, k, alpha=colour.alpha), True


def _describe(colour, device: CMYKColor, ink_limit: float) -> str:
    rl = toColor(colour)
    if isinstance(rl, CMYKColor):
        name = "cmyk(%s)" % ", ".join(f"{v * 100:.0f}%" for v in device.cmyk())
    else:
        name = "#%02x%02x%02x" % tuple(round(v * 255) for v in (rl.red, rl.green, rl.blue))
    return f"{name} ({sum(device.cmyk()) * 100:.0f}% ink, printed at {ink_limit * 100:.0f}%)"


def cmyk_image(image: Image.Image,
               ink_limit: float) -> tuple[Image.Image, Image.Image | None, float]:
    """(``image`` as CMYK, or L if it is greyscale; its alpha band or None; the share of
    its pixels that are visible and were changed by the ink limit), by the rules above,
    per pixel. A CMYK image is only ink-limited.

    8-bit integer arithmetic in Pillow's ImageMath: C, M, Y are rounded, and floored
    where the limit applies, so no pixel's total ink exceeds the limit.
    """
    alpha = None
    if image.has_transparency_data:
        image = image.convert("LA" if image.mode in ("L", "LA") else "RGBA")
        alpha = image.getchannel("A")
        image = image.convert(image.mode[:-1])
    if image.mode in ("1", "L"):
        return image.convert("L"), alpha, 0.0
    if image.mode == "CMYK":
        bands = image.split()
    else:
        r, g, b = image.convert("RGB").split()
        bands = [band.im for band in ImageMath.lambda_eval(_device_cmyk_bands, r=r, g=g, b=b)]
    level = math.floor(_checked(ink_limit) * 255 + 1e-9)
    *bands, over = ImageMath.lambda_eval(_limited_bands, level=level, alpha=alpha,
                                         c=bands[0], m=bands[1], y=bands[2], k=bands[3])
    clipped = over.im.convert("L").histogram()[1] / (image.width * image.height)
    return Image.merge("CMYK", [band.im.convert("L") for band in bands]), alpha, clipped


def _device_cmyk_bands(e):
    r, g, b = e["r"], e["g"], e["b"]
    top = e["max"](e["max"](r, g), b)
    grey = top - e["min"](e["min"](r, g), b) <= NEUTRAL
    tint = 1 - grey
    k = tint * (255 - top) + grey * (255 - (r + g + b + 1) / 3)  # / on integers floors
    # C = 255 (top - R) / top, rounded; black's top is 0, and ImageMath's x / 0 is 0
    return [tint * (((top - v) * 510 + top) / (top * 2)) for v in (r, g, b)] + [k]


def _limited_bands(e):
    c, m, y, k, level = e["c"], e["m"], e["y"], e["k"], e["level"]
    cmy = c + m + y
    over = cmy + k > level
    share = over * (level - k) + (1 - over) * cmy  # C, M, Y become C * share / cmy
    visible_over = over if e["alpha"] is None else over * (e["alpha"] > 0)
    return [c * share / cmy, m * share / cmy, y * share / cmy, k, visible_over]


class _GreyAsBlackInk:
    """setFillGray/setStrokeGray write ``g``/``G`` directly, past the colour hook: send
    them through setFillColor/setStrokeColor instead (K-only CMYK). This also sets the
    stroke alpha for setStrokeGray(alpha=...), where reportlab sets the fill alpha."""

    def setFillGray(self, gray, alpha=None):
        self.setFillColor((gray, gray, gray), alpha)

    def setStrokeGray(self, gray, alpha=None):
        self.setStrokeColor((gray, gray, gray), alpha)


class _CmykTextObject(_GreyAsBlackInk, PDFTextObject):
    """A text object whose greys are black ink; its colours go through the canvas's
    hook, which reportlab copies from the canvas. ``smallest`` is the smallest size any
    of its strings is set at, for the canvas's rule on small text: a size is counted
    where it is chosen, as kerned lines (``TJ`` arrays, :mod:`cardkit.render.paint`)
    are written past reportlab's string formatting, and where a string is formatted."""

    smallest = math.inf

    def setFont(self, psfontname, size, leading=None):
        self.smallest = min(self.smallest, size)
        return super().setFont(psfontname, size, leading)

    def _formatText(self, text):  # every plain string shown goes through here
        self.smallest = min(self.smallest, self._fontsize)
        return super()._formatText(text)


class CmykCanvas(_GreyAsBlackInk, Canvas):
    """A reportlab Canvas whose every colour and image is CMYK within ``ink_limit``
    (a fraction: 2.4 is 240%), by the rules in this module's docstring.

    Colours go through reportlab's ``enforceColorSpace`` hook, which setFillColor and
    setStrokeColor (and so the RGB, CMYK and named-colour setters) call on the canvas
    and on its text objects, which copy it from the canvas. One hook covers every
    colour setter, including those of text objects and of renderPDF (svglib drawings),
    without repeating reportlab's operator writing; only the grey setters, the
    gradients and the images bypass it, and are overridden here.

    Colours and images that the ink limit changed are collected for :meth:`take_clipped`.
    """

    def __init__(self, filename, *args, ink_limit: float, **kwargs):
        self.ink_limit = _checked(ink_limit)
        self._clipped: dict[str, None] = {}  # an ordered set of descriptions
        # (converted ImageReader, description if clipped or None) by the caller's ImageReader
        self._images: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        # where in the page's operators the fill colour in effect was set, or None
        self._fill_at: int | None = None
        super().__init__(filename, *args, enforceColorSpace=self._cmyk, **kwargs)

    def _cmyk(self, colour) -> CMYKColor:
        device = _device_cmyk(colour)
        cmyk, clipped = _limited(device, self.ink_limit)
        if clipped:
            self._clipped[_describe(colour, device, self.ink_limit)] = None
        return cmyk

    def take_clipped(self) -> list[str]:
        """Descriptions of the colours and images the ink limit changed since the last
        call, one per distinct colour or image, in the order they were first drawn, e.g.
        ``'#8b0000 (245% ink, printed at 240%)'``."""
        taken = list(self._clipped)
        self._clipped.clear()
        return taken

    def beginText(self, x=0, y=0, direction=None):
        return _CmykTextObject(self, x, y, direction=direction)

    def setFillColor(self, aColor, alpha=None):
        at = len(self._code)
        super().setFillColor(aColor, alpha)
        self._fill_at = at

    def drawText(self, aTextObject):
        """reportlab's drawText; small text in a greyish fill colour is drawn in black ink
        only (the module's rules). The fill colour's own operator becomes K only when
        nothing was painted with it yet (cardkit sets a text's colour just before it);
        otherwise a K-only colour is set before the text. Either way the canvas's fill
        colour is then the K-only one."""
        black = None
        if aTextObject.smallest < SMALL_TEXT and isinstance(self._fillColorObj, CMYKColor):
            black = _black_ink_only(self._fillColorObj)
        if black is not None:
            operator = "%s k" % fp_str(black.cmyk())
            at = self._fill_at
            unused = at is not None and at < len(self._code) and \
                self._code[at].endswith(" k") and \
                all(later.endswith(" gs") for later in self._code[at + 1:])  # its alpha
            if unused:
                self._code[at] = operator
            else:
                self._fill_at = len(self._code)
                self._code.append(operator)
            self._fillColorObj = black
        super().drawText(aTextObject)

    def showPage(self):
        super().showPage()
        self._fill_at = None  # the new page's operators start afresh

    def linearGradient(self, x0, y0, x1, y1, colors, positions=None, extend=True):
        super().linearGradient(x0, y0, x1, y1, [self._cmyk(c) for c in colors], positions,
                               extend)

    def radialGradient(self, x, y, radius, colors, positions=None, extend=True):
        super().radialGradient(x, y, radius, [self._cmyk(c) for c in colors], positions,
                               extend)

    def drawImage(self, image, x, y, width=None, height=None, mask=None, **kwargs):
        """reportlab's drawImage, of ``image`` (an ImageReader, a PIL image or a file name)
        converted to CMYK. With ``mask="auto"`` its alpha channel is its soft mask;
        colour-key masks (lists of RGB ranges) cannot apply to CMYK and are refused."""
        if mask not in (None, "auto"):
            raise ValueError(f"CmykCanvas.drawImage: mask must be None or 'auto', not {mask!r}")
        return super().drawImage(self._image_reader(image), x, y, width, height, mask, **kwargs)

    def drawInlineImage(self, image, x, y, width=None, height=None, **kwargs):
        """reportlab's drawInlineImage (renderPDF draws SVG images with it) of ``image``
        converted to CMYK; an inline image has no soft mask, so alpha is dropped, as
        reportlab does."""
        return super().drawInlineImage(self._image_reader(image)._image, x, y, width, height,
                                       **kwargs)

    def _image_reader(self, image) -> ImageReader:
        """An ImageReader of ``image`` as CMYK (or grey), carrying its alpha band where
        reportlab's drawImage takes a soft mask from: ``_dataA``, an ImageReader of the
        alpha band, which getRGBData sets (and clears) for RGBA and LA images. cardkit
        draws one ImageReader per picture on many cards: each is converted once."""
        cached = self._images.get(image) if isinstance(image, ImageReader) else None
        if cached is None:
            source = ImageReader(image)
            converted, alpha, clipped = cmyk_image(source._image, self.ink_limit)
            reader = ImageReader(converted)
            reader.getRGBData()
            reader._dataA = None if alpha is None else ImageReader(alpha)
            cached = reader, _describe_image(source, clipped, self.ink_limit) if clipped else None
            if isinstance(image, ImageReader):
                self._images[image] = cached
        reader, description = cached
        if description:
            self._clipped[description] = None
        return reader


def _describe_image(source: ImageReader, clipped: float, ink_limit: float) -> str:
    # reportlab names an image read from memory PILIMAGE_<id>: no name worth showing
    name = source.fileName
    named = isinstance(name, str) and name and not name.startswith("PILIMAGE_")
    name = f"{Path(name).name} " if named else ""
    share = f"{clipped:.0%}" if clipped >= 0.01 else "under 1%"
    return f"image {name}(ink over {ink_limit * 100:.0f}% in {share} of its pixels)"
