"""A rulebook's blocks (:mod:`cardkit.sources.rulebook`) met with the deck they describe:
each card shown found by name, each ``{table}`` filled with the cards' fields, the
``{components}`` counted, the deck's stamps (``{deck.version}``) filled into the text and
every ``{icon}`` checked against the deck's icons. What is wrong is reported at its line of
``rules.md``, all of it at once.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from ..assets.catalog import Assets
from ..common.errors import Problems, Where, braced_did_you_mean, did_you_mean
from ..common.units import to_mm
from ..sources import rulebook as md
from ..sources.checks import quoted
from .model import Card, Deck
from .selection import SpecError, field_text, parse_spec, picks
from .template import fields_in, fill_text

COUNT = "count"  # a table's column of how many copies of the row's cards the deck prints


@dataclass(frozen=True)
class CardsShown:
    """A row of cards (one or more): each card with the side shown and its caption."""

    cards: tuple[tuple[Card, str, str], ...]
    line: int


@dataclass(frozen=True)
class Rulebook:
    """What a rulebook prints: the deck, its rules' blocks (headings, paragraphs, lists,
    tables, rules, rows of cards), and the deck's icons and fonts the text uses."""

    deck: Deck
    blocks: tuple
    assets: Assets
    path: Path  # rules.md, for messages


def resolve_rules(rules: md.RulesText, deck: Deck) -> Rulebook:
    """The rulebook of ``deck`` written in ``rules``; raises InputError with every card,
    field or icon the rules name that the deck lacks."""
    assets = deck.cards[0].front.assets
    resolver = _Resolver(rules, deck, assets)
    blocks = tuple(resolver.blocks(rules.blocks))
    resolver.problems.check()
    return Rulebook(deck, blocks, assets, rules.path)


class _Resolver:
    def __init__(self, rules: md.RulesText, deck: Deck, assets: Assets):
        self.rules, self.deck, self.assets = rules, deck, assets
        self.stamps = dict(deck.cards[0].stamps)
        self.problems = Problems()
        self.fields = {COUNT, *(name for card in deck.cards for name in card.values())}

    def where(self, line: int, text: str = "") -> Where:
        return Where(self.rules.path, md.line_of(self.rules, line, text))

    def blocks(self, blocks):
        for block in blocks:
            if isinstance(block, md.Heading | md.Paragraph):
                yield replace(block, text=self.text(block.text, block.line))
            elif isinstance(block, md.ListBlock):
                yield replace(block, items=tuple(tuple(self.blocks(item))
                                                 for item in block.items))
            elif isinstance(block, md.Table):
                yield replace(block, header=self.cells(block.header, block.line),
                              rows=tuple(self.cells(row, block.line) for row in block.rows))
            elif isinstance(block, md.CardRow):
                yield CardsShown(tuple(filter(None, map(self.card, block.cards))), block.line)
            elif isinstance(block, md.DeckTable):
                yield self.table(block)
            elif isinstance(block, md.Components):
                yield self.components(block)
            else:
                yield block

    def cells(self, cells, line: int) -> tuple[str, ...]:
        return tuple(self.text(cell, line) for cell in cells)

    def text(self, text: str, line: int) -> str:
        """``text`` with the deck's stamps filled in; each other ``{name}`` must be an
        icon, as on a card."""
        filled = fill_text(text, self.stamps)
        for name in dict.fromkeys(fields_in(filled)):  # one message for each icon
            if name not in self.assets.icons:
                self.problems.add(self.where(line, f"{{{name}"), f"'{{{name}}}' is neither "
                                  "an icon of the deck nor one of its stamps",
                                  braced_did_you_mean(name, {*self.assets.icons, *self.stamps}))
        return filled

    def card(self, shown: md.CardShown):
        """(card, side, caption) for a card shown by name, or None (a problem noted)."""
        deck, name = self.deck, shown.name
        found = [card for card in deck.cards if deck.name_of(card).casefold() == name.casefold()]
        if not found:
            try:
                items = parse_spec(name) if any(c.isdigit() or c == "=" for c in name) else ()
            except SpecError:
                items = ()
            found = [card for card in deck.cards if any(picks(item, card) for item in items)]
        if not found:
            names = [deck.name_of(card) for card in deck.cards]
            self.problems.add(Where(self.rules.path, shown.line), f"the deck has no card "
                              f"named {quoted(name)}", did_you_mean(name, names, "name a card "
                              "as 'cardkit preview' does, or by a field: card:FIELD=VALUE"))
            return None
        return found[0], shown.side, self.text(shown.caption, shown.line)

    def table(self, block: md.DeckTable) -> md.Table:
        """One row for each distinct row of the fields asked for, in deck order; with a
        ``count`` column, the copies of the cards a row stands for are added up. A card
        whose layouts do not print a field that other cards print shows it blank."""
        unknown = [name for name in block.fields if name not in self.fields]
        for name in unknown:
            self.problems.add(self.where(block.line, name), f"'{{table}}' names the field "
                              f"{quoted(name)}, which the deck's cards do not have",
                              did_you_mean(name, self.fields))
        if unknown:
            return md.Table(block.fields, (), ("left",) * len(block.fields), block.line)
        rows: dict[tuple, int] = {}
        printed = {(card.front.name, card.back.name): card.front.fields_read()
                   | card.back.layout.fields_read() for card in self.deck.cards}
        somewhere = set().union(*printed.values())
        for card in self.deck.cards:
            values = card.values()
            # a field other cards print and this one does not (an event's strength, left
            # to its default) is blank, as on the card
            hidden = somewhere - printed[card.front.name, card.back.name]
            row = tuple("" if name == COUNT or name in hidden else _cell(values.get(name))
                        for name in block.fields)
            rows[row] = rows.get(row, 0) + card.count
        index = block.fields.index(COUNT) if COUNT in block.fields else None
        shown = [row if index is None else row[:index] + (str(count),) + row[index + 1:]
                 for row, count in rows.items()]
        aligns = tuple("right" if all(_numeric(row[i]) for row in shown) else "left"
                       for i in range(len(block.fields)))
        return md.Table(block.fields, tuple(self.cells(row, block.line) for row in shown),
                        aligns, block.line)

    def components(self, block: md.Components) -> md.ListBlock:
        """The deck's printed cards, counted by back (or by ``block.by``), as a list: backs
        that print the same are one, and a deck of one back needs no count by back."""
        deck, by = self.deck, block.by
        if by not in self.fields - {COUNT}:
            self.problems.add(self.where(block.line, by), f"'{{components}}' counts by "
                              f"{quoted(by)}, which the deck's cards do not have",
                              did_you_mean(by, self.fields - {COUNT}))
        size = deck.size
        total = (f"{deck.total()} card{'s' * (deck.total() != 1)}, {size.name} size "
                 f"({to_mm(size.width):g} × {to_mm(size.height):g} mm)")
        counts = deck.tally_backs() if by == "back" else deck.tally(by)
        items = [(md.Paragraph(f"{count} with the {value} back" if by == "back" else
                               f"{count} of {by} {value}", block.line),)
                 for value, count in counts.items() if by != "back" or len(counts) > 1]
        nested = md.ListBlock(False, 1, tuple(items), block.line)
        return md.ListBlock(False, 1, ((md.Paragraph(total, block.line), nested),), block.line)


def _cell(value) -> str:
    if isinstance(value, list | tuple):
        return ", ".join(map(field_text, value))
    return "" if value is None else field_text(value)


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return text == ""
    return True
