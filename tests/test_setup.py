"""`casetrack setup-claude-code` / `setup-claude-desktop`: real runs of the command in a
temporary HOME, then the registered command is started with a real MCP client."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters
from typer.testing import CliRunner

from casetrack.cli import setup
from casetrack.cli.app import app as cli_app
from tests.claude_standin import fake_claude
from tests.mcp_helpers import CASETRACK

EXISTING = {
    "numStartups": 42,
    "installMethod": "native",
    "theme": "dark",
    "oauthAccount": {"emailAddress": "sarah@example.com", "organizationRole": "admin"},
    "projects": {"/Users/sarah/smith": {"allowedTools": [], "mcpServers": {}, "lastCost": 0.25}},
    "mcpServers": {
        "github": {"type": "stdio", "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
                   "env": {"GITHUB_TOKEN": "ghp_x"}},
        "notes": {"type": "http", "url": "https://notes.example.com/mcp"},
    },
    "tipsHistory": {"new-user-warmup": 1},
    "ünïcode": "naïve café – “quotes”",
}


@dataclass
class Ran:
    returncode: int
    stdout: str
    stderr: str


@pytest.fixture
def run_casetrack(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Ran]:
    """Run the CLI in-process (it starts in seconds less than a subprocess) with HOME, data dir and PATH set."""

    def run(home: Path, data_dir: Path, *args: str, path: str | None = None) -> Ran:
        for name in [k for k in os.environ if k.startswith(("CASETRACK_", "XDG_", "APPDATA"))]:
            monkeypatch.delenv(name)
        monkeypatch.setenv("HOME", str(home))
        monkeypatch.setenv("CASETRACK_HOME", str(data_dir))
        monkeypatch.setenv("PATH", path if path is not None else os.environ["PATH"])
        result = CliRunner().invoke(cli_app, list(args))
        if result.exception and not isinstance(result.exception, SystemExit):
            raise result.exception
        return Ran(result.exit_code, result.stdout, result.stderr)

    return run


def expected_args(data_dir: Path) -> list[str]:
    return ["--data-dir", str(data_dir), "serve"]


def test_setup_claude_code_merges_into_claude_json_and_keeps_everything_else(
        tmp_path: Path, run_casetrack: Callable[..., Ran]) -> None:
    home, data = tmp_path / "home", tmp_path / "CaseTrack"
    home.mkdir()
    original = json.dumps(EXISTING, indent=2, ensure_ascii=False) + "\n"
    config = home / ".claude.json"
    config.write_text(original, encoding="utf-8")
    config.chmod(0o600)

    done = run_casetrack(home, data, "setup-claude-code")
    assert done.returncode == 0, done.stderr
    assert f"Added CaseTrack in {config}" in done.stdout
    assert "Claude Code configured. CaseTrack will be available in your next session." in done.stdout
    merged = json.loads(config.read_text(encoding="utf-8"))
    entry = merged["mcpServers"].pop("casetrack")
    assert entry == {"type": "stdio", "command": CASETRACK, "args": expected_args(data), "env": {}}
    # Byte for byte, everything but the new entry is what it was (order, indentation, unicode).
    assert json.dumps(merged, indent=2, ensure_ascii=False) + "\n" == original
    assert (home / ".claude.json.casetrack-backup").read_text(encoding="utf-8") == original
    if os.name == "posix":
        assert config.stat().st_mode & 0o777 == 0o600  # ~/.claude.json holds account data
    assert not list(home.glob(".claude.json.*.tmp"))

    before = config.read_bytes(), config.stat().st_mtime_ns
    again = run_casetrack(home, data, "setup-claude-code")
    assert again.returncode == 0 and "Nothing changed" in again.stdout
    assert (config.read_bytes(), config.stat().st_mtime_ns) == before


def test_setup_claude_code_creates_the_file_and_the_registered_command_serves(
        tmp_path: Path, run_casetrack: Callable[..., Ran]) -> None:
    home, data = tmp_path / "home", tmp_path / "data dir with spaces"
    home.mkdir()
    assert run_casetrack(home, data, "setup-claude-code").returncode == 0
    entry = json.loads((home / ".claude.json").read_text(encoding="utf-8"))["mcpServers"]["casetrack"]
    assert Path(entry["command"]).is_absolute()
    assert not (home / ".claude.json.casetrack-backup").exists()  # nothing to back up

    async def list_tools() -> set[str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_")}
        env.update({"HOME": str(home), "CASETRACK_NO_UPDATE_CHECK": "1"})
        params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            return {t.name for t in (await client.list_tools()).tools}

    import anyio

    assert {"create_case", "search_case", "get_status"} <= anyio.run(list_tools)
    assert (data / "registry.db").exists() or (data / "cases").is_dir()  # it used the registered data dir


@pytest.mark.skipif(os.name == "nt", reason="the stand-in claude is a POSIX script")
def test_with_the_claude_cli_on_path_setup_uses_claude_mcp_add(
        tmp_path: Path, run_casetrack: Callable[..., Ran]) -> None:
    home, data, bin_dir = tmp_path / "home", tmp_path / "CaseTrack", tmp_path / "bin"
    home.mkdir()
    bin_dir.mkdir()
    log = tmp_path / "claude-calls.jsonl"
    fake_claude(bin_dir, home, log)
    path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"

    done = run_casetrack(home, data, "setup-claude-code", path=path)
    assert done.returncode == 0, done.stderr
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls == [["mcp", "add", "--scope", "user", "casetrack", "--", CASETRACK, *expected_args(data)]]
    assert "registered with 'claude mcp add --scope user'" in done.stdout

    again = run_casetrack(home, data, "setup-claude-code", path=path)
    assert "Nothing changed" in again.stdout and len(log.read_text().splitlines()) == 1

    moved = tmp_path / "Elsewhere"
    run_casetrack(home, data, "--data-dir", str(moved), "setup-claude-code", path=path)
    calls = [json.loads(line) for line in log.read_text().splitlines()]
    assert calls[1] == ["mcp", "remove", "--scope", "user", "casetrack"]
    assert calls[2][-3:] == ["--data-dir", str(moved), "serve"]


def test_setup_claude_desktop_writes_the_platform_config_idempotently(
        tmp_path: Path, run_casetrack: Callable[..., Ran]) -> None:
    home, data = tmp_path / "home", tmp_path / "CaseTrack"
    home.mkdir()
    config = home / ".config" / "Claude" / "claude_desktop_config.json"
    config.parent.mkdir(parents=True)
    original = json.dumps({"mcpServers": {"fs": {"command": "npx", "args": ["fs"]}}, "globalShortcut": ""},
                          indent=4) + "\n"
    config.write_text(original, encoding="utf-8")
    done = run_casetrack(home, data, "setup-claude-desktop", "--data-dir", str(data))
    assert done.returncode == 0, done.stderr
    assert f"Added CaseTrack in {config}" in done.stdout and "Quit and reopen Claude Desktop" in done.stdout
    merged = json.loads(config.read_text(encoding="utf-8"))
    assert merged["mcpServers"].pop("casetrack") == {"command": CASETRACK, "args": expected_args(data)}
    assert json.dumps(merged, indent=4) + "\n" == original
    before = config.read_bytes()
    assert "Nothing changed" in run_casetrack(home, data, "setup-claude-desktop", "--data-dir", str(data)).stdout
    assert config.read_bytes() == before


@pytest.mark.parametrize(("platform", "env", "expected"), [
    ("darwin", {}, "home/Library/Application Support/Claude/claude_desktop_config.json"),
    ("win32", {"APPDATA": "/c/Users/sarah/AppData/Roaming"},
     "/c/Users/sarah/AppData/Roaming/Claude/claude_desktop_config.json"),
    ("linux", {}, "home/.config/Claude/claude_desktop_config.json"),
    ("linux", {"XDG_CONFIG_HOME": "/xdg"}, "/xdg/Claude/claude_desktop_config.json"),
])
def test_claude_desktop_config_lives_where_each_platform_keeps_it(platform: str, env: dict[str, str],
                                                                  expected: str) -> None:
    assert setup.claude_desktop_config(Path("home"), platform, env).as_posix() == expected


def test_an_unreadable_config_is_left_alone_with_a_clear_message(
        tmp_path: Path, run_casetrack: Callable[..., Ran]) -> None:
    home, data = tmp_path / "home", tmp_path / "CaseTrack"
    home.mkdir()
    (home / ".claude.json").write_text('{"mcpServers": {', encoding="utf-8")
    done = run_casetrack(home, data, "setup-claude-code")
    assert done.returncode != 0 and "is not valid JSON" in done.stderr and "Nothing was changed" in done.stderr
    assert (home / ".claude.json").read_text(encoding="utf-8") == '{"mcpServers": {'


def test_removing_the_registration_keeps_the_other_servers(tmp_path: Path) -> None:
    config = tmp_path / ".claude.json"
    original = json.dumps(EXISTING, indent=2, ensure_ascii=False) + "\n"
    config.write_text(original, encoding="utf-8")
    reg = setup.Registration("/opt/casetrack", ["serve"])
    assert setup.merge_server(config, reg.entry("code"), reg).action == "added"
    assert setup.remove_server(config).action == "removed"
    assert config.read_text(encoding="utf-8") == original
    assert setup.remove_server(config).action == "absent"
