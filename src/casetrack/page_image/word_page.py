"""A Word page drawn through LibreOffice where it is installed: the file printed to a PDF once (kept in
the case's folder, named by the document and its content), the passage found among that PDF's characters
and marked on the PDF page holding it, as on any PDF. LibreOffice may break pages where Word would not
(CaseTrack's page numbers for a Word file are estimates too), so the picture names the PDF page it shows.
None when LibreOffice is missing, cannot convert the file, or its PDF does not hold the passage: the
caller then draws CaseTrack's rendering of the page."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pypdfium2 as pdfium

from casetrack.page_image.locate import key
from casetrack.page_image.model import PageDrawing
from casetrack.page_image.pdf_page import draw_pdf_page
from casetrack.parse.formats import DOC, DOCX, ODT
from casetrack.parse.options import ParseOptions
from casetrack.parse.pdf.document import PDFIUM_LOCK
from casetrack.parse.word.legacy import convert_to_pdf

log = logging.getLogger(__name__)

WORD_FORMATS = (DOCX.id, DOC.id, ODT.id)
_HEAD = 80  # letters and digits of the passage looked for to tell which PDF page holds it


def draw_word_page(source: Path, converted: Path, text: str, number: int, span: tuple[int, int] | None,
                   options: ParseOptions) -> PageDrawing | None:
    """CaseTrack's page `number` of the Word file at `source` (its stored `text`), `span` of it marked, drawn
    from LibreOffice's PDF of the file (made at `converted` when not there yet); without a span, the PDF page
    where CaseTrack's page begins, unmarked."""
    if not converted.is_file() and not convert_to_pdf(source, converted, options):
        log.info("LibreOffice could not print %s to a PDF: its page is drawn from CaseTrack's text", source.name)
        return None
    passage = text[span[0]:span[1]] if span else text
    try:
        found = _place(converted, passage, number)
    except pdfium.PdfiumError:
        return None
    if found is None:
        return None
    pdf_page, expected = found
    drawing = draw_pdf_page(converted, pdf_page, passage if span else None, expected)
    if span and not drawing.boxes:
        return None
    return replace(drawing, note=f"Drawn by LibreOffice from the Word file (its page {pdf_page}); Word may break "
                                 "its pages elsewhere.")


def _place(pdf: Path, passage: str, number: int) -> tuple[int, float] | None:
    """The PDF page (1-based) where the passage's first letters are, nearest page `number` where they occur
    more than once, and where on that page they start (a share of its letters)."""
    head = key(passage)[:_HEAD]
    if not head:
        return None
    with PDFIUM_LOCK:
        document = pdfium.PdfDocument(str(pdf))
        try:
            pages = []
            for index in range(len(document)):
                page = document[index]
                textpage = page.get_textpage()
                pages.append(key(textpage.get_text_range()))
                textpage.close()
                page.close()
        finally:
            document.close()
    starts = [0]
    for page_key in pages:
        starts.append(starts[-1] + len(page_key))
    joined = "".join(pages)
    hits, at = [], joined.find(head)
    while at >= 0:
        hits.append(at)
        at = joined.find(head, at + 1)
    if not hits:
        return None
    index_of = [max(i for i in range(len(pages)) if starts[i] <= hit) for hit in hits]
    best = min(range(len(hits)), key=lambda n: abs(index_of[n] + 1 - number))
    page_index = index_of[best]
    return page_index + 1, (hits[best] - starts[page_index]) / max(len(pages[page_index]), 1)
