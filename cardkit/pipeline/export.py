"""Deck file -> checked deck -> one card a page -> images, print-shop PDF or TTS deck.

Every export draws the cards once, as vectors, onto one-card pages (the same drawing as the
home sheets); images are those pages rasterised, so a PNG is exactly the PDF card.
"""

from __future__ import annotations

import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from ..common.atomic import atomic_folder, atomic_path, output_root
from ..common.errors import InputError, Problem, Where
from ..common.units import INCH, to_mm
from ..deck.model import Deck
from ..imposition.faces import backs_by_card, card_pages, faces
from ..imposition.services import DEFAULT_DPI, PDF, PNG, PREVIEW_DPI, TTS, Service, pixel_size
from ..render.card import BACK, FRONT, CardRenderer
from ..writers.card_pdf import write_card_pdf
from ..writers.card_png import write_pngs
from ..writers.manifest import write_manifest
from ..writers.pdfx import VERSION as PDFX_VERSION
from ..writers.pdfx import mark_pdfx
from ..writers.preview_png import contact_sheets, side_by_side
from ..writers.tts import card_pixels, write_tts
from .chosen import Which, check_cards, load_chosen


FLATTEN_DPI = 600  # where PDF/X-1a needs transparency flattened: twice what services ask


@dataclass(frozen=True)
class ExportOptions:
    """``bleed`` in points and ``colour`` ('rgb' or 'cmyk') default to the service's, or to
    none and 'rgb' without one; ``base_url`` is where the TTS images will be hosted."""

    to: str
    service: Service | None = None
    dpi: int = DEFAULT_DPI
    bleed: float | None = None
    colour: str | None = None
    base_url: str | None = None


@dataclass(frozen=True)
class ExportResult:
    deck: Deck
    path: Path
    files: int  # images, pages or (TTS) cards written
    what: str  # 'images', 'pages' or 'cards'
    seconds: float
    warnings: tuple[Problem, ...]
    notes: tuple[str, ...]  # colours limited to the service's ink


def export_deck(deck_path: Path, out_dir: Path, options: ExportOptions, strict: bool = False,
                variant: dict | None = None, only_declared: bool = False,
                progress=None, which: Which = Which()) -> ExportResult:
    """Export one deck; ``progress(length)`` gives a context whose ``update(n)`` is told
    of the work done (a progress bar), or None for none; ``which`` as in
    :func:`load_chosen`."""
    started = time.perf_counter()
    deck = load_chosen(deck_path, variant, only_declared, which)
    service = options.service
    if service and service.products and not service.product(deck.size.width,
                                                              deck.size.height):
        raise InputError([Problem(Where(deck_path), f"{service.title} sells no card of "
                                  f"{to_mm(deck.size.width):g} x {to_mm(deck.size.height):g}"
                                  " mm, the deck's size", f"its cards are {service.offer()}; "
                                  f"or leave out --for and give --dpi and --bleed yourself")])
    bleed = _bleed(options)
    renderer, report = check_cards(deck, strict, bleed)
    progress = progress or no_progress
    base = Path(out_dir) / deck.name / export_name(deck, options, selected=bool(which.cards))
    root = output_root(out_dir, deck.path)
    notes: list[str] = []
    if options.to == PNG:
        path, count = _png(deck, renderer, options, base, root, progress)
    elif options.to == PDF:
        path, count, notes = _pdf(deck, renderer, options, base, root, progress)
    else:
        path, count = _tts(deck, renderer, options, base, root, progress)
    if deck.note:  # a reprint's: what to take out of the printed deck, beside the files
        note = path.with_name(path.name.removesuffix(".pdf") + "-cover-note.txt")
        with atomic_path(note, under=root) as temporary:
            temporary.write_text("\n".join(deck.note) + "\n", encoding="utf-8")
        notes.append(f"what to take out of the printed deck and put in: {note}")
    what = {PNG: "images", PDF: "pages", TTS: "cards"}[options.to]
    return ExportResult(deck, path, count, what,
                        time.perf_counter() - started, tuple(report.warnings), tuple(notes))


