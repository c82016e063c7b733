"""Incremental inverted postings shared by the BM25 and the sparse (SPLADE) index.

Layout. Every chunk key gets an integer *slot* (`SlotMap`, free-list reuse). For every
term id there is a pair of growable arrays, `slots[t]` (int32) and `values[t]` (float32),
whose first `size[t]` entries are the chunks containing the term; order is arbitrary.
For every slot we keep that chunk's sorted term ids, its values and the *position* of
each of its entries inside the term arrays.

Cost. Inserting a chunk appends one entry per distinct term. Deleting a chunk
swap-removes each of its entries (the last entry of the term moves into the hole and the
moved chunk's stored position is patched via a binary search over its term ids). Both are
proportional to the chunk's own distinct terms; no other term's postings are touched and
there are no tombstones, so document frequencies are exact at all times.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Set

import numpy as np

Key = Hashable  # a chunk key as the caller names it: int or str in practice
TieOrder = Callable[[np.ndarray], np.ndarray]  # rows -> a sortable key of each: equal scores rank in its order

_MIN_CAPACITY = 4


class SlotMap:
    """key <-> dense integer slot, reusing freed slots first."""

    __slots__ = ("_free", "_key_of", "_slot_of")

    def __init__(self) -> None:
        self._slot_of: dict[Key, int] = {}
        self._key_of: list[Key | None] = []
        self._free: list[int] = []

    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, key: object) -> bool:
        return key in self._slot_of

    @property
    def capacity(self) -> int:
        """One past the highest slot ever handed out: the length of per-slot arrays."""
        return len(self._key_of)

    def assign(self, key: Key) -> int:
        """A slot for a key that has none (raises KeyError if it already has one)."""
        if key in self._slot_of:
            raise KeyError(f"{key!r} already has a slot")
        if self._free:
            slot = self._free.pop()
            self._key_of[slot] = key
        else:
            slot = len(self._key_of)
            self._key_of.append(key)
        self._slot_of[key] = slot
        return slot

    def release(self, key: Key) -> int:
        """Free the key's slot and return it (raises KeyError for an unknown key)."""
        slot = self._slot_of.pop(key)
        self._key_of[slot] = None
        self._free.append(slot)
        return slot

    def slot(self, key: Key) -> int | None:
        return self._slot_of.get(key)

    def key(self, slot: int) -> Key:
        key = self._key_of[slot]
        if key is None:
            raise KeyError(f"slot {slot} is free")
        return key

    def keys(self) -> list[Key]:
        return list(self._slot_of)

    def slots_of(self, keys: Iterable[Key]) -> np.ndarray:
        """Slots of the known keys among `keys` (unknown keys are skipped), as int64."""
        get = self._slot_of.get
        found = [s for s in map(get, keys) if s is not None]
        return np.fromiter(found, dtype=np.int64, count=len(found))


