"""One stuck file never stops the work (issue 20 §4): only regular files are read, a file's read has a
deadline with a clear error, and a job can be cancelled with nothing half-written, while the jobs behind
it still run. Real stores on disk, the bundled embedder, and real kernel stalls (tests/stalled_files.py)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.errors import InvalidInput
from casetrack.files import ReadStalled, stream_sha256
from casetrack.service.app import CaseTrack
from casetrack.service.infra.jobs import DOCUMENT_JOB, Job, JobManager, Progress
from casetrack.service.ingest.document import Ingested, IngestRequest
from casetrack.store import keys
from casetrack.store.records import decode_u64, loads
from tests.stalled_files import held_file, long_text, silent_fifo, trickling_fifo, wait_for

NOTICE = "The tenant must give ninety days written notice before terminating the lease of Unit 4."


def new_app(data_dir: Path, config: str = "") -> CaseTrack:
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "config.toml").write_text(config, encoding="utf-8")
    return CaseTrack.open(load_settings(data_dir))


@pytest.fixture
def app(data_dir: Path) -> Iterator[CaseTrack]:
    casetrack = new_app(data_dir)
    casetrack.create_case("Smith v. Jones")
    yield casetrack
    casetrack.stop()


def the_case(app: CaseTrack) -> Case:
    return app.active_case()


def notice_file(folder: Path) -> Path:
    path = folder / "notice.txt"
    path.write_text(NOTICE + "\n", encoding="utf-8")
    return path


def found(app: CaseTrack, query: str = "ninety days written notice") -> str:
    return "\n".join(hit.chunk.text for hit in app.search.search(the_case(app), query, top_k=5).hits)


def ingest_job(app: CaseTrack, path: Path) -> Job:
    """An ingest_document job, as the tool submits it."""
    case = the_case(app)

    def work(progress: Progress) -> Ingested:
        return app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(path)),
                                   stage=lambda now: progress(0, 1, now))

    return app.jobs.submit(DOCUMENT_JOB, case.id, case.name, str(path), 1, work)


def case_state(app: CaseTrack) -> tuple[object, ...]:
    """Everything a half-written document would change: its records, the stats, the generation, the
    registry's copy of the counts."""
    case = the_case(app)
    with app.cases.store(case).reader() as db:
        documents = sorted(key for key, _ in db.scan(keys.DOCUMENTS, b""))
        chunks = db.count(keys.CHUNKS, b"")
        pages = db.count(keys.PAGES, b"")
        stats = loads(db.get(keys.METADATA, keys.CASE_STATS) or b"{}")
        generation = decode_u64(db.get(keys.METADATA, keys.GENERATION))
    return documents, chunks, pages, stats, generation, app.cases.get(case.id).stats


# --- only regular files ------------------------------------------------------------------------------


def test_a_named_pipe_is_refused_at_once_and_the_next_file_becomes_searchable(app: CaseTrack,
                                                                              tmp_path: Path) -> None:
    fifo = tmp_path / "evidence.txt"
    os.mkfifo(fifo)  # no writer: opening it would wait forever
    started = time.monotonic()
    with pytest.raises(InvalidInput) as refused:
        app.ingestor.ingest(the_case(app), IngestRequest(str(fifo)))
    assert time.monotonic() - started < 5
    assert f"{fifo} is a named pipe (FIFO)" in refused.value.message
    assert "CaseTrack reads only regular files" in refused.value.message
    app.ingestor.ingest(the_case(app), IngestRequest(str(notice_file(tmp_path))))
    assert NOTICE in found(app)


def test_a_link_to_a_device_is_refused_naming_what_it_points_at(app: CaseTrack, tmp_path: Path) -> None:
    link = tmp_path / "zero.txt"
    link.symlink_to("/dev/zero")  # reading it would hash zeros forever at 100% CPU
    job = ingest_job(app, link)
    assert job.finished.wait(10), "the job is still reading /dev/zero"
    assert job.state == "failed"
    assert f"{link} (a link to /dev/zero) is a device" in (job.error or "")
    after = ingest_job(app, notice_file(tmp_path))
    assert after.finished.wait(120) and after.state == "done", after.error
    assert NOTICE in found(app)


# --- a deadline on reading -----------------------------------------------------------------------------


def test_a_file_that_never_opens_hits_its_deadline_and_the_queue_goes_on(data_dir: Path, tmp_path: Path) -> None:
    app = new_app(data_dir, "read_timeout_s = 1\n")
    app.create_case("Smith v. Jones")
    try:
        with held_file(tmp_path / "lease.txt", "Held by a share that stopped answering.\n") as stalled:
            first = ingest_job(app, stalled)
            second = ingest_job(app, notice_file(tmp_path))
            assert first.finished.wait(15), "the stalled read was never given up"
            assert first.state == "failed"
            message = first.error or ""
            assert message.startswith(f"Could not read {stalled}: opening it did not finish within 1 s.")
            assert "online-only cloud file" in message and "Always keep on this device" in message
            assert "read_timeout_s" in message
            assert second.finished.wait(120) and second.state == "done", second.error
        assert NOTICE in found(app)
        assert [d.name for d in app.documents.all(the_case(app))] == ["notice.txt"]
    finally:
        app.stop()


