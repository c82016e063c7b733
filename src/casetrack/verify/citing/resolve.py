"""A draft's citation resolved to the places of the case it names, or to the reason it names none.

Nothing is guessed: a name that fits no document, or several, a page the document does not have, a
Bates stamp no page bears, each resolves to nothing and says so. A place the document cannot show
(a section heading not found, a pin page a slip opinion does not print) leaves the whole document,
marked `located=False`, so a quotation found there is never called verified.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from casetrack.domain import Document
from casetrack.verify.authorities.opinions import OpinionIndex
from casetrack.verify.case_view import CaseView, Region, Resolution
from casetrack.verify.citing.citations import Citation, Locator
from casetrack.verify.citing.naming import DocumentWords, match_document
from casetrack.verify.citing.places import line_span, paragraph_span, section_span
from casetrack.verify.model import Cited


class Resolver:
    """Resolves a draft's citations in order (an `Id.` means the citation before it)."""

    def __init__(self, view: CaseView, opinions: OpinionIndex) -> None:
        self.view = view
        self.opinions = opinions
        self.names = [DocumentWords.of(d, view.names.get(d.id, "")) for d in view.documents.values()]
        self.previous: tuple[Citation, Resolution] | None = None

    def resolve(self, citation: Citation) -> Resolution:
        resolution = self._resolve(citation)
        if citation.kind != "id" or resolution.regions:
            self.previous = (citation, resolution)
        return resolution

    def names_document(self, cite: Citation) -> bool:
        """Whether a citation's naming words name exactly one document of the case."""
        return len(match_document(cite.name, self.names).documents) == 1

    def _resolve(self, cite: Citation) -> Resolution:
        if cite.kind == "id":
            return self._id(cite)
        if cite.kind == "authority":
            return self.opinions.resolve(cite, self.view)
        if cite.kind == "bates":
            return self._bates(cite)
        document, reason = self._document(cite)
        if document is None:
            return Resolution(Cited(cite.text, cite.kind, None, reason=reason))
        return in_document(cite, document, self.view)

    def _document(self, cite: Citation) -> tuple[Document | None, str]:
        if cite.kind == "exhibit":
            return _numbered(self.view, cite.number, _EXHIBIT_NAME, _EXHIBIT_STAMP, f"exhibit {cite.number}")
        if cite.kind == "ecf":
            return _numbered(self.view, cite.number, _ECF_NAME, _ECF_STAMP, f"docket entry {cite.number}")
        match = match_document(cite.name, self.names)
        if len(match.documents) == 1:
            return match.documents[0], ""
        return None, match.reason

    def _id(self, cite: Citation) -> Resolution:
        if self.previous is None:
            return Resolution(Cited(cite.text, "id", None, reason="“Id.” follows no citation the draft made before"))
        before, resolution = self.previous
        if cite.locator.empty:
            return replace(resolution, cited=replace(resolution.cited, text=cite.text, kind="id"))
        if before.kind == "authority":
            return self.opinions.resolve(replace(before, text=cite.text, locator=cite.locator), self.view)
        document_id = resolution.cited.document_id
        document = self.view.documents.get(document_id) if document_id else None
        if document is None:
            return Resolution(Cited(cite.text, "id", None, reason=resolution.cited.reason))
        return in_document(replace(cite, kind="id"), document, self.view)

    def _bates(self, cite: Citation) -> Resolution:
        assert cite.bates is not None
        first, last = (_stamp_key(s) for s in cite.bates)
        hits = [e for e in self.view.keys.pages if e.bates and first <= _stamp_key(e.bates) <= last
                and _prefix(_stamp_key(e.bates)) == _prefix(first)]
        if not hits:
            return Resolution(Cited(cite.text, "bates", None, reason=f"no page in the case is stamped {cite.bates[0]}"))
        document = self.view.documents[hits[0].document_id]
        pages = [e.number for e in hits if e.document_id == document.id]
        located = replace(cite, locator=Locator(pages=(min(pages), max(pages))))
        return in_document(located, document, self.view, stored_pages=True)


def in_document(cite: Citation, document: Document, view: CaseView, stored_pages: bool = False) -> Resolution:
    """The places in `document` a citation's locator names. Its page numbers are the document's own page
    numbers or the ones its pages print (both are tried); `stored_pages`: only the former (a Bates range)."""
    loc = cite.locator
    base = Cited(cite.text, cite.kind, document.name, document.id, document.name)
    if loc.empty:
        return Resolution(replace(base, reason="the citation names no page, so the whole document counts"),
                          (Region(document, 1, document.page_count),))
    if loc.section is not None or loc.paragraphs is not None:
        return _in_part(cite, document, view, base)
    assert loc.pages is not None
    first, last = loc.pages[0], max(loc.pages)
    span = last - first
    own = first if 1 <= first <= document.page_count else None
    if loc.lines is not None and (rows := _transcript_rows(cite, document, view, base, first, first + span)):
        return rows
    if loc.lines is not None or own is None:  # transcripts and pleadings are cited by the numbers they print
        printed = None if stored_pages else view.page_printing(document, first)
        start = printed if printed is not None else own
        if start is None:
            reason = f"{document.name} has {document.page_count} page(s) and none prints the number {first}"
            return Resolution(replace(base, reason=reason))
        if loc.lines is not None:
            return _lines(cite, document, view, base, start, start + span)
        own = start
    approximate = _approximate(document, view)
    regions = [Region(document, own, min(own + span, document.page_count), slack=1 if approximate else 0)]
    if not stored_pages and not approximate:  # or the page that prints the number, if another (checked lazily)
        regions.append(Region(document, first, last, printed=True))
    note = ("its pages are CaseTrack's estimates (the file has no fixed pages), so a page either side counts"
            if approximate else None)
    pages_text = f"p. {first}" if span == 0 else f"pp. {first}-{last}"
    return Resolution(replace(base, resolved=f"{document.name}, {pages_text}", pages=(first, last), reason=note),
                      tuple(regions))


