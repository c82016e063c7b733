"""Running a labelled set in the eval-dev layout (benchmarks/heldout, benchmarks/heldout_court) through the
real service, for the held-out search tests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from casetrack.config import load_settings
from casetrack.search.evaluation import Label, Reference, Returned, Scores, squeeze
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest


def queries(root: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (root / "queries.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]


def assert_labels_hold(root: Path, questions: int, documents: int | None = None) -> None:
    """The set has `questions` questions (over `documents` documents, when given), each naming a file in docs/
    whose reference text holds every labelled span: the first is the answer text (whitespace aside), the others
    the `all_answer_texts`, and the first starts on the labelled page of a paginated document."""
    labelled = queries(root)
    files = {p.name for p in (root / "docs").iterdir()}
    assert len(labelled) == questions
    if documents is not None:
        assert len({q["doc"] for q in labelled}) == documents
    for q in labelled:
        assert q["doc"] in files, q["id"]
        ref = (root / "text" / f"{q['doc']}.txt").read_text(encoding="utf-8")
        texts = [ref[s:e] for s, e in q["spans"]]
        assert squeeze(q["answer_text"])[0] == squeeze(texts[0])[0], q["id"]
        assert q.get("all_answer_texts", texts[:1]) == texts, q["id"]
        if q["page"] is not None:
            assert ref.count("\f", 0, q["spans"][0][0]) + 1 == q["page"], q["id"]


def scored(root: Path, data_dir: Path) -> tuple[Scores, dict[str, int | None]]:
    """Every document of `root`/docs ingested into a fresh case (Free tier, the packaged E7 embedder), every
    query searched for its top 10: the scores and each query's first-hit rank."""
    app = CaseTrack.open(load_settings(data_dir, log_level="WARNING"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    app.create_case(root.name)
    for path in sorted(p for p in (root / "docs").iterdir() if p.name != "manifest.json"):
        app.ingestor.ingest(app.active_case(), IngestRequest(str(path)))
    case = app.active_case()
    refs = {p.name[: -len(".txt")]: Reference.of(p.read_text(encoding="utf-8")) for p in (root / "text").glob("*.txt")}
    scores, ranks = Scores(), {}
    located: dict[tuple[str, str, int], tuple[int, int] | None] = {}  # an e-mail's chunks are aligned by difflib: slow

    def locate(doc: str, text: str, page: int) -> tuple[int, int] | None:
        if (doc, text, page) not in located:
            located[doc, text, page] = refs[doc].locate(text, page)
        return located[doc, text, page]

    for q in queries(root):
        label = Label(q["doc"], tuple((int(s), int(e)) for s, e in q["spans"]), q.get("page"))
        response = app.search.search(case, q["query"], top_k=10, min_score=0.0, context_chars=0)
        returned = [Returned(h.chunk.provenance.document_name, h.chunk.span.page,
                             locate(h.chunk.provenance.document_name, h.chunk.text, h.chunk.span.page))
                    for h in response.hits]
        ranks[q["id"]] = scores.add(returned, label)
    return scores, ranks
