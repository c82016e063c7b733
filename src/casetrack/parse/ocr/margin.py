"""Scanned pleading paper and transcripts: the line numbers printed down the left margin.

Lawyers cite pleading paper (rows 1-28) and deposition transcripts (1-25) by those numbers
("Compl. 3:12"). Tesseract's page segmentation takes a column of bare numbers beside the body
for a block of noise ("k WwW N") or drops it, and the page would be cited by counted lines.
So when the strip left of the body holds a column of evenly spaced marks (a cheap look at the
pixels), that strip alone is read again as digits: one more Tesseract call, on a sliver of the
page. When it reads as rising, evenly spaced numbers, the page's lines are rebuilt row by row
with their number in front, the text form `parse.layout.margin_numbers_inline` gives a PDF's
text layer, and `chunk.layout` cites each line by its number. Any doubt leaves the page as
Tesseract read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import pairwise
from statistics import median

import numpy as np
from PIL import Image

from casetrack.parse.ocr.punctuation import mend

MIN_ROWS = 8  # as parse.layout.MARGIN_NUMBERS_MIN: a numbered margin shows at least this many rows
MAX_NUMBER = 40  # pleading paper has 28 rows, transcripts 25
# A body line holds at least two real words: runs of 4+ letters. A margin column misread reads as short
# scraps ("o on om an FF WO NH =", "= 606 © @OaN DO UO F&F WO NH |= CO"), some of them read confidently.
BODY_WORDS = 2
WORD_PUNCTUATION = ".,;:()[]\"'"
PITCH_TOLERANCE = 0.2  # marks of a numbered column stand this evenly: each gap within 20% of the typical one
# A vertical rule or a scanner's dark edge inks a pixel column most of the way down; a column of numbers,
# a third of it at most (digits ~25 px tall every ~67 px at 200 dpi).
RULE_SHARE = 0.6
DIGITS_ONLY = ("-c", "tessedit_char_whitelist=0123456789")
STRIP_SEGMENTATION = "6"  # one uniform block: the column read top to bottom, a number a line


@dataclass(frozen=True, slots=True)
class OcrWord:
    """One word of Tesseract's TSV, with its box in pixels."""

    line: tuple[str, str, str]  # Tesseract's block, paragraph and line numbers
    left: int
    top: int
    width: int
    height: int
    confidence: float  # -1 when Tesseract gives none
    text: str

    @property
    def middle(self) -> float:
        return self.top + self.height / 2


def ocr_words(tsv: str) -> Iterator[OcrWord]:
    """The recognised words of a Tesseract TSV, in its reading order; a period it read where the scan has
    a space mended (parse/ocr/punctuation.py)."""
    rows = tsv.splitlines()
    if not rows:
        return
    column = {name: index for index, name in enumerate(rows[0].split("\t"))}
    level, text = column["level"], column["text"]
    block, paragraph, line = column["block_num"], column["par_num"], column["line_num"]
    left, top, width, height, conf = (column[n] for n in ("left", "top", "width", "height", "conf"))
    for row in rows[1:]:
        cells = row.split("\t")
        if len(cells) <= text or cells[level] != "5" or not cells[text].strip():
            continue
        try:
            confidence = float(cells[conf])
            box = int(cells[left]), int(cells[top]), int(cells[width]), int(cells[height])
        except ValueError:
            confidence, box = -1.0, (0, 0, 0, 0)
        yield OcrWord((cells[block], cells[paragraph], cells[line]), *box, confidence, mend(cells[text].strip()))


