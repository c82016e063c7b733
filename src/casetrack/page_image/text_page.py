"""A page of a format without pages of its own (Word, RTF, text, e-mail), or one whose file is gone:
CaseTrack's own text of the page drawn line by line as CaseTrack counts its lines (chunk/layout.py,
a Word page wrapped at its `line_width`), numbered in the margin as citations number them, the
passage marked character for character. The picture says it is a rendering, not the original."""

from __future__ import annotations

from PIL import Image, ImageDraw

from casetrack.chunk.layout import PageLayout
from casetrack.page_image import draw
from casetrack.page_image.model import Box, PageDrawing

WIDTH_PX = 1236  # a US Letter page's proportions at 1,600 pixels high
MIN_HEIGHT_PX = 1600
MAX_ROWS = 240  # a page's text is a few thousand characters; past this the picture stops, and says so
_MARGIN_LEFT, _MARGIN_RIGHT, _MARGIN_TOP = 96, 48, 40
_MIN_COLUMNS, _MAX_COLUMNS = 60, 110


def draw_text_page(text: str, line_width: int | None, span: tuple[int, int] | None, caption: str) -> PageDrawing:
    """`text` (a stored page) drawn with `span` (character offsets into it) marked, under `caption`."""
    if not text.strip():
        raise ValueError("a page without text has nothing to draw")
    layout = PageLayout.of(text, line_width)
    rows = _rows(text, layout)
    columns = max(_MIN_COLUMNS, min(_MAX_COLUMNS, max((end - start for start, end, _ in rows), default=0)))
    size = max(10, min(22, int((WIDTH_PX - _MARGIN_LEFT - _MARGIN_RIGHT) / (columns * 0.6))))
    font, small = draw.font(size, monospace=True), draw.font(max(10, size - 4), monospace=True)
    row_px = round(size * 1.45)
    shown = rows[:MAX_ROWS]
    top = draw.caption_height(caption) + _MARGIN_TOP
    height = max(MIN_HEIGHT_PX, top + row_px * (len(shown) + 2))
    image = Image.new("L", (WIDTH_PX, height), 255)
    pen = ImageDraw.Draw(image)
    boxes: list[Box] = []
    for row, (start, end, number) in enumerate(shown):
        y = top + row * row_px
        line = text[start:end]
        if number is not None:
            pen.text((_MARGIN_LEFT - 16, y + 2), str(number), fill=150, font=small, anchor="ra")
        if span is not None and span[0] < end and start < span[1]:
            first, last = max(span[0], start) - start, min(span[1], end) - start
            left = _MARGIN_LEFT + font.getlength(line[:first])
            boxes.append(Box(left, y, _MARGIN_LEFT + font.getlength(line[:last]), y + row_px - 2))
        pen.text((_MARGIN_LEFT, y), line, fill=0, font=font)
    if len(rows) > len(shown):
        pen.text((_MARGIN_LEFT, top + len(shown) * row_px), f"... ({len(rows) - len(shown)} more lines)",
                 fill=120, font=font)
    if caption:
        pen.rectangle((0, 0, WIDTH_PX, draw.caption_height(caption) - 1), fill=236)
        pen.text((10, 6), caption, fill=60, font=draw.font(16))
    return PageDrawing(png=draw.marked_png(image, boxes), width_px=image.width, height_px=image.height,
                       page_width=image.width, page_height=image.height, units="px", pixels_per_unit=1.0,
                       boxes=tuple(boxes), source="rendering", note=caption)


def _rows(text: str, layout: PageLayout) -> list[tuple[int, int, int | None]]:
    """Each printed row: its start and end offsets in `text` and the line number it is cited by (None on
    a page that prints its own numbers, whose rows show them already)."""
    rows = []
    starts = layout.line_starts
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        if end > start and text[end - 1] == "\n":
            end -= 1
        number = None if layout.printed is not None else layout.line_at(start)
        rows.append((start, end, number))
    return rows
