"""The studio writes a card's field into its XLSX workbook (issue 59): only that cell
changes; every other part of the workbook keeps its bytes and every other cell reads as it
did (read back by calamine, the cards' reader); the cell keeps its style. A formula cell,
a workbook with formulas, and a workbook's rows are not changed, and the page says why."""

from __future__ import annotations

import csv
import io
import re
import shutil
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import openpyxl
import pytest
import python_calamine
from hypothesis import given, settings
from hypothesis import strategies as st
from openpyxl.styles import Font, PatternFill

from cardkit.common.errors import InputError
from cardkit.deck.loader import load_deck
from cardkit.sources.rewrite import NotRewritten
from cardkit.sources.rewrite_xlsx import replace_xlsx_cell
from cardkit.studio import edits
from cardkit.studio.images import Studio
from test_studio_edit import client_of, posted, token_of

ROOT = Path(__file__).resolve().parent.parent
LANTERN = ROOT / "examples" / "lantern-market"
MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"


def rows_read(data: bytes, sheet: str = "Cards") -> list[list]:
    """The sheet as calamine reads it, every row padded to the same width."""
    rows = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(data)) \
        .get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    width = max(map(len, rows))
    return [list(row) + [""] * (width - len(row)) for row in rows]


def members(data: bytes) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return [(member.filename, archive.read(member)) for member in archive.infolist()]


def styles(data: bytes, part: str) -> dict[str, str | None]:
    """Each cell's style index (its 's'), by its reference."""
    sheet = ElementTree.fromstring(dict(members(data))[part])
    return {cell.get("r"): cell.get("s") for cell in sheet.iter(f"{{{MAIN}}}c")}


def by_openpyxl(rows: list[list]) -> bytes:
    """A workbook of ``rows`` on the sheet 'Cards' (its cells styled, a column wide, a
    second sheet), as openpyxl writes one (strings inline)."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row, 1):
            cell = sheet.cell(row=r, column=c, value=value)
            if r == 1:
                cell.font = Font(bold=True)
            elif c % 2 == 0:
                cell.fill = PatternFill("solid", fgColor="FFEEAA")
                cell.number_format = "0.00"
    sheet.column_dimensions["A"].width = 30
    book.create_sheet("Notes")["B2"] = "not a card"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def by_excel(rows: list[list]) -> bytes:
    """A workbook of ``rows`` written as Excel and the Open XML SDK write them: strings in
    the shared strings table, the sheet's elements with a namespace prefix ('x:'), a
    style on every other cell, an XML declaration that says standalone; the shared
    strings' count is of the cells pointing into them, as Excel writes it."""
    shared: list[str] = []
    references = 0
    cells = []
    for r, row in enumerate(rows, 1):
        written = []
        for c, value in enumerate(row):
            ref, style = f"{chr(65 + c)}{r}", ' s="1"' if (r + c) % 2 else ""
            if value is None:
                written.append(f'<x:c r="{ref}"{style}/>' if style else "")
            elif isinstance(value, bool):
                written.append(f'<x:c r="{ref}"{style} t="b"><x:v>{int(value)}</x:v></x:c>')
            elif isinstance(value, (int, float)):
                written.append(f'<x:c r="{ref}"{style}><x:v>{value!r}</x:v></x:c>')
            else:
                if value not in shared:
                    shared.append(value)
                references += 1
                written.append(f'<x:c r="{ref}"{style} t="s"><x:v>{shared.index(value)}'
                               '</x:v></x:c>')
        written = "".join(written)
        if written:
            written = f'<x:row r="{r}" spans="1:{len(row)}">' + written + "</x:row>"
        cells.append(written)
    def escaped(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace("\r", "&#13;")
    declaration = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n'
    parts = {
        "[Content_Types].xml": declaration + (
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package'
            '.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxml'
            'formats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.'
            'openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxml'
            'formats-officedocument.spreadsheetml.styles+xml"/></Types>'),
        "_rels/.rels": declaration + (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            'relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org'
            '/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
            '</Relationships>'),
        "xl/workbook.xml": declaration + (
            f'<x:workbook xmlns:x="{MAIN}" xmlns:r="http://schemas.openxmlformats.org/'
            'officeDocument/2006/relationships"><x:sheets>'
            '<x:sheet name="Cards" sheetId="1" r:id="rId7"/></x:sheets></x:workbook>'),
        "xl/_rels/workbook.xml.rels": declaration + (
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/'
            'relationships"><Relationship Id="rId7" Type="http://schemas.openxmlformats.org'
            '/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet1.xml"'
            '/><Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument'
            '/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
            '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument'
            '/2006/relationships/styles" Target="styles.xml"/></Relationships>'),
        "xl/worksheets/sheet1.xml": declaration + (
            f'<x:worksheet xmlns:x="{MAIN}"><x:sheetData>' + "\r\n".join(cells) +
            '</x:sheetData></x:worksheet>'),
        "xl/sharedStrings.xml": declaration + (
            f'<sst xmlns="{MAIN}" count="{references}" uniqueCount="{len(shared)}">' +
            "".join(f'<si><t xml:space="preserve">{escaped(text)}</t></si>'
                    for text in shared) + "</sst>"),
        "xl/styles.xml": declaration + (
            f'<styleSheet xmlns="{MAIN}"><numFmts count="1"><numFmt numFmtId="164" '
            'formatCode="0.000"/></numFmts><fonts count="1"><font><sz val="11"/></font>'
            '</fonts><fills count="1"><fill><patternFill patternType="none"/></fill></fills>'
            '<borders count="1"><border/></borders><cellStyleXfs count="1"><xf/>'
            '</cellStyleXfs><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="164" '
            'applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" '
            'xfId="0" builtinId="0"/></cellStyles></styleSheet>')}
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text.encode())
    return out.getvalue()


