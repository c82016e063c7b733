"""Fitting the clause model on passages AND their pieces, in sparse form (numpy only), and per-type thresholds.

The dense passage matrix (8,451 x 8,192) fits in memory; passages with their paragraphs and sentences (~10x the
rows) at up to 65,536 buckets do not, so rows are kept as index arrays (CSR: `Rows`) and the model is fitted by
mini-batch Adam (a ragged gather and `np.add.reduceat` forward, a sorted segmented sum backward, only the
touched buckets' weights moved: "lazy" Adam). A piece is scored as chunk.clause_model scores it at ingest (its
weights summed over at least `floor` features' length), so what is trained is what is scored.

Per-type thresholds (`greedy_thresholds`): starting from a high threshold for every type, the type whose next
step down adds the most labelled passages per wrongly tagged one is lowered, while micro precision stays at
least the goal. Used by scripts/train_clauses.py and benchmarks/clauses.py; docs/clause_model.md.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from casetrack.chunk.roles.clause_model import ClauseModel, hashed_features, heading_features

GRID = np.round(np.arange(0.02, 0.91, 0.01), 3)  # thresholds tried


@dataclass(frozen=True, slots=True)
class Rows:
    """Sparse rows: row r's buckets are indices[indptr[r]:indptr[r + 1]] with the same values."""

    indices: np.ndarray  # int64
    indptr: np.ndarray  # int64, rows + 1
    values: np.ndarray  # float32

    def __len__(self) -> int:
        return len(self.indptr) - 1

    def take(self, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(buckets, values, each entry's row among `rows`, where each row starts) of the rows named."""
        starts, ends = self.indptr[rows], self.indptr[rows + 1]
        sizes = ends - starts
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        at = np.repeat(starts - offsets, sizes) + np.arange(int(sizes.sum()))
        return self.indices[at], self.values[at], np.repeat(np.arange(len(rows)), sizes), offsets


def buckets_of(texts: Sequence[str], dims: int, paths: Sequence[str] | None = None) -> list[np.ndarray]:
    """Each text's buckets as ingest finds them, with its heading path's (`paths[i]`) when given."""
    if paths is None:
        return [hashed_features(t, dims) for t in texts]
    return [np.union1d(hashed_features(t, dims), heading_features(h, dims)) for t, h in zip(texts, paths, strict=True)]


def rows_of(buckets: Sequence[np.ndarray], dims: int, floors: np.ndarray) -> Rows:
    """Rows of the texts' buckets folded to `dims` (a power of two no more than the buckets were hashed into),
    each row's values 1 / sqrt(max(features, its floor))."""
    folded = [np.unique(b & (dims - 1)) for b in buckets]
    sizes = np.array([len(b) for b in folded], np.int64)
    values = 1.0 / np.sqrt(np.maximum(np.maximum(sizes, floors), 1))
    return Rows(np.concatenate(folded).astype(np.int64), np.concatenate([[0], np.cumsum(sizes)]),
                np.repeat(values, sizes).astype(np.float32))


def fit(rows: Rows, y: np.ndarray, dims: int, epochs: int = 6, batch: int = 256, rate: float = 0.02,
        l2: float = 1e-6, positive_weight: np.ndarray | None = None, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(weights dims x types, bias) minimising the mean log loss of `y` (rows x types, 0/1), a positive of
    type j counting `positive_weight[j]` times; the rate falls linearly to zero over the epochs."""
    k = y.shape[1]
    w = np.zeros((dims, k), np.float32)
    prior = np.clip(y.mean(axis=0), 1e-4, 1 - 1e-4)
    b = np.log(prior / (1 - prior)).astype(np.float32)
    m_w, v_w, m_b, v_b = np.zeros_like(w), np.zeros_like(w), np.zeros_like(b), np.zeros_like(b)
    rng = np.random.default_rng(seed)
    filled = np.flatnonzero(np.diff(rows.indptr) > 0)  # a row without a feature ("---") teaches nothing
    total = epochs * -(-len(filled) // batch)
    t = 0
    for _ in range(epochs):
        order = rng.permutation(filled)
        for s in range(0, len(filled), batch):
            t += 1
            chosen = order[s:s + batch]
            idx, val, owner, starts = rows.take(chosen)
            p = 1.0 / (1.0 + np.exp(-(np.add.reduceat(w[idx] * val[:, None], starts, axis=0) + b)))
            target = y[chosen]
            err = (p - target) / len(chosen)
            if positive_weight is not None:
                err *= 1.0 + target * (positive_weight - 1.0)
            sort = np.argsort(idx, kind="stable")
            sorted_idx = idx[sort]
            bounds = np.flatnonzero(np.concatenate([[True], sorted_idx[1:] != sorted_idx[:-1]]))
            touched = sorted_idx[bounds]
            g_w = np.add.reduceat(err[owner[sort]] * val[sort, None], bounds, axis=0) + l2 * w[touched]
            step = rate * (1.0 - (t - 1) / total)
            _adam(w, m_w, v_w, touched, g_w, step, t)
            _adam(b, m_b, v_b, slice(None), err.sum(axis=0), step, t)
    return w, b


def _adam(param: np.ndarray, m: np.ndarray, v: np.ndarray, at: np.ndarray | slice, g: np.ndarray, rate: float,
          t: int, beta1: float = 0.9, beta2: float = 0.999, eps: float = 1e-8) -> None:
    m[at] = beta1 * m[at] + (1 - beta1) * g
    v[at] = beta2 * v[at] + (1 - beta2) * g * g
    param[at] -= rate * (m[at] / (1 - beta1**t)) / (np.sqrt(v[at] / (1 - beta2**t)) + eps)


def micro(pred: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    """Micro precision, recall and F1 of 0/1 predictions."""
    tp = float((pred * y).sum())
    p = tp / max(float(pred.sum()), 1.0)
    r = tp / max(float(y.sum()), 1.0)
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


def greedy_thresholds(prob: np.ndarray, y: np.ndarray, min_precision: float) -> np.ndarray:
    """Per type, a threshold on GRID: every type starts at the top of the grid; the (type, lower threshold)
    step that adds the most true positives per false positive is taken, as long as micro precision stays >=
    `min_precision` and the step finds a labelled passage."""
    k = prob.shape[1]
    # tp[j, g], fp[j, g]: tagged passages of type j at GRID[g] that are / are not labelled
    tagged = prob[:, :, None] >= GRID[None, None, :]
    tp = (tagged & (y[:, :, None] > 0)).sum(axis=0).astype(np.float64)
    fp = tagged.sum(axis=0) - tp
    at = np.full(k, len(GRID) - 1)
    total_tp, total_fp = tp[np.arange(k), at].sum(), fp[np.arange(k), at].sum()
    while True:
        best, best_gain = None, 0.0
        for j in range(k):
            d_tp, d_fp = tp[j, :at[j]] - tp[j, at[j]], fp[j, :at[j]] - fp[j, at[j]]
            ok = (d_tp > 0) & ((total_tp + d_tp) >= min_precision * (total_tp + d_tp + total_fp + d_fp))
            if ok.any():
                gain = np.where(ok, d_tp / (d_fp + 1.0), 0.0)
                g = int(np.argmax(gain))
                if gain[g] > best_gain:
                    best, best_gain = (j, g, d_tp[g], d_fp[g]), float(gain[g])
        if best is None:
            return GRID[at].astype(np.float32)
        j, g, d_tp_j, d_fp_j = best
        at[j], total_tp, total_fp = g, total_tp + d_tp_j, total_fp + d_fp_j


def one_threshold(prob: np.ndarray, y: np.ndarray, min_precision: float) -> float:
    """The one threshold for every type that finds the most labelled passages at micro precision >= the goal."""
    scored = {float(t): micro((prob >= t).astype(np.float32), y) for t in GRID}
    kept = [t for t, (p, _, _) in scored.items() if p >= min_precision]
    return max(kept, key=lambda t: (scored[t][1], t)) if kept else max(scored, key=lambda t: scored[t][2])


def nested(prob: np.ndarray, y: np.ndarray, fold: np.ndarray, min_precision: float) -> np.ndarray:
    """Out-of-fold tags with per-type thresholds chosen on the other folds' out-of-fold probabilities (nested:
    a fold's thresholds never saw its passages)."""
    pred = np.zeros_like(y)
    for f in np.unique(fold).tolist():
        cut = greedy_thresholds(prob[fold != f], y[fold != f], min_precision)
        pred[fold == f] = prob[fold == f] >= cut
    return pred


@dataclass(frozen=True, slots=True)
class Options:
    """How the model is fitted (scripts/train_clauses.py and benchmarks/clauses.py take the same options)."""

    dims: int = 65536
    floor: int = 1  # a piece's weights summed over at least this many features' length (1: its own)
    epochs: int = 10
    rate: float = 0.05
    batch: int = 256
    l2: float = 1e-6
    positive_power: float = 0.5  # a rare type's positives weigh (mean positives / its positives) ** this, at most 20
    headings: bool = True  # the heading path's words as features of the passage and of its pieces

    @classmethod
    def add(cls, parser: argparse.ArgumentParser) -> None:
        for name, default in ((f, getattr(cls(), f)) for f in cls.__slots__):
            flag = f"--{name.replace('_', '-')}"
            if isinstance(default, bool):
                parser.add_argument(flag, action=argparse.BooleanOptionalAction, default=default)
            else:
                parser.add_argument(flag, type=type(default), default=default)

    @classmethod
    def of(cls, args: argparse.Namespace) -> Options:
        return cls(**{f: getattr(args, f) for f in cls.__slots__})


@dataclass(frozen=True, slots=True)
class Examples:
    """Every passage and every piece of a passage (paragraph or sentence) as hashed buckets, with labels and the
    index of the passage each belongs to (a passage's own for a passage)."""

    buckets: list[np.ndarray]
    y: np.ndarray
    passage: np.ndarray
    is_piece: np.ndarray

    @classmethod
    def of(cls, passages: Sequence[str], y: np.ndarray, pieces: Sequence[tuple[int, str]], piece_y: np.ndarray,
           dims: int, paths: Sequence[str] | None = None) -> Examples:
        """`paths`: each passage's heading path, a feature of the passage and of its pieces (none: no headings)."""
        texts = [*passages, *(text for _, text in pieces)]
        owner = np.array([*range(len(passages)), *(i for i, _ in pieces)], np.int64)
        headings = None if paths is None else [paths[i] for i in owner.tolist()]
        return cls(buckets_of(texts, dims, headings), np.concatenate([y, piece_y]), owner,
                   np.arange(len(texts)) >= len(passages))

    def fit(self, passages: np.ndarray, options: Options) -> tuple[np.ndarray, np.ndarray]:
        """The model fitted on the passages named (a boolean mask over passages) and their pieces."""
        chosen = np.flatnonzero(passages[self.passage])
        rows = rows_of([self.buckets[i] for i in chosen], options.dims,
                       np.where(self.is_piece[chosen], options.floor, 0))
        y = self.y[chosen]
        positives = y.sum(axis=0)
        weight = np.clip((positives.mean() / np.maximum(positives, 1)) ** options.positive_power, 1, 20)
        return fit(rows, y, options.dims, options.epochs, options.batch, options.rate, options.l2,
                   weight.astype(np.float32) if options.positive_power else None)


def out_of_fold(passages: Sequence[Any], fold: np.ndarray, types: Sequence[str], examples: Examples,
                options: Options, cache: Path | None = None) -> np.ndarray:
    """Every passage's probabilities (cuad_passages.Passage, in `fold`) as ingest scores them (the passage whole
    and its pieces), by the model fitted on the other folds; each fold's fit kept in `cache` when given."""
    prob = np.zeros((len(passages), len(types)), np.float32)
    texts = [p.text for p in passages]
    paths = [p.heading for p in passages]
    for f in np.unique(fold).tolist():
        w_path, b_path = (cache / f"w{f}.npy", cache / f"b{f}.npy") if cache else (None, None)
        if w_path and b_path and w_path.exists() and b_path.exists():
            w, b = np.load(w_path).astype(np.float32), np.load(b_path)
        else:
            w, b = examples.fit(fold != f, options)
            if w_path and b_path and cache:
                cache.mkdir(parents=True, exist_ok=True)
                np.save(w_path, w.astype(np.float16))
                np.save(b_path, b)
        rows = np.flatnonzero(fold == f)
        model = ClauseModel(tuple(types), w.astype(np.float16).astype(np.float32), None, b, 0.5, options.floor,
                            options.headings)
        prob[rows] = model.passage_scores([texts[i] for i in rows.tolist()], paths=[paths[i] for i in rows.tolist()])
        print(f"fold {f} scored", file=sys.stderr, flush=True)
    return prob
