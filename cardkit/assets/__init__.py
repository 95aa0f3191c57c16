"""What a deck draws with besides its cards' text: fonts (``fonts``; the bundled Lato family is
in ``lato/``), built-in and SVG icons (``icons``) and SVG art (``svg``), gathered for a deck
by the names its layouts use (``catalog``).

It takes a deck's folders and gives named fonts and icons, checked, that rendering draws.
It imports ``common`` and ``sources``; never the deck model, rendering, output, the
commands or the rules.
"""