SHEETS = {by_openpyxl: "xl/worksheets/sheet1.xml", by_excel: "xl/worksheets/sheet1.xml"}
TEXT = st.text(st.characters(blacklist_categories=("Cs",),
                             blacklist_characters="\ufffe\uffff"),
               max_size=12) | st.sampled_from(
    ["_x0041_", "a\r\nb", " <&> ", "\x01\x1f", "x_x005F_y", "=1+1", "3"])
NUMBER = st.integers(-10**12, 10**12) | st.floats(allow_nan=False, allow_infinity=False)
VALUE = TEXT | NUMBER | st.booleans() | st.none()
# what the workbooks are made with: text openpyxl writes as text (no control character,
# and not starting with '=', which openpyxl writes as a formula: refused, as other tests show)
CELL = st.text(st.characters(whitelist_categories=("L", "N", "P", "Zs", "S")), max_size=8
               ).filter(lambda text: not text.startswith("=")) \
    | NUMBER | st.booleans() | st.none()


def read_back(value):
    """What calamine reads from a cell written with ``value`` (the test's own oracle)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return value


@settings(max_examples=40, deadline=None)
@given(write=st.sampled_from(list(SHEETS)), data=st.data(),
       body=st.lists(st.lists(CELL, min_size=4, max_size=4), min_size=1, max_size=5))
def test_an_xlsx_edit_changes_that_cell_and_nothing_else(write, data, body):
    rows = [["name", "cost", "text", "rare"]] + [["card"] + row[1:] for row in body]
    old = write(rows)
    line = data.draw(st.integers(2, len(rows)), label="line")
    column = data.draw(st.sampled_from(rows[0]), label="column")
    value = data.draw(VALUE.filter(lambda v: v != ""), label="value")
    if column == "name":  # the card's row stays a card's
        value = data.draw(TEXT.filter(str.strip), label="name")
    with pytest.MonkeyPatch.context() as patched:
        # the workbook read in this process, not in a child under limits (those are
        # test_hostile_readers' and the other tests' here): a fork of the test's process
        # costs about 50 ms of CPU time, and the rewrite reads the workbook twice
        patched.setattr("cardkit.common.processes.run_limited",
                        lambda function, args, *limits: function(*args))
        new = replace_xlsx_cell(old, "Cards", line, column, value)

    before, after = rows_read(old), rows_read(new)
    index = rows[0].index(column)
    expected = [list(row) for row in before]
    expected[line - 1][index] = read_back(value)
    assert after == expected
    assert [type(cell) for row in after for cell in row] == \
        [type(cell) for row in expected for cell in row]  # True is not 1.0
    # every other member of the archive byte for byte, in its order, but the shared
    # strings' count of the cells pointing into them (one less if this one did)
    part, strings = SHEETS[write], "xl/sharedStrings.xml"
    assert [(name, held) for name, held in members(new) if name not in (part, strings)] == \
        [(name, held) for name, held in members(old) if name not in (part, strings)]
    if strings in dict(members(old)):
        was_shared = isinstance(rows[line - 1][index], str) and new != old  # written shared
        count = shared_counts(old)[0] - was_shared
        assert dict(members(new))[strings] == dict(members(old))[strings].replace(
            f'count="{shared_counts(old)[0]}"'.encode(), f'count="{count}"'.encode(), 1)
        assert shared_counts(new) == (count, shared_counts(old)[1]) == \
            (references(new, part), shared_counts(old)[1])
    assert [name for name, _ in members(new)] == [name for name, _ in members(old)]
    # the cell keeps its style; no other cell's changes
    old_styles, new_styles = styles(old, part), styles(new, part)
    reference = f"{'ABCD'[index]}{line}"
    assert new_styles.get(reference) == old_styles.get(reference)
    assert {r: s for r, s in new_styles.items() if r != reference} == \
        {r: s for r, s in old_styles.items() if r != reference}
    # another reader (openpyxl) sees the value, in the cell's own number format (it does
    # not undo the format's escapes of control characters, '_x001F_', as Excel does)
    old_cell = openpyxl.load_workbook(io.BytesIO(old))["Cards"][reference]
    new_cell = openpyxl.load_workbook(io.BytesIO(new))["Cards"][reference]
    assert new_cell.number_format == old_cell.number_format
    if value is None:  # (a cell of '' that reads as empty already is left as it is)
        assert new_cell.value in (None, "")
    elif not (isinstance(value, str) and re.search(r"[\x00-\x1f]|_x", value)):
        assert new_cell.value == value and type(new_cell.value) is type(value) or \
            isinstance(value, float) and value.is_integer() and new_cell.value == value


def test_the_sheets_other_bytes_stay_as_they_were():
    old = by_excel([["name", "cost"], ["Ada", 3], ["Bob", 4]])
    new = replace_xlsx_cell(old, "Cards", 3, "cost", 7)
    sheet_old = dict(members(old))["xl/worksheets/sheet1.xml"]
    sheet_new = dict(members(new))["xl/worksheets/sheet1.xml"]
    assert sheet_new == sheet_old.replace(b'<x:c r="B3"><x:v>4</x:v></x:c>',
                                          b'<x:c r="B3"><x:v>7</x:v></x:c>')
    # an empty cell the sheet does not write (B3, D3) is added in its column's place
    old = by_excel([["name", "cost", "text", "rare"], ["Ada", 1, 2, 3], ["Bob", None, 3, None]])
    new = replace_xlsx_cell(old, "Cards", 3, "cost", "two words")
    new = replace_xlsx_cell(new, "Cards", 3, "rare", True)
    assert rows_read(new)[2] == ["Bob", "two words", 3.0, True]
    assert b'<x:row r="3" spans="1:4"><x:c r="A3" s="1" t="s"><x:v>5</x:v></x:c>' \
        b'<x:c r="B3" t="inlineStr"><x:is><x:t xml:space="preserve">two words</x:t></x:is>' \
        b'</x:c><x:c r="C3" s="1"><x:v>3</x:v></x:c><x:c r="D3" t="b"><x:v>1</x:v></x:c>' \
        b'</x:row>' in dict(members(new))["xl/worksheets/sheet1.xml"]


def shared_counts(data: bytes) -> tuple[int, int]:
    """The shared strings' count and uniqueCount attributes, as ElementTree reads them."""
    table = ElementTree.fromstring(dict(members(data))["xl/sharedStrings.xml"])
    return int(table.get("count")), int(table.get("uniqueCount"))


