"""`cardkit export`: images for print services, one-card-per-page PDFs, Tabletop Simulator.

Sizes, boxes and page order are read back from the files with Pillow, pypdf and PDFium,
never taken from cardkit's own numbers.
"""

from __future__ import annotations

import csv
import functools
import json
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageChops, ImageStat

from cardkit.cli import main
from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.imposition.services import SERVICES
from cardkit.pipeline.build import Which
from cardkit.pipeline.export import ExportOptions, export_deck
from cardkit.sources.bundled import find_deck
from cardkit.writers.pdfx import transparent_pages

from conftest import card_colour, hex_colour, id_deck, write_deck
from pdfgeom import render_page

INCH = 72.0
MM = 72 / 25.4


def export(deck, out, to, service=None, **options):
    return export_deck(deck, out, ExportOptions(to, SERVICES.get(service), **options))


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """exported(bundled deck, to, service): its export, made once a module for the tests
    that only read what it wrote; to 'tts', (the result, its saved deck) as tts_export."""
    made = {}

    def get(name: str, to: str, service: str | None = None):
        if (name, to, service) not in made:
            folder = tmp_path_factory.mktemp(f"{name}-{to}")
            made[name, to, service] = tts_export(folder, find_deck(name)) if to == "tts" \
                else export(find_deck(name), folder, to, service)
        return made[name, to, service]
    return get


def pngs(folder: Path) -> dict[str, Image.Image]:
    return {p.name: Image.open(p) for p in sorted(folder.glob("*.png"))}


def manifest(folder: Path) -> list[dict]:
    with open(folder / "manifest.csv", newline="", encoding="utf-8") as rows:
        return list(csv.DictReader(rows))


def shared_back_deck(folder: Path, count: int, size: str = "poker") -> Path:
    """``count`` distinct cards coloured by card_colour, two copies each, and one back
    design that reads no card field (so one back image serves every card)."""
    cards = "\n".join(f"  - {{colour: '{hex_colour(card_colour(i))}', name: 'Card {i}', "
                      f"count: 2}}" for i in range(count))
    return write_deck(folder, f"""
        name: shared
        size: {size}
        front: front
        backs:
          plain: {{layout: back}}
        fields:
          colour: colour
          name: text
        cards:
        {cards}
        """.replace("\n        ", "\n"), {
        "front": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
                 "fill: '{colour}'}\n",
        "back": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
                "fill: '#203040'}\n"})


# -- images --------------------------------------------------------------------------------

@pytest.mark.parametrize("service, size", [("tgc", (825, 1125)), ("mpc", (822, 1122))])
def test_service_images_have_the_exact_pixel_size_and_dpi(exported, service, size):
    result = exported("blofa", "png", service)
    images = pngs(result.path)
    assert len(images) == 10  # 8 distinct fronts and the blue and the yellow back
    for name, image in images.items():
        assert image.size == size, name
        assert image.mode == "RGB"
        assert [round(d) for d in image.info["dpi"]] == [300, 300]


def test_bridge_cards_for_the_game_crafter(tmp_path):
    result = export(shared_back_deck(tmp_path / "d", 2, "bridge"), tmp_path / "o", "png", "tgc")
    assert {im.size for im in pngs(result.path).values()} == {(750, 1125)}  # 2.5 x 3.75 in


def test_any_dpi_and_bleed(tmp_path):
    result = export(shared_back_deck(tmp_path / "d", 2, "tarot"), tmp_path / "o", "png",
                    dpi=150, bleed=3 * MM)
    width, height = round((70 + 6) / 25.4 * 150), round((120 + 6) / 25.4 * 150)
    images = pngs(result.path)
    assert {im.size for im in images.values()} == {(width, height)}
    assert result.path.name == "shared-png-150dpi-bleed3mm"


