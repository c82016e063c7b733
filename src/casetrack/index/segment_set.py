"""The row space of a case's segments: segments in order, each with its live rows (a deleted or
replaced chunk is a dead row until a merge drops it). Rows are numbered across segments (segment
0's rows first); within a segment rows follow chunk ids. Equal scores rank by each chunk's stable place
(`order_of`: its document, then its place in it), not by row: chunk ids are drawn anew at every ingest."""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set

import numpy as np

from casetrack.index.postings import Key
from casetrack.index.recent import Recent
from casetrack.index.segment import Segment, encode_keys


class SegmentSet:
    """Segments with their live rows: the row space every view shares."""

    def __init__(self, segments: Sequence[Segment], alive: Sequence[np.ndarray | None]) -> None:
        if len(segments) != len(alive):
            raise ValueError(f"{len(segments)} segments but {len(alive)} liveness bitmaps")
        self.segments = list(segments)
        # None: every row alive (no bitmap to consult on the hot path)
        self.alive = [None if a is None or bool(a.all()) else a for a in alive]
        sizes = [s.rows for s in self.segments]
        self.offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
        np.cumsum(sizes, out=self.offsets[1:])
        self.live_rows = [s.rows if a is None else int(a.sum()) for s, a in zip(self.segments, self.alive, strict=True)]
        self._recent_rows = Recent()  # every signal of a search maps the same candidates to rows

    @property
    def capacity(self) -> int:
        return int(self.offsets[-1])

    def __len__(self) -> int:
        return sum(self.live_rows)

    def parts(self) -> Iterator[tuple[int, Segment, np.ndarray | None]]:
        """(row offset, segment, liveness or None) for each segment."""
        for i, segment in enumerate(self.segments):
            yield int(self.offsets[i]), segment, self.alive[i]

    def rows_of(self, keys: Sequence[Key] | Set[Key]) -> np.ndarray:
        """Global rows of `keys` in their order, -1 for a key absent or dead (read-only: shared)."""
        ordered = tuple(keys)
        return self._recent_rows.get(ordered, lambda: self._rows_of(ordered))

    def _rows_of(self, keys: Sequence[Key]) -> np.ndarray:
        encoded = encode_keys(keys)
        out = np.full(encoded.shape[0], -1, dtype=np.int64)
        for offset, segment, alive in self.parts():
            local = segment.rows_of(encoded)
            found = local >= 0
            if alive is not None:
                found[found] = alive[local[found]]
            out[found] = offset + local[found]
        return out

    def key(self, row: int) -> str:
        s = int(np.searchsorted(self.offsets, row, side="right")) - 1
        return self.segments[s].chunk_id(row - int(self.offsets[s]))

    def keys_at(self, rows: np.ndarray) -> list[Key]:
        """Chunk ids of global rows, in their order."""
        rows = np.asarray(rows, dtype=np.int64)
        if len(self.segments) == 1:
            return [k.decode() for k in self.segments[0].chunk_ids[rows].tolist()]
        out: list[Key] = [""] * rows.size
        seg = np.searchsorted(self.offsets, rows, side="right") - 1
        for s in np.unique(seg).tolist():
            at = np.flatnonzero(seg == s)
            ids = self.segments[s].chunk_ids[rows[at] - int(self.offsets[s])].tolist()
            for i, k in zip(at.tolist(), ids, strict=True):
                out[i] = k.decode()
        return out

    def order_of(self, rows: np.ndarray) -> np.ndarray:
        """The stable place (index.segment.stable_order) of each of global `rows`: equal scores rank by it."""
        rows = np.asarray(rows, dtype=np.int64)
        if len(self.segments) == 1:
            return self.segments[0].order_of(rows)
        out = np.empty(rows.size, dtype=np.uint64)
        seg = np.searchsorted(self.offsets, rows, side="right") - 1
        for s in np.unique(seg).tolist():
            at = np.flatnonzero(seg == s)
            out[at] = self.segments[s].order_of(rows[at] - int(self.offsets[s]))
        return out

    def live(self, row: int) -> bool:
        s = int(np.searchsorted(self.offsets, row, side="right")) - 1
        alive = self.alive[s]
        return alive is None or bool(alive[row - int(self.offsets[s])])

    def chunk_ids(self) -> Iterator[str]:
        for _, segment, alive in self.parts():
            ids = segment.chunk_ids if alive is None else segment.chunk_ids[alive]
            yield from (bytes(k).decode() for k in ids)

    def document_rows(self, doc_id: str) -> np.ndarray:
        """Live global rows of one document's chunks, ascending."""
        found = []
        for offset, segment, alive in self.parts():
            local = segment.document_rows(doc_id)
            if alive is not None:
                local = local[alive[local]]
            if local.size:
                found.append(offset + np.sort(local).astype(np.int64))
        return np.concatenate(found) if found else np.empty(0, dtype=np.int64)

    def documents_of_rows(self, rows: np.ndarray) -> set[str]:
        out: set[str] = set()
        seg = np.searchsorted(self.offsets, rows, side="right") - 1
        for s in np.unique(seg).tolist():
            segment = self.segments[s]
            local = rows[seg == s] - int(self.offsets[s])
            out.update(bytes(d).decode() for d in segment.doc_ids[np.unique(segment.chunk_doc[local])])
        return out

    def documents(self) -> dict[str, list[str]]:
        """Every document with a live chunk: its live chunk ids."""
        out: dict[str, list[str]] = {}
        for _, segment, alive in self.parts():
            for d in range(segment.doc_ids.shape[0]):
                rows = segment.doc_rows[int(segment.doc_indptr[d]):int(segment.doc_indptr[d + 1])]
                if alive is not None:
                    rows = rows[alive[rows]]
                if rows.size:
                    out.setdefault(bytes(segment.doc_ids[d]).decode(), []).extend(
                        segment.chunk_id(r) for r in rows.tolist())
        return out

    def document_count(self) -> int:
        ids = [s.doc_ids if a is None else s.doc_ids[np.unique(s.chunk_doc[a])] for _, s, a in self.parts()]
        if len(ids) == 1:
            return int(ids[0].shape[0])
        return int(np.unique(np.concatenate(ids)).size) if ids else 0
