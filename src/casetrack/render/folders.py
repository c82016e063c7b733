"""Texts of folder ingestion, sync and background jobs (tool spec 2.7, 2.8)."""

from __future__ import annotations

from pathlib import PurePath

from casetrack.parse import CONVERSION_HINTS
from casetrack.render.documents import ingested
from casetrack.render.formats import duration, plural
from casetrack.service.infra.jobs import DOCUMENT_JOB, REINDEX_JOB, Job
from casetrack.service.ingest.document import Ingested
from casetrack.service.ingest.folders import FolderReport

LIST_LIMIT = 20  # per section; the structured result always has every file


def _section(title: str, items: list[str]) -> list[str]:
    if not items:
        return []
    shown = items[:LIST_LIMIT] + ([f"  ... {len(items) - LIST_LIMIT} more"] if len(items) > LIST_LIMIT else [])
    return ["", f"  {title}:", *shown]


def reindex_report(report: FolderReport, case_name: str) -> str:
    counts: dict[str, int] = {}
    for outcome in report.outcomes:
        counts[outcome.status] = counts.get(outcome.status, 0) + 1
    lines = [f"Reindex complete for {case_name}", "", f"  Documents: {len(report.outcomes)}",
             *(f"  {status.replace('_', ' ').capitalize() + ':':<11} {n}" for status, n in sorted(counts.items())),
             f"  {'Duration:':<11} {duration(report.duration_s)}"]
    lines += _section("Failures", [f"  - {x.path}: {x.message}" for x in report.outcomes if x.status == "failed"])
    lines += _section("Not read again (unchanged): give each its file with relink_document",
                      [f"  - {x.path}: {x.message}" for x in report.outcomes if x.status == "needs_relink"])
    return "\n".join(lines)


def report(report: FolderReport, case_name: str) -> str:
    if report.kind == "reindex":
        return reindex_report(report, case_name)
    if report.kind == "ingest":
        title = f"Folder ingestion complete for {case_name}"
    else:
        title = f"Folder sync {'preview (dry run: nothing changed)' if report.dry_run else 'complete'} for {case_name}"
    o = report.outcomes
    new = [x for x in o if x.status in ("ingested", "would_ingest")]
    updated = [x for x in o if x.status in ("updated", "would_update")]
    moved = [x for x in o if x.status in ("moved", "would_move")]
    removed = [x for x in o if x.status in ("removed", "would_remove")]
    failed = [x for x in o if x.status == "failed"]
    lines = [title, "", f"  Folder:     {report.folder}"]
    if report.subfolders:
        lines.append(f"  Subfolders: {len(report.subfolders)} ({', '.join(report.subfolders[:6])}"
                     f"{', ...' if len(report.subfolders) > 6 else ''})")
    lines.append(f"  Found:      {plural(report.found, 'supported file')}")
    would = "Would ingest" if report.dry_run else "New"
    lines.append(f"  {would + ':':<11} {len(new)}{'' if report.dry_run else ' (ingested)'}")
    if report.kind == "sync":
        lines.append(f"  {'Changed:':<11} {len(updated)}{' (re-ingested)' if not report.dry_run else ''}")
        lines.append(f"  {'Moved:':<11} {len(moved)}")
        lines.append(f"  {'Removed:':<11} {len(removed)}")
        lines.append(f"  {'Unchanged:':<11} {sum(x.status == 'unchanged' for x in o)}")
        missing = [x for x in o if x.status == "missing"]
        if missing:
            lines.append(f"  {'Missing:':<11} {len(missing)} (source file gone, kept in the case)")
    skipped = [x for x in o if x.status == "skipped"]
    lines.append(f"  {'Skipped:':<11} {len(skipped)} (already ingested, matching SHA256)")
    unsupported = [x for x in o if x.status == "unsupported"]
    if unsupported:
        lines.append(f"  {'Ignored:':<11} {len(unsupported)} (unsupported formats)")
    refused = [x for x in o if x.status == "refused"]
    if refused:
        lines.append(f"  {'Not read:':<11} {len(refused)} (links out of the folder, or not regular files)")
    lines.append(f"  {'Failed:':<11} {len(failed)}")
    lines.append(f"  {'Duration:':<11} {duration(report.duration_s)}")
    lines += _section("New documents ingested" if not report.dry_run else "Would ingest",
                      [f"  - {x.path}" + (f" ({plural(x.pages, 'page')}, {plural(x.chunks, 'chunk')})"
                                          if x.pages else "") for x in new])
    # Stored, but not all of it readable: the user must learn which pages or attachments have no text.
    lines += _section("Warnings", [f"  - {x.path}: {w}" for x in o for w in x.warnings])
    lines += _section("Changed", [f"  - {x.path}: {x.message or 're-ingested'}" for x in updated])
    lines += _section("Moved", [f"  - {x.path}: {x.message}" for x in moved])
    lines += _section("Removed", [f"  - {x.path}" for x in removed])
    lines += _section("Missing (kept)", [f"  - {x.path}" for x in o if x.status == "missing"])
    lines += _section("Skipped (already in the case)", [f"  - {x.path}" for x in skipped])
    lines += _section("Failures", [f"  - {x.path}: {x.message}" for x in failed])
    lines += _section("Not read", [f"  - {x.path}: {x.message}" for x in refused])
    lines += _section("Unsupported", [f"  - {x.path}" + (f": {hint}" if (hint := _hint(x.path)) else "")
                                      for x in unsupported])
    if not report.dry_run and (new or updated):
        blank = [x for x in new + updated if not x.chunks]
        done = plural(len(new) + len(updated), "new or changed document")
        if not blank:
            lines += ["", f"All {done} are now searchable."]
        else:
            lines += ["", f"{len(new) + len(updated) - len(blank)} of {done} are now searchable; no text was found "
                          f"in {', '.join(x.path for x in blank)} (see Warnings)."]
    return "\n".join(lines)


