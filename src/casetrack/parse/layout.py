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
from dataclasses import dataclass, field
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


@dataclass(slots=True)
class PageLines:
    """A page's lines as columns, one entry per line: the PDF reader fills these lists directly,
    which costs a third of building a PositionedLine per line (~50 a page)."""

    texts: list[str] = field(default_factory=list)
    lefts: list[float] = field(default_factory=list)
    baselines: list[float] = field(default_factory=list)
    heights: list[float] = field(default_factory=list)

    def append(self, text: str, left: float, baseline: float, height: float) -> None:
        self.texts.append(text)
        self.lefts.append(left)
        self.baselines.append(baseline)
        self.heights.append(height)


# Page furniture drawn out of reading order: at most this many lines at either end of the
# content, each no longer than a running header, footer or e-filing stamp.
FURNITURE_MAX_LINES = 2
FURNITURE_MAX_CHARS = 100


def furniture_in_place(lines: PageLines) -> PageLines:
    """The page's lines with a footer drawn first, or a header drawn last, moved to where it is
    printed, so that "l. 5" counts the lines as a reader sees them and a footer does not open the
    page's first passage.

    PDFium returns lines in drawing order. Word processors and e-filing systems often draw a
    running footer ("Page 1 of 2") before the body, or stamp a header ("Case 17-3510, Document
    1-1, ...") after it. Only a short line at either end of the content moves, and only when it
    lies in the other half of the page from where it was drawn: a first line below most of the
    page goes after the last line printed above it; a last line above most of the page goes before
    the first line printed below it. Columns and drop caps stay as drawn.
    """
    n = len(lines.texts)
    baselines, heights, texts = lines.baselines, lines.heights, lines.texts
    if n < 4 or (baselines[0] >= baselines[1] and baselines[-1] <= baselines[-2]):
        return lines  # the common page: starts going down and ends going down
    order = list(range(n))
    middle = sorted(baselines)[n // 2]

    def tolerance(i: int) -> float:
        return SAME_LINE_FRACTION * max(heights[i], 1.0)

    for _ in range(FURNITURE_MAX_LINES):  # footers drawn first
        first = order[0]
        below_next = baselines[first] < baselines[order[1]] - tolerance(first)
        if not (below_next and baselines[first] < middle and len(texts[first]) <= FURNITURE_MAX_CHARS):
            break
        above = [k for k in range(1, n) if baselines[order[k]] > baselines[first] + tolerance(first)]
        order.insert(above[-1], order.pop(0))  # after the pop, position above[-1] follows that line
    for _ in range(FURNITURE_MAX_LINES):  # headers drawn last
        last = order[-1]
        above_previous = baselines[last] > baselines[order[-2]] + tolerance(last)
        if not (above_previous and baselines[last] > middle and len(texts[last]) <= FURNITURE_MAX_CHARS):
            break
        below = [k for k in range(n - 1) if baselines[order[k]] < baselines[last] - tolerance(last)]
        order.insert(below[0], order.pop())
    if order == list(range(n)):
        return lines
    moved = PageLines()
    for i in order:
        moved.append(texts[i], lines.lefts[i], baselines[i], heights[i])
    return moved


# Pleading paper prints the numbers 1-28 down the left margin, usually drawn before the body as
# part of the page template, so a PDF reads them as a column of 28 lines before any text.
MARGIN_NUMBERS_MIN = 8  # a numbered margin shows at least this many rows


def margin_numbers_inline(lines: PageLines) -> PageLines:
    """The page's lines with a margin line-number column put in front of the text of its rows.

    Lawyers cite pleading paper by those numbers ("Compl. 3:12"). Drawn as a column apart from
    the body, they would open the page as 28 lines of bare numbers and every cited line would
    be off; put in front of the text on the same row ("22 On January 15, 2021, ...") the page
    reads as printed, and `chunk.layout` cites each line by its number. A row left empty adds
    nothing, so the gap still separates paragraphs. Only a column of bare numbers strictly
    increasing down the page, left of all other text, counts; other pages come back unchanged.
    """
    texts, lefts, baselines = lines.texts, lines.lefts, lines.baselines
    numbered = [i for i, text in enumerate(texts) if len(text) <= 2 and text.isdigit()]
    if len(numbered) < MARGIN_NUMBERS_MIN:
        return lines
    column = Counter(round(lefts[i]) for i in numbered).most_common(1)[0][0]
    rows = sorted((i for i in numbered if abs(lefts[i] - column) <= 2), key=lambda i: -baselines[i])
    in_column = set(rows)
    body = [i for i in range(len(texts)) if i not in in_column]
    numbers = [int(texts[i]) for i in rows]
    if (
        len(rows) < MARGIN_NUMBERS_MIN
        or numbers[0] > 3
        or any(later <= earlier for earlier, later in pairwise(numbers))
        or not body
        or min(lefts[i] for i in body) <= column
    ):
        return lines
    pitch = sorted(above - below for above, below in pairwise(baselines[i] for i in rows))[len(rows) // 2 - 1]
    row_of: dict[int, int] = {}  # body line -> margin row on the same printed line (its first piece only)
    for i in body:
        nearest = min(rows, key=lambda r: abs(baselines[r] - baselines[i]))
        if abs(baselines[nearest] - baselines[i]) <= pitch / 2 and nearest in in_column:
            row_of[i] = nearest
            in_column.discard(nearest)
    merged = PageLines()
    for i in sorted(body, key=lambda i: -baselines[i]):  # stable: pieces of one visual line keep their order
        row = row_of.get(i)
        if row is None:
            merged.append(texts[i], lefts[i], baselines[i], lines.heights[i])
        else:
            merged.append(f"{texts[row]} {texts[i]}", lefts[row], baselines[i], lines.heights[i])
    return merged


def overlays_in_place(lines: PageLines, first_overlay: int) -> PageLines:
    """The page's lines with those from `first_overlay` on, text a flattened annotation drew on top of the
    page (a filled-in form field, typewriter text, a stamp), put where they are printed.

    PDFium reads such text after all of the page's own. A piece on the row of a content line that starts
    left of it joins that line, as a form reads ("Plaintiff name: JANE DOE"); any other piece goes before
    the first content line below it (a "FILED" stamp above the caption), or last."""
    texts, lefts, baselines, heights = lines.texts, lines.lefts, lines.baselines, lines.heights
    content = range(min(first_overlay, len(texts)))
    joined: dict[int, list[int]] = {i: [i] for i in content}
    before: dict[int, list[int]] = {}
    for j in range(len(content), len(texts)):
        tolerance = SAME_LINE_FRACTION * max(heights[j], 1.0)
        row = [i for i in content if abs(baselines[i] - baselines[j]) <= tolerance and lefts[i] < lefts[j]]
        if row:
            joined[max(row, key=lambda i: lefts[i])].append(j)
            continue
        below = next((i for i in content if baselines[i] < baselines[j] - tolerance), len(content))
        before.setdefault(below, []).append(j)
    placed = PageLines()
    for i in [*content, len(content)]:
        for j in sorted(before.get(i, ()), key=lambda j: (-baselines[j], lefts[j])):
            placed.append(texts[j], lefts[j], baselines[j], heights[j])
        if i in joined:
            text = " ".join(texts[k] for k in sorted(joined[i], key=lambda k: lefts[k]))
            placed.append(text, lefts[i], baselines[i], heights[i])
    return placed


def join_lines(lines: Sequence[PositionedLine]) -> str:
    """The page text: lines joined by "\\n", with "\\n\\n" where a paragraph starts."""
    columns = PageLines()
    for line in lines:
        columns.append(line.text, line.left, line.baseline, line.height)
    return join_columns(columns)


def join_columns(lines: PageLines) -> str:
    """`join_lines` for lines given as columns."""
    if not lines.texts:
        return ""
    texts, lefts, heights = lines.texts, lines.lefts, lines.heights
    # drops[i]: how far line i + 1 lies below line i (negative: above it)
    drops = [above - below for above, below in pairwise(lines.baselines)]
    pitch = typical_pitch(drops, heights)
    margin = left_margin(lefts)
    parts = [texts[0]]
    for i, drop in enumerate(drops):
        height = max(heights[i], heights[i + 1], 1.0)
        parts.append("\n\n" if starts_paragraph(drop, height, lefts[i], lefts[i + 1], pitch, margin) else "\n")
        parts.append(texts[i + 1])
    return "".join(parts)


def starts_paragraph(
    drop: float, height: float, previous_left: float, left: float, pitch: float | None, margin: float
) -> bool:
    """Whether a line starts a paragraph, given how far it lies below the previous line (`drop`)
    and the larger of their heights (at least 1)."""
    if abs(drop) < SAME_LINE_FRACTION * height:
        return False  # another piece of the same visual line
    if drop < 0:
        return True  # jumped back up: new column, or a header/footer stored out of reading order
    usual = pitch if pitch is not None else 1.2 * height
    if drop > GAP_RATIO * usual:
        return True
    at_margin = abs(previous_left - margin) < INDENT_HEIGHTS * height
    return at_margin and left - margin >= INDENT_HEIGHTS * height


def typical_pitch(drops: Sequence[float], heights: Sequence[float]) -> float | None:
    """The usual distance between consecutive baselines inside a paragraph, ignoring same-line
    pieces and big jumps. The lower quartile, not the median: on a page of many one-line
    clauses most gaps are paragraph gaps, and the median would hide them all."""
    inside = [
        drop
        for drop, height in zip(drops, heights[1:], strict=True)
        if SAME_LINE_FRACTION * height <= drop <= 3 * max(height, 1.0)
    ]
    return sorted(inside)[(len(inside) - 1) // 4] if inside else None


def left_margin(lefts: Sequence[float]) -> float:
    """The most common left edge (to the nearest point), the leftmost on a tie: where body lines start."""
    counts = Counter(map(round, lefts))
    edge, _ = max(counts.items(), key=lambda item: (item[1], -item[0]))
    return float(edge)
