"""Files a designer could be sent, second round (issue 25): images that are not what their
name says, spreadsheets built to crash or stall the reader, absurd CSV cells. Each ends
with exit code 2 and a message naming the file, never a crash, a hang or code run."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from PIL import EpsImagePlugin, Image

from test_hostile import image_deck, run, run_in_one_process, run_process

EPS = b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n{} loop\nshowpage\n"


def test_an_eps_named_png_is_refused_without_running_it(tmp_path, monkeypatch):
    """Pillow would sniff the file as EPS and hand its PostScript ({} loop: for ever) to
    Ghostscript; cardkit opens deck images only as PNG or JPEG."""
    ran = []
    monkeypatch.setattr(EpsImagePlugin.EpsImageFile, "load",
                        lambda self, *a, **k: ran.append(self) or None)
    deck = image_deck(tmp_path, "art.png")
    (tmp_path / "art.png").write_bytes(EPS)
    code, output = run("validate", deck)
    assert code == 2
    assert "image 'art.png': not a PNG or JPEG file (whatever its name says), nor SVG; " \
           "save it again as PNG, JPG or plain SVG" in output
    assert not ran


@pytest.mark.parametrize("kind", ["GIF", "TIFF", "BMP"])
def test_other_image_formats_under_a_png_name_are_refused(tmp_path, kind):
    deck = image_deck(tmp_path, "art.png")
    Image.new("RGB", (8, 8), "red").save(tmp_path / "art.png", format=kind)
    code, output = run("build", deck, "--out", tmp_path / "out")
    assert code == 2
    assert "not a PNG or JPEG file (whatever its name says)" in output
    assert not (tmp_path / "out").exists()


def test_an_eps_image_as_a_subprocess_ends_quickly(tmp_path):
    deck = image_deck(tmp_path, "art.jpg")
    (tmp_path / "art.jpg").write_bytes(EPS)
    code, err = run_process("validate", deck)
    assert code == 2
    assert "art.jpg': not a PNG or JPEG file" in err


# -- workbooks ------------------------------------------------------------------------------

import zipfile  # noqa: E402

import openpyxl  # noqa: E402

from conftest import write_deck, zero_png  # noqa: E402
from test_hostile import deck_with  # noqa: E402

SHEET = "xl/worksheets/sheet1.xml"


def workbook_deck(folder, rows=(("name",), ("Lamp",))):
    """A deck whose cards come from cards.xlsx (written by openpyxl); returns the deck
    and the workbook's path, for the test to tamper with."""
    workbook = openpyxl.Workbook()
    workbook.active.title = "Cards"
    for row in rows:
        workbook.active.append(list(row))
    workbook.save(folder / "cards.xlsx")
    deck = deck_with(folder, card="{from: cards.xlsx}", fields="fields: {name: text}\n")
    text = deck.read_text().replace("cards:\n  - {from: cards.xlsx}", "cards: {from: cards.xlsx}")
    deck.write_text(text)
    return deck, folder / "cards.xlsx"


