"""A chunk's clause likelihoods kept apart from its text (issue 34, search p95 at 100,000 chunks): the soft role
prior reads a small record per candidate, written in the chunk's own batch, deleted with its document, carried
by a case's export and import, and read from the whole chunk record for a case written before. On real RocksDB
stores and a real export / import."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from casetrack.chunk.roles.taxonomy import BY_ID
from casetrack.config import load_settings
from casetrack.domain import ChunkSpan, Document, DocumentType, ExtractionMethod, StoredPage
from casetrack.service.app import CaseTrack
from casetrack.service.cases import portability
from casetrack.service.distribution import licensing
from casetrack.service.ingest.document import IngestRequest
from casetrack.store import documents as docstore
from casetrack.store import keys
from casetrack.store.records import dumps
from casetrack.store.rocks import RocksStore, open_write

LIKELY = {"c1": {"change_of_control": 0.04, "anti_assignment": 0.02}, "c2": {"insurance": 0.05}}
TAGGED = {"c1": {"anti_assignment": 0.4}}
EXPECTED = [{"change_of_control": 0.04, "anti_assignment": 0.4}, {"insurance": 0.05}, {}]

CONTRACT = """SUPPLY AGREEMENT

1. Assignment. Neither party may assign or transfer this Agreement, in whole or in part, without the prior
written consent of the other party, and any assignment without such consent is void.

2. Limitation of Liability. In no event shall either party's aggregate liability under this Agreement exceed
the fees paid by the Buyer in the twelve months preceding the claim.

3. Governing Law. This Agreement is governed by the laws of the State of Delaware.

