"""`cardkit rulebook`: a deck's rules.md as a PDF on A4 and Letter, read back with pypdf and
pdfplumber, which share no code with reportlab (which writes it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pdfplumber
import pypdf
import pytest
from click.testing import CliRunner
from pypdf.generic import ContentStream

from cardkit.cli import main
from cardkit.sources.bundled import DECKS_DIR
from conftest import write_deck

A4 = (595.2756, 841.8898)  # 210 x 297 mm in points, as pypdf reads them
LETTER = (612, 792)
CARD = [0, 0, 180, 252]  # a poker card, 63.5 x 88.9 mm, in points


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def blofa(tmp_path_factory):
    """Blófa's rulebook, built once: (A4 file, Letter file)."""
    out = tmp_path_factory.mktemp("rulebook")
    result = run("rulebook", "blofa", "--out", out)
    assert result.exit_code == 0, result.output
    folder = out / "blofa"
    assert result.output.startswith("blofa: rules, 3 pages -> ")
    return folder / "blofa-rules-a4.pdf", folder / "blofa-rules-letter.pdf"


def test_each_paper_size_is_exact(blofa):
    a4, letter = (pypdf.PdfReader(path) for path in blofa)
    assert {tuple(float(v) for v in page.mediabox[2:]) for page in a4.pages} == {A4}
    assert {tuple(float(v) for v in page.mediabox[2:]) for page in letter.pages} == {LETTER}
    assert len(a4.pages) == 3 and a4.metadata.title == "Blófa Cards (rules)"


def _fonts(resources, found):
    """Every font a page uses, its drawn forms' (the cards) included."""
    resources = resources.get_object() if resources is not None else {}
    for font in resources.get("/Font", {}).values():
        font = font.get_object()
        descriptor = font.get("/FontDescriptor")
        if descriptor is None and "/DescendantFonts" in font:
            descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
        found[str(font["/BaseFont"])] = descriptor is not None and any(
            key in descriptor.get_object() for key in ("/FontFile", "/FontFile2", "/FontFile3"))
    for xobject in resources.get("/XObject", {}).values():
        xobject = xobject.get_object()
        if xobject["/Subtype"] == "/Form":
            _fonts(xobject.get("/Resources"), found)
    return found


def test_every_font_is_embedded_and_is_the_decks(blofa):
    for path in blofa:
        found = {}
        for page in pypdf.PdfReader(path).pages:
            _fonts(page["/Resources"], found)
        assert found and all(found.values()), found
        # the faces Blófa's layouts use; reportlab's default Helvetica never appears
        assert {name.split("+")[1] for name in found} == {
            "Lato-Regular", "Lato-Bold", "Lato-Italic", "Lato-Black"}


def test_headings_tables_components_and_stamp_are_text(blofa):
    # pdfplumber lays out the lines of the first page (the others take it a while: the
    # cards' small print); pypdf reads the text of the rest
    with pdfplumber.open(blofa[0]) as pdf:
        first = pdf.pages[0].extract_text()
    lines = {line.strip() for line in first.splitlines()}
    rest = [page.extract_text() for page in pypdf.PdfReader(blofa[0]).pages[1:]]
    text = "\n".join([first] + rest)
    for heading in ("Blófa Cards", "What is in the box", "The rule cards"):
        assert heading in lines
    for heading in ("\nA trick\n", "\nScoring\n"):
        assert heading in text
    # {table: value, back, count}: a row for each value, the copies added up
    for row in ("value back count", "0 blue 3", "2 blue 4", "1 yellow 5", "5 yellow 1"):
        assert row in lines, row
    # {components}, counted from the deck
    assert "• 18 cards, poker size (63.5 × 88.9 mm)" in lines
    assert "– 9 with the blue back" in lines and "– 9 with the yellow back" in lines
    # a Markdown table, bold inside a list, the version stamp in the text and every footer
    assert "\nthe player sitting across from them\n4\n" in text
    assert "Rules 1.0, written" in text
    assert text.count("Blófa Cards · version 1.0 · rules") == 3
    assert all(f"page {n} of 3" in text for n in (1, 2, 3))  # each footer counts the pages
    # the rule cards are drawn as they print: their own text is in the page
    assert "Rules 2/3: A trick" in rest[0]


