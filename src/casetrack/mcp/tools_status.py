"""`get_status` (PRD 09 §2.13)."""

from __future__ import annotations

from dataclasses import asdict

from mcp.types import CallToolResult

from casetrack.mcp.server import READ_ONLY, ToolRegistrar, result
from casetrack.render import status as render
from casetrack.service.app import CaseTrack


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    @tool(READ_ONLY, "Get CaseTrack server status including version, license tier, loaded models, and storage usage.")
    def get_status() -> CallToolResult:
        report = app.status()
        return result(render.status(report), asdict(report))
