"""Proofs: ``--cards`` picks exactly the cards named, and ``cardkit preview`` draws them.

The cards are found in the output by colour: each card of the test deck fills its front
with its own colour, so a page or an image says which cards it holds.
"""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import numpy
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.deck.selection import SpecError, parse_spec, select_cards
from cardkit.sources.bundled import find_deck
from conftest import ID_BACK, ID_FRONT, PATIENCE, card_colour, hex_colour, write_deck
from pdfgeom import page_count, shapes

CARDS = 9
POKER_MM = (63.5, 88.9)


def counted_deck(folder):
    """Nine cards coloured by card_colour, card i printed i times, named 'Card i'; the odd
    ones have the back 'red', the even ones 'blue'."""
    cards = "\n".join(
        f"  - {{colour: '{hex_colour(card_colour(i))}', name: 'Card {i + 1}', "
        f"count: {i + 1}, back: {'red' if i % 2 == 0 else 'blue'}}}" for i in range(CARDS))
    return write_deck(folder, f"""
        name: proofs
        size: poker
        front: id-front
        backs:
          red: {{layout: id-back, colour: '#ff0000'}}
          blue: {{layout: id-back, colour: '#0000ff'}}
        fields:
          colour: colour
          name: text
        cards:
        {cards}
        """.replace("\n        ", "\n"), {"id-front": ID_FRONT, "id-back": ID_BACK})


def cards_on_fronts(pdf) -> Counter:
    """The card numbers (from 1) on the front pages of a pnp PDF, counted, by the colour
    of every card-sized rectangle."""
    by_colour = {card_colour(i): i + 1 for i in range(CARDS)}
    found = Counter()
    for page in range(0, page_count(pdf), 2):  # fronts and backs alternate
        for shape in shapes(pdf, page):
            if (round(shape.width, 1), round(shape.height, 1)) == POKER_MM \
                    and shape.fill in by_colour:
                found[by_colour[shape.fill]] += 1
    return found


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


# -- what a --cards text means -------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, CARDS), min_size=1))
def test_numbers_and_ranges_pick_exactly_the_cards_named(tmp_path_factory, chosen):
    """The oracle is the set itself: written as runs ('2-4,7'), it selects just those."""
    deck = load_deck(counted_deck(tmp_path_factory.mktemp("deck")))
    ordered, runs = sorted(chosen), []
    for number in ordered:
        if runs and runs[-1][1] == number - 1:
            runs[-1][1] = number
        else:
            runs.append([number, number])
    spec = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in runs)
    picked = select_cards(deck, spec)
    assert [card.number for card in picked.cards] == ordered
    assert picked.total() == len(chosen)  # each once, whatever its count


@pytest.mark.parametrize("spec, numbers", [
    ("name=Card 3", [3]),
    ("name=card 3", [3]),  # a value matches whatever its case
    ("back=blue", [2, 4, 6, 8]),
    ("1,back=blue,2", [1, 2, 4, 6, 8]),  # items add up; a card picked twice prints once
    (" 9 , 5 - 6 ,", [5, 6, 9]),
])
def test_fields_and_mixtures(tmp_path, spec, numbers):
    deck = load_deck(counted_deck(tmp_path))
    assert [card.number for card in select_cards(deck, spec).cards] == numbers


@pytest.mark.parametrize("spec, message", [
    ("3-", "'3-' is not a card number, a range or FIELD=VALUE"),
    ("9-7", "the range '9-7' runs backwards; write '7-9'"),
    ("3,a", "'a' is not a card number"),
    (" , ", "' , ' names no cards"),
    ("=Dragon", "'=Dragon' is not a card number"),
])
def test_spec_that_is_not_a_selection(spec, message):
    with pytest.raises(SpecError, match=message):
        parse_spec(spec)


@pytest.mark.parametrize("spec, message", [
    ("12", "--cards: there is no card 12; the deck has 9 distinct cards; use numbers from "
           "1 to 9 ('cardkit preview' numbers them)"),
    ("8-12", None),
    ("10-12", "--cards: there is no cards 10-12; the deck has 9 distinct cards; use numbers "
              "from 1 to 9 ('cardkit preview' numbers them)"),
    ("nmae=Card 1", "--cards: the deck has no field 'nmae'; did you mean 'name'?"),
    ("name=Card 77", "--cards: no card has name 'Card 77'; did you mean 'Card 7'?"),
    ("back=green", "--cards: no card has back 'green'; use one of: blue, red"),
])
def test_selection_mistakes_exit_2_with_one_message(tmp_path, spec, message):
    deck = counted_deck(tmp_path / "deck")
    result = run("build", deck, "--cards", spec, "--out", tmp_path / "out")
    if message is None:  # a range reaching past the end still picks the cards it can
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines == [f"{deck}: {message}", "cardkit: 1 problem in "
                     f"{deck}; nothing was written"]
    assert not (tmp_path / "out").exists()


