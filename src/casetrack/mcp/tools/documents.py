"""Document tools (tool spec 2.9-2.11, 2.18-2.20, 2.33-2.34, 2.36-2.37). Every response that
contains document text carries its full provenance, in the text and in structured content."""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.types import CallToolResult
from pydantic import Field

from casetrack.mcp import outputs as out
from casetrack.mcp.outputs_transcripts import TranscriptPin
from casetrack.mcp.tools.base import CaseName, ChunkId, Confirm, Ctx, DocRef, DocType, app_of, result
from casetrack.render import documents as render
from casetrack.render.formats import plural


def list_documents(
    ctx: Ctx,
    sort_by: Literal["name", "date", "pages", "type"] = "date",
    limit: Annotated[int, Field(ge=1, le=500)] = 50,
    offset: Annotated[int, Field(ge=0)] = 0,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.DocumentPage]:
    """List a case's documents with pages, chunks, type and extraction. Paged: when has_more, call
    again with the offset given."""
    app = app_of(ctx)
    case = app.case(case_name)
    page = app.documents.listing(case, sort_by, limit, offset)
    return result(render.listing_text(case, page, offset, limit),
                  out.DocumentPage(case=case.name, total=page.total, offset=offset, limit=limit, has_more=page.has_more,
                                   documents=out.documents_of(page.documents)))


def list_documents_by_type(
    ctx: Ctx, document_type: DocType, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.DocumentsOfType]:
    """List a case's documents of one type, with pages, chunks and ingestion date."""
    app = app_of(ctx)
    case = app.case(case_name)
    page = app.documents.listing(case, "name", 500, 0, document_type)
    return result(render.by_type_text(case, document_type, page),
                  out.DocumentsOfType(document_type=document_type, total=page.total,
                                      documents=out.documents_of(page.documents)))


def get_document(ctx: Ctx, document_name: DocRef, case_name: CaseName = None
                 ) -> Annotated[CallToolResult, out.DocumentResult]:
    """One document's details: pages, extraction method, OCR, chunks, warnings."""
    app = app_of(ctx)
    doc = app.documents.resolve(app.case(case_name), document_name)
    return result(render.document_detail(doc), out.DocumentResult(document=out.DocumentOut.of(doc)))


def delete_document(ctx: Ctx, document_name: DocRef, confirm: Confirm = False, case_name: CaseName = None
                    ) -> Annotated[CallToolResult, out.DeletedDocument]:
    """Remove a document with its chunks, embeddings and index entries (the file is untouched)."""
    app = app_of(ctx)
    case = app.case(case_name)
    gone = app.delete_document(case, document_name, confirm)
    return result(render.deleted_text(gone.document, case, gone.deleted.note),
                  out.DeletedDocument(deleted=out.DocumentOut.of(gone.document), warning=gone.deleted.note))


def set_document_type(ctx: Ctx, document_name: DocRef, document_type: DocType, case_name: CaseName = None
                      ) -> Annotated[CallToolResult, out.DocumentResult]:
    """Correct a document's type (the inferred type is a guess; yours always wins)."""
    app = app_of(ctx)
    doc = app.documents.set_type(app.case(case_name), document_name, document_type)
    return result(f'"{doc.name}" is now typed as {doc.document_type.value}.',
                  out.DocumentResult(document=out.DocumentOut.of(doc)))


def relink_document(
    ctx: Ctx, document_name: DocRef,
    file_path: Annotated[str, Field(description="The document's file on this computer (absolute path)")],
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Relinked]:
    """Give a document its file on this computer (an imported case's source paths are never opened).
    Compares the file's SHA-256 with the document's; reindex then reads it."""
    app = app_of(ctx)
    done = app.relinker.relink(app.writable_case(case_name), document_name, file_path)
    text = render.relinked_text(done.document, done.same_content)
    return result(text, out.Relinked(document=out.DocumentOut.of(done.document),
                                               same_content=done.same_content, detail=text))


def get_chunk(ctx: Ctx, chunk_id: ChunkId, case_name: CaseName = None) -> Annotated[CallToolResult, out.ChunkDetail]:
    """One chunk's full text and provenance, and which embedders cover it."""
    app = app_of(ctx)
    found = app.passages.chunk(app.case(case_name), chunk_id)
    chunk, doc, total, place = found.chunk, found.document, found.chunk_count, found.transcript
    text = render.chunk_block(chunk, total) + f"\n\nEmbeddings: {', '.join(doc.embedders)}" + \
        (f"\nTranscript: {place.citation}" if place else "")
    return result(text, out.ChunkDetail.of(chunk, chunk_count=total, embedders=list(doc.embedders),
                                               transcript=TranscriptPin.of(place)))


