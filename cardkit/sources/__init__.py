"""The designer's files, read: YAML with the line and column of every value (``yamlfile``),
spreadsheets by row and column (``spreadsheet``), sheets from a link (``links``, the one
module that reaches the network, and only as the user allows), images (``images``), a
deck's ``rules.md`` as blocks (``rulebook``), and the checks a value read from them must
pass (``checks``); ``files`` and ``bundled`` say where a deck may read and where the decks
cardkit ships are.

It takes paths and gives values that know where they were written. It imports only
``common``: never the deck model, drawing, output or the rules.
"""
