"""A sheet template: a file that lists the slots of a sheet (where each card goes, its
size and rotation), for label stock or a layout of one's own, instead of the automatic
grid. Slots are given from the paper's top-left corner, as a layout's boxes are from the
card's; ``grids`` repeat a slot in columns and rows. cardkit ships some in ``templates/``.

```yaml
paper: a4             # or letter
duplex: true          # backs on the next page, behind their fronts (default false)
guides: true          # cut guides (default true; false for labels cut already)
slots:
  - {x: 10mm, y: 10mm, width: 63.5mm, height: 88.9mm, rotation: 90}
grids:
  - {columns: 3, rows: 7, x: 7.25mm, y: 15.15mm, width: 63.5mm, height: 38.1mm,
     gap_x: 2.5mm, gap_y: 0mm}
```
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import InputError, Problem, Problems, Where, did_you_mean
from ..sources import checks
from ..sources.files import ROOT
from ..sources.yamlfile import Map, load_yaml

TEMPLATES_DIR = ROOT / "templates"
TEMPLATE_KEYS = ("description", "paper", "duplex", "guides", "slots", "grids")
SLOT_KEYS = ("x", "y", "width", "height", "rotation")
GRID_KEYS = SLOT_KEYS + ("columns", "rows", "gap_x", "gap_y")
ROTATIONS = (0, 90, 180, 270)  # anticlockwise
PAPERS = ("a4", "letter")
MAX_SLOTS = 1000
NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


@dataclass(frozen=True)
class TemplateSlot:
    """A slot: its top-left corner from the paper's top-left, its size as it lies on the
    paper (points), the angle the card in it is turned anticlockwise, and where it is
    written."""

    x: float
    y: float
    width: float
    height: float
    rotation: int
    where: Where


@dataclass(frozen=True)
class SheetTemplate:
    name: str
    paper: str
    duplex: bool
    guides: bool
    slots: tuple[TemplateSlot, ...]
    path: Path


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
    rotation = entry.get("rotation", 0)
    if rotation not in ROTATIONS:
        problems.add(entry.at("rotation"), f"rotation cannot be {rotation!r}",
                     "use 0, 90, 180 or 270 (degrees anticlockwise)")
    columns = checks.get_int(problems, entry, "columns", 1, minimum=1)
    rows = checks.get_int(problems, entry, "rows", 1, minimum=1)
    if len(problems.items) > before:
        return []
    if columns * rows > MAX_SLOTS:
        problems.add(entry.where, f"{columns} x {rows} slots", f"give at most {MAX_SLOTS}")
        return []
    width, height = lengths["width"], lengths["height"]
    step_x = width + lengths.get("gap_x", 0.0)
    step_y = height + lengths.get("gap_y", 0.0)
    return [TemplateSlot(lengths["x"] + c * step_x, lengths["y"] + r * step_y, width, height,
                         rotation, entry.where) for r in range(rows) for c in range(columns)]
