"""Correspondence searched as messages, through the real service (a real case store, real ONNX inference),
on real e-mails (benchmarks/heldout_email: the Southern California Edison strategy thread, .eml and .msg):
a reply's quoted words are cited in the message that wrote them, a question naming sender and recipient
finds their exchange first, relative dates are read against the sent date, and the thread comes back in
the order sent whichever format each message is in."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest

DOCS = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout_email" / "docs"
ORIGINAL = "Proposed SCE Negotiation Strategy.eml"  # Jim Steffes, 8:04 AM
WILLIAMS = "RE Proposed SCE Negotiation Strategy.eml"  # "Sounds good to me.", quoting the original
DASOVICH = "RE Proposed SCE Negotiation Strategy (2).msg"  # 5:27 PM, quoting the original; Outlook file
LATER = "RE Proposed SCE Negotiation Strategy (3).eml"  # 6:54 PM, quoting both
OTHERS = ("Conversation with Edison re Getting Negative CTC Paid.eml", "Brazil Update.eml", "FW Brazil Update.msg")


@pytest.fixture(scope="module")
def thread_case(tmp_path_factory: pytest.TempPathFactory) -> tuple[CaseTrack, Case]:
    app = CaseTrack.open(load_settings(tmp_path_factory.mktemp("mail") / "data"))
    case = app.create_case("SCE")
    for name in (LATER, WILLIAMS, *OTHERS, DASOVICH, ORIGINAL):  # not in thread order: the order is found
        app.ingestor.ingest(case, IngestRequest(str(DOCS / name)))
    return app, case


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_words_a_reply_quotes_are_cited_where_they_were_written_with_the_quotations_as_copies(
        thread_case: tuple[CaseTrack, Case]) -> None:
    app, case = thread_case
    hits = app.search.search(case, "Who was the lead negotiator Steffes wanted to keep for SCE?", top_k=5).hits
    top = hits[0]
    assert top.chunk.provenance.document_name == ORIGINAL
    assert "Lisa M. was the lead negotiator" in top.chunk.text
    assert {c.provenance.document_name for c in top.copies} == {WILLIAMS, DASOVICH, LATER}
    assert all("Lisa M. was the lead negotiator" in c.text for c in top.copies)
    assert all(h.chunk.provenance.document_name != WILLIAMS or "lead negotiator" not in h.chunk.text for h in hits[1:])


def test_a_question_naming_sender_and_recipient_finds_their_exchange_first(
        thread_case: tuple[CaseTrack, Case]) -> None:
    app, case = thread_case
    top = app.search.search(case, "What did Bob Williams tell Jim Steffes about his strategy?", top_k=3).hits[0]
    assert top.chunk.provenance.document_name == WILLIAMS
    assert "Sounds good to me." in top.chunk.text


def test_a_relative_date_is_dated_against_the_day_its_message_was_sent(thread_case: tuple[CaseTrack, Case]) -> None:
    app, case = thread_case
    events = app.graph_queries.timeline(case, "2001-10-30", "2001-10-30").events
    [one_pager] = [e for e in events if e.mention.document_name == DASOVICH and "one-pager" in e.description]
    assert "tomorrow: Tuesday, October 30, 2001" in one_pager.description
    thursday = [e for e in app.graph_queries.timeline(case, "2001-11-01", "2001-11-01").events
                if e.mention.document_name == ORIGINAL]
    assert thursday and "this Thursday" in thursday[0].description


def test_a_thread_comes_back_in_the_order_sent_from_an_eml_and_a_msg_alike(thread_case: tuple[CaseTrack, Case]) -> None:
    app, case = thread_case
    for asked in (DASOVICH, WILLIAMS):
        found = app.search.email_thread(case, asked)
        assert [d.name for d in found.messages] == [ORIGINAL, WILLIAMS, DASOVICH, LATER]
        assert found.subject == "Proposed SCE Negotiation Strategy"
        names = {d.id: d.name for d in found.messages}
        assert {names[c]: names[p] for c, p in found.replies_to.items()} == {
            WILLIAMS: ORIGINAL, DASOVICH: ORIGINAL, LATER: DASOVICH}
    brazil = app.search.email_thread(case, "FW Brazil Update.msg")
    assert [d.name for d in brazil.messages] == ["Brazil Update.eml", "FW Brazil Update.msg"]
    hit = app.search.search(case, "Edison will distribute a one-pager", top_k=1).hits[0]
    assert hit.chunk.provenance.document_name == DASOVICH
    assert hit.thread is not None and (hit.thread.position, hit.thread.messages) == (3, 4)
