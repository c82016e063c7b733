"""The structured results of the context-graph, watch and status tools (see `mcp/outputs.py`)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from casetrack.mcp.outputs import Out, model_of
from casetrack.service.status import StatusReport

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
    parties: list[Node] = Field(default_factory=list)
    judges: list[Node] = Field(default_factory=list)
    attorneys: list[Node] = Field(default_factory=list)
    courts: list[Node] = Field(default_factory=list)
    correspondents: list[Node] = Field(default_factory=list)
    key_dates: list[Event] = Field(default_factory=list)
    issues: list[Node] = Field(default_factory=list)
    documents_by_type: dict[str, int] = Field(default_factory=dict)
    top_authorities: list[Node] = Field(default_factory=list)
    top_entities: list[Node] = Field(default_factory=list)
    embedder_coverage: dict[str, int] = Field(default_factory=dict)
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


class ThreadMessage(Out):
    position: int
    document: str
    document_id: str
    sender: str | None
    recipients: str | None
    sent: str | None
    subject: str | None
    replies_to: str | None
    citation: str


class EmailThread(Out):
    document: str
    subject: str
    messages: list[ThreadMessage]


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


Status = model_of(StatusReport, "Status")
