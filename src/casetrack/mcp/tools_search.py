"""Search and index tools (tool spec 2.12-2.16, 2.38, 2.39)."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult
from pydantic import Field

from casetrack.errors import ConfirmationRequired
from casetrack.mcp.server import IDEMPOTENT_WRITE, READ_ONLY, ToolRegistrar, result
from casetrack.mcp.tools_ingest import WaitSeconds, await_job
from casetrack.render import documents as render_docs
from casetrack.render import search as render
from casetrack.render.formats import plural
from casetrack.service.app import CaseTrack
from casetrack.service.distribution.licensing import require_pro
from casetrack.service.infra.jobs import REINDEX_JOB
from casetrack.service.ingest.folders import FileOutcome, FolderReport, Progress


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    tier = app.tier.value.capitalize()

    @tool(READ_ONLY, "Search across all documents in the active case using semantic and keyword search. Returns "
                     "results with FULL provenance: source document filename, file path, page, paragraph, line "
                     "numbers, character offsets, extraction method, timestamps. Every result is traceable to its "
                     "exact source location.")
    def search_case(
        query: Annotated[str, Field(description="Natural language search query (e.g., 'What are the termination "
                                                "provisions?')")],
        top_k: Annotated[int, Field(ge=1, le=50, description="Number of results to return")] = 10,
        document_filter: Annotated[str | None, Field(description="Optional: restrict search to a specific "
                                                                 "document name or ID")] = None,
        min_score: Annotated[float | None, Field(ge=0.0, le=1.0, description=(
            "Optional: drop results scoring below this (0-1); at least 3 results are still returned when "
            "any exist"))] = None,
    ) -> CallToolResult:
        response = app.search.search(app.active_case(), query, top_k, document_filter, min_score)
        return result(render.response_text(response, tier), render.response_dict(response, tier))

    @tool(READ_ONLY, "Find chunks across all documents that are semantically similar to a given chunk (E1 cosine "
                     "similarity, or the best dense embedder available). Use this to find related passages in "
                     "other documents.")
    def search_similar_chunks(
        chunk_id: Annotated[str, Field(description="UUID of the chunk to find similar content for")],
        exclude_same_document: Annotated[bool, Field(description="Exclude results from the same document "
                                                                 "(default: true, for cross-document "
                                                                 "discovery)")] = True,
        min_similarity: Annotated[float, Field(ge=0.0, le=1.0, description="Minimum cosine similarity "
                                                                           "threshold")] = 0.6,
        top_k: Annotated[int, Field(ge=1, le=50)] = 10,
    ) -> CallToolResult:
        source, model, hits = app.search.similar(app.active_case(), chunk_id, top_k, exclude_same_document,
                                                 min_similarity)
        return result(render.similar_text(source.provenance.cite(), model, hits),
                      {"source": render_docs.chunk_dict(source), "embedder": model,
                       "results": [render.hit_dict(h, i) for i, h in enumerate(hits, start=1)]})

    @tool(READ_ONLY, "Compare what two documents say about a specific topic. Searches both documents "
                     "independently, then returns side-by-side results showing how each document addresses the "
                     "topic.")
    def compare_documents(
        document_a: Annotated[str, Field(description="First document name or ID")],
        document_b: Annotated[str, Field(description="Second document name or ID")],
        topic: Annotated[str, Field(description="Topic to compare (e.g., 'termination provisions', 'damages')")],
        top_k_per_document: Annotated[int, Field(ge=1, le=20)] = 5,
    ) -> CallToolResult:
        require_pro(app.licence, "compare_documents")
        case = app.active_case()
        sides = [app.search.search(case, topic, top_k_per_document, ref) for ref in (document_a, document_b)]
        text = [f'Comparing "{topic}"', ""]
        for label, side in zip("AB", sides, strict=True):
            doc = side.document_filter
            text.append(f"=== Document {label}: {doc.name if doc else ''} ({plural(len(side.hits), 'passage')}) ===")
            for i, hit in enumerate(side.hits, start=1):
                text += [f"{i}. (score {hit.score:.2f}) {hit.chunk.provenance.cite()} [chunk {hit.chunk.id}]",
                         f'   "{hit.chunk.text}"']
            if not side.hits:
                text.append("   (nothing in this document addresses the topic)")
            text.append("")
        return result("\n".join(text).rstrip(), {
            "topic": topic, "document_a": render.response_dict(sides[0], tier),
            "document_b": render.response_dict(sides[1], tier)})

    @tool(READ_ONLY, "Find all mentions of a legal entity (person, court, statute, case citation) across "
                     "documents. Passages that name the entity come first (every mention the context graph "
                     "recorded: citations in any form, a party under its defined term), then related passages.")
    def find_entity(
        entity: Annotated[str, Field(description="Entity to find (e.g., 'Judge Smith', '42 USC 1983', 'Miranda v. "
                                                 "Arizona')")],
        entity_type: Annotated[Literal["person", "court", "statute", "case_citation", "organization", "any"],
                               Field(description="Type of entity to search for")] = "any",
        top_k: Annotated[int, Field(ge=1, le=100)] = 20,
    ) -> CallToolResult:
        require_pro(app.licence, "find_entity")
        found = app.entity_search.find(app.active_case(), entity, entity_type, top_k)
        return result(render.entity_text(entity, entity_type, found), render.entity_dict(entity, entity_type, found))

    @tool(IDEMPOTENT_WRITE, "Rebuild embeddings, chunks and search indexes for one document. With reparse=true "
                            "(default) the source file is read again; with reparse=false the stored chunks are "
                            "kept and only embeddings are rebuilt (e.g. after a model was installed). The old "
                            "index stays searchable until the new one replaces it.")
    def reindex_document(
        document_name: Annotated[str, Field(description="Document name or ID to reindex")],
        force: Annotated[bool, Field(description="If true, reindex even if the source file SHA256 has not "
                                                 "changed. Default: only reindex if the file has changed or "
                                                 "embeddings are incomplete.")] = False,
        reparse: Annotated[bool, Field(description="If true (default), re-extract text from the source file and "
                                                   "re-chunk. If false, keep existing chunks but only rebuild "
                                                   "embeddings and indexes.")] = True,
    ) -> CallToolResult:
        case = app.writable_active_case()
        doc = app.documents.resolve(case, document_name)
        done = app.reindexer.reindex_document(case, doc, force, reparse)
        embedders = ", ".join(done.document.embedders)
        text = f'"{done.document.name}": {done.action} - {done.detail}.\nEmbedders: {embedders}'
        return result(text, {"action": done.action, "detail": done.detail,
                             "document": render_docs.document_dict(done.document)})

    @tool(IDEMPOTENT_WRITE, "Rebuild all embeddings and search indexes for every document in the active case. "
                            "Each document is swapped in as soon as it is rebuilt, so search keeps working. Can be "
                            "slow for large cases; continues as a background job (see get_ingest_status).")
    async def reindex_case(
        ctx: Context,
        confirm: Annotated[bool, Field(description="Must be true to confirm. This rebuilds ALL embeddings in the "
                                                   "case.")] = False,
        reparse: Annotated[bool, Field(description="If true (default), re-extract text from source files and "
                                                   "re-chunk everything. If false, keep chunks and only rebuild "
                                                   "embeddings.")] = True,
        skip_unchanged: Annotated[bool, Field(description="If true, skip documents whose source files have not "
                                                          "changed and whose embeddings are complete.")] = False,
        wait_seconds: WaitSeconds = 20,
    ) -> CallToolResult:
        case = app.writable_active_case()
        if not confirm:
            raise ConfirmationRequired(f'and rebuild the index of every document in case "{case.name}" '
                                       f"({plural(case.stats.document_count, 'document')})")

        def work(progress: Progress) -> FolderReport:
            report = FolderReport(case.name, "reindex", found=case.stats.document_count)
            for name, action, detail in app.reindexer.reindex_case(case, reparse, skip_unchanged, progress):
                report.outcomes.append(FileOutcome(name, action, detail))
            return report

        job = app.jobs.submit(REINDEX_JOB, case.id, case.name, case.name, case.stats.document_count, work)
        return await await_job(job, wait_seconds, ctx)

    @tool(READ_ONLY, "Show the embedding and index health status for all documents in the active case: source "
                     "file changed or missing, embedders missing for the current tier, OCR pages skipped. Use it "
                     "to decide whether to run reindex_document or reindex_case.")
    def get_index_status(
        document_filter: Annotated[str | None, Field(description="Optional: check a specific document instead of "
                                                                 "all")] = None,
    ) -> CallToolResult:
        case = app.active_case()
        health = app.reindexer.health(case, document_filter)
        jobs = [j for j in app.jobs.recent() if j.case_id == case.id and not j.finished.is_set()]
        attention = health.needs_attention
        lines = [f"Index status for {case.name}: {plural(len(health.documents), 'document')}, "
                 f"{len(health.documents) - len(attention)} healthy, {len(attention)} need attention",
                 f"Ready embedders: {', '.join(health.ready_embedders)}"]
        for job in jobs:
            lines.append(f"Running: {job.kind} job {job.short_id}, {job.done}/{job.total}")
        watch_lines = app.watches.index_status_lines(case.id)
        lines += watch_lines
        for d in attention:
            problems = []
            if d.source != "unchanged":
                problems.append(f"source file {d.source}")
            if d.missing_embedders:
                problems.append(f"missing embeddings: {', '.join(d.missing_embedders)} "
                                "(reindex_document with reparse=false)")
            if d.skipped_pages:
                problems.append(f"{plural(d.skipped_pages, 'page')} not OCR'd (install Tesseract, then reindex)")
            lines.append(f"  - {d.document.name}: {'; '.join(problems)}")
        if not attention and health.documents:
            lines.append("Every document is fully indexed.")
        return result("\n".join(lines), {
            "case": case.name, "ready_embedders": list(health.ready_embedders),
            "running_jobs": [j.id for j in jobs], "watches": watch_lines,
            "documents": [{"name": d.document.name, "id": d.document.id, "source": d.source,
                           "missing_embedders": list(d.missing_embedders), "skipped_pages": d.skipped_pages,
                           "embedders": list(d.document.embedders), "healthy": d.healthy} for d in health.documents]})

