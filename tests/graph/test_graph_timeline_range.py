"""A timeline's date range keeps a date known only to its month or year when that month or
year overlaps the range: "March 2017" belongs to a range starting 2017-03-15."""

from __future__ import annotations

import pytest

from casetrack.domain import Document, DocumentType
from casetrack.graph.records import DateRecord, ExtractRecord
from casetrack.service.graph.case_graph import CaseGraph, Event, Mention, build_graph

DATES = ["2016", "2017-02-28", "2017-03", "2017-03-01", "2017-03-31", "2017-04", "2018-01-02"]


def graph() -> CaseGraph:
    mention = Mention("doc", "doc.pdf", None, 1, 0, 4, "date")
    return CaseGraph(0, {}, events=[Event(iso, "other", "", mention) for iso in DATES])


@pytest.mark.parametrize(("start", "end", "kept"), [
    (None, None, DATES),
    ("2017-03-15", None, ["2017-03", "2017-03-31", "2017-04", "2018-01-02"]),
    (None, "2017-03-15", ["2016", "2017-02-28", "2017-03", "2017-03-01"]),
    ("2017-03-01", "2017-03-31", ["2017-03", "2017-03-01", "2017-03-31"]),
    ("2016-06-01", "2016-06-30", ["2016"]),
    ("2017-05-01", "2017-12-31", []),
])
def test_dates_of_month_or_year_precision_are_kept_when_they_overlap_the_range(
        start: str | None, end: str | None, kept: list[str]) -> None:
    assert [e.iso for e in graph().events_between(start, end)] == kept


@pytest.mark.parametrize(("text", "cited"), [
    ("See United States v. Qin, No. 21-1832, 2023 WL 128600 (1st Cir. Jan. 9, 2023).", True),
    ("Smith v. Jones, 2021 WL 5551234, at *3 (S.D.N.Y. Mar. 3, 2021) (granting the motion).", True),
    ("Doe v. Roe, No. S-14054, slip op. at 3 (Alaska Oct. 29, 2010).", True),
    ("The amended complaint (Filed Jan. 5, 2023) adds two counts.", False),
    ("The parties exchanged drafts (Exhibit A, March 3, 2021).", False),
    ("On January 9, 2023, the court granted the motion to dismiss.", False),
    ("See Memorandum Opinion at 4-5 (May 3, 1996) (hereinafter Mem. Op.).", False),  # this case's own ruling
    ("See Segregation, CNN, http://www.cnn.com/2011/01/27 (as visited June 21, 2013).", True),
])
def test_a_cited_decisions_date_is_typed_cited_and_kept_off_the_timeline(text: str, cited: bool) -> None:
    from casetrack.domain import ExtractionMethod, ParsedPage
    from casetrack.graph import find_dates

    [date] = find_dates([ParsedPage(1, text, ExtractionMethod.NATIVE)])
    assert (date.event == "cited") is cited
    record = DateRecord.of(date)._replace(chunk_id="c1")
    doc = Document(id="d1", name="brief.pdf", original_path="/brief.pdf", file_hash="h", file_size=1, file_mtime=0.0,
                   format="pdf", document_type=DocumentType.BRIEF, type_confidence=1.0, type_source="user",
                   page_count=1, chunk_count=1, ocr_pages=0, skipped_pages=0, ocr_confidence=None, ingested_at=0.0,
                   embedded_at=None, embedders=(), warnings=(), metadata={})
    events = build_graph(0, {"d1": doc}, [("d1", ExtractRecord(dates=(record,)))]).events
    assert [e.iso for e in events] == ([] if cited else [date.iso])
