"""The structured results of the context-graph tools (see `mcp/outputs.py`)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, Self

from pydantic import Field

from casetrack.domain import Case
from casetrack.mcp.outputs import Out, model_of
from casetrack.render.graph import CaseCounts, ThreadRow, map_dates, map_sections, thread_rows
from casetrack.service.graph import case_graph, queries
from casetrack.service.graph import relations as graph_relations
from casetrack.service.graph.model import LocatedMention
from casetrack.service.search import mail_index

# --- the context graph ----------------------------------------------------------


class Node(Out):
    key: str
    name: str
    type: str
    roles: list[str]
    mentions: int
    documents: int

    @classmethod
    def of(cls, n: case_graph.Node) -> Node:
        return cls(key=n.key, name=n.name, type=n.kind, roles=sorted(n.roles), mentions=len(n.mentions),
                   documents=len(n.documents))


def nodes_of(nodes: list[case_graph.Node]) -> list[Node]:
    return [Node.of(n) for n in nodes]


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

    @classmethod
    def of(cls, e: case_graph.Event) -> Event:
        m = e.mention
        return cls(date=e.iso, event=e.event, description=e.description, document=m.document_name,
                   document_id=m.document_id, page=m.page, chunk_id=m.chunk_id, text=m.text,
                   char_start=m.char_start, char_end=m.char_end, also_on_pages=list(e.also_on_pages))


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

    @classmethod
    def of(cls, case: Case, graph: case_graph.CaseGraph, coverage: dict[str, int]) -> CaseMap:
        if not graph.documents:
            return cls(case=case.name, documents=0)
        m = map_sections(graph)
        return cls(case=case.name, parties=nodes_of(m.parties), judges=nodes_of(m.judges),
                   attorneys=nodes_of(m.attorneys), courts=nodes_of(m.courts),
                   correspondents=nodes_of(m.correspondents[:25]),
                   key_dates=[Event.of(e) for e in map_dates(m.key_events, 50)], issues=nodes_of(m.issues),
                   documents_by_type=dict(m.by_type), top_authorities=nodes_of(m.authorities[:25]),
                   top_entities=nodes_of(m.entities[:25]), embedder_coverage=coverage,
                   statistics=Statistics(documents=len(graph.documents), pages=case.stats.page_count,
                                         chunks=case.stats.chunk_count))


class Located(Out):
    """A mention with the passage it sits in: where the mention itself is (`mention_citation`,
    paragraph and line), its snippet, and the passage's citation and provenance fields."""

    text: str
    snippet: str
    treatment: str | None  # authorities only
    role: str | None
    document: str
    document_id: str
    file_path: str | None
    page: int
    char_start: int
    char_end: int
    chunk_id: str | None
    mention_paragraph: int
    mention_line: int
    mention_citation: str
    citation: str
    citation_short: str
    # the passage's provenance (`domain.Provenance`), sent only when the mention sits in a stored chunk
    paragraph_start: int | None = None
    paragraph_end: int | None = None
    line_start: int | None = None
    line_end: int | None = None
    extraction_method: str | None = None  # native | ocr
    ocr_confidence: float | None = None  # OCR only
    bates: str | None = None  # the page's Bates number
    mentions_in_passage: int | None = None  # get_entity_mentions only: how many mentions the passage holds

    @classmethod
    def of(cls, r: LocatedMention, **more: Any) -> Self:  # `more`: a subclass's own fields
        m, doc = r.mention, r.document
        out = cls(text=m.text, snippet=r.snippet, treatment=m.treatment, role=m.role, document=doc.name,
                  document_id=doc.id, file_path=doc.original_path, page=m.page, char_start=m.char_start,
                  char_end=m.char_end, chunk_id=m.chunk_id, mention_paragraph=r.mention_paragraph,
                  mention_line=r.mention_line, mention_citation=r.mention_citation, citation=r.citation,
                  citation_short=r.citation_short, **more)
        if (p := r.passage) is not None:  # set only here: a mention with no stored chunk has none of them
            out.paragraph_start, out.paragraph_end, out.line_start, out.line_end = (
                p.paragraph_start, p.paragraph_end, p.line_start, p.line_end)
            out.extraction_method, out.ocr_confidence, out.bates = (
                p.extraction_method.value, p.ocr_confidence, p.bates_number)
        if r.mentions_in_passage is not None:
            out.mentions_in_passage = r.mentions_in_passage
        return out


