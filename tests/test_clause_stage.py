"""The clause library's learned decision (service.ingest.clause_stage, issue 34): an agreement's passages are tagged
by a second stage that sees the whole agreement (a passage's rank for a type, the contract's best, its neighbours),
when the artefact holds one; an artefact without it still decides by its hand-built rule. Checked on the decision
function itself and on a real CUAD contract ingested into a real case (RocksDB, the shipped classifier), read
back through `casetrack serve`."""

from __future__ import annotations

import dataclasses
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.mcp_helpers import listed_clauses
from tests.test_clause_rule import CONTRACT
from tests.test_clauses_mcp import OPINION

# The clause types CUAD v1 labels in CONTRACT (ABILITYINC_06_15_2020-EX-4.25-SERVICES AGREEMENT, clauses.jsonl)
LABELLED = ("document_name", "parties", "agreement_date", "effective_date", "expiration_date", "governing_law",
            "termination_for_convenience", "anti_assignment", "ip_ownership_assignment")


def _best_only_stage(types: int, threshold: float = 0.5):  # type: ignore[no-untyped-def]
    """A stage that says yes exactly to each document's likeliest passage for a type (feature `is_best`)."""
    from casetrack.service.ingest.clause_stage import FEATURES, ClauseStage

    k = len(FEATURES)
    weights = np.zeros((types, 1 + k + types))
    weights[:, 0], weights[:, 1 + FEATURES.index("is_best")] = -5.0, 10.0
    centre = np.stack([np.zeros(k + types), np.ones(k + types)])
    return ClauseStage(weights, centre, threshold)


def test_a_stage_decides_from_the_whole_document_and_parties_stay_in_the_preamble() -> None:
    from casetrack.service.ingest.clauses import ClauseRule, decided

    types = ("parties", "governing_law")
    best = np.array([[0.9, 0.01], [0.95, 0.06], [0.2, 0.03],  # document 0
                     [0.01, 0.02], [0.6, 0.01]])  # document 1
    document = np.array([0, 0, 0, 1, 1])
    rule = ClauseRule(0.4, parties_within=1, stage=_best_only_stage(2))
    tagged = decided(best, types, rule, document)
    # each document's best passage per type, whatever its probability (the threshold 0.4 is not used) ...
    assert tagged[:, 1].tolist() == [False, True, False, True, False]
    # ... and parties only on a document's first passage: document 0's best (0.95) is its second passage
    assert tagged[:, 0].tolist() == [False, False, False, False, False]
    assert decided(best[:3], types, rule).tolist() == tagged[:3].tolist()  # one document alone: the same
    assert decided(best, types, ClauseRule(0.4, parties_within=1), document)[:, 1].tolist() == [False] * 5


def test_the_library_may_list_parties_anywhere_while_search_reads_them_only_in_the_preamble() -> None:
    """An artefact whose stage was chosen listing `parties` anywhere (meta.json `parties_listed_anywhere`) lists
    a signature block naming the parties; `allowed` (what search's role prior reads) still keeps the preamble's
    alone. The hand-built rule never lists past `parties_within`: its thresholds were chosen so."""
    from casetrack.service.ingest.clauses import ClauseRule, allowed, decided

    types = ("parties", "governing_law")
    best = np.array([[0.9, 0.01], [0.95, 0.06], [0.2, 0.03]])
    meta = {"threshold": 0.4, "parties_within": 1, "parties_listed_anywhere": True}
    rule = ClauseRule.of(meta)
    assert rule.parties_listed_anywhere and not ClauseRule.of(dict(meta, parties_listed_anywhere="yes")
                                                              ).parties_listed_anywhere
    staged = dataclasses.replace(rule, stage=_best_only_stage(2))
    assert decided(best, types, staged)[:, 0].tolist() == [False, True, False]  # the best, past the preamble
    assert allowed(best.shape, types, staged)[:, 0].tolist() == [True, False, False]
    assert decided(best, types, rule)[:, 0].tolist() == [True, False, False]  # no stage: the rule's preamble


