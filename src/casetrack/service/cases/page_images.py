"""get_page_image: a cited passage shown on its page (page_image/), or any page of a document."""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from casetrack.domain import Case, Chunk, Document, ExtractionMethod, page_citation
from casetrack.errors import InvalidInput, NotFound
from casetrack.parse.options import ParseOptions
from casetrack.service.cases.cases import CaseService
from casetrack.service.cases.documents import DocumentReader
from casetrack.store import documents as docstore
from casetrack.store.case_store import CaseStore
from casetrack.store.rocks import RocksStore

if TYPE_CHECKING:
    from casetrack.page_image.model import PageDrawing

log = logging.getLogger(__name__)

PRINTS = "page_images"  # the case's folder of LibreOffice's PDFs of its Word files
# The only names ever deleted there: a print (`converted_pdf`), and the partial file `convert_to_pdf` moves into
# place under it (parse.word.legacy), whose pid a killed process may leave. Group 1 is the print's key.
_PRINT_NAMES = (re.compile(r"([0-9a-f]{32})\.pdf"), re.compile(r"\.([0-9a-f]{32})\.pdf\.[0-9]+\.partial"))


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
        store = self._cases.store(case)
        with store.reader() as db:
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
        converted = converted_pdf(store.case_dir, doc) if _ours(store.case_dir) else None
        drawing = draw_page(Path(source) if source else None, doc.format, stored, span, f"{cited} of {doc.name}",
                            self._options, words, converted)
        # Printed while a delete or reindex replaced the record: it would outlive it.
        if converted is not None and converted.exists():
            with store.reader() as db:
                gone = docstore.get_document(db, doc.id) is None
            if gone:
                forget_print(store.case_dir, doc)
        return PageView(doc, number, chunk, citation, drawing)


def print_key(doc: Document) -> str:
    """The name LibreOffice's PDF of `doc` is kept under: a digest of the record's id and content hash."""
    return hashlib.sha256(f"{doc.id}\0{doc.file_hash}".encode()).hexdigest()[:32]


def converted_pdf(case_dir: Path, doc: Document) -> Path:
    """Where LibreOffice's PDF of `doc` is kept: inside `case_dir/page_images`, named by a digest of the record."""
    return case_dir / PRINTS / f"{print_key(doc)}.pdf"


def forget_print(case_dir: Path, doc: Document) -> None:
    """Remove the print of `doc`, whose record was just replaced or deleted: pages of an old version (perhaps with
    text the user removed) must not outlive it. Called after the commit: a crash before it loses nothing (the
    print is a cache), and the next start's sweep (`sweep_prints`) removes what it left; so does a failure here."""
    _remove(case_dir, {print_key(doc)})


def sweep_prints(store: CaseStore) -> int:
    """Remove the prints in `store`'s case folder that belong to no document of the case (left by a crash between
    a commit and `forget_print`); returns how many. Holds the case's writer lease so that no document is stored
    while the list of those still there is used. Raises CaseBusy (and what opening the store raises)."""
    if not _printed(store.case_dir):
        return 0
    with store.reader() as db:  # most starts find nothing stale: no writer lease taken for them
        if not {key for key, _ in _printed(store.case_dir)} - _live(db):
            return 0
    with store.writer("removing the printed pages of replaced documents") as db:
        return _remove(store.case_dir, {key for key, _ in _printed(store.case_dir)} - _live(db))


def _live(db: RocksStore) -> set[str]:
    return {print_key(doc) for doc in docstore.list_documents(db)}


def _ours(case_dir: Path) -> bool:
    """Whether the case's folder of prints is one CaseTrack made (or will): a link there (not something CaseTrack
    makes) would send a print, pages of a privileged file, out of the case folder; then none is kept."""
    folder = case_dir / PRINTS
    return not folder.is_symlink() and (folder.is_dir() or not folder.exists())


def _printed(case_dir: Path) -> list[tuple[str, Path]]:
    """(key, path) of each print or partial print in the case's folder of prints, by name only."""
    folder = case_dir / PRINTS
    if not _ours(case_dir) or not folder.is_dir():  # not a folder CaseTrack made: nothing in it is ours
        return []
    found = []
    for path in folder.iterdir():
        for pattern in _PRINT_NAMES:
            if named := pattern.fullmatch(path.name):
                found.append((named.group(1), path))
    return found


def _remove(case_dir: Path, keys: Iterable[str]) -> int:
    """Remove the prints (and partial prints) named by `keys`; a file that cannot be removed is logged."""
    wanted, removed = set(keys), 0
    for key, path in _printed(case_dir) if wanted else []:
        if key in wanted:
            try:
                path.unlink(missing_ok=True)
                removed += 1
            except OSError as exc:
                log.warning("Could not remove the printed pages %s (the next start tries again): %s", path, exc)
    return removed
