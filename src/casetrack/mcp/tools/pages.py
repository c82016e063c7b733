"""Seeing a page: get_page_image draws a cited passage on its page (page_image/)."""

from __future__ import annotations

import base64
from typing import Annotated

from mcp.types import CallToolResult, ImageContent, TextContent
from pydantic import Field

from casetrack.mcp import outputs_page_image as out
from casetrack.mcp.tools.base import CaseName, Ctx, app_of
from casetrack.service.cases.page_images import PageView


def get_page_image(
    ctx: Ctx, chunk_id: str | None = None, document_name: str | None = None,
    page: Annotated[int | None, Field(ge=1)] = None, char_start: Annotated[int | None, Field(ge=0)] = None,
    char_end: Annotated[int | None, Field(ge=0)] = None, case_name: CaseName = None,
) -> Annotated[CallToolResult, out.PageImage]:
    """A passage highlighted on its page, as a PNG: chunk_id, or document_name and page (char_start/char_end
    to mark). Word by LibreOffice if present; RTF, text, e-mail: CaseTrack's text as paged."""
    app = app_of(ctx)
    view = app.page_images.draw(app.case(case_name), chunk_id, document_name, page, char_start, char_end)
    return CallToolResult(
        content=[ImageContent(type="image", data=base64.b64encode(view.drawing.png).decode(), mime_type="image/png"),
                 TextContent(type="text", text=_caption(view))],
        structured_content=_structured(view).model_dump(mode="json"))


def _caption(view: PageView) -> str:
    drawing = view.drawing
    marked = f"{len(drawing.boxes)} line{'s' if len(drawing.boxes) != 1 else ''} highlighted" if drawing.boxes \
        else "nothing highlighted"
    lines = [f"{view.citation} ({marked}; {drawing.width_px} x {drawing.height_px} px)"]
    if drawing.note:
        lines.append(drawing.note)
    return "\n".join(lines)


def _structured(view: PageView) -> out.PageImage:
    drawing = view.drawing
    return out.PageImage(
        document=view.document.name, document_id=view.document.id, page=view.page,
        page_count=view.document.page_count, chunk_id=view.chunk.id if view.chunk else None, citation=view.citation,
        units=drawing.units, page_width=round(drawing.page_width, 2), page_height=round(drawing.page_height, 2),
        pixels_per_unit=round(drawing.pixels_per_unit, 6), image_width=drawing.width_px,
        image_height=drawing.height_px, source=drawing.source, note=drawing.note,
        highlights=[out.HighlightBox(left=round(b.left, 2), top=round(b.top, 2), right=round(b.right, 2),
                                     bottom=round(b.bottom, 2)) for b in drawing.boxes])
