"""Builds the held-out litigation set (docs/, docs/manifest.json, text/, queries.jsonl) from source/ and spec.py.

    uv run python benchmarks/heldout_lit/make_set.py

As benchmarks/heldout_mixed/make_set.py (the shared pieces are in benchmarks/heldout_build.py):
* a PDF: LibreOffice's PDF of the source text; reference = its text layer as PDFium reads it, pages joined by "\\f";
* the scan: page 1 of such a PDF of a one-page letter, rendered at 200 dpi, turned 0.3 degrees, blurred and
  speckled (fixed seed), saved as an image-only PDF; its ground truth is that page's text layer;
* the Word file: one paragraph per line of the source (the motion's lines are its printed lines);
* the text file: the source unchanged.
Deposition transcripts keep their printed page headers and line numbers (1-25) as the filed copies print them.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import build_set, build_sourced_doc
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
SPLIT = "heldout_lit"
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
SCAN_DPI = 200


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    return build_sourced_doc(ROOT, SPLIT, doc, (SCAN_DPI, 0.3, 1320))


def main() -> int:
    build_set(ROOT, SPLIT, DOCS, QUERIES, "l", LABELS, build_doc, ("pdf",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
