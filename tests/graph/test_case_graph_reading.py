"""How the merged case graph reads to a user: a running header is one timeline event, a contract's
defined terms find its parties, and a miss never suggests unrelated names."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.errors import NotFound
from casetrack.service.app import CaseTrack
from casetrack.service.graph.case_graph import Event, Mention, collapse_running_lines
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer


def _event(iso: str, description: str, page: int, document: str = "d1", event: str = "other") -> Event:
    mention = Mention(document, f"{document}.pdf", f"chunk-{page}", page, 0, 10, description[:10])
    return Event(iso, event, description, mention)


def test_a_dated_running_footer_is_one_event_naming_its_other_pages() -> None:
    events = [
        _event("2001-05-15", "Source: EBIX INC, 10-Q, 5/15/2001", 1),
        _event("2001-05-15", "Source: EBIX INC, 10-Q, 5/15/2001", 2),
        _event("2001-05-15", "11 Source: EBIX INC, 10-Q, 5/15/2001", 3),  # the page number ran into it
    ]
    [merged] = collapse_running_lines(events)
    assert merged.mention.page == 1
    assert merged.also_on_pages == (2, 3)


def test_different_events_of_one_day_stay_apart() -> None:
    events = [
        _event("2023-01-19", "Appellate Case: 22-1801 Page: 1 Date Filed: 01/19/2023", 1, event="filed"),
        _event("2023-01-19", "January 19, 2023", 1),  # same page, other wording
        _event("2023-01-19", "January 19, 2023", 1),  # same page, same wording: a second mention, kept
        _event("2023-01-19", "Appellate Case: 22-1801 Page: 1 Date Filed: 01/19/2023", 1, document="d2",
               event="filed"),  # another document
        _event("2023-01-19", "The brief is due January 19, 2023.", 2, event="deadline"),
    ]
    assert collapse_running_lines(events) == events


CONSULTING = """CONSULTING AGREEMENT

This Consulting Agreement is made and entered into as of May 1, 2019 by and between Driven
Deliveries, Inc. ("Company"), a Nevada corporation, and TruckThat LLC ("Consultant").

1. Services. Consultant shall provide consulting services to the Company.
"""
LETTER = """Dear Sir,

