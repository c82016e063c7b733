"""Background jobs for long ingestion work. Claude clients time out long tool calls, so a
folder ingest or sync, and a single document's ingest, runs on a worker thread; the tool
waits a bounded time, then returns a job id, and `get_ingest_status` (or MCP progress
notifications) shows how it is going. Folder jobs run one at a time per process, which
bounds memory on a laptop; single documents have their own queue, so one quick file is
not stuck behind a folder of hundreds.

Any job can be cancelled (cancel_ingest; all of them when the server stops on Ctrl-C): a
queued one never starts, a running one stops at its next checkpoint (`casetrack.cancel`)
with nothing half-written. A job that does not stop within STUCK_AFTER_S is blocked where no
checkpoint is reached (a read of a network share that stopped answering): it is reported
cancelled, its queue goes on with a fresh worker thread, and the stuck thread, a daemon,
ends by itself when its call returns, storing nothing (its checkpoints still raise)."""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from casetrack.cancel import CancelToken, running
from casetrack.errors import Cancelled, CaseTrackError, InternalError, InvalidInput, NotFound

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]  # done, total, what is being worked on now
# Follows a file's name in a progress report when the case already holds it as it is: the file is
# passed over, and saying "Ingesting" for it misled (issue 35).
UNCHANGED = " (unchanged, skipped)"

KEEP_FINISHED = 50
DOCUMENT_JOB = "ingest_document"
FOLDER_JOBS = ("ingest_folder", "sync_folder")
REINDEX_JOB = "reindex_case"
STUCK_AFTER_S = 5.0  # a cancelled job still running after this is stuck; its queue goes on without it
FINISHED_STATES = ("done", "failed", "cancelled")


@dataclass(slots=True)
class Job:
    id: str
    kind: str  # one of FOLDER_JOBS, DOCUMENT_JOB or REINDEX_JOB
    case_id: str
    case_name: str
    target: str  # what the job works on: the folder, the file, or (reindex) the case's name
    total: int
    state: str = "queued"  # queued | running | done | failed | cancelled
    done: int = 0
    current: str = ""
    error: str | None = None
    report: object = None  # what the work returned (a folder report, an ingested document)
    created_at: float = field(default_factory=time.time)
    finished_at: float | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    token: CancelToken = field(default_factory=CancelToken)

    @property
    def short_id(self) -> str:
        return self.id[:8]


Work = Callable[[Progress], object]


class _Line:
    """One queue of jobs, run in order by one daemon worker thread. A worker stuck in a cancelled
    job is replaced, so what waits behind it still runs."""

    def __init__(self, name: str, run: Callable[[Job, Work], None]) -> None:
        self._name = name
        self._run = run
        self._waiting: deque[tuple[Job, Work]] = deque()
        self._cv = threading.Condition()
        self._worker: threading.Thread | None = None
        self.current: Job | None = None

    def put(self, job: Job, work: Work) -> None:
        with self._cv:
            self._waiting.append((job, work))
            if self._worker is None:
                self._start_worker()
            self._cv.notify()

    def take_back(self, job: Job) -> bool:
        """Remove a job that has not started. Returns whether it was waiting."""
        with self._cv:
            for entry in self._waiting:
                if entry[0] is job:
                    self._waiting.remove(entry)
                    return True
        return False

    def give_up_on(self, job: Job) -> bool:
        """Leave a stuck running `job` to its thread and serve the rest of the queue with a new one."""
        with self._cv:
            if self.current is not job:
                return False
            self.current = None
            self._start_worker()
            return True

    def _start_worker(self) -> None:
        self._worker = threading.Thread(target=self._serve, name=self._name, daemon=True)
        self._worker.start()

    def _serve(self) -> None:
        me = threading.current_thread()
        while True:
            with self._cv:
                while not self._waiting and self._worker is me:
                    self._cv.wait()
                if self._worker is not me:
                    return  # replaced while stuck in a job: the new worker owns the queue
                job, work = self._waiting.popleft()
                self.current = job
            self._run(job, work)
            with self._cv:
                if self._worker is not me:
                    return
                self.current = None


