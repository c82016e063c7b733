"""Page text pinned: speed work on the parsers must not change a single character.

`data/golden_pages.json` holds, for every eval-dev document, the SHA-256 of each page's
text: for PDFs as the text layer gives it (with the scanned-page verdict and the picture's
resolution), before any OCR; for DOCX and TXT as `parse_file` returns it. It was written
by the parsers before the PDF line reading and the normaliser were made faster. Change it
only for a deliberate change of parsing, by running this test with CASETRACK_WRITE_GOLDEN=1:

    CASETRACK_WRITE_GOLDEN=1 uv run pytest -q tests/parse/test_parse_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from casetrack.parse import parse_file
from casetrack.parse.pdf import document as pdf

from .evaldev import DOCS, manifest

GOLDEN = Path(__file__).parent / "data" / "golden_pages.json"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text_layer_pages(path: Path) -> list[list[object]]:
    """Each PDF page as the text layer gives it, without OCR: [text hash, needs OCR, picture dpi]."""
    with pdf.PDFIUM_LOCK:
        document = pdf.pdfium.PdfDocument(path)
        try:
            scans = [pdf._scan_page(document, index) for index in range(len(document))]
        finally:
            document.close()
    return [[digest(scan.text), scan.needs_ocr, scan.image_dpi] for scan in scans]


def pages_of(name: str) -> list[list[object]]:
    path = DOCS / name
    if path.suffix == ".pdf":
        return text_layer_pages(path)
    if manifest()[name]["scanned"]:
        return []  # a picture: OCR output is Tesseract's, not ours to pin
    return [[digest(page.text), page.method.value, page.approximate] for page in parse_file(path).pages]


def test_page_text_matches_the_pinned_text_exactly() -> None:
    actual = {name: pages_of(name) for name in sorted(manifest())}
    if os.environ.get("CASETRACK_WRITE_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(actual, indent=1) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(actual) == sorted(expected)
    for name, pages in expected.items():
        assert actual[name] == pages, name
