"""Texts of folder watches (tool spec 2.21-2.24)."""

from __future__ import annotations

from casetrack.render.formats import duration, iso, plural
from casetrack.service.watch.service import WatchView
from casetrack.service.watch.store import Watch

SCHEDULE_TEXT = {
    "on_change": "on_change (real-time OS notifications)",
    "hourly": "hourly (real-time OS notifications, plus a full sync every hour)",
    "every_6h": "every_6h (real-time OS notifications, plus a full sync every 6 hours)",
    "every_12h": "every_12h (real-time OS notifications, plus a full sync every 12 hours)",
    "daily": "daily (real-time OS notifications, plus a full sync every day)",
    "manual": "manual (no automatic sync; run sync_folder when you want one)",
}
COUNT_ORDER = ("ingested", "updated", "moved", "removed", "skipped", "failed", "missing")
COUNT_WORDS = {"ingested": "new", "updated": "changed", "moved": "moved", "removed": "removed",
               "skipped": "skipped", "failed": "failed", "missing": "missing (kept)"}


def _types(watch: Watch) -> str:
    return ", ".join(e.lstrip(".") for e in watch.extensions) if watch.extensions else "all supported formats"


def _auto_remove(watch: Watch) -> str:
    return ("on (documents of deleted files are removed)" if watch.auto_remove_deleted
            else "off (documents of deleted files are kept)")


def _counts(counts: dict[str, int]) -> str:
    parts = [f"{counts[k]} {COUNT_WORDS[k]}" for k in COUNT_ORDER if counts.get(k)]
    return ", ".join(parts) or "no changes"


def watch_added(watch: Watch, case_name: str, is_new: bool, runner: str) -> str:
    title = f"Now watching {watch.folder} for {case_name}" if is_new else \
        f"Updated the watch on {watch.folder} for {case_name}"
    lines = [title, "", f"  Watch ID:     {watch.short_id}", f"  Schedule:     {SCHEDULE_TEXT[watch.schedule]}",
             f"  Auto-remove:  {_auto_remove(watch)}", f"  File types:   {_types(watch)}", ""]
    if watch.schedule == "manual":
        lines.append("Nothing syncs automatically; use sync_folder, or set_sync_schedule to turn syncing on.")
    elif is_new:
        lines.append("An initial sync runs in the background now. From then on new files are ingested, changed "
                     "files reindexed, moved or renamed files re-pointed (embeddings kept)"
                     + (", and documents of deleted files removed." if watch.auto_remove_deleted else "."))
    lines.append(_runner_line(runner))
    lines.append("Use list_watches to see progress; unwatch_folder stops the watch (documents stay).")
    return "\n".join(lines)


def _runner_line(runner: str) -> str:
    if runner.startswith("this server"):
        return "Syncing runs in this CaseTrack server, in the background."
    if runner.startswith("another"):
        return (f"Syncing runs in {runner} on this data folder, which picks up this change within seconds; "
                "this server takes over when that one exits.")
    return "Syncing starts when a CaseTrack server runs (Claude starts one)."


def watch_removed(watch: Watch, case_name: str) -> str:
    return (f"Stopped watching {watch.folder} (watch {watch.short_id}, case {case_name}).\n"
            "No documents were deleted: everything already ingested from this folder stays in the case.")


def schedule_set(watch: Watch, case_name: str) -> str:
    return "\n".join([f"Sync schedule updated for {watch.folder} ({case_name})", "",
                      f"  Watch ID:     {watch.short_id}", f"  Schedule:     {SCHEDULE_TEXT[watch.schedule]}",
                      f"  Auto-remove:  {_auto_remove(watch)}"])


def watch_list(views: list[WatchView], case_filter: str | None) -> str:
    if not views:
        scope = f" for {case_filter}" if case_filter else ""
        return f"No folder watches{scope}. Use watch_folder to keep a case in step with a folder."
    lines = [f"Folder watches ({len(views)}):"]
    for v in views:
        w, s = v.watch, v.watch.state
        lines += ["", f"  {w.short_id}  {w.folder}", f"    Case:        {v.case_name}"
                  + (f" ({v.case_status})" if v.case_status != "active" else ""),
                  f"    Schedule:    {w.schedule} | Auto-remove: {'on' if w.auto_remove_deleted else 'off'} | "
                  f"Types: {_types(w)}"]
        status = s.status + (f": {s.detail}" if s.detail else "")
        if v.progress:
            status += f" ({v.progress[0]} of {plural(v.progress[1], 'file')}, now {v.progress[2]})"
        if v.pending:
            status += f"; {plural(v.pending, 'change')} waiting to settle"
        lines.append(f"    Status:      {status}")
        if s.last_sync_at:
            lines.append(f"    Last sync:   {iso(s.last_sync_at)} ({s.last_sync_kind}, {duration(s.last_duration_s)}): "
                         f"{_counts(s.last_counts)}")
        else:
            lines.append("    Last sync:   never")
        if s.totals:
            lines.append(f"    Totals:      {_counts(s.totals)}")
        if s.last_error:
            lines.append(f"    Last error:  {s.last_error} ({iso(s.last_error_at)})")
    lines += ["", _runner_line(views[0].runner)]
    return "\n".join(lines)
