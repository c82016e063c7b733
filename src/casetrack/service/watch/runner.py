"""The running side of folder watching: only in the MCP server, only in the process that holds
the data directory's `watcher.lock`.

Threads, all started by `start()` and stopped by `stop()`:
  * the supervisor takes the runner lock (retrying while another server holds it), reloads
    `watches.json` when it changes, turns quiet, size-stable paths into sync work and checks
    every `schedule_check_s` whether a scheduled sync is due;
  * the watchdog observer (only while this process is the runner) records events per path;
  * one worker runs the syncs, one at a time (`watch_job`, through `FolderService.sync_folder`,
    which ingests new files, replaces changed ones atomically and re-points moved ones without
    re-embedding them). Changed paths wait in `watch_changes` until they settle."""
from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from casetrack.cancel import CancelToken, running
from casetrack.errors import CaseTrackError
from casetrack.service.cases.cases import CaseService
from casetrack.service.infra.file_lock import FileLock
from casetrack.service.ingest.document import Ingestor
from casetrack.service.ingest.folders import FolderService
from casetrack.service.watch.changes import Changes, accepts, stat_of
from casetrack.service.watch.config import WatchConfig
from casetrack.service.watch.job import Stopping, WatchJob
from casetrack.service.watch.store import Watch, WatchState, WatchStore
from casetrack.service.watch.sync import WatchSync

log = logging.getLogger(__name__)

RUNNER_LOCK = "watcher.lock"
# Events that can change what a case should hold; "opened", "closed without writing" and a
# folder's own "modified" (any change inside it) are noise.
EVENT_TYPES = (FileCreatedEvent, FileModifiedEvent, FileClosedEvent, FileDeletedEvent, FileMovedEvent,
               DirCreatedEvent, DirDeletedEvent, DirMovedEvent)


@dataclass(slots=True)
class _Live:
    """The runner's in-memory side of one watch (guarded by the runner's `_mu`)."""

    watch: Watch
    changes: Changes
    observed: ObservedWatch | None = None
    full: str | None = None  # reason for a full sync that is due
    queued: bool = False
    syncing: bool = False  # the worker is syncing this watch now
    progress: tuple[int, int, str] | None = None


class _Handler(FileSystemEventHandler):
    def __init__(self, service: WatchRunner, watch_id: str) -> None:
        self._service = service
        self._watch_id = watch_id

    def on_any_event(self, event: FileSystemEvent) -> None:
        paths = [os.fsdecode(event.src_path)]
        if event.event_type == "moved":
            paths.append(os.fsdecode(event.dest_path))
        self._service._note(self._watch_id, paths, event.is_directory)