def rewrite(path, member: str, change) -> None:
    """Rewrite one member of a zip archive with ``change(old bytes) -> new bytes``."""
    with zipfile.ZipFile(path) as old:
        items = [(info, old.read(info)) for info in old.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as new:
        for info, data in items:
            new.writestr(info.filename, change(data) if info.filename == member else data)


def declare_unpacked_size(path, member: str, size: int) -> None:
    """Write ``size`` as ``member``'s unpacked size in its local header and its entry in
    the archive's central directory (at the offsets of the zip format's APPNOTE, 4.3.7
    and 4.3.12); its packed bytes stay as they are."""
    data = bytearray(path.read_bytes())
    name = member.encode()
    with zipfile.ZipFile(path) as archive:
        local = archive.getinfo(member).header_offset
    (central,) = [found.start() for found in re.finditer(b"PK\x01\x02", data)
                  if data[found.start() + 46:found.start() + 46 + len(name)] == name]
    for at in (local + 22, central + 24):
        data[at:at + 4] = size.to_bytes(4, "little")
    path.write_bytes(bytes(data))


def test_a_cell_at_the_far_corner_is_refused_not_an_abort(tmp_path):
    """One cell at XFD1048576 made calamine allocate the whole sheet and abort the process
    (Rust out of memory, exit 134). Now the reader runs in a child with a memory limit."""
    deck, book = workbook_deck(tmp_path)
    workbook = openpyxl.load_workbook(book)
    workbook.active["XFD1048576"] = "stray"
    workbook.save(book)
    code, err = run_process("validate", deck)
    assert code == 2, err
    assert "cards.xlsx: reading it takes more than 4 GB of memory, far more than a card " \
           "list needs" in err
    assert "Ctrl+End" in err and "backtrace" not in err


def test_a_zip_bomb_is_refused_from_the_archive_directory(tmp_path):
    """The archive's directory says one member unpacks to 600 MB (its local header says
    so too); the bytes are the small member's own. cardkit must refuse it from those
    sizes: a reader that decompressed first would find a damaged member, not the size,
    and one that did not look would read the workbook (packing 600 MB of spaces took 3.5 s
    of CPU time)."""
    deck, book = workbook_deck(tmp_path)
    declare_unpacked_size(book, "xl/theme/theme1.xml", 600_000_000)
    with zipfile.ZipFile(book) as archive:  # as Python's zipfile reads the directory
        assert archive.getinfo("xl/theme/theme1.xml").file_size == 600_000_000
    code, err = run_process("validate", deck)
    assert code == 2, err
    assert "cards.xlsx: the workbook unpacks to 600 MB, more than the 500 MB cardkit " \
           "reads" in err


@pytest.mark.parametrize("damage", [
    "truncated", "not xml", "entity bomb", "bad shared string", "negative row",
    "zip version"])
def test_a_damaged_workbook_names_the_file(tmp_path, damage):
    deck, book = workbook_deck(tmp_path, rows=(("name",), ("Lamp",), ("Oil",)))
    if damage == "truncated":
        book.write_bytes(book.read_bytes()[:-300])
    elif damage == "not xml":
        rewrite(book, SHEET, lambda data: data[:len(data) // 2] + b"<<<&&")
    elif damage == "entity bomb":
        laughs = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "' + b"lol" * 10 + b'">' + \
            b"".join(b'<!ENTITY %c "%s">' % (ord("b") + i, (b"&%c;" % (ord("a") + i)) * 10)
                     for i in range(8)) + b"]>"
        rewrite(book, SHEET, lambda data: laughs + data.replace(b"Lamp", b"&i;"))
    elif damage == "bad shared string":
        rewrite(book, SHEET, lambda data: data.replace(b"<v>1</v>", b"<v>99999</v>"))
    elif damage == "zip version":  # a version Python's zipfile does not know (fuzz found)
        data = bytearray(book.read_bytes())
        at = data.index(b"PK\x01\x02")
        data[at + 6:at + 8] = (128).to_bytes(2, "little")
        book.write_bytes(bytes(data))
    elif damage == "negative row":
        rewrite(book, SHEET, lambda data: data.replace(b'r="2"', b'r="-2"'))
    code, err = run_process("validate", deck)
    assert code in (0, 2), err
    assert "internal error" not in err and "Traceback" not in err
    if code == 2:
        assert err.startswith(f"{tmp_path}/cards.xlsx") or err.startswith("cards.xlsx") \
            or "cards.xlsx" in err.splitlines()[0]


# -- CSV --------------------------------------------------------------------------------------

def csv_deck(folder, text: str):
    (folder / "cards.csv").write_text(text)
    deck = deck_with(folder, card="{from: cards.csv}",
                     fields="fields: {name: text, cost: {type: integer, default: 0}}\n")
    deck.write_text(deck.read_text().replace("cards:\n  - {from: cards.csv}",
                                             "cards: {from: cards.csv}"))
    return deck


@pytest.mark.parametrize("text,message", [
    (",".join(f"c{i}" for i in range(300_000)) + "\n" + ",".join("1" * 300_000) + "\n",
     "cards.csv:1: this row has 300,000 cells, more than the 1,000 columns a card list may "
     "have; delete the cells after the last column"),
    ('"' + "a" * 200_000 + '"\nx\n',
     "cards.csv:1: a cell holds more than 128 KiB of text; check the quotes in this row"),
    ("name,cost\nA," + "9" * 5000 + "\n",
     "cards.csv:2: column 'cost': '999999999999…' is a number of 5,000 digits; write a "
     "number of at most 15 digits"),
    ("name,cost\nA," + "9" * 400 + "\n", "is a number of 400 digits"),
], ids=["wide row", "huge field", "5000 digits", "400 digits"])
def test_absurd_csv_cells_are_refused_quickly(tmp_path, text, message):
    deck = csv_deck(tmp_path, text)
    code, err = run_process("validate", deck)
    assert code == 2, err
    assert message in err


# -- absurd lengths in layouts ----------------------------------------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from test_hostile import deck_with as plain_deck  # noqa: E402

LENGTHS = st.builds(lambda sign, digits, fraction, unit: f"{sign}{digits}{fraction}{unit}",
                    st.sampled_from(["", "-"]),
                    st.one_of(st.integers(0, 10 ** 6).map(str),
                              st.integers(1, 400).map(lambda n: "9" * n)),
                    st.sampled_from(["", ".5"]), st.sampled_from(["mm", "cm", "in", "pt", "%"]))
ELEMENTS = [
    "{{name: e, kind: rect, box: [{0}, 0mm, 10mm, 10mm], fill: red}}",
    "{{name: e, kind: rect, box: card, fill: red, radius: {0}}}",
    "{{name: e, kind: rect, box: card, stroke: red, stroke_width: {0}}}",
    "{{name: e, kind: text, box: card, text: hi, size: {0}}}",
    "{{name: e, kind: polygon, box: card, points: [[0mm, 0mm], [{0}, 0mm], [0mm, 5mm]], "
    "fill: red}}",
    "{{name: e, kind: ellipse, box: [0mm, 0mm, {0}, 10mm], fill: red}}",
    "{{name: e, kind: line, box: [0mm, 0mm, 10mm, {0}], stroke: red}}",
]


def test_no_length_is_longer_than_10_metres():
    from cardkit.common.units import MAX_LENGTH, UnitError, parse_length

    assert parse_length("10000mm") == pytest.approx(MAX_LENGTH)
    with pytest.raises(UnitError, match="10 m at most"):
        parse_length("10000.5mm")


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(element=st.sampled_from(ELEMENTS), length=LENGTHS)
def test_validate_and_build_agree_on_any_length(tmp_path_factory, element, length):
    """A length of up to 400 digits in any unit, anywhere a layout takes one: validate
    and build both end with 0, or both with 2 and the same first message (the bug: 308
    digits passed validate and crashed reportlab in build)."""
    folder = tmp_path_factory.mktemp("length")
    deck = plain_deck(folder, front="elements:\n  - " + element.format(length) + "\n")
    checked = run("validate", deck)
    built = run("build", deck, "--out", folder / "out")
    assert checked[0] in (0, 2) and built[0] == checked[0], (checked, built)
    assert "internal error" not in built[1]
    if checked[0] == 2:
        assert checked[1].splitlines()[0] == built[1].splitlines()[0]


# -- names too long for the file system ------------------------------------------------------

def test_a_new_deck_in_a_folder_name_too_long_is_refused(tmp_path):
    code, err = run_process("new", tmp_path / ("d" * 300) / "game")
    assert code == 2, err
    assert "a name in this path is too long for the file system (at most 255 bytes a " \
           "name, 4,096 a path); use shorter names" in err
    assert "internal error" not in err


def test_extending_a_deck_whose_name_is_too_long_names_the_line(tmp_path):
    deck = plain_deck(tmp_path, top="size: poker\nextends: " + "y" * 300)
    code, output = run("validate", deck)
    assert code == 2
    assert f"{deck}:3:10: cannot look for the deck to extend: File name too long; use a " \
           "shorter name or path" in output


# -- what a failed write says ----------------------------------------------------------------

def test_a_full_disk_says_the_disk_is_full(tmp_path, monkeypatch):
    import errno

    import cardkit.writers.card_png as card_png

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "out" / "x.png"))

    # export's first: naming it imports it, which takes card_png's function as it is then
    # (patched the other way round, the fake stayed in export after the test)
    monkeypatch.setattr("cardkit.pipeline.export.write_pngs", full)
    monkeypatch.setattr(card_png, "write_pngs", full)
    deck = plain_deck(tmp_path)
    code, output = run("export", deck, "--to", "png", "--out", tmp_path / "out")
    assert code == 2
    assert "the disk is full (or your quota is used up); free some space, or give --out a " \
           "folder on another disk" in output
    assert "folder you can write to" not in output


