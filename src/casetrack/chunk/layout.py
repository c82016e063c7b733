"""Line and paragraph numbers of offsets in a page's text (domain.py conventions).

Lines are split on "\\n" only; a paragraph is a run of lines that are not blank,
where a blank line is one holding nothing but whitespace. Both count from 1.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PageLayout:
    line_starts: tuple[int, ...]  # offset of each line's first character
    paragraphs: tuple[int, ...]  # paragraph number of each line; a blank line gets the one before it

    @classmethod
    def of(cls, text: str) -> PageLayout:
        starts: list[int] = []
        paragraphs: list[int] = []
        offset, paragraph, in_blank = 0, 0, True
        for line in text.split("\n"):
            starts.append(offset)
            offset += len(line) + 1
            blank = line.strip() == ""
            if not blank and in_blank:
                paragraph += 1
            in_blank = blank
            paragraphs.append(max(paragraph, 1))
        return cls(tuple(starts), tuple(paragraphs))

    def line_at(self, offset: int) -> int:
        """1-based line holding the character at `offset`."""
        return bisect_right(self.line_starts, offset)

    def paragraph_at(self, offset: int) -> int:
        """1-based paragraph holding the character at `offset`."""
        return self.paragraphs[self.line_at(offset) - 1]
