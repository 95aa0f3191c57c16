"""cardkit: printable card generator and playtest kit for tabletop game designers.

Data flows one way: deck YAML (:mod:`cardkit.deck.loader`) -> validated model
(:mod:`cardkit.deck.model`) -> rendered cards (:mod:`cardkit.render.card`) -> imposed sheets
(:mod:`cardkit.imposition.sheets`) -> writers (:mod:`cardkit.writers`).
"""

__version__ = "0.1.0"
