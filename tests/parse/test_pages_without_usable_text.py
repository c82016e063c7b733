"""PDF pages that show words but whose text layer does not hold them. Stored as they are, such pages could
never be found or quoted; they are read by OCR instead, and say so.

`data/font_without_character_map.pdf`: two pages LibreOffice made from text, the first page's fonts
stripped of /ToUnicode (as some e-filing print drivers write them): its text layer is glyph numbers
(control characters and stray punctuation); the second left intact.
`data/text_drawn_as_shapes.pdf`: a contract page whose text Ghostscript turned into outlines
(`gs -dNoOutputFonts`, as flattening and some redaction tools do), then a blank page."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import ParseOptions, ocr_available, parse_file
from casetrack.parse.pdf.text_layer import undecodable

FIXTURE = Path(__file__).parent / "data" / "font_without_character_map.pdf"
SHAPES = Path(__file__).parent / "data" / "text_drawn_as_shapes.pdf"
NOTE = "This page's text layer could not be decoded (its font has no character map)"
SHAPES_NOTE = "This page has no text layer; its words are drawn as shapes (outlined or flattened text)"
NO_OCR = ParseOptions(tesseract_cmd="/nonexistent/bin/tesseract")


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_page_whose_text_layer_is_glyph_codes_is_read_by_ocr() -> None:
    first, second = parse_file(FIXTURE).pages
    assert first.method is ExtractionMethod.OCR
    assert 'Acme Corporation, a Delaware corporation ("Acme")' in first.text.replace("\n", " ")
    assert first.warnings[0] == f"{NOTE}; the page was read by OCR."
    assert second.method is ExtractionMethod.NATIVE and "Fees: $250 per hour" in second.text


def test_without_ocr_the_page_is_skipped_with_the_reason_and_the_fix() -> None:
    document = parse_file(FIXTURE, NO_OCR)
    first, second = document.pages
    assert first.method is ExtractionMethod.SKIPPED and first.text == ""
    assert first.warnings[0].startswith(f"{NOTE} and OCR is off: ")
    assert "Install Tesseract" in document.warnings[0]
    assert second.method is ExtractionMethod.NATIVE


def test_only_a_text_made_mostly_of_glyph_codes_counts_as_undecodable() -> None:
    assert undecodable("\x01\x04\x05\x06\x07\x05\x06\x08 \x05\x07\x0b\x06\x05\x05\x01 !\"# \x12\x14\x15\x07\x0e" * 3)
    bullets = "\n".join(f"\uf0b7 Item {n}: the Licensee shall keep records of every sale." for n in range(40))
    assert not undecodable(bullets)  # a symbol font's bullets are private-use code points
    assert not undecodable("Plain text of a contract page.\nSecond line.")
    assert not undecodable("\x01\x02 short")  # a couple of stray controls on a page


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_page_whose_words_are_drawn_as_shapes_is_read_by_ocr_and_a_blank_page_is_not() -> None:
    drawn, blank = parse_file(SHAPES).pages
    assert drawn.method is ExtractionMethod.OCR
    assert "Beta shall provide the services described in Exhibit A." in drawn.text
    assert drawn.warnings[0] == f"{SHAPES_NOTE}; the page was read by OCR."
    assert (blank.method, blank.text, blank.warnings) == (ExtractionMethod.NATIVE, "", ())


def test_without_ocr_a_page_drawn_as_shapes_says_why_it_has_no_text() -> None:
    drawn, _ = parse_file(SHAPES, NO_OCR).pages
    assert drawn.method is ExtractionMethod.SKIPPED
    assert drawn.warnings[0].startswith(f"{SHAPES_NOTE} and OCR is off: ")
