"""Paragraphs from positioned lines: where a PDF text layer leaves a blank line.

PDF text layers know lines but not paragraphs. A reader sees a paragraph break where the
vertical gap between lines is clearly larger than the page's usual line pitch, where the
text jumps back up the page (a new column or an out-of-order header/footer), or where a
first line is indented after a line at the left margin (double-spaced briefs have no
larger gaps, only indents). Pure functions; coordinates are PDF points, y growing upward.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

# A gap this many times the usual pitch separates paragraphs (1.0 = next line, 2.0 = one empty line).
GAP_RATIO = 1.5
# Lines whose baselines differ by less than this fraction of the text height are on the same visual line.
SAME_LINE_FRACTION = 0.3
# A first-line indent must be at least this many text heights (roughly two characters) deep.
INDENT_HEIGHTS = 0.8


@dataclass(frozen=True, slots=True)
class PositionedLine:
    text: str
    left: float  # x of the first visible character
    baseline: float  # y of the first visible character's origin
    height: float  # line height of that character's font box


def join_lines(lines: Sequence[PositionedLine]) -> str:
    """The page text: lines joined by "\\n", with "\\n\\n" where a paragraph starts."""
    if not lines:
        return ""
    pitch = typical_pitch(lines)
    margin = left_margin(lines)
    parts = [lines[0].text]
    for previous, line in pairwise(lines):
        parts.append("\n\n" if starts_paragraph(previous, line, pitch, margin) else "\n")
        parts.append(line.text)
    return "".join(parts)


def starts_paragraph(previous: PositionedLine, line: PositionedLine, pitch: float | None, margin: float) -> bool:
    height = max(previous.height, line.height, 1.0)
    drop = previous.baseline - line.baseline  # positive: this line is below the previous one
    if abs(drop) < SAME_LINE_FRACTION * height:
        return False  # another piece of the same visual line
    if drop < 0:
        return True  # jumped back up: new column, or a header/footer stored out of reading order
    usual = pitch if pitch is not None else 1.2 * height
    if drop > GAP_RATIO * usual:
        return True
    at_margin = abs(previous.left - margin) < INDENT_HEIGHTS * height
    return at_margin and line.left - margin >= INDENT_HEIGHTS * height


def typical_pitch(lines: Sequence[PositionedLine]) -> float | None:
    """The usual distance between consecutive baselines inside a paragraph, ignoring same-line
    pieces and big jumps. The lower quartile, not the median: on a page of many one-line
    clauses most gaps are paragraph gaps, and the median would hide them all."""
    drops = [
        previous.baseline - line.baseline
        for previous, line in pairwise(lines)
        if SAME_LINE_FRACTION * line.height <= previous.baseline - line.baseline <= 3 * max(line.height, 1.0)
    ]
    return sorted(drops)[(len(drops) - 1) // 4] if drops else None


def left_margin(lines: Sequence[PositionedLine]) -> float:
    """The most common left edge (to the nearest point), the leftmost on a tie: where body lines start."""
    counts = Counter(round(line.left) for line in lines)
    edge, _ = max(counts.items(), key=lambda item: (item[1], -item[0]))
    return float(edge)
