"""A native PDF page: PDFium draws it, and its own character boxes mark the passage."""

from __future__ import annotations

import contextlib
import ctypes
from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image

from casetrack.errors import DocumentUnreadable
from casetrack.page_image import draw
from casetrack.page_image.locate import find_span, line_boxes
from casetrack.page_image.model import LONG_SIDE_PX, Box, PageDrawing
from casetrack.parse.pdf import PDFIUM_LOCK

_PROBE_SHARE = 0.25  # of the picture's size: a page 400 pixels high, where coloured print still shows as colour
_REEXPORT = "Re-export the PDF (for example with Print to PDF) and ingest it again."


def draw_pdf_page(path: Path, number: int, passage: str | None, expected: float) -> PageDrawing:
    """Page `number` (1-based) of the PDF at `path`, `passage` marked where its text layer holds it.
    Only that page is loaded. Raises DocumentUnreadable when PDFium cannot open or draw it."""
    with opened_page(path, number, _REEXPORT) as page:
        return _drawn(page, passage, expected, path)


@contextlib.contextmanager
def opened_page(path: Path, number: int, fix: str) -> Iterator[pdfium.PdfPage]:
    """Page `number` (1-based) of the PDF at `path`, only that page loaded, PDFium held for this thread
    meanwhile. Raises DocumentUnreadable (`fix` saying what to do) when it cannot be opened or has no such page."""
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:
            raise DocumentUnreadable(str(path), f"PDFium cannot open it ({exc})", fix) from exc
        try:
            if not 1 <= number <= len(document):
                raise DocumentUnreadable(str(path), f"it has {len(document)} pages now, not {number}",
                                         "The file changed since it was ingested: sync or re-ingest it.")
            page = document[number - 1]
            try:
                yield page
            finally:
                page.close()
        finally:
            document.close()


def _drawn(page: pdfium.PdfPage, passage: str | None, expected: float, path: Path) -> PageDrawing:
    width, height = page.get_size()  # points, as displayed (the page's /Rotate applied)
    if width <= 0 or height <= 0:
        raise DocumentUnreadable(str(path), "the page has no size", _REEXPORT)
    scale = LONG_SIDE_PX / max(width, height)
    try:
        # A small drawing says whether the page has colour; most are black on white, drawn in greys (~6x faster).
        probe = page.render(scale=scale * _PROBE_SHARE, may_draw_forms=True)
        grey = draw.is_grey(probe.to_pil())
        probe.close()
        bitmap = page.render(scale=scale, may_draw_forms=True, grayscale=grey)
        image = bitmap.to_pil().copy() if grey else bitmap.to_pil().convert("RGB")
        bitmap.close()
    except pdfium.PdfiumError as exc:
        raise DocumentUnreadable(str(path), f"PDFium cannot draw this page ({exc})", _REEXPORT) from exc
    boxes_px = _passage_boxes(page, image, passage, expected) if passage else []
    note = None if boxes_px or not passage else "The passage's words were not found in this page's text layer."
    return PageDrawing(png=draw.marked_png(image, boxes_px), width_px=image.width, height_px=image.height,
                       page_width=width, page_height=height, units="pt", pixels_per_unit=scale,
                       boxes=tuple(box.scaled(1 / scale) for box in boxes_px), source="pdf_text_layer", note=note)


def _passage_boxes(page: pdfium.PdfPage, image: Image.Image, passage: str, expected: float) -> list[Box]:
    """The passage's lines as boxes in the picture's pixels (PDFium maps page space to the picture,
    rotation and crop box included)."""
    textpage = page.get_textpage()
    try:
        chars = _characters(textpage)
        indices = [i for i, char in enumerate(chars) if not char.isspace()]
        units = [chars[i] for i in indices]
        span = find_span(units, passage, expected)
        if span is None:
            return []
        boxes = [_device_box(page, textpage, indices[n], image) for n in range(span[0], span[1] + 1)]
        return line_boxes(boxes)
    finally:
        textpage.close()


def _characters(textpage: pdfium.PdfTextPage) -> str:
    """The page's characters, one per PDFium character index (one call where the text has no characters
    outside the Basic Multilingual Plane, else one call per character)."""
    count = textpage.count_chars()
    text = textpage.get_text_range(0, count) if count else ""
    if len(text) == count:
        return text
    return "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage.raw, i) or 32) for i in range(count))


def _device_box(page: pdfium.PdfPage, textpage: pdfium.PdfTextPage, index: int, image: Image.Image) -> Box:
    left, bottom, right, top = textpage.get_charbox(index)
    xs, ys = [], []
    for x, y in ((left, top), (right, bottom)):
        dx, dy = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, image.width, image.height, 0, x, y, dx, dy)
        xs.append(dx.value)
        ys.append(dy.value)
    return Box(min(xs), min(ys), max(xs), max(ys))
