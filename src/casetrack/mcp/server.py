"""Builds the stdio MCP server. Every tool is a thin adapter over `service.CaseTrack`;
CaseTrack's errors become `ToolError`s here, because in mcp 2.x only a ToolError's
message reaches the model (anything else arrives as a bare "Error executing tool")."""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations
from pydantic import ValidationError

from casetrack import __version__
from casetrack.errors import CaseTrackError, InternalError
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import updates

log = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

INSTRUCTIONS = (
    "CaseTrack searches the user's legal case documents locally. Work inside one case at a time: "
    "list_cases / create_case / switch_case first, then ingest and search. Every passage returned "
    "carries its citation (document, page, paragraph, lines); quote those citations, never invent one."
)

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)
IDEMPOTENT_WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=True,
                                   open_world_hint=False)
DESTRUCTIVE = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False)


def result(text: str, data: dict[str, Any]) -> CallToolResult:
    """Readable text for the model and the user, structured content for programs."""
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _as_tool_error(name: str, exc: Exception) -> ToolError:
    if isinstance(exc, CaseTrackError):
        log.info("%s: %s", name, exc.message.splitlines()[0])
        return ToolError(exc.message)
    log.error("Unexpected failure in %s", name, exc_info=exc)
    return ToolError(InternalError(f"{type(exc).__name__}: {exc}").message)


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
        given = repr(problem["input"])
        lines.append(f"  - {name}: {message} (got {given if len(given) <= 80 else given[:77] + '...'})")
    lines.append(f"Correct {'it' if len(lines) == 2 else 'them'} and call {tool} again.")
    return "\n".join(lines)


class CaseTrackServer(MCPServer[Any]):
    """MCPServer whose argument-validation errors read as CaseTrack's own errors do."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> CallToolResult | InputRequiredResult:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(exc, UnexpectedToolError) or not isinstance(cause, ValidationError):
                raise
            # The SDK logs rejected field names from __cause__: keep the ValidationError there.
            raise ToolError(f"Error executing tool {name}: {argument_problems(name, cause)}") from cause


class ToolRegistrar:
    """Registers tools with error translation applied, so no tool can forget it."""

    def __init__(self, server: MCPServer[Any]) -> None:
        self._server = server

    def __call__(self, annotations: ToolAnnotations, description: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
        def decorator(fn: Callable[P, R]) -> Callable[P, R]:
            wrapped = translate_errors(fn)
            self._server.add_tool(wrapped, name=fn.__name__, description=description, annotations=annotations)
            return wrapped

        return decorator


def build_server(app: CaseTrack) -> MCPServer[Any]:
    from casetrack.mcp import (
        tools_cases,
        tools_documents,
        tools_graph,
        tools_ingest,
        tools_search,
        tools_status,
        tools_watch,
    )

    server = CaseTrackServer(name="casetrack", version=__version__, instructions=INSTRUCTIONS)
    register = ToolRegistrar(server)
    for module in (tools_cases, tools_ingest, tools_documents, tools_search, tools_graph, tools_status, tools_watch):
        module.register(register, app)
    return server


def run_stdio(app: CaseTrack) -> None:
    updates.start_background_check(app.settings)  # a daemon thread: never delays or fails start-up
    server = build_server(app)
    app.watches.start()  # folder watches run in the server only, never in one-shot CLI commands
    try:
        server.run("stdio")
    finally:
        app.watches.stop()
