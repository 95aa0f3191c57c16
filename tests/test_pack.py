"""cardkit pack (issue 41): a deck's contest entry as a folder and a reproducible zip."""

from __future__ import annotations

import io
import re
import zipfile

import pypdf
import pypdfium2 as pdfium
import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from cardkit.cli import main
from cardkit.sources.files import BUNDLED_DECKS as DECKS
from conftest import ID_BACK, ID_FRONT, write_deck

EPOCH = "1700000000"  # 2023-11-14 22:13:20 UTC
BLOFA_FILES = [
    "blofa-components-and-changes.txt",
    "blofa-gutterfold-a4.pdf", "blofa-gutterfold-letter.pdf",
    "blofa-how-to-print-a4.pdf", "blofa-how-to-print-letter.pdf",
    "blofa-pnp-a4.pdf", "blofa-pnp-letter.pdf",
    "blofa-printer-test-a4.pdf", "blofa-printer-test-letter.pdf",
    "blofa-rules-a4.pdf", "blofa-rules-letter.pdf",
    "gallery/blofa-cover.png",
    *[f"gallery/cards/{name}-front.png" for name in (
        "001-rules-1-3-setup", "002-rules-2-3-a-trick", "003-rules-3-3-scoring", "004-2",
        "005-4", "006-1", "007-3", "008-5")],
    "gallery/cards/back-blue.png", "gallery/cards/back-yellow.png",
    "low-ink/blofa-pnp-a4-draft-ink.pdf", "low-ink/blofa-pnp-letter-draft-ink.pdf",
    "tabletop-simulator/back-blue.png", "tabletop-simulator/back-yellow.png",
    "tabletop-simulator/blofa.json", "tabletop-simulator/sheet-1.png",
    "tabletop-simulator/sheet-2.png",
]


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def blofa(tmp_path_factory):
    """Blófa packed once: its entry folder; the zip beside it."""
    out = tmp_path_factory.mktemp("pack")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SOURCE_DATE_EPOCH", EPOCH)
        result = run("pack", "blofa", "--out", out)
    assert result.exit_code == 0, result.output
    assert "blofa: 29 files, keeps to the 18-card contest (bgg-18-card)" in result.output
    entry = out / "blofa" / "blofa-1.0-entry"
    # the TTS deck points at this computer's files: said, with what to do before sharing
    assert (f"warning: {DECKS / 'blofa' / 'deck.yaml'}: the entry's Tabletop Simulator deck "
            f"finds its images by file:// paths on this computer "
            f"({entry.resolve() / 'tabletop-simulator'}), so it opens here only; before you "
            "share the entry, put the images of tabletop-simulator/ online and pack again "
            "with --base-url and their web address") in result.output.splitlines()
    return entry


def test_blofa_packs_a_complete_18_card_entry(blofa):
    archive = zipfile.ZipFile(blofa.parent / "blofa-1.0-entry.zip")
    assert archive.namelist() == [f"blofa-1.0-entry/{name}" for name in BLOFA_FILES]
    assert sorted(p.relative_to(blofa).as_posix() for p in blofa.rglob("*") if p.is_file()) \
        == BLOFA_FILES
    info = archive.infolist()[0]
    assert info.date_time == (2023, 11, 14, 22, 13, 20)
    assert info.external_attr >> 16 == 0o100644
    text = (blofa / "blofa-components-and-changes.txt").read_text(encoding="utf-8")
    assert "- 18 cards, poker size (63.5 x 88.9 mm)\n  - 9 with the blue back\n" in text
    assert "Entered in the 18-card contest (bgg-18-card)." in text


@pytest.mark.parametrize("name, size, pages", [
    ("blofa-pnp-a4.pdf", (595.28, 841.89), 4), ("blofa-pnp-letter.pdf", (612, 792), 4),
    ("blofa-gutterfold-a4.pdf", (841.89, 595.28), 5),
    ("blofa-how-to-print-letter.pdf", (612, 792), 1),
])
def test_each_pdf_is_on_its_paper(blofa, name, size, pages):
    reader = pypdf.PdfReader(blofa / name)
    box = reader.pages[0].mediabox
    assert (round(float(box.width), 2), round(float(box.height), 2)) == size
    assert len(reader.pages) == pages


def _ink(path, page: int) -> float:
    """How dark the page renders, 0 (white) to 255 (black), on average."""
    image = pdfium.PdfDocument(path)[page].render(scale=20 / 72).to_pil().convert("L")
    return 255 - ImageStat.Stat(image).mean[0]


