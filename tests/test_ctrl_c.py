"""Ctrl-C typed at a terminal stops CaseTrack within 2 s, exit code 130, with nothing half-written
(issue 22 item 1). Each command runs in its own session with a pseudo-terminal as its controlling
terminal, and Ctrl-C is the byte 0x03 typed into that terminal: the SIGINT comes from the terminal
driver, to the whole foreground process group (the helper process too), as it does for a user.

`casetrack serve` used to ignore it: the MCP SDK reads stdin on a worker thread that cancellation
cannot stop (python-sdk #3551), so the server ran on until SIGKILL."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.mcp_helpers import CASETRACK
from tests.stalled_files import long_text

if sys.platform == "win32":  # pragma: no cover
    pytest.skip("pseudo-terminals are POSIX", allow_module_level=True)

import fcntl
import termios

CTRL_C = b"\x03"
STOPS_WITHIN_S = 2.0


class Terminal:
    """A command running in a pseudo-terminal of its own; everything it writes is collected."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        master, slave = os.openpty()

        def become_terminal_session() -> None:  # after setsid (start_new_session): take the pty as ours
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            # A test run started in the background passes SIGINT on ignored (stop-17): undo that, as a shell would.
            signal.signal(signal.SIGINT, signal.SIG_DFL)

        self.process = subprocess.Popen(args, stdin=slave, stdout=slave, stderr=slave, env=env,
                                        start_new_session=True, preexec_fn=become_terminal_session)
        os.close(slave)
        self._master = master
        self._seen = bytearray()
        self._reader = threading.Thread(target=self._collect, daemon=True)
        self._reader.start()

    def _collect(self) -> None:
        while True:
            try:
                chunk = os.read(self._master, 65536)
            except OSError:  # EIO: every process holding the terminal has exited
                return
            if not chunk:
                return
            self._seen.extend(chunk)

    @property
    def output(self) -> str:
        return self._seen.decode("utf-8", errors="replace").replace("\r\n", "\n")

    def type(self, data: bytes) -> None:
        os.write(self._master, data)

    def wait_for(self, text: str, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.output:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"never saw {text!r}; the terminal shows:\n{self.output[-3000:]}")
            time.sleep(0.05)

    def ctrl_c(self) -> tuple[int, float]:
        """Type Ctrl-C; the exit code and how long the command took to end."""
        typed = time.monotonic()
        self.type(CTRL_C)
        try:
            code = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"still running 30 s after Ctrl-C; the terminal shows:\n{self.output[-3000:]}") \
                from None
        return code, time.monotonic() - typed

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self._reader.join(timeout=5)
        os.close(self._master)


@pytest.fixture
def env(data_dir: Path) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_")},
            "CASETRACK_HOME": str(data_dir), "CASETRACK_NO_UPDATE_CHECK": "1"}


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def casetrack(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([CASETRACK, *args], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def request(n: int, method: str, params: dict[str, object]) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": method, "params": params}).encode() + b"\n"


def call(n: int, tool: str, **arguments: object) -> bytes:
    return request(n, "tools/call", {"name": tool, "arguments": arguments})


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_ctrl_c_stops_a_serving_server_mid_ingest_within_two_seconds(env: dict[str, str], terminals: list[Terminal],
                                                                     tmp_path: Path) -> None:
    notice = tmp_path / "notice.txt"
    notice.write_text("The tenant must give ninety days written notice.\n", encoding="utf-8")
    deposition = long_text(tmp_path / "deposition.txt")
    server = Terminal([CASETRACK, "serve"], env)
    terminals.append(server)
    # What a person testing the server by hand types: the MCP handshake, then requests, one a line.
    server.type(request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                          "clientInfo": {"name": "terminal", "version": "1"}}))
    server.wait_for('"id":1,"result"')
    server.type(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    server.type(call(2, "create_case", name="Smith v. Jones"))
    server.wait_for('"id":2,"result"')
    server.type(call(3, "ingest_document", file_path=str(notice), wait_seconds=120))
    server.wait_for("This document is now searchable.")
    server.type(call(4, "ingest_document", file_path=str(deposition), wait_seconds=0))
    server.wait_for('"id":4,"result"')
    for n in range(5, 2000):  # until the long document is embedding
        server.type(call(n, "get_ingest_status"))
        server.wait_for(f'"id":{n},"result"')
        if "embedding" in server.output.rsplit(f'"id":{n - 1},', 1)[-1]:
            break
        time.sleep(0.2)

    code, took = server.ctrl_c()
    assert code == 130, server.output[-2000:]
    assert took < STOPS_WITHIN_S, f"Ctrl-C took {took:.1f} s"
    assert "Stopped (Ctrl-C)." in server.output and "Traceback" not in server.output
    # Nothing half-written: the case holds the one finished document, whole, and its counts agree.
    listed = casetrack(env, "docs", "list", "--case", "Smith")
    assert listed.startswith("Documents (1):") and "notice.txt" in listed and "deposition" not in listed
    info = casetrack(env, "cases", "list")
    assert "| 1 document |" in info, info


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_ctrl_c_stops_a_long_single_document_ingest_within_two_seconds(env: dict[str, str],
                                                                       terminals: list[Terminal],
                                                                       tmp_path: Path) -> None:
    casetrack(env, "cases", "create", "Smith v. Jones")
    deposition = long_text(tmp_path / "deposition.txt")
    ingest = Terminal([CASETRACK, "ingest", str(deposition)], env)
    terminals.append(ingest)
    ingest.wait_for("Ingesting deposition.txt")
    time.sleep(3)  # into the long part: the helper process has started, embedding has begun
    code, took = ingest.ctrl_c()
    assert code == 130, ingest.output[-2000:]
    assert took < STOPS_WITHIN_S, f"Ctrl-C took {took:.1f} s"
    assert "Traceback" not in ingest.output, ingest.output
    assert "Interrupted. Nothing from deposition.txt was stored; run the same command again to ingest it." \
        in ingest.output
    assert casetrack(env, "docs", "list", "--case", "Smith").startswith("Documents (0):")
