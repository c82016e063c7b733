"""The tool surface a client sees, through a real `casetrack serve` over stdio (issues 22 and 23):
every tool publishes an output schema and every one of its results validates against it; the
tool list a client puts in the model's context stays small; no tool or parameter of the spec was
dropped (nor one added since: verify_draft and table_of_authorities, issue 24); and every case-scoped tool takes
`case_name`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import EVAL_DEV
from tests.every_tool import Reading, Writing, call_every_tool
from tests.mcp_helpers import mcp_session, pro_env
from tests.transcript_files import full_page_text, smith_pages

# Every tool and parameter the spec names (the surface before issue 23, as clients and prompts know it).
SPEC_TOOLS: dict[str, list[str]] = {
    "create_case": ["case_number", "case_type", "name"], "list_cases": ["status_filter"],
    "switch_case": ["case_name"], "delete_case": ["case_name", "confirm"], "get_case_info": [],
    "close_case": ["case_name"], "reopen_case": ["case_name"], "archive_case": ["case_name"],
    "ingest_document": ["copy_original", "document_name", "document_type", "file_path", "wait_seconds"],
    "ingest_folder": ["document_type", "file_extensions", "folder_path", "recursive", "skip_existing",
                      "wait_seconds"],
    "sync_folder": ["document_type", "dry_run", "folder_path", "remove_deleted", "wait_seconds"],
    "get_ingest_status": ["job_id"], "cancel_ingest": ["job_id"], "list_documents": ["limit", "offset", "sort_by"],
    "list_documents_by_type": ["document_type"], "get_document": ["document_name"],
    "delete_document": ["confirm", "document_name"], "set_document_type": ["document_name", "document_type"],
    "get_chunk": ["chunk_id"], "get_document_chunks": ["document_name", "page_filter"],
    "get_source_context": ["chunk_id", "window"], "browse_pages": ["document_name", "end_page", "start_page"],
    "get_page_image": ["char_end", "char_start", "chunk_id", "document_name", "page"],
    "traverse_chunks": ["count", "direction", "start_chunk_id"], "get_document_structure": ["document_name"],
    "search_case": ["clause_type", "document_filter", "min_score", "query", "top_k"],
    "list_clauses": ["document_name"],  # issue 21's clause library, with search_case's clause_type
    "search_similar_chunks": ["chunk_id", "exclude_same_document", "min_similarity", "top_k"],
    "compare_documents": ["document_a", "document_b", "top_k_per_document", "topic"],
    "find_entity": ["entity", "entity_type", "top_k"], "reindex_document": ["document_name", "force", "reparse"],
    "reindex_case": ["confirm", "reparse", "skip_unchanged", "wait_seconds"], "get_index_status": ["document_filter"],
    "get_case_map": [], "get_case_timeline": ["end_date", "start_date"], "get_case_statistics": [],
    "list_entities": ["entity_type", "sort_by", "top_k"],
    "get_entity_mentions": ["entity_name", "entity_type", "top_k"],
    "search_entity_relationships": ["entities", "top_k"], "list_authorities": ["authority_type", "sort_by", "top_k"],
    "get_authority_citations": ["authority", "top_k", "treatment_filter"],
    "find_related_documents": ["document_name", "relationship_type", "top_k"], "get_email_thread": ["document_name"],
    "find_document_clusters": ["max_clusters", "strategy"], "get_status": [],
    "watch_folder": ["auto_remove_deleted", "file_extensions", "folder_path", "schedule"],
    "unwatch_folder": ["folder_path"], "list_watches": ["case_filter"],
    "set_sync_schedule": ["auto_remove_deleted", "folder_path", "schedule"],
    # issue 24
    "get_testimony": ["document_name", "query", "examiner", "pages", "offset"],
    "digest_transcript": ["document_name"],  # these two added by issue 37
    "verify_draft": ["file_path", "text"],
    "table_of_authorities": ["file_path", "output_path", "text", "write_docx"],  # output_path: issue 33 §4
    # issue 33: an imported document's source is never the archive's path until the user gives one
    "relink_document": ["document_name", "file_path"],
}
# Tools that act on no one case, or take it by another name: no `case_name` of their own.
NOT_CASE_SCOPED = {"create_case", "list_cases", "switch_case", "delete_case", "get_ingest_status", "cancel_ingest",
                   "get_status", "unwatch_folder", "list_watches", "set_sync_schedule", "table_of_authorities"}
DOCUMENTS = ("cuad_netgear_distributor_agreement.pdf", "cuad_lucid_distributor_agreement.pdf",
             "ca8_rule_28j_letter_us_v_xiang_2023.pdf")
REPLY = Path(__file__).parent.parent / "benchmarks/heldout_email/docs/RE Proposed SCE Negotiation Strategy.eml"
# bytes of tool names, descriptions and input schemas in the model's context: 24,000 for the tools of issue 32 and
# before, and 1,500 for the four of issues 33, 36 and 37 (relink_document, get_page_image, get_testimony,
# digest_transcript: ~1,800 bytes, their descriptions and parameters cut to the least)
CONTEXT_BUDGET = 25_500


def context_bytes(tool: Any) -> int:
    """What a client puts in the model's context for one tool, as JSON (the SDK's own field names)."""
    listed = tool.model_dump(by_alias=True, exclude_none=True, mode="json")
    return len(json.dumps({k: listed[k] for k in ("name", "description", "inputSchema") if k in listed}))


@pytest.fixture(scope="module")
def surface_data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A case of three real documents (two distributor agreements, a court letter citing authorities),
    ingested through the service: enough for every tool to have something to answer."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest.document import IngestRequest

    root = tmp_path_factory.mktemp("surface") / "CaseTrack"
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.create_case("Eval Dev", case_type="contract")
    for name in DOCUMENTS:
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(EVAL_DEV / "docs" / name)))
    app.jobs.shutdown()
    return root


@pytest.fixture
def scratch(tmp_path: Path) -> Writing:
    """The writing tools' own case, deleted at the end, and its files."""
    folder = tmp_path / "incoming"
    folder.mkdir()
    (folder / "letter.txt").write_text("Dear Counsel,\n\nThe deposit of $5,000 is due on 1 March 2025.\n\nRegards")
    memo, transcript = tmp_path / "memo.txt", tmp_path / "Smith Dep.txt"
    memo.write_text("MEMORANDUM\n\nThe supplier must give 30 days' notice of termination.")
    transcript.write_text(full_page_text(smith_pages()), encoding="utf-8")
    return Writing(case="Scratch", documents=[memo, REPLY, transcript], memo=memo, mail=REPLY, transcript=transcript,
                   folder=folder, long_file=tmp_path / "deposition.txt")


