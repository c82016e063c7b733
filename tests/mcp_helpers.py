"""Talking to a real `casetrack serve` over stdio, as Claude does."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult
from nacl.signing import SigningKey

CASETRACK = str(Path(sys.executable).with_name("casetrack"))


# Read only by tests/trusted_key_launcher.py (and the test writer scripts), never by CaseTrack.
TEST_TRUSTED_KEY_ENV = "CASETRACK_TEST_TRUSTED_KEY"
LAUNCHER = str(Path(__file__).with_name("trusted_key_launcher.py"))


def trusted_key_env(signer: SigningKey, licence_key: str) -> dict[str, str]:
    """Environment for a server that trusts `signer` (via the test launcher) and holds `licence_key`."""
    import base64

    return {TEST_TRUSTED_KEY_ENV: base64.b64encode(bytes(signer.verify_key)).decode(),
            "CASETRACK_LICENSE_KEY": licence_key}


def pro_env() -> dict[str, str]:
    """A Pro-tier server, signed by a throwaway key pair (tests that need more than the Free tier's
    3 cases, or the Pro tools)."""
    from casetrack.service.distribution import licensing
    signer = SigningKey.generate()
    return trusted_key_env(signer, licensing.issue(licensing.Claims("PRO", None, 1, 1), bytes(signer)))


def server_env(data_dir: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CASETRACK_")}
    env.update({"CASETRACK_HOME": str(data_dir), "CASETRACK_LOG": "DEBUG", "CASETRACK_NO_UPDATE_CHECK": "1"})
    env.update(extra)
    return env


def server_params(data_dir: Path, *args: str, **env: str) -> StdioServerParameters:
    if TEST_TRUSTED_KEY_ENV in env:  # the real CLI, started through the test-only trusted-key launcher
        return StdioServerParameters(command=sys.executable, args=[LAUNCHER, "serve", *args],
                                     env=server_env(data_dir, **env))
    return StdioServerParameters(command=CASETRACK, args=["serve", *args], env=server_env(data_dir, **env))


@contextlib.asynccontextmanager
async def mcp_session(data_dir: Path, *args: str, **env: str) -> AsyncIterator[Client]:
    # The server's stderr (its log) reaches pytest's captured output, shown on failure.
    async with Client(server_params(data_dir, *args, **env), read_timeout_seconds=120) as client:
        yield client


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if getattr(block, "type", "") == "text")


async def call_ok(client: Client, tool: str, **arguments: Any) -> CallToolResult:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"{tool} failed: {text_of(result)}"
    return result


async def call_error(client: Client, tool: str, **arguments: Any) -> str:
    """Call a tool that must fail; return CaseTrack's own message.

    mcp 2.x delivers a raised ToolError as `Error executing tool <name>: <message>`; the
    message after that prefix is CaseTrack's text, which tests compare with the PRD's.
    """
    result = await client.call_tool(tool, arguments)
    assert result.is_error, f"{tool} unexpectedly succeeded: {text_of(result)}"
    text = text_of(result)
    prefix = f"Error executing tool {tool}: "
    assert text.startswith(prefix), text
    return text[len(prefix):]


async def listed_clauses(data_dir: Path, case_name: str, *document_names: str) -> list[dict[str, Any]]:
    """`list_clauses`' structured result for each named document of a case, read through `casetrack serve`."""
    async with mcp_session(data_dir) as client:
        await call_ok(client, "switch_case", case_name=case_name)
        found = [(await call_ok(client, "list_clauses", document_name=name)).structured_content
                 for name in document_names]
    assert all(result is not None for result in found)
    return [result for result in found if result is not None]
