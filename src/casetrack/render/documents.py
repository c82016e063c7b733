"""Texts of the document tools. Every passage of document text is
rendered together with its full provenance: a user (and Claude) can always cite it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from casetrack.chunk.roles.taxonomy import Role
from casetrack.domain import Case, Chunk, Document, Provenance
from casetrack.errors import Step, Words, tool_words
from casetrack.render.formats import date, duration, iso, plural, size
from casetrack.service.cases.documents import DocumentPage, OutlineEntry

_BREAK = re.compile(r"\n[ \t]*\n")
METHOD_LABELS = {"native": "Native text", "ocr": "OCR", "mixed": "Native text + OCR", "skipped": "Skipped (no OCR)"}


def clause_place(chunk: Chunk, role: str) -> tuple[Provenance, str]:
    """Where in a passage its clause of `role` is: the place of those lines (page offsets, paragraphs, lines)
    and their text; the whole passage when no narrower place was found at ingest (chunk.clause_spans)."""
    p = chunk.provenance
    start, end = next(((s, e) for r, s, e in chunk.role_spans if r == role), (0, len(chunk.text)))
    if (start, end) == (0, len(chunk.text)):
        return p, chunk.text
    before, within = chunk.text[:start], chunk.text[start:end]
    line = p.line_start + before.count("\n") if p.line_start > 0 else 0
    paragraph = p.paragraph_start + len(_BREAK.findall(before))
    return replace(p, char_start=p.char_start + start, char_end=p.char_start + end, paragraph_start=paragraph,
                   paragraph_end=paragraph + len(_BREAK.findall(within)), line_start=line,
                   line_end=line + within.count("\n") if line else 0), within


def source_line(doc: Document) -> str:
    """Where the document's file is: a source on this computer, or one only named (by an imported archive)."""
    if doc.original_path:
        return doc.original_path
    named = f' (the imported case named it "{doc.archived_path}"; never opened here)' if doc.archived_path else ""
    return f"source not on this computer{named} - relink_document gives it a file here"


def relinked_text(doc: Document, same_content: bool) -> str:
    """What relink_document did, and what the file's content means for the next reindex."""
    head = f'"{doc.name}" is now linked to {doc.original_path}.'
    if same_content:
        return f"{head} It holds the same bytes the document was made from (SHA-256 matches); reindexing reads it."
    return (f"{head} Its content DIFFERS from the file the document was made from (another SHA-256): the "
            "document's text is unchanged for now, and the next reindex reads this file "
            "and replaces the document's text and passages with its own. If that is not what you want, relink the "
            "document to the right file first.")


def extraction_label(doc: Document) -> str:
    label = METHOD_LABELS[doc.extraction]
    if doc.ocr_confidence is not None:
        label += f", {doc.ocr_confidence:.0f}% confidence"
    if doc.skipped_pages:
        label += f"; {plural(doc.skipped_pages, 'page')} recorded without text (the warnings say why)"
    return label


def ingested(doc: Document, case: Case | str, seconds: float, replaced: Document | None = None,
             earlier: Document | None = None, words: Words = tool_words) -> str:
    """What one ingest did; `case` may be given by name (a background job keeps only that)."""
    verb = "Re-ingested" if replaced else "Ingested"
    lines = [
        f'{verb} "{doc.name}" into {case if isinstance(case, str) else case.name}', "",
        f"  Document ID: {doc.id}",
        f"  Pages:      {doc.page_count}",
        f"  Chunks:     {doc.chunk_count}",
        f"  Type:       {doc.document_type.value} ({'your choice' if doc.type_source == 'user' else 'inferred'}"
        f"{'' if doc.type_source == 'user' else f', {doc.type_confidence:.0%} confidence'})",
        f"  Extraction: {extraction_label(doc)}",
        f"  Embedders:  {', '.join(doc.embedders)}",
        f"  Duration:   {duration(seconds)}",
        f"  Size:       {size(doc.file_size)}",
    ]
    if doc.warnings:
        lines += ["", "  Warnings:"] + [f"  - {w}" for w in doc.warnings]
    lines += ["", "This document is now searchable." if doc.chunk_count else
              "Nothing in this document is searchable: no text was found in it (see the first warning)."]
    if earlier is not None:
        lines += ["", f'Note: "{earlier.name}" (ID: {earlier.id[:8]}) was ingested from this same file before it '
                      "changed, and both versions are now in the case. "
                      + words(Step("keep_new_version", {"document_id": earlier.id[:8]}))]
    return "\n".join(lines)


