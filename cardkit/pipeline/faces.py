"""The faces of a deck's components other than cards (its tuck box, tokens and boards), as
cards to draw: what ``build`` and ``pack`` check before they write (a deck file
``validate`` refuses is never built), and what ``cardkit diff`` compares."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from ..common.errors import Problems
from ..render.card import FRONT, CardRenderer, Report


def component_faces(deck) -> list[list]:
    """The faces of the deck's box, tokens and boards, a list a component it has, as cards
    to draw; InputError with every mistake in their entries and layouts together. ``build``
    checks them so (a deck file ``validate`` refuses is never built), without drawing."""
    kinds: dict = {}  # one list a kind of component: each is drawn by a renderer of its own
    for kind, _, faces in named_faces(deck):
        kinds.setdefault(kind, []).extend(faces)
    return list(kinds.values())


def named_faces(deck) -> list[tuple[str, str, list]]:
    """(kind, name, faces as cards) of each component the deck declares: its tuck box
    ('box', 'tuck box'), each kind of token ('tokens', 'token 2') and each board ('boards',
    'board street'); a kind declared empty gives (kind, '', []). InputError with every
    mistake in their entries and layouts together."""
    problems = Problems()
    found = []
    # each kind's reader is imported when the deck has it: most decks have none
    if deck.box is not None:
        from ..deck.box import read_box

        box = read_box(deck, problems)
        found.append(("box", "tuck box", [box.face_card(face) for face in box.faces]
                      if box else []))
    if deck.tokens is not None:
        from ..deck.tokens import read_tokens

        tokens = read_tokens(deck, problems)
        found += [("tokens", f"token {token.number}",
                   [token.face_card(deck, side) for side in ("front", "back")
                    if side == "front" or token.back]) for token in tokens] or \
            [("tokens", "", [])]
    if deck.boards is not None:
        from ..deck.boards import read_boards

        boards = read_boards(deck, problems)
        found += [("boards", f"board {board.name}", [board.card(deck, number)])
                  for number, board in enumerate(boards, 1)] or [("boards", "", [])]
    problems.check()
    return found


def component_prints(deck) -> dict[str, str]:
    """Each component the deck declares, by name (see :func:`named_faces`) -> a hash of
    what its faces print, the stamps (version, date) left out as a card's print leaves
    them out (:class:`~cardkit.render.fingerprint.Prints`): what ``cardkit diff``
    compares."""
    from ..deck.model import CardSize
    from ..render.fingerprint import NEUTRAL_STAMPS, drawing_key

    renderers: dict = {}  # one a kind: a renderer keeps what it resolves by face number
    prints = {}
    for kind, name, faces in named_faces(deck):
        renderer = renderers.setdefault(kind, CardRenderer(Report()))
        keys = []
        for face in faces:
            face = replace(face, fields={**face.fields, **{
                key: value for key, value in NEUTRAL_STAMPS.items() if key in face.fields}})
            width, height = face.front.card_size
            keys.append(drawing_key(renderer, face, FRONT, (width, height),
                                    CardSize("face", width, height)))
        if name:
            prints[name] = hashlib.sha256("/".join(keys).encode()).hexdigest()[:24]
    return prints
