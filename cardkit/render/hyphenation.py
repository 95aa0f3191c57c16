"""Where a word may break with a hyphen, by the rules of its language: Liang's patterns
(TeX's, LibreOffice's), from the dictionaries pyphen ships.

pyphen's own reader parses every pattern of a dictionary before the first word: 3 s for
German's 66,000 on a busy machine, in every build. Here a pattern is filed by its letters
as written, and its digits are read only when a word meets it (0.4 s for German).
"""

from __future__ import annotations

from functools import lru_cache

_DIGITS = str.maketrans("", "", "0123456789")
LEFT, RIGHT = 2, 2  # letters kept before and after a hyphen at least, as pyphen does


class Patterns:
    """One language's hyphenation patterns: letters -> the pattern as written."""

    def __init__(self, path):
        with open(path, "rb") as file:
            encoding = file.readline().decode().strip()
            text = file.read().decode("cp1251" if encoding.lower() == "microsoft-cp1251"
                                      else encoding)
        self.written: dict[str, str] = {}
        for line in text.split("\n"):
            # a nonstandard change at a hyphen ('ck' -> 'k-k', pattern/change) is read
            # as a plain hyphen; keywords (LEFTHYPHENMIN 2) and comments are left out
            line = line.split("/", 1)[0].strip()
            letters = line.translate(_DIGITS)
            if letters != line and not line.startswith(("%", "#")) and not line.isupper():
                self.written[letters] = line
        self.longest = max(map(len, self.written), default=0)
        self.values: dict[str, tuple[int, ...]] = {}

    def _values(self, letters: str) -> tuple[int, ...]:
        """The digits of the pattern of ``letters``, one between each two letters and
        at both ends (0 where none is written)."""
        if letters not in self.values:
            values, at = [0] * (len(letters) + 1), 0
            for char in self.written[letters]:
                if char.isdigit():
                    values[at] = int(char)
                else:
                    at += 1
            self.values[letters] = tuple(values)
        return self.values[letters]

    def points(self, word: str) -> tuple[int, ...]:
        """Where ``word`` may break: an odd digit of the patterns it contains, the
        largest written at each place, leaves a hyphen there."""
        dotted = f".{word.lower()}."
        if len(dotted) != len(word) + 2:  # lower() changed the length ('İ'): no guess
            return ()
        levels = [0] * (len(dotted) + 1)
        for start in range(len(dotted) - 1):
            for end in range(start + 1, min(start + self.longest, len(dotted)) + 1):
                if dotted[start:end] in self.written:
                    for offset, value in enumerate(self._values(dotted[start:end])):
                        if value > levels[start + offset]:
                            levels[start + offset] = value
        return tuple(i - 1 for i in range(LEFT + 1, len(word) - RIGHT + 2) if levels[i] % 2)


@lru_cache(maxsize=None)
def patterns(language: str) -> Patterns | None:
    """The patterns of ``language`` (a code such as 'de' or 'pt-BR'), None if pyphen has
    no dictionary for it."""
    import pyphen  # late: most texts fit without a dictionary, and it takes long to import

    found = pyphen.language_fallback(language.replace("-", "_")) if language else None
    return Patterns(pyphen.LANGUAGES[found]) if found else None
