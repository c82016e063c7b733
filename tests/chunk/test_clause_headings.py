"""Where a passage sits is read by the clause classifier: the path of section headings ingest records for each
passage (service.ingest.entries.heading_paths) is a feature of the passage and of each of its pieces, hashed
apart from the passage's own words. Scoring a contract's passages at once gives what the features training
reads (`hashed_features`, `heading_features`) give; a model trained without headings scores as before whatever
path it is handed; the shipped one reads them."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from casetrack.chunk import chunk_pages
from casetrack.chunk.roles.clause_model import MIN_PIECES, ClauseModel, hashed_features, heading_features, pieces
from casetrack.chunk.structure import extract_structure
from casetrack.domain import ChunkSpan, DocumentType
from casetrack.embed.clause_artefact import read_artefact
from casetrack.parse.text_pages import text_pages
from casetrack.service.ingest.clauses import tag_chunks
from casetrack.service.ingest.entries import heading_paths

DATA = Path(__file__).resolve().parents[1] / "data" / "cuad_sample"


def _contracts() -> list[tuple[list[str], list[str]]]:
    """(passages, heading paths) of the CUAD contracts copied into the tests, as ingest cuts an agreement."""
    out = []
    for f in sorted(DATA.glob("*.txt")):
        pages = text_pages(f.read_text(encoding="utf-8"))
        chunks = chunk_pages(pages, DocumentType.CONTRACT)
        out.append(([c.text for c in chunks], heading_paths(chunks, extract_structure(pages))))
    return out


@pytest.fixture(scope="module")
def shipped() -> ClauseModel:
    return ClauseModel.of(*read_artefact())


def _probability(model: ClauseModel, buckets: np.ndarray, floor: int) -> np.ndarray:
    return 1 / (1 + np.exp(-(model.bias + model.words[buckets].sum(axis=0) / np.sqrt(max(len(buckets), floor, 1)))))


def test_each_passage_and_piece_is_scored_on_the_features_training_reads(shipped: ClauseModel) -> None:
    model = dataclasses.replace(shipped, headings=True)
    checked = 0
    for texts, paths in _contracts():
        assert sum(map(bool, paths)) >= len(paths) // 2  # the contracts have headings to read
        scored = model.scored(texts, paths=paths)
        for text, path, best, by_piece in zip(texts, paths, scored.best, scored.by_piece, strict=True):
            heading = heading_features(path, model.dims)
            whole = _probability(model, np.union1d(hashed_features(text, model.dims), heading), 0)
            parts = pieces(text)
            if len(parts) < MIN_PIECES:
                assert by_piece is None
                assert np.allclose(best, whole, atol=1e-5)
                continue
            assert by_piece is not None
            for (a, b), got in zip(parts, by_piece, strict=True):
                expected = _probability(model, np.union1d(hashed_features(text[a:b], model.dims), heading),
                                        model.floor)
                assert np.allclose(got, expected, atol=1e-5), text[a:b][:60]
            assert np.allclose(best, np.maximum(whole, by_piece.max(axis=0)), atol=1e-5)
            checked += 1
    assert checked >= 50


def test_headings_are_words_of_their_own_and_numbers_say_nothing() -> None:
    assert np.array_equal(heading_features("12 Governing Law", 65536), heading_features("Governing Law", 65536))
    assert len(heading_features("12 Governing Law", 65536)) == 3  # governing, law, "governing law"
    assert not set(heading_features("Governing Law", 65536)) & set(hashed_features("Governing Law", 65536))
    assert len(heading_features("", 65536)) == len(heading_features("12.3", 65536)) == 0


def test_a_model_trained_without_headings_scores_as_before_whatever_the_path(shipped: ClauseModel) -> None:
    arrays, meta = read_artefact()
    old = ClauseModel.of(arrays, {k: v for k, v in meta.items() if k != "namespaces"})
    assert not old.headings
    for texts, paths in _contracts()[:2]:
        assert np.array_equal(old.scored(texts, paths=paths).best, old.scored(texts).best)


def test_the_shipped_model_reads_the_section_a_passage_sits_in(shipped: ClauseModel) -> None:
    """Plain words that do not say "insurance" (coverage, policies, certificates) are at least half as likely
    again an insurance clause under "14 Insurance" as under no heading or under another section's heading."""
    assert shipped.headings
    column = shipped.types.index("insurance")
    for text in ("Each party shall maintain the coverage described below during the term.\n\n"
                 "Certificates shall be provided to the other party upon request.",
                 "The Company shall keep such policies in force with reputable carriers and shall furnish "
                 "certificates upon request."):
        under, bare, elsewhere = (float(shipped.passage_scores([text], paths=[path])[0, column])
                                  for path in ("14 Insurance", "", "9 Governing Law"))
        assert under > 1.5 * max(bare, elsewhere)


def test_ingest_hands_each_passage_its_heading_path() -> None:
    """`tag_chunks`, as ingest calls it, scores a passage under the heading path it is given."""
    text = ("Each party shall maintain the coverage described below during the term.\n\n"
            "Certificates shall be provided to the other party upon request.")
    span = ChunkSpan(0, 1, 0, len(text), text, 1, 2, 1, 3, 24)

    def insurance(path: str) -> float:
        tags = tag_chunks(["c"], [span], [path], [], DocumentType.CONTRACT)
        found = {**tags.likelihood.get("c", {}), **tags.confidence.get("c", {})}
        return found.get("insurance", 0.0)

    assert insurance("14 Insurance") > 1.5 * insurance("") > 0
