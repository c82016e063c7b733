"""Checking a draft against the record: its quotations and citations, and its table of authorities."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_verify as out
from casetrack.mcp.tools.base import CaseName, Ctx, app_of, result
from casetrack.render import verify as render
from casetrack.service.verify.drafts import read_draft, table_of_authorities_for


# `text` and `file_path` are described in each docstring (one clause instead of two parameter descriptions: every
# conversation carries the tool list, tests/test_tool_surface.py).
def verify_draft(ctx: Ctx, text: str | None = None, file_path: str | None = None,
                 case_name: CaseName = None) -> Annotated[CallToolResult, out.Verification]:
    """Check each quotation in a draft (text, or a {draft_formats} file_path) against the case:
    verified, wrong_location, differs (word by word) or not_found, with where the words are; and
    which cited authorities the case holds."""
    app = app_of(ctx)
    verification = app.verifier.verify(app.case(case_name), read_draft(text, file_path))
    return result(render.verification_text(verification), out.Verification.of(verification))


def table_of_authorities(
    ctx: Ctx, text: str | None = None, file_path: str | None = None,
    write_docx: Annotated[bool, Field(description="Also save it as a .docx")] = False,
    output_path: Annotated[str | None, Field(description="Where to save the .docx, as the user asked")] = None,
) -> Annotated[CallToolResult, out.TableOfAuthorities]:
    """A draft's table of authorities (text, or a {draft_formats} file_path): cases, statutes,
    rules, others, with the pages citing each. write_docx saves a .docx in output_path (an existing folder,
    no file replaced), else in the data folder's tables/."""
    folder = app_of(ctx).settings.data_dir / "tables"  # the table is the draft's own: no case
    done = table_of_authorities_for(read_draft(text, file_path), write_docx=write_docx or bool(output_path),
                                    output_path=output_path, folder=folder)
    path = str(done.docx_path) if done.docx_path else None
    name = done.draft.name
    return result(render.toa_text(done.table, name, path), out.TableOfAuthorities.of(done.table, name, path))
