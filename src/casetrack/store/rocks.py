"""The one place that talks to RocksDB (via rocksdict, raw bytes in and out).

Why stores are opened per operation: users run Claude Code and Claude Desktop side by
side, so two CaseTrack processes share one data directory, and RocksDB admits one
writer per database. A write opens the store, commits one WriteBatch and closes it again
(milliseconds), waiting briefly when another process holds the lock; reads use
read-only opens, which never take the lock. A lease file next to the database names the
current writer so a timeout can say who is holding the case.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import psutil
from rocksdict import (
    AccessType,
    BlockBasedOptions,
    BottommostLevelCompaction,
    Cache,
    ColumnFamily,
    CompactOptions,
    DBCompressionType,
    Options,
    Rdict,
    WriteBatch,
    WriteOptions,
)

from casetrack.errors import CaseBusy, StoreCorrupt

log = logging.getLogger(__name__)

DEFAULT_CF = "default"
READ_RETRIES = 8
# Every short write session flushes its own small table file, and RocksDB moves those to the
# bottom level where size-triggered compaction never merges them; every later open pays for
# each file. Past this many live files, a write session merges them before it closes.
COMPACT_AT_FILES = 200
MAX_OPEN_TABLE_FILES = 256
KEEP_INFO_LOGS = 2
_LOCK_MARKERS = ("LOCK", "lock hold", "No locks available", "Resource temporarily unavailable")
# Threads of one process must queue for a store: RocksDB refuses a second in-process open.
_process_locks: dict[Path, threading.RLock] = {}
_process_locks_guard = threading.Lock()


def _options(raw_create: bool, read_only: bool = False) -> Options:
    """Tuned for an 8 GB laptop (PRD 04 §4.4): small cache and buffers, 2 background jobs."""
    opts = Options(raw_mode=True)
    opts.create_if_missing(raw_create)
    opts.create_missing_column_families(raw_create)
    table = BlockBasedOptions()
    table.set_block_cache(Cache(32 * 1024 * 1024))
    table.set_block_size(16 * 1024)
    opts.set_block_based_table_factory(table)
    opts.set_write_buffer_size(16 * 1024 * 1024)
    opts.set_max_write_buffer_number(2)
    opts.set_compression_type(DBCompressionType.lz4())
    opts.set_bottommost_compression_type(DBCompressionType.zstd())
    opts.set_max_background_jobs(2)
    opts.increase_parallelism(2)
    # A writer's table files are its own (it holds the lock), so it may open them on first use
    # instead of all at open (store of 216 files: open 44 -> 27 ms). A read-only handle must open
    # every table file at open and keep it: a writer in this or another process compacts and
    # deletes files under it, and a file first opened after that is gone ("IO error: No such file",
    # mid-search while a folder ingests). RocksDB preloads only 16 files when the count is bounded.
    opts.set_max_open_files(-1 if read_only else MAX_OPEN_TABLE_FILES)
    # RocksDB opens table files with 16 new threads per column family by default: ~140 thread
    # starts per open of a case store, most of the cost of opening a small one (read-only open of
    # 8 families: 19 -> 5 ms CPU). One thread opens the few files an open needs just as fast.
    opts.set_max_file_opening_threads(1)
    # Every open starts a new info LOG (~115 KB: the options of each family) and RocksDB keeps 1,000
    # old ones: a case ingested a document at a time reached 115 MB of logs. Two old ones suffice
    # to see what went wrong.
    opts.set_keep_log_file_num(KEEP_INFO_LOGS)
    return opts


def raise_open_file_limit(wanted: int = 4096) -> None:
    """A read handle keeps every table file of its store open (a few hundred at most: write sessions
    merge them past COMPACT_AT_FILES), read handles are reused (`shared_reads`, up to four), a writer
    keeps up to MAX_OPEN_TABLE_FILES, and macOS starts processes with a soft limit of 256
    descriptors. Raise the soft limit towards the hard one, as servers commonly do; never lower it."""
    try:
        import resource
    except ImportError:  # Windows: the C runtime's limit is not the constraint there
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def _process_lock(path: Path) -> threading.RLock:
    with _process_locks_guard:
        return _process_locks.setdefault(path, threading.RLock())


def _is_lock_error(exc: Exception) -> bool:
    text = str(exc)
    return any(marker in text for marker in _LOCK_MARKERS)


class RocksStore:
    """An open RocksDB: column-family views, batched writes, prefix scans. Use as a context manager."""

    def __init__(self, db: Rdict, path: Path, column_families: Sequence[str], writable: bool) -> None:
        self._db = db
        self.path = path
        self.writable = writable
        self.wrote = False
        self._views: dict[str, Rdict] = {}
        self._handles: dict[str, ColumnFamily] = {}
        for name in column_families:
            self._views[name] = db if name == DEFAULT_CF else db.get_column_family(name)
            self._handles[name] = db.get_column_family_handle(name)

    def get(self, cf: str, key: bytes) -> bytes | None:
        value = self._views[cf].get(key)
        return None if value is None else bytes(value)

    def get_many(self, cf: str, keys: Sequence[bytes]) -> list[bytes | None]:
        """The values of `keys` in order (None where missing), in one batched read: a search reads a hundred
        passages' records, and one multi-get costs a fraction of a hundred gets."""
        if not keys:
            return []
        values: list[bytes | None] = self._views[cf].get(list(keys)) or []  # a list given, a list back
        return [None if value is None else bytes(value) for value in values]

    def scan(self, cf: str, prefix: bytes, start: bytes | None = None) -> Iterator[tuple[bytes, bytes]]:
        """Keys starting with `prefix`, in key order, from `start` (a key under `prefix`) if given."""
        for key, value in self._views[cf].items(from_key=start or prefix):
            raw_key = bytes(key)  # type: ignore[arg-type]  # raw mode: always bytes
            if not raw_key.startswith(prefix):
                break
            yield raw_key, bytes(value)

    def count(self, cf: str, prefix: bytes) -> int:
        return sum(1 for _ in self.scan(cf, prefix))

    def batch(self) -> Batch:
        return Batch(self._handles)

    def write(self, batch: Batch, sync: bool = True) -> None:
        """Commit atomically: all of the batch or none of it, even across a crash."""
        if not self.writable:
            raise RuntimeError("write on a read-only store")  # a programming error, not a user one
        options = WriteOptions()
        options.sync = sync
        self._db.write(batch.raw, options)
        self.wrote = True

    def compact_if_fragmented(self) -> bool:
        """Merge the store's table files when there are many (see COMPACT_AT_FILES). Returns whether it did."""
        if len(self._db.live_files()) < COMPACT_AT_FILES:
            return False
        options = CompactOptions()
        options.set_bottommost_level_compaction(BottommostLevelCompaction.force())
        for view in self._views.values():
            view.compact_range(None, None, options)
        log.info("Compacted %s", self.path)
        return True

    def checkpoint(self, target: Path) -> None:
        """A consistent on-disk copy (hard links where possible) for backups and exports."""
        from rocksdict import Checkpoint

        cp = Checkpoint(self._db)
        try:
            cp.create_checkpoint(str(target))
        finally:
            del cp

    def close(self) -> None:
        # Every column-family view keeps the database open; close them all or the LOCK stays held.
        for name, view in self._views.items():
            if name != DEFAULT_CF:
                view.close()
        self._views.clear()
        self._handles.clear()
        self._db.close()

    def __enter__(self) -> RocksStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Batch:
    """A WriteBatch addressed by column-family name."""

    def __init__(self, handles: dict[str, ColumnFamily]) -> None:
        self.raw = WriteBatch(raw_mode=True)
        self._handles = handles
        self.size = 0

    def put(self, cf: str, key: bytes, value: bytes) -> None:
        self.raw.put(key, value, self._handles[cf])
        self.size += 1

    def delete(self, cf: str, key: bytes) -> None:
        self.raw.delete(key, self._handles[cf])
        self.size += 1


