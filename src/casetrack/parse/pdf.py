"""PDF: the text layer via PDFium, OCR for pages that are only a picture of text.

PDFium was chosen by measurement (benchmarks/parse_pdf.py, 224 pages of the dev PDFs on
a shared 2-core machine): its text page costs ~3.5 ms/page against ~25 ms/page for pypdf
and ~240 ms/page for pdfplumber, its line order is the content order a reader follows,
and it gives the word overlap with the reference text of 0.995-1.0. Lines come from PDFium's own line
breaks; paragraph breaks are inferred from their positions (see `layout`), which on a page
with /Rotate are first measured in the frame its text reads in (`_turned_lines`).

PDFium is not thread-safe, even across documents, so every call into it holds
`PDFIUM_LOCK`; OCR of rendered pages runs outside the lock.
"""

from __future__ import annotations

import ctypes
import math
import re
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from casetrack.domain import ExtractionMethod, ParsedDocument, ParsedPage
from casetrack.errors import DocumentUnreadable
from casetrack.parse import ocr
from casetrack.parse.layout import (
    SAME_LINE_FRACTION,
    PageLines,
    furniture_in_place,
    join_columns,
    margin_numbers_inline,
)
from casetrack.parse.normalize import normalize_page_text
from casetrack.parse.options import ParseOptions

PDFIUM_LOCK = threading.RLock()
_NOT_WORD_CHARS = re.compile(r"[\W_]+")
# Counting letters and digits costs ~0.15 ms on a full page; a text page shows it has enough
# within its first few hundred characters; only a page that does not is counted in full.
_ENOUGH_TEXT_PREFIX = 400

# A page is treated as scanned when a picture covers most of it and it carries less text
# than a short paragraph: e-filing stamps ("Case 17-3510, Document 1-1, Page 1 of 2") add
# ~60 characters of real text on top of a scan, and must not stop the scan being read.
SCAN_IMAGE_COVERAGE = 0.5
SCAN_MAX_TEXT_CHARS = 200
# Any picture with (almost) no text: a small scan pasted on an otherwise empty page.
SMALL_SCAN_COVERAGE = 0.05
SMALL_SCAN_MAX_TEXT_CHARS = 20

# Characters no text layer holds for a reader: C0 controls (not tab or line breaks), private use, U+FFFD.
_GLYPH_CODES = re.compile(r"[\x00-\x08\x0e-\x1f\ue000-\uf8ff\ufffd]")
UNDECODABLE_MIN_CODES = 20
UNDECODABLE_SHARE = 0.2

_METADATA_KEYS = {"Title": "title", "Author": "author", "Subject": "subject", "CreationDate": "created"}
_UNDECODABLE_NOTE = "This page's text layer could not be decoded (its font has no character map)"
_SHAPES_NOTE = "This page has no text layer; its words are drawn as shapes (outlined or flattened text)"
# Outlined text draws each glyph or word as a path: a short page has hundreds. A blank page has none, a
# rule or a signature line a few; a page of such drawings with no text at all is worth one OCR pass.
SHAPES_MIN_PATHS = 100
_PDF_UNREADABLE = "PDF parsing error (file may be corrupted or incomplete)"
_PDF_UNREADABLE_FIX = "Re-download or re-export the PDF (for example with Print to PDF) and ingest it again."


@dataclass(frozen=True, slots=True)
class _PageScan:
    """What the text layer of one page gave, and whether the page must be OCR'd instead."""

    text: str
    needs_ocr: bool
    image_dpi: int | None  # resolution of the page's main picture, for rendering it without resampling
    note: str | None = None  # why a page that is no scan goes to OCR (its text layer is glyph codes, or shapes)


def parse_pdf(path: Path, options: ParseOptions) -> ParsedDocument:
    """Parse a PDF. Raises DocumentUnreadable for corrupt, truncated, encrypted or empty PDFs."""
    with PDFIUM_LOCK:
        document = _open(path)
    try:
        with PDFIUM_LOCK:
            metadata = _metadata(document)
            scans = []
            for index in range(len(document)):
                try:
                    scans.append(_scan_page(document, index))
                except pdfium.PdfiumError as exc:
                    raise DocumentUnreadable(
                        str(path), f"{_PDF_UNREADABLE} at page {index + 1}", _PDF_UNREADABLE_FIX
                    ) from exc
        if not scans:
            raise DocumentUnreadable(str(path), "the PDF has no pages", "Check that it opens in a PDF viewer.")
        return _assemble(path, document, scans, metadata, options)
    finally:
        with PDFIUM_LOCK:
            document.close()


