"""``cardkit calibrate``: a test sheet that measures a printer."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .options import PAPERS, LateChoice, parse_back_offset
from .output import EXIT_BAD_INPUT, report_input_error, report_output_error, shown


@click.command()
@click.option("--paper", type=PAPERS, default="a4", show_default=True)
@click.option("--duplex", type=click.Choice(["long", "short"]), default="long",
              show_default=True, help="Which edge your printer flips the paper on.")
@click.option("--orientation", default="portrait",
              type=LateChoice("cardkit.imposition.sheets",
                              lambda sheets: sheets.ORIENTATIONS[1:]),
              show_default=True,
              help="Calibrate the way up your sheets print ('cardkit build' names it).")
@click.option("--back-offset", callback=parse_back_offset, metavar="X,Y",
              help="Print the back with this correction applied, to check it: the red "
                   "lines then read 0.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path),
              default=Path("output"), show_default="output/ in the current folder",
              help="Folder for the output; the sheet goes in its 'calibration' subfolder.")
def calibrate(paper, duplex, orientation, back_offset, out):
    """Print a test sheet that measures your printer: whether it prints at 100%, and how far
    it shifts the back side, as the --back-offset value to build with.

    Print it two-sided the way you print cards, hold it to the light and read where the
    red lines on the back cross the scales on the front.
    """
    from ..common.atomic import atomic_path, output_root
    from ..common.build_time import build_epoch
    from ..common.errors import InputError
    from ..pipeline.names import offset_part
    from ..writers.calibration_pdf import write_calibration

    try:
        build_epoch()  # the sheet is dated by it
    except InputError as error:
        report_input_error(error, "in the environment; nothing was written")
        sys.exit(EXIT_BAD_INPUT)

    name = f"calibration-{paper}-{duplex}"
    name += "-landscape" if orientation == "landscape" else ""
    if any(back_offset or ()):
        name += "-" + offset_part(back_offset)
    path = out / "calibration" / f"{name}.pdf"
    try:
        with atomic_path(path, under=output_root(out)) as temporary:
            write_calibration(temporary, paper, duplex, orientation, back_offset or (0.0, 0.0))
    except OSError as error:
        report_output_error(error)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(f"calibration sheet -> {shown(path)}: print it two-sided, flipping on the "
               f"{duplex} edge, at 100%")
