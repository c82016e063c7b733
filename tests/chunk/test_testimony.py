"""Questions paired with their answers, examinations, exhibits and objections (chunk.testimony), read from the
real depositions of the heldout_lit set and from a condensed test transcript."""

from __future__ import annotations

from pathlib import Path

from casetrack.chunk.transcripts import testimony as qa
from casetrack.chunk.transcripts.testimony import ANSWER, exhibits, heading_of
from casetrack.chunk.transcripts.transcript import transcript_rows
from casetrack.parse.dispatch import parse_file
from tests.transcript_files import condensed_pdf

LIT = Path(__file__).resolve().parents[2] / "benchmarks" / "heldout_lit" / "docs"
SJOBERG = LIT / "Sjoberg Deposition 2016-05-18 - Exhibit 5 (first 16 pages).pdf"
MAXWELL = LIT / "Maxwell Deposition 2016-04-22 excerpts - Composite Exhibit A.pdf"


def test_the_index_gives_each_exhibit_its_description_and_page_and_the_record_where_it_was_marked() -> None:
    rows = transcript_rows(parse_file(SJOBERG).pages)
    said = qa.testimony(rows)
    found = [(x.number, x.description, x.index_page, [m.pin for m in x.marked]) for x in exhibits(rows, said.turns)]
    assert found == [("1", "Deposition Notice", 7, ["7:11"]), ("2", "Subpoena", 7, ["7:11"]),
                     ("3", "Flight log", 16, ["16:1"]), ("4", "Palm Beach Police Department Incident Report", 49, []),
                     ("5", "Red Ice Creations web article", 117, [])]
    [examination] = said.examinations
    assert (examination.heading, examination.examiner, examination.first.pin) == ("Examination", "Ms. McCAWLEY", "5:5")


def test_questions_are_paired_with_answers_over_objections_and_a_running_head_between_pages() -> None:
    said = qa.testimony(transcript_rows(parse_file(MAXWELL).pages))
    first = said.exchanges[0]
    assert (first.question.text, first.pin) == ("Q. You can answer.", "13:2-5")
    over_pages = next(x for x in said.exchanges if x.pin == "13:24-16:2")  # page 13's last rows, then page 16
    assert over_pages.question.text == "Q. Anybody that is not a friend of yours."  # no "G Maxwell - Confidential"
    objected = next(x for x in said.exchanges if x.pin == "13:10-15")
    assert [o.text for o in objected.objections] == ["MR. PAGLIUCA: Object to the form foundation."]
    assert objected.answer is not None and objected.answer.text == "A. Can you repeat the question?"
    assert all(x.examiner is None for x in said.exchanges)  # the excerpt prints no "BY MR. ...:" line: none guessed


def test_a_witness_answering_after_an_objection_is_the_answer(tmp_path: Path) -> None:
    said = qa.testimony(transcript_rows(parse_file(condensed_pdf(tmp_path / "Smith.pdf")).pages))
    approved = next(x for x in said.exchanges if x.question.text == "Q. Who approved it?")
    assert approved.answer is not None and approved.answer.kind == ANSWER and approved.answer.speaker == "The Witness"
    assert [o.pin for o in said.objections] == ["5:8", "6:11"]


def test_examination_headings_as_reporters_print_them() -> None:
    assert heading_of("E X A M I N A T I O N") == "Examination"
    assert heading_of("CROSS-EXAMINATION") == "Cross-examination"
    assert heading_of("REDIRECT EXAMINATION") == "Redirect examination"
    assert heading_of("FURTHER DIRECT EXAMINATION BY MS. JONES") == "Further direct examination"
    assert heading_of("Examination by Ms. McCawley ........ 5") is None  # an index row
