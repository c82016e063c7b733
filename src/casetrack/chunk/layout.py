"""Line and paragraph numbers of offsets in a page's text (domain.py conventions).

Lines are split on "\\n" only; a paragraph is a run of lines that are not blank,
where a blank line is one holding nothing but whitespace. Both count from 1.

A page of a format that has no lines of its own (Word, RTF: a paragraph is one line of text
however long) carries the width its lines print at (`line_width`, in characters): a stored line
longer than that counts as the lines it wraps to, words kept whole, and its citations mark those
line numbers as estimated.

A page that prints its own line numbers (pleading paper's 1-28, a deposition transcript's
1-25) is cited by them, as lawyers cite it ("Compl. 3:12", "Dep. 45:3-12"): such a page's
lines open with their number, and `line_at` gives that number, not the count of lines above.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

# A line that opens with a printed line number: one or two digits, then a space or the line's end
# ("1. Definitions" and "10,000 shares" are not line numbers).
PRINTED_NUMBER = re.compile(r"[ \t]*(\d{1,2})(?=[ \t]|$)")
# Where numbering can start: a line holding 1-3 (a page's first rows may be blank, their numbers
# then dropped). Opens with the newline so `re` skips ahead to each line start in C.
_FIRST_ROWS = re.compile(r"\n[ \t]*[123](?=[ \t\n])")
# A page counts as numbered when at least this many of its lines carry strictly increasing
# numbers, which make up at least this share of its lines of text.
MIN_PRINTED_LINES = 8
MIN_PRINTED_SHARE = 0.6
MAX_PRINTED_LINE = 40  # pleading paper has 28 rows, transcripts 25


@dataclass(frozen=True, slots=True)
class PageLayout:
    line_starts: tuple[int, ...]  # offset of each line's first character
    paragraphs: tuple[int, ...]  # paragraph number of each line; a blank line gets the one before it
    printed: tuple[int, ...] | None = None  # the printed number each line is cited by, on a numbered page
    wraps: bool = False  # lines counted as they print at a width: their numbers are estimates

    @classmethod
    def of(cls, text: str, line_width: int | None = None) -> PageLayout:
        """The layout of a page's text; `line_width` wraps its long lines as they print (see above)."""
        lines = text.split("\n")
        printed = printed_line_numbers(lines) if line_width is None and _may_be_numbered(text) else None
        starts: list[int] = []
        paragraphs: list[int] = []
        offset, paragraph, in_blank = 0, 0, True
        for line in lines:
            blank = line.isspace() or not line or (printed is not None and _holds_only_its_number(line))
            if not blank and in_blank:
                paragraph += 1
            in_blank = blank
            if line_width and len(line) > line_width:
                wrapped = wrap_starts(line, line_width)
                starts.extend(offset + start for start in wrapped)
                paragraphs.extend([max(paragraph, 1)] * len(wrapped))
            else:  # one stored line, one printed line: the common case, without a generator per line
                starts.append(offset)
                paragraphs.append(paragraph or 1)
            offset += len(line) + 1
        return cls(tuple(starts), tuple(paragraphs), printed, wraps=bool(line_width))

    def line_at(self, offset: int) -> int:
        """1-based line holding the character at `offset`: its printed number on a numbered page."""
        index = bisect_right(self.line_starts, offset)
        return self.printed[index - 1] if self.printed is not None else index

    def paragraph_at(self, offset: int) -> int:
        """1-based paragraph holding the character at `offset`."""
        return self.paragraphs[bisect_right(self.line_starts, offset) - 1]


def wrap_starts(line: str, width: int) -> tuple[int, ...]:
    """Where each printed line of `line` starts when it wraps at `width` characters: after the last
    space that lets a line fit, or after the word itself when one word is wider than a line."""
    starts = [0]
    start = 0
    while len(line) - start > width:
        space = line.rfind(" ", start + 1, start + width + 1)
        if space < 0:
            space = line.find(" ", start + width)
            if space < 0:
                break
        start = space + 1
        while start < len(line) and line[start] == " ":
            start += 1
        if start >= len(line):
            break
        starts.append(start)
    return tuple(starts)


def _may_be_numbered(text: str) -> bool:
    """Cheap test run on every page: a numbered page has a line opening with 1, 2 or 3."""
    return _FIRST_ROWS.search(text) is not None or PRINTED_NUMBER.match(text) is not None


def printed_line_numbers(lines: list[str]) -> tuple[int, ...] | None:
    """The number each line is cited by, when the lines carry printed line numbers; else None.

    The numbers start at 1, 2 or 3 (a page header above them, such as the page number, is not
    one of them), strictly increase down the page and are most of its lines of text; a line
    without one (a wrapped line, a blank row) takes the number of the numbered line above it, a
    line above the first takes the first, and anything after a number that falls (a footer's
    page number) takes the last."""
    found: list[tuple[int, int]] = []  # (line index, number) of the run of numbered lines
    text_lines = run_lines = 0  # lines of text since the run began; up to its last numbered line
    for index, line in enumerate(lines):
        if not line.strip():
            continue
        match = PRINTED_NUMBER.match(line)
        number = int(match.group(1)) if match else 0
        if found and 0 < number <= found[-1][1] and len(found) >= MIN_PRINTED_LINES:
            break  # the rows are done; a footer's page number or a list follows
        if found and number and (number <= found[-1][1] or number > MAX_PRINTED_LINE):
            found, text_lines = [], 0  # a short false start (a page number "1" above row 1)
        if not found and not 1 <= number <= 3:
            continue  # above the numbered rows
        text_lines += 1
        if number:
            found.append((index, number))
            run_lines = text_lines  # lines of text from the first numbered line to this one
    if len(found) < MIN_PRINTED_LINES or len(found) < MIN_PRINTED_SHARE * run_lines:
        return None
    numbers: list[int] = []
    current, pending = found[0][1], iter(found)
    next_index, next_number = next(pending)
    for index in range(len(lines)):
        if index == next_index:
            current = next_number
            next_index, next_number = next(pending, (-1, 0))
        numbers.append(current)
    return tuple(numbers)


def _holds_only_its_number(line: str) -> bool:
    """A numbered row left empty: blank, for paragraphs, on a numbered page."""
    match = PRINTED_NUMBER.match(line)
    return match is not None and not line[match.end():].strip()
