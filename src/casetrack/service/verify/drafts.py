"""Checking a draft against a case (verify_draft) and its table of authorities (table_of_authorities).

The draft is read as the case's documents are (parse/: PDF pages, Word page breaks, text), the case's
pages come from its store, and the matching is the pure core's (verify/). The case's match keys and
their fingerprints are built once per case and kept until the case changes (its store generation), for
the most recently checked case only: about 2 bytes per character of the case's text.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from casetrack.chunk.layout import MIN_PRINTED_LINES
from casetrack.chunk.transcripts.transcript import FACT_PAGES, is_transcript, transcript_facts, transcript_rows
from casetrack.domain import Case, Document, ParsedPage, StoredPage
from casetrack.errors import FileNotFound, InvalidInput, UnsupportedFormat
from casetrack.parse.dispatch import parse_file
from casetrack.parse.options import ParseOptions
from casetrack.parse.text_file import parse_text_file
from casetrack.parse.text_pages import text_pages
from casetrack.service.cases.cases import CaseService
from casetrack.store import documents as docstore
from casetrack.store.rocks import RocksStore
from casetrack.store.stats import generation
from casetrack.verify.authorities.drafted import draft_authorities
from casetrack.verify.authorities.toa import PASSIM_PAGES, TableOfAuthorities, table_of_authorities
from casetrack.verify.case_view import CaseView
from casetrack.verify.draft import DraftReport, check_draft
from casetrack.verify.index import CaseKeys, PageEntry
from casetrack.verify.model import DRAFT_FORMATS, DRAFT_FORMATS_WORDS

log = logging.getLogger(__name__)

@dataclass(frozen=True, slots=True)
class Draft:
    name: str  # the file's name, or "pasted text"
    path: Path | None
    pages: tuple[ParsedPage, ...]
    indented: tuple[str, ...] = ()  # a Word file's set-off paragraphs (its block quotations)

    @property
    def pages_estimated(self) -> bool:
        return any(p.approximate for p in self.pages)


@dataclass(frozen=True, slots=True)
class Verification:
    case: Case
    draft: Draft
    report: DraftReport
    seconds: float


def read_draft(text: str | None = None, file_path: str | None = None) -> Draft:
    """The draft to check: pasted `text`, or the file at `file_path` (one of `DRAFT_FORMATS`).

    Raises InvalidInput (neither or both given, an empty draft), FileNotFound, UnsupportedFormat,
    DocumentUnreadable (a broken file)."""
    if (text is None or not text.strip()) == (file_path is None or not file_path.strip()):
        raise InvalidInput(f"Give the draft either as text or as file_path (a {DRAFT_FORMATS_WORDS} file), "
                           "not both and not neither.")
    if text is not None and text.strip():
        return Draft("pasted text", None, text_pages(text, keep_indents=True))  # as a .txt draft reads
    assert file_path is not None
    path = Path(file_path.strip()).expanduser()
    if not path.exists():
        raise FileNotFound(str(path))
    suffix = path.suffix.lower()
    if suffix not in DRAFT_FORMATS:
        raise UnsupportedFormat(suffix, DRAFT_FORMATS, "not a format a draft is checked in: save the draft as "
                                                        "Word (.docx) or PDF")
    options = ParseOptions()
    # A plain-text draft keeps its indentation: an indented paragraph is a block quotation.
    plain = suffix in (".md", ".txt")
    parsed = parse_text_file(path, options, keep_indents=True) if plain else parse_file(path, options)
    if not any(p.text.strip() for p in parsed.pages):
        raise InvalidInput(f"{path.name} holds no text to check. If it is a scan, run OCR on it or give the "
                           "draft as a Word file.")
    indented = _word_indents(path) if suffix == ".docx" else ()
    return Draft(path.name, path, parsed.pages, indented)


def _word_indents(path: Path) -> tuple[str, ...]:
    """A Word draft's indented paragraphs; python-docx is imported here, when a Word draft is read, not with this
    service, which the server and every command build (issue 35 §3)."""
    from casetrack.parse.word.indents import indented_paragraphs

    return tuple(indented_paragraphs(path))


class DraftVerifier:
    """verify_draft and table_of_authorities over the cases of one data directory."""

    def __init__(self, cases: CaseService) -> None:
        self._cases = cases
        self._lock = threading.Lock()
        self._keys: tuple[str, int, CaseKeys] | None = None  # (case id, generation, keys) of the last case
        self._transcripts: dict[tuple[str, str], str] = {}  # (document id, hash) -> its naming words as a transcript

    def verify(self, case: Case, draft: Draft) -> Verification:
        started = time.perf_counter()
        with self._cases.store(case).reader() as db:
            case_keys = self._case_keys(case, db)
            documents = {d.id: d for d in docstore.list_documents(db)}
            names = {d.id: words for d in documents.values() if (words := self._transcript_words(db, d))}
            view = CaseView(case_keys, documents, _StoreReader(db), names)
            report = check_draft(draft.pages, view, draft.indented)
        seconds = time.perf_counter() - started
        log.info("Checked %d quotations of %s against %s in %.2f s", len(report.quotes), draft.name, case.name,
                 seconds)
        return Verification(case, draft, report, seconds)

    def _case_keys(self, case: Case, db: RocksStore) -> CaseKeys:
        now = generation(db)
        with self._lock:
            if self._keys is not None and self._keys[:2] == (case.id, now):
                return self._keys[2]
        started = time.perf_counter()
        built = CaseKeys.build(_all_pages(db))
        log.info("Match keys of %s: %d pages, %.1f MB, built in %.2f s", case.name, len(built.pages),
                 built.nbytes / 2**20, time.perf_counter() - started)
        with self._lock:
            self._keys = (case.id, now, built)
        return built

    def _transcript_words(self, db: RocksStore, doc: Document) -> str:
        """The words a brief names a transcript by ("Smith Dep.", "Hr'g Tr.": chunk.transcript), "" for other
        documents; read once per document (its first pages first: most documents print no numbered rows)."""
        key = (doc.id, doc.file_hash)
        if key not in self._transcripts:
            first = [p for n in range(1, min(doc.page_count, FACT_PAGES) + 1)
                     if (p := docstore.page(db, doc.id, n)) is not None]
            words = ""
            if len(transcript_rows(first)) >= MIN_PRINTED_LINES:
                pages = docstore.pages(db, doc.id)
                words = transcript_facts(pages).naming_words if is_transcript(transcript_rows(pages)) else ""
            self._transcripts[key] = words
        return self._transcripts[key]

    def held_bytes(self) -> int:
        """Memory the kept match keys take (0 when none are kept)."""
        with self._lock:
            return self._keys[2].nbytes if self._keys is not None else 0

    def forget(self, case_id: str) -> None:
        with self._lock:
            if self._keys is not None and self._keys[0] == case_id:
                self._keys = None


@dataclass(frozen=True, slots=True)
class DraftTable:
    draft: Draft
    table: TableOfAuthorities
    docx_path: Path | None  # where the .docx was written, when asked for


def table_of_authorities_for(draft: Draft, passim: int = PASSIM_PAGES, write_docx: bool = False,
                             output_path: str | None = None, folder: Path | None = None) -> DraftTable:
    """The draft's table of authorities, and with `write_docx` the same as a Word file at `output_path`, else in
    `folder`, else next to the draft (toa_docx.toa_path_for). Raises InvalidInput (a passim threshold below 2,
    nowhere to write the .docx)."""
    if passim < 2:
        raise InvalidInput("passim_pages must be at least 2 (the number of pages from which an authority is "
                           "listed as passim).")
    _, authorities = draft_authorities(draft.pages)
    table = table_of_authorities(authorities, draft.pages_estimated, passim)
    target = None
    if write_docx or output_path:
        from casetrack.service.verify.toa_docx import toa_path_for, write_toa_docx  # python-docx, when asked

        target = write_toa_docx(table, toa_path_for(draft.path, output_path, folder))
    return DraftTable(draft, table, target)


class _StoreReader:
    def __init__(self, db: RocksStore) -> None:
        self._db = db

    def page(self, document_id: str, number: int) -> StoredPage | None:
        return docstore.page(self._db, document_id, number)


def _all_pages(db: RocksStore) -> Iterator[tuple[PageEntry, str]]:
    """Every page of the case, in document and page order, with its text."""
    for document_id, page in docstore.all_pages(db):
        yield PageEntry(document_id, page.number, page.bates_number), page.text
