"""Exact dense-vector search: one contiguous float32 matrix per embedder.

Rows `[0, n)` of the matrix are live; a key<->row map names them. Removal swap-removes
(the last row moves into the hole), so the live rows stay contiguous and a query is one
matmul over `matrix[:n]` plus an argpartition. Vectors are L2-normalised on the way in
(queries too), so the score is the cosine similarity. At 384 dimensions, 100,000 chunks
take 154 MB; exact search over that is a few milliseconds, no ANN structure is needed.
"""

from __future__ import annotations

from collections.abc import Sequence, Set

import numpy as np

from casetrack.index.postings import Key

# Below this share of the live rows, a filter gathers its rows instead of scanning all.
_GATHER_SHARE = 0.25


def l2_normalize(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as float32."""
    v = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(v, axis=-1, keepdims=True)
    return np.divide(v, norms, out=np.zeros_like(v), where=norms > 0)


class DenseIndex:
    """Cosine search over L2-normalised vectors of one embedder."""

    __slots__ = ("_dim", "_keys", "_matrix", "_n", "_row_of")

    def __init__(self, dim: int) -> None:
        if dim <= 0:
            raise ValueError(f"dimension must be positive, got {dim}")
        self._dim = dim
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._n = 0
        self._keys: list[Key] = []
        self._row_of: dict[Key, int] = {}

    def __len__(self) -> int:
        return self._n

    def __contains__(self, key: object) -> bool:
        return key in self._row_of

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def matrix(self) -> np.ndarray:
        """The live rows (a read-only view; row i belongs to `keys()[i]`)."""
        view = self._matrix[: self._n]
        view.flags.writeable = False
        return view

    @property
    def nbytes(self) -> int:
        """Bytes held by the matrix, spare capacity included."""
        return int(self._matrix.nbytes)

    def keys(self) -> list[Key]:
        return list(self._keys)

    def add(self, keys: Sequence[Key], vectors: np.ndarray) -> None:
        """Insert or overwrite vectors (shape (len(keys), dim)).

        Raises ValueError on a shape mismatch, a repeated key or a non-finite value."""
        v = np.asarray(vectors, dtype=np.float32).reshape(-1, self._dim) if len(keys) else None
        if v is None:
            return
        if v.shape[0] != len(keys):
            raise ValueError(f"{len(keys)} keys but {v.shape[0]} vectors of dimension {self._dim}")
        if len(set(keys)) != len(keys):
            raise ValueError("keys within one add() must be distinct")
        if not np.isfinite(v).all():
            raise ValueError("vectors contain NaN or infinity")
        v = l2_normalize(v)
        new = [i for i, k in enumerate(keys) if k not in self._row_of]
        for i, key in enumerate(keys):
            row = self._row_of.get(key)
            if row is not None:
                self._matrix[row] = v[i]
        self._reserve(self._n + len(new))
        rows = slice(self._n, self._n + len(new))
        self._matrix[rows] = v[new]
        for offset, i in enumerate(new):
            self._row_of[keys[i]] = self._n + offset
            self._keys.append(keys[i])
        self._n += len(new)

    def remove(self, keys: Sequence[Key]) -> int:
        """Drop vectors by key (unknown keys are ignored); returns how many were removed."""
        removed = 0
        for key in keys:
            row = self._row_of.pop(key, None)
            if row is None:
                continue
            last = self._n - 1
            if row != last:
                moved = self._keys[last]
                self._matrix[row] = self._matrix[last]
                self._keys[row] = moved
                self._row_of[moved] = row
            self._keys.pop()
            self._n = last
            removed += 1
        if self._n < self._matrix.shape[0] // 4:  # give memory back after large deletions
            self._matrix = self._matrix[: max(self._n * 2, 16)].copy()
        return removed

    def search(self, query: np.ndarray, top_n: int, allowed: Set[Key] | None = None) -> tuple[list[Key], np.ndarray]:
        """The `top_n` most similar chunks, best first, as (keys, cosine scores).

        `allowed` restricts the result to those keys. Ties are broken by row."""
        q = self._query(query)
        if allowed is None:
            rows = None
            scores = self._matrix[: self._n] @ q
        elif len(allowed) < _GATHER_SHARE * self._n:
            rows = np.fromiter((self._row_of[k] for k in allowed if k in self._row_of), dtype=np.int64)
            scores = self._matrix[rows] @ q
        else:
            mask = np.zeros(self._n, dtype=bool)
            mask[[self._row_of[k] for k in allowed if k in self._row_of]] = True
            rows = np.flatnonzero(mask)
            scores = self._matrix[: self._n] @ q
            scores = scores[rows]
        top = _top(scores, top_n)
        found = top if rows is None else rows[top]
        return [self._keys[r] for r in found.tolist()], scores[top]

    def score_keys(self, query: np.ndarray, keys: Sequence[Key]) -> np.ndarray:
        """Cosine scores of the given chunks (NaN for a key without a vector)."""
        q = self._query(query)
        rows = [self._row_of.get(k, -1) for k in keys]
        out = np.full(len(keys), np.nan, dtype=np.float32)
        have = np.array([r >= 0 for r in rows], dtype=bool)
        if have.any():
            out[have] = self._matrix[np.array(rows)[have]] @ q
        return out

    def vectors(self, keys: Sequence[Key]) -> np.ndarray:
        """Copies of stored vectors (KeyError for an unknown key)."""
        return self._matrix[[self._row_of[k] for k in keys]].reshape(len(keys), self._dim)

    def _query(self, query: np.ndarray) -> np.ndarray:
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.size != self._dim:
            raise ValueError(f"query has dimension {q.size}, index has {self._dim}")
        return l2_normalize(q)

    def _reserve(self, rows: int) -> None:
        if rows <= self._matrix.shape[0]:
            return
        grown = np.zeros((max(rows, 16, self._matrix.shape[0] * 3 // 2), self._dim), dtype=np.float32)
        grown[: self._n] = self._matrix[: self._n]
        self._matrix = grown


def _top(scores: np.ndarray, top_n: int) -> np.ndarray:
    """Indices of the `top_n` largest scores, best first, ties by index."""
    if top_n <= 0 or scores.size == 0:
        return np.empty(0, dtype=np.int64)
    idx = np.arange(scores.size) if scores.size <= top_n else np.argpartition(-scores, top_n - 1)[:top_n]
    return idx[np.lexsort((idx, -scores[idx]))]
