"""A real scan seen on its page, over a real stdio MCP session: the words Tesseract read at ingest are kept
with their boxes, and get_page_image marks a passage by them without running Tesseract again. The server
runs Tesseract through a wrapper that logs each call, so the test sees every call it makes; the marked
lines are checked against the words the test itself reads on the returned picture."""

from __future__ import annotations

import base64
import shutil
from pathlib import Path

import pytest

from casetrack.parse import ocr_available
from tests.datasets import EVAL_DEV
from tests.mcp_helpers import call_ok, mcp_session
from tests.page_image.pixels import SeenWord, highlighted_rows, passage_words, words_on

pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not ocr_available(), reason="Tesseract is not installed")]

# Public court orders, rasterised with mild skew, blur and speckle (benchmarks/eval_dev/README.md names the
# sources): one a scanned PDF page (points), one a TIFF (its own pixels).
SCANS = {"scan_ca10_order_in_re_liebowitz_2021.pdf": ("If a response", "is admitted.", "pt"),
         "scan_ca7_order_fedex_ground_2017.tiff": ("ORDERS the parties", "consolidated with", "px")}


def _logging_tesseract(folder: Path, log: Path) -> Path:
    """A `tesseract` that notes each call in `log`, then runs the real one."""
    real = shutil.which("tesseract")
    assert real is not None
    folder.mkdir()
    wrapper = folder / "tesseract"
    wrapper.write_text(f'#!/bin/sh\necho "$@" >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(0o755)
    return folder


def _inside(word: SeenWord, boxes: list[tuple[float, float, float, float]], slack: float = 3.0) -> bool:
    x, y = word.middle
    return any(left - slack <= x <= right + slack and top - slack <= y <= bottom + slack
               for left, top, right, bottom in boxes)


async def test_a_scanned_passage_is_marked_by_the_words_kept_at_ingest_without_tesseract(
        data_dir: Path, tmp_path: Path) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    for name in SCANS:
        shutil.copy(EVAL_DEV / "docs" / name, folder / name)
    log = tmp_path / "tesseract-calls.log"
    path = f"{_logging_tesseract(tmp_path / 'bin', log)}:/usr/local/bin:/usr/bin:/bin"
    async with mcp_session(data_dir, PATH=path) as client:
        await call_ok(client, "create_case", name="Scans")
        await call_ok(client, "ingest_folder", folder_path=str(folder), wait_seconds=300)
        at_ingest = log.read_text().splitlines()
        assert sum(" tsv" in call for call in at_ingest) >= len(SCANS)  # the server's Tesseract is the wrapper

        for name, (opening, closing, units) in SCANS.items():
            browsed = await call_ok(client, "browse_pages", document_name=name, start_page=1, end_page=1)
            [chunk] = [c for c in browsed.structured_content["chunks"] if opening in c["text"]]
            start = chunk["source"]["char_start"] + chunk["text"].index(opening)
            end = chunk["source"]["char_start"] + chunk["text"].index(closing) + len(closing)
            passage = chunk["text"][start - chunk["source"]["char_start"]:end - chunk["source"]["char_start"]]
            marked = await call_ok(client, "get_page_image", document_name=name, page=1, char_start=start,
                                   char_end=end)
            plain = await call_ok(client, "get_page_image", document_name=name, page=1)
            data = marked.structured_content
            assert data["source"] == "ocr_words" and data["units"] == units and data["note"] is None, data
            assert "read again" not in str(marked.content)
            scale = data["pixels_per_unit"]
            boxes = [(b["left"] * scale, b["top"] * scale, b["right"] * scale, b["bottom"] * scale)
                     for b in data["highlights"]]
            assert 2 <= len(boxes) <= 3, boxes  # the sentence's lines

            [image] = [b for b in plain.content if b.type == "image"]
            seen = words_on(base64.b64decode(image.data), tmp_path)  # the words on the picture, read by the test
            first, last = passage_words(seen, passage)
            assert last - first >= 10
            for index, word in enumerate(seen):
                assert _inside(word, boxes) == (first <= index <= last), (name, index, word, first, last)
            [picture] = [b for b in marked.content if b.type == "image"]
            rows = highlighted_rows(base64.b64decode(picture.data))
            assert rows and rows[-1] - rows[0] < 0.15 * data["image_height"]  # a band, well under the page

        assert log.read_text().splitlines() == at_ingest  # no Tesseract call since the ingest
