"""PDF parsing speed next to raw text extraction in the same run, and OCR speed by worker count.

    uv run python benchmarks/parse_pdf.py [--pages 200] [--scan-pages 6] [--eval-dev benchmarks/eval_dev]

Native: the eval-dev PDFs with a text layer are concatenated (pypdf) until there are at
least --pages pages. Baselines: PDFium `get_text_range` per page (the floor parse_file
builds on), pypdf `extract_text`, and pdfplumber `extract_text` (on the first 28 pages
only; it is ~30x slower). Each native timing is the best of 5 interleaved rounds.
OCR: the scanned eval-dev PDF's page repeated --scan-pages times, parsed with 1 and 2
Tesseract workers. Timings on a shared machine vary; compare rows of the same run.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pdfplumber
import pypdfium2 as pdfium
from pypdf import PdfReader, PdfWriter

from casetrack.parse import ParseOptions, ocr_status, parse_file


def concatenate(sources: list[Path], min_pages: int, target: Path) -> int:
    writer = PdfWriter()
    while len(writer.pages) < min_pages:
        for source in sources:
            writer.append(PdfReader(source))
    writer.write(target)
    return len(writer.pages)


def pdfium_text(path: Path, limit: int | None = None) -> int:
    document = pdfium.PdfDocument(path)
    count = 0
    for index in range(min(len(document), limit or len(document))):
        page = document[index]
        textpage = page.get_textpage()
        count += len(textpage.get_text_range())
        textpage.close()
        page.close()
    document.close()
    return count


def pypdf_text(path: Path, limit: int | None = None) -> int:
    pages = PdfReader(path).pages
    return sum(len(pages[index].extract_text() or "") for index in range(min(len(pages), limit or len(pages))))


def pdfplumber_text(path: Path, limit: int | None = None) -> int:
    with pdfplumber.open(path) as document:
        pages = document.pages[: limit or len(document.pages)]
        return sum(len(page.extract_text() or "") for page in pages)


def best_of_interleaved(rounds: int, actions: dict[str, Callable[[], object]]) -> dict[str, float]:
    """Best time of each action over `rounds` rounds, running the actions in turn within a
    round, so load from other processes on a shared machine hits them alike."""
    best = dict.fromkeys(actions, float("inf"))
    for _ in range(rounds):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--scan-pages", type=int, default=6)
    parser.add_argument("--eval-dev", type=Path, default=Path(__file__).resolve().parent / "eval_dev")
    args = parser.parse_args()
    manifest = json.loads((args.eval_dev / "docs" / "manifest.json").read_text())["documents"]
    native = [args.eval_dev / "docs" / e["file"] for e in manifest if e["format"] == "pdf" and not e["scanned"]]
    scanned = [args.eval_dev / "docs" / e["file"] for e in manifest if e["format"] == "pdf" and e["scanned"]]

    with tempfile.TemporaryDirectory() as scratch:
        big = Path(scratch) / "native.pdf"
        pages = concatenate(sorted(native), args.pages, big)
        sample = 28
        best = best_of_interleaved(
            5,
            {
                "PDFium get_text_range (raw floor)": lambda: pdfium_text(big),
                "pypdf extract_text": lambda: pypdf_text(big),
                "casetrack parse_file": lambda: parse_file(big),
            },
        )
        plumber = best_of_interleaved(1, {"pdfplumber extract_text": lambda: pdfplumber_text(big, sample)})
        rows = [(name, pages, seconds) for name, seconds in best.items()]
        rows.insert(2, ("pdfplumber extract_text", sample, plumber["pdfplumber extract_text"]))
        print(f"Native PDF: {pages} pages from {len(native)} eval-dev PDFs\n")
        print(f"{'extractor':40} {'pages':>6} {'ms/page':>9}")
        for name, count, seconds in rows:
            print(f"{name:40} {count:>6} {1000 * seconds / count:>9.2f}")
        floor = rows[0][2] / rows[0][1]
        ours = rows[-1][2] / rows[-1][1]
        print(f"\nparse_file / raw floor: {ours / floor:.2f}x")

        status = ocr_status()
        if not status.available or not scanned:
            print(f"\nOCR skipped: {status.detail}")
            return
        scan = Path(scratch) / "scan.pdf"
        scan_pages = concatenate(scanned[:1], args.scan_pages, scan)
        print(f"\nOCR ({status.detail}): {scan_pages} scanned pages\n")
        print(f"{'workers':>7} {'s/page':>8} {'mean confidence':>16}")
        for workers in (1, 2):
            start = time.perf_counter()
            document = parse_file(scan, ParseOptions(ocr_workers=workers))
            seconds = time.perf_counter() - start
            confidences = [page.ocr_confidence for page in document.pages if page.ocr_confidence is not None]
            mean = sum(confidences) / max(len(confidences), 1)
            print(f"{workers:>7} {seconds / scan_pages:>8.2f} {mean:>16.1f}")


if __name__ == "__main__":
    main()
