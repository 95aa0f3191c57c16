"""The studio moves and resizes a layout element's box in the layout file (issue 59).

The page names a card by its number, a side and an element by its name; which file is
written, and where in it, is the deck's say: the layout the card's side is drawn with, and
the place its loader read the element's ``box:`` from (a layout it extends, when the box
is not its own). Only the box's numbers change (:mod:`cardkit.sources.rewrite_box`), each
in the unit it is written in, through the same checked writer as a card's field
(:func:`.edits.write_checked`: the file's version, never through a link). The new box is
checked as ``validate`` checks it, with its words: a box that is not four lengths, has a
negative width or height, or reaches outside the card (a bleed element's: past the bleed
allowance) is refused.

A layout that ships with cardkit, or one outside the deck's folder, is not written: the
page says why.
"""

from __future__ import annotations

import math
from pathlib import Path

from ..common.atomic import read_below
from ..common.errors import Problems, Where
from ..common.units import MM, POINTS_PER_UNIT, UnitError, parse_length
from ..deck.layout import parse_box
from ..render.card import BACK, BLEED_ALLOWANCE, FRONT, outside_finding, outside_sides
from ..sources.files import BUNDLED_DECKS, BUNDLED_LAYOUTS
from ..sources.rewrite import NotRewritten
from ..sources.rewrite_box import PARTS, number_unit, replace_yaml_box, written_box
from ..sources.yamlfile import Seq
from .edits import Refused, Saved, _unwritable, version_of, write_checked

BUNDLED_LAYOUT_WHY = ("this layout ships with cardkit: copy it into your deck's layouts/ "
                      "folder to change it")
# how many decimals a new length is written with, in each unit (a snapped box is whole mm)
DECIMALS = {"mm": 2, "cm": 3, "in": 4, "pt": 2, "%": 3}
MOST_MM = 10_000  # a box length beyond 10 m is no box (common.units.MAX_LENGTH)


def layout_of(card, side: str):
    """The layout ``card``'s ``side`` ('front' or 'back') is drawn with."""
    return card.front if side == FRONT else card.back.layout


def box_file(element) -> Path:
    """The file an element's box is written in, as the page names it."""
    return Path(element.box_at.file).absolute()


def why_fixed(path: Path, root: Path) -> str:
    """Why the studio does not write the layout file ``path`` of the deck in ``root`` (''
    when it does)."""
    if any(path.resolve().is_relative_to(bundled.resolve())
           for bundled in (BUNDLED_LAYOUTS, BUNDLED_DECKS)):
        return BUNDLED_LAYOUT_WHY
    if root.absolute() not in path.parents:
        return f"this layout is {path}, outside the deck's folder: change it there"
    return ""


def layout_files(deck, root: Path) -> dict[str, dict]:
    """What the page is told of each layout file a card's element box is written in: its
    version (a hash of its bytes) and why the studio does not write it ('' when it
    does)."""
    files: dict[str, dict] = {}
    layouts = {id(layout): layout for card in deck.cards
               for layout in (layout_of(card, side) for side in (FRONT, BACK))}
    for layout in layouts.values():
        for element in layout.elements:
            path = box_file(element)
            if str(path) in files:
                continue
            why, version = why_fixed(path, root), ""
            if not why:
                try:
                    version = version_of(read_below(path, root))
                except OSError as error:  # a link, a FIFO: never read, and never written
                    why = _unwritable(path, error)
            files[str(path)] = {"version": version, "why": why}
    return files


def element_of(deck, number: int, side: str, name: str):
    """The layout and the element named ``name`` on card ``number``'s ``side``; raises
    :class:`Refused` when there is none."""
    card = next((card for card in deck.cards if card.number == number), None)
    if card is None or side not in (FRONT, BACK):
        raise Refused(f"the deck has no card {number} with a {side}", "reload the page")
    layout = layout_of(card, side)
    element = next((element for element in layout.elements if element.name == name), None)
    if element is None:
        raise Refused(f"layout '{layout.name}' has no element '{name}'", "reload the page")
    return layout, element


