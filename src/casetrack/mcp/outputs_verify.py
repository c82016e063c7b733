"""The structured results of verify_draft and table_of_authorities (see `mcp/outputs.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from casetrack.mcp.outputs import Out, model_of
from casetrack.render.verify import summary_counts
from casetrack.service.verify import drafts
from casetrack.verify.authorities import toa
from casetrack.verify.model import AuthorityCheck, Cited, Place, QuoteCheck

QuoteStatus = Literal["verified", "wrong_location", "differs", "not_found", "location_unchecked"]


# A passage of the case (page text[char_start:char_end] == text; a passage running onto the next page ends on
# page_end), with its citation as search_case prints it; and a citation as written with what it resolved to.
if TYPE_CHECKING:  # built at run time from the dataclasses' fields; a type checker sees their base
    PlaceOut = Out
    CitedOut = Out
else:
    PlaceOut = model_of(Place, "PlaceOut")
    CitedOut = model_of(Cited, "CitedOut")


class DifferenceOut(Out):
    quote: str
    source: str
    kind: Literal["replaced", "omitted", "added"]


class QuoteOut(Out):
    quote: str
    draft_page: int | None
    block: bool
    cited: CitedOut | None
    status: QuoteStatus
    found: PlaceOut | None
    differences: list[DifferenceOut]
    alterations: list[str]
    elided: bool
    ocr_noise: bool
    similarity: float | None
    note: str

    @classmethod
    def of(cls, q: QuoteCheck) -> QuoteOut:
        return cls(quote=q.quote, draft_page=q.draft_page, block=q.block, cited=_maybe(CitedOut, q.cited),
                   status=q.status.value, found=_maybe(PlaceOut, q.found),
                   differences=[DifferenceOut.model_validate(d, from_attributes=True) for d in q.differences],
                   alterations=list(q.alterations), elided=q.elided, ocr_noise=q.ocr_noise,
                   similarity=q.similarity, note=q.note)


def _maybe(model: type[Out], value: object | None) -> Out | None:
    """A model of the dataclass `value` (its fields as they are), or None."""
    return None if value is None else model.model_validate(value, from_attributes=True)


class PinOut(Out):
    pin: str
    inside: bool | None
    passage: PlaceOut | None


class AuthorityOut(Out):
    key: str
    display: str
    kind: str
    draft_pages: list[int]
    in_case: bool
    document_id: str | None
    document_name: str | None
    passage: PlaceOut | None
    pins: list[PinOut]
    note: str

    @classmethod
    def of(cls, a: AuthorityCheck) -> AuthorityOut:
        return cls(key=a.key, display=a.display, kind=a.kind, draft_pages=list(a.draft_pages), in_case=a.in_case,
                   document_id=a.document_id, document_name=a.document_name, passage=_maybe(PlaceOut, a.passage),
                   pins=[PinOut(pin=p.pin, inside=p.inside, passage=_maybe(PlaceOut, p.passage)) for p in a.pins],
                   note=a.note)


class Verification(Out):
    case: str
    draft: str
    draft_pages: int
    draft_pages_estimated: bool
    all_verified: bool
    summary: dict[str, int]
    quotes: list[QuoteOut]
    authorities: list[AuthorityOut]
    skipped_short_quotations: int
    seconds: float

    @classmethod
    def of(cls, v: drafts.Verification) -> Verification:
        report = v.report
        return cls(case=v.case.name, draft=v.draft.name, draft_pages=report.draft_pages,
                   draft_pages_estimated=report.pages_estimated, all_verified=report.all_verified,
                   summary=summary_counts(v), quotes=[QuoteOut.of(q) for q in report.quotes],
                   authorities=[AuthorityOut.of(a) for a in report.authorities],
                   skipped_short_quotations=report.skipped, seconds=round(v.seconds, 3))


class TableEntry(Out):
    authority: str
    key: str
    pages: list[int]
    passim: bool


class TableOfAuthorities(Out):
    draft: str
    pages_estimated: bool
    passim_pages: int
    headings: dict[str, list[TableEntry]]
    docx_path: str | None

    @classmethod
    def of(cls, table: toa.TableOfAuthorities, draft_name: str, docx_path: str | None) -> TableOfAuthorities:
        return cls(draft=draft_name, pages_estimated=table.pages_estimated, passim_pages=table.passim_pages,
                   headings={h: [TableEntry(authority=e.authority, key=e.key, pages=list(e.pages), passim=e.passim)
                                 for e in table.under(h)] for h in toa.HEADING_ORDER if table.under(h)},
                   docx_path=docx_path)
