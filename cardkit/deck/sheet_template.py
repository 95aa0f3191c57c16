"""A sheet template: a file that lists the slots of a sheet (where each card or token
goes, its size and rotation), for label stock, a mixed sheet or a layout of one's own,
instead of the automatic grid. Slots are given from the paper's top-left corner, as a
layout's boxes are from the card's; ``grids`` repeat a slot in columns and rows. cardkit
ships some in ``templates/``.

```yaml
paper: a4             # or letter
duplex: true          # backs on the next page, behind their fronts (default false)
guides: true          # cut guides and token outlines (default true; false for labels
                      # cut already)
slots:
  - {x: 10mm, y: 10mm, width: 88.9mm, height: 63.5mm, rotation: 90}
  - {component: tokens, shape: round, x: 10mm, y: 80mm, width: 25mm, height: 25mm}
grids:
  - {component: tokens, shape: square, columns: 8, x: 14.5mm, y: 110mm, width: 20mm,
     height: 20mm, gap_x: 3mm, gap_y: 0mm}
```

A slot holds a card (``component: cards``, the default) or a token (``component:
tokens``) of its ``shape``, round, square or hex; a token slot's size is the rectangle
around the shape (a hex's width is its size across the corners, as the deck's tokens are
measured) and it stands upright. ``inset`` keeps a card's ink that far inside its slot:
for labels cut already (``guides: false``) whose edges lie in the printable border, as
Avery 5160's do (``inset: 0.5mm``). Where each slot may lie is the imposition's to check
(:mod:`cardkit.imposition.templates`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import InputError, Problem, Problems, Where, did_you_mean
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.files import ROOT
from ..sources.yamlfile import Map, load_yaml
from .tokens import SHAPES, token_extent

TEMPLATES_DIR = ROOT / "templates"
TEMPLATE_KEYS = ("description", "paper", "duplex", "guides", "slots", "grids")
SLOT_KEYS = ("component", "shape", "x", "y", "width", "height", "rotation", "inset")
GRID_KEYS = SLOT_KEYS + ("columns", "rows", "gap_x", "gap_y")
ROTATIONS = (0, 90, 180, 270)  # anticlockwise
COMPONENTS = ("cards", "tokens")
FIT = 0.05 * MM  # how near a slot's size must be to what goes in it
PAPERS = ("a4", "letter")
MAX_SLOTS = 1000
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class TemplateSlot:
    """A slot: its top-left corner from the paper's top-left, its size as it lies on the
    paper (points), the angle the card in it is turned anticlockwise, and where it is
    written; what goes in it (``shape`` None: a card, else a token of that shape); how far
    inside it a card's ink is kept."""

    x: float
    y: float
    width: float
    height: float
    rotation: int
    where: Where
    shape: str | None = None
    inset: float = 0.0


@dataclass(frozen=True)
class SheetTemplate:
    name: str
    paper: str
    duplex: bool
    guides: bool
    slots: tuple[TemplateSlot, ...]
    path: Path

    @property
    def has_tokens(self) -> bool:
        return any(slot.shape for slot in self.slots)


def bundled_templates() -> dict[str, Path]:
    return {p.stem: p for p in sorted(TEMPLATES_DIR.glob("*.yaml"))}


def load_template(name: str) -> SheetTemplate:
    """The template named ``name`` (a bundled one) or at the path ``name``; InputError
    naming the line of each mistake."""
    path = Path(name)
    if not path.suffix:
        found = bundled_templates().get(name)
        if found is None:
            raise InputError([Problem(Where(name), f"no sheet template '{name}'",
                                      did_you_mean(name, bundled_templates()) +
                                      " (a bundled template's name or a .yaml file)")])
        path = found
    data = load_yaml(path)
    problems = Problems()
    where = getattr(data, "where", Where(path, 1))
    if not checks.expect_map(problems, data, where, "a sheet template"):
        problems.check()
    checks.check_keys(problems, data, TEMPLATE_KEYS, ("paper",), "the sheet template")
    paper = checks.get_choice(problems, data, "paper", PAPERS)
    duplex = checks.get_bool(problems, data, "duplex", False)
    guides = checks.get_bool(problems, data, "guides", True)
    slots = []
    for key, keys in (("slots", SLOT_KEYS), ("grids", GRID_KEYS)):
        entries = data.get(key)
        if entries is None or not checks.expect_list(problems, entries, data.at(key), key):
            continue
        for index, entry in enumerate(entries):
            if checks.expect_map(problems, entry, entries.at(index), f"each of '{key}'"):
                slots += _slots(problems, entry, keys)
    if not slots and not problems:
        problems.add(where, "the template has no slots", "add 'slots:' or 'grids:'")
    if len(slots) > MAX_SLOTS:
        problems.add(where, f"the template has {len(slots)} slots", f"give at most {MAX_SLOTS}")
    problems.check()
    stem = path.stem.lower() if NAME.match(path.stem.lower()) else "template"
    return SheetTemplate(stem, paper, duplex, guides, tuple(slots), path)


