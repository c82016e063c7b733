"""The structured results of the tools, as pydantic models: the SDK publishes each as the tool's
`outputSchema` and checks every result against it before it is sent (`Annotated[CallToolResult,
Model]`), so a client can rely on the fields. The text a person reads is built separately, in
`render/`. Models forbid unknown fields: a field added in `render/` without its place here fails
the call (and the test over every tool), instead of drifting out of the published schema."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, RootModel


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


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
    char_start: int
    char_end: int
    extraction_method: str
    ocr_confidence: float | None
    bates: str | None
    ingested_at: str | None
    embedded_at: str | None
    attachment: str | None = None
    attachment_page: int | None = None


class ChunkOut(Out):
    chunk_id: str
    sequence: int
    text: str
    token_count: int
    citation: str
    citation_short: str
    source: Source


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


class DocumentChunks(Out):
    document: DocumentOut
    chunks: list[ChunkOut]


class SourceContext(Out):
    chunk: ChunkOut
    before: list[ChunkOut]
    after: list[ChunkOut]


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


class Hit(ChunkOut):
    rank: int
    score: float | None
    signal_ranks: dict[str, int]
    context: Context
    also_in: list[Copy]
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


class IndexStatus(Out):
    case: str
    ready_embedders: list[str]
    running_jobs: list[str]
    watches: list[str]
    documents: list[DocumentHealth]


# --- the context graph ----------------------------------------------------------


class Node(Out):
    key: str
    name: str
    type: str
    roles: list[str]
    mentions: int
    documents: int


class Event(Out):
    date: str
    event: str
    description: str
    document: str
    document_id: str
    page: int
    chunk_id: str | None
    text: str
    char_start: int
    char_end: int
    also_on_pages: list[int]


class Statistics(Out):
    documents: int
    pages: int
    chunks: int


class CaseMap(Out):
    case: str
    documents: int | None = None  # only for an empty case (0)
    parties: list[Node] = []
    judges: list[Node] = []
    attorneys: list[Node] = []
    courts: list[Node] = []
    correspondents: list[Node] = []
    key_dates: list[Event] = []
    issues: list[Node] = []
    documents_by_type: dict[str, int] = {}
    top_authorities: list[Node] = []
    top_entities: list[Node] = []
    embedder_coverage: dict[str, int] = {}
    statistics: Statistics | None = None


class Located(BaseModel):
    """A mention with the passage it sits in: where the mention itself is (`mention_citation`,
    paragraph and line), its snippet, and the passage's citation and provenance fields."""

    model_config = ConfigDict(extra="allow")  # the passage's provenance fields ride along

    text: str
    snippet: str
    document: str
    document_id: str
    page: int
    citation: str
    citation_short: str
    chunk_id: str | None


class LocatedEvent(Located):
    """A timeline event with the passage it was read from."""

    date: str
    event: str
    description: str
    char_start: int
    char_end: int
    also_on_pages: list[int]


class Timeline(Out):
    case: str
    events: list[LocatedEvent]
    total: int = 0


class CaseStatistics(Out):
    case: str
    documents: int
    pages: int
    chunks: int
    ocr_pages: int
    skipped_pages: int
    documents_by_type: dict[str, int]
    entities: int
    entities_by_type: dict[str, int]
    authorities: int
    authorities_by_type: dict[str, int]
    citations: int
    events: int
    embedder_coverage: dict[str, int]
    storage_bytes: int


class Entities(Out):
    case: str
    entities: list[Node]
    total: int


class Authorities(Out):
    case: str
    authorities: list[Node]
    total: int


class Mentions(Out):
    entity: str
    matched: list[Node]
    total_mentions: int
    total_passages: int
    mentions: list[Located]


class Together(Out):
    entities: list[str]
    matched: list[list[str]]
    total: int
    chunks: list[Located]


class Citations(Out):
    authority: str
    matched: list[Node]
    treatment_filter: str
    treatments: dict[str, int]
    total: int
    citations: list[Located]


class Relation(Out):
    document: str
    document_id: str
    score: float
    relationships: list[str]
    reasons: list[str]


class RelatedDocuments(Out):
    document: str
    document_id: str | None = None
    related: list[Relation]


class ClusterDocument(Out):
    name: str
    id: str


class Cluster(Out):
    label: str
    detail: str
    documents: list[ClusterDocument]


class Clusters(Out):
    case: str
    strategy: str
    clusters: list[Cluster]


# --- watches and status ---------------------------------------------------------


class WatchProgress(Out):
    done: int
    total: int
    current_file: str


class WatchOut(Out):
    watch_id: str
    folder: str
    case_id: str
    schedule: str
    auto_remove_deleted: bool
    file_extensions: list[str] | None
    created_at: str | None
    status: str
    status_detail: str | None
    last_sync_at: str | None
    last_sync_kind: str | None
    last_sync_duration_s: float | None
    last_sync_counts: dict[str, int]
    totals: dict[str, int]
    last_error: str | None
    last_error_at: str | None
    case: str | None = None
    case_status: str | None = None
    run_by: str | None = None
    pending_changes: int | None = None
    progress: WatchProgress | None = None
    created: bool | None = None
    removed: bool | None = None


class Watches(Out):
    watches: list[WatchOut]
    run_by: str


class Embedder(Out):
    id: str
    label: str
    state: str
    detail: str


class Status(Out):
    version: str
    data_dir: str
    active_case: str | None
    tier: str
    memory_mode: str
    memory_mode_reason: str
    embedders: list[Embedder]
    models_bytes: int
    case_count: int
    cases_bytes: int
    process_rss_bytes: int
    system_total_bytes: int
    system_available_bytes: int
    os: str
    ocr: str
    recovered: list[str]
