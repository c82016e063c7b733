"""A passage's contract clause types by a linear model learned from expert labels (CUAD v1), not word lists.

Features: the passage's words and word pairs hashed into `dims` buckets (binary, unit length), beside its
E7 vector when the model was trained with one (the vector ingest computes anyway). One logistic output per
clause type. A passage is scored whole and piece by piece (`pieces`: its paragraphs, or its sentences), and
takes each type's best: a one-sentence clause ("Lucid may terminate ... if there is any change of control") is
lost among the 40 other lines of a 650-token page when the page is scored whole. A piece's weights are summed
over at least `floor` features' length (as if it stood in a passage of neutral words), because the model
learned from passages and a heading of three words ("16. TERMINATION") would otherwise be as sure as a clause.
A type is tagged when that probability reaches the model's threshold; the threshold and the floor are chosen
by 5-fold cross-validation split by contract on the same scoring (scripts/train_clauses.py,
docs/clause_model.md). Pure numpy: the artefact's
arrays are read by embed/clause_artefact.py and handed in.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

_WORD = re.compile(r"[a-z]+|\d+")
_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[(\"A-Z0-9])")
MIN_PIECES = 2


_CACHE: dict[str, int] = {}  # word -> its hash: a passage's words are mostly ones seen before
_CACHE_LIMIT = 500_000
_PAIR = np.uint64(1_000_003)


def _hash(word: str) -> int:
    h = _CACHE.get(word)
    if h is None:
        if len(_CACHE) >= _CACHE_LIMIT:
            _CACHE.clear()
        h = _CACHE[word] = zlib.crc32(("0" * len(word) if word[0].isdigit() else word).encode())
    return h


def _hashes(words: Sequence[str]) -> np.ndarray:
    hashes = list(map(_CACHE.get, words))
    if None in hashes:
        hashes = [_hash(w) if h is None else h for h, w in zip(hashes, words, strict=True)]
    return np.array(hashes, dtype=np.uint64)


def _pairs(hashes: np.ndarray) -> np.ndarray:
    """Each adjacent pair of word hashes as one hash (before the bucket mask)."""
    return (hashes[:-1] * _PAIR + hashes[1:]) >> np.uint64(7) if len(hashes) > 1 else hashes[:0]


def hashed_features(text: str, dims: int) -> np.ndarray:
    """The sorted distinct buckets of a text's words and adjacent word pairs (numbers as their digit count:
    "30 days" and "60 days" are one feature). `dims` is a power of two."""
    words = _hashes(_WORD.findall(text.lower()))
    mask = np.uint64(dims - 1)
    return np.unique(np.concatenate([words & mask, _pairs(words) & mask])).astype(np.int64)


def _row_keys(text: str, spans: Sequence[tuple[int, int]], dims: int, row: int) -> np.ndarray:
    """`row * dims + bucket` of every feature of the passage whole (row `row`) and of each of its pieces `spans`
    (the rows after it), repeats kept. The words are found and hashed once: a piece's words are its own run of
    the passage's words (pieces are cut at whitespace, so no word straddles two; between them is only
    whitespace), and a piece's word pairs are the passage's pairs whose two words are both in it."""
    if not spans:
        words = _hashes(_WORD.findall(text.lower()))
    else:
        per_piece = [_WORD.findall(text[a:b].lower()) for a, b in spans]
        words = _hashes([w for found in per_piece for w in found])
    mask = np.uint64(dims - 1)
    word_buckets = (words & mask).astype(np.int64)
    pair_buckets = (_pairs(words) & mask).astype(np.int64)
    whole = np.concatenate([word_buckets, pair_buckets]) + row * dims
    if not spans:
        return whole
    piece = np.repeat(np.arange(row + 1, row + 1 + len(spans), dtype=np.int64), [len(f) for f in per_piece])
    within = piece[:-1] == piece[1:]
    return np.concatenate([whole, piece * dims + word_buckets, piece[:-1][within] * dims + pair_buckets[within]])


def pieces(text: str) -> list[tuple[int, int]]:
    """(start, end) of the passage's paragraphs, or of its sentences when it is one paragraph; blank ones
    left out, each trimmed of surrounding whitespace."""
    for splitter in (_PARAGRAPH, _SENTENCE):
        out, start = [], 0
        for m in [*splitter.finditer(text), None]:
            end = len(text) if m is None else m.start()
            chunk = text[start:end]
            if chunk.strip():
                lead = len(chunk) - len(chunk.lstrip())
                out.append((start + lead, start + len(chunk.rstrip())))
            start = end if m is None else m.end()
        if len(out) >= MIN_PIECES:
            return out
    stripped = text.strip()
    return [(text.find(stripped), text.find(stripped) + len(stripped))] if stripped else []


def feature_matrix(texts: Sequence[str], dims: int) -> np.ndarray:
    """Dense rows of the hashed features, each of unit length (training and cross-validation)."""
    out = np.zeros((len(texts), dims), dtype=np.float32)
    for i, text in enumerate(texts):
        buckets = hashed_features(text, dims)
        if len(buckets):
            out[i, buckets] = 1.0 / np.sqrt(len(buckets))
    return out


@dataclass(frozen=True, slots=True)
class PassageScores:
    """Passages scored as ingest tags them (`ClauseModel.scored`)."""

    best: np.ndarray  # passage x type: the best probability of the passage whole and of each of its pieces
    by_piece: tuple[np.ndarray | None, ...]  # per passage, piece x type in `pieces` order; None if not scored so


@dataclass(frozen=True, slots=True)
class ClauseModel:
    """Weights for hashed words (`dims` x types), for the E7 vector (dim x types, or none) and a bias per type."""

    types: tuple[str, ...]
    words: np.ndarray
    vector: np.ndarray | None
    bias: np.ndarray
    threshold: float
    floor: int = 0  # a piece is scored over at least this many features' length (0: a passage is scored whole)

    @classmethod
    def of(cls, arrays: Mapping[str, np.ndarray], meta: Mapping[str, object]) -> ClauseModel:
        """The model from its artefact (embed.clause_artefact). Raises ValueError when the shapes disagree."""
        types = tuple(str(t) for t in meta["types"])  # type: ignore[attr-defined]
        words = np.asarray(arrays["words"], dtype=np.float32)
        vector = np.asarray(arrays["vector"], dtype=np.float32) if "vector" in arrays else None
        bias = np.asarray(arrays["bias"], dtype=np.float32)
        if words.shape[1] != len(types) or bias.shape != (len(types),) or (
                vector is not None and vector.shape[1] != len(types)) or words.shape[0] & (words.shape[0] - 1):
            raise ValueError(f"clause model arrays do not fit {len(types)} types")
        return cls(types, words, vector, bias, float(meta["threshold"]),  # type: ignore[arg-type]
                   int(str(meta.get("piece_floor", 0))))

    @property
    def dims(self) -> int:
        return int(self.words.shape[0])

    def scores(self, texts: Sequence[str], floor: int = 0) -> np.ndarray:
        """Per text (rows) and type (columns), the probability that the text is a clause of that type, from its
        words alone, each text's weights summed over at least `floor` features' length."""
        keys = [_row_keys(text, (), self.dims, row) for row, text in enumerate(texts)]
        return self._rows(keys, np.full(len(texts), floor, dtype=np.int64))

    def _rows(self, keys: Sequence[np.ndarray], floors: np.ndarray) -> np.ndarray:
        """Per row and type, the probability from the row's distinct features (`row * dims + bucket` among
        `keys`), its weights summed over at least its floor's length: one sort for the distinct features of
        every row, one gather and one segmented sum."""
        distinct = np.sort(np.concatenate(keys)) if len(keys) else np.zeros(0, dtype=np.int64)
        distinct = distinct[np.concatenate([[True], distinct[1:] != distinct[:-1]])] if len(distinct) else distinct
        sizes = np.bincount(distinct // self.dims, minlength=len(floors))
        logits = np.tile(self.bias, (len(floors), 1))
        full = np.flatnonzero(sizes)
        if len(full):
            starts = np.concatenate([[0], np.cumsum(sizes[full])[:-1]])
            logits[full] += (np.add.reduceat(self.words[distinct & (self.dims - 1)], starts, axis=0)
                             / np.sqrt(np.maximum(sizes[full], floors[full]))[:, None])
        return 1.0 / (1.0 + np.exp(-logits))

    def probabilities(self, text: str, vector: np.ndarray | None = None) -> np.ndarray:
        """Per type, the probability that the text as a whole is a clause of it. A model trained with E7 vectors
        and given none scores the words alone (its vector part counted as zero)."""
        p = self.scores([text])[0]
        if self.vector is not None and vector is not None and len(vector) == self.vector.shape[0]:
            v = np.asarray(vector, dtype=np.float32)
            norm = float(np.linalg.norm(v))
            if norm > 0:
                logits = np.log(p / (1 - p)) + (v / norm) @ self.vector
                p = 1.0 / (1.0 + np.exp(-logits))
        return p

    def passage_scores(self, texts: Sequence[str], floor: int | None = None) -> np.ndarray:
        """Per passage and type, the best probability of the passage whole and of each of its `pieces` (scored
        over at least `floor` features, the model's own when None); the passage whole only when `floor` is 0."""
        return self.scored(texts, floor).best

    def scored(self, texts: Sequence[str], floor: int | None = None) -> PassageScores:
        """`passage_scores`, with each passage's pieces' own probabilities (chunk.clause_spans places a clause
        by them). Every passage and piece of `texts` is one row of one `_rows`."""
        floor = self.floor if floor is None else floor
        spans = [s if len(s) >= MIN_PIECES else [] for s in map(pieces, texts)] if floor > 0 else [[] for _ in texts]
        rows = np.array([1 + len(s) for s in spans], dtype=np.int64)
        whole = np.cumsum(rows) - rows  # each passage's own row; its pieces' rows follow it
        floors = np.full(int(rows.sum()), floor, dtype=np.int64)
        floors[whole] = 0
        keys = [_row_keys(text, s, self.dims, row) for text, s, row in zip(texts, spans, whole.tolist(), strict=True)]
        probs = self._rows(keys, floors).astype(np.float32)
        best = probs[whole]
        if len(floors) > len(texts):
            piece = np.ones(len(floors), dtype=bool)
            piece[whole] = False
            np.maximum.at(best, np.repeat(np.arange(len(texts)), rows - 1), probs[piece])
        return PassageScores(best, tuple(probs[r + 1:r + n] if n > 1 else None
                                         for r, n in zip(whole.tolist(), rows.tolist(), strict=True)))

    def tag_all(self, texts: Sequence[str], threshold: float | None = None) -> list[dict[str, float]]:
        """Per passage, the clause types at or above the threshold, each with its probability, most likely
        first."""
        cut = self.threshold if threshold is None else threshold
        return [self.above(p, cut) for p in self.passage_scores(texts)]

    def above(self, probabilities: np.ndarray, cut: float) -> dict[str, float]:
        """The types of one row of `passage_scores` at or above `cut`, each with its probability (3 places), most
        likely first."""
        chosen = np.flatnonzero(probabilities >= cut)
        return {self.types[i]: round(float(probabilities[i]), 3) for i in chosen[np.argsort(-probabilities[chosen])]}

    def tag(self, text: str, threshold: float | None = None) -> dict[str, float]:
        """The clause types of one passage at or above the threshold (`tag_all`)."""
        return self.tag_all([text], threshold)[0]