def _transcript_rows(cite: Citation, document: Document, view: CaseView, base: Cited, first: int,
                     last: int) -> Resolution | None:
    """A page:line citation of a transcript found by the rows its pages print under their own numbers (a
    deposition filed as an exhibit prints "Page 45" below the court's "Page 3 of 20" stamp; a condensed transcript
    prints four pages on one); None when the document prints no such rows."""
    assert cite.locator.lines is not None
    l1, l2 = cite.locator.lines
    start, end = view.transcript_row(document, first, l1), view.transcript_row(document, last, l2)
    if start is None or end is None:
        return None
    where = f"{first}:{l1}" + ("" if (first, l1) == (last, l2) else f"-{l2}" if first == last else f"-{last}:{l2}")
    return Resolution(replace(base, resolved=f"{document.name}, printed {where}", pages=(first, last), lines=(l1, l2)),
                      (Region(document, start[0], end[0], start[1], end[2]),))


def _lines(cite: Citation, document: Document, view: CaseView, base: Cited, first: int, last: int) -> Resolution:
    assert cite.locator.lines is not None
    l1, l2 = cite.locator.lines
    start_page = view.page(document.id, first)
    end_page = view.page(document.id, last)
    start = line_span(start_page.text, l1, l1) if start_page else None
    end = line_span(end_page.text, l2, l2) if end_page else None
    cited = replace(base, pages=(first, last), lines=(l1, l2))
    if start is None or end is None:
        reason = f"p. {first} of {document.name} has no line {l1}" if start is None else \
            f"p. {last} of {document.name} has no line {l2}"
        return Resolution(replace(cited, reason=reason))
    where = f"p. {first}, ll. {l1}-{l2}" if first == last else f"p. {first}, l. {l1} to p. {last}, l. {l2}"
    return Resolution(replace(cited, resolved=f"{document.name}, {where}"),
                      (Region(document, first, last, start[0], end[1]),))


def _in_part(cite: Citation, document: Document, view: CaseView, base: Cited) -> Resolution:
    loc = cite.locator
    pages = [p for n in range(1, document.page_count + 1) if (p := view.page(document.id, n)) is not None]
    if loc.section is not None:
        span = section_span(pages, loc.section)
        label = f"§ {loc.section}"
    else:
        assert loc.paragraphs is not None
        span = paragraph_span(pages, *loc.paragraphs)
        first, last = loc.paragraphs
        label = f"¶ {first}" if first == last else f"¶¶ {first}-{last}"
    cited = replace(base, paragraph=label)
    if span is None:
        reason = f"{label} is not a heading or numbered paragraph of {document.name}; the whole document was searched"
        return Resolution(replace(cited, reason=reason), (Region(document, 1, document.page_count),), located=False)
    first_page, start, last_page, end = span
    where = f"p. {first_page}" if first_page == last_page else f"pp. {first_page}-{last_page}"
    return Resolution(replace(cited, resolved=f"{document.name}, {label} ({where})", pages=(first_page, last_page)),
                      (Region(document, first_page, last_page, start, end),))


def _approximate(document: Document, view: CaseView) -> bool:
    page = view.page(document.id, 1)
    return page is not None and page.approximate


_EXHIBIT_NAME = r"\b(?:ex|exh|exhibit)[\s._-]*0*{n}(?![0-9a-z])"
_EXHIBIT_STAMP = r"^\s*EXHIBIT\s+0*{n}\b"
_ECF_NAME = r"\b(?:ecf|dkt|doc|docket|de|document)[\s._#-]*(?:no\.?[\s._-]*)?0*{n}(?![0-9])"
_ECF_STAMP = r"\bDocument:?\s*0*{n}(?:-\d+)?\b"


def _numbered(view: CaseView, number: str, name_pattern: str, stamp_pattern: str, label: str
              ) -> tuple[Document | None, str]:
    """The one document named or stamped with an exhibit's or docket entry's number."""
    n = re.escape(number.lower().lstrip("0") or "0")
    by_name = re.compile(name_pattern.format(n=n), re.IGNORECASE)
    found = [d for d in view.documents.values() if by_name.search(d.name.replace("_", " "))]
    if not found:
        stamp = re.compile(stamp_pattern.format(n=n), re.IGNORECASE | re.MULTILINE)
        for document in view.documents.values():
            first = view.page(document.id, 1)
            if first is not None and stamp.search(first.text[:400]):
                found.append(document)
    if len(found) == 1:
        return found[0], ""
    if not found:
        return None, f"no document in the case is {label}"
    return None, f"{label} could be any of: {', '.join(d.name for d in found[:5])}"


def _stamp_key(stamp: str) -> str:
    return re.sub(r"[\s_-]", "", stamp).upper()


def _prefix(key: str) -> str:
    return key.rstrip("0123456789")


def regions_of(resolutions: Sequence[Resolution]) -> list[Region]:
    return [r for res in resolutions for r in res.regions]
