"""Context-graph extraction cost on the eval-dev texts, next to chunking measured in the same run.

    uv run python benchmarks/graph_extract.py [--runs 5] [--eval-dev benchmarks/eval_dev]

Each document's pages (split on \\f; TXT/DOCX references are one long page) go through
`casetrack.graph.extract` with its structure headings, and through each finder alone.
Times are CPU time (process_time), best of --runs, so a busy machine inflates them less.
Per-page figures are skewed by the two single-page 28-40k-character references, so
ms per 3,000 characters (about one dense PDF page) is printed too. eyecite is imported
and warmed up before timing: its ~0.7 s import is a one-time cost per process.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from casetrack.chunk import chunk_pages, infer_document_type
from casetrack.chunk.structure import extract_structure
from casetrack.domain import ExtractionMethod as M
from casetrack.domain import ParsedPage
from casetrack.graph import extract, find_authorities, find_dates, find_entities, find_issues, find_parties

Doc = tuple[str, list[ParsedPage]]


def load(eval_dev: Path) -> list[Doc]:
    docs: list[Doc] = []
    for path in sorted((eval_dev / "text").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        pages = [ParsedPage(i + 1, t, M.NATIVE) for i, t in enumerate(text.split("\f"))]
        docs.append((path.name.removesuffix(".txt"), pages))
    return docs


def best_of(runs: int, fn: Callable[[Sequence[ParsedPage]], object], docs: list[Doc]) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        for _, pages in docs:
            fn(pages)
        best = min(best, time.process_time() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--eval-dev", type=Path, default=Path(__file__).resolve().parent / "eval_dev")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    docs = load(args.eval_dev)
    n_pages = sum(len(p) for _, p in docs)
    n_chars = sum(len(page.text) for _, p in docs for page in p)
    types = {name: infer_document_type(name, "\f".join(p.text for p in pages))[0] for name, pages in docs}
    structure = {name: extract_structure(pages) for name, pages in docs}
    by_pages = {id(pages): name for name, pages in docs}
    for _, pages in docs:  # warm up: eyecite's import and tokenizer, regex compilation
        extract(pages)

    rows: list[tuple[str, Callable[[Sequence[ParsedPage]], object]]] = [
        ("extract (all, with headings)", lambda ps: extract(ps, structure[by_pages[id(ps)]])),
        ("  find_authorities", find_authorities),
        ("  find_entities", find_entities),
        ("  find_parties", find_parties),
        ("  find_dates", find_dates),
        ("  find_issues", lambda ps: find_issues(ps, structure[by_pages[id(ps)]])),
        ("chunk_pages (for scale)", lambda ps: chunk_pages(ps, types[by_pages[id(ps)]])),
    ]
    print(f"{len(docs)} documents, {n_pages} pages, {n_chars:,} characters; best of {args.runs} runs")
    print(f"{'step':<32}{'ms total':>10}{'ms/page':>10}{'ms/3k chars':>13}")
    for name, fn in rows:
        seconds = best_of(args.runs, fn, docs)
        ms = seconds * 1000
        print(f"{name:<32}{ms:>10.1f}{ms / n_pages:>10.2f}{ms / (n_chars / 3000):>13.2f}")


if __name__ == "__main__":
    main()
