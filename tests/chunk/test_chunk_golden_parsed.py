"""Chunks and headings of the parsed eval-dev documents pinned, as ingestion makes them.

`test_chunk_golden.py` pins the chunks of the reference texts; these are the parser's own
page texts (blank lines where PDF paragraphs break, DOCX pages), the text the ingest
benchmark chunks. `data/golden_parsed.json` holds a SHA-256 per document of every chunk
span under each distinct size rule, and of its `extract_structure` entries. Rewrite only
for a deliberate change of chunking or parsing, with CASETRACK_WRITE_GOLDEN=1:

    CASETRACK_WRITE_GOLDEN=1 uv run pytest -q tests/chunk/test_chunk_golden_parsed.py
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import astuple
from pathlib import Path

from casetrack.chunk import extract_structure
from tests.chunk.test_chunk_golden import TYPES, spans_of
from tests.parse.evaldev import manifest, parsed

GOLDEN = Path(__file__).parent / "data" / "golden_parsed.json"


def digest(value: object) -> str:
    return hashlib.sha256(json.dumps(value, ensure_ascii=False).encode("utf-8")).hexdigest()


def current() -> dict[str, dict[str, str]]:
    out = {}
    for name in sorted(name for name, entry in manifest().items() if not entry["scanned"]):
        pages = list(parsed(name).pages)
        out[name] = {t.value: digest(spans_of(pages, t)) for t in TYPES}
        out[name]["structure"] = digest([astuple(entry) for entry in extract_structure(pages)])
    return out


def test_chunks_and_headings_of_parsed_documents_match_the_pinned_ones() -> None:
    actual = current()
    if os.environ.get("CASETRACK_WRITE_GOLDEN") == "1":
        GOLDEN.write_text(json.dumps(actual, indent=1) + "\n", encoding="utf-8")
    assert actual == json.loads(GOLDEN.read_text(encoding="utf-8"))
