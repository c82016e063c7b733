"""A Word file's page drawn through LibreOffice where it is installed: the file printed to a PDF once (kept
where the case says), the passage marked on the PDF page holding it (checked against pdfplumber's word boxes
on that PDF), the picture naming LibreOffice. Without LibreOffice, CaseTrack's rendering, never a blank."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import docx
import pdfplumber
import pytest

from casetrack.domain import ParsedPage, StoredPage
from casetrack.page_image.model import PageDrawing
from casetrack.page_image.page import draw_page
from casetrack.parse import ParseOptions, parse_file

CLAUSES = [f"{n}. The Consultant shall perform the services described in Schedule {n} with reasonable skill and "
           f"care, and shall report every month to the Client's project lead about milestone {n}." for n in range(1, 9)]
PASSAGE = "5. The Consultant"
needs_libreoffice = pytest.mark.skipif(shutil.which("soffice") is None and shutil.which("libreoffice") is None,
                                       reason="LibreOffice is not installed")


def _word(tmp_path: Path) -> tuple[Path, ParsedPage]:
    document = docx.Document()
    document.add_paragraph("MASTER SERVICES AGREEMENT")
    for clause in CLAUSES:
        document.add_paragraph(clause)
    path = tmp_path / "msa.docx"
    document.save(path)
    [page] = parse_file(path).pages
    return path, page


def _drawn(path: Path, page: ParsedPage, converted: Path, options: ParseOptions) -> tuple[PageDrawing, str]:
    start = page.text.index(PASSAGE)
    end = page.text.index("milestone 5.") + len("milestone 5.")
    stored = StoredPage(number=1, text=page.text, method=page.method, approximate=True, line_width=page.line_width)
    return draw_page(path, "docx", stored, (start, end), "page 1 (est.) of msa.docx", options, None,
                     converted), page.text[start:end]


@needs_libreoffice
def test_a_word_page_is_drawn_by_libreoffice_with_the_passage_marked(tmp_path: Path) -> None:
    path, page = _word(tmp_path)
    converted = tmp_path / "case" / "page_images" / "msa.pdf"
    drawing, passage = _drawn(path, page, converted, ParseOptions())
    assert drawing.source == "pdf_text_layer" and "LibreOffice" in (drawing.note or "") and converted.is_file()
    assert drawing.units == "pt" and len(drawing.boxes) >= 2
    with pdfplumber.open(converted) as pdf:
        words = pdf.pages[0].extract_words()
    texts = [re.sub(r"[\W_]+", "", w["text"]).lower() for w in words]
    wanted = [re.sub(r"[\W_]+", "", w).lower() for w in passage.split()]
    first = next(i for i in range(len(texts)) if texts[i:i + 3] == wanted[:3])
    last = first + len(wanted) - 1
    assert texts[last] == wanted[-1]
    for index, word in enumerate(words):
        middle = ((word["x0"] + word["x1"]) / 2, (word["top"] + word["bottom"]) / 2)
        inside = any(b.left - 1 <= middle[0] <= b.right + 1 and b.top - 1 <= middle[1] <= b.bottom + 1
                     for b in drawing.boxes)
        assert inside == (first <= index <= last), (index, word["text"])

    # The PDF is kept: drawn again without LibreOffice at hand, the same page from it.
    again, _ = _drawn(path, page, converted, ParseOptions(soffice_cmd="no-such-soffice"))
    assert again.boxes == drawing.boxes and "LibreOffice" in (again.note or "")


def test_without_libreoffice_a_word_page_is_casetracks_rendering(tmp_path: Path) -> None:
    path, page = _word(tmp_path)
    converted = tmp_path / "case" / "page_images" / "msa.pdf"
    drawing, _ = _drawn(path, page, converted, ParseOptions(soffice_cmd="no-such-soffice"))
    assert drawing.source == "rendering" and "not the original's layout" in (drawing.note or "")
    assert drawing.boxes and not converted.exists()
