"""Folder watching (tool spec 2.21-2.24, §3): OS notifications plus scheduled syncs keep a
case in step with a folder on disk, inside the MCP server only. This module is the
configuration side (any process may add or change watches); `watch_runner` runs them.

Threads, all started by `start()` and stopped by `stop()`:
  * the supervisor takes the data directory's runner lock (retrying while another server
    holds it), reloads `watches.json` when it changes, turns quiet, size-stable paths into
    sync work and checks every `schedule_check_s` whether a scheduled sync is due;
  * the watchdog observer (only while this process is the runner) records events per path;
  * one worker runs the syncs, one at a time, through `FolderService.sync_folder`, which
    ingests new files, replaces changed ones atomically and re-points moved ones without
    re-embedding them.
Exactly one process on a data directory runs watches: the holder of `watcher.lock`."""
from __future__ import annotations

import contextlib
import logging
import os
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from casetrack.domain import Case
from casetrack.errors import CaseTrackError, InvalidInput, NotFound, quoted
from casetrack.files import user_path
from casetrack.service.cases.cases import CaseService
from casetrack.service.infra.file_lock import alive
from casetrack.service.ingest.document import Ingestor
from casetrack.service.ingest.folders import (
    FolderService,
    check_folder,
    normalise_extensions,
)
from casetrack.service.watch.config import WatchConfig
from casetrack.service.watch.runner import WatchRunner
from casetrack.service.watch.store import SCHEDULES, Watch, WatchStore
from casetrack.service.watch.sync import within

log = logging.getLogger(__name__)



@dataclass(frozen=True, slots=True)
class WatchView:
    """A watch as shown to the user: with its case and who runs it."""

    watch: Watch
    case_name: str
    case_status: str
    runner: str  # "this server" | "another CaseTrack server (pid N)" | "no CaseTrack server is running"
    pending: int = 0
    progress: tuple[int, int, str] | None = None


@dataclass(frozen=True, slots=True)
class WatchList:
    views: list[WatchView]
    run_by: str  # the server that runs the watches of this data folder, if any


@dataclass(frozen=True, slots=True)
class WatchChange:
    """What a watch tool did: the watch, its case's name, and who runs watches on this data directory."""

    watch: Watch
    case_name: str
    run_by: str
    created: bool = False


def check_schedule(schedule: str | None) -> str:
    value = (schedule or "on_change").strip().lower()
    if value not in SCHEDULES:
        raise InvalidInput(f"Unknown schedule {quoted(repr(schedule))}: choose one of {', '.join(SCHEDULES)}.")
    return value


