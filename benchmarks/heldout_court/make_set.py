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

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import build_set, converted, finish_entry, scanned_first_page, sourced_entry
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
SCAN_DPI = 170


def scan_first_page(text: str, out: Path) -> str:
    """A PNG of page 1 of the PDF LibreOffice makes from `text` (0.6 degrees, blur 0.7 px, 0.25 % speckle);
    returns that page's text."""
    image, truth = scanned_first_page(text, SCAN_DPI, 0.6, 0.7, 400, 2013)
    image.save(out, dpi=(SCAN_DPI, SCAN_DPI))
    return truth


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    text = (ROOT / "source" / f"{doc.key}.txt").read_text(encoding="utf-8")
    out = ROOT / "docs" / doc.file
    fmt = doc.file.rsplit(".", 1)[1]
    entry = sourced_entry(doc, "heldout_court")
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
    build_set(ROOT, "heldout_court", DOCS, QUERIES, "c", LABELS, build_doc, ("pdf", "png"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
