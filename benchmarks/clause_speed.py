"""Clause tagging speed: the shipped scoring (chunk.roles.clause_model: a document's words found and hashed once,
every passage and piece summed in one gather) beside the scoring it replaced (benchmarks/clause_reference.py:
each passage and each of its pieces hashed and summed on its own), in the same run.

    uv run python benchmarks/clauses.py --speed-only [--contracts 60] [--rounds 5]
    uv run python benchmarks/clause_speed.py [--contracts 60] [--rounds 5]

CUAD contracts from `../shared/cuad-clauses`, each chunked as ingest chunks an agreement (~2,500 characters a
passage). Two ways of tagging: one passage at a time (`tag`), and a contract's passages at once (`tag_all`, as
ingest tags a document). The four (old and new, each way) take turns in every round and each keeps its best
round, as wall time and as this process's CPU time (the machine is shared: the CPU time is the steadier of the
two); the two scorings' tags are checked equal. Prints ms a passage, old / new, and the load average.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clause_reference as reference
import cuad_passages as cp

from casetrack.chunk import chunk_pages
from casetrack.chunk.roles.clause_model import ClauseModel
from casetrack.chunk.structure import extract_structure
from casetrack.domain import DocumentType
from casetrack.embed.clause_artefact import FOLDER, read_artefact
from casetrack.parse.text_pages import text_pages
from casetrack.service.ingest.entries import heading_paths


def documents(limit: int) -> list[list[str]]:
    """The passages of the first `limit` CUAD contracts (by name), chunked as ingest chunks an agreement."""
    chosen = sorted(cp.contracts())[:limit]
    return [[c.text for c in chunk_pages(text_pages(text), DocumentType.CONTRACT)] for _, text in chosen]


def heading_paths_of(limit: int) -> list[list[str]]:
    """Each passage's heading path in `documents(limit)`, as ingest records it."""
    out = []
    for _, text in sorted(cp.contracts())[:limit]:
        pages = text_pages(text)
        out.append(heading_paths(chunk_pages(pages, DocumentType.CONTRACT), extract_structure(pages)))
    return out


def _best_of(ways: dict[str, Callable[[], object]], rounds: int) -> dict[str, tuple[float, float]]:
    """Per way, its best wall and best CPU seconds over `rounds` rounds in which the ways take turns."""
    best = {name: (float("inf"), float("inf")) for name in ways}
    for _ in range(rounds):
        for name, way in ways.items():
            wall, cpu = time.perf_counter(), time.process_time()
            way()
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    return best


def speed(docs: list[list[str]], rounds: int = 5, paths: list[list[str]] | None = None) -> list[str]:
    """The table: ms a passage, old and new scoring, one passage at a time and a contract at a time (and, given
    the passages' heading `paths`, a contract at a time as ingest scores it, headings read when the model has
    them; its old column is the old scoring without them)."""
    model = ClauseModel.of(*read_artefact())
    texts = [t for doc in docs for t in doc]
    ways: dict[str, Callable[[], object]] = {
        "old one": lambda: [reference.tag_all(model, [t]) for t in texts],
        "new one": lambda: [model.tag(t) for t in texts],
        "old contract": lambda: [reference.tag_all(model, doc) for doc in docs],
        "new contract": lambda: [model.tag_all(doc) for doc in docs],
    }
    if paths is not None:
        ways["old headed"] = ways["old contract"]
        ways["new headed"] = lambda: [model.tag_all(doc, paths=p) for doc, p in zip(docs, paths, strict=True)]
    new = [tags for doc in docs for tags in model.tag_all(doc)]
    assert new == reference.tag_all(model, texts) == [model.tag(t) for t in texts], "the scorings disagree"
    load = os.getloadavg()[0]
    best = _best_of(ways, rounds)
    size = sum(p.stat().st_size for p in FOLDER.iterdir()) / 2**20
    lines = [f"clause tagging, {len(texts)} passages of {len(docs)} CUAD contracts (mean "
             f"{sum(map(len, texts)) / len(texts):,.0f} characters), best of {rounds} interleaved rounds; artefact "
             f"{size:.2f} MB; {sum(map(bool, new))} passages tagged, old and new tags equal",
             f"{'ms a passage':<28}{'old wall':>9}{'new wall':>9}{'old/new':>8}{'old CPU':>9}{'new CPU':>9}"
             f"{'old/new':>8}"]
    for label, way in (("one passage at a time", "one"), ("a contract at a time", "contract"),
                       *((("a contract, heading paths", "headed"),) if paths is not None else ())):
        old, fast = best[f"old {way}"], best[f"new {way}"]
        ms = [s / len(texts) * 1000 for s in (old[0], fast[0], old[1], fast[1])]
        lines.append(f"{label:<28}{ms[0]:>9.3f}{ms[1]:>9.3f}{ms[0] / ms[1]:>8.2f}{ms[2]:>9.3f}{ms[3]:>9.3f}"
                     f"{ms[2] / ms[3]:>8.2f}")
    lines.append(f"load average {load:.1f} before, {os.getloadavg()[0]:.1f} after (1 min; {os.cpu_count()} cores)")
    return lines


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--contracts", type=int, default=60, help="CUAD contracts to tag (first by name)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds; each way keeps its best")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_options(parser)
    args = parser.parse_args()
    print("\n".join(speed(documents(args.contracts), args.rounds, heading_paths_of(args.contracts))))


if __name__ == "__main__":
    main()
