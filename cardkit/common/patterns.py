"""Regular expressions compiled when first used (issue 62). Compiling one takes 30-300 µs
(most for a class of characters past U+00FF, which the compiler maps character by
character), and a build of a plain deck uses few of the patterns its modules hold: those
of markup, icons, styles and messages wait until a deck needs them."""

from __future__ import annotations

import re

_METHODS = ("search", "match", "fullmatch", "split", "findall", "finditer", "sub", "subn")


class LatePattern:
    """A pattern used as the compiled one is (``search``, ``split``, ``sub``...), compiled
    on the first call; from then on its methods are the compiled pattern's own.

    >>> words = LatePattern(r"\\w+")
    >>> words.pattern, "search" in vars(words)
    ('\\\\w+', False)
    >>> words.findall("two words"), words.search("x").group()
    (['two', 'words'], 'x')
    """

    def __init__(self, pattern: str | bytes, flags: int = 0):
        self.pattern, self.flags = pattern, flags

    def __getattr__(self, name: str):
        # only called for what the instance lacks: a method before the first compile
        compiled = re.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)
