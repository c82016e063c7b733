"""The clause classifier's fast scoring (a document's words found and hashed once, every passage and piece
summed in one gather) gives what the slow one gave, which scored each passage and each piece of it as a text
of its own (kept as benchmarks/clause_reference.py): same probabilities, same tags, same places, on real
contracts and on the texts where a tokeniser slips (nothing, one word, numbers, letters against digits,
non-ASCII letters and digits, a lower case longer than the text)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from benchmarks import clause_reference as reference

from casetrack.chunk import chunk_pages
from casetrack.chunk.roles.clause_model import ClauseModel, hashed_features, pieces
from casetrack.chunk.roles.clause_spans import clause_spans
from casetrack.domain import DocumentType
from casetrack.embed.clause_artefact import read_artefact
from casetrack.parse.text_pages import text_pages

DATA = Path(__file__).resolve().parents[1] / "data" / "cuad_sample"
UNSEEN = Path(__file__).resolve().parent / "data" / "unseen"
EDGES = [
    "", " ", "\n\n \n\n", "Word", "42", "a", "1.", "Term.\n\nOne.",
    "The term is two years. It renews unless either party objects; Notice must be written.",
    "3.2 The Supplier shall deliver 1,000 units within 30 days and 60 days; 2nd and 10-K and abc123def 7a.",
    "\n\n  16. TERMINATION  \n\n\n  Either party may terminate on 90 days' notice.  \n\n",
    "İSTANBUL İstanbul straße ΣΟΦΙΑ Σ. Kelvin \u212a ﬁnal ½ ² ٣٤ days ٣x (٤) 10٣ \u00a0 \u2009 end.",
    "Lone \ud800 surrogate.\n\nNext paragraph with café and naïve 12.",
    "a\tb\rc\fd\ve\x1cf\x1dg\x1eh\x1fi\x85j\u2028k\u2029l.\n\nm n.",
]
ALPHABET = [" ", "  ", "\n", "\n\n", "\n \n", "\t", "\u00a0", ".", ";", ":", ",", "(", ")", "\"", "'", "-", "$", "1",
            "12", "2023", "٣", "a", "A", "The", "Section", "shall", "Agreement", "İ", "ß", "é", "Σ", "x1", "2b",
            "assign", "consent", "governed", "laws", "Delaware", "insurance", "terminate"]


def _contracts() -> list[list[str]]:
    """The passages of every contract copied into the tests (CUAD v1), chunked as ingest chunks an agreement."""
    files = sorted(DATA.glob("*.txt")) + sorted(UNSEEN.glob("*.txt"))
    documents = [[c.text for c in chunk_pages(text_pages(f.read_text(encoding="utf-8")), DocumentType.CONTRACT)]
                 for f in files]
    assert len(documents) >= 19 and sum(map(len, documents)) >= 200
    return documents


def _random_texts(count: int) -> list[str]:
    rng = random.Random(34)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 60))) for _ in range(count)]


@pytest.fixture(scope="module")
def model() -> ClauseModel:
    return ClauseModel.of(*read_artefact())


@pytest.fixture(scope="module")
def documents() -> list[list[str]]:
    return _contracts()


def _same(new: np.ndarray, old: np.ndarray) -> None:
    assert new.shape == old.shape
    assert float(np.abs(new - old).max(initial=0.0)) <= 1e-5


def test_real_contracts_score_as_before_a_document_at_a_time_and_a_passage_at_a_time(
        model: ClauseModel, documents: list[list[str]]) -> None:
    tagged = 0
    for texts in documents:
        _same(model.passage_scores(texts), reference.passage_scores(model, texts))
        assert model.tag_all(texts) == reference.tag_all(model, texts)
        tagged += sum(map(bool, model.tag_all(texts)))
    every = [t for texts in documents for t in texts]
    _same(np.vstack([model.passage_scores([t]) for t in every]), reference.passage_scores(model, every))
    assert tagged >= 50  # the comparison covers passages that take tags, not only ones that take none


@pytest.mark.parametrize("floor", [0, 1, 50, 300, 5000])
def test_every_floor_and_a_text_scored_whole_as_before(model: ClauseModel, documents: list[list[str]],
                                                       floor: int) -> None:
    texts = documents[0] + EDGES + _random_texts(100)
    _same(model.passage_scores(texts, floor), reference.passage_scores(model, texts, floor))
    _same(model.scores(texts, floor), reference.scores(model, texts, floor))


def test_edge_texts_and_random_ones_score_as_before(model: ClauseModel) -> None:
    texts = EDGES + _random_texts(400)
    assert any(len(pieces(t)) >= 2 for t in EDGES) and any(len(pieces(t)) == 1 for t in EDGES)
    _same(model.passage_scores(texts), reference.passage_scores(model, texts))
    for text in texts:
        _same(model.passage_scores([text]), reference.passage_scores(model, [text]))
    assert model.passage_scores([]).shape == (0, len(model.types))
    empty = model.passage_scores(["", "  "])
    assert np.allclose(empty, 1 / (1 + np.exp(-model.bias)))  # no word: the bias alone


def test_the_pieces_probabilities_are_those_the_clause_is_placed_by(model: ClauseModel,
                                                                    documents: list[list[str]]) -> None:
    placed = 0
    for texts in documents[:8]:
        scored = model.scored(texts)
        for text, by_piece, parts, best in zip(texts, scored.by_piece, scored.spans, scored.best, strict=True):
            old = reference.piece_scores(model, text)
            assert (by_piece is None) == (old is None)
            if by_piece is None or old is None:
                continue
            _same(by_piece, old)
            assert list(parts) == pieces(text)  # the places ingest hands on are the pieces scored
            found = model.above(best, model.threshold)
            assert clause_spans(text, found, model, by_piece, parts) == clause_spans(text, found, model)
            placed += bool(clause_spans(text, found, model, by_piece, parts))
    assert placed >= 10


def test_training_reads_the_features_ingest_scores_by(documents: list[list[str]]) -> None:
    """`hashed_features` (what scripts/train_clauses.py fits on) is the scoring code's own feature set, and equals
    the first implementation's, bucket for bucket, at the shipped size and at a training script's larger one."""
    texts = [t for doc in documents for t in doc][:120] + EDGES + _random_texts(100)
    for dims in (8192, 65536):
        for text in texts:
            assert np.array_equal(hashed_features(text, dims), reference.hashed_features(text, dims)), text[:60]
