"""The structured results of verify_draft and table_of_authorities (see `mcp/outputs.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from casetrack.mcp.outputs import Out, model_of
from casetrack.verify.model import Cited, Place

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
