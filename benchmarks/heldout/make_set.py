"""Builds the held-out set (docs/, docs/manifest.json, text/, queries.jsonl) from source/ and spec.py.

    uv run python benchmarks/heldout/make_set.py

PDFs are made by LibreOffice from the CUAD text (`soffice --headless --convert-to pdf`), and
their reference text is the PDF's own text layer as pdfium reads it, page by page, joined
with form feeds, so spans and page numbers refer to what the PDF holds. The DOCX has one
paragraph per blank-line separated block of the CUAD text; its reference text is its
paragraphs joined with newlines (as eval-dev's). TXT files are the CUAD text unchanged.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import answer_fields, converted, finish_entry, page_and_line, write_queries
from spec import CUAD_COMMIT, CUAD_LICENSE, CUAD_REPO, DOCS, QUERIES, Doc

from casetrack.search.evaluation import squeeze

ROOT = Path(__file__).resolve().parent
ELLIPSIS = " … "
LABELS = "CUAD v1 expert annotations (The Atticus Project, CC BY 4.0); query wording written for this held-out set"


def locate(ref: str, answer: str) -> list[tuple[int, int]]:
    """Reference spans of one CUAD annotation (pieces split on <omitted>; "a … b" runs from a to b)."""
    hay, offsets = squeeze(ref)
    spans = []
    at = 0
    for piece in answer.split("<omitted>"):
        first, _, last = piece.partition(ELLIPSIS)
        head, _ = squeeze(first)
        start = hay.find(head, at)
        if start < 0:
            raise ValueError(f"not found: {first[:60]!r}")
        end = start + len(head)
        if last:
            tail, _ = squeeze(last)
            found = hay.find(tail, end)
            if found < 0:
                raise ValueError(f"end not found: {last[:60]!r}")
            end = found + len(tail)
        spans.append((offsets[start], offsets[end - 1] + 1))
        at = end
    return spans


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    text = (ROOT / "source" / f"{doc.key}.txt").read_text(encoding="utf-8")
    out = ROOT / "docs" / doc.file
    fmt = doc.file.rsplit(".", 1)[1]
    entry: dict[str, object] = {"file": doc.file, "doc_type": "contract", "split": "heldout",
                                "source": {"repo": CUAD_REPO, "commit": CUAD_COMMIT, "license": CUAD_LICENSE,
                                           "path": f"data/CUAD_v1/full_contract_txt/{doc.cuad_filename}.txt"},
                                "cuad_filename": doc.cuad_filename, "format": fmt}
    made = converted(fmt, text, out, "CUAD's plain text", "CUAD's own plain-text version of the contract")
    assert made is not None, f"{doc.file}: no way to make a {fmt} file"
    ref, fields = made
    entry |= fields
    finish_entry(ROOT, doc.file, doc.title, out, ref, entry)
    return ref, entry


def main() -> int:
    for sub in ("docs", "text"):
        shutil.rmtree(ROOT / sub, ignore_errors=True)
        (ROOT / sub).mkdir()
    refs: dict[str, tuple[Doc, str, bool]] = {}
    manifest = []
    for doc in DOCS:
        ref, entry = build_doc(doc)
        refs[doc.key] = (doc, ref, entry["format"] == "pdf")
        manifest.append(entry)
    (ROOT / "docs" / "manifest.json").write_text(json.dumps({"split": "heldout", "documents": manifest}, indent=1,
                                                            ensure_ascii=False) + "\n", encoding="utf-8")
    rows: list[dict[str, object]] = []
    for n, q in enumerate(QUERIES, start=1):
        doc, ref, paginated = refs[q.doc]
        spans = [s for answer in q.answers for s in locate(ref, answer)]
        row = {"id": f"h{n:03d}", "query": q.query, "kind": q.kind, "doc": doc.file, **answer_fields(ref, spans),
               "cuad_category": q.category, "source": "cuad-annotations", "labels": LABELS,
               **page_and_line(ref, spans[0][0], paginated)}
        rows.append(row)
    write_queries(ROOT, rows, len(DOCS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
