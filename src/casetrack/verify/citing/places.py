"""Places inside a document as citations name them: printed page numbers, lines, numbered paragraphs, sections.

A cited page is the document's page of that number, or the page that prints that number (a brief's
cover pages, an exhibit's own numbering, an ECF stamp's "Page 5 of 20"); lines are the page's printed
line numbers on pleading paper and transcripts, else counted from the top (chunk/layout.py, as every
CaseTrack citation counts them); `¶ 12` is the paragraph numbered 12; `§ 8.1` the section headed 8.1,
up to the next heading that is not inside it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from casetrack.chunk.layout import PageLayout
from casetrack.chunk.pinpoints import document_rows
from casetrack.domain import StoredPage

EDGE = 3  # non-empty lines read at the top and the bottom of a page for its printed number
EDGE_CHARS = 400  # ... within this many characters of either end
SECTION_REACH = 3  # pages a cited section is looked for past its heading
_PRINTED = re.compile(r"^\s*(?:[-\u2013\u2014]\s*)?(?:page\s*:?\s*)?(\d{1,4})(?:\s*(?:of|/)\s*\d{1,4})?\s*"
                      r"(?:[-\u2013\u2014]\s*)?$", re.IGNORECASE)
_STAMPED = re.compile(r"\bPage\s*:?\s*(\d{1,4})(?:\s*of\s*\d{1,4})?\b", re.IGNORECASE)
_HEADING_NUMBER = re.compile(r"(?m)^[ \t]*(?:\d{1,2}[ \t]+)?(?:(?:Section|SECTION|Sec\.|\u00a7|Article|ARTICLE|Art\.)"
                             r"[ \t]*)?(?P<num>(?:\d+|[IVXLC]+)(?:\.\d+)*)\.?(?=[ \t]|$)")

PageSource = Callable[[int], StoredPage | None]  # a document's page by number


def printed_page_number(text: str) -> int | None:
    """The page number a page prints at its top or bottom ("4", "- 4 -", "Page 4 of 20", an ECF stamp)."""
    top = [line for line in text[:EDGE_CHARS].split("\n") if line.strip()][:EDGE]
    bottom = [line for line in text[-EDGE_CHARS:].split("\n") if line.strip()][-EDGE:]
    for line in top + bottom:
        m = _PRINTED.match(line) or _STAMPED.search(line)
        if m:
            return int(m.group(1))
    return None


def printed_pages(page_count: int, page: PageSource) -> dict[int, int]:
    """Each page number a document's pages print, to the first page printing it (where that is another page)."""
    found: dict[int, int] = {}
    for number in range(1, page_count + 1):
        stored = page(number)
        printed = printed_page_number(stored.text) if stored is not None else None
        if printed is not None and printed != number:
            found.setdefault(printed, number)
    return found


def transcript_rows(pages: list[StoredPage]) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(printed page, printed line) -> (file page, start, end) of each transcript row of a document, by the page
    numbers the transcript prints above its rows (chunk.pinpoints), the first row where one is printed twice."""
    text = {page.number: page.text for page in pages}
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    for file_page, offset, printed, line in document_rows(pages):
        end = text[file_page].find("\n", offset)
        out.setdefault((printed, line), (file_page, offset, len(text[file_page]) if end < 0 else end))
    return out


def line_span(text: str, first: int, last: int) -> tuple[int, int] | None:
    """Offsets (start, end) on a page of its lines numbered first..last, as cited."""
    layout = PageLayout.of(text)
    numbers = layout.printed or tuple(range(1, len(layout.line_starts) + 1))
    chosen = [i for i, n in enumerate(numbers) if first <= n <= last]
    if not chosen:
        return None
    ends = [*layout.line_starts[1:], len(text) + 1]
    return layout.line_starts[chosen[0]], ends[chosen[-1]] - 1


def paragraph_span(pages: list[StoredPage], first: int, last: int) -> tuple[int, int, int, int] | None:
    """(first page, start, last page, end) of the paragraphs numbered first..last (`12.` opening a line, after a
    pleading's printed line number), up to the next numbered paragraph."""
    opening = re.compile(rf"(?m)^[ \t]*(?:\d{{1,2}}[ \t]+)?{first}\.[ \t]+\S")
    start = _first_match(pages, opening)
    if start is None:
        return None
    following = re.compile(rf"(?m)^[ \t]*(?:\d{{1,2}}[ \t]+)?{last + 1}\.[ \t]+\S")
    end = _first_match(pages, following, after=start)
    page, offset = start
    if end is None:
        return page, offset, page, len(_text(pages, page))
    return page, offset, end[0], end[1]


def section_span(pages: list[StoredPage], section: str) -> tuple[int, int, int, int] | None:
    """(first page, start, last page, end) of the section headed `section` ("8.1", "V"): from its heading to the
    next heading that is not one of its subsections, within SECTION_REACH pages."""
    base = re.sub(r"\(.*$", "", section).rstrip(".")
    for page in pages:
        for m in _HEADING_NUMBER.finditer(page.text):
            if m["num"] == base:
                return page.number, m.start("num"), *_section_end(pages, page.number, m.end(), base)
    return None


def _section_end(pages: list[StoredPage], page_number: int, after: int, base: str) -> tuple[int, int]:
    for page in pages:
        if not page_number <= page.number <= page_number + SECTION_REACH:
            continue
        for m in _HEADING_NUMBER.finditer(page.text, after if page.number == page_number else 0):
            number = m["num"]
            if number != base and not number.startswith(base + ".") and _plausible_next(base, number):
                return page.number, m.start()
    last = min(page_number + SECTION_REACH, max(p.number for p in pages))
    return last, len(_text(pages, last))


def _plausible_next(base: str, number: str) -> bool:
    """Whether `number` can head the section after `base` ("8.2" or "9" after "8.1"), not a stray number."""
    if not (base[0].isdigit() and number[0].isdigit()):
        return True
    a, b = [int(x) for x in base.split(".")], [int(x) for x in number.split(".")]
    return b > a and b[0] <= a[0] + 1


def _first_match(pages: list[StoredPage], pattern: re.Pattern[str], after: tuple[int, int] | None = None
                 ) -> tuple[int, int] | None:
    for page in pages:
        if after is not None and page.number < after[0]:
            continue
        m = pattern.search(page.text, after[1] + 1 if after is not None and page.number == after[0] else 0)
        if m:
            return page.number, m.start()
    return None


def _text(pages: list[StoredPage], number: int) -> str:
    return next((p.text for p in pages if p.number == number), "")
