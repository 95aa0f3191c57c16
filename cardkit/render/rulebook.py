"""A rulebook's blocks (:mod:`cardkit.deck.rulebook`) as reportlab flowables: headings,
paragraphs, nested lists, tables, and cards drawn as they print.

Text is laid out and painted by the card text's own code (:func:`.textfit.fit_text`,
:func:`.textpaint.set_text`), so ``**bold**``, ``*italic*`` and ``{icon}`` look in the rules as
they do on the cards. A card is drawn once into a PDF form (vector, its pictures at their
own resolution) and placed, at true size or smaller, wherever the rules show it. The fonts
and colours are the deck's own: see :func:`deck_look`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from reportlab.lib import colors
from reportlab.platypus import Flowable, Table, TableStyle
from reportlab.platypus.flowables import HRFlowable

from ..assets.catalog import BUNDLED, Assets
from ..assets.fonts import bold, missing_chars, string_width
from ..common.units import MM
from ..deck.model import Deck
from ..deck.rulebook import CardsShown, Rulebook
from ..sources import rulebook as md
from .card import FRONT, CardRenderer
from .textpaint import set_line, set_text
from .textfit import TextBlock, fit_text
from .textmarkup import words

BODY_SIZE, LEADING = 10.0, 1.35
HEADING_SIZES = {1: 22.0, 2: 15.0, 3: 12.0}
INDENT = 6 * MM  # a list level
CARD_GAP = 5 * MM  # between the cards of a row
CAPTION_SIZE = 8.0
SMALLEST_SIZE = 6.0  # no text of a rulebook is set smaller, on the smallest page either
TRIM_LINE = colors.HexColor("#b0b0b0")  # the card's edge, where a white card meets the page
TABLE_LINE = colors.HexColor("#c8c8c8")
INK = colors.HexColor("#1a1a1a")
UNBOUNDED = 1e9  # the height a paragraph is laid out in: pages split it, not the box


@dataclass(frozen=True)
class Look:
    """A rulebook's type and colours: ``body`` and ``heading`` fonts (registered names)
    and an ``accent`` colour for headings, bullets and table heads."""

    body: str
    heading: str
    accent: colors.Color
    tint: colors.Color  # the accent, light: behind a table's head


def deck_look(deck: Deck, renderer: CardRenderer) -> Look:
    """The look of the deck's fronts, one card of each front layout resolved: the body
    font is the one its longest text is set in, the heading font the one of its largest
    text, and the accent its most colourful colour (darkened until text in it reads on
    white paper)."""
    texts, paints = [], []
    firsts: dict = {}  # each front layout's first card
    for card in deck.cards:
        firsts.setdefault(id(card.front), card)
    for card in firsts.values():
        for item in renderer.resolve(card, FRONT):
            props = item.props
            if item.text is not None:
                texts.append((props["font"], len(props["text"]), item.text.size))
                paints.append(props["colour"])
            paints += [props.get("fill"), props.get("stroke")]
    body = max(texts, key=lambda t: t[1])[0] if texts else "Lato"
    heading = max(texts, key=lambda t: t[2])[0] if texts else bold(body)
    usable = [c for c in paints if isinstance(c, colors.Color)]
    accent = max(usable, key=_chroma, default=INK)
    if _chroma(accent) < 0.2:
        accent = INK
    while _luminance(accent) > 0.18:  # 4.5:1 against white, as for body text
        accent = colors.Color(accent.red * 0.9, accent.green * 0.9, accent.blue * 0.9)
    tint = colors.Color(*(0.85 + 0.15 * c for c in (accent.red, accent.green, accent.blue)))
    return Look(body, heading, colors.Color(accent.red, accent.green, accent.blue), tint)


def _chroma(colour: colors.Color) -> float:
    channels = (colour.red, colour.green, colour.blue)
    return (max(channels) - min(channels)) * getattr(colour, "alpha", 1)


def _luminance(colour: colors.Color) -> float:
    def linear(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    return 0.2126 * linear(colour.red) + 0.7152 * linear(colour.green) + \
        0.0722 * linear(colour.blue)


def heading_font(look: Look, level: int) -> str:
    """The font of a heading: the deck's display font, for the third level its body's
    bold."""
    return look.heading if level < 3 else bold(look.body)


def missing_glyphs(rulebook: Rulebook, look: Look) -> list[tuple[int, str, str]]:
    """(line of rules.md, font, characters) for each text of the rules whose font (or its
    bold or italic face) has no glyph for some of its characters: they would print as
    empty boxes."""
    found = []

    def check(text: str, font: str, line: int) -> None:
        runs = [run for part in text.split("\n") for run in words(part, font, rulebook.assets)
                if run.icon is None]
        for face in dict.fromkeys(run.font for run in runs):
            missing = missing_chars(face, "".join(run.text for run in runs if run.font == face))
            if missing:
                found.append((line, face, missing))

    def walk(blocks) -> None:
        for block in blocks:
            if isinstance(block, md.Heading):
                check(block.text, heading_font(look, min(block.level, 3)), block.line)
            elif isinstance(block, md.Paragraph):
                check(block.text, look.body, block.line)
            elif isinstance(block, md.ListBlock):
                for item in block.items:
                    walk(item)
            elif isinstance(block, md.Table):
                for text in block.header:
                    check(text, bold(look.body), block.line)
                for text in (cell for row in block.rows for cell in row):
                    check(text, look.body, block.line)
            elif isinstance(block, CardsShown):
                for _, _, caption in block.cards:
                    check(caption, look.body, block.line)
    walk(rulebook.blocks)
    return found


def plain_text(text: str, font: str, assets: Assets = BUNDLED) -> str:
    """A text in card text markup as plain words (an icon by its name), as a PDF outline
    shows a heading.

    >>> plain_text('**Setup** {cup} cards', 'Lato')
    'Setup cup cards'
    """
    return "".join(" " * run.space_before + run.text for run in words(text, font, assets))


def link_spans(lines, size: float, text: str) -> list[tuple[int, float, float]]:
    """Where ``text`` (plain words) is set in ``lines`` at ``size``, its first time: for
    each line it is on, (the line's index, its left and right from the line's start); none
    when it is not there whole."""
    chars, places = [], []  # the lines' text, one "\n" between lines; each char's place
    for index, line in enumerate(lines):
        if index:
            chars.append("\n")
            places.append(None)
        for i, (run, offset) in enumerate(zip(line.runs, line.offsets)):
            if i and run.space_before:
                chars.append(" ")
                places.append(None)
            for j in range(len(run.text)):
                chars.append(run.text[j])
                places.append((index, offset + run.unit_width(run.text[:j]) * size / 1000,
                               offset + run.unit_width(run.text[:j + 1]) * size / 1000))
    found = re.search(r"\s+".join(map(re.escape, text.split())), "".join(chars))
    if not text.split() or found is None:
        return []
    spans: dict[int, tuple[float, float]] = {}
    for place in places[found.start():found.end()]:
        if place is not None:
            line, left, right = place
            low, high = spans.get(line, (left, right))
            spans[line] = (min(low, left), max(high, right))
    return [(line, left, right) for line, (left, right) in spans.items()]


class Text(Flowable):
    """A paragraph in card text markup, wrapped to the frame (less ``indent``), split
    between pages at its lines; ``bullet`` (a text) hangs left of its first line."""

    def __init__(self, text: str, font: str, size: float, colour, assets: Assets,
                 indent: float = 0.0, bullet: str = "", bullet_colour=None,
                 space_before: float = 0.0, space_after: float = 0.0, align: str = "left"):
        super().__init__()
        self.text, self.font, self.size, self.colour = text, font, size, colour
        self.assets, self.indent, self.bullet = assets, indent, bullet
        self.bullet_colour = bullet_colour or colour
        self.spaceBefore, self.spaceAfter, self.align = space_before, space_after, align
        self.block: TextBlock | None = None
        self.outline: tuple[str, int] | None = None  # a heading's: its key and level
        self.links: tuple = ()  # (a link's text in card markup, its address)
        self.lines: tuple | None = None  # the lines laid out, or those a part keeps
        self.part = False  # split off a longer paragraph: its lines are kept as they are
        self.width = 0.0

    def wrap(self, available_width, available_height):
        if self.lines is None or (not self.part and available_width != self.width):
            self.block = fit_text(self.text, self.font, max(1.0, available_width - self.indent),
                                  UNBOUNDED, self.size, None, LEADING, self.assets)
            self.lines = self.block.lines
        self.width = available_width
        self.height = self._height(len(self.lines))
        return self.width, self.height

    def _height(self, count: int) -> float:
        block = self.block
        return block.ascent + block.descent + block.leading * (count - 1) if count else 0.0

    def split(self, available_width, available_height):
        self.wrap(available_width, available_height)
        fit = 0
        while fit < len(self.lines) and self._height(fit + 1) <= available_height:
            fit += 1
        if fit == 0 or fit == len(self.lines):
            return []
        first, rest = (self._part(lines) for lines in (self.lines[:fit], self.lines[fit:]))
        first.spaceAfter, rest.spaceBefore, rest.bullet = 0.0, 0.0, ""
        first.outline = self.outline
        return [first, rest]

    def _part(self, lines) -> Text:
        part = Text(self.text, self.font, self.size, self.colour, self.assets, self.indent,
                    self.bullet, self.bullet_colour, self.spaceBefore, self.spaceAfter,
                    self.align)
        part.block, part.lines, part.part = self.block, lines, True
        part.links = self.links
        return part

    def draw(self):
        block, canvas = self.block, self.canv
        if self.outline is not None:  # an entry of the PDF's outline (bookmarks)
            key, level = self.outline
            canvas.bookmarkHorizontal(key, 0, self.height)
            canvas.addOutlineEntry(plain_text(self.text, self.font, self.assets), key, level)
        width = self.width - self.indent
        origins = []
        baseline = self.height - block.ascent
        for line in self.lines:
            spare = width - line.width
            x = {"left": 0.0, "center": spare / 2, "right": spare}[self.align]
            origins.append((self.indent + x, baseline))
            baseline -= block.leading
        set_text(canvas, block._replace(lines=self.lines), origins, self.colour)
        for text, address in self.links:  # clickable where its words are
            for line, left, right in link_spans(self.lines, block.size,
                                                plain_text(text, self.font, self.assets)):
                x, baseline = origins[line]
                canvas.linkURL(address, (x + left, baseline - block.descent, x + right,
                                         baseline + block.ascent), relative=1, thickness=0)
        if self.bullet:
            canvas.setFont(self.font, self.size)
            canvas.setFillColor(self.bullet_colour)
            set_line(canvas, self.indent - 0.5 * self.size, self.height - block.ascent,
                     self.bullet, "right")


class CardRow(Flowable):
    """Cards side by side, each drawn as it prints, at true size or as much smaller as
    the row needs to fit the frame; each card's caption is centred under it."""

    def __init__(self, shown: CardsShown, renderer: CardRenderer, deck: Deck, look: Look,
                 assets: Assets, frame_height: float):
        super().__init__()
        self.shown, self.renderer, self.deck = shown, renderer, deck
        self.look, self.assets = look, assets
        self.spaceBefore = self.spaceAfter = 4 * MM
        self.captions = CAPTION_SIZE * 2 if any(c for _, _, c in shown.cards) else 0.0
        # a card taller than a page (a poster-sized one) is shrunk to the page: at most
        # most of the frame, so that a heading still fits above it
        self.tallest = frame_height * 0.85 - self.captions

    def wrap(self, available_width, available_height):
        count, size = len(self.shown.cards), self.deck.size
        self.scale = min(1.0, (available_width - CARD_GAP * (count - 1)) / (size.width * count),
                         self.tallest / size.height)
        self.width = available_width
        self.height = size.height * self.scale + self.captions
        return self.width, self.height

    def draw(self):
        canvas, size, scale = self.canv, self.deck.size, self.scale
        count = len(self.shown.cards)
        row = size.width * scale * count + CARD_GAP * (count - 1)
        x = (self.width - row) / 2
        bottom = self.height - size.height * scale
        for card, side, caption in self.shown.cards:
            name = card_form(canvas, self.renderer, card, side, size.width, size.height)
            canvas.saveState()
            canvas.translate(x, bottom)
            canvas.scale(scale, scale)
            canvas.doForm(name)
            canvas.setStrokeColor(TRIM_LINE)
            canvas.setLineWidth(0.5 / scale)
            canvas.rect(0, 0, size.width, size.height, stroke=1, fill=0)
            canvas.restoreState()
            if caption:
                block = fit_text(caption, self.look.body, size.width * scale, UNBOUNDED,
                                 CAPTION_SIZE, None, LEADING, self.assets)
                line = block.lines[0]
                set_text(canvas, block._replace(lines=(line,)),
                         [(x + (size.width * scale - line.width) / 2,
                           bottom - CAPTION_SIZE * 1.4)], INK)
            x += size.width * scale + CARD_GAP


