"""Builds the held-out court set (docs/, docs/manifest.json, text/, queries.jsonl) from source/ and spec.py.

    uv run python benchmarks/heldout_court/make_set.py

As benchmarks/heldout/make_set.py: PDFs are made by LibreOffice from the source text
(`soffice --headless --convert-to pdf`) and their reference text is the PDF's own text layer
as pdfium reads it, page by page, joined with form feeds. The DOCX has one paragraph per
blank-line separated block; its reference text is its paragraphs joined with newlines. TXT
files are the source text unchanged. The scan is page 1 of a PDF made the same way, rendered
at 170 dpi, turned 0.6 degrees, blurred and speckled (fixed seed); its ground truth is that
page's text layer.
"""

from __future__ import annotations

import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageFilter

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import (
    answer_fields,
    answer_span,
    converted,
    finish_entry,
    page_and_line,
    page_texts,
    pdf_from_text,
    write_queries,
)
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
SCAN_DPI = 170


def scan_first_page(text: str, out: Path) -> str:
    """A PNG of page 1 of the PDF LibreOffice makes from `text`; returns that page's text."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf_path = Path(tmp) / "page.pdf"
        pdf_from_text(text, pdf_path)
        truth = page_texts(pdf_path)[0]
        pdf = pdfium.PdfDocument(str(pdf_path))
        try:
            image = pdf[0].render(scale=SCAN_DPI / 72).to_pil().convert("L")
        finally:
            pdf.close()
    image = image.rotate(0.6, resample=Image.Resampling.BICUBIC, expand=False, fillcolor=255)
    image = image.filter(ImageFilter.GaussianBlur(0.7))
    rng = random.Random(2013)
    pixels = image.load()
    width, height = image.size
    for _ in range(width * height // 400):  # speckle: 0.25 % of pixels flipped dark or light
        x, y = rng.randrange(width), rng.randrange(height)
        pixels[x, y] = rng.choice((40, 90, 230))  # type: ignore[index]
    image.save(out, dpi=(SCAN_DPI, SCAN_DPI))
    return truth


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    text = (ROOT / "source" / f"{doc.key}.txt").read_text(encoding="utf-8")
    out = ROOT / "docs" / doc.file
    fmt = doc.file.rsplit(".", 1)[1]
    entry: dict[str, object] = {"file": doc.file, "doc_type": doc.doc_type, "split": "heldout_court",
                                "source": {"repo": doc.repo, "commit": doc.commit, "license": doc.license,
                                           "path": doc.path}, "format": fmt}
    if fmt == "png":
        ref = scan_first_page(text, out)
        entry |= {"pages": 1, "scanned": True, "text_layer": None,
                  "scan_made_by": f"page 1 of a LibreOffice PDF of the source text, rasterized at {SCAN_DPI} dpi "
                                  "with 0.6 degree skew, Gaussian blur 0.7 px and speckle",
                  "source_pages": [1], "ground_truth_text": f"text/{doc.file}.txt"}
    else:
        made = converted(fmt, text, out, "the source text", "the source text unchanged")
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
        refs[doc.key] = (doc, ref, entry["format"] in ("pdf", "png"))
        manifest.append(entry)
    (ROOT / "docs" / "manifest.json").write_text(json.dumps({"split": "heldout_court", "documents": manifest},
                                                            indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    rows: list[dict[str, object]] = []
    for n, q in enumerate(QUERIES, start=1):
        doc, ref, paginated = refs[q.doc]
        try:
            spans = [answer_span(ref, answer) for answer in q.answers]
        except ValueError as exc:
            raise SystemExit(f"c{n:03d} ({q.doc}): {exc}") from None
        row = {"id": f"c{n:03d}", "query": q.query, "kind": q.kind, "doc": doc.file, **answer_fields(ref, spans),
               "source": "hand-labeled", "labels": LABELS, **page_and_line(ref, spans[0][0], paginated)}
        rows.append(row)
    write_queries(ROOT, rows, len(DOCS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
