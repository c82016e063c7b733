"""Search quality on held-out court documents (benchmarks/heldout_court): a Supreme Court slip
opinion, two district court orders, three state attorney-general opinions (one a scanned page),
a state statute and two federal agency decisions, with 57 hand-labelled queries written before
any search was run on them. The slow test runs the set through the real service (parsing, OCR,
chunking, the packaged E7 embedder) and pins floors a little below what was measured; the fast
one checks the set itself."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from casetrack.search.evaluation import squeeze
from tests.heldout_sets import queries, scored

COURT = Path(__file__).resolve().parents[1] / "benchmarks" / "heldout_court"
DOCS = COURT / "docs"
KINDS = {"citation", "date", "entity", "keyword", "semantic", "clause"}


def test_every_labelled_span_is_the_answer_text_on_its_labelled_page_and_line() -> None:
    labelled = queries(COURT)
    manifest = {d["file"]: d for d in json.loads((DOCS / "manifest.json").read_text(encoding="utf-8"))["documents"]}
    assert len(labelled) == 57
    assert {p.name for p in DOCS.iterdir()} == set(manifest) | {"manifest.json"}
    for q in labelled:
        assert q["kind"] in KINDS, q["id"]
        assert q["doc"] in manifest, q["id"]
        ref = (COURT / "text" / f"{q['doc']}.txt").read_text(encoding="utf-8")
        texts = [ref[s:e] for s, e in q["spans"]]
        assert all(t.strip() for t in texts), q["id"]
        assert squeeze(q["answer_text"])[0] == squeeze(texts[0])[0], q["id"]
        assert q.get("all_answer_texts", texts[:1]) == texts, q["id"]
        start = q["spans"][0][0]
        if manifest[q["doc"]]["pages"] is None:  # TXT and DOCX: no page, no line
            assert q["page"] is None and q["text_line"] is None, q["id"]
        else:  # paginated: the first span starts on the labelled page, on the labelled line of it
            assert ref.count("\f", 0, start) + 1 == q["page"], q["id"]
            assert ref.count("\n", ref.rfind("\f", 0, start) + 1, start) + 1 == q["text_line"], q["id"]
            assert ref.count("\f") + 1 == manifest[q["doc"]]["pages"], q["id"]


@pytest.mark.slow  # about a minute: ingests 9 court documents (OCR of one scanned page) with the real E7 embedder
def test_the_full_pipeline_keeps_its_quality_on_court_documents_it_was_not_tuned_on(tmp_path: Path) -> None:
    scores, ranks = scored(COURT, tmp_path)
    # Measured (Free tier, E7, at 92f67ad): R@10 0.930 (53 of 57), MRR@10 0.753. Before a naming word
    # had to be rare in the other documents' text too (f635d45) 0.825 / 0.628: generic words of court
    # file names ("Board", "State", "Elections", "County") scoped queries to the wrong document; before
    # named-document scoping (b7a393f) 0.930 / 0.707. R@10 0.91 allows one more query out of the top 10
    # (52 of 57 = 0.912); one answer falling from first place out of the top 10 costs 1/57 = 0.018 of
    # MRR, so 0.73 allows about that, and fails both earlier rankings. Issue 21 (references first, naming as
    # evidence, legal roles): 0.930 / 0.775; 0.75 keeps that but for about one answer falling out.
    assert scores.recall_at(10) >= 0.91, f"R@10 {scores.recall_at(10):.3f}; first-hit ranks: {ranks}"
    assert scores.mrr() >= 0.75, f"MRR {scores.mrr():.3f}; first-hit ranks: {ranks}"
