"""Background jobs for long ingestion work. Claude clients time out long tool calls, so a
folder ingest or sync, and a single document's ingest, runs on a worker thread; the tool
waits a bounded time, then returns a job id, and `get_ingest_status` (or MCP progress
notifications) shows how it is going. Folder jobs run one at a time per process, which
bounds memory on a laptop; single documents have their own queue, so one quick file is
not stuck behind a folder of hundreds."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from casetrack.errors import CaseTrackError, InternalError, NotFound

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]  # done, total, what is being worked on now

KEEP_FINISHED = 50
DOCUMENT_JOB = "ingest_document"
FOLDER_JOBS = ("ingest_folder", "sync_folder")
REINDEX_JOB = "reindex_case"


@dataclass(slots=True)
class Job:
    id: str
    kind: str  # one of FOLDER_JOBS, DOCUMENT_JOB or REINDEX_JOB
    case_id: str
    case_name: str
    target: str  # what the job works on: the folder, the file, or (reindex) the case's name
    total: int
    state: str = "queued"  # queued | running | done | failed
    done: int = 0
    current: str = ""
    error: str | None = None
    report: object = None  # what the work returned (a folder report, an ingested document)
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def short_id(self) -> str:
        return self.id[:8]


class JobManager:
    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="casetrack-job")
        self._documents = ThreadPoolExecutor(max_workers=1, thread_name_prefix="casetrack-document")
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def submit(self, kind: str, case_id: str, case_name: str, target: str, total: int,
               work: Callable[[Progress], object]) -> Job:
        job = Job(str(uuid.uuid4()), kind, case_id, case_name, target, total)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()

        def progress(done: int, total: int, current: str) -> None:
            job.done, job.total, job.current = done, total, current

        def run() -> None:
            job.state = "running"
            try:
                job.report = work(progress)
                job.done = job.total
                job.state = "done"
            except CaseTrackError as exc:
                job.state, job.error = "failed", exc.message
            except Exception as exc:  # the worker thread must never die silently
                log.exception("Job %s failed", job.id)
                job.state, job.error = "failed", InternalError(f"{type(exc).__name__}: {exc}").message
            finally:
                job.current = ""
                job.finished_at = time.time()
                job.finished.set()

        (self._documents if kind == DOCUMENT_JOB else self._pool).submit(run)
        return job

    def get(self, job_id: str) -> Job:
        key = (job_id or "").strip().casefold()
        with self._lock:
            matches = [j for j in self._jobs.values() if j.id.casefold().startswith(key)] if key else []
        if len(matches) != 1:
            raise NotFound("Job", job_id, hint="Use get_ingest_status without a job_id to list recent jobs.")
        return matches[0]

    def recent(self) -> list[Job]:
        with self._lock:
            return sorted(self._jobs.values(), key=lambda j: j.created_at, reverse=True)

    def _forget_old(self) -> None:
        finished = [j for j in self._jobs.values() if j.finished.is_set()]
        for job in sorted(finished, key=lambda j: j.created_at)[:-KEEP_FINISHED]:
            self._jobs.pop(job.id, None)

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._documents.shutdown(wait=False, cancel_futures=True)