def test_a_library_failing_to_read_while_writing_does_not_blame_the_output(tmp_path,
                                                                          monkeypatch):
    """An input that broke after it was checked: Pillow's 'image file is truncated' has
    no operating-system code, and the output folder is not what to change."""
    def truncated(*args, **kwargs):
        raise OSError("image file is truncated")

    monkeypatch.setattr("cardkit.pipeline.build.write_pdf", truncated)
    deck = plain_deck(tmp_path)
    code, output = run("build", deck, "--out", tmp_path / "out")
    assert code == 2
    assert output.startswith("cardkit: cannot read an input while writing: image file is "
                             "truncated; check the deck's files with 'cardkit validate'")


# -- memory for many large pictures -----------------------------------------------------------

def _picture_deck(folder, count: int, size: int = 1000, pictures_from=None):
    """``count`` cards, each with its own ``size`` px square picture filling its front,
    and a plain back; the pictures copied from the deck folder ``pictures_from`` where
    given. Each picture is one colour of its own: decoded, it takes as many bytes as a
    photo's, while compressing it, as the PDF does, costs next to nothing."""
    import shutil

    from PIL import Image

    (folder / "art").mkdir(parents=True)
    for i in range(count):
        if pictures_from:
            shutil.copyfile(pictures_from / "art" / f"a{i}.png", folder / "art" / f"a{i}.png")
            continue
        Image.new("RGB", (size, size), (i, 255 - i, 128)).save(folder / "art" / f"a{i}.png")
    cards = "".join(f"  - {{art: a{i}}}\n" for i in range(count))
    return write_deck(folder, "name: pictures\nsize: poker\nfront: f\nbacks: {b: {layout: b}}\n"
                      f"fields: {{art: text}}\ncards:\n{cards}",
                      {"f": "elements:\n  - {name: a, kind: image, box: card, "
                            "image: 'art/{art}.png'}\n",
                       "b": "elements:\n  - {name: t, kind: text, box: card, text: back}\n"})