def preview_deck(deck_path: Path, out_dir: Path, dpi: int = PREVIEW_DPI, strict: bool = False,
                 variant: dict | None = None, only_declared: bool = False,
                 progress=None, which: Which = Which()) -> ExportResult:
    """Screen previews of a deck (or of the cards chosen, ``which``): an image of each card's
    front and back side by side, and contact sheets of the fronts, in one folder.

    The folder is always ``DECK-preview`` (``DECK-de-preview`` in a language), whatever
    the cards, variant or dpi, and each
    preview replaces the last: an image viewer left on it shows the newest proof. Text
    that does not fit is marked on the card (see :class:`CardRenderer`'s ``marks``)."""
    started = time.perf_counter()
    deck = load_chosen(deck_path, variant, only_declared, which)
    renderer, report = check_cards(deck, strict, marks=True)
    folder = Path(out_dir) / deck.name / "-".join(filter(None, [deck.name, deck.lang,
                                                                "preview"]))
    size = tuple(round(side / INCH * dpi) for side in (deck.size.width, deck.size.height))
    shown = faces(deck, _same_back(renderer))
    backs = backs_by_card(shown)
    progress = progress or no_progress
    with atomic_folder(folder, under=output_root(out_dir, deck.path)) as temporary, \
            tempfile.TemporaryDirectory() as scratch, progress(len(shown) + len(deck.cards)) as bar:
        images = _face_images(deck, renderer, shown, size_points(size, dpi), size, dpi,
                              Path(scratch), bar.update)
        labels = []
        for face in shown[:len(deck.cards)]:  # the fronts, in deck order
            side_by_side(images[face.file], images[backs[face.card.number].file],
                         temporary / f"{face.file.removesuffix('-front')}.png", dpi)
            labels.append((images[face.file], f"#{face.card.number}  "
                           f"{deck.name_of(face.card)}"
                           + (f"  ×{face.card.count}" if face.card.count > 1 else "")))
            bar.update(1)
        sheets = contact_sheets(labels, temporary, dpi)
    return ExportResult(deck, folder, len(deck.cards) + len(sheets), "images",
                        time.perf_counter() - started, tuple(report.warnings), ())


def _face_images(deck, renderer, shown, page, size, dpi, scratch: Path, on_done) -> dict:
    """Each face of ``shown`` drawn on a ``page``-sized one-card page and rasterised to
    ``size`` pixels at ``dpi``, as a PNG in ``scratch``: face file name -> image path."""
    drawing = scratch / "cards.pdf"
    write_card_pdf(drawing, deck, [(f.card, f.side) for f in shown], page, renderer)
    images = {f.file: scratch / f"{f.file}.png" for f in shown}
    write_pngs(drawing, list(images.values()), size, dpi, on_done)
    return images


def size_points(pixels: tuple[int, int], dpi: float) -> tuple[float, float]:
    """A page size in points that maps onto ``pixels`` exactly at ``dpi``."""
    return pixels[0] / dpi * INCH, pixels[1] / dpi * INCH


class _Quiet:
    def update(self, n: int) -> None:
        pass


def no_progress(length: int):
    """A progress context that shows nothing."""
    return nullcontext(_Quiet())


def _bleed(options: ExportOptions) -> float:
    """The bleed in points on each side."""
    if options.bleed is not None:
        return options.bleed
    service = options.service
    if service is None or options.to == TTS:
        return 0.0
    return service.bleed if service.to == PDF else service.bleed_pixels / service.dpi * INCH


def _colour(options: ExportOptions) -> str:
    return options.colour or (options.service.colour if options.service else "rgb")


