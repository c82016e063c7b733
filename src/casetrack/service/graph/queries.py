"""The context-graph questions a user asks (tool spec 2.25-2.32, 2.35, 2.40), one method each:
the case map, timeline and statistics, entities and their mentions, authorities and their
citations, related documents and clusters. Every mention comes back located: the passage it sits
in and its full citation."""

from __future__ import annotations

from dataclasses import dataclass, replace

from casetrack.domain import Case, Document
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.distribution.licensing import Licence, require_pro
from casetrack.service.graph.case_graph import CaseGraph, Event, GraphReader, GraphService, Mention, Node
from casetrack.service.graph.date_range import date_range
from casetrack.service.graph.model import LocatedMention
from casetrack.service.graph.relations import Cluster, Relation, clusters, related
from casetrack.service.search.query import SearchService
from casetrack.store.stats import read_stats

MAX_EVENTS = 500


@dataclass(frozen=True, slots=True)
class CaseOverview:
    case: Case  # statistics read from the case's own store
    graph: CaseGraph
    coverage: dict[str, int]  # embedder -> chunks it covers


@dataclass(frozen=True, slots=True)
class Timeline:
    case: Case
    events: list[Event]
    details: list[LocatedMention]  # the first MAX_EVENTS events' passages
    start: str | None
    end: str | None


@dataclass(frozen=True, slots=True)
class Nodes:
    case: Case
    nodes: list[Node]  # the page asked for
    total: int  # how many match the filter


@dataclass(frozen=True, slots=True)
class Located:
    nodes: list[Node]  # what the name matched
    details: list[LocatedMention]  # the passages shown
    passages: int  # how many passages there are in all
    total: int  # how many mentions there are in all


@dataclass(frozen=True, slots=True)
class Together:
    groups: list[list[Node]]  # what each name matched
    details: list[LocatedMention]
    total: int


@dataclass(frozen=True, slots=True)
class Related:
    document: Document
    found: list[Relation]


class GraphQueries:
    def __init__(self, cases: CaseService, graphs: GraphService, reader: GraphReader, documents: DocumentReader,
                 search: SearchService, licence: Licence) -> None:
        self._cases, self._graphs, self._reader = cases, graphs, reader
        self._documents, self._search, self._licence = documents, search, licence

    def overview(self, case: Case) -> CaseOverview:
        """The case map's and the statistics' input. Counts come from the case store (the registry's
        copy can lag a crash), storage from the folder."""
        store = self._cases.store(case)
        with store.reader() as db:
            stats = read_stats(db)
        fresh = replace(case, stats=replace(stats, storage_bytes=store.storage_bytes()))
        return CaseOverview(fresh, self._graphs.graph(case), self._reader.embedder_coverage(case))

    def timeline(self, case: Case, start: str | None, end: str | None) -> Timeline:
        """Raises InvalidInput for a date that is not one, or a start after the end."""
        low, high = date_range(start, end)
        events = self._graphs.graph(case).events_between(low, high)
        details = self._reader.locate(case, [e.mention for e in events][:MAX_EVENTS])
        # Events and passages are read side by side: an event whose document went since the graph was built
        # (locate leaves it out) goes too, or every later event would be shown beside the next one's passage.
        located = {id(d.mention) for d in details}
        gone = {id(e.mention) for e in events[:MAX_EVENTS]} - located
        return Timeline(case, [e for e in events if id(e.mention) not in gone], details, low, high)

    def entities(self, case: Case, kind: str, sort_by: str, top_k: int) -> Nodes:
        graph = self._graphs.graph(case)
        nodes = [n for n in graph.entities.values() if kind == "all" or n.kind == kind]
        return Nodes(case, sort_nodes(nodes, sort_by)[:top_k], len(nodes))

    def authorities(self, case: Case, kind: str, sort_by: str, top_k: int) -> Nodes:
        graph = self._graphs.graph(case)
        nodes = [n for n in graph.authorities.values() if kind == "all" or n.kind == kind]
        order = {"citations": "mentions", "documents": "documents", "name": "name"}[sort_by]
        return Nodes(case, sort_nodes(nodes, order)[:top_k], len(nodes))

    def mentions(self, case: Case, name: str, kind: str, top_k: int) -> Located:
        """Every passage that mentions what `name` matches, one entry per passage (its first
        mention, with how many it holds), in reading order."""
        nodes = self._graphs.find_entities(self._graphs.graph(case), name, kind)
        mentions = [m for n in nodes for m in n.mentions]
        passages = one_per_passage(mentions)
        counts = {id(first): count for first, count in passages[:top_k]}  # by mention: locate may leave one out
        details = [replace(detail, mentions_in_passage=counts[id(detail.mention)])
                   for detail in self._reader.locate(case, [first for first, _ in passages][:top_k])]
        return Located(nodes, details, len(passages), len(mentions))

    def together(self, case: Case, names: list[str], top_k: int) -> Together:
        """Passages where every one of `names` is mentioned (Pro). Raises ProFeature."""
        require_pro(self._licence, "search_entity_relationships")
        graph = self._graphs.graph(case)
        groups = [self._graphs.find_entities(graph, name) for name in names]
        per_chunk: list[dict[str, list[Mention]]] = []
        for nodes in groups:
            chunks: dict[str, list[Mention]] = {}
            for m in (m for node in nodes for m in node.mentions if m.chunk_id):
                chunks.setdefault(m.chunk_id or "", []).append(m)
            per_chunk.append(chunks)
        shared = set.intersection(*(set(c) for c in per_chunk)) if per_chunk else set()
        ranked = sorted(shared, key=lambda c: -sum(len(p[c]) for p in per_chunk))
        first = [per_chunk[0][c][0] for c in ranked][:top_k]
        return Together(groups, self._reader.locate(case, first), len(ranked))

    def citations(self, case: Case, authority: str, treatment: str, top_k: int) -> Located:
        nodes = self._graphs.find_authority(self._graphs.graph(case), authority)
        mentions = [m for n in nodes for m in n.mentions if treatment in ("all", m.treatment)]
        return Located(nodes, self._reader.locate(case, mentions[:top_k]), len(mentions), len(mentions))

    def related(self, case: Case, document: str, kind: str, top_k: int) -> Related:
        """Raises NotFound for an unknown document."""
        doc = self._documents.resolve(case, document)
        found = related(doc, self._graphs.graph(case), self._search.index(case), kind, top_k)
        return Related(doc, found)

    def clusters(self, case: Case, strategy: str, max_clusters: int) -> list[Cluster]:
        """Documents grouped by `strategy` (Pro). Raises ProFeature."""
        require_pro(self._licence, "find_document_clusters")
        return clusters(self._graphs.graph(case), self._search.index(case), strategy, max_clusters,
                        self._search.document_terms(case))


def one_per_passage(mentions: list[Mention]) -> list[tuple[Mention, int]]:
    """The first mention in each chunk, with how many mentions that chunk holds, in reading order."""
    grouped: dict[object, list[Mention]] = {}
    for m in sorted(mentions, key=lambda m: (m.document_name, m.page, m.char_start)):
        grouped.setdefault(m.chunk_id or (m.document_id, m.page, m.char_start), []).append(m)
    return [(group[0], len(group)) for group in grouped.values()]


def sort_nodes(nodes: list[Node], by: str) -> list[Node]:
    if by == "name":
        return sorted(nodes, key=lambda n: n.name.casefold())
    if by == "documents":
        return sorted(nodes, key=lambda n: (-len(n.documents), -len(n.mentions), n.name.casefold()))
    return sorted(nodes, key=lambda n: (-len(n.mentions), -len(n.documents), n.name.casefold()))
