"""Context-graph tools (tool spec 2.25-2.32, 2.35, 2.40). Every mention comes back with the
passage it sits in and its full citation."""

from __future__ import annotations

from collections import Counter
from typing import Annotated, Any, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp.server import READ_ONLY, ToolRegistrar, result
from casetrack.render import graph as render
from casetrack.service.app import CaseTrack
from casetrack.service.distribution.licensing import require_pro
from casetrack.service.graph.case_graph import Mention, Node
from casetrack.service.graph.date_range import date_range
from casetrack.service.graph.relations import clusters, related

EntityKind = Literal["person", "organization", "court", "statute", "case_citation", "date", "monetary_amount",
                     "legal_concept"]
AuthorityKind = Literal["federal_statute", "state_statute", "federal_rule", "state_rule", "case_law", "regulation"]


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    def context() -> tuple[Any, Any]:
        case = app.active_case()
        return case, app.graph.graph(case)

    def located(case: Any, mentions: list[Mention], limit: int) -> list[dict[str, Any]]:
        return app.graph_reader.locate(case, mentions[:limit])

    @tool(READ_ONLY, "Get a high-level briefing on the active case: parties and their roles, key dates and events, "
                     "key legal issues, document breakdown by category, most-cited legal authorities, "
                     "most-mentioned entities, and case statistics. Call this FIRST when starting work on a case.")
    def get_case_map() -> CallToolResult:
        case, graph = context()
        info = app.case_info(case.id)
        coverage = app.graph_reader.embedder_coverage(case)
        text, data = render.case_map(info, graph, coverage)
        return result(text, data)

    @tool(READ_ONLY, "Get a chronological timeline of key dates and events extracted from documents in the active "
                     "case. Each event includes the date, description, and source document/chunk provenance.")
    def get_case_timeline(
        start_date: Annotated[str | None, Field(description="Optional: filter events from this date (YYYY-MM-DD)")]
        = None,
        end_date: Annotated[str | None, Field(description="Optional: filter events until this date (YYYY-MM-DD)")]
        = None,
    ) -> CallToolResult:
        start_date, end_date = date_range(start_date, end_date)
        case, graph = context()
        events = graph.events_between(start_date, end_date)
        details = located(case, [e.mention for e in events], 500)
        return result(*render.timeline(case.name, events, details, start_date, end_date))

    @tool(READ_ONLY, "Get detailed statistics about the active case: document counts by type, page/chunk totals, "
                     "entity and citation counts, embedder coverage, storage usage.")
    def get_case_statistics() -> CallToolResult:
        case, graph = context()
        info = app.case_info(case.id)
        return result(*render.statistics(info, graph, app.graph_reader.embedder_coverage(case)))

    @tool(READ_ONLY, "List all entities extracted from documents in the active case, grouped by type, with mention "
                     "and document counts. Entities: persons, organizations, courts, statutes, case citations, "
                     "dates, monetary amounts, legal concepts.")
    def list_entities(
        entity_type: Annotated[EntityKind | Literal["all"], Field(description="Filter by entity type")] = "all",
        sort_by: Annotated[Literal["mentions", "documents", "name"], Field(description="Sort order")] = "mentions",
        top_k: Annotated[int, Field(ge=1, le=500, description="Maximum entities to return")] = 50,
    ) -> CallToolResult:
        case, graph = context()
        nodes = [n for n in graph.entities.values() if entity_type == "all" or n.kind == entity_type]
        return result(*render.node_list(case.name, "entities", _sorted(nodes, sort_by)[:top_k], len(nodes),
                                        entity_type))

    @tool(READ_ONLY, "Get all chunks that mention a specific entity, with context snippets showing how the entity "
                     "is referenced. Supports fuzzy matching on entity name.")
    def get_entity_mentions(
        entity_name: Annotated[str, Field(description="Name of the entity to find (e.g., 'John Smith', "
                                                      "'42 USC 1983', 'breach of contract')")],
        entity_type: Annotated[EntityKind | Literal["any"], Field()] = "any",
        top_k: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> CallToolResult:
        case, graph = context()
        nodes = app.graph.find_entities(graph, entity_name, entity_type)
        mentions = [m for n in nodes for m in n.mentions]
        passages = _one_per_passage(mentions)
        details = located(case, [first for first, _ in passages], top_k)
        for detail, (_, count) in zip(details, passages, strict=False):
            detail["mentions_in_passage"] = count
        return result(*render.mentions(entity_name, nodes, details, len(passages), len(mentions)))

    @tool(READ_ONLY, "Find chunks where two or more entities are mentioned together, to trace relationships (who "
                     "interacted with whom, what statute applies to which party).")
    def search_entity_relationships(
        entities: Annotated[list[str], Field(min_length=2, max_length=5, description="Entity names to find together "
                                                                                     "(e.g., ['Smith Corp', "
                                                                                     "'Jones LLC'])")],
        top_k: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> CallToolResult:
        require_pro(app.licence, "search_entity_relationships")
        case, graph = context()
        groups = [app.graph.find_entities(graph, name) for name in entities]
        per_chunk: list[dict[str, list[Mention]]] = []
        for nodes in groups:
            chunks: dict[str, list[Mention]] = {}
            for node in nodes:
                for m in node.mentions:
                    if m.chunk_id:
                        chunks.setdefault(m.chunk_id, []).append(m)
            per_chunk.append(chunks)
        together = set.intersection(*(set(c) for c in per_chunk))
        ranked = sorted(together, key=lambda c: -sum(len(p[c]) for p in per_chunk))
        first = [per_chunk[0][c][0] for c in ranked]
        return result(*render.together(entities, groups, located(case, first, top_k), len(ranked)))

    @tool(READ_ONLY, "List all legal authorities (statutes, case law, rules, regulations) cited in the active case, "
                     "with type, citation count and number of citing documents.")
    def list_authorities(
        authority_type: Annotated[AuthorityKind | Literal["all"], Field()] = "all",
        sort_by: Annotated[Literal["citations", "documents", "name"], Field()] = "citations",
        top_k: Annotated[int, Field(ge=1, le=200)] = 50,
    ) -> CallToolResult:
        case, graph = context()
        nodes = [n for n in graph.authorities.values() if authority_type == "all" or n.kind == authority_type]
        order = {"citations": "mentions", "documents": "documents", "name": "name"}[sort_by]
        return result(*render.node_list(case.name, "authorities", _sorted(nodes, order)[:top_k], len(nodes),
                                        authority_type))

    @tool(READ_ONLY, "Get all chunks that cite a specific legal authority, with the context of each citation and "
                     "its treatment (cited, followed, distinguished, overruled, discussed).")
    def get_authority_citations(
        authority: Annotated[str, Field(description="The legal authority to look up (e.g., '42 USC 1983', "
                                                    "'Miranda v. Arizona')")],
        treatment_filter: Annotated[Literal["cited", "followed", "distinguished", "overruled", "discussed", "all"],
                                    Field()] = "all",
        top_k: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> CallToolResult:
        case, graph = context()
        nodes = app.graph.find_authority(graph, authority)
        mentions = [m for n in nodes for m in n.mentions if treatment_filter in ("all", m.treatment)]
        return result(*render.citations(authority, nodes, located(case, mentions, top_k), len(mentions),
                                        treatment_filter))

    @tool(READ_ONLY, "Find documents related to a given document: shared entities, shared legal authorities, "
                     "semantic similarity, response chains (complaint->answer->reply, e-mails of one thread), and "
                     "amendment chains. Ranked by relationship strength.")
    def find_related_documents(
        document_name: Annotated[str, Field(description="Document name or ID to find relationships for")],
        relationship_type: Annotated[Literal["all", "shared_entities", "shared_authorities", "semantic_similar",
                                             "response_chain", "amendment_chain"], Field()] = "all",
        top_k: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> CallToolResult:
        case, graph = context()
        doc = app.documents.resolve(case, document_name)
        found = related(doc, graph, app.search.index(case), relationship_type, top_k)
        return result(*render.related(doc, found, relationship_type))

    @tool(READ_ONLY, "Group all documents in the case by theme or topic: 'topical' = semantic clustering of "
                     "document embeddings, 'entity' = shared parties, 'authority' = shared citations, "
                     "'document_type' = by type. Each cluster has a label describing what it shares.")
    def find_document_clusters(
        strategy: Annotated[Literal["topical", "entity", "authority", "document_type"], Field()] = "topical",
        max_clusters: Annotated[int, Field(ge=1, le=20)] = 10,
    ) -> CallToolResult:
        require_pro(app.licence, "find_document_clusters")
        case, graph = context()
        index = app.search.index(case)
        terms: dict[str, Counter[str]] = {}
        with index.lock:
            for chunk_id, doc_id in index.doc_of.items():
                terms.setdefault(doc_id, Counter()).update(index.bm25.entry(chunk_id))
        found = clusters(graph, index, strategy, max_clusters, terms)
        return result(*render.clusters(case.name, strategy, found))


def _one_per_passage(mentions: list[Mention]) -> list[tuple[Mention, int]]:
    """The first mention in each chunk, with how many mentions that chunk holds, in reading order."""
    grouped: dict[object, list[Mention]] = {}
    for m in sorted(mentions, key=lambda m: (m.document_name, m.page, m.char_start)):
        grouped.setdefault(m.chunk_id or (m.document_id, m.page, m.char_start), []).append(m)
    return [(group[0], len(group)) for group in grouped.values()]


def _sorted(nodes: list[Node], by: str) -> list[Node]:
    if by == "name":
        return sorted(nodes, key=lambda n: n.name.casefold())
    if by == "documents":
        return sorted(nodes, key=lambda n: (-len(n.documents), -len(n.mentions), n.name.casefold()))
    return sorted(nodes, key=lambda n: (-len(n.mentions), -len(n.documents), n.name.casefold()))

