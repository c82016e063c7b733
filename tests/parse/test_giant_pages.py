"""A PDF page too large to render for OCR at full resolution (issue 20 §2: an 11 KB PDF with one 200 x
200-inch page took 4.7 GB to read) is read at the resolution that fits ocr.MAX_PAGE_PIXELS, and the
document says which pages and at what resolution, never that OCR is unavailable."""

from __future__ import annotations

import io
from collections.abc import Iterable
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from casetrack.config import load_settings
from casetrack.domain import ExtractionMethod
from casetrack.parse import ParseOptions, ocr_available, parse_file
from casetrack.parse.ocr import engine as ocr
from casetrack.render.documents import extraction_label
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from tests.badfiles import giant_page_pdf_bytes

pytestmark = pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@pytest.fixture
def rendered_sizes(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size of every page image the PDF parser hands to OCR (the real rendering, recorded on its way)."""
    sizes: list[tuple[int, int]] = []
    recognize_all = ocr.recognize_all

    def recording(images: Iterable[ocr.PageImage], options: ParseOptions) -> list[ocr.OcrResult]:
        def passing() -> Iterable[ocr.PageImage]:
            for page in images:
                sizes.append(page.image.size)
                yield page
        return recognize_all(passing(), options)

    monkeypatch.setattr(ocr, "recognize_all", recording)
    return sizes


def test_a_200_inch_page_is_ingested_at_a_resolution_that_fits_and_the_warning_says_so(
    tmp_path: Path, data_dir: Path, rendered_sizes: list[tuple[int, int]]
) -> None:
    pdf = tmp_path / "poster.pdf"
    pdf.write_bytes(giant_page_pdf_bytes())
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Giant")
    document = app.ingestor.ingest(case, IngestRequest(str(pdf))).document
    app.jobs.shutdown()

    ((width, height),) = rendered_sizes
    assert width * height <= ocr.MAX_PAGE_PIXELS  # not 40,000 x 40,000 (1.6 billion pixels)
    assert width == height > 4400  # 200 in at 22.3 dpi: about the most that fits
    assert document.ocr_pages == 1 and document.skipped_pages == 0  # read by OCR, not skipped
    reduced = [w for w in document.warnings if "too large to read at full resolution" in w]
    assert reduced == [
        "1 page is too large to read at full resolution, so it was read by OCR at a lower one (each page image is "
        "kept within 20 million pixels): page 1 (200 x 200 in) at 22 dpi instead of 200. Small print on it may be "
        "missed; if there is any, print that page to a PDF of ordinary page size and ingest that as well."
    ]
    shown = " ".join((*document.warnings, extraction_label(document))).lower()
    assert "unavailable" not in shown and "ocr is off" not in shown


def test_large_print_on_an_oversized_scanned_page_is_still_read(rendered_sizes: list[tuple[int, int]],
                                                                 tmp_path: Path) -> None:
    """A 100 x 100-inch scan (a trial exhibit board) read at 45 dpi instead of 72: its large print survives."""
    image = Image.new("L", (3000, 3000), 255)
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 70)
    for row, line in enumerate(["EXHIBIT 14", "TIMELINE OF PAYMENTS", "MARCH 2019 WIRE TRANSFER"]):
        draw.text((200, 300 + 200 * row), line, fill=0, font=font)
    buffer = io.BytesIO()
    image.save(buffer, format="PDF", resolution=30)  # 3,000 pixels at 30 dpi: a 100-inch page
    pdf = tmp_path / "board.pdf"
    pdf.write_bytes(buffer.getvalue())

    document = parse_file(pdf)
    (page,) = document.pages
    assert page.method is ExtractionMethod.OCR
    assert "TIMELINE OF PAYMENTS" in page.text and "WIRE TRANSFER" in page.text
    ((width, height),) = rendered_sizes
    assert width * height <= ocr.MAX_PAGE_PIXELS
    assert "page 1 (100 x 100 in) at 45 dpi instead of 72" in document.warnings[0]


def test_an_ordinary_page_keeps_its_full_resolution() -> None:
    assert ocr.fitting_dpi(8.5, 11, 300) == 300  # a letter page at the highest setting
    assert ocr.fitting_dpi(11, 17, 200) == 200  # a tabloid page at the default
    assert round(ocr.fitting_dpi(24, 36, 200)) == 152  # a trial exhibit board: reduced
    assert ocr.fitting_dpi(200, 0.5, 200) == 160  # a 200-inch strip: Tesseract's side limit, not the pixels
    assert ocr.fitting_dpi(1e6, 1e6, 200) > 0  # a hostile page: some positive resolution
