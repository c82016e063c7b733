"""A PDF page's text as positioned lines, from PDFium: each line's text, left edge, baseline and height.

`parse.layout` turns these into page text (paragraph breaks from positions, furniture and margin
numbers in place). A page with /Rotate is first measured in the frame its text reads in
(`turned_lines`); a page with flattened annotations has their text put where it is printed
(`with_overlays_in_place`). Callers hold `pdf.PDFIUM_LOCK`.
"""

from __future__ import annotations

import ctypes
import math
from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from casetrack.parse.layout import SAME_LINE_FRACTION, PageLines, overlays_in_place

ROW_JUMP_POINTS = 4.0  # a baseline this far from the last character's is another row (sub/superscripts move less)


def unchecked(function: Any) -> Any:
    """`function` without its ctypes argument types: ctypes then passes ints and pointers as they
    are instead of converting each through its declared type, which made these calls 2.5x
    slower (three per line, ~50 lines a page). Only for functions taking ints and pointers."""
    bare = type(function)(ctypes.cast(function, ctypes.c_void_p).value)
    bare.restype = function.restype
    return bare


_char_index = unchecked(pdfium_c.FPDFText_GetCharIndexFromTextIndex)
_char_origin = unchecked(pdfium_c.FPDFText_GetCharOrigin)
_loose_char_box = unchecked(pdfium_c.FPDFText_GetLooseCharBox)
_char_angle = unchecked(pdfium_c.FPDFText_GetCharAngle)
_QUARTER_TURN = math.pi / 2


def _visible_lines(text: str) -> Iterator[tuple[str, int]]:
    """Each non-blank line of PDFium's page text (it ends each with a generated CR LF), stripped,
    with the offset of its first visible character in `text`."""
    position = 0
    for raw_line in text.split("\r\n"):
        length = len(raw_line)
        line_text = raw_line.lstrip()
        start = position + length - len(line_text)
        position += length + 2
        if line_text:
            yield line_text.rstrip(), start


def _rows_apart(handle: Any, lines: Iterable[tuple[str, int]]) -> Iterator[tuple[str, int]]:
    """`lines` cut where the text drops or rises to another row. PDFium joins the text of flattened form
    fields into one line ("JANE DOE ACME WIDGETS, INC." for two fields a row apart); each char is placed
    here, which costs a lookup per character, so only flattened pages take this path."""
    y = ctypes.c_double()
    x_out, y_out = ctypes.byref(ctypes.c_double()), ctypes.byref(y)
    for line_text, start in lines:
        piece_start, row = 0, None
        for offset, char in enumerate(line_text):
            char_index = _char_index(handle, start + offset)
            if char.isspace() or char_index < 0 or not _char_origin(handle, char_index, x_out, y_out):
                continue
            if row is not None and abs(y.value - row) > ROW_JUMP_POINTS and line_text[piece_start:offset].strip():
                yield line_text[piece_start:offset].strip(), start + piece_start
                piece_start = offset
            row = y.value
        rest = line_text[piece_start:]
        yield rest.strip(), start + piece_start + len(rest) - len(rest.lstrip())


def with_overlays_in_place(textpage: pdfium.PdfTextPage, content_chars: int) -> PageLines:
    """A flattened page's lines, the annotations' text (after the first `content_chars` characters) put
    where it is printed (`parse.layout.overlays_in_place`)."""
    pieces = list(_rows_apart(textpage.raw, _visible_lines(textpage.get_text_range())))
    first_overlay = sum(1 for _, start in pieces if start < content_chars)
    return overlays_in_place(positioned_lines(textpage, pieces), first_overlay)


def positioned_lines(textpage: pdfium.PdfTextPage, pieces: Iterable[tuple[str, int]] | None = None) -> PageLines:
    """PDFium's lines (it ends each with a generated CR LF), each placed by its first visible character;
    or `pieces` of its text (line, offset of its first visible character), placed alike."""
    handle = textpage.raw
    x, y = ctypes.c_double(), ctypes.c_double()
    box = pdfium_c.FS_RECTF()
    x_out, y_out, box_out = ctypes.byref(x), ctypes.byref(y), ctypes.byref(box)
    lines = PageLines()
    texts, lefts, baselines, heights = lines.texts, lines.lefts, lines.baselines, lines.heights
    for line_text, start in _visible_lines(textpage.get_text_range()) if pieces is None else pieces:
        texts.append(line_text)
        char_index = _char_index(handle, start)
        if (
            char_index >= 0
            and _char_origin(handle, char_index, x_out, y_out)
            and _loose_char_box(handle, char_index, box_out)
        ):
            lefts.append(x.value)
            baselines.append(y.value)
            heights.append(abs(box.top - box.bottom))
        elif lefts:  # position unknown: keep it with the line before
            lefts.append(lefts[-1])
            baselines.append(baselines[-1])
            heights.append(heights[-1])
        else:
            lefts.append(0.0)
            baselines.append(0.0)
            heights.append(0.0)
    return lines


