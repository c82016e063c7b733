"""Ingestion tools (tool spec 2.6-2.8): documents and folders as background jobs, each awaited a
bounded time, so a quick one answers inline and a long one hands back a job id."""

from __future__ import annotations

import time
from typing import Annotated

import anyio
from mcp.types import CallToolResult
from pydantic import Field

from casetrack.errors import CaseTrackError
from casetrack.mcp import outputs_ingest as out
from casetrack.mcp.tools.base import CaseName, Ctx, DocType, Extensions, WaitSeconds, app_of, result
from casetrack.render import documents as render_docs
from casetrack.render import folders as render
from casetrack.service.infra.jobs import Job
from casetrack.service.ingest.background import FolderRequest
from casetrack.service.ingest.document import Ingested, IngestRequest
from casetrack.service.ingest.folders import FolderReport

FolderPath = Annotated[str, Field(description="Absolute path of the folder (subfolders included)")]


async def ingest_document(
    ctx: Ctx,
    file_path: Annotated[str, Field(description="Absolute path of the file")],
    document_name: Annotated[str | None, Field(description="Display name (default: the file name)")] = None,
    document_type: Annotated[DocType | None, Field(description="Default: inferred from the content")] = None,
    copy_original: Annotated[bool, Field(description="Keep a copy of the file in the case folder")] = False,
    wait_seconds: WaitSeconds = 20,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.IngestAnswer]:
    """Ingest one file ({formats}; scans are OCR'd) into a case: text with exact provenance, chunks,
    embeddings and index, all on this machine."""
    # Embedding takes ~0.1 s a chunk, so a 300-page deposition outlasts a client's patience: the
    # ingest is a job, answered inline when done within wait_seconds, else by its id.
    app = app_of(ctx)
    request = IngestRequest(file_path, document_name, document_type, copy_original)
    job = app.ingest_jobs.document(app.writable_case(case_name), request)
    return await await_job(job, wait_seconds, ctx)


async def ingest_folder(
    ctx: Ctx, folder_path: FolderPath,
    recursive: Annotated[bool, Field(description="Include subfolders")] = True,
    skip_existing: Annotated[bool, Field(description="Skip files already in the case (same SHA-256)")] = True,
    document_type: Annotated[DocType | None, Field(description="For every file (default: inferred)")] = None,
    file_extensions: Extensions = None,
    wait_seconds: WaitSeconds = 20,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.IngestAnswer]:
    """Ingest every file in a folder tree that CaseTrack reads ({formats}); one bad file never stops
    the rest. Large folders continue as a background job."""
    app = app_of(ctx)
    request = FolderRequest(folder_path, recursive, skip_existing, document_type, file_extensions)
    job = await anyio.to_thread.run_sync(app.ingest_jobs.folder, app.writable_case(case_name), request)
    return await await_job(job, wait_seconds, ctx)


async def sync_folder(
    ctx: Ctx, folder_path: FolderPath,
    remove_deleted: Annotated[bool, Field(description="Also remove documents whose files are gone")] = False,
    document_type: Annotated[DocType | None, Field(description="For new files (default: inferred)")] = None,
    dry_run: Annotated[bool, Field(description="Only report what would change")] = False,
    wait_seconds: WaitSeconds = 20,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.IngestAnswer]:
    """Bring a case in step with a folder: ingest new files, re-ingest changed ones (SHA-256),
    re-point moved ones without re-embedding; remove deleted ones only with remove_deleted."""
    app = app_of(ctx)
    case = app.case(case_name) if dry_run else app.writable_case(case_name)
    job = await anyio.to_thread.run_sync(app.ingest_jobs.sync, case, folder_path, remove_deleted, document_type,
                                         dry_run)
    return await await_job(job, wait_seconds, ctx)


def get_ingest_status(
    ctx: Ctx, job_id: Annotated[str | None, Field(description="Job ID or its first 8 characters")] = None,
) -> Annotated[CallToolResult, out.JobsAnswer]:
    """A background job's progress or final report; without job_id, the recent jobs."""
    jobs = app_of(ctx).ingest_jobs.job(job_id)
    if not job_id:
        return result(render.job_list(jobs), out.Jobs(jobs=[out.Job.of(j) for j in jobs]))
    return result(render.job_status(jobs[0]), out.Job.of(jobs[0]))


def cancel_ingest(
    ctx: Ctx, job_id: Annotated[str, Field(description="Job ID or its first 8 characters")],
) -> Annotated[CallToolResult, out.Job]:
    """Cancel a background ingestion job: a queued one never starts, a running one stops before storing
    its current document (finished ones are kept); one stuck on a file that never answers is left
    behind and the queue goes on."""
    job = app_of(ctx).ingest_jobs.cancel(job_id)
    return result(render.job_status(job), out.Job.of(job))


async def await_job(job: Job, wait_seconds: int, ctx: Ctx) -> CallToolResult:
    """Wait a bounded time, reporting progress to clients that asked for it; then report or hand back a job id."""
    deadline = time.monotonic() + wait_seconds
    last: tuple[int, int] | None = None
    while not job.finished.is_set() and time.monotonic() < deadline:
        if (job.done, job.total) != last:
            last = (job.done, job.total)
            await ctx.report_progress(job.done, job.total or None, job.current or "starting")
        await anyio.sleep(0.25)
    if not job.finished.is_set():
        return result(render.job_started(job), out.Job.of(job))
    if job.state in ("failed", "cancelled"):
        raise CaseTrackError(job.error or f"The {job.kind} job {job.state}.")
    if isinstance(job.report, Ingested):  # the single-document answer, as when ingest was inline
        done = job.report
        return result(render_docs.ingested(done.document, job.case_name, done.duration_s, earlier=done.earlier),
                      out.Ingested.of(done, job.case_name))
    assert isinstance(job.report, FolderReport)
    return result(render.report(job.report, job.case_name), out.Job.of(job))