def _forms_drawn(reader, content):
    """(name, horizontal scale) of each XObject ``content`` (a page's or a form's stream)
    draws, following q, Q and cm: the cards, and the pictures on them, at the size they
    are drawn."""
    stack, matrix, drawn = [], [1, 0, 0, 1, 0, 0], []
    for operands, operator in ContentStream(content, reader).operations:
        if operator == b"q":
            stack.append(matrix)
        elif operator == b"Q":
            matrix = stack.pop()
        elif operator == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            m = matrix
            matrix = [a * m[0] + b * m[2], a * m[1] + b * m[3], c * m[0] + d * m[2],
                      c * m[1] + d * m[3], e * m[0] + f * m[2] + m[4],
                      e * m[1] + f * m[3] + m[5]]
        elif operator == b"Do":
            drawn.append((str(operands[0]), round(matrix[0], 4)))
    return drawn


def test_cards_are_vector_forms_at_true_size_or_scaled_to_the_row(blofa):
    reader = pypdf.PdfReader(blofa[0])
    first, second = reader.pages[0], reader.pages[1]
    for page in (first, second):
        for xobject in page["/Resources"]["/XObject"].values():
            xobject = xobject.get_object()
            # vector: a form of the card's own size, no picture in its place
            assert xobject["/Subtype"] == "/Form" and list(xobject["/BBox"]) == CARD
    # the two backs side by side at true size; the three rule cards shrunk to the frame
    # (170 mm wide, 5 mm between cards: 160 / 190.5 of their size)
    assert _forms_drawn(reader, first.get_contents()) == [("/FormXob.card1back", 1.0),
                                           ("/FormXob.card6back", 1.0)]
    drawn = _forms_drawn(reader, second.get_contents())
    assert [name for name, _ in drawn] == [f"/FormXob.card{n}front" for n in (1, 2, 3)]
    assert {scale for _, scale in drawn} == {round(160 / 190.5, 4)}


def test_a_page_renders_with_the_cards_colours(blofa):
    """PDFium draws the first page; the blue and the yellow back are where they were put."""
    import pypdfium2

    document = pypdfium2.PdfDocument(str(blofa[0]))
    try:
        image = document[0].render(scale=1).to_pil().convert("RGB")
    finally:
        document.close()
    pixels = {image.getpixel((x, y)) for x in range(120, 480, 6) for y in range(420, 640, 6)}
    assert (0x1f, 0x5f, 0xa8) in pixels and (0xe3, 0xa8, 0x00) in pixels


def test_a_picture_on_a_card_keeps_its_pixels_at_print_resolution(tmp_path):
    """A card whose art is an 800 x 1100 px PNG, shown alone (true size: 320 dpi) and in a
    row of three (shrunk: 381 dpi): the picture is embedded once, whole."""
    from PIL import Image

    deck = write_deck(tmp_path, """
        name: pics
        size: poker
        front: pic
        backs: {plain: {layout: plain}}
        fields: {name: text}
        cards: [{name: Owl}]
        """, {"pic": "elements: [{name: art, kind: image, box: card, image: owl.png}]",
              "plain": "elements: [{name: bg, kind: rect, box: card, fill: '#336699'}]"})
    Image.linear_gradient("L").resize((800, 1100)).convert("RGB").save(tmp_path / "owl.png")
    (tmp_path / "rules.md").write_text("![](card:Owl)\n\n![](card:Owl) ![](card:Owl) "
                                       "![](card:Owl)\n", encoding="utf-8")
    result = run("rulebook", deck, "--out", tmp_path / "out", "--paper", "a4")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "out/pics/pics-rules-a4.pdf")
    page = reader.pages[0]
    form = page["/Resources"]["/XObject"]["/FormXob.card1front"].get_object()
    [(name, width)] = _forms_drawn(reader, form)  # the picture, in points on the card
    picture = form["/Resources"]["/XObject"][name].get_object()
    assert (picture["/Width"], picture["/Height"]) == (800, 1100)
    scales = [scale for _, scale in _forms_drawn(reader, page.get_contents())]
    assert scales == [1.0] + [round(160 / 190.5, 4)] * 3
    dpi = [800 / (width * scale / 72) for scale in scales]
    assert [round(d) for d in dpi] == [320, 381, 381, 381]  # 2.5 in wide at true size


