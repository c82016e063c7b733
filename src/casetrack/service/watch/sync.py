"""Applying a watch's changes to its case: a full sync of the folder, or just the paths that
changed (new files ingested, changed ones replaced atomically, moved ones re-pointed with their
embeddings kept; documents whose files are gone removed only with auto_remove_deleted)."""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any, NotRequired, TypedDict

from casetrack.domain import Case
from casetrack.errors import CaseTrackError
from casetrack.service.cases.cases import CaseService
from casetrack.service.ingest.document import Ingestor
from casetrack.service.ingest.folders import FileOutcome, FolderReport, FolderService, Walk, refusal, walk
from casetrack.service.watch.store import Watch, WatchState
from casetrack.store import documents as docstore

TOTALLED = ("ingested", "updated", "moved", "removed", "skipped", "failed")


class WatchSync:
    def __init__(self, cases: CaseService, folders: FolderService, ingestor: Ingestor, data_dir: Path) -> None:
        self._cases = cases
        self._folders = folders
        self._ingestor = ingestor
        self._data_dir = data_dir

    def full(self, case: Case, watch: Watch, progress: Any) -> FolderReport:
        folder = Path(watch.folder)
        walked = walk(folder, True, frozenset(watch.extensions) if watch.extensions else None)
        files = [f for f in walked.files if not within(f, self._data_dir)]
        return self._folders.sync_folder(case, folder, Walk(files, walked.problems, walked.subfolders),
                                         remove_deleted=watch.auto_remove_deleted, progress=progress)

    def changes(self, case: Case, watch: Watch, paths: set[str], progress: Any) -> FolderReport:
        """Sync only the changed paths: files present are ingested, replaced or re-pointed (moves keep
        their embeddings); documents whose files are gone are removed only with auto_remove_deleted."""
        folder = Path(watch.folder)
        wanted = frozenset(watch.extensions) if watch.extensions else None
        files: set[Path] = set()
        refused: list[FileOutcome] = []
        gone: list[str] = []
        for raw in sorted(paths):
            path = Path(raw)
            if not safely_inside(path, folder):
                continue  # reached through a folder link that leaves the watched tree
            if path.is_dir() and not path.is_symlink():
                walked = walk(path, True, wanted)
                files.update(f for f in walked.files if not within(f, self._data_dir))
                refused.extend(o for o in walked.problems if o.status == "refused")
            elif path.exists() and (reason := refusal(path, folder)) is not None:
                refused.append(FileOutcome(os.path.relpath(path, folder), "refused", reason))
            elif path.is_file():
                files.add(path)
            elif not path.exists() and not path.is_symlink():
                gone.append(raw)
        report = self._folders.sync_folder(case, folder, Walk(sorted(files), refused, []), remove_deleted=False,
                                           progress=progress)
        # sync_folder reports every other document of the folder as "missing": not ours to say here.
        report.outcomes = [o for o in report.outcomes if o.status != "missing"]
        if gone:
            report.outcomes.extend(self._removed(case, watch, gone))
        return report

    def _removed(self, case: Case, watch: Watch, gone: list[str]) -> list[FileOutcome]:
        folder = Path(watch.folder)
        with self._cases.store(case).reader() as db:  # a path this machine did not record is never probed
            docs = [self._cases.seals.as_trusted(case.id, d) for d in docstore.list_documents(db)]
        outcomes = []
        for doc in docs:
            where = doc.original_path
            if not where or Path(where).exists() or not any(where == g or within(Path(where), Path(g))
                                                                for g in gone):
                continue
            rel = os.path.relpath(where, folder)
            if not watch.auto_remove_deleted:
                outcomes.append(FileOutcome(rel, "missing", "source file deleted; kept in the case "
                                            "(set_sync_schedule with auto_remove_deleted=true removes such files)",
                                            doc.id))
                continue
            try:
                removed = self._ingestor.delete(self._cases.get(case.id), doc)
                detail = "source file deleted" + (f"; {removed.note}" if removed.note else "")
                outcomes.append(FileOutcome(rel, "removed", detail, doc.id))
            except CaseTrackError as exc:
                outcomes.append(FileOutcome(rel, "failed", exc.message, doc.id))
        return outcomes


class SyncedState(TypedDict):
    """The `WatchState` fields a finished sync sets (by name: `WatchJob.record` applies them to the state
    as it is when saved, so what another process recorded meanwhile, its runner_pid, is kept)."""

    status: str
    detail: str
    last_sync_at: float
    last_sync_kind: str
    last_duration_s: float
    last_counts: dict[str, int]
    totals: dict[str, int]
    failing: dict[str, str]
    last_error: str | None
    last_error_at: float | None
    last_full_sync_at: NotRequired[float]  # a full sync only


def state_after(report: FolderReport, full: bool, started: float, before: WatchState, folder: Path
                ) -> SyncedState:
    """The watch-state fields a finished sync sets: its counts, running totals, and what is failing now.

    `last_error` says what is wrong now, not what once was: a half-written file that failed and was ingested
    fine once it was complete, or deleted, no longer shows; a file that still fails does. A full sync tries
    every file, so its failures are the whole list; a sync of changed paths updates the paths it tried."""
    counts = Counter(o.status for o in report.outcomes)
    failed = {o.path: o.message for o in report.outcomes if o.status == "failed"}
    tried = {o.path for o in report.outcomes}
    failing = failed if full else failed | {path: why for path, why in before.failing.items()
                                            if path not in tried and (folder / path).exists()}
    totals = before.totals
    changes: SyncedState = {
        "status": "idle", "detail": "", "last_sync_at": time.time(),
        "last_sync_kind": "full" if full else "changes", "last_duration_s": round(report.duration_s, 3),
        "last_counts": dict(counts),
        "totals": dict(totals) | {key: totals.get(key, 0) + counts.get(key, 0) for key in TOTALLED},
        "failing": failing, "last_error": None, "last_error_at": None}
    if full:
        changes["last_full_sync_at"] = started
    if failing:
        path, why = next(iter(failing.items()))
        changes["last_error"] = f"{path}: {why}" + (f" (and {len(failing) - 1} more)" if len(failing) > 1 else "")
        changes["last_error_at"] = time.time() if failed else before.last_error_at
    return changes


def within(path: Path, folder: Path) -> bool:
    """True if `path` is `folder` or below it (lexically)."""
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def safely_inside(path: Path, folder: Path) -> bool:
    """The path's folder, with links resolved, is still inside the watched tree."""
    try:
        return within(path.parent.resolve(), folder)
    except OSError:
        return False
