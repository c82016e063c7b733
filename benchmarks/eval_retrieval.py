"""Retrieval quality on every labelled set in the eval-dev format, through the real service, in one run.

    uv run python benchmarks/eval_retrieval.py                          # every set below, Free tier
    uv run python benchmarks/eval_retrieval.py --sets heldout_court -v  # one set; list each query's rank
    uv run python benchmarks/eval_retrieval.py --eval-dir DIR           # another set in the same layout
    uv run python benchmarks/eval_retrieval.py --tier both              # Free and Pro rows
    uv run python benchmarks/eval_retrieval.py --embed-cache /tmp/e7    # reuse chunk vectors between runs

Sets (`SETS`): eval-dev (benchmarks/eval_dev), heldout (CUAD contracts), heldout_court (court and
agency documents), heldout_mixed (statutes, a slip opinion, a BIA decision, court e-mails), heldout_email
(business e-mail threads, replies and forwards), heldout_lit (a complaint, deposition transcripts, a motion and a
brief of one federal case), heldout_transcripts (depositions condensed and full-page, a hearing; issue 37). Each
set's documents are ingested into a fresh case in a temporary data directory (parse, OCR, chunk, embed with the
ready embedders); then every query runs through `SearchService.search` (top 10, no score floor: what
`search_case(top_k=10)` returns) five ways in the same process:

  bm25        PipelineConfig with BM25 as the only signal (recall and ranking)
  dense       the ready dense embedders only (Free here: E7; Pro adds E8), recall and ranking
  full        the service's own pipeline configuration
  diy-bm25    the issue's do-it-yourself baseline (benchmarks/diy_baseline.py): bm25s over 2,000-character
              windows of the same extracted text
  diy-hybrid  the same, fused by RRF with all-MiniLM-L6-v2 (E7) over the same windows

Tiers: `--tier free` (default) runs as an unlicensed install. `--tier pro` and `both` ingest under a Pro
licence signed with a throwaway key made for this run; `both` also searches that case through a Free
instance. `--embed-cache DIR` keeps each text's vectors on disk (keyed by model and text hash), so a
re-run embeds only new text: the same vectors, minutes saved.

Metrics (casetrack.search.evaluation): recall@1/5/10 and MRR@10 at document + page level and
LegalBench-RAG character precision / recall @k; then R@10 / MRR per query kind; then one summary table
of every set and mode. With 36-65 queries a set, one query moving from rank 1 to 2 is 0.008-0.014 MRR.
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from diy_baseline import DiyIndex, windows
from embed_cache import cache_embeddings

from casetrack.config import Settings, load_settings
from casetrack.domain import Case
from casetrack.search.evaluation import Label, Reference, Returned, Scores
from casetrack.search.pipeline import BM25, PipelineConfig
from casetrack.service.app import CaseTrack
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest

HERE = Path(__file__).resolve().parent
SETS = {"eval-dev": HERE / "eval_dev",
        "heldout": HERE / "heldout",
        "heldout_court": HERE / "heldout_court", "heldout_mixed": HERE / "heldout_mixed",
        "heldout_email": HERE / "heldout_email", "heldout_lit": HERE / "heldout_lit",
        "heldout_transcripts": HERE / "heldout_transcripts"}
KS = (1, 5, 10)
TOP_K = 10
DIY_MODES = ("diy-bm25", "diy-hybrid")


@dataclass(frozen=True, slots=True)
class Query:
    id: str
    text: str
    kind: str
    label: Label


@dataclass
class Outcome:
    """One mode's scores on one set."""

    overall: Scores
    by_kind: dict[str, Scores]
    ranks: dict[str, int | None]
    latencies: list[float]


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
        return CaseTrack.open(replace(settings, license_key=None))
    signer = SigningKey.generate()
    key = licensing.issue(licensing.Claims("PRO", None, 1, licensing.new_serial()), bytes(signer))
    return CaseTrack.open(replace(settings, license_key=key), licence_public_key=bytes(signer.verify_key))


