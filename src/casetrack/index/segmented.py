"""A case's search indexes over a list of segments (`index.segment`) plus a liveness bitmap
per segment (a deleted or replaced chunk is a dead row until a merge drops it).

Rows are numbered across segments in order (segment 0's rows first); within a segment rows follow
chunk ids. Equal BM25 and SPLADE scores rank by each chunk's stable place (its document, then its
place in it: SegmentSet.order_of), not by row, since chunk ids are drawn anew at every ingest. The
three views answer the same calls as `Bm25Index`, `DenseIndex` and `SparseIndex`, so the pipeline
runs on either; BM25 scores are computed with the same float32 arithmetic, from df, N and avgdl over
the live rows of every segment.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from dataclasses import dataclass

import numpy as np

from casetrack.index.bm25 import VARIANTS, Bm25Params, Bm25Stats
from casetrack.index.dense import l2_normalize
from casetrack.index.postings import Key, best_rows, top_positive_rows
from casetrack.index.quantized import estimated_top, exact_scores, rescored, scanned_exactly, top_indices, top_rows
from casetrack.index.recent import Recent
from casetrack.index.segment import Csr, DensePart
from casetrack.index.segment_set import SegmentSet
from casetrack.index.sparse import SparseVector


def _live_postings(rows: np.ndarray, values: np.ndarray, alive: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    if alive is None or rows.size == 0:
        return rows, values
    keep = alive[rows]
    return rows[keep], values[keep]


def _top_positive(scores: np.ndarray, space: SegmentSet, top_n: int,
                  allowed: Set[Key] | None) -> tuple[list[Key], np.ndarray]:
    """The `top_n` rows with a positive score (within `allowed`), best first, equal scores by their chunks' stable
    place (SegmentSet.order_of)."""
    rows = None if allowed is None else space.rows_of(allowed)
    best = top_positive_rows(scores, top_n, None if rows is None else rows[rows >= 0], space.order_of)
    return space.keys_at(best), scores[best]


def _scores_at(scores: np.ndarray, rows: np.ndarray) -> np.ndarray:
    out = np.full(rows.shape[0], np.nan, dtype=np.float32)
    found = rows >= 0
    out[found] = scores[rows[found]]
    return out


def _stable(best: np.ndarray, rows: np.ndarray, scores: np.ndarray, space: SegmentSet) -> np.ndarray:
    """`best` (indices into `rows` and `scores`, best first) with equal scores in their chunks' stable place."""
    return best[np.lexsort((best, space.order_of(rows[best]), -scores[best]))] if best.size > 1 else best


