"""A search result's score means the same thing from one question to the next (issue 35 §6): the chance that the
passage answers the question (search.calibration, docs/scores.md), so that min_score is usable.

The score shown used to be the fused rank score over its best possible: the passage every signal ranks first read
~1.0 whether it answered the question or nothing in the case did (0.87-0.93 on every result of a question no
passage answers). A real case on disk: two CUAD contracts (tests/data/cuad_sample, CC BY 4.0) and the order of the
small case (tests/small_case.py), ingested and searched by the real service with the packaged E7 model; and the
same through a real MCP client, as Claude sees it."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from tests.mcp_helpers import call_ok, mcp_session, text_of
from tests.small_case import ORDER

SAMPLE = Path(__file__).parent / "data" / "cuad_sample"
CONTRACTS = ("agapeatp_supply_agreement.txt", "alliedesports_content_license.txt")
ANSWERED = "governed by the laws of England"  # the Agape supply agreement's clause 10, in its own words
ANSWER = "This agreement shall be governed by the Laws of England"
UNANSWERED = "What was the defendant's blood alcohol level when the police stopped his car?"


@pytest.fixture(scope="module")
def scored_case(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[CaseTrack, Case, Path]]:
    folder = tmp_path_factory.mktemp("scores")
    app = CaseTrack.open(load_settings(folder / "CaseTrack", environ={}))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    case = app.create_case("Scores")
    for name in CONTRACTS:
        shutil.copy(SAMPLE / name, folder / name)
    (folder / "Order.txt").write_text(ORDER, encoding="utf-8")
    for name in (*CONTRACTS, "Order.txt"):
        app.ingestor.ingest(case, IngestRequest(str(folder / name)))
    yield app, case, folder / "CaseTrack"
    app.jobs.shutdown()


def test_a_question_no_passage_answers_scores_far_below_one_a_passage_answers_exactly(
        scored_case: tuple[CaseTrack, Case, Path]) -> None:
    app, case, _ = scored_case
    answered = app.search.search(case, ANSWERED, top_k=10).hits
    unanswered = app.search.search(case, UNANSWERED, top_k=10).hits
    assert ANSWER in answered[0].chunk.text
    assert len(unanswered) == 10  # the ranking still returns passages: only their scores say they answer nothing
    best_unanswered = max(h.score for h in unanswered)
    assert best_unanswered < 0.2, [h.score for h in unanswered]
    assert answered[0].score >= 0.5
    assert answered[0].score > 3 * best_unanswered
    # the other passages of the answered question are not its answer, and say so
    assert all(h.score < 0.5 for h in answered[1:] if ANSWER not in h.chunk.text)


def test_min_score_keeps_the_answer_and_drops_the_unrelated_passages(scored_case: tuple[CaseTrack, Case, Path]) -> None:
    app, case, _ = scored_case
    everything = app.search.search(case, ANSWERED, top_k=10).hits
    kept = app.search.search(case, ANSWERED, top_k=10, min_score=0.5).hits
    assert len(everything) == 10
    assert [h.chunk.id for h in kept] == [h.chunk.id for h in everything if h.score >= 0.5]
    assert kept and ANSWER in kept[0].chunk.text
    assert all(h.chunk.provenance.document_name == "agapeatp_supply_agreement.txt" for h in kept)
    assert app.search.search(case, UNANSWERED, top_k=10, min_score=0.5).hits == []


@pytest.mark.anyio
async def test_search_case_says_when_no_passage_reaches_min_score(scored_case: tuple[CaseTrack, Case, Path]) -> None:
    _, _, data = scored_case
    async with mcp_session(data) as session:
        answered = await call_ok(session, "search_case", query=ANSWERED, min_score=0.5, case_name="Scores")
        result = answered.structured_content
        assert result is not None and result["results"] and ANSWER in result["results"][0]["text"]
        assert all(r["score"] >= 0.5 for r in result["results"])
        nothing = await call_ok(session, "search_case", query=UNANSWERED, min_score=0.5, case_name="Scores")
        assert nothing.structured_content is not None and nothing.structured_content["results"] == []
        assert "No passage scores 0.50 or more" in text_of(nothing)


QUESTIONS = (ANSWERED, UNANSWERED, "Can either party assign this agreement without the other's consent?",
             "How long does the licence last and can it be terminated early?", "What did the court order?",
             "Is there a cap on damages or a limitation of liability?", "Who owns the intellectual property?",
             "payment terms invoices within thirty days")


@pytest.mark.anyio
async def test_the_scores_search_case_shows_descend_with_its_order(scored_case: tuple[CaseTrack, Case, Path]) -> None:
    """Results come in the ranking's order and a user reads the scores down the list: a lower score above a higher
    one reads as a ranking mistake (it was on 94% of the labelled sets' questions, benchmarks/score_order.py). The
    scores now descend with the order, over MCP as Claude sees them, and min_score keeps the top of the list."""
    _, _, data = scored_case
    async with mcp_session(data) as session:
        for question in QUESTIONS:
            shown = await call_ok(session, "search_case", query=question, top_k=10, case_name="Scores")
            assert shown.structured_content is not None
            scores = [r["score"] for r in shown.structured_content["results"]]
            assert len(scores) == 10 and scores == sorted(scores, reverse=True), (question, scores)
            floor = scores[3]
            kept = await call_ok(session, "search_case", query=question, top_k=10, min_score=floor, case_name="Scores")
            assert kept.structured_content is not None
            ids = [r["chunk_id"] for r in shown.structured_content["results"]]
            assert [r["chunk_id"] for r in kept.structured_content["results"]] == ids[:len(kept.structured_content[
                "results"])], question
