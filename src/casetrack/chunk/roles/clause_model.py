"""A passage's contract clause types by a linear model learned from expert labels (CUAD v1), not word lists.

Features: the passage's words and word pairs hashed into `dims` buckets (binary, unit length), with the words
and pairs of its heading path ("12 Governing Law" above it: where the passage sits, as a lawyer reads it first)
hashed in a namespace of their own when the artefact's meta names the "heading" namespace, and beside its E7
vector when the model was trained with one (the vector ingest computes anyway). One logistic output per
clause type. A passage is scored whole and piece by piece (`pieces`: its paragraphs, or its sentences), and
takes each type's best: a one-sentence clause ("Lucid may terminate ... if there is any change of control") is
lost among the 40 other lines of a 650-token page when the page is scored whole. A piece's weights are summed
over at least `floor` features' length (as if it stood in a passage of neutral words), because the model
learned from passages and a heading of three words ("16. TERMINATION") would otherwise be as sure as a clause.
A type is tagged when that probability reaches the model's threshold; the threshold and the floor are chosen
by 5-fold cross-validation split by contract on the same scoring (scripts/train_clauses.py,
docs/clause_model.md). Pure numpy: the artefact's
arrays are read by embed/clause_artefact.py and handed in.

Scoring is vectorised (`ClauseModel.scored`): the words of a block of passages are found and hashed once (CRC-32
in numpy, a byte position at a time for every word: no string or dict lookup per word), a piece's features are
the passage's own words and pairs within the piece's offsets, and every passage and piece of the block is summed
by one sort, then a gather and a segmented sum a few thousand features at a time (docs/benchmarks.md, h35i:
the same probabilities to the bit as before, a third less CPU). It gives what scoring each piece as a text of
its own gives (tests/chunk/test_clause_scoring.py, against the first implementation kept in
benchmarks/clause_reference.py); training reads the same features (`hashed_features`).
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_PARAGRAPH = re.compile(r"\n[ \t]*\n")
_SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[(\"A-Z0-9])")
MIN_PIECES = 2
# Passages whose words are read, hashed and keyed together (their keys ~0.7 MB): the per-call cost of numpy
# is paid once for them. Their weights are gathered and summed GATHER distinct features at a time (0.7 MB
# of weight rows, in cache): gathering a whole block's at once was slower (0.54 against 0.26-0.29 ms a passage
# of CPU, 908 CUAD passages, load 9).
BLOCK = 64
GATHER = 4096


_PAIR = np.uint64(1_000_003)


def _crc_table() -> np.ndarray:
    table = np.zeros(256, dtype=np.uint32)
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = (crc >> 1) ^ 0xEDB88320 if crc & 1 else crc >> 1
        table[byte] = crc
    return table


_CRC = _crc_table()  # zlib's CRC-32 a byte at a time: the hashes the model was trained on
_LONG = 64  # a run of letters longer than this (rare: no real word is) is hashed by zlib on its own


def _crc32(data: np.ndarray, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """zlib.crc32 of each word (`lengths[i]` bytes of `data` from `starts[i]`), all the words at once a byte
    position at a time: no word is made a string of its own, or looked up in a dict (that cost a passage
    ~0.05 ms). The words are sorted by length, so the ones still being read at a position are a suffix."""
    order = np.argsort(np.minimum(lengths, _LONG).astype(np.uint8), kind="stable")  # a radix sort
    at, size = starts[order], np.minimum(lengths[order], _LONG)
    crc = np.full(len(order), 0xFFFFFFFF, dtype=np.uint32)
    top = int(size[-1]) if len(size) else 0
    for k, first in enumerate(np.searchsorted(size, np.arange(top), side="right").tolist()):
        c = crc[first:]
        crc[first:] = _CRC[(c ^ data[at[first:] + k]) & 0xFF] ^ (c >> 8)
    out = np.empty(len(order), dtype=np.uint64)
    out[order] = crc ^ np.uint32(0xFFFFFFFF)
    for i in np.flatnonzero(lengths > _LONG).tolist():
        out[i] = zlib.crc32(data[starts[i]:starts[i] + lengths[i]].tobytes())
    return out


def _pairs(hashes: np.ndarray) -> np.ndarray:
    """Each adjacent pair of word hashes as one hash (before the bucket mask)."""
    return (hashes[:-1] * _PAIR + hashes[1:]) >> np.uint64(7) if len(hashes) > 1 else hashes[:0]


# Heading words are hashed apart from the passage's own words (a namespace of their own in the same buckets):
# "termination" above a paragraph is not the word "termination" in it.
_HEADING = np.uint64(0x9E3779B97F4A7C15)


@lru_cache(maxsize=4096)  # a document's passages share a few dozen heading paths
def heading_features(path: str, dims: int) -> np.ndarray:
    """The sorted distinct buckets of a heading path's words and adjacent word pairs ("12 Governing Law" ->
    governing, law, governing law), in the heading namespace. Numbers are left out: "12" numbers a section, it
    does not say what the section is about. Read-only: the array is shared by every caller of the path."""
    hashes, _, number = _words(path.lower())
    hashes = hashes[~number]
    if not len(hashes):
        found = np.zeros(0, dtype=np.int64)
    else:
        keys = np.concatenate([hashes, _pairs(hashes)])
        found = np.unique((((keys + np.uint64(1)) * _HEADING) >> np.uint64(20)) & np.uint64(dims - 1)).astype(np.int64)
    found.setflags(write=False)
    return found


def hashed_features(text: str, dims: int) -> np.ndarray:
    """The sorted distinct buckets of a text's words and adjacent word pairs (numbers as their digit count:
    "30 days" and "60 days" are one feature). `dims` is a power of two. Training reads a passage's features
    here, through the very code ingest scores by (`_feature_keys`, one row)."""
    return np.unique(_feature_keys([text], [()], dims, np.zeros(1, dtype=np.int64)))


# Per character code (lower-cased text; 128 stands for any non-ASCII one): 1 a letter a-z, 2 a digit, 0 neither.
_ASCII_CLASS = np.zeros(129, dtype=np.int8)
_ASCII_CLASS[ord("a"):ord("z") + 1] = 1
_ASCII_CLASS[ord("0"):ord("9") + 1] = 2


def _char_classes(codes: np.ndarray) -> np.ndarray:
    """Per code point: 1 a letter a-z, 2 a decimal digit of any script (as a regular expression's \\d), 0 else."""
    classes = _ASCII_CLASS[np.minimum(codes, 128)]
    wide = codes[codes > 127]
    if len(wide):
        for digit in [c for c in set(wide.tolist()) if chr(c).isdecimal()]:
            classes[codes == digit] = 2
    return classes


def _words(lowered: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of each word of a lower-cased text (a run of letters a-z, or of digits), in order: its hash (zlib's CRC-32
    of the word, a number read as that many zeros: "30 days" and "60 days" are one feature), where it starts,
    and whether it is a number. Found for a block of passages at once, without a string per word."""
    codes = np.frombuffer(lowered.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    classes = _char_classes(codes)
    none = np.zeros(1, dtype=np.int8)
    worded = classes != 0
    starts = np.flatnonzero(worded & (classes != np.concatenate([none, classes[:-1]])))
    ends = np.flatnonzero(worded & (classes != np.concatenate([classes[1:], none]))) + 1
    number = classes[starts] == 2
    data = np.where(classes == 2, ord("0"), codes).astype(np.uint8)  # only a word's own bytes are read
    return _crc32(data, starts, ends - starts), starts, number


def _piece_bounds(texts: Sequence[str], lowered: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]],
                  base: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every piece's (start, end) in the lower-cased texts joined (`base`: where each text starts there). A
    text whose lower case is longer (U+0130 becomes two characters) has its offsets carried over character by
    character."""
    bounds: list[int] = []
    for text, low, cut, at in zip(texts, lowered, spans, base.tolist(), strict=True):
        if not cut:
            continue
        if len(low) == len(text):
            bounds.extend(at + x for span in cut for x in span)
        else:
            shift = np.concatenate([[0], np.cumsum([len(c.lower()) for c in text])]).tolist()
            bounds.extend(at + shift[x] for span in cut for x in span)
    pairs = np.array(bounds, dtype=np.int64).reshape(-1, 2)
    return pairs[:, 0], pairs[:, 1]


def _feature_keys(texts: Sequence[str], spans: Sequence[Sequence[tuple[int, int]]], dims: int,
                  whole: np.ndarray, paths: Sequence[str] = ()) -> np.ndarray:
    """`row * dims + bucket` of every feature of each text whole (row `whole[i]`) and of each of its pieces
    `spans[i]` (the rows after it), repeats kept. The words of all the texts are found and hashed once: a
    piece's words are its own run of its text's words (pieces are cut at whitespace, so no word straddles two),
    and a word pair counts for a text or a piece only when both its words are in it. A text's heading path
    (`paths[i]`, when given) is a feature of the text and of each of its pieces (`heading_features`)."""
    lowered = [t.lower() for t in texts]
    sizes = np.array([len(low) + 1 for low in lowered], dtype=np.int64)
    base = np.cumsum(sizes) - sizes
    hashes, starts, _ = _words("\n".join(lowered))
    mask = np.uint64(dims - 1)
    word_buckets = (hashes & mask).astype(np.int64)
    pair_buckets = (_pairs(hashes) & mask).astype(np.int64)
    row = whole[np.searchsorted(base, starts, side="right") - 1]
    keys = [row * dims + word_buckets, _paired(row, pair_buckets, dims)]
    counts = np.array([1 + len(cut) for cut in spans], dtype=np.int64)  # each text's rows: itself, its pieces
    first, last = _piece_bounds(texts, lowered, spans, base)
    if len(first):
        rows = np.ones(int(counts.sum()), dtype=bool)
        rows[whole] = False
        rows = np.flatnonzero(rows)  # the pieces' rows, in order: every row but the texts' own
        at = np.searchsorted(first, starts, side="right") - 1
        inside = (at >= 0) & (starts < last[np.maximum(at, 0)])
        piece = np.where(inside, rows[np.maximum(at, 0)], -1)
        keys += [piece[inside] * dims + word_buckets[inside], _paired(piece, pair_buckets, dims)]
    if paths:  # a heading's buckets on every row of every text under it, path by path (a few dozen a document)
        numbers: dict[str, int] = {}
        path_of_row = np.repeat([numbers.setdefault(path, len(numbers)) for path in paths], counts)
        for path, number in numbers.items():
            if len(heading := heading_features(path, dims)):
                own = np.flatnonzero(path_of_row == number)
                keys.append((own[:, None] * dims + heading[None, :]).ravel())
    return np.concatenate(keys)


def _paired(row: np.ndarray, pair_buckets: np.ndarray, dims: int) -> np.ndarray:
    """The keys of the word pairs whose two words are in one row (a row of -1: in none)."""
    same = (row[:-1] == row[1:]) & (row[:-1] >= 0)
    return row[:-1][same] * dims + pair_buckets[same]


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
    spans: tuple[Sequence[tuple[int, int]], ...] = ()  # per passage, its pieces' (start, end) where by_piece has rows


@dataclass(frozen=True, slots=True)
class ClauseModel:
    """Weights for hashed words (`dims` x types), for the E7 vector (dim x types, or none) and a bias per type."""

    types: tuple[str, ...]
    words: np.ndarray
    vector: np.ndarray | None
    bias: np.ndarray
    threshold: float
    floor: int = 0  # a piece is scored over at least this many features' length (0: a passage is scored whole)
    headings: bool = False  # trained with the heading path's words (`heading_features`) as features

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
        namespaces = meta.get("namespaces", ())
        return cls(types, words, vector, bias, float(meta["threshold"]),  # type: ignore[arg-type]
                   int(str(meta.get("piece_floor", 0))), "heading" in namespaces)  # type: ignore[operator]

    @property
    def dims(self) -> int:
        return int(self.words.shape[0])

    def scores(self, texts: Sequence[str], floor: int = 0) -> np.ndarray:
        """Per text (rows) and type (columns), the probability that the text is a clause of that type, from its
        words alone, each text's weights summed over at least `floor` features' length."""
        if len(texts) > BLOCK:
            return np.concatenate([self.scores(texts[at:at + BLOCK], floor) for at in range(0, len(texts), BLOCK)])
        keys = _feature_keys(texts, [()] * len(texts), self.dims, np.arange(len(texts)))
        return self._rows(keys, np.full(len(texts), floor, dtype=np.int64))

    def _rows(self, keys: np.ndarray, floors: np.ndarray) -> np.ndarray:
        """Per row and type, the probability from the row's distinct features (`row * dims + bucket` among
        `keys`), its weights summed over at least its floor's length: one sort for the distinct features of
        every row, one gather and one segmented sum."""
        distinct = np.sort(keys)
        distinct = distinct[np.concatenate([[True], distinct[1:] != distinct[:-1]])] if len(distinct) else distinct
        sizes = np.bincount(distinct // self.dims, minlength=len(floors))
        logits = np.tile(self.bias, (len(floors), 1))
        full = np.flatnonzero(sizes)
        if len(full):
            logits[full] += (self._sums(distinct & (self.dims - 1), sizes[full])
                             / np.sqrt(np.maximum(sizes[full], floors[full]))[:, None])
        return 1.0 / (1.0 + np.exp(-logits))

    def _sums(self, buckets: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """Per row, the sum of the weight rows of its buckets (the rows' buckets one after another, `sizes[i]`
        of row i), gathered for about GATHER buckets at a time. Each row is summed by its own segment of one
        np.add.reduceat, in the same order however the rows are grouped: the same sums to the bit."""
        ends = np.cumsum(sizes)
        starts = ends - sizes
        out = np.empty((len(sizes), self.words.shape[1]), dtype=self.words.dtype)
        first = 0
        while first < len(sizes):
            last = max(first + 1, int(np.searchsorted(ends, starts[first] + GATHER, side="right")))
            gathered = np.take(self.words, buckets[starts[first]:ends[last - 1]], axis=0)  # take: faster than []
            np.add.reduceat(gathered, starts[first:last] - starts[first], axis=0, out=out[first:last])
            first = last
        return out

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

    def passage_scores(self, texts: Sequence[str], floor: int | None = None,
                       paths: Sequence[str] | None = None) -> np.ndarray:
        """Per passage and type, the best probability of the passage whole and of each of its `pieces` (scored
        over at least `floor` features, the model's own when None); the passage whole only when `floor` is 0.
        `paths`: each passage's heading path (service.ingest.entries.heading_paths), read when the model was
        trained with them; without them a passage is scored as one under no heading."""
        return self.scored(texts, floor, paths).best

    def scored(self, texts: Sequence[str], floor: int | None = None,
               paths: Sequence[str] | None = None) -> PassageScores:
        """`passage_scores`, with each passage's pieces' own probabilities (chunk.clause_spans places a clause
        by them). Every passage and piece of `texts` is one row of one `_rows`."""
        floor = self.floor if floor is None else floor
        paths = paths if self.headings and paths is not None else ()
        if paths and len(paths) != len(texts):
            raise ValueError(f"{len(paths)} heading paths for {len(texts)} passages")
        if len(texts) > BLOCK:
            blocks = [self.scored(texts[at:at + BLOCK], floor, paths[at:at + BLOCK] if paths else None)
                      for at in range(0, len(texts), BLOCK)]
            return PassageScores(np.concatenate([b.best for b in blocks]),
                                 tuple(p for b in blocks for p in b.by_piece),
                                 tuple(s for b in blocks for s in b.spans))
        spans = [s if len(s) >= MIN_PIECES else [] for s in map(pieces, texts)] if floor > 0 else [[] for _ in texts]
        rows = np.array([1 + len(s) for s in spans], dtype=np.int64)
        whole = np.cumsum(rows) - rows  # each passage's own row; its pieces' rows follow it
        floors = np.full(int(rows.sum()), floor, dtype=np.int64)
        floors[whole] = 0
        probs = self._rows(_feature_keys(texts, spans, self.dims, whole, paths), floors).astype(np.float32, copy=False)
        best = probs[whole]
        if len(floors) > len(texts):  # each passage's best over its pieces too (the pieces' rows follow its own)
            piece = np.ones(len(floors), dtype=bool)
            piece[whole] = False
            split = rows > 1
            firsts = np.cumsum(rows[split] - 1) - (rows[split] - 1)
            best[split] = np.maximum(best[split], np.maximum.reduceat(probs[piece], firsts, axis=0))
        return PassageScores(best, tuple(probs[r + 1:r + n] if n > 1 else None
                                         for r, n in zip(whole.tolist(), rows.tolist(), strict=True)), tuple(spans))

    def tag_all(self, texts: Sequence[str], threshold: float | None = None,
                paths: Sequence[str] | None = None) -> list[dict[str, float]]:
        """Per passage (under its heading path, when given), the clause types at or above the threshold, each
        with its probability, most likely first."""
        cut = self.threshold if threshold is None else threshold
        return [self.above(p, cut) for p in self.passage_scores(texts, paths=paths)]

    def above(self, probabilities: np.ndarray, cut: float) -> dict[str, float]:
        """The types of one row of `passage_scores` at or above `cut`, each with its probability (3 places), most
        likely first."""
        chosen = (probabilities >= cut).nonzero()[0]
        order = chosen[np.argsort(-probabilities[chosen])].tolist()  # ingest asks twice a passage: few numpy calls
        return {self.types[i]: round(p, 3) for i, p in zip(order, probabilities[order].tolist(), strict=True)}

    def tag(self, text: str, threshold: float | None = None) -> dict[str, float]:
        """The clause types of one passage at or above the threshold (`tag_all`)."""
        return self.tag_all([text], threshold)[0]
