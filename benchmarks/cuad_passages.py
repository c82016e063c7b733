"""CUAD contracts cut into the passages CaseTrack stores, each with the clause categories its experts marked in it.

Shared by scripts/train_clauses.py (the artefact) and benchmarks/clauses.py (cross-validation). Reads
`../shared/cuad-clauses` beside the checkout (CUAD v1, The Atticus Project, CC BY 4.0): each contract is read
as a plain-text file is at ingest (parse.text_pages) and chunked as a contract (chunk.chunk_pages), so the
passages are the ones the classifier meets in a case. A passage holds a category when a labelled span of it
lies in the passage (its opening or closing 120 characters, or the whole span when shorter, whitespace
folded), or when the passage lies inside a long span.

Contracts of the project's own labelled sets (eval-dev, benchmarks/heldout*, the chunker's and graph's unseen
test contracts) are left out by text: a contract none of whose probes (80 letters and digits at five places)
occurs in those sets' texts is kept.
"""

from __future__ import annotations

import gzip
import json
import pickle
import re
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from casetrack.chunk.legal import chunk_pages
from casetrack.chunk.roles.clause_model import MIN_PIECES, pieces
from casetrack.chunk.roles.clause_types import CUAD_TYPES
from casetrack.chunk.structure import extract_structure
from casetrack.domain import DocumentType
from casetrack.parse.text_pages import text_pages
from casetrack.service.ingest.entries import heading_paths

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CUAD = SHARED / "cuad-clauses"
PROBE = 80
EDGE = 120
CONTEXT = 40
OVERLAP = 20  # characters a piece (or passage) must share with a labelled span to hold it
_FOLD = re.compile(r"\s+")
_ALNUM = re.compile(r"[^a-z0-9]+")


class Passage(NamedTuple):
    """One passage of a CUAD contract as ingest cuts it, with the categories its experts marked in it."""

    contract: str
    page: int
    char_start: int
    text: str
    labels: frozenset[str]  # CUAD category names
    heading: str = ""  # the path of headings in force where it starts, as ingest records it