def ingest_all(app: CaseTrack, root: Path) -> tuple[Case, float]:
    """Ingest every document of the set; returns the case and the seconds it took."""
    started = time.perf_counter()
    app.create_case(root.name)
    for path in sorted((root / "docs").iterdir()):
        if path.name != "manifest.json" and path.is_file():
            app.ingestor.ingest(app.active_case(), IngestRequest(str(path)))
    return app.active_case(), time.perf_counter() - started


def modes(app: CaseTrack, case: Case, variants: Sequence[str] = ()) -> dict[str, PipelineConfig]:
    """BM25-only, dense-only (every dense embedder the case holds) and the full pipeline. The
    two halves have no boost, rerank, prior or reference stage: on Pro the default E8 boost would
    otherwise blend a dense signal into the "BM25 only" row, and the role prior is E7's."""
    dense = tuple(sorted(app.search.index(case).dense))
    alone = {"boost_weights": {}, "rerank_signal": "none", "name_weight": 0.0, "role_weight": 0.0,
             "references_first": False}  # one signal, nothing beside it
    alone = {k: v for k, v in alone.items() if k in PipelineConfig.__dataclass_fields__}  # an older version's too
    out = {"bm25": PipelineConfig(rrf_weights={BM25: 1.0}, dense_recall=(), **alone)}  # type: ignore[arg-type]
    if dense:
        out["dense"] = PipelineConfig(rrf_weights=dict.fromkeys(dense, 1.0), dense_recall=dense,
                                      **alone)  # type: ignore[arg-type]
    out["full"] = app.search.pipeline
    for variant in variants:  # the full pipeline with other rank-fusion weights, judged in the same run
        weights = {name: float(value) for name, _, value in (pair.partition("=") for pair in variant.split(","))}
        out[f"full[{variant}]"] = replace(app.search.pipeline, rrf_weights={**app.search.pipeline.rrf_weights,
                                                                            **weights})
    return out


_LOCATED: dict[tuple[int, str, int | None], tuple[int, int] | None] = {}


def locate(ref: Reference, text: str, page: int | None = None) -> tuple[int, int] | None:
    """`ref.locate`, remembered: the same chunks come back for many queries and modes, and a chunk whose text
    differs from the reference (OCR, an e-mail's header lines) is aligned by difflib, which takes seconds."""
    key = (id(ref), text, page)
    if key not in _LOCATED:
        _LOCATED[key] = ref.locate(text, page)
    return _LOCATED[key]


def score(queries: Sequence[Query], ranked: Mapping[str, list[Returned]], latencies: list[float]) -> Outcome:
    outcome = Outcome(Scores(KS), {}, {}, latencies)
    for q in queries:
        results = ranked[q.id]
        outcome.ranks[q.id] = outcome.overall.add(results, q.label)
        outcome.by_kind.setdefault(q.kind, Scores(KS)).add(results, q.label)
    return outcome


def run_service(app: CaseTrack, case: Case, queries: Sequence[Query], refs: Mapping[str, Reference],
                config: PipelineConfig) -> Outcome:
    app.search.search(case, "warm up", top_k=1, pipeline=config)
    ranked: dict[str, list[Returned]] = {}
    latencies = []
    for q in queries:
        started = time.perf_counter()
        response = app.search.search(case, q.text, top_k=TOP_K, min_score=0.0, context_chars=0, pipeline=config)
        latencies.append((time.perf_counter() - started) * 1000)
        ranked[q.id] = []
        for hit in response.hits:
            chunk = hit.chunk
            ref = refs.get(chunk.provenance.document_name)
            span = locate(ref, chunk.text, chunk.span.page) if ref else None
            ranked[q.id].append(Returned(chunk.provenance.document_name, chunk.span.page, span))
    return score(queries, ranked, latencies)


