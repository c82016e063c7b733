"""Search latency, memory and case-open time through the service on a synthetic case, next to a
floor from the same run.

    uv run python benchmarks/search.py                    # 20,000 and 100,000 chunks
    uv run python benchmarks/search.py 100000 1000000     # other sizes
    uv run python benchmarks/search.py 1000000 --keep DIR # keep the written case in DIR/1000000 and
                                                          # reuse it next time (writing 1M takes ~45 min)

The case is written through the real store (`store.documents.put_document`, documents of 100
chunks on 25 pages, 20 documents per write session), not through ingestion, so that a million
chunks need not be embedded:
  * chunk text: a 1,200-2,800 character window of the eval-dev reference texts plus a few
    synthetic names/numbers drawn from a Zipf(1.1) vocabulary of 200,000 identifiers (a big
    case has a large vocabulary); BM25 entries are the real tokenizer's output for that text;
  * clause types: each passage of the pool is tagged once as ingest tags an agreement's passages
    (`service.ingest.clauses.tag_chunks`: the shipped classifier, its tags with their confidences and
    places, the likely untagged types from 0.01 up), and a chunk takes its passage's, with the tags'
    terms in its BM25 entry, so that a clause question's soft role prior reads them as in a real case;
  * E7 vectors: random unit 384-d vectors under E7's key in the embeddings column family; a chunk
    longer than E7's 256-token window (by the 4-characters-a-token estimate) also gets the window
    vectors ingest stores for it (1 + ceil((tokens - 254) / 190) of them, at most 4; its vector is
    their mean), so that search reads them as it would in a real case (pipeline.BEST_WINDOW).
Queries are the eval-dev query texts, embedded for real by E7 at search time.

Each size then runs two fresh processes over the case's data directory:
  1. first open: no index files yet, so the index is built from the store and written
     (what an upgrade or a damaged index costs once);
  2. cold open: the index and store files are first dropped from the page cache
     (posix_fadvise), then the case is opened from its index files. Reported: open time, the
     process's RSS after open (ONNX model and Python included), search p50/p95 of
     `app.search.search(top_k=10)` (context loading included) next to the floor, the dense
     stage's recall@100 and @500 against exact search, and the index's size on disk.
The floor is what no index can beat: E7 query embedding + one float32 matmul over every E7
vector + bm25s `retrieve` over precomputed scores of the same postings (built from the index's
own arrays, bm25s's CSC layout), each measured for the same query just before ours.
"""

from __future__ import annotations

# isort: off
import casetrack  # noqa: F401  (first, as in the server: its process settings precede numpy; blas_threads.py)
# isort: on
import argparse
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from pathlib import Path

import bm25s
import numpy as np
import psutil

from casetrack.chunk.roles.tagging import role_term
from casetrack.config import load_settings
from casetrack.domain import CaseStats, ChunkSpan, Document, DocumentType, ExtractionMethod, StoredPage
from casetrack.index.tokenize import tokenize
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.clauses import ChunkTags, tag_chunks
from casetrack.service.search.case_index import CaseIndex
from casetrack.store import changes, keys, stats
from casetrack.store import documents as docstore
from casetrack.store.records import encode_u64
from casetrack.store.search_index.manifest import INDEX_DIR

EVAL_DEV = Path(__file__).resolve().parent / "eval_dev"
CHUNKS_PER_DOC, PAGES_PER_DOC, DOCS_PER_WRITE, DIM, RARE_VOCAB, RUNS = 100, 25, 20, 384, 200_000, 150
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


_RARE = np.cumsum(1.0 / np.arange(1, RARE_VOCAB + 1) ** 1.1)
_RARE /= _RARE[-1]


def rare_terms(n: int) -> np.ndarray:
    """n rows of 12 identifiers drawn from Zipf(1.1) over RARE_VOCAB (inverse CDF: one search per draw)."""
    return np.minimum(np.searchsorted(_RARE, RNG.random((n, 12))), RARE_VOCAB - 1)


