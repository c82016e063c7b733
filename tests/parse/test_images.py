"""Image files: one page per image, one page per TIFF frame."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod
from casetrack.parse import ParseOptions, ocr_available, parse_file

from .synthetic import text_image

needs_tesseract = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")


@needs_tesseract
def test_a_multi_page_tiff_gives_one_page_per_frame(tmp_path: Path) -> None:
    frames = [text_image([f"Exhibit {number} to the declaration of counsel"]) for number in (1, 2, 3)]
    frames[0].save(
        tmp_path / "exhibits.tiff", save_all=True, append_images=frames[1:], compression="tiff_lzw", dpi=(200, 200)
    )
    document = parse_file(tmp_path / "exhibits.tiff")
    assert document.format == "image"
    assert [page.number for page in document.pages] == [1, 2, 3]
    for number, page in enumerate(document.pages, start=1):
        assert page.method is ExtractionMethod.OCR
        assert f"Exhibit {number} to the declaration of counsel" in page.text
        assert page.ocr_confidence is not None and page.ocr_confidence > 80


@needs_tesseract
def test_a_jpeg_is_read(tmp_path: Path) -> None:
    text_image(["Notice of deposition"]).convert("RGB").save(tmp_path / "notice.jpg", quality=90)
    [page] = parse_file(tmp_path / "notice.jpg").pages
    assert "Notice of deposition" in page.text


def test_a_multi_page_tiff_without_tesseract_skips_every_frame(tmp_path: Path) -> None:
    frames = [text_image([f"Frame {number}"]) for number in (1, 2)]
    frames[0].save(tmp_path / "scan.tif", save_all=True, append_images=frames[1:])
    document = parse_file(tmp_path / "scan.tif", ParseOptions(tesseract_cmd="/nonexistent/bin/tesseract"))
    assert [page.method for page in document.pages] == [ExtractionMethod.SKIPPED] * 2
    assert all(page.text == "" and "install tesseract" in page.warnings[0].lower() for page in document.pages)
