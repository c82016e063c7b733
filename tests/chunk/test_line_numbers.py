"""Line numbers mean what eval-dev's labels mean: the line of the page's text, counting the blank
lines between paragraphs, as a reader of the extracted page (and the page as printed, on the
EDGAR filings, whose paragraph gaps are one empty line) counts them.

Counting only lines of text was tried (2026-11-21) and withdrawn: the Ebix governing-law clause,
labelled on line 98 of page 7, fell outside its chunk's cited "ll. 62-84"; counted with blank
lines the chunk cites "ll. 78-104". This pins the convention against the labels themselves."""

from __future__ import annotations

import json

import pytest

from casetrack.chunk import chunk_pages, infer_document_type
from casetrack.chunk.layout import PageLayout
from tests.parse.evaldev import EVAL_DEV, manifest, parsed


def _labelled_native_pdf_answers() -> list[dict]:
    queries = [json.loads(line) for line in (EVAL_DEV / "queries.jsonl").read_text().splitlines() if line.strip()]
    # Scans are left out: their ground truth reads a two-column caption column by column, OCR reads
    # it across, so their line numbers differ by design, not by counting.
    scanned = {name for name, entry in manifest().items() if entry["scanned"]}
    return [q for q in queries if q.get("page") and q["doc"].endswith(".pdf") and q["doc"] not in scanned]


@pytest.mark.parametrize("query", _labelled_native_pdf_answers(), ids=lambda q: q["id"])
def test_the_chunk_holding_a_labelled_answer_cites_a_line_range_holding_its_labelled_line(query: dict) -> None:
    document = parsed(query["doc"])
    page = document.pages[query["page"] - 1]
    opening = query["answer_text"].split("\n")[0].strip()
    offset = page.text.index(opening)
    doc_type, _ = infer_document_type(query["doc"], document.text)
    holding = [
        chunk
        for chunk in chunk_pages(document.pages, doc_type)
        if chunk.page == query["page"] and chunk.char_start <= offset < chunk.char_end
    ]
    assert holding
    assert any(chunk.line_start <= query["text_line"] <= chunk.line_end for chunk in holding), [
        (chunk.line_start, chunk.line_end) for chunk in holding
    ]


def test_blank_lines_between_paragraphs_are_counted() -> None:
    text = "CO-BRANDING AGREEMENT\n\nThis Agreement is made\nby About.com, Inc.\n\n1. Term."
    layout = PageLayout.of(text)
    assert [layout.line_at(text.index(s)) for s in ("CO-BRANDING", "This", "About.com", "1. Term")] == [1, 3, 4, 6]
    assert layout.paragraph_at(text.index("1. Term")) == 3


def test_a_line_of_only_unicode_spaces_parts_paragraphs_as_an_empty_line_does() -> None:
    """A PDF's blank line may hold a no-break or an em space: it is a blank line, and the next text a new paragraph."""
    for blank in ("", " \t", "\u00a0", "\u2003 \u00a0"):
        layout = PageLayout.of(f"First paragraph.\n{blank}\nSecond paragraph.")
        assert layout.paragraphs == (1, 1, 2)
        assert layout.line_starts == (0, 17, 18 + len(blank))
        assert layout.line_at(18 + len(blank)) == 3
