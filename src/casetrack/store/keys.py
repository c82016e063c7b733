"""Every key CaseTrack writes, in one place. Keys are ASCII with fixed-width numbers, so
RocksDB's byte order is the logical order (a document's chunks scan in sequence, its
pages in page order) and a prefix scan finds exactly one entity's entries."""

from __future__ import annotations

# --- registry.db (default column family) ---
REGISTRY_SCHEMA_VERSION = b"schema_version"
CASE_PREFIX = b"case:"
# The data folder's own random key, sealing the source paths recorded here (service.cases.sources); never exported.
SOURCE_KEY = b"source_key"


def case(case_id: str) -> bytes:
    return CASE_PREFIX + case_id.encode()


# --- cases/<id>/case.db ---
# PRD 04 §4.2 families plus `pages` (the exact page text that offsets index into)
# and `graph` (entities, authorities, events of the context graph).
DOCUMENTS = "documents"
PAGES = "pages"
CHUNKS = "chunks"
EMBEDDINGS = "embeddings"
PROVENANCE = "provenance"
BM25 = "bm25_index"
GRAPH = "graph"
METADATA = "metadata"
CASE_COLUMN_FAMILIES = (DOCUMENTS, PAGES, CHUNKS, EMBEDDINGS, PROVENANCE, BM25, GRAPH, METADATA)

# metadata
CASE_SCHEMA_VERSION = b"schema_version"
CASE_INFO = b"case_info"
CASE_STATS = b"stats"

# documents
DOC_PREFIX = b"doc:"
HASH_PREFIX = b"hash:"


def document(doc_id: str) -> bytes:
    return DOC_PREFIX + doc_id.encode()


def file_hash(sha256: str) -> bytes:
    return HASH_PREFIX + sha256.encode()


# pages
def page_prefix(doc_id: str) -> bytes:
    return b"page:" + doc_id.encode() + b":"


def page(doc_id: str, number: int) -> bytes:
    return page_prefix(doc_id) + f"{number:06d}".encode()


# pages: Tesseract's words on a page read by OCR (store/page_words.py), apart from the page's text, which
# search and verification read often and the words only a drawing of the page needs
def page_words_prefix(doc_id: str) -> bytes:
    return b"words:" + doc_id.encode() + b":"


def page_words(doc_id: str, number: int) -> bytes:
    return page_words_prefix(doc_id) + f"{number:06d}".encode()


# chunks
def chunk(chunk_id: str) -> bytes:
    return b"chunk:" + chunk_id.encode()


def doc_chunks_prefix(doc_id: str) -> bytes:
    return b"doc_chunks:" + doc_id.encode() + b":"


def doc_chunk(doc_id: str, sequence: int) -> bytes:
    return doc_chunks_prefix(doc_id) + f"{sequence:08d}".encode()


# chunks: a chunk's clause types with their probabilities, apart from its text, so that the soft role prior
# (search.evidence) reads a few hundred bytes a candidate, not the whole record. Shares no prefix with
# "chunk:" or "doc_chunks:", the family's other scans.
LIKELIHOODS_PREFIX = b"likely:"


def likelihoods(chunk_id: str) -> bytes:
    return LIKELIHOODS_PREFIX + chunk_id.encode()


# provenance
def provenance(chunk_id: str) -> bytes:
    return b"prov:" + chunk_id.encode()


# embeddings: one family, the embedder id leads so one embedder's vectors scan together
def embedding_prefix(embedder: str) -> bytes:
    return embedder.lower().encode() + b":"


def embedding(embedder: str, chunk_id: str) -> bytes:
    return embedding_prefix(embedder) + chunk_id.encode()


# bm25: per-chunk term frequencies, so adding or deleting a document touches only its own entries
BM25_TF_PREFIX = b"tf:"


def bm25_terms(chunk_id: str) -> bytes:
    return BM25_TF_PREFIX + chunk_id.encode()


# graph: per-document extraction results, replaced whole on reingest
def graph_prefix(doc_id: str) -> bytes:
    return b"g:" + doc_id.encode() + b":"


def graph_entry(doc_id: str, kind: str) -> bytes:
    return graph_prefix(doc_id) + kind.encode()


def structure(doc_id: str) -> bytes:
    """documents family: a document's outline (headings, sections) for get_document_structure."""
    return b"structure:" + doc_id.encode()

# metadata: bumped by every commit that changes searchable content, so each process can
# tell whether its in-memory search index is still current
GENERATION = b"generation"
# metadata: what the commit that made each generation changed (store/changes.py), so a search index
# written at an older generation can catch up instead of being rebuilt
CHANGE_PREFIX = b"change:"


def change(generation: int) -> bytes:
    return CHANGE_PREFIX + f"{generation:020d}".encode()
