"""Case tools: create, list, switch, delete, info and the lifecycle (PRD 09 §2.1-2.5, PRD 07 §5)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.domain import Case
from casetrack.mcp.server import DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY, WRITES, ToolRegistrar, result
from casetrack.render import cases as render
from casetrack.render import documents as render_docs
from casetrack.service.app import CaseTrack

CaseTypeName = Literal["civil", "criminal", "family", "bankruptcy", "contract", "employment", "personal_injury",
                       "real_estate", "intellectual_property", "immigration", "other"]
OptionalCaseRef = Annotated[str | None, Field(description="Case name or ID; defaults to the active case")]


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    @tool(WRITES, "Create a new legal case. Creates an isolated database for this case on your machine. "
                  "Automatically switches to the new case.")
    def create_case(
        name: Annotated[str, Field(description="Case name (e.g., 'Smith v. Jones')")],
        case_number: Annotated[str | None, Field(description="Optional docket or case number")] = None,
        case_type: Annotated[CaseTypeName | None, Field(description="Type of legal case")] = None,
    ) -> CallToolResult:
        case = app.create_case(name, case_number, case_type)
        return result(render.created(case), {"case": render.case_dict(case, app.active_case_id)})

    @tool(READ_ONLY, "List all cases. Shows name, type, status, document count, and which case is active.")
    def list_cases(
        status_filter: Annotated[Literal["active", "closed", "archived", "all"],
                                 Field(description="Filter by case status")] = "active",
    ) -> CallToolResult:
        cases = app.list_cases(status_filter)
        hidden = 0 if status_filter == "all" else len(app.list_cases("all")) - len(cases)
        text = render.case_list(cases, app.active_case_id, status_filter, hidden)
        return result(text, {"status_filter": status_filter, "active_case_id": app.active_case_id,
                             "cases": [render.case_dict(c, app.active_case_id) for c in cases]})

    @tool(IDEMPOTENT_WRITE, "Switch to a different case. All subsequent operations (ingest, search) will use "
                            "this case.")
    def switch_case(case_name: Annotated[str, Field(description="Case name or ID to switch to")]) -> CallToolResult:
        case = app.switch_case(case_name)
        return result(render.switched(case), {"case": render.case_dict(case, app.active_case_id)})

    @tool(DESTRUCTIVE, "Permanently delete a case and all its documents, embeddings, and data. "
                       "This cannot be undone.")
    def delete_case(
        case_name: Annotated[str, Field(description="Case name or ID to delete")],
        confirm: Annotated[bool, Field(description="Must be true to confirm deletion")] = False,
    ) -> CallToolResult:
        case = app.delete_case(case_name, confirm)
        return result(render.deleted(case), {"deleted": render.case_dict(case)})

    @tool(READ_ONLY, "Get detailed information about the active case including document list and storage usage.")
    def get_case_info() -> CallToolResult:
        case = app.case_info()
        docs = app.documents.listing(case, "date", 500, 0)
        text = render.info(case, render_docs.documents_block(docs.documents, docs.total), app.embedders_summary())
        return result(text, {"case": render.case_dict(case, app.active_case_id),
                             "documents": [render_docs.document_dict(d) for d in docs.documents]})

    @tool(IDEMPOTENT_WRITE, "Close a case: it becomes read-only (search and browsing still work, ingestion is "
                            "refused). Use reopen_case to make it active again.")
    def close_case(case_name: OptionalCaseRef = None) -> CallToolResult:
        return _lifecycle(app, app.close_case, case_name)

    @tool(IDEMPOTENT_WRITE, "Reopen a closed or archived case so documents can be added again.")
    def reopen_case(case_name: OptionalCaseRef = None) -> CallToolResult:
        return _lifecycle(app, app.reopen_case, case_name)

    @tool(IDEMPOTENT_WRITE, "Archive a case: read-only and hidden from the default list_cases. "
                            "Use reopen_case to bring it back.")
    def archive_case(case_name: OptionalCaseRef = None) -> CallToolResult:
        return _lifecycle(app, app.archive_case, case_name)


def _lifecycle(app: CaseTrack, action: Callable[[str | None], Case], ref: str | None) -> CallToolResult:
    before = app.cases.resolve(ref).status.value if ref else app.active_case().status.value
    case = action(ref)
    return result(render.status_changed(case, before), {"case": render.case_dict(case, app.active_case_id)})
