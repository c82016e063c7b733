"""A page laid crooked on the scanner is turned straight before OCR. Tesseract reads a few degrees of
skew by itself, but at 6 degrees it lost an eighth of the words and at 9 it read nothing, and said the
page looked blank."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from casetrack.domain import ExtractionMethod
from casetrack.parse import ocr_available, parse_file
from casetrack.parse.ocr.deskew import skew_angle, straightened

from .synthetic import text_image

LINES = [
    "ORDER GRANTING MOTION TO COMPEL",
    "The motion to compel discovery is granted in part and denied in part.",
    "Defendant shall produce all documents responsive to Request No. 4 within fourteen days.",
    "Plaintiff's request for sanctions is denied without prejudice.",
    "IT IS SO ORDERED.",
    "Dated: March 4, 2025",
] * 3


def crooked(degrees: float) -> Image.Image:
    return text_image(LINES).rotate(degrees, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=255)


@pytest.mark.parametrize("degrees", [-11.0, -4.5, 0.0, 2.0, 6.0, 9.0])
def test_the_skew_of_a_page_of_text_is_measured(degrees: float) -> None:
    assert skew_angle(crooked(degrees)) == pytest.approx(degrees, abs=0.5)


def test_a_level_or_blank_page_is_left_as_it_is() -> None:
    level = text_image(LINES)
    assert straightened(level) == (level, 0.0)
    blank = Image.new("L", (1700, 2200), 255)
    assert skew_angle(blank) == 0.0 and straightened(blank)[0] is blank


@pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
@pytest.mark.parametrize("degrees", [7.0, -10.0])
def test_a_page_scanned_crooked_is_read_as_if_straight(tmp_path: Path, degrees: float) -> None:
    crooked(degrees).save(tmp_path / "order.png", dpi=(200, 200))
    page = parse_file(tmp_path / "order.png").pages[0]
    assert page.method is ExtractionMethod.OCR and page.ocr_confidence is not None and page.ocr_confidence > 85
    expected = " ".join(LINES).lower().split()
    read = set(page.text.lower().split())
    assert sum(word in read for word in expected) / len(expected) >= 0.95
    assert "Plaintiff's request for sanctions is denied without prejudice." in page.text