4. Insurance. The Supplier shall maintain commercial general liability insurance of at least $2,000,000.
"""


def written(chunk_ids: list[str]) -> docstore.DocumentWrite:
    """A contract of one page whose chunks carry the likelihoods and tags above, as ingest hands them over."""
    texts = [f"Passage {i} of the agreement." for i in range(len(chunk_ids))]
    page_text = "\n\n".join(texts)
    doc = Document(id=str(uuid.uuid4()), name="Supply.pdf", original_path=None, file_hash=uuid.uuid4().hex * 2,
                   file_size=0, file_mtime=0.0, format="pdf", document_type=DocumentType.CONTRACT,
                   type_confidence=1.0, type_source="user", page_count=1, chunk_count=len(chunk_ids), ocr_pages=0,
                   skipped_pages=0, ocr_confidence=None, ingested_at=time.time(), embedded_at=None, embedders=("E7",))
    spans, start = [], 0
    for i, (chunk_id, text) in enumerate(zip(chunk_ids, texts, strict=True)):
        spans.append((chunk_id, ChunkSpan(i, 1, start, start + len(text), text, i + 1, i + 1, 0, 0, 8)))
        start += len(text) + 2
    named = dict(zip(("c1", "c2", "c3"), chunk_ids, strict=True))  # the chunks take c1's, c2's and c3's values
    tagged = {named[c]: t for c, t in TAGGED.items()}
    return docstore.DocumentWrite(document=doc, pages=[StoredPage(1, page_text, ExtractionMethod.NATIVE)],
                                  chunks=spans, terms={c: {"passage": 1} for c in chunk_ids},
                                  roles={c: tuple(t) for c, t in tagged.items()}, role_confidence=tagged,
                                  role_likelihood={named[c]: t for c, t in LIKELY.items()})


def likelihood_keys(db: RocksStore) -> list[bytes]:
    return [key for key, _ in db.scan(keys.CHUNKS, keys.LIKELIHOODS_PREFIX)]


def test_likelihoods_are_written_with_the_chunk_read_from_their_own_record_and_deleted_with_it(
        tmp_path: Path) -> None:
    write = written(["c1", "c2", "c3"])
    with open_write(tmp_path / "case", keys.CASE_COLUMN_FAMILIES, "test", 5.0, "test case") as db:
        batch = db.batch()
        docstore.put_document(batch, write)
        db.write(batch)
        assert likelihood_keys(db) == [keys.likelihoods(c) for c in ("c1", "c2", "c3")]  # one a chunk, {} too
        assert docstore.role_likelihoods(db, ["c1", "c2", "c3", "missing"]) == [*EXPECTED, {}]
        # The whole record no longer carries what only the prior reads; it keeps the tags get_chunk shows.
        chunk = docstore.load_chunk(db, "c1", write.document)
        assert chunk is not None and chunk.role_confidence == (("anti_assignment", 0.4),)
        assert b"role_likelihood" not in (db.get(keys.CHUNKS, keys.chunk("c1")) or b"")
        # Read from the small record alone: the whole chunk record gone, the probabilities still there.
        batch = db.batch()
        batch.delete(keys.CHUNKS, keys.chunk("c1"))
        db.write(batch)
        assert docstore.role_likelihoods(db, ["c1"]) == EXPECTED[:1]
        batch = db.batch()
        docstore.delete_document(db, batch, write.document, ["E7"])
        db.write(batch)
        assert likelihood_keys(db) == []
        assert docstore.role_likelihoods(db, ["c2"]) == [{}]


def test_a_case_written_before_the_records_reads_them_from_the_whole_chunk_record(tmp_path: Path) -> None:
    """A chunk as the code before this change stored it (role_likelihood and role_confidence inside the chunk
    record, no likelihoods record) gives the prior exactly what a chunk written now gives it."""
    with open_write(tmp_path / "case", keys.CASE_COLUMN_FAMILIES, "test", 5.0, "test case") as db:
        batch = db.batch()
        docstore.put_document(batch, written(["n1", "n2", "n3"]))
        for old in ("c1", "c2", "c3"):
            record: dict[str, object] = {"id": old, "document_id": "d", "sequence": 0, "text": "old", "token_count": 1}
            if old in TAGGED:
                record["role_confidence"] = TAGGED[old]
            if old in LIKELY:
                record["role_likelihood"] = LIKELY[old]
            batch.put(keys.CHUNKS, keys.chunk(old), dumps(record))
        db.write(batch)
        old = docstore.role_likelihoods(db, ["c1", "n2", "c2", "n1", "c3"])  # the two kinds mixed in one read
    assert old == [EXPECTED[0], EXPECTED[1], EXPECTED[1], EXPECTED[0], EXPECTED[2]]


CRAFTED = {
    "values": json.dumps({"change_of_control": "0.9", "cap_on_liability": 7.0, "audit_rights": -1,
                          "insurance": 1e999, "non_compete": True, "no_such_clause": 0.5, "exclusivity": 0.3}).encode(),
    "not an object": json.dumps(["change_of_control", 0.9]).encode(),
    "not json": b"\xff{change_of_control",
}


@pytest.mark.parametrize("kind", list(CRAFTED))
def test_a_crafted_likelihoods_record_lifts_nothing_but_its_good_values(kind: str, tmp_path: Path) -> None:
    with open_write(tmp_path / "case", keys.CASE_COLUMN_FAMILIES, "test", 5.0, "test case") as db:
        batch = db.batch()
        batch.put(keys.CHUNKS, keys.likelihoods("x"), CRAFTED[kind])
        db.write(batch)
        read = docstore.role_likelihoods(db, ["x"])
    assert read == [{"exclusivity": 0.3} if kind == "values" else {}]


def case_likelihoods(app: CaseTrack, case_id: str) -> dict[tuple[int, int], dict[str, float]]:
    """(document's place by name, chunk sequence) -> the chunk's likelihoods, read as search reads them."""
    case = app.cases.get(case_id)
    out = {}
    with app.cases.store(case).reader() as db:
        for d, doc in enumerate(sorted(app.documents.all(case), key=lambda doc: doc.name)):
            ids = docstore.chunk_ids(db, doc.id)
            assert [db.get(keys.CHUNKS, keys.likelihoods(c)) is not None for c in ids] == [True] * len(ids)
            out.update({(d, s): found for s, found in enumerate(docstore.role_likelihoods(db, ids))})
    return out


def test_export_and_import_carry_the_likelihoods_and_refuse_those_of_no_passage(tmp_path: Path) -> None:
    (tmp_path / "Supply Agreement.txt").write_text(CONTRACT)
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))
    case = app.create_case("Acme v. Widget")
    app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(tmp_path / "Supply Agreement.txt")))
    before = case_likelihoods(app, case.id)
    assert any(before.values())  # the classifier found some clause likely: the test carries something
    exported = portability.export_case(app.cases, app.settings, app.cases.get(case.id), tmp_path / "a.ctcase")
    imported = portability.import_case(app.settings, app.registry, licensing.UNLIMITED, exported.path).case
    assert case_likelihoods(app, imported.id) == before

    # An archive whose store holds likelihoods of a passage that is not in the case is refused whole.
    with open_write(tmp_path / "CaseTrack" / "cases" / imported.id / "case.db", keys.CASE_COLUMN_FAMILIES, "test",
                    5.0, "test") as db:
        batch = db.batch()
        batch.put(keys.CHUNKS, keys.likelihoods(str(uuid.uuid4())), dumps({"change_of_control": 0.9}))
        db.write(batch)
    poisoned = portability.export_case(app.cases, app.settings, app.cases.get(imported.id), tmp_path / "p.ctcase")
    with pytest.raises(portability.BadArchive) as refused:
        portability.import_case(app.settings, app.registry, licensing.UNLIMITED, poisoned.path)
    assert "which is not a passage in the case" in refused.value.message
    assert len(app.list_cases("all")) == 2
    app.jobs.shutdown()


CLAUSES = [
    "Assignment. Neither party may assign, delegate or otherwise transfer this Agreement or any of its rights or "
    "obligations, whether by operation of law, merger or otherwise, without the prior written consent of the other.",
    "Change of Control. If the Supplier undergoes a change of control, the Buyer may terminate this Agreement on "
    "thirty days' written notice given within ninety days after it learns of the change.",
    "Limitation of Liability. In no event shall either party's aggregate liability arising out of this Agreement "
    "exceed the total fees paid by the Buyer in the twelve months preceding the event giving rise to the claim.",
    "Insurance. The Supplier shall maintain, at its own cost, commercial general liability insurance with limits "
    "of not less than two million dollars per occurrence, and shall name the Buyer as an additional insured.",
    "Audit. The Buyer may, on ten business days' notice and not more than once a year, inspect the Supplier's "
    "books and records relating to the fees charged under this Agreement.",
    "Governing Law. This Agreement is governed by the laws of the State of Delaware, without regard to its "
    "conflict of laws rules, and the courts of Wilmington have exclusive jurisdiction.",
    "Minimum Purchase. The Buyer shall purchase at least ten thousand units in each calendar quarter of the term, "
    "and shall pay for any shortfall at the price then in effect.",
    "Exclusivity. During the term the Supplier shall not sell the products to any other distributor in the "
    "territory, and the Buyer shall not purchase competing products from any third party.",
]


def search_state(app: CaseTrack, case_id: str, question: str) -> list[tuple[str, float]]:
    response = app.search.search(app.cases.get(case_id), question, top_k=10)
    return [(hit.chunk.id, hit.evidence.fused if hit.evidence is not None else -1.0) for hit in response.hits]


def rewrite_chunks(app: CaseTrack, case_id: str, likely: Callable[[dict[str, float]], dict[str, float]]) -> None:
    """Every chunk as the code before the likelihoods records stored it: `likely(its likely untagged types)`
    inside its chunk record, no likelihoods record."""
    store = app.cases.store(app.cases.get(case_id))
    with store.writer("test") as db:
        batch = db.batch()
        for chunk_key, raw in list(db.scan(keys.CHUNKS, b"chunk:")):
            record = json.loads(raw)
            likely_key = keys.likelihoods(record["id"])
            small = json.loads(db.get(keys.CHUNKS, likely_key) or b"{}")
            tagged = record.get("role_confidence", {})
            record["role_likelihood"] = likely({t: p for t, p in small.items() if t not in tagged})
            batch.put(keys.CHUNKS, chunk_key, dumps(record))
            batch.delete(keys.CHUNKS, likely_key)
        db.write(batch)


def test_a_case_written_before_ranks_as_one_written_now(tmp_path: Path) -> None:
    """Search through the service on a real ingested contract: its chunks rewritten as an older CaseTrack wrote
    them rank and score the same; other likelihoods in those old records change the results (so they are read)."""
    schedules = [f"Schedule {i}. Shipment lot {i} is delivered to warehouse {i} at dock {i + 3}; the carrier for "
                 f"lot {i} is named in the purchase order that covers it." for i in range(1, 41)]
    (tmp_path / "Supply Agreement.txt").write_text("SUPPLY AGREEMENT\n\n" + "\n\n".join(CLAUSES))
    (tmp_path / "Delivery Schedule.txt").write_text("\n\n".join(schedules))
    app = CaseTrack.open(load_settings(tmp_path / "CaseTrack", environ={}))
    case = app.create_case("Acme v. Widget")
    for name in ("Supply Agreement.txt", "Delivery Schedule.txt"):
        app.ingestor.ingest(app.cases.get(case.id), IngestRequest(str(tmp_path / name)))
    questions = ["the anti-assignment clause: can the agreement be assigned without consent?",
                 "the cap on liability of each party", "the change of control termination right",
                 "the minimum purchase commitment each quarter"]
    now = [search_state(app, case.id, q) for q in questions]
    rewrite_chunks(app, case.id, lambda found: found)
    assert [search_state(app, case.id, q) for q in questions] == now
    rewrite_chunks(app, case.id, lambda found: dict.fromkeys(BY_ID, 0.5))
    assert [search_state(app, case.id, q) for q in questions] != now
    app.jobs.shutdown()
