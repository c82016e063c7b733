"""The page drawings: the marked lines hold the passage's words and nothing else, on a native PDF
(checked against pdfplumber's word boxes), a real scan (Tesseract) and a Word file (CaseTrack's lines)."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pdfplumber
import pytest
from PIL import Image

from casetrack.chunk.layout import PageLayout
from casetrack.domain import ExtractionMethod, StoredPage
from casetrack.page_image.draw import HIGHLIGHT
from casetrack.page_image.locate import find_span, line_boxes
from casetrack.page_image.model import Box
from casetrack.page_image.page import draw_page
from casetrack.page_image.pdf_page import draw_pdf_page
from casetrack.parse import ParseOptions, ocr_available, parse_file
from tests.badfiles import giant_page_pdf_bytes, text_pdf_bytes
from tests.page_image.pixels import highlighted_rows
from tests.parse.synthetic import image_pdf_bytes, text_image

LINES = [f"Clause {n}: the seller shall deliver {n} crates of widgets by the first day of month {n}."
         for n in range(1, 31)]


def _pdf(tmp_path: Path) -> Path:
    path = tmp_path / "agreement.pdf"
    path.write_bytes(text_pdf_bytes([[(72, 740 - 22 * row, line) for row, line in enumerate(LINES)]]))
    return path


def _inside(word: Box, boxes: tuple[Box, ...] | list[Box], slack: float = 1.5) -> bool:
    """The word's ink within a box: across its whole width, and its middle (pdfplumber's word boxes are the
    font's height, PDFium's the glyphs' own)."""
    middle = (word.top + word.bottom) / 2
    return any(word.left >= b.left - slack and word.right <= b.right + slack and b.top <= middle <= b.bottom
               for b in boxes)


def _overlaps(word: Box, boxes: tuple[Box, ...] | list[Box]) -> bool:
    middle = (word.top + word.bottom) / 2
    return any(word.left < b.right and b.left < word.right and b.top <= middle <= b.bottom for b in boxes)


def test_a_native_pdf_page_marks_exactly_the_passages_words(tmp_path: Path) -> None:
    path = _pdf(tmp_path)
    opening = LINES[11].split()[:5]  # "Clause 12: the seller shall"
    passage = f"{LINES[9]}\n{LINES[10]}\n{' '.join(opening)}"
    drawing = draw_pdf_page(path, 1, passage, 9 / 30)
    assert drawing.source == "pdf_text_layer" and drawing.units == "pt" and drawing.note is None
    assert max(drawing.width_px, drawing.height_px) >= 1200
    assert len(drawing.boxes) == 3
    with pdfplumber.open(path) as pdf:
        words = pdf.pages[0].extract_words()
    assert len(words) == sum(len(line.split()) for line in LINES)
    for word in words:
        box = Box(word["x0"], word["top"], word["x1"], word["bottom"])
        row = round((word["top"] - words[0]["top"]) / 22)
        column = [w for w in words if round((w["top"] - words[0]["top"]) / 22) == row].index(word)
        if row in (9, 10) or (row == 11 and column < len(opening)):
            assert _inside(box, drawing.boxes), word
        else:
            assert not _overlaps(box, drawing.boxes), word
    rows = highlighted_rows(drawing.png)
    assert rows and (rows[-1] - rows[0]) < drawing.height_px * 0.1  # a band, well under the whole page


def test_a_passage_written_twice_is_marked_where_the_chunk_is(tmp_path: Path) -> None:
    path = tmp_path / "twice.pdf"
    path.write_bytes(text_pdf_bytes([[(72, 700, "Payment is due in thirty days."), (72, 300, "Other terms."),
                                      (72, 120, "Payment is due in thirty days.")]]))
    low = draw_pdf_page(path, 1, "Payment is due in thirty days.", 0.9)
    high = draw_pdf_page(path, 1, "Payment is due in thirty days.", 0.0)
    assert low.boxes[0].top > 600 > 100 > high.boxes[0].top


