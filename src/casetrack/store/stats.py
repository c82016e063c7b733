"""A case store's running totals and its generation: both live in the `metadata` family and
change in the same WriteBatch as the documents they count, so they never disagree after a crash."""

from __future__ import annotations

from collections.abc import Sequence

from casetrack.domain import CaseStats, Document
from casetrack.store import changes, keys
from casetrack.store.records import decode_u64, dumps, encode_u64, loads
from casetrack.store.rocks import Batch, RocksStore


def read_stats(db: RocksStore) -> CaseStats:
    raw = db.get(keys.METADATA, keys.CASE_STATS)
    if raw is None:
        return CaseStats()
    r = loads(raw)
    return CaseStats(document_count=int(r.get("document_count", 0)), page_count=int(r.get("page_count", 0)),
                     chunk_count=int(r.get("chunk_count", 0)))


def adjusted_stats(db: RocksStore, added: Document | None, removed: Document | None) -> CaseStats:
    """The totals once `added` is in and `removed` is out (either may be None)."""
    stats = read_stats(db)
    docs, pages, chunks = stats.document_count, stats.page_count, stats.chunk_count
    if added is not None:
        docs, pages, chunks = docs + 1, pages + added.page_count, chunks + added.chunk_count
    if removed is not None:
        docs, pages, chunks = docs - 1, pages - removed.page_count, chunks - removed.chunk_count
    return CaseStats(document_count=max(docs, 0), page_count=max(pages, 0), chunk_count=max(chunks, 0))


def put_stats(batch: Batch, stats: CaseStats) -> None:
    batch.put(keys.METADATA, keys.CASE_STATS, dumps({
        "document_count": stats.document_count, "page_count": stats.page_count, "chunk_count": stats.chunk_count}))


def generation(db: RocksStore) -> int:
    """How many commits changed the case's searchable content; another process's commit moves it."""
    return decode_u64(db.get(keys.METADATA, keys.GENERATION)) or 0


def bump_generation(db: RocksStore, batch: Batch, document_id: str | None, removed: Sequence[str]) -> int:
    """Queue generation + 1 in `batch`, with what the commit changed (the document it writes, the chunks it
    removes: store/changes.py, for search indexes to catch up); returns the generation before it."""
    before = generation(db)
    batch.put(keys.METADATA, keys.GENERATION, encode_u64(before + 1))
    changes.record(batch, before + 1, document_id, removed)
    return before
