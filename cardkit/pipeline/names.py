"""The names of the sheets a build writes, which say what is in them; the back offset's part
(:func:`offset_part`) names token sheets and calibration sheets too."""

from __future__ import annotations

from ..common.units import to_mm
from ..deck.model import Deck
from ..imposition.sheets import SheetOptions
from ..render.card import FULL_INK


def offset_part(back_offset: tuple[float, float]) -> str:
    """The back offset as a file name part, in millimetres: ``offset0.5,-0.3mm``."""
    x, y = (round(to_mm(v), 3) for v in back_offset)
    return f"offset{x:g},{y:g}mm"


def output_name(deck: Deck, options: SheetOptions) -> str:
    """A file name that says what the file is: ``blofa-pnp-a4.pdf``,
    ``blofa-pnp-letter-short-bleed3mm-guides.pdf``, ``bullet-players3-pnp-a4.pdf``,
    ``blofa-pnp-a4-landscape-offset0.5,-0.3mm.pdf``. Only choices that differ from the
    defaults appear, so two builds that differ never share a name."""
    sheet = options.template.name if options.template is not None else options.sheet
    parts = [deck.name] + ([deck.variant] if deck.variant else []) + [sheet, options.paper]
    if options.orientation != "auto":
        parts.append(options.orientation)
    if options.duplex not in (None, "long"):
        parts.append(options.duplex)
    if options.bleed:
        parts.append(f"bleed{to_mm(options.bleed):g}mm")
    if any(options.back_offset or ()):
        parts.append(offset_part(options.back_offset))
    if options.guides:
        parts.append("guides")
    if options.ink != FULL_INK:
        parts.append(f"{options.ink}-ink")
    return "-".join(parts) + ".pdf"
