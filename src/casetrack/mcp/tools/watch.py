"""Folder watch tools (tool spec 2.21-2.24). The watching runs in the background (service/watch/);
these tools edit the persisted watch list and report on it."""

from __future__ import annotations

from typing import Annotated

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_watch as out
from casetrack.mcp.tools.base import CaseName, Ctx, Extensions, Schedule, app_of, result
from casetrack.render import watch as render

WatchRef = Annotated[str, Field(description="The watched folder's path, or the watch ID")]
AutoRemove = Annotated[bool, Field(description="Remove documents whose files are deleted")]
SCHEDULE_HELP = ("on_change: as files change (recommended); hourly, daily, every_6h, every_12h: also on that "
                 "interval; manual: only with sync_folder")


def watch_folder(
    ctx: Ctx, folder_path: Annotated[str, Field(description="Absolute path (subfolders included)")],
    schedule: Annotated[Schedule, Field(description=SCHEDULE_HELP)] = "on_change",
    auto_remove_deleted: AutoRemove = False, file_extensions: Extensions = None, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.WatchOut]:
    """Keep a case in step with a folder: new files are ingested, changed ones re-indexed, moved
    ones re-pointed, deleted ones removed only with auto_remove_deleted. Survives restarts."""
    app = app_of(ctx)
    change = app.watches.watch_folder(app.writable_case(case_name), folder_path, schedule, auto_remove_deleted,
                                      file_extensions)
    return result(render.watch_added(change.watch, change.case_name, change.created, change.run_by),
                  out.WatchOut.of(change.watch, case=change.case_name, created=change.created, run_by=change.run_by))


def unwatch_folder(ctx: Ctx, folder_path: WatchRef) -> Annotated[CallToolResult, out.WatchOut]:
    """Stop watching a folder; documents already ingested from it stay in the case."""
    change = app_of(ctx).watches.unwatch(folder_path)
    return result(render.watch_removed(change.watch, change.case_name),
                  out.WatchOut.of(change.watch, case=change.case_name, removed=True))


def list_watches(
    ctx: Ctx, case_filter: Annotated[str | None, Field(description="Only this case (name or ID)")] = None,
) -> Annotated[CallToolResult, out.Watches]:
    """Every folder watch: folder, case, schedule, last sync, status, counts and last error."""
    app = app_of(ctx)
    found = app.watches.listing(case_filter)
    return result(render.watch_list(found.views, case_filter),
                  out.Watches(watches=[out.WatchOut.of(v.watch, v) for v in found.views], run_by=found.run_by))


def set_sync_schedule(
    ctx: Ctx, folder_path: WatchRef, schedule: Annotated[Schedule, Field(description=SCHEDULE_HELP)],
    auto_remove_deleted: Annotated[bool | None, Field(description="Change auto-remove too")] = None,
) -> Annotated[CallToolResult, out.WatchOut]:
    """Change how often a watched folder is synced."""
    change = app_of(ctx).watches.reschedule(folder_path, schedule, auto_remove_deleted)
    return result(render.schedule_set(change.watch, change.case_name),
                  out.WatchOut.of(change.watch, case=change.case_name))
