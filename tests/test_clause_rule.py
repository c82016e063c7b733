"""The clause library's decision rule (service.ingest.clauses.ClauseRule, issue 34): an agreement is tagged seeing
all its passages at once, so a type's likeliest passage in the contract is listed even below the threshold, and
`parties` only in the preamble. Checked on a real CUAD contract ingested into a real case (RocksDB, the shipped
classifier's weights with a rule written into a copy of its meta.json), read back through `casetrack serve`."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.mcp_helpers import listed_clauses
from tests.test_clauses_mcp import OPINION

# CUAD v1 (The Atticus Project, CC BY 4.0), see tests/chunk/data/unseen/README.md
CONTRACT = Path(__file__).parent / "chunk" / "data" / "unseen" / "ability_services_agreement.txt"


def test_the_likeliest_passage_of_each_document_is_tagged_and_parties_only_in_its_preamble() -> None:
    from casetrack.service.ingest.clauses import ClauseRule, decided

    types = ("parties", "governing_law")
    best = np.array([[0.9, 0.01], [0.5, 0.06], [0.2, 0.03],  # document 0: governing law's best is 0.06
                     [0.01, 0.02], [0.6, 0.01]])  # document 1: nothing reaches best_from for governing law
    document = np.array([0, 0, 0, 1, 1])
    threshold_only = decided(best, types, ClauseRule.of({"threshold": 0.4}), document)
    assert threshold_only[:, 1].tolist() == [False] * 5 and threshold_only[:, 0].tolist() == [1, 1, 0, 0, 1]
    rule = ClauseRule(0.4, best_from=0.05, near_best=0.5, parties_within=1)
    tagged = decided(best, types, rule, document)
    assert tagged[:, 1].tolist() == [False, True, False, False, False]
    assert tagged[:, 0].tolist() == [True, False, False, False, False]  # the second document's 0.6 is not first
    assert decided(best[:3], types, rule).tolist() == tagged[:3].tolist()  # one document: the same


@pytest.fixture(scope="module")
def ruled_case(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A case holding the contract and an opinion, tagged with a threshold nothing reaches (1.0) and the rule
    that every type's likeliest passage of an agreement is listed from 0.05 up, parties only in the first."""
    from casetrack.config import load_settings
    from casetrack.embed import clause_artefact
    from casetrack.service.app import CaseTrack
    from casetrack.service.ingest import clauses
    from casetrack.service.ingest.document import IngestRequest

    folder = tmp_path_factory.mktemp("rule")
    artefact = folder / "artefact"
    shutil.copytree(clause_artefact.FOLDER, artefact)
    for stage in artefact.glob("stage_*.npy"):  # an artefact from before the learned stage: its rule decides
        stage.unlink()
    meta = json.loads((artefact / "meta.json").read_text(encoding="utf-8"))
    meta.update(threshold=1.0, best_from=0.05, parties_within=1)
    (artefact / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    (folder / "ability services agreement.txt").write_text(CONTRACT.read_text(encoding="utf-8"), encoding="utf-8")
    (folder / "Smith v Jones opinion.txt").write_text(OPINION, encoding="utf-8")
    root = folder / "CaseTrack"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(clauses, "read_artefact", lambda: clause_artefact.read_artefact(artefact))
        clauses._loaded.cache_clear()
        try:
            app = CaseTrack.open(load_settings(root, environ={}))
            case = app.create_case("Ability")
            for name in ("ability services agreement.txt", "Smith v Jones opinion.txt"):
                app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(folder / name)))
            app.jobs.shutdown()
        finally:
            clauses._loaded.cache_clear()
    yield root


@pytest.mark.anyio
async def test_the_library_lists_each_clause_types_likeliest_passage_when_none_reaches_the_threshold(
        ruled_case: Path) -> None:
    from casetrack.chunk.roles.taxonomy import BY_ID, DECISION

    contract, opinion = await listed_clauses(ruled_case, "Ability", "ability services", "Smith v Jones")
    groups = {g["clause_type"]: g["passages"] for g in contract["clause_types"]}
    # nothing reaches 1.0: each learned type listed is there by the rule, on one passage, the contract's likeliest
    assert len(groups["governing_law"]) == 1 and "governed by" in groups["governing_law"][0]["text"]
    assert len(groups["parties"]) == 1 and groups["parties"][0]["text"].lstrip().startswith("EXHIBIT 4.25")
    # a decision still takes no contract clause type, whatever the rule lists for an agreement
    assert {BY_ID[g["clause_type"]].family for g in opinion["clause_types"]} == {DECISION}