class Postings:
    """term id -> (slots, values), maintained per chunk. See the module docstring."""

    __slots__ = ("_doc_pos", "_doc_terms", "_doc_values", "_size", "_slots", "_values")

    def __init__(self) -> None:
        self._slots: list[np.ndarray] = []
        self._values: list[np.ndarray] = []
        self._size: list[int] = []
        self._doc_terms: list[np.ndarray | None] = []
        self._doc_values: list[np.ndarray | None] = []
        self._doc_pos: list[np.ndarray | None] = []

    @property
    def term_capacity(self) -> int:
        return len(self._size)

    @property
    def nbytes(self) -> int:
        """Bytes in numpy arrays (spare capacity included, Python object overhead not)."""
        arrays = (*self._slots, *self._values, *self._doc_terms, *self._doc_values, *self._doc_pos)
        return sum(a.nbytes for a in arrays if a is not None)

    def df(self, term: int) -> int:
        return self._size[term] if 0 <= term < len(self._size) else 0

    def postings(self, term: int) -> tuple[np.ndarray, np.ndarray]:
        """Views (slots, values) of a term's live entries; empty for an unknown term."""
        if not 0 <= term < len(self._size):
            return _EMPTY_I, _EMPTY_F
        n = self._size[term]
        return self._slots[term][:n], self._values[term][:n]

    def doc(self, slot: int) -> tuple[np.ndarray, np.ndarray] | None:
        """(sorted term ids, values) of the chunk at `slot`, or None for an empty slot."""
        if slot >= len(self._doc_terms):
            return None
        terms, values = self._doc_terms[slot], self._doc_values[slot]
        if terms is None or values is None:
            return None
        return terms, values

    def insert(self, slot: int, terms: np.ndarray, values: np.ndarray) -> int:
        """Add one chunk; returns how many of its terms had no posting before.

        `terms` must be distinct (ValueError); the slot must be empty (KeyError)."""
        order = np.argsort(terms, kind="stable")
        terms = np.ascontiguousarray(terms[order], dtype=np.int32)
        values = np.ascontiguousarray(values[order], dtype=np.float32)
        if terms.size and (terms[1:] == terms[:-1]).any():
            raise ValueError("term ids of one chunk must be distinct")
        self._ensure_slot(slot)
        if self._doc_terms[slot] is not None:
            raise KeyError(f"slot {slot} is occupied")
        if terms.size:
            self._ensure_term(int(terms[-1]))
        sizes, all_slots, all_values = self._size, self._slots, self._values
        positions = []
        for term, value in zip(terms.tolist(), values.tolist(), strict=True):
            pos = sizes[term]
            if pos == all_slots[term].size:
                self._grow(term)
            all_slots[term][pos] = slot
            all_values[term][pos] = value
            sizes[term] = pos + 1
            positions.append(pos)
        self._doc_terms[slot], self._doc_values[slot] = terms, values
        self._doc_pos[slot] = np.array(positions, dtype=np.int32)
        return positions.count(0)

    def delete(self, slot: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Remove the chunk at `slot`; returns its (terms, values) and how many of its terms
        are left without postings. KeyError if the slot is empty."""
        terms, values, positions = self._doc_terms[slot], self._doc_values[slot], self._doc_pos[slot]
        if terms is None or values is None or positions is None:
            raise KeyError(f"slot {slot} is empty")
        sizes, all_slots, all_values, doc_terms, doc_pos = (
            self._size,
            self._slots,
            self._values,
            self._doc_terms,
            self._doc_pos,
        )
        emptied = 0
        for term, pos in zip(terms.tolist(), positions.tolist(), strict=True):
            last = sizes[term] - 1
            if pos != last:
                term_slots = all_slots[term]
                moved = int(term_slots[last])
                term_slots[pos] = moved
                all_values[term][pos] = all_values[term][last]
                moved_terms, moved_pos = doc_terms[moved], doc_pos[moved]
                assert moved_terms is not None and moved_pos is not None
                moved_pos[moved_terms.searchsorted(term)] = pos
            sizes[term] = last
            emptied += last == 0
        doc_terms[slot] = self._doc_values[slot] = doc_pos[slot] = None
        return terms, values, emptied

    def bulk_load(self, slots: np.ndarray, terms: np.ndarray, values: np.ndarray) -> None:
        """Fill an empty table from parallel arrays in one vectorised pass (index rebuild)."""
        if self._size:
            raise ValueError("bulk_load needs an empty table")
        slots = np.asarray(slots, dtype=np.int32)
        terms = np.asarray(terms, dtype=np.int32)
        values = np.asarray(values, dtype=np.float32)
        if slots.size == 0:
            return
        by_slot = np.lexsort((terms, slots))
        s_sorted, t_by_slot = slots[by_slot], terms[by_slot]
        same_slot = s_sorted[1:] == s_sorted[:-1]
        if (same_slot & (t_by_slot[1:] == t_by_slot[:-1])).any():
            raise ValueError("term ids of one chunk must be distinct")
        by_term = np.lexsort((slots, terms))
        t_sorted = terms[by_term]
        n_terms = int(t_sorted[-1]) + 1
        counts = np.bincount(t_sorted, minlength=n_terms)
        ends = np.cumsum(counts)
        # position of each entry inside its term's arrays = its rank within the term group
        pos_sorted = np.arange(t_sorted.size, dtype=np.int64) - np.repeat(ends - counts, counts)
        positions = np.empty(t_sorted.size, dtype=np.int32)
        positions[by_term] = pos_sorted
        # Each term's arrays start as views into two shared arrays (no per-term copy); a
        # term that outgrows its view gets its own array from `_grow`.
        self._slots = np.split(slots[by_term], ends[:-1])
        self._values = np.split(values[by_term], ends[:-1])
        self._size = counts.tolist()
        self._ensure_slot(int(s_sorted[-1]))
        bounds = np.flatnonzero(~same_slot) + 1
        for slot, doc_t, doc_v, doc_p in zip(
            s_sorted[np.concatenate(([0], bounds))].tolist(),
            np.split(t_by_slot, bounds),
            np.split(values[by_slot], bounds),
            np.split(positions[by_slot], bounds),
            strict=True,
        ):
            self._doc_terms[slot], self._doc_values[slot], self._doc_pos[slot] = doc_t, doc_v, doc_p

    def _ensure_slot(self, slot: int) -> None:
        missing = slot + 1 - len(self._doc_terms)
        if missing > 0:
            self._doc_terms.extend([None] * missing)
            self._doc_values.extend([None] * missing)
            self._doc_pos.extend([None] * missing)

    def _ensure_term(self, term: int) -> None:
        for _ in range(term + 1 - len(self._size)):
            self._slots.append(np.empty(_MIN_CAPACITY, dtype=np.int32))
            self._values.append(np.empty(_MIN_CAPACITY, dtype=np.float32))
            self._size.append(0)

    def _grow(self, term: int) -> None:
        cap = max(_MIN_CAPACITY, self._slots[term].size * 2)
        for arrays in (self._slots, self._values):
            bigger = np.empty(cap, dtype=arrays[term].dtype)
            bigger[: arrays[term].size] = arrays[term]
            arrays[term] = bigger


_EMPTY_I = np.empty(0, dtype=np.int32)
_EMPTY_F = np.empty(0, dtype=np.float32)
_EMPTY_I.flags.writeable = False
_EMPTY_F.flags.writeable = False


def top_positive(scores: np.ndarray, slots: SlotMap, top_n: int, allowed: Set[Key] | None
                 ) -> tuple[list[Key], np.ndarray]:
    """The `top_n` slots with a positive score (within `allowed` keys), best first, ties by slot."""
    best = top_positive_rows(scores, top_n, None if allowed is None else slots.slots_of(allowed))
    return [slots.key(int(s)) for s in best], scores[best]


def top_positive_rows(scores: np.ndarray, top_n: int, candidates: np.ndarray | None,
                      tie: TieOrder | None = None) -> np.ndarray:
    """Indices of the `top_n` positive scores (among `candidates`, if given), best first; equal scores in `tie`'s
    order of them (a stable order of the chunks: their document, then their place in it), then by index, also at
    the cut."""
    if top_n <= 0:
        return np.empty(0, dtype=np.int64)
    cand = np.flatnonzero(scores > 0) if candidates is None else candidates[scores[candidates] > 0]
    return _best(scores, cand.astype(np.int64, copy=False), top_n, tie)


def best_rows(scores: np.ndarray, rows: np.ndarray, top_n: int, tie: TieOrder | None = None) -> np.ndarray:
    """The `top_n` of `rows` with the highest scores (zero or not), best first; equal scores in `tie`'s order, then
    by row, also at the cut."""
    if top_n <= 0 or rows.size == 0:
        return np.empty(0, dtype=np.int64)
    return _best(scores, rows.astype(np.int64, copy=False), top_n, tie)


def _best(scores: np.ndarray, rows: np.ndarray, top_n: int, tie: TieOrder | None) -> np.ndarray:
    if rows.size > top_n:
        of_rows = scores[rows]
        cut = np.partition(of_rows, rows.size - top_n)[rows.size - top_n]  # the n-th best score
        rows = rows[of_rows >= cut]  # every row tied with the n-th too: which of them stay is the tie's to say
    keys = (rows, -scores[rows]) if tie is None else (rows, tie(rows), -scores[rows])
    return rows[np.lexsort(keys)][:top_n]
