"""A scan's words kept at ingest (domain.PageWords) mark a passage on the page without reading it again:
on a page laid crooked (straightened for OCR) and on one scanned sideways (turned upright for OCR), the
marked lines hold the passage's words, as the test itself reads them on the picture, and nothing else.
A file that no longer matches its words is read again, and a words record that does not read back whole
counts as none."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from casetrack.domain import ExtractionMethod, PageWords, ParsedPage, StoredPage
from casetrack.page_image.model import PageDrawing
from casetrack.page_image.page import draw_page
from casetrack.page_image.scan_page import REREAD_NOTE
from casetrack.parse import ParseOptions, ocr_available, parse_file
from casetrack.store.page_records import decode_words, encode_words
from tests.page_image.pixels import passage_words, words_on
from tests.parse.synthetic import image_pdf_bytes, text_image

LINES = ["ORDER ON THE MOTION TO COMPEL", "The motion to compel discovery is granted in part.",
         "The defendant shall produce the ledgers within fourteen days.",
         "Costs are reserved for a later decision of the court.", "The hearing set for May is vacated.",
         "So ordered by the court this day."]
OPENING, CLOSING = "The defendant", "the court."
needs_ocr = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


def _read(path: Path) -> ParsedPage:
    [page] = parse_file(path).pages
    assert page.method is ExtractionMethod.OCR and page.ocr_words is not None
    return page


def _drawn(path: Path, file_format: str, page: ParsedPage, words: PageWords | None) -> tuple[PageDrawing, str]:
    start = page.text.index(OPENING)
    end = page.text.index(CLOSING, start) + len(CLOSING)
    stored = StoredPage(number=1, text=page.text, method=page.method)
    return draw_page(path, file_format, stored, (start, end), f"page 1 of {path.name}", ParseOptions(),
                     words), page.text[start:end]


def _marks_exactly(drawing: PageDrawing, passage: str, path: Path, words: PageWords | None, tmp_path: Path) -> None:
    """The marked lines (in the picture's pixels) hold the passage's words as the test reads them on the
    unmarked picture, and no other word."""
    plain = draw_page(path, "pdf" if path.suffix == ".pdf" else "image",
                      StoredPage(number=1, text="", method=ExtractionMethod.OCR), None, "", ParseOptions(), words)
    assert (plain.width_px, plain.height_px) == (drawing.width_px, drawing.height_px)
    seen = words_on(plain.png, tmp_path)
    first, last = passage_words(seen, passage)
    boxes = [b.scaled(drawing.pixels_per_unit) for b in drawing.boxes]
    for index, word in enumerate(seen):
        x, y = word.middle
        inside = any(b.left - 3 <= x <= b.right + 3 and b.top - 3 <= y <= b.bottom + 3 for b in boxes)
        assert inside == (first <= index <= last), (index, word, first, last)


@needs_ocr
def test_a_page_laid_crooked_is_marked_by_its_kept_words_on_the_straightened_page(tmp_path: Path) -> None:
    path = tmp_path / "crooked.png"
    text_image(LINES).rotate(6, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255).save(
        path, dpi=(200, 200))
    page = _read(path)
    assert page.ocr_words is not None and abs(page.ocr_words.skew - 6) <= 0.5
    drawing, passage = _drawn(path, "image", page, page.ocr_words)
    assert drawing.source == "ocr_words" and drawing.note is None and drawing.units == "px"
    assert len(drawing.boxes) == 2 and max(drawing.width_px, drawing.height_px) == 1600
    _marks_exactly(drawing, passage, path, page.ocr_words, tmp_path)


@needs_ocr
def test_a_page_scanned_sideways_is_shown_upright_with_the_passage_marked(tmp_path: Path) -> None:
    path = tmp_path / "sideways.pdf"
    path.write_bytes(image_pdf_bytes([text_image(LINES).rotate(90, expand=True)]))
    page = _read(path)
    assert page.ocr_words is not None and page.ocr_words.turn in (90, 270)
    drawing, passage = _drawn(path, "pdf", page, page.ocr_words)
    assert drawing.source == "ocr_words" and drawing.note is None and drawing.units == "pt"
    assert drawing.height_px > drawing.width_px  # upright, as read
    assert drawing.page_height == pytest.approx(792, abs=3) and drawing.page_width == pytest.approx(612, abs=3)
    _marks_exactly(drawing, passage, path, page.ocr_words, tmp_path)


@needs_ocr
def test_a_scan_that_no_longer_matches_its_kept_words_is_read_again(tmp_path: Path) -> None:
    path = tmp_path / "order.pdf"
    path.write_bytes(image_pdf_bytes([text_image(LINES)]))
    page = _read(path)
    path.write_bytes(image_pdf_bytes([text_image(LINES).rotate(90, expand=True)]))  # replaced by a landscape page
    drawing, _ = _drawn(path, "pdf", page, page.ocr_words)
    assert drawing.source == "ocr_words" and REREAD_NOTE in (drawing.note or "")


def test_the_words_record_reads_back_whole_or_not_at_all() -> None:
    words = PageWords(width=1700, height=2200, skew=-4.25, turn=90, words="Motion\ngranted.\n\u00a7 12",
                      boxes=bytes(range(24)))
    raw = encode_words(words)
    assert decode_words(raw) == words
    assert len(raw) < 64  # a header of 17 bytes, 8 a box, the words as UTF-8
    empty = PageWords(width=10, height=10, skew=0.0, turn=0, words="", boxes=b"")
    assert decode_words(encode_words(empty)) == empty
    for broken in (raw[:10], raw[:30], b"\x02" + raw[1:], raw + b"\nextra", raw[:-4] + b"\xff\xfe\xfd\xfc", b""):
        assert decode_words(broken) is None, broken
