"""The structured results of the tools, as pydantic models: the one description of each result's shape.
The SDK publishes each as the tool's `outputSchema` (`Annotated[CallToolResult, Model]`) and checks every
result against it before it is sent. A model is made from the service's typed values (frozen dataclasses)
by its own `of(...)`, beside its fields: adding a field is one edit here (mypy checks every constructor's
arguments against the fields). The text a person reads is rendered separately, in `render/`. This module:
cases, documents and their passages, relink_document and list_clauses; the other `outputs_*.py` by concern."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, Self, get_type_hints

from pydantic import BaseModel, ConfigDict, create_model

from casetrack.chunk.roles.taxonomy import Role
from casetrack.domain import Case, Chunk, Document, Provenance
from casetrack.mcp.outputs_transcripts import TranscriptPin
from casetrack.render.documents import clause_place
from casetrack.render.formats import iso
from casetrack.service.cases.documents import OutlineEntry


class Out(BaseModel):
    """A result's shape. A field with a default that `of` does not set is left out of the result sent (it does
    not apply here: an attachment's page for a passage of no attachment), as `mcp/tools/base.result` sends it."""

    model_config = ConfigDict(extra="forbid")


def model_of(cls: type, name: str) -> type[Out]:
    """An output model with exactly the fields of a service dataclass (the result is its `asdict`)."""
    hints = get_type_hints(cls)
    return create_model(name, __base__=Out, **{f.name: (hints[f.name], ...) for f in fields(cls)})  # type: ignore[call-overload]


# --- cases and documents -------------------------------------------------------


class Stats(Out):
    document_count: int
    page_count: int
    chunk_count: int
    storage_bytes: int


class CaseOut(Out):
    id: str
    name: str
    case_number: str | None
    case_type: str
    status: str
    created_at: str | None
    updated_at: str | None
    stats: Stats
    is_active: bool

    @classmethod
    def of(cls, case: Case, active_id: str | None = None) -> CaseOut:
        st = case.stats
        return cls(id=case.id, name=case.name, case_number=case.case_number, case_type=case.case_type.value,
                   status=case.status.value, created_at=iso(case.created_at), updated_at=iso(case.updated_at),
                   stats=Stats(document_count=st.document_count, page_count=st.page_count,
                               chunk_count=st.chunk_count, storage_bytes=st.storage_bytes),
                   is_active=case.id == active_id)


class Source(Out):
    """Where a passage is: the full provenance every passage of document text carries."""

    document: str
    document_id: str
    file_path: str | None
    page: int
    page_approximate: bool
    paragraph_start: int
    paragraph_end: int
    line_start: int
    line_end: int
    lines: str
    lines_estimated: bool
    printed_lines: str | None = None  # a filed transcript's own page:line span, "17:19-18:4"
    char_start: int
    char_end: int
    extraction_method: str
    ocr_confidence: float | None
    bates: str | None
    ingested_at: str | None
    embedded_at: str | None
    attachment: str | None = None
    attachment_page: int | None = None

    @classmethod
    def of(cls, p: Provenance) -> Source:
        source = cls(document=p.document_name, document_id=p.document_id, file_path=p.document_path, page=p.page,
                     page_approximate=p.page_approximate, paragraph_start=p.paragraph_start,
                     paragraph_end=p.paragraph_end, line_start=p.line_start, line_end=p.line_end,
                     lines=f"{p.line_start}-{p.line_end}", lines_estimated=p.lines_estimated,
                     printed_lines=p.printed_lines, char_start=p.char_start, char_end=p.char_end,
                     extraction_method=p.extraction_method.value, ocr_confidence=p.ocr_confidence,
                     bates=p.bates_number, ingested_at=iso(p.ingested_at), embedded_at=iso(p.embedded_at))
        if p.attachment:  # set only here: a passage of no attachment has neither field
            source.attachment, source.attachment_page = p.attachment, p.attachment_page
        return source


class ClausePlace(Out):  # where in a passage its clause is: the lines that hold it, cited, and their text
    clause_type: str
    char_start: int
    char_end: int
    line_start: int
    line_end: int
    citation: str
    text: str

    @classmethod
    def of(cls, chunk: Chunk, role: str) -> ClausePlace:
        place, text = clause_place(chunk, role)
        return cls(clause_type=role, char_start=place.char_start, char_end=place.char_end,
                   line_start=place.line_start, line_end=place.line_end, citation=place.cite(), text=text)


class ChunkOut(Out):
    chunk_id: str
    sequence: int
    text: str
    token_count: int
    citation: str
    citation_short: str
    source: Source
    roles: list[str] = []  # legal roles tagged at ingest (clause types, parts of a decision)
    role_confidence: dict[str, float] = {}  # the classifier's probability of each clause type it tagged
    clause_places: list[ClausePlace] = []  # where in the passage each clause is, when narrower than the passage

    @classmethod
    def of(cls, chunk: Chunk, **more: Any) -> Self:  # `more`: a subclass's own fields
        return cls(chunk_id=chunk.id, sequence=chunk.span.sequence, text=chunk.text,
                   token_count=chunk.span.token_count, citation=chunk.provenance.cite(),
                   citation_short=chunk.provenance.cite_short(), source=Source.of(chunk.provenance),
                   roles=list(chunk.roles), role_confidence=dict(chunk.role_confidence),
                   clause_places=[ClausePlace.of(chunk, role) for role, _, _ in chunk.role_spans], **more)


