"""`get_status` (PRD 09 §2.13)."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult

from casetrack.mcp import outputs_watch as out
from casetrack.mcp.tools.base import Ctx, app_of, result
from casetrack.render import status as render


def get_status(ctx: Ctx) -> Annotated[CallToolResult, out.Status]:
    """CaseTrack's version, data folder, active case, licence tier, models, memory and storage."""
    report = app_of(ctx).status()
    return result(render.status(report), out.Status.model_validate(report, from_attributes=True))
