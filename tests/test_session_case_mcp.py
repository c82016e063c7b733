"""The case a session works in (issue 22 §2), through real `casetrack serve` processes over stdio:
a restarted server continues in the last case the user chose; any case-scoped tool can work on
another case by `case_name` without moving the session; two servers on one data directory keep
their own choices."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of


def _files(tmp_path: Path) -> tuple[Path, Path]:
    alpha = tmp_path / "alpha_lease.txt"
    alpha.write_text("LEASE\n\nThe tenant shall pay rent of $2,400 on the first day of each month.\n")
    beta = tmp_path / "beta_supply.txt"
    beta.write_text("SUPPLY AGREEMENT\n\nThe supplier shall deliver the widgets within 14 days of each order.\n")
    return alpha, beta


async def _two_cases(data_dir: Path, tmp_path: Path) -> None:
    alpha, beta = _files(tmp_path)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Alpha")
        await call_ok(client, "ingest_document", file_path=str(alpha))
        await call_ok(client, "create_case", name="Beta")
        await call_ok(client, "ingest_document", file_path=str(beta))


def _documents(result: object) -> set[str]:
    return {hit["source"]["document"] for hit in result.structured_content["results"]}  # type: ignore[attr-defined]


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_a_restarted_server_searches_the_last_chosen_case_without_switch_case(data_dir: Path,
                                                                                     tmp_path: Path) -> None:
    await _two_cases(data_dir, tmp_path)
    async with mcp_session(data_dir) as client:  # a new process: what Claude Desktop does after a restart
        found = await call_ok(client, "search_case", query="when are the widgets delivered", top_k=3)
        assert _documents(found) == {"beta_supply.txt"}
        assert "Active Case: Beta" in text_of(await call_ok(client, "get_status"))
        listing = (await call_ok(client, "list_cases")).structured_content
        assert listing is not None
        active = [c["name"] for c in listing["cases"] if c["is_active"]]
        assert active == ["Beta"] and listing["active_case_id"] is not None


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_case_name_works_on_another_case_and_leaves_the_active_case_as_it_was(data_dir: Path,
                                                                                     tmp_path: Path) -> None:
    await _two_cases(data_dir, tmp_path)
    async with mcp_session(data_dir) as client:
        found = await call_ok(client, "search_case", query="how much is the rent", top_k=3, case_name="Alpha")
        assert _documents(found) == {"alpha_lease.txt"}
        docs = (await call_ok(client, "list_documents", case_name="alpha")).structured_content
        assert docs is not None and [d["name"] for d in docs["documents"]] == ["alpha_lease.txt"]
        assert "Active Case: Beta" in text_of(await call_ok(client, "get_status"))
        assert _documents(await call_ok(client, "search_case", query="rent", top_k=3)) == {"beta_supply.txt"}
        message = await call_error(client, "search_case", query="rent", case_name="Gamma")
        assert 'Case not found: "Gamma"' in message


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_two_servers_on_one_data_directory_keep_their_own_active_cases(data_dir: Path,
                                                                            tmp_path: Path) -> None:
    await _two_cases(data_dir, tmp_path)
    async with mcp_session(data_dir) as first, mcp_session(data_dir) as second:
        await call_ok(first, "switch_case", case_name="Alpha")
        # The second session started in Beta and nobody there chose otherwise: it stays in Beta.
        assert _documents(await call_ok(second, "search_case", query="rent", top_k=3)) == {"beta_supply.txt"}
        assert _documents(await call_ok(first, "search_case", query="rent", top_k=3)) == {"alpha_lease.txt"}
    async with mcp_session(data_dir) as third:  # a later session starts where the last choice was made
        assert "Active Case: Alpha" in text_of(await call_ok(third, "get_status"))


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
@pytest.mark.anyio
async def test_a_deleted_last_case_leaves_a_new_session_with_no_active_case(data_dir: Path, tmp_path: Path) -> None:
    await _two_cases(data_dir, tmp_path)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "delete_case", case_name="Beta", confirm=True)
    async with mcp_session(data_dir) as client:
        message = await call_error(client, "search_case", query="rent")
        assert message.startswith("No active case.") and "switch_case" in message
