"""Folder watch tools (tool spec 2.21-2.24). The watching itself runs in the background
(service/watch.py); these tools only edit the persisted watch list and report on it."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.errors import CaseTrackError
from casetrack.mcp.server import IDEMPOTENT_WRITE, READ_ONLY, ToolRegistrar, result
from casetrack.render import watch as render
from casetrack.service.app import CaseTrack

Schedule = Literal["on_change", "hourly", "daily", "every_6h", "every_12h", "manual"]


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    def case_name(case_id: str) -> str:
        try:
            return app.cases.get(case_id).name
        except CaseTrackError:
            return "(deleted case)"

    @tool(IDEMPOTENT_WRITE, "Start watching a folder for file changes. When files are added, modified, or deleted in "
                            "the watched folder (or any subfolder), CaseTrack automatically syncs the changes into "
                            "the active case -- new files are ingested, modified files are reindexed (old "
                            "chunks/embeddings deleted, new ones created), moved or renamed files keep their "
                            "embeddings, and optionally deleted files are removed from the case. Uses OS-level file "
                            "notifications for instant detection, plus scheduled sync as a safety net. The watch "
                            "persists across server restarts.")
    def watch_folder(
        folder_path: Annotated[str, Field(description="Absolute path to the folder to watch. All subfolders are "
                                                      "included.")],
        schedule: Annotated[Schedule, Field(description=(
            "When to sync: 'on_change' = real-time via OS file notifications (recommended), "
            "'hourly'/'daily'/'every_6h'/'every_12h' = scheduled interval (runs in addition to on_change), "
            "'manual' = only sync when you call sync_folder."))] = "on_change",
        auto_remove_deleted: Annotated[bool, Field(description=(
            "If true, documents whose source files are deleted from disk will be automatically removed from the "
            "case (chunks + embeddings deleted). Default: false (only add/update, never auto-remove)."))] = False,
        file_extensions: Annotated[list[str] | None, Field(description=(
            'Optional filter: only watch files with these extensions (e.g., ["pdf", "docx"]). Default: all '
            "supported formats."))] = None,
    ) -> CallToolResult:
        case = app.writable_active_case()
        watch, is_new = app.watches.add(case, folder_path, schedule, auto_remove_deleted, file_extensions)
        runner = app.watches.runner_description()
        data = {**render.watch_dict(watch), "case": case.name, "created": is_new, "run_by": runner}
        return result(render.watch_added(watch, case.name, is_new, runner), data)

    @tool(IDEMPOTENT_WRITE, "Stop watching a folder. Removes the watch but does NOT delete any documents already "
                            "ingested from that folder. The case data remains intact -- only the automatic sync is "
                            "stopped.")
    def unwatch_folder(
        folder_path: Annotated[str, Field(description="Path to the folder to stop watching (or watch ID)")],
    ) -> CallToolResult:
        watch = app.watches.remove(folder_path)
        name = case_name(watch.case_id)
        return result(render.watch_removed(watch, name), {**render.watch_dict(watch), "case": name, "removed": True})

    @tool(READ_ONLY, "List all active folder watches across all cases. Shows the watched folder, which case it syncs "
                     "to, the schedule, last sync time, current status, counts of synced files and the last error.")
    def list_watches(
        case_filter: Annotated[str | None, Field(description="Optional: only show watches for a specific case name "
                                                             "or ID")] = None,
    ) -> CallToolResult:
        case_id = app.cases.resolve(case_filter).id if case_filter else None
        views = app.watches.views(case_id)
        return result(render.watch_list(views, case_filter),
                      {"watches": [render.watch_dict(v.watch, v) for v in views],
                       "run_by": app.watches.runner_description()})

    @tool(IDEMPOTENT_WRITE, "Change the sync schedule for an existing folder watch. Controls how often CaseTrack "
                            "checks for file changes and reindexes.")
    def set_sync_schedule(
        folder_path: Annotated[str, Field(description="Path to the watched folder (or watch ID)")],
        schedule: Annotated[Schedule, Field(description=(
            "New schedule: 'on_change' = real-time OS notifications, 'hourly'/'daily' etc = interval-based, "
            "'manual' = only when you call sync_folder"))],
        auto_remove_deleted: Annotated[bool | None, Field(description="Optionally update auto-remove "
                                                                      "behavior")] = None,
    ) -> CallToolResult:
        watch = app.watches.set_schedule(folder_path, schedule, auto_remove_deleted)
        name = case_name(watch.case_id)
        return result(render.schedule_set(watch, name), {**render.watch_dict(watch), "case": name})