def _open(path: Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(path)
    except pdfium.PdfiumError as exc:
        if exc.err_code == pdfium_c.FPDF_ERR_PASSWORD:
            raise DocumentUnreadable(
                str(path),
                "the PDF is password-protected",
                "Remove the password (open it in a PDF viewer, then print or save it as a new PDF without "
                "security) and ingest that copy.",
            ) from exc
        if exc.err_code == pdfium_c.FPDF_ERR_SECURITY:
            raise DocumentUnreadable(
                str(path), "the PDF uses an unsupported encryption scheme", "Save an unencrypted copy and ingest that."
            ) from exc
        raise DocumentUnreadable(str(path), _PDF_UNREADABLE, _PDF_UNREADABLE_FIX) from exc


def _metadata(document: pdfium.PdfDocument) -> dict[str, str]:
    try:
        raw = document.get_metadata_dict(skip_empty=True)
    except pdfium.PdfiumError:
        return {}
    return {name: str(raw[key]).strip() for key, name in _METADATA_KEYS.items() if str(raw.get(key, "")).strip()}


def _scan_page(document: pdfium.PdfDocument, index: int) -> _PageScan:
    page = document[index]
    try:
        textpage = page.get_textpage()
        try:
            # Read once per page: only a page with /Rotate can carry text drawn turned, and the
            # common unrotated page keeps the fast path.
            rotation = page.get_rotation()
            lines = _turned_lines(textpage, rotation) if rotation else _positioned_lines(textpage)
            joined = join_columns(furniture_in_place(margin_numbers_inline(lines)))
            text = normalize_page_text(joined)
        finally:
            textpage.close()
        if undecodable(joined):
            return _PageScan(text, needs_ocr=True, image_dpi=None, note=_UNDECODABLE_NOTE)
        text_chars = _word_chars(text[:_ENOUGH_TEXT_PREFIX])
        if text_chars < SCAN_MAX_TEXT_CHARS and len(text) > _ENOUGH_TEXT_PREFIX:
            text_chars = _word_chars(text)
        if text_chars >= SCAN_MAX_TEXT_CHARS:
            return _PageScan(text, needs_ocr=False, image_dpi=None)  # the common case: skip the image census
        coverage, image_dpi = _image_census(page)
        needs_ocr = (coverage >= SCAN_IMAGE_COVERAGE) or (
            coverage >= SMALL_SCAN_COVERAGE and text_chars < SMALL_SCAN_MAX_TEXT_CHARS
        )
        if not needs_ocr and text_chars < SMALL_SCAN_MAX_TEXT_CHARS and _drawn_with_shapes(page):
            return _PageScan(text, needs_ocr=True, image_dpi=None, note=_SHAPES_NOTE)
        return _PageScan(text, needs_ocr=needs_ocr, image_dpi=image_dpi)
    finally:
        page.close()


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


def _drawn_with_shapes(page: pdfium.PdfPage) -> bool:
    """Whether a page without text draws at least SHAPES_MIN_PATHS paths (counting stops there)."""
    paths = page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_PATH,), max_depth=4)
    return sum(1 for _ in islice(paths, SHAPES_MIN_PATHS)) >= SHAPES_MIN_PATHS


def _word_chars(text: str) -> int:
    return len(_NOT_WORD_CHARS.sub("", text))  # C-speed count; a per-character loop cost ~2 ms/page


def _unchecked(function: Any) -> Any:
    """`function` without its ctypes argument types: ctypes then passes ints and pointers as they
    are instead of converting each through its declared type, which made these calls 2.5x
    slower (three per line, ~50 lines a page). Only for functions taking ints and pointers."""
    bare = type(function)(ctypes.cast(function, ctypes.c_void_p).value)
    bare.restype = function.restype
    return bare


_char_index = _unchecked(pdfium_c.FPDFText_GetCharIndexFromTextIndex)
_char_origin = _unchecked(pdfium_c.FPDFText_GetCharOrigin)
_loose_char_box = _unchecked(pdfium_c.FPDFText_GetLooseCharBox)
_char_angle = _unchecked(pdfium_c.FPDFText_GetCharAngle)
_QUARTER_TURN = math.pi / 2


def _visible_lines(text: str) -> Iterator[tuple[str, int]]:
    """Each non-blank line of PDFium's page text (it ends each with a generated CR LF), stripped,
    with the offset of its first visible character in `text`."""
    position = 0
    for raw_line in text.split("\r\n"):
        length = len(raw_line)
        line_text = raw_line.lstrip()
        start = position + length - len(line_text)
        position += length + 2
        if line_text:
            yield line_text.rstrip(), start