def test_a_deck_with_fonts_of_its_own_sets_its_rules_in_them(tmp_path):
    """Lantern Market brings Gentium Basic: the rules, their bold and italic and the cards
    shown are set in it, embedded; its own icon ({coin}) is drawn in a sentence."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(Path(__file__).parents[1] / "examples" / "lantern-market", deck)
    (deck / "rules.md").write_text("# Market day\n\nPay {coin} to buy; *italic* and "
                                   "**bold**.\n\n![](card:Captain)\n", encoding="utf-8")
    result = run("rulebook", deck, "--out", tmp_path / "out", "--paper", "letter")
    assert result.exit_code == 0, result.output
    reader = pypdf.PdfReader(tmp_path / "out/lantern-market/lantern-market-rules-letter.pdf")
    found = _fonts(reader.pages[0]["/Resources"], {})
    assert all(found.values())
    assert {name.split("+")[1] for name in found} == {
        "GentiumBasic", "GentiumBasic-Bold", "GentiumBasic-Italic"}
    assert "\nMarket day\nPay to buy; italic and bold.\nCaptain\n" in reader.pages[0].extract_text()


def test_the_same_rules_make_the_same_bytes(tmp_path, monkeypatch):
    """With SOURCE_DATE_EPOCH the file is reproducible, also twice in one process (as a
    packed entry makes it)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    made = []
    for attempt in ("one", "two"):
        assert run("rulebook", "blofa", "--out", tmp_path / attempt, "--paper", "a4").exit_code == 0
        made.append((tmp_path / attempt / "blofa" / "blofa-rules-a4.pdf").read_bytes())
    assert made[0] == made[1]
    assert pypdf.PdfReader(tmp_path / "one/blofa/blofa-rules-a4.pdf").metadata[
        "/CreationDate"].startswith("D:20231114")


@pytest.fixture
def deck(tmp_path):
    """A copy of Blófa's deck, to write rules of our own beside it."""
    shutil.copy(DECKS_DIR / "blofa" / "deck.yaml", tmp_path / "deck.yaml")
    return tmp_path


@pytest.mark.parametrize("rules, line, problem, fix", [
    ("# Cards\n\nSee:\n\n![](card:Dragon)\n", 5, "the deck has no card named 'Dragon'",
     "name a card as 'cardkit preview' does, or by a field: card:FIELD=VALUE"),
    ("# Cards\n\n![](<card:Rules 1/3: Setpu>)\n", 3,
     "the deck has no card named 'Rules 1/3: Setpu'", "did you mean 'Rules 1/3: Setup'?"),
    ("Intro\n\n{table: value, colour}\n", 3, "'{table}' names the field 'colour', which "
     "the deck's cards do not have", "did you mean 'back.colour'?"),
    ("One {hart} here\n", 1, "'{hart}' is neither an icon of the deck nor one of its stamps",
     "did you mean '{heart}'? (literal braces are written {{ and }})"),
    ("Text\n\n```\ncode\n```\n", 3, "a code block cannot be printed in a rulebook",
     "write it as a paragraph, a list or a table"),
    ("Text\n\nTwo {hart}, three {hart}\n", 3, "'{hart}' is neither an icon of the "
     "deck nor one of its stamps", "did you mean '{heart}'? (literal braces are written {{ "
     "and }})"),
    ("A\n\n- item\n- 2 * 3 points\n", 4, "a literal '*' cannot be printed: card text (and so "
     "a rulebook's) reads every '*' as markup", "reword it, or write '×' for times"),
    ("![](card:value=2) and text\n", 1, "a card shown amid text", "give the card (or a row "
     "of cards) a paragraph of its own: an empty line before and after it"),
    # a name with a space is text to CommonMark: it printed as written, without a word
    ("# Setup\n\n![](card:Rules 1/3: Setup)\n", 3, "'![](card:Rules 1/3: Setup)' is not read "
     "as a card: a name with a space ends the link at the space", "put the card's name in "
     "angle brackets: '![](<card:Rules 1/3: Setup>)'"),
    # beside a card that was read, it said 'a card shown amid text'
    ("Cards\n\n![](card:value=2) ![Rules](card:Rules 1/3: Setup \"back\")\n", 3,
     "'![Rules](card:Rules 1/3: Setup \"back\")' is not read as a card: a name with a space "
     "ends the link at the space", "put the card's name in angle brackets: "
     "'![Rules](<card:Rules 1/3: Setup> \"back\")'"),
])
def test_a_mistake_in_the_rules_names_its_line_and_the_fix(deck, rules, line, problem, fix):
    (deck / "rules.md").write_text(rules, encoding="utf-8")
    result = run("rulebook", deck, "--out", deck / "out", "--paper", "a4")
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        f"{deck / 'rules.md'}:{line}: {problem}; {fix}",
        f"cardkit: 1 problem in {deck}; nothing was written"]
    assert not (deck / "out").exists()


