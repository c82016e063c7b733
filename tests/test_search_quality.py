"""Search quality on eval-dev through the real service: real parsing, OCR, chunking and the
packaged E7 embedder. The eval-dev case is ingested once per module (about a minute)."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from casetrack.config import load_settings
from casetrack.domain import Case
from casetrack.search.evaluation import Label, Reference, Returned, Scores, squeeze
from casetrack.search.pipeline import BM25, PipelineConfig
from casetrack.service.app import CaseTrack
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore
from casetrack.store import keys
from tests.datasets import EVAL_DEV

DOCS = EVAL_DEV / "docs"
MODES = {
    "bm25": PipelineConfig(rrf_weights={BM25: 1.0}, dense_recall=()),
    "dense": PipelineConfig(rrf_weights={"e7": 1.0}, dense_recall=("e7",)),
    "full": None,  # the service's own configuration
}

pytestmark = pytest.mark.slow  # every test ingests eval-dev with OCR: CI runs them with -m slow


@dataclass(frozen=True, slots=True)
class Labelled:
    id: str
    text: str
    kind: str
    label: Label


@dataclass(frozen=True, slots=True)
class EvalCase:
    app: CaseTrack
    case: Case
    queries: list[Labelled]
    refs: dict[str, Reference]


def _app(root: Path) -> CaseTrack:
    app = CaseTrack.open(load_settings(root, log_level="WARNING"))
    if "E7" not in app.pool.available():
        pytest.skip("the packaged E7 model is not installed")
    return app


def _ingest(app: CaseTrack, name: str, files: list[Path]) -> Case:
    app.create_case(name)
    for path in files:
        app.ingestor.ingest(app.active_case(), IngestRequest(str(path)))
    return app.active_case()


@pytest.fixture(scope="module")
def evalset(tmp_path_factory: pytest.TempPathFactory) -> EvalCase:
    app = _app(tmp_path_factory.mktemp("quality"))
    case = _ingest(app, "eval-dev", sorted(p for p in DOCS.iterdir() if p.name != "manifest.json"))
    queries = []
    for line in (EVAL_DEV / "queries.jsonl").read_text(encoding="utf-8").splitlines():
        q = json.loads(line)
        label = Label(q["doc"], tuple((int(s), int(e)) for s, e in q["spans"]), q.get("page"))
        queries.append(Labelled(q["id"], q["query"], q["kind"], label))
    refs = {p.name[: -len(".txt")]: Reference.of(p.read_text(encoding="utf-8"))
            for p in (EVAL_DEV / "text").glob("*.txt")}
    return EvalCase(app, case, queries, refs)


@pytest.fixture(scope="module")
def ranks(evalset: EvalCase) -> dict[str, tuple[Scores, dict[str, int | None]]]:
    """Per mode: the aggregated scores and each query's first-hit rank in the top 10."""
    out = {}
    for mode, config in MODES.items():
        scores, by_query = Scores(), {}
        for q in evalset.queries:
            response = evalset.app.search.search(evalset.case, q.text, top_k=10, min_score=0.0, context_chars=0,
                                                 pipeline=config)
            returned = [Returned(h.chunk.provenance.document_name, h.chunk.span.page,
                                 evalset.refs[h.chunk.provenance.document_name].locate(h.chunk.text, h.chunk.span.page))
                        for h in response.hits]
            by_query[q.id] = scores.add(returned, q.label)
        out[mode] = (scores, by_query)
    return out


def test_paraphrased_questions_find_their_answer_in_the_top_10(
        evalset: EvalCase, ranks: dict[str, tuple[Scores, dict[str, int | None]]]) -> None:
    semantic = [q.id for q in evalset.queries if q.kind == "semantic"]
    _, by_query = ranks["full"]
    missed = [qid for qid in semantic if by_query[qid] is None]
    # Measured: 11 of 12. d003 ("hand its rights ... over to another company without first
    # getting permission" -> "Neither party may assign ... without the written consent") is
    # ranked 10th by E7 alone and dropped by the fusion with BM25, which matches nothing there.
    assert len(semantic) == 12
    assert len(missed) <= 1, f"paraphrased questions missing from the top 10: {missed}"


@pytest.mark.parametrize("query", [
    "Section 4.5",  # a clause reference (Ebix)
    "17-3510",  # a docket number (2d Cir. notice)
    "3:05-cv-00595-RLM-MGG",  # a district court case number, read by OCR (7th Cir. order)
    "$18,000",  # an amount (Driven Deliveries)
    "$5,000,000",  # an amount (Biopure)
    "988 F.3d 8",  # a reporter citation (8th Cir. letter)
    "2023 WL 128600",  # a Westlaw citation
    "FRAP 12(a)",  # a rule with a subsection
])
def test_exact_legal_references_rank_their_passage_first(evalset: EvalCase, query: str) -> None:
    response = evalset.app.search.search(evalset.case, query, top_k=5, context_chars=0)
    assert response.hits, query
    top = squeeze(response.hits[0].chunk.text)[0].lower()
    assert squeeze(query)[0].lower() in top, (query, response.hits[0].chunk.text[:200])


@pytest.fixture
def small_case(tmp_path: Path) -> Iterator[tuple[CaseTrack, Case]]:
    app = _app(tmp_path / "small")
    files = ["ca8_rule_28j_letter_us_v_xiang_2023.pdf", "ca2_docketing_notice_nfl_2017.pdf",
             "common_paper_mutual_nda_v1.docx"]
    yield app, _ingest(app, "small", [DOCS / f for f in files])