def test_a_200_inch_page_is_drawn_at_a_bounded_size(tmp_path: Path) -> None:
    path = tmp_path / "giant.pdf"
    path.write_bytes(giant_page_pdf_bytes())
    drawing = draw_pdf_page(path, 1, None, 0.0)
    assert (drawing.width_px, drawing.height_px) == (1600, 1600)
    assert drawing.page_width == 200 * 72 and drawing.boxes == ()


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_scanned_page_marks_the_passages_lines_from_tesseracts_words(tmp_path: Path) -> None:
    lines = ["ORDER ON THE MOTION TO COMPEL", "The motion to compel discovery is granted.",
             "The defendant shall produce the ledgers.", "Costs are reserved for later decision.",
             "So ordered by the court this day."]
    path = tmp_path / "order.pdf"
    path.write_bytes(image_pdf_bytes([text_image(lines)]))
    [parsed] = parse_file(path).pages
    assert parsed.method is ExtractionMethod.OCR
    start = parsed.text.index("The defendant")
    end = parsed.text.index("decision.") + len("decision.")
    page = StoredPage(number=1, text=parsed.text, method=parsed.method)
    drawing = draw_page(path, "pdf", page, (start, end), "page 1 of order.pdf", ParseOptions())
    assert drawing.source == "ocr_words" and drawing.units == "pt" and "read again" in (drawing.note or "")
    assert len(drawing.boxes) == 2
    # text_image draws line n at 700 - 20n pt above the foot of a 792 pt page, 14 pt type
    for box, row in zip(drawing.boxes, (2, 3), strict=True):
        baseline = 792 - (700 - 20 * row)
        assert baseline - 14 <= box.top < box.bottom <= baseline + 5, (row, box)
        assert box.left == pytest.approx(72, abs=4)
    assert len(highlighted_rows(drawing.png)) < drawing.height_px * 0.1


def test_a_word_page_is_a_rendering_whose_marks_follow_casetracks_lines(tmp_path: Path) -> None:
    document = docx.Document()
    document.add_paragraph("MASTER SERVICES AGREEMENT")
    for n in range(1, 6):
        document.add_paragraph(f"{n}. The Consultant shall perform the services described in Schedule {n} with "
                               "reasonable skill and care, and shall report monthly to the Client's project lead.")
    path = tmp_path / "msa.docx"
    document.save(path)
    [parsed] = parse_file(path).pages
    assert parsed.line_width
    start = parsed.text.index("3. The Consultant")
    end = parsed.text.index("project lead.", start) + len("project lead.")
    page = StoredPage(number=1, text=parsed.text, method=parsed.method, approximate=True,
                      line_width=parsed.line_width)
    drawing = draw_page(path, "docx", page, (start, end), "page 1 (est.) of msa.docx", ParseOptions())
    assert drawing.source == "rendering" and "not the original's layout" in (drawing.note or "")
    layout = PageLayout.of(parsed.text, parsed.line_width)
    assert len(drawing.boxes) == layout.line_at(end - 1) - layout.line_at(start) + 1 >= 2
    assert drawing.height_px >= 1200
    assert len(highlighted_rows(drawing.png)) < drawing.height_px * 0.1


def test_a_page_whose_file_is_gone_and_has_no_text_is_an_error_not_a_blank_image(tmp_path: Path) -> None:
    from casetrack.errors import DocumentUnreadable

    page = StoredPage(number=1, text="", method=ExtractionMethod.SKIPPED)
    with pytest.raises(DocumentUnreadable, match="cannot be drawn"):
        draw_page(tmp_path / "gone.pdf", "pdf", page, None, "page 1 of gone.pdf", ParseOptions())


