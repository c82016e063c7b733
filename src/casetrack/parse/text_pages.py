"""A plain-text file's pages, and its text as a reader quotes it.

Text files made from printed documents (EDGAR filings, exported transcripts) carry the page
numbers that were printed on each page as lines of their own ("-12-", "Page 12 of 40"), and lay
the text out with runs of spaces (centred titles, justified lines, indents). Neither is text a
lawyer quotes: a quote copied from CaseTrack must read "the Business Plan", not "the Business
      Plan". So, before anything is stored (the stored page text is what every offset indexes
into, so offsets stay exact):

  * runs of spaces inside a line become one space, and indentation goes (line breaks stay: the
    file's lines are the lines a citation counts);
  * page-number lines are taken out of the text; when they number the pages in order (2, 3, 4, ...)
    they are the pages' breaks, and the pages carry those numbers, not estimates;
  * form feeds, where a file has them, are page breaks as before; when the pages print numbers that
    count up with them ("Page 17" on the first, "Page 18" on the next: an excerpt of a transcript),
    the pages carry the printed numbers, which are the ones a brief cites.
"""

from __future__ import annotations

import re
from dataclasses import replace
from statistics import median

from casetrack.domain import ParsedPage
from casetrack.parse.normalize import native_pages, split_approximate_pages

# "-12-", "- 12 -", "— 12 —", "Page 12", "Page 12 of 40", alone on their line.
_PAGE_NUMBER_LINE = re.compile(
    r"^[ \t]*(?:[-\u2013\u2014][ \t]*(\d{1,4})[ \t]*[-\u2013\u2014]|[Pp](?:age|AGE)[ \t]+(\d{1,4})"
    r"(?:[ \t]+of[ \t]+\d{1,4})?)[ \t]*$",
    re.MULTILINE,
)
_INDENT = re.compile(r"^ +", re.MULTILINE)
_SPACE_RUNS = re.compile(r"(?<=\S) {2,}(?=\S)")
# Page numbers are read as the pages' breaks when at least this many number consecutive pages.
MIN_NUMBERED_PAGES = 2


def text_pages(text: str, keep_indents: bool = False) -> tuple[ParsedPage, ...]:
    """The pages of a text file's text: at its form feeds, else at its printed page numbers, else
    estimated by size (flagged approximate). Page-number lines and runs of spaces are left out, and
    indentation unless `keep_indents` (a draft's indented paragraphs are its block quotations)."""
    text = text.replace("\r\n", "\n").replace("\t", " ")
    if "\f" in text:
        parts = text.split("\f")
        if parts and not parts[-1].strip():  # a trailing form feed ends the last page, it does not start a new one
            parts.pop()
        pages = native_pages([quotable(part, keep_indents) for part in parts] or [""], approximate=False)
        shift = _printed_shift(parts)
        return tuple(replace(page, number=page.number + shift) for page in pages) if shift else pages
    run = _consecutive_run(list(_PAGE_NUMBER_LINE.finditer(text)))
    if len(run) < MIN_NUMBERED_PAGES:
        return native_pages(split_approximate_pages(quotable(text, keep_indents)), approximate=True)
    return _numbered_pages(text, run, keep_indents)


def quotable(text: str, keep_indents: bool = False) -> str:
    """The text without page-number lines, runs of spaces or (unless `keep_indents`) indentation; its
    lines as they were."""
    text = _PAGE_NUMBER_LINE.sub("", text)
    return _SPACE_RUNS.sub(" ", text if keep_indents else _INDENT.sub("", text))


def _consecutive_run(numbers: list[re.Match[str]]) -> list[re.Match[str]]:
    """The page numbers from the first one on that count up by one (2, 3, 4): a number out of
    order (an exhibit numbered from 1 again, a list item "- 3 -") ends the run."""
    run: list[re.Match[str]] = []
    for number in numbers:
        if run and _value(number) != _value(run[-1]) + 1:
            break
        run.append(number)
    return run


def _printed_shift(parts: list[str]) -> int:
    """How far the numbers printed on form-feed pages run ahead of the pages' count: 16 when the first
    page prints "Page 17" and each next one a number one higher. 0 unless every page printing a number
    agrees, at least MIN_NUMBERED_PAGES do, and no page would be numbered below 1."""
    printed = [(index, _PAGE_NUMBER_LINE.search(part)) for index, part in enumerate(parts, start=1)]
    shifts = {_value(number) - index for index, number in printed if number}
    numbered = sum(1 for _, number in printed if number)
    if len(shifts) != 1 or numbered < MIN_NUMBERED_PAGES:
        return 0
    return max(shifts.pop(), 0)


def _value(number: re.Match[str]) -> int:
    return int(number.group(1) or number.group(2))


def _numbered_pages(text: str, run: list[re.Match[str]], keep_indents: bool) -> tuple[ParsedPage, ...]:
    """Pages broken at the run's page-number lines. A number opens its page when the text before the
    first one is blank or is the unnumbered first page ("-2-" after a page of text: the numbers stand
    at the top of pages 2, 3, ...); else it closes its page (a footer's "-1-"). The text after the
    last number may be several pages (signatures, exhibits): longer than one and a half of the
    numbered pages, it is estimated inside at their size, and flagged."""
    first = _value(run[0])
    opens = first >= 2 or not text[:run[0].start()].strip()
    values = [first - 1, *map(_value, run)] if opens else [*map(_value, run), _value(run[-1]) + 1]
    bounds = list(zip([0, *(number.end() for number in run)], [*(number.start() for number in run), len(text)],
                      strict=True))
    texts = [quotable(text[start:end], keep_indents) for start, end in bounds]
    page_chars = int(median(len(t) for t in texts[:-1]))
    pages: list[ParsedPage] = []
    for index, (value, page_text) in enumerate(zip(values, texts, strict=True)):
        if value < 1 or not page_text.strip():
            continue  # nothing above a header on page 1, or a blank tail
        tail = index == len(texts) - 1 and len(page_text) > 1.5 * page_chars
        parts = split_approximate_pages(page_text, page_chars) if tail else [page_text]
        # The pages before the first printed number, when it is above 2, are one span: its number is estimated.
        approximate = tail or (opens and index == 0 and first > 2)
        for offset, part in enumerate(parts):
            (page,) = native_pages([part], approximate=approximate)
            pages.append(replace(page, number=value + offset))
    return tuple(pages)