def test_the_low_ink_version_uses_less_ink(blofa):
    full = _ink(blofa / "blofa-pnp-a4.pdf", 1)  # the blue backs: large fills
    low = _ink(blofa / "low-ink" / "blofa-pnp-a4-draft-ink.pdf", 1)
    assert full > 45 and low < 0.5 * full


def test_the_how_to_sheet_says_what_the_pdfs_are(blofa):
    text = " ".join(pypdf.PdfReader(blofa / "blofa-how-to-print-a4.pdf").pages[0]
                    .extract_text().split())
    assert "Print at 100% (\"Actual size\")" in text and "50 mm x 50 mm" in text
    assert "blofa-pnp-a4.pdf: 4 pages, 9 cards a sheet. Both sides, flipping on the long " \
           "edge (portrait)" in text
    assert "blofa-gutterfold-a4.pdf: 5 pages, 4 cards a sheet. One side only." in text
    assert "blofa-rules-a4.pdf: 3 pages." in text
    assert "low-ink/blofa-pnp-a4-draft-ink.pdf: 4 pages" in text  # where it is in the entry
    assert "letter" not in text  # the A4 sheet names the A4 files
    # written for players: the printer test is in the entry, no command to run
    assert "cardkit" not in text and "--back-offset" not in text
    assert "4. If the backs sit off their fronts: print blofa-printer-test-a4.pdf (two " \
           "pages) on both sides, the way you printed the cards, and follow what it says." \
        in text


def test_the_printer_test_in_the_entry_tells_players_what_to_do(blofa):
    """The calibration sheet a player prints: what its reading means for them (they
    print the entry's PDFs, they build nothing)."""
    reader = pypdf.PdfReader(blofa / "blofa-printer-test-letter.pdf")
    assert len(reader.pages) == 2
    assert (round(float(reader.pages[0].mediabox.width)), round(float(
        reader.pages[0].mediabox.height))) == (612, 792)
    text = " ".join(reader.pages[0].extract_text().split())
    assert "Printer test sheet · Letter · flip on the long edge" in text
    assert "Print the gutterfold file instead (one side, folded), or send the two " \
           "numbers to the designer." in text
    assert "cardkit build" not in text and "--back-offset" not in text


def test_the_how_to_sheet_says_gutterfold_cards_are_cut_apart(blofa):
    """The gutterfold sheet's cards stand apart, their bleed between them, so 'one cut
    separates two' is said of the two-sided sheets only."""
    text = " ".join(pypdf.PdfReader(blofa / "blofa-how-to-print-a4.pdf").pages[0]
                    .extract_text().split())
    assert "On the two-sided sheets the cards touch, so one cut separates two of them; on " \
           "the gutterfold sheets they stand a few millimetres apart" in text


def test_the_gallery_images_are_sized_for_the_game_page(blofa):
    with Image.open(blofa / "gallery" / "blofa-cover.png") as cover:
        assert cover.size == (1200, 900)
    with Image.open(blofa / "gallery" / "cards" / "004-2-front.png") as card:
        assert card.size == (750, 1050)


def tiny(folder, colour="#ff0000", version="1", extra=""):
    return write_deck(folder, f"""\
name: tiny
version: "{version}"
size: poker
front: id-front
backs:
  plain: {{layout: id-back, colour: '#ffffff'}}
fields:
  colour: colour
  name: text
{extra}cards:
  - {{name: Ace, colour: '{colour}'}}
""", {"id-front": ID_FRONT, "id-back": ID_BACK})


