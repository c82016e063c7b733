"""The places lawyers cite inside transcripts and pleadings (chunk.pinpoints): which printed page and line each
transcript row is, which numbered paragraph opens where, and the terms a question's pin cite becomes."""

from __future__ import annotations

import pytest

from casetrack.chunk.pinpoints import (
    chunk_place_terms,
    paragraph_openings,
    printed_lines,
    query_pin_terms,
    transcript_lines,
)
from casetrack.domain import ChunkSpan, ExtractionMethod, ParsedPage


def transcript_page(number: int, rows: range = range(1, 26), mark: str = "Page {n}") -> str:
    lines = [mark.format(n=number)] if mark else []
    lines += [f"{row}    Q. Question {row} asked on page {number}?" for row in rows]
    return "\n".join(lines)


def places(text: str) -> list[tuple[int, int]]:
    return [(page, line) for _, page, line in transcript_lines(text)[0]]


def test_each_row_is_cited_by_the_page_printed_above_it_and_its_own_number() -> None:
    text = transcript_page(17)
    rows = transcript_lines(text)[0]
    assert [(p, n) for _, p, n in rows] == [(17, n) for n in range(1, 26)]
    offset, _, _ = rows[18]
    assert text[offset:].startswith("19    Q. Question 19 asked on page 17?")


def test_a_condensed_page_holds_several_transcript_pages_each_under_its_own_number() -> None:
    text = "\n".join([transcript_page(17), "MAGNA LEGAL SERVICES",
                      "Case 1:15-cv-07433 Document 1 Filed 01/03/24 Page 9 of 56", transcript_page(19, mark="- {n} -")])
    assert places(text) == [(17, n) for n in range(1, 26)] + [(19, n) for n in range(1, 26)]


def test_a_transcript_page_split_over_two_pages_of_the_file_goes_on_with_its_numbering() -> None:
    first, carried = transcript_lines(transcript_page(4, range(1, 21)))
    second, _ = transcript_lines("\n".join(f"{row}    A. Answer {row}." for row in range(21, 26)) + "\n"
                                 + transcript_page(5), carried)
    assert [(p, n) for _, p, n in second] == [(4, n) for n in range(21, 26)] + [(5, n) for n in range(1, 26)]
    assert len(first) == 20


@pytest.mark.parametrize("text", [
    transcript_page(3, mark=""),  # rows under no page number: no place anyone could cite
    "Page 2\n" + "\n".join(f"{n}. Item {n} of a numbered list" for n in range(1, 12)),  # "1." is no row number
    "Page 2\n1 apple\n2 pears\n3 plums\nThe rest is prose.",  # too few rows to be a transcript page
])  # fmt: skip
def test_text_that_is_not_a_numbered_transcript_page_has_no_places(text: str) -> None:
    assert places(text) == []


def test_numbered_paragraphs_open_where_their_number_is_printed_also_after_pleading_line_numbers() -> None:
    text = "23. Defendant knew.\n24. In 2011, agents found her.\n12    25. \u201cShe lied,\u201d Defendant said.\n" \
           "26.5 percent of the shares\n2015. was the year"
    assert [n for _, n in paragraph_openings(text)] == [23, 24, 25]
    offset = next(o for o, n in paragraph_openings(text) if n == 24)
    assert text[offset:].startswith("24. In 2011")


def test_each_chunk_holds_the_places_that_open_inside_it() -> None:
    text = transcript_page(8)
    page = ParsedPage(1, text, ExtractionMethod.NATIVE)
    middle = text.index("13    Q.")
    spans = [ChunkSpan(0, 1, 0, middle, text[:middle], 1, 1, 1, 12, 100),
             ChunkSpan(1, 1, middle, len(text), text[middle:], 1, 1, 13, 25, 100)]
    first, second = chunk_place_terms([page], spans)
    assert first == [f"pin:8:{n}" for n in range(1, 13)] and second == [f"pin:8:{n}" for n in range(13, 26)]


@pytest.mark.parametrize(("question", "terms"), [
    ("Maxwell Dep. 17:19", ["pin:17:19"]),
    ("Smith Tr. 31:9-18", ["pin:31:9"]),
    ("Jones testimony at 55:5 - 56:3", ["pin:55:5", "pin:56:3"]),
    ("Compl. 3:12", ["pin:3:12"]),
    ("page 31, lines 9-18 of the deposition", ["pin:31:9"]),
    ("p. 4, ll. 2-3", ["pin:4:2"]),
    ("Case 1:15-cv-07433 and 1:20CV457", []),  # docket numbers are not page and line
    ("the 10/31/2017 hearing", []),
    ("what was said at the 9:15 meeting", []),  # no transcript named: a time
    ("did the deponent arrive at 9:15 a.m. or 10:30 PM", []),
])  # fmt: skip
def test_a_questions_pin_cite_becomes_the_term_of_the_line_it_points_to(question: str, terms: list[str]) -> None:
    assert query_pin_terms(question) == terms


def test_a_page_that_starts_a_new_transcript_page_is_not_taken_for_the_rest_of_the_one_before() -> None:
    """A text file's pages (the parser took out their "Page N" lines): each full page carries on to the next, which
    starts again at row 1 under its own number."""
    page = ParsedPage(3, transcript_page(3, mark=""), ExtractionMethod.NATIVE)
    after = ParsedPage(4, transcript_page(4, mark=""), ExtractionMethod.NATIVE)
    text = after.text
    span = ChunkSpan(0, 4, 0, len(text), text, 1, 1, 1, 25, 100)
    assert chunk_place_terms([page, after], [span]) == [[f"pin:4:{n}" for n in range(1, 26)]]


@pytest.mark.parametrize(("terms", "file_page", "cited"), [
    (["pin:17:19", "pin:17:20", "pin:17:25"], 8, "17:19-25"),
    (["pin:17:24", "pin:17:25", "pin:18:1", "pin:18:4"], 8, "17:24-18:4"),
    (["¶24", "pin:3:7"], 1, "3:7"),
    (["pin:17:19", "pin:17:25"], 17, None),  # the file's page 17 prints 17: "p. 17, ll. 19-25" says it
    (["¶24", "ref:546 u.s. 481"], 3, None),
])  # fmt: skip
def test_a_chunks_printed_lines_are_cited_as_lawyers_cite_a_transcript(terms: list[str], file_page: int,
                                                                       cited: str | None) -> None:
    assert printed_lines(terms, file_page) == cited


@pytest.mark.parametrize("number", [1, 2, 3, 17])
def test_a_page_number_printed_alone_above_the_rows_is_the_page_not_a_row(number: int) -> None:
    """A deposition's first pages print "2" alone at the top, which could be a blank row 2 as well."""
    assert places(transcript_page(number, mark="{n}")) == [(number, n) for n in range(1, 26)]