class SegmentedBm25:
    """BM25 over the live rows of every segment (the calls of `Bm25Index` the service uses)."""

    def __init__(self, space: SegmentSet, params: Bm25Params | None = None) -> None:
        self._space = space
        self._params = params or Bm25Params()
        self._found: dict[str, list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]] = {}
        self._recent_scores = Recent(keep=4)  # a score per row each: 4 MB at a million chunks
        total = 0.0
        for _, segment, alive in space.parts():
            lengths = segment.lexical.lengths
            total += float(lengths.sum(dtype=np.float64) if alive is None else lengths[alive].sum(dtype=np.float64))
        self._total = round(total)

    def __len__(self) -> int:
        return len(self._space)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and int(self._space.rows_of([key])[0]) >= 0

    @property
    def params(self) -> Bm25Params:
        return self._params

    def stats(self) -> Bm25Stats:
        n = len(self._space)
        vocab = len({t for _, s, _ in self._space.parts() for t in s.lexical.vocabulary.terms()})
        return Bm25Stats(n, self._total, self._total / n if n else 0.0, vocab)

    def _postings(self, term: str) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
        """(offset, live local rows, tfs, lengths of those rows) per segment holding `term`; kept for the
        view's life (a search asks for the same terms several times: recall, ranking, exact, names)."""
        found = self._found.get(term)
        if found is None:
            if len(self._found) > 1024:
                self._found.clear()
            found = self._found[term] = self._lookup(term)
        return found

    def _lookup(self, term: str) -> list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]:
        out = []
        for offset, segment, alive in self._space.parts():
            t = segment.lexical.vocabulary.find(term)
            if t < 0:
                continue
            rows, tfs = _live_postings(*segment.lexical.postings.of(t), alive)
            if rows.size:
                out.append((offset, rows, tfs, segment.lexical.lengths))
        return out

    def df(self, term: str) -> int:
        return sum(rows.size for _, rows, _, _ in self._postings(term))

    def _accumulate(self, query_tokens: Sequence[str]) -> np.ndarray:
        """Every row's score for the query (read-only: recall and fusion ask for the same query)."""
        tokens = tuple(query_tokens)
        return self._recent_scores.get(tokens, lambda: self._score_all(tokens))

    def _score_all(self, query_tokens: Sequence[str]) -> np.ndarray:
        scores = np.zeros(self._space.capacity, dtype=np.float32)
        n = len(self._space)
        if n == 0:
            return scores
        found = {t: self._postings(t) for t in dict.fromkeys(query_tokens)}
        terms = [t for t in query_tokens if found[t]]
        if not terms:
            return scores
        idf_fn, tfc_fn = VARIANTS[self._params.method]
        p = self._params
        avgdl = self._total / n
        idf = idf_fn(np.array([sum(r.size for _, r, _, _ in found[t]) for t in terms], dtype=np.float32), n)
        for t, w in zip(terms, idf.tolist(), strict=True):
            for offset, rows, tfs, lengths in found[t]:
                # rows are distinct within one term, so fancy-index += is exact here
                scores[offset + rows] += np.float32(w) * tfc_fn(tfs, lengths[rows], avgdl, p.k1, p.b, p.delta)
        return scores

    def score(self, query_tokens: Sequence[str], top_n: int,
              allowed: Set[Key] | None = None) -> tuple[list[Key], np.ndarray]:
        """The best `top_n` chunks with a positive score, best first (equal scores by stable place)."""
        return _top_positive(self._accumulate(query_tokens), self._space, top_n, allowed)

    def score_keys(self, query_tokens: Sequence[str], keys: Sequence[Key]) -> np.ndarray:
        """Scores of the given chunks (0.0 for no match, NaN for a key not indexed)."""
        return _scores_at(self._accumulate(query_tokens), self._space.rows_of(keys))

    def _held_rows(self, term: str) -> np.ndarray:
        """Global live rows holding `term`, ascending."""
        found = [offset + rows.astype(np.int64) for offset, rows, _, _ in self._postings(term)]
        return np.concatenate(found) if found else np.empty(0, dtype=np.int64)

    def keys_holding(self, term: str) -> list[Key]:
        return self._space.keys_at(self._held_rows(term))

    def best_holding(self, terms: Sequence[str], query_tokens: Sequence[str], top_n: int,
                     allowed: Set[Key] | None = None) -> list[Key]:
        """The best `top_n` chunks holding every one of `terms` (within `allowed`) by the query's BM25 score,
        best first, equal scores by stable place: only those are decoded, however many chunks hold the terms."""
        rows = self._held_rows(terms[0]) if terms else np.empty(0, dtype=np.int64)
        for term in terms[1:]:
            rows = np.intersect1d(rows, self._held_rows(term), assume_unique=True)
        if allowed is not None and rows.size:
            within = self._space.rows_of(allowed)
            rows = np.intersect1d(rows, within[within >= 0])
        return self._space.keys_at(best_rows(self._accumulate(query_tokens), rows, top_n, self._space.order_of))

    def holds(self, term: str, keys: Sequence[Key]) -> np.ndarray:
        """For each of `keys`, whether its chunk holds `term` (False for a key not indexed)."""
        return self.holds_each([term], keys)[0]

    def holds_each(self, terms: Sequence[str], keys: Sequence[Key]) -> list[np.ndarray]:
        """`holds` of each of `terms`, the keys' rows looked up once (the role prior asks a dozen roles of the
        same hundred candidates)."""
        rows = self._space.rows_of(keys)
        out = []
        for term in terms:
            held = self._held_rows(term)
            if not held.size:
                out.append(np.zeros(rows.shape, dtype=bool))
                continue
            # a few keys against a common word's ~every row: a binary search each, not a pass over the postings
            at = np.minimum(np.searchsorted(held, rows), held.size - 1)
            out.append((rows >= 0) & (held[at] == rows))
        return out

    def documents_holding(self, term: str) -> int:
        """How many documents have a live chunk holding `term`."""
        rows = self._held_rows(term)
        return len(self._space.documents_of_rows(rows)) if rows.size else 0

    def share_holding(self, term: str, keys: Sequence[Key]) -> float:
        """The share of `keys` whose chunk holds `term` (0.0 for no keys)."""
        return float(self.holds(term, keys).mean()) if keys else 0.0