def _vector_stage(model: np.ndarray, threshold: float = 0.5):  # type: ignore[no-untyped-def]
    """A stage that reads only its vector model's log-odds: `model` ((dims + 1) x types, the bias last) over the
    raw vector (centre 0, spread 1)."""
    from casetrack.service.ingest.clause_stage import FEATURES, VECTOR_FEATURES, ClauseStage, VectorModel

    dims, types = model.shape[0] - 1, model.shape[1]
    k = len(FEATURES) + len(VECTOR_FEATURES)
    weights = np.zeros((types, 1 + k + types))
    weights[:, 1 + len(FEATURES) + VECTOR_FEATURES.index("vector_log_odds")] = 1.0
    centre = np.stack([np.zeros(k + types), np.ones(k + types)])
    return ClauseStage(weights, centre, threshold, VectorModel(model, np.stack([np.zeros(dims), np.ones(dims)])), "E7")


def test_the_stage_with_vectors_decides_when_they_are_given_and_the_plain_one_otherwise() -> None:
    from casetrack.service.ingest.clauses import ClauseRule, decided, dense

    types = ("governing_law", "cap_on_liability")
    best = np.array([[0.9, 0.01], [0.05, 0.02], [0.01, 0.03]])  # the words see governing law in passage 0 only
    vectors = np.array([[0.0, 0.0, 0.2], [1.0, 0.0, 0.1], [0.0, 1.0, 0.3]])  # the meaning: law in 1, cap in 2
    model = np.zeros((4, 2))  # type j's log-odds: 10 x (the vector's j-th coordinate - 0.5)
    model[[0, 1], [0, 1]], model[-1] = 10.0, -5.0
    rule = ClauseRule(0.4, stage=_best_only_stage(2), vector_stage=_vector_stage(model))
    assert rule.embedder() == "E7"
    assert decided(best, types, rule, vectors=vectors).tolist() == [[False, False], [True, False], [False, True]]
    # without the vectors (E7 did not embed the agreement), or with vectors of another size, the plain stage
    plain = [[True, False], [False, False], [False, True]]
    assert decided(best, types, rule).tolist() == plain
    assert decided(best, types, rule, vectors=vectors[:, :2]).tolist() == plain
    assert decided(best, types, rule, vectors=vectors[:2]).tolist() == plain
    # ingest's vectors by embedder: one array when that embedder embedded every passage densely, else none
    rows = list(vectors.astype(np.float32))
    stacked = dense({"E7": rows, "E13": []}, "E7", 3)
    assert stacked is not None and stacked.tolist() == vectors.astype(np.float32).tolist()
    assert dense({"E13": rows}, "E7", 3) is None and dense({"E7": rows[:2]}, "E7", 3) is None
    assert dense({"E7": [*rows[:2], (np.array([1], np.uint32), np.array([0.5], np.float32))]}, "E7", 3) is None
    assert dense(None, "E7", 3) is None and dense({"E7": rows}, None, 3) is None


