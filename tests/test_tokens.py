"""``cardkit tokens``: tokens of three shapes, each cut on its own outline, measured from
the PDF with pdfplumber (pdfminer), which shares no code with reportlab that writes it."""

from __future__ import annotations

import math

import pdfplumber
import pytest
from click.testing import CliRunner

from cardkit.cli import main
from componentdeck import write_deck

MM = 72 / 25.4
TOLERANCE = 0.05  # mm: the limit for a cut outline against its shape
BORDER = 5.0

TOKENS = """\
  - {shape: round, size: 25mm, count: 3, front: chit, back: chit-back}
  - {shape: hex, size: 30mm, count: 2, front: chit, back: chit-back}
  - {shape: square, size: 20mm, count: 2, front: chit}
"""
FRONT = "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, fill: '#ff0000'}\n"
BACK = "elements:\n  - {name: bg, kind: rect, box: card, bleed: true, fill: '#0000ff'}\n"


def make_deck(tmp_path, tokens=TOKENS):
    return write_deck(tmp_path, "tokens:\n" + tokens, name="chits", title="Chits",
                      layouts={"chit": FRONT, "chit-back": BACK})


def run_tokens(tmp_path, deck):
    return CliRunner().invoke(main, ["tokens", str(deck), "--out", str(tmp_path / "out"),
                                     "--paper", "a4"])


def cut_outlines(page):
    """The black hairlines: each as (kind, its points on the outline in mm)."""
    found = []
    for obj in page.curves + page.rects:
        if not obj.get("stroke") or obj["fill"] or obj["stroking_color"] != (0.0, 0.0, 0.0):
            continue
        points, last = [], None
        for op, *args in obj["path"]:
            if op == "c":  # sample the Bezier curve, as a cutter would follow it
                p0, (p1, p2, p3) = last, args
                points += [tuple(sum(w * p[i] for w, p in zip(
                    ((1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3),
                    (p0, p1, p2, p3))) for i in (0, 1)) for t in (i / 20 for i in range(21))]
            elif args:
                points.append(args[0])
            last = args[-1] if args else last
        kind = "round" if any(op == "c" for op, *_ in obj["path"]) else len(set(points))
        found.append((kind, [(x / MM, y / MM) for x, y in points]))
    return found


def centre(points):
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)


def test_each_token_is_cut_on_its_own_shape_within_0_05_mm(tmp_path):
    result = run_tokens(tmp_path, make_deck(tmp_path))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "chits" / "chits-tokens-a4.pdf") as pdf:
        page = pdf.pages[0]
        outlines = cut_outlines(page)
        kinds = sorted(str(kind) for kind, _ in outlines)
        assert kinds == ["4", "4", "6", "6", "round", "round", "round"]
        for kind, points in outlines:
            cx, cy = centre(points)
            radii = [math.dist((cx, cy), p) for p in points]
            if kind == "round":  # a 25 mm circle: every point 12.5 mm from the centre
                assert max(abs(r - 12.5) for r in radii) <= TOLERANCE
            elif kind == 6:  # 30 mm across the flats: corners 30 / sqrt(3) out, 60° apart
                assert max(abs(r - 30 / math.sqrt(3)) for r in radii) <= TOLERANCE
                angles = sorted(round(math.degrees(math.atan2(y - cy, x - cx)), 1) % 360
                                for x, y in set(points))
                assert angles == [0, 60, 120, 180, 240, 300]
            else:  # a 20 mm square
                xs, ys = [p[0] for p in points], [p[1] for p in points]
                assert abs(max(xs) - min(xs) - 20) <= TOLERANCE
                assert abs(max(ys) - min(ys) - 20) <= TOLERANCE
                assert max(abs(r - 10 * math.sqrt(2)) for r in radii) <= TOLERANCE
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            width = page.width / MM
            assert min(xs) >= BORDER and max(xs) <= width - BORDER


def test_double_sided_tokens_have_their_backs_exactly_behind_their_fronts(tmp_path):
    """Long-edge duplex on portrait A4 mirrors the columns, as the card sheets do: a back
    sits at x' = W - x; the single-sided squares leave no back."""
    result = run_tokens(tmp_path, make_deck(tmp_path))
    assert result.exit_code == 0, result.output
    with pdfplumber.open(tmp_path / "out" / "chits" / "chits-tokens-a4.pdf") as pdf:
        assert len(pdf.pages) == 2
        fronts, backs = (cut_outlines(page) for page in pdf.pages)
        width = pdf.pages[0].width / MM
        expected = sorted((str(kind), round(width - centre(points)[0], 2),
                           round(centre(points)[1], 2))
                          for kind, points in fronts if kind != 4)
        found = sorted((str(kind), round(centre(points)[0], 2), round(centre(points)[1], 2))
                       for kind, points in backs)
        assert found == expected and len(found) == 5
        # the back's art (blue) lies on its outline, the front's (red) on the front page
        blue = [((o["x0"] + o["x1"]) / 2 / MM, (o["top"] + o["bottom"]) / 2 / MM)
                for o in pdf.pages[1].rects if o["fill"] and
                o["non_stroking_color"] == (0.0, 0.0, 1.0)]
        assert len(blue) == 5
        assert sorted((round(x, 2), round(y, 2)) for x, y in blue) == \
            sorted((round(x, 2), round(y, 2)) for _, x, y in found)
        assert not [o for o in pdf.pages[1].rects if o["non_stroking_color"] == (1.0, 0, 0)]


