"""What a PDF page's text layer lacks, and the page shows: text in annotations drawn on top (form
fields, typewriter text, stamps), a layer of glyph codes instead of characters, words drawn as shapes.
The first is flattened into the page; for the other two the page goes to OCR with a note saying why.
Callers hold `pdf.PDFIUM_LOCK`.
"""

from __future__ import annotations

import re
from itertools import islice

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from casetrack.parse.pdf.lines import unchecked

# Characters no text layer holds for a reader: C0 controls (not tab or line breaks), private use, U+FFFD.
_GLYPH_CODES = re.compile(r"[\x00-\x08\x0e-\x1f\ue000-\uf8ff\ufffd]")
UNDECODABLE_MIN_CODES = 20
UNDECODABLE_SHARE = 0.2
UNDECODABLE_NOTE = "This page's text layer could not be decoded (its font has no character map)"
SHAPES_NOTE = "This page has no text layer; its words are drawn as shapes (outlined or flattened text)"
# Annotations that show text on the page: form fields, typewriter text, stamps.
_SHOWN_TEXT_ANNOTATIONS = frozenset(
    {pdfium_c.FPDF_ANNOT_WIDGET, pdfium_c.FPDF_ANNOT_FREETEXT, pdfium_c.FPDF_ANNOT_STAMP}
)
# Outlined text draws each glyph or word as a path: a short page has hundreds. A blank page has none, a
# rule or a signature line a few; a page of such drawings with no text at all is worth one OCR pass.
SHAPES_MIN_PATHS = 100

# Asked of every annotation of a page: a court opinion links each citation (60 links cost 85 us a page
# checked, 45 us unchecked).
_get_annotation = unchecked(pdfium_c.FPDFPage_GetAnnot)
_annotation_type = unchecked(pdfium_c.FPDFAnnot_GetSubtype)
_close_annotation = unchecked(pdfium_c.FPDFPage_CloseAnnot)


def undecodable(text: str) -> bool:
    """Whether a page's extracted text is mostly glyph codes rather than characters.

    A font embedded without a character map (Identity-H without /ToUnicode, some e-filing print
    drivers) gives PDFium only glyph numbers: control characters, private-use code points and
    stray punctuation where the words were. The page looks fine on screen and renders
    correctly, so OCR reads it. A few symbol-font bullets (private use) on a text page are far
    below the share that counts."""
    if text.replace("\n", "").isprintable():  # the C-speed check that every readable page passes
        return False
    codes = len(_GLYPH_CODES.findall(text))
    shown = len(text) - text.count(" ") - text.count("\n")
    return codes >= UNDECODABLE_MIN_CODES and codes >= UNDECODABLE_SHARE * shown


def annotations_flattened(
    document: pdfium.PdfDocument, index: int, page: pdfium.PdfPage
) -> tuple[pdfium.PdfPage, int | None]:
    """The page with the text its annotations show made part of its content, reloaded, and the length of
    the text it had before (PDFium appends what was flattened after it); else the page as is and None.

    PDFium's text layer holds only the page's content: a filled-in form (a summons, a civil cover
    sheet, a client's intake form), typewriter text added in a PDF editor and a "FILED" or "EXHIBIT A"
    stamp are annotations drawn on top, and would be missing from the text while the reader sees them.
    Only a page carrying such an annotation is flattened (links and comments, on most court PDFs, are
    not); the change lives in memory and is never saved."""
    count = pdfium_c.FPDFPage_GetAnnotCount(page)
    if count <= 0 or not any(_annotation_subtype(page, i) in _SHOWN_TEXT_ANNOTATIONS for i in range(count)):
        return page, None
    textpage = page.get_textpage()
    try:
        content_chars = len(textpage.get_text_range())
    finally:
        textpage.close()
    if pdfium_c.FPDFPage_Flatten(page, pdfium_c.FLAT_NORMALDISPLAY) != pdfium_c.FLATTEN_SUCCESS:
        return page, None
    page.close()  # PDFium reads the flattened content only into a page loaded afresh
    return document[index], content_chars


def _annotation_subtype(page: pdfium.PdfPage, index: int) -> int:
    annotation = _get_annotation(page.raw, index)
    if not annotation:
        return int(pdfium_c.FPDF_ANNOT_UNKNOWN)
    try:
        return int(_annotation_type(annotation))
    finally:
        _close_annotation(annotation)


def drawn_with_shapes(page: pdfium.PdfPage) -> bool:
    """Whether a page without text draws at least SHAPES_MIN_PATHS paths (counting stops there)."""
    paths = page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_PATH,), max_depth=4)
    return sum(1 for _ in islice(paths, SHAPES_MIN_PATHS)) >= SHAPES_MIN_PATHS
