"""A local stand-in for the `claude` CLI (the real one is not installed here): it records its
arguments and writes what `claude mcp add` / `claude mcp remove` write to ~/.claude.json."""

from __future__ import annotations

import sys
from pathlib import Path


def fake_claude(bin_dir: Path, home: Path, log: Path) -> None:
    """A local stand-in for the `claude` CLI: records its arguments, writes what `claude mcp add` writes."""
    script = bin_dir / "claude"
    script.write_text(f"""#!{sys.executable}
import json, sys, pathlib
args = sys.argv[1:]
with open({str(log)!r}, "a") as f:
    f.write(json.dumps(args) + "\\n")
cfg = pathlib.Path({str(home / ".claude.json")!r})
data = json.loads(cfg.read_text()) if cfg.exists() else {{}}
servers = data.setdefault("mcpServers", {{}})
if args[:2] == ["mcp", "add"]:
    sep = args.index("--")
    servers[args[4]] = {{"type": "stdio", "command": args[sep + 1], "args": args[sep + 2:], "env": {{}}}}
elif args[:2] == ["mcp", "remove"]:
    servers.pop(args[-1], None)
cfg.write_text(json.dumps(data, indent=2))
""", encoding="utf-8")
    script.chmod(0o755)
