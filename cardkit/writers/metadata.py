"""What a PDF says of itself: its title, author, subject (the deck's version), the day
it was made, and that it prints at actual size."""

from __future__ import annotations

from reportlab.lib.utils import TimeStamp

from ..deck.model import Deck


def describe(canvas, deck: Deck, what: str) -> None:
    """Give the PDF ``canvas`` writes the deck's title ('Blófa Cards (print and play)'
    for ``what`` 'print and play'), author and version, and the build's date."""
    canvas.setTitle(f"{deck.title} ({what})")
    canvas.setAuthor(deck.author)
    canvas.setCreator("cardkit")
    canvas.setSubject(", ".join(filter(None, [deck.title, deck.stamp])))
    dated(canvas)
    at_actual_size(canvas)


def at_actual_size(canvas) -> None:
    """Ask the print dialog to print at actual size, not fitted to the paper
    (``/ViewerPreferences << /PrintScaling /None >>``): every cardkit PDF is measured."""
    canvas.setViewerPreference("PrintScaling", "None")


def dated(canvas) -> None:
    """Date the PDF now, or at SOURCE_DATE_EPOCH for a reproducible build. Canvases are
    made with ``invariant=1``, which keeps the rest of a file the same from build to build
    but also dates every file 1 January 2000; reportlab keeps the date in the document's
    ``_timeStamp``, which its TimeStamp fills as we want without ``invariant``."""
    canvas._doc._timeStamp = TimeStamp(invariant=0)
