"""Search-core latency and memory on synthetic cases, next to a raw floor from the same run.

    uv run python benchmarks/search_core.py            # 20,000 and 100,000 chunks
    uv run python benchmarks/search_core.py 5000       # other sizes

Chunks: 120-280 tokens drawn from a 60,000-term Zipf(1.07) vocabulary; random unit 384-d
vectors for E1 and E7; SPLADE-like sparse vectors (~80 non-zeros over 30,522 ids). Queries:
4 mid-frequency terms + 1 common term. The floor is what no index can beat: bm25s
`retrieve` (precomputed scores, static corpus) on the same tokens and one numpy matmul
over the same matrix. Embedding time is excluded everywhere.
"""

from __future__ import annotations

import gc
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import bm25s
import numpy as np
import psutil

from casetrack.index.bm25 import Bm25Index, index_state_from_entries
from casetrack.index.dense import DenseIndex, l2_normalize
from casetrack.index.sparse import SparseIndex, SparseVector
from casetrack.search.pipeline import Query, SearchIndexes, SearchRequest, search

VOCAB, DIM, SPLADE_VOCAB, QUERIES, TOP_N = 60_000, 384, 30_522, 200, 500
RNG = np.random.default_rng(0)


def rss_mb() -> float:
    gc.collect()
    return psutil.Process().memory_info().rss / 2**20


def timed(fn: Callable[[], object], runs: int) -> tuple[float, float]:
    """p50 and p95 in milliseconds."""
    fn()  # warm-up
    samples = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def corpus(n: int) -> list[np.ndarray]:
    p = 1.0 / np.arange(1, VOCAB + 1) ** 1.07
    lengths = RNG.integers(120, 281, size=n)
    flat = RNG.choice(VOCAB, size=int(lengths.sum()), p=p / p.sum())
    return np.split(flat, np.cumsum(lengths)[:-1])


def queries() -> list[list[str]]:
    return [[f"t{w}" for w in [*RNG.integers(100, 5000, size=4), RNG.integers(0, 50)]] for _ in range(QUERIES)]