def existing_column_families(path: Path) -> list[str]:
    try:
        return list(Rdict.list_cf(str(path), Options(raw_mode=True)))
    except Exception:  # rocksdict raises bare Exception for a missing/odd directory
        return []


@contextlib.contextmanager
def open_read(path: Path, column_families: Sequence[str]) -> Iterator[RocksStore]:
    """Open read-only (never blocks, never blocked by a writer). Missing column families read as empty.
    Stores read often use `shared_reads.shared_read`, which reuses the handle while nothing changed."""
    present = existing_column_families(path)
    if not present:
        raise StoreCorrupt(str(path), "no database found there")
    store = RocksStore(open_read_only(path, present), path, present, writable=False)
    add_empty_views(store, column_families)
    try:
        yield store
    finally:
        store.close()


def add_empty_views(store: RocksStore, column_families: Sequence[str]) -> None:
    """A store from an older version lacks newer column families: they behave as if empty."""
    for cf in column_families:
        if cf not in store._views:
            store._views[cf] = _EmptyView()  # type: ignore[assignment]


@contextlib.contextmanager
def open_write(path: Path, column_families: Sequence[str], purpose: str, timeout_s: float,
               what: str) -> Iterator[RocksStore]:
    """Open for writing, creating the database and any missing column families.

    Waits up to `timeout_s` for another process's lock, then raises CaseBusy naming the holder.
    """
    lock = _process_lock(path)
    if not lock.acquire(timeout=timeout_s):
        raise CaseBusy(what, "another task in this CaseTrack process")
    try:
        db = _open_with_retry(path, column_families, timeout_s, what)
        lease = _write_lease(path, purpose)
        store = RocksStore(db, path, [DEFAULT_CF, *[c for c in column_families if c != DEFAULT_CF]], writable=True)
        try:
            yield store
        finally:
            if store.wrote:
                try:
                    store.compact_if_fragmented()
                except Exception:  # compaction is housekeeping: the commit has already happened
                    log.warning("Compaction of %s failed; it will be tried again", path, exc_info=True)
            # Drop our lease before the lock, so it never deletes the next writer's lease.
            with contextlib.suppress(OSError):
                lease.unlink()
            store.close()
    finally:
        lock.release()


