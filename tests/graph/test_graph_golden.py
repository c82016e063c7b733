"""The extractor's output on every eval-dev document, pinned: speed work must not change a single mention.

`golden_extract.json.gz` holds `graph.extract` on each eval-dev reference text (with its structure
headings) and on all of them joined as one long document, as the code gave them before the
2026-11-21 speed work. A change that alters any mention must say why it is better and regenerate:

    CASETRACK_UPDATE_GOLDEN=1 uv run pytest -q tests/graph/test_graph_golden.py
"""

from __future__ import annotations

import gzip
import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pytest

from casetrack.chunk.structure import extract_structure
from casetrack.domain import ExtractionMethod, ParsedPage
from casetrack.graph import extract
from tests.graph.graph_evaldev import all_docs, pages_of

GOLDEN = Path(__file__).with_name("golden_extract.json.gz")
BUNDLE = "all eval-dev documents as one"


def bundle_pages() -> tuple[ParsedPage, ...]:
    """Every eval-dev page in one document, renumbered: long text, many parties, cross-page citations."""
    texts = [page.text for doc in all_docs() for page in pages_of(doc)]
    return tuple(ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(texts))


def plain_extract(pages: tuple[ParsedPage, ...]) -> dict[str, Any]:
    """The extract as JSON values (enums to their values, tuples to lists)."""
    return json.loads(json.dumps(asdict(extract(pages, extract_structure(pages)))))


def current() -> dict[str, Any]:
    out = {doc: plain_extract(pages_of(doc)) for doc in all_docs()}
    out[BUNDLE] = plain_extract(bundle_pages())
    return out


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    if os.environ.get("CASETRACK_UPDATE_GOLDEN"):
        with gzip.open(GOLDEN, "wt", encoding="utf-8") as f:
            json.dump(current(), f, ensure_ascii=False, indent=0, sort_keys=True)
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


@pytest.mark.parametrize("doc", [*all_docs(), BUNDLE])
def test_extract_equals_the_pinned_output(doc: str, golden: dict[str, Any]) -> None:
    pages = bundle_pages() if doc == BUNDLE else pages_of(doc)
    got = plain_extract(pages)
    for section, want in golden[doc].items():
        assert got[section] == want, f"{doc}: {section} changed"



def test_stored_records_are_the_extract_as_json() -> None:
    """The ingestion records (built field by field, not through asdict) hold exactly the extract's values."""
    from casetrack.service.ingest.graph_extract import build_extract

    pages = bundle_pages()
    records = build_extract(pages, extract_structure(pages), [])
    for section, want in plain_extract(pages).items():
        got = [{k: v for k, v in r._asdict().items() if k != "chunk_id"} for r in getattr(records, section)]
        assert json.loads(json.dumps(got)) == want
