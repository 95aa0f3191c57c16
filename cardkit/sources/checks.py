"""Small validators shared by the deck and layout loaders.

Each one reads a value out of a :class:`~cardkit.sources.yamlfile.Map`, records a
:class:`~cardkit.common.errors.Problem` with the value's position when it is wrong, and returns
``None`` in that case so that loading can go on and report every problem in one run.
"""

from __future__ import annotations

import re
from functools import lru_cache

from reportlab.lib import colors

from ..common.errors import Problems, did_you_mean
from ..common.patterns import LatePattern
from ..common.units import LENGTH_HELP, UnitError, parse_length
from .yamlfile import Map, Seq

MAX_QUOTED = 30  # characters of a user's value shown in a message
TYPE_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false",
              Map: "a mapping (key: value lines)", Seq: "a list (lines starting with '-')"}


def one_of(value, choices) -> bool:
    """Whether ``value`` is one of ``choices``; safe for lists and maps, and ``True`` is
    not taken for ``1``.

    >>> one_of('rect', {'rect': 1}), one_of([], ['rect']), one_of(True, [1])
    (True, False, False)
    """
    return any(type(value) is type(choice) and value == choice for choice in choices)


def describe(value, show: bool = True) -> str:
    """How a YAML value reads to a user, for 'expected X, got Y' messages; with ``show``
    false, its kind only (a whole file read by mistake is never echoed).

    >>> describe(4), describe('a' * 50), describe('secret', show=False)
    ('a whole number (4)', "text ('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...')", 'text')
    """
    if value is None:
        return "nothing"
    for kind, name in TYPE_NAMES.items():
        if type(value) is kind:
            return f"{name} ({quoted(value)})" if show and kind in (str, int, float, bool) \
                else name
    return type(value).__name__


