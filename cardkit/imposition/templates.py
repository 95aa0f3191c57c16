"""Pages laid out by a sheet template (:mod:`cardkit.deck.sheet_template`) instead of the
automatic grid: each card in the next slot of its size, in the template's order, page
after page. A duplex template's page of fronts is followed by its page of backs, placed as
the automatic grid's are (:func:`.sheets.back_slot`), so each back lies behind its front.
Every slot a card goes in must lie inside the printable border, unless the template prints
no cut guides (labels cut already, whose edges need no guide)."""

from __future__ import annotations

from dataclasses import replace

from ..common.units import MM
from ..deck.sheet_template import SheetTemplate
from .sheets import (PAPER_NAMES, PAPERS, PRINTABLE_BORDER, Grid, Page, Pages, Plan, SheetError,
                     SheetOptions, Slot, _marks, back_slot, mirrors_columns)

FIT = 0.05 * MM  # how near a slot's size must be to the card's


def template_pages(count: int, width: float, height: float, template: SheetTemplate,
                   options: SheetOptions) -> Plan:
    """The pages for ``count`` cards of ``width`` x ``height`` on ``template``."""
    paper_w, paper_h = PAPERS[template.paper]
    spots = []
    for slot in template.slots:
        turned = {270: -90}.get(slot.rotation, slot.rotation)
        size = (height, width) if turned in (90, -90) else (width, height)
        if abs(slot.width - size[0]) > FIT or abs(slot.height - size[1]) > FIT:
            continue
        x, y = slot.x, paper_h - slot.y - slot.height  # from the top-left to PDF's corner
        inside = (PRINTABLE_BORDER - 1e-6 <= min(x, y) and
                  x + slot.width <= paper_w - PRINTABLE_BORDER + 1e-6 and
                  y + slot.height <= paper_h - PRINTABLE_BORDER + 1e-6)
        if template.guides and not inside:
            raise SheetError(f"{slot.where}: a slot reaches into the 5 mm printable border "
                             f"of {PAPER_NAMES[template.paper]}",
                             "move it inside, or say 'guides: false' for labels cut already")
        spots.append((x, y, slot.width, slot.height, turned))
    if not spots:
        raise SheetError(f"sheet template {template.name} has no slot of "
                         f"{width / MM:g} x {height / MM:g} mm, the deck's card size",
                         "use a template made for this card size")
    sides = 2 if template.duplex else 1
    sheets = -(-count // len(spots))
    columns = mirrors_columns(options.duplex or "long", paper_w, paper_h)

    def page(index: int) -> Page:
        sheet, side = divmod(index, sides)
        first = sheet * len(spots)
        slots = tuple(Slot(x, y, w, h, i, "front", turned) for (x, y, w, h, turned), i
                      in zip(spots, range(first, min(first + len(spots), count))))
        whole = tuple(Slot(x, y, w, h, 0, "front", turned) for x, y, w, h, turned in spots)
        if side:
            slots, whole = (tuple(back_slot(s, columns, paper_w, paper_h,
                                            options.back_offset or (0.0, 0.0)) for s in these)
                            for these in (slots, whole))
        # the footer where a full page has it, not floating up on a last page part filled
        marks = _marks(paper_w, paper_h, slots, options.bleed, whole=whole)
        if not template.guides:
            marks = replace(marks, guides=())
        label = f"{('fronts', 'backs')[side]} {sheet + 1}/{sheets}" if sides == 2 else \
            f"sheet {sheet + 1}/{sheets}"
        return replace(marks, label=label)

    return Plan(Pages(sides * sheets, page), Grid(paper_w, paper_h, len(spots), 1),
                options.bleed)
