"""Ingestion tools (tool spec 2.6-2.8): documents and folders as background jobs, each awaited a
bounded time, so a quick one answers inline and a long one hands back a job id."""

from __future__ import annotations

import time
from typing import Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from casetrack.errors import CaseTrackError
from casetrack.mcp.server import READ_ONLY, WRITES, ToolRegistrar, result
from casetrack.render import documents as render_docs
from casetrack.render import folders as render
from casetrack.service.app import CaseTrack
from casetrack.service.infra.jobs import DOCUMENT_JOB, Job
from casetrack.service.ingest.document import Ingested, IngestRequest, check_file
from casetrack.service.ingest.folders import FolderReport, Progress, check_folder, normalise_extensions, walk

DocType = Literal["pleading", "motion", "brief", "contract", "exhibit", "correspondence", "deposition", "discovery",
                  "statute", "case_law", "other"]
WaitSeconds = Annotated[int, Field(ge=0, le=600, description=(
    "How long to wait for the job before returning (default 20). If it is not finished by then, the call "
    "returns a job id; poll get_ingest_status. 0 returns at once."))]


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    @tool(WRITES, "Ingest a document (PDF, DOCX, DOC, ODT, TXT, RTF, EML, Outlook MSG or image) into the active case. "
                  "Extracts text (with OCR for scans), chunks the text, computes embeddings, and indexes for search. "
                  "All processing and storage happens locally on your machine. A long document continues as a "
                  "background job after wait_seconds (see get_ingest_status).")
    async def ingest_document(
        ctx: Context,
        file_path: Annotated[str, Field(description="Absolute path to the file on your computer")],
        document_name: Annotated[str | None, Field(description="Optional display name (defaults to filename)")] = None,
        document_type: Annotated[DocType | None, Field(description="Type of legal document (inferred from the "
                                                                   "content when omitted)")] = None,
        copy_original: Annotated[bool, Field(description="Copy the original file into the case folder")] = False,
        wait_seconds: WaitSeconds = 20,
    ) -> CallToolResult:
        # Embedding takes ~0.1 s a chunk on a laptop, so a 300-page deposition outlasts a client's
        # patience: the ingest runs as a job, and a document not done within wait_seconds hands back
        # its job id like a folder does. A bad path fails here, at once.
        case = app.writable_active_case()
        path = check_file(file_path)
        request = IngestRequest(file_path, document_name, document_type, copy_original)

        def work(progress: Progress) -> Ingested:
            return app.ingestor.ingest(case, request, stage=lambda now: progress(0, 1, now))

        job = app.jobs.submit(DOCUMENT_JOB, case.id, case.name, str(path), 1, work)
        return await await_job(job, wait_seconds, ctx)

    @tool(WRITES, "Ingest all supported documents in a folder and all subfolders. Walks the entire directory tree "
                  "recursively. Automatically skips files already ingested (matched by SHA256 hash). Supported "
                  "formats: PDF, DOCX, DOC, ODT, TXT, RTF, EML, MSG, JPG, PNG, TIFF. Each file is chunked with full "
                  "provenance. Large folders continue as a background job (see get_ingest_status).")
    async def ingest_folder(
        ctx: Context,
        folder_path: Annotated[str, Field(description="Absolute path to folder containing documents. All "
                                                      "subfolders are included automatically.")],
        recursive: Annotated[bool, Field(description="Include subfolders (default: true). Set to false to only "
                                                     "process the top-level folder.")] = True,
        skip_existing: Annotated[bool, Field(description="Skip files already ingested (matched by SHA256 hash). "
                                                         "Set to false to re-ingest everything.")] = True,
        document_type: Annotated[DocType | None, Field(description=(
            "Default document type for all files. If omitted, CaseTrack infers from file content."))] = None,
        file_extensions: Annotated[list[str] | None, Field(description='Optional filter: only ingest files with '
                                                           'these extensions (e.g., ["pdf", "docx"]). Default: all '
                                                           'supported formats.')] = None,
        wait_seconds: WaitSeconds = 20,
    ) -> CallToolResult:
        case = app.writable_active_case()
        folder = check_folder(folder_path)
        walked = await anyio.to_thread.run_sync(walk, folder, recursive, normalise_extensions(file_extensions))
        job = app.jobs.submit("ingest_folder", case.id, case.name, str(folder), len(walked.files),
                              lambda progress: app.folders.ingest_folder(case, folder, walked, skip_existing,
                                                                         document_type, progress))
        return await await_job(job, wait_seconds, ctx)

    @tool(WRITES, "Sync a folder with the active case. Compares files on disk against what is already ingested "
                  "and: (1) ingests new files not yet in the case, (2) re-ingests files that have changed since "
                  "last ingestion (detected by SHA256 mismatch), (3) optionally removes documents whose source "
                  "files no longer exist on disk. Moved or renamed files keep their embeddings. Use dry_run to "
                  "preview.")
    async def sync_folder(
        ctx: Context,
        folder_path: Annotated[str, Field(description="Absolute path to folder to sync. All subfolders are "
                                                      "included.")],
        remove_deleted: Annotated[bool, Field(description="If true, documents whose source files no longer exist "
                                                          "on disk will be removed from the case (chunks + "
                                                          "embeddings deleted). Default: false (only add/update, "
                                                          "never remove).")] = False,
        document_type: Annotated[DocType | None, Field(description="Default document type for newly ingested "
                                                                   "files.")] = None,
        dry_run: Annotated[bool, Field(description="If true, report what would change without actually "
                                                   "ingesting or removing anything.")] = False,
        wait_seconds: WaitSeconds = 20,
    ) -> CallToolResult:
        case = app.active_case() if dry_run else app.writable_active_case()
        folder = check_folder(folder_path)
        walked = await anyio.to_thread.run_sync(walk, folder, True, None)
        job = app.jobs.submit("sync_folder", case.id, case.name, str(folder), len(walked.files),
                              lambda progress: app.folders.sync_folder(case, folder, walked, remove_deleted,
                                                                       document_type, dry_run, progress))
        return await await_job(job, wait_seconds, ctx)

    @tool(READ_ONLY, "Show the progress or final report of a background folder job (ingest_folder, sync_folder). "
                     "Without a job_id, lists recent jobs.")
    def get_ingest_status(
        job_id: Annotated[str | None, Field(description="Job ID (or its first 8 characters)")] = None,
    ) -> CallToolResult:
        if not job_id:
            jobs = app.jobs.recent()
            return result(render.job_list(jobs), {"jobs": [render.job_dict(j) for j in jobs]})
        job = app.jobs.get(job_id)
        return result(render.job_status(job), render.job_dict(job))