def test_units_are_found_by_their_letters_whatever_the_spacing() -> None:
    units = ["Non-", "compete", "clause:", "the", "ﬁrm", "agrees.", "Next", "clause."]
    assert find_span(units, "non compete clause: the firm agrees", 0.0) == (0, 5)
    assert find_span(units, "nothing like it", 0.0) is None
    merged = line_boxes([Box(10, 10, 20, 20), Box(22, 11, 30, 20), Box(10, 30, 20, 40)])
    assert merged == [Box(10, 10, 30, 20), Box(10, 30, 20, 40)]


def test_a_passages_closing_period_and_opening_quote_are_marked_too() -> None:
    units = [*"Hesaid", "\u201c", *"paynow", ".", *"Then"]  # PDFium's characters, no spaces
    assert find_span(units, "\u201cpay now.", 0.0) == (6, 13)
    assert find_span(units, "pay now", 0.0) == (7, 12)
    page = "He said, \u201cpay now.\u201d Then"  # a page's characters as one string, spaces and all
    assert find_span(page, "\u201cpay now.\u201d", 0.0) == (9, 18)
    assert find_span(page, "pay now", 0.0) == (10, 16)


def test_a_black_and_white_page_is_drawn_in_greys_and_a_coloured_one_keeps_its_colours(tmp_path: Path) -> None:
    plain = draw_pdf_page(_pdf(tmp_path), 1, LINES[3], 0.1)
    with Image.open(io.BytesIO(plain.png)) as image:
        assert image.mode == "P"  # 128 greys and the same under the highlighter
        assert HIGHLIGHT in {rgb for _, rgb in image.convert("RGB").getcolors(1 << 16) or []}
    page = Image.new("RGB", (850, 1100), "white")
    page.paste((200, 30, 30), (100, 100, 400, 300))  # a red stamp
    coloured_path = tmp_path / "stamped.pdf"
    coloured_path.write_bytes(image_pdf_bytes([page], dpi=100))
    coloured = draw_pdf_page(coloured_path, 1, None, 0.0)
    with Image.open(io.BytesIO(coloured.png)) as image:
        assert image.mode == "P" and len(image.getcolors(256) or []) > 2  # its own colours, not the grey palette
        red = image.convert("RGB").getpixel((round(250 * image.width / 850), round(200 * image.height / 1100)))
        assert isinstance(red, tuple) and red[0] > 150 > 60 > red[1]


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_scanned_image_file_is_marked_in_its_own_pixels(tmp_path: Path) -> None:
    lines = ["NOTICE OF DEFAULT", "The borrower missed the March payment.", "The lender may accelerate the loan.",
             "Cure within ten days of this notice."]
    path = tmp_path / "notice.png"
    text_image(lines).save(path, dpi=(200, 200))
    [parsed] = parse_file(path).pages
    start = parsed.text.index("The lender")
    page = StoredPage(number=1, text=parsed.text, method=parsed.method)
    drawing = draw_page(path, "image", page, (start, start + len("The lender may accelerate the loan.")),
                        "page 1 of notice.png", ParseOptions())
    assert drawing.source == "ocr_words" and drawing.units == "px" and len(drawing.boxes) == 1
    [box] = drawing.boxes
    baseline = (792 - (700 - 20 * 2)) * 200 / 72  # text_image's third line, in the image's pixels
    assert baseline - 14 * 200 / 72 <= box.top < box.bottom <= baseline + 5 * 200 / 72


def test_a_pdf_whose_file_is_gone_is_drawn_from_casetracks_text_and_says_so(tmp_path: Path) -> None:
    text = "AGREEMENT\n\n1. Payment is due in thirty days.\n\n2. Interest accrues at five percent."
    page = StoredPage(number=1, text=text, method=ExtractionMethod.NATIVE)
    start = text.index("2. Interest")
    drawing = draw_page(tmp_path / "moved.pdf", "pdf", page, (start, len(text)), "page 1 of moved.pdf",
                        ParseOptions())
    assert drawing.source == "rendering" and "is not at" in (drawing.note or "") and len(drawing.boxes) == 1
