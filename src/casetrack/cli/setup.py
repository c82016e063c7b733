"""`casetrack setup-claude-code` and `casetrack setup-claude-desktop` (PRD 03 §3).

Claude Code keeps user-scope MCP servers in ~/.claude.json (top-level "mcpServers"); it no
longer reads them from ~/.claude/settings.json. With the `claude` CLI on PATH we let it do the
work (`claude mcp add --scope user`); otherwise, and always for Claude Desktop's
claude_desktop_config.json, we merge the entry ourselves: parse, insert, write with the same
indentation to a temporary file, then rename it over the original (a backup is kept), so a
crash never leaves half a file and every other key survives. Both commands are idempotent.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from casetrack.config import Settings
from casetrack.errors import CaseTrackError
from casetrack.files import expand

SERVER_NAME = "casetrack"
BACKUP_SUFFIX = ".casetrack-backup"


class SetupFailed(CaseTrackError):
    pass


@dataclass(frozen=True, slots=True)
class Registration:
    command: str
    args: list[str]

    def entry(self, client: str) -> dict[str, Any]:
        if client == "code":  # the shape `claude mcp add` writes
            return {"type": "stdio", "command": self.command, "args": list(self.args), "env": {}}
        return {"command": self.command, "args": list(self.args)}

    def matches(self, entry: object) -> bool:
        return (isinstance(entry, dict) and entry.get("command") == self.command
                and list(entry.get("args") or []) == self.args and not entry.get("env"))

    @property
    def shown(self) -> str:
        return " ".join([self.command, *self.args])


@dataclass(frozen=True, slots=True)
class Change:
    path: Path
    action: str  # "added", "updated", "unchanged", "removed", "absent"
    backup: Path | None = None
    previous: object = None


def casetrack_executable() -> str:
    """The absolute path of the `casetrack` command running now (not resolved through symlinks,
    so ~/.local/bin/casetrack stays valid across upgrades)."""
    argv0 = sys.argv[0] if sys.argv else ""
    if argv0 and Path(argv0).name.lower().startswith(SERVER_NAME) and Path(argv0).exists():
        return str(Path(argv0).absolute())
    beside = Path(sys.executable).with_name("casetrack.exe" if os.name == "nt" else "casetrack")
    if beside.exists():
        return str(beside)
    found = shutil.which(SERVER_NAME)
    if found:
        return str(Path(found).absolute())
    raise SetupFailed("Could not find the casetrack command. Install CaseTrack with ./install.sh first.")


def registration(data_dir: Path, executable: str | None = None) -> Registration:
    return Registration(executable or casetrack_executable(), ["--data-dir", str(data_dir), "serve"])


def claude_code_config(home: Path | None = None) -> Path:
    return (home or Path.home()) / ".claude.json"


def claude_desktop_config(home: Path | None = None, platform: str | None = None,
                          environ: dict[str, str] | None = None) -> Path:
    """macOS ~/Library/Application Support/Claude, Windows %APPDATA%\\Claude, Linux ~/.config/Claude."""
    home = home or Path.home()
    platform = platform or sys.platform
    env = dict(os.environ) if environ is None else environ
    if platform == "darwin":
        folder = home / "Library" / "Application Support" / "Claude"
    elif platform.startswith("win"):
        folder = Path(env.get("APPDATA") or home / "AppData" / "Roaming") / "Claude"
    else:
        folder = Path(env.get("XDG_CONFIG_HOME") or home / ".config") / "Claude"
    return folder / "claude_desktop_config.json"


# --- the JSON merge ----------------------------------------------------------------


def _indent_of(text: str) -> int | str | None:
    """The indentation the file uses (2 when it has none to copy)."""
    match = re.search(r"^[\[{]\s*\n([ \t]+)\S", text)
    if not match:
        return 2 if text.strip() in ("", "{}") else None
    unit = match.group(1)
    return unit if "\t" in unit else len(unit)


def _read(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return "", {}
    except OSError as exc:
        raise SetupFailed(f"Could not read {path}: {exc}. Nothing was changed.") from exc
    if not text.strip():
        return text, {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise SetupFailed(f"{path} is not valid JSON ({exc}). Nothing was changed; fix the file (or move it "
                          "aside) and run this again.") from exc
    if not isinstance(data, dict):
        raise SetupFailed(f"{path} does not hold a JSON object. Nothing was changed.")
    return text, data


def _write_atomically(path: Path, text: str, original: str) -> Path | None:
    """Write via a temporary file and rename; keep a backup of a non-empty original."""
    path.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    mode = 0o600
    with contextlib.suppress(OSError):
        mode = path.stat().st_mode & 0o777
    if original.strip():
        backup = path.with_name(path.name + BACKUP_SUFFIX)
        backup.write_text(original, encoding="utf-8")
        with contextlib.suppress(OSError):
            backup.chmod(mode)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(OSError):
            tmp.chmod(mode)  # ~/.claude.json holds account data: keep it private
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return backup


def _dump(data: dict[str, Any], original: str) -> str:
    indent = _indent_of(original)
    text = json.dumps(data, indent=indent if indent is not None else 2, ensure_ascii=False)
    return text + ("\n" if original.endswith("\n") or not original else "")


def merge_server(path: Path, entry: dict[str, Any], reg: Registration) -> Change:
    """Put mcpServers.casetrack = entry into the JSON file at `path`, changing nothing else."""
    original, data = _read(path)
    servers = data.get("mcpServers")
    if servers is not None and not isinstance(servers, dict):
        raise SetupFailed(f'"mcpServers" in {path} is not an object. Nothing was changed.')
    previous = (servers or {}).get(SERVER_NAME)
    if reg.matches(previous):
        return Change(path, "unchanged")
    if servers is None:
        data["mcpServers"] = servers = {}
    servers[SERVER_NAME] = entry
    backup = _write_atomically(path, _dump(data, original), original)
    return Change(path, "updated" if previous is not None else "added", backup, previous)


def remove_server(path: Path) -> Change:
    original, data = _read(path)
    servers = data.get("mcpServers")
    if not isinstance(servers, dict) or SERVER_NAME not in servers:
        return Change(path, "absent")
    previous = servers.pop(SERVER_NAME)
    backup = _write_atomically(path, _dump(data, original), original)
    return Change(path, "removed", backup, previous)


# --- Claude Code through its own CLI --------------------------------------------------


def _claude(args: list[str], claude: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([claude, *args], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SetupFailed(f"Could not run {claude}: {exc}") from exc


def setup_claude_code(reg: Registration, home: Path | None = None, claude: str | None = None) -> Change:
    """Register with Claude Code (user scope). Uses the `claude` CLI when given, else merges ~/.claude.json."""
    path = claude_code_config(home)
    if claude is None:
        return merge_server(path, reg.entry("code"), reg)
    _, data = _read(path)
    previous = (data.get("mcpServers") or {}).get(SERVER_NAME) if isinstance(data.get("mcpServers"), dict) else None
    if reg.matches(previous):
        return Change(path, "unchanged")
    if previous is not None:
        _claude(["mcp", "remove", "--scope", "user", SERVER_NAME], claude)
    done = _claude(["mcp", "add", "--scope", "user", SERVER_NAME, "--", reg.command, *reg.args], claude)
    if done.returncode != 0:
        raise SetupFailed(f"'claude mcp add' failed (exit {done.returncode}): {(done.stdout + done.stderr).strip()}")
    return Change(path, "updated" if previous is not None else "added", None, previous)


def remove_claude_code(home: Path | None = None, claude: str | None = None) -> Change:
    path = claude_code_config(home)
    if claude is not None:
        _, data = _read(path)
        servers = data.get("mcpServers")
        if not isinstance(servers, dict) or SERVER_NAME not in servers:
            return Change(path, "absent")
        done = _claude(["mcp", "remove", "--scope", "user", SERVER_NAME], claude)
        if done.returncode == 0:
            return Change(path, "removed", None, servers[SERVER_NAME])
    return remove_server(path)


# --- the commands -------------------------------------------------------------------------


def _describe(client: str, change: Change, reg: Registration | None = None) -> list[str]:
    where = str(change.path)
    if change.action == "unchanged":
        return [f"{client} already runs CaseTrack as: {reg.shown if reg else ''}", f"Nothing changed in {where}."]
    if change.action == "absent":
        return [f"{client}: no CaseTrack entry in {where}; nothing to remove."]
    lines = []
    if change.action == "removed":
        lines.append(f"{client}: removed the CaseTrack entry from {where}.")
    else:
        verb = "Added" if change.action == "added" else "Updated"
        lines.append(f"{verb} CaseTrack in {where} (mcpServers.{SERVER_NAME}):")
        if reg is not None:
            lines.append(f"  command: {reg.shown}")
        if change.previous is not None and change.action == "updated":
            lines.append(f"  was: {json.dumps(change.previous)}")
    if change.backup:
        lines.append(f"  backup of the previous file: {change.backup}")
    return lines


def _data_dir(ctx: typer.Context, override: str | None) -> Path:
    settings: Settings = ctx.obj.settings
    return expand(override) if override else settings.data_dir


DataDirOption = Annotated[str | None, typer.Option("--data-dir", help="Data directory the registered server "
                                                   "uses (default: the global --data-dir or its default)")]


def setup_claude_code_command(ctx: typer.Context, data_dir: DataDirOption = None) -> None:
    """Register CaseTrack with Claude Code (user scope: every project)."""
    try:
        reg = registration(_data_dir(ctx, data_dir))
        claude = shutil.which("claude")
        change = setup_claude_code(reg, claude=claude)
    except CaseTrackError as exc:
        typer.echo(f"Error: {exc.message}", err=True)
        raise typer.Exit(exc.exit_code) from None
    how = "with 'claude mcp add --scope user'" if claude and change.action != "unchanged" else ""
    for line in _describe("Claude Code", change, reg):
        typer.echo(line)
    if how:
        typer.echo(f"  (registered {how})")
    if change.action != "unchanged":
        typer.echo("Claude Code configured. CaseTrack will be available in your next session.")


def setup_claude_desktop_command(ctx: typer.Context, data_dir: DataDirOption = None) -> None:
    """Register CaseTrack with Claude Desktop (claude_desktop_config.json)."""
    try:
        reg = registration(_data_dir(ctx, data_dir))
        change = merge_server(claude_desktop_config(), reg.entry("desktop"), reg)
    except CaseTrackError as exc:
        typer.echo(f"Error: {exc.message}", err=True)
        raise typer.Exit(exc.exit_code) from None
    for line in _describe("Claude Desktop", change, reg):
        typer.echo(line)
    if change.action != "unchanged":
        typer.echo("Claude Desktop configured. Quit and reopen Claude Desktop to start CaseTrack.")


def register(app: typer.Typer) -> None:
    from casetrack.cli.console import examples

    app.command("setup-claude-code", epilog=examples("casetrack setup-claude-code"))(setup_claude_code_command)
    app.command("setup-claude-desktop", epilog=examples(
        "casetrack setup-claude-desktop", "casetrack setup-claude-desktop --data-dir ~/Dropbox/CaseTrack"))(
        setup_claude_desktop_command)

