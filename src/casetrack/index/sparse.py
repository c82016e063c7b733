"""Sparse (SPLADE, E6) search: dot products over an inverted index of vocabulary ids.

Same postings layout as BM25 (`index/postings.py`), with the token weight as the value:
adding or removing a chunk touches only its own non-zero dimensions, and a query
accumulates `q_w * d_w` over the postings of its non-zero dimensions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass

import numpy as np

from casetrack.index.postings import Key, Postings, SlotMap, top_positive


@dataclass(frozen=True, slots=True, eq=False)
class SparseVector:
    """Non-zero dimensions of a sparse embedding: distinct int ids and float32 weights."""

    indices: np.ndarray
    values: np.ndarray

    def __post_init__(self) -> None:
        ids = np.asarray(self.indices, dtype=np.int64).reshape(-1)
        vals = np.asarray(self.values, dtype=np.float32).reshape(-1)
        if ids.shape != vals.shape:
            raise ValueError(f"{ids.size} indices but {vals.size} values")
        if ids.size and (ids.min() < 0 or np.unique(ids).size != ids.size):
            raise ValueError("sparse indices must be distinct and non-negative")
        if not np.isfinite(vals).all():
            raise ValueError("sparse values contain NaN or infinity")
        keep = vals != 0
        object.__setattr__(self, "indices", ids[keep].astype(np.int32))
        object.__setattr__(self, "values", vals[keep])

    @classmethod
    def from_mapping(cls, weights: Mapping[int, float]) -> SparseVector:
        return cls(np.fromiter(weights.keys(), dtype=np.int64), np.fromiter(weights.values(), dtype=np.float32))

    def to_dense(self, dim: int) -> np.ndarray:
        out = np.zeros(dim, dtype=np.float32)
        out[self.indices] = self.values
        return out


class SparseIndex:
    """Exact sparse dot-product search over chunk keys."""

    __slots__ = ("_postings", "_slots")

    def __init__(self) -> None:
        self._slots = SlotMap()
        self._postings = Postings()

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, key: object) -> bool:
        return key in self._slots

    @property
    def nbytes(self) -> int:
        """Bytes in numpy arrays (not dict/list overhead)."""
        return self._postings.nbytes

    def keys(self) -> list[Key]:
        return self._slots.keys()

    @classmethod
    def from_entries(cls, keys: Sequence[Key], vectors: Sequence[SparseVector]) -> SparseIndex:
        """Build in one vectorised pass (case open). KeyError for a repeated key."""
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} keys but {len(vectors)} vectors")
        index = cls()
        for key in keys:
            index._slots.assign(key)  # slots 0, 1, 2, ... in order
        widths = np.array([v.indices.size for v in vectors], dtype=np.int64)
        if widths.sum():
            index._postings.bulk_load(
                np.repeat(np.arange(len(keys), dtype=np.int32), widths),
                np.concatenate([v.indices for v in vectors]),
                np.concatenate([v.values for v in vectors]),
            )
        for slot in np.flatnonzero(widths == 0).tolist():
            index._postings.insert(slot, vectors[slot].indices, vectors[slot].values)
        return index

    def add(self, keys: Sequence[Key], vectors: Sequence[SparseVector]) -> None:
        """Insert or replace one sparse vector per key (ValueError if the counts differ)."""
        if len(keys) != len(vectors):
            raise ValueError(f"{len(keys)} keys but {len(vectors)} vectors")
        for key, vec in zip(keys, vectors, strict=True):
            if key in self._slots:
                self._postings.delete(self._slots.release(key))
            self._postings.insert(self._slots.assign(key), vec.indices, vec.values)

    def remove(self, keys: Sequence[Key]) -> int:
        """Drop vectors by key (unknown keys are ignored); returns how many were removed."""
        removed = 0
        for key in keys:
            if key in self._slots:
                self._postings.delete(self._slots.release(key))
                removed += 1
        return removed

    def vector(self, key: Key) -> SparseVector:
        """The stored vector of a chunk (KeyError if unknown)."""
        slot = self._slots.slot(key)
        doc = None if slot is None else self._postings.doc(slot)
        if doc is None:
            raise KeyError(key)
        return SparseVector(doc[0], doc[1])

    def search(self, query: SparseVector, top_n: int, allowed: Set[Key] | None = None) -> tuple[list[Key], np.ndarray]:
        """The `top_n` chunks with a positive dot product, best first, as (keys, scores)."""
        return top_positive(self._accumulate(query), self._slots, top_n, allowed)

    def score_keys(self, query: SparseVector, keys: Sequence[Key]) -> np.ndarray:
        """Dot products with the given chunks (NaN for a key not indexed)."""
        scores = self._accumulate(query)
        out = np.full(len(keys), np.nan, dtype=np.float32)
        for i, key in enumerate(keys):
            slot = self._slots.slot(key)
            if slot is not None:
                out[i] = scores[slot]
        return out

    def _accumulate(self, query: SparseVector) -> np.ndarray:
        scores = np.zeros(self._slots.capacity, dtype=np.float32)
        for term, weight in zip(query.indices.tolist(), query.values.tolist(), strict=True):
            slots, values = self._postings.postings(term)
            scores[slots] += np.float32(weight) * values  # slots are distinct within a term
        return scores
