"""Which plan lays out a build's pages: the sheet template the options name
(:mod:`.templates`), else the gutterfold or the print-and-play grid (:mod:`.sheets`)."""

from __future__ import annotations

from .sheets import Plan, SheetOptions, gutterfold_pages, pnp_pages


def plan_pages(count: int, width: float, height: float, options: SheetOptions,
               tokens=()) -> Plan:
    """The pages for ``count`` cards of ``width`` x ``height``; ``tokens`` go in a sheet
    template's token slots (:func:`.templates.template_pages`)."""
    if options.template is not None:
        from .templates import template_pages  # late: most builds have no sheet template

        return template_pages(count, width, height, options.template, options, tokens)
    if options.sheet == "gutterfold":
        return gutterfold_pages(count, width, height, options)
    return pnp_pages(count, width, height, options)
