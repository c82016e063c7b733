"""What checking a quotation reads and finds: the case as a `CaseView` (its keys, documents and pages, read on
demand, with the rows and errata sheets of its transcripts), the `Region` a citation names, the `Outcome` of a
check, and `place_of`, a passage located on its pages and cited as search_case cites. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from casetrack.chunk.layout import PageLayout
from casetrack.chunk.transcripts.errata import Correction, corrections
from casetrack.domain import Document, ExtractionMethod, Provenance, StoredPage
from casetrack.verify.citing.places import printed_pages, transcript_rows
from casetrack.verify.index import CaseKeys
from casetrack.verify.model import Cited, Difference, Place, Status
from casetrack.verify.window import Window, join


class PageReader(Protocol):
    def page(self, document_id: str, number: int) -> StoredPage | None: ...


@dataclass(frozen=True, slots=True)
class Region:
    """Where a citation points: pages [first_page, last_page] of a document, from offset `start` of the first to
    `end` of the last (None: its end); `slack` pages either side when the document's pages are estimates;
    `printed`: the pages that print those numbers (a brief's cover pages make its page 3 print "1")."""

    document: Document
    first_page: int
    last_page: int
    start: int = 0
    end: int | None = None
    slack: int = 0
    printed: bool = False  # the pages are the numbers the document prints; mapped to its pages when checked


@dataclass(frozen=True, slots=True)
class Resolution:
    """What a citation resolved to: the citation as reported, the regions it names, and whether the place inside
    the document could be located (False: only the document is known, so nothing found there is verified)."""

    cited: Cited
    regions: tuple[Region, ...] = ()
    located: bool = True


@dataclass(frozen=True, slots=True)
class Outcome:
    status: Status
    found: Place | None = None
    differences: tuple[Difference, ...] = ()
    similarity: float | None = None
    ocr_noise: bool = False
    at_cited_place: bool = False
    note: str = ""  # what the report adds (a transcript's errata sheet: verify.errata)


@dataclass
class CaseView:
    """What checking reads: the case's keys, its documents, and its pages (read on demand)."""

    keys: CaseKeys
    documents: Mapping[str, Document]
    reader: PageReader
    names: Mapping[str, str] = field(default_factory=dict)  # more naming words by document id (a transcript's)
    _pages: dict[tuple[str, int], StoredPage | None] = field(default_factory=dict)
    _printed: dict[str, dict[int, int]] = field(default_factory=dict)
    _rows: dict[str, dict[tuple[int, int], tuple[int, int, int]]] = field(default_factory=dict)
    _errata: dict[str, list[Correction]] = field(default_factory=dict)  # a transcript's errata sheet, by document

    def page(self, document_id: str, number: int) -> StoredPage | None:
        at = (document_id, number)
        if at not in self._pages:
            self._pages[at] = self.reader.page(document_id, number)
        return self._pages[at]

    def page_printing(self, document: Document, number: int) -> int | None:
        """The page of `document` that prints `number` as its page number, where that is another page."""
        if document.id not in self._printed:
            self._printed[document.id] = printed_pages(document.page_count, lambda n: self.page(document.id, n))
        return self._printed[document.id].get(number)

    def transcript_row(self, document: Document, page: int, line: int) -> tuple[int, int, int] | None:
        """(file page, start, end) of the row a transcript prints as `page`:`line` (chunk.pinpoints: its "Page 12"
        under a filed exhibit's stamp, several transcript pages on one page of a condensed transcript)."""
        return self._rows_of(document).get((page, line))

    def _rows_of(self, document: Document) -> dict[tuple[int, int], tuple[int, int, int]]:
        if document.id not in self._rows:
            pages = [p for n in range(1, document.page_count + 1) if (p := self.page(document.id, n)) is not None]
            self._rows[document.id] = transcript_rows(pages)
        return self._rows[document.id]

    def printed_span(self, place: Place) -> str | None:
        """The transcript page:line span of a passage ("4:17-18", "4:24-5:2"), None outside transcripts."""
        document = self.documents.get(place.document_id)
        rows = self._rows_of(document) if document is not None else {}
        starts = sorted((where[0], where[1], at) for at, where in rows.items())
        first = [at for page, start, at in starts if page == place.page and start <= place.char_start]
        last = [at for page, start, at in starts if page == place.page_end and start < place.char_end]
        if not last:
            return None
        (p1, l1), (p2, l2) = (first or last)[-1], last[-1]
        return f"{p1}:{l1}" + ("" if (p1, l1) == (p2, l2) else f"-{l2}" if p1 == p2 else f"-{p2}:{l2}")

    def corrected_rows(self, region: Region) -> list[tuple[Correction, tuple[int, int, int]]]:
        """The errata sheet's corrections to the transcript rows of `region`, each with its row's place."""
        document = region.document
        if document.id not in self._errata:
            pages = [p for n in range(1, document.page_count + 1) if (p := self.page(document.id, n)) is not None]
            self._errata[document.id] = corrections(pages)
        rows = self._rows_of(document)
        out = []
        for correction in self._errata[document.id]:
            where = rows.get((correction.page, correction.line))
            if where is not None and region.first_page <= where[0] <= region.last_page and \
                    (where[0] != region.first_page or where[1] >= region.start) and \
                    (region.end is None or where[0] != region.last_page or where[1] < region.end):
                out.append((correction, where))
        return out

    def window(self, document: Document, first: int, last: int) -> Window:
        pages = []
        for number in range(max(1, first), min(document.page_count, last) + 1):
            page = self.page(document.id, number)
            if page is not None:
                pages.append(page)
        return join(pages)


def place_of(window: Window, document: Document, start: int, end: int) -> Place:
    """The passage window.text[start:end], located on its page(s) and cited as search_case cites."""
    page, page_start = window.locate(start)
    page_end, page_stop = window.locate(max(start, end - 1))
    page_stop += 1
    first = window.pages[page]
    layout = PageLayout.of(first.text)
    stop_on_first = page_stop if page == page_end else len(first.text.rstrip())
    provenance = Provenance(
        document_id=document.id, document_name=document.name, document_path=document.original_path, page=page,
        paragraph_start=layout.paragraph_at(page_start),
        paragraph_end=layout.paragraph_at(max(page_start, stop_on_first - 1)),
        line_start=layout.line_at(page_start), line_end=layout.line_at(max(page_start, stop_on_first - 1)),
        char_start=page_start, char_end=stop_on_first, extraction_method=first.method,
        ocr_confidence=first.ocr_confidence, bates_number=first.bates_number, page_approximate=first.approximate,
        attachment=first.attachment, attachment_page=first.attachment_page,
    )
    citation = provenance.cite()
    line_end = provenance.line_end
    if page_end != page:
        line_end = PageLayout.of(window.pages[page_end].text).line_at(max(0, page_stop - 1))
        citation += f", to p. {page_end}, l. {line_end}"
    return Place(document.id, document.name, page, page_end, provenance.paragraph_start, provenance.paragraph_end,
                 provenance.line_start, line_end, page_start, page_stop, window.text[start:end], citation,
                 ocr=first.method is ExtractionMethod.OCR)
