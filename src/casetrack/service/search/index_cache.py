"""The search indexes of each open case: segments memory-mapped from `cases/<id>/index/` plus
the chunks committed since the files were written, held in memory until there are enough of
them to write as a segment of their own (`service/search/index_sync.py`).

The case store stays the source of truth. Its `generation` counter, bumped by every commit,
and the change log beside it (`store/changes.py`) say what moved since the index files or
this process's copy were made; the difference is read from the store, so another process's
commits are seen before the next search without rebuilding anything."""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass, field

from casetrack.service.search import index_sync
from casetrack.service.search.case_index import DENSE_ORDER, CaseIndex, generation
from casetrack.store import changes
from casetrack.store.case_store import CaseStore
from casetrack.store.rocks import RocksStore

log = logging.getLogger(__name__)

__all__ = ["DENSE_ORDER", "KEPT_CASES", "BuildProgress", "CaseIndex", "IndexCache", "generation"]

@dataclass
class BuildProgress:
    """A rebuild from the store under way, for get_index_status."""

    done: int
    total: int
    started: float = field(default_factory=time.time)


# Cases whose indexes stay open. Their files are memory-mapped, so what a kept case costs is the
# pages its searches touched (the int8 codes, the postings of the query terms) and the chunks not
# yet written; the least recently searched case goes first and reopens from its files in ms.
KEPT_CASES = 3

class IndexCache:
    """One CaseIndex per case, thread-safe, caught up when the store's generation moves on; at most
    KEPT_CASES cases are kept, the least recently used dropped first."""

    def __init__(self, kept: int = KEPT_CASES) -> None:
        self._kept = kept
        self._indexes: dict[str, CaseIndex] = {}  # in order of use, most recent last
        self._stores: dict[str, CaseStore] = {}
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self.progress: dict[str, BuildProgress] = {}

    def get(self, case_id: str, store: CaseStore, db: RocksStore | None = None) -> CaseIndex:
        """The case's index, caught up first if the store moved on. With `db` (an open reader of
        that store) no other read session is opened: a search needs exactly one."""
        if db is None:
            with store.reader() as opened:
                return self.get(case_id, store, opened)
        self._stores[case_id] = store
        current = generation(db)
        cached = self._indexes.get(case_id)
        if cached is not None and cached.generation == current and not cached.stale_files:
            self._touch(case_id, cached)
            return cached
        with self._lock:
            build_lock = self._building.setdefault(case_id, threading.Lock())
        with build_lock:  # one load per case at a time; others wait and reuse it
            cached = self._indexes.get(case_id)
            if cached is not None and not cached.stale_files and self._caught_up(cached, store, db, current):
                self._touch(case_id, cached)
                return cached
            fresh = index_sync.load(store, db, lambda done, total: self._report(case_id, done, total))
            self.progress.pop(case_id, None)
            self._touch(case_id, fresh)
            return fresh

    def _caught_up(self, index: CaseIndex, store: CaseStore, db: RocksStore, current: int) -> bool:
        with index.lock:
            if index.generation >= current:
                return True  # this read session began before this process's latest commit
            found = changes.since(db, index.generation, current)
            if found is None:
                return False
            index.apply(found, db)
            index_sync.persist_if_due(index, store)
            return True

    def _report(self, case_id: str, done: int, total: int) -> None:
        self.progress[case_id] = BuildProgress(done, total, self.progress.get(case_id, BuildProgress(0, 0)).started)

    def _touch(self, case_id: str, index: CaseIndex) -> None:
        """Mark the case most recently used; drop the least recently used beyond the bound."""
        with self._lock:
            self._indexes.pop(case_id, None)
            self._indexes[case_id] = index
            while len(self._indexes) > self._kept:
                self._indexes.pop(next(iter(self._indexes)))

    def peek(self, case_id: str) -> CaseIndex | None:
        return self._indexes.get(case_id)

    def applied(self, case_id: str, before: int, after: int) -> None:
        """This process committed generation `after` on top of `before`: catch the kept index up now,
        from the store (the commit's own record), so the next search finds it current."""
        index, store = self._indexes.get(case_id), self._stores.get(case_id)
        if index is None or store is None:
            return
        with index.lock:
            if index.generation != before:
                return  # behind already: the next search catches it up
            try:
                with store.reader() as db:
                    if not self._caught_up(index, store, db, max(after, generation(db))):
                        self._indexes.pop(case_id, None)
            except Exception:  # the commit itself stands; the next search reloads the index
                log.warning("Updating the search index of %s after a commit failed", case_id, exc_info=True)
                self._indexes.pop(case_id, None)

    def rebuild(self, case_id: str, store: CaseStore, db: RocksStore, problem: str) -> CaseIndex:
        """A search met a damaged index file (inside an array too large to checksum at open): set the files
        aside and rebuild the index from the store."""
        log.warning("The search index of case %s is damaged (%s); rebuilding it from the case store.", case_id,
                    problem)
        self._indexes.pop(case_id, None)
        index_sync.discard_files(store)
        return self.get(case_id, store, db)

    def forget(self, case_id: str) -> None:
        self._indexes.pop(case_id, None)
        self._stores.pop(case_id, None)
