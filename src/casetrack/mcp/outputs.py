"""The structured results of the tools, as pydantic models: the SDK publishes each as the tool's
`outputSchema` and checks every result against it before it is sent (`Annotated[CallToolResult,
Model]`), so a client can rely on the fields. The text a person reads is built separately, in
`render/`. Models forbid unknown fields: a field added in `render/` without its place here fails
the call (and the test over every tool), instead of drifting out of the published schema."""

from __future__ import annotations

from dataclasses import fields
from typing import get_type_hints

from pydantic import BaseModel, ConfigDict, RootModel, create_model

from casetrack.mcp.outputs_transcripts import TranscriptPin


class Out(BaseModel):
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


class ClausePlace(Out):  # where in a passage its clause is: the lines that hold it, cited, and their text
    clause_type: str
    char_start: int
    char_end: int
    line_start: int
    line_end: int
    citation: str
    text: str


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


class StructureEntry(Out):
    level: int
    title: str | None
    number: str | None
    page: int
    char_start: int
    char_end: int
    chunk_id: str | None
    chunk_sequence: int | None


class DocumentStructure(Out):
    document: DocumentOut
    entries: list[StructureEntry]


# --- search ---------------------------------------------------------------------


class Copy(Out):
    chunk_id: str
    citation: str
    citation_short: str
    source: Source


class Context(Out):
    before: str | None
    after: str | None


class ThreadPlace(Out):
    subject: str
    position: int
    messages: int


class Hit(ChunkOut):
    rank: int
    score: float | None
    signal_ranks: dict[str, int]
    context: Context
    also_in: list[Copy]
    thread: ThreadPlace | None = None  # an e-mail's place in its thread
    transcript: TranscriptPin | None = None  # a transcript passage: the rows holding the answer (issue 37)
    match: str | None = None  # find_entity: "mention" (names it) or "related"


class SearchResult(Out):
    query: str
    case: str
    results_count: int
    search_time_ms: float
    tier: str
    stages_used: list[str]
    embedders_used: list[str]
    documents_searched: int
    chunks_searched: int
    document_filter: str | None
    named_documents: list[str]
    roles_asked: list[str] = []
    clause_type: str | None = None
    results: list[Hit]


class Similar(Out):
    source: ChunkOut
    embedder: str
    results: list[Hit]


class Comparison(Out):
    topic: str
    document_a: SearchResult
    document_b: SearchResult


class Matched(Out):
    name: str
    type: str
    key: str


class EntityResult(Out):
    entity: str
    entity_type: str
    exact_mentions: int
    passages_naming_it: int
    matched: list[Matched]
    results: list[Hit]


# --- ingestion and jobs ---------------------------------------------------------


class FileOutcome(Out):
    path: str
    status: str
    message: str
    document_id: str | None
    pages: int
    chunks: int
    warnings: list[str]


class FolderReport(Out):
    folder: str
    kind: str
    dry_run: bool
    found: int
    subfolders: list[str]
    counts: dict[str, int]
    duration_s: float
    files: list[FileOutcome]


class IngestedReport(Out):
    document: DocumentOut
    duration_s: float


class Job(Out):
    job_id: str
    kind: str
    case: str
    folder: str | None = None
    file_path: str | None = None
    state: str
    done: int
    total: int
    current_file: str | None
    error: str | None
    report: FolderReport | IngestedReport | None


class Jobs(Out):
    jobs: list[Job]


class Ingested(Out):
    case: str
    document: DocumentOut
    duration_s: float
    earlier_version: DocumentOut | None


class IngestAnswer(RootModel[Ingested | Job]):
    """A finished ingest's document, or the job that is still running."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class JobsAnswer(RootModel[Job | Jobs]):
    """One job (asked by id), or the recent jobs."""

    model_config = ConfigDict(json_schema_extra={"type": "object"})


class Reindexed(Out):
    action: str
    detail: str
    document: DocumentOut


class DocumentHealth(Out):
    name: str
    id: str
    source: str
    missing_embedders: list[str]
    skipped_pages: int
    embedders: list[str]
    healthy: bool


class IndexFile(Out):
    path: str  # inside the case folder, e.g. "index/seg-000000000042-1a2b3c4d/"
    generation: int  # the case store generation the file reflects
    size_bytes: int
    chunks: int
    deleted_chunks: int
    state: str  # current | behind | damaged


class RebuildProgress(Out):
    done: int
    total: int


class IndexFiles(Out):
    state: str  # current | behind | rebuilding | damaged | not built (the last three rebuilt from the store)
    store_generation: int
    files_generation: int | None
    size_bytes: int
    unwritten_chunks: int
    rebuild_progress: RebuildProgress | None
    problem: str | None
    files: list[IndexFile]


class IndexStatus(Out):
    index_files: IndexFiles
    case: str
    ready_embedders: list[str]
    running_jobs: list[str]
    watches: list[str]
    documents: list[DocumentHealth]
