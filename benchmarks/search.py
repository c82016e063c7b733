"""Search latency through the service on a synthetic case, next to a floor from the same run.

    uv run python benchmarks/search.py                # 20,000 and 100,000 chunks
    uv run python benchmarks/search.py 20000          # other sizes

The case is written through the real store (`store.documents.put_document`, one batch per
document of 100 chunks on 25 pages), not through ingestion, so that 100,000 chunks do not
have to be embedded:
  * chunk text: a 1,200-2,800 character window of the eval-dev reference texts plus a few
    synthetic names/numbers drawn from a Zipf(1.1) vocabulary of 200,000 identifiers (a big
    case has a large vocabulary); BM25 entries are the real tokenizer's output for that text;
  * E7 vectors: random unit 384-d vectors under E7's key in the embeddings column family.
Queries are the eval-dev query texts, embedded for real by E7 at search time.

Reported per size: case open (the in-memory index build from the store, cold), RSS, and
p50/p95 of `app.search.search(top_k=10)` (context loading included) next to the floor:
E7 query embedding + one matmul over the E7 matrix + bm25s `retrieve` on the same tokens
(precomputed scores over a static corpus), each measured for the same query just before.
"""

from __future__ import annotations

import gc
import json
import statistics
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import bm25s
import numpy as np
import psutil

from casetrack.config import load_settings
from casetrack.domain import ChunkSpan, Document, DocumentType, ExtractionMethod, StoredPage
from casetrack.index.tokenize import tokenize
from casetrack.service.app import CaseTrack
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.records import decode_u64, encode_u64

EVAL_DEV = Path("/work/shared/eval-dev")
CHUNKS_PER_DOC, PAGES_PER_DOC, DIM, RARE_VOCAB, RUNS = 100, 25, 384, 200_000, 150
RNG = np.random.default_rng(0)


def rss_mb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def passages() -> list[str]:
    texts = [" ".join(p.read_text(encoding="utf-8").split()) for p in sorted((EVAL_DEV / "text").glob("*.txt"))]
    text = " ".join(texts)
    out = []
    for _ in range(3000):
        size = int(RNG.integers(1200, 2800))
        start = int(RNG.integers(0, max(1, len(text) - size)))
        out.append(text[start: start + size])
    return out


def rare_terms(n: int) -> list[list[str]]:
    p = 1.0 / np.arange(1, RARE_VOCAB + 1) ** 1.1
    ids = RNG.choice(RARE_VOCAB, size=(n, 12), p=p / p.sum())
    return [[f"zq{i}" for i in row] for row in ids.tolist()]