def test_a_character_the_font_lacks_is_a_warning_and_with_strict_an_error(deck):
    (deck / "rules.md").write_text("# Suits\n\n- Spades are **♠**, hearts {heart}.\n",
                                   encoding="utf-8")
    warning = (f"{deck / 'rules.md'}:3: font Lato-Bold has no glyph for '♠'; use other "
               "characters, or put a font that has them in the deck's fonts/ folder (the "
               "rules are set in the font of the cards' longest text)")
    result = run("rulebook", deck, "--out", deck / "out", "--paper", "a4")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == f"warning: {warning}"
    result = run("rulebook", deck, "--out", deck / "out2", "--paper", "a4", "--strict")
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == warning.replace(
        "'♠';", "'♠' (an error with --strict);")
    assert not (deck / "out2").exists()


def test_a_deck_without_rules_or_with_empty_ones_is_told_what_to_write(deck):
    result = run("rulebook", deck, "--out", deck / "out")
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f"{deck / 'rules.md'}: file not found; write the deck's rules there, in Markdown (a "
        "deck made by `cardkit new` has one to start from)")
    (deck / "rules.md").write_text("\n\n", encoding="utf-8")
    result = run("rulebook", deck, "--out", deck / "out")
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f"{deck / 'rules.md'}: the file holds nothing to print; write the deck's rules in it, "
        "in Markdown")


def test_a_new_deck_has_rules_that_show_its_cards_and_table(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "duel").exit_code == 0
    result = run("rulebook", "duel", "--paper", "letter")
    assert result.exit_code == 0, result.output
    path = tmp_path / "output/duel/duel-rules-letter.pdf"
    assert not (tmp_path / "output/duel/duel-rules-a4.pdf").exists()
    with pdfplumber.open(path) as pdf:
        assert [tuple(map(float, (p.width, p.height))) for p in pdf.pages] == [LETTER] * 2
        text = pdf.pages[0].extract_text()
    assert "name kind cost strength count text" in text
    assert "Knight unit 4 5 1 Charge: the Knight may fight on the turn you play it." in text
    assert "Scout" in text and "Rules 0.1." in text
    # an event prints no strength: its cell is blank, as on the card (it printed 0, the
    # field's default)
    words = pdf_words(path)
    assert ("Rally", "event", "1", "2", "Your") in words and \
        not any(row[:3] == ("Rally", "event", "1") and row[3] == "0" for row in words)


def pdf_words(path) -> list[tuple]:
    """Each line of the first page as its words."""
    with pdfplumber.open(path) as pdf:
        return [tuple(line.split()[:5]) for line in pdf.pages[0].extract_text().splitlines()]


def test_watch_writes_the_rulebook_again_when_rules_md_is_saved(deck, monkeypatch):
    import cardkit.pipeline.watch

    (deck / "rules.md").write_text("# First draft\n", encoding="utf-8")

    def a_save_of_the_rules(path, out, rebuild, stop_event=None):
        rebuild([])
        (deck / "rules.md").write_text("# Second draft\n", encoding="utf-8")
        rebuild(["rules.md"])

    monkeypatch.setattr(cardkit.pipeline.watch, "watch", a_save_of_the_rules)
    out = deck / "out"
    result = run("watch", deck, "--out", out, "--cards", "1", "--rulebook", "--paper", "letter")
    assert result.exit_code == 0, result.output
    made = [line for line in result.output.splitlines() if ": rules, " in line]
    assert len(made) == 2 and all(line.startswith("blofa: rules, 1 page -> ") for line in made)
    text = pypdf.PdfReader(out / "blofa" / "blofa-rules-letter.pdf").pages[0].extract_text()
    assert "Second draft" in text
    assert cardkit.pipeline.watch.may_read("rules.md")


