"""`casetrack cases list|create|info|close|reopen|archive|delete`."""

from __future__ import annotations

from typing import Annotated

import typer

from casetrack.cli.console import confirm, examples, run, say, words
from casetrack.cli.layout import command_group
from casetrack.domain import CaseStatus
from casetrack.render import cases as render

group = command_group("Create and manage cases.")


@group.command("list", epilog=examples("casetrack cases list", "casetrack cases list --status all"))
def list_(
    ctx: typer.Context,
    status: Annotated[str, typer.Option("--status", help="active, closed, archived or all")] = "active",
) -> None:
    """List cases (active ones by default)."""
    listing = run(ctx, lambda ct: ct.case_listing(status))
    say(ctx, render.case_list(listing.cases, None, status, listing.hidden, words(ctx)), listing=True)


@group.command(epilog=examples('casetrack cases create "Smith v. Jones" --type contract --number 24-cv-123'))
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Case name, e.g. 'Smith v. Jones'")],
    number: Annotated[str | None, typer.Option("--number", help="Docket or case number")] = None,
    case_type: Annotated[str | None, typer.Option("--type", help="civil, criminal, contract, ...")] = None,
) -> None:
    """Create a case."""
    case = run(ctx, lambda ct: ct.create_case(name, number, case_type))
    say(ctx, render.created(case, words(ctx)))


@group.command(epilog=examples("casetrack cases info Smith", "casetrack cases info"))
def info(ctx: typer.Context, name: Annotated[str | None, typer.Argument(
        help="Case name or ID (default: the active case)")] = None) -> None:
    """Show a case's details and documents."""
    from casetrack.cli.documents import pick_case
    from casetrack.render import documents as render_docs  # imports the parsers: only when it runs (cli/app.py)

    view = run(ctx, lambda ct: ct.case_overview(pick_case(ctx, ct, name).id))
    ctx.obj.case_name = view.case.name
    block = render_docs.documents_block(view.documents, view.total_documents, words=words(ctx))
    say(ctx, render.info(view.case, block, view.embedders), listing=True)


def _change_status(ctx: typer.Context, name: str, wanted: CaseStatus) -> None:
    """Close, reopen or archive, saying so when the case already was in that state."""
    change = run(ctx, lambda ct: ct.change_status(name, wanted))
    ctx.obj.case_name = change.case.name
    say(ctx, render.status_changed(change.case, change.before.value, words(ctx)))


@group.command(epilog=examples("casetrack cases close Smith"))
def close(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Make a case read-only (search still works)."""
    _change_status(ctx, name, CaseStatus.CLOSED)


@group.command(epilog=examples("casetrack cases reopen Smith"))
def reopen(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Make a closed or archived case active again."""
    _change_status(ctx, name, CaseStatus.ACTIVE)


@group.command(epilog=examples("casetrack cases archive Smith"))
def archive(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Archive a case (read-only, hidden from the default list)."""
    _change_status(ctx, name, CaseStatus.ARCHIVED)


@group.command(epilog=examples("casetrack cases delete Smith", "casetrack cases delete Smith --yes"))
def delete(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Case name or ID")],
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation")] = False,
) -> None:
    """Delete a case and all its data, permanently."""
    case = run(ctx, lambda ct: ct.cases.resolve(name))
    if not yes:
        confirm(f'Permanently delete case "{case.name}" and all its documents?', "Nothing was deleted.")
    say(ctx, render.deleted(run(ctx, lambda ct: ct.delete_case(case.id, confirm=True))))
