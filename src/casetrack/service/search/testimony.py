"""get_testimony and digest_transcript (issue 37): a transcript's questions and answers (chunk.testimony), for one
transcript or for a witness across the case, filtered and paginated; and the groundwork of a page-line digest:
examinations, exhibits marked, topics, objections. Every row carries its transcript page:line and its file page."""

from __future__ import annotations

import re
import threading
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from casetrack.chunk.transcripts.testimony import Exchange, Exhibit, Testimony, Turn, exhibits, testimony
from casetrack.chunk.transcripts.transcript import Line, pin_span, query_words
from casetrack.domain import Case, Chunk, Document
from casetrack.errors import InvalidInput, NotFound, Step
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.service.search.transcripts import Transcript, TranscriptPlace, Transcripts
from casetrack.store import documents as docstore

MAX_LIMIT = 200
PAGE_SIZE = 25  # questions and answers a get_testimony call returns (offset pages on)
TOPIC_WORDS = 3  # words naming a topic: the most frequent in its questions and answers


class Testified(NamedTuple):
    """One question and answer of a transcript, as get_testimony returns it."""

    transcript: Transcript
    exchange: Exchange


@dataclass(frozen=True, slots=True)
class TestimonyPage:
    transcripts: tuple[Transcript, ...]  # those searched
    total: int  # exchanges matching the filters
    offset: int
    items: tuple[Testified, ...]


@dataclass(frozen=True, slots=True)
class Topic:
    words: tuple[str, ...]  # its most frequent words (none invented: each is in its questions or answers)
    first: Line
    last: Line
    exchanges: int

    @property
    def pin(self) -> str:
        return pin_span(self.first, self.last)


@dataclass(frozen=True, slots=True)
class Digest:
    transcript: Transcript
    testimony: Testimony
    exhibits: tuple[Exhibit, ...]
    topics: tuple[Topic, ...]


class TestimonyService:
    def __init__(self, cases: CaseService, documents: DocumentReader, transcripts: Transcripts) -> None:
        self._cases = cases
        self._documents = documents
        self._transcripts = transcripts
        self._read: dict[tuple[str, str], Testimony] = {}  # (document id, hash) -> its testimony, last few
        self._lock = threading.Lock()

    def testimony(self, case: Case, ref: str, query: str | None = None, examiner: str | None = None,
                  pages: str | None = None, offset: int = 0, limit: int = PAGE_SIZE) -> TestimonyPage:
        """The questions and answers of a transcript (`ref`: its name or id) or of every transcript of a witness
        (`ref`: the witness's name), in order, those holding a word of `query`, asked by `examiner`, on `pages`
        ("4-12", "7"). Raises InvalidInput (bad bounds, not a transcript), NotFound (no such document or
        witness: the document's error, with its close matches)."""
        first, last = _page_range(pages)
        if offset < 0 or not 1 <= limit <= MAX_LIMIT:
            raise InvalidInput(f"offset must be 0 or more, limit between 1 and {MAX_LIMIT}.")
        found = self._named(case, ref)
        wanted = query_words(query) if query else set()
        items = [Testified(t, x) for t in found for x in self._testimony(t).exchanges
                 if _kept(x, wanted, examiner, first, last)]
        return TestimonyPage(tuple(found), len(items), offset, tuple(items[offset:offset + limit]))

    def _named(self, case: Case, ref: str) -> list[Transcript]:
        """The transcript `ref` names, else every transcript of the witness it names. Raises NotFound (the
        document's, with its close matches) when it names neither."""
        try:
            doc = self._documents.resolve(case, ref)
        except NotFound:
            found = self._of_witness(case, ref)
            if found:
                return found
            raise
        return [self._transcript_of(case, doc)]

    def place(self, case: Case, chunk: Chunk) -> TranscriptPlace | None:
        """A chunk's rows in its transcript ("Smith Dep. 5:1-8:25 (Mar. 3, 2021)"), None outside transcripts."""
        with self._cases.store(case).reader() as db:
            return self._transcripts.place(db, chunk)

    def digest(self, case: Case, document: str) -> Digest:
        """A transcript's examinations, exhibits, topics and objections. Raises InvalidInput (not a transcript),
        NotFound."""
        transcript = self._transcript(case, document)
        said = self._testimony(transcript)
        return Digest(transcript, said, tuple(exhibits(transcript.lines, said.turns)), tuple(topics(said.exchanges)))

    def _transcript(self, case: Case, ref: str) -> Transcript:
        return self._transcript_of(case, self._documents.resolve(case, ref))

    def _transcript_of(self, case: Case, doc: Document) -> Transcript:
        with self._cases.store(case).reader() as db:
            found = self._transcripts.of(db, doc)
        if found is None:
            raise InvalidInput(f'"{doc.name}" is not a transcript: it prints no numbered rows of questions and '
                               "answers or speakers' turns under page numbers.",
                               [Step("list_documents", {"case_name": case.name})])
        return found

    def _of_witness(self, case: Case, witness: str) -> list[Transcript]:
        asked = witness.casefold().split()
        found = []
        with self._cases.store(case).reader() as db:
            for doc in sorted(docstore.list_documents(db), key=_name):
                transcript = self._transcripts.of(db, doc)
                named = (transcript.facts.witness or "").casefold().split() if transcript else []
                if transcript is not None and asked and all(w in named for w in asked):
                    found.append(transcript)
        return found

    def _testimony(self, transcript: Transcript) -> Testimony:
        key = (transcript.document.id, transcript.document.file_hash)
        with self._lock:
            if key in self._read:
                return self._read[key]
        said = testimony(transcript.lines)
        with self._lock:  # tools run on worker threads
            if len(self._read) >= 8:
                self._read.pop(next(iter(self._read)))
            self._read[key] = said
        return said


