"""Fitting the clause model (chunk.clause_model) in numpy, and its cross-validation split by contract.

One logistic regression per clause type, all fitted together on the same features by full-batch Adam on the
mean log loss plus an L2 penalty. Used by scripts/train_clauses.py and benchmarks/clauses.py.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

STEPS = 300
RATE = 0.1
L2 = 1e-6


@dataclass(frozen=True, slots=True)
class Fitted:
    weights: np.ndarray  # features x types
    bias: np.ndarray  # types


def fit(x: np.ndarray, y: np.ndarray, steps: int = STEPS, rate: float = RATE, l2: float = L2) -> Fitted:
    """Weights minimising the mean log loss of `y` (passages x types, 0/1) given `x` (passages x features)."""
    n, f = x.shape
    k = y.shape[1]
    w = np.zeros((f, k), np.float32)
    prior = np.clip(y.mean(axis=0), 1e-4, 1 - 1e-4)
    b = np.log(prior / (1 - prior)).astype(np.float32)
    m_w, v_w = np.zeros_like(w), np.zeros_like(w)
    m_b, v_b = np.zeros_like(b), np.zeros_like(b)
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    for t in range(1, steps + 1):
        p = 1.0 / (1.0 + np.exp(-(x @ w + b)))
        err = (p - y) / n
        g_w = x.T @ err + l2 * w
        g_b = err.sum(axis=0)
        for g, m, v, param in ((g_w, m_w, v_w, w), (g_b, m_b, v_b, b)):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            param -= rate * (m / (1 - beta1**t)) / (np.sqrt(v / (1 - beta2**t)) + eps)
    return Fitted(w, b)


def predict(fitted: Fitted, x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(x @ fitted.weights + fitted.bias)))


def folds(contracts: Sequence[str], k: int = 5) -> np.ndarray:
    """Each passage's fold, by a stable hash of its contract's name: a contract's passages share a fold."""
    return np.array([zlib.crc32(c.encode()) % k for c in contracts], dtype=np.int32)


def out_of_fold(x: np.ndarray, y: np.ndarray, fold: np.ndarray, **kw: float) -> np.ndarray:
    """Every passage's probabilities from the model fitted on the other folds."""
    out = np.zeros(y.shape, np.float32)
    for f in np.unique(fold):
        test = fold == f
        out[test] = predict(fit(x[~test], y[~test], **kw), x[test])  # type: ignore[arg-type]
    return out


def scores(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Micro precision, recall and F1 of 0/1 predictions."""
    tp = float((pred * y).sum())
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def best_threshold(prob: np.ndarray, y: np.ndarray) -> float:
    """The one threshold for every type that maximises micro F1 over the out-of-fold probabilities."""
    grid = np.round(np.arange(0.02, 0.91, 0.01), 3)
    return float(max(grid, key=lambda t: scores((prob >= t).astype(np.float32), y)[2]))