def test_the_shipped_artefact_has_a_stage_and_one_without_it_decides_by_its_rule(tmp_path: Path) -> None:
    from casetrack.embed import clause_artefact
    from casetrack.service.ingest.clause_stage import (
        CENTRE,
        VECTOR_CENTRE,
        VECTOR_MODEL,
        VECTOR_MODEL_CENTRE,
        VECTOR_WEIGHTS,
        WEIGHTS,
    )
    from casetrack.service.ingest.clauses import ClauseRule, decided

    arrays, meta = clause_artefact.read_artefact()
    shipped = ClauseRule.of(meta, arrays)
    assert shipped.stage is not None and 0 < shipped.stage.threshold < 1
    assert shipped.vector_stage is not None and shipped.embedder() == "E7" and 0 < shipped.vector_stage.threshold < 1
    assert shipped.vector_stage.vector_model is not None and shipped.vector_stage.vector_model.dims == 384
    old = tmp_path / "old"
    shutil.copytree(clause_artefact.FOLDER, old)
    for name in (WEIGHTS, CENTRE, VECTOR_WEIGHTS, VECTOR_CENTRE, VECTOR_MODEL, VECTOR_MODEL_CENTRE):
        (old / f"{name}.npy").unlink()
    old_arrays, old_meta = clause_artefact.read_artefact(old)
    rule = ClauseRule.of(old_meta, old_arrays)
    assert rule.stage is None and rule == ClauseRule.of(meta)
    rng = np.random.default_rng(0)
    best = rng.random((30, len(meta["types"]))) ** 4
    assert decided(best, meta["types"], rule).tolist() == (
        ((best >= rule.threshold) | _contract_best_rows(best, rule)) & _parties_first(best, meta["types"])).tolist()
    cut = dict(arrays, **{WEIGHTS: arrays[WEIGHTS][:, :-1]})
    with pytest.raises(ValueError, match="do not fit"):
        ClauseRule.of(meta, cut)
    with pytest.raises(ValueError, match="vector model does not fit"):
        ClauseRule.of(meta, dict(arrays, **{VECTOR_MODEL: arrays[VECTOR_MODEL][:-1]}))
    # an artefact with the plain stage but not the vector one decides by the plain stage
    (old / "meta.json").write_text(clause_artefact.FOLDER.joinpath("meta.json").read_text(encoding="utf-8"))
    for name in (WEIGHTS, CENTRE):
        shutil.copy(clause_artefact.FOLDER / f"{name}.npy", old / f"{name}.npy")
    old_arrays, old_meta = clause_artefact.read_artefact(old)
    plain = ClauseRule.of(old_meta, old_arrays)
    assert plain.stage is not None and plain.vector_stage is None and plain.embedder() is None


def _contract_best_rows(best: np.ndarray, rule) -> np.ndarray:  # type: ignore[no-untyped-def]
    top = best.max(axis=0)
    return (best >= rule.near_best * top) & (best >= rule.best_from)


def _parties_first(best: np.ndarray, types: list[str]) -> np.ndarray:
    out = np.ones(best.shape, dtype=bool)
    out[1:, types.index("parties")] = False
    return out


@pytest.fixture(scope="module")
def staged_case(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A case holding the contract and an opinion, tagged by the shipped artefact (its learned stage)."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest import clauses
    from casetrack.service.ingest.document import IngestRequest

    folder = tmp_path_factory.mktemp("stage")
    (folder / "ability services agreement.txt").write_text(CONTRACT.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "Smith v Jones opinion.txt").write_text(OPINION, encoding="utf-8")
    root = folder / "CaseTrack"
    clauses._loaded.cache_clear()
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.create_case("Ability")
    for name in ("ability services agreement.txt", "Smith v Jones opinion.txt"):
        ingested = app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(folder / name)))
        # E7 embedded the agreement, so the stage that reads its passages' vectors decided it
        assert "E7" in ingested.document.embedders
    app.jobs.shutdown()
    yield root


@pytest.mark.anyio
async def test_the_library_lists_the_passage_the_stage_chose(staged_case: Path) -> None:
    from casetrack.chunk.roles.taxonomy import BY_ID, DECISION

    contract, opinion = await listed_clauses(staged_case, "Ability", "ability services", "Smith v Jones")
    groups = {g["clause_type"]: g["passages"] for g in contract["clause_types"]}
    assert [p for p in groups["governing_law"] if "governed by" in p["text"]]
    # every type CUAD's lawyers labelled in this contract is listed ...
    assert set(LABELLED) <= set(groups)
    # ... and not change of control, which they did not label: the hand-built rule lists the contract's likeliest
    # passage for it (0.03, a termination-for-breach passage), the stage sees it stands out from nothing
    assert "change_of_control" not in groups
    assert len(groups["parties"]) == 1 and groups["parties"][0]["text"].lstrip().startswith("EXHIBIT 4.25")
    # a decision takes no contract clause type, whatever decides an agreement's
    assert {BY_ID[g["clause_type"]].family for g in opinion["clause_types"]} == {DECISION}


