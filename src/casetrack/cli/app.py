"""Entry point: `casetrack` (no subcommand) and `casetrack serve` run the stdio MCP server."""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import sys
from dataclasses import replace
from typing import Annotated, NoReturn

import typer

from casetrack import __version__, logs
from casetrack.cli.console import CliState, app, examples, fail, usable_data_dir
from casetrack.cli.interrupt import end_process
from casetrack.config import MemoryMode, load_settings
from casetrack.errors import ISSUES_URL, CaseTrackError, InvalidInput

# errors.py sets these; `casetrack update` uses 5; typer uses 2 for a wrong option and 130 for Ctrl-C.
EXIT_CODES = ("Exit codes: 0 success; 1 failed (unreadable file, read-only case, declined question); "
              "2 wrong input (unknown option or value, unsupported file); 3 not found (case, document or file); "
              "4 case busy in another CaseTrack process; 5 no internet (update); 130 interrupted (Ctrl-C).")


def _version(value: bool) -> None:
    if value:
        typer.echo(f"casetrack {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True, epilog=examples(
    'casetrack cases create "Smith v. Jones"', 'casetrack ingest ~/Cases/Smith --case Smith',
    'casetrack search "early termination" --case Smith') + "\n\n" + EXIT_CODES)
def root(
    ctx: typer.Context,
    data_dir: Annotated[str | None, typer.Option("--data-dir", help="Where cases and models live "
                                                 "(default: $CASETRACK_HOME, else CaseTrack in your Documents "
                                                 "folder; on Linux without ~/Documents, ~/.local/share/casetrack)"
                                                 )] = None,
    log_level: Annotated[str | None, typer.Option("--log-level", help="error, warn, info or debug "
                                                  "(default: $CASETRACK_LOG or info); logs go to stderr")] = None,
    memory_mode: Annotated[MemoryMode | None, typer.Option("--memory-mode", help="Override the memory tier "
                                                           "chosen from installed RAM")] = None,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit")] = False,
    licence_key: Annotated[str | None, typer.Option("--licence-key", "--license-key", help="Pro/Firm licence key "
                                                    "(default: $CASETRACK_LICENSE_KEY, config.toml, then the "
                                                    "key stored by 'casetrack licence activate')")] = None,
) -> None:
    try:
        if log_level and log_level.upper() not in logs.LEVELS:
            raise InvalidInput(f"Unknown log level {log_level!r}: choose error, warn, info or debug.")
        settings = load_settings(data_dir, log_level, memory_mode.value if memory_mode else None)
        if licence_key:
            settings = replace(settings, license_key=licence_key)
    except CaseTrackError as exc:
        fail(exc)
    # Commands print their own results; only the server logs its routine work by default.
    quiet = ctx.invoked_subcommand not in (None, "serve") and not log_level
    logs.configure("WARNING" if quiet else settings.log_level)
    ctx.obj = CliState(settings)
    if ctx.invoked_subcommand is None:
        _serve(ctx.obj)


@app.command(epilog=examples("casetrack serve", "casetrack --data-dir ~/Documents/CaseTrack serve"))
def serve(ctx: typer.Context) -> None:
    """Run the MCP server on stdio (what Claude Code and Claude Desktop start)."""
    _serve(ctx.obj)


def _serve(state: CliState) -> None:
    # `initialize` is answered before the MCP SDK, the service layer or any case is loaded (mcp/handshake.py):
    # a client that gives up on a slow start (Claude Code) then waits for tools/list instead.
    from casetrack.mcp.handshake import TOOLS_CACHE, answer_initialize, claimed_wire

    try:
        usable_data_dir(state.settings.data_dir)
        with contextlib.ExitStack() as claimed:
            try:
                wire = claimed.enter_context(claimed_wire())
            except OSError:  # no stdin or stdout to claim: the SDK's own transport
                wire = None
            tools_cache = state.settings.data_dir / TOOLS_CACHE
            opening = answer_initialize(wire.input, wire.output, __version__, tools_cache) if wire else None
            from casetrack.mcp.server import run_stdio

            run_stdio(state.casetrack, wire, opening)
    except CaseTrackError as exc:
        fail(exc)
    except KeyboardInterrupt:  # Ctrl-C: the server has cancelled its jobs and stopped its watches already
        typer.echo("Stopped (Ctrl-C). Jobs in progress were cancelled; nothing was half-written.", err=True)
        end_process(130)
    raise typer.Exit()


def _register_groups() -> None:
    from casetrack.cli import cases, documents, models, show, verify  # noqa: F401  (show, verify register commands)

    app.add_typer(cases.group, name="cases")
    app.add_typer(documents.docs, name="docs")
    app.add_typer(models.group, name="models")
    from casetrack.cli import lifecycle, setup

    setup.register(app)
    lifecycle.register(app)


_register_groups()


def main() -> None:
    try:
        try:
            app()
        except KeyboardInterrupt:
            sys.exit(130)
        except Exception as exc:  # a bug or a broken data folder: one line; the traceback only when asked for
            logging.getLogger("casetrack.cli").debug("Unexpected failure", exc_info=True)
            typer.echo(f"Error: unexpected problem ({type(exc).__name__}: {exc}). Run the command again with "
                       f"--log-level debug to see where it happened, and please report it at {ISSUES_URL}", err=True)
            sys.exit(1)
    except SystemExit as done:
        _leave(done)


def _leave(done: SystemExit) -> NoReturn:
    """End a finished command without tearing the interpreter down object by object. Everything it wrote is
    committed and closed by now, and the exit handlers still run (temporary folders, logging); but freeing the
    native libraries' objects during teardown (ONNX Runtime's and RocksDB's threads) sometimes aborted a
    finished `casetrack ingest` with "terminate called without an active exception" (exit -6)."""
    code = done.code
    if isinstance(code, str):
        sys.stderr.write(code + "\n")
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code if isinstance(code, int) else 0)
