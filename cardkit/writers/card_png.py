"""Rasterise a one-card-per-page PDF to PNG files with pypdfium2, on every core.

Each page is drawn onto a bitmap of exactly the pixel size asked for (pdfium maps the page
onto it), so an image is never a pixel off the service's size. The PNG records its dpi.
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

PNG_COMPRESSION = 1  # zlib level: files ~10% larger than level 6, encoded twice as fast
PAGES_PER_TASK = 4
MIN_PAGES_PER_PROCESS = 12  # below this, starting a process costs more than it saves

_document = None  # the PDF a worker process renders from, opened once per process


def write_pngs(pdf_path: Path, targets: list[Path], size: tuple[int, int], dpi: float,
               on_done=None) -> None:
    """Write page i of ``pdf_path`` to ``targets[i]`` at ``size`` (width, height) pixels,
    recording ``dpi``; ``on_done(n)`` is told of every n pages finished."""
    tasks = [(i, str(t)) for i, t in enumerate(targets)]
    chunks = [tasks[i:i + PAGES_PER_TASK] for i in range(0, len(tasks), PAGES_PER_TASK)]
    processes = min(os.cpu_count() or 1, len(tasks) // MIN_PAGES_PER_PROCESS)
    if processes < 2:
        _open(str(pdf_path))
        try:
            for chunk in chunks:
                _render(chunk, size, dpi)
                if on_done:
                    on_done(len(chunk))
        finally:
            _close()
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(processes, context, initializer=_open,
                             initargs=(str(pdf_path),)) as pool:
        for done in pool.map(_render, chunks, [size] * len(chunks), [dpi] * len(chunks)):
            if on_done:
                on_done(done)


def _open(pdf_path: str) -> None:
    global _document
    import pypdfium2  # imported here: only exports need it, and each worker loads its own
    _document = pypdfium2.PdfDocument(pdf_path)


def _close() -> None:
    global _document
    _document.close()
    _document = None


def _render(chunk: list[tuple[int, str]], size: tuple[int, int], dpi: float) -> int:
    import pypdfium2
    import pypdfium2.raw as pdfium_c
    width, height = size
    for index, target in chunk:
        page = _document[index]
        bitmap = pypdfium2.PdfBitmap.new_native(width, height, pdfium_c.FPDFBitmap_BGR,
                                                rev_byteorder=True)
        bitmap.fill_rect((255, 255, 255, 255), 0, 0, width, height)
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page, 0, 0, width, height, 0,
                                       pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        bitmap.to_pil().save(target, "PNG", dpi=(dpi, dpi), compress_level=PNG_COMPRESSION)
        page.close()
    return len(chunk)