def run_diy(app: CaseTrack, case: Case, queries: Sequence[Query], refs: Mapping[str, Reference]) -> dict[str, Outcome]:
    """The DIY baseline's two rows (see benchmarks/diy_baseline.py), on the text this case holds."""
    e7 = app.pool.get("E7") if "E7" in app.pool.available() else None
    index = DiyIndex(windows(app, case), e7.embed_documents if e7 else None, e7.embed_query if e7 else None)
    out = {}
    for mode, rank in (("diy-bm25", index.bm25), ("diy-hybrid", index.hybrid)):
        ranked: dict[str, list[Returned]] = {}
        latencies = []
        for q in queries:
            started = time.perf_counter()
            found = [index.items[i] for i in rank(q.text, TOP_K)]
            latencies.append((time.perf_counter() - started) * 1000)
            ranked[q.id] = [Returned(w.doc, w.page, locate(refs[w.doc], w.text) if w.doc in refs else None)
                            for w in found]
        out[mode] = score(queries, ranked, latencies)
    return out


def print_set(name: str, outcomes: Mapping[str, Outcome], queries: Sequence[Query], verbose: bool) -> None:
    header = (f"{'mode':<10} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6} "
              + " ".join(f"{f'cP@{k}':>6} {f'cR@{k}':>6}" for k in KS) + f" {'ms p50':>7}")
    print(header)
    print("-" * len(header))
    for mode, o in outcomes.items():
        s = o.overall
        print(f"{mode:<10} {s.recall_at(1):6.3f} {s.recall_at(5):6.3f} {s.recall_at(10):6.3f} {s.mrr():6.3f} "
              + " ".join(f"{s.char_precision(k):6.3f} {s.char_recall(k):6.3f}" for k in KS)
              + f" {statistics.median(o.latencies):7.1f}")
    print(f"\n{name} by kind: R@10 / MRR")
    kinds = sorted({k for o in outcomes.values() for k in o.by_kind})
    print(f"{'kind':<10} {'n':>3} " + " ".join(f"{m:>13}" for m in outcomes))
    for kind in kinds:
        cells = [f"{o.by_kind[kind].recall_at(10):.3f} / {o.by_kind[kind].mrr():.3f}" if kind in o.by_kind else "-"
                 for o in outcomes.values()]
        count = len(next(o.by_kind[kind] for o in outcomes.values() if kind in o.by_kind))
        print(f"{kind:<10} {count:>3} " + " ".join(f"{c:>13}" for c in cells))
    if verbose:
        print("\nfirst-hit rank per query (- = not in the top 10)")
        print(f"{'':13}" + "".join(f"{m[:5]:>6}" for m in outcomes))
        for q in queries:
            line = "".join(f"{o.ranks[q.id] or '-'!s:>6}" for o in outcomes.values())
            print(f"{q.id} {q.kind:<8}{line}  {q.text[:70]}")


def run_set(root: Path, args: argparse.Namespace, tmp: Path) -> dict[str, dict[str, Outcome]]:
    """Ingest one set, run every mode under each tier asked for; print its tables."""
    queries = load_queries(root)
    refs = {p.name[: -len(".txt")]: Reference.of(p.read_text(encoding="utf-8")) for p in (root / "text").glob("*.txt")}
    ingesting = make_app(tmp, "free" if args.tier == "free" else "pro")
    case, ingest_s = ingest_all(ingesting, root)
    index = ingesting.search.index(case)
    print(f"\n=== {root.name}: {len(queries)} queries, {index.document_count} documents, {index.chunk_count} "
          f"chunks, ingested in {ingest_s:.1f} s as {ingesting.tier.value}")
    apps = [ingesting] if args.tier != "both" else [make_app(tmp, "free"), ingesting]
    results: dict[str, dict[str, Outcome]] = {}
    for app in apps:
        print(f"\ntier {app.tier.value}: embedders ready: {', '.join(app.pool.available()) or 'none'}; "
              f"full pipeline: {dict(app.search.pipeline.rrf_weights)}")
        outcomes = {mode: run_service(app, case, queries, refs, config)
                    for mode, config in modes(app, case, args.weights).items()}
        if not args.no_diy:
            outcomes |= run_diy(app, case, queries, refs)
        print_set(root.name, outcomes, queries, args.verbose)
        results[app.tier.value] = outcomes
    return results


