"""What checking a draft against a case finds: frozen values, no I/O."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# The files a draft is read from (it may also be pasted as text), and the same in words: ".docx, .pdf, .txt or .md".
DRAFT_FORMATS: tuple[str, ...] = (".docx", ".pdf", ".txt", ".md")
DRAFT_FORMATS_WORDS = ", ".join(DRAFT_FORMATS[:-1]) + f" or {DRAFT_FORMATS[-1]}"


class Status(StrEnum):
    VERIFIED = "verified"  # the exact words are at the cited place
    WRONG_LOCATION = "wrong_location"  # the exact words are in the case, not where cited (or nothing is cited)
    DIFFERS = "differs"  # a close passage exists; its words differ
    NOT_FOUND = "not_found"  # nothing in the case says it
    LOCATION_UNCHECKED = "location_unchecked"  # the words are in the cited document; the cited place in it is
    # one the copy cannot show (a reporter page of a slip opinion), so it was not checked


@dataclass(frozen=True, slots=True)
class Place:
    """A passage of the case, located exactly: page text[char_start:char_end] == text (on `page`; a passage
    running onto the next page ends on `page_end` at `char_end`)."""

    document_id: str
    document_name: str
    page: int
    page_end: int
    paragraph_start: int
    paragraph_end: int
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    text: str
    citation: str  # as search_case prints it: `Contract.pdf, p. 12, para. 8, ll. 1-4`
    ocr: bool = False  # read by OCR from a scanned page
    printed: str | None = None  # a transcript's own page:line of the passage ("4:17-18", issue 37)


@dataclass(frozen=True, slots=True)
class Cited:
    """A citation as written in the draft, and what it resolved to in the case (None: it resolved to nothing,
    and `reason` says why)."""

    text: str
    kind: str  # document | exhibit | ecf | bates | transcript | authority | id
    resolved: str | None  # "Supply Agreement.pdf, p. 4" / "Smith Dep.pdf, p. 45, ll. 3-7"
    document_id: str | None = None
    document_name: str | None = None
    pages: tuple[int, int] | None = None
    paragraph: str | None = None  # a numbered paragraph (¶ 12) or section (§ 8.1) as cited
    lines: tuple[int, int] | None = None
    reason: str | None = None  # why it did not resolve, or what of it could not be checked


@dataclass(frozen=True, slots=True)
class Difference:
    """Words of the quotation in place of words of the source: `quote` "" when the quotation leaves a source word
    out without an ellipsis, `source` "" when it adds one."""

    quote: str
    source: str

    @property
    def kind(self) -> str:
        return "omitted" if not self.quote else "added" if not self.source else "replaced"

    def __str__(self) -> str:
        if not self.quote:
            return f"omits “{self.source}”"
        if not self.source:
            return f"adds “{self.quote}”"
        return f"“{self.quote}” → source: “{self.source}”"


@dataclass(frozen=True, slots=True)
class QuoteCheck:
    """One quotation of the draft and what the case says about it."""

    quote: str  # as written, without its quotation marks
    draft_page: int | None
    block: bool  # a block quotation (set off, not in quotation marks)
    cited: Cited | None  # None: the quotation cites nothing
    status: Status
    found: Place | None
    differences: tuple[Difference, ...] = ()
    alterations: tuple[str, ...] = ()  # bracketed changes the quotation makes, accepted unchecked
    elided: bool = False  # the quotation leaves words out with an ellipsis
    ocr_noise: bool = False  # every difference looks like a misreading of a scanned page, not a changed word
    similarity: float | None = None  # share of the quotation's words the closest passage holds (differs only)
    note: str = ""


@dataclass(frozen=True, slots=True)
class PinCheck:
    pin: str
    inside: bool | None  # None: the copy in the case does not show the reporter's pages
    passage: Place | None


@dataclass(frozen=True, slots=True)
class AuthorityCheck:
    """An authority the draft cites and whether the case holds it."""

    key: str  # canonical: "570 U.S. 297", "42 U.S.C. § 1983"
    display: str  # "Fisher v. University of Texas, 570 U.S. 297 (2013)"
    kind: str  # case_law | federal_statute | state_statute | federal_rule | state_rule | regulation | secondary
    draft_pages: tuple[int, ...]
    in_case: bool
    document_id: str | None = None
    document_name: str | None = None
    passage: Place | None = None  # where the case's copy begins, or its part the citation names
    pins: tuple[PinCheck, ...] = ()
    note: str = ""