def quoted(value, limit: int = MAX_QUOTED) -> str:
    """``value`` as a message quotes it: text longer than ``limit`` is cut."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit] + "..."
    shown = repr(value)
    return shown if len(shown) <= limit + 5 else shown[:limit] + "..."  # a 400-digit number


def check_keys(problems: Problems, m: Map, allowed, required=(), what="this entry") -> bool:
    """Report unknown keys (with a did-you-mean) and missing required ones."""
    ok = True
    for key in m:
        if key not in allowed:
            problems.add(m.key_at(key), f"unknown key '{key}' in {what}",
                         did_you_mean(key, allowed))
            ok = False
    for key in required:
        if key not in m:
            problems.add(m.where, f"{what} has no '{key}'", f"add '{key}:'")
            ok = False
    return ok


def expect_map(problems: Problems, value, where, what: str) -> bool:
    if isinstance(value, Map):
        return True
    problems.add(where, f"{what} must be a mapping of 'key: value' lines, not {describe(value)}",
                 "indent its keys under it")
    return False


def expect_list(problems: Problems, value, where, what: str) -> bool:
    if isinstance(value, Seq):
        return True
    problems.add(where, f"{what} must be a list, not {describe(value)}",
                 "write each item on its own line starting with '- '")
    return False


def get_text(problems: Problems, m: Map, key: str, default=None, what=None):
    """A text value; numbers are accepted and turned into text (``version: 1.0``)."""
    if key not in m:
        return default
    value = m[key]
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    if not isinstance(value, str):
        problems.add(m.at(key), f"'{what or key}' must be text, not {describe(value)}",
                     "put the text in quotes")
        return None
    return value


_NOT_IN_A_NAME = LatePattern(r"[/\\\x00-\x1f\x7f-\x9f]|\.\.")


def check_name_part(problems: Problems, value: str, where, what: str) -> bool:
    r"""Record a problem when the deck's ``value`` cannot be part of a file name: it holds a
    ``/``, a ``\``, ``..`` or a control character, any of which could lead a file cardkit
    writes out of its folder (``version: "/../../x"``) or break the name.

    >>> problems = Problems()
    >>> check_name_part(problems, "1.0 beta", None, "version"), problems.items
    (True, [])
    >>> [check_name_part(problems, v, None, "version") for v in ("1/2", "..", "a\tb")]
    [False, False, False]
    """
    found = _NOT_IN_A_NAME.search(value)
    if found is None:
        return True
    problems.add(where, f"{what} {quoted(value)} is part of file names, and cannot hold "
                 f"{quoted(found.group())}", f"write {what} without '/', '\\', '..' or "
                 "control characters, e.g. '1.2' or '2026-spring'")
    return False


def get_int(problems: Problems, m: Map, key: str, default=None, minimum=None, what=None):
    if key not in m:
        return default
    value = m[key]
    if isinstance(value, bool) or not isinstance(value, int):
        problems.add(m.at(key), f"'{what or key}' must be a whole number, not {describe(value)}",
                     f"write e.g. '{key}: {default if default is not None else 1}'")
        return None
    if minimum is not None and value < minimum:
        problems.add(m.at(key), f"'{what or key}' is {value} but must be at least {minimum}",
                     f"write a number of {minimum} or more")
        return None
    return value


def get_bool(problems: Problems, m: Map, key: str, default=False):
    if key not in m:
        return default
    value = m[key]
    if not isinstance(value, bool):
        problems.add(m.at(key), f"'{key}' must be true or false, not {describe(value)}",
                     f"write '{key}: true' or '{key}: false'")
        return default
    return value


def length(problems: Problems, value, where, what: str, percent_of=None, minimum=None):
    """A length in points from text like '3mm'; ``None`` (and a problem) when wrong."""
    try:
        points = parse_length(value, percent_of)
    except UnitError as exc:
        fix = LENGTH_HELP + (" or a percentage of the card" if percent_of else "")
        problems.add(where, f"{what}: {exc}", fix)
        return None
    if minimum is not None and points < minimum:
        problems.add(where, f"{what} must not be negative", "write a length of 0 or more")
        return None
    return points


def get_choice(problems: Problems, m: Map, key: str, choices, default=None):
    if key not in m:
        return default
    value = m[key]
    if not one_of(value, choices):
        problems.add(m.at(key), f"'{key}' cannot be {value!r}", did_you_mean(value, choices))
        return None
    return value


@lru_cache(maxsize=1)
def _named_colours() -> dict:
    return colors.getAllNamedColors()


COLOUR_HELP = ("write '#rrggbb' (e.g. '#1f5fa8'), '#rrggbbaa' for a translucent colour, "
               "a colour name such as 'white', or 'none'")


def colour_fix(text) -> str:
    """What to write for ``text``, which is not a colour: the colour name it is close to
    (written without its spaces, hyphens and capitals, or with a letter wrong), or how
    colours are written.

    >>> colour_fix('Slate-Blue'), colour_fix('whit')
    ("did you mean 'slateblue'?", "did you mean 'white'?")
    """
    word = re.sub(r"[\s_-]", "", text.lower()) if isinstance(text, str) else ""
    if word.startswith("#"):
        return COLOUR_HELP
    if word in _named_colours():
        return f"did you mean '{word}'?"
    return did_you_mean(word, _named_colours(), COLOUR_HELP) if word else COLOUR_HELP


def parse_colour(text):
    """A reportlab colour from '#rgb', '#rrggbb', '#rgba', '#rrggbbaa' (the last two
    digits are its opacity, 00 clear to ff solid), a CSS name or 'none' (returns None).

    >>> parse_colour('#ff0000').red
    1.0
    >>> round(parse_colour('#141414b3').alpha, 3)
    0.702
    >>> parse_colour('none') is None
    True
    """
    if not isinstance(text, str):
        raise ValueError(f"{describe(text)} is not a colour")
    word = text.strip().lower()
    if word in ("none", "transparent"):
        return None
    if word.startswith("#"):
        digits = word[1:]
        if len(digits) in (3, 4):
            digits = "".join(c * 2 for c in digits)
        if len(digits) not in (6, 8) or any(c not in "0123456789abcdef" for c in digits):
            raise ValueError(f"'{text}' is not a colour")
        channels = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
        return colors.Color(*channels)  # alpha is 1 unless given
    named = _named_colours().get(word)
    if named is None:
        raise ValueError(f"'{text}' is not a colour")
    return named


def faded(colour, opacity: float):
    """``colour`` with its opacity multiplied by ``opacity`` (None stays None).

    >>> faded(parse_colour('#ff000080'), 0.5).alpha == 0.5 * 128 / 255
    True
    """
    if colour is None or opacity == 1:
        return colour
    alpha = colour.alpha if colour.alpha is not None else 1
    return colors.Color(colour.red, colour.green, colour.blue, alpha * opacity)