def strip_right(words: Sequence[OcrWord], page_width: int) -> int | None:
    """Right edge of the strip left of the body text, where a line-number column would stand; None when the
    body starts too near the page's edge for one."""
    lines: dict[tuple[str, str, str], list[OcrWord]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    body = [min(w.left for w in line) for line in lines.values() if _holds_words(line)]
    if not body:
        return None
    edge = min(body) - 4  # a few pixels clear of the body's first letters
    return edge if edge >= page_width * 0.04 else None


def has_marked_rows(strip: Image.Image, text_height: float) -> bool:
    """Whether the strip holds at least MIN_ROWS evenly spaced marks of about a letter's height, one above the
    other: a column of line numbers. Vertical rules and a scanner's dark edge are ignored."""
    ink = np.asarray(strip.convert("L")) < 128
    if ink.size == 0:
        return False
    ink[:, ink.mean(axis=0) > RULE_SHARE] = False  # a column inked most of the way down: a rule, an edge
    inked = np.flatnonzero(ink.sum(axis=1) >= 2)
    if len(inked) == 0:
        return False
    breaks = np.flatnonzero(np.diff(inked) > max(2, text_height * 0.3))
    starts = np.concatenate(([inked[0]], inked[breaks + 1]))
    ends = np.concatenate((inked[breaks], [inked[-1]]))
    heights = ends - starts + 1
    marks = [(s + e) / 2 for s, e, h in zip(starts, ends, heights, strict=True)
             if 0.4 * text_height <= h <= 2.5 * text_height]
    if len(marks) < MIN_ROWS:
        return False
    gaps = [b - a for a, b in pairwise(marks)]
    typical = median(gaps)
    return bool(sum(abs(g - typical) <= PITCH_TOLERANCE * typical for g in gaps) >= 0.6 * len(gaps))


def blank_rules(strip: Image.Image) -> Image.Image:
    """The strip with its vertical rules whitened, so the digit-only read cannot take one for a column of 1s."""
    pixels = np.asarray(strip.convert("L")).copy()
    pixels[:, (pixels < 128).mean(axis=0) > RULE_SHARE] = 255
    return Image.fromarray(pixels)


def _holds_words(line: Sequence[OcrWord]) -> bool:
    words = (w.text.strip(WORD_PUNCTUATION) for w in line)
    return sum(len(word) >= 4 and word.isalpha() for word in words) >= BODY_WORDS


@dataclass(frozen=True, slots=True)
class MarginRows:
    """Where each printed row lies: row n's middle is at `first + (n - 1) * pitch` pixels."""

    first: float
    pitch: float
    last_number: int

    def number_at(self, middle: float) -> int | None:
        """The row whose printed line holds a point at `middle` pixels down, or None outside the rows."""
        number = round((middle - self.first) / self.pitch) + 1
        return number if 1 <= number <= self.last_number else None


def margin_rows(strip_words: Iterable[OcrWord]) -> MarginRows | None:
    """The rows, from the digit-only read of the strip, or None. Most numbers read must sit on one even
    spacing (row n at first + (n - 1) * pitch), at least MIN_ROWS of them: a number Tesseract missed leaves
    a gap of whole rows, and a misread one ("1" for "11" at 150 dpi) is outvoted by its neighbours."""
    read = sorted((w.middle, int(w.text)) for w in strip_words if w.text.isdigit() and len(w.text) <= 2)
    read = [(y, n) for y, n in read if 1 <= n <= MAX_NUMBER]
    steps = [(b[0] - a[0]) / (b[1] - a[1]) for a, b in pairwise(read) if b[1] > a[1]]
    if len(read) < MIN_ROWS or not steps:
        return None
    pitch = median(steps)
    if pitch <= 0:
        return None
    first = median(y - (n - 1) * pitch for y, n in read)  # row 1's middle, even when 1 itself was not read
    fits = [(y, n) for y, n in read if abs(y - first - (n - 1) * pitch) <= 0.25 * pitch]
    if len(fits) < MIN_ROWS or len(fits) < 0.75 * len(read):
        return None
    numbers = [n for _, n in fits]
    mean_n, mean_y = sum(numbers) / len(fits), sum(y for y, _ in fits) / len(fits)
    pitch = sum((n - mean_n) * (y - mean_y) for y, n in fits) / sum((n - mean_n) ** 2 for n in numbers)
    return MarginRows(mean_y - (mean_n - 1) * pitch, pitch, max(numbers))


def numbered_text(words: Sequence[OcrWord], rows: MarginRows, strip_edge: int) -> str:
    """The page's text rebuilt in printed rows, each row's first line opening with its number.

    Words inside the strip were the margin misread and are dropped. Lines are ordered down the
    page (pieces on one row left to right); an empty row between two lines starts a paragraph."""
    lines: dict[tuple[str, str, str], list[OcrWord]] = {}
    for word in words:
        if word.left + word.width > strip_edge:
            lines.setdefault(word.line, []).append(word)
    placed = []
    for line_words in lines.values():
        middle = median(w.middle for w in line_words)
        row = rows.number_at(middle)
        key = row if row is not None else (middle - rows.first) / rows.pitch + 1  # off the rows: by position
        placed.append((key, min(w.left for w in line_words), middle, " ".join(w.text for w in line_words), row))
    placed.sort(key=lambda p: (p[0], p[1]))
    out: list[str] = []
    numbered: set[int] = set()
    previous: float | None = None
    for _, _, middle, text, row in placed:
        if previous is not None and middle - previous > 1.6 * rows.pitch:
            out.append("")
        if row is not None and row not in numbered:
            numbered.add(row)
            text = f"{row} {text}"
        out.append(text)
        previous = middle
    return "\n".join(out)
