"""What the deck's components other than cards share (its tuck box, its tokens): each face
is drawn from a layout, as a card the renderer draws, with values of the component's own
instead of a card's fields."""

from __future__ import annotations

from ..assets.catalog import load_assets
from ..assets.fonts import FONT_FILES, missing_chars
from ..common.errors import Problems, Where, did_you_mean
from ..sources.bundled import LAYOUTS_DIR
from .layout import Layout, load_layout
from .model import BackDesign, Card, Deck


def as_card(deck: Deck, number: int, layout: Layout, values: dict) -> Card:
    """A face drawn as a card: ``layout`` on its front, ``values`` as its fields. The
    renderer keeps what it resolves by ``number``: one a face."""
    return Card(number, dict(values), layout, BackDesign("face", layout, {}), 1,
                Where(deck.path), deck.path.parent)


TITLE_FONT = "Lato-Black"  # the bundled box faces' titles


def deck_values(deck: Deck) -> dict:
    """What every component's layouts read: the deck's stamps (not a card's id), its
    author and the font its title can be set in (:func:`title_font`)."""
    stamps = {k: v for k, v in deck.cards[0].stamps.items() if k != "card.id"}
    return {**stamps, "deck.author": deck.author, "deck.title_font": title_font(deck)}


def title_font(deck: Deck) -> str:
    """The font a face sets the deck's title in, by its name in layouts: Lato Black, or,
    for a title with letters it lacks (Hebrew, Japanese), the first font the deck brings
    that has them all."""
    if not missing_chars(TITLE_FONT, deck.title):
        return TITLE_FONT
    fonts = deck.cards[0].front.assets.fonts
    return next((name for name, face in fonts.items()
                 if name not in FONT_FILES and not missing_chars(face, deck.title)), TITLE_FONT)


class FaceLayouts:
    """Loads the layouts of a deck's component faces, from the deck's layouts/ folder or
    cardkit's, each checked to read only what the component gives."""

    def __init__(self, deck: Deck, problems: Problems):
        self.problems = problems
        folders = [deck.path.parent]
        self.dirs = [folder / "layouts" for folder in folders] + [LAYOUTS_DIR]
        self.assets = load_assets(folders, problems)

    def load(self, name: str, size: tuple[float, float], values: dict,
             used_at: Where) -> Layout | None:
        layout = load_layout(name, self.dirs, size, self.problems, used_at, self.assets)
        if layout is None:
            return None
        known = True
        for element in layout.elements:
            for field in sorted(element.fields(layout.styles, layout.assets.icons)
                                - set(values)):
                self.problems.add(element.where, f"a face reads '{{{field}}}', which is "
                                  "not given to it", did_you_mean(field, values))
                known = False
        return layout if known else None
