"""A game as text, a line at a time: what a seat sees (:func:`seen`) and a move
(:func:`shown`), as a game's log, the rules checker and the rules examples show them."""

from __future__ import annotations


def seen(observation: dict, holders: dict | None = None) -> str:
    """An observation in one line: each pile, then the public and private values, by name
    (a bundled game's observation: each of its keys). A seat's piles are set apart by
    ``|``; groups (tricks, sets) are lists of lists: ``holders``, a toolkit game's piles
    by name, says which name is a seat's piles and which groups.

    >>> seen({"seat": 1, "to_play": 1, "public": {"round": 2}, "private": {},
    ...       "piles": {"deck": 9, "hand": ((), ("a", "b")), "discard": ()}})
    'deck 9, hand [] | [a, b], discard [], round 2'
    >>> seen({"piles": {"sets": ((("a", "b"), ("c",)), ()), "melds": (("d", "e"), ("f",))}},
    ...      {"sets": [None, None], "melds": None})
    'sets [[a, b], [c]] | [], melds [[d, e], [f]]'
    """
    parts, handled = [], {"seat", "to_play"}
    if isinstance(observation.get("piles"), dict):  # a toolkit game's piles, by name
        parts += [f"{name} {_pile(view, holders.get(name, ()) if holders else ())}"
                  for name, view in observation["piles"].items()]
        handled.add("piles")
    for key in ("public", "private"):
        if isinstance(observation.get(key), dict):
            parts += [f"{name} {_value(item)}" for name, item in observation[key].items()]
            handled.add(key)
    parts += [f"{key} {_value(value)}" for key, value in observation.items()
              if key not in handled]
    return ", ".join(parts)


def shown(move) -> str:
    """A move as it reads: ('play', Scout) -> 'play Scout'."""
    return " ".join(map(str, move)) if isinstance(move, tuple) else str(move)


def _pile(view, holder=()) -> str:
    """A pile as a seat sees it; a seat's piles (a tuple of views, ``holder`` a list)
    one after another. Where ``holder`` is not known (``()``), a tuple of views is taken
    for a seat's piles."""
    if type(holder) is list or holder == () and isinstance(view, tuple) and view and all(
            isinstance(v, (tuple, int)) for v in view):
        return " | ".join(_value(v) for v in view)
    return _value(view)


def _value(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_value(v)}" for k, v in value.items()) + "}"
    return str(value)
