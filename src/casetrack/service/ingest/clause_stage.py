"""The clause library's learned decision (issue 34): a second stage that reads, for each passage and clause type of
an agreement, the classifier's probability beside what the rest of the agreement says about that type (the
contract's best passage for it, the passage's rank, its neighbours, where it stands) and the passage's other
types, and gives the probability that the passage is the clause. A logistic regression per type, learned from
out-of-fold probabilities by benchmarks/clause_stage.py (docs/clause_model.md, "Use at ingest"). Pure numpy.

An artefact may hold a second such stage that also reads what a passage means: per type, the log-odds of a small
logistic regression on the passage's vector from the embedder ingest already runs (`VectorModel`), and their gap to
the agreement's best. The words say which clause a passage looks like; the vector catches a clause worded in a way
the words model never saw ("a minimum of 10,000 units each quarter" as a minimum commitment). Ingest uses it when
that embedder embedded the agreement, the plain stage otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

EPS = 1e-4  # probabilities are clipped to [EPS, 1 - EPS] before their log-odds are taken
# The features of a (passage, type), in the order of the stage's weights (after the bias).
FEATURES = ("log_odds", "contract_best", "gap_to_best", "is_best", "log_rank", "previous", "next",
            "position", "is_first", "log_passages", "best_over_second", "log_near_best")
WEIGHTS, CENTRE = "stage_weights", "stage_centre"  # the artefact's arrays (embed.clause_artefact)
# The stage that also reads a passage's vector: its features after FEATURES, and the artefact's names for it.
VECTOR_FEATURES = ("vector_log_odds", "vector_gap_to_best")
VECTOR_WEIGHTS, VECTOR_CENTRE = "stage_vector_weights", "stage_vector_centre"
VECTOR_MODEL, VECTOR_MODEL_CENTRE = "vector_weights", "vector_centre"  # the per-type model of a vector


@dataclass(frozen=True, slots=True)
class StageFiles:
    """Where an artefact keeps one stage: its arrays' names and its meta.json keys (the threshold; the embedder
    whose vectors it reads, for the stage that reads them)."""

    weights: str
    centre: str
    threshold: str
    embedder: str | None = None


PLAIN = StageFiles(WEIGHTS, CENTRE, "stage_threshold")
WITH_VECTORS = StageFiles(VECTOR_WEIGHTS, VECTOR_CENTRE, "stage_vector_threshold", "stage_vector_embedder")


def log_odds(p: np.ndarray) -> np.ndarray:
    q = np.clip(p, EPS, 1 - EPS)
    return np.asarray(np.log(q / (1 - q)))


def documents(n: int, document: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    """(where each document's rows start, each row's document as 0, 1, ...) of `n` rows (None: one document)."""
    if document is None:
        return np.zeros(1, dtype=np.int64), np.zeros(n, dtype=np.int64)
    ids = np.asarray(document)
    first = np.concatenate([[True], ids[1:] != ids[:-1]])
    return np.flatnonzero(first), np.cumsum(first) - 1


def stage_features(best: np.ndarray, document: np.ndarray | None = None) -> np.ndarray:
    """passages x types x FEATURES of probabilities `best` (passages x types; `document` as in `documents`)."""
    n, types = best.shape
    starts, group = documents(n, document)
    ends = np.append(starts[1:], n)
    size = (ends - starts)[group]
    pos = np.arange(n) - starts[group]
    rank, near, second = np.zeros((n, types)), np.zeros((n, types)), np.full((len(starts), types), EPS)
    for d, (s, e) in enumerate(zip(starts, ends, strict=True)):
        b = best[s:e]
        order = np.argsort(-b, axis=0, kind="stable")
        np.put_along_axis(rank[s:e], order, np.broadcast_to(np.arange(e - s)[:, None], b.shape).astype(float), 0)
        near[s:e] = (b >= 0.5 * b.max(axis=0)).sum(axis=0)
        if e - s > 1:
            second[d] = np.sort(b, axis=0)[-2]
    top = np.maximum.reduceat(best, starts, axis=0)
    first, last = pos == 0, pos == size - 1
    previous = np.where(first[:, None], EPS, np.roll(best, 1, axis=0))
    following = np.where(last[:, None], EPS, np.roll(best, -1, axis=0))
    odds, best_odds = log_odds(best), log_odds(top)[group]
    row = np.stack([pos / np.maximum(size - 1, 1), first, np.log(size)], axis=1).astype(float)
    return np.stack([
        odds, best_odds, odds - best_odds, (rank == 0).astype(float), np.log1p(rank),
        log_odds(previous), log_odds(following), *(np.broadcast_to(row[:, i:i + 1], (n, types)) for i in range(3)),
        (log_odds(top) - log_odds(second))[group], np.log(near),
    ], axis=2)


def vector_features(odds: np.ndarray, document: np.ndarray | None = None) -> np.ndarray:
    """passages x types x VECTOR_FEATURES of the vector model's log-odds `odds` (passages x types)."""
    starts, group = documents(len(odds), document)
    return np.stack([odds, odds - np.maximum.reduceat(odds, starts, axis=0)[group]], axis=2)


