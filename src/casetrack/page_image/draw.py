"""Marking a page picture: a highlighter's translucent yellow over each line's box (multiplied, so
the print stays black under it), and the PNG.

Most pages are black on white: those are encoded with a palette of 128 greys and the same 128 under
the highlighter (one byte a pixel: a letter page at 1,600 px encodes in ~11 ms and ~100 KB, against
~80-150 ms and ~320 KB as RGB). A page in colour keeps its colours, reduced to the 256 it uses most."""

from __future__ import annotations

import functools
import io
from collections.abc import Sequence

from PIL import Image, ImageChops, ImageDraw, ImageFont

from casetrack.page_image.model import Box

HIGHLIGHT = (255, 222, 40)
_LEVELS = 128
# Palette: greys 0-127, then the same greys under the highlighter (multiplied by HIGHLIGHT) 128-255.
_PALETTE = [c for i in range(_LEVELS) for c in (i * 255 // 127,) * 3] + \
    [round(i * 255 / 127 * c / 255) for i in range(_LEVELS) for c in HIGHLIGHT]
_TO_GREY_INDEX = [v >> 1 for v in range(256)]
_TO_MARKED_INDEX = [v + _LEVELS if v < _LEVELS else v for v in range(256)]
_UNDER_HIGHLIGHT = [v * c // 255 for c in HIGHLIGHT for v in range(256)]  # red, green, blue multiplied by it
_GREY_TOLERANCE = 8  # channel differences up to this are anti-aliasing, not colour
_PAD = 2  # pixels around each line's box, so the marker covers ascenders and descenders
_CAPTION_PX = 30
_SAMPLE = 4  # a page in colour takes its palette from one pixel in this many, each way


def marked_png(image: Image.Image, boxes_px: Sequence[Box]) -> bytes:
    """`image` (greyscale "L", or a page in colour) with each box highlighted, as PNG bytes."""
    band = _band(image, boxes_px)  # the marked boxes' bounding box, and which of its pixels they cover
    if image.mode == "L":
        indexed = image.point(_TO_GREY_INDEX)
        if band is not None:
            area, mask = band
            indexed.paste(indexed.crop(area).point(_TO_MARKED_INDEX), area[:2], mask)
        indexed.putpalette(_PALETTE)
        return png(indexed)
    if image.mode != "RGB":
        image = image.convert("RGB")
    if band is not None:
        area, mask = band
        image.paste(image.crop(area).point(_UNDER_HIGHLIGHT), area[:2], mask)
    # 256 colours suit a document page (print, a letterhead, a stamp) and halve the encoding time. They are chosen
    # from every 4th pixel of every 4th row (real colours, not averages: black print stays black), a third of the
    # time of choosing them from all, as close to the page (mean error 1.2 of 255 on the eval-dev PDFs, both ways).
    sample = image.resize((max(1, image.width // _SAMPLE), max(1, image.height // _SAMPLE)), Image.Resampling.NEAREST)
    palette = sample.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return png(image.quantize(palette=palette, dither=Image.Dither.NONE))


def _band(image: Image.Image, boxes_px: Sequence[Box]) -> tuple[tuple[int, int, int, int], Image.Image] | None:
    """The area holding every box (each grown by _PAD, within the image) and a mask of the boxes in it: the
    marker is laid over the area once, whatever the number of lines."""
    areas = _areas(image, boxes_px)
    if not areas:
        return None
    band = (min(a[0] for a in areas), min(a[1] for a in areas), max(a[2] for a in areas), max(a[3] for a in areas))
    mask = Image.new("1", (band[2] - band[0], band[3] - band[1]), 0)
    pen = ImageDraw.Draw(mask)
    for left, top, right, bottom in areas:
        pen.rectangle((left - band[0], top - band[1], right - band[0] - 1, bottom - band[1] - 1), fill=1)
    return band, mask


def _areas(image: Image.Image, boxes_px: Sequence[Box]) -> list[tuple[int, int, int, int]]:
    areas = []
    for box in boxes_px:
        area = (max(0, int(box.left) - _PAD), max(0, int(box.top) - _PAD),
                min(image.width, int(box.right + 0.999) + _PAD), min(image.height, int(box.bottom + 0.999) + _PAD))
        if area[2] > area[0] and area[3] > area[1]:
            areas.append(area)
    return areas


def is_grey(image: Image.Image) -> bool:
    """Whether every pixel is a grey (black print on white), up to anti-aliasing."""
    red, green, blue = image.convert("RGB").split()[:3]
    return all(_largest(ImageChops.difference(red, other)) <= _GREY_TOLERANCE for other in (green, blue))


def _largest(channel: Image.Image) -> int:
    low_high = channel.getextrema()
    assert isinstance(low_high, tuple) and isinstance(low_high[1], int)  # one band: (lowest, highest)
    return low_high[1]


def caption_height(caption: str | None) -> int:
    return _CAPTION_PX if caption else 0


def png(image: Image.Image) -> bytes:
    # Level 1: on a page of one byte a pixel (greys, or 256 colours) 15-25% faster than 3, ~5% larger (eval-dev PDFs).
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


@functools.cache
def font(size: int, monospace: bool = False) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """A monospaced system font where one is installed (a rendering's lines hold a number of characters),
    else Pillow's own scalable font."""
    if monospace:
        for name in ("DejaVuSansMono.ttf", "LiberationMono-Regular.ttf", "consola.ttf", "Menlo.ttc", "cour.ttf",
                     "Courier New.ttf", "Courier.ttc"):
            try:
                return ImageFont.truetype(name, size)
            except OSError:
                continue
    return ImageFont.load_default(size)
