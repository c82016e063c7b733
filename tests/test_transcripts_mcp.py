"""Transcripts through a real server (issue 37): a search cites a line of a condensed deposition by its transcript
page and line, and a hearing transcript's line by its printed page and line, as a brief does ("Smith Dep. 4:17-18
(Mar. 3, 2021)", "Hr'g Tr. 12:4"), not the sheet or the whole page."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.transcript_files import HEARING_LINE, condensed_pdf, full_page_text, hearing_pages

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

        ruling = await call_ok(client, "search_case", query="was the motion to compel granted as to the March invoices",
                               top_k=3)
        top = ruling.structured_content["results"][0]
        assert HEARING_LINE in top["text"]
        assert top["transcript"]["pin"] == "12:4" and top["transcript"]["citation"] == "Hr'g Tr. 12:4 (Mar. 10, 2021)"
