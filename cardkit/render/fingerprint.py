"""What a card prints, as a short hash: the studio's image keys, the ``{card.id}`` a layout
can print, and what ``cardkit diff`` compares.

A side's drawing key hashes the PDF operators reportlab writes for it on a page of its
own, with the fonts it uses (their registered names hold a hash of the font file) and its
images (reportlab names an image by its pixels). So the same look gives the same key,
whatever changed in the files, and any change a printer would see gives another.

A card's print id is the hash of its two sides drawn without the stamps (version, build
date, the id itself): a new version number changes no card's id, a new word on the card
does. Fields, layouts and what they extend, images, icons and fonts all count, because
they all end up in the drawing.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace

from reportlab.pdfgen.canvas import Canvas

from ..assets.fonts import DEFAULT_FONT, register
from .card import BACK, FRONT, CardRenderer, Report, shares_sizes

ID_LENGTH = 7  # hex digits: as git shortens a commit, unique in any deck of cards
# what the stamps read when a card's print id is computed: the same on every version
NEUTRAL_STAMPS = {"deck.version": "", "deck.date": "", "card.id": "0" * ID_LENGTH}


def drawing_key(renderer, card, side: str, page: tuple[float, float], trim,
                which=None) -> str:
    """A hash of the PDF operators that draw ``card``'s ``side`` centred on a
    ``page``-sized page of its own, the bleed around its ``trim``, and of the fonts they
    use; ``which`` as in :meth:`CardRenderer.draw` (some of its elements only)."""
    canvas = Canvas(io.BytesIO(), pagesize=page, initialFontName=register(DEFAULT_FONT),
                    invariant=1)
    bleed = (page[0] - trim.width) / 2
    renderer.draw(canvas, card, side, bleed, (page[1] - trim.height) / 2, trim.width,
                  trim.height, bleed, which)
    # the page's operators so far: reportlab keeps them in _code until the page is shown
    fonts = sorted(canvas._doc.fontMapping.items())
    return hashlib.sha256(repr((canvas._code, fonts)).encode()).hexdigest()[:24]


def reads_card_id(deck) -> bool:
    """Whether any of the deck's layouts prints ``{card.id}``."""
    return any("card.id" in element.fields(layout.styles, layout.assets.icons)
               for layout in deck.layouts() for element in layout.elements)


class Prints:
    """A deck's cards drawn as they print, with the stamps left out
    (:data:`NEUTRAL_STAMPS`): ``keys`` maps each card's number to the drawing keys of its
    front and back. Texts that share a size group are fitted across the whole deck, as a
    build fits them.

    ``known`` (card :func:`signature` -> keys), kept by a caller that draws the deck again
    and again (the studio), spares drawing a card whose signature it holds; the caller
    empties it when a file other than the cards' own changes (a layout, an image, a
    font). A deck with size groups is drawn whole: one card's words can resize another's."""

    def __init__(self, deck, known: dict | None = None):
        stamps = {**deck.cards[0].stamps, **NEUTRAL_STAMPS} if deck.cards else {}
        self.cards = {card.number: replace(card, stamps=stamps) for card in deck.cards}
        known = {} if known is None or shares_sizes(deck) else known
        todo = {number: signature(card) for number, card in self.cards.items()
                if signature(card) not in known}
        self.renderer = CardRenderer(Report())
        self.renderer.fit([self.cards[number] for number in todo])
        self.trim = deck.size
        shared: dict = {}  # id(a back many cards share, resolved) -> its key
        self.keys: dict[int, tuple[str, str]] = {}
        for number, card in self.cards.items():
            if number not in todo:
                self.keys[number] = known[signature(card)]
                continue
            back = id(self.renderer.resolve(card, BACK))
            if back not in shared:
                shared[back] = self._key(card, BACK)
            self.keys[number] = known[todo[number]] = (self._key(card, FRONT), shared[back])

    def elements(self, number: int, side: str) -> dict[str, str]:
        """Each element the card's ``side`` draws, by name -> the key of it drawn alone."""
        card = self.cards[number]
        return {item.element.name: self._key(card, side, lambda i, k=k: i == k)
                for k, item in enumerate(self.renderer.resolve(card, side))}

    def _key(self, card, side: str, which=None) -> str:
        return drawing_key(self.renderer, card, side, (self.trim.width, self.trim.height),
                           self.trim, which)


def signature(card) -> str:
    """What a card's print depends on beside the files of its deck: its fields, its back
    design and the names of its layouts (and the deck's title it may print)."""
    return repr((tuple(card.fields.items()), card.back.name, tuple(card.back.fields.items()),
                 card.front.name, card.back.layout.name, str(card.folder),
                 card.stamps.get("deck.title")))


def print_id(front_key: str, back_key: str) -> str:
    """A card's print id from its sides' keys: seven hex digits.

    >>> print_id("a" * 24, "b" * 24)
    '6f908e1'
    """
    return hashlib.sha256(f"{front_key}/{back_key}".encode()).hexdigest()[:ID_LENGTH]


def with_card_ids(deck, known: dict | None = None):
    """The deck with each card's ``{card.id}`` filled in, when a layout prints it (the
    deck as it is otherwise: computing the ids draws every card once more, but those
    ``known`` as in :class:`Prints`)."""
    if not reads_card_id(deck):
        return deck
    keys = Prints(deck, known).keys
    cards = tuple(replace(card, stamps={**card.stamps, "card.id": print_id(*keys[card.number])})
                  for card in deck.cards)
    return deck._replace(cards=cards)
