"""Dense search within one segment: exact float32 for a small one; for a large one an int8
scan of every row, then the best candidates rescored exactly from their float32 vectors.

Why int8 and not an approximate graph (HNSW): a scan reads 1 byte per dimension (a million
384-d MiniLM vectors are 384 MB of codes against 1.5 GB of floats, and the floats are read
only for the few thousand candidates), it needs no build time beyond quantising, it is exact
up to the quantisation error, which rescoring removes for every row that reaches the
candidates, and its recall does not depend on how clustered the embeddings are.
numkong's SIMD int8 dot product scans 1M x 384 codes in ~40 ms on one core of this machine;
numpy has no int8 BLAS (its int8 matmul is ~13x slower, casting blocks to float ~60x).

Codes are `round(v * scale)` with one scale per dimension (127 over the dimension's largest
magnitude in the segment); the query is divided by the same scales and quantised to int8
itself, so the scan ranks by sum(q_d * v_d) up to a per-query constant.
"""

from __future__ import annotations

import numkong
import numpy as np

from casetrack.index.segment import DensePart

# Up to this many vectors a segment is scanned in float32 directly: 20,000 x 384 floats are
# 29 MB and a matmul over them takes ~2 ms, so quantising buys nothing and exactness is kept.
EXACT_ROWS = 20_000
# Candidates rescored exactly: this many times the rows asked for, and at least MIN_RESCORE.
# A candidate is missed only when int8 error (~0.001 in cosine) moves a true top-N row
# below a thousand others; benchmarks/search.py measures recall against exact search. Each
# rescored row is one positioned read (`FileRows.take`): at 100,000 random vectors, 2 x 500
# kept recall@100 and @500 at 1.0000 on the eval-dev queries (as 4 x 500 did; 1 x 500 gave
# 0.985 @500) and took the dense stage from 52 to 33 ms under load.
RESCORE_FACTOR = 2
MIN_RESCORE = 1_000


def top_rows(part: DensePart, query: np.ndarray, top_n: int, alive: np.ndarray | None = None
             ) -> tuple[np.ndarray, np.ndarray]:
    """Positions in `part.rows` of the `top_n` most similar vectors, best first (ties by position),
    and their exact cosine scores. `alive` (bool per position) excludes the others; `query` must
    be L2-normalised float32."""
    count = len(part.floats)
    if top_n <= 0 or count == 0:
        return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.float32)
    if count <= EXACT_ROWS:
        scores = np.asarray(part.floats.all() @ query, dtype=np.float32)
        positions = np.arange(count) if alive is None else np.flatnonzero(alive)
        scores = scores if alive is None else scores[positions]
    else:
        positions, _ = estimated_top(part, query, rescored(top_n), alive)
        positions = np.sort(positions)
        scores = exact_scores(part, query, positions)
    best = top_indices(scores, top_n)
    return positions[best], scores[best]


def rescored(top_n: int) -> int:
    """How many int8 candidates are rescored exactly for the best `top_n`."""
    return max(RESCORE_FACTOR * top_n, MIN_RESCORE)


def scanned_exactly(part: DensePart) -> bool:
    return len(part.floats) <= EXACT_ROWS


def estimated_top(part: DensePart, query: np.ndarray, wanted: int, alive: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray]:
    """Positions of the `wanted` best live vectors by their int8 estimate (unordered), and the estimates on
    the cosine scale, so that candidates of several segments can be chosen among together."""
    approx = approximate_scores(part, query)
    if alive is not None:
        approx[~alive] = -np.inf
    count = approx.size
    candidates = np.argpartition(-approx, wanted - 1)[:wanted] if wanted < count else np.arange(count)
    candidates = candidates[np.isfinite(approx[candidates])]
    return candidates, approx[candidates]


def approximate_scores(part: DensePart, query: np.ndarray) -> np.ndarray:
    """Every vector's cosine with the query as int8 codes estimate it (float64, one per position):
    the codes' dot products with the quantised query, times the query's quantisation step."""
    scaled = np.asarray(query, dtype=np.float32) / part.scale
    peak = float(np.abs(scaled).max())
    q = np.clip(np.rint(scaled * (127.0 / peak)), -127, 127).astype(np.int8) if peak > 0 else \
        np.zeros(part.dim, dtype=np.int8)
    dots = np.asarray(numkong.cdist(q.reshape(1, -1), part.codes, metric="dot"), dtype=np.float64).reshape(-1)
    return dots * (peak / 127.0) if peak > 0 else dots


def exact_scores(part: DensePart, query: np.ndarray, positions: np.ndarray) -> np.ndarray:
    """Cosine scores of the vectors at `positions` (ascending positions read fastest)."""
    if positions.size == 0:
        return np.empty(0, dtype=np.float32)
    return np.asarray(part.floats.take(positions) @ query, dtype=np.float32)


def top_indices(scores: np.ndarray, top_n: int) -> np.ndarray:
    """Indices of the `top_n` largest scores, best first, ties by index."""
    if top_n <= 0 or scores.size == 0:
        return np.empty(0, dtype=np.int64)
    idx = np.arange(scores.size) if scores.size <= top_n else np.argpartition(-scores, top_n - 1)[:top_n]
    return idx[np.lexsort((idx, -scores[idx]))]
