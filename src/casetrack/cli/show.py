"""`casetrack show CHUNK_ID` / `casetrack show DOCUMENT --page N`: the page as a PNG with the passage
highlighted, opened in the system's image viewer (or only written, with --output)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from casetrack.cli.console import app, examples, run
from casetrack.cli.documents import CaseOption, pick_case
from casetrack.files import user_path

if TYPE_CHECKING:
    from casetrack.service.app import CaseTrack
    from casetrack.service.cases.page_images import PageView


@app.command(epilog=examples("casetrack show 9b2f6c1e-0d4a-4c55-9a53-3f1f1f8f2a10 --case Smith",
                                "casetrack show Lease.pdf --page 12 --case Smith --output lease-p12.png"))
def show(
    ctx: typer.Context,
    target: Annotated[str, typer.Argument(help="A chunk ID from search results, or a document (with --page)")],
    page: Annotated[int | None, typer.Option("--page", "-p", min=1, help="This page of the document")] = None,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write the PNG here; do not open it")] = None,
    case: CaseOption = None,
) -> None:
    """Show a cited passage highlighted on its page (or a document's page), as a PNG image."""

    def action(ct: CaseTrack) -> PageView:
        chosen = pick_case(ctx, ct, case)
        if page is None:
            return ct.page_images.draw(chosen, chunk_id=target)
        return ct.page_images.draw(chosen, document_name=target, page=page)

    view = run(ctx, action)
    path = user_path(str(output)) if output is not None else _viewer_file(view)
    path.write_bytes(view.drawing.png)
    lines = [f"{view.citation}", f"Page image: {path}"]
    if view.drawing.note:
        lines.append(view.drawing.note)
    typer.echo("\n".join(lines))
    if output is None and typer.launch(str(path)) != 0:
        typer.echo("Could not open an image viewer; open the file above yourself.", err=True)


def _viewer_file(view: PageView) -> Path:
    """A file in the system's temporary folder for the image viewer to open (it outlives this command)."""
    stem = re.sub(r"[^\w.-]+", "_", view.document.name)[:60]
    return Path(tempfile.gettempdir()) / f"casetrack-{stem}-p{view.page}.png"
