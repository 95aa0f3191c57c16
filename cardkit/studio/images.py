"""Every card side drawn as it prints, kept by what it looks like.

A side's key is a hash of its drawing: the PDF operators reportlab writes for it on a
page of its own, images named by their content. The same look gives the same operators,
so a save that changes one card gives that card's side a new key and leaves every other
key as it was. Drawing the operators is cheap (no file is written); only sides with a new
key are written as a PDF and rasterised, and the page, which names images by key,
fetches only those. Backs that many cards share are drawn once.

Each page draws with its own options (:class:`Options`: ink, bleed, variant, language),
sent with each request: a choice in one browser tab does not change another. A view is
drawn when a page asks for it after a save, and the few views last asked for are kept.

A save with a mistake keeps the last good cards, with the problems beside them.
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from ..common.errors import InputError, Problem, Where
from ..common.pdfium import open_pdf
from ..common.units import INCH, MM
from ..deck.selection import select_cards
from ..imposition.services import PREVIEW_DPI
from ..pipeline.build import Which, check_cards, load_chosen
from ..render.card import BACK, BLEED_ALLOWANCE, DRAFT_INK, FRONT, FULL_INK
from ..render.fingerprint import drawing_key
from ..render.textmarkup import span_names
from ..sources.links import is_link
from ..sources.spreadsheet import SUFFIXES as SPREADSHEETS
from ..writers.card_pdf import write_card_pdf
from ..writers.card_png import page_png
from .edits import page_sources
from .layout_edits import box_file, layout_files

SIDES = (FRONT, BACK)
SHEET_DPI = 60  # enough to see the imposition; the PDF is what prints
INKS = (FULL_INK, DRAFT_INK)
KEPT_VIEWS = 6  # views kept drawn (a tab or two, each with a few choices made)


@dataclass(frozen=True)
class Options:
    """What one page's toggles choose: full or draft ``ink``, the ``bleed`` drawn or not,
    a ``variant``'s options ((name, option) pairs, sorted) and one of the deck's
    languages (``lang``, '' for the deck as written)."""

    ink: str = FULL_INK
    bleed: bool = False
    variant: tuple[tuple[str, str], ...] = ()
    lang: str = ""

    def shown(self) -> dict:
        """As the page reads them."""
        return {"ink": self.ink, "bleed": self.bleed, "variant": dict(self.variant),
                "lang": self.lang}


@dataclass
class _View:
    """One set of options drawn: its ``state``, its last good ``deck``, and the image keys
    its state before showed (a page may still be fetching them)."""

    state: dict
    deck: object = None
    before: frozenset = frozenset()


class Studio:
    """The deck at ``deck_path`` as pages show it. :meth:`files_changed` says the files
    were saved (the watcher calls it) and tells the listeners; :meth:`view` is the deck
    drawn with a page's :class:`Options` (plain data, what /api/deck answers), drawn again
    when the files changed since; ``images`` holds every side shown (key -> PNG)."""

    def __init__(self, deck_path: Path, dpi: int = PREVIEW_DPI):
        self.deck_path, self.dpi = Path(deck_path), dpi
        self.images: dict[str, bytes] = {}
        self.version = 0  # counts the saves seen: a view drawn before the last is stale
        self._views: OrderedDict[Options, _View] = OrderedDict()  # the last asked for last
        # ("sheets" or "rules", options, paper) -> the images of its pages
        self._sheets: OrderedDict[tuple, dict] = OrderedDict()
        self._listeners: list = []
        self._lock = threading.Lock()  # one drawing at a time
        # the print keys of the cards as last drawn, which {card.id} is made from: kept
        # while only the cards' spreadsheets change (render.fingerprint.Prints)
        self._known_ids: dict = {}

    def listen(self, told) -> None:
        """``told(version)`` is called, from the watching thread, after each save."""
        self._listeners.append(told)

    def unlisten(self, told) -> None:
        self._listeners.remove(told)

    def files_changed(self, changed=()) -> None:
        """The deck's files were saved (``changed``: their names; none at the start):
        every view is stale, and the listeners are told the new version."""
        with self._lock:
            if any(not is_link(name) and Path(name).suffix.lower() not in SPREADSHEETS
                   for name in changed):  # a sheet link's change is a spreadsheet's
                self._known_ids.clear()  # a layout, an image, a font: any card may differ
            self.version += 1
        for told in list(self._listeners):
            told(self.version)

    def view(self, options: Options = Options()) -> dict:
        """The deck drawn with ``options``: drawn again if the files changed since it was
        last drawn, only the sides whose drawing changed rasterised again. An option the
        deck does not have is its problem."""
        return self._drawn(options).state

    def deck(self, options: Options = Options()):
        """The last good deck drawn with ``options`` (None before one was)."""
        return self._drawn(options).deck

    def _drawn(self, options: Options) -> _View:
        with self._lock:
            drawn = self._views.get(options)
            if drawn is None or drawn.state["version"] != self.version:
                drawn = self._draw(options, drawn)
            self._views.move_to_end(options)
            return drawn

    def _draw(self, options: Options, before: _View | None) -> _View:
        started = time.perf_counter()
        bleed = BLEED_ALLOWANCE if options.bleed else 0.0
        try:
            deck = load_chosen(self.deck_path, dict(options.variant) or None,
                               which=Which(lang=options.lang), known_ids=self._known_ids)
            renderer, report = check_cards(deck, bleed=bleed, ink=options.ink, marks=True,
                                           contrast=True)
        except InputError as error:  # the last good cards stay, the problems above
            last = before.state if before else self._nothing_drawn(options)
            return self._keep(options, before.deck if before else None, {
                **last, "broken": True, "problems": list(map(_shown, error.problems)),
                "warnings": list(map(_shown, error.warnings)),
                "seconds": time.perf_counter() - started})
        size = tuple(round((side + 2 * bleed) / INCH * self.dpi)
                     for side in (deck.size.width, deck.size.height))
        page = (size[0] * 72 / self.dpi, size[1] * 72 / self.dpi)  # trim and bleed
        editing, versions = page_sources(deck, self.deck_path.parent, options.lang)
        shared: dict = {}  # id(a resolved side) -> its key: a back many cards share
        new: dict = {}  # key -> (card, side) of each side never drawn before
        cards = []
        for card in deck.cards:
            keys = {}
            for side in SIDES:
                resolved = id(renderer.resolve(card, side))
                if resolved not in shared:
                    shared[resolved] = drawing_key(renderer, card, side, page, deck.size)
                keys[side] = shared[resolved]
                if keys[side] not in self.images:
                    new.setdefault(keys[side], (card, side))
            cards.append({"number": card.number, "name": deck.name_of(card),
                          "count": card.count, "where": str(card.where), **keys,
                          "fields": {name: "" if value is None else str(value)
                                     for name, value in card.fields.items()},
                          "back_design": card.back.name, "edit": editing[card.number],
                          "elements": {side: elements(renderer, card, side, deck.size)
                                       for side in SIDES},
                          "found": [{"severity": severity, "element": str(element),
                                     **_shown(problem)} for severity, element, problem
                                    in report.of_card(card.number)]})
        self._rasterise(deck, renderer, new, page, size)
        return self._keep(options, deck, {
            "title": deck.title, "cards": cards, "problems": [], "files": versions,
            "layouts": layout_files(deck, self.deck_path.parent),
            "field_types": deck.field_types,
            "warnings": list(map(_shown, report.warnings)), "broken": False,
            "options": options.shown(),
            "variants": {name: sorted(choices) for name, choices in deck.variants.items()},
            "languages": list(deck.languages.codes),
            "bleed": [round(100 * bleed / (side + 2 * bleed), 3)
                      for side in (deck.size.width, deck.size.height)],
            "size_mm": [round((side + 2 * bleed) / MM, 2)
                        for side in (deck.size.width, deck.size.height)],
            "seconds": time.perf_counter() - started})

    def _nothing_drawn(self, options: Options) -> dict:
        """The state of a view whose deck never loaded: no cards, no choices."""
        return {"title": "", "cards": [], "problems": [], "warnings": [], "broken": False,
                "files": {}, "field_types": {}, "layouts": {},
                "options": options.shown(), "variants": {}, "languages": [],
                "bleed": [0, 0], "size_mm": [0, 0], "seconds": 0.0}

    def sheets(self, paper: str, options: Options = Options()) -> list[dict]:
        """The deck's print-and-play pages on ``paper`` ('a4' or 'letter'), fronts and
        backs, as they print (with the ink, variant and language of ``options``): each
        page's image key and its size in millimetres. Raises InputError when the deck
        cannot be built."""
        from ..imposition.sheets import SheetOptions
        from ..pipeline.build import build_deck

        def made(folder: Path) -> list[tuple[str, Path]]:
            return [("", build_deck(self.deck_path, folder, SheetOptions(paper=paper,
                                                                          ink=options.ink),
                                    variant=dict(options.variant) or None,
                                    which=Which(lang=options.lang)).path)]
        return self._pages(made, ("sheets", options, paper))

    def rules(self, paper: str, options: Options = Options()) -> list[dict]:
        """The rulebook's pages on ``paper``, from the ``rules.md`` beside the deck, as
        :meth:`sheets` gives the sheets'. Raises InputError when it cannot be made (no
        rules.md, a card it names that the deck lacks)."""
        from ..pipeline.rulebook import make_rulebook

        def made(folder: Path) -> list[tuple[str, Path]]:
            return [("", make_rulebook(self.deck_path, folder, (paper,),
                                       variant=dict(options.variant) or None).paths[0])]
        return self._pages(made, ("rules", options, paper))

    def components(self, paper: str, options: Options = Options()) -> list[dict]:
        """The pages of the tuck box, token sheets and boards the deck declares, on
        ``paper``, as their commands print them, each page with what it is of ('tuck box',
        'tokens', 'board street') and its number there. Raises InputError when they cannot
        be made, or the deck declares none."""
        from ..pipeline.components import make_declared

        def made(folder: Path) -> list[tuple[str, Path]]:
            declared = make_declared(self.deck_path, folder, (paper,),
                                     variant=dict(options.variant) or None)
            found = [(what, result.paths[0]) for what, result in (("tuck box", declared.box),
                                                                    ("tokens", declared.tokens))
                     if result]
            found += [(f"board {name}", tiled[0][1]) for name, _, tiled in
                      (declared.boards.made if declared.boards else ())]
            if not found:
                raise InputError([Problem(Where(self.deck_path), "the deck has no tuck box, "
                                          "tokens or boards", "give it a 'box:', 'tokens:' "
                                          "or 'boards:' entry (docs: Print at home)")])
            return found
        return self._pages(made, ("components", options, paper))

    def _pages(self, made, view: tuple) -> list[dict]:
        """Each page of the PDFs ``made(folder)`` writes, (what each is of, its path), as
        PNGs kept under ``view``."""
        import tempfile

        images, pages = {}, []
        # one drawing at a time: drawings share what they draw from (an icon's SVG)
        with self._lock, tempfile.TemporaryDirectory() as folder:
            for what, path in made(Path(folder)):
                with open_pdf(path) as pdf:
                    for number, page in enumerate(pdf, 1):
                        width, height = page.get_size()
                        size = (round(width / 72 * SHEET_DPI), round(height / 72 * SHEET_DPI))
                        data = page_png(page, size, SHEET_DPI)
                        key = hashlib.sha256(data).hexdigest()[:24]
                        images[key] = data
                        pages.append({"key": key, "mm": [round(width / MM, 1),
                                                         round(height / MM, 1)],
                                      "what": what, "page": number})
                        page.close()
            # the images of the pages of the last few views asked for
            self._sheets[view] = images
            self._sheets.move_to_end(view)
            while len(self._sheets) > KEPT_VIEWS:
                self._sheets.popitem(last=False)
        return pages

    def sheet_image(self, key: str) -> bytes | None:
        """The PNG of a page :meth:`sheets` gave lately, by its key."""
        return next((images[key] for images in list(self._sheets.values())
                     if key in images), None)

    def playtest_report(self, folders, options: Options = Options()) -> Path | None:
        """The newest ``cardkit simulate --report`` page for this deck's game in
        ``folders`` (and below): one whose summary names the deck or its game's title.
        The page and its summary must be files inside the folder, reached through no
        symbolic link: a link in a shared deck could lead to any file."""
        import json

        deck = self.deck(options)
        if deck is None:
            return None
        names = {deck.name, self.deck_path.parent.name, str(self.deck_path.parent)}
        found = []
        for folder in folders:
            root = Path(folder).resolve()
            for summary in root.glob("**/summary.json"):
                page = summary.parent / "report.html"
                if not all(path.resolve() == path and path.is_file()
                           for path in (summary, page)):
                    continue
                try:
                    said = json.loads(summary.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                game = str(said.get("game", "")) if isinstance(said, dict) else ""
                if game in names or Path(game).name in names \
                        or said.get("title") == deck.title:
                    found.append(page)
        return max(found, key=lambda page: page.stat().st_mtime, default=None)

    def select(self, text: str, options: Options = Options()) -> list[int]:
        """The numbers of the cards ``text`` picks among those drawn with ``options``, in
        ``--cards`` syntax ('3, 5-8, name=Dragon'); raises InputError saying why it picks
        none."""
        deck = self.deck(options)
        if deck is None:
            return []
        return [card.number for card in select_cards(deck, text).cards]

    def _rasterise(self, deck, renderer, new: dict, page, size) -> None:
        """Draw the ``new`` sides (key -> (card, side)) as one PDF, a page each, and keep
        each page's image under its key."""
        if not new:
            return
        drawing = io.BytesIO()
        write_card_pdf(drawing, deck, list(new.values()), page, renderer)
        with open_pdf(drawing.getvalue()) as pdf:
            for index, key in enumerate(new):
                self.images[key] = page_png(pdf[index], size, self.dpi)

    def _keep(self, options: Options, deck, state: dict) -> _View:
        """Keep ``state`` as the view of ``options`` (the views asked for longest ago let
        go beyond :data:`KEPT_VIEWS`); images no view shows, now or in the state before,
        are let go."""
        before = self._views.get(options)
        shown_before = _keys(before.state) if before else frozenset()
        self._views[options] = _View({**state, "version": self.version}, deck, shown_before)
        while len(self._views) > KEPT_VIEWS:
            self._views.popitem(last=False)
        shown = set().union(*(_keys(view.state) | view.before
                              for view in self._views.values()))
        for key in [key for key in self.images if key not in shown]:
            del self.images[key]
        return self._views[options]

