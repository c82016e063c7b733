"""Correspondence through a real `casetrack serve` over stdio, as Claude reads it, on real e-mails from
benchmarks/heldout_email (Enron, 2001: the Southern California Edison strategy thread, a report and its
forward, a reply carrying a GroupWise-quoted request). Two cases hold the same messages: "Received", the
files as the set has them (.eml, and three Outlook .msg with Internet headers), and "Outlook", every message
an Outlook .msg written here with MAPI properties only, as Outlook keeps a sent item (no Message-ID chain).

In both: words a reply quotes are cited in the message that wrote them, the replies in `also_in`; a question
naming sender and recipient finds their exchange first; "tomorrow" and "on Friday" are dated against the day
their message was sent; get_email_thread gives each thread in the order sent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from benchmarks.heldout_email.make_set import outlook_file, parsed
from mcp import Client

from tests.mcp_helpers import call_ok, mcp_session, text_of

# The whole module with -m slow (CI runs it): its real-server fixture is one of the default run's slowest.
pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SET = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout_email"
ORIGINAL = "Proposed SCE Negotiation Strategy"  # Jim Steffes, Mon 29 Oct 2001 8:04 AM
WILLIAMS = "RE Proposed SCE Negotiation Strategy"  # Robert C. Williams: "Sounds good to me.", quoting it
DASOVICH = "RE Proposed SCE Negotiation Strategy (2)"  # 5:27 PM: "a one-pager by mid-day tomorrow"
LATER = "RE Proposed SCE Negotiation Strategy (3)"  # 6:54 PM, quoting Dasovich's reply and the original
TAPING = "RE Taping conversations in california"  # Mon 6 Aug, quoting a request of Thu 2 Aug: "on Friday"
BRAZIL, BRAZIL_FW = "Brazil Update", "FW Brazil Update"  # a report, then its forward
THREAD = (ORIGINAL, WILLIAMS, DASOVICH, LATER)
# The raw message (source/<key>.txt) each of the set's files was made from.
SOURCES = {ORIGINAL: "sce_orig", WILLIAMS: "sce_williams", DASOVICH: "sce_dasovich1", LATER: "sce_dasovich2",
           TAPING: "taping_haedicke", BRAZIL: "brazil_update", BRAZIL_FW: "brazil_fw",
           "Conversation with Edison re Getting Negative CTC Paid": "ctc_edison"}
MailCase = tuple[Path, str, dict[str, str]]  # data dir, case name, document name of each message
QUOTED = "My understanding was that Lisa M. was the lead negotiator - I would not change this."


def _received() -> dict[str, Path]:
    return {stem: next(p for p in (SET / "docs").glob(f"{stem}.*") if p.suffix in (".eml", ".msg"))
            for stem in SOURCES}


def _all_outlook(folder: Path) -> dict[str, Path]:
    """Every message, from its source text, as an Outlook .msg without Internet headers."""
    folder.mkdir()
    files = {stem: folder / f"{stem}.msg" for stem in SOURCES}
    for stem, key in SOURCES.items():
        raw = (SET / "source" / f"{key}.txt").read_text(encoding="utf-8")
        files[stem].write_bytes(outlook_file(parsed(raw), headers=False))
    return files


@pytest.fixture(scope="module")
def mail_data_dir(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, str]]]:
    """A data dir with both cases, ingested through the service (parse, chunk, embed, graph, RocksDB), not
    in thread order: the order is found. Returns it with each case's document name for each message."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest

    root = tmp_path_factory.mktemp("mail")
    app = CaseTrack.open(load_settings(root / "CaseTrack", environ={}))
    names = {}
    for case_name, files in (("Received", _received()), ("Outlook", _all_outlook(root / "outlook"))):
        case = app.create_case(case_name)
        for stem in sorted(files, reverse=True):
            app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(files[stem])))
        names[case_name] = {stem: path.name for stem, path in files.items()}
    assert names["Received"][DASOVICH].endswith(".msg") and names["Received"][ORIGINAL].endswith(".eml")
    app.jobs.shutdown()
    return root / "CaseTrack", names


