"""Checking a draft against the record: its quotations and citations, and its table of authorities."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_verify as out
from casetrack.mcp.tools.base import CaseName, Ctx, app_of, result
from casetrack.render import verify as render
from casetrack.service.verify.drafts import read_draft, table_of_authorities_for

DraftText = Annotated[str | None, Field(description="The draft's text (or give file_path)")]
DraftFile = Annotated[str | None, Field(description="A .docx, .pdf, .txt or .md draft")]


def verify_draft(ctx: Ctx, text: DraftText = None, file_path: DraftFile = None,
                 case_name: CaseName = None) -> Annotated[CallToolResult, out.Verification]:
    """Check every quotation in a draft brief against the case before filing: verified (the words
    are at the cited place), wrong_location, differs (word by word) or not_found, each with where
    the words really are and their citation; and which cited authorities the case holds."""
    app = app_of(ctx)
    verification = app.verifier.verify(app.case(case_name), read_draft(text, file_path))
    return result(render.verification_text(verification), render.verification_dict(verification))


def table_of_authorities(
    ctx: Ctx, text: DraftText = None, file_path: DraftFile = None,
    write_docx: Annotated[bool, Field(description="Also write it as a .docx next to the draft")] = False,
    output_path: Annotated[str | None, Field(description="Where to write the .docx")] = None,
    passim_pages: Annotated[int, Field(ge=2, le=100, description="Cited on this many pages: passim")] = 5,
) -> Annotated[CallToolResult, out.TableOfAuthorities]:
    """A draft's table of authorities: cases, statutes, rules and other authorities, each with the
    draft pages citing it, as a brief prints it."""
    del ctx  # no case: the table is the draft's own
    done = table_of_authorities_for(read_draft(text, file_path), passim_pages, write_docx, output_path)
    path = str(done.docx_path) if done.docx_path else None
    name = done.draft.name
    return result(render.toa_text(done.table, name, path), render.toa_dict(done.table, name, path))
