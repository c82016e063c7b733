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

import docx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import build_set, converted, finish_entry, scanned_first_page
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
SPLIT = "heldout_lit"
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
SCAN_DPI = 200


def scanned_pdf(text: str, out: Path) -> str:
    """An image-only PDF of page 1 of the PDF LibreOffice makes from `text` (0.3 degrees, blur 0.6 px, 0.2 %
    speckle); returns that page's text."""
    image, truth = scanned_first_page(text, SCAN_DPI, 0.3, 0.6, 500, 1320)
    image.save(out, "PDF", resolution=SCAN_DPI)
    return truth


def docx_from_lines(text: str, out: Path) -> str:
    """A DOCX with one paragraph per non-empty line of `text`; returns its paragraphs' text."""
    document = docx.Document()
    for line in text.splitlines():
        if line.strip():
            document.add_paragraph(line.strip())
    document.save(str(out))
    return "\n".join(p.text for p in docx.Document(str(out)).paragraphs)


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    text = (ROOT / "source" / f"{doc.key}.txt").read_text(encoding="utf-8")
    out = ROOT / "docs" / doc.file
    fmt = doc.file.rsplit(".", 1)[1]
    entry: dict[str, object] = {"file": doc.file, "doc_type": doc.doc_type, "split": SPLIT,
                                "source": {"repo": doc.repo, "commit": doc.commit, "license": doc.license,
                                           "path": doc.path}, "format": fmt}
    if doc.file.endswith("scan.pdf"):
        ref = scanned_pdf(text, out)
        entry |= {"pages": 1, "scanned": True, "text_layer": None,
                  "scan_made_by": f"page 1 of a LibreOffice PDF of the source text, rasterized at {SCAN_DPI} dpi "
                                  "with 0.3 degree skew, Gaussian blur 0.6 px and speckle, saved as an image-only PDF",
                  "ground_truth_text": f"text/{doc.file}.txt"}
    elif fmt == "docx":
        ref = docx_from_lines(text, out)
        entry |= {"pages": None, "scanned": False, "converted": True,
                  "note": "Word file made from the source text, one paragraph per line (wording unchanged)"}
    else:
        made = converted(fmt, text, out, "the source text", "the source text unchanged")
        assert made is not None, f"{doc.file}: no way to make a {fmt} file"
        ref, fields = made
        entry |= fields
    finish_entry(ROOT, doc.file, doc.title, out, ref, entry)
    return ref, entry


def main() -> int:
    build_set(ROOT, SPLIT, DOCS, QUERIES, "l", LABELS, build_doc, ("pdf",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
