"""PDF structure: lines and paragraphs from positions, scanned-page detection, mixed PDFs."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter

from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.parse import ParseOptions, ocr_available, parse_file
from casetrack.parse.layout import PositionedLine, join_lines
from tests.badfiles import text_pdf_bytes

from .synthetic import image_pdf_bytes, text_image

needs_tesseract = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
NO_TESSERACT = ParseOptions(tesseract_cmd="/nonexistent/bin/tesseract")
SCANNED_LINES = ["ORDER OF THE COURT", "The motion to compel discovery is granted."]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_lines_stay_lines_and_gaps_become_paragraph_breaks(tmp_path: Path) -> None:
    lines = [
        (72, 700, "1. Definitions"),
        (72, 672, "Agreement means this agreement and its"),
        (72, 658, "schedules, as amended."),
        (72, 630, "2. Term"),
        (72, 602, "This Agreement starts on the Effective Date."),
    ]
    [page] = parse_file(write(tmp_path / "a.pdf", text_pdf_bytes([lines]))).pages
    assert page.text == (
        "1. Definitions\n\nAgreement means this agreement and its\nschedules, as amended.\n\n"
        "2. Term\n\nThis Agreement starts on the Effective Date."
    )
    assert page.method is ExtractionMethod.NATIVE


def test_double_spaced_paragraphs_split_at_first_line_indents() -> None:
    pitch = 28.0
    rows = [
        "    The plaintiff filed suit on May 1.",
        "The court dismissed the claim.",
        "    On appeal, the plaintiff argues",
        "that the court erred.",
    ]
    lines = [
        PositionedLine(text.strip(), 108.0 if text.startswith(" ") else 72.0, 700 - pitch * index, 12.0)
        for index, text in enumerate(rows)
    ]
    assert join_lines(lines) == (
        "The plaintiff filed suit on May 1.\nThe court dismissed the claim.\n\n"
        "On appeal, the plaintiff argues\nthat the court erred."
    )


def test_text_jumping_back_up_the_page_starts_a_paragraph() -> None:
    lines = [
        PositionedLine("Body line one", 72, 700, 12),
        PositionedLine("Body line two", 72, 686, 12),
        PositionedLine("Header", 72, 760, 12),
    ]
    assert join_lines(lines) == "Body line one\nBody line two\n\nHeader"


def test_page_count_metadata_and_blank_pages(tmp_path: Path) -> None:
    data = text_pdf_bytes([[(72, 700, "First page")], [], [(72, 700, "Third page")]])
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_metadata({"/Title": "Deposition of J. Smith", "/Author": "Court Reporter"})
    buffer = io.BytesIO()
    writer.write(buffer)
    document = parse_file(write(tmp_path / "b.pdf", buffer.getvalue()))
    assert [page.text for page in document.pages] == ["First page", "", "Third page"]
    # an empty page with no picture is a blank page, not a scan: nothing to OCR, nothing skipped
    assert [page.method for page in document.pages] == [ExtractionMethod.NATIVE] * 3
    assert document.metadata["title"] == "Deposition of J. Smith"
    assert document.metadata["author"] == "Court Reporter"
    assert document.format == "pdf"


def mixed_pdf(tmp_path: Path, *, stamp: bool = False) -> Path:
    """Page 1 has a text layer; page 2 is a picture of text (optionally with an e-filing stamp in real text)."""
    text_page = text_pdf_bytes([[(72, 700, "Plaintiff's exhibit list, filed with the complaint.")]])
    scan_page = image_pdf_bytes([text_image(SCANNED_LINES)])
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(text_page)))
    writer.append(PdfReader(io.BytesIO(scan_page)))
    if stamp:
        header = PdfReader(
            io.BytesIO(text_pdf_bytes([[(72, 775, "Case 1:21-cv-00042 Document 12 Filed 03/04/21 Page 2 of 2")]]))
        )
        writer.pages[1].merge_page(header.pages[0])
    buffer = io.BytesIO()
    writer.write(buffer)
    return write(tmp_path / "mixed.pdf", buffer.getvalue())


@needs_tesseract
def test_a_mixed_pdf_ocrs_only_its_scanned_page(tmp_path: Path) -> None:
    document = parse_file(mixed_pdf(tmp_path))
    native, scanned = document.pages
    assert native.method is ExtractionMethod.NATIVE and native.ocr_confidence is None
    assert native.text == "Plaintiff's exhibit list, filed with the complaint."
    assert scanned.method is ExtractionMethod.OCR
    assert "motion to compel discovery is granted" in scanned.text
    assert scanned.ocr_confidence is not None and scanned.ocr_confidence > 80


@needs_tesseract
def test_a_scan_with_an_e_filing_stamp_is_still_ocred(tmp_path: Path) -> None:
    scanned = parse_file(mixed_pdf(tmp_path, stamp=True)).pages[1]
    assert scanned.method is ExtractionMethod.OCR
    assert "motion to compel discovery is granted" in scanned.text


def test_a_mixed_pdf_without_tesseract_skips_only_the_scanned_page(tmp_path: Path) -> None:
    document = parse_file(mixed_pdf(tmp_path), NO_TESSERACT)
    assert [page.method for page in document.pages] == [ExtractionMethod.NATIVE, ExtractionMethod.SKIPPED]
    assert document.pages[0].text.startswith("Plaintiff's exhibit list")
    assert document.pages[1].text == ""
    assert "apt install tesseract-ocr" in document.pages[1].warnings[0]
    assert "1 scanned page(s) have no text (page 2)" in document.warnings[0]


@needs_tesseract
@pytest.mark.slow
def test_parallel_ocr_matches_serial_ocr(tmp_path: Path) -> None:
    pages = [
        text_image([f"Schedule {number}", "Payments are due on the first business day."]) for number in range(1, 5)
    ]
    path = write(tmp_path / "scan.pdf", image_pdf_bytes(pages))
    serial = parse_file(path, ParseOptions(ocr_workers=1))
    parallel = parse_file(path, ParseOptions(ocr_workers=3))
    assert [page.text for page in serial.pages] == [page.text for page in parallel.pages]
    assert [f"Schedule {number}" in page.text for number, page in enumerate(parallel.pages, start=1)] == [True] * 4


def picture_page_with_text(tmp_path: Path, lines: list[tuple[int, int, str]]) -> ParsedPage:
    """A scanned picture with a small-font text layer of `lines` laid over it, parsed without Tesseract."""
    text_layer = PdfReader(io.BytesIO(text_pdf_bytes([lines], font_size=6)))
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(image_pdf_bytes([text_image(SCANNED_LINES)]))))
    writer.pages[0].merge_page(text_layer.pages[0])
    buffer = io.BytesIO()
    writer.write(buffer)
    return parse_file(write(tmp_path / "leaders.pdf", buffer.getvalue()), NO_TESSERACT).pages[0]


def test_a_picture_page_with_enough_text_after_a_long_run_of_dots_stays_native(tmp_path: Path) -> None:
    """The scan test counts letters in the page's opening characters first and counts the whole page only
    when those fall short: text far down the page (after dot leaders, say) still counts."""
    leaders = [(72, 740 - 14 * n, "." * 100) for n in range(12)]
    words = [(72, 540 - 14 * n, "The parties agree to the schedule of payments set out below") for n in range(5)]
    page = picture_page_with_text(tmp_path, leaders + words)
    assert page.text.index("The parties") > 1000
    assert page.method is ExtractionMethod.NATIVE


def test_a_picture_page_with_only_a_little_text_is_still_a_scan(tmp_path: Path) -> None:
    leaders = [(72, 740 - 14 * n, "." * 100) for n in range(12)]
    page = picture_page_with_text(tmp_path, [*leaders, (72, 540, "Exhibit 4")])
    assert page.method is ExtractionMethod.SKIPPED
