"""Read sessions that reuse one read-only RocksDB handle while the store is unchanged.

Opening a store read-only costs 25-50 ms (RocksDB reads its manifest and opens every table
file), which was most of a search's time. A handle shows the store as it was when it was
opened, so it may be reused exactly as long as nothing has been written since. Every commit
appends to the write-ahead log, and every flush or compaction adds or removes files, so the
names of the database's files plus the sizes of its log and manifest files change with every
change by any process; checking them costs ~0.1 ms. A changed store gets a fresh handle; the
old one is closed when its last reader finishes; a daemon thread closes handles idle for
IDLE_CLOSE_S.

Only the registry and case stores use this; one-off reads (exports, migrations) open and
close their own handle with `rocks.open_read`."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path

from casetrack.errors import StoreCorrupt
from casetrack.store.rocks import RocksStore, add_empty_views, existing_column_families, open_read_only

log = logging.getLogger(__name__)

# Handles kept open at once (each holds the case's table files open and a small block cache).
MAX_SHARED_HANDLES = 4
# A handle unused this long is closed: an idle server holds no files of a case that another
# process may want to delete (Windows refuses to remove open files), and no memory for it.
IDLE_CLOSE_S = 30.0
# RocksDB's info logs change on every open, including read-only ones, without changing data.
_IGNORED_PREFIXES = ("LOG",)
_CHANGING_FILES = (".log", "MANIFEST-", "CURRENT")

Signature = tuple[tuple[str, int], ...]


class _Shared:
    def __init__(self, store: RocksStore, signature: Signature) -> None:
        self.store = store
        self.signature = signature
        self.readers = 0
        self.retired = False
        self.last_used = time.monotonic()


_handles: OrderedDict[Path, _Shared] = OrderedDict()
_guard = threading.Lock()
_reaper: threading.Thread | None = None


def signature(path: Path) -> Signature:
    """What changes whenever the database's content can have changed (see the module docstring)."""
    entries: list[tuple[str, int]] = []
    try:
        with os.scandir(path) as listing:
            for entry in listing:
                name = entry.name
                if name.startswith(_IGNORED_PREFIXES):
                    continue
                changing = name.endswith(_CHANGING_FILES[0]) or name.startswith(_CHANGING_FILES[1:])
                entries.append((name, entry.stat().st_size if changing else -1))
    except FileNotFoundError:
        return ()
    except OSError as exc:
        raise StoreCorrupt(str(path), str(exc)) from exc
    entries.sort()
    return tuple(entries)


@contextlib.contextmanager
def shared_read(path: Path, column_families: Sequence[str]) -> Iterator[RocksStore]:
    """A read-only session on `path`, reusing the open handle if the store is unchanged.
    Raises StoreCorrupt when there is no database at `path`."""
    shared = _acquire(path, column_families)
    try:
        yield shared.store
    finally:
        _release(shared)


def release(under: Path) -> None:
    """Close the handles of stores inside `under` (before deleting or replacing them)."""
    with _guard:
        for path in [p for p in _handles if p == under or under in p.parents]:
            _retire(_handles.pop(path))


def _acquire(path: Path, column_families: Sequence[str]) -> _Shared:
    current = signature(path)
    with _guard:
        shared = _handles.get(path)
        if shared is not None and current and shared.signature == current:
            shared.readers += 1
            _handles.move_to_end(path)
            add_empty_views(shared.store, column_families)
            return shared
    present = existing_column_families(path)
    if not present:
        raise StoreCorrupt(str(path), "no database found there")
    # Opened outside the guard: other stores' readers must not wait 30 ms for this one.
    store = RocksStore(open_read_only(path, present), path, present, writable=False)
    add_empty_views(store, column_families)
    fresh = _Shared(store, current)
    fresh.readers = 1
    with _guard:
        previous = _handles.pop(path, None)
        if previous is not None:
            _retire(previous)
        _handles[path] = fresh
        _start_reaper()
        while len(_handles) > MAX_SHARED_HANDLES:
            _retire(_handles.popitem(last=False)[1])
    return fresh


def _release(shared: _Shared) -> None:
    with _guard:
        shared.readers -= 1
        shared.last_used = time.monotonic()
        if shared.retired and shared.readers == 0:
            _close(shared)


def close_idle(idle_s: float | None = None) -> int:
    """Close the handles no reader has used for `idle_s` (default IDLE_CLOSE_S). Returns how many."""
    limit = IDLE_CLOSE_S if idle_s is None else idle_s
    now = time.monotonic()
    with _guard:
        idle = [path for path, shared in _handles.items() if shared.readers == 0 and now - shared.last_used >= limit]
        for path in idle:
            _retire(_handles.pop(path))
    return len(idle)


def _start_reaper() -> None:
    """Called under the guard: one daemon thread per process closes idle handles."""
    global _reaper
    if _reaper is None or not _reaper.is_alive():
        _reaper = threading.Thread(target=_reap, name="casetrack-idle-readers", daemon=True)
        _reaper.start()


def _reap() -> None:
    while True:
        time.sleep(max(IDLE_CLOSE_S / 3, 0.05))
        try:
            close_idle()
        except Exception:  # one failed close must not stop the reaper
            log.warning("Closing idle read handles failed", exc_info=True)


def _retire(shared: _Shared) -> None:
    """Called under the guard: close now if unused, else when its last reader leaves."""
    shared.retired = True
    if shared.readers == 0:
        _close(shared)


def _close(shared: _Shared) -> None:
    try:
        shared.store.close()
    except Exception:  # closing a read-only handle cannot lose data; never fail a read over it
        log.warning("Closing a read-only handle of %s failed", shared.store.path, exc_info=True)