def test_a_read_that_never_returns_or_only_crawls_hits_its_deadline(tmp_path: Path) -> None:
    with silent_fifo(tmp_path / "silent") as fifo:
        started = time.monotonic()
        with pytest.raises(ReadStalled) as stalled:
            stream_sha256(lambda: fifo.open("rb"), str(fifo), grace_s=0.5)
        assert time.monotonic() - started < 3
        assert stalled.value.done == 0 and stalled.value.size == 0
    with trickling_fifo(tmp_path / "crawling") as fifo, pytest.raises(ReadStalled) as crawled:
        stream_sha256(lambda: fifo.open("rb"), str(fifo), grace_s=1.0)
    assert crawled.value.done >= 1  # it was reading, just far too slowly


def test_a_stalled_file_found_by_a_sync_is_one_failed_file_not_a_stuck_folder(data_dir: Path,
                                                                               tmp_path: Path) -> None:
    app = new_app(data_dir, "read_timeout_s = 1\n")
    case = app.create_case("Smith v. Jones")
    folder = tmp_path / "Smith"
    folder.mkdir()
    notice_file(folder)
    try:
        with held_file(folder / "placeholder.txt", "An online-only file.\n"):
            from casetrack.service.ingest.folders import walk

            report = app.folders.sync_folder(case, folder.resolve(), walk(folder.resolve()))
        outcomes = {o.path: o for o in report.outcomes}
        assert outcomes["placeholder.txt"].status == "failed"
        assert "opening it did not finish within 1 s" in outcomes["placeholder.txt"].message
        assert outcomes["notice.txt"].status == "ingested"
    finally:
        app.stop()


# --- cancelling -------------------------------------------------------------------------------------------


def test_a_cancelled_job_stops_and_leaves_the_case_exactly_as_it_was(app: CaseTrack, tmp_path: Path) -> None:
    app.ingestor.ingest(the_case(app), IngestRequest(str(notice_file(tmp_path))))
    before = case_state(app)
    app.jobs = JobManager(stuck_after_s=30.0)  # a busy test machine is slow between checkpoints, not stuck
    job = ingest_job(app, long_text(tmp_path / "deposition.txt"))
    waiting = ingest_job(app, tmp_path / "deposition.txt")  # queued behind it
    wait_for(lambda: job.current.startswith("embedding"), "the long document to reach its embedding")
    app.jobs.cancel(waiting.id)
    assert waiting.state == "cancelled" and "before it started" in (waiting.error or "")
    app.jobs.cancel(job.id[:8])
    assert job.state == "cancelled", job.error
    assert "did not stop" not in (job.error or "")  # it stopped by itself (within STUCK_AFTER_S), between batches
    assert "Nothing from this document was stored" in (job.error or "")
    assert case_state(app) == before
    with pytest.raises(InvalidInput, match="has already finished"):
        app.jobs.cancel(job.id)


def test_a_job_stuck_where_it_cannot_stop_is_left_behind_and_the_queue_goes_on() -> None:
    jobs = JobManager(stuck_after_s=0.5)
    released = threading.Event()

    def stuck(progress: Progress) -> Ingested:
        progress(0, 1, "reading /Volumes/share/Exhibit 12.pdf")
        released.wait(60)  # a read that no checkpoint interrupts
        raise AssertionError("a late answer must not be recorded")

    first = jobs.submit(DOCUMENT_JOB, "case", "Smith v. Jones", "/Volumes/share/Exhibit 12.pdf", 1, stuck)
    wait_for(lambda: first.state == "running", "the first job to start")
    second = jobs.submit(DOCUMENT_JOB, "case", "Smith v. Jones", "/cases/notice.txt", 1,
                         lambda progress: None)  # type: ignore[arg-type, return-value]
    assert not second.finished.wait(0.3)  # one queue: it waits behind the stuck job
    jobs.cancel(first.id)
    assert first.state == "cancelled"
    assert "did not stop within 0 s (it was reading /Volumes/share/Exhibit 12.pdf)" in (first.error or "")
    assert "nothing from this one will be stored" in (first.error or "")
    assert second.finished.wait(5) and second.state == "done"
    released.set()
    time.sleep(0.3)
    assert first.state == "cancelled"  # what the stuck thread did later changes nothing