def pool_tags(pool: list[str]) -> ChunkTags:
    """The pool's passages tagged as an agreement's passages are at ingest (keyed "0", "1", ...)."""
    spans = [ChunkSpan(i, 1, 0, len(text), text, 1, 1, 0, 0, (len(text) + 3) // 4) for i, text in enumerate(pool)]
    tags = tag_chunks([str(i) for i in range(len(pool))], spans, [""] * len(pool), [], DocumentType.CONTRACT)
    print(f"pool of {len(pool)} passages: {sum(bool(r) for r in tags.roles)} tagged, "
          f"{len(tags.likelihood)} with a likely untagged type, "
          f"{sum(bool(r) or str(i) in tags.likelihood for i, r in enumerate(tags.roles))} with either",
          file=sys.stderr)
    return tags


def document(d: int, pool: list[str], pool_counts: list[dict[str, int]], rare: np.ndarray,
             tags: ChunkTags) -> docstore.DocumentWrite:
    doc_id = str(uuid.uuid4())
    chunks, terms, vectors, windows = [], {}, {}, {}
    roles, confidence, likelihood, places = {}, {}, {}, {}
    page_texts: dict[int, list[str]] = {}
    vecs = RNG.standard_normal((CHUNKS_PER_DOC, DIM)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    per_page = CHUNKS_PER_DOC // PAGES_PER_DOC
    for s in range(CHUNKS_PER_DOC):
        pick = int(RNG.integers(len(pool)))
        names = [f"zq{i}" for i in rare[s].tolist()]
        text = pool[pick] + " " + " ".join(names)
        page = s // per_page + 1
        parts = page_texts.setdefault(page, [])
        start = sum(len(p) + 2 for p in parts)
        parts.append(text)
        chunk_id = str(uuid.uuid4())
        chunks.append((chunk_id, ChunkSpan(s, page, start, start + len(text), text, len(parts), len(parts),
                                           0, 0, (len(text) + 3) // 4)))
        counts = dict(pool_counts[pick])
        for name in names:
            counts[name] = counts.get(name, 0) + 1
        if tags.roles[pick]:
            roles[chunk_id] = tags.roles[pick]
            for role in tags.roles[pick]:
                counts[role_term(role)] = 1
        for held, by_chunk in ((tags.confidence, confidence), (tags.likelihood, likelihood), (tags.places, places)):
            if str(pick) in held:
                by_chunk[chunk_id] = held[str(pick)]
        terms[chunk_id] = counts
        vectors[chunk_id] = vecs[s]
        tokens = (len(text) + 3) // 4
        if tokens > 254:
            rows = RNG.standard_normal((min(4, 1 + -(-(tokens - 254) // 190)), DIM)).astype(np.float32)
            rows /= np.linalg.norm(rows, axis=1, keepdims=True)
            windows[chunk_id] = rows
            mean = rows.mean(axis=0)
            vectors[chunk_id] = mean / np.linalg.norm(mean)
    pages = [StoredPage(p, "\n\n".join(t), ExtractionMethod.NATIVE) for p, t in sorted(page_texts.items())]
    doc = Document(id=doc_id, name=f"synthetic-{d:06d}.pdf", original_path=None, file_hash=uuid.uuid4().hex,
                   file_size=0, file_mtime=0.0, format="pdf", document_type=DocumentType.CONTRACT,
                   type_confidence=1.0, type_source="user", page_count=len(pages), chunk_count=CHUNKS_PER_DOC,
                   ocr_pages=0, skipped_pages=0, ocr_confidence=None, ingested_at=time.time(),
                   embedded_at=time.time(), embedders=("E7", "E13"))
    return docstore.DocumentWrite(document=doc, pages=pages, chunks=chunks, terms=terms, vectors={"E7": vectors},
                                  windows={"E7": windows}, roles=roles, role_confidence=confidence,
                                  role_likelihood=likelihood, role_spans=places)


def write_case(data_dir: Path, n: int) -> float:
    """Write n chunks, with the generation, change log and statistics a commit keeps; seconds taken."""
    started = time.perf_counter()
    app = CaseTrack.open(load_settings(data_dir, log_level="WARNING"))
    store = app.cases.store(app.create_case(f"bench {n}"))
    pool = passages()
    pool_counts = [dict(Counter(tokenize(t))) for t in pool]
    tags = pool_tags(pool)
    generation = docs = 0
    for first in range(0, n // CHUNKS_PER_DOC, DOCS_PER_WRITE):
        writes = [document(d, pool, pool_counts, rare_terms(CHUNKS_PER_DOC), tags)
                  for d in range(first, min(first + DOCS_PER_WRITE, n // CHUNKS_PER_DOC))]
        with store.writer("benchmark") as db:
            batch = db.batch()
            for write in writes:
                docstore.put_document(batch, write)
                generation += 1
                changes.record(batch, generation, write.document.id, [])
            docs += len(writes)
            batch.put(keys.METADATA, keys.GENERATION, encode_u64(generation))
            stats.put_stats(batch, CaseStats(document_count=docs, page_count=docs * PAGES_PER_DOC,
                                             chunk_count=docs * CHUNKS_PER_DOC))
            db.write(batch)
    app.jobs.shutdown()
    return time.perf_counter() - started


def drop_from_page_cache(folder: Path) -> None:
    """Evict a folder's files from the page cache, so the next open reads them from disk."""
    for root, _, files in os.walk(folder):
        for name in files:
            try:
                fd = os.open(Path(root) / name, os.O_RDONLY)
            except OSError:
                continue
            try:
                os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(fd)


def folder_mb(folder: Path) -> float:
    return sum(f.stat().st_size for f in folder.rglob("*") if f.is_file()) / 2**20


def open_case(data_dir: Path) -> tuple[CaseTrack, CaseIndex, dict[str, float]]:
    app = CaseTrack.open(load_settings(data_dir, log_level="WARNING"))
    app.pool.get("E7").embed_query("warm up")  # the model is loaded before the open is timed
    case = app.cases.list()[0]
    drop_from_page_cache(data_dir / "cases" / case.id)
    before = rss_mb()
    started = time.perf_counter()
    index = app.search.index(case)
    open_s = time.perf_counter() - started
    return app, index, {"open_s": open_s, "rss_before": before, "rss_after": rss_mb(), "source": index.source}


def first_open(data_dir: Path) -> dict[str, object]:
    app, _, numbers = open_case(data_dir)
    case = app.cases.list()[0]
    numbers["index_mb"] = folder_mb(data_dir / "cases" / case.id / INDEX_DIR)
    numbers["store_mb"] = folder_mb(data_dir / "cases" / case.id / "case.db")
    return numbers


def floor_bm25(index: CaseIndex) -> bm25s.BM25:
    """A bm25s retriever over precomputed lucene scores of the index's own postings (bm25s's CSC)."""
    space = index.views.space
    vocab: dict[str, int] = {}
    remaps, lengths = [], np.concatenate([s.lexical.lengths for s in space.segments]).astype(np.float64)
    for segment in space.segments:
        remaps.append(np.fromiter((vocab.setdefault(t, len(vocab)) for t in segment.lexical.vocabulary.terms()),
                                  np.int64))
    counts = np.zeros(len(vocab), dtype=np.int64)
    for segment, remap in zip(space.segments, remaps, strict=True):
        np.add.at(counts, remap, np.diff(segment.lexical.postings.indptr))
    indptr = np.zeros(len(vocab) + 1, dtype=np.int64)
    np.cumsum(counts, out=indptr[1:])
    n, avgdl, k1, b = len(lengths), float(lengths.mean()), 1.2, 0.75
    idf = np.log1p((n - counts + 0.5) / (counts + 0.5))
    data, indices = np.empty(indptr[-1], np.float32), np.empty(indptr[-1], np.int32)
    filled = indptr[:-1].copy()
    offset = 0
    for segment, remap in zip(space.segments, remaps, strict=True):
        post = segment.lexical.postings
        width = np.diff(post.indptr)
        term = np.repeat(remap, width)
        within = np.arange(post.rows.shape[0]) - np.repeat(post.indptr[:-1], width)
        dest = filled[term] + within
        rows = np.asarray(post.rows, dtype=np.int64) + offset
        tf = np.asarray(post.values, dtype=np.float64)
        data[dest] = idf[term] * tf / (tf + k1 * (1 - b + b * lengths[rows] / avgdl))
        indices[dest] = rows
        filled[remap] += width
        offset += segment.rows
    retriever = bm25s.BM25(k1=k1, b=b, method="lucene")
    retriever.scores = {"data": data, "indices": indices, "indptr": indptr, "num_docs": n}
    retriever.vocab_dict = vocab
    retriever.unique_token_ids_set = set(vocab.values())
    retriever.nonoccurrence_array = None  # bm25l / bm25+ only
    return retriever


def measure(data_dir: Path) -> dict[str, object]:
    app, index, numbers = open_case(data_dir)
    case = app.cases.list()[0]
    e7 = app.pool.get("E7")
    dense = index.dense["e7"]
    matrix = np.concatenate([s.dense["e7"].floats.all() for s in index.views.space.segments])  # row order
    retriever = floor_bm25(index)
    queries = [json.loads(line)["query"] for line in (EVAL_DEV / "queries.jsonl").read_text().splitlines()]
    app.search.search(case, "warm up", top_k=10)
    app.search.search(case, "warm up 1 U.S. 1", top_k=10)  # loads what a citation query uses (eyecite)
    ours, floor, embed_ms, reader_ms, recall100, recall500 = [], [], [], [], [], []
    store = app.cases.store(case)
    for i in range(RUNS):
        q = f"{queries[i % len(queries)]} {i // len(queries) or ''}".strip()
        t = time.perf_counter()
        vec = np.asarray(e7.embed_query(q), dtype=np.float32)
        t_embed = time.perf_counter()
        exact = matrix @ vec
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
        if i < 40:
            truth = np.argsort(-exact)[:500]
            found = set(dense.search(vec, 500)[0])
            keys500 = index.views.space.keys_at(truth)
            recall500.append(len(found & set(keys500)) / 500)
            recall100.append(len(set(dense.search(vec, 100)[0]) & set(keys500[:100])) / 100)
    (o50, o95), (f50, f95) = pct(ours), pct(floor)
    numbers.update({"chunks": index.chunk_count, "documents": index.document_count, "segments": len(index.segments),
                    "o50": o50, "o95": o95, "f50": f50, "f95": f95, "embed50": statistics.median(embed_ms),
                    "reader50": statistics.median(reader_ms), "recall100": float(np.mean(recall100)),
                    "recall500": float(np.mean(recall500)),
                    "index_mb": folder_mb(data_dir / "cases" / case.id / INDEX_DIR)})
    return numbers


def pct(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))]


def in_child(step: str, data_dir: Path) -> dict[str, object]:
    """Run one step in a fresh process, so its open and its RSS are its own."""
    done = subprocess.run([sys.executable, __file__, f"--{step}", str(data_dir)], check=True, stdout=subprocess.PIPE,
                          text=True)
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def run(n: int, keep: Path | None) -> list[tuple[str, str]]:
    if keep is None:
        with tempfile.TemporaryDirectory(prefix="casetrack-bench-") as tmp:
            built = written(Path(tmp), n)
            return rows(built, in_child("measure", Path(tmp)))
    data_dir = keep / str(n)
    record = data_dir / "benchmark-written.json"  # written last: a case whose writing was stopped is redone
    if record.exists():
        built = dict(json.loads(record.read_text(encoding="utf-8")))
        print(f"(reusing the case of {n:,} chunks written in {data_dir})", file=sys.stderr)
    else:
        shutil.rmtree(data_dir, ignore_errors=True)
        data_dir.mkdir(parents=True)
        built = written(data_dir, n)
        record.write_text(json.dumps(built), encoding="utf-8")
    return rows(built, in_child("measure", data_dir))


def written(data_dir: Path, n: int) -> dict[str, object]:
    """Write the case, then open it once in a fresh process (building and writing its index files)."""
    write_s = write_case(data_dir, n)
    return {**in_child("first-open", data_dir), "write_s": write_s}


def rows(built: dict[str, object], m: dict[str, object]) -> list[tuple[str, str]]:
    return [
        ("chunks / documents / segments", f"{m['chunks']:,} / {m['documents']:,} / {m['segments']} "
                                          f"(written in {built['write_s']:.0f} s)"),
        ("first open: index built from the store and written", f"{built['open_s']:.1f} s"),
        ("case open, cold, from the index files", f"{m['open_s']:.2f} s ({m['source']})"),
        ("RSS after open (whole process, E7 loaded)",
         f"{m['rss_after']:.0f} MB (+{m['rss_after'] - m['rss_before']:.0f} MB for the index)"),
        ("search p50 / p95 (service, top 10, context)", f"{m['o50']:.1f} / {m['o95']:.1f} ms"),
        ("floor p50 / p95 (E7 query + float32 matmul + bm25s)", f"{m['f50']:.1f} / {m['f95']:.1f} ms"),
        ("  of which E7 query embedding p50", f"{m['embed50']:.1f} ms"),
        ("  store read session open p50 (in ours, not in the floor)", f"{m['reader50']:.1f} ms"),
        ("ratio to floor p50 / p95", f"x{m['o50'] / m['f50']:.2f} / x{m['o95'] / m['f95']:.2f}"),
        ("dense recall@100 / @500 against exact search", f"{m['recall100']:.4f} / {m['recall500']:.4f}"),
        ("index on disk (store)", f"{m['index_mb']:.0f} MB ({built['store_mb']:.0f} MB)"),
    ]


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] in ("--first-open", "--measure"):
        step = first_open if sys.argv[1] == "--first-open" else measure
        print(json.dumps(step(Path(sys.argv[2]))))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("sizes", nargs="*", type=int, default=[20_000, 100_000], help="chunks in each case")
    parser.add_argument("--keep", type=Path, help="keep each written case in KEEP/<size> and reuse it when there")
    args = parser.parse_args()
    print("Synthetic case written through the store: real BM25 tokens of eval-dev text plus synthetic "
          "identifiers; RANDOM unit vectors for E7 (only the query is embedded for real).")
    for n in args.sizes:
        print_table(f"{n:,} chunks ({RUNS} searches)", run(n, args.keep))


def print_table(title: str, rows: list[tuple[str, str]]) -> None:
    """A benchmark's results as the markdown table docs/benchmarks.md records."""
    print(f"\n## {title}\n")
    print("| what | value |")
    print("|---|---|")
    for what, value in rows:
        print(f"| {what} | {value} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
