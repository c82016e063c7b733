"""Transcripts in a case as lawyers cite them (issue 37): each transcript document's rows and facts
(chunk.transcript), read from its stored pages once per document and kept for the next call, and a passage's
place in it: the rows that hold what a question asks ("6:16"), as a brief cites them ("Smith Dep. 6:16 (Mar. 3,
2021)")."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

from casetrack.chunk.layout import MIN_PRINTED_LINES
from casetrack.chunk.transcripts.errata import Correction, corrections
from casetrack.chunk.transcripts.transcript import (
    FIRST_PAGES,
    Line,
    TranscriptFacts,
    is_transcript,
    pin_span,
    pinpoint,
    transcript_facts,
    transcript_rows,
)
from casetrack.domain import Chunk, Document
from casetrack.store import documents as docstore
from casetrack.store.rocks import RocksStore

KEPT = 32  # transcripts kept read (a 300-page deposition's rows: ~1 MB)


@dataclass(frozen=True, slots=True)
class Transcript:
    document: Document
    facts: TranscriptFacts
    lines: tuple[Line, ...]
    errata: tuple[Correction, ...] = ()  # its errata sheet's corrections (chunk.errata)

    def lines_of(self, chunk: Chunk) -> list[Line]:
        """The rows a passage holds (its page, its characters)."""
        span = chunk.span
        return [row for row in self.lines
                if row.file_page == span.page and span.char_start <= row.start < span.char_end]


@dataclass(frozen=True, slots=True)
class TranscriptPlace:
    """Where a passage is in its transcript: `pin` the rows that hold the answer ("6:16", the passage's rows when
    no question picks any), `lines` all the rows it holds ("5:1-8:25"), `citation` as a brief cites `pin`."""

    pin: str
    lines: str
    citation: str
    witness: str | None
    date: str | None
    kind: str


class Transcripts:
    """The transcripts of the documents asked about, read once (by document id and content hash)."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[str, str], Transcript] = OrderedDict()
        self._not: set[tuple[str, str]] = set()  # documents read and found no transcript
        self._lock = threading.Lock()

    def of(self, db: RocksStore, doc: Document) -> Transcript | None:
        """The document as a transcript, None when it is none (chunk.transcript.is_transcript)."""
        key = (doc.id, doc.file_hash)
        with self._lock:
            if key in self._kept:
                self._kept.move_to_end(key)
                return self._kept[key]
            if key in self._not:
                return None
        first = docstore.first_pages(db, doc.id, min(doc.page_count, FIRST_PAGES))
        rows = transcript_rows(first)  # most documents print no numbered rows: their first pages say so
        pages = docstore.pages(db, doc.id) if len(rows) >= MIN_PRINTED_LINES else []
        rows = transcript_rows(pages) if pages else rows
        found = Transcript(doc, transcript_facts(pages), tuple(rows), tuple(corrections(pages))) \
            if pages and is_transcript(rows) else None
        with self._lock:
            if found is None:
                self._not.add(key)
                return None
            self._kept[key] = found
            while len(self._kept) > KEPT:
                self._kept.popitem(last=False)
        return found

    def place(self, db: RocksStore, chunk: Chunk, query: str | None = None) -> TranscriptPlace | None:
        """A passage's place in its transcript (None outside transcripts, or for a passage holding no row)."""
        doc = docstore.get_document(db, chunk.document_id)
        transcript = self.of(db, doc) if doc is not None else None
        if transcript is None:
            return None
        rows = transcript.lines_of(chunk)
        if not rows:
            return None
        picked = pinpoint(rows, query) if query else None
        pin = pin_span(*picked) if picked else pin_span(rows[0], rows[-1])
        facts = transcript.facts
        return TranscriptPlace(pin, pin_span(rows[0], rows[-1]), facts.cite(pin), facts.witness, facts.date,
                               facts.kind)