@pytest.mark.anyio
async def test_ingest_hands_each_chunk_s_e7_vector_to_the_decision(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The agreement's chunks' E7 vectors, computed by ingest before tagging, reach the stage that reads them: a
    stage that tags every passage with a vector `audit_rights` puts it on every passage of a real ingest."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest import clauses
    from casetrack.service.ingest.document import IngestRequest

    clauses._loaded.cache_clear()
    loaded = clauses._loaded()
    assert loaded is not None
    model, shipped = loaded
    every = np.zeros((385, len(model.types)))  # whatever the vector: audit rights, and no other type
    every[-1] = np.where(np.array(model.types) == "audit_rights", 10.0, -10.0)
    rule = dataclasses.replace(shipped, vector_stage=_vector_stage(every))
    monkeypatch.setattr(clauses, "_loaded", lambda: (model, rule))
    (tmp_path / "ability services agreement.txt").write_text(CONTRACT.read_text(encoding="utf-8"), encoding="utf-8")
    root = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.create_case("Vectors")
    request = IngestRequest(str(tmp_path / "ability services agreement.txt"))
    ingested = app.ingestor.ingest(app.cases.get(case.id), request)
    app.jobs.shutdown()
    (contract,) = await listed_clauses(root, "Vectors", "ability services")
    groups = {g["clause_type"]: g["passages"] for g in contract["clause_types"]}
    assert len(groups["audit_rights"]) == ingested.document.chunk_count


@pytest.mark.anyio
async def test_parties_listed_past_the_preamble_are_not_read_by_search_s_role_prior(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A real ingest with a stage that tags every passage `parties`, listed anywhere: `list_clauses` lists every
    passage under it and `search_case(clause_type="parties")` finds them all, but the likelihoods record search's
    role prior reads holds the tag's probability on the first passage only, 0 on the others."""
    from casetrack.config import load_settings
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest import clauses
    from casetrack.service.ingest.document import IngestRequest
    from casetrack.store import documents as docstore
    from casetrack.store import keys

    clauses._loaded.cache_clear()
    loaded = clauses._loaded()
    assert loaded is not None
    model, shipped = loaded
    every = np.zeros((385, len(model.types)))
    every[-1] = np.where(np.array(model.types) == "parties", 10.0, -10.0)
    rule = dataclasses.replace(shipped, vector_stage=_vector_stage(every), parties_within=1,
                               parties_listed_anywhere=True)
    monkeypatch.setattr(clauses, "_loaded", lambda: (model, rule))
    (tmp_path / "ability services agreement.txt").write_text(CONTRACT.read_text(encoding="utf-8"), encoding="utf-8")
    root = tmp_path / "CaseTrack"
    app = CaseTrack.open(load_settings(root, environ={}))
    case = app.cases.get(app.create_case("Parties").id)
    ingested = app.ingestor.ingest(case, IngestRequest(str(tmp_path / "ability services agreement.txt")))
    found = app.search.search(case, "the parties to this agreement", top_k=50, clause_type="parties")
    with app.cases.store(case).reader() as db:
        ids = [raw.decode() for _, raw in db.scan(keys.CHUNKS, keys.doc_chunks_prefix(ingested.document.id))]
        read = docstore.role_likelihoods(db, ids)
    app.jobs.shutdown()
    (contract,) = await listed_clauses(root, "Parties", "ability services")
    groups = {g["clause_type"]: g["passages"] for g in contract["clause_types"]}
    assert len(groups["parties"]) == len(ids) == ingested.document.chunk_count > 2
    assert len(found.hits) == len(ids)
    assert read[0]["parties"] > 0.5 and [r["parties"] for r in read[1:]] == [0.0] * (len(ids) - 1)
