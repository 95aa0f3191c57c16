"""cardkit: printable card generator and playtest kit for tabletop game designers.

Data flows one way: deck YAML (:mod:`cardkit.deck`) -> validated model
(:mod:`cardkit.model`) -> rendered cards (:mod:`cardkit.render`) -> imposed sheets
(:mod:`cardkit.sheets`) -> writers (:mod:`cardkit.writers`).
"""

__version__ = "0.1.0"
