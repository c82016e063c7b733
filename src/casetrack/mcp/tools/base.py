"""What every tool module shares: the request context that carries the application, the
annotations, the result helper, and the parameter types several tools take (one definition each,
so a parameter means and reads the same everywhere)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from casetrack.domain import MAX_TOP_K
from casetrack.service.app import CaseTrack

Ctx = Context[CaseTrack, Any]

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
IDEMPOTENT_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                   open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


@dataclass(frozen=True, slots=True)
class ToolSpec:
    """One tool: its function (name, docstring as description, parameters) and how it behaves."""

    fn: Any
    annotations: ToolAnnotations


def app_of(ctx: Ctx) -> CaseTrack:
    """The application the server was started with (its lifespan context)."""
    return ctx.request_context.lifespan_context


def result(text: str, data: BaseModel) -> CallToolResult:
    """Readable text for the model and the user, and the tool's result model (`mcp/outputs*.py`) as structured
    content for programs: an optional field its `of` left unset (one that does not apply) is left out."""
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=data.model_dump(mode="json", exclude_unset=True))


# Said once in the server instructions rather than in each of ~40 schemas (the model reads both).
CaseName = Annotated[str | None, Field()]
DocRef = Annotated[str, Field(description="Name or ID")]
ChunkId = Annotated[str, Field(description="Chunk ID, or its unique start")]
DocType = Literal["pleading", "motion", "brief", "contract", "exhibit", "correspondence", "deposition", "discovery",
                  "statute", "case_law", "other"]
Confirm = Annotated[bool, Field(strict=True, description="Must be true")]  # "yes" is no confirmation (issue 33 §4)
Extensions = Annotated[list[str] | None, Field(description='Only these extensions, e.g. ["pdf","docx"]')]
WaitSeconds = Annotated[int, Field(ge=0, le=600, description="Then return a job id for get_ingest_status")]
Schedule = Literal["on_change", "hourly", "daily", "every_6h", "every_12h", "manual"]
TopK = Annotated[int, Field(ge=1, le=MAX_TOP_K)]
TopK100 = Annotated[int, Field(ge=1, le=100)]
