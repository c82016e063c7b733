"""Where a passage is among a page's drawn units (PDFium's characters, Tesseract's words, a rendering's
characters): both compared as their letters and digits only, so that spacing, line breaks, hyphenation
marks and punctuation the text layer and CaseTrack's page text write differently do not matter."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence

from casetrack.page_image.model import Box

_NOT_KEY = re.compile(r"[\W_]+")
_LEADING = re.compile(r"^[\W_]+")
_TRAILING = re.compile(r"[\W_]+$")
# When the passage's letters are not on the page as one run (a re-read scan reads a word differently),
# its first and last letters are looked for instead, each in runs of these lengths, longest first.
_ANCHORS = (80, 40, 20, 10)


def key(text: str) -> str:
    """Letters and digits only, compatibility-decomposed and case-folded ("ﬁ" -> "fi")."""
    return _NOT_KEY.sub("", unicodedata.normalize("NFKC", text).casefold())


def find_span(units: Sequence[str], passage: str, expected: float) -> tuple[int, int] | None:
    """The first and last unit (inclusive) holding `passage`; where it occurs more than once, the
    occurrence nearest `expected` (its start as a fraction of the page). None when it is not there.
    `units` may be a page's characters as one string (spaces and all), or its words."""
    parts = list(map(_unit_key, units))
    owners = [index for index, part in enumerate(parts) if part]
    page = "".join(parts)
    if len(page) != len(owners):  # a unit whose key is longer than a letter ("ﬁ" -> "fi", a word)
        owners = [index for index, part in enumerate(parts) for _ in part]
    return _found(units, parts, owners, page, passage, expected)


@functools.lru_cache(maxsize=1 << 16)
def _unit_key(unit: str) -> str:
    return key(unit)  # a page repeats its few hundred distinct characters thousands of times


def _found(units: Sequence[str], parts: list[str], owners: list[int], page: str, passage: str,
           expected: float) -> tuple[int, int] | None:
    want = key(passage)
    if not page or not want:
        return None
    hits = _occurrences(page, want)
    if hits:
        start = min(hits, key=lambda hit: abs(hit / len(page) - expected))
        return _with_edges(units, parts, passage, owners[start], owners[start + len(want) - 1])
    head = _anchor(page, want, expected * len(page), first=True)
    tail = _anchor(page, want, (head if head is not None else expected * len(page)) + len(want), first=False)
    if head is None and tail is None:
        return None
    if head is None:
        assert tail is not None
        head = max(0, tail - len(want) + 1)
    if tail is None or tail < head:
        tail = min(len(page), head + len(want)) - 1
    return owners[head], owners[tail]


def _with_edges(units: Sequence[str], keys: list[str], passage: str, first: int, last: int) -> tuple[int, int]:
    """The span widened over the units without letters or digits that open or close the passage
    (its closing period, an opening quotation mark), as many as it has; spaces between are passed over."""
    text = "".join(passage.split())
    lead = len(text) - len(_LEADING.sub("", text))
    trail = len(text) - len(_TRAILING.sub("", text))
    at = first
    while lead and at > 0 and not keys[at - 1]:
        at -= 1
        if not units[at].isspace():
            first, lead = at, lead - 1
    at = last
    while trail and at + 1 < len(keys) and not keys[at + 1]:
        at += 1
        if not units[at].isspace():
            last, trail = at, trail - 1
    return first, last


def _occurrences(page: str, want: str) -> list[int]:
    hits, at = [], page.find(want)
    while at >= 0:
        hits.append(at)
        at = page.find(want, at + 1)
    return hits


def _anchor(page: str, want: str, near: float, first: bool) -> int | None:
    """Where the passage's first letters start (first=True) or its last letters end (first=False),
    the occurrence nearest `near`."""
    for length in _ANCHORS:
        if length > len(want) // 2 and length != _ANCHORS[-1]:
            continue
        piece = want[:length] if first else want[-length:]
        hits = _occurrences(page, piece)
        if hits:
            ends = hits if first else [hit + len(piece) - 1 for hit in hits]
            return min(ends, key=lambda at: abs(at - near))
    return None


def line_boxes(boxes: Sequence[Box]) -> list[Box]:
    """Units' boxes in reading order merged into one box per line: a unit starts a new line when its
    middle is outside the current line's height or it stands left of where the line has reached."""
    lines: list[Box] = []
    for box in boxes:
        if box.right <= box.left or box.bottom <= box.top:
            continue
        middle = (box.top + box.bottom) / 2
        if lines:
            line = lines[-1]
            if line.top <= middle <= line.bottom and box.left >= line.left - (line.bottom - line.top):
                lines[-1] = Box(min(line.left, box.left), min(line.top, box.top),
                                max(line.right, box.right), max(line.bottom, box.bottom))
                continue
        lines.append(box)
    return lines
