"""A disk cache of embeddings for benchmark runs: the same vectors, without embedding the same text twice.

E7 costs ~0.1 s a chunk here, so re-ingesting the four labelled sets to measure a ranking change would
spend most of its time re-embedding text it embedded in the previous run. `cache_embeddings(directory)`
wraps the ONNX embedder's two calls so that each (model, text) pair's dense vector is computed once and
then read from `directory/<model>/<sha256>.npy`, and its window vectors (`embed_windows`) from
`directory/<model>-windows/` (an empty array for a text read in one window). Only dense outputs are cached
(sparse and token-matrix models pass through). Benchmarks only: the product never caches by text.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from casetrack.embed.engine import OnnxEmbedder
from casetrack.embed.specs import Kind

_DENSE = (Kind.DENSE_CLS, Kind.DENSE_MEAN)


def cache_embeddings(directory: Path) -> None:
    """Route every OnnxEmbedder's dense embeddings in this process through `directory`."""
    embed_documents, embed_query = OnnxEmbedder.embed_documents, OnnxEmbedder.embed_query
    embed_windows = OnnxEmbedder.embed_windows

    def path(self: OnnxEmbedder, text: str, query: bool, family: str = "") -> Path:
        digest = hashlib.sha256(f"{'q' if query else 'd'}\0{text}".encode()).hexdigest()
        folder = directory / f"{self.spec.id}{family}" / digest[:2]
        folder.mkdir(parents=True, exist_ok=True)
        return folder / f"{digest}.npy"

    def fill(self: OnnxEmbedder, texts: Sequence[str]) -> None:
        """Embed the texts whose vector or windows are not cached, with the embedder's own `embed_windows` (its
        `embed_documents` calls `embed_windows`, which is routed here: calling it would come back)."""
        missing = [t for t in dict.fromkeys(texts)
                   if not (path(self, t, False).exists() and path(self, t, False, "-windows").exists())]
        if not missing:
            return
        fresh, fresh_windows = embed_windows(self, missing)
        for text, vector, matrix in zip(missing, np.asarray(fresh), fresh_windows, strict=True):
            np.save(path(self, text, False), vector)
            np.save(path(self, text, False, "-windows"),
                    np.zeros((0, self.spec.dim), np.float32) if matrix is None else matrix)

    def documents(self: OnnxEmbedder, texts: Sequence[str]) -> object:
        if self.spec.kind not in _DENSE:
            return embed_documents(self, texts)
        if not texts:
            return np.zeros((0, self.spec.dim), dtype=np.float32)
        fill(self, texts)
        return np.stack([np.load(path(self, t, False)) for t in texts]).astype(np.float32)

    def query(self: OnnxEmbedder, text: str) -> object:
        if self.spec.kind not in _DENSE:
            return embed_query(self, text)
        p = path(self, text, True)
        if not p.exists():
            np.save(p, np.asarray(embed_query(self, text)))
        return np.load(p).astype(np.float32)

    def windows(self: OnnxEmbedder, texts: Sequence[str]) -> tuple[np.ndarray, list[np.ndarray | None]]:
        if self.spec.kind not in _DENSE:
            return embed_windows(self, texts)
        fill(self, texts)
        found = [np.load(path(self, t, False, "-windows")).astype(np.float32) for t in texts]
        return np.asarray(documents(self, texts)), [m if len(m) else None for m in found]

    OnnxEmbedder.embed_windows = windows  # type: ignore[method-assign]
    OnnxEmbedder.embed_documents = documents  # type: ignore[method-assign,assignment]
    OnnxEmbedder.embed_query = query  # type: ignore[method-assign,assignment]
