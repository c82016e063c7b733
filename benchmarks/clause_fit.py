"""Fitting the clause model (chunk.clause_model) in numpy, and its cross-validation split by contract.

One logistic regression per clause type, all fitted together on the same features by full-batch Adam on the
mean log loss plus an L2 penalty. Used by scripts/train_clauses.py and benchmarks/clauses.py.
"""

from __future__ import annotations

import argparse
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from casetrack.chunk.roles.clause_model import ClauseModel

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


def add_options(parser: argparse.ArgumentParser) -> None:
    """The fitting options both scripts take."""
    parser.add_argument("--dims", type=int, default=8192, help="hashed word buckets (a power of two)")
    parser.add_argument("--steps", type=int, default=STEPS)
    parser.add_argument("--rate", type=float, default=RATE)
    parser.add_argument("--l2", type=float, default=L2)
    parser.add_argument("--fold-cache", type=Path, help="keep each fold's fitted weights in this folder (w<f>.npy, "
                        "b<f>.npy) and read them back in a later run with the same options")


def fold_fits(x: np.ndarray, y: np.ndarray, fold: np.ndarray, cache: Path | None = None,
              **kw: float) -> dict[int, Fitted]:
    """Each fold's model fitted on the other folds, read from `cache` when it holds them."""
    out = {}
    for f in np.unique(fold).tolist():
        w, b = (cache / f"w{f}.npy", cache / f"b{f}.npy") if cache is not None else (None, None)
        if w is not None and b is not None and w.exists() and b.exists():
            out[f] = Fitted(np.load(w), np.load(b))
            continue
        out[f] = fit(x[fold != f], y[fold != f], **kw)  # type: ignore[arg-type]
        if w is not None and b is not None and cache is not None:
            cache.mkdir(parents=True, exist_ok=True)
            np.save(w, out[f].weights)
            np.save(b, out[f].bias)
    return out


def passage_oof(texts: Sequence[str], fold: np.ndarray, fitted: dict[int, Fitted], types: Sequence[str],
                floor: int) -> np.ndarray:
    """Every passage's probabilities as ingest scores it (chunk.clause_model: whole and piece by piece, pieces
    over at least `floor` features) by the model of the folds it is not in."""
    out = np.zeros((len(texts), len(types)), np.float32)
    for f, model in fitted.items():
        rows = np.flatnonzero(fold == f)
        scorer = ClauseModel(tuple(types), model.weights, None, model.bias, 0.5, floor)
        out[rows] = scorer.passage_scores([texts[i] for i in rows.tolist()])
    return out


def scores(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Micro precision, recall and F1 of 0/1 predictions."""
    tp = float((pred * y).sum())
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def best_threshold(prob: np.ndarray, y: np.ndarray, min_precision: float | None = None) -> float:
    """The one threshold for every type that maximises micro F1 over the out-of-fold probabilities; with
    `min_precision`, the one that finds the most labelled passages while at least that share of the tagged ones
    is right (the issue's acceptance for the clause library: >= 65% of listed passages right), else max F1."""
    grid = np.round(np.arange(0.02, 0.91, 0.01), 3)
    scored = {float(t): scores((prob >= t).astype(np.float32), y) for t in grid}
    if min_precision is not None:
        kept = [t for t, (p, _, _) in scored.items() if p >= min_precision]
        if kept:
            return max(kept, key=lambda t: (scored[t][1], t))
    return max(scored, key=lambda t: scored[t][2])
