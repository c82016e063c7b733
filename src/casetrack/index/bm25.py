"""An in-memory, incremental BM25 index.

Scores are computed at query time from raw term frequencies (not precomputed as bm25s
does), because N, df and avgdl change with every add/remove; a query is a numpy
accumulation over the postings of its terms only.

Persistence. The index is derived data. The lead stores one entry per chunk,
`chunk key -> {term: tf}` (`Bm25Index.entry(key)`, or `term_frequencies(tokens)` at ingest),
and rebuilds at case open with `index_state_from_entries`. Writing or deleting a chunk
therefore touches exactly one stored value, never a shared per-term list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass

import numpy as np

from casetrack.index.postings import Key, Postings, SlotMap, best_rows, top_positive
from casetrack.index.tokenize import term_frequencies

# --- variants: each a pair of small functions, as in bm25s -----------------------------

IdfFn = Callable[[np.ndarray, int], np.ndarray]
TfcFn = Callable[[np.ndarray, np.ndarray, float, float, float, float], np.ndarray]


def _idf_lucene(df: np.ndarray, n: int) -> np.ndarray:
    return np.log1p((n - df + 0.5) / (df + 0.5))


def _tfc_lucene(tf: np.ndarray, dl: np.ndarray, avgdl: float, k1: float, b: float, delta: float) -> np.ndarray:
    return tf / (tf + k1 * (1.0 - b + b * dl / avgdl))


def _idf_bm25plus(df: np.ndarray, n: int) -> np.ndarray:
    return np.log((n + 1.0) / df)


def _tfc_bm25plus(tf: np.ndarray, dl: np.ndarray, avgdl: float, k1: float, b: float, delta: float) -> np.ndarray:
    return (k1 + 1.0) * tf / (tf + k1 * (1.0 - b + b * dl / avgdl)) + delta


# "lucene" is Okapi BM25 with a never-negative idf and without the rank-neutral (k1 + 1)
# factor; "bm25+" (Lv & Zhai 2011) adds `delta` to every matching term so that long
# chunks are not pushed below chunks that lack the term.
VARIANTS: Mapping[str, tuple[IdfFn, TfcFn]] = {
    "lucene": (_idf_lucene, _tfc_lucene),
    "bm25+": (_idf_bm25plus, _tfc_bm25plus),
}


@dataclass(frozen=True, slots=True)
class Bm25Params:
    k1: float = 1.2
    b: float = 0.75
    method: str = "lucene"
    delta: float = 1.0  # bm25+ only

    def __post_init__(self) -> None:
        if self.method not in VARIANTS:
            raise ValueError(f"unknown BM25 method {self.method!r}; choose from {', '.join(VARIANTS)}")


@dataclass(frozen=True, slots=True)
class Bm25Stats:
    n_docs: int
    total_tokens: int
    avgdl: float
    vocab_size: int  # terms with df > 0


class Bm25Index:
    """BM25 over chunk keys. add/remove cost is proportional to the chunk's own terms."""

    __slots__ = ("_doc_len", "_live_terms", "_params", "_postings", "_slots", "_terms", "_total", "_vocab")

    def __init__(self, params: Bm25Params | None = None) -> None:
        self._params = params or Bm25Params()
        self._slots = SlotMap()
        self._postings = Postings()
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._doc_len = np.zeros(0, dtype=np.float32)
        self._total = 0
        self._live_terms = 0

    # --- mutation -------------------------------------------------------------------

    def add(self, key: Key, tokens: Iterable[str]) -> None:
        """Index a chunk's tokens (from `tokenize`); re-adding a key replaces it."""
        self.add_counts(key, term_frequencies(list(tokens)))

    def add_counts(self, key: Key, counts: Mapping[str, int]) -> None:
        """Index a chunk given as {term: tf}; re-adding a key replaces it.

        Raises ValueError for a non-positive term frequency."""
        if any(tf <= 0 for tf in counts.values()):
            raise ValueError(f"term frequencies of {key!r} must be positive")
        if key in self._slots:
            self.remove(key)
        slot = self._slots.assign(key)
        term_ids = np.fromiter((self._term_id(t) for t in counts), dtype=np.int32, count=len(counts))
        tfs = np.fromiter(counts.values(), dtype=np.float32, count=len(counts))
        self._live_terms += self._postings.insert(slot, term_ids, tfs)
        self._set_len(slot, int(sum(counts.values())))

    def remove(self, key: Key) -> bool:
        """Drop a chunk; False if the key was not indexed."""
        slot = self._slots.slot(key)
        if slot is None:
            return False
        _, _, emptied = self._postings.delete(slot)
        self._live_terms -= emptied
        self._total -= int(self._doc_len[slot])
        self._doc_len[slot] = 0.0
        self._slots.release(key)
        return True

    # --- queries --------------------------------------------------------------------

    def score(
        self, query_tokens: Sequence[str], top_n: int, allowed: Set[Key] | None = None
    ) -> tuple[list[Key], np.ndarray]:
        """The best `top_n` chunks with a positive score, best first, as (keys, scores).

        `allowed` restricts the result to those keys (a document filter). Each query token
        counts once per occurrence, as in bm25s. Ties are broken by slot."""
        return top_positive(self._accumulate(query_tokens), self._slots, top_n, allowed)

    def score_keys(self, query_tokens: Sequence[str], keys: Sequence[Key]) -> np.ndarray:
        """Scores of the given chunks (0.0 for no match, NaN for a key not indexed)."""
        scores = self._accumulate(query_tokens)
        out = np.full(len(keys), np.nan, dtype=np.float32)
        for i, key in enumerate(keys):
            slot = self._slots.slot(key)
            if slot is not None:
                out[i] = scores[slot]
        return out

    def _accumulate(self, query_tokens: Sequence[str]) -> np.ndarray:
        scores = np.zeros(self._slots.capacity, dtype=np.float32)
        n = len(self._slots)
        if n == 0:
            return scores
        ids = [self._vocab[t] for t in query_tokens if t in self._vocab]
        ids = [t for t in ids if self._postings.df(t) > 0]
        if not ids:
            return scores
        idf_fn, tfc_fn = VARIANTS[self._params.method]
        p = self._params
        avgdl = self._total / n
        idf = idf_fn(np.array([self._postings.df(t) for t in ids], dtype=np.float32), n)
        for t, w in zip(ids, idf.tolist(), strict=True):
            slots, tfs = self._postings.postings(t)
            # slots are distinct within one term, so fancy-index += is exact here
            scores[slots] += np.float32(w) * tfc_fn(tfs, self._doc_len[slots], avgdl, p.k1, p.b, p.delta)
        return scores

    # --- introspection and persistence -----------------------------------------------

    def __len__(self) -> int:
        return len(self._slots)

    def __contains__(self, key: object) -> bool:
        return key in self._slots

    @property
    def params(self) -> Bm25Params:
        return self._params

    def stats(self) -> Bm25Stats:
        n = len(self._slots)
        return Bm25Stats(n, self._total, self._total / n if n else 0.0, self._live_terms)

    @property
    def nbytes(self) -> int:
        """Bytes in numpy arrays: postings, per-chunk entries, lengths (not dict/list overhead)."""
        return self._postings.nbytes + int(self._doc_len.nbytes)

    def df(self, term: str) -> int:
        t = self._vocab.get(term)
        return 0 if t is None else self._postings.df(t)

    def keys_holding(self, term: str) -> list[Key]:
        """The chunks whose text holds `term`."""
        t = self._vocab.get(term)
        if t is None:
            return []
        slots, _ = self._postings.postings(t)
        return [self._slots.key(int(slot)) for slot in slots.tolist()]

    def best_holding(self, terms: Sequence[str], query_tokens: Sequence[str], top_n: int,
                     allowed: Set[Key] | None = None) -> list[Key]:
        """The best `top_n` chunks holding every one of `terms` (within `allowed`) by the query's BM25 score,
        best first, ties by slot."""
        slots = self._held_slots(terms[0]) if terms else np.empty(0, dtype=np.int64)
        for term in terms[1:]:
            slots = np.intersect1d(slots, self._held_slots(term))
        if allowed is not None and slots.size:
            slots = np.intersect1d(slots, self._slots.slots_of(allowed))
        return [self._slots.key(int(s)) for s in best_rows(self._accumulate(query_tokens), slots, top_n)]

    def holds(self, term: str, keys: Sequence[Key]) -> np.ndarray:
        """For each of `keys`, whether its chunk holds `term` (False for a key not indexed)."""
        held = set(self._held_slots(term).tolist())
        return np.fromiter((self._slots.slot(key) in held for key in keys), dtype=bool, count=len(keys))

    def holds_each(self, terms: Sequence[str], keys: Sequence[Key]) -> list[np.ndarray]:
        """`holds` of each of `terms` (index.segmented.SegmentedBm25.holds_each)."""
        return [self.holds(term, keys) for term in terms]

    def share_holding(self, term: str, keys: Sequence[Key]) -> float:
        """The share of `keys` whose chunk holds `term` (0.0 for no keys)."""
        return float(self.holds(term, keys).mean()) if keys else 0.0

    def _held_slots(self, term: str) -> np.ndarray:
        t = self._vocab.get(term)
        return np.empty(0, dtype=np.int64) if t is None else self._postings.postings(t)[0].astype(np.int64)

    def keys(self) -> list[Key]:
        return self._slots.keys()

    def entry(self, key: Key) -> dict[str, int]:
        """{term: tf} of a chunk: the per-chunk value to persist (KeyError if unknown)."""
        slot = self._slots.slot(key)
        doc = None if slot is None else self._postings.doc(slot)
        if doc is None:
            raise KeyError(key)
        terms, tfs = doc
        return {self._terms[t]: int(tf) for t, tf in zip(terms.tolist(), tfs.tolist(), strict=True)}

    def postings(self, term: str) -> dict[Key, int]:
        """{chunk key: tf} for a term: what a query for it reads."""
        t = self._vocab.get(term)
        if t is None:
            return {}
        slots, tfs = self._postings.postings(t)
        return {self._slots.key(s): int(tf) for s, tf in zip(slots.tolist(), tfs.tolist(), strict=True)}

    # --- internals ------------------------------------------------------------------

    def _term_id(self, term: str) -> int:
        t = self._vocab.get(term)
        if t is None:
            t = self._vocab[term] = len(self._terms)
            self._terms.append(term)
        return t

    def _set_len(self, slot: int, length: int) -> None:
        if slot >= self._doc_len.size:
            grown = np.zeros(max(16, 2 * self._doc_len.size, slot + 1), dtype=np.float32)
            grown[: self._doc_len.size] = self._doc_len
            self._doc_len = grown
        self._doc_len[slot] = length
        self._total += length

    @classmethod
    def _bulk(cls, entries: Iterable[tuple[Key, Mapping[str, int]]], params: Bm25Params | None) -> Bm25Index:
        index = cls(params)
        vocab = index._vocab
        intern = vocab.setdefault  # new term -> next id, in one C call per term
        assign = index._slots.assign
        term_ids: list[int] = []
        tfs: list[int] = []
        widths: list[int] = []
        keys: list[Key] = []
        for key, counts in entries:
            assign(key)  # KeyError on a duplicate key; slots are 0, 1, 2, ... in order
            keys.append(key)
            term_ids.extend([intern(t, len(vocab)) for t in counts])
            tfs.extend(counts.values())
            widths.append(len(counts))
        index._terms = list(vocab)
        if not keys:
            return index
        tf_arr = np.array(tfs, dtype=np.int64)
        if tf_arr.size and tf_arr.min() <= 0:
            bad = int(np.searchsorted(np.cumsum(widths), int(np.argmin(tf_arr)), side="right"))
            raise ValueError(f"term frequencies of {keys[bad]!r} must be positive")
        width_arr = np.array(widths, dtype=np.int64)
        slot_arr = np.repeat(np.arange(len(keys), dtype=np.int32), width_arr)
        terms = np.array(term_ids, dtype=np.int32)
        index._postings.bulk_load(slot_arr, terms, tf_arr.astype(np.float32))
        lengths = np.bincount(slot_arr, weights=tf_arr, minlength=len(keys)).astype(np.int64)
        index._doc_len = lengths.astype(np.float32)
        index._total = int(lengths.sum())
        index._live_terms = len(vocab)
        for slot in np.flatnonzero(width_arr == 0).tolist():  # chunks with no terms
            index._postings.insert(slot, _NO_TERMS, _NO_TFS)
        return index


_NO_TERMS = np.empty(0, dtype=np.int32)
_NO_TFS = np.empty(0, dtype=np.float32)


def index_state_from_entries(
    entries: Iterable[tuple[Key, Mapping[str, int]]], params: Bm25Params | None = None
) -> Bm25Index:
    """Rebuild an index from persisted per-chunk `{term: tf}` entries in one vectorised pass.

    Raises KeyError for a key given twice and ValueError for a non-positive tf."""
    return Bm25Index._bulk(entries, params)
