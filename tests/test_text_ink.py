"""The measured fit stays exact (issue 43): cards are drawn, the PDF is read back with
PDFium, and no ink of a text that fits lies outside its box: every character's box as
PDFium finds it, and on cards of text alone, every pixel that is not paper. For the new
ways of breaking lines (a dictionary's hyphens, soft hyphens, dashes, an ellipsis, breaking
anywhere), styled spans with icons inside, and the example deck in both its languages."""

from __future__ import annotations

import ctypes
import io
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as raw
from reportlab.pdfgen.canvas import Canvas

from cardkit.deck.languages import in_language
from cardkit.deck.loader import load_deck
from cardkit.render.card import FRONT, CardRenderer, Report
from conftest import write_deck

ROOT = Path(__file__).resolve().parent.parent
SLACK = 0.3  # points: PDFium's boxes are rounded, and antialiasing spills half a pixel
DPI = 100

TEXTS = [
    ("de", "Der Schwarm\u00adangriffsverteidigungsmechanismus wirkt sofort/gleich.",
     "shrink"),
    ("de", "Die Nachtmarktversteigerungen der Laternengilde beginnen um Mitternacht "
     "und enden erst bei Sonnenaufgang.", "hyphenate"),
    ("fr", "Attaque éclair ! Gagnez 10\u00a0PO, puis défaussez-vous d’une carte.", "shrink"),
    ("pl", "Niebezpieczeństwo: przeciwnik odrzuca natychmiastowo dwie karty.", "shrink"),
    ("en", "Xyzzyplughfrobozzquux is a word no dictionary knows at all.", "break-anywhere"),
    ("en", "Draw two cards. " * 40, "ellipsis"),
    ("en", "{keyword: Strike **twice** {heart}} then *{aside: rest} a while*.", "shrink"),
]
DECK = """\
name: ink
size: poker
front: face
languages: [{lang}]
styles:
  keyword: {{colour: "#a8432a", size: 85%, case: upper}}
  aside: {{font: Lato-Italic, size: 60%}}
backs:
  plain: {{layout: face}}
fields: {{text: text, overflow: text}}
cards:
{cards}
"""
FACE = """\
elements:
  - {name: narrow, kind: text, box: [5mm, 5mm, 22mm, 40mm], text: "{text}", size: 10pt,
     min_size: 7pt, align: left, overflow: "{overflow}"}
  - {name: wide, kind: text, box: [29mm, 46mm, 30mm, 38mm], text: "{text}", size: 9pt,
     min_size: 6pt, align: right, valign: bottom, overflow: "{overflow}"}
"""


def drawn(deck) -> tuple[bytes, list[list]]:
    """The deck's fronts, one a page, and each page's fitted text boxes in PDF space
    (left, bottom, right, top)."""
    renderer = CardRenderer(Report())
    width, height = deck.size.width, deck.size.height
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(width, height))
    boxes = []
    for card in deck.cards:
        renderer.draw(canvas, card, FRONT, 0, 0, width, height)
        canvas.showPage()
        boxes.append([(b.x, height - b.y - b.height, b.x + b.width, height - b.y)
                      for item in renderer.resolve(card, FRONT)
                      if item.text is not None and item.text.fits
                      for b in [item.element.box]])
    canvas.save()
    return buffer.getvalue(), boxes


def inside(box, boxes) -> bool:
    left, bottom, right, top = box
    return any(left >= b[0] - SLACK and right <= b[2] + SLACK and bottom >= b[1] - SLACK
               and top <= b[3] + SLACK for b in boxes)


def stray_characters(pdf: bytes, boxes) -> list[str]:
    """The characters whose box lies in no fitted text box of their page."""
    doc = pdfium.PdfDocument(pdf)
    stray = []
    try:
        for number, page_boxes in enumerate(boxes):
            page = doc[number].get_textpage()
            for i in range(page.count_chars()):
                char = page.get_text_range(i, 1)
                edges = [ctypes.c_double() for _ in range(4)]
                if not char.strip() or not raw.FPDFText_GetCharBox(
                        page.raw, i, *(ctypes.byref(e) for e in edges)):
                    continue
                left, right, bottom, top = (e.value for e in edges)
                if not inside((left, bottom, right, top), page_boxes):
                    stray.append(f"page {number + 1}: {char!r} at {left:.1f},{bottom:.1f}")
    finally:
        doc.close()
    return stray


def test_no_ink_of_a_fitted_text_leaves_its_box(tmp_path):
    for lang in dict.fromkeys(lang for lang, _, _ in TEXTS):  # a deck in each language
        cards = "\n".join(f'  - {{text: "{text}", overflow: {overflow}}}'
                          for written, text, overflow in TEXTS if written == lang)
        path = write_deck(tmp_path / lang, DECK.format(cards=cards, lang=lang),
                          {"face": FACE})
        pdf, boxes = drawn(load_deck(path))
        assert [len(page) for page in boxes] == [2] * len(boxes), lang  # each fits
        assert stray_characters(pdf, boxes) == [], lang
        assert ink_outside(pdf, boxes) == [], lang


def ink_outside(pdf: bytes, boxes) -> list[str]:
    """The pages with ink outside their fitted text boxes (the cards are text only), and
    where it is."""
    doc = pdfium.PdfDocument(pdf)
    outside = []
    try:
        for number, page_boxes in enumerate(boxes):
            image = doc[number].render(scale=DPI / 72, grayscale=True).to_pil()
            height = image.height
            inked = image.point(lambda v: 255 if v < 250 else 0)
            pixel = 72 / DPI
            for left, bottom, right, top in page_boxes:  # paint each box over, white
                inked.paste(0, (int((left - SLACK) / pixel), int(height - (top + SLACK) / pixel),
                                int((right + SLACK) / pixel) + 1,
                                int(height - (bottom - SLACK) / pixel) + 1))
            if inked.getbbox() is not None:
                outside.append(f"page {number + 1}: ink at {inked.getbbox()} px")
    finally:
        doc.close()
    return outside


def test_no_character_of_the_example_deck_leaves_its_text_box():
    deck = load_deck(ROOT / "examples" / "lantern-market" / "deck.yaml")
    for lang in ("en", "de"):
        pdf, boxes = drawn(in_language(deck, lang))
        assert stray_characters(pdf, boxes) == [], lang