class DocumentOut(Out):
    id: str
    name: str
    file_path: str | None
    format: str
    document_type: str
    type_confidence: float
    type_source: str
    page_count: int
    chunk_count: int
    extraction: str
    ocr_pages: int
    skipped_pages: int
    ocr_confidence: float | None
    file_size: int
    sha256: str
    ingested_at: str | None
    embedded_at: str | None
    embedders: list[str]
    warnings: list[str]
    metadata: dict[str, str]
    copied_original: str | None
    archived_path: str | None  # the source an imported case named (file_path is then null): shown, never opened

    @classmethod
    def of(cls, doc: Document) -> DocumentOut:
        return cls(id=doc.id, name=doc.name, file_path=doc.original_path, format=doc.format,
                   document_type=doc.document_type.value, type_confidence=round(doc.type_confidence, 2),
                   type_source=doc.type_source, page_count=doc.page_count, chunk_count=doc.chunk_count,
                   extraction=doc.extraction, ocr_pages=doc.ocr_pages, skipped_pages=doc.skipped_pages,
                   ocr_confidence=doc.ocr_confidence, file_size=doc.file_size, sha256=doc.file_hash,
                   ingested_at=iso(doc.ingested_at), embedded_at=iso(doc.embedded_at), embedders=list(doc.embedders),
                   warnings=list(doc.warnings), metadata=dict(doc.metadata), copied_original=doc.copied_original,
                   archived_path=doc.archived_path)


def documents_of(docs: Sequence[Document]) -> list[DocumentOut]:
    return [DocumentOut.of(d) for d in docs]


def chunks_of(chunks: Sequence[Chunk]) -> list[ChunkOut]:
    return [ChunkOut.of(c) for c in chunks]


class CaseResult(Out):
    case: CaseOut


class CaseList(Out):
    status_filter: str
    active_case_id: str | None
    cases: list[CaseOut]


class DeletedCase(Out):
    deleted: CaseOut


class CaseInfo(Out):
    case: CaseOut
    documents: list[DocumentOut]


class DocumentPage(Out):
    case: str
    total: int
    offset: int
    limit: int
    has_more: bool
    documents: list[DocumentOut]


class DocumentsOfType(Out):
    document_type: str
    total: int
    documents: list[DocumentOut]


class DocumentResult(Out):
    document: DocumentOut


class DeletedDocument(Out):
    deleted: DocumentOut
    warning: str | None


class ChunkDetail(ChunkOut):
    chunk_count: int
    embedders: list[str]
    transcript: TranscriptPin | None = None  # a transcript's page:line of the chunk (issue 37)


class DocumentChunks(Out):
    document: DocumentOut
    chunks: list[ChunkOut]


class SourceContext(Out):
    chunk: ChunkOut
    before: list[ChunkOut]
    after: list[ChunkOut]
    transcript: TranscriptPin | None = None  # the chunk's transcript page:line, as for get_chunk


class PageRange(Out):
    document: DocumentOut
    start_page: int
    end_page: int
    chunks: list[ChunkOut]


class Traversal(Out):
    document: DocumentOut
    direction: str
    chunks: list[ChunkOut]


if TYPE_CHECKING:  # built at run time from the dataclass's fields; a type checker sees their base
    StructureEntry = Out
else:
    StructureEntry = model_of(OutlineEntry, "StructureEntry")  # the service's outline entry, field for field


class DocumentStructure(Out):
    document: DocumentOut
    entries: list[StructureEntry]

    @classmethod
    def of(cls, doc: Document, entries: Sequence[OutlineEntry]) -> DocumentStructure:
        return cls(document=DocumentOut.of(doc),
                   entries=[StructureEntry.model_validate(e, from_attributes=True) for e in entries])


class Relinked(Out):
    document: DocumentOut
    same_content: bool  # the file holds the bytes the document was made from (SHA-256 matches)
    detail: str


# --- list_clauses: a document's passages by clause type, each with the place inside it that holds the clause


class ClausePassage(ChunkOut):
    clause: ClausePlace | None = None  # the lines of the passage that hold this clause type


class ClauseGroup(Out):
    clause_type: str
    label: str
    passages: list[ClausePassage]


class ClauseLibrary(Out):
    document: DocumentOut
    clause_types: list[ClauseGroup]

    @classmethod
    def of(cls, doc: Document, groups: Sequence[tuple[Role, Sequence[Chunk]]]) -> ClauseLibrary:
        return cls(document=DocumentOut.of(doc), clause_types=[
            ClauseGroup(clause_type=role.id, label=role.label,
                        passages=[ClausePassage.of(c, clause=ClausePlace.of(c, role.id)) for c in chunks])
            for role, chunks in groups])
