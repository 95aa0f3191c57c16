"""One game of a run, move by move: who played what, having seen what, and how it ended.

Game ``index`` is played exactly as the run plays it (the same seed, bots and chance), so
a figure, a checker's finding or a bot's odd move can be looked at in the game it came
from.
"""

from __future__ import annotations

from .runner import Setup, play_one, seat_bots


def game_log(setup: Setup, index: int, say) -> None:
    """Tell game ``index`` of the run ``setup``, a line at a time, to ``say``: as it is
    played, so that a game that fails shows its moves up to the failure."""
    bots = ", ".join(str(bot) for bot in seat_bots(setup, index))
    say(f"{setup.game}: game {index}, seed {setup.seed}, {setup.players} "
        f"player{'s' * (setup.players != 1)} ({bots})")

    def watch(state, seat, move):
        say(f"{state.moves_made + 1}. seat {seat} sees "
            f"{seen(state.observation(seat), getattr(state, 'piles', None))}")
        say(f"   and plays {shown(move)}")

    result = play_one(setup, index, watch)
    won = [seat for seat, share in enumerate(result.returns) if share]
    turns = "" if result.turns is None else f" ({result.turns} turns)"
    say(f"over after {result.moves} moves{turns}: scores {_number_list(result.scores)}; "
        + ("nobody won" if not won else f"seat {won[0]} won" if len(won) == 1 else
           "seats " + ", ".join(map(str, won)) + " share the win"))


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


def _number_list(values) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"