def test_the_same_inputs_make_the_same_zip_and_a_new_version_its_changelog(tmp_path,
                                                                             monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", EPOCH)
    deck, out = tiny(tmp_path / "deck", extra="license: CC-BY-4.0\n"), tmp_path / "out"
    zip_path = out / "tiny" / "tiny-1-entry.zip"
    assert run("pack", deck, "--out", out).exit_code == 0
    first = zip_path.read_bytes()
    assert run("pack", deck, "--out", out).exit_code == 0
    assert zip_path.read_bytes() == first
    archive = zipfile.ZipFile(io.BytesIO(first))
    assert archive.read("tiny-1-entry/LICENSE.txt") == \
        b"tiny is shared under the licence CC-BY-4.0.\n"
    assert "- the first packed version" in archive.read(
        "tiny-1-entry/tiny-components-and-changes.txt").decode()
    tiny(tmp_path / "deck", colour="#00ff00", version="2")
    assert run("pack", deck, "--out", out).exit_code == 0
    text = (out / "tiny" / "tiny-2-entry" / "tiny-components-and-changes.txt").read_text()
    assert text.startswith("tiny, version 2\n\nComponents\n- 1 card, poker size")
    assert text.endswith("Changes since version 1\n- changed: Ace, its front and back\n")


def test_an_entry_that_breaks_its_contest_is_refused_with_one_message(tmp_path):
    deck = tiny(tmp_path / "deck", extra="contest: bgg-9-card\n")
    result = run("pack", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert [line for line in result.output.splitlines() if "deck.yaml:" in line] == [
        f"{deck}:10:10: 1 card, the 9-card contest allows 9; print 8 cards more (a card's "
        "'count', or its entry under 'cards:')"]
    assert not (tmp_path / "out").exists()


def test_the_entry_holds_the_box_tokens_and_boards_the_deck_declares(tmp_path):
    """A deck with a tuck box, tokens and a board packs them into components/, each on A4
    and Letter as its own command writes it (the board whole too), lists them among the
    components, and the how-to sheet says how to print each."""
    deck = tiny(tmp_path / "deck", extra="box: {stock: standard}\ntokens:\n"
                "  - {shape: round, size: 20mm, count: 3, front: id-front, colour: '#0000ff'}\n"
                "boards:\n  - {name: map, width: 300mm, height: 200mm, layout: id-front, "
                "colour: '#00ff00'}\n")
    result = run("pack", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    entry = tmp_path / "out" / "tiny" / "tiny-1-entry"
    assert sorted(p.name for p in (entry / "components").iterdir()) == [
        "tiny-board-map-a4.pdf", "tiny-board-map-letter.pdf", "tiny-board-map.pdf",
        "tiny-box-a4.pdf", "tiny-box-letter.pdf", "tiny-tokens-a4.pdf", "tiny-tokens-letter.pdf"]
    whole = pypdf.PdfReader(entry / "components" / "tiny-board-map.pdf").pages[0].trimbox
    assert (round(float(whole.width) / 72 * 25.4), round(float(whole.height) / 72 * 25.4)) \
        == (300, 200)
    text = (entry / "tiny-components-and-changes.txt").read_text(encoding="utf-8")
    assert "- 1 card, poker size (63.5 x 88.9 mm)\n- a tuck box " \
           "for 1 card (stock 0.3 mm), inside 64.5 x 89.9 x 1.3 mm\n- 3 tokens\n- the " \
           "board map\n" in text
    howto = " ".join(pypdf.PdfReader(entry / "tiny-how-to-print-letter.pdf").pages[0]
                     .extract_text().split())
    tiles = len(pypdf.PdfReader(entry / "components" / "tiny-board-map-letter.pdf").pages)
    assert "components/tiny-box-letter.pdf: 1 page. The tuck box" in howto
    assert "components/tiny-tokens-letter.pdf: 1 page. The tokens" in howto
    assert f"components/tiny-board-map-letter.pdf: {tiles} pages. A board in tiles" in howto
    assert "a4" not in howto


def test_a_deck_with_a_board_alone_packs_it(tmp_path):
    deck = tiny(tmp_path / "deck", extra="boards:\n  - {name: map, width: 150mm, height: "
                "100mm, layout: id-front, colour: '#00ff00'}\n")
    result = run("pack", deck, "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out" / "tiny" / "tiny-1-entry" / "components")
                  .iterdir()) == ["tiny-board-map-a4.pdf", "tiny-board-map-letter.pdf",
                                  "tiny-board-map.pdf"]


def test_a_broken_component_stops_the_pack_before_it_writes(tmp_path):
    deck = tiny(tmp_path / "deck", extra="tokens:\n  - {shape: round, size: 2mm, front: "
                "id-front}\n")
    result = run("pack", deck, "--out", tmp_path / "out")
    assert result.exit_code == 2
    assert [line for line in result.output.splitlines() if "deck.yaml:" in line] == [
        f"{deck}:11:26: a token 2 mm across is out of range; give 5 to 170 mm"]
    assert not (tmp_path / "out").exists()


def test_with_a_base_url_the_entry_s_tts_deck_points_at_it_and_nothing_is_said(tmp_path):
    deck = tiny(tmp_path / "deck")
    result = run("pack", deck, "--out", tmp_path / "out", "--base-url",
                 "https://example.org/tiny/")
    assert result.exit_code == 0, result.output
    assert "warning" not in result.output
    saved = (tmp_path / "out/tiny/tiny-1-entry/tabletop-simulator/tiny.json").read_text()
    urls = re.findall(r'"(?:FaceURL|BackURL)": "([^"]*)"', saved)
    assert urls and all(url.startswith("https://example.org/tiny/") for url in urls)