def test_short_edge_backs_mirror_the_rows_clear_of_the_footer_and_take_the_offset(tmp_path):
    """--duplex short mirrors the rows (y' = H - y, read top down), and --back-offset 1,0.5
    moves every back 1 mm right and 0.5 mm down; the rows start low enough that no back
    lands in the footer's band (the fronts' top margin mirrored)."""
    result = CliRunner().invoke(main, ["tokens", str(make_deck(tmp_path)), "--out",
                                       str(tmp_path / "out"), "--paper", "a4", "--duplex",
                                       "short", "--back-offset", "1,0.5"])
    assert result.exit_code == 0, result.output
    # named for its backs, beside (not over) the plain file
    assert [p.name for p in (tmp_path / "out" / "chits").iterdir()] == [
        "chits-tokens-a4-short-offset1,0.5mm.pdf"]
    with pdfplumber.open(tmp_path / "out" / "chits" / "chits-tokens-a4-short-offset1,0.5mm.pdf"
                         ) as pdf:
        fronts, backs = (cut_outlines(page) for page in pdf.pages)  # points read top down
        height = pdf.pages[0].height / MM
        footer = min(o["top"] for o in pdf.pages[1].chars) / MM
    expected = sorted((str(kind), round(centre(points)[0] + 1, 2),
                       round(height - centre(points)[1] + 0.5, 2))
                      for kind, points in fronts if kind != 4)
    found = sorted((str(kind), round(centre(points)[0], 2), round(centre(points)[1], 2))
                   for kind, points in backs)
    assert found == expected and len(found) == 5
    lowest = max(y for _, points in backs for _, y in points)
    assert lowest < footer - 1, (lowest, footer)


@pytest.mark.parametrize("tokens, expected", [
    ("  - {shape: oval, size: 25mm, front: chit}\n",
     "deck.yaml:11:13: 'shape' cannot be 'oval'; use one of: hex, round, square"),
    ("  - {shape: round, size: 2mm, front: chit}\n",
     "deck.yaml:11:26: a token 2 mm across is out of range; give 5 to 170 mm"),
    ("  - {shape: round, size: 20mm, front: chit, value: '{x}'}\n  - {shape: hex}\n",
     "deck.yaml:12:5: token 2 has no 'size'; add 'size:'"),
])
def test_a_mistake_in_a_token_exits_2_naming_its_line_and_fix(tmp_path, tokens, expected):
    result = run_tokens(tmp_path, make_deck(tmp_path, tokens))
    assert result.exit_code == 2, result.output
    assert expected in result.output
    assert "Traceback" not in result.output


def test_the_footer_stays_5mm_inside_the_paper_and_an_offset_build_names_its_own_file(
        tmp_path):
    """pdfplumber's boxes of the footer's characters (descenders and brackets included:
    'sheet 1/1 · print at 100% (actual size)') lie at least 5 mm above the paper's edge;
    a build with --back-offset writes its own file and leaves the plain one as it was."""
    deck = make_deck(tmp_path)
    assert run_tokens(tmp_path, deck).exit_code == 0
    folder = tmp_path / "out" / "chits"
    plain = (folder / "chits-tokens-a4.pdf").read_bytes()
    with pdfplumber.open(folder / "chits-tokens-a4.pdf") as pdf:
        for page in pdf.pages:
            footer = [c for c in page.chars if c["bottom"] > page.height - 15 * MM]
            assert "(" in "".join(c["text"] for c in footer)
            assert min(page.height - c["bottom"] for c in footer) / MM >= BORDER - 0.005
    result = CliRunner().invoke(main, ["tokens", str(deck), "--out", str(tmp_path / "out"),
                                       "--paper", "a4", "--back-offset", "0.5,-0.3"])
    assert result.exit_code == 0, result.output
    assert "chits-tokens-a4-offset0.5,-0.3mm.pdf" in result.output
    assert (folder / "chits-tokens-a4.pdf").read_bytes() == plain
    assert (folder / "chits-tokens-a4-offset0.5,-0.3mm.pdf").is_file()
