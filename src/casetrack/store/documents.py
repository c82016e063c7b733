"""Documents inside a case store: metadata, pages, chunks, provenance, keyword entries,
vectors and structure. A document is always written, replaced or deleted in ONE
WriteBatch, so it is either completely there or not at all, crash or no crash."""

from __future__ import annotations

import struct
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from casetrack.chunk.structure import StructureEntry
from casetrack.domain import Chunk, ChunkSpan, Document, PageWords, StoredPage
from casetrack.graph.records import ExtractRecord, extract_json, extract_of
from casetrack.store import keys, page_records
from casetrack.store.document_records import (
    assemble_chunk,
    decode_document,
    decode_likelihoods,
    encode_document,
    encode_likelihoods,
    provenance_record,
    record_likelihoods,
)
from casetrack.store.page_records import decode_page, encode_page
from casetrack.store.records import dumps, loads
from casetrack.store.rocks import Batch, RocksStore
from casetrack.store.vectors import VectorValue, decode_vector, encode_vector


@dataclass(frozen=True, slots=True)
class DocumentWrite:
    """Everything one ingested document adds to a case, ready for a single commit."""

    document: Document
    pages: Sequence[StoredPage]
    chunks: Sequence[tuple[str, ChunkSpan]]  # (chunk id, span)
    terms: Mapping[str, Mapping[str, int]]  # chunk id -> BM25 term frequencies
    vectors: Mapping[str, Mapping[str, VectorValue]] = field(default_factory=dict)  # embedder -> chunk id -> vector
    structure: Sequence[StructureEntry] = ()  # the document's outline (headings, sections)
    graph: ExtractRecord | None = None  # context-graph extract (entities, authorities, dates, ...)
    roles: Mapping[str, Sequence[str]] = field(default_factory=dict)  # chunk id -> legal roles (chunk.roles)
    # chunk id -> role -> the classifier's probability, for the roles it tagged (chunk.clause_model)
    role_confidence: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    # chunk id -> clause type -> the classifier's probability, for the likely types it did not tag (a passage's
    # likelihood of a type asked for lifts it in search: search.evidence); never shown as a tag
    role_likelihood: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    # chunk id -> the tags search's role prior must not read (0 in its likelihoods record), though they are listed
    role_unsearched: Mapping[str, Collection[str]] = field(default_factory=dict)
    # chunk id -> role -> (start, end) of the clause in the chunk's text (chunk.clause_spans)
    role_spans: Mapping[str, Mapping[str, tuple[int, int]]] = field(default_factory=dict)
    printed: Mapping[str, str] = field(default_factory=dict)  # chunk id -> printed page:line span ("17:19-18:4")
    # embedder -> chunk id -> the vectors of the windows a long chunk was read in (see `windows_id`)
    windows: Mapping[str, Mapping[str, VectorValue]] = field(default_factory=dict)
    page_words: Mapping[int, PageWords] = field(default_factory=dict)  # page number -> Tesseract's words on it


# --- encoding ----------------------------------------------------------------


def put_document(batch: Batch, write: DocumentWrite) -> None:
    doc = write.document
    pages = {page.number: page for page in write.pages}
    batch.put(keys.DOCUMENTS, keys.document(doc.id), encode_document(doc))
    batch.put(keys.DOCUMENTS, keys.file_hash(doc.file_hash), doc.id.encode())
    batch.put(keys.DOCUMENTS, keys.structure(doc.id), dumps({"entries": [_heading(e) for e in write.structure]}))
    for page in write.pages:
        batch.put(keys.PAGES, keys.page(doc.id, page.number), encode_page(page))
    page_records.put_words(batch, doc.id, write.page_words)
    for chunk_id, span in write.chunks:
        record: dict[str, Any] = {"id": chunk_id, "document_id": doc.id, "sequence": span.sequence, "text": span.text,
                                  "token_count": span.token_count}
        if write.roles.get(chunk_id):
            record["roles"] = list(write.roles[chunk_id])
        if write.role_confidence.get(chunk_id):
            record["role_confidence"] = dict(write.role_confidence[chunk_id])
        if write.role_spans.get(chunk_id):
            record["role_spans"] = {r: list(s) for r, s in write.role_spans[chunk_id].items()}
        batch.put(keys.CHUNKS, keys.chunk(chunk_id), dumps(record))
        batch.put(keys.CHUNKS, keys.likelihoods(chunk_id), encode_likelihoods(
            write.role_likelihood.get(chunk_id, {}), write.role_confidence.get(chunk_id, {}),
            write.role_unsearched.get(chunk_id, ())))
        batch.put(keys.CHUNKS, keys.doc_chunk(doc.id, span.sequence), chunk_id.encode())
        batch.put(keys.PROVENANCE, keys.provenance(chunk_id),
                  dumps(provenance_record(span, pages[span.page], doc.embedded_at, write.printed.get(chunk_id))))
        batch.put(keys.BM25, keys.bm25_terms(chunk_id), dumps(dict(write.terms.get(chunk_id, {}))))
    if write.graph is not None:
        batch.put(keys.GRAPH, keys.graph_entry(doc.id, "extract"), dumps(extract_json(write.graph)))
    for embedder, by_chunk in write.vectors.items():
        put_vectors(batch, embedder, by_chunk)
    for embedder, by_chunk in write.windows.items():
        put_windows(batch, embedder, by_chunk)


