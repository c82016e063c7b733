"""A scanned page (a picture in a PDF, or a page of an image file): the picture as OCR read it,
and Tesseract's word boxes mark the passage. Ingest keeps no word boxes, so the one page shown is
read again (1-3 s), exactly as an ingest reads it, and the drawing says so."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageOps, UnidentifiedImageError

from casetrack.errors import DocumentUnreadable
from casetrack.page_image import draw
from casetrack.page_image.locate import find_span, line_boxes
from casetrack.page_image.model import LONG_SIDE_PX, Box, PageDrawing
from casetrack.parse.formats import PDF
from casetrack.parse.ocr import engine as ocr
from casetrack.parse.ocr.deskew import straightened
from casetrack.parse.options import ParseOptions
from casetrack.parse.pdf.document import PDFIUM_LOCK

REREAD_NOTE = "The scan was read again by OCR to find where the passage is on it."
_FIX = "Check that the file opens in a viewer; re-scan or re-export it and ingest it again."


def draw_scan_page(path: Path, file_format: str, number: int, passage: str | None, expected: float,
                   options: ParseOptions) -> PageDrawing:
    """Page `number` of a scan (`file_format` "pdf" or "image"), `passage` marked on it (unmarked, and
    said so, without Tesseract). Raises DocumentUnreadable when the page cannot be read."""
    image, points_per_pixel = _pdf_page(path, number, options) if file_format == PDF.id else _image_page(path, number)
    prepared, _ = straightened(ocr.prepare_image(image))
    boxes: list[Box] = []
    note: str | None = None
    if passage:
        boxes, note = _passage_boxes(prepared, points_per_pixel, passage, expected, options)
    factor = min(1.0, LONG_SIDE_PX / max(prepared.size))
    shown = prepared
    if factor < 1.0:
        shown = shown.resize((max(1, round(shown.width * factor)), max(1, round(shown.height * factor))),
                             Image.Resampling.LANCZOS)
    unit = points_per_pixel or 1.0  # page units per pixel of the picture OCR read
    return PageDrawing(png=draw.marked_png(shown, [box.scaled(factor) for box in boxes]), width_px=shown.width,
                       height_px=shown.height,
                       page_width=prepared.width * unit, page_height=prepared.height * unit,
                       units="pt" if points_per_pixel else "px", pixels_per_unit=factor / unit,
                       boxes=tuple(box.scaled(unit) for box in boxes), source="ocr_words", note=note)


def _passage_boxes(prepared: Image.Image, points_per_pixel: float, passage: str, expected: float,
                   options: ParseOptions) -> tuple[list[Box], str]:
    """The passage's lines in the picture's pixels, by Tesseract's words, and the note saying how."""
    status = ocr.ocr_status(options)
    if not status.available:
        return [], f"The passage is not marked: OCR is off ({status.detail})."
    dpi = round(72 / points_per_pixel) if points_per_pixel else 0
    try:
        words = ocr.page_words(prepared, dpi, options)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [], f"The passage is not marked: OCR could not read the page again ({exc})."
    span = find_span([w.text for w in words], passage, expected)
    if span is None:
        return [], f"{REREAD_NOTE} The passage's words were not found on it."
    return line_boxes([Box(w.left, w.top, w.left + w.width, w.top + w.height)
                       for w in words[span[0]:span[1] + 1]]), REREAD_NOTE


def _pdf_page(path: Path, number: int, options: ParseOptions) -> tuple[Image.Image, float]:
    """The PDF page drawn as an ingest draws it for OCR, within ocr.MAX_PAGE_PIXELS; points per pixel."""
    with PDFIUM_LOCK:
        try:
            document = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:
            raise DocumentUnreadable(str(path), f"PDFium cannot open it ({exc})", _FIX) from exc
        try:
            if not 1 <= number <= len(document):
                raise DocumentUnreadable(str(path), f"it has {len(document)} pages now, not {number}",
                                         "The file changed since it was ingested: sync or re-ingest it.")
            width, height = (points / 72 for points in document.get_page_size(number - 1))
            dpi = ocr.fitting_dpi(width, height, options.ocr_dpi)
            page = document[number - 1]
            try:
                bitmap = page.render(scale=dpi / 72, grayscale=True)
                image = bitmap.to_pil().copy()
                bitmap.close()
            except pdfium.PdfiumError as exc:
                raise DocumentUnreadable(str(path), f"PDFium cannot draw page {number} ({exc})", _FIX) from exc
            finally:
                page.close()
        finally:
            document.close()
    return image, 72 / dpi


def _image_page(path: Path, number: int) -> tuple[Image.Image, float]:
    try:
        with Image.open(path) as image:
            frames = getattr(image, "n_frames", 1)
            if not 1 <= number <= frames:
                raise DocumentUnreadable(str(path), f"it has {frames} pages now, not {number}",
                                         "The file changed since it was ingested: sync or re-ingest it.")
            if image.width * image.height > ocr.MAX_PAGE_PIXELS * 4:
                raise DocumentUnreadable(str(path), f"the image is {image.width} x {image.height} pixels",
                                         "Scan the page again at 300 dpi and ingest that.")
            image.seek(number - 1)
            frame = image.copy()
            if image.format == "JPEG":
                frame = ImageOps.exif_transpose(frame)
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as exc:
        raise DocumentUnreadable(str(path), f"the image could not be decoded ({exc})", _FIX) from exc
    return frame, 0.0
