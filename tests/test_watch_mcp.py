"""Folder watches as Claude drives them: real `casetrack serve` processes over stdio, one or
two at a time on one data directory. Waits poll the data directory against a deadline."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest
from mcp import Client

from casetrack.config import load_settings
from casetrack.service.app import CaseTrack
from casetrack.service.watch.store import WatchState, WatchStore
from tests.mcp_helpers import call_error, call_ok, mcp_session, text_of
from tests.test_watch import CONFIG, docs

pytestmark = pytest.mark.anyio


async def until(check: Callable[[], object], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        await anyio.sleep(0.05)


def prepare(data_dir: Path, tmp_path: Path) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text(CONFIG)
    folder = tmp_path / "Matter"
    folder.mkdir()
    return folder.resolve()


def state(data_dir: Path) -> WatchState:
    [watch] = WatchStore(data_dir, 10).load()
    return watch.state


def names(data_dir: Path, case_name: str | None = None) -> set[str]:
    app = CaseTrack.open(load_settings(data_dir))
    case = app.cases.resolve(case_name) if case_name else app.list_cases("all")[0]
    return {d.name for d in docs(app, case)}


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_watch_tools_work_through_mcp_and_a_restart_catches_up_unasked(data_dir: Path, tmp_path: Path) -> None:
    folder = prepare(data_dir, tmp_path)
    (folder / "complaint.txt").write_text("Complaint for breach of the distribution agreement.")
    (folder / "notes.md").write_text("not a supported format")
    (folder / "sub").mkdir()
    async with mcp_session(data_dir) as client:
        assert (await call_error(client, "watch_folder", folder_path=str(folder))).startswith("No active case")
        await call_ok(client, "create_case", name="Acme v. Widget")
        for path, expected in [
            (folder / "missing", "Folder not found"),
            (folder / "complaint.txt", "is a file, not a folder"),
            (data_dir, "CaseTrack's own data folder"),
            (data_dir / "cases", "CaseTrack's own data folder"),
        ]:
            assert expected in await call_error(client, "watch_folder", folder_path=str(path)), path
        assert "Unsupported extension" in await call_error(client, "watch_folder", folder_path=str(folder),
                                                           file_extensions=["exe"])

        added = await call_ok(client, "watch_folder", folder_path=str(folder), schedule="hourly",
                              file_extensions=["txt"])
        text = text_of(added)
        assert f"Now watching {folder} for Acme v. Widget" in text and "plus a full sync every hour" in text
        assert "Syncing runs in this CaseTrack server" in text
        watch_id = added.structured_content["watch_id"][:8]
        await until(lambda: state(data_dir).last_sync_at, "the initial sync")

        await call_ok(client, "create_case", name="Other Matter")
        clash = await call_error(client, "watch_folder", folder_path=str(folder))
        assert 'already watched by case "Acme v. Widget"' in clash and "unwatch_folder" in clash
        assert "already watched" in await call_error(client, "watch_folder", folder_path=str(folder / "sub"))

        listing = await call_ok(client, "list_watches", case_filter="Acme")
        [row] = listing.structured_content["watches"]
        assert row["case"] == "Acme v. Widget" and row["run_by"] == "this server"
        assert row["totals"]["ingested"] == 1 and row["file_extensions"] == ["txt"]
        assert "Last sync:" in text_of(listing) and "1 new" in text_of(listing)
        assert "No folder watches for Other" in text_of(await call_ok(client, "list_watches", case_filter="Other"))

        changed = await call_ok(client, "set_sync_schedule", folder_path=watch_id, schedule="on_change",
                                auto_remove_deleted=True)
        assert changed.structured_content["schedule"] == "on_change"
        assert changed.structured_content["auto_remove_deleted"] is True

    # While no server runs: one file arrives, one goes.
    (folder / "while-away.txt").write_text("A letter that arrived while no server was running.")
    (folder / "complaint.txt").unlink()
    async with mcp_session(data_dir) as client:
        # No tool call: the server catches up on its own at start.
        await until(lambda: state(data_dir).totals.get("removed") == 1, "the catch-up sync at start")
        assert names(data_dir, "Acme v. Widget") == {"while-away.txt"}

        removed = await call_ok(client, "unwatch_folder", folder_path=str(folder))
        assert "No documents were deleted" in text_of(removed)
        assert "Watch not found" in await call_error(client, "unwatch_folder", folder_path=str(folder))
        await call_ok(client, "switch_case", case_name="Acme v. Widget")
        listed = await call_ok(client, "list_documents")
        assert [d["name"] for d in listed.structured_content["documents"]] == ["while-away.txt"]


class Server:
    """A `casetrack serve` in its own task, so servers can stop in any order."""

    def __init__(self) -> None:
        self.client: Client | None = None
        self.ready = anyio.Event()
        self.done = anyio.Event()
        self.closed = anyio.Event()

    async def run(self, data_dir: Path) -> None:
        try:
            async with mcp_session(data_dir) as client:
                self.client = client
                self.ready.set()
                await self.done.wait()
        finally:
            self.closed.set()

    async def run_by(self) -> str:
        assert self.client is not None
        listing = await call_ok(self.client, "list_watches")
        return str(listing.structured_content["run_by"])


@pytest.mark.slow  # end to end, one of the default run's slowest: CI runs it with -m slow
async def test_two_servers_on_one_data_dir_ingest_each_file_once(data_dir: Path, tmp_path: Path) -> None:
    folder = prepare(data_dir, tmp_path)
    first, second = Server(), Server()
    async with anyio.create_task_group() as tg:
        tg.start_soon(first.run, data_dir)
        await first.ready.wait()
        assert first.client is not None
        await call_ok(first.client, "create_case", name="Shared Matter")
        await call_ok(first.client, "watch_folder", folder_path=str(folder))
        await until(lambda: state(data_dir).last_sync_at, "the initial sync")
        tg.start_soon(second.run, data_dir)
        await second.ready.wait()
        assert await first.run_by() == "this server"
        assert (await second.run_by()).startswith("another CaseTrack server (pid ")

        (folder / "one.txt").write_text("The first exhibit, seen by both servers.")
        await until(lambda: state(data_dir).totals.get("ingested") == 1, "one.txt")
        settle = time.monotonic()
        await until(lambda: time.monotonic() - settle > 1.0, "a second for any duplicate attempt")
        assert names(data_dir) == {"one.txt"}
        totals = state(data_dir).totals
        assert totals.get("skipped", 0) == 0 and totals.get("failed", 0) == 0 and state(data_dir).last_error is None

        first.done.set()  # the running server exits; the other takes over
        await first.closed.wait()
        (folder / "two.txt").write_text("The second exhibit, after the first server exited.")
        await until(lambda: "two.txt" in names(data_dir), "the second server to take over and sync")
        await until(lambda: state(data_dir).totals.get("ingested") == 2, "the sync record")
        assert await second.run_by() == "this server"
        assert state(data_dir).totals.get("skipped", 0) == 0
        second.done.set()
