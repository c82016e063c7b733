"""PDF: the text layer via PDFium, OCR for pages that are only a picture of text.

PDFium was chosen by measurement (benchmarks/parse_pdf.py, 224 pages of the dev PDFs on
a shared 2-core machine): its text page costs ~3.5 ms/page against ~25 ms/page for pypdf
and ~240 ms/page for pdfplumber, its line order is the content order a reader follows,
and it gives the word overlap with the reference text of 0.995-1.0. Lines come from PDFium's own line
breaks; paragraph breaks are inferred from their positions (see `layout`), which on a page
with /Rotate are first measured in the frame its text reads in (`pdf_lines`). A page whose text
layer lacks what it shows (annotations, glyph codes, words drawn as shapes) is handled by
`pdf_text_layer`.

PDFium is not thread-safe, even across documents, so every call into it holds
`PDFIUM_LOCK`; OCR of rendered pages runs outside the lock. A second core is used through
a second process instead: the helper process (`casetrack.helper_process`) reads the second
half of a long PDF with its own PDFium while this process reads the first.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from casetrack import cancel, helper_process
from casetrack.domain import ExtractionMethod, ParsedDocument, ParsedPage
from casetrack.errors import DocumentUnreadable
from casetrack.parse.formats import PDF
from casetrack.parse.layout import (
    furniture_in_place,
    join_columns,
    margin_numbers_inline,
)
from casetrack.parse.normalize import normalize_page_text, word_chars
from casetrack.parse.ocr import engine as ocr
from casetrack.parse.options import ParseOptions
from casetrack.parse.pdf.lines import positioned_lines, turned_lines, with_overlays_in_place
from casetrack.parse.pdf.text_layer import (
    SHAPES_NOTE,
    UNDECODABLE_NOTE,
    annotations_flattened,
    drawn_with_shapes,
    undecodable,
)

PDFIUM_LOCK = threading.RLock()
# Below this many pages a PDF is read in ~20 ms, and handing half to the helper process gains little.
SPLIT_MIN_PAGES = 16
# The helper's half of the pages takes about as long as this process's half; past this (plus four times
# that), something is wrong with it, and this process reads its pages instead.
HELPER_TIMEOUT_S = 20.0
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


_METADATA_KEYS = {"Title": "title", "Author": "author", "Subject": "subject", "CreationDate": "created"}
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
        count = len(document)
        # The helper process reads the second half of a long PDF while this one reads the first.
        call = helper_process.try_submit(scan_pages, str(path), count // 2, count) if count >= SPLIT_MIN_PAGES else None
        with call or contextlib.nullcontext():
            started = time.perf_counter()
            with PDFIUM_LOCK:
                metadata = _metadata(document)
                scans = _scan_pages(path, document, 0, count if call is None else count // 2)
            if call is not None:
                scans += _helper_scans(call, path, document, count // 2, count, time.perf_counter() - started)
        if not scans:
            raise DocumentUnreadable(str(path), "the PDF has no pages", "Check that it opens in a PDF viewer.")
        return _assemble(path, document, scans, metadata, options)
    finally:
        with PDFIUM_LOCK:
            document.close()


def scan_pages(path: str, start: int, stop: int) -> list[_PageScan]:
    """Pages start..stop-1 of the PDF at `path`, read in the helper process (its own PDFium)."""
    document = pdfium.PdfDocument(path)
    try:
        return [_scan_page(document, index) for index in range(start, stop)]
    finally:
        document.close()


def _scan_pages(path: Path, document: pdfium.PdfDocument, start: int, stop: int) -> list[_PageScan]:
    scans = []
    for index in range(start, stop):
        cancel.checkpoint()
        try:
            scans.append(_scan_page(document, index))
        except pdfium.PdfiumError as exc:
            raise DocumentUnreadable(
                str(path), f"{_PDF_UNREADABLE} at page {index + 1}", _PDF_UNREADABLE_FIX
            ) from exc
    return scans


def _helper_scans(call: helper_process.Call[list[_PageScan]], path: Path, document: pdfium.PdfDocument,
                  start: int, stop: int, own_seconds: float) -> list[_PageScan]:
    """The helper's pages; if it fails (or a bad page stopped it), this process reads them."""
    work = f"read pages {start + 1}-{stop} of {path.name}"
    scans = call.result_or_none(HELPER_TIMEOUT_S + 4 * own_seconds, work)
    if scans is None:
        with PDFIUM_LOCK:
            scans = _scan_pages(path, document, start, stop)
    return scans


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
    page, content_chars = annotations_flattened(document, index, document[index])
    try:
        textpage = page.get_textpage()
        try:
            # Read once per page: only a page with /Rotate can carry text drawn turned, and the
            # common unrotated page keeps the fast path.
            rotation = page.get_rotation()
            if rotation:
                lines = turned_lines(textpage, rotation)
            elif content_chars is None:
                lines = positioned_lines(textpage)
            else:
                lines = with_overlays_in_place(textpage, content_chars)
            joined = join_columns(furniture_in_place(margin_numbers_inline(lines)))
            text = normalize_page_text(joined)
        finally:
            textpage.close()
        # normalize_page_text hands back the very string when it had nothing to clean (no control characters),
        # so only a page it changed is looked at again for glyph codes.
        if text is not joined and undecodable(joined):
            return _PageScan(text, needs_ocr=True, image_dpi=None, note=UNDECODABLE_NOTE)
        text_chars = word_chars(text[:_ENOUGH_TEXT_PREFIX])
        if text_chars < SCAN_MAX_TEXT_CHARS and len(text) > _ENOUGH_TEXT_PREFIX:
            text_chars = word_chars(text)
        if text_chars >= SCAN_MAX_TEXT_CHARS:
            return _PageScan(text, needs_ocr=False, image_dpi=None)  # the common case: skip the image census
        coverage, image_dpi = _image_census(page)
        needs_ocr = (coverage >= SCAN_IMAGE_COVERAGE) or (
            coverage >= SMALL_SCAN_COVERAGE and text_chars < SMALL_SCAN_MAX_TEXT_CHARS
        )
        if not needs_ocr and text_chars < SMALL_SCAN_MAX_TEXT_CHARS and drawn_with_shapes(page):
            return _PageScan(text, needs_ocr=True, image_dpi=None, note=SHAPES_NOTE)
        return _PageScan(text, needs_ocr=needs_ocr, image_dpi=image_dpi)
    finally:
        page.close()


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
    ocr_results, warnings = _ocr_results(path, document, scans, options)
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
                    ocr_words=result.words,
                )
            )
    skipped = [page.number for page in pages if page.method is ExtractionMethod.SKIPPED]
    if skipped:
        reasons = sorted({warning for page in pages for warning in page.warnings})
        warnings.append(f"{len(skipped)} scanned page(s) have no text ({_page_list(skipped)}): {' '.join(reasons)}")
    return ParsedDocument(format=PDF.id, pages=tuple(pages), metadata=metadata, warnings=tuple(warnings))


