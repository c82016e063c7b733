"""A transcript as lawyers cite it (chunk.transcript): its rows by printed page and line, read from real files (a
condensed PDF of four transcript pages to a sheet, a full-page text file, the two real depositions of the
heldout_lit set), what it is and whose, and the rows of a passage that hold what a question asks."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.chunk.transcripts.transcript import Line, is_transcript, pinpoint, transcript_facts, transcript_rows
from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.parse.dispatch import parse_file
from tests.transcript_files import condensed_pdf, full_page_text, hearing_pages, smith_pages

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
LIT = BENCHMARKS / "heldout_lit" / "docs"


def _rows(path: Path) -> tuple[tuple[ParsedPage, ...], list[Line]]:
    pages = parse_file(path).pages
    return pages, transcript_rows(pages)


def _text_pages(text: str) -> list[ParsedPage]:
    return [ParsedPage(n, t, ExtractionMethod.NATIVE) for n, t in enumerate(text.split("\f"), start=1)]


def test_a_condensed_sheets_panels_are_read_as_transcript_pages_each_cited_by_its_own_rows(tmp_path: Path) -> None:
    pages, rows = _rows(condensed_pdf(tmp_path / "Smith Dep (condensed).pdf"))
    assert len(pages) == 2  # eight transcript pages on two sheets
    assert [(r.page, r.line) for r in rows] == [(p, n) for p in range(1, 9) for n in range(1, 26)]
    by_pin = {r.pin: r for r in rows}
    assert by_pin["4:15"].text == "Q. Who signed the bill of lading for the cedar" and by_pin["4:15"].file_page == 1
    assert by_pin["6:3"].text == "A. That is the March invoice for the same load." and by_pin["6:3"].file_page == 2
    sheet = pages[by_pin["6:3"].file_page - 1].text
    assert sheet[by_pin["6:3"].start:by_pin["6:3"].end].endswith("That is the March invoice for the same load.")
    assert is_transcript(rows)


def test_a_transcripts_facts_are_read_from_its_title_page(tmp_path: Path) -> None:
    facts = transcript_facts(parse_file(condensed_pdf(tmp_path / "Smith.pdf")).pages)
    assert (facts.kind, facts.witness, facts.date) == ("deposition", "John Smith", "Mar. 3, 2021")
    assert facts.cite("4:16-17") == "Smith Dep. 4:16-17 (Mar. 3, 2021)"
    hearing = tmp_path / "Hearing 2021-03-10.txt"
    hearing.write_text(full_page_text(hearing_pages()), encoding="utf-8")
    pages = parse_file(hearing).pages
    assert transcript_facts(pages).cite("12:4") == "Hr'g Tr. 12:4 (Mar. 10, 2021)"
    assert is_transcript(transcript_rows(pages))


@pytest.mark.parametrize(("name", "witness", "date"), [
    ("Maxwell Deposition 2016-04-22 excerpts - Composite Exhibit A.pdf", "Ghislaine Maxwell", "Apr. 22, 2016"),
    ("Sjoberg Deposition 2016-05-18 - Exhibit 5 (first 16 pages).pdf", "Johanna Sjoberg", "May 18, 2016"),
])  # fmt: skip
def test_the_real_depositions_filed_as_exhibits_are_transcripts_of_their_witness(name: str, witness: str,
                                                                                 date: str) -> None:
    pages, rows = _rows(LIT / name)
    assert is_transcript(rows)
    facts = transcript_facts(pages)
    assert (facts.kind, facts.witness, facts.date) == ("deposition", witness, date)


@pytest.mark.parametrize("path", [
    LIT / "Giuffre v Maxwell - Complaint (SDNY 15-cv-07433) ECF 1.pdf",
    LIT / "Pl Motion to Exceed Ten Deposition Limit - ECF 1320-10.docx",
    LIT / "Def Response to Churcher Motion to Quash Subpoena - ECF 1325-1.txt",
    *sorted((BENCHMARKS / "heldout" / "docs").glob("cuad_*")),
    *sorted(p for p in (BENCHMARKS / "heldout_court" / "docs").iterdir() if p.suffix in (".pdf", ".txt", ".docx")),
    *sorted(p for p in (BENCHMARKS / "heldout_mixed" / "docs").iterdir() if p.suffix in (".pdf", ".txt", ".docx")),
], ids=lambda p: p.name[:40])  # fmt: skip
def test_pleadings_motions_opinions_statutes_and_contracts_are_no_transcripts(path: Path) -> None:
    """Not even the motion about depositions, which quotes them, nor pleading paper's numbered rows, nor the
    opinions and agency decisions that quote testimony."""
    assert not is_transcript(transcript_rows(parse_file(path).pages))


@pytest.mark.parametrize(("question", "pin"), [
    ("Who signed the bill of lading for the cedar pallets?", ("4:15", "4:18")),  # the question, then its answer
    ("the inspector was out sick", ("4:20", "4:21")),
    ("who approved the purchase order", ("5:5", "5:9")),  # over the objection, to the witness's answer
    ("Smith Dep. 6:8", ("6:8", "6:8")),
])  # fmt: skip
def test_a_passage_is_pinpointed_to_the_rows_that_hold_what_the_question_asks(question: str,
                                                                             pin: tuple[str, str]) -> None:
    found = pinpoint(transcript_rows(_text_pages(full_page_text(smith_pages()))), question)
    assert found is not None and (found[0].pin, found[1].pin) == pin


def test_a_question_whose_words_no_row_holds_gets_no_pinpoint() -> None:
    assert pinpoint(transcript_rows(_text_pages(full_page_text(smith_pages()))), "zeppelin quorum") is None


def test_a_word_transcript_is_read_by_the_pages_and_rows_it_prints(tmp_path: Path) -> None:
    import docx
    from docx.enum.text import WD_BREAK

    document = docx.Document()
    for page, rows in sorted(smith_pages().items()):
        document.add_paragraph(f"Page {page}")
        for row, text in enumerate(rows, start=1):
            document.add_paragraph(f"{row}  {text}".rstrip())
        document.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    document.save(tmp_path / "Smith Dep.docx")
    pages, rows = _rows(tmp_path / "Smith Dep.docx")
    assert is_transcript(rows) and len(rows) == 200
    found = pinpoint(rows, "who signed the bill of lading")
    assert found is not None and (found[0].pin, found[1].pin) == ("4:15", "4:18")
    assert transcript_facts(pages).cite("4:15-18") == "Smith Dep. 4:15-18 (Mar. 3, 2021)"
