"""Ingestion as background jobs (tool spec 2.6-2.8, 2.16): a document, a folder, a sync or a whole
case's reindex runs on a worker, so a client that gives up after a minute still gets its answer
from `get_ingest_status`. What can be refused at once (a bad path, a read-only case, a missing
confirmation) is refused here, before a job exists."""

from __future__ import annotations

from dataclasses import dataclass

from casetrack.domain import Case
from casetrack.errors import ConfirmationRequired
from casetrack.service.infra.jobs import DOCUMENT_JOB, REINDEX_JOB, Job, JobManager, Progress
from casetrack.service.ingest.document import Ingested, Ingestor, IngestRequest
from casetrack.service.ingest.folders import (
    FileOutcome,
    FolderReport,
    FolderService,
    check_folder,
    normalise_extensions,
    walk,
)
from casetrack.service.ingest.reindex import Reindexer
from casetrack.service.ingest.source_file import check_file


@dataclass(frozen=True, slots=True)
class FolderRequest:
    folder_path: str
    recursive: bool = True
    skip_existing: bool = True
    document_type: str | None = None
    file_extensions: list[str] | None = None


class IngestJobs:
    def __init__(self, jobs: JobManager, ingestor: Ingestor, folders: FolderService, reindexer: Reindexer) -> None:
        self._jobs, self._ingestor, self._folders, self._reindexer = jobs, ingestor, folders, reindexer

    def document(self, case: Case, request: IngestRequest) -> Job:
        """Raises FileNotFound, InvalidInput (not a file) at once; the rest is the job's."""
        path = check_file(request.path)

        def work(progress: Progress) -> Ingested:
            return self._ingestor.ingest(case, request, stage=lambda now: progress(0, 1, now))

        return self._jobs.submit(DOCUMENT_JOB, case.id, case.name, str(path), 1, work)

    def folder(self, case: Case, request: FolderRequest) -> Job:
        """Walks the folder now (so the job knows its size). Raises FileNotFound, InvalidInput."""
        folder = check_folder(request.folder_path)
        walked = walk(folder, request.recursive, normalise_extensions(request.file_extensions))
        return self._jobs.submit("ingest_folder", case.id, case.name, str(folder), len(walked.files),
                                 lambda progress: self._folders.ingest_folder(
                                     case, folder, walked, request.skip_existing, request.document_type, progress))

    def sync(self, case: Case, folder_path: str, remove_deleted: bool, document_type: str | None,
             dry_run: bool) -> Job:
        folder = check_folder(folder_path)
        walked = walk(folder, True, None)
        return self._jobs.submit("sync_folder", case.id, case.name, str(folder), len(walked.files),
                                 lambda progress: self._folders.sync_folder(
                                     case, folder, walked, remove_deleted, document_type, dry_run, progress))

    def reindex_case(self, case: Case, confirm: bool, reparse: bool, skip_unchanged: bool) -> Job:
        """Raises ConfirmationRequired unless `confirm`."""
        count = case.stats.document_count
        if confirm is not True:  # only a real true: "yes" or 1 is no confirmation (issue 33 §4)
            raise ConfirmationRequired(f'and rebuild the index of every document in case "{case.name}" '
                                       f"({count} document{'s' if count != 1 else ''})")

        def work(progress: Progress) -> FolderReport:
            report = FolderReport(case.name, "reindex", found=count)
            for name, action, detail in self._reindexer.reindex_case(case, reparse, skip_unchanged, progress):
                report.outcomes.append(FileOutcome(name, action, detail))
            return report

        return self._jobs.submit(REINDEX_JOB, case.id, case.name, case.name, count, work)

    def cancel(self, job_id: str) -> Job:
        """Cancel a job; returns it once it has stopped (or been left behind as stuck). Raises NotFound, or
        InvalidInput for a job already finished."""
        return self._jobs.cancel(job_id)

    def job(self, job_id: str | None) -> list[Job]:
        """The job `job_id` names (or the recent ones without it). Raises NotFound."""
        return [self._jobs.get(job_id)] if job_id else self._jobs.recent()
