"""The context graph of a large case: how long the first graph call after a change takes.

    uv run python benchmarks/case_graph.py [--documents 1000] [--runs 3]

Fills a real case (RocksDB on disk) with --documents copies of the eval-dev reference texts
(each copy made unique, so none is a duplicate), ingested through the real service without
embeddings. Then, best of --runs (CPU time, so load from other jobs inflates it less):
  load + build   GraphService.graph after the cache is dropped: every extract read and merged
  case map       render.graph.case_map and its structured result on the built graph
  timeline       get_case_timeline's work: the first 500 events located in their chunks, rendered
and the resident memory the built graph adds. The graph is rebuilt at the first graph call after
each ingest or delete, so "load + build" is what a user waits for then.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import psutil

from casetrack.config import load_settings
from casetrack.mcp.outputs_graph import CaseMap, Timeline
from casetrack.render import graph as render
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.graph.queries import Timeline as Found
from casetrack.service.ingest.document import Ingestor, IngestRequest
from casetrack.service.ingest.entries import Indexer

EVAL_TEXT = Path(__file__).resolve().parent / "eval_dev" / "text"


def best_cpu(fn: Callable[[], object], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    sources = sorted(EVAL_TEXT.glob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        app = CaseTrack.open(load_settings(Path(tmp) / "data"))
        app.cases.limits = licensing.UNLIMITED
        ingestor = Ingestor(app.settings, app.cases, Indexer(None))
        ingestor.limits = licensing.UNLIMITED
        case = app.create_case("Large case")
        folder = Path(tmp) / "docs"
        folder.mkdir()
        started = time.perf_counter()
        pages = 0
        for n in range(args.documents):
            source = sources[n % len(sources)]
            copy = folder / f"{n:05d}_{source.name}"
            copy.write_text(source.read_text(encoding="utf-8") + f"\n\nCopy {n}.\n", encoding="utf-8")
            pages += ingestor.ingest(app.cases.get(case.id), IngestRequest(str(copy))).document.page_count
        print(f"Ingested {args.documents} documents ({pages} pages, no embeddings) in "
              f"{time.perf_counter() - started:.0f} s")

        case = app.cases.get(case.id)
        process = psutil.Process()
        before = process.memory_info().rss

        def cold() -> object:
            app.graph.forget(case.id)
            return app.graph.graph(case)

        build_s = best_cpu(cold, args.runs)
        graph = app.graph.graph(case)
        grown = (process.memory_info().rss - before) / 1e6
        mentions = sum(len(n.mentions) for d in (graph.entities, graph.authorities, graph.parties, graph.issues)
                       for n in d.values()) + len(graph.events)
        # as get_case_map does it: the text and the structured result
        map_s = best_cpu(lambda: (render.case_map(case, graph, {}), CaseMap.of(case, graph, {})), args.runs)
        events = graph.events_between(None, None)

        def timeline() -> object:  # as get_case_timeline does it: the first 500 events with their passages
            details = app.graph_reader.locate(case, [e.mention for e in events[:500]])
            return (render.timeline(case.name, events, details, None, None),
                    Timeline.of(Found(case, events, details, None, None)))

        timeline_s = best_cpu(timeline, args.runs)
        print(f"{args.documents} documents: {mentions:,} mentions, {len(graph.events):,} events; "
              f"graph adds ~{grown:.0f} MB RSS")
        print(f"{'step':<16}{'ms (CPU)':>10}")
        for label, seconds in (("load + build", build_s), ("case map", map_s), ("timeline", timeline_s)):
            print(f"{label:<16}{seconds * 1000:>10.0f}")


if __name__ == "__main__":
    main()