def card_form(canvas, renderer: CardRenderer, card, side: str, width: float,
              height: float) -> str:
    """The name of the PDF form holding ``card``'s ``side`` drawn at true size, drawn
    into the document the first time it is asked for."""
    name = f"card{card.number}{side}"
    if not canvas.hasForm(name):
        canvas.saveState()
        canvas.beginForm(name, 0, 0, width, height)
        renderer.draw(canvas, card, side, 0, 0, width, height)
        canvas.endForm()
        canvas.restoreState()
    return name


class Story:
    """The flowables of a rulebook, in the deck's look."""

    def __init__(self, rulebook: Rulebook, renderer: CardRenderer, look: Look,
                 scale: float = 1.0):
        self.rulebook, self.renderer, self.look = rulebook, renderer, look
        self.assets = rulebook.assets
        self.scale = scale  # of the type and indents: less than 1 on pages smaller than A4
        self.body_size = BODY_SIZE * scale
        self.headings = 0  # so far: each is an outline entry, keyed by its number
        self.outline_level = -1  # the last heading's in the outline (0 at the top)

    def flowables(self, frame_width: float, frame_height: float) -> list:
        self.frame_width, self.frame_height = frame_width, frame_height
        return [f for block in self.rulebook.blocks for f in self.block(block, 0)]

    def paragraph(self, text: str, indent: float = 0.0, bullet: str = "", links=(),
                  **style) -> Text:
        paragraph = Text(text, self.look.body, self.body_size, INK, self.assets, indent,
                         bullet, self.look.accent,
                         **{"space_after": self.body_size * 0.6, **style})
        paragraph.links = links
        return paragraph

    def block(self, block, depth: int) -> list:
        look = self.look
        if isinstance(block, md.Heading):
            level = min(block.level, 3)
            size = HEADING_SIZES[level] * self.scale
            heading = Text(block.text, heading_font(look, level), size, look.accent, self.assets,
                           space_before=size * 0.8, space_after=size * 0.4)
            heading.keepWithNext = True
            # an outline level follows the one before it or is higher: '#' then '###' nests
            # the second once, as a PDF outline cannot skip a level
            self.outline_level = min(block.level - 1, self.outline_level + 1)
            self.headings += 1
            heading.outline = (f"heading{self.headings}", self.outline_level)
            return [heading]
        if isinstance(block, md.Paragraph):
            return [self.paragraph(block.text, depth * INDENT * self.scale,
                                   links=block.links)]
        if isinstance(block, md.ListBlock):
            return self.list(block, depth)
        if isinstance(block, md.Table):
            return [self.table(block)]
        if isinstance(block, CardsShown):
            return [CardRow(block, self.renderer, self.rulebook.deck, look, self.assets,
                            self.frame_height)]
        return [HRFlowable(width="100%", thickness=0.75, color=look.accent,  # md.Rule
                           spaceBefore=6, spaceAfter=8)]

    def list(self, block: md.ListBlock, depth: int) -> list:
        flowables = []
        indent = (depth + 1) * INDENT * self.scale
        for number, item in enumerate(block.items, block.start):
            bullet = f"{number}." if block.ordered else ("•" if depth % 2 == 0 else "–")
            for i, inner in enumerate(item):
                if isinstance(inner, md.Paragraph):
                    flowables.append(self.paragraph(inner.text, indent, bullet if i == 0 else "",
                                                    inner.links,
                                                    space_after=self.body_size * 0.25))
                else:
                    flowables += self.block(inner, depth + 1)
        if flowables and isinstance(flowables[-1], Text):
            flowables[-1].spaceAfter = self.body_size * 0.6
        return flowables

    def table(self, block: md.Table) -> Table:
        look, padding = self.look, 4.0 * self.scale
        header_font = bold(look.body)  # as missing_glyphs checks it
        columns = len(block.header)
        aligns = list(block.aligns) + ["left"] * (columns - len(block.aligns))

        def cell(text, font, colour, align):
            return Text(text, font, max(SMALLEST_SIZE, self.body_size * 0.9), colour,
                        self.assets, align=align)
        rows = [[cell(text, header_font, look.accent, aligns[i])
                 for i, text in enumerate(block.header)]]
        rows += [[cell(row[i] if i < len(row) else "", look.body, INK, aligns[i])
                  for i in range(columns)] for row in block.rows]
        style = TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), look.body),  # else reportlab names Helvetica
            ("BACKGROUND", (0, 0), (-1, 0), look.tint),
            ("LINEBELOW", (0, 0), (-1, -1), 0.5, TABLE_LINE),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), padding),
            ("RIGHTPADDING", (0, 0), (-1, -1), padding),
            ("TOPPADDING", (0, 0), (-1, -1), padding * 0.75),
            ("BOTTOMPADDING", (0, 0), (-1, -1), padding)])
        table = RowsTable(rows, column_widths(rows, self.frame_width, 2 * padding), style,
                          (padding * 0.75, padding), 2 * padding)
        table.spaceBefore, table.spaceAfter = 2, self.body_size
        return table


