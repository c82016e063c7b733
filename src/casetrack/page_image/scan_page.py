"""A scanned page (a picture in a PDF, or a page of an image file): the picture as OCR read it, and
Tesseract's word boxes mark the passage. Ingest keeps the words and their boxes (domain.PageWords), so
the page is drawn from them without Tesseract: turned as it was for OCR, at the size shown. A page
ingested before they were kept (or whose file no longer matches them) is read again (1-3 s), exactly
as an ingest reads it, and the drawing says so."""

from __future__ import annotations

import math
import struct
import subprocess
from collections.abc import Callable
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageOps, UnidentifiedImageError

from casetrack.domain import PageWords
from casetrack.errors import DocumentUnreadable
from casetrack.page_image import draw
from casetrack.page_image.locate import find_span, line_boxes
from casetrack.page_image.model import LONG_SIDE_PX, Box, PageDrawing
from casetrack.page_image.pdf_page import opened_page
from casetrack.parse.formats import PDF
from casetrack.parse.ocr import engine as ocr
from casetrack.parse.ocr.deskew import straightened, turned_level
from casetrack.parse.options import ParseOptions

REREAD_NOTE = "The scan was read again by OCR to find where the passage is on it."
NOT_AMONG_KEPT = "The passage's words were not found among those OCR read on this page."
_FIX = "Check that the file opens in a viewer; re-scan or re-export it and ingest it again."
_SAME_SHAPE = 0.03  # the picture drawn now and the one OCR read differ this much in proportion at most


def draw_scan_page(path: Path, file_format: str, number: int, passage: str | None, expected: float,
                   options: ParseOptions, words: PageWords | None = None) -> PageDrawing:
    """Page `number` of a scan (`file_format` "pdf" or "image"), `passage` marked on it by `words` (the words
    ingest kept), else by reading it again (unmarked, and said so, without Tesseract). Raises
    DocumentUnreadable when the page cannot be read."""
    if words is not None:
        drawn = _by_kept_words(path, file_format, number, passage, expected, words)
        if drawn is not None:
            return drawn
    return _by_reading_again(path, file_format, number, passage, expected, options)


def _by_kept_words(path: Path, file_format: str, number: int, passage: str | None, expected: float,
                   words: PageWords) -> PageDrawing | None:
    """The page drawn at the size shown and turned as OCR read it, the passage marked by the kept words'
    boxes; None when the picture no longer has the proportions of the one they were read on."""
    def pixels_per_point(width: float, height: float) -> float:
        return LONG_SIDE_PX / max(_turned_size(width, height, words.skew))

    if file_format == PDF.id:
        image, points_per_pixel = _pdf_page(path, number, pixels_per_point)
    else:
        image, points_per_pixel = _image_page(path, number)
        factor = min(1.0, pixels_per_point(image.width, image.height))
        if factor < 1.0:  # made small first: straightening a page costs by its pixels
            image = image.resize((max(1, round(image.width * factor)), max(1, round(image.height * factor))),
                                 Image.Resampling.LANCZOS)
    shown = turned_level(ocr.prepare_image(image), words.skew) if words.skew else ocr.prepare_image(image)
    if words.turn:
        shown = shown.rotate(-words.turn, expand=True)
    scale = shown.width / words.width  # the picture's pixels per pixel of the one OCR read
    if abs(shown.height / words.height - scale) > _SAME_SHAPE * scale:
        return None
    boxes: list[Box] = []
    note = None
    if passage:
        boxes = _passage_boxes(words, passage, expected)
        note = None if boxes else NOT_AMONG_KEPT
    if file_format == PDF.id:  # page units: points of the straightened page
        unit = points_per_pixel
        page_size, page_boxes = (shown.width * unit, shown.height * unit), [b.scaled(scale * unit) for b in boxes]
    else:  # page units: pixels of the picture OCR read
        unit = 1 / scale
        page_size, page_boxes = (float(words.width), float(words.height)), boxes
    return PageDrawing(png=draw.marked_png(shown, [box.scaled(scale) for box in boxes]), width_px=shown.width,
                       height_px=shown.height, page_width=page_size[0], page_height=page_size[1],
                       units="pt" if file_format == PDF.id else "px", pixels_per_unit=1 / unit,
                       boxes=tuple(page_boxes), source="ocr_words", note=note)


def _passage_boxes(words: PageWords, passage: str, expected: float) -> list[Box]:
    """The passage's lines in the pixels of the picture OCR read, by the kept words' boxes."""
    span = find_span(words.texts, passage, expected)
    if span is None:
        return []
    first, last = span
    values = struct.unpack_from(f"<{4 * (last - first + 1)}H", words.boxes, 8 * first)
    return line_boxes([Box(values[i], values[i + 1], values[i] + values[i + 2], values[i + 1] + values[i + 3])
                       for i in range(0, len(values), 4)])


def _turned_size(width: float, height: float, skew: float) -> tuple[float, float]:
    """The size of a `width` x `height` page turned `skew` degrees, grown to hold all of it."""
    cos, sin = abs(math.cos(math.radians(skew))), abs(math.sin(math.radians(skew)))
    return width * cos + height * sin, width * sin + height * cos


def _by_reading_again(path: Path, file_format: str, number: int, passage: str | None, expected: float,
                      options: ParseOptions) -> PageDrawing:
    """The page drawn as an ingest reads it, the passage marked by reading it again with Tesseract."""
    if file_format == PDF.id:
        image, points_per_pixel = _pdf_page(
            path, number, lambda width, height: ocr.fitting_dpi(width / 72, height / 72, options.ocr_dpi) / 72)
    else:
        image, points_per_pixel = _image_page(path, number)
    prepared, _ = straightened(ocr.prepare_image(image))
    boxes: list[Box] = []
    note: str | None = None
    if passage:
        boxes, note = _reread_boxes(prepared, points_per_pixel, passage, expected, options)
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


def _reread_boxes(prepared: Image.Image, points_per_pixel: float, passage: str, expected: float,
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


def _pdf_page(path: Path, number: int, pixels_per_point: Callable[[float, float], float]) -> tuple[Image.Image, float]:
    """The PDF page drawn in greys at `pixels_per_point(width, height)` (its size in points); points per pixel."""
    with opened_page(path, number, _FIX) as page:
        width, height = page.get_size()
        scale = pixels_per_point(width, height)
        try:
            bitmap = page.render(scale=scale, grayscale=True)
            image = bitmap.to_pil().copy()
            bitmap.close()
        except pdfium.PdfiumError as exc:
            raise DocumentUnreadable(str(path), f"PDFium cannot draw page {number} ({exc})", _FIX) from exc
    return image, 1 / scale


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