def run(n: int) -> list[tuple[str, str, str, str]]:
    rows: list[tuple[str, str, str, str]] = []
    docs = corpus(n)
    qs = queries()
    qi = iter(range(10**9))

    def next_query() -> list[str]:
        return qs[next(qi) % len(qs)]

    # --- BM25 -------------------------------------------------------------------------
    entries = [(i, {f"t{t}": c for t, c in Counter(d.tolist()).items()}) for i, d in enumerate(docs)]
    before = rss_mb()
    t = time.perf_counter()
    bm25 = index_state_from_entries(entries)
    build_s, bm25_mb = time.perf_counter() - t, rss_mb() - before
    rows.append(("bm25 rebuild from entries", f"{build_s:.2f} s", f"RSS +{bm25_mb:.0f} MB", _held(bm25.nbytes)))

    t = time.perf_counter()
    for i in range(1000):
        bm25.remove(i)
    remove_us = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    for i in range(1000):
        bm25.add_counts(i, entries[i][1])
    add_us = (time.perf_counter() - t) * 1000
    rows.append(("bm25 add / remove one chunk", f"{add_us:.0f} / {remove_us:.0f} us", "", ""))

    fresh = Bm25Index()
    t = time.perf_counter()
    for key, counts in entries[:5000]:
        fresh.add_counts(key, counts)
    rows.append(("bm25 incremental build, per chunk", f"{(time.perf_counter() - t) / 5000 * 1e6:.0f} us", "", ""))
    del fresh

    retriever = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
    t = time.perf_counter()
    retriever.index([[f"t{w}" for w in d.tolist()] for d in docs], show_progress=False)
    rows.append(("bm25s index (static floor)", f"{time.perf_counter() - t:.2f} s", "", ""))

    ours = timed(lambda: bm25.score(next_query(), TOP_N), QUERIES)
    floor = timed(lambda: retriever.retrieve([next_query()], k=TOP_N, show_progress=False), QUERIES)
    rows.append(("bm25 score top-500", _ms(ours), f"floor bm25s {_ms(floor)}", _ratio(ours, floor)))

    # --- dense ------------------------------------------------------------------------
    before = rss_mb()
    t = time.perf_counter()
    e1, e7 = DenseIndex(DIM), DenseIndex(DIM)
    for index in (e1, e7):
        index.add(list(range(n)), l2_normalize(RNG.standard_normal((n, DIM), dtype=np.float32)))
    dense_s, dense_mb = (time.perf_counter() - t) / 2, (rss_mb() - before) / 2
    rows.append(("dense add (one embedder)", f"{dense_s:.2f} s", f"RSS +{dense_mb:.0f} MB", _held(e1.nbytes)))
    qv = l2_normalize(RNG.standard_normal(DIM).astype(np.float32))
    matrix = e1.matrix
    ours = timed(lambda: e1.search(qv, TOP_N), QUERIES)
    floor = timed(lambda: matrix @ qv, QUERIES)
    rows.append(("dense search top-500", _ms(ours), f"floor matmul {_ms(floor)}", _ratio(ours, floor)))
    doc_filter = set(range(200))  # a document filter: one document's chunks
    rows.append(("dense search, 200-chunk filter", _ms(timed(lambda: e1.search(qv, 10, doc_filter), QUERIES)), "", ""))

    # --- sparse -----------------------------------------------------------------------
    splade_vecs = [SparseVector(ids, RNG.random(ids.size, dtype=np.float32)) for ids in sparse_ids(n, 80)]
    before = rss_mb()
    t = time.perf_counter()
    e6 = SparseIndex.from_entries(list(range(n)), splade_vecs)
    sparse_s = time.perf_counter() - t
    rows.append(
        ("sparse bulk build (case open)", f"{sparse_s:.2f} s", f"RSS +{rss_mb() - before:.0f} MB", _held(e6.nbytes))
    )
    t = time.perf_counter()
    for i in range(1000):
        e6.add([i], [splade_vecs[i]])
    rows.append(("sparse re-add one chunk", f"{(time.perf_counter() - t) * 1000:.0f} us", "", ""))
    q_ids = sparse_ids(1, 40)[0]
    sq = SparseVector(q_ids, RNG.random(q_ids.size, dtype=np.float32))
    rows.append(("sparse search top-500", _ms(timed(lambda: e6.search(sq, TOP_N), QUERIES)), "", ""))

    # --- fused pipeline (free tier: BM25 + E1 + E6 + E7) -----------------------------------
    indexes = SearchIndexes(bm25=bm25, dense={"e1": e1, "e7": e7}, sparse={"e6": e6})
    vectors = {"e1": qv, "e7": qv, "e6": sq}
    floor_both = timed(lambda: (retriever.retrieve([next_query()], k=TOP_N, show_progress=False), matrix @ qv), QUERIES)
    ours = timed(lambda: search(SearchRequest(Query(next_query(), vectors), 10), indexes), QUERIES)
    rows.append(
        ("pipeline bm25+e1+e6+e7, top 10", _ms(ours), f"floor bm25s+matmul {_ms(floor_both)}", _ratio(ours, floor_both))
    )
    return rows


def sparse_ids(n: int, nnz: int) -> list[np.ndarray]:
    return [np.unique(row)[:nnz] for row in RNG.integers(0, SPLADE_VOCAB, size=(n, nnz + 10))]


def _held(nbytes: int) -> str:
    return f"{nbytes / 2**20:.0f} MB in arrays"


def _ms(p: tuple[float, float]) -> str:
    return f"{p[0]:.2f} / {p[1]:.2f} ms"


def _ratio(ours: tuple[float, float], floor: tuple[float, float]) -> str:
    return f"x{ours[0] / floor[0]:.1f} / x{ours[1] / floor[1]:.1f}"


def main() -> None:
    sizes = [int(a) for a in sys.argv[1:]] or [20_000, 100_000]
    for n in sizes:
        print(f"\n## {n:,} chunks (p50 / p95 over {QUERIES} queries)\n")
        print("| what | ours | floor / memory | ratio p50 / p95, or memory held |")
        print("|---|---|---|---|")
        for row in run(n):
            print("| " + " | ".join(row) + " |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
