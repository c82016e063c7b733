"""Search and index tools (tool spec 2.12-2.16, 2.38, 2.39)."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs_ingest
from casetrack.mcp import outputs_search as out
from casetrack.mcp.outputs import ChunkOut
from casetrack.mcp.tools.base import CaseName, ChunkId, Confirm, Ctx, DocRef, TopK, TopK100, WaitSeconds, app_of, result
from casetrack.mcp.tools.ingest import await_job
from casetrack.render import search as render


def search_case(
    ctx: Ctx,
    query: Annotated[str, Field(description="What to find, in plain words or as a citation")],
    top_k: TopK = 10,
    document_filter: Annotated[str | None, Field(description="Only this document (name or ID)")] = None,
    min_score: Annotated[float | None, Field(ge=0.0, le=1.0, description=(
        "Only results at least this likely to answer (score: 0..1)"))] = None,
    clause_type: Annotated[str | None, Field(description="Only this clause type, e.g. governing_law")] = None,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.SearchResult]:
    """Search a case's documents (keyword and meaning). Every result has its citation and full
    provenance: file, page, paragraph, lines, offsets, extraction method."""
    app = app_of(ctx)
    response = app.search.search(app.case(case_name), query, top_k, document_filter, min_score,
                                 clause_type=clause_type)
    tier = app.tier.value.capitalize()
    return result(render.response_text(response, tier), out.SearchResult.of(response, tier))


def search_similar_chunks(
    ctx: Ctx, chunk_id: ChunkId,
    exclude_same_document: Annotated[bool, Field(description="Only other documents")] = True,
    min_similarity: Annotated[float, Field(ge=0.0, le=1.0, description="Cosine threshold")] = 0.6,
    top_k: TopK = 10, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Similar]:
    """Passages whose meaning is close to a chunk's, e.g. the same point in other documents."""
    app = app_of(ctx)
    source, model, hits = app.search.similar(app.case(case_name), chunk_id, top_k, exclude_same_document,
                                             min_similarity)
    return result(render.similar_text(source.provenance.cite(), hits),
                  out.Similar(source=ChunkOut.of(source), embedder=model, results=out.hits_of(hits)))


def compare_documents(
    ctx: Ctx, document_a: DocRef, document_b: DocRef,
    topic: Annotated[str, Field(description="e.g. 'termination', 'damages'")],
    top_k_per_document: Annotated[int, Field(ge=1, le=20)] = 5, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Comparison]:
    """What two documents each say about a topic, side by side (Pro)."""
    app = app_of(ctx)
    found = app.comparer.compare(app.case(case_name), document_a, document_b, topic, top_k_per_document)
    tier = app.tier.value.capitalize()
    return result(render.comparison_text(found), out.Comparison(
        topic=topic, document_a=out.SearchResult.of(found.sides[0], tier),
        document_b=out.SearchResult.of(found.sides[1], tier)))


def find_entity(
    ctx: Ctx,
    entity: Annotated[str, Field(description="e.g. 'Judge Smith', '42 USC 1983', 'Miranda v. Arizona'")],
    entity_type: Literal["person", "court", "statute", "case_citation", "organization", "any"] = "any",
    top_k: TopK100 = 20, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.EntityResult]:
    """Every passage that names a person, court, statute or case (in any form it was written,
    e.g. a party's defined term), then related passages (Pro)."""
    app = app_of(ctx)
    found = app.entity_search.find(app.case(case_name), entity, entity_type, top_k)
    return result(render.entity_text(entity, entity_type, found), out.EntityResult.of(entity, entity_type, found))


def reindex_document(
    ctx: Ctx, document_name: DocRef,
    force: Annotated[bool, Field(description="Even if the file is unchanged")] = False,
    reparse: Annotated[bool, Field(description="Read the file again (false: only rebuild embeddings)")] = True,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Reindexed]:
    """Rebuild one document's chunks, embeddings and index (e.g. after its file changed or a model
    was installed). The old index serves searches until the new one replaces it."""
    app = app_of(ctx)
    done = app.reindexer.reindex_named(app.writable_case(case_name), document_name, force, reparse)
    return result(render.reindexed_text(done), out.Reindexed.of(done))


async def reindex_case(
    ctx: Ctx, confirm: Confirm = False,
    reparse: Annotated[bool, Field(description="Read every file again (false: only rebuild embeddings)")] = True,
    skip_unchanged: Annotated[bool, Field(description="Skip documents already complete and unchanged")] = False,
    wait_seconds: WaitSeconds = 20, case_name: CaseName = None,
) -> Annotated[CallToolResult, outputs_ingest.IngestAnswer]:
    """Rebuild every document's index in a case; search keeps working. Slow for large cases:
    continues as a background job."""
    app = app_of(ctx)
    job = app.ingest_jobs.reindex_case(app.writable_case(case_name), confirm, reparse, skip_unchanged)
    return await await_job(job, wait_seconds, ctx)


def get_index_status(
    ctx: Ctx, document_filter: Annotated[str | None, Field(description="Only this document")] = None,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.IndexStatus]:
    """Each document's index health (file changed or missing, embeddings missing, pages not OCR'd),
    to decide between reindex_document and reindex_case."""
    app = app_of(ctx)
    status = app.index_status(app.case(case_name), document_filter)
    return result(render.index_status_text(status), out.IndexStatus.of(status))
