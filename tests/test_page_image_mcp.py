"""Seeing the page, over a real stdio MCP session: get_page_image draws a search hit on its page (a
native PDF, an e-mail), the viewer is an MCP App resource the citing tools link to."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pdfplumber
import pytest
from PIL import Image

from casetrack.page_image.model import Box
from casetrack.parse import ocr_available
from tests.mcp_helpers import call_error, call_ok, mcp_session
from tests.page_image.documents import ANSWER, CLAUSE, FILLER, condensed_transcript_bytes, lease_pdf_bytes
from tests.page_image.pixels import SeenWord, highlighted_rows, passage_words, words_on

pytestmark = pytest.mark.anyio

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "page_image"  # kept for review, ignored
VIEWER = "ui://casetrack/viewer"
APP_MIME = "text/html;profile=mcp-app"
EMAIL = (
    "From: Dana Whitfield <dana@example.com>\nTo: Omar Reyes <omar@example.com>\nSubject: Escrow release\n"
    "Date: Tue, 3 Mar 2026 09:15:00 +0000\nMessage-ID: <escrow-1@example.com>\nContent-Type: text/plain\n\n"
    "Omar,\n\n" + "\n\n".join(["\n".join([FILLER] * 6)] * 3) + "\n\nThe escrow agent may release the holdback "
    "only after the landlord countersigns the estoppel certificate.\n\n" + "\n\n".join(["\n".join([FILLER] * 6)] * 3)
    + "\n\nDana\n"
)


SENTENCES = {"lease.pdf": CLAUSE, "deposition.pdf": ANSWER,
             "escrow.eml": "The escrow agent may release the holdback only after the landlord countersigns the "
                           "estoppel certificate."}


def _words(path: Path, page: int, scale: float, png: bytes, tmp_path: Path) -> list[SeenWord] | None:
    """The page's words with their boxes in the picture's pixels: a PDF's from pdfplumber, a rendering's as
    Tesseract (run by the test) reads them on the picture; None when Tesseract is not installed."""
    if path.suffix != ".pdf":
        return words_on(png, tmp_path) if ocr_available() else None
    with pdfplumber.open(path) as pdf:
        return [SeenWord(re.sub(r"[\W_]+", "", w["text"]).lower(), round(w["x0"] * scale), round(w["top"] * scale),
                         round(w["x1"] * scale), round(w["bottom"] * scale))
                for w in pdf.pages[page - 1].extract_words()]


def _inside(word: SeenWord, boxes: list[Box], slack: float = 3.0) -> bool:
    x, y = word.middle
    return any(b.left - slack <= x <= b.right + slack and b.top - slack <= y <= b.bottom + slack for b in boxes)


async def test_a_hit_opens_on_its_page_highlighted_and_the_viewer_is_linked(data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "lease.pdf").write_bytes(lease_pdf_bytes())
    (folder / "escrow.eml").write_text(EMAIL, encoding="utf-8")
    (folder / "deposition.pdf").write_bytes(condensed_transcript_bytes())
    async with mcp_session(data_dir) as client:
        await call_ok(client, "create_case", name="Viewer")
        await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)

        tools = {t.name: t for t in (await client.list_tools()).tools}
        for name in ("search_case", "get_chunk", "get_source_context", "browse_pages", "verify_draft"):
            assert (tools[name].meta or {})["ui"]["resourceUri"] == VIEWER, name
        assert not (tools["list_cases"].meta or {}).get("ui")
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        assert listed[VIEWER].mime_type == APP_MIME
        [html] = (await client.read_resource(VIEWER)).contents
        assert html.mime_type == APP_MIME and "ui/initialize" in html.text  # type: ignore[union-attr]
        assert "http://" not in html.text and "https://" not in html.text  # type: ignore[union-attr]

        for query, document, source in (("tenant indemnify landlord flood damage", "lease.pdf", "pdf_text_layer"),
                                         ("escrow holdback estoppel certificate", "escrow.eml", "rendering"),
                                         (ANSWER, "deposition.pdf", "pdf_text_layer")):
            # Acceptance (issue 36): a PNG at least 800 px high whose marked band holds the passage and covers
            # well under the whole page, for a native PDF page, a condensed transcript sheet and an e-mail.
            found = await call_ok(client, "search_case", query=query, top_k=3)
            hit = found.structured_content["results"][0]
            assert hit["source"]["document"] == document
            shown = await call_ok(client, "get_page_image", chunk_id=hit["chunk_id"])
            [image] = [b for b in shown.content if b.type == "image"]
            assert image.mime_type == "image/png"
            png = base64.b64decode(image.data)
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            (ARTIFACTS / f"{document}.png").write_bytes(png)
            height, marked = Image.open(io.BytesIO(png)).height, len(highlighted_rows(png))
            data = shown.structured_content
            assert height >= 800 and data["image_height"] == height and data["source"] == source
            assert data["citation"] == hit["citation"] and data["highlights"]
            assert 0 < marked < 0.5 * height, (document, marked, height)  # a band, well under the page
            scale = data["pixels_per_unit"]
            boxes = [Box(b["left"], b["top"], b["right"], b["bottom"]).scaled(scale) for b in data["highlights"]]
            plain = await call_ok(client, "get_page_image", document_name=document, page=data["page"])
            [unmarked] = [b for b in plain.content if b.type == "image"]  # Tesseract reads no text on yellow
            words = _words(folder / document, data["page"], scale, base64.b64decode(unmarked.data), tmp_path)
            if words is not None:
                sentence = SENTENCES[document]
                first, last = passage_words(words, sentence)
                assert last - first + 1 == len(sentence.split())
                assert all(_inside(word, boxes) for word in words[first:last + 1]), document  # the band holds it

        other = await call_ok(client, "get_page_image", document_name="lease.pdf", page=3)
        assert other.structured_content["highlights"] == [] and other.structured_content["page"] == 3
        assert "pages 1-3" in await call_error(client, "get_page_image", document_name="lease.pdf", page=7)
        assert "chunk_id" in await call_error(client, "get_page_image", document_name="lease.pdf")
        assert "together" in await call_error(client, "get_page_image", document_name="lease.pdf", page=2,
                                              char_start=10)
        marked = await call_ok(client, "get_page_image", document_name="lease.pdf", page=2, char_start=0,
                               char_end=40)  # a verify_draft place: offsets into the page's text
        assert len(marked.structured_content["highlights"]) == 1 and marked.structured_content["chunk_id"] is None
