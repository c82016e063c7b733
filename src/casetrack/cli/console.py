"""What every command shares: the root command group (`app`) the command modules add themselves to, the
state a command runs with, and the helpers that run a service call, ask before destroying anything and print
a result. The entry point (`cli/app.py`) imports the command modules; they import only this, so no command
imports the entry point back."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import typer

from casetrack.cli.interrupt import end_process, interruptible
from casetrack.cli.layout import HelpGroup, fit
from casetrack.cli.words import command_words
from casetrack.config import Settings
from casetrack.errors import CaseTrackError, InvalidInput, Words, from_os_error

if TYPE_CHECKING:
    from casetrack.service.app import CaseTrack

T = TypeVar("T")

app = typer.Typer(
    name="casetrack",
    help="CaseTrack: local legal-document search for Claude. Runs the MCP server when given no command.",
    no_args_is_help=False,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # click's plain help: see cli/layout.py
    cls=HelpGroup,
)


def examples(*lines: str) -> str:
    """The epilog of a command's --help: commands to copy, one a line (click's \\b keeps the lines as they are)."""
    return "\n".join(["\b", "Example:" if len(lines) == 1 else "Examples:", *(f"  {line}" for line in lines)])

@dataclass
class CliState:
    settings: Settings
    _app: CaseTrack | None = None
    case_name: str | None = None  # the case this command works on, once known: hints name it
    after_interrupt: str = "Nothing was left half-done."  # what Ctrl-C leaves behind, said in one line

    @property
    def casetrack(self) -> CaseTrack:
        if self._app is None:
            # Imported here: the service layer (numpy, onnxruntime, the parsers) takes seconds to import,
            # and --version, --help and the setup commands never need it.
            from casetrack.service.app import CaseTrack

            usable_data_dir(self.settings.data_dir)
            self._app = CaseTrack.open(self.settings)
        return self._app


def usable_data_dir(path: Path) -> None:
    """Refuse a data folder that cannot be one (a file, an unwritable place) before anything opens it."""
    fix = "Choose another folder with --data-dir PATH or the CASETRACK_HOME environment variable."
    if path.exists() and not path.is_dir():
        raise InvalidInput(f"The CaseTrack data folder {path} is a file, not a folder. {fix}")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InvalidInput(f"Cannot create the CaseTrack data folder {path} ({exc.strerror or exc}). {fix}") from None

def fail(exc: CaseTrackError, case_name: str | None = None) -> typer.Exit:
    typer.echo(f"Error: {exc.worded(command_words(case_name))}", err=True)
    raise typer.Exit(exc.exit_code)


def run(ctx: typer.Context, action: Callable[[CaseTrack], T]) -> T:
    """Run a service call, turning CaseTrack errors into a message on stderr and an exit code."""
    try:
        return interruptible(lambda: action(ctx.obj.casetrack))
    except CaseTrackError as exc:
        raise fail(exc, ctx.obj.case_name) from None
    except OSError as exc:  # a path the user gave that no file can have (a name over 255 characters)
        known = from_os_error(exc)
        if known is None:
            raise
        raise fail(known, ctx.obj.case_name) from None
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback; every write is atomic, so nothing is torn
        typer.echo(f"Interrupted. {ctx.obj.after_interrupt}", err=True)
        end_process(130)


def confirm(question: str, nothing_done: str) -> None:
    """Ask before destroying anything. 'No', or no answer at all (a script without --yes, Ctrl-D),
    changes nothing and exits 1 with a line saying so."""
    try:
        agreed = typer.confirm(question, default=False)
    except typer.Abort:  # end of input: nobody there to answer
        typer.echo("", err=True)
        agreed = False
    if not agreed:
        typer.echo(f"{nothing_done} To skip this question, add --yes.", err=True)
        raise typer.Exit(1)


def say(ctx: typer.Context, text: str, listing: bool = False) -> None:
    """A command's result, on stdout; a listing is wrapped to the terminal's width (quoted document
    text never is: its lines are cited). Texts with next steps are rendered with `words(ctx)`."""
    typer.echo(fit(text) if listing else text)


def words(ctx: typer.Context) -> Words:
    """Next steps in this command's words: commands to type, for the case it works on."""
    return command_words(ctx.obj.case_name)
