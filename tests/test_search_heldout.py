"""Search quality on the held-out contracts (benchmarks/heldout): 12 CUAD contracts and 65
queries that no ranking choice was tuned on. The slow test runs the set through the real
service (parsing, chunking, the packaged E7 embedder) and pins floors a little below what was
measured, so a change that only helps eval-dev fails here; the fast one checks the set itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.heldout_sets import assert_labels_hold, scored

HELDOUT = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout"


def test_every_labelled_span_is_the_answer_text_of_an_existing_document() -> None:
    assert_labels_hold(HELDOUT, 65)


@pytest.mark.slow  # about a minute: ingests 12 contracts (126 chunks) with the real E7 embedder
def test_the_full_pipeline_keeps_its_quality_on_contracts_it_was_not_tuned_on(tmp_path: Path) -> None:
    scores, ranks = scored(HELDOUT, tmp_path)
    # Measured (Free tier, E7): R@10 0.969 (63 of 65), MRR@10 0.672; 0.985 / 0.632 before a query
    # naming its document ranked that document's passages by what it asks (search.scope).
    # R@10 0.95 allows one more query out of the top 10. One answer falling from first place
    # out of the top 10 costs 1/65 = 0.015 of MRR, so 0.65 allows about that; the ranking before
    # named-document scoping (0.632), BM25 alone (0.61) or E7 alone (0.53) would fail.
    # Issue 21 (legal roles above all: clause MRR 0.77 -> 1.00, naming as evidence): 0.985 / 0.780; 0.75 keeps
    # that but for about two answers falling out of first place.
    assert scores.recall_at(10) >= 0.95, f"R@10 {scores.recall_at(10):.3f}; first-hit ranks: {ranks}"
    assert scores.mrr() >= 0.75, f"MRR {scores.mrr():.3f}; first-hit ranks: {ranks}"