class SegmentedDense:
    """Cosine search over one embedder's vectors in every segment (the calls of `DenseIndex`)."""

    def __init__(self, space: SegmentSet, name: str, dim: int) -> None:
        self._space = space
        self._dim = dim
        # (offset, part, alive per vector position or None)
        self._parts: list[tuple[int, DensePart, np.ndarray | None]] = []
        count = 0
        for offset, segment, alive in space.parts():
            part = segment.dense.get(name)
            if part is None or part.rows.size == 0:
                continue
            if part.dim != dim:
                raise ValueError(f"{name} vectors of dimension {part.dim} in an index of dimension {dim}")
            live = None if alive is None else alive[part.rows]
            self._parts.append((offset, part, live))
            count += part.rows.size if live is None else int(live.sum())
        self._count = count
        # The rows and exact scores the last search found (rows ascending), with its query's bytes.
        self._last_found: tuple[bytes, np.ndarray, np.ndarray] | None = None

    def __len__(self) -> int:
        return self._count

    def __contains__(self, key: object) -> bool:
        return self._locate([key])[0] is not None

    @property
    def dim(self) -> int:
        return self._dim

    def search(self, query: np.ndarray, top_n: int, allowed: Set[Key] | None = None) -> tuple[list[Key], np.ndarray]:
        """The `top_n` most similar chunks, best first, as (keys, cosine scores); ties by row."""
        q = self._query(query)
        if allowed is not None:
            return self._search_within(q, list(allowed), top_n)
        found = self._found_by_part(q, top_n)
        if not found:
            return [], np.empty(0, dtype=np.float32)
        rows = np.concatenate([rows for rows, _ in found])
        scores = np.concatenate([scores for _, scores in found])
        best = _stable(top_indices(scores, top_n), rows, scores, self._space)  # identical passages tie exactly
        order = np.argsort(rows[best])
        self._last_found = (q.tobytes(), rows[best][order], scores[best][order])
        return self._space.keys_at(rows[best]), scores[best]

    def _found_by_part(self, q: np.ndarray, top_n: int) -> list[tuple[np.ndarray, np.ndarray]]:
        """Per part, in part order: global rows (ascending) and exact scores of its candidates. A small part
        gives its exact best `top_n`; the large ones' int8 candidates are chosen among together, so the
        rows read for rescoring are as many as for one segment, whatever the number of segments."""
        if top_n <= 0:
            return []
        wanted = rescored(top_n)
        estimated = {i: estimated_top(part, q, wanted, live)
                     for i, (_, part, live) in enumerate(self._parts) if not scanned_exactly(part)}
        estimates = np.concatenate([e for _, e in estimated.values()]) if estimated else np.empty(0)
        cutoff = -np.inf if estimates.size <= wanted else np.partition(estimates, estimates.size - wanted)[
            estimates.size - wanted]
        found = []
        for i, (offset, part, live) in enumerate(self._parts):
            if i in estimated:
                positions, estimate = estimated[i]
                positions = np.sort(positions[estimate >= cutoff])
                scores = exact_scores(part, q, positions)
            else:
                positions, scores = top_rows(part, q, top_n, live)
                order = np.argsort(positions)
                positions, scores = positions[order], scores[order]
            found.append((offset + part.rows[positions].astype(np.int64), scores))
        return found

    def _search_within(self, q: np.ndarray, keys: list[Key], top_n: int) -> tuple[list[Key], np.ndarray]:
        scores = self._scores_of(q, keys)
        have = np.flatnonzero(~np.isnan(scores))
        rows = self._space.rows_of(keys)[have]
        order = np.argsort(rows, kind="stable")
        rows, picked = rows[order], scores[have][order]
        best = _stable(top_indices(picked, top_n), rows, picked, self._space)
        return self._space.keys_at(rows[best]), picked[best]

    def score_keys(self, query: np.ndarray, keys: Sequence[Key]) -> np.ndarray:
        """Cosine scores of the given chunks (NaN for a key without a vector)."""
        return self._scores_of(self._query(query), keys)

    def vectors(self, keys: Sequence[Key]) -> np.ndarray:
        """Stored (normalised) vectors (KeyError for a key without one)."""
        out = np.empty((len(keys), self._dim), dtype=np.float32)
        for i, where in enumerate(self._locate(keys)):
            if where is None:
                raise KeyError(keys[i])
            part, position = where
            out[i] = part.floats.take(np.array([position]))[0]
        return out

    def _scores_of(self, q: np.ndarray, keys: Sequence[Key]) -> np.ndarray:
        out = np.full(len(keys), np.nan, dtype=np.float32)
        rows = self._space.rows_of(keys)
        last = self._last_found  # the fusion scores the rows this query's recall just found: not read again
        if last is not None and last[0] == q.tobytes() and last[1].size:
            at = np.minimum(np.searchsorted(last[1], rows), last[1].size - 1)
            known = (rows >= 0) & (last[1][at] == rows)
            out[known] = last[2][at[known]]
            rows = np.where(known, -1, rows)
        read = []
        for offset, part, _ in self._parts:
            targets, positions = _positions(part, rows - offset)
            order = np.argsort(positions, kind="stable")  # ascending positions read fastest from disk
            out[targets[order]] = exact_scores(part, q, positions[order])
            read.append(targets)
        self._remember(q, rows, out, np.concatenate(read) if read else np.empty(0, dtype=np.int64))
        return out

    def _remember(self, q: np.ndarray, rows: np.ndarray, scores: np.ndarray, read: np.ndarray) -> None:
        """Add the rows just read from disk (at `read`) to the query's remembered ones: the score a result
        shows (service.search.scoring) asks again for the cosines of the few the fusion ranked first."""
        if not read.size:
            return
        last, key = self._last_found, q.tobytes()
        kept_rows, kept_scores = (last[1], last[2]) if last is not None and last[0] == key else ((), ())
        merged = np.concatenate([kept_rows, rows[read]]).astype(np.int64)
        unique, first = np.unique(merged, return_index=True)  # ascending, each row once
        self._last_found = (key, unique, np.concatenate([kept_scores, scores[read]]).astype(np.float32)[first])

    def _locate(self, keys: Sequence[Key]) -> list[tuple[DensePart, int] | None]:
        rows = self._space.rows_of(keys)
        found: list[tuple[DensePart, int] | None] = [None] * len(keys)
        for offset, part, _ in self._parts:
            targets, positions = _positions(part, rows - offset)
            for i, position in zip(targets.tolist(), positions.tolist(), strict=True):
                found[i] = (part, position)
        return found

    def _query(self, query: np.ndarray) -> np.ndarray:
        q = np.asarray(query, dtype=np.float32).reshape(-1)
        if q.size != self._dim:
            raise ValueError(f"query has dimension {q.size}, index has {self._dim}")
        return l2_normalize(q)


