"""The structured results of the watch and status tools (see `mcp/outputs.py`)."""

from __future__ import annotations

from typing import Any

from casetrack.mcp.outputs import Out, model_of
from casetrack.render.formats import iso
from casetrack.service.status import StatusReport
from casetrack.service.watch.service import WatchView
from casetrack.service.watch.store import Watch


class WatchProgress(Out):
    done: int
    total: int
    current_file: str


class WatchOut(Out):
    watch_id: str
    folder: str
    case_id: str
    schedule: str
    auto_remove_deleted: bool
    file_extensions: list[str] | None
    created_at: str | None
    status: str
    status_detail: str | None
    last_sync_at: str | None
    last_sync_kind: str | None
    last_sync_duration_s: float | None
    last_sync_counts: dict[str, int]
    totals: dict[str, int]
    last_error: str | None
    last_error_at: str | None
    case: str | None = None
    case_status: str | None = None
    run_by: str | None = None
    pending_changes: int | None = None
    progress: WatchProgress | None = None
    created: bool | None = None
    removed: bool | None = None

    @classmethod
    def of(cls, watch: Watch, view: WatchView | None = None, **more: Any) -> WatchOut:
        """`view`: what list_watches adds (its case, who runs it, its progress); `more`: a tool's own fields."""
        s = watch.state
        if view is not None:
            more |= {"case": view.case_name, "case_status": view.case_status, "run_by": view.runner,
                     "pending_changes": view.pending,
                     "progress": WatchProgress(done=view.progress[0], total=view.progress[1],
                                               current_file=view.progress[2]) if view.progress else None}
        return cls(watch_id=watch.id, folder=watch.folder, case_id=watch.case_id, schedule=watch.schedule,
                   auto_remove_deleted=watch.auto_remove_deleted,
                   file_extensions=[e.lstrip(".") for e in watch.extensions] if watch.extensions else None,
                   created_at=iso(watch.created_at), status=s.status, status_detail=s.detail or None,
                   last_sync_at=iso(s.last_sync_at), last_sync_kind=s.last_sync_kind,
                   last_sync_duration_s=s.last_duration_s, last_sync_counts=dict(s.last_counts),
                   totals=dict(s.totals), last_error=s.last_error, last_error_at=iso(s.last_error_at), **more)


class Watches(Out):
    watches: list[WatchOut]
    run_by: str


Status = model_of(StatusReport, "Status")
