"""Checks on a case store that came from outside CaseTrack's own writes (an imported archive).

An archive's files are checked entry by entry before they are unpacked; this checks what the
database inside says. Every id that CaseTrack will later turn into a key scan or a folder
(`originals/<document id>/`) must be its own form, every key must agree with its record, and
every cross-reference must point at something that exists. Names are cleaned (a newline in a
name would end up in every citation); paths are not checked here because none is trusted:
the importer re-derives every path the case will touch."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

from casetrack.domain import CaseStats, Document, clean_name, is_own_id
from casetrack.store import keys
from casetrack.store.document_records import decode_document
from casetrack.store.records import loads_or_empty
from casetrack.store.rocks import RocksStore

_SHA256 = re.compile(r"[0-9a-f]{64}")
_MAX_REPORTED = 3


class ForeignRecords(Exception):
    """The store holds records CaseTrack would never write; `problems` says which (a few)."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class CheckedStore:
    documents: list[Document]  # names cleaned; ids checked
    stats: CaseStats  # counted from the records, not read from the store's own stats record


def check_records(db: RocksStore) -> CheckedStore:
    """Check every record of an imported case store. Raises ForeignRecords listing what is wrong."""
    problems: list[str] = []
    documents = _documents(db, problems)
    doc_ids = {d.id for d in documents}
    _hash_index(db, doc_ids, problems)
    chunk_ids = _chunks(db, doc_ids, problems)
    _keyed_by_document(db, doc_ids, problems)
    _keyed_by_chunk(db, chunk_ids, problems)
    if problems:
        raise ForeignRecords(problems[:_MAX_REPORTED])
    stats = CaseStats(document_count=len(documents), page_count=sum(d.page_count for d in documents),
                      chunk_count=sum(d.chunk_count for d in documents))
    return CheckedStore(documents, stats)


def _documents(db: RocksStore, problems: list[str]) -> list[Document]:
    out: list[Document] = []
    for key, raw in db.scan(keys.DOCUMENTS, keys.DOC_PREFIX):
        key_id = _suffix(key, keys.DOC_PREFIX)
        if not is_own_id(key_id):
            problems.append(f"a document record has the id {key_id!r}, which CaseTrack never makes")
            continue
        try:
            doc = decode_document(raw)
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"the document record {key_id} cannot be read ({exc!r})")
            continue
        if doc.id != key_id:
            problems.append(f"the document record stored as {key_id} calls itself {doc.id!r}")
        elif not isinstance(doc.name, str) or not clean_name(doc.name):
            problems.append(f"the document record {key_id} has no usable name")
        elif not isinstance(doc.file_hash, str) or not _SHA256.fullmatch(doc.file_hash):
            problems.append(f"the document record {key_id} has a malformed checksum")
        else:
            out.append(doc)
    return out


def _hash_index(db: RocksStore, doc_ids: set[str], problems: list[str]) -> None:
    for key, raw in db.scan(keys.DOCUMENTS, keys.HASH_PREFIX):
        if raw.decode(errors="replace") not in doc_ids:
            problems.append(f"the checksum index entry {_suffix(key, keys.HASH_PREFIX)[:16]}... names no document")


def _chunks(db: RocksStore, doc_ids: set[str], problems: list[str]) -> set[str]:
    """Chunk records and the per-document sequence index; returns the valid chunk ids."""
    chunk_ids: set[str] = set()
    prefix = b"chunk:"
    for key, raw in db.scan(keys.CHUNKS, prefix):
        chunk_id = _suffix(key, prefix)
        record = loads_or_empty(raw)
        if not is_own_id(chunk_id) or record.get("id") != chunk_id:
            problems.append(f"a passage record has the id {chunk_id!r}, which CaseTrack never makes")
        elif record.get("document_id") not in doc_ids:
            problems.append(f"the passage {chunk_id} belongs to no document in the case")
        else:
            chunk_ids.add(chunk_id)
    index_prefix = keys.doc_chunks_prefix("")[:-1]
    listed: Counter[str] = Counter()
    for key, raw in db.scan(keys.CHUNKS, index_prefix):
        doc_id, _, sequence = _suffix(key, index_prefix).rpartition(":")
        chunk_id = raw.decode(errors="replace")
        if not (sequence.isascii() and sequence.isdigit()):  # the index reads it as a number (stable ties)
            problems.append(f"the passage index of {doc_id!r} numbers a passage {sequence!r}, which CaseTrack "
                            "never writes")
        elif doc_id not in doc_ids or chunk_id not in chunk_ids:
            problems.append(f"the passage index of {doc_id!r} names {chunk_id!r}, which is not in the case")
        listed[chunk_id] += 1
    if duplicated := [c for c, n in listed.items() if n > 1]:
        problems.append(f"the passage {duplicated[0]} is listed {listed[duplicated[0]]} times")
    return chunk_ids


def _keyed_by_document(db: RocksStore, doc_ids: set[str], problems: list[str]) -> None:
    """Pages, their OCR words, outlines and graph extracts: each key names a document that must exist."""
    for cf, prefix in ((keys.PAGES, b"page:"), (keys.PAGES, keys.page_words_prefix("")[:-1]), (keys.GRAPH, b"g:"),
                       (keys.DOCUMENTS, b"structure:")):
        for doc_id in _ids_after(db, cf, prefix):
            if doc_id not in doc_ids:
                problems.append(f"the {cf} family holds an entry for {doc_id!r}, which is not a document in the case")
                break


def _keyed_by_chunk(db: RocksStore, chunk_ids: set[str], problems: list[str]) -> None:
    """Provenance, keyword entries and clause likelihoods: each key names a passage that must exist (what a
    likelihoods record holds is checked where it is read: store.document_records.decode_likelihoods)."""
    for cf, prefix in ((keys.PROVENANCE, b"prov:"), (keys.BM25, keys.BM25_TF_PREFIX),
                       (keys.CHUNKS, keys.LIKELIHOODS_PREFIX)):
        for chunk_id in _ids_after(db, cf, prefix):
            if chunk_id not in chunk_ids:
                problems.append(f"the {cf} family holds an entry for {chunk_id!r}, which is not a passage in the case")
                break
    for key, _ in db.scan(keys.EMBEDDINGS, b""):
        chunk_id = key.decode(errors="replace").partition(":")[2]
        if chunk_id not in chunk_ids:
            problems.append(f"a vector is stored for {chunk_id!r}, which is not a passage in the case")
            break


def _ids_after(db: RocksStore, cf: str, prefix: bytes) -> Iterator[str]:
    for key, _ in db.scan(cf, prefix):
        yield _suffix(key, prefix).split(":", 1)[0]


def _suffix(key: bytes, prefix: bytes) -> str:
    return key[len(prefix):].decode(errors="replace")