def _page_range(pages: str | None) -> tuple[int | None, int | None]:
    """(first, last) of "4-12", "7", "4-" (None: open)."""
    if not pages or not pages.strip():
        return None, None
    match = re.fullmatch(r"\s*(\d{1,5})?\s*(?:[-\u2013]\s*(\d{1,5})?)?\s*", pages)
    if match is None or not (match.group(1) or match.group(2)):
        raise InvalidInput(f'pages must be a page or a range of transcript pages, e.g. "4-12", not "{pages}".')
    first = int(match.group(1)) if match.group(1) else None
    last = int(match.group(2)) if match.group(2) else first if "-" not in pages and "\u2013" not in pages else None
    return first, last


def _name(doc: Document) -> str:
    return doc.name.casefold()


def _kept(exchange: Exchange, wanted: set[str], examiner: str | None, page_from: int | None,
          page_to: int | None) -> bool:
    page = exchange.first_page
    if (page_from is not None and page < page_from) or (page_to is not None and page > page_to):
        return False
    if examiner and examiner.casefold() not in (exchange.examiner or "").casefold():
        return False
    return not wanted or bool(wanted & query_words(_said(exchange)))


def _said(exchange: Exchange) -> str:
    return exchange.question.text + " " + (exchange.answer.text if exchange.answer else "")


def topics(exchanges: Sequence[Exchange]) -> list[Topic]:
    """Runs of questions and answers about the same things: a run goes on while an exchange shares a word with
    the last three (chunk.transcript.query_words: no small words), named by its most frequent words."""
    out: list[Topic] = []
    run: list[Exchange] = []
    recent: list[set[str]] = []
    for exchange in exchanges:
        words = query_words(_said(exchange)) - _GENERIC
        if run and not (words & set().union(*recent[-3:])):
            out.append(_topic(run))
            run, recent = [], []
        run.append(exchange)
        recent.append(words)
    if run:
        out.append(_topic(run))
    return out


def _topic(run: list[Exchange]) -> Topic:
    counts: Counter[str] = Counter()
    surface: dict[str, str] = {}  # a word's stem -> the word as first written ("dollars", not "dollar")
    for exchange in run:
        said = _said(exchange)
        wanted = query_words(said) - _GENERIC
        in_order: dict[str, None] = {}  # equally frequent words named in the order first said, not a set's order
        for word in re.findall(r"[a-z0-9]+", said.lower()):
            for stem in query_words(word):
                surface.setdefault(stem, word)
                if stem in wanted:
                    in_order.setdefault(stem)
        counts.update([*in_order, *sorted(wanted.difference(in_order))])
    named = tuple(surface.get(w, w) for w, _ in counts.most_common(TOPIC_WORDS))
    last: Turn = run[-1].answer or run[-1].question
    return Topic(named, run[0].question.lines[0], last.lines[-1], len(run))


# Words every deposition is full of: they join no two answers into one topic.
_GENERIC = frozenset({"yes", "no", "not", "don", "know", "recall", "remember", "okay", "right", "can", "could",
                      "one", "just", "like", "think", "that", "mean", "were", "any", "all", "been", "some", "time",
                      "there", "out", "get", "going", "let", "want", "sure", "well", "now", "ever", "anyone"})
