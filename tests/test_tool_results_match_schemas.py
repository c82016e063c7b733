"""Every tool's structured result validates against the output schema it publishes (issue 38), on a small real
case: a few short documents ingested through the real service (keyword index, context graph, transcript, e-mail),
every tool called once through the SDK's in-memory client. The end-to-end version over stdio, on the eval
documents with their embeddings, is `tests/test_tool_surface.py` (slow)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from mcp import Client
from nacl.signing import SigningKey

from casetrack.config import load_settings
from casetrack.mcp.server import build_server
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from tests.mcp_helpers import call_ok
from tests.stalled_files import long_text
from tests.test_tool_surface import REPLY, SPEC_TOOLS
from tests.transcript_files import full_page_text, smith_pages

AGREEMENT = """SUPPLY AGREEMENT

1. Parties. This Supply Agreement is made on 1 March 2024 between Acme Corp ("Supplier") and Beta LLC ("Buyer").

2. Termination. Either party may terminate this Agreement on 30 days' written notice of termination.

3. Governing Law. This Agreement is governed by the laws of the State of New York.
"""
LETTER = """UNITED STATES COURT OF APPEALS FOR THE EIGHTH CIRCUIT

Re: Acme Corp v. Beta LLC, No. 23-1234

Dear Clerk,

Under 42 U.S.C. § 1983 and Miranda v. Arizona, 384 U.S. 436 (1966), Beta LLC asks the court to note that the
termination of the Supply Agreement on 15 April 2024 was without notice.

Respectfully submitted, Jane Roe
"""
MEMO = "MEMORANDUM\n\nThe supplier must give 30 days' notice of termination under the Supply Agreement."


def _documents(folder: Path) -> dict[str, Path]:
    folder.mkdir()
    files = {"agreement": folder / "Acme Supply Agreement.txt", "letter": folder / "Letter to the Clerk.txt",
             "memo": folder / "memo.txt", "transcript": folder / "Smith Dep.txt"}
    files["agreement"].write_text(AGREEMENT, encoding="utf-8")
    files["letter"].write_text(LETTER, encoding="utf-8")
    files["memo"].write_text(MEMO, encoding="utf-8")
    files["transcript"].write_text(full_page_text(smith_pages()), encoding="utf-8")
    files["mail"] = Path(shutil.copy(REPLY, folder / REPLY.name))
    return files


def _pro_app(data_dir: Path) -> CaseTrack:
    signer = SigningKey.generate()  # a Pro licence, so the Pro tools answer rather than refuse
    key = licensing.issue(licensing.Claims("PRO", None, 1, licensing.new_serial()), bytes(signer))
    return CaseTrack.open(replace(load_settings(data_dir, environ={}), license_key=key),
                     licence_public_key=bytes(signer.verify_key))


@pytest.mark.anyio
async def test_every_tool_answers_a_small_case_with_what_its_output_schema_promises(tmp_path: Path) -> None:
    files = _documents(tmp_path / "docs")
    incoming = tmp_path / "incoming"
    incoming.mkdir()
    (incoming / "note.txt").write_text("Dear Counsel,\n\nThe deposit of $5,000 is due on 1 March 2025.\n")
    app = _pro_app(tmp_path / "CaseTrack")
    try:
        async with Client(build_server(app)) as client:
            schemas = {t.name: t.output_schema for t in (await client.list_tools()).tools}
            assert set(schemas) == set(SPEC_TOOLS)
            called = await _call_every_tool(client, files, incoming)
    finally:
        app.stop()
    assert set(called) == set(SPEC_TOOLS), sorted(set(SPEC_TOOLS) - set(called))
    for name, data in called.items():
        jsonschema.validate(data, schemas[name])  # the server checked its model, the client the schema; and here


async def _call_every_tool(client: Client, files: dict[str, Path], incoming: Path) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}

    async def call(tool: str, **arguments: Any) -> dict[str, Any]:
        result = await call_ok(client, tool, **arguments)
        assert result.structured_content is not None, tool
        out[tool] = result.structured_content
        return result.structured_content

    case_id = (await call("create_case", name="Small", case_type="contract"))["case"]["id"]
    for name in ("agreement", "letter", "memo", "transcript", "mail"):
        await call("ingest_document", file_path=str(files[name]))
    agreement, letter, transcript = (files[n].name for n in ("agreement", "letter", "transcript"))
    await call("get_status")
    await call("list_cases", status_filter="all")
    await call("switch_case", case_name="Small")
    await call("get_case_info")
    await call("list_documents", sort_by="name")
    await call("list_documents_by_type", document_type="contract")
    await call("get_document", document_name=agreement)
    await call("set_document_type", document_name=agreement, document_type="contract")
    found = await call("search_case", query="notice of termination", top_k=3)
    assert found["case"] == "Small" and found["case_id"] == case_id  # a program can follow the case by its id
    chunk = found["results"][0]["chunk_id"]
    await call("get_chunk", chunk_id=chunk)
    await call("get_document_chunks", document_name=agreement)
    await call("get_source_context", chunk_id=chunk)
    await call("browse_pages", document_name=agreement, start_page=1, end_page=1)
    await call("get_page_image", chunk_id=chunk)
    await call("traverse_chunks", start_chunk_id=chunk, count=2)
    assert (await call("get_document_structure", document_name=agreement))["entries"]  # its numbered clauses
    await call("list_clauses", document_name=agreement)
    await call("search_similar_chunks", chunk_id=chunk, min_similarity=0.0, top_k=3)
    await call("compare_documents", document_a=agreement, document_b=letter, topic="termination")
    await call("find_entity", entity="Acme Corp", top_k=3)
    await call("get_index_status")
    await call("reindex_document", document_name=agreement, reparse=False)
    await call("get_case_map")
    await call("get_case_timeline")
    await call("get_case_statistics")
    await call("list_entities", top_k=5)
    await call("get_entity_mentions", entity_name="Acme Corp", top_k=3)
    await call("search_entity_relationships", entities=["Acme Corp", "Beta LLC"], top_k=3)
    await call("list_authorities")
    await call("get_authority_citations", authority="42 U.S.C. § 1983")
    await call("find_related_documents", document_name=agreement)
    await call("find_document_clusters", strategy="document_type")
    await call("get_email_thread", document_name=files["mail"].name)
    await call("get_testimony", document_name=transcript, pages="4-5")
    await call("digest_transcript", document_name=transcript)
    await call("verify_draft", text=f'"Either party may terminate this Agreement" ({agreement}, p. 1).')
    await call("table_of_authorities", text=LETTER)
    job = await call("ingest_folder", folder_path=str(incoming), wait_seconds=60)
    await call("sync_folder", folder_path=str(incoming), dry_run=True, wait_seconds=60)
    await call("get_ingest_status")
    await call("get_ingest_status", job_id=job["job_id"])
    long = await call("ingest_document", file_path=str(long_text(incoming.parent / "deposition.txt")),
                      wait_seconds=0)
    assert (await call("cancel_ingest", job_id=long["job_id"]))["state"] == "cancelled"
    await call("watch_folder", folder_path=str(incoming), schedule="manual")
    await call("list_watches")
    await call("set_sync_schedule", folder_path=str(incoming), schedule="daily")
    await call("unwatch_folder", folder_path=str(incoming))
    await call("relink_document", document_name="memo.txt", file_path=str(files["memo"]))
    await call("reindex_case", confirm=True, reparse=False, wait_seconds=60)
    await call("delete_document", document_name="memo.txt", confirm=True)
    await call("close_case")
    await call("reopen_case")
    await call("archive_case")
    await call("delete_case", case_name="Small", confirm=True)
    return out