def references(data: bytes, part: str) -> int:
    """How many cells of the sheet ``part`` point into the shared strings (t="s")."""
    sheet = ElementTree.fromstring(dict(members(data))[part])
    return sum(cell.get("t") == "s" for cell in sheet.iter(f"{{{MAIN}}}c"))


def test_a_shared_string_cell_made_inline_counts_one_reference_less():
    """A cell that pointed into the shared strings (Excel's way of writing text) is an
    inline string after the edit: the shared strings' count of the cells pointing into
    them was left one too high. It is one less; uniqueCount and the strings stay (another
    cell points at 'Ada' still), and openpyxl and calamine read every cell as written."""
    sheet = "xl/worksheets/sheet1.xml"
    old = by_excel([["name", "cost", "text"], ["Ada", 3, "Ada"], ["Bob", 4, "draw"]])
    assert shared_counts(old) == (7, 6) == (references(old, sheet), 6)
    new = replace_xlsx_cell(old, "Cards", 2, "text", "two words")  # 'Ada', shared with A2
    assert shared_counts(new) == (6, 6) == (references(new, sheet), 6)
    new = replace_xlsx_cell(new, "Cards", 3, "cost", 7)  # a number: no string let go
    new = replace_xlsx_cell(new, "Cards", 3, "text", None)  # emptied
    assert shared_counts(new) == (5, 6) == (references(new, sheet), 6)
    written = [["name", "cost", "text"], ["Ada", 3, "two words"], ["Bob", 7, None]]
    book = openpyxl.load_workbook(io.BytesIO(new))["Cards"]
    assert [[cell.value for cell in row] for row in book.iter_rows()] == written
    assert rows_read(new) == [["name", "cost", "text"], ["Ada", 3.0, "two words"],
                              ["Bob", 7.0, ""]]


