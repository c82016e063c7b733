"""`casetrack update | uninstall | export | import | licence ...` (PRD 03 §7-8, PRD 04 §8, PRD 10 §11)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from casetrack import __version__
from casetrack.cli import setup
from casetrack.cli.console import confirm, examples, fail, run
from casetrack.cli.layout import command_group
from casetrack.config import Settings
from casetrack.errors import CaseTrackError, InvalidInput
from casetrack.render.formats import size

if TYPE_CHECKING:  # each command imports the service modules it uses when it runs (cli/app.py)
    from casetrack.service.app import CaseTrack
    from casetrack.service.cases import portability

licence_group = command_group("Activate and inspect your CaseTrack licence key.")


def _settings(ctx: typer.Context) -> Settings:
    settings: Settings = ctx.obj.settings
    return settings


# --- update --------------------------------------------------------------------------


def update(
    ctx: typer.Context,
    check: Annotated[bool, typer.Option("--check", help="Only say whether a newer version exists")] = False,
) -> None:
    """Upgrade CaseTrack to the newest release on PyPI (uv tool upgrade, or pip)."""
    from casetrack.service.distribution import updates

    typer.echo(f"CaseTrack {__version__}: checking {updates.update_url()} ...")
    latest = updates.check_latest(updates.update_url(), timeout_s=10)
    if latest.version is None:
        typer.echo(f"Could not reach PyPI ({latest.error}).", err=True)
        typer.echo(updates.OFFLINE_HELP, err=True)
        raise typer.Exit(5)
    if not latest.newer_than(__version__):
        typer.echo(f"CaseTrack {__version__} is up to date (newest release: {latest.version}).")
        return
    typer.echo(f"Version {latest.version} is available.")
    if check:
        typer.echo("Run 'casetrack update' to install it.")
        return
    install = updates.installation()
    typer.echo(f"Upgrading with: {' '.join(install.upgrade_command())}")
    try:
        done = updates.upgrade(latest, install, setup.casetrack_executable())
    except CaseTrackError as exc:
        raise fail(exc) from None
    if done.after == latest.version:
        typer.echo(f"Updated CaseTrack {done.before} -> {done.after}. Restart Claude to use the new version.")
        typer.echo("Your cases are migrated automatically (with a backup) the first time the new version opens them.")
    else:
        typer.echo(f"The installer finished, but 'casetrack --version' now reports {done.after}, not "
                   f"{latest.version}.\n{done.output}", err=True)
        raise typer.Exit(1)


# --- uninstall -----------------------------------------------------------------------


def uninstall(
    ctx: typer.Context,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation")] = False,
) -> None:
    """Remove CaseTrack and its Claude registrations. Your cases are NOT deleted."""
    from casetrack.service import status
    from casetrack.service.distribution import updates

    data_dir = _settings(ctx).data_dir
    if not yes:
        confirm("This will remove CaseTrack. Your case data will NOT be deleted. Continue?", "Nothing was changed.")
    problems = 0
    for client, action in (("Claude Code", lambda: setup.remove_claude_code(claude=shutil.which("claude"))),
                           ("Claude Desktop", lambda: setup.remove_server(setup.claude_desktop_config()))):
        try:
            change = action()
        except CaseTrackError as exc:
            typer.echo(f"{client}: {exc.message}", err=True)
            problems += 1
            continue
        for line in setup._describe(client, change):
            typer.echo(line)
    install = updates.installation()
    command = install.uninstall_command()
    if install.method == "checkout":
        typer.echo(f"CaseTrack runs from a source checkout ({install.detail}); delete that folder to remove it.")
    elif os.name == "nt" or (install.method == "uv-tool" and not shutil.which("uv")):
        typer.echo(f"To finish, run: {' '.join(command)}")  # Windows cannot delete a running program
    else:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
        if done.returncode == 0:
            typer.echo(f"Removed the CaseTrack program ({' '.join(command)}).")
        else:
            typer.echo(f"'{' '.join(command)}' failed: {(done.stdout + done.stderr).strip()}", err=True)
            problems += 1
    cases_bytes = status.directory_bytes(data_dir) if data_dir.is_dir() else 0
    typer.echo(f"Your data is still in {data_dir} ({size(cases_bytes)}). CaseTrack never deletes it; "
               "remove that folder yourself if you no longer need your cases.")
    if problems:
        raise typer.Exit(1)


# --- export / import -------------------------------------------------------------------


def export(
    ctx: typer.Context,
    case: Annotated[str | None, typer.Option("--case", help="Case name or ID (default: the active case)")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="The .ctcase file to write "
                                                "(default: ./<case name>.ctcase)")] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the output file")] = False,
    originals: Annotated[bool, typer.Option("--originals/--no-originals", help="Carry each document's original "
                                            "file: the copy kept in the case, else the file it was read from if "
                                            "unchanged (default); --no-originals leaves them out")] = True,
) -> None:
    """Export a case (database snapshot + originals) as a portable .ctcase file.

    The originals are the documents' own files: the copy kept in the case, else the file each was read from,
    if it is still there unchanged. Those that could not be read are named, with the reason."""
    from casetrack.cli.documents import pick_case
    from casetrack.service.cases import portability

    def work(ct: CaseTrack) -> portability.Exported:
        found = pick_case(ctx, ct, case)
        default_name = f"{_file_name(found.name)}{portability.SUFFIX}"
        target = output or Path.cwd() / default_name
        if target.is_dir():  # "--output ~/Desktop": the file goes inside that folder
            target = target / default_name
        return portability.export_case(ct.cases, ct.settings, found, target, overwrite=force,
                                       with_originals=originals)

    done = run(ctx, work)
    carried = f"{done.originals} originals" if done.with_originals else "originals left out (--no-originals)"
    typer.echo(f'Exported case "{done.case.name}" ({done.documents} documents, {carried}) '
               f"to {done.path} ({size(done.bytes)}).")
    if done.unread:
        n = len(done.unread)
        typer.echo(f"{n} original{'s' if n != 1 else ''} could not be read, so the export does not carry "
                   f"{'it' if n == 1 else 'them'}:")
        for unread in done.unread:
            typer.echo(f"  - {unread.document}: {unread.reason}")
    typer.echo(f"Import it elsewhere with: casetrack import {done.path}")


def import_(
    ctx: typer.Context,
    archive: Annotated[Path, typer.Argument(help="A .ctcase file written by casetrack export")],
) -> None:
    """Import a .ctcase file as a new case."""
    from casetrack.service.cases import portability

    if archive.is_dir():
        found = sorted(str(p) for p in archive.glob(f"*{portability.SUFFIX}"))
        which = (f"Give one of the files in it: {', '.join(found[:5])}" if found
                 else "Give the path of the .ctcase file that casetrack export wrote")
        raise fail(InvalidInput(f"{archive} is a folder, not a .ctcase file. {which}."))
    done = run(ctx, lambda ct: portability.import_case(ct.settings, ct.registry, ct.cases.limits, archive))
    typer.echo(f'Imported case "{done.case.name}" (ID: {done.case.short_id}) with {done.documents} documents.')
    if done.renamed:
        typer.echo(f'A case named "{done.original_name}" already exists, so the import is called '
                   f'"{done.case.name}".')


def _file_name(name: str) -> str:
    cleaned = "".join(ch if ch.isalnum() or ch in " -_." else "-" for ch in name).strip(" .")
    return "-".join(cleaned.split()) or "case"


# --- licence ---------------------------------------------------------------------------


@licence_group.command("activate", epilog=examples("casetrack licence activate PRO-XXXXXX-XXXXXX-XXXXXX-SIG"))
def licence_activate(ctx: typer.Context, key: Annotated[str, typer.Argument(help="Your licence key")]) -> None:
    """Check a licence key (offline) and remember it in the data directory."""
    from casetrack.service.distribution import licensing

    settings = _settings(ctx)
    try:
        licence = licensing.activate(settings, key)
    except CaseTrackError as exc:
        typer.echo(f"Error: {exc.message}", err=True)
        typer.echo("CaseTrack keeps working on the Free tier.", err=True)
        raise typer.Exit(exc.exit_code) from None
    until = f", valid until {licence.expires.isoformat()}" if licence.expires else ""
    typer.echo(f"Licence activated: CaseTrack {licence.plan}{until}. Stored in {licensing.licence_path(settings)}.")
    if settings.license_key and licensing.normalise(settings.license_key) != licensing.normalise(key):
        typer.echo("Note: a different key is set by --licence-key, CASETRACK_LICENSE_KEY or config.toml, and "
                   "that one takes precedence.")
    typer.echo("Restart Claude (or the CaseTrack server) to use it.")


@licence_group.command("status", epilog=examples("casetrack licence status"))
def licence_status(ctx: typer.Context) -> None:
    """Show the licence in force and why."""
    from casetrack.service.distribution import licensing

    settings = _settings(ctx)
    licence = licensing.load(settings)
    typer.echo(f"License: {licence.plan}")
    sources = {"settings": "--licence-key, CASETRACK_LICENSE_KEY or config.toml",
               "activated": f"activated key in {licensing.licence_path(settings)}", "none": "no key"}
    typer.echo(f"Key: {sources.get(licence.source, licence.source)}")
    if licence.expires:
        typer.echo(f"Valid until: {licence.expires.isoformat()}")
    if licence.problem:
        typer.echo(f"Not accepted: {licence.problem}")
    limits = licensing.limits_for(licence.tier)
    if limits.max_cases is not None:
        typer.echo(f"Free tier: up to {limits.max_cases} cases, {limits.max_documents_per_case} documents per case, "
                   "embedders E1, E6, E7 and BM25. Upgrade: https://casetrack.legal/upgrade")


@licence_group.command("deactivate", epilog=examples("casetrack licence deactivate"))
def licence_deactivate(ctx: typer.Context) -> None:
    """Forget the activated key (CaseTrack returns to the Free tier)."""
    from casetrack.service.distribution import licensing

    settings = _settings(ctx)
    if licensing.deactivate(settings):
        typer.echo(f"Removed the activated key from {licensing.licence_path(settings)}.")
    else:
        typer.echo("No activated key; nothing changed.")


def register(app: typer.Typer) -> None:
    app.command("update", epilog=examples("casetrack update --check", "casetrack update"))(update)
    app.command("uninstall", epilog=examples("casetrack uninstall"))(uninstall)
    app.command("export", epilog=examples('casetrack export --case "Smith v. Jones" --output ~/Desktop',
                                                   "casetrack export --no-originals"))(export)
    app.command("import", epilog=examples("casetrack import ~/Desktop/Smith-v.-Jones.ctcase"))(import_)
    app.add_typer(licence_group, name="licence")
    app.add_typer(licence_group, name="license", hidden=True)  # the American spelling works too