def turned_lines(textpage: pdfium.PdfTextPage, rotation: int) -> PageLines:
    """`positioned_lines` for a page with /Rotate (`rotation` degrees clockwise), measured in
    the frame its text reads in.

    PDFium gives positions in the unrotated page's space. A landscape page is usually a
    portrait page with /Rotate 90 or 270 whose content is drawn a quarter turn the other way:
    there its text runs up or down the page and its lines follow each other sideways, so
    measured as drawn every line sat on one "baseline" and no paragraph break was found. Each
    line is turned by the quarter turns of the page's usual text direction, so that text runs
    left to right and lines go down, as on a portrait page. Rare, so not tuned like the above.
    """
    text = textpage.get_text_range()
    handle = textpage.raw
    x, y = ctypes.c_double(), ctypes.c_double()
    box = pdfium_c.FS_RECTF()
    texts: list[str] = []
    placed: list[tuple[float, float, float, float] | None] = []  # origin x, y; box height, width
    turns: Counter[int] = Counter()
    for line_text, start in _visible_lines(text):
        texts.append(line_text)
        char_index = _char_index(handle, start)
        if (
            char_index >= 0
            and _char_origin(handle, char_index, ctypes.byref(x), ctypes.byref(y))
            and _loose_char_box(handle, char_index, ctypes.byref(box))
        ):
            placed.append((x.value, y.value, abs(box.top - box.bottom), abs(box.right - box.left)))
            angle = _char_angle(handle, char_index)  # radians clockwise in page space, -1 if unknown
            if angle >= 0:
                turns[round(angle / _QUARTER_TURN) % 4] += 1
        else:
            placed.append(None)
    turn = turns.most_common(1)[0][0] if turns else 0
    rows: list[_Row] = []
    for line_text, position_and_box in zip(texts, placed, strict=True):
        if position_and_box is not None:
            rows.append((line_text, *_in_reading_frame(*position_and_box, turn)))
        else:  # position unknown: keep it with the line before
            rows.append((line_text, *(rows[-1][1:] if rows else (0.0, 0.0, 0.0))))
    if (turn + rotation // 90) % 4 == 1:
        rows = _top_down(rows)
    lines = PageLines()
    for row in rows:
        lines.append(*row)
    return lines


_Row = tuple[str, float, float, float]  # text, left, baseline, height


def _in_reading_frame(x: float, y: float, box_height: float, box_width: float, turn: int) -> tuple[float, float, float]:
    """(left, baseline, height) of a line whose first character has its origin at (x, y) and a
    loose box of that size, for text turned `turn` quarter turns clockwise in page space. Only
    differences between lines matter to `layout`, so nothing moves them back onto the page."""
    if turn == 1:  # runs down the page; the next line lies to its left
        return -y, x, box_width
    if turn == 2:  # upside down
        return -x, -y, box_height
    if turn == 3:  # runs up the page; the next line lies to its right
        return y, -x, box_width
    return x, y, box_height


def _top_down(rows: list[_Row]) -> list[_Row]:
    """Lines of text that runs down the screen, put back in reading order.

    PDFium orders text objects that start at the same height on screen from left to right
    (CPDF_TextPage::ProcessTextObject). On a page whose text runs down the screen (a portrait
    page turned clockwise in a viewer and saved), lines that start at one left edge start at
    the same height on screen, so each run of them comes bottom line first: reversing every
    run of lines at one left edge that climbs up the page restores top to bottom.
    """
    ordered: list[_Row] = []
    start = 0
    for i in range(1, len(rows) + 1):
        if i < len(rows):
            _, previous_left, previous_baseline, previous_height = rows[i - 1]
            _, left, baseline, height = rows[i]
            tolerance = SAME_LINE_FRACTION * max(height, previous_height, 1.0)
            if abs(left - previous_left) < tolerance and baseline - previous_baseline > tolerance:
                continue
        ordered.extend(reversed(rows[start:i]))
        start = i
    return ordered
