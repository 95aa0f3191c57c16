"""The validated model: a deck file and its layouts become a :class:`~.model.Deck` of cards,
each with a front and a back layout, or every problem found with its file and line
(``loader``, ``layout``, ``properties``, ``composition``, ``template``, ``model``). Also
which cards a command asks for (``selection``), a rulebook's blocks met with the deck's cards
(``rulebook``), the deck's tuck ``box``, ``tokens`` and ``boards``, whose faces are drawn
as cards (``components``), a sheet template's slots (``sheet_template``), and the JSON
Schemas of the files an editor checks (``schema``).

It takes the designer's files through ``sources`` and ``assets``. It never imports
rendering, imposition, writers, the commands, or the rules and games.
"""