@pytest.mark.parametrize("paper, size", [("card", (180, 252)), ("index", (252, 360))])
def test_small_pages_set_smaller_type_with_the_footer_inside_the_page(tmp_path, paper, size):
    # the 18-card contest's rules on cards or on one 3.5 x 5 in sheet
    result = run("rulebook", "blofa", "--out", tmp_path, "--paper", paper)
    assert result.exit_code == 0, result.output
    path = tmp_path / "blofa" / f"blofa-rules-{paper}.pdf"
    with pdfplumber.open(path) as pdf:
        assert {(round(p.width, 2), round(p.height, 2)) for p in pdf.pages} == {size}
        words = pdf.pages[0].extract_words(extra_attrs=["size"])
    body = [w for w in words if w["text"] == "Every"]  # the first paragraph's first word
    footer = [w for w in words if w["text"] == "page"]
    assert body and round(body[0]["size"], 1) == 6.0  # 10 pt on A4, scaled to 0.6
    five_mm = 5 * 72 / 25.4
    assert footer and footer[0]["bottom"] <= size[1] - five_mm  # 5 mm inside the page
    assert all(w["x0"] >= five_mm and w["x1"] <= size[0] - five_mm for w in words)


def test_the_command_offers_every_page_size_the_pipeline_makes():
    from cardkit.cli.rulebook import rulebook
    from cardkit.pipeline.rulebook import PAGE_CHOICES

    paper = next(p for p in rulebook.params if p.name == "paper")
    assert tuple(paper.type.choices) == PAGE_CHOICES


def _long_table_deck(folder: Path, rows: int) -> Path:
    """The bundled shapes deck, its rules.md one long Markdown table."""
    shutil.copytree(DECKS_DIR / "shapes", folder)
    body = "\n".join(f"| row {i} | value {i} | x |" for i in range(rows))
    (folder / "rules.md").write_text(f"# Rules\n\n| Row | Value | Mark |\n|---|---|---|\n{body}\n",
                                     encoding="utf-8")
    return folder / "deck.yaml"


def test_a_long_table_is_split_between_pages_each_headed_every_row_once(tmp_path):
    deck = _long_table_deck(tmp_path / "deck", 150)
    result = run("rulebook", deck, "--paper", "a4", "--out", tmp_path / "out")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "shapes" / "shapes-rules-a4.pdf") as pdf:
        pages = [page.extract_text().splitlines() for page in pdf.pages]
    assert len(pages) >= 3
    assert all(any(line.startswith("Row Value Mark") for line in page[:3]) for page in pages)
    found = [line for page in pages for line in page if line.startswith("row ")]
    assert found == [f"row {i} value {i} x" for i in range(150)]


LINEAR_TIME = """
import sys, time
from pathlib import Path
from cardkit.pipeline.rulebook import make_rulebook
for deck in sys.argv[1:]:
    started = time.process_time()
    make_rulebook(Path(deck), Path(deck).parent / "out", ("a4",))
    print(time.process_time() - started)
"""


def test_a_long_table_takes_time_in_proportion_to_its_rows(tmp_path):
    """Issue 54: 2,000 rows took 7 s, 8,000 rows 100 s (reportlab's Table measured every
    row left at each page it split off). CPU time, of a child process: eight times the rows
    take about eight times as long, not sixty-four, however busy the machine."""
    import subprocess
    import sys

    decks = [_long_table_deck(tmp_path / str(rows), rows) for rows in (50, 500, 4000)]
    child = subprocess.run([sys.executable, "-c", LINEAR_TIME, *map(str, decks)],
                           capture_output=True, text=True, timeout=600, check=True)
    _, few, many = map(float, child.stdout.split())  # the first warms the caches up
    assert many / few < 11, (few, many)


