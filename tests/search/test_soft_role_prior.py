"""The soft role prior (issue 34): a passage the classifier did not tag with the clause type a question asks for
is still lifted by how likely it found it to be one, read from the chunk's stored likelihoods on a real store."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

import pytest

from casetrack.index.bm25 import index_state_from_entries
from casetrack.index.postings import Key
from casetrack.search.evidence import LIKELY_FROM, LIKELY_FULL, evidence, likely
from casetrack.search.pipeline import DEFAULT_PIPELINE
from casetrack.search.scope import Scope
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.rocks import open_write


def test_a_passage_is_lifted_more_the_likelier_it_is_the_clause_asked_for() -> None:
    assert likely(0.0) == 0.0 and likely(LIKELY_FROM) == 0.0
    assert likely(LIKELY_FULL) == 1.0 and likely(0.9) == 1.0
    steps = [likely(p) for p in (0.015, 0.02, 0.04, 0.06, 0.08)]
    assert all(0.0 < s < 1.0 for s in steps) and steps == sorted(steps)
    # by log-odds: 0.03 is halfway in odds between 0.01 and 0.09, so more than a third of the lift
    assert 0.45 < likely(0.03) < 0.55


def test_likelihoods_are_read_from_the_chunk_record_and_a_crafted_one_lifts_nothing(tmp_path: Path) -> None:
    records = {
        "kept": {"id": "kept", "role_confidence": {"anti_assignment": 0.4},
                 "role_likelihood": {"change_of_control": 0.04}},
        "crafted": {"id": "crafted", "role_likelihood": {"change_of_control": "0.9", "cap_on_liability": 7.0,
                                                         "audit_rights": -1, "insurance": math.inf},
                    "role_confidence": ["not", "a", "mapping"]},
    }
    with open_write(tmp_path / "case", keys.CASE_COLUMN_FAMILIES, "test", 5.0, "test case") as db:
        batch = db.batch()
        for chunk_id, record in records.items():
            batch.put(keys.CHUNKS, keys.chunk(chunk_id), json.dumps(record).encode())
        db.write(batch)
        kept, crafted, missing = docstore.role_likelihoods(db, ["kept", "crafted", "missing"])
    assert kept == {"anti_assignment": 0.4, "change_of_control": 0.04}
    assert crafted == {} and missing == {}


def test_the_prior_reads_likelihoods_only_for_a_question_asking_a_clause_type() -> None:
    """A question that names a document and asks no clause type reads no likelihoods (a cold read of a hundred
    records for nothing); one that asks reads the candidates' and lifts each by its own."""
    keys = [f"k{i}" for i in range(6)]
    bm25 = index_state_from_entries((key, {"assign": 1}) for key in keys)
    stored = {key: {"anti_assignment": 0.01 + 0.02 * i} for i, key in enumerate(keys)}
    asked: list[list[str]] = []

    def likelihoods(wanted: Sequence[Key]) -> list[dict[str, float]]:
        asked.append([str(key) for key in wanted])
        return [stored[str(key)] for key in wanted]

    named = Scope(frozenset({"doc"}), frozenset(), {"doc": 1.0})
    found = evidence(named, ["assign"], [], {}, bm25, lambda doc: keys[:3], None, DEFAULT_PIPELINE, likelihoods)
    assert found.prior is not None
    assert found.prior(keys) == [DEFAULT_PIPELINE.name_weight * (1.0 if i < 3 else 0.0) for i in range(6)]
    assert asked == []
    roles = {"anti_assignment": 0.9}
    found = evidence(None, ["assign"], [], roles, bm25, lambda doc: [], None, DEFAULT_PIPELINE, likelihoods)
    assert found.prior is not None
    lifts = found.prior(keys)
    assert asked == [keys]
    assert lifts == pytest.approx([DEFAULT_PIPELINE.role_weight * 0.9 * likely(stored[key]["anti_assignment"])
                                   for key in keys])
    # 0.01 lifts none, 0.11 in full
    assert lifts[0] == 0.0 and lifts[-1] == pytest.approx(DEFAULT_PIPELINE.role_weight * 0.9)
