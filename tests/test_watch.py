"""Folder watching in one process: a real watchdog observer on a temporary folder, a real
store and the bundled embedder. Every wait polls against a deadline."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case, Document
from casetrack.errors import CaseReadOnly, InvalidInput, NotFound
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import Commit, IngestRequest
from casetrack.service.watch.service import WatchConfig, WatchService
from casetrack.service.watch.store import Watch
from casetrack.service.watch.sync import WatchSync
from casetrack.store import documents as docstore
from tests.conftest import EVAL_DEV

DEBOUNCE = 0.3
CONFIG = f"watch_debounce_s = {DEBOUNCE}\nwatch_schedule_check_s = 0.5\nwatch_lock_retry_s = 0.2\n"


def wait_for(check: Callable[[], object], what: str, timeout: float = 60.0) -> object:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def docs(app: CaseTrack, case: Case) -> list[Document]:
    with app.cases.store(case).reader() as db:
        return docstore.list_documents(db)


def by_name(app: CaseTrack, case: Case) -> dict[str, Document]:
    return {d.name: d for d in docs(app, case)}


def chunk_ids(app: CaseTrack, case: Case, doc: Document) -> list[str]:
    with app.cases.store(case).reader() as db:
        return docstore.chunk_ids(db, doc.id)


def watch_of(app: CaseTrack, folder: Path) -> Watch:
    return app.watches.get(str(folder))


def synced(app: CaseTrack, folder: Path, after: float) -> bool:
    state = watch_of(app, folder).state
    return state.status == "idle" and (state.last_sync_at or 0) > after


def texts(app: CaseTrack, case: Case, query: str) -> str:
    response = app.search.search(app.cases.get(case.id), query, top_k=10)
    return "\n".join(hit.chunk.text for hit in response.hits)


def new_app(data_dir: Path, config: str = CONFIG) -> CaseTrack:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text(config)
    return CaseTrack.open(load_settings(data_dir))


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    path = tmp_path / "Smith"
    path.mkdir()
    return path.resolve()


@pytest.fixture
def running(data_dir: Path) -> Iterator[tuple[CaseTrack, Case]]:
    app = new_app(data_dir)
    case = app.create_case("Smith v. Jones")
    app.watches.start()
    try:
        yield app, case
    finally:
        app.watches.stop()
        app.jobs.shutdown()


def start_watch(app: CaseTrack, case: Case, folder: Path, **options: object) -> Watch:
    started = time.time()
    watch, is_new = app.watches.add(case, str(folder), **options)  # type: ignore[arg-type]
    assert is_new
    wait_for(lambda: synced(app, folder, started), "the initial sync")
    return watch


def test_a_new_file_becomes_searchable_and_an_edit_replaces_its_old_text(running: tuple[CaseTrack, Case],
                                                                          folder: Path) -> None:
    app, case = running
    (folder / "before.txt").write_text("The lessee shall maintain the orchard of quince trees.")
    start_watch(app, case, folder)
    assert set(by_name(app, case)) == {"before.txt"}  # the initial sync caught up with what was there

    note = folder / "memo.txt"
    note.write_text("The zeppelin clause permits termination on thirty days written notice.")
    wait_for(lambda: "memo.txt" in by_name(app, case), "memo.txt to be ingested")
    assert "zeppelin" in texts(app, case, "zeppelin clause termination")
    first = by_name(app, case)["memo.txt"]

    note.write_text("The walrus provision requires indemnification for third-party claims.")
    wait_for(lambda: by_name(app, case)["memo.txt"].file_hash != first.file_hash, "memo.txt to be reindexed")
    assert "zeppelin" not in texts(app, case, "zeppelin clause termination")
    assert "walrus" in texts(app, case, "walrus provision indemnification")
    assert len(docs(app, case)) == 2
    state = wait_for(lambda: (s := watch_of(app, folder).state).totals.get("updated") and s, "the sync record")
    assert state.totals["ingested"] == 2 and state.totals["updated"] == 1 and state.last_error is None  # type: ignore[attr-defined]


def test_a_deleted_file_is_kept_unless_auto_remove_is_on(running: tuple[CaseTrack, Case], folder: Path) -> None:
    app, case = running
    (folder / "keep.txt").write_text("Deposition of the harbour master about the pier collapse.")
    (folder / "drop.txt").write_text("Invoice for the replacement of the lighthouse lamp.")
    start_watch(app, case, folder)
    assert set(by_name(app, case)) == {"keep.txt", "drop.txt"}

    before = time.time()
    (folder / "keep.txt").unlink()
    wait_for(lambda: synced(app, folder, before), "the sync after a deletion")
    assert watch_of(app, folder).state.last_counts == {"missing": 1}
    assert set(by_name(app, case)) == {"keep.txt", "drop.txt"}

    app.watches.set_schedule(str(folder), "on_change", auto_remove_deleted=True)
    wait_for(lambda: watch_of(app, folder).auto_remove_deleted, "the new setting")
    (folder / "drop.txt").unlink()
    wait_for(lambda: "drop.txt" not in by_name(app, case), "drop.txt to be removed")
    assert set(by_name(app, case)) == {"keep.txt"}
    wait_for(lambda: watch_of(app, folder).state.totals.get("removed") == 1, "the sync record")


def test_a_renamed_or_moved_file_keeps_its_embeddings(running: tuple[CaseTrack, Case], folder: Path,
                                                      tmp_path: Path) -> None:
    app, case = running
    commits: list[Commit] = []
    app.ingestor.listeners.append(commits.append)
    (folder / "draft.txt").write_text("Settlement agreement between the cooperative and the miller.")
    start_watch(app, case, folder, auto_remove_deleted=True)
    [original] = docs(app, case)
    ingested = len(commits)

    (folder / "draft.txt").rename(folder / "final.txt")
    wait_for(lambda: docs(app, case)[0].original_path == str(folder / "final.txt"), "the rename")
    (folder / "signed").mkdir()
    (folder / "final.txt").rename(folder / "signed" / "final.txt")
    wait_for(lambda: docs(app, case)[0].original_path == str(folder / "signed" / "final.txt"), "the move")

    [moved] = docs(app, case)
    assert (moved.id, moved.embedded_at, moved.file_hash) == (original.id, original.embedded_at, original.file_hash)
    wait_for(lambda: watch_of(app, folder).state.totals.get("moved") == 2, "the sync record")
    # Nothing was re-embedded or deleted: the rename (draft.txt -> final.txt, a new name) only recounted the keyword
    # terms of the document's own chunks; the move into signed/ kept the name and committed nothing searchable.
    [renamed] = commits[ingested:]
    assert (renamed.document_id, renamed.vectors) == (original.id, {})
    assert sorted(renamed.terms) == sorted(renamed.removed_chunks) == sorted(chunk_ids(app, case, original))

    incoming = tmp_path / "incoming"  # a whole folder moved in from outside the watched tree
    incoming.mkdir()
    (incoming / "exhibit.txt").write_text("Exhibit A: the mill's water rights, recorded in 1911.")
    incoming.rename(folder / "incoming")
    wait_for(lambda: "exhibit.txt" in by_name(app, case), "the moved-in folder's file")


def test_a_renamed_file_is_found_by_its_new_name_unless_the_user_named_it(running: tuple[CaseTrack, Case],
                                                                           folder: Path) -> None:
    app, case = running
    (folder / "draft.txt").write_text("Settlement agreement between the cooperative and the miller.")
    (folder / "scan0042.txt").write_text("Lease of the mill race to the cooperative for ninety-nine years.")
    app.ingestor.ingest(case, IngestRequest(str(folder / "scan0042.txt"), document_name="Mill Race Lease"))
    start_watch(app, case, folder)
    draft = by_name(app, case)["draft.txt"]
    assert texts(app, case, "cooperative miller settlement")  # the search index and caches are warm

    (folder / "draft.txt").rename(folder / "Quarry Indemnity.txt")
    (folder / "scan0042.txt").rename(folder / "scan0043.txt")
    wait_for(lambda: "Quarry Indemnity.txt" in by_name(app, case), "the renamed document's new name")
    wait_for(lambda: by_name(app, case)["Mill Race Lease"].original_path == str(folder / "scan0043.txt"),
             "the re-pointed path of the document the user named")
    assert set(by_name(app, case)) == {"Quarry Indemnity.txt", "Mill Race Lease"}  # the user's own name stays
    live = app.cases.get(case.id)
    found = app.documents.resolve(live, "Quarry Indemnity.txt")  # asking by the new name finds it
    assert (found.id, found.original_path) == (draft.id, str(folder / "Quarry Indemnity.txt"))
    with pytest.raises(NotFound):
        app.documents.resolve(live, "draft.txt")
    # Its passages are cited by the new name, and a search naming it ("quarry": only in the name) finds them.
    response = app.search.search(live, "payment terms of the quarry indemnity", top_k=1)
    assert response.named_documents == ("Quarry Indemnity.txt",)  # the query names it: its passages come first
    [hit] = response.hits
    assert (hit.chunk.document_id, hit.chunk.provenance.document_name) == (draft.id, "Quarry Indemnity.txt")
    assert hit.chunk.provenance.cite().startswith("Quarry Indemnity.txt")
    with app.cases.store(live).reader() as db:
        [terms] = [docstore.chunk_terms(db, c) for c in docstore.chunk_ids(db, draft.id)]
    assert "quarry" in terms and "draft" not in terms


def test_a_half_written_file_that_failed_leaves_no_error_once_it_is_ingested(running: tuple[CaseTrack, Case],
                                                                              folder: Path) -> None:
    app, case = running
    start_watch(app, case, folder)
    data = (EVAL_DEV / "docs" / "ca2_docketing_notice_nfl_2017.pdf").read_bytes()
    target = folder / "notice.pdf"
    target.write_bytes(data[: len(data) // 3])  # a copy that stalls part way, long enough to be synced
    wait_for(lambda: (watch_of(app, folder).state.last_error or "").startswith("notice.pdf: "), "the failure")
    target.write_bytes(data)  # the copy finishes
    wait_for(lambda: "notice.pdf" in by_name(app, case), "the complete file to be ingested")
    wait_for(lambda: watch_of(app, folder).state.last_error is None, "the error to be cleared")
    state = watch_of(app, folder).state
    assert state.status == "idle" and state.failing == {} and state.last_error_at is None

    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a PDF")  # a file that stays broken keeps its error
    wait_for(lambda: (watch_of(app, folder).state.last_error or "").startswith("broken.pdf: "), "the lasting failure")
    (folder / "memo.txt").write_text("A memo on the arbitration award.")
    wait_for(lambda: "memo.txt" in by_name(app, case), "an unrelated file to be ingested")
    assert (watch_of(app, folder).state.last_error or "").startswith("broken.pdf: ")


def test_a_scheduled_sync_catches_a_change_that_sent_no_notification(running: tuple[CaseTrack, Case],
                                                                    folder: Path, tmp_path: Path) -> None:
    app, case = running
    lease = folder / "lease.txt"
    lease.write_text("The monthly rent is ten dollars, payable in advance.")
    start_watch(app, case, folder, schedule="hourly")
    before = by_name(app, case)["lease.txt"]
    # Written through a hard link outside the watched tree: inotify reports nothing for the folder,
    # as with changes a network share or a sleeping laptop never announces.
    elsewhere = tmp_path / "elsewhere.txt"
    os.link(lease, elsewhere)
    with elsewhere.open("r+b") as handle:
        handle.seek(lease.read_bytes().find(b"ten"))
        handle.write(b"six")
    settle = time.time()
    wait_for(lambda: time.time() - settle > DEBOUNCE * 3, "a few debounce windows")
    assert by_name(app, case)["lease.txt"].file_hash == before.file_hash  # no event, so no sync yet

    # An hour "passes": the scheduler (checking every 0.5 s here) finds the watch due and syncs it in full.
    app.watches.store.update(lambda ws: [replace(w, state=replace(w.state, last_full_sync_at=time.time() - 3601))
                                         for w in ws])
    wait_for(lambda: by_name(app, case)["lease.txt"].file_hash != before.file_hash, "the scheduled sync")
    assert "six dollars" in texts(app, case, "monthly rent dollars")
    wait_for(lambda: watch_of(app, folder).state.totals.get("updated") == 1, "the sync record")
    assert watch_of(app, folder).state.last_sync_kind == "full"


def test_a_new_watch_is_synced_in_full_once_even_when_that_takes_longer_than_a_schedule_check(
        running: tuple[CaseTrack, Case], folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A big folder's first sync outlasts several schedule checks (0.5 s here); each check used to
    # find "never fully synced" and queue a second full pass over every file.
    app, case = running
    (folder / "lease.txt").write_text("The monthly rent is ten dollars, payable in advance.")
    full_syncs: list[float] = []
    real_full = WatchSync.full

    def slow_full(self: WatchSync, *args: Any) -> Any:
        full_syncs.append(time.monotonic())
        time.sleep(1.6)  # as long as a large folder takes
        return real_full(self, *args)

    monkeypatch.setattr(WatchSync, "full", slow_full)
    start_watch(app, case, folder, schedule="hourly")
    settle = time.monotonic()
    wait_for(lambda: time.monotonic() - settle > 2.0, "four more schedule checks")
    assert len(full_syncs) == 1
    assert watch_of(app, folder).state.status == "idle"


def test_a_pdf_written_slowly_is_ingested_once_and_complete(running: tuple[CaseTrack, Case], folder: Path) -> None:
    app, case = running
    start_watch(app, case, folder)
    commits: list[Commit] = []
    app.ingestor.listeners.append(commits.append)
    data = (EVAL_DEV / "docs" / "ca2_docketing_notice_nfl_2017.pdf").read_bytes()
    target = folder / "scanned.pdf"
    piece = len(data) // 6 + 1
    with target.open("wb") as out:  # like a scanner or sync client: pauses shorter than the stability window
        for start in range(0, len(data), piece):
            out.write(data[start:start + piece])
            out.flush()
            os.fsync(out.fileno())
            time.sleep(DEBOUNCE * 0.6)
    wait_for(lambda: "scanned.pdf" in by_name(app, case), "the PDF to be ingested")
    settle = time.time()
    wait_for(lambda: time.time() - settle > DEBOUNCE * 3, "a few debounce windows with no further sync")
    assert by_name(app, case)["scanned.pdf"].page_count == 2  # as in the eval-dev manifest
    assert len(commits) == 1
    state = watch_of(app, folder).state
    assert state.totals.get("failed", 0) == 0 and state.totals.get("updated", 0) == 0


def test_temporary_system_and_linked_outside_files_are_ignored(running: tuple[CaseTrack, Case], folder: Path,
                                                               tmp_path: Path) -> None:
    app, case = running
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "leak.txt").write_text("Privileged notes that live outside the watched folder.")
    (folder / "link").symlink_to(outside, target_is_directory=True)
    start_watch(app, case, folder)
    (folder / ".hidden").mkdir()
    for name in ("~$Contract.docx", ".~lock.Contract.docx#", "upload.pdf.part", "scratch.tmp", ".DS_Store",
                 "Thumbs.db", ".hidden/secret.txt"):
        (folder / name).write_text("temporary content of an editor or the operating system")
    (outside / "leak2.txt").write_text("More notes outside the watched folder.")
    (folder / "real.txt").write_text("The actual pleading about the boundary dispute.")
    wait_for(lambda: "real.txt" in by_name(app, case), "real.txt")
    before = time.time()
    app.watches.sync_now(str(folder))  # a full sync sees the same
    wait_for(lambda: synced(app, folder, before), "a full sync")
    assert set(by_name(app, case)) == {"real.txt"}


def test_a_burst_beyond_the_bound_becomes_one_full_sync(data_dir: Path, folder: Path) -> None:
    app = new_app(data_dir)
    app.watches = WatchService(data_dir, app.cases, app.folders, app.ingestor,
                               WatchConfig(debounce_s=DEBOUNCE, schedule_check_s=0.5, lock_retry_s=0.2, max_pending=2))
    case = app.create_case("Burst")
    app.watches.start()
    try:
        start_watch(app, case, folder)
        for n in range(5):
            (folder / f"exhibit-{n:02}.txt").write_text(f"Exhibit number {n} of the bulk production, page one.")
        wait_for(lambda: len(docs(app, case)) == 5, "all five files")
        state = wait_for(lambda: (s := watch_of(app, folder).state).totals.get("ingested") == 5 and s, "the record")
        assert state.last_sync_kind == "full"  # type: ignore[attr-defined]
    finally:
        app.watches.stop()


def test_a_closed_case_pauses_its_watch_and_a_deleted_one_drops_it(running: tuple[CaseTrack, Case],
                                                                   folder: Path) -> None:
    app, case = running
    start_watch(app, case, folder)
    app.close_case(case.id)
    (folder / "late.txt").write_text("A filing that arrived after the case was closed.")
    wait_for(lambda: watch_of(app, folder).state.status == "paused", "the watch to pause")
    assert "closed" in watch_of(app, folder).state.detail and docs(app, case) == []

    app.reopen_case(case.id)
    wait_for(lambda: "late.txt" in by_name(app, case), "the catch-up after reopening")

    app.delete_case(case.id, confirm=True)
    assert app.watches.views() == []


def test_bad_watch_requests_get_actionable_errors(running: tuple[CaseTrack, Case], folder: Path,
                                                  data_dir: Path) -> None:
    app, case = running
    (folder / "a.txt").write_text("text")
    app.watches.add(case, str(folder))
    other = app.create_case("Other Matter")
    cases: list[tuple[str, type[Exception], str]] = [
        (str(folder / "missing"), InvalidInput, "Folder not found"),
        (str(folder / "a.txt"), InvalidInput, "is a file, not a folder"),
        (str(data_dir), InvalidInput, "CaseTrack's own data folder"),
        (str(data_dir / "cases"), InvalidInput, "CaseTrack's own data folder"),
        (str(folder), InvalidInput, 'already watched by case "Smith v. Jones"'),
        (str(folder / "sub"), InvalidInput, "already watched"),
    ]
    (folder / "sub").mkdir()
    for path, error, text in cases:
        with pytest.raises(error, match=text.replace("(", r"\(")):
            app.watches.add(other, path)
    with pytest.raises(InvalidInput, match="Unknown schedule"):
        app.watches.add(other, str(folder.parent), schedule="weekly")
    with pytest.raises(NotFound, match="list_watches"):
        app.watches.remove("/no/such/folder")
    app.close_case(other.id)
    with pytest.raises(CaseReadOnly):
        app.watches.add(app.cases.get(other.id), str(folder.parent / "x"))


@pytest.mark.slow  # tests/test_watch_mcp.py covers this with two real servers
def test_exactly_one_of_two_processes_runs_watches_and_the_other_takes_over(data_dir: Path, folder: Path) -> None:
    first = new_app(data_dir)
    case = first.create_case("Shared")
    second = CaseTrack.open(load_settings(data_dir))
    first.watches.start()
    try:
        wait_for(lambda: first.watches.is_runner, "the first server to take the runner lock")
        second.watches.start()
        start_watch(first, case, folder)
        (folder / "one.txt").write_text("First filing in the shared folder.")
        wait_for(lambda: "one.txt" in by_name(first, case), "one.txt")
        assert not second.watches.is_runner
        assert second.watches.views()[0].runner.startswith("this server") is False

        first.watches.stop()
        wait_for(lambda: second.watches.is_runner, "the second server to take over")
        (folder / "two.txt").write_text("Second filing, after the first server exited.")
        wait_for(lambda: "two.txt" in by_name(second, case), "two.txt, synced by the second server")
        assert len(docs(second, case)) == 2
        wait_for(lambda: watch_of(second, folder).state.totals.get("ingested") == 2, "the sync record")
        totals = watch_of(second, folder).state.totals
        assert totals.get("skipped", 0) == 0 and totals.get("failed", 0) == 0
    finally:
        first.watches.stop()
        second.watches.stop()


@pytest.mark.slow  # tests/test_watch_mcp.py covers this through the MCP server
def test_watches_survive_a_restart_and_catch_up(data_dir: Path, folder: Path) -> None:
    app = new_app(data_dir)
    case = app.create_case("Restart")
    app.watches.start()
    try:
        start_watch(app, case, folder)
    finally:
        app.watches.stop()
    (folder / "agency.txt").write_text("Agency agreement: the agent shall promote the products in the territory.")
    again = CaseTrack.open(load_settings(data_dir))
    again.watches.start()
    try:
        wait_for(lambda: "agency.txt" in by_name(again, case), "the catch-up sync at start")
    finally:
        again.watches.stop()
