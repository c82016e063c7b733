"""Chunking throughput on the eval-dev texts, next to a naive slicer measured in the same run.

    uv run python benchmarks/chunk.py [--pages 200] [--eval-dev benchmarks/eval_dev]

The eval-dev documents (pages split on \\f; TXT/DOCX references are one long page)
are repeated until there are at least --pages pages, and each document is chunked as
the type `infer_document_type` gives it. The baseline cuts every page into fixed
2,000-character slices with no boundary logic: the floor any chunker pays.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

from casetrack.chunk import chunk_pages, infer_document_type
from casetrack.domain import DocumentType, ExtractionMethod, ParsedPage

Doc = tuple[DocumentType, list[ParsedPage]]


def load(eval_dev: Path, min_pages: int) -> list[Doc]:
    originals: list[Doc] = []
    for path in sorted((eval_dev / "text").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        pages = [ParsedPage(i + 1, t, ExtractionMethod.NATIVE) for i, t in enumerate(text.split("\f"))]
        originals.append((infer_document_type(path.name.removesuffix(".txt"), text)[0], pages))
    docs: list[Doc] = []
    while sum(len(p) for _, p in docs) < min_pages:
        docs.extend(originals)
    return docs


def naive(docs: list[Doc]) -> int:
    count = 0
    for _, pages in docs:
        for page in pages:
            count += len([page.text[i : i + 2000] for i in range(0, len(page.text), 2000)])
    return count


def legal(docs: list[Doc]) -> int:
    return sum(len(chunk_pages(pages, doc_type)) for doc_type, pages in docs)


def best_of(runs: int, fn: Callable[[list[Doc]], int], docs: list[Doc]) -> tuple[float, int]:
    best, count = float("inf"), 0
    for _ in range(runs):
        start = time.perf_counter()
        count = fn(docs)
        best = min(best, time.perf_counter() - start)
    return best, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=200)
    parser.add_argument("--eval-dev", type=Path, default=Path(__file__).resolve().parent / "eval_dev")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    docs = load(args.eval_dev, args.pages)
    pages = sum(len(p) for _, p in docs)
    megabytes = sum(len(page.text.encode("utf-8")) for _, p in docs for page in p) / 1e6
    rows = [("naive 2,000-char slices", *best_of(args.runs, naive, docs))]
    rows.append(("casetrack.chunk (legal)", *best_of(args.runs, legal, docs)))
    base = rows[0][1]
    print(f"{len(docs)} documents, {pages} pages, {megabytes:.2f} MB; best of {args.runs} runs")
    print(f"{'chunker':<26}{'chunks':>8}{'seconds':>10}{'pages/s':>11}{'MB/s':>9}{'x baseline time':>17}")
    for name, seconds, count in rows:
        print(
            f"{name:<26}{count:>8}{seconds:>10.4f}{pages / seconds:>11.0f}{megabytes / seconds:>9.2f}"
            f"{seconds / base:>17.1f}"
        )


if __name__ == "__main__":
    main()