def contracts(cuad: Path = CUAD) -> Iterator[tuple[str, str]]:
    """(CUAD name, text) of every contract."""
    with gzip.open(cuad / "contracts.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            yield record["contract"], record["text"]


def spans(cuad: Path = CUAD) -> dict[str, list[tuple[str, str, int, int]]]:
    """Contract -> (category, span text, start, end) of every labelled span (start -1: not found verbatim)."""
    out: dict[str, list[tuple[str, str, int, int]]] = {}
    with gzip.open(cuad / "clauses.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r["text"].strip():
                out.setdefault(r["contract"], []).append((r["category"], r["text"], r["start"], r["end"]))
    return out


def categories(cuad: Path = CUAD) -> list[str]:
    """CUAD's 41 category names as the labels spell them, in the order of chunk.clause_types (CUAD's own)."""
    names: set[str] = set()
    with gzip.open(cuad / "clauses.jsonl.gz", "rt", encoding="utf-8") as f:
        for line in f:
            names.add(json.loads(line)["category"])
    order = [type_id for type_id, *_ in CUAD_TYPES]
    return sorted(names, key=lambda name: order.index(snake(name)))


def snake(category: str) -> str:
    """A CUAD category name as a clause type id ("Rofr/Rofo/Rofn" -> "rofr_rofo_rofn")."""
    return re.sub(r"[^a-z0-9]+", "_", category.lower()).strip("_")


def labelled_set_texts(root: Path = ROOT) -> str:
    """Every text of the project's labelled sets, folded to letters and digits, joined."""
    paths: list[Path] = []
    for folder in [SHARED / "eval-dev", *sorted((root / "benchmarks").glob("heldout*")),
                   root / "tests" / "chunk" / "data", root / "tests" / "graph" / "data", root / "tests" / "data"]:
        if folder.is_dir():
            paths += [p for p in folder.rglob("*") if p.suffix in (".txt", ".jsonl", ".json") and p.is_file()]
    return " ".join(_ALNUM.sub("", p.read_text(encoding="utf-8", errors="ignore").lower()) for p in paths)


def is_labelled(text: str, corpus: str) -> bool:
    """Whether a contract's text occurs in the labelled sets (any of five probes)."""
    folded = _ALNUM.sub("", text.lower())
    if len(folded) < 4 * PROBE:
        return False
    step = len(folded) // 6
    return any(folded[i * step: i * step + PROBE] in corpus for i in range(1, 6))


def passages_of(name: str, text: str, labelled: Iterable[tuple[str, str, int, int]]) -> list[Passage]:
    """A contract's passages as ingest chunks a plain-text contract, each with the categories it holds. A short
    span (a party's name, a date) is looked for with the words around it where it was marked, else at its
    first place only: it names that place, not every passage repeating the name."""
    pages = text_pages(text)
    chunks = chunk_pages(pages, DocumentType.CONTRACT)
    paths = heading_paths(chunks, extract_structure(pages))
    folded = [_FOLD.sub(" ", c.text).strip() for c in chunks]
    found: list[set[str]] = [set() for _ in chunks]
    for category, span, start, end in labelled:
        s = _fold(span)
        if len(s) > EDGE:
            for i, f in enumerate(folded):
                if s[:EDGE] in f or s[-EDGE:] in f or (len(f) > EDGE and f in s):
                    found[i].add(category)
            continue
        probes = [s] if start < 0 else [_fold(text[max(0, start - CONTEXT):end]), _fold(text[start:end + CONTEXT])]
        hit = next((i for i, f in enumerate(folded) if any(p in f for p in probes)), None)
        if hit is None:
            hit = next((i for i, f in enumerate(folded) if s in f), None)
        if hit is not None:
            found[hit].add(category)
    return [Passage(name, c.page, c.char_start, c.text, frozenset(labels), path)
            for c, labels, path in zip(chunks, found, paths, strict=True)]


def _fold(text: str) -> str:
    return _FOLD.sub(" ", text).strip()


class Piece(NamedTuple):
    """A paragraph (or sentence) of a passage as chunk.clause_model scores it, with the categories of the expert
    spans it overlaps."""

    passage: int  # its passage's index in the list of passages it was cut with
    text: str
    labels: frozenset[str]


class Located(NamedTuple):
    """A contract's pieces, and each labelled span's category with the passages that hold part of it."""

    pieces: list[Piece]
    spans: list[tuple[str, tuple[int, int], tuple[int, ...]]]  # (category, folded place, passage indices)


def _folded(text: str) -> tuple[str, np.ndarray]:
    """The text with each run of whitespace as one space, and each character's offset in it (one past the end
    included)."""
    keep = np.ones(len(text) + 1, np.int64)
    for m in _FOLD.finditer(text):
        keep[m.start() + 1:m.end()] = 0
    return _FOLD.sub(" ", text), np.cumsum(keep) - 1


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Whether two places share at least OVERLAP characters (or all of the shorter)."""
    shared = min(a[1], b[1]) - max(a[0], b[0])
    return shared > 0 and shared >= min(OVERLAP, a[1] - a[0], b[1] - b[0])


def locate(text: str, labelled: Iterable[tuple[str, str, int, int]], passages: list[Passage],
           first: int = 0) -> Located:
    """Where a contract's labelled spans and its passages' pieces are (offsets in the whitespace-folded text),
    so that a piece is labelled with the spans it overlaps, and a span knows the passages that hold part of it.
    A passage not found verbatim (a repeated page header left out of its middle) is placed by its first and last
    words, so it holds the spans it covers, but has no pieces (their offsets inside it would be guesses); `first`
    is the index of the contract's first passage in the caller's list."""
    folded, offsets = _folded(text)
    places = []
    for category, span, start, end in labelled:
        if 0 <= start < end <= len(text):
            places.append((category, (int(offsets[start]), int(offsets[end]))))
        elif (at := folded.find(s := _fold(span))) >= 0 and s:
            places.append((category, (at, at + len(s))))
    out: list[Piece] = []
    passage_places: list[tuple[int, tuple[int, int]]] = []
    cursor = 0
    for i, p in enumerate(passages):
        f = _fold(p.text)
        at = folded.find(f, max(0, cursor - len(f)))
        at = folded.find(f) if at < 0 else at
        if at < 0 or not f:
            if (place := _by_ends(folded, f, cursor)) is not None:
                cursor = place[0]
                passage_places.append((first + i, place))
            continue
        cursor = at
        passage_places.append((first + i, (at, at + len(f))))
        parts = pieces(p.text)
        if len(parts) < MIN_PIECES:
            continue
        lead = len(p.text) - len(p.text.lstrip())
        _, inner = _folded(p.text)
        for a, b in parts:
            place = (at + int(inner[a] - inner[lead]), at + int(inner[b] - inner[lead]))
            labels = frozenset(c for c, span in places if _overlap(place, span))
            out.append(Piece(first + i, p.text[a:b], labels))
    covered = [(c, span, tuple(i for i, place in passage_places if _overlap(place, span))) for c, span in places]
    return Located(out, list(dict.fromkeys(covered)))


def _by_ends(folded: str, f: str, cursor: int) -> tuple[int, int] | None:
    """Where a passage not found verbatim lies in the folded text: from its first EDGE characters, found at or
    after the previous passage's start, to the end of its last EDGE characters after them (None: either is
    missing, or the passage is too short to have distinct ends)."""
    if len(f) <= 2 * EDGE:
        return None
    start = folded.find(f[:EDGE], cursor)
    end = folded.find(f[-EDGE:], start + EDGE) if start >= 0 else -1
    return None if end < 0 else (start, end + EDGE)


def corpus(cuad: Path = CUAD, exclude_labelled: bool = True,
           only: frozenset[str] | None = None) -> tuple[list[Passage], list[str], Located]:
    """Every passage of every CUAD contract not in the labelled sets (or of the contracts named `only`), the
    names left out, and the passages' pieces and spans located (`locate`)."""
    by_contract = spans(cuad)
    held = labelled_set_texts() if exclude_labelled and only is None else ""
    out: list[Passage] = []
    left_out: list[str] = []
    located = Located([], [])
    for name, text in contracts(cuad):
        if (only is not None and name not in only) or (held and is_labelled(text, held)):
            left_out.append(name)
            continue
        cut = passages_of(name, text, by_contract.get(name, ()))
        found = locate(text, by_contract.get(name, ()), cut, len(out))
        located.pieces.extend(found.pieces)
        located.spans.extend(found.spans)
        out += cut
    return out, left_out, located


@dataclass(frozen=True, slots=True)
class Labelled:
    """The training and cross-validation data: passages, their 0/1 labels per category, their folds, and their
    pieces (paragraphs or sentences) labelled by the spans they overlap."""

    passages: list[Passage]
    left_out: list[str]  # contracts of the project's labelled sets
    categories: list[str]  # CUAD's names, in chunk.clause_types' order
    y: np.ndarray  # passages x categories
    fold: np.ndarray  # each passage's fold (by its contract)
    located: Located
    piece_y: np.ndarray  # pieces x categories

    @property
    def types(self) -> list[str]:
        return [snake(c) for c in self.categories]


def labelled(cuad: Path = CUAD, k: int = 5, only: frozenset[str] | None = None) -> Labelled:
    """Every passage of CUAD's contracts not in the labelled sets (or of those named `only`), labelled, in `k`
    folds by contract."""
    from clause_fit import folds

    passages, left_out, located = corpus(cuad, only=only)
    cats = categories(cuad)
    y = np.array([[c in p.labels for c in cats] for p in passages], np.float32).reshape(-1, len(cats))
    piece_y = np.array([[c in p.labels for c in cats] for p in located.pieces], np.float32).reshape(-1, len(cats))
    return Labelled(passages, left_out, cats, y, folds([p.contract for p in passages], k), located, piece_y)


def e7_vectors(passages: list[Passage], cache: Path | None = None) -> np.ndarray:
    """Each passage's text alone embedded by E7 (the mean of its windows), from `cache` (a .npy) when it holds as
    many rows as there are passages; embedding all of CUAD takes ~20 minutes on two cores. Ingest embeds a chunk
    behind its header (document name, heading path): clause_vectors.vectors_of embeds a passage that way, for the
    clause stage that reads ingest's vectors; this one is the first session's words + E7 model's input."""
    if cache is not None and cache.exists():
        cached = np.load(cache)
        if len(cached) == len(passages):
            return cached
    from casetrack.embed.pool import EmbedderPool

    with tempfile.TemporaryDirectory() as models:
        embedder = EmbedderPool(Path(models), memory_mode="full").get("E7")
        texts = [p.text for p in passages]
        rows = [np.asarray(embedder.embed_documents(texts[i:i + 64]), dtype=np.float32)
                for i in range(0, len(texts), 64)]
    vectors = np.concatenate(rows) if rows else np.zeros((0, 384), np.float32)
    if cache is not None:
        np.save(cache, vectors)
    return vectors


def training_and_left_out(saved: Path | None = None) -> tuple[Labelled, Labelled]:
    """(the training contracts' passages, the contracts left out of training): read from `saved`, a pickle of
    that pair a user of these benchmarks made (building them takes minutes), else built from ../shared."""
    if saved is not None:
        with saved.open("rb") as f:
            data, held = pickle.load(f)  # a file this benchmark's user made
        return data, held
    data = labelled()
    return data, labelled(only=frozenset(data.left_out))
