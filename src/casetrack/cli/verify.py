"""`casetrack verify DRAFT` and `casetrack toa DRAFT`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from casetrack.cli.console import app, examples, run, say
from casetrack.cli.documents import CaseOption, pick_case
from casetrack.verify.model import DRAFT_FORMATS_WORDS

if TYPE_CHECKING:  # the verifier imports eyecite and the parsers: only these commands do, when they run (cli/app.py)
    from casetrack.service.app import CaseTrack
    from casetrack.service.verify.drafts import Verification

Draft = Annotated[str, typer.Argument(help=f"The draft: a {DRAFT_FORMATS_WORDS} file")]


@app.command(epilog=examples("casetrack verify ~/Cases/Smith/Brief.docx --case Smith") +
             "\n\nExits 0 when every quotation is verified, 1 when any is not (the report says which and why).")
def verify(ctx: typer.Context, draft: Draft, case: CaseOption = None) -> None:
    """Check every quotation in a draft against a case: verified, at the wrong place, different, or not in the
    case, each with the right citation."""
    from casetrack.render import verify as render
    from casetrack.service.verify.drafts import read_draft

    def action(ct: CaseTrack) -> Verification:
        return ct.verifier.verify(pick_case(ctx, ct, case), read_draft(file_path=draft))

    verification = run(ctx, action)
    say(ctx, render.verification_text(verification))
    if not verification.report.all_verified:
        raise typer.Exit(1)


@app.command(epilog=examples("casetrack toa ~/Cases/Smith/Brief.docx", "casetrack toa Brief.pdf --docx"))
def toa(
    ctx: typer.Context, draft: Draft,
    docx: Annotated[bool, typer.Option("--docx", help="Also write it as a Word file next to the draft")] = False,
    output: Annotated[str | None, typer.Option("--output", "-o", help="Where to write the Word file")] = None,
    passim: Annotated[int | None, typer.Option("--passim", help="Pages from which an authority is listed as "
                                               "passim (default: 5)")] = None,
) -> None:
    """Print a draft's table of authorities (cases, statutes, rules, other authorities, with their pages)."""
    from casetrack.render import verify as render
    from casetrack.service.verify.drafts import read_draft, table_of_authorities_for
    from casetrack.verify.authorities.toa import PASSIM_PAGES

    passim = PASSIM_PAGES if passim is None else passim
    done = run(ctx, lambda _: table_of_authorities_for(read_draft(file_path=draft), passim, docx, output))
    say(ctx, render.toa_text(done.table, done.draft.name, str(done.docx_path) if done.docx_path else None))
