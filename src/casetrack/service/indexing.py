"""Index entries for a document's chunks: BM25 term frequencies (always) and a vector
per chunk from every embedder that is ready. A missing or failing model never stops
ingestion: the document records which embedders covered it, and reindex fills gaps."""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from casetrack.embed import MODELS, EmbedderPool, SparseVector
from casetrack.errors import CaseTrackError
from casetrack.index.tokenize import term_frequencies, tokenize
from casetrack.store.vectors import VectorValue

log = logging.getLogger(__name__)

BM25 = "E13"


@dataclass(frozen=True, slots=True)
class IndexEntries:
    terms: list[dict[str, int]]
    vectors: dict[str, list[VectorValue]] = field(default_factory=dict)
    embedders: tuple[str, ...] = (BM25,)
    embedded_at: float | None = None


class Indexer:
    def __init__(self, pool: EmbedderPool | None) -> None:
        self.pool = pool
        self.all_embedder_ids: tuple[str, ...] = tuple(MODELS)

    def document_embedders(self) -> tuple[str, ...]:
        return self.pool.available() if self.pool is not None else ()

    def build(self, texts: Sequence[str], only: Sequence[str] | None = None) -> IndexEntries:
        terms = [term_frequencies(tokenize(t)) for t in texts]
        vectors: dict[str, list[VectorValue]] = {}
        for model_id in only if only is not None else self.document_embedders():
            if not texts:
                vectors[model_id] = []
                continue
            try:
                vectors[model_id] = as_vectors(self.pool.get(model_id).embed_documents(list(texts)))  # type: ignore[union-attr]
            except CaseTrackError as exc:
                log.warning("Embedder %s skipped for this document: %s", model_id, exc.message)
        embedded = (*tuple(sorted(vectors)), BM25)
        return IndexEntries(terms, vectors, embedded, time.time() if vectors else None)


def as_vectors(output: object) -> list[VectorValue]:
    """Normalise an embedder's batch output to one storable value per text."""
    if isinstance(output, np.ndarray):
        return [np.asarray(row, dtype=np.float32) for row in output]
    values: list[VectorValue] = []
    for item in output:  # type: ignore[attr-defined]
        if isinstance(item, SparseVector):
            values.append((np.asarray(item.indices, np.uint32), np.asarray(item.values, np.float32)))
        else:
            values.append(np.asarray(item, dtype=np.float32))
    return values