async def await_job(job: Job, wait_seconds: int, ctx: Context) -> CallToolResult:
    """Wait a bounded time, reporting progress to clients that asked for it; then report or hand back a job id."""
    deadline = time.monotonic() + wait_seconds
    last: tuple[int, int] | None = None
    while not job.finished.is_set() and time.monotonic() < deadline:
        if (job.done, job.total) != last:
            last = (job.done, job.total)
            await ctx.report_progress(job.done, job.total or None, job.current or "starting")
        await anyio.sleep(0.25)
    data: dict[str, Any] = render.job_dict(job)
    if job.finished.is_set():
        if job.state == "failed":
            raise CaseTrackError(job.error or f"The {job.kind} job failed.")
        if isinstance(job.report, Ingested):  # the single-document answer, as when ingest was inline
            done = job.report
            earlier = render_docs.document_dict(done.earlier) if done.earlier else None
            return result(render_docs.ingested(done.document, job.case_name, done.duration_s, earlier=done.earlier),
                          {"case": job.case_name, "document": render_docs.document_dict(done.document),
                           "duration_s": round(done.duration_s, 3), "earlier_version": earlier})
        assert isinstance(job.report, FolderReport)
        return result(render.report(job.report, job.case_name), data)
    return result(render.job_started(job), data)
