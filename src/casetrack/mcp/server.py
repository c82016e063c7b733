"""Builds the stdio MCP server from the tool registry (`mcp/tools`). Every tool is a thin adapter
over `service.CaseTrack`, which it receives from the server's lifespan context;
CaseTrack's errors become `ToolError`s here, because in mcp 2.x only a ToolError's
message reaches the model (anything else arrives as a bare "Error executing tool")."""

from __future__ import annotations

import contextlib
import functools
import inspect
import logging
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import anyio.to_thread
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.server.stdio import stdio_server
from mcp.types import CallToolResult, InputRequiredResult
from mcp.types import Tool as MCPTool
from pydantic import ValidationError

from casetrack import __version__
from casetrack.errors import CaseTrackError, InternalError, from_os_error, quoted
from casetrack.mcp.handshake import (
    INSTRUCTIONS,
    SERVER_NAME,
    TOOLS_CACHE,
    Opening,
    Wire,
    claimed_wire,
    is_answer_to,
    remember_tools,
)
from casetrack.mcp.stdin import StdinLines
from casetrack.mcp.viewer import viewer_extension, viewer_meta
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import updates

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

def _as_tool_error(name: str, exc: Exception) -> ToolError:
    exc = from_os_error(exc) or exc
    if isinstance(exc, CaseTrackError):
        log.info("%s: %s", name, exc.message.splitlines()[0])
        return ToolError(exc.message)
    log.error("Unexpected failure in %s", name, exc_info=exc)
    return ToolError(InternalError(quoted(f"{type(exc).__name__}: {exc}", 500)).message)


def translate_errors(fn: Callable[P, R]) -> Callable[P, R]:
    """CaseTrack errors keep their text; anything else becomes the PRD's "Internal error ... report" text."""
    if inspect.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def async_wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
            try:
                return await fn(*args, **kwargs)
            except ToolError:
                raise
            except Exception as exc:
                raise _as_tool_error(fn.__name__, exc) from exc

        return async_wrapper  # type: ignore[return-value]

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except ToolError:
            raise
        except Exception as exc:
            raise _as_tool_error(fn.__name__, exc) from exc

    return wrapper


def argument_problems(tool: str, error: ValidationError) -> str:
    """A rejected call's arguments in the user's words: which argument, what it must be, what was
    given, and to call again; not pydantic's report (its model class name and a docs URL)."""
    lines = [f"Invalid arguments for {tool}:"]
    for problem in error.errors(include_url=False):
        name = ".".join(str(part) for part in problem["loc"]) or "arguments"
        if problem["type"] == "missing":
            lines.append(f"  - {name} is required")
            continue
        message = problem["msg"].removeprefix("Input ").replace(" after validation", "")
        lines.append(f"  - {name}: {message} (got {quoted(repr(problem['input']))})")
    lines.append(f"Correct {'it' if len(lines) == 2 else 'them'} and call {tool} again.")
    return "\n".join(lines)


def unknown_arguments(tool: str, unknown: list[str], valid: list[str]) -> str:
    """A call's arguments the tool does not take, named with the ones it does."""
    names = ", ".join(unknown)
    lines = [f"Invalid arguments for {tool}:",
             f"  - {names}: not {'a parameter' if len(unknown) == 1 else 'parameters'} of {tool}",
             f"  {tool} takes: {', '.join(valid) if valid else 'no arguments'}",
             f"Correct {'it' if len(unknown) == 1 else 'them'} and call {tool} again."]
    return "\n".join(lines)


def compact_schema(schema: Any) -> Any:
    """An input schema as the model reads it, without what repeats the rest: pydantic's "title" on every
    parameter ("top_k" -> "Top K"), and the `{"type": "null"}` arm and null default of an optional
    parameter (not being required says that; the server still accepts an explicit null)."""
    if isinstance(schema, list):
        return [compact_schema(v) for v in schema]
    if not isinstance(schema, dict):
        return schema
    arms = schema.get("anyOf")
    if "default" in schema and schema["default"] is None and isinstance(arms, list) and len(arms) == 2 \
            and {"type": "null"} in arms:
        kept = next(a for a in arms if a != {"type": "null"})
        schema = {**{k: v for k, v in schema.items() if k not in ("anyOf", "default")}, **kept}
    out = {}
    for key, value in schema.items():
        if key == "title" and isinstance(value, str):
            continue
        out[key] = {n: compact_schema(p) for n, p in value.items()} if key == "properties" else compact_schema(value)
    return out