class WatchService:
    def __init__(self, data_dir: Path, cases: CaseService, folders: FolderService, ingestor: Ingestor,
                 config: WatchConfig | None = None, lock_timeout_s: float = 10.0) -> None:
        self._data_dir = data_dir.resolve()
        self._cases = cases
        self._folders = folders
        self._ingestor = ingestor
        self.config = config or WatchConfig()
        self.store = WatchStore(data_dir, lock_timeout_s)
        self.runner = WatchRunner(self._data_dir, cases, folders, ingestor, self.config, self.store, self.forget_case)

    # --- configuration: any process, no threads needed -------------------------

    def watch_folder(self, case: Case, folder_path: str, schedule: str | None, auto_remove_deleted: bool,
                     extensions: Sequence[str] | None) -> WatchChange:
        """Start (or update) a watch of `folder_path` for `case`. Raises as `add`."""
        watch, is_new = self.add(case, folder_path, schedule, auto_remove_deleted, extensions)
        return WatchChange(watch, case.name, self.runner_description(), is_new)

    def unwatch(self, ref: str) -> WatchChange:
        """Stop a watch (by folder or watch id); its documents stay. Raises NotFound, InvalidInput."""
        watch = self.remove(ref)
        return WatchChange(watch, self._case_name(watch.case_id), self.runner_description())

    def reschedule(self, ref: str, schedule: str, auto_remove_deleted: bool | None) -> WatchChange:
        watch = self.set_schedule(ref, schedule, auto_remove_deleted)
        return WatchChange(watch, self._case_name(watch.case_id), self.runner_description())

    def _case_name(self, case_id: str) -> str:
        try:
            return self._cases.get(case_id).name
        except CaseTrackError:
            return "(deleted case)"

    def add(self, case: Case, folder_path: str, schedule: str | None = "on_change", auto_remove_deleted: bool = False,
            extensions: Sequence[str] | None = None) -> tuple[Watch, bool]:
        """Watch a folder for `case`; returns the watch and whether it is new (else updated).

        Raises CaseReadOnly, InvalidInput (missing folder, a file, the data folder, a folder
        already watched by another case or overlapping another watch), CaseBusy."""
        self._cases.require_writable(case)
        chosen = check_schedule(schedule)
        folder = check_folder(folder_path)
        wanted = normalise_extensions(extensions)
        if folder == self._data_dir or within(folder, self._data_dir):
            raise InvalidInput(f"{folder} is inside CaseTrack's own data folder ({self._data_dir}), which holds "
                               "its databases, not your documents. Watch the folder where the case files are, "
                               "e.g. ~/Cases/Smith.")
        created = Watch(id=str(uuid.uuid4()), case_id=case.id, folder=str(folder), schedule=chosen,
                        auto_remove_deleted=auto_remove_deleted,
                        extensions=tuple(sorted(wanted)) if wanted else None, created_at=time.time())
        outcome: list[tuple[Watch, bool]] = []

        def change(watches: list[Watch]) -> list[Watch]:
            for i, w in enumerate(watches):
                if w.folder == str(folder) and w.case_id == case.id:
                    updated = replace(w, schedule=chosen, auto_remove_deleted=auto_remove_deleted,
                                      extensions=created.extensions)
                    outcome.append((updated, False))
                    return [*watches[:i], updated, *watches[i + 1:]]
                if w.folder == str(folder) or within(folder, Path(w.folder)) or within(Path(w.folder), folder):
                    raise InvalidInput(self._conflict(folder, w, case))
            outcome.append((created, True))
            return [*watches, created]

        self.store.update(change)
        self.runner.wake()
        watch, is_new = outcome[0]
        log.info("%s watch %s on %s (%s) for case %s", "Added" if is_new else "Updated", watch.short_id,
                 watch.folder, watch.schedule, case.name)
        return watch, is_new

    def _conflict(self, folder: Path, other: Watch, case: Case) -> str:
        try:
            owner = self._cases.get(other.case_id)
            who = "this case" if owner.id == case.id else f'case "{owner.name}"'
        except CaseTrackError:
            who = "another case"
        if other.folder == str(folder):
            return (f"{folder} is already watched by {who} (watch {other.short_id}). A folder feeds one case: "
                    f"unwatch_folder it there first, or watch a different folder.")
        relation = "inside" if within(folder, Path(other.folder)) else "contains"
        return (f"{folder} {relation} {other.folder}, which is already watched by {who} (watch {other.short_id}). "
                "Watched folders may not overlap: unwatch_folder that one first, or choose a folder outside it.")

    def remove(self, ref: str) -> Watch:
        """Stop watching (by folder path or watch ID). Documents stay. Raises NotFound, CaseBusy."""
        found: list[Watch] = []

        def change(watches: list[Watch]) -> list[Watch]:
            found.append(self._find(watches, ref))
            return [w for w in watches if w.id != found[0].id]

        self.store.update(change)
        self.runner.wake()
        log.info("Removed watch %s on %s", found[0].short_id, found[0].folder)
        return found[0]

    def set_schedule(self, ref: str, schedule: str, auto_remove_deleted: bool | None = None) -> Watch:
        """Change a watch's schedule (and optionally auto-removal). Raises InvalidInput, NotFound, CaseBusy."""
        chosen = check_schedule(schedule)
        found: list[Watch] = []

        def change(watches: list[Watch]) -> list[Watch]:
            old = self._find(watches, ref)
            new = replace(old, schedule=chosen, auto_remove_deleted=old.auto_remove_deleted
                          if auto_remove_deleted is None else auto_remove_deleted)
            found.append(new)
            return [new if w.id == old.id else w for w in watches]

        self.store.update(change)
        self.runner.wake()
        return found[0]

    def forget_case(self, case_id: str) -> list[Watch]:
        """Drop every watch of a deleted case."""
        dropped: list[Watch] = []

        def change(watches: list[Watch]) -> list[Watch]:
            dropped.extend(w for w in watches if w.case_id == case_id)
            return [w for w in watches if w.case_id != case_id]

        try:
            if any(w.case_id == case_id for w in self.store.load()):
                self.store.update(change)
        except CaseTrackError as exc:  # never fail a case deletion over this; list_watches drops it later
            log.warning("Could not drop the watches of deleted case %s yet: %s", case_id[:8], exc.message)
            return []
        self.runner.wake()
        for w in dropped:
            log.info("Dropped watch %s on %s: its case was deleted", w.short_id, w.folder)
        return dropped

    def views(self, case_id: str | None = None) -> list[WatchView]:
        """Every watch (or one case's), with its case; watches of deleted cases are dropped."""
        views: list[WatchView] = []
        for w in self.store.load():
            if case_id is not None and w.case_id != case_id:
                continue
            try:
                case = self._cases.get(w.case_id)
            except NotFound:
                self.forget_case(w.case_id)
                continue
            pending, progress = self.runner.snapshot(w.id)
            views.append(WatchView(w, case.name, case.status.value, self.runner_description(), pending, progress))
        return views

    def listing(self, case_ref: str | None = None) -> WatchList:
        """list_watches: every watch, or those of the case `case_ref` names (raises NotFound)."""
        case_id = self._cases.resolve(case_ref).id if case_ref else None
        return WatchList(self.views(case_id), self.runner_description())

    def get(self, ref: str) -> Watch:
        return self._find(self.store.load(), ref)

    @property
    def is_runner(self) -> bool:
        return self.runner.lock.held

    def runner_description(self) -> str:
        if self.runner.lock.held:
            return "this server"
        pid = self.runner.lock.holder_pid()
        if pid is not None and alive(pid) and (pid != os.getpid() or self.runner.running):
            return f"another CaseTrack server (pid {pid})"
        return "this server (starting)" if self.runner.running else "no CaseTrack server is running"

    def index_status_lines(self, case_id: str) -> list[str]:
        """One line per watch of the case, for get_index_status."""
        lines = []
        for v in self.views(case_id):
            s = v.watch.state
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(s.last_sync_at)) if s.last_sync_at else "never"
            line = f"Watching {v.watch.folder} ({v.watch.schedule}): {s.status}, last sync {when}"
            if v.progress:
                line += f", syncing {v.progress[0]}/{v.progress[1]}"
            if s.detail:
                line += f" - {s.detail}"
            if s.last_error:
                line += f"; last error: {s.last_error}"
            lines.append(line)
        return lines

    def _find(self, watches: list[Watch], ref: str) -> Watch:
        text = (ref or "").strip()
        if not text:
            raise InvalidInput("Give the watched folder's path or the watch ID (list_watches shows both).")
        as_path = str(user_path(text))
        with contextlib.suppress(OSError):
            as_path = str(Path(as_path).resolve())
        matches = [w for w in watches if w.folder == as_path]
        if not matches and len(text) >= 4:
            matches = [w for w in watches if w.id.casefold().startswith(text.casefold())]
        if len(matches) != 1:
            raise NotFound("Watch", text, hint="Use list_watches to see the watched folders and their IDs.")
        return matches[0]

    # --- running: the MCP server only ------------------------------------------

    def start(self) -> None:
        """Start watching (idempotent); watches run here once this process holds the runner lock."""
        self.runner.start()

    def stop(self, timeout_s: float = 10.0) -> None:
        self.runner.stop(timeout_s)

    def sync_now(self, ref: str, reason: str = "requested") -> None:
        """Queue a full sync of one watch in this (running) process."""
        self.runner.sync_now(self.get(ref).id, reason)
