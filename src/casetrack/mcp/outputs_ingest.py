"""The structured results of ingestion and its background jobs (see `mcp/outputs.py`)."""

from __future__ import annotations

from collections import Counter

from pydantic import ConfigDict, RootModel

from casetrack.mcp.outputs import DocumentOut, Out
from casetrack.service.infra.jobs import DOCUMENT_JOB, FOLDER_JOBS
from casetrack.service.infra.jobs import Job as JobView
from casetrack.service.ingest import document as ingest_document
from casetrack.service.ingest import folders


class FileOutcome(Out):
    path: str
    status: str
    message: str
    document_id: str | None
    pages: int
    chunks: int
    warnings: list[str]


class FolderReport(Out):
    folder: str
    kind: str
    dry_run: bool
    found: int
    subfolders: list[str]
    counts: dict[str, int]
    duration_s: float
    files: list[FileOutcome]

    @classmethod
    def of(cls, report: folders.FolderReport) -> FolderReport:
        return cls(folder=report.folder, kind=report.kind, dry_run=report.dry_run, found=report.found,
                   subfolders=report.subfolders, counts=dict(Counter(o.status for o in report.outcomes)),
                   duration_s=round(report.duration_s, 2),
                   files=[FileOutcome.model_validate(o, from_attributes=True) for o in report.outcomes])


class IngestedReport(Out):
    document: DocumentOut
    duration_s: float


class Job(Out):
    job_id: str
    kind: str
    case: str
    folder: str | None = None
    file_path: str | None = None
    state: str
    done: int
    total: int
    current_file: str | None
    error: str | None
    report: FolderReport | IngestedReport | None

    @classmethod
    def of(cls, job: JobView) -> Job:
        report: FolderReport | IngestedReport | None = None
        if isinstance(job.report, folders.FolderReport):
            report = FolderReport.of(job.report)
        elif isinstance(job.report, ingest_document.Ingested):
            report = IngestedReport(document=DocumentOut.of(job.report.document),
                                    duration_s=round(job.report.duration_s, 3))
        target = {"folder": job.target} if job.kind in FOLDER_JOBS else \
            {"file_path": job.target} if job.kind == DOCUMENT_JOB else {}
        return cls(job_id=job.id, kind=job.kind, case=job.case_name, **target, state=job.state, done=job.done,
                   total=job.total, current_file=job.current or None, error=job.error, report=report)


class Jobs(Out):
    jobs: list[Job]


class Ingested(Out):
    case: str
    document: DocumentOut
    duration_s: float
    earlier_version: DocumentOut | None

    @classmethod
    def of(cls, done: ingest_document.Ingested, case_name: str) -> Ingested:
        return cls(case=case_name, document=DocumentOut.of(done.document), duration_s=round(done.duration_s, 3),
                   earlier_version=DocumentOut.of(done.earlier) if done.earlier else None)


class IngestAnswer(RootModel[Ingested | Job]):
    """A finished ingest's document, or the job that is still running."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class JobsAnswer(RootModel[Job | Jobs]):
    """One job (asked by id), or the recent jobs."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})