def move_box(deck, root: Path, number: int, side: str, name: str, mm: dict,
             version: str, drawn: dict | None = None) -> Saved:
    """Write the box of element ``name`` on card ``number``'s ``side`` with the lengths
    ``mm`` gives (any of x, y, width, height, in millimetres from the card's top left)
    into the layout file its box is written in, if that file is still at ``version`` (and
    ``deck`` was drawn from that version: ``drawn`` maps each file to the version it was,
    when given); the other lengths, and every other byte, stay as written. Raises
    :class:`Refused` (a file the studio does not write, a box validate refuses) or
    :class:`.edits.Conflict`."""
    layout, element = element_of(deck, number, side, name)
    path, at = box_file(element), element.box_at
    why = why_fixed(path, root)
    if why:
        raise Refused(why)
    box = element.box
    wanted = [box.x, box.y, box.width, box.height]
    for index, part in enumerate(PARTS):
        if part in mm:
            wanted[index] = mm[part] * MM
    _check(layout, element, wanted, at)
    spans = (*layout.card_size, *layout.card_size)

    def rewritten(data: bytes) -> bytes:
        try:
            written = written_box(data, at.line, at.col)
            parts = _new_parts(written, wanted, spans)
            return data if parts == [None] * 4 else \
                replace_yaml_box(data, at.line, at.col, parts)
        except NotRewritten as error:
            raise Refused(error.what, error.fix, at) from None

    def now(data: bytes) -> str | None:
        try:
            written = written_box(data, at.line, at.col)
        except NotRewritten:
            return None
        return "card" if written is None else "[" + ", ".join(written) + "]"

    return write_checked(path, root, version, rewritten, now,
                         None if drawn is None else drawn.get(str(path), ""))


def _check(layout, element, wanted: list[float], at: Where) -> None:
    """Refuse the box ``wanted`` (points) as validate would: not lengths, a negative width
    or height, outside the card (or past the bleed allowance, for a bleed element)."""
    if not all(math.isfinite(value) and abs(value) <= MOST_MM * MM for value in wanted):
        raise Refused("a box is four lengths of at most 10 m", "move it back", at)
    problems = Problems()
    lengths = Seq(f"{value / MM:.4f}mm" for value in wanted)
    lengths.where, lengths.item_where = at, [at] * 4
    if parse_box(problems, lengths, at, *layout.card_size) is None:
        found = problems.items[0]
        raise Refused(found.what, found.fix, at)
    x, y, width, height = wanted
    sides = outside_sides((x, y, x + width, y + height), layout.card_size,
                          BLEED_ALLOWANCE if element.bleed else 0.0)
    if sides:
        what, fix = outside_finding(element, sides)
        raise Refused(f"layout '{layout.name}', element '{element.name}': {what}", fix, at)


def _new_parts(written: list[str] | None, wanted: list[float], spans) -> list[str | None]:
    """Each length of the box to write (None: as written): a length that changes is
    written in the unit it was written in (millimetres for a box written as 'card')."""
    if written is None:
        return [length_text(value, "mm", span) for value, span in zip(wanted, spans)]
    parts = []
    for text, value, span in zip(written, wanted, spans):
        try:
            now = parse_length(text, percent_of=span)
        except UnitError as error:
            raise NotRewritten(f"box {text!r}: {error}") from None
        unit = number_unit(text)[1]
        parts.append(None if abs(now - value) < 0.001 * MM else length_text(value, unit, span))
    return parts


def length_text(points: float, unit: str, span: float) -> str:
    """``points`` written as a length in ``unit`` ('%': of ``span``), to a sensible number
    of decimals.

    >>> length_text(7 * MM, "mm", 1), length_text(7 * MM, "in", 1), length_text(-0.0, "pt", 1)
    ('7mm', '0.2756in', '0pt')
    """
    number = points / span * 100 if unit == "%" else points / POINTS_PER_UNIT[unit]
    text = f"{number:.{DECIMALS[unit]}f}".rstrip("0").rstrip(".")
    return ("0" if text in ("", "-0") else text) + unit
