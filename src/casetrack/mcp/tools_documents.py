"""Document tools (tool spec 2.9-2.11, 2.18-2.20, 2.33-2.34, 2.36-2.37). Every response that
contains document text carries its full provenance, in the text and in structured content."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.errors import ConfirmationRequired
from casetrack.mcp.server import DESTRUCTIVE, IDEMPOTENT_WRITE, READ_ONLY, ToolRegistrar, result
from casetrack.mcp.tools_ingest import DocType
from casetrack.render import documents as render
from casetrack.render.formats import plural
from casetrack.service.app import CaseTrack

DocRef = Annotated[str, Field(description="Document name or ID")]
ChunkId = Annotated[str, Field(description="UUID of the chunk")]


def register(tool: ToolRegistrar, app: CaseTrack) -> None:
    @tool(READ_ONLY, "List all documents in the active case, with pages, chunks, type and extraction method. "
                     "Paginated: use limit/offset when has_more is true.")
    def list_documents(
        sort_by: Annotated[Literal["name", "date", "pages", "type"], Field(description="Sort order")] = "date",
        limit: Annotated[int, Field(ge=1, le=500, description="Documents per page")] = 50,
        offset: Annotated[int, Field(ge=0, description="How many documents to skip")] = 0,
    ) -> CallToolResult:
        case = app.active_case()
        page = app.documents.listing(case, sort_by, limit, offset)
        text = f"Case: {case.name}\n\n" + render.documents_block(page.documents, page.total, offset)
        if page.has_more:
            text += f"\n\n(showing {offset + 1}-{offset + len(page.documents)} of {page.total}; " \
                    f"next page: offset={offset + limit})"
        return result(text, {"case": case.name, "total": page.total, "offset": offset, "limit": limit,
                             "has_more": page.has_more, "documents": [render.document_dict(d) for d in page.documents]})

    @tool(READ_ONLY, "List all documents in the active case filtered by document type (pleading, discovery, "
                     "exhibit, etc.). Includes page count, chunk count, and ingestion date.")
    def list_documents_by_type(
        document_type: Annotated[DocType, Field(description="Type to filter by")],
    ) -> CallToolResult:
        case = app.active_case()
        page = app.documents.listing(case, "name", 500, 0, document_type)
        if page.total == 0:
            text = f"No {document_type} documents in {case.name}. Use list_documents to see every document."
        else:
            text = f"{document_type} documents in {case.name} ({page.total}):\n" + "\n".join(
                render.document_line(i + 1, d) + f" - ingested {render.created_date(d)}"
                for i, d in enumerate(page.documents))
        return result(text, {"document_type": document_type, "total": page.total,
                             "documents": [render.document_dict(d) for d in page.documents]})

    @tool(READ_ONLY, "Get detailed information about a specific document including page count, extraction "
                     "method, and chunk statistics.")
    def get_document(document_name: DocRef) -> CallToolResult:
        doc = app.documents.resolve(app.active_case(), document_name)
        return result(render.document_detail(doc), {"document": render.document_dict(doc)})

    @tool(DESTRUCTIVE, "Remove a document and all its chunks, embeddings, and index entries from the active case.")
    def delete_document(
        document_name: Annotated[str, Field(description="Document name or ID to delete")],
        confirm: Annotated[bool, Field(description="Must be true to confirm deletion")] = False,
    ) -> CallToolResult:
        case = app.writable_active_case()
        doc = app.documents.resolve(case, document_name)
        if not confirm:
            raise ConfirmationRequired(f'document "{doc.name}" ({plural(doc.chunk_count, "chunk")}) from '
                                       f'case "{case.name}"')
        deleted = app.ingestor.delete(case, doc)
        text = (f'Deleted "{doc.name}" from {case.name}: {plural(doc.chunk_count, "chunk")}, its embeddings and '
                "index entries were removed. The original file on disk was not touched.")
        if deleted.note:
            text += f"\n\nWarning: {deleted.note}"
        return result(text, {"deleted": render.document_dict(doc), "warning": deleted.note})

    @tool(IDEMPOTENT_WRITE, "Correct a document's type (the inferred type is a guess; your choice always wins).")
    def set_document_type(document_name: DocRef, document_type: Annotated[DocType, Field(
            description="The correct type")]) -> CallToolResult:
        doc = app.documents.set_type(app.active_case(), document_name, document_type)
        text = f'"{doc.name}" is now typed as {doc.document_type.value}.'
        return result(text, {"document": render.document_dict(doc)})

    @tool(READ_ONLY, "Get a specific chunk by ID with its full text, provenance (source file, page, paragraph, "
                     "line, character offsets), and embedding status.")
    def get_chunk(chunk_id: ChunkId) -> CallToolResult:
        chunk, doc, total = app.documents.chunk(app.active_case(), chunk_id)
        text = render.chunk_block(chunk, total) + f"\n\nEmbeddings: {', '.join(doc.embedders)}"
        return result(text, {**render.chunk_dict(chunk), "chunk_count": total, "embedders": list(doc.embedders)})

    @tool(READ_ONLY, "List all chunks in a document with their provenance. Shows where every piece of text came "
                     "from: page, paragraph, line numbers, and character offsets.")
    def get_document_chunks(
        document_name: DocRef,
        page_filter: Annotated[int | None, Field(ge=1, description="Optional: only show chunks from this page "
                                                                   "number")] = None,
    ) -> CallToolResult:
        doc, chunks = app.documents.chunks(app.active_case(), document_name, page_filter)
        where = f", page {page_filter}" if page_filter else ""
        text = f"{doc.name}{where}: {plural(len(chunks), 'chunk')}\n\n" + "\n\n".join(
            render.passage(c, f"Chunk {c.span.sequence + 1} of {doc.chunk_count}") for c in chunks)
        return result(text, {"document": render.document_dict(doc), "chunks": [render.chunk_dict(c) for c in chunks]})

    @tool(READ_ONLY, "Get the surrounding context for a chunk -- the chunks immediately before and after it in "
                     "the original document. Useful for understanding the full context around a search result.")
    def get_source_context(
        chunk_id: Annotated[str, Field(description="UUID of the chunk to get context for")],
        window: Annotated[int, Field(ge=1, le=5, description="Number of chunks before and after to include")] = 1,
    ) -> CallToolResult:
        w = app.documents.context(app.active_case(), chunk_id, window)
        parts = [render.passage(c, "Before") for c in w.before] + [render.passage(w.chunk, "Requested chunk")] + \
                [render.passage(c, "After") for c in w.after]
        return result("\n\n".join(parts), {"chunk": render.chunk_dict(w.chunk),
                                           "before": [render.chunk_dict(c) for c in w.before],
                                           "after": [render.chunk_dict(c) for c in w.after]})

    @tool(READ_ONLY, "Get all chunks from a specific page range within a document. Use this to read through a "
                     "section of a document sequentially. Returns chunks in order with full provenance.")
    def browse_pages(
        document_name: DocRef,
        start_page: Annotated[int, Field(ge=1, description="First page to read")],
        end_page: Annotated[int, Field(ge=1, description="Last page to read")],
    ) -> CallToolResult:
        doc, chunks = app.documents.browse(app.active_case(), document_name, start_page, end_page)
        last = max((c.span.page for c in chunks), default=start_page)
        text = f"{doc.name}, pages {start_page}-{last} of {doc.page_count}\n\n" + "\n\n".join(
            render.passage(c) for c in chunks)
        if end_page > last and last < doc.page_count:
            text += f"\n\n(more pages follow: continue with start_page={last + 1})"
        return result(text, {"document": render.document_dict(doc), "start_page": start_page, "end_page": last,
                             "chunks": [render.chunk_dict(c) for c in chunks]})

    @tool(READ_ONLY, "Navigate forward or backward through chunks in a document from a starting point. Returns N "
                     "chunks in document order with full provenance.")
    def traverse_chunks(
        start_chunk_id: Annotated[str, Field(description="UUID of the starting chunk")],
        direction: Annotated[Literal["forward", "backward"], Field(description="Direction to traverse")] = "forward",
        count: Annotated[int, Field(ge=1, le=20, description="Number of chunks to return")] = 5,
    ) -> CallToolResult:
        doc, chunks = app.documents.traverse(app.active_case(), start_chunk_id, direction, count)
        text = f"{doc.name}: {plural(len(chunks), 'chunk')} {direction}\n\n" + "\n\n".join(
            render.passage(c, f"Chunk {c.span.sequence + 1} of {doc.chunk_count}") for c in chunks)
        return result(text, {"document": render.document_dict(doc), "direction": direction,
                             "chunks": [render.chunk_dict(c) for c in chunks]})

    @tool(READ_ONLY, "Get the structural outline of a document: headings, sections, numbered clauses, and their "
                     "page/chunk locations. A table-of-contents view for navigation.")
    def get_document_structure(document_name: DocRef) -> CallToolResult:
        doc, entries = app.documents.structure(app.active_case(), document_name)
        if not entries:
            text = f"No headings or numbered sections were found in {doc.name}. Use browse_pages to read it."
        else:
            text = f"Structure of {doc.name} ({plural(len(entries), 'entry', 'entries')}):\n" + "\n".join(
                "  " * (e["level"] - 1) + f"- {' '.join(x for x in (e.get('number'), e.get('title')) if x)} "
                f"(p. {e['page']}" + (f", chunk {e['chunk_id']}" if e.get("chunk_id") else "") + ")" for e in entries)
        return result(text, {"document": render.document_dict(doc), "entries": entries})
