"""Ingestion throughput, measured against the raw extractor in the same run.

    uv run python benchmarks/ingest.py [--pages 200] [--repeat 5] [--no-ocr]

Rows (native PDF, embedding excluded so the parse/chunk/store overhead is visible):
  raw pypdfium2     get_text_range() per page: the floor
  parse             casetrack.parse.parse_file (lines, paragraphs, scanned-page detection)
  parse+chunk       + legal chunking, Bates detection, outline, document type
  parse+chunk+store + BM25 terms, the context graph and the single atomic RocksDB commit (the full
                    ingest path, no embedder); "no graph" the same with the graph extraction left out
Each row runs in one process, and again with the helper process (casetrack.helper_process: a
second core reads half of a long PDF and extracts the graph while this process chunks).
Then OCR seconds per page for the scanned eval-dev files, and the context graph's cost: the
extraction's own CPU time, and the extra ingest time it causes (store row minus no-graph row).

The rows take turns within each repetition and each keeps its best time, so a burst of
load from other jobs on a shared machine hits every row alike. The cases the store row
ingests into are created before timing: creating a case is not ingestion.
"""

from __future__ import annotations

# isort: off
import casetrack  # noqa: F401  (first, as in the server: its process settings precede numpy; blas_threads.py)
# isort: on
import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pypdfium2
from pypdf import PdfReader, PdfWriter

from casetrack import helper_process
from casetrack.chunk import chunk_pages, extract_structure, find_bates_number, infer_document_type
from casetrack.config import load_settings
from casetrack.domain import DocumentType
from casetrack.graph.records import ExtractRecord
from casetrack.parse import parse_file
from casetrack.service.app import HELPER_MODULES, CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.ingest import document as ingest_module
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer

EVAL_DOCS = Path(__file__).resolve().parent / "eval_dev" / "docs"
NATIVE = ["cuad_ebix_cobranding_agreement.pdf", "cuad_netgear_distributor_agreement.pdf",
          "cuad_lucid_distributor_agreement.pdf", "ca8_rule_28j_letter_us_v_xiang_2023.pdf",
          "ca2_docketing_notice_nfl_2017.pdf"]
SCANNED = ["scan_ca10_order_in_re_liebowitz_2021.pdf", "scan_ca7_order_fedex_ground_2017.tiff",
           "scan_cuad_ominto_reseller_agreement_p1.png"]


def build_pdf(target: Path, pages: int) -> int:
    writer = PdfWriter()
    while len(writer.pages) < pages:
        for name in NATIVE:
            for page in PdfReader(EVAL_DOCS / name).pages:
                if len(writer.pages) < pages:
                    writer.add_page(page)
    with target.open("wb") as handle:
        writer.write(handle)
    return len(writer.pages)


def raw_extract(path: Path) -> int:
    pdf = pypdfium2.PdfDocument(str(path))
    chars = 0
    for i in range(len(pdf)):
        textpage = pdf[i].get_textpage()
        chars += len(textpage.get_text_range())
    pdf.close()
    return chars


def parse_and_chunk(path: Path) -> int:
    parsed = parse_file(path)
    infer_document_type(path.name, parsed.text)
    for page in parsed.pages:
        find_bates_number(page.text)
    extract_structure(parsed.pages)
    return len(chunk_pages(parsed.pages, DocumentType.CONTRACT))