def write_case(app: CaseTrack, n: int) -> tuple[list[list[str]], float]:
    """Write n chunks; returns every chunk's BM25 tokens (for the floor) and seconds taken."""
    started = time.perf_counter()
    case = app.create_case(f"bench {n}")
    store = app.cases.store(case)
    pool = passages()
    pool_tokens = [tokenize(t) for t in pool]
    rare = rare_terms(n)
    all_tokens: list[list[str]] = []
    per_page = CHUNKS_PER_DOC // PAGES_PER_DOC
    for d in range(n // CHUNKS_PER_DOC):
        doc_id = str(uuid.uuid4())
        chunks, terms, vectors, pages = [], {}, {}, []
        page_texts: dict[int, list[str]] = {}
        vecs = RNG.standard_normal((CHUNKS_PER_DOC, DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        for s in range(CHUNKS_PER_DOC):
            i = d * CHUNKS_PER_DOC + s
            pick = int(RNG.integers(len(pool)))
            text = pool[pick] + " " + " ".join(rare[i])
            tokens = pool_tokens[pick] + rare[i]
            all_tokens.append(tokens)
            page = s // per_page + 1
            parts = page_texts.setdefault(page, [])
            start = sum(len(p) + 2 for p in parts)
            parts.append(text)
            chunk_id = str(uuid.uuid4())
            chunks.append((chunk_id, ChunkSpan(s, page, start, start + len(text), text, len(parts), len(parts),
                                               0, 0, (len(text) + 3) // 4)))
            terms[chunk_id] = dict(Counter(tokens))
            vectors[chunk_id] = vecs[s]
        pages = [StoredPage(p, "\n\n".join(t), ExtractionMethod.NATIVE) for p, t in sorted(page_texts.items())]
        doc = Document(id=doc_id, name=f"synthetic-{d:05d}.pdf", original_path=None, file_hash=uuid.uuid4().hex,
                       file_size=0, file_mtime=0.0, format="pdf", document_type=DocumentType.CONTRACT,
                       type_confidence=1.0, type_source="user", page_count=len(pages),
                       chunk_count=CHUNKS_PER_DOC, ocr_pages=0, skipped_pages=0, ocr_confidence=None,
                       ingested_at=time.time(), embedded_at=time.time(), embedders=("E7", "E13"))
        write = docstore.DocumentWrite(document=doc, pages=pages, chunks=chunks, terms=terms,
                                       vectors={"E7": vectors})
        with store.writer("benchmark") as db:
            batch = db.batch()
            docstore.put_document(batch, write)
            batch.put(keys.METADATA, keys.GENERATION,
                      encode_u64((decode_u64(db.get(keys.METADATA, keys.GENERATION)) or 0) + 1))
            db.write(batch)
    return all_tokens, time.perf_counter() - started


def pct(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def run(n: int) -> list[tuple[str, str]]:
    queries = [json.loads(line)["query"] for line in (EVAL_DEV / "queries.jsonl").read_text().splitlines()]
    with tempfile.TemporaryDirectory(prefix="casetrack-bench-") as tmp:
        app = CaseTrack(load_settings(tmp, log_level="WARNING"))
        if "E7" not in app.pool.available():
            raise SystemExit("E7 is not installed; this benchmark needs the real query embedder")
        e7 = app.pool.get("E7")
        e7.embed_query("warm up")
        tokens, write_s = write_case(app, n)
        case = app.active_case()
        app.search.cache.forget(case.id)
        before = rss_mb()
        t = time.perf_counter()
        index = app.search.index(case)
        open_s = time.perf_counter() - t
        after = rss_mb()
        matrix = index.dense["e7"].matrix
        retriever = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
        retriever.index(tokens, show_progress=False)
        del tokens
        app.search.search(case, "warm up", top_k=10)
        ours, floor, embed_ms, reader_ms = [], [], [], []
        store = app.cases.store(case)
        for i in range(RUNS):
            q = f"{queries[i % len(queries)]} {i // len(queries) or ''}".strip()
            t = time.perf_counter()
            vec = np.asarray(e7.embed_query(q), dtype=np.float32)
            t_embed = time.perf_counter()
            matrix @ vec
            retriever.retrieve([tokenize(q)], k=500, show_progress=False)
            floor.append((time.perf_counter() - t) * 1000)
            embed_ms.append((t_embed - t) * 1000)
            t = time.perf_counter()
            with store.reader():
                pass
            reader_ms.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            response = app.search.search(case, q, top_k=10)
            ours.append((time.perf_counter() - t) * 1000)
            assert response.hits
        (o50, o95), (f50, f95) = pct(ours), pct(floor)
        return [
            ("chunks / documents", f"{index.chunk_count:,} / {len(index.chunks_of):,} (written in {write_s:.0f} s)"),
            ("case open (index build from the store)", f"{open_s:.2f} s"),
            ("RSS after open", f"{after:.0f} MB (+{after - before:.0f} MB for the indexes)"),
            ("search p50 / p95 (service, top 10, context)", f"{o50:.1f} / {o95:.1f} ms"),
            ("floor p50 / p95 (E7 query + matmul + bm25s)", f"{f50:.1f} / {f95:.1f} ms"),
            ("  of which E7 query embedding p50", f"{statistics.median(embed_ms):.1f} ms"),
            ("  store read session open p50 (in ours, not in the floor)", f"{statistics.median(reader_ms):.1f} ms"),
            ("ratio to floor p50 / p95", f"x{o50 / f50:.2f} / x{o95 / f95:.2f}"),
        ]


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [20_000, 100_000]
    print("Synthetic case written through the store: real BM25 tokens of eval-dev text plus synthetic "
          "identifiers; RANDOM unit vectors for E7 (only the query is embedded for real).")
    for n in sizes:
        print(f"\n## {n:,} chunks ({RUNS} searches)\n")
        print("| what | value |")
        print("|---|---|")
        for what, value in run(n):
            print(f"| {what} | {value} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
