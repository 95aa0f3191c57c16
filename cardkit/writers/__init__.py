"""Writers: the last stage. They take imposed pages (or single cards) and the renderer, and
write files atomically: PDF sheets for home printing and the calibration page
(``sheet_pdf``, ``calibration_pdf``); one card a page (``card_pdf``, CMYK by ``cmyk``,
marked PDF/X by ``pdfx``); card images (``card_png``, with a ``manifest``); Tabletop
Simulator decks (``tts``) and previews (``preview_png``); a contact sheet of what changed
between two versions (``changes_pdf``); a deck's rulebook (``rulebook_pdf``); its tuck box, token
sheets and boards (``box_pdf``, ``token_pdf``, ``board_pdf``); what every PDF says of itself
(``metadata``).

They never import the pipeline or the commands that call them, nor the rules or games.
"""
