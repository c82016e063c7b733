"""Synthetic documents written straight through a case store (as benchmarks/search.py does), for tests
of the search index at sizes real ingestion would take minutes to reach, and answers to compare two
indexes of one case by."""

from __future__ import annotations

import time
import uuid
from collections import Counter

import numpy as np

from casetrack.domain import Case, ChunkSpan, Document, DocumentType, ExtractionMethod, StoredPage
from casetrack.service.app import CaseTrack
from casetrack.service.search.case_index import CaseIndex
from casetrack.store import documents as docstore
from casetrack.store import stats

WORDS = [f"{stem}{n}" for stem in ("lease", "rent", "party", "term", "notice", "breach", "court", "deed")
         for n in range(40)]
QUERIES = [["lease3", "rent7"], ["notice1", "breach0", "breach0"], ["deed39"], ["court5", "party2", "term11"]]


def write_documents(app: CaseTrack, case: Case, count: int, chunks_per_doc: int = 20, seed: int = 0) -> list[str]:
    """Write `count` documents of random words and random E7 vectors; returns their ids."""
    rng = np.random.default_rng(seed)
    store = app.cases.store(case)
    ids = []
    p = 1.0 / np.arange(1, len(WORDS) + 1)
    p /= p.sum()
    for _ in range(count):
        doc_id = str(uuid.uuid4())
        chunks, terms, vectors, texts = [], {}, {}, []
        for s in range(chunks_per_doc):
            words = [WORDS[i] for i in rng.choice(len(WORDS), size=int(rng.integers(5, 40)), p=p).tolist()]
            text = " ".join(words)
            start = sum(len(t) + 2 for t in texts)
            texts.append(text)
            chunk_id = str(uuid.uuid4())
            chunks.append((chunk_id, ChunkSpan(s, 1, start, start + len(text), text, s + 1, s + 1, 0, 0, len(words))))
            terms[chunk_id] = dict(Counter(words))
            vectors[chunk_id] = rng.standard_normal(384).astype(np.float32)
        doc = Document(id=doc_id, name=f"synthetic-{doc_id[:8]}.txt", original_path=None, file_hash=uuid.uuid4().hex,
                       file_size=0, file_mtime=0.0, format="txt", document_type=DocumentType.OTHER,
                       type_confidence=1.0, type_source="user", page_count=1, chunk_count=chunks_per_doc,
                       ocr_pages=0, skipped_pages=0, ocr_confidence=None, ingested_at=time.time(),
                       embedded_at=time.time(), embedders=("E7", "E13"))
        write = docstore.DocumentWrite(document=doc, pages=[StoredPage(1, "\n\n".join(texts), ExtractionMethod.NATIVE)],
                                       chunks=chunks, terms=terms, vectors={"E7": vectors})
        with store.writer("test") as db:
            batch = db.batch()
            docstore.put_document(batch, write)
            stats.put_stats(batch, stats.adjusted_stats(db, doc, None))
            stats.bump_generation(db, batch, doc_id, [])
            db.write(batch)
        ids.append(doc_id)
    return ids


def delete_documents(app: CaseTrack, case: Case, doc_ids: list[str]) -> None:
    for doc_id in doc_ids:
        doc = app.documents.resolve(case, doc_id)
        app.ingestor.delete(case, doc)


def consistent(app: CaseTrack, case: Case) -> bool:
    """Whether the index a search would use now holds exactly the chunks of the store's current generation."""
    store = app.cases.store(case)
    with store.reader() as db:
        index = app.search.cache.get(case.id, store, db)
        return index.generation == stats.generation(db) and index.chunk_count == stats.read_stats(db).chunk_count


def answers(index: CaseIndex) -> dict[str, object]:
    """What searches can see of an index: its chunks, and every chunk's BM25 and E7 score for fixed queries."""
    keys_ = sorted(str(k) for k in index.views.space.chunk_ids())
    query = np.random.default_rng(99).standard_normal(384).astype(np.float32)
    out: dict[str, object] = {"chunks": keys_, "documents": index.document_count,
                              "e7": _listed(index.dense["e7"].score_keys(query, keys_)) if "e7" in index.dense else []}
    for tokens in QUERIES:
        out[" ".join(tokens)] = _listed(index.bm25.score_keys(tokens, keys_))
    return out


def _listed(scores: np.ndarray) -> list[float | None]:
    return [None if np.isnan(s) else s for s in scores.tolist()]


def same(a: dict[str, object], b: dict[str, object]) -> bool:
    """Two indexes' answers agree: the same chunks and BM25 scores exactly; E7 cosines to float32 rounding
    (BLAS sums a matrix-vector product in an order that depends on the matrix's shape, which differs
    between one segment and several)."""
    e7a, e7b = a["e7"], b["e7"]
    assert isinstance(e7a, list) and isinstance(e7b, list)
    close = len(e7a) == len(e7b) and all(
        (x is None and y is None) or (x is not None and y is not None and abs(x - y) <= 1e-6)
        for x, y in zip(e7a, e7b, strict=True))
    return close and {k: v for k, v in a.items() if k != "e7"} == {k: v for k, v in b.items() if k != "e7"}
