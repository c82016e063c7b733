"""One immutable slice of a case's search index, as plain numpy arrays.

A segment holds a set of chunks, its rows sorted by chunk id, and for them:
  * BM25 postings as CSR over a sorted vocabulary: `indptr[t]:indptr[t+1]` slices `rows`
    (ascending) and raw term frequencies; per-row lengths. Raw tf, not bm25s's precomputed
    scores: N, df and avgdl are the whole case's and change with every commit, so a score
    is computed at query time from tf exactly as `index.bm25` does;
  * SPLADE postings likewise, over integer token ids;
  * per dense embedder: the rows holding a vector, those vectors L2-normalised in float32
    (a `RowSource`, which may read them from disk) and as int8 codes with one scale per
    dimension, which a large segment scans instead of the floats (`index.quantized`).

Every array may be a read-only memory map: a segment never changes once built. Deleting a
chunk marks its row dead in a bitmap kept beside the segment (`index.segmented`).
Which terms a chunk has is the caller's business (`Indexer`): the format stores strings.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Protocol

import numpy as np

from casetrack.index.dense import l2_normalize


class RowSource(Protocol):
    """Float32 vectors by position: in memory, or read from a file on demand."""

    def __len__(self) -> int: ...

    def take(self, positions: np.ndarray) -> np.ndarray:
        """Rows at `positions` (any order), shape (len(positions), dim)."""
        ...

    def all(self) -> np.ndarray:
        """Every row (may be a memory map)."""
        ...


@dataclass(frozen=True, slots=True)
class ArrayRows:
    matrix: np.ndarray

    def __len__(self) -> int:
        return int(self.matrix.shape[0])

    def take(self, positions: np.ndarray) -> np.ndarray:
        return np.asarray(self.matrix[np.asarray(positions, dtype=np.int64)], dtype=np.float32)

    def all(self) -> np.ndarray:
        return self.matrix


@dataclass(frozen=True)  # no slots: `_searchable` is cached on the instance
class Vocabulary:
    """Sorted distinct strings as one UTF-8 blob plus offsets; found by binary search (bytes
    order is code-point order), so opening a segment builds no dictionary."""

    blob: np.ndarray  # uint8
    offsets: np.ndarray  # int64, len(terms) + 1

    @classmethod
    def of(cls, terms: Sequence[str]) -> Vocabulary:
        """From strings already in sorted order."""
        encoded = [t.encode() for t in terms]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(e) for e in encoded], out=offsets[1:])
        return cls(np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets)

    def __len__(self) -> int:
        return int(self.offsets.shape[0]) - 1

    def term(self, i: int) -> str:
        start, end = int(self.offsets[i]), int(self.offsets[i + 1])
        return bytes(self.blob[start:end]).decode()

    def terms(self) -> list[str]:
        data = bytes(self.blob)
        bounds = self.offsets.tolist()
        return [data[bounds[i]:bounds[i + 1]].decode() for i in range(len(bounds) - 1)]

    def find(self, term: str) -> int:
        """The id of `term`, or -1."""
        key = term.encode()
        blob, offsets = self._searchable
        n = offsets.shape[0] - 1
        lo, hi = 0, n
        while lo < hi:
            mid = (lo + hi) // 2
            if blob[offsets[mid]:offsets[mid + 1]] < key:
                lo = mid + 1
            else:
                hi = mid
        if lo < n and blob[offsets[lo]:offsets[lo + 1]] == key:
            return lo
        return -1

    @cached_property
    def _searchable(self) -> tuple[bytes, np.ndarray]:
        """The blob as bytes and the offsets as a plain array, made once: slicing a memory map builds a
        new map object per slice (~5 us), and a binary search slices ~36 times."""
        return bytes(self.blob), np.asarray(self.offsets).view(np.ndarray)


@dataclass(frozen=True, slots=True)
class Csr:
    """term -> (rows ascending, values): `indptr[t]:indptr[t + 1]` slices both."""

    indptr: np.ndarray  # int64
    rows: np.ndarray  # int32
    values: np.ndarray  # float32

    def of(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        if not 0 <= term < self.indptr.shape[0] - 1:
            return _EMPTY_I, _EMPTY_F
        start, end = int(self.indptr[term]), int(self.indptr[term + 1])
        return self.rows[start:end], self.values[start:end]

    @classmethod
    def build(cls, terms: np.ndarray, rows: np.ndarray, values: np.ndarray, n_terms: int) -> Csr:
        """From parallel arrays given in row order (a stable sort keeps rows ascending per term)."""
        order = np.argsort(terms, kind="stable")
        counts = np.bincount(terms, minlength=n_terms) if terms.size else np.zeros(n_terms, dtype=np.int64)
        indptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(counts, out=indptr[1:])
        return cls(indptr, rows[order].astype(np.int32), values[order].astype(np.float32))


@dataclass(frozen=True, slots=True)
class LexicalPart:
    vocabulary: Vocabulary
    postings: Csr  # values: term frequency
    lengths: np.ndarray  # float32 per row: the chunk's token count


@dataclass(frozen=True, slots=True)
class DensePart:
    rows: np.ndarray  # int32, ascending: the segment rows that hold a vector of this embedder
    floats: RowSource  # L2-normalised float32, one per entry of `rows`
    codes: np.ndarray  # int8 (len(rows), dim)
    scale: np.ndarray  # float32 (dim,): code = round(value * scale)

    @property
    def dim(self) -> int:
        return int(self.scale.shape[0])


@dataclass(frozen=True, slots=True)
class Segment:
    chunk_ids: np.ndarray  # bytes (S), sorted, distinct: row i is chunk_ids[i]
    doc_ids: np.ndarray  # bytes (S), sorted, distinct
    chunk_doc: np.ndarray  # int32 per row: index into doc_ids
    doc_indptr: np.ndarray  # int64: rows of document d are doc_rows[doc_indptr[d]:doc_indptr[d + 1]]
    doc_rows: np.ndarray  # int32
    lexical: LexicalPart
    dense: Mapping[str, DensePart] = field(default_factory=dict)
    sparse: Mapping[str, Csr] = field(default_factory=dict)  # values: SPLADE weight
    # uint64 per row: the chunk's stable place (`stable_order`), by which equal scores rank; empty in a segment
    # written before it was kept (its rows rank after the others among equals, by row)
    order: np.ndarray = field(default_factory=lambda: np.empty(0, dtype=np.uint64))

    @property
    def rows(self) -> int:
        return int(self.chunk_ids.shape[0])

    def order_of(self, local: np.ndarray) -> np.ndarray:
        """The stable place of each of `local` rows (UNKNOWN_ORDER where the segment keeps none)."""
        if self.order.shape[0] != self.rows:
            return np.full(local.shape[0], UNKNOWN_ORDER, dtype=np.uint64)
        return np.asarray(self.order[local], dtype=np.uint64)

    def rows_of(self, encoded: np.ndarray) -> np.ndarray:
        """Rows of chunk ids given as a bytes array (-1 where absent), int64."""
        if self.rows == 0 or encoded.size == 0:
            return np.full(encoded.shape[0], -1, dtype=np.int64)
        pos = np.minimum(np.searchsorted(self.chunk_ids, encoded), self.rows - 1)
        return np.where(self.chunk_ids[pos] == encoded, pos, -1).astype(np.int64)

    def document_rows(self, doc_id: str) -> np.ndarray:
        if self.doc_ids.shape[0] == 0:
            return _EMPTY_I
        key = np.array([doc_id.encode()])
        d = int(np.searchsorted(self.doc_ids, key)[0])
        if d >= self.doc_ids.shape[0] or self.doc_ids[d] != key[0]:
            return _EMPTY_I
        return self.doc_rows[int(self.doc_indptr[d]):int(self.doc_indptr[d + 1])]

    def chunk_id(self, row: int) -> str:
        return bytes(self.chunk_ids[row]).decode()

    def document_id(self, row: int) -> str:
        return bytes(self.doc_ids[int(self.chunk_doc[row])]).decode()


# --- building ----------------------------------------------------------------------------------

SparseValue = tuple[np.ndarray, np.ndarray]  # (token ids, weights)


# Chunk ids are drawn at random at every ingest, so "ties by row" ranked the same document's equal-scoring passages
# differently each time it was ingested. Equal scores rank by this instead: the document (the first 40 bits of its
# content's SHA-256, the same at every ingest of the same file) and the passage's place in it.
UNKNOWN_ORDER = 2**64 - 1
_SEQUENCE_BITS = 24


def stable_order(file_hash: str, sequence: int) -> int:
    """A chunk's stable place: its document's (by the hex SHA-256 of its file), then its sequence in it."""
    try:
        document = int(file_hash[:10], 16) if len(file_hash) >= 10 else 2**40 - 1
    except ValueError:
        document = 2**40 - 1
    return (document << _SEQUENCE_BITS) | min(max(sequence, 0), 2**_SEQUENCE_BITS - 1)


@dataclass(slots=True)
class ChunkEntry:
    """What a segment holds for one chunk: its document, {term: tf} and its vectors by signal."""

    chunk_id: str
    doc_id: str
    terms: Mapping[str, int]
    dense: dict[str, np.ndarray] = field(default_factory=dict)
    sparse: dict[str, SparseValue] = field(default_factory=dict)
    order: int = UNKNOWN_ORDER  # its stable place (`stable_order`)



class SegmentBuilder:
    """Accumulates chunks given in ascending chunk-id order, then builds one Segment in a few
    vectorised passes (the vocabulary is the only per-term Python work)."""

    def __init__(self, dims: Mapping[str, int] | None = None) -> None:
        self._dims = dims  # when given, a dense vector of another size or with NaN is left out
        self._ids: list[bytes] = []
        self._docs: list[bytes] = []
        self._order: list[int] = []
        self._vocab: dict[str, int] = {}
        # flat, in chunk order: 4 bytes an entry (a list of ints would hold an object per term)
        self._term_ids = array("i")
        self._tfs = array("i")
        self._widths = array("q")
        self._dense: dict[str, tuple[list[int], list[np.ndarray]]] = {}
        self._sparse: dict[str, tuple[list[int], list[np.ndarray], list[np.ndarray]]] = {}

    def __len__(self) -> int:
        return len(self._ids)

    def add(self, entry: ChunkEntry) -> None:
        """Raises ValueError for a chunk id not above the previous one or a non-positive tf."""
        key = entry.chunk_id.encode()
        if self._ids and key <= self._ids[-1]:
            raise ValueError(f"chunks must come in ascending id order: {entry.chunk_id!r}")
        row = len(self._ids)
        intern, vocab = self._vocab.setdefault, self._vocab
        counts = entry.terms
        if counts and min(counts.values()) <= 0:
            raise ValueError(f"term frequencies of {entry.chunk_id!r} must be positive")
        known = list(map(vocab.get, counts))  # a C loop: most terms are known after the first chunks
        if None in known:
            self._term_ids.extend([intern(t, len(vocab)) for t in counts])
        else:
            self._term_ids.extend(known)  # type: ignore[arg-type]  # no None left
        self._tfs.extend(counts.values())
        self._widths.append(len(counts))
        self._ids.append(key)
        self._docs.append(entry.doc_id.encode())
        self._order.append(entry.order)
        for name, vector in entry.dense.items():
            flat = np.asarray(vector, dtype=np.float32).reshape(-1)
            if self._dims is not None and (flat.size != self._dims.get(name) or not np.isfinite(flat).all()):
                continue
            rows, vectors = self._dense.setdefault(name, ([], []))
            rows.append(row)
            vectors.append(flat)
        for name, (ids, weights) in entry.sparse.items():
            s_rows, s_ids, s_weights = self._sparse.setdefault(name, ([], [], []))
            s_rows.append(row)
            s_ids.append(np.asarray(ids, dtype=np.int64).reshape(-1))
            s_weights.append(np.asarray(weights, dtype=np.float32).reshape(-1))

    def build(self) -> Segment:
        chunk_ids = np.array(self._ids, dtype=_bytes_dtype(self._ids))
        docs, chunk_doc = _documents(self._docs)
        order = np.argsort(chunk_doc, kind="stable")
        doc_indptr = np.zeros(docs.shape[0] + 1, dtype=np.int64)
        np.cumsum(np.bincount(chunk_doc, minlength=docs.shape[0]), out=doc_indptr[1:])
        return Segment(chunk_ids, docs, chunk_doc, doc_indptr, order.astype(np.int32), self._lexical(),
                       {name: dense_part(np.array(rows, np.int32), np.stack(vectors))
                        for name, (rows, vectors) in sorted(self._dense.items())},
                       {name: _sparse_csr(rows, ids, weights)
                        for name, (rows, ids, weights) in sorted(self._sparse.items())},
                       np.array(self._order, dtype=np.uint64))

    def _lexical(self) -> LexicalPart:
        n = len(self._ids)
        widths = np.frombuffer(self._widths, dtype=np.int64) if n else np.empty(0, np.int64)
        terms = np.frombuffer(self._term_ids, dtype=np.int32) if len(self._term_ids) else _EMPTY_I
        tfs = np.frombuffer(self._tfs, dtype=np.int32).astype(np.float32) if len(self._tfs) else _EMPTY_F
        rows = np.repeat(np.arange(n, dtype=np.int32), widths)
        lengths = np.bincount(rows, weights=tfs, minlength=n)
        words = sorted(self._vocab)
        new_id = np.empty(len(words), dtype=np.int32)
        new_id[np.fromiter((self._vocab[w] for w in words), np.int64, len(words))] = np.arange(len(words))
        csr = Csr.build(new_id[terms] if terms.size else terms, rows, tfs, len(words))
        return LexicalPart(Vocabulary.of(words), csr, lengths.astype(np.float32))


def dense_part(rows: np.ndarray, vectors: np.ndarray, normalised: bool = False) -> DensePart:
    """Normalise (unless `normalised`: already done, e.g. when merging) and quantise one embedder's
    vectors. ValueError for NaN or infinity."""
    if not np.isfinite(vectors).all():
        raise ValueError("vectors contain NaN or infinity")
    floats = np.asarray(vectors, dtype=np.float32) if normalised else l2_normalize(vectors)
    peak = np.abs(floats).max(axis=0) if floats.shape[0] else np.zeros(floats.shape[1], np.float32)
    scale = np.where(peak > 0, 127.0 / np.maximum(peak, 1e-12), 1.0).astype(np.float32)
    codes = np.clip(np.rint(floats * scale), -127, 127).astype(np.int8)
    return DensePart(rows, ArrayRows(floats), codes, scale)


def _sparse_csr(rows: list[int], ids: list[np.ndarray], weights: list[np.ndarray]) -> Csr:
    widths = np.fromiter((a.size for a in ids), np.int64, len(ids))
    flat_ids = np.concatenate(ids) if ids else np.empty(0, np.int64)
    if flat_ids.size and flat_ids.min() < 0:
        raise ValueError("sparse token ids must be non-negative")
    flat_w = np.concatenate(weights) if weights else _EMPTY_F
    keep = flat_w != 0
    row_of = np.repeat(np.array(rows, dtype=np.int32), widths)
    n_terms = int(flat_ids.max()) + 1 if flat_ids.size else 0
    return Csr.build(flat_ids[keep], row_of[keep], flat_w[keep], n_terms)


def _documents(docs: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    if not docs:
        return np.empty(0, dtype="S1"), np.empty(0, dtype=np.int32)
    unique, inverse = np.unique(np.array(docs, dtype=_bytes_dtype(docs)), return_inverse=True)
    return unique, inverse.astype(np.int32)


def _bytes_dtype(values: Iterable[bytes]) -> str:
    return f"S{max((len(v) for v in values), default=1) or 1}"


def encode_keys(keys: Iterable[object]) -> np.ndarray:
    """Chunk ids as a bytes array for `Segment.rows_of`."""
    encoded = [str(k).encode() for k in keys]
    return np.array(encoded, dtype=_bytes_dtype(encoded))


_EMPTY_I = np.empty(0, dtype=np.int32)
_EMPTY_F = np.empty(0, dtype=np.float32)
_EMPTY_I.flags.writeable = False
_EMPTY_F.flags.writeable = False
