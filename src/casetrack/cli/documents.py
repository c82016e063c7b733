"""`casetrack ingest`, `casetrack relink`, `casetrack docs list|show|delete`, `casetrack search`.

What a command needs beyond typer is imported when it runs (see cli/app.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from casetrack.cli.console import app, confirm, examples, run, say, words
from casetrack.cli.layout import command_group
from casetrack.domain import MAX_TOP_K
from casetrack.errors import InvalidInput
from casetrack.files import user_path

if TYPE_CHECKING:
    from casetrack.domain import Case
    from casetrack.service.app import CaseTrack

docs = command_group("List, show and delete documents.")

CaseOption = Annotated[str | None, typer.Option("--case", "-c", help="Case name or ID (default: the active case, "
                                                                     "the one chosen last, here or in Claude)")]


def pick_case(ctx: typer.Context, ct: CaseTrack, ref: str | None) -> Case:
    """The case --case names; without it, the active case: the one chosen last (in Claude, or by `casetrack cases
    create`), kept in the data folder, which the server starts in too; else the only active case. Which case that
    was is said on stderr. Raises NotFound, InvalidInput (no active case, and several or none to choose from)."""
    if ref:
        case = _use(ct, ref)
    else:
        chosen = ct.active_case_or_none()
        active = [] if chosen else ct.list_cases("active")
        if chosen is None and len(active) != 1:
            names = ", ".join(f'"{c.name}"' for c in active) or "none yet (create one: casetrack cases create NAME)"
            raise InvalidInput(f"Say which case with --case. Active cases: {names}")
        case = _use(ct, chosen.id if chosen else active[0].id)
        typer.echo(f'Case: "{case.name}" (the active case; --case NAME chooses another)', err=True)
    ctx.obj.case_name = case.name
    return case


def _use(ct: CaseTrack, ref: str) -> Case:
    """Work in the case `ref` names for this command only; its search index is not preloaded on a background
    thread as the server does on a switch (a one-shot command loads what it uses, and nothing else)."""
    case = ct.cases.resolve(ref)
    ct.session.use(case)
    return case


@app.command(epilog=examples("casetrack ingest ~/Cases/Smith/Complaint.pdf --case Smith",
                                "casetrack ingest ~/Cases/Smith --case Smith --sync"))
def ingest(
    ctx: typer.Context,
    path: Annotated[str, typer.Argument(help="A file or a folder (folders are walked recursively)")],
    case: CaseOption = None,
    document_type: Annotated[str | None, typer.Option("--type", help="pleading, contract, ... (default: "
                                                      "inferred)")] = None,
    sync: Annotated[bool, typer.Option("--sync", help="Re-ingest files that changed since they were ingested "
                                       "(replacing their documents)")] = False,
) -> None:
    """Ingest a document or a whole folder into a case."""
    # fits 80 columns; the file in progress is never half-added, and a re-run skips the finished ones
    ctx.obj.after_interrupt = "Finished files are kept; run the same command again for the rest."
    from casetrack.cli.progress import folder_progress
    from casetrack.render import documents as render_docs
    from casetrack.render import folders as render_folders
    from casetrack.service.ingest.folders import FolderReport

    def action(ct: CaseTrack) -> str:
        target = pick_case(ctx, ct, case)
        if not user_path(path).is_dir():
            name = user_path(path).name
            ctx.obj.after_interrupt = f"Nothing from {name} was stored; run the same command again to ingest it."
            typer.echo(f"Ingesting {name} ...", err=True)
        found = ct.folders.ingest_path(target, path, document_type, sync, folder_progress)
        if isinstance(found, FolderReport):
            return render_folders.report(found, target.name)
        if found.done is None:
            assert found.earlier is not None  # a file left alone is one the case held
            return f'"{found.earlier.name}" is already in the case and unchanged; nothing to do.'
        return render_docs.ingested(found.done.document, target, found.done.duration_s, replaced=found.earlier,
                                    earlier=found.done.earlier, words=words(ctx))

    say(ctx, run(ctx, action))


@docs.command("list", epilog=examples("casetrack docs list --case Smith --sort date"))
def list_(ctx: typer.Context, case: CaseOption = None,
          sort: Annotated[str, typer.Option("--sort", help="name, date, pages or type")] = "name") -> None:
    """List a case's documents."""
    from casetrack.render import documents as render_docs

    def action(ct: CaseTrack) -> str:
        target = pick_case(ctx, ct, case)
        page = ct.documents.listing(target, sort, 500, 0)
        return render_docs.documents_block(page.documents, page.total, words=words(ctx))

    say(ctx, run(ctx, action), listing=True)


@docs.command(epilog=examples("casetrack docs show Complaint.pdf --case Smith"))
def show(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Document name or ID")],
         case: CaseOption = None) -> None:
    """Show a document's details."""
    from casetrack.render import documents as render_docs

    say(ctx, run(ctx, lambda ct: render_docs.document_detail(ct.documents.resolve(pick_case(ctx, ct, case), name))))


@app.command(epilog=examples("casetrack relink Complaint.pdf ~/Cases/Smith/Complaint.pdf --case Smith"))
def relink(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Document name or ID")],
           path: Annotated[str, typer.Argument(help="The document's file on this computer")],
           case: CaseOption = None) -> None:
    """Give a document its file on this computer (an imported case's documents have none until then)."""
    from casetrack.render import documents as render_docs

    def action(ct: CaseTrack) -> str:
        done = ct.relinker.relink(pick_case(ctx, ct, case), name, path)
        return render_docs.relinked_text(done.document, done.same_content)

    say(ctx, run(ctx, action))


@docs.command(epilog=examples("casetrack docs delete Complaint.pdf --case Smith",
                                 "casetrack docs delete 3f2a9c1e --case Smith --yes"))
def delete(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Document name or ID")],
           case: CaseOption = None,
           yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation")] = False) -> None:
    """Remove a document and all its chunks, embeddings and index entries (the file itself is untouched)."""
    doc = run(ctx, lambda ct: ct.documents.resolve(pick_case(ctx, ct, case), name))
    if not yes:
        confirm(f'Remove "{doc.name}" from case "{ctx.obj.case_name}"?', "Nothing was removed.")
    gone = run(ctx, lambda ct: ct.delete_document(ct.case(), doc.id, confirm=True))
    kept = f"The original file at {doc.original_path} was not touched." if doc.original_path else ""
    typer.echo(f'Removed "{doc.name}". {kept}'.rstrip())
    if gone.deleted.note:
        typer.echo(f"Warning: {gone.deleted.note}", err=True)


@app.command(epilog=examples('casetrack search "early termination" --case Smith --top-k 5',
                                'casetrack search "notice period" --case Smith --doc Lease.pdf'))
def search(
    ctx: typer.Context,
    query: Annotated[str, typer.Argument(help="What to look for, in plain words")],
    case: CaseOption = None,
    top_k: Annotated[int, typer.Option("--top-k", "-k", min=1, max=MAX_TOP_K,
                                          help=f"Number of results (1-{MAX_TOP_K})")] = 10,
    doc: Annotated[str | None, typer.Option("--doc", help="Only this document (name or ID)")] = None,
) -> None:
    """Search a case; every result comes with its citation."""
    from casetrack.render import search as render_search

    def action(ct: CaseTrack) -> str:
        response = ct.search.search(pick_case(ctx, ct, case), query, top_k, doc)
        return render_search.response_text(response, ct.tier.value.capitalize())

    say(ctx, run(ctx, action))