def delete_document(store: RocksStore, batch: Batch, doc: Document, embedders: Iterable[str]) -> list[str]:
    """Queue removal of every trace of `doc`. Returns the ids of the chunks removed."""
    chunk_ids = [raw.decode() for _, raw in store.scan(keys.CHUNKS, keys.doc_chunks_prefix(doc.id))]
    for chunk_id in chunk_ids:
        batch.delete(keys.CHUNKS, keys.chunk(chunk_id))
        batch.delete(keys.CHUNKS, keys.likelihoods(chunk_id))
        batch.delete(keys.PROVENANCE, keys.provenance(chunk_id))
        batch.delete(keys.BM25, keys.bm25_terms(chunk_id))
        for embedder in embedders:
            batch.delete(keys.EMBEDDINGS, keys.embedding(embedder, chunk_id))
            batch.delete(keys.EMBEDDINGS, keys.embedding(windows_id(embedder), chunk_id))
    for key, _ in store.scan(keys.CHUNKS, keys.doc_chunks_prefix(doc.id)):
        batch.delete(keys.CHUNKS, key)
    for key, _ in store.scan(keys.PAGES, keys.page_prefix(doc.id)):
        batch.delete(keys.PAGES, key)
    page_records.delete_words(store, batch, doc.id)
    for key, _ in store.scan(keys.GRAPH, keys.graph_prefix(doc.id)):
        batch.delete(keys.GRAPH, key)
    batch.delete(keys.DOCUMENTS, keys.structure(doc.id))
    batch.delete(keys.DOCUMENTS, keys.document(doc.id))
    if store.get(keys.DOCUMENTS, keys.file_hash(doc.file_hash)) == doc.id.encode():
        batch.delete(keys.DOCUMENTS, keys.file_hash(doc.file_hash))
    return chunk_ids


def update_document(batch: Batch, doc: Document) -> None:
    """Queue a changed document record (type, path, embedders); its passages are untouched."""
    batch.put(keys.DOCUMENTS, keys.document(doc.id), encode_document(doc))


def put_terms(batch: Batch, by_chunk: Mapping[str, Mapping[str, int]]) -> None:
    """Queue each chunk's keyword terms (what BM25 counts), replacing those stored."""
    for chunk_id, terms in by_chunk.items():
        batch.put(keys.BM25, keys.bm25_terms(chunk_id), dumps(dict(terms)))


def put_vectors(batch: Batch, embedder: str, by_chunk: Mapping[str, VectorValue]) -> None:
    for chunk_id, vector in by_chunk.items():
        batch.put(keys.EMBEDDINGS, keys.embedding(embedder, chunk_id), encode_vector(vector))


def windows_id(embedder: str) -> str:
    """The name an embedder's window vectors are stored under, beside its chunk vectors ("E7" -> "E7-windows"):
    a long chunk is read in overlapping windows whose mean is its vector, and search compares a question with
    its best window too. The index files are built from the chunk vectors only; windows are read per search."""
    return f"{embedder}-windows"


def put_windows(batch: Batch, embedder: str, by_chunk: Mapping[str, VectorValue | None]) -> None:
    """Queue each chunk's window vectors under `windows_id(embedder)`; None (a chunk read in one window) removes
    any stored before, so a re-embedded chunk never keeps windows of its older text."""
    for chunk_id, matrix in by_chunk.items():
        key = keys.embedding(windows_id(embedder), chunk_id)
        if matrix is None:
            batch.delete(keys.EMBEDDINGS, key)
        else:
            batch.put(keys.EMBEDDINGS, key, encode_vector(matrix))


def mark_embedded(store: RocksStore, batch: Batch, chunk_ids: Iterable[str], when: float) -> None:
    """Queue `embedded_at` on the provenance of each chunk (after its vectors were rebuilt)."""
    for chunk_id in chunk_ids:
        prov = loads(store.get(keys.PROVENANCE, keys.provenance(chunk_id)) or b"{}")
        batch.put(keys.PROVENANCE, keys.provenance(chunk_id), dumps({**prov, "embedded_at": when}))


# --- reading -----------------------------------------------------------------


def list_documents(store: RocksStore) -> list[Document]:
    return [decode_document(raw) for _, raw in store.scan(keys.DOCUMENTS, keys.DOC_PREFIX)]


