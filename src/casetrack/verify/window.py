"""Consecutive pages of one document read as one text, so a quotation can run from a page onto the next.

Where two pages meet, the page furniture between them (the footer's page number, a running header, a
Bates stamp, an EDGAR "Source:" line) is left out: a reader quoting across the break never quotes it.
Every offset of the joined text maps back to its page and offset there.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from casetrack.domain import StoredPage
from casetrack.verify.keys import KeyedText, without_line_numbers

EDGE_LINES = 3  # lines read at each edge of a page for furniture
_PAGE_NUMBER = re.compile(
    r"^\s*(?:[-–—]\s*)?(?:page\s*:?\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?(?:\s*[-–—])?\s*$",
    re.IGNORECASE)
_BATES_LINE = re.compile(r"^\s*[A-Z][A-Z0-9_-]{1,15}[ _-]?\d{5,10}\s*$")
_SOURCE_LINE = re.compile(r"^\s*Source:\s", re.IGNORECASE)
_DIGITS = re.compile(r"\d+")


@dataclass
class Window:
    """Pages [first, last] of a document joined; `parts` are (page number, offset in the page, offset in the
    window) of each kept stretch of page text, in order."""

    text: str
    parts: list[tuple[int, int, int]]
    pages: dict[int, StoredPage]
    read: str  # `text` as a reader reads it: printed line numbers blanked out (offsets the same)
    _keyed: KeyedText | None = field(default=None, repr=False)

    @property
    def keyed(self) -> KeyedText:
        if self._keyed is None:
            self._keyed = KeyedText.of(self.read)
        return self._keyed

    def locate(self, offset: int) -> tuple[int, int]:
        """(page number, offset in that page's text) of a window offset."""
        i = bisect_right([p[2] for p in self.parts], offset) - 1
        page, page_offset, window_offset = self.parts[max(i, 0)]
        return page, page_offset + offset - window_offset

    def offset_of(self, page: int, page_offset: int) -> int:
        """The window offset of an offset in one of its pages' text (clamped to the kept stretch)."""
        best = 0
        for number, start, window_offset in self.parts:
            if number == page and page_offset >= start:
                best = window_offset + page_offset - start
        return best


def join(pages: list[StoredPage]) -> Window:
    """One window over consecutive `pages` of a document."""
    texts: list[str] = []
    reads: list[str] = []
    parts: list[tuple[int, int, int]] = []
    offset = 0
    for i, page in enumerate(pages):
        number, text = page.number, page.text
        read = without_line_numbers(text)
        start = _body_start(text, pages[i - 1].text) if i > 0 else 0
        end = _body_end(text, pages[i + 1].text) if i + 1 < len(pages) else len(text)
        end = max(end, start)
        if texts:
            texts.append("\n")
            reads.append("\n")
            offset += 1
        parts.append((number, start, offset))
        texts.append(text[start:end])
        reads.append(read[start:end])
        offset += end - start
    return Window("".join(texts), parts, {page.number: page for page in pages}, "".join(reads))


def _lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line of `text`."""
    out, at = [], 0
    for line in text.split("\n"):
        out.append((at, at + len(line)))
        at += len(line) + 1
    return out


def _is_furniture(line: str, other_edge: list[str], outermost: bool) -> bool:
    """A page number, a Bates stamp, an EDGAR "Source:" line; or, as the outermost line of its edge, a running
    header or footer (the same line, page numbers aside, at the neighbouring page's edge). Lines further in
    are body text even when the next page repeats them."""
    stripped = line.strip()
    if not stripped:
        return True
    if _PAGE_NUMBER.match(stripped) or _BATES_LINE.match(stripped) or _SOURCE_LINE.match(stripped):
        return True
    shape = _DIGITS.sub("#", stripped)
    return outermost and len(stripped) < 200 and any(_DIGITS.sub("#", o.strip()) == shape for o in other_edge)


def _edge(text: str, top: bool) -> list[str]:
    lines = [text[a:b] for a, b in _lines(text)]
    return lines[:EDGE_LINES] if top else lines[-EDGE_LINES:]


def _body_start(text: str, previous: str) -> int:
    """Where a page's body begins: after its header lines, when the page before has such lines at its top too,
    or they are page numbers and stamps."""
    other = _edge(previous, top=True)
    start, outermost = 0, True
    for n, (a, b) in enumerate(_lines(text)):
        if n >= EDGE_LINES or not _is_furniture(text[a:b], other, outermost):
            break
        outermost = outermost and not text[a:b].strip()
        start = min(b + 1, len(text))
    return start


def _body_end(text: str, following: str) -> int:
    """Where a page's body ends: before its footer lines (page numbers, stamps, a footer the next page repeats)."""
    other = _edge(following, top=False)
    end, outermost = len(text), True
    for n, (a, b) in enumerate(reversed(_lines(text))):
        if n >= EDGE_LINES or not _is_furniture(text[a:b], other, outermost):
            break
        outermost = outermost and not text[a:b].strip()
        end = a
    return max(0, end - 1) if end < len(text) else end
