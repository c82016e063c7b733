"""Builders for synthetic inputs: text PDFs, page images, PDFs made of images."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pypdfium2 as pdfium
from PIL import Image

from tests.badfiles import text_pdf_bytes


def text_image(lines: Sequence[str], dpi: int = 200) -> Image.Image:
    """A clean grayscale page image of `lines` (rendered from a text PDF), like a good scan."""
    return render_pdf_pages(
        text_pdf_bytes([[(72, 700 - 20 * row, line) for row, line in enumerate(lines)]], font_size=14), dpi
    )[0]


def render_pdf_pages(data: bytes, dpi: int = 200) -> list[Image.Image]:
    document = pdfium.PdfDocument(data)
    try:
        return [
            document[index].render(scale=dpi / 72, grayscale=True).to_pil().copy() for index in range(len(document))
        ]
    finally:
        document.close()


def image_pdf_bytes(images: Sequence[Image.Image], dpi: int = 200) -> bytes:
    """A PDF whose pages are only pictures (no text layer), as a scanner makes."""
    out = io.BytesIO()
    first, *rest = [image.convert("RGB") for image in images]
    first.save(out, format="PDF", save_all=True, append_images=rest, resolution=dpi)
    return out.getvalue()