@pytest.fixture(params=["Received", "Outlook"])
def mail_case(request: pytest.FixtureRequest, mail_data_dir: tuple[Path, dict[str, dict[str, str]]]) -> MailCase:
    """The data dir, one of its two cases, and that case's document name for each message."""
    data_dir, names = mail_data_dir
    return data_dir, request.param, names[request.param]


async def _search(client: Client, case: str, query: str, top_k: int = 5) -> list[dict[str, Any]]:
    found = await call_ok(client, "search_case", query=query, top_k=top_k, case_name=case)
    return list(found.structured_content["results"])


async def test_words_a_reply_quotes_are_cited_in_the_message_that_wrote_them(mail_case: MailCase) -> None:
    data_dir, case, name = mail_case
    async with mcp_session(data_dir) as client:
        hits = await _search(client, case, QUOTED)
    assert hits[0]["source"]["document"] == name[ORIGINAL] and QUOTED in " ".join(hits[0]["text"].split())
    # the three replies quoting Steffes are copies of his passage, not results of their own
    assert {c["source"]["document"] for c in hits[0]["also_in"]} == {name[WILLIAMS], name[DASOVICH], name[LATER]}
    assert all(QUOTED not in " ".join(h["text"].split()) for h in hits[1:])


async def test_a_question_naming_sender_and_recipient_finds_their_exchange_first(mail_case: MailCase) -> None:
    data_dir, case, name = mail_case
    async with mcp_session(data_dir) as client:
        hits = await _search(client, case, "What did Bob Williams tell Jim Steffes about his strategy?", top_k=3)
    assert hits[0]["source"]["document"] == name[WILLIAMS] and "Sounds good to me." in hits[0]["text"]


async def test_relative_dates_are_read_against_the_day_their_message_was_sent(mail_case: MailCase) -> None:
    data_dir, case, name = mail_case
    async with mcp_session(data_dir) as client:
        october = await call_ok(client, "get_case_timeline", start_date="2001-10-30", end_date="2001-10-30",
                                case_name=case)
        august = await call_ok(client, "get_case_timeline", start_date="2001-08-03", end_date="2001-08-03",
                               case_name=case)
    # Dasovich's "tomorrow", sent Monday 29 October, is Tuesday the 30th
    assert any(e["document"] == name[DASOVICH] and "one-pager" in e["description"]
               and "tomorrow: Tuesday, October 30, 2001" in e["description"]
               for e in october.structured_content["events"]), text_of(october)
    # "on Friday" in a request sent Thursday 2 August, quoted in a reply of Monday 6 August, is the 3rd
    assert any(e["document"] == name[TAPING] and "out of the office on Friday" in e["description"]
               and "on Friday: Friday, August 3, 2001" in e["description"]
               for e in august.structured_content["events"]), text_of(august)


async def test_get_email_thread_gives_the_thread_in_the_order_sent(mail_case: MailCase) -> None:
    data_dir, case, name = mail_case
    async with mcp_session(data_dir) as client:
        for asked in (LATER, DASOVICH, ORIGINAL):
            found = await call_ok(client, "get_email_thread", document_name=name[asked], case_name=case)
            thread = found.structured_content
            assert thread["subject"] == "Proposed SCE Negotiation Strategy"
            assert 'E-mail thread "Proposed SCE Negotiation Strategy" (4 messages)' in text_of(found)
            messages = thread["messages"]
            assert [m["document"] for m in messages] == [name[s] for s in THREAD]
            assert [m["replies_to"] for m in messages] == [None, name[ORIGINAL], name[ORIGINAL], name[DASOVICH]]
            assert all(m["citation"].startswith(f"{m['document']}, p. 1") for m in messages)
            assert "steffes" in (messages[0]["sender"] or "").lower()
        brazil = await call_ok(client, "get_email_thread", document_name=name[BRAZIL_FW], case_name=case)
        hit = (await _search(client, case, "Edison will distribute a one-pager", top_k=1))[0]
    assert [m["document"] for m in brazil.structured_content["messages"]] == [name[BRAZIL], name[BRAZIL_FW]]
    assert hit["thread"] == {"subject": "Proposed SCE Negotiation Strategy", "position": 3, "messages": 4}