def test_no_text_is_smaller_than_6_pt_even_on_card_sized_pages(tmp_path):
    """The docs promise 6 pt at least: Blófa's rules on pages of its card size set the
    table's text at 5.4 pt and the footer at 4.8 pt; pdfplumber reads every character's
    size on every page."""
    result = run("rulebook", "blofa", "--out", tmp_path, "--paper", "card")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "blofa" / "blofa-rules-card.pdf") as pdf:
        words = [w for page in pdf.pages for w in page.extract_words(extra_attrs=["size"])]
    # the tables' cells, the footers and the body (the cards shown are the cards' own type)
    for text in ("announced", "dealer", "captured", "VP", "page", "Every"):
        sizes = [round(w["size"], 2) for w in words if w["text"] == text]
        assert sizes and min(sizes) >= 6.0, (text, sizes)


def test_the_headings_are_the_pdf_s_outline_and_the_dialog_prints_at_actual_size(blofa):
    """pypdf reads the outline (bookmarks): each heading of Blófa's rules.md, nested as
    its level is, pointing at the page it is on; the catalog asks for actual size."""
    reader = pypdf.PdfReader(blofa[0])
    entries = []

    def walk(outline, depth):
        for entry in outline:
            if isinstance(entry, list):
                walk(entry, depth + 1)
            else:
                entries.append((depth, entry.title, reader.get_destination_page_number(entry)))

    walk(reader.outline, 0)
    headings = [line for line in (DECKS_DIR / "blofa" / "rules.md").read_text(
        encoding="utf-8").splitlines() if line.startswith("#")]
    assert [(depth, title) for depth, title, _ in entries] == [
        (len(line) - len(line.lstrip("#")) - 1, line.lstrip("#").strip()) for line in headings]
    for depth, title, page in entries:  # each on the page whose text holds it
        assert title in reader.pages[page].extract_text()
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/PrintScaling"] == "/None"
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"


def test_a_link_keeps_its_address_as_a_link_annotation_over_its_words(deck):
    """A printed link showed its text only: pypdf reads a /URI annotation for each web or
    mail link, whose rectangle covers the link's words as pdfplumber finds them (a link
    running onto the next line gets a rectangle on each); a link to a file is text only."""
    words = " ".join(["filler"] * 14)
    (deck / "rules.md").write_text(
        f"# Links\n\nRead [the designer's page](https://example.com/blofa) first. {words} "
        "[mail the designer about the rules](mailto:rules@example.com) and "
        "[nothing](other.md) else.\n", encoding="utf-8")
    result = run("rulebook", deck, "--out", deck / "out", "--paper", "a4")
    assert result.exit_code == 0, result.output
    path = deck / "out" / "blofa" / "blofa-rules-a4.pdf"
    page = pypdf.PdfReader(path).pages[0]
    links = [(str(a.get_object()["/A"]["/URI"]), [float(v) for v in a.get_object()["/Rect"]])
             for a in page["/Annots"]]
    assert {uri for uri, _ in links} == {"https://example.com/blofa", "mailto:rules@example.com"}
    with pdfplumber.open(path) as pdf:
        found = pdf.pages[0].extract_words()
        height = pdf.pages[0].height
    for uri, link_words in (("https://example.com/blofa", ["the", "designer's", "page"]),
                            ("mailto:rules@example.com", ["mail", "the", "designer",
                                                          "about", "the", "rules"])):
        rects = [rect for address, rect in links if address == uri]
        start = next(i for i in range(len(found)) if [w["text"] for w in found[
            i:i + len(link_words)]] == link_words)
        for word in found[start:start + len(link_words)]:  # each word inside a rectangle
            assert any(x0 - 0.5 <= word["x0"] and word["x1"] <= x1 + 0.5 and
                       y0 - 0.5 <= height - word["bottom"] and height - word["top"] <= y1 + 0.5
                       for x0, y0, x1, y1 in rects), (uri, word["text"], rects)
        # and nothing else: the rectangles hold these words only
        inside = [w["text"] for w in found if any(
            x0 - 0.5 <= w["x0"] and w["x1"] <= x1 + 0.5 and
            y0 - 0.5 <= height - w["bottom"] and height - w["top"] <= y1 + 0.5
            for x0, y0, x1, y1 in rects)]
        assert inside == link_words, (uri, inside)
    assert len([uri for uri, _ in links if uri.startswith("mailto")]) == 2  # on two lines
