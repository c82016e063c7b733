"""A stuck file over MCP, as Claude meets it (issue 20 §4): a named pipe or a file whose read stalls is a
clear error and the next document is searchable; a long job is cancelled with cancel_ingest and the case
is left as it was. A real `casetrack serve` over stdio."""

from __future__ import annotations

import os
import time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of
from tests.stalled_files import held_file, long_text

pytestmark = pytest.mark.anyio

NOTICE = "The tenant must give ninety days written notice before terminating the lease of Unit 4."


def notice_file(folder: Path) -> Path:
    path = folder / "notice.txt"
    path.write_text(NOTICE + "\n", encoding="utf-8")
    return path


async def counts(client: Client) -> dict[str, object]:
    """The case's counts (from its store) and the time it last changed (from the registry)."""
    info = (await call_ok(client, "get_case_info")).structured_content["case"]
    listed = (await call_ok(client, "list_cases")).structured_content["cases"]
    return {**{k: v for k, v in info["stats"].items() if k != "storage_bytes"}, "updated_at": info["updated_at"],
            "listed": [c["stats"]["document_count"] for c in listed]}


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_named_pipe_is_an_error_and_the_next_document_is_searchable(data_dir: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "evidence.txt"
    os.mkfifo(fifo)
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Smith v. Jones")
        started = time.monotonic()
        refused = await call_error(client, "ingest_document", file_path=str(fifo))
        assert time.monotonic() - started < 10
        assert f"{fifo} is a named pipe (FIFO)" in refused and "reads only regular files" in refused
        done = await call_ok(client, "ingest_document", file_path=str(notice_file(tmp_path)), wait_seconds=120)
        assert "This document is now searchable." in text_of(done)
        hits = await call_ok(client, "search_case", query="ninety days written notice")
        assert NOTICE in text_of(hits)


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_a_file_whose_read_stalls_is_an_error_and_the_next_document_is_searchable(data_dir: Path,
                                                                                        tmp_path: Path) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "config.toml").write_text("read_timeout_s = 1\n", encoding="utf-8")
    with held_file(tmp_path / "placeholder.txt", "An online-only file that never downloads.\n") as stalled:
        async with mcp_session(data_dir) as client:
            await call_ok(client, "create_case", name="Smith v. Jones")
            refused = await call_error(client, "ingest_document", file_path=str(stalled), wait_seconds=60)
            assert refused.startswith(f"Could not read {stalled}: opening it did not finish within 1 s.")
            assert "Make it available offline" in refused
            await call_ok(client, "ingest_document", file_path=str(notice_file(tmp_path)), wait_seconds=120)
            assert NOTICE in text_of(await call_ok(client, "search_case", query="ninety days written notice"))


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_cancel_ingest_stops_a_long_job_and_leaves_the_case_as_it_was(data_dir: Path, tmp_path: Path) -> None:
    long = long_text(tmp_path / "deposition.txt")
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Smith v. Jones")
        await call_ok(client, "ingest_document", file_path=str(notice_file(tmp_path)), wait_seconds=120)
        before = await counts(client)
        started = (await call_ok(client, "ingest_document", file_path=str(long), wait_seconds=0)).structured_content
        job_id = started["job_id"]
        for _ in range(600):  # until it is embedding: the long part, where a kill used to be the only way out
            status = (await call_ok(client, "get_ingest_status", job_id=job_id)).structured_content
            if (status["current_file"] or "").startswith("embedding"):
                break
            await anyio.sleep(0.1)
        cancelled = await call_ok(client, "cancel_ingest", job_id=job_id[:8])
        assert cancelled.structured_content["state"] == "cancelled"
        assert "Nothing from this document was stored" in text_of(cancelled)
        listing = (await call_ok(client, "get_ingest_status")).structured_content["jobs"]
        assert [j["state"] for j in listing if j["job_id"] == job_id] == ["cancelled"]
        assert await counts(client) == before
        assert (await call_ok(client, "list_documents")).structured_content["total"] == 1
        again = await call_error(client, "cancel_ingest", job_id=job_id)
        assert "has already finished (cancelled); there is nothing to cancel" in again
