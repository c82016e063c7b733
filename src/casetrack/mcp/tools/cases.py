"""Case tools (PRD 09 §2.1-2.5, PRD 07 §5): create, list, switch, delete, details, lifecycle."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.domain import CaseStatus
from casetrack.mcp import outputs as out
from casetrack.mcp.tools.base import CaseName, Confirm, Ctx, app_of, result
from casetrack.render import cases as render
from casetrack.render import documents as render_docs
from casetrack.service.app import CaseTrack

CaseTypeName = Literal["civil", "criminal", "family", "bankruptcy", "contract", "employment", "personal_injury",
                       "real_estate", "intellectual_property", "immigration", "other"]


def create_case(
    ctx: Ctx,
    name: Annotated[str, Field(description="e.g. 'Smith v. Jones'")],
    case_number: Annotated[str | None, Field(description="Docket or case number")] = None,
    case_type: CaseTypeName | None = None,
) -> Annotated[CallToolResult, out.CaseResult]:
    """Create a case (its own database on this machine) and make it the active case."""
    app = app_of(ctx)
    case = app.create_case(name, case_number, case_type)
    return result(render.created(case), out.CaseResult(case=out.CaseOut.of(case, app.active_case_id)))


def list_cases(
    ctx: Ctx, status_filter: Literal["active", "closed", "archived", "all"] = "active",
) -> Annotated[CallToolResult, out.CaseList]:
    """List cases with type, status, document count, and which one is active."""
    listing = app_of(ctx).case_listing(status_filter)
    text = render.case_list(listing.cases, listing.active_id, status_filter, listing.hidden)
    return result(text, out.CaseList(status_filter=status_filter, active_case_id=listing.active_id,
                                     cases=[out.CaseOut.of(c, listing.active_id) for c in listing.cases]))


def switch_case(
    ctx: Ctx, case_name: Annotated[str, Field(description="Case name or ID")],
) -> Annotated[CallToolResult, out.CaseResult]:
    """Make a case the active one for this session and the next ones. To act on another case
    once, pass case_name to that tool instead."""
    app = app_of(ctx)
    case = app.switch_case(case_name)
    return result(render.switched(case), out.CaseResult(case=out.CaseOut.of(case, app.active_case_id)))


def delete_case(
    ctx: Ctx, case_name: Annotated[str, Field(description="Case name or ID")], confirm: Confirm = False,
) -> Annotated[CallToolResult, out.DeletedCase]:
    """Permanently delete a case with all its documents and data (not the original files)."""
    case = app_of(ctx).delete_case(case_name, confirm)
    return result(render.deleted(case), out.DeletedCase(deleted=out.CaseOut.of(case)))


def get_case_info(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseInfo]:
    """A case's details, document list and storage use."""
    app = app_of(ctx)
    view = app.case_overview(case_name)
    text = render.info(view.case, render_docs.documents_block(view.documents, view.total_documents), view.embedders)
    return result(text, out.CaseInfo(case=out.CaseOut.of(view.case, app.active_case_id),
                                     documents=out.documents_of(view.documents)))


def close_case(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseResult]:
    """Make a case read-only: search and browsing work, ingestion is refused (reopen_case undoes)."""
    return _lifecycle(app_of(ctx), case_name, CaseStatus.CLOSED)


def reopen_case(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseResult]:
    """Make a closed or archived case active again."""
    return _lifecycle(app_of(ctx), case_name, CaseStatus.ACTIVE)


def archive_case(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseResult]:
    """Archive a case: read-only and hidden from list_cases by default (reopen_case undoes)."""
    return _lifecycle(app_of(ctx), case_name, CaseStatus.ARCHIVED)


def _lifecycle(app: CaseTrack, ref: str | None, wanted: CaseStatus) -> CallToolResult:
    change = app.change_status(ref, wanted)
    return result(render.status_changed(change.case, change.before.value),
                  out.CaseResult(case=out.CaseOut.of(change.case, app.active_case_id)))
