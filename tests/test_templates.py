"""``cardkit build --template``: cards laid out by a sheet template's slots, measured from
the PDF with pdfplumber (pdfminer), which shares no code with reportlab that writes it."""

from __future__ import annotations

import pdfplumber
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck

MM = 72 / 25.4
TOLERANCE = 0.05  # mm
LAYOUTS = {
    "red": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#ff0000'}\n",
    "blue": "elements:\n  - {name: bg, kind: rect, box: card, fill: '#0000ff'}\n",
}


def filled(page, colour):
    """(left, top from the page's top, width, height) in mm of the rectangles of a colour."""
    return sorted((round(r["x0"] / MM, 2), round(r["top"] / MM, 2), round(r["width"] / MM, 2),
                   round(r["height"] / MM, 2))
                  for r in page.rects if r["fill"] and r["non_stroking_color"] == colour)


def build(tmp_path, deck, template):
    return CliRunner().invoke(main, ["build", str(deck), "--template", str(template),
                                     "--out", str(tmp_path / "out")])


def test_avery_l7160_labels_each_get_a_sticker_at_its_place(tmp_path):
    """25 stickers of 63.5 x 38.1 mm fill the 21 labels of a first sheet (3 x 7, 7.25 mm
    and 15.15 mm from the corner, 66 mm apart across) and 4 of a second; no cut guides."""
    deck = write_deck(tmp_path, "", size="{width: 63.5mm, height: 38.1mm}", count=25,
                      layouts=LAYOUTS, front="red", back="blue")
    result = build(tmp_path, deck, "avery-l7160")
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-avery-l7160-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        expected = sorted((round(7.25 + c * 66, 2), round(15.15 + r * 38.1, 2), 63.5, 38.1)
                          for r in range(7) for c in range(3))
        found = filled(pdf.pages[0], (1.0, 0.0, 0.0))
        assert len(found) == 21
        for a, b in zip(found, expected):
            assert all(abs(x - y) <= TOLERANCE for x, y in zip(a, b)), (a, b)
        assert len(filled(pdf.pages[1], (1.0, 0.0, 0.0))) == 4
        assert not [line for line in pdf.pages[0].lines if line["stroking_color"] == (0, 0, 0)]


def test_a_duplex_template_puts_each_back_behind_its_front(tmp_path):
    """One slot upright and one turned: on the page of backs (long-edge duplex, portrait)
    each back is at x' = W - x - w, as the automatic grid's backs are."""
    template = tmp_path / "two.yaml"
    template.write_text("paper: a4\nduplex: true\nslots:\n"
                        "  - {x: 10mm, y: 12mm, width: 63.5mm, height: 88.9mm}\n"
                        "  - {x: 90mm, y: 20mm, width: 88.9mm, height: 63.5mm, rotation: 90}\n")
    deck = write_deck(tmp_path, "", count=2, layouts=LAYOUTS, front="red", back="blue")
    result = build(tmp_path, deck, template)
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "tiny" / "tiny-two-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts = filled(pdf.pages[0], (1.0, 0.0, 0.0))
        assert fronts == [(10.0, 12.0, 63.5, 88.9), (90.0, 20.0, 88.9, 63.5)]
        backs = filled(pdf.pages[1], (0.0, 0.0, 1.0))
        assert backs == sorted((round(210 - x - w, 2), y, w, h) for x, y, w, h in fronts)
        assert pdf.pages[0].lines  # cut guides, this template having them


def test_a_mistake_in_a_template_exits_2_naming_its_line(tmp_path):
    template = tmp_path / "bad.yaml"
    template.write_text("paper: a4\nslots:\n"
                        "  - {x: 10mm, y: 12mm, widht: 63.5mm, height: 88.9mm}\n")
    result = build(tmp_path, write_deck(tmp_path, ""), template)
    assert result.exit_code == 2, result.output
    assert "bad.yaml:3:24: unknown key 'widht' in a slot; did you mean 'width'?" \
        in result.output
    assert "1 problem" in result.output
