"""Every card side drawn as it prints, kept by what it looks like.

A side's key is a hash of its drawing: the PDF operators reportlab writes for it on a
page of its own, images named by their content. The same look gives the same operators,
so a save that changes one card gives that card's side a new key and leaves every other
key as it was. Drawing the operators is cheap (no file is written); only sides with a new
key are written as a PDF and rasterised, and the page, which names images by key,
fetches only those. Backs that many cards share are drawn once.

A save with a mistake keeps the last good cards, with the problems beside them.
"""

from __future__ import annotations

import hashlib
import io
import threading
import time
from pathlib import Path

from ..common.errors import InputError, Problem
from ..common.units import INCH, MM
from ..deck.selection import select_cards
from ..imposition.services import PREVIEW_DPI
from ..pipeline.build import Which, check_cards, load_chosen
from ..render.card import BACK, BLEED_ALLOWANCE, FRONT, FULL_INK
from ..render.fingerprint import drawing_key
from ..sources.spreadsheet import SUFFIXES as SPREADSHEETS
from ..writers.card_pdf import write_card_pdf
from ..writers.card_png import page_png

SIDES = (FRONT, BACK)
SHEET_DPI = 60  # enough to see the imposition; the PDF is what prints


class Studio:
    """The deck at ``deck_path`` as the page shows it: ``state`` (plain data, what
    /api/deck answers) and ``images`` (key -> PNG). :meth:`rebuild` draws it again;
    each new state is told to the listeners (``listen``)."""

    def __init__(self, deck_path: Path, dpi: int = PREVIEW_DPI):
        self.deck_path, self.dpi = Path(deck_path), dpi
        self.images: dict[str, bytes] = {}
        self.sheet_images: dict[str, bytes] = {}  # the last sheets asked for
        self.state: dict = {"version": 0, "title": "", "cards": [], "problems": [],
                            "warnings": [], "broken": False, "seconds": 0.0,
                            "languages": []}
        self.deck = None  # the last good deck
        # what the page's toggles choose: draft ink, the bleed drawn, a variant's options,
        # one of the deck's languages ('' as written)
        self.options: dict = {"ink": FULL_INK, "bleed": False, "variant": {}, "lang": ""}
        self._listeners: list = []
        self._lock = threading.Lock()  # one rebuild at a time
        # the print keys of the cards as last drawn, which {card.id} is made from: kept
        # while only the cards' spreadsheets change (render.fingerprint.Prints)
        self._known_ids: dict = {}

    def listen(self, told) -> None:
        """``told(version)`` is called, from the rebuilding thread, after each rebuild."""
        self._listeners.append(told)

    def unlisten(self, told) -> None:
        self._listeners.remove(told)

    def rebuild(self, changed=()) -> dict:
        """Load, check and draw the deck; the sides whose drawing changed get new images.
        Returns the new state."""
        with self._lock:
            started = time.perf_counter()
            if any(Path(name).suffix.lower() not in SPREADSHEETS for name in changed):
                self._known_ids.clear()  # a layout, an image, a font: any card may differ
            ink, variant = self.options["ink"], self.options["variant"]
            bleed = BLEED_ALLOWANCE if self.options["bleed"] else 0.0
            try:
                deck = load_chosen(self.deck_path, variant or None,
                                   which=Which(lang=self.options["lang"]),
                                   known_ids=self._known_ids)
                renderer, report = check_cards(deck, bleed=bleed, ink=ink, marks=True)
            except InputError as error:  # the last good cards stay, the problems above
                return self._publish({**self.state, "broken": True,
                                      "problems": list(map(_shown, error.problems)),
                                      "warnings": list(map(_shown, error.warnings)),
                                      "seconds": time.perf_counter() - started})
            size = tuple(round((side + 2 * bleed) / INCH * self.dpi)
                         for side in (deck.size.width, deck.size.height))
            page = (size[0] * 72 / self.dpi, size[1] * 72 / self.dpi)  # trim and bleed
            shared: dict = {}  # id(a resolved side) -> its key: a back many cards share
            new: dict = {}  # key -> (card, side) of each side never drawn before
            cards = []
            for card in deck.cards:
                keys = {}
                for side in SIDES:
                    resolved = id(renderer.resolve(card, side))
                    if resolved not in shared:
                        shared[resolved] = drawing_key(renderer, card, side, page,
                                                       deck.size)
                    keys[side] = shared[resolved]
                    if keys[side] not in self.images:
                        new.setdefault(keys[side], (card, side))
                cards.append({"number": card.number, "name": deck.name_of(card),
                              "count": card.count, "where": str(card.where), **keys,
                              "fields": {name: "" if value is None else str(value)
                                         for name, value in card.fields.items()},
                              "back_design": card.back.name,
                              "elements": {side: elements(renderer, card, side, deck.size)
                                           for side in SIDES},
                              "found": [{"severity": severity, "element": str(element),
                                         **_shown(problem)} for severity, element, problem
                                        in report.of_card(card.number)]})
            self._rasterise(deck, renderer, new, page, size)
            self.deck = deck
            return self._publish({"title": deck.title, "cards": cards, "problems": [],
                                  "warnings": list(map(_shown, report.warnings)),
                                  "broken": False, "options": self.options,
                                  "variants": {name: sorted(options) for name, options
                                               in deck.variants.items()},
                                  "languages": list(deck.languages.codes),
                                  "bleed": [round(100 * bleed / (side + 2 * bleed), 3) for side
                                            in (deck.size.width, deck.size.height)],
                                  "size_mm": [round((side + 2 * bleed) / MM, 2) for side in
                                              (deck.size.width, deck.size.height)],
                                  "seconds": time.perf_counter() - started})

    def choose(self, ink: str | None = None, bleed: bool | None = None,
               variant: dict | None = None, lang: str | None = None) -> dict:
        """Draw with other options (what is not given stays): ``ink`` 'full' or 'draft',
        ``bleed`` drawn or not, ``variant`` {name: option} (e.g. {'players': '3'}),
        ``lang`` one of the deck's languages ('' for the deck as written). Returns the new
        state; an option the deck does not have is its problem."""
        self.options = {"ink": ink or self.options["ink"],
                        "bleed": self.options["bleed"] if bleed is None else bool(bleed),
                        "variant": self.options["variant"] if variant is None else
                        {str(k): str(v) for k, v in variant.items() if v not in ("", None)},
                        "lang": self.options["lang"] if lang is None else lang}
        return self.rebuild()

    def sheets(self, paper: str) -> list[dict]:
        """The deck's print-and-play pages on ``paper`` ('a4' or 'letter'), fronts and
        backs, as they print (with this view's ink and variant): each page's image key
        and its size in millimetres. Raises InputError when the deck cannot be built."""
        import tempfile

        import pypdfium2

        from ..imposition.sheets import SheetOptions
        from ..pipeline.build import build_deck

        options = SheetOptions(paper=paper, ink=self.options["ink"])
        with tempfile.TemporaryDirectory() as folder:
            built = build_deck(self.deck_path, Path(folder), options,
                               variant=self.options["variant"] or None,
                               which=Which(lang=self.options["lang"]))
            pdf = pypdfium2.PdfDocument(built.path)
            self.sheet_images = {}
            try:
                pages = []
                for page in pdf:
                    width, height = page.get_size()
                    size = (round(width / 72 * SHEET_DPI), round(height / 72 * SHEET_DPI))
                    data = page_png(page, size, SHEET_DPI)
                    key = hashlib.sha256(data).hexdigest()[:24]
                    self.sheet_images[key] = data
                    pages.append({"key": key, "mm": [round(width / MM, 1),
                                                     round(height / MM, 1)]})
                    page.close()
            finally:
                pdf.close()
        return pages

    def playtest_report(self, folders) -> Path | None:
        """The newest ``cardkit simulate --report`` page for this deck's game in
        ``folders`` (and below): one whose summary names the deck or its game's title."""
        import json

        if self.deck is None:
            return None
        names = {self.deck.name, self.deck_path.parent.name, str(self.deck_path.parent)}
        found = []
        for folder in folders:
            for summary in Path(folder).glob("**/summary.json"):
                try:
                    said = json.loads(summary.read_text(encoding="utf-8"))
                except (OSError, ValueError):
                    continue
                game = str(said.get("game", "")) if isinstance(said, dict) else ""
                if (game in names or Path(game).name in names
                        or said.get("title") == self.deck.title) \
                        and (summary.parent / "report.html").is_file():
                    found.append(summary.parent / "report.html")
        return max(found, key=lambda page: page.stat().st_mtime, default=None)

    def select(self, text: str) -> list[int]:
        """The numbers of the cards ``text`` picks, in ``--cards`` syntax ('3, 5-8,
        name=Dragon'); raises InputError saying why it picks none."""
        if self.deck is None:
            return []
        return [card.number for card in select_cards(self.deck, text).cards]

    def _rasterise(self, deck, renderer, new: dict, page, size) -> None:
        """Draw the ``new`` sides (key -> (card, side)) as one PDF, a page each, and keep
        each page's image under its key."""
        if not new:
            return
        import pypdfium2

        drawing = io.BytesIO()
        write_card_pdf(drawing, deck, list(new.values()), page, renderer)
        pdf = pypdfium2.PdfDocument(drawing.getvalue())
        try:
            for index, key in enumerate(new):
                self.images[key] = page_png(pdf[index], size, self.dpi)
        finally:
            pdf.close()

    def _publish(self, state: dict) -> dict:
        """Make ``state`` the current one and tell the listeners; images neither it nor
        the state before shows are let go (a page may still be fetching the older)."""
        shown = {card[side] for s in (self.state, state) for card in s["cards"]
                 for side in SIDES}
        for key in [key for key in self.images if key not in shown]:
            del self.images[key]
        self.state = {**state, "version": self.state["version"] + 1}
        for told in list(self._listeners):
            told(self.state["version"])
        return self.state


def elements(renderer, card, side: str, size) -> dict:
    """What hovering shows: each element drawn on the side, its name, kind, the layout
    file and line that writes it, and its box in percent of the card (from the top left);
    and the side's safe area, as an inset in percent."""
    layout = card.front if side == FRONT else card.back.layout
    width, height = size.width, size.height
    boxes = []
    for item in renderer.resolve(card, side):
        box = item.element.box
        boxes.append({"name": item.element.name, "kind": item.element.kind,
                      "where": str(item.element.where),
                      "box": [round(100 * value / whole, 3) for value, whole in (
                          (box.x, width), (box.y, height), (box.width, width),
                          (box.height, height))],
                      "mm": [round(value / MM, 1) for value in (box.x, box.y, box.width,
                                                                 box.height)]})
    return {"layout": layout.name, "items": boxes,
            "safe": [round(100 * layout.safe / width, 3), round(100 * layout.safe / height, 3)]}


def _shown(problem: Problem) -> dict:
    return {"where": str(problem.where), "what": problem.what, "fix": problem.fix}
