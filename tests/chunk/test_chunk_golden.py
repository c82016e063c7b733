"""Chunk spans pinned: speed work on the chunker must not move a single chunk.

`data/golden_spans.json` holds every chunk (page, offsets, paragraph and line range,
token count) of every eval-dev reference text under each distinct size rule, and of
a few hundred generated pages full of the things the chunker is careful about
(citations, section references, defined terms, clause numbers, odd whitespace). It was
written by the chunker before its regexes and loops were made faster. Change it only
for a deliberate change of chunking, by running this test with CASETRACK_WRITE_GOLDEN=1:

    CASETRACK_WRITE_GOLDEN=1 uv run pytest -q tests/chunk/test_chunk_golden.py
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

from casetrack.chunk import chunk_pages
from casetrack.domain import DocumentType, ExtractionMethod, ParsedPage
from tests.chunk.chunk_evaldev import eval_paths, load_doc

GOLDEN = Path(__file__).parent / "data" / "golden_spans.json"
# One document type per distinct size rule (the others share DEFAULT_SIZES with OTHER).
TYPES = [DocumentType.OTHER, DocumentType.CONTRACT, DocumentType.DEPOSITION, DocumentType.PLEADING]

_FRAGMENTS = [
    "The Company shall pay", "Miranda v. Arizona, 384 U.S. 436 (1966).", "42 U.S.C. § 1983", "Section 8.1",
    "Fed. R. Civ. P. 12(b)(6)", "(the \u201cAgreement\u201d)", "\"Confidential Information\" means",
    "1.2 Compensation.",
    "ARTICLE V", "WHEREAS,", "United States v. Qin, No. 21-1832, 2023 WL 128600 (2d Cir. 2023)", "e.g.", "Inc.",
    "\u00a7 4.2(a)", "Q. Did you", "A. Yes.", "(a)", "(iv)", "IV.", "GOVERNING LAW", "17 C.F.R. \u00a7 240.10b-5",
    "$1,500,000.00", "No.", "Exhibit A", "; and", ":", ".", "word", "term", "of", "the", "Licensee", "2.", "13.2",
    "x" * 120, "\u201cquoted\u201d", "it.\u201d", "Id.", "Sec. 4", "\u00b6 12", "Rule 28(j)", "F. Supp. 2d",
]
_SEPARATORS = [" ", " ", " ", " ", "  ", "\n", "\n", "\n\n", "\n \n", "\t", " \u00a0", "\n\n\n"]


def generated_pages(count: int = 300, seed: int = 20261121) -> list[ParsedPage]:
    rng = random.Random(seed)
    pages = []
    for number in range(1, count + 1):
        parts = []
        for _ in range(rng.randint(1, 900)):
            parts.append(rng.choice(_FRAGMENTS))
            parts.append(rng.choice(_SEPARATORS))
        pages.append(ParsedPage(number, "".join(parts), ExtractionMethod.NATIVE))
    return pages


def spans_of(pages: list[ParsedPage], doc_type: DocumentType) -> list[list[int]]:
    return [
        [c.page, c.char_start, c.char_end, c.paragraph_start, c.paragraph_end, c.line_start, c.line_end, c.token_count]
        for c in chunk_pages(pages, doc_type)
    ]


def current() -> dict[str, dict[str, list[list[int]]]]:
    docs = {path.name: list(load_doc(path).pages) for path in eval_paths()}
    docs["generated"] = generated_pages()
    return {name: {t.value: spans_of(pages, t) for t in TYPES} for name, pages in docs.items()}


def test_chunk_spans_match_the_pinned_spans_exactly() -> None:
    actual = current()
    if os.environ.get("CASETRACK_WRITE_GOLDEN") == "1":
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(actual, separators=(",", ":")) + "\n", encoding="utf-8")
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert sorted(actual) == sorted(expected)
    for name, by_type in expected.items():
        for doc_type, spans in by_type.items():
            assert actual[name][doc_type] == spans, f"{name} as {doc_type}"

