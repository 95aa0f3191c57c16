"""Draft ink (``--ink draft``): playtest prints that spare the printer's ink.

A large filled area or picture prints light, and what stands on it light turns dark so it
stays readable.
"""

from __future__ import annotations

from reportlab.lib import colors

from ..deck.layout import Element

DRAFT_KEEPS = 0.2  # of the ink a large area prints with in draft
LARGE_AREA = 0.2  # of the card: a background, a tint, a big disc
DRAFT_TEXT = colors.HexColor("#222222")  # light text on an area made light turns to this
AREA_KINDS = ("rect", "ellipse", "polygon")
AREAS_AND_ICONS = AREA_KINDS + ("icon",)


def drafted(element: Element, props: dict, areas: list, card_size) -> dict:
    """``props`` for draft ink (``--ink draft``): a large filled area or a large picture
    prints light, at DRAFT_KEEPS of its ink, and light text, icons and strokes (frames,
    outlines) standing on such an area turn dark so they stay visible. ``areas`` lists the
    side's filled shapes and pictures drawn so far, as (box, made lighter); this element
    is added to it."""
    box = element.box
    kind, fill = element.kind, props.get("fill")
    large = box.width * box.height >= LARGE_AREA * card_size[0] * card_size[1]
    on_light = _on_lightened(box, areas)
    lightened = False
    if kind in AREAS_AND_ICONS and fill is not None:
        lightened = large and kind in AREA_KINDS
        if lightened:
            props = {**props, "fill": _lighter(fill)}
        elif kind == "icon" and _is_light(fill) and on_light:
            props = {**props, "fill": DRAFT_TEXT}
        if kind in AREA_KINDS or props["shading"] == "solid":  # an outline covers
            areas.append((box, lightened))                     # nothing inside it
    elif kind == "image" and large:
        props = {**props, "ink": DRAFT_KEEPS}  # see _image
        areas.append((box, True))
    elif kind == "text" and _is_light(props["colour"]) and on_light:
        props = {**props, "colour": DRAFT_TEXT}
    stroke = props.get("stroke")
    if _is_light(stroke) and (lightened or on_light):
        props = {**props, "stroke": DRAFT_TEXT}
    return props


def _lighter(colour):
    """``colour`` with DRAFT_KEEPS of its ink: mixed with the paper's white."""
    return colors.Color(*(1 - DRAFT_KEEPS * (1 - c) for c in colour.rgb()),
                        alpha=colour.alpha)


def _is_light(colour) -> bool:
    return colour is not None and sum(colour.rgb()) / 3 > 0.6


def _on_lightened(box, areas) -> bool:
    """Whether the topmost filled shape under ``box``'s centre was made lighter."""
    x, y = box.x + box.width / 2, box.y + box.height / 2
    for under, lightened in reversed(areas):
        if under.x <= x <= under.x + under.width and under.y <= y <= under.y + under.height:
            return lightened
    return False