def export_name(deck: Deck, options: ExportOptions, selected: bool = False) -> str:
    """What the export is called, saying how it differs from the defaults:
    ``blofa-png-tgc``, ``blofa-png-600dpi-bleed3mm``, ``blofa-cards-drivethru.pdf``,
    ``bullet-players3-tts``; with a ``--cards`` selection (``selected``) in the deck's
    variant, ``blofa-cards3-drivethru.pdf`` (not 'cards' twice)."""
    parts = [deck.name] + ([deck.variant] if deck.variant else [])
    service = options.service
    if options.to == TTS:
        return "-".join(parts + ["tts"])
    if options.to == PNG or not selected:
        parts.append("png" if options.to == PNG else "cards")
    if service:
        parts.append(service.name)
    if options.to == PNG and (options.dpi != DEFAULT_DPI or not service):
        parts.append(f"{options.dpi}dpi")
    if options.bleed is not None or not service:
        parts.append(f"bleed{round(to_mm(_bleed(options)), 3):g}mm")
    if options.to == PDF and (not service or options.colour not in (None, service.colour)):
        parts.append(_colour(options))
    return "-".join(parts) + (".pdf" if options.to == PDF else "")


def _same_back(renderer: CardRenderer):
    return lambda a, b: renderer.resolve(a, BACK) == renderer.resolve(b, BACK)


def _png(deck, renderer, options, folder, root, progress):
    dpi = options.dpi
    size = tuple(pixel_size(side, _bleed(options) / INCH * dpi, dpi)
                 for side in (deck.size.width, deck.size.height))
    # the page is sized to map onto whole pixels exactly: the bleed takes the rounding
    page = size_points(size, dpi)
    shown = faces(deck, _same_back(renderer))
    with atomic_folder(folder, under=root) as temporary, progress(len(shown)) as bar:
        drawing = temporary / ".cards.pdf"
        write_card_pdf(drawing, deck, [(f.card, f.side) for f in shown], page, renderer)
        write_pngs(drawing, [temporary / f"{f.file}.png" for f in shown], size, dpi,
                   bar.update)
        drawing.unlink()
        write_manifest(temporary / "manifest.csv", deck, shown)
    return folder, len(shown)


def _pdf(deck, renderer, options, path, root, progress):
    service = options.service
    order = service.order if service else (FRONT, BACK)
    ink_limit = None
    if _colour(options) == "cmyk":
        ink_limit = service.ink_limit if service else 4.0
    bleed = _bleed(options)
    page = (deck.size.width + 2 * bleed, deck.size.height + 2 * bleed)
    pages = card_pages(deck, order)
    with atomic_path(path, under=root) as temporary, progress(len(pages)) as bar:
        pdfx = ink_limit is not None and service is not None and service.pdfx
        notes = write_card_pdf(temporary, deck, pages, page, renderer, ink_limit,
                               on_page=lambda: bar.update(1),
                               flatten_dpi=FLATTEN_DPI if pdfx else None)
        if pdfx:
            transparent = mark_pdfx(temporary, service.pdfx)
            if transparent:
                card, side = pages[transparent[0]]
                more = len(transparent) - 1
                notes.append(f"not marked {PDFX_VERSION}, which forbids transparency: "
                             f"{card.label()}, {side} (page {transparent[0] + 1})"
                             + (f" and {more} more page{'s' * (more > 1)}" if more else "")
                             + " use opacity or image alpha; remove it from the layouts "
                             "and art, or flatten the PDF in Acrobat")
    return path, len(pages), notes


def _tts(deck, renderer, options, folder, root, progress):
    size = card_pixels(deck.size.width, deck.size.height)
    page = (deck.size.width, deck.size.height)
    shown = faces(deck, _same_back(renderer))
    base_url = options.base_url

    def url_of(name: str) -> str:
        return base_url.rstrip("/") + "/" + name if base_url else (folder / name).resolve() \
            .as_uri()

    with atomic_folder(folder, under=root) as temporary, \
            tempfile.TemporaryDirectory() as scratch, progress(len(shown)) as bar:
        dpi = size[0] / (deck.size.width / INCH)
        images = _face_images(deck, renderer, shown, page, size, dpi, Path(scratch),
                              bar.update)
        write_tts(temporary, url_of, deck, shown, images, size)
    return folder, deck.total()