def test_a_formula_cell_or_a_workbook_with_formulas_is_not_changed():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    for row in (["name", "cost"], ["Ada", "=1+2"], ["Bob", 4]):
        sheet.append(row)
    out = io.BytesIO()
    book.save(out)
    with pytest.raises(NotRewritten, match="this cell holds a formula") as refused:
        replace_xlsx_cell(out.getvalue(), "Cards", 2, "cost", 5)
    assert refused.value.fix == "change the formula in your spreadsheet program"
    with pytest.raises(NotRewritten, match="the workbook has formulas"):
        replace_xlsx_cell(out.getvalue(), "Cards", 3, "cost", 5)


# -- through the studio ------------------------------------------------------------------

def lantern_xlsx(folder: Path, formula: bool = False) -> Path:
    """Lantern Market with its cards in cards.xlsx (sheet 'Cards', a bold header), not
    cards.csv; ``formula``: card 3's swords are '=1+1'."""
    deck = folder / "lantern-market"
    shutil.copytree(LANTERN, deck)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Cards"
    with open(deck / "cards.csv", newline="", encoding="utf-8") as cards:
        for r, row in enumerate(csv.reader(cards), 1):
            sheet.append([int(cell) if cell.isdigit() else cell or None for cell in row])
            if r == 1:
                for cell in sheet[1]:
                    cell.font = Font(bold=True)
    if formula:
        sheet["E4"] = "=1+1"
    book.save(deck / "cards.xlsx")
    (deck / "cards.csv").unlink()
    text = (deck / "deck.yaml").read_text()
    (deck / "deck.yaml").write_text(text.replace("from: cards.csv", "from: cards.xlsx"))
    return deck


def test_an_edit_reaches_cards_xlsx_in_that_cell_only(tmp_path):
    deck = lantern_xlsx(tmp_path)
    cards = deck / "cards.xlsx"
    before = cards.read_bytes()
    client = client_of(Studio(deck / "deck.yaml"))
    card = client.get("/api/deck").json()["cards"][1]
    assert card["edit"] == {"file": str(cards), "why": "", "rows": edits.WORKBOOK_ROWS_WHY}
    answer = posted(client, 2, "text", "Draw two, then rest.")
    assert answer.status_code == 200 and answer.json()["saved"], answer.text
    expected = rows_read(before)
    expected[2][8] = "Draw two, then rest."
    assert rows_read(cards.read_bytes()) == expected
    assert posted(client, 2, "cost", "5").json()["saved"]  # its new version was told
    assert rows_read(cards.read_bytes())[2][3] == 5.0
    assert [card.fields["text"] for card in load_deck(deck / "deck.yaml").cards][1] == \
        "Draw two, then rest."
    assert styles(cards.read_bytes(), "xl/worksheets/sheet1.xml") == \
        styles(before, "xl/worksheets/sheet1.xml")

    # a wrong value: validate's message, at the cell's row of that sheet
    answer = posted(client, 2, "cost", "four")
    assert answer.status_code == 422
    problem = answer.json()["problem"]
    book = openpyxl.load_workbook(cards)
    book["Cards"]["D3"] = "four"
    book.save(cards)
    with pytest.raises(InputError) as validated:
        load_deck(deck / "deck.yaml")
    said = validated.value.problems[0]
    assert (problem["what"], problem["fix"], problem["where"]) == \
        (said.what, said.fix, str(said.where))
    assert problem["where"] == f"{cards}[Cards]:3"