def test_a_service_refuses_a_size_it_does_not_sell(tmp_path):
    with pytest.raises(InputError) as error:
        export(shared_back_deck(tmp_path / "d", 2, "tarot"), tmp_path / "o", "png", "tgc")
    message = str(error.value.problems[0])
    assert "The Game Crafter sells no card of 70 x 120 mm" in message
    assert "poker (2.5 x 3.5 in)" in message and "--dpi" in message


def test_the_manifest_counts_every_printed_card(exported):
    deck = load_deck(find_deck("shapes"))
    result = exported("shapes", "png", "tgc")  # the bundled decks' test reads it too
    rows = manifest(result.path)
    assert {row["image"] for row in rows} == set(pngs(result.path))  # no image left out
    fronts = [row for row in rows if row["side"] == "front"]
    backs = [row for row in rows if row["side"] == "back"]
    assert len(fronts) == len(deck.cards)
    assert sum(int(row["count"]) for row in fronts) == deck.total() == 90
    assert {row["name"]: int(row["count"]) for row in backs} == dict(deck.tally("back"))
    assert {row["image"] for row in backs} == {"back-left.png", "back-right.png",
                                               "back-blank.png", "back-objective.png"}
    first = fronts[0]
    assert first["image"] == "001-1-clear-circle-front.png"
    assert first["back"] == "back-left.png"


def test_backs_that_read_card_fields_get_an_image_per_card(tmp_path):
    result = export(id_deck(tmp_path / "d", 3), tmp_path / "o", "png", "tgc")
    assert sorted(pngs(result.path)) == sorted(
        f"00{i}-{hex_colour(card_colour(i - 1))[1:]}-{side}.png"
        for side in ("back", "front") for i in (1, 2, 3))


def test_an_image_is_the_card_on_the_home_sheet(tmp_path, build):
    """The export rasterises the same drawing: the first card of a home sheet, cut out of
    the sheet rendered at 300 dpi, matches the exported image pixel for pixel (but for
    anti-aliasing where the sheet's card edge falls between pixels)."""
    sheet = build(find_deck("blofa")).path
    page = render_page(sheet, 0, dpi=300)
    trim = pypdf.PdfReader(sheet).pages[0].trimbox  # the cards' bounds on the page
    left = float(trim.left) / INCH * 300
    top = (float(pypdf.PdfReader(sheet).pages[0].mediabox.top) - float(trim.top)) / INCH * 300
    card = page.crop((round(left), round(top), round(left) + 750, round(top) + 1050))
    image = pngs(export(find_deck("blofa"), tmp_path / "o", "png", dpi=300).path)[
        "001-rules-1-3-setup-front.png"]
    assert image.size == (750, 1050)
    difference = ImageStat.Stat(ImageChops.difference(card.convert("RGB"), image)).mean
    # of 255: glyphs snap to whole pixels, so a line of text may land a pixel apart (the
    # rules card measures 2.35); a card one pixel off gives 5 to 9
    assert max(difference) < 3.0, difference


# -- one card a page -------------------------------------------------------------------------

def boxes(page) -> dict:
    """The page's boxes in millimetres, to 0.01 mm."""
    return {name: [round(float(v) / MM, 2) for v in getattr(page, name)]
            for name in ("mediabox", "bleedbox", "trimbox")}


def page_texts(path) -> list[str]:
    return [page.extract_text() for page in pypdf.PdfReader(path).pages]


def test_drivethru_pdf_has_boxes_and_back_then_front(exported):
    result = exported("blofa", "pdf", "drivethru")
    assert result.path.name == "blofa-cards-drivethru.pdf"
    reader = pypdf.PdfReader(result.path)
    assert len(reader.pages) == 36  # 18 printed cards, a back and a front each
    bleed = 25.4 / 8
    whole = pytest.approx([0, 0, 63.5 + 2 * bleed, 88.9 + 2 * bleed], abs=0.01)
    for page in reader.pages:
        assert boxes(page) == {"mediabox": whole, "bleedbox": whole, "trimbox": pytest.approx(
            [bleed, bleed, 63.5 + bleed, 88.9 + bleed], abs=0.01)}
    texts = page_texts(result.path)
    assert all("Blófa" in t and "even" in t for t in texts[0:6:2])  # blue backs first
    assert "Rules 1/3" in texts[1] and "Rules 2/3" in texts[3]
    assert sum("odd" in t for t in texts[0::2]) == 9  # every copy has its pages


def test_eu_pdf_has_3mm_bleed_and_front_then_back(tmp_path):
    result = export(find_deck("blofa"), tmp_path, "pdf", "eu")
    page = pypdf.PdfReader(result.path).pages[0]
    assert boxes(page)["trimbox"] == pytest.approx([3, 3, 66.5, 91.9], abs=0.01)
    texts = page_texts(result.path)
    assert "Rules 1/3" in texts[0] and "Blófa" in texts[1]


# -- Tabletop Simulator ----------------------------------------------------------------------

def tts_export(tmp_path, deck_path, **options):
    result = export(deck_path, tmp_path / "out", "tts", **options)
    saved = json.loads((result.path / f"{load_deck(deck_path).name}.json").read_text())
    return result, saved["ObjectStates"][0]


@functools.cache
def sheet_of(url: str) -> Image.Image:
    image = Image.open(unquote(urlparse(url).path))
    image.load()
    return image


def test_tts_sheets_and_ids_place_every_card(tmp_path):
    """Each contained card's id points at a slot whose pixels are that card's colour."""
    deck_path = shared_back_deck(tmp_path / "d", 80)  # more than one sheet holds
    result, deck = tts_export(tmp_path, deck_path)
    assert deck["Name"] == "DeckCustom"
    cards = deck["ContainedObjects"]
    assert len(cards) == len(deck["DeckIDs"]) == 160
    assert [c["CardID"] for c in cards] == deck["DeckIDs"]
    assert sorted(deck["CustomDeck"]) == ["1", "2"]
    assert (deck["CustomDeck"]["1"]["NumWidth"], deck["CustomDeck"]["1"]["NumHeight"]) == (10, 7)
    for number, card in enumerate(cards):
        i = number // 2
        key, slot = divmod(card["CardID"], 100)
        custom = deck["CustomDeck"][str(key)]
        assert card["CustomDeck"] == {str(key): custom}
        assert card["Nickname"] == f"Card {i}"
        sheet = sheet_of(custom["FaceURL"])
        columns, rows = custom["NumWidth"], custom["NumHeight"]
        assert sheet.width <= 4096 and sheet.height <= 4096
        width, height = sheet.width // columns, sheet.height // rows
        assert slot < columns * rows - 1  # the last slot is the hidden card
        centre = ((slot % columns) * width + width // 2, (slot // columns) * height + height // 2)
        assert sheet.getpixel(centre) == card_colour(i)
    back = sheet_of(deck["CustomDeck"]["1"]["BackURL"])
    assert back.getpixel((back.width // 2, back.height // 2)) == (0x20, 0x30, 0x40)
    assert not deck["CustomDeck"]["1"]["UniqueBack"]


def test_tts_backs_per_card_make_a_back_sheet(tmp_path):
    _, deck = tts_export(tmp_path, id_deck(tmp_path / "d", 5))
    custom = deck["CustomDeck"]["1"]
    assert custom["UniqueBack"] is True
    backs = sheet_of(custom["BackURL"])
    columns = custom["NumWidth"]
    width, height = backs.width // columns, backs.height // custom["NumHeight"]
    for i in range(5):
        x, y = (i % columns) * width + 5, (i // columns) * height + 5  # the back's edge
        assert backs.getpixel((x, y)) == card_colour(i)


def test_tts_one_sheet_per_back_design_and_hosted_urls(tmp_path):
    _, deck = tts_export(tmp_path, find_deck("blofa"), base_url="https://example.org/blofa/")
    custom = deck["CustomDeck"]
    assert sorted(c["BackURL"] for c in custom.values()) == [
        "https://example.org/blofa/back-blue.png", "https://example.org/blofa/back-yellow.png"]
    assert len(deck["DeckIDs"]) == 18
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert names[0] == "Rules 1/3: Setup" and names.count("1") == 5


def test_tts_names_the_two_standard_jokers_apart(exported):
    _, deck = exported("standard", "tts")
    names = [c["Nickname"] for c in deck["ContainedObjects"]]
    assert len(names) == len(set(names)) == 54
    assert {"Red Joker", "Black Joker", "Q heart", "10 spade"} <= set(names)


def test_tts_variant(tmp_path, exported):
    result, deck = exported("bullet", "tts")
    assert len(deck["DeckIDs"]) == 62
    runner = CliRunner()
    outcome = runner.invoke(main, ["export", "bullet", "--to", "tts", "--players", "3",
                                   "--out", str(tmp_path / "v")])
    assert outcome.exit_code == 0, outcome.output
    assert "bullet: 46 cards -> " in outcome.output
    saved = json.loads((tmp_path / "v/bullet/bullet-players3-tts/bullet.json").read_text())
    assert len(saved["ObjectStates"][0]["DeckIDs"]) == 46


# -- the command -----------------------------------------------------------------------------

def test_export_command_is_quiet_off_a_terminal(tmp_path):
    outcome = CliRunner().invoke(main, ["export", "blofa", "--for", "tgc", "--out",
                                        str(tmp_path)])
    assert outcome.exit_code == 0
    lines = outcome.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith("blofa: 10 images -> ")


@pytest.mark.parametrize("args, message", [
    (["blofa"], "--to png, pdf or tts"),
    (["blofa", "--for", "tgc", "--to", "pdf"], "--for tgc makes png files"),
    (["blofa", "--to", "png", "--colour", "cmyk"], "--colour is for --to pdf"),
    (["blofa", "--to", "tts", "--bleed", "3"], "no bleed"),
    (["blofa", "--to", "png", "--base-url", "http://x"], "--base-url is for --to tts"),
    (["blofa", "--to", "png", "--bleed", "11mm"], "not between 0 and 10mm"),
    (["blofa", "--for", "tgc", "--dpi", "600"], "--for tgc sets the resolution and bleed"),
    (["blofa", "--for", "drivethru", "--bleed", "3mm"], "leave out --dpi and --bleed"),
    (["blofa", "--to", "pdf", "--dpi", "600"], "--dpi is for --to png"),
])
def test_bad_options_exit_2(tmp_path, args, message):
    outcome = CliRunner().invoke(main, ["export", *args, "--out", str(tmp_path)])
    assert outcome.exit_code == 2
    assert message in outcome.output


def test_a_failed_export_leaves_the_previous_files(tmp_path, monkeypatch):
    deck_path = shared_back_deck(tmp_path / "d", 3)
    first = export(deck_path, tmp_path / "o", "png", "tgc")
    before = {p.name: p.read_bytes() for p in first.path.iterdir()}

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr("cardkit.pipeline.export.write_manifest", broken)
    with pytest.raises(OSError):
        export(deck_path, tmp_path / "o", "png", "tgc")
    assert {p.name: p.read_bytes() for p in first.path.iterdir()} == before
    assert [p.name for p in first.path.parent.iterdir()] == [first.path.name]  # no leftovers


# -- CMYK ------------------------------------------------------------------------------------

RGB_OPERATORS = {b"rg", b"RG", b"sc", b"SC", b"scn", b"SCN", b"cs", b"CS"}


def colour_use(path) -> tuple[set, set, list]:
    """Over every page and form of the PDF: the colour operators used, the colour spaces
    of its images, and the fill operands in force at each text-showing operator."""
    reader = pypdf.PdfReader(path)
    operators, spaces, text_fills = set(), set(), []

    def walk(content, resources):
        fill = None
        for operands, op in content.operations:
            if op in (b"k", b"g", b"rg", b"sc", b"scn") or op in RGB_OPERATORS | {b"K", b"G"}:
                operators.add(op)
                if op in (b"k", b"g", b"rg"):
                    fill = (op, [float(v) for v in operands])
            elif op in (b"Tj", b"TJ"):
                text_fills.append(fill)
            elif op == b"Do":
                xobject = resources["/XObject"][operands[0]].get_object()
                if xobject["/Subtype"] == "/Form":
                    walk(pypdf.generic.ContentStream(xobject, reader),
                         xobject.get("/Resources", resources))
                else:
                    spaces.add(xobject["/ColorSpace"])

    for page in reader.pages:
        walk(page.get_contents(), page["/Resources"])
    return operators, spaces, text_fills


def test_drivethru_pdf_is_cmyk_only_with_pure_black_text(exported):
    result = exported("bullet", "pdf", "drivethru")
    operators, _, text_fills = colour_use(result.path)
    assert not operators & RGB_OPERATORS
    assert b"k" in operators
    # body text is near-black grey (#1a1a1a): black ink alone; a line of it is one
    # text-showing operator, and each front (half the pages) has several
    assert text_fills.count((b"k", [0.0, 0.0, 0.0, 0.898039])) > 4 * result.files // 2
    rich = [fill for op, fill in text_fills if fill[3] > 0.5 and sum(fill[:3]) > 0
            and max(fill[:3]) - min(fill[:3]) < 0.1]  # dark and nearly neutral, with CMY
    assert not rich


def test_cmyk_converts_images_and_reports_clipped_ink(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    Image.new("RGB", (300, 420), (0x33, 0, 0)).save(folder / "dark.png")  # 280% ink
    deck_path = write_deck(folder, """
        name: inky
        size: poker
        front: front
        backs:
          plain: {layout: back}
        fields:
          colour: colour
        cards:
          - {colour: "#004000"}
          - {colour: "#ffcc00"}
        """.replace("\n        ", "\n"), {
        "front": "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, "
                 "fill: '{colour}'}\n  - {name: art, kind: image, box: [10%, 10%, 80%, 40%],"
                 " image: dark.png}\n",
        "back": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#ffffff'}\n"})
    result = export(deck_path, tmp_path / "o", "pdf", "drivethru")
    operators, spaces, _ = colour_use(result.path)
    assert not operators & RGB_OPERATORS
    assert spaces == {"/DeviceCMYK"}
    assert result.notes == (
        "card 1 (colour #004000), front: ink limited to 240% for #004000 (275% ink, "
        "printed at 240%), image dark.png (ink over 240% in 100% of its pixels)",
        "card 2 (colour #ffcc00), front: ink limited to 240% for image dark.png (ink over "
        "240% in 100% of its pixels)")


@pytest.mark.parametrize("name", ["blofa", "bullet", "ragusa", "rise-up", "shapes",
                                  "standard"])
def test_every_bundled_deck_exports_for_each_service(exported, name):
    deck = load_deck(find_deck(name))
    images = exported(name, "png", "tgc")
    rows = manifest(images.path)
    assert sum(int(r["count"]) for r in rows if r["side"] == "front") == deck.total()
    assert sum(int(r["count"]) for r in rows if r["side"] == "back") == deck.total()
    assert {im.size for im in pngs(images.path).values()} == {(825, 1125)}
    pdf = exported(name, "pdf", "drivethru")
    assert len(pypdf.PdfReader(pdf.path).pages) == 2 * deck.total()
    _, saved = exported(name, "tts")
    assert len(saved["DeckIDs"]) == deck.total()


def test_drivethru_pdf_is_marked_pdfx_1a_and_meets_its_rules(exported):
    result = exported("shapes", "pdf", "drivethru")
    assert_pdfx_1a(result.path, "CGATS TR 001")


def assert_pdfx_1a(path, condition: str) -> None:
    """PDF/X-1a:2003 as the tests can check it without a validator: the output intent and
    version key, CMYK only (above), every font embedded, trim and bleed boxes on every
    page, trapping stated, and no transparency."""
    reader = pypdf.PdfReader(path)
    assert reader.metadata["/GTS_PDFXVersion"] == "PDF/X-1a:2003"
    assert reader.metadata["/GTS_PDFXConformance"] == "PDF/X-1a:2003"  # older readings
    assert reader.metadata["/Trapped"] == "/False"
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    assert (intent["/S"], intent["/OutputConditionIdentifier"]) == ("/GTS_PDFX", condition)
    assert transparent_pages(reader) == []  # forms (SVG art) included
    fonts = set()
    for page in reader.pages:
        assert "/TrimBox" in page and "/BleedBox" in page
        resources = page["/Resources"]
        assert "/SMask" not in str(resources)
        for state in resources.get("/ExtGState", {}).values():
            assert float(state.get_object().get("/ca", 1)) == 1.0
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            descriptor = font.get("/FontDescriptor") or \
                font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
            assert {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor.get_object())
            fonts.add(font["/BaseFont"])


@pytest.mark.parametrize("service, condition", [("drivethru", "CGATS TR 001"),
                                                 ("eu", "FOGRA39")])
def test_the_example_with_translucent_art_goes_to_a_print_shop(tmp_path, service, condition):
    """lantern-market has a translucent title band over its art and a faint glow on its
    back: its print-shop files are flattened and marked PDF/X-1a. The titles over the band
    stay text (only the band and what shows through it become a 600 dpi picture)."""
    result = export_deck(find_deck("examples/lantern-market"), tmp_path,  # its first card
                         ExportOptions("pdf", SERVICES[service]), which=Which(cards="1"))
    assert result.notes == ()
    assert_pdfx_1a(result.path, condition)
    reader = pypdf.PdfReader(result.path)
    front = 1 if service == "drivethru" else 0  # DriveThruCards: back then front
    assert "Silk Bolt" in reader.pages[front].extract_text()
    (patch,) = [x.get_object() for x in reader.pages[front]["/Resources"]["/XObject"].values()
                if x.get_object()["/Subtype"] == "/Image"]
    # the translucent band, the art under it (its SVG has translucent parts) and the
    # half-opaque rule below, from the top bleed down to 49 mm: not the whole card
    height_mm = float(reader.pages[front].mediabox.height) / 72 * 25.4
    assert 1000 < patch["/Height"] < (49 + 3.2) / 25.4 * 600 < 0.6 * height_mm / 25.4 * 600


def test_a_fully_translucent_card_is_flattened_too(tmp_path, monkeypatch):
    """Its four pages (two copies, the back drawn with the front's layout) are one
    picture, flattened and converted to CMYK once (each page made its own, half a second
    of CPU time each); the PDF is the same, its images named by their pixels."""
    from cardkit.writers import cmyk

    converted = []
    convert = cmyk.cmyk_image
    monkeypatch.setattr(cmyk, "cmyk_image", lambda image, limit: converted.append(
        image.size) or convert(image, limit))
    deck_path = write_deck(tmp_path / "d", """
        name: faded
        size: poker
        front: front
        backs:
          plain: {layout: front}
        cards:
          - {count: 2}
        """.replace("\n        ", "\n"), {
        "front": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#3366cc', "
                 "opacity: 0.5}\n"})
    result = export(deck_path, tmp_path / "o", "pdf", "eu")
    assert result.notes == ()
    assert_pdfx_1a(result.path, "FOGRA39")
    reader = pypdf.PdfReader(result.path)
    assert len(reader.pages) == 4 and len(converted) == 1
    assert len({name for page in reader.pages for name in page["/Resources"]["/XObject"]}) \
        == 1