NETGEAR, LUCID, LETTER = DOCUMENTS
EVAL_DEV_READING = Reading(
    case="Eval Dev", document=NETGEAR, other=LUCID, query="termination of the agreement", entity="NETGEAR",
    entities=["NETGEAR", "Distributor"], draft=f'"No order will be effective until accepted" ({NETGEAR}, p. 2).',
    table_of_authorities={"file_path": str(EVAL_DEV / "docs" / LETTER)})


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
@pytest.mark.timeout(900)  # calls all ~50 tools (ingest included) over stdio: > 300 s on a busy 2-core machine
async def test_every_tool_publishes_an_output_schema_its_results_validate_against(surface_data_dir: Path,
                                                                                  scratch: Writing) -> None:
    async with mcp_session(surface_data_dir, **pro_env()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == set(SPEC_TOOLS)
        for name, tool in tools.items():
            schema = tool.output_schema
            assert schema and schema.get("type") == "object", name
            jsonschema.Draft202012Validator.check_schema(schema)
        called = await call_every_tool(client, EVAL_DEV_READING, scratch)
    for name, data in called.items():
        jsonschema.validate(data, tools[name].output_schema)  # and the client itself checked each one
    assert set(called) == set(SPEC_TOOLS), sorted(set(SPEC_TOOLS) - set(called))


@pytest.mark.anyio
async def test_the_tool_list_fits_its_budget_with_every_tool_and_parameter(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    missing = {name: sorted(set(params) - set(tools[name].input_schema.get("properties", {})))
               for name, params in SPEC_TOOLS.items() if name in tools}
    assert set(SPEC_TOOLS) <= set(tools) and not any(missing.values()), missing
    for name, tool in tools.items():
        properties = tool.input_schema.get("properties", {})
        if name not in NOT_CASE_SCOPED:  # optional: without it, the session's active case
            assert "case_name" in properties and "case_name" not in tool.input_schema.get("required", []), name
        assert tool.description and "\n" not in tool.description, name
        assert not any("title" in p for p in properties.values()), name  # pydantic's titles say nothing new
    total = sum(context_bytes(t) for t in tools.values())
    assert total <= CONTEXT_BUDGET, f"{total} bytes of tool definitions in every conversation"
