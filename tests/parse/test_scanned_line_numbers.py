"""Scanned pleading paper is cited by the line numbers printed down its margin, as the same page with a
text layer is: Tesseract alone reads the column of numbers as noise ("k WwW N") or drops it, and
every cited line would be a count of lines that matches nothing on the paper."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFilter

from casetrack.chunk import chunk_pages
from casetrack.chunk.layout import PageLayout
from casetrack.domain import DocumentType, ExtractionMethod
from casetrack.parse import ocr_available, parse_file
from casetrack.parse.ocr.margin import MarginRows, OcrWord, has_marked_rows, margin_rows, numbered_text

from .evaldev import parsed
from .synthetic import image_pdf_bytes, render_pdf_pages, text_image
from .test_ocr import SCANS
from .test_printed_line_numbers import pleading_pdf

needs_tesseract = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


def scanned(image: Image.Image, seed: int = 7) -> Image.Image:
    """`image` as a tired office scanner gives it back: a half-degree skew, soft focus, speckle."""
    page = image.convert("L").rotate(0.5, resample=Image.Resampling.BICUBIC, fillcolor=255)
    page = page.filter(ImageFilter.GaussianBlur(0.8))
    draw, rng = ImageDraw.Draw(page), random.Random(seed)
    for _ in range(1500):
        x, y = rng.randrange(page.width), rng.randrange(page.height)
        draw.point((x, y), fill=rng.choice((0, 90, 170)))
    return page


def pleading_scan(tmp_path: Path, dpi: int = 200) -> list[Image.Image]:
    return [scanned(page, seed) for seed, page in enumerate(render_pdf_pages(
        pleading_pdf(tmp_path / "complaint.pdf").read_bytes(), dpi))]


def cited_lines(text: str) -> dict[str, int]:
    layout = PageLayout.of(text)
    return {phrase: layout.line_at(text.index(phrase)) for phrase in
            ("SMITH LAW GROUP", "42 U.S.C. 1983", "3. On January 15, 2021", "terminated Plaintiff")}


@needs_tesseract
@pytest.mark.parametrize("dpi", [200, 150])
def test_a_scanned_pleading_page_is_cited_by_its_printed_line_numbers(tmp_path: Path, dpi: int) -> None:
    image = pleading_scan(tmp_path, dpi)[0]
    image.save(tmp_path / "complaint.png", dpi=(dpi, dpi))
    page = parse_file(tmp_path / "complaint.png").pages[0]
    assert page.method is ExtractionMethod.OCR
    assert cited_lines(page.text) == {"SMITH LAW GROUP": 2, "42 U.S.C. 1983": 18, "3. On January 15, 2021": 22,
                                      "terminated Plaintiff": 23}
    assert page.text.startswith("1 JOHN SMITH (SBN 123456)\n2 SMITH LAW GROUP\n")
    assert "WwW" not in page.text and "\n5\n" not in page.text  # the misread margin is gone, empty rows add nothing
    assert page.text.rstrip().endswith("COMPLAINT - 1")
    layout = PageLayout.of(page.text)
    venue, january = page.text.index("2. Venue"), page.text.index("3. On January")
    assert layout.paragraph_at(january) > layout.paragraph_at(venue)  # the empty row 21 between them
    [first, *_] = chunk_pages([page], DocumentType.PLEADING)
    assert (first.line_start, first.line_end) == (1, 23)


@needs_tesseract
def test_a_scanned_pleading_pdf_numbers_every_page(tmp_path: Path) -> None:
    path = tmp_path / "complaint-scan.pdf"
    path.write_bytes(image_pdf_bytes(pleading_scan(tmp_path)))
    document = parse_file(path)
    assert [p.method for p in document.pages] == [ExtractionMethod.OCR] * 2
    for page in document.pages:
        assert cited_lines(page.text)["3. On January 15, 2021"] == 22


@needs_tesseract
def test_a_scan_without_numbered_rows_keeps_tesseracts_reading(tmp_path: Path) -> None:
    lines = ["ORDER OF THE COURT", "The motion to compel discovery is granted.", "Dated March 4, 2025."]
    image = scanned(text_image(lines * 6))
    image.save(tmp_path / "order.png", dpi=(200, 200))
    page = parse_file(tmp_path / "order.png").pages[0]
    assert PageLayout.of(page.text).printed is None
    assert page.text.startswith("ORDER OF THE COURT\n")


@needs_tesseract
@pytest.mark.parametrize("name", SCANS)
def test_eval_dev_scans_print_no_line_numbers_and_get_none(name: str) -> None:
    assert all(PageLayout.of(page.text).printed is None for page in parsed(name).pages)


def _rows_image(marks: int, pitch: int, rule: bool) -> Image.Image:
    image = Image.new("L", (200, 2200), 255)
    draw = ImageDraw.Draw(image)
    for n in range(marks):
        draw.rectangle((60, 150 + n * pitch, 80, 175 + n * pitch), fill=0)
    if rule:
        draw.line((180, 0, 180, 2199), fill=0, width=3)
    return image


@pytest.mark.parametrize(("marks", "pitch", "rule", "numbered"), [
    (28, 67, True, True), (25, 80, False, True), (5, 67, False, False), (0, 67, True, False),
])
def test_a_strip_looks_numbered_only_with_enough_evenly_spaced_marks(
    marks: int, pitch: int, rule: bool, numbered: bool
) -> None:
    assert has_marked_rows(_rows_image(marks, pitch, rule), text_height=28) is numbered


def _words(read: list[tuple[int, str]]) -> list[OcrWord]:
    return [OcrWord(("1", "1", str(i)), 60, top, 20, 25, 90.0, text) for i, (top, text) in enumerate(read)]


def test_margin_rows_fill_numbers_tesseract_missed_and_outvote_a_misread_one() -> None:
    read = [(100 + 67 * (n - 1), "1" if n == 11 else str(n)) for n in range(1, 29) if n not in (1, 7, 8)]
    rows = margin_rows(_words(read))
    assert rows is not None and rows.last_number == 28
    assert rows.number_at(112.5) == 1 and rows.number_at(112.5 + 67 * 6) == 7 and rows.number_at(20) is None
    assert rows.number_at(112.5 + 67 * 10) == 11


def test_numbers_that_do_not_stand_on_one_even_spacing_are_not_line_numbers() -> None:
    paragraphs = [100, 160, 300, 350, 520, 600, 800, 830, 1000, 1200]  # numbered paragraphs, not rows
    assert margin_rows(_words([(y, str(i + 1)) for i, y in enumerate(paragraphs)])) is None
    shuffled = [(100 + 67 * i, str(n)) for i, n in enumerate([1, 2, 3, 5, 4, 6, 7, 8, 9])]
    assert margin_rows(_words(shuffled)) is None
    assert margin_rows(_words([(100 + 67 * i, str(i + 1)) for i in range(7)])) is None


def test_pieces_on_one_row_share_its_number_once() -> None:
    rows = MarginRows(first=100.0, pitch=60.0, last_number=28)
    words = [
        OcrWord(("2", "1", "1"), 700, 90 + 60 * 8, 90, 20, 95.0, "Case"),  # right column, read first
        OcrWord(("1", "1", "1"), 300, 90 + 60 * 8, 90, 20, 95.0, "JANE"),
        OcrWord(("1", "1", "2"), 300, 90 + 60 * 9, 90, 20, 95.0, "Plaintiff,"),
        OcrWord(("1", "1", "3"), 300, 90 + 60 * 11, 90, 20, 95.0, "Defendant."),
        OcrWord(("0", "1", "1"), 60, 90, 20, 20, 30.0, "k"),  # the margin, misread
    ]
    assert numbered_text(words, rows, strip_edge=250) == "9 JANE\nCase\n10 Plaintiff,\n\n12 Defendant."
