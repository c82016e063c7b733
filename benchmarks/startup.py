"""How long CaseTrack takes to start: `casetrack --version`, and a server's first tool answer.

    uv run python benchmarks/startup.py first-answer [DATA_DIR]   # one run: start `casetrack serve`,
                                                                  # initialize, call list_cases, stop
    uv run python benchmarks/startup.py version                   # one run of `casetrack --version`
    uv run python benchmarks/startup.py handshake [--runs N] [--busy N] [--baseline OLD_SRC]
        # N runs: seconds to the answer to `initialize`, to `tools/list` and to a first `list_cases`, with N
        # busy-loop processes beside the server (2 on a 2-core machine: both cores busy), and the same for
        # the old source (PYTHONPATH=OLD_SRC, e.g. from `git archive <rev> src | tar -x -C /tmp/old`)

Each call is one run, timed as a whole process from outside by a harness that starts it several
times (or /usr/bin/time), the baseline in the same run: a copy of the old source put first on the
path (PYTHONPATH=<old>/src) with the same interpreter. The client speaks JSON-RPC lines on the
server's stdin and stdout itself (no MCP client library to import), so what is timed is the
server's start, its first tool call, and its exit at end of input. It prints the seconds to the
first answer on stderr."""

from __future__ import annotations

import json
import multiprocessing
import os
import statistics
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


def handshake(data_dir: str, pythonpath: str | None) -> tuple[float, float, float]:
    """Seconds from the start to the answers to `initialize`, `tools/list` and a first `list_cases`."""
    env = {**os.environ, "CASETRACK_NO_UPDATE_CHECK": "1"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    started = time.perf_counter()
    server = subprocess.Popen([sys.executable, "-m", "casetrack", "--data-dir", data_dir, "serve"], env=env,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    _send(server, {"id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "startup", "version": "1"}}})
    _answer(server, 1)
    initialized = time.perf_counter() - started
    _send(server, {"method": "notifications/initialized"})
    _send(server, {"id": 2, "method": "tools/list"})
    _answer(server, 2)
    listed = time.perf_counter() - started
    _send(server, {"id": 3, "method": "tools/call", "params": {"name": "list_cases", "arguments": {}}})
    _answer(server, 3)
    answered = time.perf_counter() - started
    assert server.stdin is not None
    server.stdin.close()
    server.wait(timeout=120)
    return initialized, listed, answered


def _busy() -> None:
    while True:
        pass


def handshake_table(argv: list[str]) -> None:
    def option(name: str, default: str | None) -> str | None:
        return argv[argv.index(name) + 1] if name in argv else default

    runs, busy, baseline = int(option("--runs", "5") or 5), int(option("--busy", "0") or 0), option("--baseline", None)
    loops = [multiprocessing.Process(target=_busy, daemon=True) for _ in range(busy)]
    for loop in loops:
        loop.start()
    try:
        print(f"{os.cpu_count()} cores, {busy} busy-loop processes beside the server, load average "
              f"{os.getloadavg()[0]:.1f} at the start; median of {runs} runs (min-max)")
        print(f"{'source':<10} {'initialize':>18} {'tools/list':>18} {'list_cases':>18}")
        for label, path in (("baseline", baseline), ("this", None)) if baseline else (("this", None),):
            with tempfile.TemporaryDirectory() as data_dir:
                times = [handshake(data_dir, path) for _ in range(runs)]
            cells = [f"{statistics.median(c):.2f} ({min(c):.2f}-{max(c):.2f})" for c in zip(*times, strict=True)]
            print(f"{label:<10} " + " ".join(f"{cell:>18}" for cell in cells))
        print(f"load average {os.getloadavg()[0]:.1f} at the end")
    finally:
        for loop in loops:
            loop.terminate()


def main() -> None:
    what = sys.argv[1] if len(sys.argv) > 1 else "first-answer"
    if what == "handshake":
        handshake_table(sys.argv[2:])
        return
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