def get_document(store: RocksStore, doc_id: str) -> Document | None:
    raw = store.get(keys.DOCUMENTS, keys.document(doc_id))
    return None if raw is None else decode_document(raw)


def find_by_hash(store: RocksStore, sha256: str) -> Document | None:
    doc_id = store.get(keys.DOCUMENTS, keys.file_hash(sha256))
    return None if doc_id is None else get_document(store, doc_id.decode())


def pages(store: RocksStore, doc_id: str) -> list[StoredPage]:
    return [decode_page(raw) for _, raw in store.scan(keys.PAGES, keys.page_prefix(doc_id))]


def all_pages(store: RocksStore) -> Iterator[tuple[str, StoredPage]]:
    """(document id, page) for every page of the case, by document and page number."""
    prefix = keys.page_prefix("")[:-1]
    for key, raw in store.scan(keys.PAGES, prefix):
        yield key[len(prefix):].rsplit(b":", 1)[0].decode(), decode_page(raw)


def page(store: RocksStore, doc_id: str, number: int) -> StoredPage | None:
    raw = store.get(keys.PAGES, keys.page(doc_id, number))
    return None if raw is None else decode_page(raw)


def first_pages(store: RocksStore, doc_id: str, count: int) -> list[StoredPage]:
    """Pages 1..`count` of a document that are stored, in one batched read (a search asks it of every document
    it shows for the first time: service.search.transcripts)."""
    found = store.get_many(keys.PAGES, [keys.page(doc_id, n) for n in range(1, count + 1)])
    return [decode_page(raw) for raw in found if raw is not None]


def page_words(store: RocksStore, doc_id: str, number: int) -> PageWords | None:
    """Tesseract's words on page `number`: None for a page not read by OCR, one ingested before they were kept
    (2026-11), or one whose record does not read back."""
    return page_records.words(store, doc_id, number)


def chunk_ids(store: RocksStore, doc_id: str) -> list[str]:
    return [raw.decode() for _, raw in store.scan(keys.CHUNKS, keys.doc_chunks_prefix(doc_id))]


def chunk_ids_starting(store: RocksStore, prefix: str, limit: int) -> list[str]:
    """Up to `limit` chunk IDs that begin with `prefix` (results print an ID's first 8 characters)."""
    found = []
    for key, _ in store.scan(keys.CHUNKS, keys.chunk(prefix)):
        found.append(key.removeprefix(keys.chunk("")).decode())
        if len(found) == limit:
            break
    return found


def chunk_id_at(store: RocksStore, doc_id: str, sequence: int) -> str | None:
    raw = store.get(keys.CHUNKS, keys.doc_chunk(doc_id, sequence))
    return None if raw is None else raw.decode()


def role_likelihoods(store: RocksStore, chunk_ids: Sequence[str]) -> list[dict[str, float]]:
    """Per chunk, its clause types with their probabilities: the tagged ones (role_confidence) and the likely
    untagged ones (role_likelihood); {} for a chunk without them or not stored. Read from the chunks'
    likelihoods records (a few hundred bytes each, one multi-get); a chunk written before those records were
    has its whole chunk record read instead, which held the same probabilities."""
    small = store.get_many(keys.CHUNKS, [keys.likelihoods(chunk_id) for chunk_id in chunk_ids])
    older = [i for i, raw in enumerate(small) if raw is None]
    whole = dict(zip(older, store.get_many(keys.CHUNKS, [keys.chunk(chunk_ids[i]) for i in older]), strict=True))
    return [decode_likelihoods(raw) if raw is not None
            else record_likelihoods(chunk_raw) if (chunk_raw := whole[i]) is not None else {}
            for i, raw in enumerate(small)]


def load_chunk(store: RocksStore, chunk_id: str, doc: Document | None = None) -> Chunk | None:
    chunk_raw = store.get(keys.CHUNKS, keys.chunk(chunk_id))
    prov_raw = store.get(keys.PROVENANCE, keys.provenance(chunk_id))
    if chunk_raw is None or prov_raw is None:
        return None
    if doc is None:
        doc = get_document(store, loads(chunk_raw)["document_id"])
        if doc is None:
            return None
    return assemble_chunk(chunk_raw, prov_raw, doc)


def document_chunks(store: RocksStore, doc: Document) -> Iterator[Chunk]:
    for chunk_id in chunk_ids(store, doc.id):
        chunk = load_chunk(store, chunk_id, doc)
        if chunk is not None:
            yield chunk


def structure(store: RocksStore, doc_id: str) -> list[StructureEntry]:
    """A document's outline as `put_document` stored it; an entry that is not what it writes (an imported case's
    records are data) is left out."""
    raw = store.get(keys.DOCUMENTS, keys.structure(doc_id))
    entries = loads(raw).get("entries", []) if raw is not None else []
    return [heading for e in entries if isinstance(entries, list) and (heading := _read_heading(e)) is not None]


