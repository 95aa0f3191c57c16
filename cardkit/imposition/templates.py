"""Pages laid out by a sheet template (:mod:`cardkit.deck.sheet_template`) instead of the
automatic grid: each card in the next card slot of its size, and each token (its copies
one after another, in the deck's order) in the next token slot of its shape and size, in
the template's order, page after page until both have run out. A duplex template's page of
fronts is followed by its page of backs, placed as the automatic grid's are
(:func:`.sheets.back_slot`), so that each back, a card's or a double-sided token's, lies
behind its front; a token is cut on its own outline, as on a token sheet
(:mod:`.tokens`).

What a slot inks lies inside the printable border: a card slot's trim, less its inset
(a label's ink is kept that far inside it); a token slot's outline grown by the token's
bleed. No cut guide of the cards crosses a token. A card's bleed reaches past its slot only
as far as the gap to its neighbours allows, half of it each, and the printable border: on
butted labels not at all, so that no label carries its neighbour's colour."""

from __future__ import annotations

import math

from ..common.units import MM
from ..deck.sheet_template import FIT, SheetTemplate, TemplateSlot
from .paper import PAPER_NAMES, PAPERS, PRINTABLE_BORDER
from .sheets import (TOKEN_BLEED, Grid, Page, Pages, Plan, SheetError, SheetOptions, Slot,
                     back_slot, cut_guides, footer_spaces, mirrors_columns)
from .tokens import TokenSlot


