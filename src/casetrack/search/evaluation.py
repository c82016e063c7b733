"""Retrieval metrics for labelled query sets in the eval-dev format: pure functions, no I/O.

A labelled query names a document, character spans of the answer in that document's
*reference* text (`text/<doc>.txt`, pages separated by form feeds) and, for paginated
formats, the answer's page. Returned chunks carry offsets into CaseTrack's own page text,
which is not the reference text (another PDF extractor, OCR instead of ground truth,
DOCX/TXT split into approximate pages). So each chunk is mapped back to reference
offsets by *finding its text* in the reference:

  1. both texts are compared with all whitespace removed (extractors disagree mostly on
     line breaks and runs of spaces), keeping a map from each kept character back to its
     reference offset;
  2. the chunk is looked for on its own page of the reference (split on `\\f`) when that
     page exists, else in the whole reference;
  3. an exact find gives the span; otherwise (OCR text differs from ground truth) the
     longest common blocks of at least `_MIN_BLOCK` characters are aligned with difflib and
     the span runs from the first to the last block, provided the blocks cover at least
     half of the chunk.

A hit (document level + page): the chunk is from the labelled document and either its
reference span overlaps a labelled span or, when the label has a page, it lies on that
page. Character precision/recall@k follow LegalBench-RAG: the union of the reference
spans of the top k chunks, against the union of the labelled spans; characters of
chunks from other documents count as retrieved and irrelevant.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import fmean

_MIN_BLOCK = 8
_MIN_COVERAGE = 0.5

Span = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Reference:
    """One document's reference text, indexed for locating chunk text in it."""

    text: str
    pages: tuple[tuple[int, str, list[int]], ...]  # (page start offset, squeezed text, offsets)
    squeezed: str
    offsets: list[int]  # reference offset of each character of `squeezed`

    @classmethod
    def of(cls, text: str) -> Reference:
        squeezed, offsets = squeeze(text)
        pages = []
        start = 0
        for page in text.split("\f"):
            s, o = squeeze(page)
            pages.append((start, s, [start + i for i in o]))
            start += len(page) + 1
        return cls(text, tuple(pages), squeezed, offsets)

    def locate(self, chunk_text: str, page: int | None = None) -> Span | None:
        """Reference offsets [start, end) of a chunk's text, or None when it cannot be found."""
        needle, _ = squeeze(chunk_text)
        if not needle:
            return None
        if page is not None and len(self.pages) > 1 and 1 <= page <= len(self.pages):
            _, hay, offsets = self.pages[page - 1]
            found = _find(hay, offsets, needle)
            if found is not None:
                return found
        return _find(self.squeezed, self.offsets, needle)


def squeeze(text: str) -> tuple[str, list[int]]:
    """`text` without whitespace, and the offset in `text` of every character kept."""
    kept = [(i, c) for i, c in enumerate(text) if not c.isspace()]
    return "".join(c for _, c in kept), [i for i, _ in kept]


def _find(hay: str, offsets: list[int], needle: str) -> Span | None:
    at = hay.find(needle)
    if at >= 0:
        return offsets[at], offsets[at + len(needle) - 1] + 1
    if not hay:
        return None
    matcher = difflib.SequenceMatcher(None, hay, needle, autojunk=False)
    blocks = [b for b in matcher.get_matching_blocks() if b.size >= _MIN_BLOCK]
    if not blocks or sum(b.size for b in blocks) < _MIN_COVERAGE * len(needle):
        return None
    first, last = blocks[0], blocks[-1]
    return offsets[first.a], offsets[last.a + last.size - 1] + 1


@dataclass(frozen=True, slots=True)
class Label:
    """What a query's answer is: a document, reference spans and (paginated formats) a page."""

    doc: str
    spans: tuple[Span, ...]
    page: int | None = None


@dataclass(frozen=True, slots=True)
class Returned:
    """One returned chunk, already mapped to its reference span (None: not located)."""

    doc: str
    page: int
    span: Span | None


def is_hit(item: Returned, label: Label) -> bool:
    if item.doc != label.doc:
        return False
    if label.page is not None and item.page == label.page:
        return True
    return item.span is not None and any(_overlap(item.span, s) > 0 for s in label.spans)


def first_hit_rank(results: Sequence[Returned], label: Label) -> int | None:
    """1-based rank of the first hit, or None."""
    return next((i for i, item in enumerate(results, start=1) if is_hit(item, label)), None)


def char_precision_recall(results: Sequence[Returned], label: Label, k: int) -> tuple[float, float]:
    """LegalBench-RAG character precision and recall of the top k (see the module docstring)."""
    relevant = _union(list(label.spans))
    retrieved = 0
    found = 0
    by_doc: dict[str, list[Span]] = {}
    for item in results[:k]:
        if item.span is not None:
            by_doc.setdefault(item.doc, []).append(item.span)
    for doc, spans in by_doc.items():
        merged = _union(spans)
        retrieved += sum(e - s for s, e in merged)
        if doc == label.doc:
            found += sum(_overlap(a, b) for a in merged for b in relevant)
    total = sum(e - s for s, e in relevant)
    return (found / retrieved if retrieved else 0.0), (found / total if total else 0.0)


@dataclass(slots=True)
class Scores:
    """Aggregated metrics over a set of queries."""

    ks: tuple[int, ...] = (1, 5, 10)
    ranks: list[int | None] = field(default_factory=list)
    precision: dict[int, list[float]] = field(default_factory=dict)
    recall: dict[int, list[float]] = field(default_factory=dict)

    def add(self, results: Sequence[Returned], label: Label) -> int | None:
        rank = first_hit_rank(results, label)
        self.ranks.append(rank)
        for k in self.ks:
            p, r = char_precision_recall(results, label, k)
            self.precision.setdefault(k, []).append(p)
            self.recall.setdefault(k, []).append(r)
        return rank

    def __len__(self) -> int:
        return len(self.ranks)

    def recall_at(self, k: int) -> float:
        return fmean(r is not None and r <= k for r in self.ranks) if self.ranks else 0.0

    def mrr(self, cutoff: int = 10) -> float:
        return fmean(1.0 / r if r is not None and r <= cutoff else 0.0 for r in self.ranks) if self.ranks else 0.0

    def char_precision(self, k: int) -> float:
        return fmean(self.precision[k]) if self.precision.get(k) else 0.0

    def char_recall(self, k: int) -> float:
        return fmean(self.recall[k]) if self.recall.get(k) else 0.0


def _overlap(a: Span, b: Span) -> int:
    return max(0, min(a[1], b[1]) - max(a[0], b[0]))


def _union(spans: list[Span]) -> list[Span]:
    merged: list[Span] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged
