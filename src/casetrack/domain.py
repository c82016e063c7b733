"""The values CaseTrack passes around. Frozen, slotted, free of I/O.

Page-text conventions every layer relies on (parsers produce them, the chunker and
citations read them):
  * a page's text is exactly what is stored for that page; offsets index into it;
  * lines are separated by "\\n"; paragraphs by one or more blank lines ("\\n\\n");
  * pages, paragraphs and lines are numbered from 1; a page that prints its own line numbers
    (pleading paper, deposition transcripts) carries them at the start of its lines, and its
    lines are cited by them (chunk/layout.py);
  * a page of a format without lines of its own (Word, RTF) carries `line_width`: its lines are
    counted as they print at that many characters, and cited as estimated.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

_OWN_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")
# Unicode's direction controls (ALM, LRM, RLM, LRE..RLO, LRI..PDI): a name holding U+202E displays the rest of
# a citation reversed ("Contract\u202efdp.exe" shows as "Contractexe.pdf"). Names never need them.
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+")


def is_own_id(value: object) -> bool:
    """True for an id CaseTrack itself makes (a lower-case UUID) for cases, documents and chunks.

    Ids also name folders (`cases/<id>/`, `originals/<id>/`), so one from outside (an imported
    archive, an old store) is checked against this before it is trusted anywhere."""
    return isinstance(value, str) and _OWN_ID.fullmatch(value) is not None


def clean_name(value: str) -> str:
    """A name as a user sees it in lists and citations: control characters (NUL, newlines, tabs)
    and runs of spaces become one space, direction controls go, ends trimmed."""
    return " ".join(_CONTROL.sub(" ", without_bidi(value)).split())


def without_bidi(value: str) -> str:
    """`value` without Unicode's direction controls: for what is shown of a record written before names
    were cleaned of them, or read from an archive (a citation, a case name)."""
    return _BIDI.sub("", value)


class CaseType(StrEnum):
    CIVIL = "civil"
    CRIMINAL = "criminal"
    FAMILY = "family"
    BANKRUPTCY = "bankruptcy"
    CONTRACT = "contract"
    EMPLOYMENT = "employment"
    PERSONAL_INJURY = "personal_injury"
    REAL_ESTATE = "real_estate"
    INTELLECTUAL_PROPERTY = "intellectual_property"
    IMMIGRATION = "immigration"
    OTHER = "other"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ").title()


class CaseStatus(StrEnum):
    ACTIVE = "active"
    CLOSED = "closed"
    ARCHIVED = "archived"


class DocumentType(StrEnum):
    PLEADING = "pleading"
    MOTION = "motion"
    BRIEF = "brief"
    CONTRACT = "contract"
    EXHIBIT = "exhibit"
    CORRESPONDENCE = "correspondence"
    DEPOSITION = "deposition"
    DISCOVERY = "discovery"
    STATUTE = "statute"
    CASE_LAW = "case_law"
    OTHER = "other"


class ExtractionMethod(StrEnum):
    NATIVE = "native"  # text layer / text file
    OCR = "ocr"  # Tesseract over a page image
    SKIPPED = "skipped"  # a page that needed OCR but could not get it; recorded, never silently empty


@dataclass(frozen=True, slots=True)
class CaseStats:
    document_count: int = 0
    page_count: int = 0
    chunk_count: int = 0
    storage_bytes: int = 0


@dataclass(frozen=True, slots=True)
class Case:
    id: str  # uuid4, hex with dashes
    name: str
    case_type: CaseType
    status: CaseStatus
    created_at: float  # unix seconds
    updated_at: float
    case_number: str | None = None
    stats: CaseStats = field(default_factory=CaseStats)

    @property
    def short_id(self) -> str:
        return self.id[:8]

    @property
    def writable(self) -> bool:
        return self.status is CaseStatus.ACTIVE


# --- Parsing ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageWords:
    """Tesseract's words on a page it read, each with its box, kept at ingest so the page can later be drawn
    with a passage marked without reading it again. The boxes are in the pixels of the picture Tesseract read
    (`width` x `height`): the page as drawn for OCR, turned `skew` degrees straight (parse.deskew's angle), then
    `turn` degrees clockwise upright (0, 90, 180 or 270)."""

    width: int
    height: int
    skew: float
    turn: int
    # The words in Tesseract's reading order, "\n" after each but the last (one string: a 500-page scan's
    # words held as 200,000 small strings until the commit would take ~12 MB, as one string a page ~1.5 MB).
    words: str
    boxes: bytes  # left, top, width, height of each word in turn: unsigned 16-bit little-endian numbers

    @property
    def texts(self) -> list[str]:
        return self.words.split("\n") if self.words else []


@dataclass(frozen=True, slots=True)
class ParsedPage:
    number: int  # 1-based
    text: str
    method: ExtractionMethod
    ocr_confidence: float | None = None  # 0-100, mean word confidence, OCR pages only
    approximate: bool = False  # page boundary is estimated (DOCX/TXT have no real pages)
    warnings: tuple[str, ...] = ()
    attachment: str | None = None  # an e-mail's page read from this attached file, not the message itself
    attachment_page: int | None = None  # ... and its page number within that file
    line_width: int | None = None  # characters a line prints at, for a format without lines of its own
    ocr_words: PageWords | None = None  # a page read by OCR: where its words are on the scan


# The most results one search returns (search_case's top_k, `casetrack search --top-k`): as many as the search
# pipeline keeps through its boost and rerank stages (`PipelineConfig.boost_keep`).
MAX_TOP_K = 50

# What opens the text of each page an e-mail's attached file gives (parse/mail/attachments.py); search sets it
# aside to know the file's passages for copies of the same file ingested on its own.
ATTACHMENT_LABEL = "[Attachment {index}: {name}, page {page} of {pages}]"


@dataclass(frozen=True, slots=True)
class MailPart:
    """One message of an e-mail's text, on pages first_page..last_page: the e-mail's own message, or an earlier
    one it quotes or forwards (`quoted`), with the header its author's mail program wrote (values as written).
    `key` fingerprints the message's opening words (parse.mail_quotes.message_key): the message on its own and
    every copy quoting it share it; "" for a message too short to tell from another."""

    first_page: int
    last_page: int
    quoted: bool
    sender: str
    recipients: str
    sent: str
    subject: str
    key: str


@dataclass(frozen=True, slots=True)
class ParsedDocument:
    format: str  # "pdf", "docx", "doc", "odt", "txt", "rtf", "image", "eml", "msg"
    pages: tuple[ParsedPage, ...]
    metadata: Mapping[str, str] = field(default_factory=dict)  # e.g. email headers, title
    warnings: tuple[str, ...] = ()
    messages: tuple[MailPart, ...] = ()  # an e-mail's own message and those it quotes, each on pages of its own

    @property
    def text(self) -> str:
        return "\f".join(p.text for p in self.pages)

    @property
    def own_text(self) -> str:
        """The text of the document itself: an e-mail without the files attached to it."""
        return "\f".join(p.text for p in self.pages if p.attachment is None)


# --- Chunks and provenance ------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChunkSpan:
    """A chunk as the chunker sees it: a slice of one page, located exactly."""

    sequence: int  # 0-based order within the document
    page: int
    char_start: int  # offsets into that page's text: page_text[char_start:char_end] == text
    char_end: int
    text: str
    paragraph_start: int
    paragraph_end: int
    line_start: int
    line_end: int
    token_count: int


@dataclass(frozen=True, slots=True)
class Provenance:
    document_id: str
    document_name: str
    document_path: str | None
    page: int
    paragraph_start: int
    paragraph_end: int
    line_start: int
    line_end: int
    char_start: int
    char_end: int
    extraction_method: ExtractionMethod
    ocr_confidence: float | None = None
    bates_number: str | None = None
    page_approximate: bool = False
    ingested_at: float | None = None
    embedded_at: float | None = None
    attachment: str | None = None  # the page comes from this file attached to the e-mail ...
    attachment_page: int | None = None  # ... where it is this page
    lines_estimated: bool = False  # lines counted as the page prints at a width (Word, RTF), not its own
    # The page and lines a transcript or pleading prints ("17:19-18:4", as "Smith Dep. 17:19-18:4" cites them),
    # where they are not the file's page: a filed exhibit, a condensed transcript (chunk.pinpoints).
    printed_lines: str | None = None

    def cite(self) -> str:
        """Full citation, e.g. `Contract.pdf, p. 12, para. 8, ll. 1-4 (ABC 000123)`; a Word document's
        lines, counted as they print, `ll. 3-9 (est.)`; a filed transcript's own page and lines,
        `printed 17:19-18:4`."""
        parts = [self.document_name, page_citation(self.page, self.page_approximate, self.attachment,
                                                   self.attachment_page)]
        if self.paragraph_start == self.paragraph_end:
            parts.append(f"para. {self.paragraph_start}")
        else:
            parts.append(f"paras. {self.paragraph_start}-{self.paragraph_end}")
        if self.line_start > 0:
            parts.append(line_citation(self.line_start, self.line_end, self.lines_estimated))
        if self.printed_lines:
            parts.append(f"printed {self.printed_lines}")
        text = ", ".join(parts)
        return without_bidi(f"{text} ({self.bates_number})" if self.bates_number else text)

    def cite_short(self) -> str:
        """Inline citation: the Bates number when the page has one, else `Name, p. N`."""
        if self.bates_number:
            return without_bidi(self.bates_number)
        stem = self.document_name.rsplit(".", 1)[0] if "." in self.document_name else self.document_name
        cited = page_citation(self.page, self.page_approximate, self.attachment, self.attachment_page)
        return without_bidi(f"{stem}, {cited}")


def line_citation(start: int, end: int, estimated: bool = False) -> str:
    """`l. 4`, `ll. 1-4`, or `ll. 3-9 (est.)` where the format has no lines of its own and they are
    counted as the page prints at its width (Word, RTF)."""
    cited = f"l. {start}" if start == end else f"ll. {start}-{end}"
    return f"{cited} (est.)" if estimated else cited


def page_citation(page: int, approximate: bool = False, attachment: str | None = None,
                  attachment_page: int | None = None) -> str:
    """`p. 12`, or `p. 12 (est.)` where the format has no fixed pages (a DOCX without page breaks,
    a TXT without form feeds, an e-mail) and the number is CaseTrack's estimate by length: a user
    must not quote it as the document's own page. A page of a file attached to an e-mail also names
    that file and its own page there: `p. 3 (attachment Offer.pdf, p. 2)`."""
    cited = f"p. {page} (est.)" if approximate else f"p. {page}"
    if attachment is None:
        return cited
    own = "" if attachment_page is None else f", {page_citation(attachment_page, approximate)}"
    return f"{cited} (attachment {attachment}{own})"


@dataclass(frozen=True, slots=True)
class Chunk:
    id: str
    document_id: str
    span: ChunkSpan
    provenance: Provenance
    roles: tuple[str, ...] = ()  # legal roles tagged at ingest (chunk.roles); () for passages stored before
    # (role, the classifier's probability) of each role it tagged (chunk.clause_model); keyword-found roles have none
    role_confidence: tuple[tuple[str, float], ...] = ()
    # (role, start, end): where in the passage's text the clause is (chunk.clause_spans); a role without one
    # is the whole passage
    role_spans: tuple[tuple[str, int, int], ...] = ()

    @property
    def text(self) -> str:
        return self.span.text


# --- Documents -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StoredPage:
    """A page as stored: the exact text chunk offsets index into, and how it was obtained."""

    number: int
    text: str
    method: ExtractionMethod
    ocr_confidence: float | None = None
    approximate: bool = False
    bates_number: str | None = None
    attachment: str | None = None  # read from this file attached to the e-mail (ParsedPage.attachment)
    attachment_page: int | None = None
    line_width: int | None = None  # ParsedPage.line_width


@dataclass(frozen=True, slots=True)
class Document:
    id: str
    name: str
    original_path: str | None  # absolute path of the source file when ingested
    file_hash: str  # SHA-256 of the file's bytes
    file_size: int
    file_mtime: float
    format: str
    document_type: DocumentType
    type_confidence: float  # 1.0 when the user chose the type
    type_source: str  # "user" | "inferred"
    page_count: int
    chunk_count: int
    ocr_pages: int
    skipped_pages: int
    ocr_confidence: float | None  # mean over OCR pages
    ingested_at: float
    embedded_at: float | None
    embedders: tuple[str, ...]  # which embedders cover every chunk, e.g. ("E7", "E13")
    warnings: tuple[str, ...] = ()
    metadata: Mapping[str, str] = field(default_factory=dict)
    copied_original: str | None = None  # the kept copy, `originals/<id>/<file>`: its folder is re-derived on read
    # HMAC of (case, document, original_path) under the data folder's own key (service.cases.sources): a path
    # is opened only when this proves CaseTrack recorded it on this machine; an imported record never can.
    source_seal: str | None = None
    archived_path: str | None = None  # the source path an imported archive named: shown, never opened

    @property
    def extraction(self) -> str:
        """native | ocr | mixed, for listings."""
        if self.ocr_pages == 0 and self.skipped_pages == 0:
            return "native"
        if self.ocr_pages + self.skipped_pages >= self.page_count:
            return "ocr"
        return "mixed"
