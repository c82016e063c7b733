"""A page number CaseTrack estimated is cited as an estimate, never as the document's own page.

DOCX without page breaks, TXT without form feeds and e-mail have no fixed pages; CaseTrack
splits them by length so passages can be browsed, but a lawyer who quotes "p. 3" of such a
file from an answer would be citing a page Word may put elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.domain import ExtractionMethod, Provenance
from tests.mcp_helpers import call_ok, mcp_session, pro_env, text_of

pytestmark = pytest.mark.anyio

_CLAUSE = (
    "The Supplier shall deliver the Goods to the Buyer's warehouse within thirty (30) days of each "
    "purchase order, and title shall pass on delivery. "
)


def _provenance(approximate: bool, bates: str | None = None) -> Provenance:
    return Provenance(document_id="d", document_name="Supply Agreement.docx", document_path=None, page=3,
                      paragraph_start=2, paragraph_end=4, line_start=1, line_end=9, char_start=0, char_end=10,
                      extraction_method=ExtractionMethod.NATIVE, bates_number=bates, page_approximate=approximate)


def test_an_estimated_page_says_so_in_both_citations() -> None:
    assert _provenance(True).cite() == "Supply Agreement.docx, p. 3 (est.), paras. 2-4, ll. 1-9"
    assert _provenance(True).cite_short() == "Supply Agreement, p. 3 (est.)"
    assert _provenance(False).cite() == "Supply Agreement.docx, p. 3, paras. 2-4, ll. 1-9"
    assert _provenance(False).cite_short() == "Supply Agreement, p. 3"
    assert _provenance(True, "ABC 000123").cite_short() == "ABC 000123"  # a Bates stamp is printed: no estimate


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_search_and_graph_answers_mark_estimated_pages_only(data_dir: Path, tmp_path: Path) -> None:
    body = "\n\n".join(
        f"{n}. Delivery. {_CLAUSE}" + ("See 42 U.S.C. \u00a7 1983." if n == 9 else "") for n in range(1, 40)
    )
    (tmp_path / "supply_notes.txt").write_text(body, encoding="utf-8")  # no form feeds: pages estimated
    paged = f"Page one of the filing. {_CLAUSE}\f Page two. See 42 U.S.C. \u00a7 1983."
    (tmp_path / "paged_filing.txt").write_text(paged, encoding="utf-8")  # form feeds: real pages
    async with mcp_session(data_dir, **pro_env()) as client:
        await call_ok(client, "create_case", name="Estimates")
        await call_ok(client, "ingest_folder", folder_path=str(tmp_path), wait_seconds=120)

        found = await call_ok(client, "search_case", query="deliver goods to the warehouse", top_k=10)
        citations = {r["citation"] for r in found.structured_content["results"]}
        assert any(c.startswith("supply_notes.txt, p. ") and "(est.)" in c for c in citations), citations
        assert any(c.startswith("paged_filing.txt, p. 1, ") for c in citations), citations
        assert not any(c.startswith("paged_filing.txt") and "(est.)" in c for c in citations)
        assert all(r["source"]["page_approximate"] == r["citation"].startswith("supply_notes")
                   for r in found.structured_content["results"])
        for citation in citations:
            assert citation in text_of(found)

        cited = await call_ok(client, "get_authority_citations", authority="42 U.S.C. 1983")
        by_document = {c["document"]: c["mention_citation"] for c in cited.structured_content["citations"]}
        assert "(est.)" in by_document["supply_notes.txt"]
        assert by_document["paged_filing.txt"].startswith("paged_filing.txt, p. 2, para. 1, l. 1")
