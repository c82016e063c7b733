"""Transcripts as testimony (issue 37): questions and answers with their page:line, and a digest's groundwork."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_transcripts as out
from casetrack.mcp.tools.base import CaseName, Ctx, DocRef, app_of, result
from casetrack.render import transcripts as render


def get_testimony(
    ctx: Ctx,
    document_name: Annotated[str, Field(description="Transcript, or witness")],
    query: str | None = None,
    examiner: str | None = None,
    pages: str | None = None,
    offset: Annotated[int, Field(ge=0)] = 0,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.TestimonyResult]:
    """Q&A of a transcript or witness, by page:line, with examiner and objections."""
    app = app_of(ctx)
    page = app.testimony.testimony(app.case(case_name), document_name, query, examiner, pages, offset)
    return result(render.testimony_text(page), out.TestimonyResult.of(page))


def digest_transcript(ctx: Ctx, document_name: DocRef, case_name: CaseName = None
                      ) -> Annotated[CallToolResult, out.DigestResult]:
    """A transcript's examinations, exhibits, topics, objections, by page:line."""
    app = app_of(ctx)
    digest = app.testimony.digest(app.case(case_name), document_name)
    return result(render.digest_text(digest), out.DigestResult.of(digest))
