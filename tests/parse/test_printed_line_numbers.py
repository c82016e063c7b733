"""Pages that print their own line numbers (pleading paper 1-28, deposition transcripts 1-25) are
cited by them: lawyers write "Compl. 1:22" and "Dep. 45:3-12", never the count of lines above."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.chunk import chunk_pages
from casetrack.chunk.layout import PageLayout
from casetrack.domain import DocumentType
from casetrack.parse import parse_file
from casetrack.parse.layout import PageLines, margin_numbers_inline
from tests.badfiles import text_pdf_bytes

TOP, ROW = 720.0, 24.0  # pleading paper: 28 double-spaced rows
COMPLAINT = {
    1: "JOHN SMITH (SBN 123456)", 2: "SMITH LAW GROUP", 3: "100 Main Street, San Jose, CA 95113",
    4: "Attorney for Plaintiff", 6: "UNITED STATES DISTRICT COURT", 7: "NORTHERN DISTRICT OF CALIFORNIA",
    9: "JANE DOE, Case No. 5:21-cv-01234", 10: "Plaintiff,", 11: "v. COMPLAINT FOR DAMAGES", 12: "ACME CORP.,",
    13: "Defendant.", 15: "Plaintiff Jane Doe alleges as follows:",
    17: "1. This Court has jurisdiction under 28 U.S.C. 1331 because the claims arise",
    18: "under federal law, including 42 U.S.C. 1983.", 19: "2. Venue is proper in this District because the events",
    20: "giving rise to the claims occurred in San Jose, California.", 22: "3. On January 15, 2021, Defendant",
    23: "terminated Plaintiff without notice.",
}  # fmt: skip


def pleading_pdf(path: Path, margin_first: bool = True) -> Path:
    margin = [(60.0, TOP - ROW * (n - 1), str(n)) for n in range(1, 29)]
    body = [(100.0, TOP - ROW * (n - 1), text) for n, text in COMPLAINT.items()]
    footer = [(280.0, 40.0, "COMPLAINT - 1")]
    drawn = margin + body + footer if margin_first else body + footer + margin
    path.write_bytes(text_pdf_bytes([drawn, drawn]))
    return path


@pytest.mark.parametrize("margin_first", [True, False], ids=["margin drawn first", "margin drawn last"])
def test_pleading_paper_reads_as_printed_and_cites_the_margin_numbers(tmp_path: Path, margin_first: bool) -> None:
    page = parse_file(pleading_pdf(tmp_path / "complaint.pdf", margin_first)).pages[0]
    assert page.text.startswith("1 JOHN SMITH (SBN 123456)\n2 SMITH LAW GROUP\n")
    assert "\n22 3. On January 15, 2021, Defendant\n23 terminated Plaintiff without notice." in page.text
    assert page.text.endswith("COMPLAINT - 1")
    layout = PageLayout.of(page.text)
    assert layout.line_at(page.text.index("3. On January")) == 22
    assert layout.line_at(page.text.index("42 U.S.C. 1983")) == 18
    assert layout.paragraph_at(page.text.index("3. On January")) > layout.paragraph_at(page.text.index("2. Venue"))
    [first, *_] = chunk_pages([page], DocumentType.PLEADING)
    assert (first.line_start, first.line_end) == (1, 23)


def test_a_deposition_page_with_its_numbers_inline_is_cited_by_them() -> None:
    rows = [f"{n:2d}   Q.   Where were you on March {n}?" if n % 2 else f"{n:2d}   A.   At the office."
            for n in range(1, 26)]
    text = "\n".join(["45", *rows, "", "Veritext Legal Solutions     800-000-0000"])
    layout = PageLayout.of(text)
    assert layout.line_at(text.index("March 13")) == 13
    assert layout.line_at(0) == 1  # the page number above row 1 belongs to the top of the page
    assert layout.line_at(text.index("Veritext")) == 25


def test_a_text_transcript_with_form_feeds_is_cited_by_page_and_printed_line(tmp_path: Path) -> None:
    pages = []
    for page in (44, 45):
        rows = "\n".join(f"{n:>2}        {'Q.' if n % 2 else 'A.'}  Line {n} of page {page}." for n in range(1, 26))
        pages.append(f"                                                        {page}\n{rows}")
    (tmp_path / "smith_deposition.txt").write_text("\f".join(pages), encoding="utf-8")
    document = parse_file(tmp_path / "smith_deposition.txt")
    second = document.pages[1]
    assert PageLayout.of(second.text).line_at(second.text.index("Line 12 of page 45")) == 12
    for chunk in chunk_pages(document.pages, DocumentType.DEPOSITION):
        assert 1 <= chunk.line_start <= chunk.line_end <= 25


@pytest.mark.parametrize(
    "text",
    [
        "1. Definitions\n2. Term\n3. Fees\n4. Payment\n5. Taxes\n6. Audit\n7. Term\n8. Notices\n9. Law",
        "\n".join(f"{n} Widgets, model {n}, per unit" for n in (3, 1, 2, 5, 4, 6, 8, 7, 9, 10)),  # a table, unordered
        "Section 1 covers fees.\n2 parties sign below.\n3 copies are kept.\n" + "Plain prose line.\n" * 12,
    ],
    ids=["numbered clauses", "table of items", "prose"],
)
def test_numbered_lists_tables_and_prose_keep_counted_lines(text: str) -> None:
    layout = PageLayout.of(text)
    assert layout.printed is None
    assert layout.line_at(text.index("\n") + 1) == 2


def test_a_column_of_numbers_inside_the_body_is_not_a_margin() -> None:
    lines = PageLines()
    for n in range(1, 13):  # a schedule: item numbers to the right of the text on each row
        lines.append(f"Item {n} description", 72.0, 700.0 - 14.0 * n, 10.0)
        lines.append(str(n), 400.0, 700.0 - 14.0 * n, 10.0)
    assert margin_numbers_inline(lines) is lines
