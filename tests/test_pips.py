"""The standard deck's faces as players read them, measured on the rendered cards: the
number cards show as many pips as their rank, the lower pips turned; the courts and the
jokers are double-ended, the same turned 180 degrees.

Every distinct front is drawn on a page of its own (the page is exactly the card) and
rendered with PDFium at 100 dpi; pips are counted as connected blobs of ink.
"""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageChops

from cardkit.deck.loader import load_deck
from cardkit.pipeline.build import check_cards
from cardkit.render.card import FRONT
from cardkit.sources.bundled import find_deck
from cardkit.writers.card_pdf import write_card_pdf

DPI = 100
PX_PER_MM = DPI / 25.4
CARD_H = 88.9  # a poker card's height, millimetres
# The pip field: inside it lie the pips and nothing else; outside it, the corner indices
# (the top-left index ends 14.5 mm from the left and 21.5 mm from the top).
FIELD = (15.0, 7.0, 48.5, 81.9)  # left, top, right, bottom in mm
TOP_INDEX_SUIT = (5.5, 14.5, 12.5, 21.5)  # the upright suit under the top-left rank
SUITS = ("spade", "heart", "diamond", "club")
NUMBERS = ("2", "3", "4", "5", "6", "7", "8", "9", "10")


@pytest.fixture(scope="module")
def fronts(tmp_path_factory) -> dict:
    """(rank, suit) -> the front as an RGB image, for every distinct card (a joker's key is
    ("Joker", its ink))."""
    deck = load_deck(find_deck("standard"))
    renderer, _ = check_cards(deck)
    path = tmp_path_factory.mktemp("pips") / "fronts.pdf"
    write_card_pdf(path, deck, [(card, FRONT) for card in deck.cards],
                   (deck.size.width, deck.size.height), renderer)
    document = pdfium.PdfDocument(str(path))
    try:
        return {(card.fields["rank"], card.fields["suit"] or card.fields["ink"]):
                document[page].render(scale=DPI / 72).to_pil().convert("RGB")
                for page, card in enumerate(deck.cards)}
    finally:
        document.close()


@pytest.fixture(scope="module")
def card_pips(fronts) -> dict:
    """(rank, suit) -> the pips of the ace and the number cards (see :func:`pips`)."""
    return {(rank, suit): pips(fronts[rank, suit]) for rank in ("A",) + NUMBERS
            for suit in SUITS}


def ink(image: Image.Image, area) -> np.ndarray:
    """Where ``area`` (left, top, right, bottom in mm) of a card is inked: True for the
    suits' red and black, whose green is low, False for the white card."""
    left, top, right, bottom = (round(v * PX_PER_MM) for v in area)
    return np.asarray(image)[top:bottom, left:right, 1] < 128


def blobs(mask: np.ndarray) -> list[np.ndarray]:
    """The connected blobs of a mask (pixels touching by a side or a corner), each as an
    array of (row, column) pixels. Every inked pixel starts with its own number and takes
    the least number among its inked neighbours until none changes: then each blob's
    pixels share one number."""
    height, width = mask.shape
    outside = height * width
    labels = np.where(mask, np.arange(outside).reshape(mask.shape), outside)
    while True:
        padded = np.pad(labels, 1, constant_values=outside)
        least = labels.copy()
        for dy in (0, 1, 2):
            for dx in (0, 1, 2):
                least = np.minimum(least, padded[dy:dy + height, dx:dx + width])
        least = np.where(mask, least, outside)
        if np.array_equal(least, labels):
            break
        labels = least
    return [np.argwhere(labels == label) for label in np.unique(labels[mask])]


def grown(mask: np.ndarray, pixels: int) -> np.ndarray:
    """The mask grown by ``pixels`` in every direction (corners included)."""
    result = mask.copy()
    for _ in range(pixels):
        step = result.copy()
        step[1:] |= result[:-1]
        step[:-1] |= result[1:]
        step[:, 1:] |= step[:, :-1].copy()
        step[:, :-1] |= step[:, 1:].copy()
        result = step
    return result


def pips(image: Image.Image) -> list[np.ndarray]:
    """The pips of an ace or a number card: the blobs of ink in the pip field, each as its inked
    pixels. The ink is grown by half a millimetre before the blobs are found, so that a
    pip drawn in parts (the club's stem stands a hair below its leaves) counts once; pips
    lie more than a millimetre apart."""
    mask = ink(image, FIELD)
    return [pixels[mask[pixels[:, 0], pixels[:, 1]]]
            for pixels in blobs(grown(mask, round(0.5 * PX_PER_MM)))]


def silhouette(pixels: np.ndarray) -> Image.Image:
    """A blob's pixels as a black-and-white picture cut to the blob's bounds."""
    rows, columns = pixels[:, 0] - pixels[:, 0].min(), pixels[:, 1] - pixels[:, 1].min()
    picture = np.zeros((rows.max() + 1, columns.max() + 1), np.uint8)
    picture[rows, columns] = 255
    return Image.fromarray(picture)