def print_summary(all_results: Mapping[str, Mapping[str, Mapping[str, Outcome]]]) -> None:
    """One table: every set and mode, R@1/R@5/R@10/MRR, then the full pipeline's R@10 / MRR by kind."""
    print("\n=== summary (top 10; R@k and MRR@10 at document + page level)")
    print(f"{'set':<15} {'tier':<5} {'mode':<10} {'n':>3} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR':>6}")
    kinds: set[str] = set()
    for name, tiers in all_results.items():
        for tier, outcomes in tiers.items():
            for mode, o in outcomes.items():
                s = o.overall
                kinds |= set(o.by_kind)
                print(f"{name:<15} {tier:<5} {mode:<10} {len(s):>3} {s.recall_at(1):6.3f} {s.recall_at(5):6.3f} "
                      f"{s.recall_at(10):6.3f} {s.mrr():6.3f}")
    print("\nfull pipeline by kind, R@10 / MRR")
    print(f"{'set':<15} {'tier':<5} " + " ".join(f"{k:>13}" for k in sorted(kinds)))
    for name, tiers in all_results.items():
        for tier, outcomes in tiers.items():
            by = outcomes["full"].by_kind
            print(f"{name:<15} {tier:<5} " + " ".join(
                f"{f'{by[k].recall_at(10):.2f} / {by[k].mrr():.2f}' if k in by else '-':>13}" for k in sorted(kinds)))


def as_json(all_results: Mapping[str, Mapping[str, Mapping[str, Outcome]]]) -> dict[str, object]:
    return {name: {tier: {mode: {"R@1": o.overall.recall_at(1), "R@5": o.overall.recall_at(5),
                                 "R@10": o.overall.recall_at(10), "MRR": o.overall.mrr(), "ranks": o.ranks,
                                 "by_kind": {k: [s.recall_at(10), s.mrr(), len(s)] for k, s in o.by_kind.items()}}
                          for mode, o in outcomes.items()} for tier, outcomes in tiers.items()}
            for name, tiers in all_results.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="+", default=list(SETS), help=f"set names ({', '.join(SETS)}) or paths")
    parser.add_argument("--eval-dir", type=Path, help="one set in the eval-dev layout (instead of --sets)")
    parser.add_argument("--tier", choices=("free", "pro", "both"), default="free",
                        help="licence tier to search as (see above); default free")
    parser.add_argument("-v", "--verbose", action="store_true", help="list each query's first-hit rank per mode")
    parser.add_argument("--json", type=Path, help="also write the numbers to this file")
    parser.add_argument("--embed-cache", type=Path, help="keep chunk and query vectors in this directory")
    parser.add_argument("--no-diy", action="store_true", help="leave out the DIY baseline rows")
    parser.add_argument("--weights", action="append", default=[], metavar="SIGNAL=W[,SIGNAL=W]",
                        help="also run the full pipeline with these rank-fusion weights (e.g. e7=1.0), a row of its "
                             "own in the same run; repeatable")
    args = parser.parse_args(argv)
    roots = [args.eval_dir] if args.eval_dir else [SETS.get(s, Path(s)) for s in args.sets]
    if args.embed_cache:
        cache_embeddings(args.embed_cache)
    all_results: dict[str, dict[str, dict[str, Outcome]]] = {}
    for root in roots:
        with tempfile.TemporaryDirectory(prefix="casetrack-eval-") as tmp:
            all_results[root.name] = run_set(root, args, Path(tmp))
    print_summary(all_results)
    if args.json:
        args.json.write_text(json.dumps(as_json(all_results), indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
