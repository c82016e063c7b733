"""Scans a paralegal meets: pages fed into the scanner sideways or upside down, blank or
tiny images. Real images through the real parser and Tesseract."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from casetrack.domain import ExtractionMethod
from casetrack.parse import ocr_available, ocr_status, parse_file

from .synthetic import text_image

needs_tesseract = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
needs_osd = pytest.mark.skipif(
    "osd" not in ocr_status().languages, reason="Tesseract's orientation data (osd) is not installed"
)
LINES = ["ORDER OF THE COURT", "The motion to compel discovery is granted.", "Dated March 4, 2025."]


def png(image: Image.Image, path: Path, dpi: int = 200) -> Path:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", dpi=(dpi, dpi))
    path.write_bytes(buffer.getvalue())
    return path


@needs_tesseract
@needs_osd
@pytest.mark.parametrize("turned", [90, 180, 270])
def test_a_page_scanned_sideways_or_upside_down_is_read_upright(tmp_path: Path, turned: int) -> None:
    document = parse_file(png(text_image(LINES).rotate(turned, expand=True), tmp_path / "scan.png"))
    page = document.pages[0]
    assert page.method is ExtractionMethod.OCR
    assert "motion to compel discovery is granted" in page.text
    assert page.ocr_confidence is not None and page.ocr_confidence > 80
    # Tesseract reads some sideways pages by itself; when the parser had to turn the page, it says so
    if turned == 180:
        assert page.warnings == ("The page was scanned turned 180\u00b0 from upright; it was turned upright for OCR.",)


@needs_tesseract
def test_an_upright_page_carries_no_orientation_warning(tmp_path: Path) -> None:
    page = parse_file(png(text_image(LINES), tmp_path / "scan.png")).pages[0]
    assert "motion to compel discovery is granted" in page.text
    assert page.warnings == ()


@needs_tesseract
@pytest.mark.parametrize(
    "image",
    [Image.new("L", (1700, 2200), 255), text_image(LINES).resize((212, 275))],
    ids=["blank", "tiny"],
)
def test_an_image_where_ocr_finds_no_text_says_so(tmp_path: Path, image: Image.Image) -> None:
    document = parse_file(png(image, tmp_path / "scan.png"))
    assert document.pages[0].text == ""
    assert any("no text" in warning and f"{image.width}x{image.height}" in warning for warning in document.warnings)