class WatchRunner:
    """Observer, scheduler and sync worker of every watch in a data directory."""

    def __init__(self, data_dir: Path, cases: CaseService, folders: FolderService, ingestor: Ingestor,
                 config: WatchConfig, store: WatchStore, forget_case: Callable[[str], object]) -> None:
        self._data_dir = data_dir
        self._cases = cases
        self._folders = folders
        self._ingestor = ingestor
        self.config = config
        self.store = store
        self.forget_case = forget_case
        self.lock = FileLock(data_dir / RUNNER_LOCK)
        self._mu = threading.Lock()
        self._live: dict[str, _Live] = {}
        self._observer: BaseObserver | None = None
        self._signature: tuple[int, int, int] | None = None
        self._work: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stop = threading.Event()
        self._job = WatchJob(cases, WatchSync(cases, folders, ingestor, data_dir), store, forget_case, self._stop,
                             self._state, self._saved)
        self._wake = threading.Event()
        self._threads: list[threading.Thread] = []
        self._syncing = CancelToken()  # cancelled by stop(): a sync stops inside its current file too

    @property
    def running(self) -> bool:
        return bool(self._threads)

    def wake(self) -> None:
        """Look at watches.json now rather than at the next tick."""
        self._wake.set()

    def snapshot(self, watch_id: str) -> tuple[int, tuple[int, int, str] | None]:
        """(paths waiting, progress of the sync in flight) of one watch."""
        with self._mu:
            live = self._live.get(watch_id)
            return (live.changes.waiting if live else 0), (live.progress if live else None)

    def start(self) -> None:
        """Start the background threads (idempotent). Watches run here once this process holds the lock."""
        if self._threads:
            return
        self._stop.clear()
        self._syncing = CancelToken()
        self._work = queue.SimpleQueue()  # nothing left over from an earlier stop()
        self._threads = [threading.Thread(target=self._supervise, name="casetrack-watch", daemon=True),
                         threading.Thread(target=self._run_worker, name="casetrack-watch-sync", daemon=True)]
        for thread in self._threads:
            thread.start()

    def stop(self, timeout_s: float = 10.0) -> None:
        """Stop every thread and release the runner lock; a sync in progress stops at its next checkpoint
        (its current file is not stored, and is synced again at the next start)."""
        if not self._threads:
            return
        self._stop.set()
        self._syncing.cancel("CaseTrack is stopping")
        self._wake.set()
        self._work.put(None)
        deadline = time.monotonic() + timeout_s
        for thread in self._threads:
            thread.join(max(0.1, deadline - time.monotonic()))
            if thread.is_alive():
                log.warning("Watch thread %s did not stop within %.0f s", thread.name, timeout_s)
        self._threads = []
        self._stop_observer()
        with self._mu:
            self._live.clear()
        self._signature = None
        self.lock.release()

    def sync_now(self, watch_id: str, reason: str = "requested") -> None:
        """Queue a full sync of one watch in this (running) process."""
        with self._mu:
            live = self._live.get(watch_id)
            if live is not None:
                live.full = reason
                self._enqueue(live)

    def _supervise(self) -> None:
        next_lock_try = 0.0
        next_schedule = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            try:
                if not self.lock.held and now >= next_lock_try:
                    next_lock_try = now + self.config.lock_retry_s
                    if self.lock.acquire():
                        log.info("Running folder watches for %s (pid %d)", self._data_dir, os.getpid())
                        self._observer = Observer()
                        self._observer.start()
                        next_schedule = now + self.config.schedule_check_s
                if self.lock.held:
                    self._reload()
                    if now >= next_schedule:
                        next_schedule = now + self.config.schedule_check_s
                        self._check_schedules()
                    self._promote(now)
            except CaseTrackError as exc:
                log.error("Folder watches: %s", exc.message)
            except Exception:  # the supervisor must never die silently
                log.exception("Folder watch supervisor error")
            self._wake.wait(self.config.tick_s)
            self._wake.clear()

    def _stop_observer(self) -> None:
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(10)

    def _reload(self) -> None:
        signature = self.store.signature()
        if signature == self._signature:
            return
        self._signature = signature
        current = {w.id: w for w in self.store.load()}
        to_observe: list[_Live] = []
        to_drop: list[ObservedWatch | None] = []
        with self._mu:
            for wid in [wid for wid in self._live if wid not in current]:
                live = self._live.pop(wid)
                to_drop.append(live.observed)
                live.observed = None
                log.info("Stopped watching %s", live.watch.folder)
            for wid, watch in current.items():
                existing = self._live.get(wid)
                if existing is None:
                    fresh = self._live[wid] = _Live(watch, Changes(self.config.max_pending))
                    to_observe.append(fresh)
                    if watch.notifications:  # catch up on what changed while no server watched
                        fresh.full = "catch-up"
                        self._enqueue(fresh)
                    continue
                live = existing
                was_manual = not live.watch.notifications
                live.watch = watch  # schedule, auto-remove and extensions are read from here at use
                if was_manual != (not watch.notifications):
                    to_drop.append(live.observed)
                    live.observed = None
                    to_observe.append(live)
                    if was_manual:
                        live.full = "schedule changed"
                        self._enqueue(live)
        # The observer dispatches events under its own lock, into _note, which takes _mu:
        # never call into the observer while holding _mu.
        for observed in to_drop:
            self._unschedule(observed)
        for live in to_observe:
            self._observe(live)

    def _observe(self, live: _Live) -> None:
        """Start OS notifications for a watch (caller must not hold _mu)."""
        observer = self._observer
        if observer is None or not live.watch.notifications or live.observed is not None:
            return
        try:
            observed = observer.schedule(_Handler(self, live.watch.id), live.watch.folder,
                                         recursive=True, event_filter=list(EVENT_TYPES))
        except OSError as exc:
            # Missing folder, or the OS limit on watched folders reached: keep the scheduled checks.
            log.warning("No OS notifications for %s (%s); it is synced on schedule checks only",
                        live.watch.folder, exc.strerror or exc)
            return
        with self._mu:
            keep = self._live.get(live.watch.id) is live and live.observed is None
            if keep:
                live.observed = observed
        if not keep:
            self._unschedule(observed)

    def _unschedule(self, observed: ObservedWatch | None) -> None:
        if observed is not None and self._observer is not None:
            with contextlib.suppress(KeyError, OSError):
                self._observer.unschedule(observed)

    def _check_schedules(self) -> None:
        now = time.time()
        unobserved = []
        with self._mu:
            for live in self._live.values():
                w = live.watch
                if not w.notifications:
                    continue
                if live.observed is None:
                    unobserved.append(live)  # the folder may be back, or the OS limit lifted
                interval = w.interval_s
                if live.syncing or live.queued:
                    pass  # a first sync outlasting a check must not queue a second full pass behind it
                elif w.state.status in ("paused", "error"):
                    live.full = live.full or "retry"  # the case may have been reopened, the folder be back
                elif interval is not None and (w.state.last_full_sync_at is None
                                               or now - w.state.last_full_sync_at >= interval):
                    live.full = live.full or "scheduled"
                if live.full:
                    self._enqueue(live)
        for live in unobserved:
            self._observe(live)

    # --- events -> work ----------------------------------------------------------

    def _note(self, watch_id: str, paths: list[str], is_dir: bool) -> None:
        """Called on the observer thread: remember paths, coalesced, within a bound."""
        now = time.monotonic()
        with self._mu:
            live = self._live.get(watch_id)
            if live is None:
                return
            for path in paths:
                if accepts(live.watch, path, is_dir, self._data_dir) and live.changes.note(path, is_dir, now):
                    log.info("More than %d changes at once in %s: one full sync instead", self.config.max_pending,
                             live.watch.folder)

    def _promote(self, now: float) -> None:
        """Hand paths that are quiet and size-stable for `debounce_s` to the worker."""
        debounce = self.config.debounce_s
        with self._mu:
            candidates = [(live, path, entry) for live in self._live.values()
                          for path, entry in live.changes.pending.items()]
        stats = {path: stat_of(path) for _, path, _ in candidates}  # file system calls outside the lock
        with self._mu:
            for live, path, entry in candidates:
                live.changes.settle(path, entry, stats[path], now, debounce)
            for live in self._live.values():
                if live.changes.overflow_settled(now, debounce):
                    live.full = "many changes at once"
                if live.changes.ready or live.full:
                    self._enqueue(live)

    def _enqueue(self, live: _Live) -> None:
        """Caller holds _mu. One queue entry per watch, however many changes it carries."""
        if not live.queued:
            live.queued = True
            self._work.put(live.watch.id)

    # --- the worker --------------------------------------------------------------

    def _run_worker(self) -> None:
        while True:
            watch_id = self._work.get()
            if watch_id is None or self._stop.is_set():
                return
            with self._mu:
                live = self._live.get(watch_id)
                if live is None:
                    continue
                live.queued = False
                reason, live.full = live.full, None
                paths = live.changes.take_ready()
                watch = live.watch
                live.syncing = reason is not None or bool(paths)  # under the lock: no check sees neither flag
            if not live.syncing:
                continue
            try:
                self._sync(live, watch, reason, paths)
            except Stopping:
                return
            except CaseTrackError as exc:
                log.error("Folder watch %s: %s", watch.folder, exc.message)
            except Exception:
                log.exception("Folder watch worker error on %s", watch.folder)
            finally:
                live.progress = None
                live.syncing = False

    def _sync(self, live: _Live, watch: Watch, reason: str | None, paths: set[str]) -> None:
        def progress(done: int, total: int, current: str) -> None:
            live.progress = (done, total, current)

        with running(self._syncing):
            self._job.run(watch, reason, paths, progress, lambda retry: self._renote(live, retry))

    def _renote(self, live: _Live, paths: set[str]) -> None:
        now = time.monotonic()
        with self._mu:
            live.changes.retry(paths, now)

    # --- persisted state -----------------------------------------------------------

    def _state(self, watch_id: str) -> WatchState:
        with self._mu:
            live = self._live.get(watch_id)
            return live.watch.state if live else WatchState()

    def _saved(self, watch: Watch) -> None:
        with self._mu:
            live = self._live.get(watch.id)
            if live is not None:
                live.watch = watch
