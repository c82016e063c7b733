"""get_index_status names the case's search-index files, their generation, size and state; a damaged file is
reported and rebuilt from the store at the next search, never an error the user has to fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.store.search_index.manifest import INDEX_DIR
from tests.index_cases import write_documents
from tests.mcp_helpers import call_ok, mcp_session, text_of

pytestmark = pytest.mark.anyio


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_index_status_lists_the_index_files_and_a_damaged_one_is_rebuilt_by_the_next_search(
        data_dir: Path) -> None:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.create_case("Big Production")
    write_documents(app, case, 8)
    app.jobs.shutdown()
    index_dir = data_dir / "cases" / case.id / INDEX_DIR

    async with mcp_session(data_dir) as client:
        await call_ok(client, "switch_case", case_name="Big Production")
        await call_ok(client, "search_case", query="lease3 rent7")  # built from the store, written
        status = await call_ok(client, "get_index_status")
        files = status.structured_content["index_files"]
        assert files["state"] == "current" and files["files_generation"] == files["store_generation"] == 8
        segment = next(f for f in files["files"] if f["path"].startswith("index/seg-"))
        assert segment["chunks"] == 160 and segment["size_bytes"] > 0 and segment["state"] == "current"
        assert "Search index files: current" in text_of(status) and segment["path"] in text_of(status)

        (index_dir / segment["path"].removeprefix("index/") / "bm25_lengths.npy").write_bytes(b"\x93NUMPY")
        damaged = await call_ok(client, "get_index_status")  # reported, not raised
        assert damaged.structured_content["index_files"]["state"] == "damaged"
        assert "bm25_lengths.npy" in damaged.structured_content["index_files"]["problem"]
        assert "rebuilt from the case store at the next search (nothing to do)" in text_of(damaged)

    async with mcp_session(data_dir) as client:  # a new server: the damaged files cannot be used
        await call_ok(client, "switch_case", case_name="Big Production")
        found = await call_ok(client, "search_case", query="deed39 court5")
        assert found.structured_content["results"]
        repaired = (await call_ok(client, "get_index_status")).structured_content["index_files"]
        assert repaired["state"] == "current" and repaired["problem"] is None
