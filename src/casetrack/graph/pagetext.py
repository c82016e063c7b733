"""A document's pages joined into one string, with offsets mapped back to (page, span).

Extractors that must see across page breaks (an `Id.` on page 2 refers to a case on
page 1) run over the joined text; every mention is then located on exactly one page.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from casetrack.domain import ParsedPage

PAGE_SEPARATOR = "\n\n"  # a paragraph break: no pattern runs across it as if it were one line


@dataclass(frozen=True, slots=True)
class JoinedText:
    text: str
    starts: tuple[int, ...]  # offset of each page's first character in `text`
    numbers: tuple[int, ...]  # page numbers, parallel to `starts`
    lengths: tuple[int, ...]

    def locate(self, start: int, end: int) -> tuple[int, int, int] | None:
        """(page number, start, end) in that page's text; None when the span crosses a page break."""
        i = bisect_right(self.starts, start) - 1
        if i < 0:
            return None
        local_start = start - self.starts[i]
        local_end = end - self.starts[i]
        if local_end > self.lengths[i]:
            return None
        return self.numbers[i], local_start, local_end


def join_pages(pages: Sequence[ParsedPage]) -> JoinedText:
    starts: list[int] = []
    offset = 0
    for page in pages:
        starts.append(offset)
        offset += len(page.text) + len(PAGE_SEPARATOR)
    return JoinedText(
        PAGE_SEPARATOR.join(p.text for p in pages),
        tuple(starts),
        tuple(p.number for p in pages),
        tuple(len(p.text) for p in pages),
    )


# A sentence ends at . ! ? (optionally closed by a quote or bracket) followed by space and a capital,
# unless the period closes an abbreviation: one letter ("v.", "J."), a capitalised short word
# ("Inc.", "Cir.", "Dr."), or a known lowercase one ("id.", "et al.").
_END = re.compile(r"[.!?][\"'”’)\]]*(?=\s+[\"“(\[]?[A-Z0-9])|\n[ \t]*\n")
_ABBREVIATION = re.compile(
    r"(?:\b[A-Za-z]|\b[A-Z][a-z]{1,4}|\b(?:id|al|seq|ibid|supp|cf|e\.g|i\.e|No|Nos|art|sec|ch|para|pp?|vs?)"
    r"|[A-Z]\.[A-Z]|\b[A-Z]{1,3})\.$"
)
MAX_SENTENCE = 600


def sentence_bounds(text: str, start: int, end: int) -> tuple[int, int]:
    """The sentence (or paragraph fragment) around text[start:end], at most MAX_SENTENCE chars each side."""
    lo = max(0, start - MAX_SENTENCE)
    s = lo
    # The last end before the span; candidates tested from the nearest back, since testing one costs a search
    ends = [m for m in _END.finditer(text, lo, min(len(text), start + 2)) if m.end() <= start]  # lookahead: capital
    for m in reversed(ends):
        if _is_end(text, m):
            s = m.end()
            break
    e = min(len(text), end + MAX_SENTENCE)
    for m in _END.finditer(text, end, e):
        if _is_end(text, m):
            e = m.end()
            break
    while s < start and text[s].isspace():
        s += 1
    return s, e


def _is_end(text: str, m: re.Match[str]) -> bool:
    if m.group().startswith("\n"):
        return True
    if m.group()[0] != ".":
        return True
    return not _ABBREVIATION.search(text, max(0, m.start() - 8), m.start() + 1)


def squash(text: str) -> str:
    """Whitespace collapsed to single spaces, ends trimmed."""
    return " ".join(text.split())