def mismatch(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels where two silhouettes of one size disagree."""
    return np.mean(np.asarray(ImageChops.difference(a, b)) > 127)


def turned(pip: np.ndarray, upright: Image.Image) -> bool:
    """Whether a pip is the ``upright`` suit turned 180 degrees rather than standing up:
    which of the two it matches better, scaled to the pip's size. The better match must
    be clearly better (less than half the mismatch), or the pip is neither."""
    shape = silhouette(pip)
    standing = upright.resize(shape.size)
    as_is, as_turned = mismatch(shape, standing), mismatch(shape, standing.rotate(180))
    assert min(as_is, as_turned) < 0.5 * max(as_is, as_turned), (as_is, as_turned)
    return as_turned < as_is


def centre_row_mm(pixels: np.ndarray) -> float:
    """How far down the card the middle of a blob lies, in mm."""
    rows = pixels[:, 0]
    return FIELD[1] + (rows.min() + rows.max()) / 2 / PX_PER_MM


def differing(image: Image.Image) -> float:
    """The share of pixels that differ by more than a quarter of the grey scale between a
    card and its 180 degree turn (anti-aliased edges differ a little; a shape does more)."""
    grey = image.convert("L")
    histogram = ImageChops.difference(grey, grey.rotate(180)).histogram()
    return sum(histogram[64:]) / (grey.width * grey.height)


@pytest.mark.parametrize("suit", SUITS)
def test_each_number_card_shows_as_many_pips_as_its_rank(card_pips, suit):
    counts = {rank: len(card_pips[rank, suit]) for rank in ("A",) + NUMBERS}
    assert counts == {"A": 1, **{rank: int(rank) for rank in NUMBERS}}, suit


@pytest.mark.parametrize("suit", SUITS)
def test_pips_lie_whole_inside_the_pip_field_clear_of_the_indices(fronts, card_pips, suit):
    height, width = ink(fronts["2", suit], FIELD).shape
    for rank in NUMBERS:
        for pip in card_pips[rank, suit]:
            rows, columns = pip[:, 0], pip[:, 1]
            assert rows.min() > 0 and columns.min() > 0, (rank, suit)
            assert rows.max() < height - 1 and columns.max() < width - 1, (rank, suit)


@pytest.mark.parametrize("suit", ["heart", "spade", "club"])  # a diamond is the same turned
def test_upper_pips_stand_up_and_lower_pips_are_turned(fronts, card_pips, suit):
    """A pip in the upper half or on the middle line stands as the suit in the top-left
    index does; a pip in the lower half is turned 180 degrees."""
    upright = silhouette(np.argwhere(ink(fronts["A", suit], TOP_INDEX_SUIT)))
    for rank in NUMBERS:
        for pip in card_pips[rank, suit]:
            lower = centre_row_mm(pip) > CARD_H / 2 + 1
            assert turned(pip, upright) == lower, f"{rank} of {suit}s, a pip " \
                f"{centre_row_mm(pip):.1f} mm down"


@pytest.mark.parametrize("suit", SUITS)
def test_number_cards_have_their_traditional_rows(card_pips, suit):
    """The pips' rows from top to bottom, as on a French-suited deck: how many pips each
    row holds (pips whose middles lie within 2 mm of each other share a row)."""
    expected = {"2": [1, 1], "3": [1, 1, 1], "4": [2, 2], "5": [2, 1, 2], "6": [2, 2, 2],
                "7": [2, 1, 2, 2], "8": [2, 1, 2, 1, 2], "9": [2, 2, 1, 2, 2],
                "10": [2, 1, 2, 2, 1, 2]}
    for rank, rows in expected.items():
        middles = sorted(centre_row_mm(pip) for pip in card_pips[rank, suit])
        counted = [1]
        for above, below in zip(middles, middles[1:]):
            if below - above < 2:
                counted[-1] += 1
            else:
                counted.append(1)
        assert counted == rows, (rank, suit)


@pytest.mark.parametrize("rank", ["J", "Q", "K"])
def test_courts_are_the_same_turned_round(fronts, rank):
    for suit in SUITS:
        assert differing(fronts[rank, suit]) < 0.002, (rank, suit)


def test_jokers_are_the_same_turned_round(fronts):
    jokers = [image for (rank, _), image in fronts.items() if rank == "Joker"]
    assert len(jokers) == 2
    for image in jokers:
        assert differing(image) < 0.002


def test_the_symmetry_check_can_fail(fronts):
    """Control: a 7 (one pip more in the upper half) is not the same turned round."""
    assert differing(fronts["7", "spade"]) > 0.005
