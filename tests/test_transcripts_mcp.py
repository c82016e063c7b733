"""Transcripts through a real server (issue 37): a search cites a line of a condensed deposition by its transcript
page and line, and a hearing transcript's line by its printed page and line, as a brief does ("Smith Dep. 4:17-18
(Mar. 3, 2021)", "Hr'g Tr. 12:4"), not the sheet or the whole page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.transcript_files import HEARING_LINE, condensed_pdf, full_page_text, hearing_pages, smith_with_errata

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end through a real server
async def test_search_cites_the_transcript_lines_that_hold_the_answer(data_dir: Path, tmp_path: Path) -> None:
    deposition = condensed_pdf(tmp_path / "Smith Deposition (condensed).pdf")
    hearing = tmp_path / "Hearing on motion to compel 2021-03-10.txt"
    hearing.write_text(full_page_text(hearing_pages(), "Official Court Reporter"), encoding="utf-8")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Harbor Freight v. Continental")
        await call_ok(client, "ingest_document", file_path=str(deposition))
        await call_ok(client, "ingest_document", file_path=str(hearing))

        found = await call_ok(client, "search_case", query="signed it myself on the morning the load left the yard",
                              top_k=3)
        top = found.structured_content["results"][0]
        assert top["source"]["document"] == deposition.name and top["source"]["page"] == 1  # the first sheet
        assert top["transcript"]["pin"] == "4:17-18"
        assert top["transcript"]["citation"] == "Smith Dep. 4:17-18 (Mar. 3, 2021)"
        assert "Transcript: Smith Dep. 4:17-18 (Mar. 3, 2021)" in text_of(found)
        # the passage is the exchanges around the answer (from the examination's heading), not the sheet; get_chunk
        # and get_source_context cite it by its transcript page and lines
        assert top["text"].startswith("5 DIRECT EXAMINATION") and "19 Q. Did anyone inspect" not in top["text"]
        chunk = await call_ok(client, "get_chunk", chunk_id=top["chunk_id"])
        assert chunk.structured_content["transcript"]["lines"] == "4:5-18"
        assert chunk.structured_content["transcript"]["citation"] == "Smith Dep. 4:5-18 (Mar. 3, 2021)"
        around = await call_ok(client, "get_source_context", chunk_id=top["chunk_id"])
        assert around.structured_content["transcript"]["lines"] == "4:5-18"

        # "what did he say about the March invoice?": the exchange that answers it, with its page:line
        invoice = await call_ok(client, "search_case", query="was the pallet count on the March invoice right?",
                                top_k=3)
        top = invoice.structured_content["results"][0]
        assert "Was the count right?" in top["text"] and "Did you raise the overcharge" in top["text"]
        assert top["transcript"]["pin"].startswith("6:") and top["source"]["page"] == 2

        said = "I signed it myself, on the morning the load left the yard."
        checked = await call_ok(client, "verify_draft", text=f'Smith admitted: "{said}" (Smith Dep. 4:17-18). He '
                                f'said it twice: "{said}" (Smith Dep. 6:17-18).')
        right, wrong = checked.structured_content["quotes"]
        assert right["status"] == "verified" and right["found"]["printed"] == "4:17-18"
        assert wrong["status"] == "wrong_location" and wrong["found"]["citation"].endswith("printed 4:17-18")

        ruling = await call_ok(client, "search_case", query="was the motion to compel granted as to the March invoices",
                               top_k=3)
        top = ruling.structured_content["results"][0]
        assert HEARING_LINE in top["text"]
        assert top["transcript"]["pin"] == "12:4" and top["transcript"]["citation"] == "Hr'g Tr. 12:4 (Mar. 10, 2021)"


@pytest.mark.slow  # end to end through a real server
async def test_testimony_and_the_digest_of_a_condensed_deposition(data_dir: Path, tmp_path: Path) -> None:
    """get_testimony returns the first question with its page:line and the lawyer who asked it; digest_transcript
    lists the exhibits of the index with the page:line where each was marked, the examinations and objections, and
    the errata sheet's correction beside the answer it corrects."""
    deposition = condensed_pdf(tmp_path / "Smith Deposition (condensed).pdf", smith_with_errata())
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Harbor Freight v. Continental")
        await call_ok(client, "ingest_document", file_path=str(deposition))

        said = await call_ok(client, "get_testimony", document_name=deposition.name)
        data = said.structured_content
        first = data["exchanges"][0]
        assert (first["pin"], first["examiner"], first["examination"]) == ("4:7-9", "Ms. Jones", "Direct examination")
        assert first["question"] == {"pin": "4:7-8", "speaker": None,
                                     "text": "Q. Good morning, Mr. Smith. Would you state your name for the record?"}
        assert first["answer"]["text"] == "A. John Allen Smith." and first["file_page"] == 1
        assert first["citation"] == "Smith Dep. 4:7-9 (Mar. 3, 2021)"
        assert data["total"] == 18 and data["next_offset"] is None and len(data["exchanges"]) == 18
        assert "Smith Dep. 4:7-9 (Mar. 3, 2021) (Ms. Jones, direct examination)" in text_of(said)

        missing = await client.call_tool("get_testimony", {"document_name": "Jane Roe"})  # no document, no witness
        assert missing.is_error and 'not found: "Jane Roe"' in text_of(missing) and "list_documents" in text_of(missing)
        crossed = await call_ok(client, "get_testimony", document_name="John Smith", examiner="Brown")
        assert [x["pin"] for x in crossed.structured_content["exchanges"]] == ["7:3-5", "7:6-7"]
        invoice = await call_ok(client, "get_testimony", document_name=deposition.name, query="March invoice",
                                pages="6-")
        assert [x["pin"] for x in invoice.structured_content["exchanges"]] == ["6:2-3", "6:4-6", "6:7-9"]
        later = await call_ok(client, "get_testimony", document_name=deposition.name, offset=16)
        assert [x["pin"] for x in later.structured_content["exchanges"]] == ["7:3-5", "7:6-7"]
        billing = await call_ok(client, "get_testimony", document_name=deposition.name, query="overcharge")
        [objected] = billing.structured_content["exchanges"]
        assert objected["pin"] == "6:10-13"
        assert objected["objections"][0]["text"] == "MR. BROWN: Objection. Assumes facts."
        assert objected["answer"]["speaker"] == "The Witness"

        digest = (await call_ok(client, "digest_transcript", document_name=deposition.name)).structured_content
        assert [(x["number"], x["description"], x["index_page"], x["marked_at"]) for x in digest["exhibits"]] == [
            ("1", "Purchase order of January 5, 2020", 5, ["5:1"]), ("2", "The March invoice, No. 4471", 6, ["6:1"])]
        assert [(e["heading"], e["examiner"]) for e in digest["examinations"]] == [
            ("Direct examination", "Ms. Jones"), ("Cross-examination", "Mr. Brown")]
        assert [o["pin"] for o in digest["objections"]] == ["5:8", "6:11"]
        assert digest["topics"] and all(t["pin"] for t in digest["topics"])
        [errata] = digest["errata"]
        assert (errata["pin"], errata["original"], errata["corrected"]) == ("5:14", "Four hundred", "Three hundred")
        count = await call_ok(client, "get_testimony", document_name=deposition.name, query="pallets order call")
        [corrected] = [x for x in count.structured_content["exchanges"] if x["errata"]]
        assert corrected["pin"] == "5:13-14" and corrected["errata"][0]["reason"] == "misspoke"
        assert 'Errata sheet, 5:14: "Four hundred" should read "Three hundred" (misspoke)' in text_of(count)