def timed(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def interleaved(rows: list[tuple[str, Callable[[], object]]], repeat: int) -> list[tuple[str, float]]:
    """Best time of each row, the rows taking turns in every repetition."""
    best = [float("inf")] * len(rows)
    for _ in range(repeat):
        for n, (_label, fn) in enumerate(rows):
            started = time.perf_counter()
            fn()
            best[n] = min(best[n], time.perf_counter() - started)
    return [(label, seconds) for (label, _), seconds in zip(rows, best, strict=True)]


class _NoGraph:
    """Stands in for the ingest's graph extraction, to measure what the graph adds to an ingest."""

    def __init__(self, *_: object) -> None:
        pass

    def records(self, _headings: object, _chunks: object) -> ExtractRecord:
        return ExtractRecord()

    def __enter__(self) -> _NoGraph:
        return self

    def __exit__(self, *_: object) -> None:
        pass


def without_graph(fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        saved, ingest_module.PendingExtract = ingest_module.PendingExtract, _NoGraph  # type: ignore[misc,assignment]
        try:
            return fn()
        finally:
            ingest_module.PendingExtract = saved  # type: ignore[misc]
    return run


def helper(on: bool, fn: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        helper_process.enable(HELPER_MODULES, on=on)
        return fn()
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-ocr", action="store_true", help="skip the OCR rows (they take ~10 s)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "bundle.pdf"
        pages = build_pdf(pdf, args.pages)
        app = CaseTrack.open(load_settings(Path(tmp) / "data"))
        app.cases.limits = licensing.UNLIMITED  # one fresh case per run, whatever the licence tier
        no_embedding = Ingestor(app.settings, app.cases, Indexer(None))
        cases = iter([app.create_case(f"bench {n}") for n in range(4 * args.repeat + 1)])
        no_embedding.ingest(next(cases), IngestRequest(str(pdf)))  # warm-up: imports, first RocksDB open
        if not helper_process.wait_ready(60):
            print("The helper process did not start: the 'helper' rows ran in one process.", file=sys.stderr)

        def ingest() -> object:
            return no_embedding.ingest(next(cases), IngestRequest(str(pdf)))

        rows = interleaved([
            ("raw pypdfium2 (floor)", lambda: raw_extract(pdf)),
            ("parse", helper(False, lambda: parse_file(pdf))),
            ("parse+chunk", helper(False, lambda: parse_and_chunk(pdf))),
            ("parse+chunk+store", helper(False, ingest)),
            ("  the same, no graph", helper(False, without_graph(ingest))),
            ("parse", helper(True, lambda: parse_file(pdf))),
            ("parse+chunk", helper(True, lambda: parse_and_chunk(pdf))),
            ("parse+chunk+store", helper(True, ingest)),
            ("  the same, no graph", helper(True, without_graph(ingest))),
        ], args.repeat)
        helper_process.enable(HELPER_MODULES)
        floor = rows[0][1]
        print(f"Native PDF, {pages} pages (eval-dev PDFs concatenated), best of {args.repeat} interleaved runs")
        print(f"{'stage':<24}{'ms/page':>10}{'pages/s':>10}{'x floor':>10}")
        for n, (label, seconds) in enumerate(rows):
            if n in (1, 5):
                print("in one process:" if n == 1 else "with the helper process (a second core):")
            print(f"{label:<24}{seconds / pages * 1000:>10.2f}{pages / seconds:>10.0f}{seconds / floor:>10.2f}")

        print("\nOCR (Tesseract, pages OCR'd in parallel where a file has several)")
        print(f"{'file':<46}{'pages':>6}{'s/page':>9}")
        for name in [] if args.no_ocr else SCANNED:
            started = time.perf_counter()
            parsed = parse_file(EVAL_DOCS / name)
            seconds = time.perf_counter() - started
            print(f"{name:<46}{len(parsed.pages):>6}{seconds / len(parsed.pages):>9.2f}")

        from casetrack.graph import extract

        parsed = parse_file(pdf)
        headings = extract_structure(parsed.pages)
        graph_s = timed(lambda: extract(parsed.pages, headings), args.repeat)
        print("\nContext graph")
        print(f"  extraction itself (CPU, in one process): {graph_s / pages * 1000:.2f} ms/page")
        for label, chunk, store, bare in (("in one process", 2, 3, 4), ("with the helper", 6, 7, 8)):
            extra = rows[store][1] - rows[bare][1]
            print(f"  extra ingest time, {label}: {extra / pages * 1000:.2f} ms/page = "
                  f"{extra / rows[chunk][1]:.1%} of parse+chunk {label}")


if __name__ == "__main__":
    sys.exit(main())
