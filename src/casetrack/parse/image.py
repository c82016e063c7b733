"""Scanned images (PNG, JPEG, TIFF): one page per image, one page per TIFF frame, read by OCR."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from PIL import Image, ImageOps, UnidentifiedImageError

from casetrack.domain import ParsedDocument, ParsedPage
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import IMAGE_ID
from casetrack.parse.normalize import normalize_page_text
from casetrack.parse.ocr import engine as ocr
from casetrack.parse.options import ParseOptions

_UNREADABLE_FIX = "Check that it opens in an image viewer; re-scan or re-export it if not."


def parse_image(path: Path, options: ParseOptions) -> ParsedDocument:
    """OCR every page of an image file. Without Tesseract every page is recorded SKIPPED with
    a warning naming the fix. Raises DocumentUnreadable for corrupt or oversized images."""
    try:
        with Image.open(path) as image:
            frame_count = getattr(image, "n_frames", 1)
            status = ocr.ocr_status(options)
            if status.available:
                results = ocr.recognize_all(_frames(path, image), options)
            else:
                reason = f"This page is a scanned image and OCR is off: {status.detail}"
                results = [ocr.skipped(reason)] * frame_count
    except (UnidentifiedImageError, Image.DecompressionBombError, OSError, SyntaxError) as exc:
        # Pillow reports truncated and malformed files as OSError (SyntaxError for some TIFF tags).
        raise DocumentUnreadable(str(path), f"the image could not be decoded ({exc})", _UNREADABLE_FIX) from exc
    pages = tuple(
        ParsedPage(
            number=number,
            text=normalize_page_text(result.text),
            method=result.method,
            ocr_confidence=result.confidence,
            warnings=result.warnings,
            ocr_words=result.words,
        )
        for number, result in enumerate(results, start=1)
    )
    warnings = sorted({warning for page in pages for warning in page.warnings})
    return ParsedDocument(format=IMAGE_ID, pages=pages, metadata={"frames": str(frame_count)}, warnings=tuple(warnings))


def _frames(path: Path, image: Image.Image) -> Iterator[ocr.PageImage]:
    for index in range(getattr(image, "n_frames", 1)):
        image.seek(index)
        frame = image.copy()  # decodes now, in this thread; seek() reuses the file handle
        if image.format == "JPEG":
            frame = ImageOps.exif_transpose(frame)  # phone photos of documents are often stored sideways
        yield ocr.PageImage(image=frame, dpi=_dpi(image))


def _dpi(image: Image.Image) -> int | None:
    dpi = image.info.get("dpi")
    try:
        value = round(float(dpi[0])) if dpi else 0
    except (TypeError, ValueError, IndexError):
        return None
    return value if 100 <= value <= 1200 else None  # 1, 72 or 96 dpi are editors' placeholders, not scans
