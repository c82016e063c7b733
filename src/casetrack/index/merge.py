"""Merging segments: one new segment holding the live rows of several, rows re-sorted by chunk
id, deleted rows dropped. Array work throughout; the only per-item Python is the union of
the vocabularies. Vectors are copied as stored (already normalised) and re-quantised with
the merged segment's own scales."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from casetrack.index.segment import Csr, DensePart, LexicalPart, Segment, Vocabulary, dense_part

Part = tuple[Segment, np.ndarray | None]  # a segment and its live rows (None: all alive)


def merge(parts: Sequence[Part]) -> Segment:
    """One segment of the live rows of `parts`. ValueError when a chunk id is live in two of them."""
    lives = [np.arange(s.rows) if alive is None else np.flatnonzero(alive) for s, alive in parts]
    ids = np.concatenate([s.chunk_ids[live] for (s, _), live in zip(parts, lives, strict=True)]) if parts else \
        np.empty(0, dtype="S1")
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    if ids.size > 1 and bool((ids[1:] == ids[:-1]).any()):
        raise ValueError("a chunk is live in two of the segments merged")
    new_row = np.empty(order.size, dtype=np.int64)
    new_row[order] = np.arange(order.size)
    maps, start = [], 0
    for (segment, _), live in zip(parts, lives, strict=True):
        row_map = np.full(segment.rows, -1, dtype=np.int64)
        row_map[live] = new_row[start:start + live.size]
        maps.append(row_map)
        start += live.size
    docs_of_rows = np.concatenate([s.doc_ids[s.chunk_doc[live]] for (s, _), live in zip(parts, lives, strict=True)]) \
        if parts else np.empty(0, dtype="S1")
    doc_ids, chunk_doc = np.unique(docs_of_rows[order], return_inverse=True) if ids.size else \
        (np.empty(0, dtype="S1"), np.empty(0, dtype=np.int64))
    doc_indptr = np.zeros(doc_ids.shape[0] + 1, dtype=np.int64)
    np.cumsum(np.bincount(chunk_doc, minlength=doc_ids.shape[0]), out=doc_indptr[1:])
    doc_rows = np.argsort(chunk_doc, kind="stable").astype(np.int32)
    segments = [s for s, _ in parts]
    places = np.concatenate([s.order_of(live) for (s, _), live in zip(parts, lives, strict=True)]) if parts else \
        np.empty(0, dtype=np.uint64)
    return Segment(ids, doc_ids, chunk_doc.astype(np.int32), doc_indptr, doc_rows,
                   _lexical(segments, maps, ids.size), _dense(segments, maps), _sparse(segments, maps),
                   places[order].astype(np.uint64))


def _lexical(segments: Sequence[Segment], maps: Sequence[np.ndarray], rows: int) -> LexicalPart:
    vocabularies = [s.lexical.vocabulary.terms() for s in segments]
    words = sorted(set().union(*vocabularies))
    word_id = {w: i for i, w in enumerate(words)}
    terms, new_rows, values = [], [], []
    lengths = np.zeros(rows, dtype=np.float32)
    for segment, row_map, vocabulary in zip(segments, maps, vocabularies, strict=True):
        remap = np.fromiter((word_id[w] for w in vocabulary), np.int32, len(vocabulary))
        t, r, v = _live_triplets(segment.lexical.postings, row_map)
        terms.append(remap[t])
        new_rows.append(r)
        values.append(v)
        live = row_map >= 0
        lengths[row_map[live]] = segment.lexical.lengths[live]
    return LexicalPart(Vocabulary.of(words), _csr(terms, new_rows, values, len(words)), lengths)


def _sparse(segments: Sequence[Segment], maps: Sequence[np.ndarray]) -> dict[str, Csr]:
    out = {}
    for name in sorted({n for s in segments for n in s.sparse}):
        terms, new_rows, values, n_terms = [], [], [], 0
        for segment, row_map in zip(segments, maps, strict=True):
            csr = segment.sparse.get(name)
            if csr is None:
                continue
            t, r, v = _live_triplets(csr, row_map)
            terms.append(t)
            new_rows.append(r)
            values.append(v)
            n_terms = max(n_terms, csr.indptr.shape[0] - 1)
        out[name] = _csr(terms, new_rows, values, n_terms)
    return out


def _dense(segments: Sequence[Segment], maps: Sequence[np.ndarray]) -> dict[str, DensePart]:
    out = {}
    for name in sorted({n for s in segments for n in s.dense}):
        rows, vectors = [], []
        for segment, row_map in zip(segments, maps, strict=True):
            part = segment.dense.get(name)
            if part is None:
                continue
            mapped = row_map[np.asarray(part.rows, dtype=np.int64)]
            keep = np.flatnonzero(mapped >= 0)
            rows.append(mapped[keep])
            vectors.append(part.floats.take(keep))
        all_rows = np.concatenate(rows)
        if all_rows.size == 0:
            continue
        order = np.argsort(all_rows, kind="stable")
        out[name] = dense_part(all_rows[order].astype(np.int32), np.concatenate(vectors)[order], normalised=True)
    return out


def _live_triplets(csr: Csr, row_map: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(term, new row, value) of every posting of a live row."""
    n_terms = csr.indptr.shape[0] - 1
    terms = np.repeat(np.arange(n_terms, dtype=np.int32), np.diff(np.asarray(csr.indptr)))
    new_rows = row_map[np.asarray(csr.rows, dtype=np.int64)]
    keep = new_rows >= 0
    return terms[keep], new_rows[keep], np.asarray(csr.values)[keep]


def _csr(terms: list[np.ndarray], rows: list[np.ndarray], values: list[np.ndarray], n_terms: int) -> Csr:
    if not terms:
        return Csr(np.zeros(n_terms + 1, dtype=np.int64), np.empty(0, np.int32), np.empty(0, np.float32))
    t, r, v = np.concatenate(terms), np.concatenate(rows), np.concatenate(values)
    by_row = np.argsort(r, kind="stable")  # Csr.build keeps this order within each term
    return Csr.build(t[by_row], r[by_row], v[by_row], n_terms)