def _heading(e: StructureEntry) -> dict[str, object]:
    # Field by field: `asdict` deep-copies (a fifth of a millisecond a page of a document full of headings).
    return {"level": e.level, "title": e.title, "number": e.number, "page": e.page, "char_start": e.char_start,
            "char_end": e.char_end}


def _read_heading(e: object) -> StructureEntry | None:
    if not isinstance(e, dict):
        return None
    ints = [e.get(k) for k in ("level", "page", "char_start", "char_end")]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in ints) or not isinstance(e.get("title"), str) \
            or not isinstance(e.get("number"), (str, type(None))):
        return None
    level, page, start, end = (int(v) for v in ints)  # type: ignore[arg-type]
    return StructureEntry(level, e["title"], e["number"], page, start, end)


def graph_extracts(store: RocksStore) -> Iterator[tuple[str, ExtractRecord]]:
    """(document id, extract) for every document that has one."""
    for key, raw in store.scan(keys.GRAPH, b"g:"):
        doc_id, _, kind = key[2:].decode().partition(":")
        if kind == "extract":
            yield doc_id, extract_of(loads(raw))


def chunk_terms(store: RocksStore, chunk_id: str) -> dict[str, int]:
    """A chunk's BM25 term frequencies, as stored at ingest."""
    return dict(loads(store.get(keys.BM25, keys.bm25_terms(chunk_id)) or b"{}"))


def chunk_text(store: RocksStore, chunk_id: str) -> str | None:
    raw = store.get(keys.CHUNKS, keys.chunk(chunk_id))
    return None if raw is None else str(loads(raw)["text"])


def vector(store: RocksStore, embedder: str, chunk_id: str) -> VectorValue | None:
    raw = store.get(keys.EMBEDDINGS, keys.embedding(embedder, chunk_id))
    return None if raw is None else decode_vector(raw)


def windows(store: RocksStore, embedder: str, chunk_ids: Sequence[str], dim: int, most: int) -> dict[str, np.ndarray]:
    """The window vectors (rows L2-normalised) stored for those of `chunk_ids` that have them. A record that is not
    what ingest writes (2 to `most` finite, non-zero rows of `dim` numbers) is left out: an imported case's records
    are data, and a crafted one must not rank a passage. Checked for all the chunks at once (search reads ~200)."""
    found: dict[str, np.ndarray] = {}
    stored = store.get_many(keys.EMBEDDINGS, [keys.embedding(windows_id(embedder), c) for c in chunk_ids])
    for chunk_id, raw in zip(chunk_ids, stored, strict=True):
        if raw is None or len(raw) < 9 or raw[:1] != b"T":
            continue
        rows, width = struct.unpack_from("<II", raw, 1)
        if width == dim and 2 <= rows <= most and len(raw) == 9 + 4 * rows * width:
            found[chunk_id] = np.frombuffer(raw, dtype="<f4", offset=9).reshape(rows, width)
    if not found:
        return {}
    stacked = np.concatenate(list(found.values())).astype(np.float32)
    norms = np.linalg.norm(stacked, axis=1)
    usable = np.isfinite(norms) & (norms > 0)
    stacked /= np.where(usable, norms, 1.0)[:, None]
    out: dict[str, np.ndarray] = {}
    start = 0
    for chunk_id, matrix in found.items():
        stop = start + matrix.shape[0]
        if usable[start:stop].all():
            out[chunk_id] = stacked[start:stop]
        start = stop
    return out


def vectors(store: RocksStore, embedder: str) -> Iterator[tuple[str, VectorValue]]:
    """(chunk id, vector) for every chunk `embedder` has embedded, in key order."""
    prefix = keys.embedding_prefix(embedder)
    for key, raw in store.scan(keys.EMBEDDINGS, prefix):
        yield key[len(prefix):].decode(), decode_vector(raw)


def all_terms(store: RocksStore) -> Iterator[tuple[str, dict[str, int]]]:
    for key, raw in store.scan(keys.BM25, keys.BM25_TF_PREFIX):
        yield key[len(keys.BM25_TF_PREFIX):].decode(), loads(raw)


def chunk_document_ids(store: RocksStore) -> dict[str, str]:
    """chunk id -> document id, for every chunk in the case.

    Read from the per-document sequence index (`doc_chunks:<doc>:<seq>` -> chunk id), written
    in the same batch as the chunks: no chunk record has to be decoded, which made this the
    largest part of opening a big case."""
    out: dict[str, str] = {}
    prefix = keys.doc_chunks_prefix("")[:-1]
    for key, raw in store.scan(keys.CHUNKS, prefix):
        doc_id = key[len(prefix):].rsplit(b":", 1)[0].decode()
        out[raw.decode()] = doc_id
    return out