def elements(renderer, card, side: str, size) -> dict:
    """What hovering shows: each element drawn on the side, its name, kind, the layout
    file and line that writes it, its box in percent of the card (from the top left) and,
    for a text, the deck's text styles its spans use; and the side's safe area, as an
    inset in percent."""
    layout = card.front if side == FRONT else card.back.layout
    width, height = size.width, size.height
    boxes = []
    for item in renderer.resolve(card, side):
        box = item.element.box
        boxes.append({"name": item.element.name, "kind": item.element.kind,
                      "where": str(item.element.where),
                      "box_at": str(item.element.box_at),
                      "box_file": str(box_file(item.element)),
                      "styles": sorted(set(span_names(item.props["text"])))
                      if item.text is not None else [],
                      "box": [round(100 * value / whole, 3) for value, whole in (
                          (box.x, width), (box.y, height), (box.width, width),
                          (box.height, height))],
                      "mm": [round(value / MM, 1) for value in (box.x, box.y, box.width,
                                                                 box.height)]})
    return {"layout": layout.name, "items": boxes,
            "safe": [round(100 * layout.safe / width, 3), round(100 * layout.safe / height, 3)]}


def _keys(state: dict) -> frozenset:
    """The image keys a state shows."""
    return frozenset(card[side] for card in state["cards"] for side in SIDES)


def _shown(problem: Problem) -> dict:
    return {"where": str(problem.where), "what": problem.what, "fix": problem.fix}
