"""Readable text on designers' decks (issue 31): a text's colour against what is drawn
behind it, measured on the rendered card."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardkit.cli import main
from cardkit.deck.loader import load_deck
from cardkit.imposition.sheets import SheetOptions
from cardkit.pipeline.build import build_deck, check_cards
from cardkit.pipeline.contrast import contrast, low_contrast
from cardkit.sources.bundled import bundled_decks

ROOT = Path(__file__).resolve().parent.parent


def faint_lantern(tmp_path, text: str) -> Path:
    """Lantern Market with its panel #fdf6e3 and its body text ``text``."""
    deck = tmp_path / "lantern-market"
    shutil.copytree(ROOT / "examples" / "lantern-market", deck)
    layout = deck / "layouts" / "market-card.yaml"
    source = layout.read_text()
    assert 'fill: "#f4ecd8"' in source and 'colour: "#2b2118", text: "{text}"' in source
    layout.write_text(source.replace('fill: "#f4ecd8"', 'fill: "#fdf6e3"').replace(
        'colour: "#2b2118", text: "{text}"', f'colour: "{text}", text: "{{text}}"'))
    return deck


def hex_rgb(text: str):
    return tuple(int(text[i:i + 2], 16) / 255 for i in (1, 3, 5))


@pytest.mark.parametrize("ink", ["full", "draft"])
@pytest.mark.parametrize("name", sorted(bundled_decks()))
def test_the_bundled_decks_read_well(name, ink):
    deck = load_deck(bundled_decks()[name])
    renderer, _ = check_cards(deck, ink=ink)
    assert low_contrast(deck, renderer) == []


def test_pale_text_on_a_pale_panel_is_found_and_measured(tmp_path):
    deck = load_deck(faint_lantern(tmp_path, "#f5eedb") / "deck.yaml")
    renderer, _ = check_cards(deck)
    found = low_contrast(deck, renderer)
    assert len(found) == 1  # one element, named once
    assert re.fullmatch(r".*layouts/market-card\.yaml:\d+:\d+", str(found[0].where))
    ratio = float(re.search(r"stands out ([\d.]+):1", found[0].what).group(1))
    # the oracle: WCAG's ratio of the two colours the layout gives, worked out apart
    assert ratio == pytest.approx(contrast(hex_rgb("#f5eedb"), hex_rgb("#fdf6e3")), abs=0.02)
    assert "element 'text'" in found[0].what and "#fdf6e3" in found[0].what


def test_dark_text_on_the_same_panel_passes(tmp_path):
    deck = load_deck(faint_lantern(tmp_path, "#3a3a3a") / "deck.yaml")
    renderer, _ = check_cards(deck)
    assert low_contrast(deck, renderer) == []


def test_validate_warns_and_strict_refuses(tmp_path):
    folder = faint_lantern(tmp_path, "#f5eedb")
    warned = CliRunner().invoke(main, ["validate", str(folder)])
    assert warned.exit_code == 0 and "(1 warning)" in warned.output
    refused = CliRunner().invoke(main, ["validate", str(folder), "--strict"])
    assert refused.exit_code == 2
    assert "under the 4.5:1 text needs to be read (an error with --strict)" in refused.output


def text_deck(folder: Path, count: int) -> Path:
    """The bench's text-heavy deck of ``count`` cards (bench/text_deck.py): on the sun
    back's cards the title, #b5562a on its #f6e6dc tint, stands out 3.99:1."""
    import sys

    sys.path.insert(0, str(ROOT / "bench"))
    try:
        from text_deck import write_deck
    finally:
        sys.path.remove(str(ROOT / "bench"))
    return write_deck(folder, count)


def test_build_warns_of_faint_text_and_strict_refuses(tmp_path):
    deck = text_deck(tmp_path, 4)
    built = CliRunner().invoke(main, ["build", str(deck), "--out", str(tmp_path / "o")])
    assert built.exit_code == 0, built.output
    assert re.search(r"element 'title'.*its text #b5562a stands out 3\.99:1 from the "
                     r"#f6e6dc behind it", built.output)
    refused = CliRunner().invoke(main, ["build", str(deck), "--strict",
                                        "--out", str(tmp_path / "o2")])
    assert refused.exit_code == 2
    assert "(an error with --strict)" in refused.output


def test_the_studio_s_check_names_the_faint_text_on_its_card(tmp_path):
    deck = load_deck(text_deck(tmp_path, 4))
    _, report = check_cards(deck, contrast=True)
    (warning,) = [w for w in report.warnings if "stands out" in w.what]
    assert "element 'title'" in warning.what
    first = deck.cards[0].number  # a sun card
    assert any("stands out" in problem.what for _, _, problem in report.of_card(first))
    _, without = check_cards(deck)
    assert not any("stands out" in w.what for w in without.warnings)


def test_the_studio_shows_faint_text_on_its_card(tmp_path):
    from cardkit.studio.images import Studio

    cards = Studio(text_deck(tmp_path, 2)).view()["cards"]
    faint = [[f["what"] for f in card["found"] if "stands out" in f["what"]] for card in cards]
    assert [len(found) for found in faint] == [1, 0]  # the sun card's title; the moon's is dark
    assert "3.99:1" in faint[0][0]


def drawn_backdrops(monkeypatch) -> list:
    """The numbers of the cards whose backdrops the contrast check draws, as it draws them."""
    from cardkit.pipeline.contrast import ContrastCheck

    drawn = []
    draw = ContrastCheck._draw
    monkeypatch.setattr(ContrastCheck, "_draw",
                        lambda self, *args: drawn.append(args[1].number) or draw(self, *args))
    return drawn


