"""Retrieval quality on a labelled set in the eval-dev format, through the real service.

    uv run python benchmarks/eval_retrieval.py                      # ../shared/eval-dev
    uv run python benchmarks/eval_retrieval.py --eval-dir DIR -v    # another set; list misses
    uv run python benchmarks/eval_retrieval.py --tier both          # Free and Pro rows

Every document in `DIR/docs` is ingested into a fresh case in a temporary data directory
(parse, OCR, chunk, embed with the ready embedders), then every query in
`DIR/queries.jsonl` runs through `SearchService.search` three ways in the same process:

  bm25   PipelineConfig with BM25 as the only signal (recall and ranking)
  dense  the ready dense embedders only (Free here: E7; Pro adds E8), recall and ranking
  full   the service's own pipeline configuration

Tiers: `--tier free` (default) runs as an unlicensed install. `--tier pro` and `both` ingest
under a Pro licence signed with a throwaway key made for this run (so the Pro embedders that
are ready, here E8, embed every chunk too); `both` then also searches that same case through
a Free-tier instance, which embeds the query only with the Free embedders, so Pro-only
vectors in the index never take part in its rows.

Metrics (see casetrack.search.evaluation for the exact definitions and for how chunk text
is mapped back to offsets in `DIR/text/<doc>.txt`): recall@1/5/10 and MRR@10 at
document + page level (a hit is the labelled document and either an overlap with a
labelled span or, for paginated formats, the labelled page), and LegalBench-RAG
character precision / recall @k. Then R@10 and MRR per query kind.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from nacl.signing import SigningKey

from casetrack.config import Settings, load_settings
from casetrack.domain import Case
from casetrack.search.evaluation import Label, Reference, Returned, Scores
from casetrack.search.pipeline import BM25, PipelineConfig
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "shared" / "eval-dev"  # ../shared beside the checkout
KS = (1, 5, 10)
TOP_K = 10


@dataclass(frozen=True, slots=True)
class Query:
    id: str
    text: str
    kind: str
    label: Label


def load_queries(root: Path) -> list[Query]:
    out = []
    for line in (root / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            q = json.loads(line)
            spans = tuple((int(s), int(e)) for s, e in q["spans"])
            out.append(Query(q["id"], q["query"], q["kind"], Label(q["doc"], spans, q.get("page"))))
    return out


def make_app(data_dir: Path, tier: str) -> CaseTrack:
    """A CaseTrack over `data_dir` at the given tier; Pro uses a key signed for this run only."""
    settings: Settings = load_settings(data_dir, log_level="WARNING")
    if tier == "free":  # even when CASETRACK_LICENSE_KEY is set
        return CaseTrack(replace(settings, license_key=None))
    signer = SigningKey.generate()
    key = licensing.issue(licensing.Claims("PRO", None, 1, licensing.new_serial()), bytes(signer))
    return CaseTrack(replace(settings, license_key=key), licence_public_key=bytes(signer.verify_key))


def ingest_all(app: CaseTrack, root: Path) -> tuple[Case, float]:
    """Ingest every document of the set; returns the case and the seconds it took."""
    started = time.perf_counter()
    app.create_case("eval")
    for path in sorted((root / "docs").iterdir()):
        if path.name != "manifest.json" and path.is_file():
            app.ingestor.ingest(app.active_case(), IngestRequest(str(path)))
    return app.active_case(), time.perf_counter() - started


def modes(app: CaseTrack, case: Case) -> dict[str, PipelineConfig]:
    """BM25-only, dense-only (every dense embedder the case holds) and the full pipeline. The
    two halves have no boost or rerank stage: on Pro the default E8 boost would otherwise
    blend a dense signal into the "BM25 only" row."""
    dense = tuple(sorted(app.search.index(case).dense))
    full = app.search.pipeline
    out = {"bm25": PipelineConfig(rrf_weights={BM25: 1.0}, dense_recall=(), boost_weights={}, rerank_signal="none")}
    if dense:
        out["dense"] = PipelineConfig(rrf_weights=dict.fromkeys(dense, 1.0), dense_recall=dense, boost_weights={},
                                      rerank_signal="none")
    out["full"] = full
    return out


def returned(hits: Sequence[object], refs: Mapping[str, Reference]) -> list[Returned]:
    out = []
    for hit in hits:
        chunk = hit.chunk  # type: ignore[attr-defined]
        name = chunk.provenance.document_name
        ref = refs.get(name)
        out.append(Returned(name, chunk.span.page, ref.locate(chunk.text, chunk.span.page) if ref else None))
    return out


def evaluate(app: CaseTrack, case: Case, queries: Sequence[Query], refs: Mapping[str, Reference],
             config: PipelineConfig) -> tuple[Scores, dict[str, Scores], list[float], dict[str, int | None], int, int]:
    overall = Scores(KS)
    by_kind: dict[str, Scores] = {}
    latencies: list[float] = []
    ranks: dict[str, int | None] = {}
    located = total = 0
    for q in queries:
        started = time.perf_counter()
        response = app.search.search(case, q.text, top_k=TOP_K, min_score=0.0, context_chars=0, pipeline=config)
        latencies.append((time.perf_counter() - started) * 1000)
        results = returned(response.hits, refs)
        located += sum(r.span is not None for r in results)
        total += len(results)
        ranks[q.id] = overall.add(results, q.label)
        by_kind.setdefault(q.kind, Scores(KS)).add(results, q.label)
    return overall, by_kind, latencies, ranks, located, total


def run_tier(app: CaseTrack, case: Case, queries: Sequence[Query], refs: Mapping[str, Reference],
             verbose: bool) -> dict[str, dict[str, object]]:
    """Print the three modes' rows, the per-kind table and (verbose) per-query ranks."""
    print(f"tier {app.tier.value}: embedders ready: {', '.join(app.pool.available()) or 'none'}; "
          f"full pipeline: {dict(app.search.pipeline.rrf_weights)}, boost {dict(app.search.pipeline.boost_weights)}")
    results: dict[str, dict[str, object]] = {}
    kinds: dict[str, dict[str, Scores]] = {}
    header = (f"{'mode':<6} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} "
              + " ".join(f"{f'cP@{k}':>6} {f'cR@{k}':>6}" for k in KS) + f" {'ms p50':>7} {'located':>8}")
    print(header)
    print("-" * len(header))
    for name, config in modes(app, case).items():
        app.search.search(case, "warm up", top_k=1, pipeline=config)
        scores, by_kind, lat, ranks, located, total = evaluate(app, case, queries, refs, config)
        kinds[name] = by_kind
        row: dict[str, object] = {f"R@{k}": scores.recall_at(k) for k in KS}
        row["MRR"] = scores.mrr()
        row |= {f"cP@{k}": scores.char_precision(k) for k in KS} | {f"cR@{k}": scores.char_recall(k) for k in KS}
        row |= {"ms_p50": statistics.median(lat), "ranks": ranks}
        results[name] = row
        print(f"{name:<6} {row['R@1']:6.3f} {row['R@5']:6.3f} {row['R@10']:6.3f} {row['MRR']:6.3f} "
              + " ".join(f"{scores.char_precision(k):6.3f} {scores.char_recall(k):6.3f}" for k in KS)
              + f" {statistics.median(lat):7.1f} {located:>4}/{total:<3}")
    print("\nby kind: R@10 / MRR")
    names = list(kinds)
    all_kinds = sorted({k for by in kinds.values() for k in by})
    print(f"{'kind':<10} {'n':>3} " + " ".join(f"{n:>13}" for n in names))
    for kind in all_kinds:
        cells = []
        for n in names:
            s = kinds[n].get(kind)
            cells.append(f"{s.recall_at(10):.3f} / {s.mrr():.3f}" if s else "-")
        count = len(next(by[kind] for by in kinds.values() if kind in by))
        print(f"{kind:<10} {count:>3} " + " ".join(f"{c:>13}" for c in cells))
    if verbose:
        print("\nfirst-hit rank per query (- = not in the top 10)")
        for q in queries:
            line = " ".join(f"{results[n]['ranks'][q.id] or '-'!s:>5}" for n in names)  # type: ignore[index]
            print(f"{q.id} {q.kind:<9} {line}  {q.text[:70]}")
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--eval-dir", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--tier", choices=("free", "pro", "both"), default="free",
                        help="licence tier to search as (see above); default free")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each query's first-hit rank per mode")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    args = parser.parse_args(argv)
    root: Path = args.eval_dir
    queries = load_queries(root)
    refs = {p.name[: -len(".txt")]: Reference.of(p.read_text(encoding="utf-8")) for p in (root / "text").glob("*.txt")}
    with tempfile.TemporaryDirectory(prefix="casetrack-eval-") as tmp:
        ingesting = make_app(Path(tmp), "free" if args.tier == "free" else "pro")
        case, ingest_s = ingest_all(ingesting, root)
        index = ingesting.search.index(case)
        print(f"eval set: {root}  ({len(queries)} queries, {len(index.chunks_of)} documents, "
              f"{index.chunk_count} chunks, ingested in {ingest_s:.1f} s as {ingesting.tier.value})")
        apps = [ingesting] if args.tier != "both" else [make_app(Path(tmp), "free"), ingesting]
        results: dict[str, dict[str, dict[str, object]]] = {}
        for app in apps:
            print()
            results[app.tier.value] = run_tier(app, case, queries, refs, args.verbose)
        if args.json:
            args.json.write_text(json.dumps(results, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