def open_read_only(path: Path, present: Sequence[str]) -> Rdict:
    """A read-only open lists the live files, then opens them; a writer's flush or compaction
    in between can delete one. That is a race, not damage: open again on the newer file list."""
    delay = 0.005
    for attempt in range(READ_RETRIES):
        try:
            return Rdict(
                str(path),
                _options(raw_create=False, read_only=True),
                column_families={cf: Options(raw_mode=True) for cf in present if cf != DEFAULT_CF},
                access_type=AccessType.read_only(),
            )
        except Exception as exc:
            vanished = "No such file" in str(exc) or "does not exist" in str(exc)
            if not vanished or attempt == READ_RETRIES - 1:
                raise StoreCorrupt(str(path), str(exc)) from exc
            time.sleep(delay)
            delay = min(delay * 2, 0.1)
    raise AssertionError("unreachable")  # pragma: no cover


def _open_with_retry(path: Path, column_families: Sequence[str], timeout_s: float, what: str) -> Rdict:
    path.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout_s
    delay = 0.01
    cfs = {cf: Options(raw_mode=True) for cf in column_families if cf != DEFAULT_CF}
    for cf in existing_column_families(path):  # RocksDB insists every existing family is named
        if cf != DEFAULT_CF:
            cfs.setdefault(cf, Options(raw_mode=True))
    while True:
        try:
            return Rdict(str(path), _options(raw_create=True), column_families=cfs)
        except Exception as exc:
            if not _is_lock_error(exc):
                raise StoreCorrupt(str(path), str(exc)) from exc
            if time.monotonic() >= deadline:
                raise CaseBusy(what, _describe_holder(path)) from exc
            time.sleep(delay)
            delay = min(delay * 2, 0.2)


def _lease_path(path: Path) -> Path:
    return path.with_name(path.name + ".writer")


def _write_lease(path: Path, purpose: str) -> Path:
    lease = _lease_path(path)
    record = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time(), "purpose": purpose}
    with contextlib.suppress(OSError):
        lease.write_text(json.dumps(record), encoding="utf-8")
    return lease


def _read_lease(path: Path) -> dict[str, object] | None:
    try:
        record = json.loads(_lease_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return record if isinstance(record, dict) else None


def _holder_gone(record: dict[str, object], own_pid_gone: bool = False) -> bool:
    """The lease names a process of this machine that no longer runs (killed inside a write session).
    This process's own pid counts as gone only when none of its write sessions can be open (start-up):
    then it is an earlier process's, whose pid was reused."""
    pid = record.get("pid")
    if record.get("host") != socket.gethostname() or not isinstance(pid, int):
        return False
    return own_pid_gone if pid == os.getpid() else not psutil.pid_exists(pid)


def clear_stale_lease(path: Path, at_start: bool = False) -> bool:
    """Remove the writer lease of the store at `path` if the process it names is gone; returns whether
    there was one. Such a lease means a write session was cut short (a kill, a crash): RocksDB has kept
    or dropped that session's batch whole, but whatever the writer meant to do after it (copy the new
    counts to the registry) may not have happened, and the caller should check. `at_start`: this process
    has no write session open yet."""
    record = _read_lease(path)
    if record is None or not _holder_gone(record, own_pid_gone=at_start):
        return False
    with contextlib.suppress(OSError):
        _lease_path(path).unlink()
    return True


def _describe_holder(path: Path) -> str:
    record = _read_lease(path)
    if record is None or _holder_gone(record):  # a lease left by a killed writer says nothing of the holder
        return "process unknown"
    since = time.strftime("%H:%M:%S", time.localtime(float(str(record.get("since", 0)))))
    return f"pid {record.get('pid')} on {record.get('host')}, {record.get('purpose', 'writing')} since {since}"


class _EmptyView:
    """Stands in for a column family an older store does not have yet."""

    def get(self, key: bytes) -> None:
        return None

    def items(self, from_key: bytes | None = None) -> Iterator[tuple[bytes, bytes]]:
        return iter(())

    def close(self) -> None:
        return None