def get_document_chunks(
    ctx: Ctx, document_name: DocRef,
    page_filter: Annotated[int | None, Field(ge=1, description="Only this page")] = None,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.DocumentChunks]:
    """Every chunk of a document (or one page) with its provenance."""
    app = app_of(ctx)
    doc, chunks = app.documents.chunks(app.case(case_name), document_name, page_filter)
    where = f", page {page_filter}" if page_filter else ""
    text = f"{doc.name}{where}: {plural(len(chunks), 'chunk')}\n\n" + render.numbered_passages(doc, chunks)
    return result(text, out.DocumentChunks(document=out.DocumentOut.of(doc), chunks=out.chunks_of(chunks)))


def get_source_context(
    ctx: Ctx, chunk_id: ChunkId,
    window: Annotated[int, Field(ge=1, le=5, description="Chunks before and after")] = 1,
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.SourceContext]:
    """The chunks just before and after a chunk, to read a search result in context."""
    app = app_of(ctx)
    found = app.passages.context(app.case(case_name), chunk_id, window)
    w, place = found.window, found.transcript  # the chunk's transcript page:line (issue 37)
    parts = [render.passage(c, "Before") for c in w.before] + [render.passage(w.chunk, "Requested chunk")] + \
            [render.passage(c, "After") for c in w.after] + ([f"Transcript: {place.citation}"] if place else [])
    return result("\n\n".join(parts), out.SourceContext(chunk=out.ChunkOut.of(w.chunk), before=out.chunks_of(w.before),
                                                         after=out.chunks_of(w.after),
                                                         transcript=TranscriptPin.of(place)))


def browse_pages(
    ctx: Ctx, document_name: DocRef, start_page: Annotated[int, Field(ge=1)], end_page: Annotated[int, Field(ge=1)],
    case_name: CaseName = None,
) -> Annotated[CallToolResult, out.PageRange]:
    """Read a document's pages in order, chunk by chunk, with provenance."""
    app = app_of(ctx)
    doc, chunks = app.documents.browse(app.case(case_name), document_name, start_page, end_page)
    last = max((c.span.page for c in chunks), default=start_page)
    return result(render.pages_text(doc, chunks, start_page, end_page, last),
                  out.PageRange(document=out.DocumentOut.of(doc), start_page=start_page, end_page=last,
                                chunks=out.chunks_of(chunks)))


def traverse_chunks(
    ctx: Ctx, start_chunk_id: ChunkId, direction: Literal["forward", "backward"] = "forward",
    count: Annotated[int, Field(ge=1, le=20)] = 5, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.Traversal]:
    """Step forward or backward through a document's chunks from one chunk."""
    app = app_of(ctx)
    doc, chunks = app.documents.traverse(app.case(case_name), start_chunk_id, direction, count)
    text = f"{doc.name}: {plural(len(chunks), 'chunk')} {direction}\n\n" + render.numbered_passages(doc, chunks)
    return result(text, out.Traversal(document=out.DocumentOut.of(doc), direction=direction,
                                        chunks=out.chunks_of(chunks)))


def list_clauses(ctx: Ctx, document_name: DocRef, case_name: CaseName = None
                 ) -> Annotated[CallToolResult, out.ClauseLibrary]:
    """A document's passages by clause type or decision part (governing law, dissent, ...), cited."""
    app = app_of(ctx)
    doc, groups = app.documents.clauses(app.case(case_name), document_name)
    return result(render.clauses_text(doc, groups), out.ClauseLibrary.of(doc, groups))


def get_document_structure(ctx: Ctx, document_name: DocRef, case_name: CaseName = None
                           ) -> Annotated[CallToolResult, out.DocumentStructure]:
    """A document's outline: headings, sections and numbered clauses with their pages and chunks."""
    app = app_of(ctx)
    doc, entries = app.documents.structure(app.case(case_name), document_name)
    return result(render.structure_text(doc, entries), out.DocumentStructure.of(doc, entries))
