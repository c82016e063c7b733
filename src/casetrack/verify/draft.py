"""A whole draft checked against a case: every quotation with its citation, and every authority it cites."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from casetrack.domain import ParsedPage
from casetrack.graph.pagetext import JoinedText, join_pages
from casetrack.verify.authorities.drafted import DraftAuthority, draft_authorities
from casetrack.verify.authorities.opinions import OpinionIndex
from casetrack.verify.case_view import CaseView, Outcome, Resolution
from casetrack.verify.check import check
from casetrack.verify.citing.citations import Citation, citation_after
from casetrack.verify.citing.resolve import Resolver
from casetrack.verify.model import AuthorityCheck, Cited, QuoteCheck, Status
from casetrack.verify.pattern import parse_quote
from casetrack.verify.quotes import Quotation, find_quotations

MIN_UNCITED_WORDS = 4  # shorter quotations citing nothing are defined terms and scare quotes, not quotations
MIN_KEY_CHARS = 6  # a quotation of fewer letters and digits says too little to be found
# Something citation-like between a citation and an "Id.", which then may mean that instead.
_CITE_HINT = re.compile(r"\u00b6|\u00a7|\bat\s+\d|\d:\d|\bEx\.|\bECF\b|\bDkt\.|\b[Ii]d\.|\bpp?\.\s*\d")


@dataclass(frozen=True, slots=True)
class DraftReport:
    quotes: tuple[QuoteCheck, ...]
    authorities: tuple[AuthorityCheck, ...]
    skipped: int  # short quotations citing nothing (defined terms, scare quotes): not checked
    draft_pages: int
    pages_estimated: bool  # the draft's page numbers are estimates (a Word or text file without page breaks)

    @property
    def all_verified(self) -> bool:
        return all(q.status is Status.VERIFIED for q in self.quotes)


def check_draft(pages: Sequence[ParsedPage], view: CaseView, indented: Iterable[str] = ()) -> DraftReport:
    """Every quotation of the draft `pages` checked against the case `view`, and the authorities it cites."""
    text, authorities = draft_authorities(pages)
    joined = join_pages(pages)
    opinions = OpinionIndex(view, authorities)
    resolver = Resolver(view, opinions)
    checks: list[QuoteCheck] = []
    skipped = 0
    last_cite_end = 0
    for quotation in find_quotations(text, indented):
        pattern = parse_quote(quotation.text)
        citations = citation_after(text, quotation.cite_start, quotation.cite_end, authorities)
        if citations and citations[0].tentative and not resolver.names_document(citations[0]):
            citations = []  # capitalised words after the quotation that name no document: prose, not a citation
        if not citations and len(quotation.text.split()) < MIN_UNCITED_WORDS:
            skipped += 1
            continue
        if pattern.key_length < MIN_KEY_CHARS:
            skipped += 1
            continue
        resolutions = []
        for citation in citations:
            if citation.kind == "id" and _cited_between(text, [(last_cite_end, quotation.start),
                                                               (quotation.end, citation.start)], authorities):
                resolver.previous = None  # something else was cited since: "Id." may mean that
            resolutions.append(resolver.resolve(citation))
            last_cite_end = citation.end
        outcome = check(pattern, [r for res in resolutions if res.located for r in res.regions], view)
        checks.append(_quote_check(quotation, pattern.alterations, pattern.elided, citations, resolutions, outcome,
                                   _page_of(joined, quotation.start)))
    return DraftReport(tuple(checks), tuple(opinions.check(authorities)), skipped, len(pages),
                       any(p.approximate for p in pages))


def _cited_between(text: str, spans: Sequence[tuple[int, int]], authorities: Sequence[DraftAuthority]) -> bool:
    """Whether the draft's text in `spans` (between a citation and an "Id.", quotations left out) cites anything."""
    for start, end in spans:
        if _CITE_HINT.search(text, start, max(start, end)) or any(start <= a.start < end for a in authorities):
            return True
    return False


def _page_of(joined: JoinedText, offset: int) -> int | None:
    located = joined.locate(offset, offset)
    return located[0] if located else None


def _quote_check(quotation: Quotation, alterations: tuple[str, ...], elided: bool, citations: Sequence[Citation],
                 resolutions: Sequence[Resolution], outcome: Outcome, page: int | None) -> QuoteCheck:
    status, notes = outcome.status, []
    cited: Cited | None = resolutions[0].cited if resolutions else None
    if outcome.found is not None and status is Status.VERIFIED:
        cited = next((r.cited for r in resolutions if any(
            reg.document.id == outcome.found.document_id for reg in r.regions)), cited)
    unlocated = {reg.document.id for r in resolutions if not r.located for reg in r.regions}
    if status is Status.WRONG_LOCATION and outcome.found is not None and outcome.found.document_id in unlocated:
        status = Status.LOCATION_UNCHECKED
        notes.append("The words are in the cited document, but the place cited in it could not be checked.")
    if not citations:
        notes.append("The draft cites nothing for this quotation; the whole case was searched.")
    for r in resolutions:
        if r.cited.reason:
            notes.append(f"{r.cited.text}: {r.cited.reason}.")
    if status is Status.DIFFERS and outcome.ocr_noise:
        notes.append("Every difference looks like an OCR misreading of the scanned page, not a changed word: "
                     "compare with the original.")
    elif status is Status.DIFFERS and outcome.found is not None and not outcome.at_cited_place and citations:
        notes.append("The closest passage is not at the cited place.")
    if outcome.note:
        notes.append(outcome.note)
    return QuoteCheck(quotation.text, page, quotation.block, cited, status, outcome.found, outcome.differences,
                      alterations, elided, outcome.ocr_noise, outcome.similarity, " ".join(notes))
