"""The search pipeline's readers of per-passage matrices that stay on disk (the pipeline does no I/O): a long
passage's window vectors (search.windows) and E12 token matrices (the ColBERT stage), read for the few passages
each stage looks at."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from casetrack.embed import MODELS
from casetrack.embed.specs import TOKEN_MATRIX_MODEL
from casetrack.index.postings import Key
from casetrack.search.pipeline import TokenLoader, signal
from casetrack.search.windows import WindowLoader
from casetrack.store import documents as docstore
from casetrack.store.rocks import RocksStore


def window_loader(db: RocksStore) -> WindowLoader:
    """A long passage's window vectors (search.windows) stay on disk; search reads the fused first few. Each
    passage's are read once per loader (one search): the pipeline and the score shown both look at them."""
    models = {signal(m.id): m for m in MODELS.values() if m.best_window_share > 0}
    seen: dict[tuple[str, Key], np.ndarray | None] = {}

    def load(name: str, chunk_ids: Sequence[Key]) -> dict[Key, np.ndarray]:
        spec = models.get(name)
        if spec is None:
            return {}
        by_id = {str(key): key for key in chunk_ids if (name, key) not in seen}
        if by_id:
            found = docstore.windows(db, spec.id, list(by_id), spec.dim, spec.max_windows)
            seen.update(((name, key), found.get(chunk_id)) for chunk_id, key in by_id.items())
        return {key: matrix for key in chunk_ids if (matrix := seen[(name, key)]) is not None}

    return load


def colbert_loader(db: RocksStore) -> TokenLoader:
    """E12 token matrices stay on disk; the reranker reads the few candidates it scores."""

    def load(chunk_ids: Sequence[Key]) -> dict[Key, np.ndarray]:
        out: dict[Key, np.ndarray] = {}
        for key in chunk_ids:
            matrix = docstore.vector(db, TOKEN_MATRIX_MODEL, str(key))
            if matrix is not None:
                out[key] = np.asarray(matrix, dtype=np.float32)
        return out

    return load

