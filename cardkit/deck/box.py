"""A deck's tuck box, as its ``box:`` entry says: how thick its card stock is, and the
layout drawn on each face of the box, which reads the deck's stamps like a card does.

The box's inside is the card size plus :data:`CLEARANCE` each way, and the stack height
(cards x stock thickness) plus :data:`CLEARANCE` deep. The fold lines across the front and
up it lie that far apart; a side's lie further, by the box's own stock that its folds and
the flaps inside take (:func:`fold_depth`), so that the clearance remains once folded.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..common.errors import Problems, Where, did_you_mean
from ..common.units import MM, to_mm
from ..sources import checks
from ..sources.yamlfile import Map
from .components import FaceLayouts, as_card, deck_values
from .model import Card, Deck

BOX_KEYS = ("stock", "logo", "faces")
STOCKS_MM = {"standard": 0.30, "premium": 0.32, "linen": 0.35}  # card thickness by name
MIN_STOCK, MAX_STOCK = 0.1 * MM, 2 * MM  # thinner is paper, thicker is board, not cards
CLEARANCE = 1 * MM  # room each way, so that the cards slide in and out
BOX_STOCK = 0.3 * MM  # the box's own card (about 300 gsm): each fold and flap inside takes it
MIN_GLUE = 5 * MM  # a narrower glue flap behind a side holds badly: it goes behind the back
GLUE_SPARE = 1 * MM  # a glue flap behind a side stops this short of the front, to square up
# the faces and the layouts they get unless the deck names others; 'bottom' is blank
DEFAULT_FACES = {"front": "box-front", "back": "box-back", "side": "box-side",
                 "top": "box-top", "bottom": None}


@dataclass(frozen=True)
class Box:
    """The box of ``deck``: its inside (points) and the layout of each face printed."""

    deck: Deck
    stock: float  # one card's thickness, points
    width: float  # inside, across the front
    height: float  # inside, from the bottom to the top
    depth: float  # inside, front to back: the stack and its clearance (not the folds')
    faces: dict  # face name -> Layout
    values: dict  # what the faces' layouts read

    @property
    def summary(self) -> str:
        """'tuck box for 54 cards (stock 0.3 mm), inside 64.5 x 89.9 x 17.2 mm'"""
        cards = self.deck.total()
        return (f"tuck box for {cards} card{'s' * (cards != 1)} (stock {to_mm(self.stock):g} mm), "
                f"inside {to_mm(self.width):.1f} x {to_mm(self.height):.1f} x "
                f"{to_mm(self.depth):.1f} mm")

    def face_card(self, face: str) -> Card:
        """The face as a card the renderer draws: its layout on the front, the box's
        values as its fields."""
        return as_card(self.deck, list(DEFAULT_FACES).index(face) + 1, self.faces[face],
                       self.values)


def glued_to_back(depth: float) -> bool:
    """Whether a box ``depth`` deep inside is too thin for a glue flap behind its side (at
    least :data:`MIN_GLUE` and :data:`GLUE_SPARE` short of the front): its flap then goes
    on the side's free edge and is glued behind the back."""
    return depth + 2 * BOX_STOCK - GLUE_SPARE < MIN_GLUE


def fold_depth(depth: float) -> float:
    """How far apart a side's fold lines lie for ``depth`` to remain inside once folded:
    one thickness of the box's stock for the two folds, one for the lid's tuck flap inside,
    and one more for the glue flap when it lies behind the back."""
    return depth + (3 if glued_to_back(depth) else 2) * BOX_STOCK


def face_size(face: str, width: float, height: float, depth: float) -> tuple[float, float]:
    """A face's width and height as it stands on the box (points), of a box ``depth`` deep
    inside: a side, the top and the bottom span its fold depth."""
    depth = fold_depth(depth)
    return {"front": (width, height), "back": (width, height), "side": (depth, height),
            "top": (width, depth), "bottom": (width, depth)}[face]


def read_box(deck: Deck, problems: Problems) -> Box | None:
    """The deck's box, its mistakes added to ``problems`` (None when there are any)."""
    entry = deck.box if deck.box is not None else Map()
    where = getattr(entry, "where", Where(deck.path))
    if not checks.expect_map(problems, entry, where, "box"):
        return None
    if not checks.check_keys(problems, entry, BOX_KEYS, (), "box"):
        return None
    stock = _stock(entry, problems)
    logo = checks.get_text(problems, entry, "logo", "")
    faces = entry.get("faces", Map())
    if "faces" in entry and (not checks.expect_map(problems, faces, entry.at("faces"),
                                                   "box faces")
                             or not checks.check_keys(problems, faces, DEFAULT_FACES, (),
                                                      "box faces")):
        return None
    if stock is None or logo is None:
        return None
    count = deck.total()
    width, height = deck.size.width + CLEARANCE, deck.size.height + CLEARANCE
    depth = count * stock + CLEARANCE
    values = {**deck_values(deck), "box.cards": count, "box.contents": contents(count),
              "box.logo": logo}
    loader = FaceLayouts(deck, problems)
    layouts = {}
    for face, default in DEFAULT_FACES.items():
        name = faces.get(face, default)
        if name is None:
            continue
        used_at = faces.at(face) if face in faces else where
        layout = loader.load(name, face_size(face, width, height, depth), values, used_at)
        if layout is not None:
            layouts[face] = layout
    if problems:
        return None
    return Box(deck, stock, width, height, depth, layouts, values)


def contents(count: int) -> str:
    """What the box holds, in words: "1 card", "54 cards"."""
    return f"{count} card" if count == 1 else f"{count} cards"


def _stock(entry: Map, problems: Problems) -> float | None:
    """One card's thickness: a named stock, a number of millimetres or a length."""
    raw = entry.get("stock", "standard")
    where = entry.at("stock") if "stock" in entry else getattr(entry, "where", None)
    fix = (f"name a stock ({', '.join(f'{k} {v:g} mm' for k, v in STOCKS_MM.items())}) or "
           "give one card's thickness, e.g. 'stock: 0.3mm'")
    if isinstance(raw, str) and raw in STOCKS_MM:
        return STOCKS_MM[raw] * MM
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        millimetres = raw  # compared as it is: a huge whole number overflows a float
    elif isinstance(raw, str) and raw.strip()[-1:].isalpha() and raw.strip()[:1].isdigit():
        thickness = checks.length(problems, raw, where, "box stock")
        if thickness is None:
            return None
        millimetres = to_mm(thickness)
    else:
        problems.add(where, f"unknown card stock {checks.quoted(raw)}",
                     did_you_mean(str(raw), STOCKS_MM, fix))
        return None
    if not to_mm(MIN_STOCK) <= millimetres <= to_mm(MAX_STOCK):
        shown = f"{millimetres:g}" if isinstance(millimetres, float) else checks.quoted(raw)
        problems.add(where, f"a card {shown} mm thick is not card stock (it must be "
                     f"{to_mm(MIN_STOCK):g} to {to_mm(MAX_STOCK):g} mm)", fix)
        return None
    return millimetres * MM
