"""The clause classifier's scoring as it was before it was made fast (issue 34, session 3): each passage and
each of its pieces hashed and scored on its own. Kept as the reference that the fast scoring
(chunk.roles.clause_model) must equal: tests/chunk/test_clause_scoring.py compares the two on real contracts
and edge cases, benchmarks/clauses.py `--speed-only` times them side by side. Slow on purpose; not product code.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Sequence

import numpy as np

from casetrack.chunk.roles.clause_model import MIN_PIECES, ClauseModel, pieces

_WORD = re.compile(r"[a-z]+|\d+")
_PAIR = np.uint64(1_000_003)


def hashed_features(text: str, dims: int) -> np.ndarray:
    """`clause_model.hashed_features` as it was: a text's sorted distinct buckets of its words and adjacent word
    pairs (numbers as their digit count), each word hashed with CRC-32."""
    words = np.array([zlib.crc32(("0" * len(w) if w[0].isdigit() else w).encode())
                      for w in _WORD.findall(text.lower())], dtype=np.uint64)
    pairs = (words[:-1] * _PAIR + words[1:]) >> np.uint64(7) if len(words) > 1 else words[:0]
    mask = np.uint64(dims - 1)
    return np.unique(np.concatenate([words & mask, pairs & mask])).astype(np.int64)


def scores(model: ClauseModel, texts: Sequence[str], floor: int = 0) -> np.ndarray:
    """`ClauseModel.scores` before: each text's distinct buckets found on their own, then one gather and one
    segmented sum."""
    buckets = [hashed_features(text, model.dims) for text in texts]
    sizes = np.array([len(b) for b in buckets], dtype=np.int64)
    logits = np.tile(model.bias, (len(texts), 1))
    full = np.flatnonzero(sizes)
    if len(full):
        flat = np.concatenate([buckets[i] for i in full])
        starts = np.concatenate([[0], np.cumsum(sizes[full])[:-1]])
        logits[full] += (np.add.reduceat(model.words[flat], starts, axis=0)
                         / np.sqrt(np.maximum(sizes[full], floor))[:, None])
    return 1.0 / (1.0 + np.exp(-logits))


def passage_scores(model: ClauseModel, texts: Sequence[str], floor: int | None = None) -> np.ndarray:
    """`ClauseModel.passage_scores` before: the pieces cut out as texts of their own and scored again."""
    floor = model.floor if floor is None else floor
    out = scores(model, texts).astype(np.float32)
    if floor <= 0:
        return out
    spans = [pieces(text) for text in texts]
    owner = np.repeat(np.arange(len(texts)), [len(s) if len(s) > 1 else 0 for s in spans])
    parts = [text[a:b] for text, s in zip(texts, spans, strict=True) if len(s) > 1 for a, b in s]
    if parts:
        np.maximum.at(out, owner, scores(model, parts, floor))
    return out


def piece_scores(model: ClauseModel, text: str) -> np.ndarray | None:
    """What chunk.clause_spans scored before: the passage's pieces on their own at the model's floor (None for a
    passage of fewer than two pieces)."""
    parts = pieces(text)
    return scores(model, [text[s:e] for s, e in parts], model.floor) if len(parts) >= MIN_PIECES else None


def tag_all(model: ClauseModel, texts: Sequence[str]) -> list[dict[str, float]]:
    """`ClauseModel.tag_all` before."""
    return [model.above(p, model.threshold) for p in passage_scores(model, texts)]
