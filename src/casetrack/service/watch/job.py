"""One sync of one watch, as the runner's worker thread runs it, and what it leaves in
`watches.json`: a case that no longer accepts changes pauses the watch (a deleted one drops
it), a missing folder is an error that clears itself when the folder is back, a failure is
recorded with its message, and a finished sync its counts. The runner owns the threads and
the in-memory state; this module never takes the runner's lock itself."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from casetrack.domain import Case
from casetrack.errors import Cancelled, CaseTrackError, InternalError, NotFound
from casetrack.service.cases.cases import CaseService
from casetrack.service.watch.store import Watch, WatchState, WatchStore
from casetrack.service.watch.sync import WatchSync, state_after

log = logging.getLogger(__name__)

Progress = Callable[[int, int, str], None]


class Stopping(Exception):
    """Raised from a progress callback to end a sync between two files when the server stops."""


class WatchJob:
    def __init__(self, cases: CaseService, apply: WatchSync, store: WatchStore, forget_case: Callable[[str], object],
                 stopping: threading.Event, current: Callable[[str], WatchState],
                 saved: Callable[[Watch], None]) -> None:
        self._cases = cases
        self._apply = apply
        self._store = store
        self._forget_case = forget_case
        self._stopping = stopping
        self._current = current  # the runner's copy of a watch's state
        self._saved = saved  # told each watch record saved, to keep the runner's copy in step

    def run(self, watch: Watch, reason: str | None, paths: set[str], progress: Progress,
            retry: Callable[[set[str]], None]) -> None:
        """A full sync when `reason` is given, else a sync of `paths`. Paths worth another try
        go to `retry`. Raises Stopping when the server stops mid-sync."""
        case = self._case_for(watch)
        if case is None:
            return
        folder = Path(watch.folder)
        if not folder.is_dir():
            self.record(watch.id, status="error", detail=f"the folder {folder} is missing; it is synced again "
                        "when it is back (or use unwatch_folder)")
            return
        started = time.time()
        self.record(watch.id, status="syncing", detail="", runner_pid=os.getpid())

        def step(done: int, total: int, current: str) -> None:
            if self._stopping.is_set():
                raise Stopping()
            progress(done, total, current)

        try:
            if reason is not None:
                log.info("Syncing watched folder %s (%s)", folder, reason)
                report = self._apply.full(case, watch, step)
            else:
                report = self._apply.changes(case, watch, paths, step)
        except (Stopping, Cancelled):  # between two files, or inside one (the server stops: Ctrl-C)
            self.record(watch.id, status="idle", detail="interrupted by shutdown; it resumes at next start")
            raise Stopping() from None
        except CaseTrackError as exc:
            self.record(watch.id, status="error", detail="", last_error=exc.message, last_error_at=time.time())
            if reason is None:
                retry(paths)
            return
        except Exception as exc:
            log.exception("Sync of watched folder %s failed", folder)
            message = InternalError(f"{type(exc).__name__}: {exc}").message
            self.record(watch.id, status="error", detail="", last_error=message, last_error_at=time.time())
            return
        # A file rewritten while it was being read is retried when it settles again.
        retry({str(folder / o.path) for o in report.outcomes
               if o.status == "failed" and _modified_since(folder / o.path, started)})
        changes = state_after(report, reason is not None, started, self._current(watch.id), folder)
        self.record(watch.id, **changes)
        done = {k: v for k, v in changes["last_counts"].items() if k not in ("unchanged", "missing")}
        log.info("Watched folder %s synced (%s): %s", folder, reason or "changes",
                 ", ".join(f"{n} {k}" for k, n in sorted(done.items())) or "no changes")

    def _case_for(self, watch: Watch) -> Case | None:
        """The watch's case if it accepts changes; otherwise record why not (or drop the watch)."""
        try:
            case = self._cases.get(watch.case_id)
        except NotFound:
            log.warning("The case of the watch on %s was deleted; dropping the watch", watch.folder)
            self._forget_case(watch.case_id)
            return None
        if not case.writable:
            detail = f'case "{case.name}" is {case.status.value}; reopen it to resume syncing'
            if self._current(watch.id).status != "paused":
                log.info("Watch on %s paused: %s", watch.folder, detail)
            self.record(watch.id, status="paused", detail=detail)
            return None
        return case

    def record(self, watch_id: str, **changes: Any) -> None:
        """Save part of a watch's state in watches.json (and tell the runner)."""
        updated: list[Watch] = []

        def change(watches: list[Watch]) -> list[Watch]:
            out = []
            for w in watches:
                if w.id == watch_id:
                    w = replace(w, state=replace(w.state, **changes))
                    updated.append(w)
                out.append(w)
            return out

        try:
            self._store.update(change)
        except CaseTrackError as exc:
            log.warning("Could not record the state of watch %s: %s", watch_id[:8], exc.message)
            return
        if updated:
            self._saved(updated[0])


def _modified_since(path: Path, since: float) -> bool:
    try:
        return path.stat().st_mtime >= since - 1
    except OSError:
        return False