def template_pages(count: int, width: float, height: float, template: SheetTemplate,
                   options: SheetOptions, tokens=()) -> Plan:
    """The pages for ``count`` cards of ``width`` x ``height`` and ``tokens``, each (shape,
    width, height, copies, double-sided) as :func:`.tokens.token_pages` takes them, on
    ``template``; SheetError when something has no slot or a slot is misplaced."""
    paper_w, paper_h = PAPERS[template.paper]
    cards = []
    for slot in template.slots:
        turned = {270: -90}.get(slot.rotation, slot.rotation)
        size = (height, width) if turned in (90, -90) else (width, height)
        if slot.shape is None and _fits(slot, *size):
            _check_border(slot, template)
            x, y = _corner(slot, paper_h)
            cards.append(Slot(x, y, slot.width, slot.height, 0, "front", turned,
                              _reach(slot, template, options.bleed)))
    if not cards:
        raise SheetError(f"sheet template {template.name} has no slot of "
                         f"{width / MM:g} x {height / MM:g} mm, the deck's card size",
                         "use a template made for this card size")
    queues = _token_queues(tokens, template, paper_h)
    sheets = max([-(-count // len(cards))] +
                 [-(-len(queue) // len(spots)) for spots, queue, _ in queues])
    sides = 2 if template.duplex else 1
    columns = mirrors_columns(options.duplex or "long", paper_w, paper_h)

    def turn(these):
        return tuple(back_slot(s, columns, paper_w, paper_h, options.back_offset or (0.0, 0.0))
                     for s in these)

    whole_tokens = tuple(spot for spots, _, _ in queues for spot in spots)
    wholes = [Page(paper_w, paper_h, tuple(cards), "", tokens=whole_tokens)]
    if sides == 2:
        wholes.append(Page(paper_w, paper_h, turn(cards), "", tokens=turn(whole_tokens)))
    for filled in {len(cards), count % len(cards) or len(cards)}:  # a full page, the last
        _check_guides(_with_guides(Page(paper_w, paper_h, tuple(cards[:filled]), ""),
                                   template, options.bleed), queues)
    # the footer where a full page has it, not floating up on a last page part filled
    footers = [tuple(footer_spaces(_with_guides(whole, template, options.bleed),
                                   options.bleed)) for whole in wholes]

    def page(index: int) -> Page:
        sheet, side = divmod(index, sides)
        first = sheet * len(cards)
        slots = tuple(Slot(s.x, s.y, s.width, s.height, i, "front", s.turned, s.reach)
                      for s, i in zip(cards, range(first, min(first + len(cards), count))))
        placed = tuple(TokenSlot(s.x, s.y, s.width, s.height, s.shape, i, "front")
                       for spots, queue, _ in queues
                       for s, i in zip(spots, queue[sheet * len(spots):]))
        if side:
            slots = turn(slots)
            placed = turn(s for s in placed if tokens[s.index][4])
        label = f"{('fronts', 'backs')[side]} {sheet + 1}/{sheets}" if sides == 2 else \
            f"sheet {sheet + 1}/{sheets}"
        return _with_guides(Page(paper_w, paper_h, slots, label, footer=footers[side],
                                 tokens=placed, token_outlines=template.guides),
                            template, options.bleed)

    return Plan(Pages(sides * sheets, page), Grid(paper_w, paper_h, len(cards), 1),
                options.bleed)


def _fits(slot: TemplateSlot, width: float, height: float) -> bool:
    return abs(slot.width - width) <= FIT and abs(slot.height - height) <= FIT


def _corner(slot: TemplateSlot, paper_h: float) -> tuple[float, float]:
    """The slot's lower-left corner from the paper's (PDF's), its top-left given from the
    paper's top-left."""
    return slot.x, paper_h - slot.y - slot.height


def _reach(slot: TemplateSlot, template: SheetTemplate, bleed: float) -> tuple:
    """How far a card's ink may reach past each edge of its slot (left, bottom, right,
    top): its inset inside, or the bleed as far as half the gap to the nearest slot on that
    side (or any slot whose bleed could meet it) and the printable border allow."""
    if slot.inset:
        return (-slot.inset,) * 4
    paper_w, paper_h = PAPERS[template.paper]
    left, bottom = _corner(slot, paper_h)
    right, top = left + slot.width, bottom + slot.height
    room = [left - PRINTABLE_BORDER, bottom - PRINTABLE_BORDER,
            paper_w - PRINTABLE_BORDER - right, paper_h - PRINTABLE_BORDER - top]
    for other in template.slots:
        if other is slot:
            continue
        x1, y1 = _corner(other, paper_h)
        x2, y2 = x1 + other.width, y1 + other.height
        across = y1 < top + 2 * bleed and y2 > bottom - 2 * bleed  # beside it
        along = x1 < right + 2 * bleed and x2 > left - 2 * bleed  # above or below it
        for side, gap, near in ((0, left - x2, across), (1, bottom - y2, along),
                                (2, x1 - right, across), (3, y1 - top, along)):
            if near and gap >= -FIT:
                room[side] = min(room[side], gap / 2)
    return tuple(max(0.0, min(bleed, r)) for r in room)


def _check_border(slot: TemplateSlot, template: SheetTemplate) -> None:
    """SheetError unless what the slot inks lies inside the printable border: a token's
    art, which runs past its outline; a card's trim, whose cut guides must print; a label's
    trim less its inset."""
    paper_w, paper_h = PAPERS[template.paper]
    inside = -TOKEN_BLEED if slot.shape else slot.inset if not template.guides else 0.0
    x, y = _corner(slot, paper_h)
    reach = max(PRINTABLE_BORDER - x, PRINTABLE_BORDER - y, x + slot.width - paper_w +
                PRINTABLE_BORDER, y + slot.height - paper_h + PRINTABLE_BORDER) - inside
    if reach <= 1e-6:
        return
    if slot.shape:
        fix = "move it inside: a token's art reaches 1 mm past its outline"
    elif template.guides:
        fix = "move it inside: its cut guides must print"
    else:  # the inset that would do, rounded up to the 0.01 mm shown
        fix = ("move it inside, or keep the ink inside the label with "
               f"'inset: {math.ceil((inside + reach) / MM * 100) / 100:.2f}mm' or more")
    raise SheetError(f"a slot reaches {reach / MM:.2f} mm into the 5 mm printable border of "
                     f"{PAPER_NAMES[template.paper]}", fix, slot.where)


def _token_queues(tokens, template: SheetTemplate, paper_h: float) -> list[tuple]:
    """For each size of token slot the tokens use: its slots (TokenSlots of no token yet),
    the tokens that go in them, one index a copy, and the template's slots they are."""
    queues: dict[tuple, list[int]] = {}
    for index, (shape, width, height, copies, _) in enumerate(tokens):
        spots = tuple(s for s in template.slots if s.shape == shape and _fits(s, width, height))
        if not spots:
            sizes = sorted({f"{s.shape} {s.height / MM:g} mm" for s in template.slots
                            if s.shape})
            raise SheetError(f"a {shape} token {height / MM:g} mm across has no slot in sheet "
                             f"template {template.name}, whose token slots are "
                             f"{', '.join(sizes) or 'none'}",
                             "give the token one of those sizes, or print it on a token sheet "
                             "('cardkit tokens')", token=index)
        queues.setdefault(spots, []).extend([index] * copies)
    found = []
    for spots, queue in queues.items():
        for slot in spots:
            _check_border(slot, template)
        found.append((tuple(TokenSlot(*_corner(s, paper_h), s.width, s.height, s.shape, 0,
                                      "front") for s in spots), queue, spots))
    return found


def _with_guides(page: Page, template: SheetTemplate, bleed: float) -> Page:
    """The page with its cards' cut guides, if the template has them."""
    if not template.guides or not page.slots:
        return page
    return page._replace(guides=cut_guides(page.width, page.height, page.slots, bleed))


def _check_guides(page: Page, queues) -> None:
    """SheetError when a cut guide of the page's cards runs into a token slot (its bleed
    included); the backs' guides and tokens are the fronts' mirrored."""
    for placed, _, spots in queues:
        for token, slot in zip(placed, spots):
            x1, y1 = token.x - TOKEN_BLEED, token.y - TOKEN_BLEED
            x2, y2 = token.x + token.width + TOKEN_BLEED, token.y + token.height + TOKEN_BLEED
            if any(min(g.x1, g.x2) < x2 and max(g.x1, g.x2) > x1 and
                   min(g.y1, g.y2) < y2 and max(g.y1, g.y2) > y1 for g in page.guides):
                raise SheetError("a cut guide of the cards runs into this token slot",
                                 "move it at least 6 mm from the cards, clear of their crop "
                                 "marks", slot.where)