def test_bad_syntax_is_a_usage_error(tmp_path):
    result = run("build", counted_deck(tmp_path), "--cards", "3-", "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert "Invalid value for '--cards': '3-' is not a card number" in result.output


# -- build and export with --cards ----------------------------------------------------------

def test_build_prints_the_chosen_cards_once_each_beside_the_whole_deck(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    out = tmp_path / "out"
    assert run("build", deck, "--out", out).exit_code == 0
    result = run("build", deck, "--cards", "2,5-6,name=Card 9", "--out", out)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("proofs: 4 cards, 2 pages")
    proof = out / "proofs" / "proofs-cards2,5-6,name=card9-pnp-a4.pdf"
    assert cards_on_fronts(proof) == Counter({2: 1, 5: 1, 6: 1, 9: 1})
    # the whole deck's sheet is still there, every copy on it
    whole = cards_on_fronts(out / "proofs" / "proofs-pnp-a4.pdf")
    assert whole == Counter({i: i for i in range(1, CARDS + 1)})


def test_export_images_of_the_chosen_cards(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    result = run("export", deck, "--to", "png", "--dpi", 72, "--cards", "back=red",
                 "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "proofs" / "proofs-cards-back=red-png-72dpi-bleed0mm"
    fronts = sorted(p.name for p in folder.glob("*-front.png"))
    assert fronts == ["001-card-1-front.png", "003-card-3-front.png", "005-card-5-front.png",
                      "007-card-7-front.png", "009-card-9-front.png"]
    backs = sorted(p.name for p in folder.glob("*-back.png"))  # the back reads the colour
    assert backs == [name.replace("front", "back") for name in fronts]


def test_a_selection_with_odd_characters_gets_a_plain_file_name(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    result = run("build", deck, "--cards", "name=Card/1", "--out", tmp_path / "out")
    assert result.exit_code == 2  # no such card; the name is checked before it is used
    result = run("build", deck, "--cards", "name=Card 1", "--out", tmp_path / "out")
    assert result.exit_code == 0
    [pdf] = (tmp_path / "out" / "proofs").glob("*.pdf")
    assert pdf.name == "proofs-cards-name=card1-pnp-a4.pdf"


# -- preview --------------------------------------------------------------------------------

def test_preview_shows_front_and_back_side_by_side(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    result = run("preview", deck, "--cards", "1-2", "--dpi", 100, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    folder = tmp_path / "out" / "proofs" / "proofs-preview"
    assert sorted(p.name for p in folder.iterdir()) == [
        "001-card-1.png", "002-card-2.png", "contact-sheet.png"]
    card_w, card_h = round(63.5 / 25.4 * 100), round(88.9 / 25.4 * 100)
    margin = round(100 / 8)
    for number, back in ((1, (255, 0, 0)), (2, (0, 0, 255))):
        image = Image.open(folder / f"00{number}-card-{number}.png").convert("RGB")
        assert image.size == (2 * card_w + 3 * margin, card_h + 2 * margin)
        front_x, back_x = margin + card_w // 2, 2 * margin + card_w + card_w // 2
        y = margin + card_h // 2
        assert image.getpixel((front_x, y)) == card_colour(number - 1)
        assert image.getpixel((back_x, y)) == back  # the back's middle mark
        assert image.getpixel((back_x, margin + 20)) == card_colour(number - 1)
        # the rounded corner shows the ground, not the card
        assert image.getpixel((margin + 1, margin + 1)) == (226, 228, 231)


def test_preview_folder_is_one_folder_replaced_whatever_the_options(tmp_path):
    """The docs promise output/DECK/DECK-preview/, replaced each time: a proof of other
    cards or at another dpi replaces the images there rather than going elsewhere."""
    deck = counted_deck(tmp_path / "deck")
    out = tmp_path / "out"
    folder = out / "proofs" / "proofs-preview"
    assert run("preview", deck, "--out", out).exit_code == 0
    assert len(list(folder.glob("0*.png"))) == CARDS
    result = run("preview", deck, "--cards", "4", "--dpi", 100, "--out", out)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (out / "proofs").iterdir()) == ["proofs-preview"]
    assert sorted(p.name for p in folder.iterdir()) == ["004-card-4.png", "contact-sheet.png"]
    assert "proofs-preview (" in result.output
    assert round(Image.open(folder / "004-card-4.png").info["dpi"][0]) == 100


def test_contact_sheet_holds_every_card_in_order(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    assert run("preview", deck, "--out", tmp_path / "out").exit_code == 0
    sheet = Image.open(tmp_path / "out" / "proofs" / "proofs-preview" / "contact-sheet.png")
    sheet = sheet.convert("RGB")
    width = 180
    height = round(width * 88.9 / 63.5)
    gap, label = 16, 24
    columns = (sheet.width - gap) // (width + gap)
    assert (columns, sheet.height) == (4, 3 * (height + label + gap) + gap)
    for i in range(CARDS):
        row, column = divmod(i, columns)
        centre = (gap + column * (width + gap) + width // 2,
                  gap + row * (height + label + gap) + height // 4)
        assert sheet.getpixel(centre) == card_colour(i)


def test_preview_of_bundled_decks_as_a_subprocess(tmp_path):
    """Bundled decks preview, an image for each distinct card."""
    names = ["blofa", "shapes"]
    done = subprocess.run([sys.executable, "-m", "cardkit", "preview", *names,
                           "--out", tmp_path], capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == names
    for name, line in zip(names, lines):
        distinct = len(load_deck(find_deck(name)).cards)
        assert f": {distinct} cards previewed -> " in line
        folder = tmp_path / name / f"{name}-preview"
        assert len([f for f in folder.iterdir() if f.name[0].isdigit()]) == distinct


def test_build_with_cards_as_a_subprocess(tmp_path):
    deck = counted_deck(tmp_path / "deck")
    done = subprocess.run([sys.executable, "-m", "cardkit", "build", str(deck), "--cards",
                           "7-9", "--out", str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=PATIENCE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("proofs: 3 cards, 2 pages")
    pdf = tmp_path / "out" / "proofs" / "proofs-cards7-9-pnp-a4.pdf"
    assert cards_on_fronts(pdf) == Counter({7: 1, 8: 1, 9: 1})


# -- overflow marks ---------------------------------------------------------------------------

OVERFLOW_FRONT = """
elements:
  - {name: bg, kind: rect, box: card, fill: white}
  - name: body
    kind: text
    box: [10mm, 30mm, 43.5mm, 12mm]
    size: 9pt
    min_size: 9pt
    text: "{text}"
"""


def _overflow_deck(folder):
    long = "This text is far too long for its small box. " * 6
    return write_deck(folder, f"""
        name: spill
        size: poker
        front: spill-front
        backs: {{plain: {{layout: id-back, colour: '#ffffff'}}}}
        fields: {{text: text, colour: {{type: colour, default: '#ffffff'}}}}
        cards:
          - {{text: "Fits."}}
          - {{text: "{long}"}}
        """.replace("\n        ", "\n"), {"spill-front": OVERFLOW_FRONT, "id-back": ID_BACK})


def _red_pixels(image: Image.Image, box) -> int:
    """Pixels inside ``box`` (left, top, right, bottom) that are the mark's strong red."""
    rgb = numpy.asarray(image.convert("RGB").crop(box)).astype(int)
    return int(((rgb[..., 0] > 180) & (rgb[..., 1] < 80) & (rgb[..., 2] < 90)).sum())


def test_preview_marks_the_box_of_text_that_does_not_fit(tmp_path):
    """The warning names the element; the preview shows which box it is: outlined in red.
    A text that fits gets no mark."""
    deck = _overflow_deck(tmp_path / "deck")
    result = run("preview", deck, "--dpi", 100, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert "does not fit" in result.output
    folder = tmp_path / "out" / "spill" / "spill-preview"
    margin = round(100 / 8)
    px = 100 / 25.4  # pixels a millimetre
    # the box's outline runs along its edges: look at a band just around its left edge
    left, top, bottom = (margin + round(10 * px), margin + round(30 * px),
                         margin + round(42 * px))
    edge = (left - 3, top, left + 3, bottom)
    assert _red_pixels(Image.open(next(folder.glob("002-*.png"))), edge) > 10
    assert _red_pixels(Image.open(next(folder.glob("001-*.png"))), edge) == 0


def test_guides_mark_overflowing_text_and_plain_builds_do_not(tmp_path):
    import pypdfium2

    deck = _overflow_deck(tmp_path / "deck")
    counts = {}
    for guides in (False, True):
        out = tmp_path / f"out-{guides}"
        args = ["build", deck, "--out", out] + (["--guides"] if guides else [])
        assert run(*args).exit_code == 0
        [pdf] = (out / "spill").glob("*.pdf")
        page = pypdfium2.PdfDocument(pdf)[0].render(scale=100 / 72).to_pil()
        counts[guides] = _red_pixels(page, (0, 0, page.width, page.height))
    assert counts[False] == 0
    assert counts[True] > 100
