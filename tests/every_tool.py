"""One call of every tool with real arguments, each structured result kept: the one driver of
`test_tool_results_match_schemas` (a small case, the SDK's in-memory client) and `test_tool_surface` (the eval
documents, a real server over stdio). A new tool is called here once and both tests check it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp import Client

from tests.mcp_helpers import call_ok
from tests.stalled_files import long_text


@dataclass(frozen=True)
class Reading:
    """The case the reading tools look at (it holds `document` and `other`, two contracts or a contract and a
    letter) and what to ask of it."""

    case: str
    document: str  # a contract: chunks, structure, clauses, a draft's quotation
    other: str  # compared with `document`
    query: str
    entity: str  # a party both tools find
    entities: list[str]  # named together in a passage
    draft: str  # verify_draft's text, quoting `document`
    table_of_authorities: dict[str, str]  # its arguments: `text` or `file_path`
    authority: str | None = None  # None: the first list_authorities names


@dataclass(frozen=True)
class Writing:
    """The case the writing tools create, fill, change and delete, and the files they read."""

    case: str
    documents: list[Path]  # ingested one by one first; `memo`, `mail` and `transcript` among them
    memo: Path  # named memo.txt: relinked, then deleted
    mail: Path  # an e-mail of a thread
    transcript: Path  # a deposition, pages 4-5 at least
    folder: Path  # a folder of one short document
    long_file: Path  # where a document too long to finish before it is cancelled is written


@dataclass
class ToolCalls:
    """Calls tools through `client`, each required to answer without error and with a structured result."""

    client: Client
    results: dict[str, dict[str, Any]] = field(default_factory=dict)  # each tool's last result

    async def __call__(self, tool: str, **arguments: Any) -> dict[str, Any]:
        result = await call_ok(self.client, tool, **arguments)
        assert result.structured_content is not None, tool
        self.results[tool] = result.structured_content
        return result.structured_content


async def call_every_tool(client: Client, reading: Reading, writing: Writing) -> dict[str, dict[str, Any]]:
    """Every tool once (a few twice, with other arguments); returns each tool's last structured result."""
    call = ToolCalls(client)
    await call("create_case", name=writing.case, case_type="contract")
    for path in writing.documents:
        await call("ingest_document", file_path=str(path), case_name=writing.case)
    await _read(call, reading)
    await _write(call, writing)
    return call.results


async def _read(call: ToolCalls, r: Reading) -> None:
    await call("get_status")
    await call("list_cases", status_filter="all")
    await call("switch_case", case_name=r.case)
    case_id = (await call("get_case_info"))["case"]["id"]
    await call("list_documents", sort_by="name", limit=50)
    await call("list_documents_by_type", document_type="contract")
    await call("get_document", document_name=r.document)
    await call("set_document_type", document_name=r.document, document_type="contract")
    await call("search_case", query="which law governs", clause_type="governing_law", top_k=3)
    found = await call("search_case", query=r.query, top_k=3)
    assert found["case"] == r.case and found["case_id"] == case_id  # a program can follow the case by its id
    chunk = found["results"][0]["chunk_id"]
    await call("get_chunk", chunk_id=chunk)
    await call("get_document_chunks", document_name=r.document, page_filter=1)
    await call("get_source_context", chunk_id=chunk)
    await call("browse_pages", document_name=r.document, start_page=1, end_page=1)
    await call("get_page_image", chunk_id=chunk)
    await call("traverse_chunks", start_chunk_id=chunk, count=2)
    assert (await call("get_document_structure", document_name=r.document))["entries"]  # its numbered clauses
    await call("list_clauses", document_name=r.document)
    await call("search_similar_chunks", chunk_id=chunk, min_similarity=0.0, top_k=3)
    await call("compare_documents", document_a=r.document, document_b=r.other, topic="termination",
               top_k_per_document=2)
    await call("find_entity", entity=r.entity, top_k=3)
    await call("get_index_status")
    await call("reindex_document", document_name=r.document, reparse=False)
    await call("get_case_map")
    await call("get_case_timeline", start_date="2000", end_date="2030")
    await call("get_case_statistics")
    await call("list_entities", top_k=5)
    await call("get_entity_mentions", entity_name=r.entity, top_k=3)
    await call("search_entity_relationships", entities=r.entities, top_k=3)
    listed = (await call("list_authorities", top_k=5))["authorities"]
    await call("get_authority_citations", authority=r.authority or listed[0]["name"], top_k=3)
    await call("find_related_documents", document_name=r.document, top_k=3)
    await call("find_document_clusters", strategy="document_type")
    await call("verify_draft", text=r.draft)
    await call("table_of_authorities", **r.table_of_authorities)


async def _write(call: ToolCalls, w: Writing) -> None:
    case, folder = w.case, str(w.folder)
    await call("get_email_thread", document_name=w.mail.name, case_name=case)
    await call("get_testimony", document_name=w.transcript.name, pages="4-5", case_name=case)
    await call("digest_transcript", document_name=w.transcript.name, case_name=case)
    job = await call("ingest_folder", folder_path=folder, case_name=case, wait_seconds=60)
    await call("sync_folder", folder_path=folder, dry_run=True, case_name=case, wait_seconds=60)
    await call("get_ingest_status")
    await call("get_ingest_status", job_id=job["job_id"])
    long = await call("ingest_document", file_path=str(long_text(w.long_file)), case_name=case, wait_seconds=0)
    assert (await call("cancel_ingest", job_id=long["job_id"]))["state"] == "cancelled"
    await call("watch_folder", folder_path=folder, schedule="manual", case_name=case)
    await call("list_watches")
    await call("set_sync_schedule", folder_path=folder, schedule="daily")
    await call("unwatch_folder", folder_path=folder)
    await call("relink_document", document_name=w.memo.name, file_path=str(w.memo), case_name=case)
    await call("reindex_case", confirm=True, reparse=False, case_name=case, wait_seconds=60)
    await call("delete_document", document_name=w.memo.name, confirm=True, case_name=case)
    await call("close_case", case_name=case)
    await call("reopen_case", case_name=case)
    await call("archive_case", case_name=case)
    await call("delete_case", case_name=case, confirm=True)
