"""A PDF whose font was embedded without a character map: the page shows the words, but its text layer
holds glyph numbers (control characters and stray punctuation). Stored as it is, the page could never be
found or quoted; it is read by OCR instead, and says so.

`data/font_without_character_map.pdf`: two pages LibreOffice made from text, the first page's fonts
stripped of /ToUnicode (as some e-filing print drivers write them), the second left intact."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import ParseOptions, ocr_available, parse_file
from casetrack.parse.pdf import undecodable

FIXTURE = Path(__file__).parent / "data" / "font_without_character_map.pdf"
NOTE = "This page's text layer could not be decoded (its font has no character map)"


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
def test_a_page_whose_text_layer_is_glyph_codes_is_read_by_ocr() -> None:
    first, second = parse_file(FIXTURE).pages
    assert first.method is ExtractionMethod.OCR
    assert 'Acme Corporation, a Delaware corporation ("Acme")' in first.text.replace("\n", " ")
    assert first.warnings[0] == f"{NOTE}; the page was read by OCR."
    assert second.method is ExtractionMethod.NATIVE and "Fees: $250 per hour" in second.text


def test_without_ocr_the_page_is_skipped_with_the_reason_and_the_fix() -> None:
    document = parse_file(FIXTURE, ParseOptions(tesseract_cmd="/nonexistent/bin/tesseract"))
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
