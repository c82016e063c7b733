"""Generate manifest.json (the MCPB bundle manifest, version 0.4, server type "uv") from the
live server: the tool list is whatever `casetrack serve` registers, so it cannot drift.

    uv run python scripts/mcpb_manifest.py           # rewrite manifest.json
    uv run python scripts/mcpb_manifest.py --check   # exit 1 if manifest.json is stale (CI)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import anyio
from mcp import Client

from casetrack.parse import SUPPORTED_LABEL

REPO = Path(__file__).resolve().parents[1]
MANIFEST = REPO / "manifest.json"


async def _tools(data_dir: Path) -> list[tuple[str, str]]:
    from casetrack.config import load_settings
    from casetrack.mcp.server import build_server
    from casetrack.service.app import CaseTrack

    app = CaseTrack.open(load_settings(data_dir, environ={}))
    async with Client(build_server(app)) as client:
        listed = (await client.list_tools()).tools
    return [(t.name, t.description or "") for t in listed]


def live_tools() -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory(prefix="casetrack-manifest-") as tmp:
        return anyio.run(_tools, Path(tmp))


def _first_sentence(text: str) -> str:
    match = re.match(r"(.+?[.!?])(\s|$)", " ".join(text.split()))
    return match.group(1) if match else " ".join(text.split())


def build(tools: list[tuple[str, str]]) -> dict[str, Any]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return {
        "manifest_version": "0.4",
        "name": "casetrack",
        "display_name": "CaseTrack Legal Document Analysis",
        "version": project["version"],
        "description": "Ingest PDFs, Word docs, and scans. Search with AI. Every answer cites the source.",
        "long_description": (
            f"CaseTrack reads your case files ({SUPPORTED_LABEL}; scanned pages by OCR) and "
            "answers searches with a citation for every passage: document, page, paragraph, lines. Each case is "
            "its own database on your computer; documents never leave your machine. Claude Desktop creates the "
            "Python environment from the bundled pyproject.toml and uv.lock."
        ),
        "author": {"name": "CaseTrack", "url": "https://casetrack.legal"},
        "homepage": "https://casetrack.legal",
        "support": "https://github.com/casetrack-legal/casetrack/issues",
        "license": project.get("license", "MIT"),
        "keywords": ["legal", "documents", "search", "citations", "ocr", "local"],
        "server": {
            "type": "uv",
            "entry_point": "src/casetrack/__main__.py",
            "mcp_config": {
                "command": "uv",
                "args": ["run", "--directory", "${__dirname}", "--frozen", "--no-dev", "casetrack",
                         "--data-dir", "${user_config.data_dir}", "serve"],
                "env": {
                    "CASETRACK_HOME": "${user_config.data_dir}",
                    "CASETRACK_LICENSE_KEY": "${user_config.license_key}",
                },
            },
        },
        "compatibility": {
            "platforms": ["darwin", "win32", "linux"],
            "runtimes": {"python": project["requires-python"]},
        },
        "user_config": {
            "data_dir": {
                "type": "directory",
                "title": "Data Location",
                "description": "Where to store cases and models on your computer",
                "default": "${DOCUMENTS}/CaseTrack",
                "required": True,
            },
            "license_key": {
                "type": "string",
                "title": "License Key (Optional)",
                "description": "Leave blank for free tier. Purchase at casetrack.legal",
                "sensitive": True,
                "required": False,
            },
        },
        "tools": [{"name": name, "description": _first_sentence(text)} for name, text in tools],
        "tools_generated": False,
    }


def render(manifest: dict[str, Any]) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true", help="fail if manifest.json is not up to date")
    args = parser.parse_args()
    text = render(build(live_tools()))
    if args.check:
        if not MANIFEST.exists() or MANIFEST.read_text(encoding="utf-8") != text:
            sys.exit("manifest.json is stale: run 'uv run python scripts/mcpb_manifest.py' and commit it.")
        print("manifest.json is up to date.")
        return
    MANIFEST.write_text(text, encoding="utf-8")
    print(f"Wrote {MANIFEST}")


if __name__ == "__main__":
    main()