class CaseTrackServer(MCPServer[Any]):
    """MCPServer whose argument-validation errors read as CaseTrack's own errors do, and whose stdio
    transport stops on Ctrl-C."""

    async def list_tools(self) -> list[MCPTool]:
        # Every conversation carries the tool list in the model's context: keep it to what informs.
        return [tool.model_copy(update={"input_schema": compact_schema(tool.input_schema)})
                for tool in await super().list_tools()]

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> CallToolResult | InputRequiredResult:
        unknown = self._unknown_arguments(name, arguments)
        if unknown:
            raise ToolError(f"Error executing tool {name}: {unknown}")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            # The SDK logs rejected field names from __cause__: keep the ValidationError there.
            raise ToolError(f"Error executing tool {name}: {argument_problems(name, cause)}") from cause

    def _unknown_arguments(self, name: str, arguments: dict[str, Any]) -> str | None:
        # pydantic ignores an argument the tool does not take, so `verify_draft(draft_path=...)` ran
        # as if no draft were given: a misspelt name is refused and named instead.
        schema = self._tool_input_schema(name)
        if schema is None:
            return None  # an unknown tool: the SDK's own error names it
        valid = list(schema.get("properties", {}))
        unknown = [key for key in arguments if key not in valid]
        return unknown_arguments(name, unknown, valid) if unknown else None

    wire: Wire | None = None  # claimed, and its first line answered, by casetrack.mcp.handshake
    opening = Opening(b"", None)
    tools_cache: Path | None = None  # where the handshake finds this answer to tools/list next time

    async def run_stdio_async(self) -> None:
        """Serve on stdio with a stdin Ctrl-C can stop (see `casetrack.mcp.stdin`), after the answer to
        `initialize` the handshake gave; where there is no stdin to claim, the SDK's own transport."""
        with contextlib.ExitStack() as claimed:
            wire = self.wire
            if wire is None:
                try:
                    wire = claimed.enter_context(claimed_wire())
                except OSError:
                    await super().run_stdio_async()
                    return
            stdin = StdinLines(wire.input, self.opening.read)
            stdout = WireOut(wire.output, self.opening, self.tools_cache)
            async with stdio_server(stdin=stdin, stdout=stdout) as (read_stream, write_stream):  # type: ignore[arg-type]
                lowlevel = self._lowlevel_server
                await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


class WireOut:
    """What the SDK's `stdio_server(stdout=...)` writes to: the wire, less the SDK's own answers to what the
    handshake answered already (`initialize`, a cached `tools/list`); its answer to tools/list is kept for the
    next start's handshake."""

    def __init__(self, fd: int, opening: Opening, tools_cache: Path | None) -> None:
        self._fd = fd
        self._answered = [i for i in (opening.answered_id, opening.answered_tools) if i is not None]
        self._key = opening.tools_key
        self._tools_cache = tools_cache

    async def write(self, text: str) -> None:
        for request_id in self._answered:
            if is_answer_to(text, request_id):
                self._answered.remove(request_id)
                if self._tools_cache is not None and self._key and '"tools":[' in text:
                    remember_tools(self._tools_cache, self._key, text)  # a fresh copy, as the SDK answers now
                return
        if self._tools_cache is not None and self._key and '"tools":[' in text:
            remember_tools(self._tools_cache, self._key, text)
            self._tools_cache = None  # once a start is enough
        await anyio.to_thread.run_sync(_write_all, self._fd, text.encode("utf-8"))

    async def flush(self) -> None:
        return None


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]


def build_server(app: CaseTrack) -> CaseTrackServer:
    """The server with every tool of the registry; each tool receives `app` from the lifespan context."""
    from casetrack.mcp.tools import TOOLS
    from casetrack.service.verify.drafts import DRAFT_FORMATS

    @contextlib.asynccontextmanager
    async def lifespan(_server: MCPServer[CaseTrack]) -> AsyncIterator[CaseTrack]:
        yield app

    server = CaseTrackServer(name=SERVER_NAME, version=__version__, instructions=INSTRUCTIONS, lifespan=lifespan,
                             extensions=[viewer_extension()])
    for spec in TOOLS:
        # A docstring is the tool's description; {formats} is the format registry's list (parse/formats.py),
        # {draft_formats} the files a draft is read from (verify/model.py).
        description = " ".join((spec.fn.__doc__ or "").split()).replace("{formats}", app.formats_label)
        description = description.replace("{draft_formats}", "/".join(DRAFT_FORMATS))
        server.add_tool(translate_errors(spec.fn), name=spec.fn.__name__, description=description,
                        annotations=spec.annotations, meta=viewer_meta(spec.fn.__name__))
    return server


def run_stdio(app: CaseTrack, wire: Wire | None = None, opening: Opening | None = None) -> None:
    """Serve until the end of input, SIGTERM or Ctrl-C (which raises KeyboardInterrupt here, after
    the background work has been stopped). `wire` and `opening`: the wire claimed, and its `initialize`
    answered, by casetrack.mcp.handshake before this module was imported."""
    updates.start_background_check(app.settings)  # a daemon thread: never delays or fails start-up
    server = build_server(app)
    server.wire, server.opening = wire, opening or Opening(b"", None)
    server.tools_cache = app.settings.data_dir / TOOLS_CACHE
    app.watches.start()  # folder watches run in the server only, never in one-shot CLI commands
    try:
        server.run("stdio")
    finally:
        app.stop()
