"""What a drawn page is: the PNG, its size, the marked boxes in page coordinates, where they came from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# A page is drawn this many pixels on its long side (the issue asks at least 1,200, readable), whatever
# its size in inches: a 200 x 200-inch page is 1,600 x 1,600 pixels, never 40,000 x 40,000.
LONG_SIDE_PX = 1600

Source = Literal["pdf_text_layer", "ocr_words", "rendering"]


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle from the page's top left corner, in the drawing's page units."""

    left: float
    top: float
    right: float
    bottom: float

    def scaled(self, factor: float) -> Box:
        return Box(self.left * factor, self.top * factor, self.right * factor, self.bottom * factor)


@dataclass(frozen=True, slots=True)
class PageDrawing:
    """One page drawn with a passage's lines marked.

    `page_width`/`page_height` and `boxes` are in `units`: points (1/72 inch) for a PDF page, the image's
    pixels for a scanned image, the rendering's pixels for a rendering. `pixels_per_unit` turns them into
    the PNG's pixels."""

    png: bytes
    width_px: int
    height_px: int
    page_width: float
    page_height: float
    units: Literal["pt", "px"]
    pixels_per_unit: float
    boxes: tuple[Box, ...]
    source: Source
    note: str | None = None  # shown in the image too: a rendering, a re-read scan, a passage not found
