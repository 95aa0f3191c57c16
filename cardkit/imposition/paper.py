"""The papers cardkit prints at home on, and the border a home printer leaves blank: the
one place the sheets, token sheets, tuck box, boards, rulebook and calibration sheet all
read them from (imposition, writers and the pipeline alike).

Lengths in PDF points, portrait: (short side, long side).
"""

from __future__ import annotations

from ..common.units import MM

PAPERS = {"a4": (210 * MM, 297 * MM), "letter": (215.9 * MM, 279.4 * MM)}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
PRINTABLE_BORDER = 5 * MM  # nothing a user needs is printed closer to the paper's edge
# what contests ask for: a rulebook, tuck box, tokens and boards are made on both unless told
DEFAULT_PAPERS = ("a4", "letter")
