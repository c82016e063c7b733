"""An e-mail with files attached, through a real server: the attachments' passages are found,
cited to the e-mail and to the attachment's own page, and the e-mail stays correspondence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.parse.test_eml_attachments import LETTER, message, write

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_passage_of_an_attached_letter_is_found_and_cited_to_the_attachment(data_dir: Path,
                                                                                    tmp_path: Path) -> None:
    m = message("Please see the attached Rule 28(j) letter we filed today.\n\nJane\n")
    m.add_attachment(LETTER.read_bytes(), maintype="application", subtype="pdf", filename="28j letter.pdf")
    m.add_attachment(b"%PDF-1.4 truncated", maintype="application", subtype="pdf", filename="draft.pdf")
    mail = write(tmp_path, m, "Filed 28j letter.eml")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Xiang appeal")
        ingested = await call_ok(client, "ingest_document", file_path=str(mail))
        shown = text_of(ingested)
        assert "Attachment draft.pdf was not read" in shown  # the user learns which attachment is missing

        doc = (await call_ok(client, "list_documents")).structured_content["documents"][0]
        assert doc["document_type"] == "correspondence"  # the letter it carries does not make it a letter to a court
        details = (await call_ok(client, "get_document", document_name=doc["name"])).structured_content["document"]
        assert details["metadata"]["attachment_pages"] == "28j letter.pdf: pages 2-3"

        found = await call_ok(client, "search_case", query="Via ECF Clerk of Court Eighth Circuit", top_k=3)
        hit = found.structured_content["results"][0]
        assert hit["source"]["attachment"] == "28j letter.pdf"
        assert hit["source"]["attachment_page"] == 1 and hit["source"]["page"] == 2
        assert hit["citation"].startswith("Filed 28j letter.eml, p. 2 (attachment 28j letter.pdf, p. 1), para")

        chunk = await call_ok(client, "get_chunk", chunk_id=hit["chunk_id"])
        assert "Attachment:  28j letter.pdf, page 1 (a file attached to this e-mail)" in text_of(chunk)

        qin = await call_ok(client, "get_authority_citations", authority="2023 WL 128600")
        [first, *_] = qin.structured_content["citations"]  # the letter's citations are in the case graph
        assert first["mention_citation"].startswith("Filed 28j letter.eml, p. 2 (attachment 28j letter.pdf, p. 1)")

        timeline = (await call_ok(client, "get_case_timeline")).structured_content["events"]
        sent = [e for e in timeline if e["event"] == "sent"]
        assert [(e["date"], e["page"]) for e in sent] == [("2025-03-04", 1)]  # the message's own Date: header
        letter = [e for e in timeline if e["date"] == "2023-01-19"]
        assert letter
        assert letter[0]["citation"].startswith("Filed 28j letter.eml, p. 2 (attachment 28j letter.pdf, p. 1)")
        case_map = text_of(await call_ok(client, "get_case_map"))
        assert "2025-03-04  Sent: " in case_map
