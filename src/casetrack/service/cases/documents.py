"""Reading a case's documents: listing, lookup, chunks with provenance, context windows,
page browsing, sequential traversal and the structural outline."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from casetrack.chunk.roles.tagging import by_role
from casetrack.chunk.roles.taxonomy import Role
from casetrack.chunk.structure import StructureEntry
from casetrack.domain import Case, Chunk, Document, DocumentType
from casetrack.errors import InvalidInput, NotFound, Step, quoted
from casetrack.service.cases import naming
from casetrack.service.cases.cases import CaseService
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.rocks import RocksStore

SORTS = {
    "name": (lambda d: d.name.casefold(), False),
    "date": (lambda d: d.ingested_at, True),
    "pages": (lambda d: d.page_count, True),
    "type": (lambda d: (d.document_type.value, d.name.casefold()), False),
}
FULL_ID_LENGTH = 36  # a chunk ID is a UUID; a shorter one given is read as the start of one
AMBIGUOUS_SHOWN = 5  # candidates named when a shortened chunk ID begins several
MAX_PAGE_SPAN = 50  # browse_pages returns at most this many pages at once, to keep responses readable


@dataclass(frozen=True, slots=True)
class DocumentPage:
    """One page of a paginated listing."""

    documents: list[Document]
    total: int
    offset: int
    limit: int

    @property
    def has_more(self) -> bool:
        return self.offset + len(self.documents) < self.total


@dataclass(frozen=True, slots=True)
class ChunkWindow:
    chunk: Chunk
    before: list[Chunk]
    after: list[Chunk]
    total_chunks: int


class DocumentReader:
    def __init__(self, cases: CaseService) -> None:
        self._cases = cases

    def all(self, case: Case) -> list[Document]:
        store = self._cases.store(case)
        with store.reader() as db:
            return [self._shown(case, store, d) for d in docstore.list_documents(db)]

    def listing(self, case: Case, sort_by: str = "date", limit: int = 50, offset: int = 0,
                document_type: str | None = None) -> DocumentPage:
        if sort_by not in SORTS:
            raise InvalidInput(f"Unknown sort {quoted(repr(sort_by))}: choose one of {', '.join(SORTS)}.")
        if not 1 <= limit <= 500 or offset < 0:
            raise InvalidInput("limit must be between 1 and 500 and offset must not be negative.")
        docs = self.all(case)
        wanted = parse_document_type(document_type)
        if wanted is not None:
            docs = [d for d in docs if d.document_type is wanted]
        key, reverse = SORTS[sort_by]
        docs.sort(key=key, reverse=reverse)
        return DocumentPage(docs[offset:offset + limit], len(docs), offset, limit)

    def resolve(self, case: Case, ref: str) -> Document:
        return naming.resolve(self.all(case), ref, "Document", lambda d: d.name, lambda d: d.id,
                              Step("list_documents", {"case_name": case.name}))

    def chunks(self, case: Case, ref: str, page_filter: int | None = None) -> tuple[Document, list[Chunk]]:
        doc = self.resolve(case, ref)
        if page_filter is not None and not 1 <= page_filter <= doc.page_count:
            raise InvalidInput(f'"{doc.name}" has pages 1-{doc.page_count}; page {page_filter} does not exist.')
        with self._cases.store(case).reader() as db:
            chunks = [c for c in docstore.document_chunks(db, doc) if page_filter is None or c.span.page == page_filter]
        return doc, chunks

    def chunk(self, case: Case, chunk_id: str) -> tuple[Chunk, Document, int]:
        store = self._cases.store(case)
        with store.reader() as db:
            chunk = docstore.load_chunk(db, _chunk_id(chunk_id))
            if chunk is None and len(chunk_id.strip()) < FULL_ID_LENGTH:
                chunk = _by_prefix(db, chunk_id.strip().lower())
            if chunk is None:
                raise NotFound("Chunk", chunk_id, hint="Chunk IDs come from search_case, get_document_chunks or "
                                                       "browse_pages results; the document may have been reindexed.")
            doc = docstore.get_document(db, chunk.document_id)
        assert doc is not None  # load_chunk found the chunk's document
        return chunk, self._shown(case, store, doc), doc.chunk_count

    def _shown(self, case: Case, store: CaseStore, doc: Document) -> Document:
        """A document as the user sees it: its kept copy where this data folder holds it, and as its source only a
        path this machine recorded (another is shown as `archived_path`, never opened: service.cases.sources)."""
        return self._cases.seals.as_trusted(case.id, store.located(doc))

    def context(self, case: Case, chunk_id: str, window: int = 1) -> ChunkWindow:
        if not 1 <= window <= 5:
            raise InvalidInput("window must be between 1 and 5 chunks.")
        chunk, doc, total = self.chunk(case, chunk_id)
        seq = chunk.span.sequence
        with self._cases.store(case).reader() as db:
            before = self._at(db, doc, range(max(0, seq - window), seq))
            after = self._at(db, doc, range(seq + 1, min(total, seq + 1 + window)))
        return ChunkWindow(chunk, before, after, total)

    def traverse(self, case: Case, start_chunk_id: str, direction: str = "forward", count: int = 5
                 ) -> tuple[Document, list[Chunk]]:
        if direction not in ("forward", "backward"):
            raise InvalidInput('direction must be "forward" or "backward".')
        if not 1 <= count <= 20:
            raise InvalidInput("count must be between 1 and 20.")
        chunk, doc, total = self.chunk(case, start_chunk_id)
        seq = chunk.span.sequence
        if direction == "forward":
            span = range(seq, min(total, seq + count))
        else:
            span = range(max(0, seq - count + 1), seq + 1)
        with self._cases.store(case).reader() as db:
            chunks = self._at(db, doc, span)
        return doc, chunks if direction == "forward" else list(reversed(chunks))

    def browse(self, case: Case, ref: str, start_page: int, end_page: int) -> tuple[Document, list[Chunk]]:
        doc = self.resolve(case, ref)
        if start_page < 1 or end_page < start_page:
            raise InvalidInput("start_page must be at least 1 and end_page must not be before start_page.")
        if start_page > doc.page_count:
            raise InvalidInput(f'"{doc.name}" has {doc.page_count} pages; start_page {start_page} is past the end.')
        end = min(end_page, doc.page_count, start_page + MAX_PAGE_SPAN - 1)
        with self._cases.store(case).reader() as db:
            chunks = [c for c in docstore.document_chunks(db, doc) if start_page <= c.span.page <= end]
        return doc, chunks

    def clauses(self, case: Case, ref: str) -> tuple[Document, list[tuple[Role, list[Chunk]]]]:
        """A document's clause library: its passages grouped by the legal role tagged at ingest (chunk.roles).
        Raises NotFound for an unknown document."""
        doc, chunks = self.chunks(case, ref)
        return doc, by_role(chunks)

    def structure(self, case: Case, ref: str) -> tuple[Document, list[OutlineEntry]]:
        doc = self.resolve(case, ref)
        with self._cases.store(case).reader() as db:
            entries = docstore.structure(db, doc.id)
            chunks = list(docstore.document_chunks(db, doc)) if entries else []
        return doc, [_locate(chunks, e) for e in entries]

    def set_type(self, case: Case, ref: str, document_type: str) -> Document:
        """Correct a document's type; the user's choice always wins over inference."""
        self._cases.require_writable(case)
        wanted = parse_document_type(document_type)
        if wanted is None:
            raise InvalidInput(f"Choose a document type: {', '.join(t.value for t in DocumentType)}.")
        doc = self.resolve(case, ref)
        store = self._cases.store(case)
        with store.writer(f"retyping {doc.name}") as db:
            current = docstore.get_document(db, doc.id)
            if current is None:
                raise NotFound("Document", ref, hint="It was deleted meanwhile.")
            updated = replace(current, document_type=wanted, type_confidence=1.0, type_source="user")
            batch = db.batch()
            docstore.update_document(batch, updated)
            db.write(batch)
        return self._shown(case, store, updated)

    @staticmethod
    def _at(db: Any, doc: Document, sequences: range) -> list[Chunk]:
        out = []
        for seq in sequences:
            chunk_id = docstore.chunk_id_at(db, doc.id, seq)
            chunk = docstore.load_chunk(db, chunk_id, doc) if chunk_id else None
            if chunk is not None:
                out.append(chunk)
        return out


@dataclass(frozen=True, slots=True)
class OutlineEntry:
    """A heading, section or numbered clause of a document's outline (get_document_structure): the fields of
    `chunk.structure.StructureEntry`, and the chunk that holds it."""

    level: int  # 1 for a top heading
    title: str | None
    number: str | None  # "8.1", "V"; None for an unnumbered heading
    page: int
    char_start: int  # on the page
    char_end: int
    chunk_id: str | None  # the chunk that holds it, so the AI can jump straight to it
    chunk_sequence: int | None


def _locate(chunks: list[Chunk], e: StructureEntry) -> OutlineEntry:
    """An outline entry as stored, with the chunk that contains it."""
    chunk = next((c for c in chunks if c.span.page == e.page and c.span.char_start <= e.char_start < c.span.char_end),
                 None)
    return OutlineEntry(e.level, e.title, e.number, e.page, e.char_start, e.char_end,
                        chunk.id if chunk else None, chunk.span.sequence if chunk else None)


def _by_prefix(db: RocksStore, prefix: str) -> Chunk | None:
    """The one chunk whose ID begins with `prefix`, as results print IDs shortened; None when no
    chunk does. Raises InvalidInput naming the candidates when several do."""
    found = docstore.chunk_ids_starting(db, prefix, AMBIGUOUS_SHOWN + 1)
    if len(found) > 1:
        shown = [docstore.load_chunk(db, ident) for ident in found[:AMBIGUOUS_SHOWN]]
        lines = "\n".join(f"  - {c.id} ({c.provenance.cite()})" for c in shown if c is not None)
        more = "\n  - ..." if len(found) > AMBIGUOUS_SHOWN else ""
        raise InvalidInput(f'Chunk ID "{prefix}" is ambiguous: it begins several chunks\' IDs:\n{lines}{more}\n'
                           "Give more of the ID (or all of it).")
    return docstore.load_chunk(db, found[0]) if found else None


def _chunk_id(raw: str) -> str:
    text = (raw or "").strip()
    if not text:
        raise InvalidInput("Give a chunk ID (a UUID from search or browsing results).")
    return text


def parse_document_type(value: str | None) -> DocumentType | None:
    if value is None or not str(value).strip():
        return None
    try:
        return DocumentType(str(value).strip().lower())
    except ValueError as exc:
        choices = ", ".join(t.value for t in DocumentType)
        raise InvalidInput(f"Unknown document type {quoted(repr(value))}: choose one of {choices}.") from exc
