"""Citations and quotes as Claude reads them from a real server over stdio: a quote copied from
CaseTrack into a brief reads as the document reads, and its lines and paragraphs are ones the
reader can find."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from mcp.types import CallToolResult

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.parse.evaldev import DOCS
from tests.parse.test_word_lines import CLAUSE, word_file

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_long_word_paragraph_is_cited_by_its_printed_lines_marked_estimated(data_dir: Path,
                                                                                   tmp_path: Path) -> None:
    path = word_file(tmp_path / "Consulting Agreement.docx", "Times New Roman", 12)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Lines")
        await call_ok(client, "ingest_document", file_path=str(path), wait_seconds=300)
        found = await call_ok(client, "search_case", query="skill and care of a prudent professional")
        first = found.structured_content["results"][0]
        shown = await call_ok(client, "get_chunk", chunk_id=first["chunk_id"])
    assert CLAUSE.strip() in first["text"]
    lines = re.search(r", ll\. (\d+)-(\d+) \(est\.\)$", first["citation"])
    assert lines, first["citation"]  # never "ll. 1-1" for a paragraph of 290 words
    assert int(lines.group(2)) - int(lines.group(1)) >= 12, first["citation"]
    assert first["source"]["lines_estimated"] is True
    assert first["citation"] in text_of(found)
    assert "(estimated: counted as the page prints" in text_of(shown)


async def search_one_document(data_dir: Path, name: str, **search: Any) -> CallToolResult:
    """search_case's answer in a case holding only the eval-dev document `name`."""
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="One document")
        await call_ok(client, "ingest_document", file_path=str(DOCS / name), wait_seconds=300)
        return await call_ok(client, "search_case", **search)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_text_filing_is_quoted_as_it_reads_and_cited_by_its_printed_pages(data_dir: Path) -> None:
    found = await search_one_document(data_dir, "cuad_biopure_agency_agreement.txt",
                                      query="jointly develop a written business plan",
                                      document_filter="cuad_biopure_agency_agreement.txt", top_k=3)
    first = found.structured_content["results"][0]
    assert "1.3. Business Plan. The Company and the Agent will jointly develop" in first["text"]
    assert first["citation"].startswith("cuad_biopure_agency_agreement.txt, p. 2, ")  # printed "-2-", no "(est.)"
    for result in found.structured_content["results"]:
        assert "  " not in result["text"] and not re.search(r"^\s*-\d+-\s*$", result["text"], re.MULTILINE)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_quote_from_a_scan_has_no_period_tesseract_read_for_a_space(data_dir: Path) -> None:
    found = await search_one_document(data_dir, "scan_ca10_order_in_re_liebowitz_2021.pdf",
                                      query="show cause in writing within 20 days", top_k=1)
    (first,) = found.structured_content["results"]
    assert first["source"]["extraction_method"] == "ocr"
    assert "within 20 days of the date of this" in " ".join(first["text"].split())  # the scan read "within.20"
