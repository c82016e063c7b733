"""ColBERT late interaction (E12): MaxSim between token-embedding matrices."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from casetrack.index.dense import l2_normalize


def maxsim(query_tokens: np.ndarray, doc_tokens: np.ndarray) -> float:
    """Mean over query tokens of the best cosine with any document token, in -1..1.

    Shapes (q, d) and (t, d). A document with no tokens scores 0.0 (no evidence).
    The mean (not ColBERT's plain sum) keeps the score on one scale whatever the query
    length, so it can be blended with the fused score. Raises ValueError when the
    dimensions differ or the query has no tokens."""
    q = _matrix(query_tokens, "query")
    d = _matrix(doc_tokens, "document")
    if q.shape[0] == 0:
        raise ValueError("the query has no token embeddings")
    if q.shape[1] != d.shape[1]:
        raise ValueError(f"query tokens have dimension {q.shape[1]}, document tokens {d.shape[1]}")
    if d.shape[0] == 0:
        return 0.0
    sims = l2_normalize(q) @ l2_normalize(d).T
    return float(sims.max(axis=1).mean())


def maxsim_many(query_tokens: np.ndarray, docs: Sequence[np.ndarray]) -> np.ndarray:
    """`maxsim` of one query against each document, as float32."""
    return np.array([maxsim(query_tokens, doc) for doc in docs], dtype=np.float32)


def _matrix(tokens: np.ndarray, what: str) -> np.ndarray:
    m = np.asarray(tokens, dtype=np.float32)
    if m.ndim != 2:
        raise ValueError(f"{what} tokens must be a (tokens, dim) matrix, got shape {m.shape}")
    return m