def _peak_mb(*args) -> float:
    """The peak memory (RSS) of a cardkit command run in a process of its own."""
    script = ("import resource, sys\nfrom cardkit.cli import main\ntry:\n    main(sys.argv[1:])\n"
              "except SystemExit:\n    pass\n"
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    done = subprocess.run([sys.executable, "-c", script, *map(str, args)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return int(done.stdout.split()[-1]) / 1024  # Linux gives kilobytes


def test_decoded_pictures_are_let_go_as_pages_are_drawn(tmp_path):
    """60 distinct 1-megapixel pictures take no more memory to build than 10 beyond what
    their encoded data takes: decoded pixels are held to a budget (20 million), where
    every picture used to stay decoded, twice, until the PDF was written (200 large ones
    grew past 4 GB)."""
    many_deck = _picture_deck(tmp_path / "many", 60)
    few_deck = _picture_deck(tmp_path / "few", 10, pictures_from=many_deck.parent)
    few = _peak_mb("build", few_deck, "--out", tmp_path / "o1")
    many = _peak_mb("build", many_deck, "--out", tmp_path / "o2")
    # kept decoded, 50 more pictures would take 50 x 6 MB = 300 MB more
    assert many - few < 150, (few, many)


def test_pictures_are_held_within_a_budget_of_bytes_and_read_again_the_same(tmp_path):
    """The readers (each with its file's bytes, and its pixels once drawn) are held to a
    budget counted in bytes, oldest let go first; a picture let go reads the same again."""
    from PIL import Image

    from cardkit.render.paint import HeldPictures, Picture

    pictures = []
    for i in range(3):
        path = tmp_path / f"a{i}.png"
        Image.linear_gradient("L").rotate(90 * i).convert("RGBA").save(path)
        pictures.append(Picture(path, (0, path.stat().st_size), (256, 256), True))
    costs = [path.version[1] + 8 * 256 * 256 for path in pictures]
    held = HeldPictures(budget=costs[0] + costs[1] + costs[2] - 1)
    first = held.reader(pictures[0])
    before = first.getRGBData()
    assert held.reader(pictures[0]) is first
    for picture in pictures[1:]:
        held.reader(picture)
    assert list(held.held) == pictures[1:] and held.used == costs[1] + costs[2]
    again = held.reader(pictures[0])
    assert again is not first and again.getRGBData() == before and again._dataA is not None
    assert list(held.held) == [pictures[2], pictures[0]]


def test_many_distinct_pictures_keep_the_held_bytes_within_the_budget(tmp_path, monkeypatch):
    """Every reader used to live as long as the build: 30 distinct pictures held 30
    files' bytes. Drawn by a build, they are let go past the budget."""
    from cardkit.render import paint

    pixels = 8 * 400 * 400  # what a 400 px picture's reader holds once drawn, its file aside
    held = paint.HeldPictures(budget=3 * pixels)
    monkeypatch.setattr(paint, "HELD", held)
    code, output = run("build", _picture_deck(tmp_path / "d", 6, size=400), "--out",
                       tmp_path / "out")
    assert code == 0, output
    # each costs its pixels and its file's bytes: two fit in the budget of three's pixels
    assert [p.path.name for p in held.held] == ["a4.png", "a5.png"]
    assert held.used == sum(p.version[1] + pixels for p in held.held) <= held.budget


# -- damaged fonts ------------------------------------------------------------------------------

def _table_span(data: bytes, tag: bytes) -> tuple[int, int]:
    """Where a TrueType table lies in the file: (offset, length), from the table directory
    as the OpenType specification lays it out (read here to damage it, not to use it)."""
    import struct

    count = struct.unpack(">H", data[4:6])[0]
    for i in range(count):
        entry = data[12 + 16 * i:28 + 16 * i]
        if entry[:4] == tag:
            return struct.unpack(">II", entry[8:16])
    raise KeyError(tag)


def test_a_font_whose_glyph_locations_are_damaged_is_refused_by_validate(tmp_path):
    """The location of the glyph of 'A' pointed past the end of the glyph table: validate
    passed (reportlab reads glyphs only to embed them) and build failed inside reportlab.
    Now every glyph is embedded once when the font is loaded, and both refuse the file."""
    from fontTools.ttLib import TTFont as FontFile

    from cardkit.assets.fonts import FONT_DIR

    source = FONT_DIR / "Lato-Regular.ttf"
    data = bytearray(source.read_bytes())
    font = FontFile(str(source))
    long_offsets = font["head"].indexToLocFormat == 1
    glyph = font.getGlyphID(font.getBestCmap()[ord("A")])
    offset, _ = _table_span(bytes(data), b"loca")
    size = 4 if long_offsets else 2
    data[offset + size * glyph:offset + size * (glyph + 1)] = b"\xff" * size
    (tmp_path / "fonts").mkdir()
    (tmp_path / "fonts" / "Damaged.ttf").write_bytes(bytes(data))
    deck = plain_deck(tmp_path, front="elements:\n  - {name: t, kind: text, box: card, "
                                      "font: Damaged, text: ABBA}\n")
    for command in (["validate", deck], ["build", deck, "--out", tmp_path / "out"]):
        code, output = run(*command)
        assert code == 2, output
        assert "font file" in output and "Damaged.ttf: a damaged font file: its glyphs " \
            "cannot be embedded" in output


@pytest.mark.parametrize("tag", [b"glyf", b"loca", b"cmap", b"hmtx"])
def test_a_damaged_font_is_refused_by_validate_as_build_would(tmp_path, tag):
    """Bytes of one table of a real font (Lato) overwritten, 12 ways each: validate and
    build agree, both 0 or both 2 with the font file named; never a traceback. A glyph
    table damaged beyond use used to pass validate and fail build inside reportlab."""
    import random

    from cardkit.assets.fonts import FONT_DIR

    original = (FONT_DIR / "Lato-Regular.ttf").read_bytes()
    offset, length = _table_span(original, tag)
    rng = random.Random(tag)
    face = ("elements:\n  - {name: t, kind: text, box: card, font: Damaged, size: 6pt, "
            "text: \"ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789\"}\n")
    deck = plain_deck(tmp_path, front=face)
    (tmp_path / "fonts").mkdir()
    outcomes = set()
    for trial in range(12):
        damaged = bytearray(original)
        for _ in range(rng.randint(1, 40)):
            damaged[offset + rng.randrange(length)] = rng.choice([0, 0xff, rng.randrange(256)])
        font = tmp_path / "fonts" / "Damaged.ttf"
        font.write_bytes(bytes(damaged))
        checked = run("validate", deck)
        built = run("build", deck, "--out", tmp_path / "out")
        assert checked[0] in (0, 2) and built[0] == checked[0], (trial, checked, built)
        assert "internal error" not in checked[1] + built[1]
        if checked[0] == 2:
            assert "Damaged.ttf" in checked[1]
        outcomes.add(checked[0])
    assert outcomes  # (which outcomes occur depends on the table; both are allowed)


# -- SVG art -------------------------------------------------------------------------------------

def _embedded_png(width: int, height: int, kind: str = "PNG") -> str:
    """A black picture of ``width`` x ``height`` pixels, base64-encoded. One bit a pixel:
    the check reads the size from the header alone, and a 63-megapixel RGB picture took
    1.6 s of CPU to encode, at import, in every worker of the suite."""
    import base64
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("1", (width, height)).save(buffer, kind)
    return base64.b64encode(buffer.getvalue()).decode()


SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ' \
      'viewBox="0 0 10 10">{}</svg>'


SVG_ART = {  # id: (the SVG's body, what validate and build say of it)
    "deep": ("<g>" * 200 + '<rect width="5" height="5"/>' + "</g>" * 200,
             "its groups nest more than 100 deep"),
    "huge point": ('<path d="M0 0L1e300 5L5 5z"/>',
                   "a point or transform lies far outside the drawing"),
    "huge transform": ('<g transform="scale(1e300)"><rect width="5" height="5"/></g>',
                       "a point or transform lies far outside the drawing"),
    "huge stroke": ('<rect width="5" height="5" stroke="red" stroke-width="1e300"/>',
                    "a stroke width of 1e+300 is far larger than the drawing"),
    "63 megapixels": ('<image width="10" height="10" xlink:href="data:image/png;base64,'
                      + _embedded_png(9000, 7000) + '"/>', "it holds a picture of 9000 x "
                      "7000 px, more than 60 megapixels"),
    "gif": ('<image width="10" height="10" xlink:href="data:image/png;base64,'
            + _embedded_png(8, 8, "GIF") + '"/>', "it holds a picture that is not a PNG or JPEG"),
}


@pytest.fixture(scope="module")
def svg_art_refused(tmp_path_factory):
    """What validate and build of a deck with each SVG_ART as its art say: (exit code,
    stderr) each, by id; all in one fresh interpreter (its start, half a second of CPU
    time, once for the six), each deck in a folder of its own."""
    commands = []
    for name, (body, _) in SVG_ART.items():
        folder = tmp_path_factory.mktemp("svg-art")
        deck = image_deck(folder, "art.svg")
        (folder / "art.svg").write_text(SVG.format(body))
        commands += [["validate", deck], ["build", deck, "--out", folder / "out"]]
    said = run_in_one_process(*commands)
    return {name: said[2 * at:2 * at + 2] for at, name in enumerate(SVG_ART)}


@pytest.mark.parametrize("name", SVG_ART)
def test_svg_art_that_would_fail_the_build_is_refused_by_validate(svg_art_refused, name):
    message = SVG_ART[name][1]
    for code, output in svg_art_refused[name]:
        assert code == 2, output
        assert f"image 'art.svg': {message}" in output
        assert "Warning" not in output and "internal error" not in output


def test_an_svg_cut_short_after_its_first_tag_draws_nothing(tmp_path):
    """The file fuzz test's find: an SVG with no shapes had no bounds to check."""
    deck = image_deck(tmp_path, "art.svg")
    (tmp_path / "art.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" '
                                      'viewBox="0 0 24 24"')
    code, output = run("validate", deck)
    assert code == 2 and "image 'art.svg': " in output and "internal error" not in output


def test_a_zero_dash_pattern_draws_a_solid_line(tmp_path):
    """stroke-dasharray '0 0' crashed reportlab; browsers draw such a line solid."""
    deck = image_deck(tmp_path, "art.svg")
    (tmp_path / "art.svg").write_text(SVG.format(
        '<line x1="0" y1="5" x2="10" y2="5" stroke="#ff0000" stroke-width="2" '
        'stroke-dasharray="0 0"/>'))
    code, output = run("build", deck, "--out", tmp_path / "out")
    assert code == 0, output


def test_a_compressed_svg_is_refused_before_it_is_inflated(tmp_path):
    import gzip

    deck = image_deck(tmp_path, "art.svg")
    (tmp_path / "art.svg").write_bytes(gzip.compress(
        SVG.format('<rect width="5" height="5"/>' + " " * 10_000_000).encode()))
    code, output = run("validate", deck)
    assert code == 2
    assert "image 'art.svg': a compressed (gzip) SVG; save it as plain SVG" in output


# -- pictures refused from their header (issue 46.7) ------------------------------------------

def _huge_picture_deck(folder, art: str):
    deck = image_deck(folder, art)
    zero_png(folder / "huge.png", 17700, 10000)
    (folder / "art.svg").write_text(SVG.format(
        '<image width="10" height="10" xlink:href="huge.png"/>'))
    return deck


def test_a_huge_picture_linked_from_svg_is_refused_from_its_header_in_little_memory(tmp_path):
    """A 177-megapixel PNG linked from SVG art was decoded (2.6 GB for a colour one) before
    it was refused, and Pillow's DecompressionBombWarning, with its site-packages path, was
    printed first."""
    from test_hostile import MEASURED

    deck = _huge_picture_deck(tmp_path, "art.svg")
    done = subprocess.run([sys.executable, "-c", MEASURED, sys.executable, "-m", "cardkit",
                           "validate", str(deck)], capture_output=True, text=True, timeout=300)
    first, err = done.stdout.split("\n", 1)
    code, peak_kb = map(int, first.split()[:2])  # and the CPU seconds
    assert code == 2 and "image 'art.svg': it holds a picture of 17700 x 10000 px, more " \
        "than 60 megapixels; use a smaller picture" in err, err
    assert "DecompressionBombWarning" not in err and "site-packages" not in err
    assert len(err.strip().splitlines()) == 2  # the message and the summary
    assert peak_kb < 300_000  # decoded, the grey picture alone is 177 MB (RGB: 531 MB)


def test_a_huge_picture_gives_our_message_and_no_warning_of_pillow(tmp_path):
    import warnings

    from PIL import Image

    deck = _huge_picture_deck(tmp_path, "huge.png")
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        code, output = run("validate", deck)
    assert code == 2 and "17700 x 10000 px" in output
    assert not [w for w in warned if issubclass(w.category, Image.DecompressionBombWarning)]


def test_a_pages_pictures_wait_in_the_spool_until_the_pdf_is_written(tmp_path, monkeypatch):
    """reportlab held every picture's encoded data (about a file's size, a quarter more as
    ASCII85) until the PDF was saved: 200 distinct 3-megapixel photos took gigabytes.
    Each page's pictures, soft masks too, now go to the spool with the page; the PDF
    shows the same pixels."""
    import numpy
    import pypdf
    from PIL import Image

    from cardkit.writers import sheet_pdf

    rng = numpy.random.default_rng(7)
    folder = tmp_path / "d"
    (folder / "art").mkdir(parents=True)
    for i in range(3):
        pixels = rng.integers(0, 256, (60, 80, 4 if i == 2 else 3), dtype=numpy.uint8)
        Image.fromarray(pixels).save(folder / "art" / f"a{i}.png")
    deck = write_deck(folder, "name: pictures\nsize: poker\nfront: f\nbacks: {b: {layout: f}}\n"
                      "fields: {art: text}\ncards:\n" + "".join(
                          f"  - {{art: a{i}}}\n" for i in range(3)),
                      {"f": "elements:\n  - {name: a, kind: image, box: card, "
                            "image: 'art/{art}.png', fit: stretch}\n"})
    held = {}  # id of each picture or soft mask -> (its class, whether it holds no data)
    take = sheet_pdf._SpooledPages.take

    def taken(self, canvas):
        take(self, canvas)
        held.update((id(thing), (type(thing).__name__, thing.streamContent is None))
                    for thing in canvas._doc.idToObject.values()
                    if isinstance(thing, sheet_pdf.PDFImageXObject))

    monkeypatch.setattr(sheet_pdf._SpooledPages, "take", taken)
    code, output = run("build", deck, "--out", tmp_path / "out")
    assert code == 0, output
    assert list(held.values()) == [("_SpooledImage", True)] * 4  # 3 pictures, 1 soft mask
    images = pypdf.PdfReader(next((tmp_path / "out").rglob("*.pdf"))).pages[0].images
    shown = sorted(image.image.convert("RGB").tobytes() for image in images)
    assert shown == sorted(Image.open(folder / "art" / f"a{i}.png").convert("RGB").tobytes()
                           for i in range(3))


def _waits(seconds: float) -> str:
    import time

    time.sleep(seconds)
    return "read"


def _loops() -> None:
    while True:
        pass


def test_a_reader_s_time_limit_counts_its_cpu_time():
    """Issue 54: a reader waiting (as on a machine busy with other work) longer than its
    limit on the clock is not stopped; one that works past its limit of CPU time is."""
    from cardkit.common.processes import LimitExceeded, run_limited

    assert run_limited(_waits, (2.0,), 1.0, 2 ** 31) == "read"
    with pytest.raises(LimitExceeded) as exceeded:
        run_limited(_loops, (), 1.0, 2 ** 31)
    assert exceeded.value.limit == "time"
