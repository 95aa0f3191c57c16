"""What each print service asks for: image size and bleed, page order, colour and ink.

Pure data and the arithmetic on it; the table in docs/print-services.md names the
published page each preset follows.

A service sells cards of certain trim sizes; a deck whose size it does not sell is refused,
because an image of the wrong size is stretched or cropped by the service's uploader.

>>> pixel_size(2.5 * INCH, 37.5, 300)   # The Game Crafter's poker card is 825 px wide
825
>>> pixel_size(2.5 * INCH, 36, 300)     # MakePlayingCards' is 822
822
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.units import INCH, MM

PNG, PDF, TTS = "png", "pdf", "tts"
FORMATS = (PNG, PDF, TTS)
SIZE_TOLERANCE = 0.3 * MM  # a deck within this of a product's trim is that product
# Image resolutions: what services print at, and what suits a screen. Here rather than in
# cardkit.pipeline.export, which uses them, so the command line shows them without importing it.
DEFAULT_DPI = 300
PREVIEW_DPI = 150


@dataclass(frozen=True)
class Service:
    """A print service's preset.

    ``bleed_pixels`` is the bleed on each side at ``dpi`` (images); ``bleed`` the bleed in
    points (PDF pages). ``order`` is the page order of a card's faces in a one-card-per-page
    PDF, in which every printed copy gets its pages.
    ``ink_limit`` is the largest total of C+M+Y+K the service prints, as a fraction (2.4 is
    240%) and ``pdfx`` the printing condition a CMYK PDF is marked PDF/X-1a for.
    ``products`` maps the service's card names to their trim (width, height) in points.
    """

    name: str
    title: str
    to: str
    products: dict
    dpi: int = DEFAULT_DPI
    bleed_pixels: float = 0.0
    bleed: float = 0.0
    order: tuple = ("front", "back")
    colour: str = "rgb"
    ink_limit: float = 4.0
    pdfx: str | None = None

    def product(self, width: float, height: float) -> str | None:
        """The name of the product whose trim is ``width`` x ``height``, or None (a service
        without products takes any size: check that with ``products`` first)."""
        for name, (w, h) in self.products.items():
            if abs(w - width) <= SIZE_TOLERANCE and abs(h - height) <= SIZE_TOLERANCE:
                return name
        return None

    def offer(self) -> str:
        """The products as a message lists them: 'poker (2.5 x 3.5 in), bridge (...)'."""
        return ", ".join(f"{name} ({w / INCH:g} x {h / INCH:g} in)"
                         for name, (w, h) in self.products.items())


def _inches(width: float, height: float) -> tuple[float, float]:
    return width * INCH, height * INCH


# Trim sizes both image services sell, in inches.
_CARDS = {"poker": _inches(2.5, 3.5), "bridge": _inches(2.25, 3.5),
          "mini": _inches(1.75, 2.5), "tarot": _inches(2.75, 4.75)}

# docs/print-services.md's table names each preset's source of truth.
SERVICES = {
    "tgc": Service("tgc", "The Game Crafter", PNG, _CARDS, bleed_pixels=37.5),  # 1/8 in
    "mpc": Service("mpc", "MakePlayingCards", PNG, _CARDS, bleed_pixels=36),
    "drivethru": Service("drivethru", "DriveThruCards", PDF, {"poker": _inches(2.5, 3.5)},
                         bleed=INCH / 8, order=("back", "front"), colour="cmyk",
                         ink_limit=2.4, pdfx="swop"),
    # any size (empty products); 300% is the total ink of FOGRA39 coated offset
    "eu": Service("eu", "EU print shops (3 mm bleed)", PDF, {}, bleed=3 * MM, colour="cmyk",
                  ink_limit=3.0, pdfx="fogra39"),
}


def pixel_size(length: float, bleed_pixels: float, dpi: int) -> int:
    """Pixels across a card's ``length`` (points) plus its bleed on both sides, rounded."""
    return round(length / INCH * dpi + 2 * bleed_pixels)
