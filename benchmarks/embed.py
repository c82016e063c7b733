"""Embedding benchmarks on real chunks (eval-dev texts cut into ~2,000-character pieces).

    uv run python benchmarks/embed.py                 # throughput, engine vs raw onnxruntime, latency, RSS
    uv run python benchmarks/embed.py --long-chunks   # E7: truncate at 256 vs windows vs 512, on eval-dev queries

Throughput compares, in the same run and on the same token batches, the engine's
embed_documents (tokenising, batching, pooling included) with bare InferenceSession.run
calls on pre-tokenised batches. Uses whatever models are available in --data-dir
(on a fresh install: E7 and E8 from the packaged weights).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import statistics
import tempfile
import time
from pathlib import Path

import casetrack  # noqa: F401  before onnxruntime: its telemetry off (casetrack/telemetry_off.py)

# isort: split
import numpy as np
import onnxruntime as ort
import psutil

from casetrack.embed.encoding import pad_batch, plan_batches
from casetrack.embed.engine import OnnxEmbedder, session_options
from casetrack.embed.pool import EmbedderPool
from casetrack.embed.specs import MODELS, LicenseTier

EVAL = Path(__file__).resolve().parent / "eval_dev"
QUERY_12 = "which clause limits the liability of the distributor under section four"  # 12 words, ~12 tokens


def eval_chunks(size: int = 2000) -> list[tuple[str, int, str]]:
    """(document, start offset, text) for every ~size-character piece of every eval-dev text."""
    out = []
    for path in sorted((EVAL / "text").glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        doc = path.name.removesuffix(".txt")
        out += [(doc, i, text[i : i + size]) for i in range(0, len(text), size) if text[i : i + size].strip()]
    return out


def rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def throughput(embedder: OnnxEmbedder, texts: list[str], repeats: int = 2) -> dict[str, float]:
    embedder.embed_documents(texts[:4])  # load + warm up
    _session, encoder = embedder._ready()
    items = [w for windows in encoder.documents(texts) for w in windows]
    tokens = sum(len(i) for i in items)
    spec = embedder.spec
    batches = [
        pad_batch(items, order, encoder.pad_id)
        for order in plan_batches([len(i) for i in items], spec.batch_tokens, spec.max_batch)
    ]
    raw = ort.InferenceSession(
        str(embedder.model_path), session_options(embedder.threads), providers=["CPUExecutionProvider"]
    )
    names = {i.name for i in raw.get_inputs()}
    feeds = []
    for b in batches:
        feed = {
            "input_ids": b.input_ids,
            "attention_mask": b.attention_mask,
            "token_type_ids": np.zeros_like(b.input_ids),
        }
        feeds.append({k: v for k, v in feed.items() if k in names})
    output = embedder._output
    raw.run([output], feeds[-1])
    engine_s, raw_s = [], []
    for _ in range(repeats):  # interleaved, so machine noise hits both alike
        start = time.perf_counter()
        embedder.embed_documents(texts)
        engine_s.append(time.perf_counter() - start)
        start = time.perf_counter()
        for feed in feeds:
            raw.run([output], feed)
        raw_s.append(time.perf_counter() - start)
    unsorted = OnnxEmbedder(
        spec, embedder.model_path, embedder.tokenizer_path, threads=embedder.threads, sort_by_length=False
    )
    unsorted.embed_documents(texts[:4])
    start = time.perf_counter()
    unsorted.embed_documents(texts)
    unsorted_s = time.perf_counter() - start
    latencies = []
    for _ in range(15):
        start = time.perf_counter()
        embedder.embed_query(QUERY_12)
        latencies.append(time.perf_counter() - start)
    e, r = min(engine_s), min(raw_s)
    return {
        "chunks/s": len(texts) / e,
        "tokens/s": tokens / e,
        "raw chunks/s": len(texts) / r,
        "engine/raw": r / e,
        "unsorted chunks/s": len(texts) / unsorted_s,
        "query ms (median)": 1000 * statistics.median(latencies),
    }


def bench(data_dir: Path, limit: int) -> None:
    chunks = [c[2] for c in eval_chunks()][:limit]
    print(f"{len(chunks)} eval-dev chunks of <= 2,000 characters; {psutil.cpu_count(logical=False)} physical cores\n")
    pool = EmbedderPool(data_dir / "models", tier=LicenseTier.PRO, memory_mode="full")
    print("| model | chunks/s | tokens/s | raw ORT chunks/s | engine / raw | unsorted chunks/s | 12-token query ms |")
    print("|---|---|---|---|---|---|---|")
    for model_id in pool.available():
        embedder = pool.get(model_id)._inner
        row = throughput(embedder, chunks)
        cells = " | ".join(f"{row[k]:.1f}" if k != "engine/raw" else f"{row[k]:.0%}" for k in row)
        print(f"| {model_id} {MODELS[model_id].name} | {cells} |", flush=True)
        embedder.unload()
    print("\nProcess RSS after loading each tier (only models available here load):")
    print(f"  nothing loaded: {rss_mb():.0f} MB")
    for tier in (LicenseTier.FREE, LicenseTier.PRO):
        tier_pool = EmbedderPool(data_dir / "models", tier=tier, memory_mode="full")
        tier_pool.preload()
        for model_id in tier_pool.available():
            tier_pool.get(model_id).embed_documents(chunks[:8])
        loaded = [s.model_id for s in tier_pool.status() if s.loaded]
        print(f"  {tier.value} tier ({', '.join(loaded) or 'none'}; one 8-chunk batch each): {rss_mb():.0f} MB")
        tier_pool.unload()


def long_chunks() -> None:
    """E7 on eval-dev: how should chunks longer than 256 tokens be embedded?"""
    queries = [json.loads(line) for line in (EVAL / "queries.jsonl").read_text().splitlines() if line.strip()]
    chunks = eval_chunks()
    texts = [c[2] for c in chunks]

    def relevant(q: dict, chunk: tuple[str, int, str]) -> bool:
        doc, start, text = chunk
        return doc == q["doc"] and any(s < start + len(text) and e > start for s, e in q["spans"])

    base = MODELS["E7"]
    variants = {
        "truncate at 256": dataclasses.replace(base, max_tokens=256, window_overlap=0),
        "truncate at 512": dataclasses.replace(base, max_tokens=512, window_overlap=0),
        "256-token windows, overlap 64, mean": base,
    }
    pool = EmbedderPool(Path(tempfile.mkdtemp()), memory_mode="full")
    packaged = pool.get("E7")._inner
    print(f"{len(queries)} queries over {len(chunks)} chunks (all documents); hit = chunk overlaps a labelled span\n")
    print("| E7 variant | MRR@10 | hit@1 | hit@5 | hit@10 | chunks/s |")
    print("|---|---|---|---|---|---|")
    for label, spec in variants.items():
        embedder = OnnxEmbedder(spec, packaged.model_path, packaged.tokenizer_path)
        start = time.perf_counter()
        matrix = embedder.embed_documents(texts)
        rate = len(texts) / (time.perf_counter() - start)
        rr, hits = [], {1: 0, 5: 0, 10: 0}
        for q in queries:
            order = np.argsort(-(matrix @ embedder.embed_query(q["query"])))[:10]
            ranks = [r for r, i in enumerate(order, 1) if relevant(q, chunks[i])]
            rr.append(1 / ranks[0] if ranks else 0.0)
            for k in hits:
                hits[k] += bool(ranks and ranks[0] <= k)
        n = len(queries)
        print(
            f"| {label} | {np.mean(rr):.3f} | {hits[1] / n:.2f} | {hits[5] / n:.2f} | {hits[10] / n:.2f} | {rate:.1f} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data-dir", type=Path, default=Path(tempfile.mkdtemp(prefix="casetrack-bench-")))
    parser.add_argument("--limit", type=int, default=64, help="chunks to embed per model")
    parser.add_argument("--long-chunks", action="store_true")
    args = parser.parse_args()
    if args.long_chunks:
        long_chunks()
    else:
        bench(args.data_dir, args.limit)


if __name__ == "__main__":
    main()