def _hint(path: str) -> str:
    """How to make a file of an unsupported format readable, when it is a common one."""
    return CONVERSION_HINTS.get(PurePath(path).suffix.lower(), "")


def job_started(job: Job) -> str:
    check = f'Check progress with get_ingest_status(job_id="{job.short_id}").'
    if job.kind == DOCUMENT_JOB:
        now = f" (now {job.current})" if job.current else ""
        return (f"Ingesting {job.target} into {job.case_name} continues in the background as job {job.short_id}"
                f"{now}.\nLong documents take a while to embed; nothing is stored until the whole document is, "
                f"and the case stays usable meanwhile.\n{check}")
    queued = f"{plural(job.total, 'document')} queued" if job.kind == REINDEX_JOB else \
        f"{plural(job.total, 'file')} queued from {job.target}"
    return (f"Started background job {job.short_id} ({job.kind}) for {job.case_name}: {queued}.\n"
            f"The case stays usable meanwhile; each document becomes searchable as soon as it is done.\n{check}")


def job_status(job: Job) -> str:
    if job.state == "done" and isinstance(job.report, Ingested):
        done = job.report
        return f"Job {job.short_id}: done.\n\n" + ingested(done.document, job.case_name, done.duration_s,
                                                           done.replaced, done.earlier)
    if job.state == "done" and isinstance(job.report, FolderReport):
        return f"Job {job.short_id}: done.\n\n" + report(job.report, job.case_name)
    if job.state == "failed":
        return f"Job {job.short_id} failed: {job.error}"
    if job.state == "cancelled":
        return f"Job {job.short_id} ({job.kind}, {job.target}): {job.error}"
    current = f" (now: {job.current})" if job.current else ""
    unit = "documents" if job.kind == REINDEX_JOB else "files"
    return f"Job {job.short_id} ({job.kind}, {job.case_name}): {job.state}, {job.done} of {job.total} {unit}{current}."


def job_list(jobs: list[Job]) -> str:
    if not jobs:
        return "No ingestion jobs have run in this session."
    return "Recent jobs:\n" + "\n".join(
        f"  {j.short_id} {j.kind} [{j.state}] {j.done}/{j.total} - {j.case_name}"
        f"{'' if j.kind == REINDEX_JOB else f' - {j.target}'}" for j in jobs)