class LocatedEvent(Located):
    """A timeline event with the passage it was read from."""

    date: str
    event: str
    description: str
    also_on_pages: list[int]


class Timeline(Out):
    case: str
    events: list[LocatedEvent]
    total: int = 0

    @classmethod
    def of(cls, found: queries.Timeline) -> Timeline:
        events = [LocatedEvent.of(d, date=e.iso, event=e.event, description=e.description,
                                  also_on_pages=list(e.also_on_pages))
                  for e, d in zip(found.events, found.details, strict=False)]
        return cls(case=found.case.name, events=events, total=len(found.events))


# get_case_statistics' counts, field for field (render/graph.py counts them for the text too)
if TYPE_CHECKING:  # built at run time from the dataclass's fields; a type checker sees their base
    CaseStatistics = Out
else:
    CaseStatistics = model_of(CaseCounts, "CaseStatistics")


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

    @classmethod
    def of(cls, name: str, found: queries.Located) -> Mentions:
        return cls(entity=name, matched=nodes_of(found.nodes), total_mentions=found.total,
                   total_passages=found.passages, mentions=located(found.details))


def located(details: list[LocatedMention]) -> list[Located]:
    return [Located.of(d) for d in details]


class Together(Out):
    entities: list[str]
    matched: list[list[str]]
    total: int
    chunks: list[Located]

    @classmethod
    def of(cls, names: list[str], found: queries.Together) -> Together:
        return cls(entities=names, matched=[[n.name for n in g] for g in found.groups],
                   total=found.total if found.details else 0, chunks=located(found.details))


class Citations(Out):
    authority: str
    matched: list[Node]
    treatment_filter: str
    treatments: dict[str, int]
    total: int
    citations: list[Located]

    @classmethod
    def of(cls, authority: str, treatment: str, found: queries.Located) -> Citations:
        return cls(authority=authority, matched=nodes_of(found.nodes), treatment_filter=treatment,
                   treatments=dict(Counter(m.treatment for n in found.nodes for m in n.mentions if m.treatment)),
                   total=found.total, citations=located(found.details))


class Relation(Out):
    document: str
    document_id: str
    score: float
    relationships: list[str]
    reasons: list[str]


if TYPE_CHECKING:
    ThreadMessage = Out
else:
    ThreadMessage = model_of(ThreadRow, "ThreadMessage")  # render/graph.py's rows, field for field


class EmailThread(Out):
    document: str
    subject: str
    messages: list[ThreadMessage]

    @classmethod
    def of(cls, found: mail_index.EmailThread) -> EmailThread:
        return cls(document=found.document.name, subject=found.subject,
                   messages=[ThreadMessage.model_validate(r, from_attributes=True) for r in thread_rows(found)])


class RelatedDocuments(Out):
    document: str
    document_id: str | None = None
    related: list[Relation]

    @classmethod
    def of(cls, found: queries.Related) -> RelatedDocuments:
        return cls(document=found.document.name, document_id=found.document.id, related=[
            Relation(document=r.document.name, document_id=r.document.id, score=round(r.score, 3),
                     relationships=sorted(r.kinds), reasons=r.reasons) for r in found.found])


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

    @classmethod
    def of(cls, case_name: str, strategy: str, found: list[graph_relations.Cluster]) -> Clusters:
        return cls(case=case_name, strategy=strategy, clusters=[
            Cluster(label=c.label, detail=c.detail, documents=[ClusterDocument(name=d.name, id=d.id)
                                                               for d in c.documents]) for c in found])
