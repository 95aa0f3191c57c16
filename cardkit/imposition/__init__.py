"""Where drawn cards go: sheets for home printing, with cut guides and footers (``sheets``),
one card a file at a print service's sizes and rules (``services``), and the faces each
card has, with their file names (``faces``). Beyond cards: a tuck box's dieline
(``tuckbox``), token sheets (``tokens``) and a board's overlapping tiles (``boards``); pages
laid out by a sheet template's slots (``templates``).

It takes the deck model and gives plans of pages and faces; writers draw them. It never
imports writers, the pipeline or the commands.
"""
