"""A native PDF page: PDFium draws it, and its own text rectangles over the passage's characters mark it."""

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
from casetrack.parse.pdf.document import PDFIUM_LOCK

_PROBE_SHARE = 0.25  # of the picture's size: a page 400 pixels high, where coloured print still shows as colour
# Whether each page drawn so far is in greys, by (file, its size and time, page number): bytes a page, emptied
# when this many pages are known (a file changed or replaced is a new key).
_GREY_PAGES: dict[tuple[str, int, int, int], bool] = {}
_GREY_PAGES_MOST = 10_000
_REEXPORT = "Re-export the PDF (for example with Print to PDF) and ingest it again."


def draw_pdf_page(path: Path, number: int, passage: str | None, expected: float) -> PageDrawing:
    """Page `number` (1-based) of the PDF at `path`, `passage` marked where its text layer holds it.
    Only that page is loaded. Raises DocumentUnreadable when PDFium cannot open or draw it."""
    with opened_page(path, number, _REEXPORT) as page:
        return _drawn(page, passage, expected, path, number)


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


def _drawn(page: pdfium.PdfPage, passage: str | None, expected: float, path: Path, number: int) -> PageDrawing:
    width, height = page.get_size()  # points, as displayed (the page's /Rotate applied)
    if width <= 0 or height <= 0:
        raise DocumentUnreadable(str(path), "the page has no size", _REEXPORT)
    scale = LONG_SIDE_PX / max(width, height)
    try:
        grey = _in_greys(page, scale, path, number)
        # In colour, red-green-blue bytes as Pillow holds them, so the picture is PDFium's pixels, not a copy.
        bitmap = page.render(scale=scale, may_draw_forms=True, grayscale=grey, rev_byteorder=not grey,
                             force_bitmap_format=None if grey else pdfium_c.FPDFBitmap_BGR)
    except pdfium.PdfiumError as exc:
        raise DocumentUnreadable(str(path), f"PDFium cannot draw this page ({exc})", _REEXPORT) from exc
    try:
        image = bitmap.to_pil()  # PDFium's own pixels, read (not copied) while the PNG is made from them
        boxes_px = _passage_boxes(page, image, passage, expected) if passage else []
        encoded = draw.marked_png(image, boxes_px)
    finally:
        bitmap.close()
    note = None if boxes_px or not passage else "The passage's words were not found in this page's text layer."
    return PageDrawing(png=encoded, width_px=image.width, height_px=image.height,
                       page_width=width, page_height=height, units="pt", pixels_per_unit=scale,
                       boxes=tuple(box.scaled(1 / scale) for box in boxes_px), source="pdf_text_layer", note=note)


def _in_greys(page: pdfium.PdfPage, scale: float, path: Path, number: int) -> bool:
    """Whether page `number` is black print on white, as most are: drawn in greys (~6x faster) and encoded with
    a grey palette. A small rough drawing tells (no smoothing: colour, not looks), once per page of a file as it
    is now: the viewer turns back to pages, and a page holding a page-sized picture takes tens of ms to draw."""
    stat = path.stat()
    key = (str(path), stat.st_size, stat.st_mtime_ns, number)
    grey = _GREY_PAGES.get(key)
    if grey is None:
        probe = page.render(scale=scale * _PROBE_SHARE, may_draw_forms=True, no_smoothtext=True,
                            no_smoothimage=True, no_smoothpath=True)
        grey = draw.is_grey(probe.to_pil())
        probe.close()
        if len(_GREY_PAGES) >= _GREY_PAGES_MOST:
            _GREY_PAGES.clear()
        _GREY_PAGES[key] = grey
    return grey


def _passage_boxes(page: pdfium.PdfPage, image: Image.Image, passage: str, expected: float) -> list[Box]:
    """The passage's lines as boxes in the picture's pixels: PDFium's own rectangles over its characters (one
    a line, or a run of a line), mapped by PDFium to the picture, rotation and crop box included."""
    textpage = page.get_textpage()
    try:
        span = find_span(_characters(textpage), passage, expected)
        if span is None:
            return []
        first, last = span
        rects = [textpage.get_rect(n) for n in range(textpage.count_rects(first, last - first + 1))]
        return line_boxes([_device_box(page, rect, image) for rect in rects])
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


def _device_box(page: pdfium.PdfPage, rect: tuple[float, float, float, float], image: Image.Image) -> Box:
    left, bottom, right, top = rect
    xs, ys = [], []
    for x, y in ((left, top), (right, bottom)):
        dx, dy = ctypes.c_int(), ctypes.c_int()
        pdfium_c.FPDF_PageToDevice(page.raw, 0, 0, image.width, image.height, 0, x, y, dx, dy)
        xs.append(dx.value)
        ys.append(dy.value)
    return Box(min(xs), min(ys), max(xs), max(ys))
