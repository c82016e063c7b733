"""The in-memory search indexes of each open case: BM25 postings, one contiguous float32
matrix per dense embedder, SPLADE postings. Built once from the store when a case is
first searched, then updated in place by this process's own commits. A `generation`
counter in the case store, bumped by every commit, tells when another process changed
the case, in which case the indexes are rebuilt before the next search."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from casetrack.embed import MODELS, Kind
from casetrack.embed.specs import by_priority
from casetrack.index.bm25 import Bm25Index, index_state_from_entries
from casetrack.index.dense import DenseIndex
from casetrack.index.sparse import SparseIndex, SparseVector
from casetrack.search.pipeline import SearchIndexes, signal
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.rocks import RocksStore
from casetrack.store.stats import generation
from casetrack.store.vectors import VectorValue

log = logging.getLogger(__name__)

# Dense vectors in order of preference, for similarity (search_similar_chunks, related documents).
DENSE_ORDER = tuple(signal(m.id) for m in by_priority(MODELS.values()))
DENSE_KINDS = (Kind.DENSE_CLS, Kind.DENSE_MEAN)


@dataclass
class CaseIndex:
    generation: int
    bm25: Bm25Index
    dense: dict[str, DenseIndex]
    sparse: dict[str, SparseIndex]
    doc_of: dict[str, str]
    chunks_of: dict[str, set[str]]
    built_in_s: float = 0.0
    lock: threading.RLock = field(default_factory=threading.RLock)

    @property
    def indexes(self) -> SearchIndexes:
        return SearchIndexes(bm25=self.bm25, dense=self.dense, sparse=self.sparse)

    @property
    def chunk_count(self) -> int:
        return len(self.doc_of)

    def add(self, doc_id: str, terms: dict[str, dict[str, int]],
            vectors: dict[str, dict[str, VectorValue]]) -> None:
        for chunk_id, counts in terms.items():
            self.bm25.add_counts(chunk_id, counts)
            self.doc_of[chunk_id] = doc_id
        self.chunks_of.setdefault(doc_id, set()).update(terms)
        for model_id, by_chunk in vectors.items():
            _add_vectors(self, model_id, list(by_chunk), list(by_chunk.values()))

    def remove(self, chunk_ids: Iterable[str]) -> None:
        ids = list(chunk_ids)
        for chunk_id in ids:
            self.bm25.remove(chunk_id)
            doc_id = self.doc_of.pop(chunk_id, None)
            if doc_id is not None:
                self.chunks_of.get(doc_id, set()).discard(chunk_id)
                if not self.chunks_of.get(doc_id):
                    self.chunks_of.pop(doc_id, None)
        for dense in self.dense.values():
            dense.remove(ids)
        for sparse in self.sparse.values():
            sparse.remove(ids)


def _add_vectors(index: CaseIndex, model_id: str, chunk_ids: Sequence[str], values: Sequence[VectorValue]) -> None:
    spec = MODELS.get(model_id)
    if spec is None or not chunk_ids:
        return
    name = signal(model_id)
    if spec.kind in DENSE_KINDS:
        dense = index.dense.setdefault(name, DenseIndex(spec.dim))
        dense.add(list(chunk_ids), np.stack([np.asarray(v, np.float32) for v in values]))
    elif spec.kind is Kind.SPARSE:
        sparse = index.sparse.setdefault(name, SparseIndex())
        sparse.add(list(chunk_ids), [SparseVector(np.asarray(v[0]), np.asarray(v[1])) for v in values])
    # ColBERT token matrices stay on disk; the reranker loads the few it needs.


def build(store: CaseStore) -> CaseIndex:
    """Read a case's index entries from its store into memory."""
    with store.reader() as db:
        return build_from(db, store.case_dir.name)


def build_from(db: RocksStore, label: str = "") -> CaseIndex:
    """Read a case's index entries from an open store into memory."""
    started = time.perf_counter()
    gen = generation(db)
    doc_of = docstore.chunk_document_ids(db)
    bm25 = index_state_from_entries(docstore.all_terms(db))
    index = CaseIndex(gen, bm25, {}, {}, doc_of, {})
    for chunk_id, doc_id in doc_of.items():
        index.chunks_of.setdefault(doc_id, set()).add(chunk_id)
    for model_id, spec in MODELS.items():
        if spec.kind is Kind.COLBERT:
            continue
        chunk_ids, values = [], []
        for chunk_id, value in docstore.vectors(db, model_id):
            chunk_ids.append(chunk_id)
            values.append(value)
        _add_vectors(index, model_id, chunk_ids, values)
    index.built_in_s = time.perf_counter() - started
    log.info("Opened search index of %s: %d chunks in %.0f ms", label, index.chunk_count, index.built_in_s * 1000)
    return index


# Cases whose indexes stay in memory. A 20,000-chunk case holds ~30 MB of vectors per dense
# embedder plus its postings; a user moving between cases on an 8 GB laptop should not keep
# every case they ever opened. The least recently searched one goes first; it is rebuilt from
# its store (seconds) if searched again.
KEPT_CASES = 3


class IndexCache:
    """One CaseIndex per case, thread-safe, rebuilt when the store's generation moves on; at most
    KEPT_CASES cases are kept, the least recently used dropped first."""

    def __init__(self, kept: int = KEPT_CASES) -> None:
        self._kept = kept
        self._indexes: dict[str, CaseIndex] = {}  # in order of use, most recent last
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}

    def get(self, case_id: str, store: CaseStore, db: RocksStore | None = None) -> CaseIndex:
        """The case's index, rebuilt first if the store moved on. With `db` (an open reader of
        that store) no other read session is opened: a search needs exactly one."""
        if db is None:
            with store.reader() as opened:
                return self.get(case_id, store, opened)
        current = generation(db)
        cached = self._indexes.get(case_id)
        if cached is not None and cached.generation == current:
            self._touch(case_id, cached)
            return cached
        with self._lock:
            build_lock = self._building.setdefault(case_id, threading.Lock())
        with build_lock:  # one build per case at a time; others wait and reuse it
            cached = self._indexes.get(case_id)
            if cached is not None and cached.generation >= current:
                return cached
            fresh = build_from(db, store.case_dir.name)
            self._touch(case_id, fresh)
            return fresh

    def _touch(self, case_id: str, index: CaseIndex) -> None:
        """Mark the case most recently used; drop the least recently used beyond the bound."""
        with self._lock:
            self._indexes.pop(case_id, None)
            self._indexes[case_id] = index
            while len(self._indexes) > self._kept:
                self._indexes.pop(next(iter(self._indexes)))

    def peek(self, case_id: str) -> CaseIndex | None:
        return self._indexes.get(case_id)

    def applied(self, case_id: str, before: int, after: int, doc_id: str | None,
                terms: dict[str, dict[str, int]], vectors: dict[str, dict[str, VectorValue]],
                removed: Sequence[str]) -> None:
        """Apply this process's own commit incrementally; anything else forces a rebuild."""
        index = self._indexes.get(case_id)
        if index is None:
            return
        with index.lock:
            if index.generation != before:
                self._indexes.pop(case_id, None)
                return
            index.remove(removed)
            if doc_id is not None:
                index.add(doc_id, terms, vectors)
            index.generation = after

    def forget(self, case_id: str) -> None:
        self._indexes.pop(case_id, None)
