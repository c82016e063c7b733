"""A text file's passages read as the document reads: no runs of spaces from its layout, no page
numbers printed on their own lines as text, and those page numbers used as the pages they mark."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from casetrack.chunk.legal import chunk_pages
from casetrack.domain import DocumentType
from casetrack.parse.dispatch import parse_file
from tests.parse.evaldev import DOCS

PAGE_NUMBER = re.compile(r"^\s*(?:-\s*\d+\s*-|Page \d+(?: of \d+)?)\s*$", re.MULTILINE)
CLAUSE = "The Agent shall use its best efforts to promote the Products in the Territory. "


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agreement.txt"
    path.write_text(text, encoding="utf-8")
    return path


def test_an_edgar_text_filing_is_paged_by_its_printed_numbers_and_quoted_without_its_layout() -> None:
    source = (DOCS / "cuad_biopure_agency_agreement.txt").read_text(encoding="utf-8")
    assert "Business       Plan" in source and "\n                                    -3-\n" in source
    pages = parse_file(DOCS / "cuad_biopure_agency_agreement.txt").pages
    # The file prints -2- to -14- at the top of pages 2 to 14: those are its pages, not estimates; what
    # follows -14- is longer than a printed page (the signatures), so its pages are estimated.
    assert [(p.number, p.approximate) for p in pages] == [(n, n >= 14) for n in range(1, 16)]
    assert "1.3. Business Plan. The Company and the Agent will jointly develop" in pages[1].text
    assert "meet the Agent's performance criteria set forth in the Business Plan;" in pages[1].text
    for page in pages:
        assert "  " not in page.text and not PAGE_NUMBER.search(page.text), page.number
        assert all(line == line.lstrip() for line in page.text.splitlines())
    for chunk in chunk_pages(pages, DocumentType.CONTRACT):  # offsets index the stored text exactly
        assert pages[chunk.page - 1].text[chunk.char_start:chunk.char_end] == chunk.text


def test_page_headers_open_their_pages_and_footers_close_theirs(tmp_path: Path) -> None:
    body = [f"{n}. Clause {n}. " + CLAUSE * 8 for n in range(1, 4)]
    headed = "".join(f"Page {n} of 3\n\n{text}\n\n" for n, text in enumerate(body, start=1))
    footed = "".join(f"{text}\n\n                 - {n} -\n\n" for n, text in enumerate(body, start=1))
    for text in (headed, footed):
        pages = parse_file(write(tmp_path, text)).pages
        assert [(p.number, p.approximate, p.text) for p in pages] == [
            (n, False, f"{n}. Clause {n}. " + CLAUSE * 7 + CLAUSE.strip()) for n in range(1, 4)]


def test_the_text_after_the_last_page_number_is_estimated_at_the_size_of_the_printed_pages(tmp_path: Path) -> None:
    printed = "".join(f"{CLAUSE * 20}\n\n-{n}-\n\n" for n in range(1, 4))
    appendix = "\n\n".join(f"Schedule item {n}. " + CLAUSE * 4 for n in range(30))
    pages = parse_file(write(tmp_path, printed + appendix)).pages
    assert [(p.number, p.approximate) for p in pages[:3]] == [(1, False), (2, False), (3, False)]
    assert len(pages) > 5 and all(p.approximate for p in pages[3:])
    assert [p.number for p in pages] == list(range(1, len(pages) + 1))


def test_numbers_that_do_not_count_pages_are_not_pages(tmp_path: Path) -> None:
    text = f"{CLAUSE * 10}\n\n-4-\n\n{CLAUSE * 10}\n\n-2-\n\n{CLAUSE}"
    pages = parse_file(write(tmp_path, text)).pages
    assert all(p.approximate for p in pages)  # 4 then 2: not a page count, so pages are estimated
    assert not any(PAGE_NUMBER.search(p.text) for p in pages)


def test_a_form_feed_file_keeps_its_pages_and_drops_their_printed_numbers(tmp_path: Path) -> None:
    pages = parse_file(write(tmp_path, f"{CLAUSE}\n\n   Page 1 of 2\f{CLAUSE}\n\n   Page 2 of 2\n")).pages
    assert [(p.number, p.approximate, p.text) for p in pages] == [(n, False, CLAUSE.strip()) for n in (1, 2)]


def test_a_form_feed_excerpt_of_a_transcript_carries_the_page_numbers_it_prints(tmp_path: Path) -> None:
    """An exported excerpt (pages 17-19 of a deposition, one per form feed) is cited as the transcript
    prints it: "Dep. 18:4" must point at the file's second page, numbered 18, not 2."""
    rows = "\n".join(f"{row:>2}   Q. Question {row}?" for row in range(1, 26))
    pages = parse_file(write(tmp_path, "\f".join(f"   Page {n}\n{rows}\n" for n in (17, 18, 19)) + "\f")).pages
    assert [(p.number, p.approximate) for p in pages] == [(17, False), (18, False), (19, False)]
    assert not any(PAGE_NUMBER.search(p.text) for p in pages)


@pytest.mark.parametrize("numbers", [(3, 7, 9), (1, 1, 1), (5, None, None)], ids=["not counting", "repeated", "once"])
def test_form_feed_pages_whose_printed_numbers_do_not_count_them_keep_their_own(
    tmp_path: Path, numbers: tuple[int | None, ...]
) -> None:
    text = "\f".join(f"{CLAUSE}\n\n   Page {n}\n" if n else CLAUSE for n in numbers)
    assert [p.number for p in parse_file(write(tmp_path, text)).pages] == [1, 2, 3]


def test_a_form_feed_cover_page_before_page_1_keeps_the_files_numbering(tmp_path: Path) -> None:
    text = "\f".join(["DEPOSITION OF JOHN SMITH", f"{CLAUSE}\nPage 1", f"{CLAUSE}\nPage 2"])
    assert [p.number for p in parse_file(write(tmp_path, text)).pages] == [1, 2, 3]  # no page 0


def test_a_table_laid_out_with_spaces_reads_as_single_spaced_words(tmp_path: Path) -> None:
    text = "Product            Price      Term\n   Oxyglobin        $4.50      12 months\n"
    (page,) = parse_file(write(tmp_path, text)).pages
    assert page.text == "Product Price Term\nOxyglobin $4.50 12 months"  # the file's two lines kept


def test_a_draft_keeps_its_indented_block_quotation(tmp_path: Path) -> None:
    from casetrack.parse.options import ParseOptions
    from casetrack.parse.text_file import parse_text_file

    path = write(tmp_path, "The court held:\n\n    The lessee shall repair the roof.\n\nSmith at 3.\n")
    (page,) = parse_text_file(path, ParseOptions(), keep_indents=True).pages
    assert "\n    The lessee shall repair the roof." in page.text
    (read,) = parse_file(path).pages  # a case document reads without its layout
    assert "\nThe lessee shall repair the roof." in read.text
