"""Mark a CMYK one-card PDF as PDF/X-1a:2003, the exchange format print shops ask for.

reportlab writes what PDF/X-1a needs of the content (with :class:`CmykCanvas`: CMYK only,
fonts embedded, TrimBox and BleedBox on every page, ``/Trapped /False``, a document ID)
but not the marks: the output intent that names the printing condition the colours are
meant for, and the ``GTS_PDFXVersion`` and ``GTS_PDFXConformance`` keys. pypdf adds them to the finished file.

PDF/X-1a forbids transparency, so a file that has any (a layout's ``opacity``, a PNG's
alpha) is left unmarked and the pages that have it are named.
"""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

VERSION = "PDF/X-1a:2003"
# Registered characterizations (www.color.org) need no embedded ICC profile.
CONDITIONS = {
    "swop": ("CGATS TR 001", "U.S. Web Coated (SWOP), CGATS TR 001"),
    "fogra39": ("FOGRA39", "Coated FOGRA39 (ISO 12647-2:2004)"),
}


def transparent_pages(reader: PdfReader) -> list[int]:
    """The indexes of pages that use transparency: a soft-masked image, or a graphics
    state with a constant opacity under 1, on the page or in its forms."""
    def transparent(resources) -> bool:
        for state in resources.get("/ExtGState", {}).values():
            state = state.get_object()
            if any(float(state.get(key, 1)) < 1 for key in ("/ca", "/CA")) or \
                    state.get("/SMask", "/None") != "/None":
                return True
        for xobject in resources.get("/XObject", {}).values():
            xobject = xobject.get_object()
            if "/SMask" in xobject or (xobject["/Subtype"] == "/Form" and transparent(
                    xobject.get("/Resources", DictionaryObject()).get_object())):
                return True
        return False

    return [i for i, page in enumerate(reader.pages)
            if transparent(page.get("/Resources", DictionaryObject()).get_object())]


def mark_pdfx(path: Path, condition: str) -> list[int]:
    """Mark the PDF at ``path`` as PDF/X-1a:2003 for ``condition`` ('swop' or 'fogra39'),
    in place; or, when pages use transparency, leave it and return their indexes."""
    reader = PdfReader(path)
    transparent = transparent_pages(reader)
    if transparent:
        return transparent
    identifier, info = CONDITIONS[condition]
    writer = PdfWriter(clone_from=reader)
    intent = DictionaryObject({
        NameObject("/Type"): NameObject("/OutputIntent"),
        NameObject("/S"): NameObject("/GTS_PDFX"),
        NameObject("/OutputConditionIdentifier"): TextStringObject(identifier),
        NameObject("/RegistryName"): TextStringObject("http://www.color.org"),
        NameObject("/Info"): TextStringObject(info)})
    writer.root_object[NameObject("/OutputIntents")] = ArrayObject([intent])
    # GTS_PDFXConformance belongs to PDF/X-1a:2001; 2003 dropped it, but preflights and
    # older readers still look for it, and it is harmless
    writer.add_metadata({"/GTS_PDFXVersion": VERSION, "/GTS_PDFXConformance": VERSION})
    with open(path, "wb") as out:
        writer.write(out)
    return []
