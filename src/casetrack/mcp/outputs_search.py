"""The structured results of the search and index tools (see `mcp/outputs.py`): every passage found carries its
citation and full provenance, as `ChunkOut` does."""

from __future__ import annotations

from casetrack.mcp.outputs import ChunkOut, DocumentOut, Out, Source
from casetrack.mcp.outputs_transcripts import TranscriptPin
from casetrack.render.search import entity_rows
from casetrack.service.app import IndexStatus as IndexStatusView
from casetrack.service.graph.find_entity import EntityPassages
from casetrack.service.ingest import reindex
from casetrack.service.search.index_status import IndexFilesStatus
from casetrack.service.search.query import SearchHit, SearchResponse


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
    also_in: list[Copy]  # where else the case holds this passage word for word: cited, not repeated
    thread: ThreadPlace | None = None  # an e-mail's place in its thread
    transcript: TranscriptPin | None = None  # a transcript passage: the rows holding the answer (issue 37)
    match: str | None = None  # find_entity: "mention" (names it) or "related"

    @classmethod
    def of_hit(cls, hit: SearchHit, rank: int, match: str | None = None, searched: bool = True) -> Hit:
        t = hit.thread
        return cls.of(hit.chunk, rank=rank, score=hit.score if searched else None, signal_ranks=dict(hit.ranks),
                      context=Context(before=hit.context_before, after=hit.context_after),
                      also_in=[Copy(chunk_id=c.id, citation=c.provenance.cite(),
                                    citation_short=c.provenance.cite_short(), source=Source.of(c.provenance))
                               for c in hit.copies],
                      thread=None if t is None else ThreadPlace(subject=t.subject, position=t.position,
                                                                messages=t.messages),
                      **({"transcript": TranscriptPin.of(hit.transcript)} if hit.transcript else {}),
                      **({"match": match} if match else {}))


def hits_of(hits: list[SearchHit]) -> list[Hit]:
    return [Hit.of_hit(h, i) for i, h in enumerate(hits, start=1)]


class SearchResult(Out):
    query: str
    case: str
    case_id: str  # the case searched, as create_case and list_cases give it (a name can be reused after a delete)
    results_count: int
    search_time_ms: float
    tier: str
    stages_used: list[str]
    embedders_used: list[str]
    documents_searched: int
    chunks_searched: int
    document_filter: str | None
    named_documents: list[str]
    roles_asked: list[str] = []  # noqa: RUF012 (a pydantic field: copied per instance)
    clause_type: str | None = None
    results: list[Hit]

    @classmethod
    def of(cls, r: SearchResponse, tier: str) -> SearchResult:
        return cls(query=r.query,
                   case=r.case.name,
                   case_id=r.case.id,
                   results_count=len(r.hits),
                   search_time_ms=round(r.elapsed_ms, 1),
                   tier=tier,
                   stages_used=list(r.stages_used),
                   embedders_used=list(r.signals),
                   documents_searched=r.documents_searched,
                   chunks_searched=r.chunks_searched,
                   document_filter=r.document_filter.name if r.document_filter else None,
                   named_documents=list(r.named_documents),
                   roles_asked=list(r.roles_asked),
                   clause_type=r.clause_type,
                   results=hits_of(r.hits))


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

    @classmethod
    def of(cls, entity: str, entity_type: str, found: EntityPassages) -> EntityResult:
        return cls(entity=entity, entity_type=entity_type, exact_mentions=len(found.mentions),
                   passages_naming_it=found.naming,
                   matched=[Matched(name=n.name, type=n.kind, key=n.key) for n in found.matched],
                   results=[Hit.of_hit(h, i, kind, h.chunk.id in found.searched)
                            for i, (kind, h) in enumerate(entity_rows(found), start=1)])


class Reindexed(Out):
    action: str
    detail: str
    document: DocumentOut

    @classmethod
    def of(cls, done: reindex.Reindexed) -> Reindexed:
        return cls(action=done.action, detail=done.detail, document=DocumentOut.of(done.document))


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

    @classmethod
    def of(cls, s: IndexFilesStatus) -> IndexFiles:
        return cls(state=s.state, store_generation=s.store_generation, files_generation=s.files_generation,
                   size_bytes=s.size_bytes, unwritten_chunks=s.unwritten_chunks,
                   rebuild_progress=None if s.rebuilt is None else RebuildProgress(done=s.rebuilt[0],
                                                                                    total=s.rebuilt[1]),
                   problem=s.problem,
                   files=[IndexFile(path=f.path, generation=f.generation, size_bytes=f.size_bytes, chunks=f.chunks,
                                    deleted_chunks=f.deleted_chunks, state=f.state) for f in s.files])


class IndexStatus(Out):
    index_files: IndexFiles
    case: str
    ready_embedders: list[str]
    running_jobs: list[str]
    watches: list[str]
    documents: list[DocumentHealth]

    @classmethod
    def of(cls, status: IndexStatusView) -> IndexStatus:
        return cls(index_files=IndexFiles.of(status.files), case=status.case.name,
                   ready_embedders=list(status.health.ready_embedders), running_jobs=[j.id for j in status.running],
                   watches=status.watches,
                   documents=[DocumentHealth(name=d.document.name, id=d.document.id, source=d.source,
                                             missing_embedders=list(d.missing_embedders),
                                             skipped_pages=d.skipped_pages, embedders=list(d.document.embedders),
                                             healthy=d.healthy) for d in status.health.documents])