@dataclass(frozen=True, slots=True)
class VectorModel:
    """Per type, a logistic regression on a passage's vector: `weights` ((dims + 1) x types, the bias last) over the
    vector standardised by `centre` (2 x dims: the training vectors' means and spreads)."""

    weights: np.ndarray
    centre: np.ndarray

    @property
    def dims(self) -> int:
        return int(self.centre.shape[1])

    def log_odds(self, vectors: np.ndarray) -> np.ndarray:
        """passages x types: each passage's log-odds of each type from its vector alone."""
        z = (np.asarray(vectors, np.float64) - self.centre[0]) / self.centre[1]
        return np.asarray(np.einsum("nd,dt->nt", z, self.weights[:-1]) + self.weights[-1])  # no BLAS: see below


@dataclass(frozen=True, slots=True)
class ClauseStage:
    """Per type, a bias, a weight per FEATURES and a weight per type's log-odds in the same passage (types x
    (1 + len(FEATURES) + types)); the features' and log-odds' means and spreads (2 x (len(FEATURES) + types))
    they are standardised by; and the probability from which a passage is tagged."""

    weights: np.ndarray
    centre: np.ndarray
    threshold: float
    vector_model: VectorModel | None = None  # the stage that reads passages' vectors: their model
    embedder: str | None = None  # ... and the embedder whose vectors they are ("E7")

    @classmethod
    def of(cls, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any], files: StageFiles = PLAIN
           ) -> ClauseStage | None:
        """The stage an artefact keeps in `files` (None when it has none: its `ClauseRule` decides alone, or the
        plain stage when it is the one with vectors). Raises ValueError when its shapes do not fit the artefact's
        types."""
        if files.threshold not in meta or files.weights not in arrays or files.centre not in arrays:
            return None
        types = len(meta["types"])
        k = len(FEATURES) + (len(VECTOR_FEATURES) if files.embedder else 0)
        weights, centre = np.asarray(arrays[files.weights], np.float64), np.asarray(arrays[files.centre], np.float64)
        if weights.shape != (types, 1 + k + types) or centre.shape != (2, k + types):
            raise ValueError(f"the clause stage's arrays do not fit {types} types")
        if not files.embedder:
            return cls(weights, centre, float(meta[files.threshold]))
        model = VectorModel(np.asarray(arrays.get(VECTOR_MODEL), np.float64),
                            np.asarray(arrays.get(VECTOR_MODEL_CENTRE), np.float64))
        if model.centre.ndim != 2 or model.centre.shape[0] != 2 or model.weights.shape != (model.dims + 1, types):
            raise ValueError(f"the clause stage's vector model does not fit {types} types")
        return cls(weights, centre, float(meta[files.threshold]), model, str(meta[files.embedder]))

    def reads(self, vectors: np.ndarray | None, passages: int) -> bool:
        """Whether this stage can decide passages with these vectors: a stage without a vector model reads none;
        one with a model needs one vector of its size per passage."""
        if self.vector_model is None:
            return True
        return vectors is not None and vectors.shape == (passages, self.vector_model.dims)

    def probability(self, best: np.ndarray, document: np.ndarray | None = None,
                    vectors: np.ndarray | None = None) -> np.ndarray:
        """passages x types: how likely each passage is each type's clause, seeing its whole document (and, for
        the stage with a vector model, each passage's `vectors`, passages x dims: `reads`)."""
        feats = stage_features(best, document)
        if self.vector_model is not None:
            if vectors is None or not self.reads(vectors, len(best)):
                raise ValueError("this clause stage needs one vector a passage from its embedder")
            feats = np.concatenate([feats, vector_features(self.vector_model.log_odds(vectors), document)], axis=2)
        return self.probability_of(feats, log_odds(best))

    def probability_of(self, feats: np.ndarray, odds: np.ndarray) -> np.ndarray:
        """`probability` from the features (stage_features, or more per (passage, type) when the stage was fitted
        on more: benchmarks/clause_stage_variants.py) and log-odds of the passages' probabilities."""
        k = feats.shape[2]
        feats = (feats - self.centre[0, :k]) / self.centre[1, :k]
        odds = (odds - self.centre[0, k:]) / self.centre[1, k:]
        # einsum's own loops, not a BLAS product: a BLAS call at ingest wakes the library's thread pool, whose
        # threads then spin on the other cores (~0.5 ms of CPU a page on the 200-page benchmark for a product
        # of a few hundred rows)
        z = (self.weights[:, 0] + np.einsum("ntk,tk->nt", feats, self.weights[:, 1:1 + k])
             + np.einsum("nj,tj->nt", odds, self.weights[:, 1 + k:]))
        return np.asarray(1 / (1 + np.exp(-np.clip(z, -30, 30))))