class RowsTable(Flowable):
    """A table of ``rows`` of :class:`Text` cells (the first its head, repeated atop each
    page) that pages split between rows in linear time: reportlab's Table measures every
    row left at each page it splits off (and looks for each unmeasured row from the
    start), which made a table of 8,000 rows take minutes. Here each row is measured once,
    and each page draws a reportlab Table of the head and the rows that fit it."""

    def __init__(self, rows: list, widths: list[float], style: TableStyle,
                 vertical_padding: tuple[float, float], horizontal_padding: float,
                 first: int = 1, heights: list[float] | None = None):
        super().__init__()
        self.rows, self.widths, self.style = rows, widths, style
        self.padding = vertical_padding, horizontal_padding
        self.first = first  # the first body row this part holds
        self.heights = heights  # each row's, measured once, shared by the parts
        self.hAlign, self.spaceBefore, self.spaceAfter = "LEFT", 0.0, 0.0

    def _measured(self) -> list[float]:
        """Each row's height as reportlab's Table makes it: its tallest cell and the
        padding."""
        if self.heights is None:
            (top, bottom), across = self.padding
            self.heights = [max(cell.wrap(width - across, UNBOUNDED)[1]
                                for cell, width in zip(row, self.widths)) + top + bottom
                            for row in self.rows]
        return self.heights

    def wrap(self, available_width, available_height):
        heights = self._measured()
        self.width = sum(self.widths)
        self.height = heights[0] + sum(heights[self.first:])
        return self.width, self.height

    def split(self, available_width, available_height):
        heights = self._measured()
        room, end = available_height - heights[0], self.first
        while end < len(self.rows) and heights[end] <= room:
            room -= heights[end]
            end += 1
        if end == self.first or end == len(self.rows):
            return []  # not a row fits (the next page then), or all of them do
        part = self._table(end)
        part.spaceBefore = self.spaceBefore
        rest = RowsTable(self.rows, self.widths, self.style, *self.padding, end, heights)
        rest.spaceAfter = self.spaceAfter
        return [part, rest]

    def draw(self):
        table = self._table(len(self.rows))
        table.wrapOn(self.canv, self.width, self.height)
        table.drawOn(self.canv, 0, 0)

    def _table(self, end: int) -> Table:
        """The head and the body rows from this part's first to ``end``, as a Table."""
        rows = [self.rows[0]] + self.rows[self.first:end]
        return Table(rows, colWidths=self.widths, style=self.style, hAlign="LEFT",
                     rowHeights=[self.heights[0]] + self.heights[self.first:end])


def column_widths(rows, available: float, padding: float) -> list[float]:
    """Each column as wide as its longest cell set on one line, when they all fit;
    else the narrow columns keep their width and the wide ones share what is left."""
    natural = [max(_one_line(cell) for cell in column) + padding for column in zip(*rows)]
    if sum(natural) <= available:
        return natural
    widths = list(natural)
    wide = set(range(len(widths)))
    while wide:
        share = (available - sum(widths[i] for i in range(len(widths)) if i not in wide)) \
            / len(wide)
        narrow = {i for i in wide if natural[i] <= share}
        if not narrow:
            for i in wide:
                widths[i] = max(share, padding + 1)
            break
        wide -= narrow
    return widths


def _one_line(cell: Text) -> float:
    """The width of a cell's text on one line (its widest line, with line breaks)."""
    return max(fit_text(cell.text, cell.font, UNBOUNDED, UNBOUNDED, cell.size, None,
                        LEADING, cell.assets).lines, key=lambda line: line.width).width \
        if cell.text else string_width(" ", cell.font, cell.size)
