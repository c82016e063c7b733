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

import threading
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from casetrack.verify.keys import key_of, without_line_numbers

GRAM = 12  # key characters per fingerprinted run: about two words
SAMPLE = 8  # one run in SAMPLE is kept (on average)
COMMON = 500  # a run kept more often than this (boilerplate) says nothing about where a quotation is
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

    def __init__(self, pages: list[PageEntry], key: bytes, starts: np.ndarray) -> None:
        self.pages = pages
        self.key = key
        self.starts = starts  # offset of each page's key in `key`; one more entry: the end
        self._grams: np.ndarray | None = None
        self._lock = threading.Lock()

    @property
    def grams(self) -> np.ndarray:
        """The fingerprints, sorted (hash << 32 | position): built when first needed (a draft whose quotations are
        all where they are cited never needs them)."""
        with self._lock:
            if self._grams is None:
                self._grams = _fingerprints(self.key)
            return self._grams

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
        return cls(entries, key, starts)

    @property
    def nbytes(self) -> int:
        return len(self.key) + (self._grams.nbytes if self._grams is not None else 0) + self.starts.nbytes

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
        grams = self.grams
        lo = np.searchsorted(grams, wanted)
        hi = np.searchsorted(grams, wanted | np.uint64(0xFFFFFFFF), side="right")
        informative = [(q, a, b) for q, (a, b) in enumerate(zip(lo.tolist(), hi.tolist(), strict=True))
                       if 0 < b - a <= COMMON]
        if not informative:
            return []
        positions = np.concatenate([grams[a:b] for _, a, b in informative]) & np.uint64(0xFFFFFFFF)
        runs_of = np.concatenate([np.full(b - a, q, dtype=np.int64) for q, a, b in informative])
        pages = np.searchsorted(self.starts, positions.astype(np.int64), side="right") - 1
        # Votes: the distinct runs of the quotation each page shares; the clustering runs on the best pages only.
        pairs = np.unique(pages * (len(offsets) + 1) + runs_of)
        voted, votes = np.unique(pairs // (len(offsets) + 1), return_counts=True)
        best = voted[np.argsort(-votes, kind="stable")[:limit * 3]]
        diagonals = positions.astype(np.int64) - self.starts[pages] - np.asarray(offsets, dtype=np.int64)[runs_of]
        found = []
        for page in best.tolist():
            mask = pages == page
            found.append(_cluster(page, list(zip(diagonals[mask].tolist(), runs_of[mask].tolist(), strict=True)),
                                  base))
        found.sort(key=lambda c: (-c.votes, c.page))
        return found[:limit]


    def run_candidates(self, runs: list[tuple[str, int]], length: int, limit: int = 5) -> list[Candidate]:
        """Pages holding the most of `runs` (literal keys of a few quotation words each, with their offsets in the
        quotation's key of `length` characters), found by exact search of the whole case key. For a quotation too
        short to keep any fingerprint (one in SAMPLE runs of GRAM characters is kept): a changed word in it must
        still leave a run of words in place, and this finds where."""
        hits: dict[int, list[tuple[int, int]]] = {}
        for index, (literal, offset) in enumerate(runs):
            data, found = literal.encode("ascii"), list[int]()
            at = self.key.find(data)
            while at != -1 and len(found) <= COMMON:
                found.append(at)
                at = self.key.find(data, at + 1)
            if len(found) > COMMON:
                continue  # boilerplate: says nothing about where the quotation is
            for position in found:
                page = self.page_of(position)
                hits.setdefault(page, []).append((position - int(self.starts[page]) - offset, index))
        found_pages = [_cluster(page, page_hits, length) for page, page_hits in hits.items()]
        found_pages.sort(key=lambda c: (-c.votes, c.page))
        return found_pages[:limit]


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
