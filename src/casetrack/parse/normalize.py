"""Page-text normalisation and page estimation, shared by every format.

The text produced here is exactly what later layers slice by character offset, so
normalisation is deliberately conservative: it never joins or re-wraps words, it only
cleans characters and whitespace that no reader would cite.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from casetrack.domain import ExtractionMethod, ParsedPage

# A page of a 12-pt double-spaced brief holds ~1,800 characters, single-spaced ~3,500;
# 3,000 keeps estimated page numbers in the right neighbourhood for typical contracts.
APPROXIMATE_PAGE_CHARS = 3000
# Characters a line holds on US Letter with 1" margins in 11-point type (Word's default page): the
# width a format without lines of its own prints at when it does not say (parse/word/lines.py).
DEFAULT_LINE_WIDTH = 90

_LINE_BREAKS = re.compile(r"\r\n|\r|\u2028|\u2029|\x0b|\x0c|\x85")
_DELETED = re.compile(r"[\x00\ufeff\uffff]")  # NULs come from mis-decoded UTF-16; BOMs carry no text
_CONTROLS = re.compile(r"[\x01-\x08\x0e-\x1f\x7f-\x84\x86-\x9f\t]")
# PDF text layers use U+00A0 and the typographic spaces liberally; later layers expect plain spaces.
_SPACES = re.compile(r"[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_TRAILING_SPACE = re.compile(r"[ ]+$", re.MULTILINE)
_EXTRA_BLANK_LINES = re.compile(r"\n{3,}")
_NOT_WORD_CHARS = re.compile(r"[\W_]+")


def word_chars(text: str) -> int:
    """Letters and digits in `text`, counted at C speed (a per-character loop cost ~2 ms a page)."""
    return len(_NOT_WORD_CHARS.sub("", text))


def normalize_page_text(text: str) -> str:
    """Clean one page's text: "\\n" line breaks, no control characters, no trailing spaces,
    at most one blank line in a row, no blank lines at either end. Words are never moved."""
    text = _replace_characters(text)
    # Substring tests are C-speed scans; most pages need neither pass.
    if " \n" in text or text.endswith(" "):
        text = _TRAILING_SPACE.sub("", text)
    if "\n\n\n" in text:
        text = _EXTRA_BLANK_LINES.sub("\n\n", text)
    return text.strip("\n")


def _replace_characters(text: str) -> str:
    """Line breaks, deleted characters, PDFium's hyphen marker, controls and odd spaces.

    Every character these passes change is one `str.isprintable` rejects (a control, format,
    separator or unassigned character; tested), as is "\\n": a page that is printable once its
    "\\n" are gone needs none of them, and that check costs a quarter of one regex scan.
    Most PDF pages pass it, the rest mostly after U+00A0 alone is replaced."""
    if _printable(text):
        return text
    text = text.replace("\u00a0", " ")
    if _printable(text):
        return text
    text = _LINE_BREAKS.sub("\n", text)
    text = _DELETED.sub("", text)
    text = text.replace("\ufffe", "-")  # PDFium's marker for a hyphen it found in the text layer
    text = _CONTROLS.sub(" ", text)
    return _SPACES.sub(" ", text)


def _printable(text: str) -> bool:
    return text.replace("\n", "").isprintable()


# A sentence's end for an estimated page break: a stop after a word of two or more characters ending
# in a small letter, digit or bracket (not a list label: "a.", "4."), then space and a capital or a
# clause number; not after the abbreviations legal text is full of.
MIN_SENTENCE_CHARS = 40
MAX_TITLE_CHARS = 80  # a paragraph of one line this short titles the next ("7. Notices.", "ARTICLE V")
_SENTENCE_END = re.compile(
    r"(?<=[\w)\]\"'\u201d][a-z0-9)\]\"'\u201d])(?<!\bNo)(?<!\bNos)(?<!\bInc)(?<!\bCo)(?<!\bCorp)(?<!\bLtd)(?<!\bSec)"
    r"(?<!\bArt)(?<!\bv)(?<!\bvs)(?<!\bpp)(?<!\bal)(?<!\bet)"
    r"[.!?][\"'\u201d)]?\s+(?=[A-Z0-9(\"\u201c])"
)


def split_approximate_pages(text: str, page_chars: int = APPROXIMATE_PAGE_CHARS) -> list[str]:
    """Cut text without real pages into pages of about `page_chars` characters.

    Cuts fall at a paragraph break when one is in the second half of the window, else at a
    sentence end, else at a line break, else at a space, so no word is ever split across pages. Returns at least one
    (possibly empty) page."""
    text = normalize_page_text(text)
    pages: list[str] = []
    while len(text) > page_chars:
        cut = _cut_position(text, page_chars)
        pages.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    pages.append(text)
    return [page for page in pages if page] or [""]


def _cut_position(text: str, page_chars: int) -> int:
    floor = page_chars // 2
    paragraph = text.rfind("\n\n", floor, page_chars + 1)
    # Not after a title paragraph ("3. Governing Law.", "ARTICLE V"): it would end this page and its
    # clause open the next, and no passage crosses a page. Cut before the title instead.
    for _ in range(2):  # a title and a subtitle at most: a page of short lines is no title block
        start = text.rfind("\n\n", 0, paragraph) + 2
        if paragraph <= 0 or start - 2 <= floor or not _is_title(text[start:paragraph]):
            break
        paragraph = start - 2
    if paragraph > 0:
        return paragraph + 2
    # Hard-wrapped text (EDGAR filings, 70-character lines) has a line break every line: cutting at
    # the last one splits a sentence between two pages, and no passage crosses a page.
    # Not after a clause title ("... this Agreement. 7. Notices. All notices ..."): a stop that ends
    # a short fragment would leave the title on one page and its clause on the next.
    cut, previous = 0, floor
    for end in _SENTENCE_END.finditer(text, floor, page_chars + 1):
        if end.start() - previous >= MIN_SENTENCE_CHARS:
            cut = end.end()
        previous = end.end()
    if cut:
        return cut
    for separator in ("\n", " "):
        position = text.rfind(separator, floor, page_chars + 1)
        if position > 0:
            return position + len(separator)
    return page_chars  # one enormous unbroken token: a hard cut is the only option


def _is_title(paragraph: str) -> bool:
    """A paragraph that titles what follows it: one short line with words (a page number "-3-" has none)."""
    return "\n" not in paragraph and len(paragraph) <= MAX_TITLE_CHARS and any(c.isalpha() for c in paragraph)


def native_pages(texts: Iterable[str], *, approximate: bool, line_width: int | None = None) -> tuple[ParsedPage, ...]:
    """Number already-split page texts from 1 as natively extracted pages; `line_width` for a format
    without lines of its own (ParsedPage.line_width)."""
    return tuple(
        ParsedPage(
            number=number, text=normalize_page_text(text), method=ExtractionMethod.NATIVE, approximate=approximate,
            line_width=line_width,
        )
        for number, text in enumerate(texts, start=1)
    )