def test_a_number_on_a_disc_is_told_from_their_colours(tmp_path, monkeypatch):
    """40 cards of distinct words on two backs: each value's lines lie inside its disc, so
    the colour behind them is the disc's, and the title's lie clear of the disc, on the
    tint, so no backdrop is drawn (issue 62); the faint title is found once, measured
    against its tint."""
    drawn = drawn_backdrops(monkeypatch)
    result = build_deck(text_deck(tmp_path, 40), tmp_path / "o", SheetOptions())
    assert drawn == []
    faint = [w.what for w in result.warnings if "stands out" in w.what]
    # the sun title, #b5562a on its #f6e6dc tint: WCAG's ratio of the two is 3.99:1
    assert len(faint) == 1 and "element 'title'" in faint[0]
    assert f"{contrast(hex_rgb('#b5562a'), hex_rgb('#f6e6dc')):.2f}:1" in faint[0]


def shrunk_discs(deck: Path, size: str, value_colour: str = "white") -> None:
    """The deck's discs drawn ``size`` wide in the middle of their 10 mm box, the value
    in ``value_colour``."""
    layout = deck.parent / "layouts" / "text-front.yaml"
    source = layout.read_text()
    disc = "    box: [4mm, 4mm, 10mm, 10mm]\n    fill: \"{back.colour}\""
    assert disc in source and "    colour: white\n" in source
    offset = f"{4 + (10 - float(size)) / 2:g}mm"
    layout.write_text(source.replace(disc, f"    box: [{offset}, {offset}, {size}mm, "
                                           f"{size}mm]\n    fill: \"{{back.colour}}\"")
                      .replace("    colour: white\n", f"    colour: \"{value_colour}\"\n"))


def test_each_distinct_backdrop_is_drawn_once(tmp_path, monkeypatch):
    """Discs of 6 mm, smaller than their values' lines: the colour behind the values is
    not one the shapes tell, so a front of each of the two back designs is drawn; the
    backs' white word on a rectangle of one colour is told from the colours alone."""
    deck = text_deck(tmp_path, 40)
    shrunk_discs(deck, "6")
    drawn = drawn_backdrops(monkeypatch)
    result = build_deck(deck, tmp_path / "o", SheetOptions())
    assert len(drawn) == 2, drawn
    assert [w.what for w in result.warnings if "stands out" in w.what] == \
        [w.what for w in build_deck(text_deck(tmp_path / "whole", 40), tmp_path / "o2",
                                    SheetOptions()).warnings if "stands out" in w.what]


def test_a_backdrop_read_from_the_back_is_known_by_the_back_design(tmp_path, monkeypatch):
    """The shapes behind the texts of the fronts and the backs read only their back
    design's colours, so the check gathers a card's values for a backdrop once for each
    of the two back designs on each side (4), not once a card; what it finds is the same."""
    import sys

    from cardkit.deck.model import Card

    gathered = []
    values = Card.values
    monkeypatch.setattr(Card, "values", lambda card: gathered.append(
        sys._getframe(1).f_code.co_name) or values(card))
    result = build_deck(text_deck(tmp_path, 40), tmp_path / "o", SheetOptions())
    assert gathered.count("_backdrop") == 4
    faint = [w.what for w in result.warnings if "stands out" in w.what]
    assert len(faint) == 1 and "element 'title'" in faint[0] and "3.99:1" in faint[0]


@pytest.mark.parametrize("size, drawn", [("10", 0), ("6", 2)])
def test_a_faint_number_on_a_disc_is_measured_against_the_disc(tmp_path, monkeypatch,
                                                                size, drawn):
    """A value #a0a0a0 on the discs (1.85:1 on the sun's #b5562a, by WCAG's ratio worked
    out apart) is found at the first card, a sun's, whether the colour behind it is told
    from the shapes (a 10 mm disc holds its lines) or drawn (a 6 mm disc does not)."""
    deck = text_deck(tmp_path, 4)
    shrunk_discs(deck, size, "#a0a0a0")
    backdrops = drawn_backdrops(monkeypatch)
    result = build_deck(deck, tmp_path / "o", SheetOptions())
    assert len(backdrops) == drawn
    (found,) = [w.what for w in result.warnings if "element 'value'" in w.what]
    assert "on card 1 " in found
    if size == "10":  # the disc's own colour; drawn, a blend of it and the tint at its edge
        ratio = contrast(hex_rgb("#a0a0a0"), hex_rgb("#b5562a"))
        assert f"stands out {ratio:.2f}:1 from the #b5562a behind it" in found


@pytest.mark.parametrize("stroke, drawn", [("0.5mm", 0), ("6mm", 2)])
def test_a_discs_outline_counts_as_behind_a_number_it_reaches(tmp_path, monkeypatch,
                                                              stroke, drawn):
    """A black outline round each disc: a thin one leaves the values' lines on the disc's
    fill, told from its colour; one 6 mm wide (half of it inside the disc) reaches under
    them, so the backdrops are drawn."""
    deck = text_deck(tmp_path, 4)
    layout = deck.parent / "layouts" / "text-front.yaml"
    disc = '    fill: "{back.colour}"\n  - name: value'
    source = layout.read_text()
    assert disc in source
    layout.write_text(source.replace(disc, f'    fill: "{{back.colour}}"\n    stroke: black\n'
                                           f'    stroke_width: {stroke}\n  - name: value'))
    backdrops = drawn_backdrops(monkeypatch)
    build_deck(deck, tmp_path / "o", SheetOptions())
    assert len(backdrops) == drawn
