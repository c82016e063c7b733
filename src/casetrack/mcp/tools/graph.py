"""Context-graph tools (tool spec 2.25-2.32, 2.35, 2.40). Every mention comes back with the
passage it sits in and its full citation."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_graph as out
from casetrack.mcp.tools.base import CaseName, Ctx, DocRef, TopK, TopK100, app_of, result
from casetrack.render import graph as render

EntityKind = Literal["person", "organization", "court", "statute", "case_citation", "date", "monetary_amount",
                     "legal_concept"]
AuthorityKind = Literal["federal_statute", "state_statute", "federal_rule", "state_rule", "case_law", "regulation"]
Day = Annotated[str | None, Field(description="YYYY-MM-DD (a year or a month also works)")]


def get_case_map(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseMap]:
    """A briefing on a case: parties and roles, key dates, issues, documents by type, most-cited
    authorities, most-mentioned entities. Call this first when starting work on a case."""
    app = app_of(ctx)
    view = app.graph_queries.overview(app.case(case_name))
    return result(render.case_map(view.case, view.graph, view.coverage),
                  out.CaseMap.of(view.case, view.graph, view.coverage))


def get_case_timeline(ctx: Ctx, start_date: Day = None, end_date: Day = None, case_name: CaseName = None
                      ) -> Annotated[CallToolResult, out.Timeline]:
    """Dated events from a case's documents in order, each with its passage and citation."""
    app = app_of(ctx)
    found = app.graph_queries.timeline(app.case(case_name), start_date, end_date)
    return result(render.timeline(found.case.name, found.events, found.details, found.start, found.end),
                  out.Timeline.of(found))


def get_case_statistics(ctx: Ctx, case_name: CaseName = None) -> Annotated[CallToolResult, out.CaseStatistics]:
    """Counts for a case: documents by type, pages, chunks, entities, citations, embedder coverage,
    storage."""
    app = app_of(ctx)
    view = app.graph_queries.overview(app.case(case_name))
    counts = render.case_counts(view.case, view.graph, view.coverage)
    return result(render.statistics(counts, len(view.graph.parties)),
                  out.CaseStatistics.model_validate(counts, from_attributes=True))


def list_entities(
    ctx: Ctx, entity_type: EntityKind | Literal["all"] = "all",
    sort_by: Literal["mentions", "documents", "name"] = "mentions",
    top_k: Annotated[int, Field(ge=1, le=500)] = 50, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Entities]:
    """The people, organizations, courts, statutes, cases, dates, amounts and concepts a case's
    documents name, with mention and document counts."""
    app = app_of(ctx)
    found = app.graph_queries.entities(app.case(case_name), entity_type, sort_by, top_k)
    return result(render.node_list(found.case.name, "entities", found.nodes, found.total, entity_type),
                  out.Entities(case=found.case.name, entities=out.nodes_of(found.nodes), total=found.total))


def get_entity_mentions(
    ctx: Ctx, entity_name: Annotated[str, Field(description="e.g. 'John Smith', '42 USC 1983'")],
    entity_type: EntityKind | Literal["any"] = "any", top_k: TopK100 = 20, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Mentions]:
    """Every passage that mentions an entity (close spellings match), with a snippet and citation."""
    app = app_of(ctx)
    found = app.graph_queries.mentions(app.case(case_name), entity_name, entity_type, top_k)
    return result(render.mentions(entity_name, found.nodes, found.details, found.passages, found.total),
                  out.Mentions.of(entity_name, found))


def search_entity_relationships(
    ctx: Ctx, entities: Annotated[list[str], Field(min_length=2, max_length=5, description="2-5 entity names")],
    top_k: TopK100 = 20, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Together]:
    """Passages where several entities are mentioned together: who dealt with whom, which statute
    applies to which party (Pro)."""
    app = app_of(ctx)
    found = app.graph_queries.together(app.case(case_name), entities, top_k)
    return result(render.together(entities, found.details, found.total), out.Together.of(entities, found))


def list_authorities(
    ctx: Ctx, authority_type: AuthorityKind | Literal["all"] = "all",
    sort_by: Literal["citations", "documents", "name"] = "citations",
    top_k: Annotated[int, Field(ge=1, le=200)] = 50, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Authorities]:
    """The statutes, cases, rules and regulations a case's documents cite, with citation counts."""
    app = app_of(ctx)
    found = app.graph_queries.authorities(app.case(case_name), authority_type, sort_by, top_k)
    return result(render.node_list(found.case.name, "authorities", found.nodes, found.total, authority_type),
                  out.Authorities(case=found.case.name, authorities=out.nodes_of(found.nodes), total=found.total))


def get_authority_citations(
    ctx: Ctx, authority: Annotated[str, Field(description="e.g. '42 USC 1983', 'Miranda v. Arizona'")],
    treatment_filter: Literal["cited", "followed", "distinguished", "overruled", "discussed", "all"] = "all",
    top_k: TopK100 = 20, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Citations]:
    """Every passage citing an authority, with its treatment (followed, distinguished, ...)."""
    app = app_of(ctx)
    found = app.graph_queries.citations(app.case(case_name), authority, treatment_filter, top_k)
    return result(render.citations(found.nodes, found.details, found.total, treatment_filter),
                  out.Citations.of(authority, treatment_filter, found))


def find_related_documents(
    ctx: Ctx, document_name: DocRef,
    relationship_type: Literal["all", "shared_entities", "shared_authorities", "semantic_similar", "response_chain",
                               "amendment_chain"] = "all",
    top_k: TopK = 10, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.RelatedDocuments]:
    """Documents related to one: shared parties or authorities, similar content, response chains
    (complaint, answer, reply; an e-mail thread) and amendments, strongest first."""
    app = app_of(ctx)
    found = app.graph_queries.related(app.case(case_name), document_name, relationship_type, top_k)
    return result(render.related(found.document, found.found, relationship_type), out.RelatedDocuments.of(found))


def get_email_thread(ctx: Ctx, document_name: DocRef, case_name: CaseName = None
                     ) -> Annotated[CallToolResult, out.EmailThread]:
    """An e-mail's thread in the order sent, each message with its sender, date and citation."""
    app = app_of(ctx)
    found = app.search.email_thread(app.case(case_name), document_name)
    return result(render.email_thread(found), out.EmailThread.of(found))


def find_document_clusters(
    ctx: Ctx, strategy: Literal["topical", "entity", "authority", "document_type"] = "topical",
    max_clusters: Annotated[int, Field(ge=1, le=20)] = 10, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Clusters]:
    """Group a case's documents by topic, shared parties, shared authorities or type, each group
    labelled by what it shares (Pro)."""
    app = app_of(ctx)
    case = app.case(case_name)
    found = app.graph_queries.clusters(case, strategy, max_clusters)
    return result(render.clusters(case.name, strategy, found), out.Clusters.of(case.name, strategy, found))
