"""Builds the held-out transcript set (docs/, docs/manifest.json, text/, queries.jsonl) from source/ and spec.py.

    uv run python benchmarks/heldout_transcripts/make_set.py

A condensed transcript ("(condensed).pdf"): the source's transcript pages (each opening with its "Page N" line;
what comes before the first is left out) laid out four to a sheet, two columns of two panels, each panel the
page's lines as the source has them (the row numbers they open with, the unnumbered lines, the court's stamps),
in Helvetica (WinAnsi: a redaction mark "\u25a0" prints "?"); reference = the PDF's text layer as PDFium
reads it, sheets joined by "\\f". A full-page PDF: LibreOffice's PDF of the source. The text file: the source
unchanged.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from heldout_build import build_set, build_sourced_doc, page_texts
from spec import DOCS, QUERIES, Doc

ROOT = Path(__file__).resolve().parent
SPLIT = "heldout_transcripts"
LABELS = "hand-labelled for this held-out set: answer spans chosen by reading the document, query wording new"
_PAGE = re.compile(r"Page \d{1,4}")


def condensed(fmt: str, text: str, out: Path) -> tuple[str, dict[str, object]] | None:
    if fmt != "pdf" or "(condensed)" not in out.name:
        return None
    pages: list[list[str]] = []
    for line in text.splitlines():
        if _PAGE.fullmatch(line.strip()):
            pages.append([line.strip()])
        elif pages:
            pages[-1].append(line)
    _write_sheets(pages, out)
    ref = "\f".join(page_texts(out))
    return ref, {"pages": ref.count("\f") + 1, "scanned": False, "text_layer": "native", "converted": True,
                 "note": "condensed: the source's transcript pages four to a sheet (make_set.py), wording unchanged"}


def _write_sheets(pages: list[list[str]], out: Path) -> None:
    """A PDF of US Letter sheets, four panels each, Helvetica 6.5 pt (the tests' PDF writer's format)."""
    text_pdf_bytes = _pdf_writer()

    sheets = []
    for start in range(0, len(pages), 4):
        lines: list[tuple[float, float, str]] = []
        for slot, page in enumerate(pages[start:start + 4]):
            x, top = (30 if slot < 2 else 316), (770 if slot % 2 == 0 else 395)
            step = min(10.0, 360 / max(len(page), 1))
            lines += [(x, top - i * step, _cp1252(line)) for i, line in enumerate(page) if line.strip()]
        sheets.append(lines)
    out.write_bytes(text_pdf_bytes(sheets, font_size=6.5))


def _cp1252(line: str) -> str:
    """The line in the PDF's WinAnsi encoding: the filer's redaction mark "\u25a0" becomes "?"."""
    return line.encode("cp1252", "replace").decode("cp1252")


def _pdf_writer():  # type: ignore[no-untyped-def]
    """tests/badfiles.py's text_pdf_bytes, the project's minimal PDF writer (loaded by path: an installed package
    named "tests" may shadow the checkout's)."""
    spec = importlib.util.spec_from_file_location("casetrack_test_badfiles", ROOT.parents[1] / "tests" / "badfiles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module.text_pdf_bytes


def build_doc(doc: Doc) -> tuple[str, dict[str, object]]:
    return build_sourced_doc(ROOT, SPLIT, doc, (200, 0.3, 37), condensed)


def main() -> int:
    build_set(ROOT, SPLIT, DOCS, QUERIES, "t", LABELS, build_doc, ("pdf",))
    return 0


if __name__ == "__main__":
    sys.exit(main())
