"""One case's search index in memory: the segments opened from its index files (memory maps)
with their live rows, and the chunks committed since, held as entries until they are written
as a segment of their own (`service/search/index_sync.py`)."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from casetrack.embed import MODELS, Kind
from casetrack.embed.specs import by_priority
from casetrack.index.segment import ChunkEntry, Segment, SegmentBuilder, encode_keys
from casetrack.index.segment_set import SegmentSet
from casetrack.index.segmented import SegmentedBm25, SegmentedDense, SegmentedIndexes, SegmentedSparse
from casetrack.search.pipeline import SearchIndexes, signal
from casetrack.store import changes, stats
from casetrack.store.rocks import RocksStore
from casetrack.store.search_index.entries import document_entries
from casetrack.store.search_index.manifest import Manifest

# Dense vectors in order of preference, for similarity (search_similar_chunks, related documents).
DENSE_ORDER = tuple(signal(m.id) for m in by_priority(MODELS.values()))
DENSE_KINDS = (Kind.DENSE_CLS, Kind.DENSE_MEAN)
DENSE_MODELS = tuple(m for m, spec in MODELS.items() if spec.kind in DENSE_KINDS)
SPARSE_MODELS = tuple(m for m, spec in MODELS.items() if spec.kind is Kind.SPARSE)
DIMS = {m.lower(): MODELS[m].dim for m in DENSE_MODELS}


def generation(db: RocksStore) -> int:
    return stats.generation(db)


@dataclass(slots=True, eq=False)
class DiskSegment:
    """A segment of the index and its live rows; `name` is its folder, None while only in memory."""

    segment: Segment
    alive: np.ndarray | None = None
    name: str | None = None

    @property
    def dead_rows(self) -> int:
        return 0 if self.alive is None else int(self.segment.rows - self.alive.sum())


@dataclass
class CaseIndex:
    case_id: str
    generation: int
    segments: list[DiskSegment]
    pending: dict[str, ChunkEntry] = field(default_factory=dict)  # chunk id -> entry not in any segment yet
    manifest: Manifest | None = None  # the manifest on disk this index was opened from or last wrote
    built_in_s: float = 0.0
    source: str = "files"  # files | rebuilt
    stale_files: bool = False  # another process rewrote the files under this copy: reopen at the next use
    # chunks indexed minus the count the store's statistics keep, as found at the last rebuild: a store
    # whose statistics drifted (a crash in an old version) is not rebuilt at every open for it
    stats_drift: int = 0
    lock: threading.RLock = field(default_factory=threading.RLock)
    _views: SegmentedIndexes | None = None
    _documents: int | None = None

    # --- what searches read ---------------------------------------------------------------------

    @property
    def views(self) -> SegmentedIndexes:
        with self.lock:
            if self._views is None:
                parts = [*self.segments, *([DiskSegment(pending_segment(self.pending))] if self.pending else [])]
                self._views = SegmentedIndexes.over(SegmentSet([p.segment for p in parts], [p.alive for p in parts]))
                self._documents = None
            return self._views

    @property
    def indexes(self) -> SearchIndexes:
        views = self.views
        return SearchIndexes(bm25=views.bm25, dense=views.dense, sparse=views.sparse)

    @property
    def bm25(self) -> SegmentedBm25:
        return self.views.bm25

    @property
    def dense(self) -> dict[str, SegmentedDense]:
        return self.views.dense

    @property
    def sparse(self) -> dict[str, SegmentedSparse]:
        return self.views.sparse

    @property
    def chunk_count(self) -> int:
        return len(self.views.space)

    @property
    def document_count(self) -> int:
        views = self.views
        with self.lock:
            if self._documents is None:
                self._documents = views.space.document_count()
            return self._documents

    def chunks_of_document(self, doc_id: str) -> list[str]:
        space = self.views.space
        return [str(k) for k in space.keys_at(space.document_rows(doc_id))]

    def documents_holding(self, token: str) -> int:
        return self.views.bm25.documents_holding(token)

    @property
    def chunks_of(self) -> dict[str, list[str]]:
        """Every document's live chunk ids (built on demand: O(chunks), for the document-level tools)."""
        return self.views.space.documents()

    @property
    def doc_of(self) -> dict[str, str]:
        return {c: d for d, chunk_ids in self.chunks_of.items() for c in chunk_ids}

    @property
    def pending_rows(self) -> int:
        return len(self.pending)

    # --- keeping it current ---------------------------------------------------------------------

    def apply(self, found: Sequence[changes.Change], db: RocksStore) -> None:
        """Bring the index to the last of `found` (consecutive changes after its generation), reading
        the documents they wrote from `db`, a read session at that generation or later."""
        if not found:
            return
        removed: set[str] = set()
        written: dict[str, None] = {}
        for change in found:
            removed.update(change.removed)
            if change.document_id is not None:
                written[change.document_id] = None
        entries = [e for doc_id in written for e in document_entries(db, doc_id, DENSE_MODELS, SPARSE_MODELS)]
        with self.lock:
            self.remove(removed | {e.chunk_id for e in entries})
            for entry in entries:
                self.pending[entry.chunk_id] = entry
            self.generation = found[-1].generation
            self._views = None

    def remove(self, chunk_ids: Iterable[str]) -> None:
        ids = [c for c in chunk_ids if self.pending.pop(c, None) is None]
        if not ids:
            self._views = None
            return
        encoded = encode_keys(ids)
        for part in self.segments:
            rows = part.segment.rows_of(encoded)
            rows = rows[rows >= 0]
            if rows.size == 0:
                continue
            alive = np.ones(part.segment.rows, dtype=bool) if part.alive is None else part.alive.copy()
            alive[rows] = False
            part.alive = alive
        self._views = None


def pending_segment(pending: dict[str, ChunkEntry]) -> Segment:
    builder = SegmentBuilder(DIMS)
    for chunk_id in sorted(pending, key=str.encode):
        builder.add(pending[chunk_id])
    return builder.build()