def _slots(problems: Problems, entry: Map, keys) -> list[TemplateSlot]:
    before = len(problems.items)
    # a misspelt key is one mistake: not also a missing one
    if checks.check_keys(problems, entry, keys, (), "a slot"):
        checks.check_keys(problems, entry, keys, ("x", "y", "width", "height"), "a slot")
    lengths = {}
    for key in ("x", "y", "width", "height", "gap_x", "gap_y"):
        if key in entry:
            lengths[key] = checks.length(problems, entry[key], entry.at(key), key, minimum=0)
    if "inset" in entry:
        lengths["inset"] = checks.length(problems, entry["inset"], entry.at("inset"), "inset",
                                         minimum=0)
    rotation = entry.get("rotation", 0)
    if rotation not in ROTATIONS:
        problems.add(entry.at("rotation"), f"rotation cannot be {rotation!r}",
                     "use 0, 90, 180 or 270 (degrees anticlockwise)")
    columns = checks.get_int(problems, entry, "columns", 1, minimum=1)
    rows = checks.get_int(problems, entry, "rows", 1, minimum=1)
    component = checks.get_choice(problems, entry, "component", COMPONENTS, "cards")
    shape = _shape(problems, entry, component)
    if len(problems.items) > before:
        return []
    if not _fits(problems, entry, shape, lengths):
        return []
    if columns * rows > MAX_SLOTS:
        problems.add(entry.where, f"{columns} x {rows} slots", f"give at most {MAX_SLOTS}")
        return []
    width, height = lengths["width"], lengths["height"]
    step_x = width + lengths.get("gap_x", 0.0)
    step_y = height + lengths.get("gap_y", 0.0)
    return [TemplateSlot(lengths["x"] + c * step_x, lengths["y"] + r * step_y, width, height,
                         rotation, entry.where, shape, lengths.get("inset", 0.0))
            for r in range(rows) for c in range(columns)]


def _shape(problems: Problems, entry: Map, component: str | None) -> str | None:
    """The token shape of a token slot (None for a card's), its mistakes added."""
    if component == "cards" and "shape" in entry:
        problems.add(entry.key_at("shape"), "a card slot has no shape",
                     "add 'component: tokens' for a token slot, or leave 'shape' out")
    if component != "tokens":
        return None
    for key, why in (("rotation", "a token slot stands upright"),
                     ("inset", "a token's ink is clipped to its own outline")):
        if key in entry:
            problems.add(entry.key_at(key), f"a token slot takes no '{key}'",
                         f"leave it out: {why}")
    if "shape" not in entry:
        problems.add(entry.where, "a token slot has no 'shape'",
                     "add 'shape: round', 'square' or 'hex'")
        return None
    return checks.get_choice(problems, entry, "shape", SHAPES)


def _fits(problems: Problems, entry: Map, shape: str | None, lengths: dict) -> bool:
    """Whether the slot's size suits what goes in it: a token slot is the rectangle around
    its shape, a card's inset leaves some of the card."""
    width, height = lengths["width"], lengths["height"]
    if shape is not None:
        wide = token_extent(shape, height)[0]
        if abs(width - wide) > FIT:
            problems.add(entry.at("width"), f"a {shape} token slot {to_mm(height):g} mm high "
                         f"must be {to_mm(wide):.2f} mm wide, not {to_mm(width):g} mm",
                         f"give 'width: {to_mm(wide):.2f}mm'" + (
                             " (across its corners)" if shape == "hex" else ""))
            return False
    inset = lengths.get("inset", 0.0)
    if 2 * inset >= min(width, height) > 0:
        problems.add(entry.at("inset"), f"an inset of {to_mm(inset):g} mm leaves nothing of a "
                     f"{to_mm(width):g} x {to_mm(height):g} mm slot",
                     "give an inset of less than half its smaller side")
        return False
    return True
