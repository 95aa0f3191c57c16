"""cardkit: printable card generator and playtest kit for tabletop game designers.

Data flows one way, a subpackage a stage: the designer's files (``sources``, with the fonts
and icons in ``assets``) -> the validated model (``deck``) -> cards drawn (``render``) ->
where they go (``imposition``) -> files (``writers``); ``pipeline`` runs the stages for a
command of ``cli``. Beside them, and never importing them: ``rules``, ``games`` and
``playtest``. ``common`` serves every stage.
"""

__version__ = "0.1.0"  # the latest version CHANGELOG.md describes; pyproject.toml reads it
