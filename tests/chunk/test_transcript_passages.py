"""A transcript's passages are its exchanges (chunk.transcripts.passages, issue 37): a question is never in one
passage and its answer in the next, an objection stays between them, no exchange is in two passages, and a
document that is no transcript is cut by size as before. Real files: a condensed PDF (four transcript pages to a
sheet), a hearing as text, the two real depositions of the heldout_lit set."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import pytest

from casetrack.chunk import chunk_pages
from casetrack.chunk.legal import split_page
from casetrack.chunk.sizes import sizes_for
from casetrack.chunk.transcripts.passages import TRANSCRIPT_SIZES
from casetrack.chunk.transcripts.testimony import testimony as read_testimony
from casetrack.chunk.transcripts.transcript import Line, transcript_rows
from casetrack.domain import ChunkSpan, DocumentType, ExtractionMethod, ParsedPage
from casetrack.parse.dispatch import parse_file
from tests.transcript_files import condensed_pdf, full_page_text, hearing_pages

LIT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_lit" / "docs"


def _holder(chunks: list[ChunkSpan], row: Line) -> int:
    [held] = [c.sequence for c in chunks if c.page == row.file_page and c.char_start <= row.start < c.char_end]
    return held


def _exchanges_whole(pages: tuple[ParsedPage, ...] | list[ParsedPage], chunks: list[ChunkSpan]) -> int:
    """How many exchanges the chunks hold whole (asserting each question's passage holds its answer when both are
    on one page of the file)."""
    whole = 0
    for exchange in read_testimony(transcript_rows(pages)).exchanges:
        if exchange.answer is None:
            continue
        first, last = exchange.question.lines[0], exchange.answer.lines[-1]
        if first.file_page != last.file_page:
            continue  # over a break between sheets: no passage crosses a page of the file
        assert _holder(chunks, first) == _holder(chunks, last), f"{exchange.pin} split between two passages"
        whole += 1
    return whole


def test_each_question_of_a_condensed_deposition_is_in_the_passage_of_its_answer(tmp_path: Path) -> None:
    pages = parse_file(condensed_pdf(tmp_path / "Smith Dep (condensed).pdf")).pages
    chunks = chunk_pages(pages, DocumentType.DEPOSITION)
    assert _exchanges_whole(pages, chunks) == 18
    texts = {p.number: p.text for p in pages}
    # the objection between "Who approved it?" and the witness's answer is with both
    [approved] = [c for c in chunks if "Who approved it?" in c.text]
    assert "MR. BROWN: Objection. Form." in approved.text and "Mr. Ortiz approved it." in approved.text
    # no two passages overlap, and every row is in one
    for page in pages:
        spans = sorted((c.char_start, c.char_end) for c in chunks if c.page == page.number)
        assert all(a[1] <= b[0] for a, b in pairwise(spans))
    assert all(_holder(chunks, row) >= 0 for row in transcript_rows(pages) if row.text)
    # smaller than a sheet: a few exchanges each, never more than the largest passage
    assert len(chunks) > 2 * len(pages)
    assert all(len(texts[c.page][c.char_start:c.char_end]) <= TRANSCRIPT_SIZES.max_chars for c in chunks)


@pytest.mark.parametrize("name", ["Maxwell Deposition 2016-04-22 excerpts - Composite Exhibit A.pdf",
                                  "Sjoberg Deposition 2016-05-18 - Exhibit 5 (first 16 pages).pdf"])
def test_the_real_depositions_keep_their_questions_with_their_answers(name: str) -> None:
    pages = parse_file(LIT / name).pages
    chunks = chunk_pages(pages, DocumentType.DEPOSITION)
    assert _exchanges_whole(pages, chunks) >= 40  # of 61 and 54; the others run over a break between PDF pages


def test_a_hearing_is_cut_where_a_speaker_takes_the_floor() -> None:
    text = full_page_text(hearing_pages(), "Official Court Reporter")
    pages = [ParsedPage(n, t, ExtractionMethod.NATIVE) for n, t in enumerate(text.split("\f"), start=1)]
    chunks = chunk_pages(pages, DocumentType.OTHER)
    rows = [row for row in transcript_rows(pages) if row.text]
    openings = {_holder(chunks, row): row for row in reversed(rows)}  # each passage's first row
    assert len(openings) > len(pages)  # more than one passage a page
    assert all(row.text.startswith(("THE COURT:", "MS. JONES:", "MR. BROWN:")) for row in openings.values()
               if row.page > 1), openings  # after the title page


@pytest.mark.parametrize("quoted", [0, 4])
def test_a_brief_on_pleading_paper_is_cut_by_size_as_before_even_when_it_quotes_questions(quoted: int) -> None:
    """Pleading paper numbers its rows; a brief quoting a few questions and answers speaks in a few turns, which
    make it a transcript to cite by page and line (chunk.transcript.is_transcript) but not one to cut by exchanges."""
    rows = [f"The plaintiff alleges that the defendant breached the agreement in respect {n}." for n in range(1, 29)]
    rows[10:10 + quoted] = ["Q. Did you sign it?", "A. I did.", "Q. When?", "A. In March."][:quoted]
    pages = [ParsedPage(n, "\n".join(f"{i} {row}" for i, row in enumerate(rows, start=1)), ExtractionMethod.NATIVE)
             for n in (1, 2)]
    chunks = chunk_pages(pages, DocumentType.BRIEF)
    assert [(c.page, c.char_start, c.char_end) for c in chunks] == [
        (page.number, a, b) for page in pages for a, b in split_page(page.text, sizes_for(DocumentType.BRIEF))]
