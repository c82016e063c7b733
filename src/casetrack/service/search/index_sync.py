"""Keeping a case's index files (`cases/<id>/index/`) in step with its store.

Opening: the manifest and its segments are checked and memory-mapped, then the commits made
since the generation they reflect are replayed from the store's change log. Files that are
missing, damaged, from another case or from a later generation than the store (a restored
backup), or too far behind for the log, are rebuilt from the store in segments of
SEGMENT_ROWS chunks, each written as soon as it is built, so memory stays bounded.

Writing: chunks committed since the files were written are held in memory and written as a
new segment once there are FLUSH_ROWS of them or the files are FLUSH_GENERATIONS behind;
small segments are then merged, and a segment with many deleted rows is rewritten without
them. Only the holder of `index/writer.lock` writes, and only on top of the manifest it last
read or wrote; a process whose files were replaced under it by another reopens them.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path

from casetrack.index.merge import merge
from casetrack.index.segment import SegmentBuilder
from casetrack.service.infra.file_lock import FileLock
from casetrack.service.search.case_index import (
    DENSE_MODELS,
    DIMS,
    SPARSE_MODELS,
    CaseIndex,
    DiskSegment,
    pending_segment,
)
from casetrack.store import changes, keys, stats
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.paths import remove_tree
from casetrack.store.rocks import RocksStore
from casetrack.store.search_index.entries import all_entries
from casetrack.store.search_index.files import IndexDamaged, read_segment, write_segment
from casetrack.store.search_index.manifest import (
    INDEX_DIR,
    LOCK,
    MANIFEST,
    Manifest,
    read_alive,
    read_manifest,
    remove_unused,
    write_manifest,
)

log = logging.getLogger(__name__)

SEGMENT_ROWS = 131_072  # the most chunks one segment holds (bounds the memory of a build or merge)
FLUSH_ROWS = 2_000
FLUSH_GENERATIONS = 256  # well inside the change log's KEEP_CHANGES
SMALL_ROWS = SEGMENT_ROWS // 8
MERGE_SMALL = 4  # this many small segments are merged into one
DEAD_SHARE = 0.3  # a segment with this share of deleted rows is rewritten
REBUILD_LOCK_WAIT_S = 600.0
PROGRESS_EVERY = 50_000
OPEN_ATTEMPTS = 5  # manifests replaced by another process while this one opens them

Progress = Callable[[int, int], None]


def load(store: CaseStore, db: RocksStore, progress: Progress) -> CaseIndex:
    """The case's index at the generation of `db`: opened from its files and caught up, else rebuilt."""
    started = time.perf_counter()
    current = stats.generation(db)
    index = _open_current(store, db, current)
    if index is None:
        index = rebuild(store, db, progress)
    else:
        persist_if_due(index, store)
    index.built_in_s = time.perf_counter() - started
    log.info("Opened the search index of %s (%s): %d chunks in %.0f ms", store.case_dir.name, index.source,
             index.chunk_count, index.built_in_s * 1000)
    return index


def _open_current(store: CaseStore, db: RocksStore, current: int) -> CaseIndex | None:
    index_dir = store.case_dir / INDEX_DIR
    try:
        index = open_files(index_dir, store.case_dir.name, current)
    except IndexDamaged as exc:
        log.warning("The search index files of case %s are damaged (%s); rebuilding them from the case store.",
                    store.case_dir.name, exc)
        return None
    if index is None:
        return None
    found = changes.since(db, index.generation, current)
    if found is None:
        log.info("The search index files of case %s are from generation %d, the store is at %d and its change "
                 "log does not reach back: rebuilding.", store.case_dir.name, index.generation, current)
        return None
    index.apply(found, db)
    stored = _stored_chunk_count(db)
    if stored is not None and stored + index.stats_drift != index.chunk_count:
        log.warning("The search index of case %s holds %d chunks, its store %d: rebuilding.", store.case_dir.name,
                    index.chunk_count, stored + index.stats_drift)
        return None
    return index


