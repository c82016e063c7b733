"""get_chunk and get_source_context: a passage, or a passage with its neighbours, and where it stands in its
transcript (issue 37), each in one call."""

from __future__ import annotations

from dataclasses import dataclass

from casetrack.domain import Case, Chunk, Document
from casetrack.service.cases.documents import ChunkWindow, DocumentReader
from casetrack.service.search.testimony import TestimonyService
from casetrack.service.search.transcripts import TranscriptPlace


@dataclass(frozen=True, slots=True)
class ChunkDetail:
    chunk: Chunk
    document: Document
    chunk_count: int  # the document's
    transcript: TranscriptPlace | None  # the chunk's rows in its transcript; None outside transcripts


@dataclass(frozen=True, slots=True)
class ChunkContext:
    window: ChunkWindow
    transcript: TranscriptPlace | None  # the middle chunk's, as for get_chunk


class PassageReader:
    def __init__(self, documents: DocumentReader, testimony: TestimonyService) -> None:
        self._documents, self._testimony = documents, testimony

    def chunk(self, case: Case, chunk_id: str) -> ChunkDetail:
        """Raises NotFound (an unknown chunk id or prefix)."""
        chunk, doc, total = self._documents.chunk(case, chunk_id)
        return ChunkDetail(chunk, doc, total, self._testimony.place(case, chunk))

    def context(self, case: Case, chunk_id: str, window: int) -> ChunkContext:
        """Raises NotFound, InvalidInput (a window outside 1-5)."""
        found = self._documents.context(case, chunk_id, window)
        return ChunkContext(found, self._testimony.place(case, found.chunk))