def _positioned_lines(textpage: pdfium.PdfTextPage) -> PageLines:
    """PDFium's lines (it ends each with a generated CR LF), each placed by its first visible character."""
    text = textpage.get_text_range()
    handle = textpage.raw
    x, y = ctypes.c_double(), ctypes.c_double()
    box = pdfium_c.FS_RECTF()
    x_out, y_out, box_out = ctypes.byref(x), ctypes.byref(y), ctypes.byref(box)
    lines = PageLines()
    texts, lefts, baselines, heights = lines.texts, lines.lefts, lines.baselines, lines.heights
    for line_text, start in _visible_lines(text):
        texts.append(line_text)
        char_index = _char_index(handle, start)
        if (
            char_index >= 0
            and _char_origin(handle, char_index, x_out, y_out)
            and _loose_char_box(handle, char_index, box_out)
        ):
            lefts.append(x.value)
            baselines.append(y.value)
            heights.append(abs(box.top - box.bottom))
        elif lefts:  # position unknown: keep it with the line before
            lefts.append(lefts[-1])
            baselines.append(baselines[-1])
            heights.append(heights[-1])
        else:
            lefts.append(0.0)
            baselines.append(0.0)
            heights.append(0.0)
    return lines


def _turned_lines(textpage: pdfium.PdfTextPage, rotation: int) -> PageLines:
    """`_positioned_lines` for a page with /Rotate (`rotation` degrees clockwise), measured in
    the frame its text reads in.

    PDFium gives positions in the unrotated page's space. A landscape page is usually a
    portrait page with /Rotate 90 or 270 whose content is drawn a quarter turn the other way:
    there its text runs up or down the page and its lines follow each other sideways, so
    measured as drawn every line sat on one "baseline" and no paragraph break was found. Each
    line is turned by the quarter turns of the page's usual text direction, so that text runs
    left to right and lines go down, as on a portrait page. Rare, so not tuned like the above.
    """
    text = textpage.get_text_range()
    handle = textpage.raw
    x, y = ctypes.c_double(), ctypes.c_double()
    box = pdfium_c.FS_RECTF()
    texts: list[str] = []
    placed: list[tuple[float, float, float, float] | None] = []  # origin x, y; box height, width
    turns: Counter[int] = Counter()
    for line_text, start in _visible_lines(text):
        texts.append(line_text)
        char_index = _char_index(handle, start)
        if (
            char_index >= 0
            and _char_origin(handle, char_index, ctypes.byref(x), ctypes.byref(y))
            and _loose_char_box(handle, char_index, ctypes.byref(box))
        ):
            placed.append((x.value, y.value, abs(box.top - box.bottom), abs(box.right - box.left)))
            angle = _char_angle(handle, char_index)  # radians clockwise in page space, -1 if unknown
            if angle >= 0:
                turns[round(angle / _QUARTER_TURN) % 4] += 1
        else:
            placed.append(None)
    turn = turns.most_common(1)[0][0] if turns else 0
    rows: list[_Row] = []
    for line_text, position_and_box in zip(texts, placed, strict=True):
        if position_and_box is not None:
            rows.append((line_text, *_in_reading_frame(*position_and_box, turn)))
        else:  # position unknown: keep it with the line before
            rows.append((line_text, *(rows[-1][1:] if rows else (0.0, 0.0, 0.0))))
    if (turn + rotation // 90) % 4 == 1:
        rows = _top_down(rows)
    lines = PageLines()
    for row in rows:
        lines.append(*row)
    return lines


_Row = tuple[str, float, float, float]  # text, left, baseline, height


def _in_reading_frame(x: float, y: float, box_height: float, box_width: float, turn: int) -> tuple[float, float, float]:
    """(left, baseline, height) of a line whose first character has its origin at (x, y) and a
    loose box of that size, for text turned `turn` quarter turns clockwise in page space. Only
    differences between lines matter to `layout`, so nothing moves them back onto the page."""
    if turn == 1:  # runs down the page; the next line lies to its left
        return -y, x, box_width
    if turn == 2:  # upside down
        return -x, -y, box_height
    if turn == 3:  # runs up the page; the next line lies to its right
        return y, -x, box_width
    return x, y, box_height


def _top_down(rows: list[_Row]) -> list[_Row]:
    """Lines of text that runs down the screen, put back in reading order.

    PDFium orders text objects that start at the same height on screen from left to right
    (CPDF_TextPage::ProcessTextObject). On a page whose text runs down the screen (a portrait
    page turned clockwise in a viewer and saved), lines that start at one left edge start at
    the same height on screen, so each run of them comes bottom line first: reversing every
    run of lines at one left edge that climbs up the page restores top to bottom.
    """
    ordered: list[_Row] = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i < len(rows):
            _, previous_left, previous_baseline, previous_height = rows[i - 1]
            _, left, baseline, height = rows[i]
            tolerance = SAME_LINE_FRACTION * max(height, previous_height, 1.0)
            if abs(left - previous_left) < tolerance and baseline - previous_baseline > tolerance:
                continue
        ordered.extend(reversed(rows[start:i]))
        start = i
    return ordered


def _image_census(page: pdfium.PdfPage) -> tuple[float, int | None]:
    """Share of the page covered by pictures (0-1, overlaps counted once at most up to 1),
    and the pixel density of the largest picture."""
    width, height = page.get_size()
    page_area = max(width * height, 1.0)
    covered = 0.0
    largest_area, largest_dpi = 0.0, None
    for image in page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,), max_depth=4):
        left, bottom, right, top = image.get_bounds()
        left, right = max(left, 0.0), min(right, width)
        bottom, top = max(bottom, 0.0), min(top, height)
        if right <= left or top <= bottom:
            continue
        area = (right - left) * (top - bottom)
        covered += area
        if area > largest_area:
            largest_area = area
            pixels_wide, _ = image.get_px_size()
            largest_dpi = round(pixels_wide / ((right - left) / 72)) if pixels_wide else None
    return min(covered / page_area, 1.0), largest_dpi


