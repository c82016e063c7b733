"""The do-it-yourself baseline of issue 21, run beside CaseTrack on the same ingested text.

What a developer builds in an hour: the text CaseTrack extracted (its stored pages, OCR included, so both
read the same words) cut into 2,000-character windows, ranked by bm25s (Lucene BM25, English stopwords,
no stemming) alone, and by bm25s and all-MiniLM-L6-v2 (CaseTrack's packaged E7, the same model) fused by
reciprocal rank fusion (k = 60, equal weights, top 100 of each). No document names, headings, reference
handling or scoping. A window's page is the page it starts on.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import bm25s
import numpy as np

from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.store import documents as docstore

WINDOW_CHARS = 2000
FUSE_DEPTH = 100
RRF_K = 60

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True, slots=True)
class Window:
    doc: str  # document name
    page: int
    text: str


def windows(app: CaseTrack, case: Case) -> list[Window]:
    """Every document's stored page text, joined and cut every WINDOW_CHARS characters."""
    out: list[Window] = []
    with app.cases.store(case).reader() as db:
        for doc in docstore.list_documents(db):
            pages = sorted(docstore.pages(db, doc.id), key=lambda p: p.number)
            text, starts = "", []
            for page in pages:
                starts.append((len(text), page.number))
                text += page.text + "\n"
            for at in range(0, len(text), WINDOW_CHARS):
                piece = text[at:at + WINDOW_CHARS]
                if piece.strip():
                    number = max((n for start, n in starts if start <= at), default=1)
                    out.append(Window(doc.name, number, piece))
    return out


class DiyIndex:
    """bm25s over the windows, and (when an embedder is given) their MiniLM vectors."""

    def __init__(self, items: Sequence[Window], embed_documents: Embed | None, embed_query: Callable[[str], np.ndarray]
                 | None) -> None:
        self.items = list(items)
        self._bm25 = bm25s.BM25(k1=1.2, b=0.75, method="lucene")
        self._bm25.index(bm25s.tokenize([w.text for w in self.items], stopwords="en", show_progress=False),
                         show_progress=False)
        self._vectors = None if embed_documents is None else np.asarray(embed_documents([w.text for w in items]))
        self._embed_query = embed_query

    def bm25(self, query: str, k: int) -> list[int]:
        tokens = bm25s.tokenize([query], stopwords="en", show_progress=False)
        if not tokens.vocab:
            return []
        found, scores = self._bm25.retrieve(tokens, k=min(k, len(self.items)), show_progress=False)
        return [int(i) for i, s in zip(found[0], scores[0], strict=True) if s > 0]

    def hybrid(self, query: str, k: int) -> list[int]:
        if self._vectors is None or self._embed_query is None:
            return self.bm25(query, k)
        q = np.asarray(self._embed_query(query), dtype=np.float32)
        dense = [int(i) for i in np.argsort(-(self._vectors @ q))[:FUSE_DEPTH]]
        fused: dict[int, float] = {}
        for ranking in (self.bm25(query, FUSE_DEPTH), dense):
            for rank, i in enumerate(ranking, start=1):
                fused[i] = fused.get(i, 0.0) + 1.0 / (RRF_K + rank)
        return sorted(fused, key=lambda i: -fused[i])[:k]