def _ocr_results(
    path: Path, document: pdfium.PdfDocument, scans: list[_PageScan], options: ParseOptions
) -> tuple[dict[int, ocr.OcrResult], list[str]]:
    """OCR of the pages that need it, by page index, and the document's warnings about it."""
    scanned = [index for index, scan in enumerate(scans) if scan.needs_ocr]
    if not scanned:
        return {}, []
    status = ocr.ocr_status(options)
    if not status.available:
        return {
            index: ocr.skipped(f"{scans[index].note or 'This page is a scanned image'} and OCR is off: {status.detail}")
            for index in scanned
        }, []
    with PDFIUM_LOCK:
        plans = [_render_plan(document, index, scans[index], options) for index in scanned]
    results = dict(zip(scanned, ocr.recognize_all(_rendered(path, document, plans), options), strict=True))
    return results, _reduced_warnings([plan for plan in plans if plan.reduced])


@dataclass(frozen=True, slots=True)
class _RenderPlan:
    """How one page is rendered for OCR: its size and the resolution that keeps it within ocr.MAX_PAGE_PIXELS."""

    index: int
    inches: tuple[float, float]
    dpi: float
    wanted_dpi: int

    @property
    def reduced(self) -> bool:
        return self.dpi < self.wanted_dpi


def _render_plan(document: pdfium.PdfDocument, index: int, scan: _PageScan, options: ParseOptions) -> _RenderPlan:
    # Render at the scan's own resolution when it is lower than the limit: resampling a
    # 150-dpi scan up to 200 dpi measurably cost Tesseract words on the dev scans.
    wanted = min(options.ocr_dpi, max(scan.image_dpi or options.ocr_dpi, 72))
    width, height = (points / 72 for points in document.get_page_size(index))
    return _RenderPlan(index, (width, height), ocr.fitting_dpi(width, height, wanted), wanted)


def _reduced_warnings(reduced: list[_RenderPlan]) -> list[str]:
    """The warning naming the pages too large to read at full resolution, and the resolution each was read at."""
    if not reduced:
        return []
    shown = "; ".join(f"page {plan.index + 1} ({plan.inches[0]:,.0f} x {plan.inches[1]:,.0f} in) at {plan.dpi:.0f} "
                      f"dpi instead of {plan.wanted_dpi}" for plan in reduced[:10])
    more = f"; and {len(reduced) - 10} more" if len(reduced) > 10 else ""
    one = len(reduced) == 1
    return [f"{'1 page is' if one else f'{len(reduced)} pages are'} too large to read at full resolution, so "
            f"{'it was' if one else 'they were'} read by OCR at a lower one (each page image is kept within "
            f"{ocr.MAX_PAGE_PIXELS // 1_000_000} million pixels): {shown}{more}. Small print on "
            f"{'it' if one else 'them'} may be missed; if there is any, print {'that page' if one else 'those pages'} "
            "to a PDF of ordinary page size and ingest that as well."]


def _rendered(path: Path, document: pdfium.PdfDocument, plans: list[_RenderPlan]) -> Iterator[ocr.PageImage]:
    for plan in plans:
        cancel.checkpoint()  # each page sent to OCR (seconds each): a cancelled ingest stops here
        with PDFIUM_LOCK:
            page = document[plan.index]
            try:
                bitmap = page.render(scale=plan.dpi / 72, grayscale=True)
                # A private copy, so the PDFium bitmap is freed here under the lock rather than
                # by the garbage collector on an OCR thread.
                image = bitmap.to_pil().copy()
                bitmap.close()
            except pdfium.PdfiumError as exc:
                reason = f"{_PDF_UNREADABLE} (page {plan.index + 1} could not be rendered for OCR)"
                raise DocumentUnreadable(str(path), reason, _PDF_UNREADABLE_FIX) from exc
            finally:
                page.close()
        yield ocr.PageImage(image=image, dpi=max(round(plan.dpi), 1))


def _page_list(numbers: list[int]) -> str:
    shown = ", ".join(str(number) for number in numbers[:10])
    return f"pages {shown}{', ...' if len(numbers) > 10 else ''}" if len(numbers) > 1 else f"page {shown}"
