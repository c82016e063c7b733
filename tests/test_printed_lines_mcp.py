"""A complaint on pleading paper, through a real server: answers cite its printed line numbers."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.parse.test_printed_line_numbers import pleading_pdf

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_citations_into_a_pleading_use_the_numbers_printed_in_its_margin(data_dir: Path, tmp_path: Path) -> None:
    complaint = pleading_pdf(tmp_path / "Complaint - Doe v Acme.pdf")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Doe v. Acme")
        await call_ok(client, "ingest_document", file_path=str(complaint), document_type="pleading")

        cited = await call_ok(client, "get_authority_citations", authority="42 U.S.C. 1983")
        [first, second] = sorted(cited.structured_content["citations"], key=lambda c: c["page"])
        assert first["mention_line"] == second["mention_line"] == 18  # the 36th line of the page's text
        assert first["mention_citation"].startswith("Complaint - Doe v Acme.pdf, p. 1, para. ")
        assert first["mention_citation"].endswith(", l. 18")

        found = await call_ok(client, "search_case", query="terminated without notice", top_k=1)
        [hit] = found.structured_content["results"]
        assert hit["citation"].endswith("ll. 1-23")
        assert "22 3. On January 15, 2021, Defendant" in text_of(found)


@pytest.mark.slow  # end to end through a real server
async def test_a_filed_deposition_is_cited_by_the_page_and_lines_it_prints(data_dir: Path, tmp_path: Path) -> None:
    """A deposition filed as an exhibit prints "Page 12" on the file's page 3: a question citing "Dep. 12:7" gets
    that passage, cited by the file's page and by the transcript's own page and lines (chunk.pinpoints)."""
    from tests.test_search_pinpoints import _exhibit_pdf

    exhibit = tmp_path / "Jones Deposition - Exhibit 5.pdf"
    exhibit.write_bytes(_exhibit_pdf())
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Jones")
        await call_ok(client, "ingest_document", file_path=str(exhibit), document_type="deposition")
        found = await call_ok(client, "search_case", query="Jones Dep. 12:7", top_k=3)
        top = found.structured_content["results"][0]
        assert "sat in the rain" in top["text"] and top["source"]["page"] == 3
        printed = top["source"]["printed_lines"]
        assert printed.startswith("12:") and top["citation"].endswith(f"printed {printed}")
        assert f"printed {printed}" in text_of(found)
