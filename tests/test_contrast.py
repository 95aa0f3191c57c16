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
from cardkit.pipeline.build import check_cards
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
