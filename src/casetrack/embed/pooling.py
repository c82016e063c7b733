"""Pure NumPy post-processing of model outputs: pooling, normalisation, SPLADE, ColBERT."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

Float32Array = NDArray[np.float32]


class SparseVector(NamedTuple):
    """A SPLADE vector: vocabulary ids (ascending) and their weights."""

    indices: NDArray[np.uint32]
    values: Float32Array


def l2_normalize(x: Float32Array, axis: int = -1) -> Float32Array:
    norm = np.linalg.norm(x, axis=axis, keepdims=True)
    return (x / np.maximum(norm, 1e-12)).astype(np.float32, copy=False)


def cls_pool(hidden: Float32Array) -> Float32Array:
    """The [CLS] (first) token state of each row: (batch, seq, dim) -> (batch, dim)."""
    return np.ascontiguousarray(hidden[:, 0, :], dtype=np.float32)


def mean_pool(hidden: Float32Array, mask: NDArray[np.int64]) -> Float32Array:
    """Mean of the token states under the attention mask: padding never counts."""
    weights = mask.astype(np.float32)
    summed = np.einsum("bsd,bs->bd", hidden, weights)
    counts = np.maximum(weights.sum(axis=1, keepdims=True), 1.0)
    return (summed / counts).astype(np.float32, copy=False)


def splade_pool(logits: Float32Array, mask: NDArray[np.int64]) -> Float32Array:
    """max over tokens of log(1 + relu(logits)), padding masked out: (batch, seq, vocab) -> (batch, vocab).

    Works in place on `logits` (the largest array in the engine) to avoid two more copies of it."""
    np.maximum(logits, 0.0, out=logits)
    np.log1p(logits, out=logits)
    logits *= mask[:, :, None].astype(np.float32)
    return logits.max(axis=1)


def top_k_sparse(weights: Float32Array, k: int) -> SparseVector:
    """The non-zero weights of one vector, at most the `k` largest (k <= 0: all), ids ascending."""
    nonzero = np.flatnonzero(weights > 0)
    if 0 < k < nonzero.size:
        keep = np.argpartition(weights[nonzero], -k)[-k:]
        nonzero = np.sort(nonzero[keep])
    return SparseVector(nonzero.astype(np.uint32), weights[nonzero].astype(np.float32))


def colbert_tokens(hidden: Float32Array, ids: NDArray[np.int64], length: int, skip: frozenset[int]) -> Float32Array:
    """One row's token vectors: the first `length` positions minus skipped ids, each L2-normalised."""
    row = hidden[:length]
    if skip:
        keep = ~np.isin(ids[:length], np.fromiter(skip, dtype=np.int64, count=len(skip)))
        row = row[keep]
    return l2_normalize(np.ascontiguousarray(row, dtype=np.float32))


def average_windows(vectors: Float32Array, weights: NDArray[np.float64]) -> Float32Array:
    """Weighted mean of normalised window vectors, re-normalised."""
    mean = (vectors * weights[:, None]).sum(axis=0) / max(float(weights.sum()), 1e-12)
    return l2_normalize(mean.astype(np.float32))