We write on behalf of The Butler Company about the shipment of March 3, 2020.
"""


@pytest.fixture
def app_with_case(tmp_path: Path) -> tuple[CaseTrack, str]:
    app = CaseTrack.open(load_settings(tmp_path / "data"))
    case = app.create_case("Driven")
    ingestor = Ingestor(app.settings, app.cases, Indexer(None))
    for name, text in (("agreement.txt", CONSULTING), ("letter.txt", LETTER)):
        source = tmp_path / name
        source.write_text(text, encoding="utf-8")
        ingestor.ingest(app.cases.get(case.id), IngestRequest(str(source)))
    return app, case.id


def test_a_defined_term_finds_the_party_it_names(app_with_case: tuple[CaseTrack, str]) -> None:
    app, case_id = app_with_case
    graph = app.graph.graph(app.cases.get(case_id))
    assert [n.name for n in app.graph.find_entities(graph, "Consultant")] == ["TruckThat LLC"]
    assert [n.name for n in app.graph.find_entities(graph, "the Consultant")] == ["TruckThat LLC"]
    # The defined term wins over a name that merely holds the word.
    assert [n.name for n in app.graph.find_entities(graph, "Company")] == ["Driven Deliveries, Inc."]
    assert [n.name for n in app.graph.find_entities(graph, "Butler")] == ["Butler Company"]


def test_a_miss_suggests_only_names_that_look_alike(app_with_case: tuple[CaseTrack, str]) -> None:
    app, case_id = app_with_case
    graph = app.graph.graph(app.cases.get(case_id))
    with pytest.raises(NotFound) as miss:
        app.graph.find_entities(graph, "Consultancy")  # difflib rates "butler company" 0.4 alike
    assert "Did you mean" not in str(miss.value)
    assert "list_entities" in str(miss.value)
    with pytest.raises(NotFound) as typo:
        app.graph.find_entities(graph, "Trucking LLC")
    assert "TruckThat LLC" in str(typo.value)


def test_a_timeline_longer_than_its_passages_says_how_to_see_the_rest() -> None:
    from casetrack.domain import Case, CaseStatus, CaseType, Document, DocumentType
    from casetrack.mcp.outputs_graph import Timeline
    from casetrack.render.graph import timeline
    from casetrack.service.graph.model import LocatedMention
    from casetrack.service.graph.queries import Timeline as Found

    events = [_event(f"2020-01-0{n}", f"Event {n} on January {n}, 2020", n) for n in range(1, 4)]
    doc = Document("d1", "d1.pdf", None, "0" * 64, 1, 0.0, "pdf", DocumentType.OTHER, 1.0, "user", 3, 3, 0, 0, None,
                   0.0, None, ())
    details = [LocatedMention(e.mention, doc, "Event", 1, 1, f"d1.pdf, p. {n}, para. 1, l. 1", f"d1.pdf, p. {n}",
                              f"p. {n}", None) for n, e in enumerate(events[:2], start=1)]  # as located: 2
    text = timeline("Case", events, details, None, None)
    assert "Timeline of Case: 3 events" in text
    assert "(showing the first 2 of 3 events; narrow the range with start_date and end_date" in text
    case = Case("case-id", "Case", CaseType.OTHER, CaseStatus.ACTIVE, 0.0, 0.0)
    data = Timeline.of(Found(case, events, details, None, None))
    assert data.total == 3 and len(data.events) == 2


def test_a_located_mention_sends_its_passage_fields_only_when_its_chunk_is_stored() -> None:
    from dataclasses import replace

    from casetrack.domain import Document, DocumentType, ExtractionMethod, Provenance
    from casetrack.mcp.outputs_graph import Located
    from casetrack.service.graph.model import LocatedMention

    doc = Document("d1", "d1.pdf", "/cases/d1.pdf", "0" * 64, 1, 0.0, "pdf", DocumentType.OTHER, 1.0, "user", 1, 1,
                   0, 0, None, 0.0, None, ())
    mention = Mention("d1", "d1.pdf", None, 2, 5, 14, "Acme Corp", None, "supplier")
    bare = LocatedMention(mention, doc, "... Acme Corp ...", 3, 7, "d1.pdf, p. 2, para. 3, l. 7", "d1.pdf, p. 2",
                          "d1.pdf, p. 2", None)
    bare_sent = Located.of(bare).model_dump(mode="json", exclude_unset=True)  # as mcp/tools/base.result sends it
    assert bare_sent == {"text": "Acme Corp", "snippet": "... Acme Corp ...", "treatment": None, "role": "supplier",
                    "document": "d1.pdf", "document_id": "d1", "file_path": "/cases/d1.pdf", "page": 2,
                    "char_start": 5, "char_end": 14, "chunk_id": None, "mention_paragraph": 3, "mention_line": 7,
                    "mention_citation": "d1.pdf, p. 2, para. 3, l. 7", "citation": "d1.pdf, p. 2",
                    "citation_short": "d1.pdf, p. 2"}
    passage = Provenance("d1", "d1.pdf", "/cases/d1.pdf", 2, 3, 4, 6, 9, 0, 90, ExtractionMethod.OCR, 0.91, "ABC 12")
    stored = replace(bare, mention=mention._replace(chunk_id="c1"), passage=passage, mentions_in_passage=2)
    sent = Located.of(stored).model_dump(mode="json", exclude_unset=True)
    assert set(sent) == set(bare_sent) | {"paragraph_start", "paragraph_end", "line_start", "line_end",
                                          "extraction_method", "ocr_confidence", "bates", "mentions_in_passage"}
    assert (sent["chunk_id"], sent["paragraph_start"], sent["paragraph_end"], sent["line_start"], sent["line_end"],
            sent["extraction_method"], sent["ocr_confidence"], sent["bates"], sent["mentions_in_passage"]) == (
        "c1", 3, 4, 6, 9, "ocr", 0.91, "ABC 12", 2)


def test_an_event_whose_document_went_after_the_graph_was_built_takes_no_other_events_passage(
        app_with_case: tuple[CaseTrack, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The timeline reads events beside their located passages: a document deleted between building the graph
    and locating its mentions must drop its own events, not shift every later event onto its neighbour's
    passage (a date shown with another date's citation)."""
    app, case_id = app_with_case
    case = app.cases.get(case_id)
    stale = app.graph.graph(case)
    assert {e.mention.document_name for e in stale.events} == {"agreement.txt", "letter.txt"}
    app.delete_document(case, "agreement.txt", confirm=True)
    monkeypatch.setattr(app.graph, "graph", lambda _case: stale)  # the race: the graph read before the delete
    found = app.graph_queries.timeline(case, None, None)
    assert found.events and len(found.details) == len(found.events)
    for event, detail in zip(found.events, found.details, strict=True):
        assert event.mention is detail.mention
        assert detail.document.name == "letter.txt" and event.iso.startswith("2020")
    mentions = app.graph_queries.mentions(case, "Butler", "all", 10)
    assert [d.mentions_in_passage for d in mentions.details] == [1]