def document_line(n: int, doc: Document) -> str:
    return (f"  {n}. {doc.name} - {plural(doc.page_count, 'page')}, {plural(doc.chunk_count, 'chunk')} "
            f"({extraction_label(doc)}) [{doc.document_type.value}] ID: {doc.id[:8]}")


def documents_block(docs: list[Document], total: int, offset: int = 0, words: Words = tool_words) -> str:
    if not docs:
        return (f"Documents (0): none yet. {words(Step('add_files'))}" if total == 0
                else f"Documents ({total}): no more past offset {offset}.")
    return "\n".join([f"Documents ({total}):"] + [document_line(offset + i + 1, d) for i, d in enumerate(docs)])


def document_detail(doc: Document) -> str:
    lines = [
        f"Document: {doc.name}", f"ID: {doc.id}", f"File: {source_line(doc)}",
        f"Type: {doc.document_type.value} ({doc.type_source}, {doc.type_confidence:.0%} confidence) | "
        f"Format: {doc.format.upper()}",
        f"Pages: {doc.page_count} | Chunks: {doc.chunk_count} | Size: {size(doc.file_size)}",
        f"Extraction: {extraction_label(doc)}",
        f"Ingested: {iso(doc.ingested_at)} | Embedded: {iso(doc.embedded_at) or 'not yet'}",
        f"Embedders: {', '.join(doc.embedders)}",
        f"SHA-256: {doc.file_hash}",
    ]
    if doc.copied_original:
        lines.append(f"Copy of original: {doc.copied_original}")
    if doc.metadata:
        lines += ["", "Metadata:"] + [f"  {k}: {v}" for k, v in doc.metadata.items()]
    if doc.warnings:
        lines += ["", "Warnings:"] + [f"  - {w}" for w in doc.warnings]
    return "\n".join(lines)


def chunk_block(chunk: Chunk, total: int | None = None) -> str:
    """A passage with every provenance fact, as in the get_chunk response of the tool spec."""
    p = chunk.provenance
    paragraphs = str(p.paragraph_start) if p.paragraph_start == p.paragraph_end else \
        f"{p.paragraph_start}-{p.paragraph_end}"
    lines = [
        f"Chunk {chunk.id} ({len(chunk.text):,} chars)", f"Citation: {p.cite()}", "", "Text:", f'"{chunk.text}"', "",
        "Provenance:",
        f"  Document:    {p.document_name}",
        f"  File Path:   {p.document_path}",
        *([f"  Attachment:  {p.attachment}, page {p.attachment_page} (a file attached to this e-mail)"]
          if p.attachment else []),
        f"  Page:        {p.page}{' (approximate: this format has no fixed pages)' if p.page_approximate else ''}",
        f"  Paragraphs:  {paragraphs}",
        f"  Lines:       {p.line_start}-{p.line_end}"
        + (" (estimated: counted as the page prints; this format has no fixed lines)" if p.lines_estimated else ""),
        *([f"  Printed:     {p.printed_lines} (the page and lines the transcript prints)"] if p.printed_lines else []),
        f"  Chars:       {p.char_start}-{p.char_end} (within page)",
        f"  Extraction:  {METHOD_LABELS[p.extraction_method.value]}"
        + (f" ({p.ocr_confidence:.0f}% confidence)" if p.ocr_confidence is not None else ""),
    ]
    if p.bates_number:
        lines.append(f"  Bates:       {p.bates_number}")
    if total is not None:
        lines.append(f"  Chunk Index: {chunk.span.sequence + 1} of {total}")
    lines.append(f"  Ingested:    {iso(p.ingested_at)} | Embedded: {iso(p.embedded_at) or 'not yet'}")
    return "\n".join(lines)


