"""Every chunk of every eval-dev text is located exactly, sized within bounds, and
together the chunks cover the text; every labelled answer lands in a chunk."""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import pytest

from casetrack.chunk import chunk_pages, sizes_for
from casetrack.domain import ChunkSpan, DocumentType, ExtractionMethod, ParsedPage
from tests.chunk.chunk_evaldev import EvalDoc, eval_paths, eval_queries, load_doc

TYPES = list(DocumentType)
_NATIVE = ExtractionMethod.NATIVE


def independent_numbers(text: str, offset: int) -> tuple[int, int]:
    """(paragraph, line) of the character at `offset`, counted the slow, obvious way."""
    line = text.count("\n", 0, offset) + 1
    paragraph, previous_blank = 0, True
    for number, content in enumerate(text.split("\n"), start=1):
        blank = not content.strip()
        if not blank and previous_blank:
            paragraph += 1
        previous_blank = blank
        if number == line:
            return max(paragraph, 1), line
    raise AssertionError("offset beyond text")


def check_invariants(pages: Sequence[ParsedPage], chunks: list[ChunkSpan], doc_type: DocumentType) -> None:
    sizes = sizes_for(doc_type)
    by_page = {p.number: p for p in pages}
    assert [c.sequence for c in chunks] == list(range(len(chunks)))
    for c in chunks:
        text = by_page[c.page].text
        assert text[c.char_start : c.char_end] == c.text
        assert c.text and c.text == c.text.strip(), "chunks are trimmed by moving offsets"
        assert (c.paragraph_start, c.line_start) == independent_numbers(text, c.char_start)
        assert (c.paragraph_end, c.line_end) == independent_numbers(text, c.char_end - 1)
        assert c.token_count == (len(c.text) + 3) // 4
        assert c.token_count <= sizes.max
    for page in pages:
        mine = [c for c in chunks if c.page == page.number]
        if not page.text.strip():
            assert mine == []
            continue
        assert mine, "a page with text yields a chunk"
        if len(mine) > 1:
            assert all(c.token_count >= sizes.min for c in mine)
        # Coverage: every non-space character of the page is in some chunk.
        covered = bytearray(len(page.text))
        for c in mine:
            covered[c.char_start : c.char_end] = b"\x01" * (c.char_end - c.char_start)
        assert all(covered[i] or ch.isspace() for i, ch in enumerate(page.text))
        # Order and overlap: starts and ends strictly increase; neighbours overlap by at most ~2x overlap.
        for a, b in itertools.pairwise(mine):
            assert a.char_start < b.char_start and a.char_end < b.char_end
            assert b.char_start < a.char_end or not page.text[a.char_end : b.char_start].strip()
            assert a.char_end - b.char_start <= 2 * sizes.overlap_chars


@pytest.mark.parametrize("path", eval_paths(), ids=lambda p: p.name)
@pytest.mark.parametrize("doc_type", TYPES, ids=str)
def test_every_eval_dev_chunk_is_exactly_located_and_within_bounds(path, doc_type):
    doc = load_doc(path)
    check_invariants(doc.pages, chunk_pages(doc.pages, doc_type), doc_type)


def _normalise(text: str) -> str:
    return " ".join(text.split())


def answer_location(doc: EvalDoc, query: dict, chunks: list[ChunkSpan]) -> str:
    """'contained', 'overlapping' (>= half of the labelled span in one chunk) or 'missed'."""
    page = query["page"] or 1
    on_page = [c for c in chunks if c.page == page]
    if any(_normalise(query["answer_text"]) in _normalise(c.text) for c in on_page):
        return "contained"
    base = doc.page_offset(page)
    best = 0.0
    for start, end in query["spans"]:
        if doc.text[start:end] != query["answer_text"]:
            continue
        for c in on_page:
            shared = min(base + c.char_end, end) - max(base + c.char_start, start)
            best = max(best, shared / (end - start))
    return "overlapping" if best >= 0.5 else "missed"


QUERIES = eval_queries()


@pytest.mark.parametrize("doc_type", [DocumentType.CONTRACT, DocumentType.OTHER, DocumentType.PLEADING], ids=str)
def test_every_eval_dev_answer_lands_in_a_chunk_on_its_page(doc_type):
    outcomes: dict[str, list[str]] = {"contained": [], "overlapping": [], "missed": []}
    cache: dict[str, tuple[EvalDoc, list[ChunkSpan]]] = {}
    for query in QUERIES:
        if query["doc"] not in cache:
            doc = load_doc(next(p for p in eval_paths() if p.name == f"{query['doc']}.txt"))
            cache[query["doc"]] = (doc, chunk_pages(doc.pages, doc_type))
        doc, chunks = cache[query["doc"]]
        outcomes[answer_location(doc, query, chunks)].append(query["id"])
    print({k: len(v) for k, v in outcomes.items()})
    assert len(QUERIES) == 36
    assert outcomes["missed"] == []
    # Every answer shorter than a minimum-size chunk must be whole inside one chunk.
    short = {q["id"] for q in QUERIES if len(q["answer_text"]) < sizes_for(doc_type).min_chars}
    assert short.isdisjoint(outcomes["overlapping"])


def test_whitespace_only_pages_yield_no_chunks_and_sequence_runs_across_pages():
    pages = [
        ParsedPage(1, "First page text.", method=_NATIVE),
        ParsedPage(2, " \n\n\t \n", method=_NATIVE),
        ParsedPage(3, "\n\n  Third page.  \n", method=_NATIVE),
    ]
    chunks = chunk_pages(pages, DocumentType.OTHER)
    assert [(c.sequence, c.page, c.text) for c in chunks] == [(0, 1, "First page text."), (1, 3, "Third page.")]
    third = chunks[1]
    assert (third.char_start, third.line_start, third.line_end, third.paragraph_start) == (4, 3, 3, 1)
    check_invariants(pages, chunks, DocumentType.OTHER)


def test_chunks_never_cross_pages():
    body = " ".join(f"Sentence number {i} of the page." for i in range(400))
    pages = [ParsedPage(n, body, method=_NATIVE) for n in (1, 2, 3)]
    chunks = chunk_pages(pages, DocumentType.OTHER)
    assert {c.page for c in chunks} == {1, 2, 3}
    for c in chunks:
        assert c.char_end <= len(body)
    check_invariants(pages, chunks, DocumentType.OTHER)
