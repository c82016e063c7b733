"""Update checks (PRD 03 §7): PyPI's JSON API with a short timeout, silent offline, never in
the way of start-up; `casetrack update` upgrades the installed package."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import anyio
import pytest
from typer.testing import CliRunner

from casetrack import __version__
from casetrack.cli.app import app as cli_app
from casetrack.config import load_settings
from casetrack.service.distribution import updates
from tests.mcp_helpers import mcp_session


@contextlib.contextmanager
def pypi(version: str | None) -> Iterator[str]:
    """A local stand-in for PyPI's JSON API (None: answer nonsense)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps({"info": {"version": version}} if version else {"oops": 1}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            return None

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/pypi/casetrack/json"
    finally:
        server.shutdown()
        server.server_close()


@contextlib.contextmanager
def tarpit(drip: bool = True) -> Iterator[tuple[str, threading.Event]]:
    """Accepts connections and never completes an answer. With `drip`, it sends one byte every
    0.8 s, so even a per-read timeout never fires: a client waiting for it would wait forever."""
    listener = socket.create_server(("127.0.0.1", 0))
    connected = threading.Event()
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        clients = []
        while not stop.is_set():
            with contextlib.suppress(TimeoutError, OSError):
                conn, _ = listener.accept()
                clients.append(conn)
                connected.set()
            for conn in clients if drip else ():
                with contextlib.suppress(OSError):
                    conn.sendall(b"H")
            time.sleep(0.8)
        for conn in clients:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/pypi/casetrack/json", connected
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/pypi/casetrack/json"


def test_check_latest_reads_pypi_json_and_compares_release_numbers() -> None:
    with pypi("9.10.0") as url:
        latest = updates.check_latest(url, timeout_s=5)
    assert latest == updates.Latest("9.10.0") and latest.newer_than(__version__)
    assert not updates.Latest("0.0.9").newer_than("0.1.0") and updates.Latest("0.10.0").newer_than("0.9.9")
    with pypi(None) as url:
        assert updates.check_latest(url, timeout_s=5).version is None


def test_offline_checks_return_quickly_and_never_raise() -> None:
    started = time.monotonic()
    assert updates.check_latest(closed_port(), timeout_s=2).version is None
    with tarpit(drip=False) as (url, _):
        latest = updates.check_latest(url, timeout_s=1)
    assert latest.version is None and latest.error
    assert time.monotonic() - started < 10


def test_the_background_check_logs_an_update_once_and_is_silent_offline(tmp_path: Path,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    settings = load_settings(tmp_path / "data", environ={})
    settings.data_dir.mkdir(parents=True)
    caplog.set_level(logging.DEBUG, logger="casetrack.service.distribution.updates")
    with pypi("99.0.0") as url:
        thread = updates.start_background_check(settings, {updates.URL_ENV: url, updates.ENABLE_ENV: "1"})
        assert thread is not None
        thread.join(10)
    assert f"Update available: v{__version__} -> v99.0.0. Run 'casetrack update'" in caplog.text
    assert json.loads((settings.data_dir / updates.STAMP_FILE).read_text())["latest"] == "99.0.0"

    caplog.clear()
    offline = replace(settings, data_dir=tmp_path / "other")
    offline.data_dir.mkdir()
    thread = updates.start_background_check(offline, {updates.URL_ENV: closed_port(), updates.ENABLE_ENV: "1"})
    assert thread is not None
    thread.join(10)
    assert not [r for r in caplog.records if r.levelno >= logging.INFO]


def test_the_start_up_check_is_off_unless_the_user_turns_it_on(tmp_path: Path) -> None:
    settings = load_settings(tmp_path, environ={})
    assert not updates.check_enabled(settings, {})  # issue 33 §1: nobody asked, so nothing is sent
    assert updates.check_enabled(settings, {updates.ENABLE_ENV: "1"})
    assert not updates.check_enabled(settings, {updates.ENABLE_ENV: "1", updates.DISABLE_ENV: "1"})
    assert updates.start_background_check(settings, {updates.DISABLE_ENV: "1"}) is None
    (tmp_path / "config.toml").write_text("update_check = true\n", encoding="utf-8")
    assert updates.check_enabled(load_settings(tmp_path, environ={}), {})
    assert not updates.check_enabled(load_settings(tmp_path, environ={}), {updates.ENABLE_ENV: "0"})
    (tmp_path / "config.toml").write_text("update_check = false\n", encoding="utf-8")
    assert updates.start_background_check(load_settings(tmp_path, environ={}), {}) is None


def _initialize_seconds(data_dir: Path, **env: str) -> float:
    async def start() -> float:
        started = time.monotonic()
        async with mcp_session(data_dir, **env) as client:
            elapsed = time.monotonic() - started  # the session is initialized on entry
            assert (await client.list_tools()).tools
        return elapsed

    return anyio.run(start)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_server_start_up_is_not_delayed_by_an_unanswered_update_check(tmp_path: Path) -> None:
    baseline = _initialize_seconds(tmp_path / "a")  # mcp_helpers disables the check
    with tarpit() as (url, connected):
        checked = _initialize_seconds(tmp_path / "b", CASETRACK_NO_UPDATE_CHECK="",
                                      CASETRACK_UPDATE_CHECK="1", CASETRACK_UPDATE_URL=url)
        assert connected.wait(30), "the server never attempted its update check"
    # The tarpit never completes an answer, so a check on the start-up path would never finish.
    assert checked < baseline + 5.0, (checked, baseline)


def test_casetrack_update_check_reports_a_newer_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASETRACK_HOME", str(tmp_path))
    with pypi("9.9.9") as url:
        monkeypatch.setenv(updates.URL_ENV, url)
        result = CliRunner().invoke(cli_app, ["update", "--check"])
    assert result.exit_code == 0 and "Version 9.9.9 is available." in result.stdout
    with pypi(__version__) as url:
        monkeypatch.setenv(updates.URL_ENV, url)
        result = CliRunner().invoke(cli_app, ["update"])
    assert result.exit_code == 0 and f"CaseTrack {__version__} is up to date" in result.stdout


def test_casetrack_update_offline_explains_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CASETRACK_HOME", str(tmp_path))
    monkeypatch.setenv(updates.URL_ENV, closed_port())
    result = CliRunner().invoke(cli_app, ["update"])
    assert result.exit_code == 5
    assert "Could not reach PyPI" in result.stderr and "CaseTrack keeps working offline" in result.stderr


def test_a_source_checkout_is_not_upgraded_behind_the_developers_back(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    assert updates.installation().method == "checkout"  # the test suite runs from this checkout
    monkeypatch.setenv("CASETRACK_HOME", str(tmp_path))
    with pypi("9.9.9") as url:
        monkeypatch.setenv(updates.URL_ENV, url)
        result = CliRunner().invoke(cli_app, ["update"])
    assert result.exit_code == 1 and "runs from a source checkout" in result.stderr


def test_a_uv_tool_environment_is_recognised(tmp_path: Path) -> None:
    env = tmp_path / "uv" / "tools" / "casetrack"
    env.mkdir(parents=True)
    (env / "uv-receipt.toml").write_text("[tool]\n", encoding="utf-8")
    found = updates.installation(str(env))
    assert found.method == "uv-tool" and found.upgrade_command() == ["uv", "tool", "upgrade", "casetrack"]