def _positions(part: DensePart, local: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For segment-local rows (negative or past the segment for other segments' rows): the indices of
    those holding a vector in `part`, and their positions in it."""
    inside = np.flatnonzero(local >= 0)
    if inside.size == 0 or part.rows.size == 0:
        return inside, inside
    pos = np.minimum(np.searchsorted(part.rows, local[inside]), part.rows.size - 1)
    hit = part.rows[pos] == local[inside]
    return inside[hit], pos[hit].astype(np.int64)


class SegmentedSparse:
    """SPLADE dot products over every segment (the calls of `SparseIndex` the pipeline uses)."""

    def __init__(self, space: SegmentSet, name: str) -> None:
        self._space = space
        self._parts: list[tuple[int, Csr, np.ndarray | None]] = []
        count = 0
        for offset, segment, alive in space.parts():
            csr = segment.sparse.get(name)
            if csr is not None:
                self._parts.append((offset, csr, alive))
                holds = np.zeros(segment.rows, dtype=bool)
                holds[csr.rows] = True
                count += int((holds if alive is None else holds & alive).sum())
        self._count = count

    def __len__(self) -> int:
        return self._count

    def _accumulate(self, query: SparseVector) -> np.ndarray:
        scores = np.zeros(self._space.capacity, dtype=np.float32)
        for term, weight in zip(query.indices.tolist(), query.values.tolist(), strict=True):
            for offset, csr, alive in self._parts:
                rows, values = _live_postings(*csr.of(term), alive)
                scores[offset + rows] += np.float32(weight) * values  # rows are distinct within a term
        return scores

    def search(self, query: SparseVector, top_n: int, allowed: Set[Key] | None = None) -> tuple[list[Key], np.ndarray]:
        return _top_positive(self._accumulate(query), self._space, top_n, allowed)

    def score_keys(self, query: SparseVector, keys: Sequence[Key]) -> np.ndarray:
        return _scores_at(self._accumulate(query), self._space.rows_of(keys))


@dataclass(frozen=True, slots=True)
class SegmentedIndexes:
    """The three views over one SegmentSet."""

    space: SegmentSet
    bm25: SegmentedBm25
    dense: dict[str, SegmentedDense]
    sparse: dict[str, SegmentedSparse]

    @classmethod
    def over(cls, space: SegmentSet) -> SegmentedIndexes:
        dims: dict[str, int] = {}
        sparse_names: set[str] = set()
        for segment in space.segments:
            for name, part in segment.dense.items():
                dims.setdefault(name, part.dim)
            sparse_names.update(segment.sparse)
        dense = {name: SegmentedDense(space, name, dim) for name, dim in sorted(dims.items())}
        sparse = {name: SegmentedSparse(space, name) for name in sorted(sparse_names)}
        return cls(space, SegmentedBm25(space), {n: d for n, d in dense.items() if len(d)},
                   {n: s for n, s in sparse.items() if len(s)})
