"""Search quality on documents of kinds the other sets lack (benchmarks/heldout_mixed): a Supreme Court slip
opinion with its syllabus and dissent, a BIA decision, two statutes (one scanned), two CM/ECF e-mails, with 51
questions written before any search ran on them and references asked in other forms than printed. The slow test
runs the set through the real service and pins floors a little below what was measured; the fast one checks the
set itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.heldout_sets import assert_labels_hold, scored

MIXED = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout_mixed"


def test_every_labelled_span_is_the_answer_text_of_an_existing_document() -> None:
    assert_labels_hold(MIXED, 51, 6)


@pytest.mark.slow  # a minute or two: 6 documents (OCR of one scanned page) with the real E7 embedder
def test_the_full_pipeline_finds_every_answer_in_documents_nobody_tuned_it_on(tmp_path: Path) -> None:
    scores, ranks = scored(MIXED, tmp_path)
    # Measured (Free tier, E7): R@10 1.000, MRR 0.858 (0.798 before issue 21). Nothing was chosen on this set.
    assert scores.recall_at(10) >= 0.98, f"R@10 {scores.recall_at(10):.3f}; first-hit ranks: {ranks}"
    assert scores.mrr() >= 0.83, f"MRR {scores.mrr():.3f}; first-hit ranks: {ranks}"
