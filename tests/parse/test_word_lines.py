"""A Word paragraph is cited by the lines it prints on, not as one line however long.

Word has no lines of its own: a 300-word paragraph is one line of text until a page lays it out.
CaseTrack counts its lines as they print at the document's width (page width, margins, Normal
font) and marks them estimated. The reference here is a real layout: LibreOffice prints the same
document (Times New Roman as the metric-compatible Liberation Serif) and we count its lines."""

from __future__ import annotations

import itertools
import subprocess
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pytest
from docx.shared import Pt

from casetrack.chunk.layout import PageLayout
from casetrack.chunk.legal import chunk_pages
from casetrack.domain import DocumentType, ExtractionMethod, Provenance
from casetrack.parse.dispatch import parse_file
from casetrack.parse.options import ParseOptions
from casetrack.parse.word.legacy import find_soffice

SOFFICE = find_soffice(ParseOptions())
CLAUSE = ("The Consultant shall perform the services described in Schedule A with the skill and care of a prudent "
          "professional, and shall comply with every law, regulation and written policy of the Company that applies. ")


def word_file(path: Path, font: str, size: int) -> Path:
    document = docx.Document()
    normal = document.styles["Normal"]
    normal.font.name, normal.font.size = font, Pt(size)
    document.add_paragraph("1. Services.")
    document.add_paragraph(CLAUSE * 7)  # ~290 words
    document.add_paragraph("2. Term. This Agreement ends on December 31, 2025.")
    document.save(path)
    return path


def printed_lines(path: Path) -> list[str]:
    """The lines of the document's first page as LibreOffice prints it."""
    subprocess.run([str(SOFFICE), "--headless", "--convert-to", "pdf", "--outdir", str(path.parent), str(path)],
                   check=True, capture_output=True, timeout=180)
    pdf = pdfium.PdfDocument(path.with_suffix(".pdf"))
    try:
        return [line for line in pdf[0].get_textpage().get_text_range().splitlines() if line.strip()]
    finally:
        pdf.close()


@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice prints the reference layout")
@pytest.mark.parametrize(("font", "size"), [("Times New Roman", 12), ("Courier New", 12), ("Arial", 10)])
def test_a_long_word_paragraph_is_cited_by_the_lines_it_prints_on(tmp_path: Path, font: str, size: int) -> None:
    path = word_file(tmp_path / "Consulting Agreement.docx", font, size)
    printed = len(printed_lines(path)) - 2  # less the heading and the last paragraph, one line each
    page = parse_file(path).pages[0]
    (chunk,) = chunk_pages([page], DocumentType.CONTRACT)  # the whole short agreement
    layout = PageLayout.of(page.text, page.line_width)
    start = page.text.index(CLAUSE)
    first, last = layout.line_at(start), layout.line_at(page.text.index("2. Term") - 3)
    # One blank line between paragraphs: the heading is line 1, the paragraph starts on line 3.
    assert first == 3 and chunk.line_start == 1 and chunk.line_end == last + 2
    assert abs((last - first + 1) - printed) <= 1, (first, last, printed)


def test_the_citation_says_the_lines_are_estimated_and_a_single_line_is_l() -> None:
    def cite(line_start: int, line_end: int, estimated: bool) -> str:
        return Provenance(document_id="d", document_name="Consulting Agreement.docx", document_path=None, page=1,
                          paragraph_start=2, paragraph_end=2, line_start=line_start, line_end=line_end,
                          char_start=0, char_end=10, extraction_method=ExtractionMethod.NATIVE,
                          lines_estimated=estimated).cite()

    assert cite(3, 16, True) == "Consulting Agreement.docx, p. 1, para. 2, ll. 3-16 (est.)"
    assert cite(5, 5, True) == "Consulting Agreement.docx, p. 1, para. 2, l. 5 (est.)"
    assert cite(5, 5, False) == "Consulting Agreement.docx, p. 1, para. 2, l. 5"  # never "ll. 5-5"


def test_a_wrapped_line_never_splits_a_word() -> None:
    from casetrack.chunk.layout import wrap_starts

    line = CLAUSE * 3
    starts = wrap_starts(line, 60)
    assert all(line[s - 1] == " " and line[s] != " " for s in starts[1:])
    assert all(b - a <= 61 for a, b in itertools.pairwise(starts))
    assert wrap_starts("short", 60) == (0,) and wrap_starts("x" * 100, 60) == (0,)  # one word wider than a line
