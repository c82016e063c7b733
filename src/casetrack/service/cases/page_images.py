"""get_page_image: a cited passage shown on its page (page_image/), or any page of a document."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from casetrack.domain import Case, Chunk, Document, ExtractionMethod, page_citation
from casetrack.errors import InvalidInput, NotFound
from casetrack.parse.options import ParseOptions
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.store import documents as docstore

if TYPE_CHECKING:
    from casetrack.page_image.model import PageDrawing


@dataclass(frozen=True, slots=True)
class PageView:
    """One page drawn: its document, its number, the passage marked on it (if any) and its citation."""

    document: Document
    page: int
    chunk: Chunk | None
    citation: str
    drawing: PageDrawing


class PageImages:
    def __init__(self, cases: CaseService, documents: DocumentReader, options: ParseOptions) -> None:
        self._cases = cases
        self._documents = documents
        self._options = options

    def draw(self, case: Case, chunk_id: str | None = None, document_name: str | None = None,
             page: int | None = None, char_start: int | None = None, char_end: int | None = None) -> PageView:
        """The page of `chunk_id` with its passage marked, or page `page` of `document_name` (of the chunk's
        document when both are given: the pages around a passage), `char_start:char_end` of its text marked
        when given (a verify_draft quotation's place). Raises InvalidInput, NotFound, DocumentUnreadable."""
        if chunk_id is None and (document_name is None or page is None):
            raise InvalidInput("Give a chunk_id (from search results), or a document_name and a page.")
        if (char_start is None) != (char_end is None):
            raise InvalidInput("Give char_start and char_end together (a place's offsets in its page's text).")
        chunk: Chunk | None = None
        if chunk_id is not None:
            chunk, doc, _ = self._documents.chunk(case, chunk_id)
        else:
            assert document_name is not None
            doc = self._documents.resolve(case, document_name)
        number = page if page is not None else chunk.span.page if chunk is not None else 1
        if not 1 <= number <= doc.page_count:
            raise InvalidInput(f'"{doc.name}" has pages 1-{doc.page_count}; page {number} does not exist.')
        if chunk is not None and chunk.span.page != number:
            chunk = None  # another page of the passage's document: nothing on it to mark
        with self._cases.store(case).reader() as db:
            stored = docstore.page(db, doc.id, number)
            words = docstore.page_words(db, doc.id, number) if stored and stored.method is ExtractionMethod.OCR \
                else None
        if stored is None:
            raise NotFound("Page", f"{doc.name} page {number}", hint="The document may have been reindexed.")
        span = (chunk.span.char_start, chunk.span.char_end) if chunk is not None else None
        if span is None and char_start is not None and char_end is not None:
            # A quotation running onto the next page (verify_draft's page_end) is marked to this page's end.
            span = (char_start, min(char_end, len(stored.text)))
            if not span[0] < span[1]:
                raise InvalidInput(f"char_start must come before char_end, within page {number}'s "
                                   f"{len(stored.text):,} characters.")
        cited = page_citation(number, stored.approximate, stored.attachment, stored.attachment_page)
        citation = chunk.provenance.cite() if chunk is not None else f"{doc.name}, {cited}"
        from casetrack.page_image.page import draw_page  # the renderer loads at the first page drawn, not at start

        source = doc.copied_original or doc.original_path
        # A Word file printed to a PDF by LibreOffice, kept with the case (named by its content: a new version
        # of the file is printed anew); a cache, left out of exports. The name is a digest, never the record's
        # own text: an imported record's id or hash is data and must not steer a write out of the case folder.
        converted = converted_pdf(self._cases.store(case).case_dir, doc)
        drawing = draw_page(Path(source) if source else None, doc.format, stored, span, f"{cited} of {doc.name}",
                            self._options, words, converted)
        return PageView(doc, number, chunk, citation, drawing)


def converted_pdf(case_dir: Path, doc: Document) -> Path:
    """Where LibreOffice's PDF of `doc` is kept: inside `case_dir/page_images`, named by a digest of the record."""
    key = hashlib.sha256(f"{doc.id}\0{doc.file_hash}".encode()).hexdigest()[:32]
    return case_dir / "page_images" / f"{key}.pdf"
