"""The Claude Desktop bundle: manifest.json (MCPB 0.4, server type "uv") stays in step with the
live server, passes the official `mcpb validate`, and the packed bundle really serves."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

REPO = Path(__file__).resolve().parents[1]
NPX = shutil.which("npx")
MCPB = [NPX or "npx", "--yes", "@anthropic-ai/mcpb@2"]


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mcpb_manifest", REPO / "scripts" / "mcpb_manifest.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def committed() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((REPO / "manifest.json").read_text(encoding="utf-8"))
    return manifest


def test_manifest_lists_exactly_the_tools_the_server_registers() -> None:
    gen = generator()
    live = gen.build(gen.live_tools())
    manifest = committed()
    listed = {t["name"] for t in manifest["tools"]}
    served = {t["name"] for t in live["tools"]}
    assert not served - listed, f"tools missing from manifest.json: {sorted(served - listed)}; " \
                                "run: uv run python scripts/mcpb_manifest.py"
    assert not listed - served, f"manifest.json lists tools the server lacks: {sorted(listed - served)}"
    assert manifest == live, "manifest.json is stale; run: uv run python scripts/mcpb_manifest.py"


def test_manifest_is_a_uv_bundle_with_the_prds_user_config() -> None:
    manifest = committed()
    assert manifest["manifest_version"] == "0.4" and manifest["server"]["type"] == "uv"
    assert manifest["display_name"] == "CaseTrack Legal Document Analysis"
    assert set(manifest["user_config"]) == {"data_dir", "license_key"}
    assert manifest["user_config"]["license_key"]["sensitive"] is True
    config = manifest["server"]["mcp_config"]
    assert "${user_config.data_dir}" in config["args"] and config["args"][-1] == "serve"
    assert config["env"]["CASETRACK_LICENSE_KEY"] == "${user_config.license_key}"
    assert (REPO / manifest["server"]["entry_point"]).is_file()


@pytest.mark.skipif(NPX is None, reason="npx (Node.js) is not installed")
def test_the_official_mcpb_cli_validates_the_manifest() -> None:
    done = subprocess.run([*MCPB, "validate", str(REPO / "manifest.json")], capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0 and "ENOTFOUND" in done.stderr + done.stdout:
        pytest.skip("the npm registry is not reachable")
    assert done.returncode == 0 and "Manifest schema validation passes" in done.stdout, done.stdout + done.stderr


def _substitute(values: list[str], mapping: dict[str, str]) -> list[str]:
    out = []
    for value in values:
        for key, replacement in mapping.items():
            value = value.replace(key, replacement)
        out.append(value)
    return out


def _signature_check(bundle: Path, *trust: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["python3", str(REPO / "scripts" / "mcpb_signature.py"), str(bundle), *trust],
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(NPX is None or shutil.which("uv") is None or shutil.which("openssl") is None,
                    reason="needs npx, uv and openssl")
@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_the_bundle_carries_the_mit_licence_and_is_signed(tmp_path: Path) -> None:
    bundle, keys = tmp_path / "casetrack.mcpb", tmp_path / "signing"
    env = {**os.environ, "CASETRACK_MCPB_SIGNING_DIR": str(keys)}
    built = subprocess.run(["bash", str(REPO / "scripts" / "build_mcpb.sh"), str(bundle)], capture_output=True,
                           text=True, timeout=600, cwd=REPO, env=env)
    if built.returncode != 0 and "ENOTFOUND" in built.stderr + built.stdout:
        pytest.skip("the npm registry is not reachable")
    assert built.returncode == 0, built.stdout + built.stderr
    with zipfile.ZipFile(bundle) as zf:  # a signed bundle is still a zip Claude Desktop opens
        licence = zf.read("LICENSE").decode()
    assert licence.startswith("MIT License") and "pyproject.toml" not in licence
    assert 'license = "MIT"' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert "signature valid, signed by CN = CaseTrack (self-signed)" in built.stdout
    # The official `mcpb verify`, run on the built bundle: its verdict is shown, and when it is mcpb 2.x's
    # "not signed" (said of every signed bundle, even one from `mcpb sign --self-signed`), why.
    official = subprocess.run([*MCPB, "verify", str(bundle)], capture_output=True, text=True, timeout=300)
    verdict = (official.stdout + official.stderr).strip().splitlines()[-1]
    assert f"mcpb verify says: {verdict}" in built.stdout
    if official.returncode != 0:
        assert "not signed" in verdict and "modelcontextprotocol/mcpb#276" in built.stdout
    trusted = ("--trust", str(keys / "cert.pem"))
    assert _signature_check(bundle, *trusted).returncode == 0
    assert _signature_check(bundle).returncode == 1  # self-signed: no system authority vouches for it
    tampered = tmp_path / "tampered.mcpb"
    data = bytearray(bundle.read_bytes())
    data[1000] ^= 0xFF
    tampered.write_bytes(bytes(data))
    refused = _signature_check(tampered, *trusted)
    assert refused.returncode == 1 and "not valid" in refused.stderr
    rebuilt = subprocess.run(["bash", str(REPO / "scripts" / "build_mcpb.sh"), str(bundle)], capture_output=True,
                             text=True, timeout=600, cwd=REPO, env=env)
    assert rebuilt.returncode == 0 and _signature_check(bundle, *trusted).returncode == 0  # the same key again


@pytest.mark.slow
@pytest.mark.skipif(NPX is None or shutil.which("uv") is None, reason="needs npx and uv")
def test_the_packed_bundle_starts_the_server_as_claude_desktop_would(tmp_path: Path) -> None:
    bundle = tmp_path / "casetrack.mcpb"
    built = subprocess.run(["bash", str(REPO / "scripts" / "build_mcpb.sh"), str(bundle)], capture_output=True,
                           text=True, timeout=600, cwd=REPO,
                           env={**os.environ, "CASETRACK_MCPB_SIGNING_DIR": str(tmp_path / "signing")})
    assert built.returncode == 0, built.stdout + built.stderr
    unpacked = tmp_path / "extension"
    with zipfile.ZipFile(bundle) as zf:
        names = set(zf.namelist())
        zf.extractall(unpacked)
    assert {"manifest.json", "pyproject.toml", "uv.lock", "LICENSE", "src/casetrack/__init__.py"} <= names
    assert not any("__pycache__" in n for n in names)

    manifest = json.loads((unpacked / "manifest.json").read_text(encoding="utf-8"))
    config = manifest["server"]["mcp_config"]
    data = tmp_path / "Documents" / "CaseTrack"
    mapping = {"${__dirname}": str(unpacked), "${user_config.data_dir}": str(data), "${user_config.license_key}": ""}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CASETRACK_", "VIRTUAL_ENV"))}
    env.update(dict(zip(config["env"], _substitute(list(config["env"].values()), mapping), strict=True)))
    env["CASETRACK_NO_UPDATE_CHECK"] = "1"
    params = StdioServerParameters(command=config["command"], args=_substitute(config["args"], mapping), env=env)

    async def tools() -> set[str]:
        async with Client(params, read_timeout_seconds=300) as client:
            return {t.name for t in (await client.list_tools()).tools}

    assert anyio.run(tools) == {t["name"] for t in manifest["tools"]}
    assert (data / "registry.db").exists() or (data / "cases").is_dir()
