"""The structured result of get_page_image (see `mcp/outputs.py`)."""

from __future__ import annotations

from typing import Literal

from casetrack.mcp.outputs import Out


class HighlightBox(Out):
    """One marked line, from the page's top left corner, in the result's `units`."""

    left: float
    top: float
    right: float
    bottom: float


class PageImage(Out):
    document: str
    document_id: str
    page: int
    page_count: int
    chunk_id: str | None
    citation: str
    # The page's size and the marked lines' boxes: points (1/72 in) for a PDF page, pixels for a scanned image or
    # a rendering; image pixel = unit x pixels_per_unit.
    units: Literal["pt", "px"]
    page_width: float
    page_height: float
    pixels_per_unit: float
    image_width: int
    image_height: int
    highlights: list[HighlightBox]
    # pdf_text_layer: PDFium's character boxes; ocr_words: Tesseract's word boxes on the scan; rendering: CaseTrack's
    # text of the page drawn as it paged it (Word, RTF, text, e-mail), not the original's layout.
    source: Literal["pdf_text_layer", "ocr_words", "rendering"]
    note: str | None