def open_files(index_dir: Path, case_id: str, current: int) -> CaseIndex | None:
    """The index as its files hold it (None when there are none, they belong to another case or are
    from a generation the store has not reached). Raises IndexDamaged.

    Another process may merge segments away between our reading the manifest and opening them; a file
    that is gone while the manifest naming it has been replaced is that, not damage: read the new one."""
    for attempt in range(1, OPEN_ATTEMPTS + 1):
        manifest = read_manifest(index_dir)
        if manifest is None or manifest.case_id != case_id or manifest.generation > current:
            return None
        try:
            return _opened(index_dir, manifest)
        except IndexDamaged:
            if attempt == OPEN_ATTEMPTS or _manifest_unchanged(index_dir, manifest):
                raise
            log.info("The search index of case %s was rewritten by another process while opening it: "
                     "reading its new manifest.", case_id)
    raise AssertionError("unreachable")


def _manifest_unchanged(index_dir: Path, manifest: Manifest) -> bool:
    try:
        return read_manifest(index_dir) == manifest
    except IndexDamaged:
        return True


def _opened(index_dir: Path, manifest: Manifest) -> CaseIndex:
    segments = [DiskSegment(read_segment(index_dir, entry.name, entry.rows), read_alive(index_dir, entry), entry.name)
                for entry in manifest.segments]
    index = CaseIndex(manifest.case_id, manifest.generation, segments, manifest=manifest,
                      stats_drift=manifest.stats_drift)
    if index.chunk_count != manifest.chunks:
        raise IndexDamaged(f"the manifest counts {manifest.chunks} chunks, its segments {index.chunk_count}")
    return index


def _stored_chunk_count(db: RocksStore) -> int | None:
    """The store's own chunk count, when it keeps one (a store written before statistics did not)."""
    return stats.read_stats(db).chunk_count if db.get(keys.METADATA, keys.CASE_STATS) is not None else None


def rebuild(store: CaseStore, db: RocksStore, progress: Progress) -> CaseIndex:
    """Build the index from every entry in the store, writing each segment as it is completed (when the
    writer lock can be had; otherwise, or when the folder is not writable, it stays in memory)."""
    case_id, index_dir = store.case_dir.name, store.case_dir / INDEX_DIR
    current = stats.generation(db)
    total = _stored_chunk_count(db) or 0
    lock = FileLock(index_dir / LOCK)
    deadline = time.monotonic() + REBUILD_LOCK_WAIT_S
    waited = False
    while not lock.acquire() and time.monotonic() < deadline:
        waited = True  # another process is writing: perhaps this very rebuild
        time.sleep(0.2)
    try:
        if waited and lock.held:
            reopened = _open_current(store, db, current)
            if reopened is not None:
                return reopened
        log.info("Rebuilding the search index of case %s from its store (%d chunks)", case_id, total)
        progress(0, total)
        segments = _build_segments(store, db, lock.held, total, progress)
        index = CaseIndex(case_id, current, segments, source="rebuilt")
        index.stats_drift = index.chunk_count - total if _stored_chunk_count(db) is not None else 0
        if lock.held:
            _write_manifest(index, store)
        return index
    finally:
        lock.release()


def _build_segments(store: CaseStore, db: RocksStore, write: bool, total: int,
                    progress: Progress) -> list[DiskSegment]:
    index_dir = store.case_dir / INDEX_DIR
    segments: list[DiskSegment] = []
    builder = SegmentBuilder(DIMS)

    def close() -> None:
        nonlocal builder
        segments.append(_written(DiskSegment(builder.build()), index_dir, stats.generation(db), write))
        builder = SegmentBuilder(DIMS)

    entries = all_entries(db, DENSE_MODELS, SPARSE_MODELS, docstore.chunk_document_ids(db))
    for done, entry in enumerate(entries, start=1):
        builder.add(entry)
        if len(builder) == SEGMENT_ROWS:
            close()
        if done % PROGRESS_EVERY == 0:
            progress(done, max(total, done))
            log.info("Rebuilding the search index of case %s: %d of %d chunks", store.case_dir.name, done, total)
    if len(builder):
        close()
    return segments


def _written(part: DiskSegment, index_dir: Path, generation: int, write: bool) -> DiskSegment:
    """The segment written to disk and reopened as memory maps (so its arrays leave the heap), or as it
    was when it cannot be written."""
    if not write:
        return part
    try:
        name = write_segment(index_dir, part.segment, generation)
        return DiskSegment(read_segment(index_dir, name, part.segment.rows), part.alive, name)
    except (OSError, IndexDamaged) as exc:
        log.warning("Could not write a search index segment in %s: %s", index_dir, exc)
        return part


