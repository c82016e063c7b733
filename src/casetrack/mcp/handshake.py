"""The answer to a client's `initialize`, given before anything slow is imported.

A client gives a server a deadline to answer `initialize` (Claude Code's `claude mcp list` says
"Failed to connect" after ~30 s). Importing the MCP SDK alone takes ~0.5 s on an idle machine (its
wire types are pydantic models built at import), and the tools' modules bring numpy, ONNX Runtime,
RocksDB and the parsers: seconds on a busy machine (40 s was seen). So the server reads the first
line of the wire here, with nothing but the standard library, and answers an `initialize` at once
with what the SDK would answer (`tests/test_startup.py` compares the two); then it imports the rest,
hands the SDK that same first line, and drops the SDK's own answer to it (`is_answer_to`).
Only this module may be imported before the answer: stdlib only."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import select
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SERVER_NAME = "casetrack"
INSTRUCTIONS = (
    "CaseTrack searches the user's legal case documents locally. Work inside one case at a time: "
    "list_cases / create_case / switch_case first, then ingest and search. A tool's optional case_name "
    "(a case's name or ID) works in that case without switching; without it, the active case. Every passage returned "
    "carries its citation (document, page, paragraph, lines); quote those citations, never invent one."
)
# The SDK's handshake versions (mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS), the newest last, and the
# capabilities its MCPServer declares; tests/test_startup.py fails when the SDK's own answer differs.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
CAPABILITIES: dict[str, object] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
_READ_SIZE = 1 << 16
# How long to wait, after answering `initialize`, for the `tools/list` a client sends next (Claude Code's health
# check gives up on the tools within seconds, before a busy machine has imported them).
TOOLS_LIST_WAIT_S = 0.25
TOOLS_CACHE = "tools_list.json"  # in the data folder: the SDK's last answer to tools/list, and what it is for


@dataclass(frozen=True, slots=True)
class Wire:
    input: int  # private descriptors of the process's stdin and stdout (not inherited by child processes)
    output: int


@contextlib.contextmanager
def claimed_wire() -> Iterator[Wire]:
    """The wire's private descriptors, with fd 0 pointed at the null device and fd 1 at stderr meanwhile (as the
    SDK's own transport arranges), so no child process (Tesseract, LibreOffice) reads protocol bytes meant for the
    server or writes onto the wire. Raises OSError when there is no stdin or stdout to claim."""
    wire_in = os.dup(0)
    try:
        wire_out = os.dup(1)
    except OSError:
        os.close(wire_in)
        raise
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        yield Wire(wire_in, wire_out)
    finally:
        # A reading thread may still be blocked on `wire_in`, so it is never closed (a closed descriptor
        # number could be reused for a case file under that read); the process's exit closes it.
        with contextlib.suppress(OSError):
            os.dup2(wire_in, 0)
        with contextlib.suppress(OSError):
            os.dup2(wire_out, 1)


@dataclass(frozen=True, slots=True)
class Opening:
    read: bytes  # everything read from the wire so far: the SDK reads it again, first
    answered_id: object | None  # the id of the `initialize` answered here; None when nothing was answered
    answered_tools: object | None = None  # the id of a `tools/list` answered here from the cache
    tools_key: str = ""  # what a cached tools/list must have been made for (version, protocol, source files)


def initialize_result(requested_version: object, version: str) -> dict[str, object]:
    """What the SDK answers to `initialize`: the client's protocol version when it is one of the SDK's, else
    the newest."""
    negotiated = requested_version if requested_version in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1]
    return {"capabilities": CAPABILITIES, "instructions": INSTRUCTIONS, "protocolVersion": negotiated,
            "serverInfo": {"name": SERVER_NAME, "version": version}}


def answer_initialize(wire: int, out: int, version: str, tools_cache: Path | None = None) -> Opening:
    """Read the wire's first line; if it is an `initialize` request, answer it on `out` now, and then a
    `tools/list` that follows at once, from `tools_cache` when that was written for this very code. Anything else
    (another method, a malformed line, the end of input) is left for the SDK to answer."""
    data = _read_line(wire, b"")
    request = _request(data.split(b"\n", 1)[0])
    if request is None or request.get("method") != "initialize" or request.get("id") is None:
        return Opening(data, None)
    params = request.get("params")
    requested = params.get("protocolVersion") if isinstance(params, dict) else None
    result = initialize_result(requested, version)
    _write_all(out, _line({"jsonrpc": "2.0", "id": request["id"], "result": result}))
    key = tools_key(version, str(result["protocolVersion"]))
    cached = _cached_tools(tools_cache, key) if tools_cache else None
    answered_tools = None
    if cached is not None:
        data, answered_tools = _answer_tools_list(wire, out, data, cached)
    return Opening(data, request["id"], answered_tools, key)


def _answer_tools_list(wire: int, out: int, data: bytes, cached: dict[str, object]) -> tuple[bytes, object | None]:
    """Wait briefly for the client's first `tools/list` after `notifications/initialized`, and answer it from
    `cached`; (everything read, the id answered or None)."""
    while True:  # what came with the first line is looked at first: a client may send all three at once
        for request in (_request(line) for line in data.split(b"\n")[1:-1]):
            if request is None or request.get("method") == "notifications/initialized":
                continue
            params = request.get("params")
            paged = isinstance(params, dict) and params.get("cursor")
            if request.get("method") != "tools/list" or request.get("id") is None or paged:
                return data, None  # the client asked something else first: the SDK answers, in order
            _write_all(out, _line({"jsonrpc": "2.0", "id": request["id"], "result": cached}))
            return data, request["id"]
        if not select.select([wire], [], [], TOOLS_LIST_WAIT_S)[0]:
            return data, None
        chunk = os.read(wire, _READ_SIZE)
        if not chunk:
            return data, None
        data += chunk


def tools_key(version: str, protocol: str) -> str:
    """What a cached tools/list answer is for: this version and protocol, and these source files (an edited
    checkout or an upgrade changes their sizes or times)."""
    digest = hashlib.sha256(f"{version} {protocol}".encode())
    package = Path(__file__).resolve().parent.parent
    for folder, dirs, files in sorted(os.walk(package)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            info = os.stat(os.path.join(folder, name))
            digest.update(f"{folder}/{name} {info.st_size} {info.st_mtime_ns}".encode())
    return digest.hexdigest()


def remember_tools(cache: Path, key: str, line: str) -> None:
    """Keep the SDK's answer to tools/list (`line`) for the next start, if it is one."""
    try:
        message = json.loads(line)
        result = message["result"]
        if not isinstance(result.get("tools"), list) or result.get("nextCursor"):
            return
        tmp = cache.with_name(f".{cache.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "result": result}), encoding="utf-8")
        os.replace(tmp, cache)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return


def _cached_tools(cache: Path, key: str) -> dict[str, object] | None:
    try:
        record = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    ok = isinstance(record, dict) and record.get("key") == key and isinstance(record.get("result"), dict)
    return record["result"] if ok else None


def _read_line(wire: int, data: bytes) -> bytes:
    while b"\n" not in data:
        chunk = os.read(wire, _READ_SIZE)
        if not chunk:
            break
        data += chunk
    return data


def _request(line: bytes) -> dict[str, object] | None:
    try:
        request = json.loads(line)
    except ValueError:
        return None
    return request if isinstance(request, dict) else None


def _line(message: dict[str, object]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def is_answer_to(line: str, request_id: object) -> bool:
    """Whether a line the SDK writes is its answer (or error) to the request `request_id`."""
    if f'"id":{json.dumps(request_id)}' not in line.replace(" ", ""):
        return False
    try:
        message = json.loads(line)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("id") == request_id and "method" not in message


def _write_all(fd: int, data: bytes) -> None:
    while data:
        data = data[os.write(fd, data):]
