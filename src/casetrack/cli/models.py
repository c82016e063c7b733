"""`casetrack models status|download|import|verify`: getting embedding models onto this machine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from casetrack.cli.console import examples, run, say, words
from casetrack.cli.layout import command_group
from casetrack.files import expand

if TYPE_CHECKING:  # the embedders import numpy and onnxruntime: only the commands that use them do (cli/app.py)
    from casetrack.embed.sources import Outcome
    from casetrack.service.app import CaseTrack

group = command_group("Embedding models: status, download, import, verify.")


def _outcomes(outcomes: list[Outcome]) -> str:
    if not outcomes:
        return "Nothing to do."
    return "\n".join(f"  {'OK  ' if o.ok else 'FAIL'} {o.model_id}: {o.message}" for o in outcomes)


def _finish(ct: CaseTrack, outcomes: list[Outcome]) -> None:
    ct.pool.refresh()
    typer.echo(_outcomes(outcomes))
    if any(not o.ok for o in outcomes):
        raise typer.Exit(1)


@group.command("status", epilog=examples("casetrack models status"))
def status_(ctx: typer.Context) -> None:
    """Which models are ready, missing or disabled, and how to fix each."""
    from casetrack.render.status import status as render_status

    report = run(ctx, lambda ct: ct.status())
    say(ctx, render_status(report, words(ctx)))


@group.command("download", epilog=examples("casetrack models download", "casetrack models download E1 E6"))
def download_(ctx: typer.Context,
              ids: Annotated[list[str] | None, typer.Argument(help="Model ids (E1, E6, ...); default: every model "
                                                              "of your tier that is missing")] = None) -> None:
    """Download models from Hugging Face (pinned revisions, checksums verified, resumable)."""
    from casetrack.embed import HubSettings, download

    def action(ct: CaseTrack) -> None:
        wanted = ids or [s.model_id for s in ct.pool.status() if s.state.value == "not_downloaded"]
        _finish(ct, download(ct.settings.models_dir, wanted, HubSettings.from_env()))

    run(ctx, action)


@group.command("import", epilog=examples("casetrack models import /Volumes/USB/CaseTrack-models"))
def import_(ctx: typer.Context,
            path: Annotated[str, typer.Argument(help="A folder or .zip holding models/<id>/ folders, e.g. "
                                                "copied from another computer")]) -> None:
    """Import models carried in from another machine (checked before use)."""
    from casetrack.embed import import_models

    run(ctx, lambda ct: _finish(ct, import_models(Path(expand(path)), ct.settings.models_dir)))


@group.command("verify", epilog=examples("casetrack models verify", "casetrack models verify E1"))
def verify_(ctx: typer.Context,
            ids: Annotated[list[str] | None, typer.Argument(help="Model ids; default: all")] = None) -> None:
    """Re-hash every model file and compare with what was recorded at download."""
    from casetrack.embed import verify

    run(ctx, lambda ct: _finish(ct, verify(ct.settings.models_dir, ids or None)))
