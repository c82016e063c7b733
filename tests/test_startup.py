"""A client's `initialize` is answered before anything slow is loaded (issue 35 §2): Claude Code's
`claude mcp list` said "Failed to connect" when a busy machine took the server 40 s to answer it.
The real `casetrack serve`, spoken to over stdio by JSON-RPC lines, as a client does."""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from pathlib import Path

from tests.mcp_helpers import CASETRACK, server_env

# Each would take a minute to import: the SDK, the service layer's libraries, the parsers (not pydantic: the
# command line's own parser, typer, reads options with it).
SLOW_MODULES = ("mcp", "mcp_types", "numpy", "onnxruntime", "rocksdict", "pypdfium2", "eyecite",
                "tokenizers")
DEADLINE_S = 30.0


class Server:
    def __init__(self, data_dir: Path, **env: str) -> None:
        self.process = subprocess.Popen([CASETRACK, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, env=server_env(data_dir, **env))
        self.lines: queue.Queue[dict[str, object]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def send(self, message: dict[str, object]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
        self.process.stdin.flush()

    def answers(self, request_id: int, timeout: float = 120.0) -> list[dict[str, object]]:
        """Every message before and including the answer to `request_id`."""
        seen = []
        while True:
            seen.append(self.lines.get(timeout=timeout))
            if seen[-1].get("id") == request_id:
                return seen

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


def initialize(version: str, request_id: int = 1) -> dict[str, object]:
    return {"id": request_id, "method": "initialize", "params": {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}}}


def test_initialize_and_tools_list_are_answered_at_once_as_the_sdk_would_and_the_session_goes_on(
        tmp_path: Path) -> None:
    tools = the_early_answer_is_the_sdks_own_and_the_session_goes_on_with_one_answer_to_initialize(tmp_path)
    answered_while_the_sdk_and_the_libraries_would_take_a_minute_to_import(tmp_path, tools)


def answered_while_the_sdk_and_the_libraries_would_take_a_minute_to_import(tmp_path: Path, tools: object) -> None:
    slow = tmp_path / "slow"
    slow.mkdir()
    for name in SLOW_MODULES:
        (slow / f"{name}.py").write_text("import time\ntime.sleep(60)\n")
    server = Server(tmp_path / "data", PYTHONPATH=str(slow))
    try:
        # Claude Code's health check asks for the tools next, and gives up within seconds: the answer the SDK
        # gave at the last start, for the same code, is given at once (here all three lines arrive together).
        server.send(initialize("2025-06-18"))
        server.send({"method": "notifications/initialized"})
        server.send({"id": 2, "method": "tools/list"})
        answer, listed = server.answers(2, timeout=DEADLINE_S)
        assert answer["result"]["serverInfo"]["name"] == "casetrack"  # type: ignore[index]
        assert answer["result"]["protocolVersion"] == "2025-06-18"  # type: ignore[index]
        assert listed["result"] == tools
    finally:
        server.stop()


def the_early_answer_is_the_sdks_own_and_the_session_goes_on_with_one_answer_to_initialize(tmp_path: Path) -> object:
    listed: object = None
    for version in ("2099-01-01", "2025-06-18"):
        early = Server(tmp_path / "data")
        sdk = Server(tmp_path / "data")
        try:
            early.send(initialize(version))
            early_answer = early.answers(1)[-1]
            # A first line that is not `initialize` is left to the SDK, which then answers `initialize` itself.
            sdk.send({"id": 0, "method": "ping"})
            sdk.answers(0)
            sdk.send(initialize(version))
            assert early_answer["result"] == sdk.answers(1)[-1]["result"]

            early.send({"method": "notifications/initialized"})
            early.send({"id": 2, "method": "tools/list"})
            messages = early.answers(2)
            assert [m.get("id") for m in messages] == [2]  # the SDK's own answer to `initialize` was dropped
            listed = messages[-1]["result"]
            names = [tool["name"] for tool in listed["tools"]]  # type: ignore[index]
            assert "search_case" in names and "list_cases" in names
            early.send({"id": 3, "method": "tools/call", "params": {"name": "list_cases", "arguments": {}}})
            called = early.answers(3)[-1]["result"]
            assert not called.get("isError"), called  # type: ignore[union-attr]
        finally:
            early.stop()
            sdk.stop()
    return listed