def test_an_emptied_field_is_its_default_and_a_field_without_one_is_refused(tmp_path):
    deck = lantern_xlsx(tmp_path)
    cards = deck / "cards.xlsx"
    client = client_of(Studio(deck / "deck.yaml"))
    assert rows_read(cards.read_bytes())[5][4] == 1.0  # the Night Watch's swords
    assert posted(client, 5, "swords", " ").json()["saved"]
    assert rows_read(cards.read_bytes())[5][4] == ""
    assert load_deck(deck / "deck.yaml").cards[4].fields["swords"] == 0
    before = cards.read_bytes()
    answer = posted(client, 5, "cost", "")
    assert answer.status_code == 422 and answer.json()["problem"] == {
        "where": f"{cards}[Cards]:6", "what": "this card has no 'cost'",
        "fix": "give it a 'cost' (a key, or a spreadsheet column) or give the field a default"}
    assert cards.read_bytes() == before


def test_an_xlsx_changed_on_disk_is_never_written_over(tmp_path):
    deck = lantern_xlsx(tmp_path)
    cards = deck / "cards.xlsx"
    client = client_of(Studio(deck / "deck.yaml"))
    state = client.get("/api/deck").json()
    version = state["files"][state["cards"][1]["edit"]["file"]]
    book = openpyxl.load_workbook(cards)
    book["Cards"]["I3"] = "Theirs."
    book.save(cards)
    changed = cards.read_bytes()
    answer = posted(client, 2, "text", "Mine.", version=version)
    assert answer.status_code == 409 and answer.json()["now"] == "Theirs."
    assert cards.read_bytes() == changed


def test_a_formula_and_a_workbooks_rows_are_refused_and_say_why(tmp_path):
    deck = lantern_xlsx(tmp_path, formula=True)
    cards = deck / "cards.xlsx"
    before = cards.read_bytes()
    client = client_of(Studio(deck / "deck.yaml"))
    answer = posted(client, 3, "swords", "5")
    assert answer.status_code == 422
    assert answer.json()["problem"]["what"].startswith("this cell holds a formula")
    answer = posted(client, 2, "cost", "5")
    assert answer.status_code == 422
    assert answer.json()["problem"]["what"].startswith("the workbook has formulas")
    state = client.get("/api/deck").json()
    for op in ("add", "duplicate", "delete"):
        answer = client.post("/api/edit", json={
            "op": op, "card": 2, "version": state["files"][str(cards)]},
            headers={"X-Cardkit-Token": token_of(client)})
        assert answer.status_code == 422
        assert answer.json()["problem"]["what"] == edits.WORKBOOK_ROWS_WHY
    assert cards.read_bytes() == before


def test_a_link_planted_at_cards_xlsx_is_not_written_through(tmp_path):
    """A workbook swapped for a symbolic link after the page read it: the edit is refused
    and the file the link points at stays as it was."""
    deck = lantern_xlsx(tmp_path)
    cards = deck / "cards.xlsx"
    client = client_of(Studio(deck / "deck.yaml"))
    state = client.get("/api/deck").json()
    version = state["files"][state["cards"][1]["edit"]["file"]]
    target = tmp_path / "elsewhere.xlsx"
    shutil.copy(cards, target)
    cards.unlink()
    cards.symlink_to(target)
    before = target.read_bytes()
    answer = posted(client, 2, "cost", "9", version=version)
    assert answer.status_code == 422 and "symbolic link" in answer.json()["problem"]["what"]
    assert target.read_bytes() == before and cards.is_symlink()