class JobManager:
    def __init__(self, stuck_after_s: float = STUCK_AFTER_S) -> None:
        self._folders = _Line("casetrack-job", self._run)
        self._documents = _Line("casetrack-document", self._run)
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._stuck_after_s = stuck_after_s

    def submit(self, kind: str, case_id: str, case_name: str, target: str, total: int, work: Work) -> Job:
        job = Job(str(uuid.uuid4()), kind, case_id, case_name, target, total)
        with self._lock:
            self._jobs[job.id] = job
            self._forget_old()
        self._line(job).put(job, work)
        return job

    def _line(self, job: Job) -> _Line:
        return self._documents if job.kind == DOCUMENT_JOB else self._folders

    def _run(self, job: Job, work: Work) -> None:
        def progress(done: int, total: int, current: str) -> None:
            job.done, job.total, job.current = done, total, current

        if job.finished.is_set():
            return
        job.state = "running"
        state, error, report = "done", None, None
        try:
            with running(job.token):
                job.token.raise_if_cancelled()
                report = work(progress)
        except Cancelled as exc:
            state, error = "cancelled", f"{exc.message} {_after_cancel(job)}"
        except CaseTrackError as exc:
            state, error = "failed", exc.message
        except Exception as exc:  # the worker thread must never die silently
            log.exception("Job %s failed", job.id)
            state, error = "failed", InternalError(f"{type(exc).__name__}: {exc}").message
        self._finish(job, state, error, report)

    def _finish(self, job: Job, state: str, error: str | None, report: object = None) -> None:
        with self._lock:
            if job.finished.is_set():
                return  # given up on as stuck: that answer stands, whatever the thread did later
            if state == "done":
                job.done = job.total
            job.state, job.error, job.report = state, error, report
            job.current = ""
            job.finished_at = time.time()
            job.finished.set()

    def cancel(self, job_id: str, reason: str = "cancel_ingest was called for it") -> Job:
        """Cancel a queued or running job; returns it once it has stopped, or has been given up on as
        stuck (after `stuck_after_s`). Raises NotFound, or InvalidInput for a job already finished."""
        job = self.get(job_id)
        if job.finished.is_set():
            raise InvalidInput(f"Job {job.short_id} has already finished ({job.state}); there is nothing to cancel. "
                               "To remove a document it stored, use delete_document.")
        self._cancel(job, reason)
        self._stop_waiting(job, time.monotonic() + self._stuck_after_s)
        return job

    def _cancel(self, job: Job, reason: str) -> None:
        job.token.cancel(reason)
        if self._line(job).take_back(job):
            self._finish(job, "cancelled", f"Cancelled ({reason}) before it started. Nothing was changed.")

    def _stop_waiting(self, job: Job, deadline: float) -> None:
        if job.finished.wait(max(0.0, deadline - time.monotonic())):
            return
        waiting_on = f" (it was {job.current})" if job.current else ""
        log.warning("Job %s did not stop within %.0f s%s; its queue goes on without it", job.short_id,
                    self._stuck_after_s, waiting_on)
        self._line(job).give_up_on(job)
        self._finish(job, "cancelled", f"Cancelled ({job.token.reason}). It did not stop within "
                     f"{self._stuck_after_s:.0f} s{waiting_on}, so CaseTrack stopped waiting for it: the next "
                     f"job runs now, and nothing from this one will be stored. {_after_cancel(job)}")

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

    def shutdown(self, grace_s: float = 1.0) -> list[Job]:
        """Cancel every job (the process is stopping) and wait up to `grace_s` for the running ones to
        stop; returns those that did not (their daemon threads end with the process, having stored nothing
        half-way: every document is one atomic commit)."""
        with self._lock:
            open_jobs = [j for j in self._jobs.values() if not j.finished.is_set()]
        for job in open_jobs:
            self._cancel(job, "CaseTrack is stopping")
        deadline = time.monotonic() + grace_s
        return [job for job in open_jobs if not job.finished.wait(max(0.0, deadline - time.monotonic()))]


def _after_cancel(job: Job) -> str:
    """What a cancelled job leaves behind, in the user's terms."""
    if job.kind == DOCUMENT_JOB:
        return "Nothing from this document was stored; ingest it again when you want it."
    if job.kind == REINDEX_JOB:
        return "Documents rebuilt before it stopped keep their new index; the others are as they were."
    return (f"The files finished before it stopped ({job.done} of {job.total}) are in the case; run {job.kind} "
            "again for the rest (finished files are skipped).")
