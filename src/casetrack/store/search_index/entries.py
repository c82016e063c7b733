"""A case store's search-index entries as `ChunkEntry` values: the source every index file is
built from (a whole case in chunk-id order for a rebuild, one document for a catch-up)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence

import numpy as np

from casetrack.index.segment import UNKNOWN_ORDER, ChunkEntry, stable_order
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.records import loads
from casetrack.store.rocks import RocksStore
from casetrack.store.vectors import decode_vector


def document_entries(db: RocksStore, doc_id: str, dense: Sequence[str], sparse: Sequence[str]) -> list[ChunkEntry]:
    """The entries of one document's chunks (none when the document is gone)."""
    out = []
    doc = docstore.get_document(db, doc_id)
    file_hash = doc.file_hash if doc is not None else ""
    prefix = keys.doc_chunks_prefix(doc_id)
    for key, raw in db.scan(keys.CHUNKS, prefix):  # in sequence order (keys.doc_chunk)
        chunk_id, sequence = raw.decode(errors="replace"), _sequence(key[len(prefix):])
        raw_terms = db.get(keys.BM25, keys.bm25_terms(chunk_id))
        if raw_terms is None:
            continue
        entry = ChunkEntry(chunk_id, doc_id, loads(raw_terms), {}, {}, stable_order(file_hash, sequence))

        def read(model: str, chunk: str = chunk_id) -> bytes | None:
            return db.get(keys.EMBEDDINGS, keys.embedding(model, chunk))

        _add_vectors(entry, dense, sparse, read)
        out.append(entry)
    return out


def all_entries(db: RocksStore, dense: Sequence[str], sparse: Sequence[str],
                document_of: Mapping[str, str]) -> Iterator[ChunkEntry]:
    """Every chunk's entry in chunk-id order, its vectors joined from each embedder's own scan (the
    embeddings family keeps one embedder's vectors together, in the same chunk-id order)."""
    places = stable_places(db)
    scans = {model: _Cursor(db.scan(keys.EMBEDDINGS, keys.embedding_prefix(model)), len(keys.embedding_prefix(model)))
             for model in (*dense, *sparse)}
    prefix = len(keys.BM25_TF_PREFIX)
    for key, raw in db.scan(keys.BM25, keys.BM25_TF_PREFIX):
        chunk_id = key[prefix:].decode()
        doc_id = document_of.get(chunk_id)
        if doc_id is None:  # an entry without its chunk: not searchable, as before
            continue
        entry = ChunkEntry(chunk_id, doc_id, loads(raw), {}, {}, places.get(chunk_id, UNKNOWN_ORDER))

        def read(model: str, chunk: bytes = key[prefix:]) -> bytes | None:
            return scans[model].seek(chunk)

        _add_vectors(entry, dense, sparse, read)
        yield entry


def stable_places(db: RocksStore) -> dict[str, int]:
    """Every chunk's stable place (index.segment.stable_order): its document's file hash, then its sequence, read
    from the documents and the per-document sequence index (no chunk record is decoded)."""
    hashes = {doc.id: doc.file_hash for doc in docstore.list_documents(db)}
    prefix = keys.doc_chunks_prefix("")[:-1]
    out: dict[str, int] = {}
    for key, raw in db.scan(keys.CHUNKS, prefix):
        doc_id, sequence = key[len(prefix):].rsplit(b":", 1)
        out[raw.decode(errors="replace")] = stable_order(hashes.get(doc_id.decode(errors="replace"), ""),
                                                         _sequence(sequence))
    return out


def _sequence(written: bytes) -> int:
    """A passage's sequence as its index key writes it; a damaged key's (an imported case's are checked:
    store.imported) ranks its ties last."""
    return int(written) if written.isascii() and written.isdigit() else 2**31


def _add_vectors(entry: ChunkEntry, dense: Sequence[str], sparse: Sequence[str],
                 read: Callable[[str], bytes | None]) -> None:
    """Attach the vectors `read(model)` finds, under their signal names; a value of the wrong kind
    (a damaged record) is left out, as a missing one is."""
    for model in dense:
        raw = read(model)
        if raw is not None:
            value = decode_vector(raw)
            if not isinstance(value, tuple) and value.ndim == 1:
                entry.dense[model.lower()] = value
    for model in sparse:
        raw = read(model)
        if raw is not None:
            value = decode_vector(raw)
            if isinstance(value, tuple):
                entry.sparse[model.lower()] = (np.asarray(value[0], np.int64), value[1])


class _Cursor:
    """Walks one key-ordered scan forward to a requested chunk id."""

    def __init__(self, scan: Iterator[tuple[bytes, bytes]], prefix: int) -> None:
        self._scan = scan
        self._prefix = prefix
        self._current: tuple[bytes, bytes] | None = None
        self._done = False
        self._advance()

    def _advance(self) -> None:
        try:
            key, value = next(self._scan)
            self._current = (key[self._prefix:], value)
        except StopIteration:
            self._current, self._done = None, True

    def seek(self, chunk_id: bytes) -> bytes | None:
        while self._current is not None and self._current[0] < chunk_id:
            self._advance()
        if self._current is not None and self._current[0] == chunk_id:
            return self._current[1]
        return None