def persist_if_due(index: CaseIndex, store: CaseStore) -> None:
    """Write what only memory holds once there is enough of it (see the module docstring)."""
    behind = index.generation - (index.manifest.generation if index.manifest else 0)
    unwritten = any(part.name is None for part in index.segments)
    if index.pending_rows >= FLUSH_ROWS or behind >= FLUSH_GENERATIONS or unwritten:
        persist(index, store)


def persist(index: CaseIndex, store: CaseStore) -> bool:
    """Write pending chunks as a segment, merge, and write the manifest; False when another process
    holds the writer lock or has moved the files on (then this copy reopens them at its next use)."""
    index_dir = store.case_dir / INDEX_DIR
    lock = FileLock(index_dir / LOCK)
    if not lock.acquire():
        return False
    try:
        with index.lock:
            try:
                on_disk: Manifest | None = read_manifest(index_dir)
            except IndexDamaged:
                on_disk = None
            if on_disk is not None and on_disk != index.manifest and (on_disk.generation >= index.generation or any(
                    p.name and not (index_dir / p.name).is_dir() for p in index.segments)):
                index.stale_files = True  # another process moved the files on: reopen them at the next use
                return False
            generation = index.generation
            if index.pending:
                index.segments.append(DiskSegment(pending_segment(index.pending)))
                index.pending = {}
            index.segments = [_written(p, index_dir, generation, True) if p.name is None else p
                              for p in index.segments]
            _merge_due(index, index_dir)
            index._views = None
            _write_manifest(index, store)
            return True
    except OSError as exc:
        log.warning("Could not write the search index of case %s: %s", store.case_dir.name, exc)
        return False
    finally:
        lock.release()


def _merge_due(index: CaseIndex, index_dir: Path) -> None:
    """Merge small segments, and rewrite those with many deleted rows, in groups of at most SEGMENT_ROWS."""
    small = [p for p in index.segments if p.segment.rows < SMALL_ROWS]
    heavy = [p for p in index.segments if p.dead_rows > DEAD_SHARE * p.segment.rows]
    chosen = [p for p in index.segments if (p in heavy or (len(small) >= MERGE_SMALL and p in small))]
    if not chosen:
        return
    groups: list[list[DiskSegment]] = [[]]
    for part in sorted(chosen, key=lambda p: p.segment.rows - p.dead_rows):
        if groups[-1] and sum(p.segment.rows - p.dead_rows for p in groups[-1]) + part.segment.rows > SEGMENT_ROWS:
            groups.append([])
        groups[-1].append(part)
    for group in groups:
        if len(group) == 1 and group[0].dead_rows == 0:
            continue
        merged = _written(DiskSegment(merge([(p.segment, p.alive) for p in group])), index_dir, index.generation,
                          True)
        first = min(index.segments.index(p) for p in group)
        kept = [p for p in index.segments if all(p is not g for g in group)]
        kept.insert(min(first, len(kept)), merged)
        index.segments = kept


def _write_manifest(index: CaseIndex, store: CaseStore) -> None:
    index_dir = store.case_dir / INDEX_DIR
    if any(p.name is None for p in index.segments):
        return  # a segment could not be written: the old manifest stays, and the store is caught up from it
    entries = [(p.name or "", p.segment.rows, p.alive) for p in index.segments]
    live = sum(p.segment.rows - p.dead_rows for p in index.segments)
    index.manifest = write_manifest(index_dir, index.case_id, index.generation, live, entries, index.stats_drift)
    index.stale_files = False
    removed = remove_unused(index_dir, index.manifest)
    if removed:
        log.info("Search index of case %s: removed %d unused files", index.case_id, len(removed))


def discard_files(store: CaseStore) -> None:
    """Make the index files unusable (their manifest removed), so the next open rebuilds them."""
    index_dir = store.case_dir / INDEX_DIR
    with contextlib.suppress(OSError):
        remove_tree(index_dir, index_dir / MANIFEST, "remove a damaged search-index manifest")
