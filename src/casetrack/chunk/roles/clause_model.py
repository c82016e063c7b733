"""A passage's contract clause types by a linear model learned from expert labels (CUAD v1), not word lists.

Features: the passage's words and word pairs hashed into `dims` buckets (binary, unit length), beside its
E7 vector when the model was trained with one (the vector ingest computes anyway). One logistic output per
clause type; a type is tagged when its probability reaches the model's threshold (chosen by 5-fold
cross-validation split by contract, scripts/train_clauses.py, docs/clause_model.md). Pure numpy: the
artefact's arrays are read by embed/clause_artefact.py and handed in.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

_WORD = re.compile(r"[a-z]+|\d+")


_CACHE: dict[str, int] = {}  # word -> its hash: a passage's words are mostly ones seen before
_CACHE_LIMIT = 500_000
_PAIR = np.uint64(1_000_003)


def _hash(word: str) -> int:
    h = _CACHE.get(word)
    if h is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        h = _CACHE[word] = zlib.crc32(("0" * len(word) if word[0].isdigit() else word).encode())
    return h


def hashed_features(text: str, dims: int) -> np.ndarray:
    """The sorted distinct buckets of a text's words and adjacent word pairs (numbers as their digit count:
    "30 days" and "60 days" are one feature). `dims` is a power of two."""
    words = np.array([_hash(w) for w in _WORD.findall(text.lower())], dtype=np.uint64)
    pairs = (words[:-1] * _PAIR + words[1:]) >> np.uint64(7) if len(words) > 1 else words[:0]
    mask = np.uint64(dims - 1)
    return np.unique(np.concatenate([words & mask, pairs & mask])).astype(np.int64)


def feature_matrix(texts: Sequence[str], dims: int) -> np.ndarray:
    """Dense rows of the hashed features, each of unit length (training and cross-validation)."""
    out = np.zeros((len(texts), dims), dtype=np.float32)
    for i, text in enumerate(texts):
        buckets = hashed_features(text, dims)
        if len(buckets):
            out[i, buckets] = 1.0 / np.sqrt(len(buckets))
    return out


@dataclass(frozen=True, slots=True)
class ClauseModel:
    """Weights for hashed words (`dims` x types), for the E7 vector (dim x types, or none) and a bias per type."""

    types: tuple[str, ...]
    words: np.ndarray
    vector: np.ndarray | None
    bias: np.ndarray
    threshold: float

    @classmethod
    def of(cls, arrays: Mapping[str, np.ndarray], meta: Mapping[str, object]) -> ClauseModel:
        """The model from its artefact (embed.clause_artefact). Raises ValueError when the shapes disagree."""
        types = tuple(str(t) for t in meta["types"])  # type: ignore[attr-defined]
        words = np.asarray(arrays["words"], dtype=np.float32)
        vector = np.asarray(arrays["vector"], dtype=np.float32) if "vector" in arrays else None
        bias = np.asarray(arrays["bias"], dtype=np.float32)
        if words.shape[1] != len(types) or bias.shape != (len(types),) or (
                vector is not None and vector.shape[1] != len(types)) or words.shape[0] & (words.shape[0] - 1):
            raise ValueError(f"clause model arrays do not fit {len(types)} types")
        return cls(types, words, vector, bias, float(meta["threshold"]))  # type: ignore[arg-type]

    @property
    def dims(self) -> int:
        return int(self.words.shape[0])

    def probabilities(self, text: str, vector: np.ndarray | None = None) -> np.ndarray:
        """Per type, the probability that the passage is a clause of it. A model trained with E7 vectors and
        given none scores the words alone (its vector part counted as zero)."""
        buckets = hashed_features(text, self.dims)
        logits = self.bias.copy()
        if len(buckets):
            logits += self.words[buckets].sum(axis=0) / np.sqrt(len(buckets))
        if self.vector is not None and vector is not None and len(vector) == self.vector.shape[0]:
            v = np.asarray(vector, dtype=np.float32)
            norm = float(np.linalg.norm(v))
            if norm > 0:
                logits += (v / norm) @ self.vector
        return 1.0 / (1.0 + np.exp(-logits))

    def tag(self, text: str, vector: np.ndarray | None = None, threshold: float | None = None) -> dict[str, float]:
        """The clause types at or above the threshold, each with its probability, most likely first."""
        p = self.probabilities(text, vector)
        cut = self.threshold if threshold is None else threshold
        chosen = np.flatnonzero(p >= cut)
        return {self.types[i]: round(float(p[i]), 3) for i in chosen[np.argsort(-p[chosen])]}
