"""Where in a case a quotation may be: every page's match key, and a fingerprint index over them.

The case's text is held as one string of match keys (keys.py; pages in order, a newline between
pages), so a quotation anywhere in the case is one C-speed `find` away. To find the passage a
quotation changed or misquoted, which no exact search finds, the key is also fingerprinted: the hash
of every run of `GRAM` key characters, of which one in `SAMPLE` (chosen by the hash, so a quotation and
its source keep the same ones) is kept with its position. A quotation's own kept hashes, looked up,
name the pages that share its runs, and where on them; one changed word leaves the runs around it.

numpy throughout: a 20,000-chunk case (~40 million key characters) is indexed in about a second,
and the index is ~9 bytes per `SAMPLE` key characters.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from casetrack.verify.keys import key_of, without_line_numbers

GRAM = 12  # key characters per fingerprinted run: about two words
SAMPLE = 8  # one run in SAMPLE is kept (on average)
COMMON = 2000  # a run kept more often than this says nothing about where a quotation is
_BLOCK = 1 << 22  # key characters hashed at once, to bound the temporary arrays (~50 MB)
_P = np.uint32(1_000_003)
_MIX = np.uint32(0x9E3779B1)
_KEEP_SHIFT = np.uint32(32 - int(np.log2(SAMPLE)))
PAGE_SEPARATOR = b"\n"


@dataclass(frozen=True, slots=True)
class PageEntry:
    """One page of the case as the index knows it."""

    document_id: str
    number: int
    bates: str | None = None


@dataclass(frozen=True, slots=True)
class Candidate:
    """A page that shares runs with a quotation: how many of the quotation's runs (`votes`), and where on the
    page's key they start and end."""

    page: int  # index into CaseKeys.pages
    votes: int
    key_start: int  # offsets into the page's own key
    key_end: int


class CaseKeys:
    """The match keys of every page of a case, with fingerprints."""

    def __init__(self, pages: list[PageEntry], key: bytes, starts: np.ndarray, grams: np.ndarray) -> None:
        self.pages = pages
        self.key = key
        self.starts = starts  # offset of each page's key in `key`; one more entry: the end
        self.grams = grams  # sorted (hash << 32 | position)

    @classmethod
    def build(cls, pages: Iterable[tuple[PageEntry, str]]) -> CaseKeys:
        entries: list[PageEntry] = []
        keys: list[bytes] = []
        for entry, text in pages:
            entries.append(entry)
            keys.append(key_of(without_line_numbers(text)))
        key = PAGE_SEPARATOR.join(keys)
        starts = np.zeros(len(keys) + 1, dtype=np.int64)
        if keys:
            np.cumsum([len(k) + 1 for k in keys], out=starts[1:])
        return cls(entries, key, starts, _fingerprints(key))

    @property
    def nbytes(self) -> int:
        return len(self.key) + self.grams.nbytes + self.starts.nbytes

    def page_of(self, position: int) -> int:
        return int(np.searchsorted(self.starts, position, side="right")) - 1

    def page_key(self, page: int) -> bytes:
        return self.key[int(self.starts[page]):int(self.starts[page + 1]) - 1]

    def find_all(self, literal: bytes, limit: int = 50) -> list[int]:
        """Pages whose key holds `literal` (at most `limit` of them), in case order."""
        found: list[int] = []
        at = self.key.find(literal)
        while at != -1 and len(found) < limit:
            page = self.page_of(at)
            if not found or found[-1] != page:
                found.append(page)
            at = self.key.find(literal, int(self.starts[page + 1]))
        return found

    def candidates(self, runs: list[str], limit: int = 5) -> list[Candidate]:
        """Pages sharing the most fingerprinted runs with `runs` (a quotation's literal keys, in order)."""
        offsets: list[int] = []
        hashes: list[np.ndarray] = []
        base = 0
        for run in runs:
            data = run.encode("ascii")
            if len(data) >= GRAM:
                h, kept = _hash_kept(np.frombuffer(data, dtype=np.uint8))
                hashes.append(h[kept])
                offsets.extend((base + np.flatnonzero(kept)).tolist())
            base += len(data)
        if not hashes:
            return []
        wanted = np.concatenate(hashes).astype(np.uint64) << np.uint64(32)
        lo = np.searchsorted(self.grams, wanted)
        hi = np.searchsorted(self.grams, wanted | np.uint64(0xFFFFFFFF), side="right")
        hits: dict[int, list[tuple[int, int]]] = {}  # page -> (diagonal, quotation run) of each shared run
        for q, (a, b) in enumerate(zip(lo.tolist(), hi.tolist(), strict=True)):
            if b - a > COMMON or a == b:
                continue
            positions = (self.grams[a:b] & np.uint64(0xFFFFFFFF)).astype(np.int64)
            pages = np.searchsorted(self.starts, positions, side="right") - 1
            for page, position in zip(pages.tolist(), positions.tolist(), strict=True):
                hits.setdefault(page, []).append((position - int(self.starts[page]) - offsets[q], q))
        found = [_cluster(page, page_hits, base) for page, page_hits in hits.items()]
        found.sort(key=lambda c: (-c.votes, c.page))
        return found[:limit]


def _cluster(page: int, hits: list[tuple[int, int]], length: int) -> Candidate:
    """The densest run of a page's hits whose diagonals (where on the page the quotation would start) lie within
    one quotation's length plus room for what it left out: where on the page the quotation most likely is."""
    hits.sort()
    reach = length + 600
    best, best_votes, lo = (0, 0), 0, 0
    for hi in range(len(hits)):
        while hits[hi][0] - hits[lo][0] > reach:
            lo += 1
        votes = len({q for _, q in hits[lo:hi + 1]})
        if votes > best_votes:
            best, best_votes = (lo, hi), votes
    start = max(0, hits[best[0]][0])
    return Candidate(page, best_votes, start, hits[best[1]][0] + length)


def _hash_kept(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The hash of each GRAM-long run of `block` (uint8), and which of them are kept."""
    n = len(block) - GRAM + 1
    if n <= 0:
        return np.zeros(0, dtype=np.uint32), np.zeros(0, dtype=bool)
    wide = block.astype(np.uint32)
    h = np.zeros(n, dtype=np.uint32)
    for j in range(GRAM):
        h *= _P
        h += wide[j:j + n]
    kept = ((h * _MIX) >> _KEEP_SHIFT) == 0
    return h, kept


def _fingerprints(key: bytes) -> np.ndarray:
    data = np.frombuffer(key, dtype=np.uint8)
    parts: list[np.ndarray] = []
    for lo in range(0, max(0, len(data) - GRAM + 1), _BLOCK):
        block = data[lo:lo + _BLOCK + GRAM - 1]
        h, kept = _hash_kept(block)
        positions = np.flatnonzero(kept).astype(np.uint64) + np.uint64(lo)
        parts.append((h[kept].astype(np.uint64) << np.uint64(32)) | positions)
    if not parts:
        return np.zeros(0, dtype=np.uint64)
    grams = np.concatenate(parts)
    grams.sort()
    return grams