def test_a_deleted_document_is_gone_from_every_index(small_case: tuple[CaseTrack, Case]) -> None:
    app, case = small_case
    phrase = "Alasaad v. Mayorkas"  # only the 8th Cir. letter cites it
    letter = next(d for d in app.documents.all(case) if d.name.startswith("ca8_"))
    before = app.search.search(case, phrase, top_k=5)
    assert before.hits[0].chunk.document_id == letter.id
    chunk_ids = set(app.search.index(case).chunks_of[letter.id])

    app.ingestor.delete(case, letter)

    def assert_gone() -> None:
        after = app.search.search(case, phrase, top_k=10, min_score=0.0)
        assert all(h.chunk.document_id != letter.id for h in after.hits)
        index = app.search.index(case)
        assert letter.id not in index.chunks_of
        assert not chunk_ids & set(index.doc_of)
        assert not any(c in index.bm25 for c in chunk_ids)
        assert not any(c in dense for dense in index.dense.values() for c in chunk_ids)
        with app.cases.store(case).reader() as db:
            assert not [c for c in chunk_ids if db.get(keys.BM25, keys.bm25_terms(c)) is not None]
            assert not [c for c in chunk_ids if db.get(keys.EMBEDDINGS, keys.embedding("E7", c)) is not None]
            assert docstore.get_document(db, letter.id) is None

    assert_gone()  # the in-memory indexes updated in place
    app.search.cache.forget(case.id)
    assert_gone()  # and rebuilt from the store, as another process would


def test_search_stays_available_while_the_case_is_reindexed(small_case: tuple[CaseTrack, Case]) -> None:
    app, case = small_case
    queries = ["Federal Rule of Appellate Procedure 28(j) letter", "acknowledgment and appearance form",
               "return or destruction of confidential information"]
    failures: list[str] = []
    done = threading.Event()
    outcome: list[list[tuple[str, str, str]]] = []

    def reindex() -> None:
        try:
            outcome.append(app.reindexer.reindex_case(app.cases.get(case.id), reparse=True))
        finally:
            done.set()

    worker = threading.Thread(target=reindex)
    worker.start()
    searches = 0
    deadline = time.monotonic() + 300
    while not done.is_set() and time.monotonic() < deadline:
        query = queries[searches % len(queries)]
        try:
            response = app.search.search(case, query, top_k=5, context_chars=0)
            if not response.hits:
                failures.append(f"no hits for {query!r}")
        except Exception as exc:  # any error is the failure being tested for
            failures.append(f"{query!r}: {exc!r}")
        searches += 1
    worker.join(timeout=60)
    assert done.is_set(), "reindex did not finish"
    assert [action for _, action, _ in outcome[0]] == ["reparsed"] * 3
    assert searches >= 3
    assert failures == []


def test_the_full_pipeline_finds_whatever_either_half_finds(
        ranks: dict[str, tuple[Scores, dict[str, int | None]]]) -> None:
    # eval-dev d013 ("Audit rights under the Biopure agency agreement", a quarterly review meeting CUAD labels audit
    # rights): BM25 with the priors ranks it 7th, E7 with them 1st (the role prior lifts it), and the full pipeline
    # ranked it 12th until a meaning list's firsts became those it ranks first with the same prior: now 9th.
    full = ranks["full"][0]
    for half in (ranks["bm25"][0], ranks["dense"][0]):
        assert full.recall_at(10) >= half.recall_at(10)


def test_asking_for_more_results_never_reorders_the_first_ones(evalset: EvalCase) -> None:
    """The first 10 of a top 12 are the top 10, and its first 5 the top 5, for every eval-dev question: no stage
    ranks by how many results are asked for (it did: a list's first was placed among the last of those asked)."""
    def ids(text: str, top_k: int) -> list[str]:
        response = evalset.app.search.search(evalset.case, text, top_k=top_k, min_score=0.0, context_chars=0)
        return [h.chunk.id for h in response.hits]

    for q in evalset.queries:
        ten = ids(q.text, 10)
        assert ids(q.text, 12)[:10] == ten, q.id
        assert ids(q.text, 5) == ten[:5], q.id


def test_the_full_pipeline_ranks_at_least_as_well_as_either_half(
        ranks: dict[str, tuple[Scores, dict[str, int | None]]]) -> None:
    full, bm25, dense = ranks["full"][0], ranks["bm25"][0], ranks["dense"][0]
    # On 36 queries one answer moving from 1st to 2nd moves MRR by 0.5/36 = 0.014: the fusion may
    # lose at most that to a half, never more (a fusion bug costs several answers). Measured
    # 2026-11-23 (Free tier): full 0.788, BM25 0.776, E7 0.732 (a query naming its document ranks
    # that document's passages by what it asks: search.scope); 0.749 / 0.760 / 0.695 before it.
    # 2026-11-29, the learned clause tags and their soft prior (issue 34): full 0.901, BM25 0.918 (d030, a date on a
    # scanned order: BM25 1st, full 10th); BM25's clear first shown first (PipelineConfig.lead_ratio): full 0.926.
    one_swap = 0.5 / len(full.ranks)
    for half in (bm25, dense):
        assert full.mrr() >= half.mrr() - one_swap