def passage(chunk: Chunk, heading: str = "") -> str:
    """Compact form for listings: citation line, then the quoted text."""
    head = f"--- {heading} ---\n" if heading else ""
    return f'{head}{chunk.provenance.cite()} [chunk {chunk.id}]\n"{chunk.text}"'


def created_date(doc: Document) -> str:
    return date(doc.ingested_at)


def listing_text(case: Case, page: DocumentPage, offset: int, limit: int) -> str:
    text = f"Case: {case.name}\n\n" + documents_block(page.documents, page.total, offset)
    if page.has_more:
        text += (f"\n\n(showing {offset + 1}-{offset + len(page.documents)} of {page.total}; "
                 f"next page: offset={offset + limit})")
    return text


def by_type_text(case: Case, document_type: str, page: DocumentPage) -> str:
    if page.total == 0:
        return f"No {document_type} documents in {case.name}. Use list_documents to see every document."
    return f"{document_type} documents in {case.name} ({page.total}):\n" + "\n".join(
        document_line(i + 1, d) + f" - ingested {created_date(d)}" for i, d in enumerate(page.documents))


def deleted_text(doc: Document, case: Case, warning: str | None) -> str:
    text = (f'Deleted "{doc.name}" from {case.name}: {plural(doc.chunk_count, "chunk")}, its embeddings and '
            "index entries were removed. The original file on disk was not touched.")
    return text + (f"\n\nWarning: {warning}" if warning else "")


def numbered_passages(doc: Document, chunks: list[Chunk]) -> str:
    return "\n\n".join(passage(c, f"Chunk {c.span.sequence + 1} of {doc.chunk_count}") for c in chunks)


def pages_text(doc: Document, chunks: list[Chunk], start_page: int, end_page: int, last: int) -> str:
    text = f"{doc.name}, pages {start_page}-{last} of {doc.page_count}\n\n" + "\n\n".join(passage(c) for c in chunks)
    if end_page > last and last < doc.page_count:
        text += f"\n\n(more pages follow: continue with start_page={last + 1})"
    return text


def clauses_text(doc: Document, groups: Sequence[tuple[Role, Sequence[Chunk]]]) -> str:
    if not groups:
        return (f"No passage of {doc.name} was tagged with a clause type or part of a decision. Documents ingested "
                "before clause tagging are tagged when reparsed (reindex_document with force=true).")
    lines = [f"Clause library of {doc.name}: {plural(len(groups), 'type')}"]
    for role, chunks in groups:
        lines += ["", f"{role.label} [{role.id}] ({plural(len(chunks), 'passage')})"]
        for c in chunks:
            place, text = clause_place(c, role.id)
            sure = dict(c.role_confidence).get(role.id)
            lines.append(f"  - {place.cite()} [chunk {c.id}]{f' (p {sure:.2f})' if sure else ''}: "
                         f"\"{_excerpt(text)}\"")
    return "\n".join(lines)


def _excerpt(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rsplit(" ", 1)[0] + " …"


def structure_text(doc: Document, entries: list[OutlineEntry]) -> str:
    if not entries:
        return f"No headings or numbered sections were found in {doc.name}. Use browse_pages to read it."
    return f"Structure of {doc.name} ({plural(len(entries), 'entry', 'entries')}):\n" + "\n".join(
        "  " * (e.level - 1) + f"- {' '.join(x for x in (e.number, e.title) if x)} "
        f"(p. {e.page}" + (f", chunk {e.chunk_id}" if e.chunk_id else "") + ")" for e in entries)