def _assemble(
    path: Path, document: pdfium.PdfDocument, scans: list[_PageScan], metadata: dict[str, str], options: ParseOptions
) -> ParsedDocument:
    scanned = [index for index, scan in enumerate(scans) if scan.needs_ocr]
    ocr_results: dict[int, ocr.OcrResult] = {}
    warnings: list[str] = []
    if scanned:
        status = ocr.ocr_status(options)
        if status.available:
            images = _rendered(path, document, scanned, scans, options)
            ocr_results = dict(zip(scanned, ocr.recognize_all(images, options), strict=True))
        else:
            ocr_results = {
                index: ocr.skipped(
                    f"{scans[index].note or 'This page is a scanned image'} and OCR is off: {status.detail}"
                )
                for index in scanned
            }
    pages = []
    for index, scan in enumerate(scans):
        result = ocr_results.get(index)
        if result is not None and scan.note and result.method is ExtractionMethod.OCR:
            result = replace(result, warnings=(f"{scan.note}; the page was read by OCR.", *result.warnings))
        if result is None:
            pages.append(ParsedPage(number=index + 1, text=scan.text, method=ExtractionMethod.NATIVE))
        else:
            pages.append(
                ParsedPage(
                    number=index + 1,
                    text=normalize_page_text(result.text),
                    method=result.method,
                    ocr_confidence=result.confidence,
                    warnings=result.warnings,
                )
            )
    skipped = [page.number for page in pages if page.method is ExtractionMethod.SKIPPED]
    if skipped:
        reasons = sorted({warning for page in pages for warning in page.warnings})
        warnings.append(f"{len(skipped)} scanned page(s) have no text ({_page_list(skipped)}): {' '.join(reasons)}")
    return ParsedDocument(format="pdf", pages=tuple(pages), metadata=metadata, warnings=tuple(warnings))


def _rendered(
    path: Path, document: pdfium.PdfDocument, indexes: list[int], scans: list[_PageScan], options: ParseOptions
) -> Iterator[ocr.PageImage]:
    for index in indexes:
        # Render at the scan's own resolution when it is lower than the limit: resampling a
        # 150-dpi scan up to 200 dpi measurably cost Tesseract words on the dev scans.
        dpi = min(options.ocr_dpi, max(scans[index].image_dpi or options.ocr_dpi, 72))
        with PDFIUM_LOCK:
            page = document[index]
            try:
                bitmap = page.render(scale=dpi / 72, grayscale=True)
                # A private copy, so the PDFium bitmap is freed here under the lock rather than
                # by the garbage collector on an OCR thread.
                image = bitmap.to_pil().copy()
                bitmap.close()
            except pdfium.PdfiumError as exc:
                reason = f"{_PDF_UNREADABLE} (page {index + 1} could not be rendered for OCR)"
                raise DocumentUnreadable(str(path), reason, _PDF_UNREADABLE_FIX) from exc
            finally:
                page.close()
        yield ocr.PageImage(image=image, dpi=dpi)


def _page_list(numbers: list[int]) -> str:
    shown = ", ".join(str(number) for number in numbers[:10])
    return f"pages {shown}{', ...' if len(numbers) > 10 else ''}" if len(numbers) > 1 else f"page {shown}"
