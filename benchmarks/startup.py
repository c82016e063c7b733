"""How long CaseTrack takes to start: `casetrack --version`, and a server's first tool answer.

    uv run python benchmarks/startup.py first-answer [DATA_DIR]   # one run: start `casetrack serve`,
                                                                  # initialize, call list_cases, stop
    uv run python benchmarks/startup.py version                   # one run of `casetrack --version`

Each call is one run, timed as a whole process from outside by a harness that starts it several
times (or /usr/bin/time), the baseline in the same run: a copy of the old source put first on the
path (PYTHONPATH=<old>/src) with the same interpreter. The client speaks JSON-RPC lines on the
server's stdin and stdout itself (no MCP client library to import), so what is timed is the
server's start, its first tool call, and its exit at end of input. It prints the seconds to the
first answer on stderr."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time


def _send(server: subprocess.Popen[bytes], message: dict[str, object]) -> None:
    assert server.stdin is not None
    server.stdin.write(json.dumps({"jsonrpc": "2.0", **message}).encode() + b"\n")
    server.stdin.flush()


def _answer(server: subprocess.Popen[bytes], request_id: int) -> dict[str, object]:
    assert server.stdout is not None
    for line in server.stdout:
        reply = json.loads(line)
        if reply.get("id") == request_id:
            return dict(reply)
    raise SystemExit(f"the server exited before answering request {request_id}")


def first_answer(data_dir: str) -> float:
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "casetrack", "--data-dir", data_dir, "serve"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    _send(server, {"id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "startup", "version": "1"}}})
    _answer(server, 1)
    _send(server, {"method": "notifications/initialized"})
    _send(server, {"id": 2, "method": "tools/call", "params": {"name": "list_cases", "arguments": {}}})
    reply = _answer(server, 2)
    elapsed = time.perf_counter() - started
    assert server.stdin is not None
    server.stdin.close()
    server.wait(timeout=60)
    if "result" not in reply or reply["result"].get("isError"):  # type: ignore[union-attr]
        raise SystemExit(f"list_cases failed: {reply}")
    return elapsed


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "first-answer"
    if what == "version":
        subprocess.run([sys.executable, "-m", "casetrack", "--version"], check=True, stdout=subprocess.DEVNULL)
        return
    if len(sys.argv) > 2:
        print(f"first answer: {first_answer(sys.argv[2]):.2f} s", file=sys.stderr)
        return
    with tempfile.TemporaryDirectory() as data_dir:
        print(f"first answer: {first_answer(data_dir):.2f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
