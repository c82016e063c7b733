"""`casetrack cases list|create|info|close|reopen|archive|delete`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

import typer

from casetrack.cli.app import confirm, examples, run, say
from casetrack.domain import Case
from casetrack.render import cases as render
from casetrack.render import documents as render_docs
from casetrack.service.app import CaseTrack

group = typer.Typer(help="Create and manage cases.", no_args_is_help=True)


@group.command("list", epilog=examples("casetrack cases list", "casetrack cases list --status all"))
def list_(
    ctx: typer.Context,
    status: Annotated[str, typer.Option("--status", help="active, closed, archived or all")] = "active",
) -> None:
    """List cases (active ones by default)."""
    cases = run(ctx, lambda ct: ct.list_cases(status))
    hidden = 0 if status == "all" else len(run(ctx, lambda ct: ct.list_cases("all"))) - len(cases)
    say(ctx, render.case_list(cases, None, status, hidden), listing=True)


@group.command(epilog=examples('casetrack cases create "Smith v. Jones" --type contract --number 1:24-cv-00123'))
def create(
    ctx: typer.Context,
    name: Annotated[str, typer.Argument(help="Case name, e.g. 'Smith v. Jones'")],
    number: Annotated[str | None, typer.Option("--number", help="Docket or case number")] = None,
    case_type: Annotated[str | None, typer.Option("--type", help="civil, criminal, contract, ...")] = None,
) -> None:
    """Create a case."""
    case = run(ctx, lambda ct: ct.create_case(name, number, case_type))
    say(ctx, render.created(case))


@group.command(epilog=examples("casetrack cases info Smith"))
def info(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Show a case's details and documents."""
    def show(ct: CaseTrack) -> str:
        case = ct.case_info(name)
        ctx.obj.case_name = case.name
        docs = ct.documents.listing(case, "date", 500, 0)
        return render.info(case, render_docs.documents_block(docs.documents, docs.total), ct.embedders_summary())

    say(ctx, run(ctx, show), listing=True)


def _change_status(ctx: typer.Context, name: str, change: Callable[[CaseTrack, str], Case]) -> None:
    """Close, reopen or archive, saying so when the case already was in that state."""
    def action(ct: CaseTrack) -> str:
        before = ct.cases.resolve(name)
        ctx.obj.case_name = before.name
        return render.status_changed(change(ct, before.id), before.status.value)

    say(ctx, run(ctx, action))


@group.command(epilog=examples("casetrack cases close Smith"))
def close(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Make a case read-only (search still works)."""
    _change_status(ctx, name, CaseTrack.close_case)


@group.command(epilog=examples("casetrack cases reopen Smith"))
def reopen(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Make a closed or archived case active again."""
    _change_status(ctx, name, CaseTrack.reopen_case)


@group.command(epilog=examples("casetrack cases archive Smith"))
def archive(ctx: typer.Context, name: Annotated[str, typer.Argument(help="Case name or ID")]) -> None:
    """Archive a case (read-only, hidden from the default list)."""
    _change_status(ctx, name, CaseTrack.archive_case)


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
