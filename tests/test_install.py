"""install.sh for real, in a clean temporary HOME: uv installs CaseTrack from this checkout as a
uv tool, the installed `casetrack setup-claude-code` registers it, the registered command
serves MCP, `casetrack update` drives `uv tool upgrade`, and `casetrack uninstall` removes the
program and the registration but never the data. (Slow: it builds and installs the package.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from casetrack import __version__
from tests.claude_standin import fake_claude
from tests.test_setup import EXISTING
from tests.test_updates import pypi

pytestmark = [pytest.mark.slow, pytest.mark.skipif(os.name == "nt", reason="install.sh is for macOS/Linux")]
REPO = Path(__file__).resolve().parents[1]
UV = shutil.which("uv")


@dataclass
class Installed:
    home: Path
    data: Path
    casetrack: Path
    env: dict[str, str]
    output: str
    claude_log: Path


def clean_env(home: Path, data: Path, path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("CASETRACK_", "XDG_", "UV_", "VIRTUAL_ENV", "PYTHONPATH"))}
    env.update({"HOME": str(home), "CASETRACK_HOME": str(data), "CASETRACK_NO_UPDATE_CHECK": "1", "PATH": path,
                # The existing cache only saves time; the install itself is what runs.
                "UV_CACHE_DIR": os.environ.get("UV_CACHE_DIR") or str(Path.home() / ".cache" / "uv")})
    return env


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    if UV is None:
        pytest.skip("uv is not installed")
    root = tmp_path_factory.mktemp("install")
    home, data, fake_bin = root / "home", root / "home" / "Cases", root / "fake-bin"
    home.mkdir()
    fake_bin.mkdir()
    log = root / "claude-calls.jsonl"
    fake_claude(fake_bin, home, log)
    system_path = os.pathsep.join(p for p in os.environ["PATH"].split(os.pathsep)
                                  if ".local/bin" not in p and ".venv" not in p)
    env = clean_env(home, data, f"{fake_bin}{os.pathsep}{Path(UV).parent}{os.pathsep}{system_path}")
    done = subprocess.run(["sh", str(REPO / "install.sh")], capture_output=True, text=True, timeout=900, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    casetrack = home / ".local" / "bin" / "casetrack"
    return Installed(home, data, casetrack, env, done.stdout, log)


def run(installed: Installed, *args: str, home: Path | None = None, path: str | None = None,
        **extra: str) -> subprocess.CompletedProcess[str]:
    env = {**installed.env, **extra}
    if home is not None:
        env["HOME"] = str(home)
    if path is not None:
        env["PATH"] = path
    return subprocess.run([str(installed.casetrack), *args], capture_output=True, text=True, timeout=600, env=env)


def test_install_sh_installs_the_tool_registers_with_claude_code_and_says_so(installed: Installed) -> None:
    assert installed.casetrack.exists()
    assert run(installed, "--version").stdout.strip() == f"casetrack {__version__}"
    assert "CaseTrack installed successfully!" in installed.output
    assert f"Binary:  {installed.casetrack}" in installed.output and f"Data:    {installed.data}" in installed.output
    assert "Add " in installed.output and "to your PATH" in installed.output  # ~/.local/bin was not on PATH
    assert "Open Claude Code and ask: 'Create a new case called Test'" in installed.output
    calls = [json.loads(line) for line in installed.claude_log.read_text().splitlines()]
    assert calls == [["mcp", "add", "--scope", "user", "casetrack", "--", str(installed.casetrack),
                      "--data-dir", str(installed.data), "serve"]]


def test_the_installed_setup_merges_claude_json_and_the_entry_starts_the_server(installed: Installed,
                                                                              tmp_path: Path) -> None:
    home = tmp_path / "home-without-claude"  # no `claude` on PATH: the merge path runs
    home.mkdir()
    original = json.dumps(EXISTING, indent=2, ensure_ascii=False) + "\n"
    (home / ".claude.json").write_text(original, encoding="utf-8")
    path = installed.env["PATH"].split(os.pathsep, 1)[1]  # without the fake claude
    first = run(installed, "setup-claude-code", home=home, path=path)
    assert first.returncode == 0 and "Added CaseTrack in" in first.stdout, first.stderr
    config = json.loads((home / ".claude.json").read_text(encoding="utf-8"))
    entry = config["mcpServers"].pop("casetrack")
    assert json.dumps(config, indent=2, ensure_ascii=False) + "\n" == original
    assert entry["command"] == str(installed.casetrack)
    before = (home / ".claude.json").read_bytes()
    second = run(installed, "setup-claude-code", home=home, path=path)
    assert "Nothing changed" in second.stdout and (home / ".claude.json").read_bytes() == before

    async def tools() -> set[str]:
        env = {**installed.env, "HOME": str(home)}
        env.pop("CASETRACK_HOME")  # the registered command carries its own --data-dir
        params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
        async with Client(params, read_timeout_seconds=120) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert {"create_case", "search_case", "get_status"} <= anyio.run(tools)


def test_casetrack_update_runs_uv_tool_upgrade_and_checks_the_result(installed: Installed) -> None:
    with pypi("9.9.9") as url:
        done = run(installed, "update", CASETRACK_UPDATE_URL=url)
    # uv reinstalls from this checkout, which is still 0.1.0: the check after the upgrade notices.
    assert "Upgrading with: uv tool upgrade casetrack" in done.stdout, done.stdout + done.stderr
    assert done.returncode == 1 and "now reports 0.1.0, not 9.9.9" in done.stderr


def test_uninstall_removes_the_program_and_registration_but_keeps_the_data(installed: Installed) -> None:
    assert run(installed, "cases", "create", "Keep Me").returncode == 0
    refused = subprocess.run([str(installed.casetrack), "uninstall"], input="n\n", capture_output=True, text=True,
                             timeout=120, env=installed.env)
    assert "Your case data will NOT be deleted" in refused.stdout and installed.casetrack.exists()
    done = run(installed, "uninstall", "--yes")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Removed the CaseTrack program (uv tool uninstall casetrack)" in done.stdout
    assert f"Your data is still in {installed.data}" in done.stdout
    assert not installed.casetrack.exists()
    assert (installed.data / "registry.db").exists()
    calls = [json.loads(line) for line in installed.claude_log.read_text().splitlines()]
    assert calls[-1] == ["mcp", "remove", "--scope", "user", "casetrack"]
    assert "casetrack" not in json.loads((installed.home / ".claude.json").read_text())["mcpServers"]
